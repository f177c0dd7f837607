//! A tiny UCI engine for the arena's tests that misbehaves on request. It is an example, not a
//! binary, so `cargo run` and `cargo install` see `chuhan` alone; `cargo test` builds it. It
//! plays legal moves (a fixed pick from the engine library's legal move list, ranks 0–9) and,
//! at its N-th move since the process started:
//!
//! - `--crash-at N`: exits with status 3;
//! - `--hang-at N`: never answers (keeps reading its input);
//! - `--illegal-at N`: answers a well-formed move that is not legal;
//! - `--garbage-at N`: answers `bestmove` with text that is not a move;
//! - `--close-at N`: closes its output and keeps running.
//!
//! `--once FILE` misbehaves only while FILE does not exist, and creates it when it does (so a
//! restarted process plays normally). `--no-uciok` never finishes the handshake. Every move
//! and every misdeed is written to stderr with the process id.

use chuhan_engine::{Move, Position, Square};
use std::io::{BufRead, Write};
use std::path::PathBuf;

#[derive(Default)]
struct Flags {
    crash_at: Option<u64>,
    hang_at: Option<u64>,
    illegal_at: Option<u64>,
    garbage_at: Option<u64>,
    close_at: Option<u64>,
    once: Option<PathBuf>,
    no_uciok: bool,
    idle: bool,
}

fn parse_flags() -> Flags {
    let mut f = Flags::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = || -> Option<u64> { args.next().and_then(|v| v.parse().ok()) };
        match a.as_str() {
            "--crash-at" => f.crash_at = number(),
            "--hang-at" => f.hang_at = number(),
            "--illegal-at" => f.illegal_at = number(),
            "--garbage-at" => f.garbage_at = number(),
            "--close-at" => f.close_at = number(),
            "--once" => f.once = args.next().map(PathBuf::from),
            "--no-uciok" => f.no_uciok = true,
            "--idle" => f.idle = true,
            other => {
                eprintln!("uci-misbehave: unknown flag {other}");
                std::process::exit(2);
            }
        }
    }
    f
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Reads input until it ends, answering nothing.
fn idle() -> ! {
    for line in std::io::stdin().lock().lines() {
        if line.is_err() {
            break;
        }
    }
    std::process::exit(0)
}

/// The position of a `position fen ... [moves ...]` or `position startpos ...` command.
fn parse_position(words: &[&str]) -> Option<Position> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let head = &words[..moves_at.unwrap_or(words.len())];
    let mut pos = match head.first() {
        Some(&"startpos") => Position::startpos(),
        Some(&"fen") => Position::from_fen(&head[1..].join(" ")).ok()?,
        _ => return None,
    };
    if let Some(i) = moves_at {
        for text in &words[i + 1..] {
            let mv = pos.parse_uci_move(text).ok()?;
            pos.make(mv);
        }
    }
    Some(pos)
}

/// A well-formed move that is not legal: a piece of the side to move sent somewhere it cannot
/// go.
fn illegal_move(pos: &mut Position) -> Move {
    let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let side = pos.side_to_move();
    for from in (0..90).filter_map(Square::from_index) {
        let piece = pos.piece_at(from);
        if piece.is_empty() || piece.color() != side {
            continue;
        }
        for to in (0..90).filter_map(Square::from_index) {
            let mv = Move::new(from, to);
            if to != from && !legal.contains(&mv) {
                return mv;
            }
        }
    }
    unreachable!("some move is always illegal")
}

fn main() {
    let flags = parse_flags();
    if flags.idle {
        idle();
    }
    let pid = std::process::id();
    eprintln!("uci-misbehave pid {pid} started");
    let mut position = Position::startpos();
    let mut moves_made = 0u64;
    let armed = |at: Option<u64>, n: u64| {
        at == Some(n)
            && match &flags.once {
                Some(file) if file.exists() => false,
                Some(file) => std::fs::write(file, "misbehaved\n").is_ok(),
                None => true,
            }
    };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                say("id name uci-misbehave");
                say("id author the Chuhan tests");
                if flags.no_uciok {
                    eprintln!("uci-misbehave pid {pid}: not saying uciok");
                } else {
                    say("uciok");
                }
            }
            Some("isready") => say("readyok"),
            Some("position") => match parse_position(&words[1..]) {
                Some(p) => position = p,
                None => eprintln!("uci-misbehave pid {pid}: bad position command: {line}"),
            },
            Some("go") => {
                moves_made += 1;
                let n = moves_made;
                eprintln!("uci-misbehave pid {pid} move {n}");
                if armed(flags.crash_at, n) {
                    eprintln!("uci-misbehave pid {pid}: crashing at move {n}");
                    std::process::exit(3);
                }
                if armed(flags.hang_at, n) {
                    eprintln!("uci-misbehave pid {pid}: hanging at move {n}");
                    idle();
                }
                if armed(flags.close_at, n) {
                    eprintln!("uci-misbehave pid {pid}: closing stdout at move {n}");
                    close_stdout_and_idle();
                }
                if armed(flags.garbage_at, n) {
                    eprintln!("uci-misbehave pid {pid}: garbage at move {n}");
                    say("info this is not uci");
                    say("bestmove ~~zz~~");
                    continue;
                }
                if armed(flags.illegal_at, n) {
                    let mv = illegal_move(&mut position);
                    eprintln!("uci-misbehave pid {pid}: illegal move {mv} at move {n}");
                    say(&format!("bestmove {}", mv.to_uci()));
                    continue;
                }
                let legal: Vec<Move> = position.legal_moves().iter().copied().collect();
                if legal.is_empty() {
                    say("bestmove 0000");
                    continue;
                }
                // A fixed, varied pick: legal, reproducible, unlikely to repeat positions.
                let pick = legal[(position.ply_count() * 7 + 3) % legal.len()];
                say("info depth 1 score cp 0 nodes 1");
                say(&format!("bestmove {}", pick.to_uci()));
            }
            Some("quit") => break,
            _ => {}
        }
    }
}

/// Replaces this process's image with `uci-misbehave --idle` whose stdout is /dev/null: the
/// same process (same id) keeps reading its input, but the pipe the arena reads is closed.
#[cfg(unix)]
fn close_stdout_and_idle() -> ! {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe().expect("own path");
    let err = std::process::Command::new(exe)
        .arg("--idle")
        .stdout(std::process::Stdio::null())
        .exec();
    eprintln!("uci-misbehave: exec failed: {err}");
    std::process::exit(4)
}

#[cfg(not(unix))]
fn close_stdout_and_idle() -> ! {
    idle()
}
