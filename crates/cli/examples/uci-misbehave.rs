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
//!
//! `--ucci` speaks UCCI instead (`ucci`/`ucciok`, `usemillisec`, `banmoves`, bare scores,
//! `bye`; it answers `unknown command: X` to anything else, `uci` included), logging each
//! `go` and `banmoves` it gets to stderr; with `--prefer-repeat` it plays a move back to a
//! position of the game's history when it can (so a repetition it is banned from shows), and
//! `--ignore-banmoves` makes it disregard `banmoves`.
//!
//! Bytes: `--bad-utf8` prints an info line holding invalid UTF-8 before every move,
//! `--long-line` a 1 MiB info line, `--flood-at N` prints info lines without end at move N.
//!
//! Options: `Greed` (spin 0–100, default 0) is the percentage of moves where it takes the most
//! valuable piece it can instead of its fixed pick: a setting that changes its play, for tuning
//! tests. In UCI `setoption name Greed value N`, in UCCI `setoption Greed N`.

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
    ucci: bool,
    prefer_repeat: bool,
    ignore_banmoves: bool,
    bad_utf8: bool,
    long_line: bool,
    flood_at: Option<u64>,
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
            "--ucci" => f.ucci = true,
            "--prefer-repeat" => f.prefer_repeat = true,
            "--ignore-banmoves" => f.ignore_banmoves = true,
            "--bad-utf8" => f.bad_utf8 = true,
            "--long-line" => f.long_line = true,
            "--flood-at" => f.flood_at = number(),
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
    if flags.ucci {
        ucci_main(&flags);
    }
    let pid = std::process::id();
    eprintln!("uci-misbehave pid {pid} started");
    let mut position = Position::startpos();
    let mut moves_made = 0u64;
    let mut greed = 0u32;
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
                    say("option name Greed type spin default 0 min 0 max 100");
                    say("uciok");
                }
            }
            Some("setoption") => greed = parse_greed(&words[1..]).unwrap_or(greed),
            Some("isready") => say("readyok"),
            Some("position") => match parse_position(&words[1..]) {
                Some(p) => position = p,
                None => eprintln!("uci-misbehave pid {pid}: bad position command: {line}"),
            },
            Some("go") => {
                moves_made += 1;
                let n = moves_made;
                eprintln!("uci-misbehave pid {pid} move {n}");
                noise(&flags, armed(flags.flood_at, n));
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
                let pick = pick_move(&mut position, &legal, greed);
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

/// The move it plays: the most valuable capture in `greed` percent of positions (chosen by a
/// hash of the position), else a fixed, varied pick: legal, reproducible, unlikely to repeat.
fn pick_move(position: &mut Position, legal: &[Move], greed: u32) -> Move {
    let fen = position.to_fen();
    let hash = fen.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    if hash % 100 < u64::from(greed) {
        let value = |mv: &Move| match position.piece_at(mv.to()).fen_char().to_ascii_lowercase() {
            'r' => 9,
            'c' => 5,
            'n' | 'h' => 4,
            'b' | 'e' | 'a' => 2,
            'p' => 1,
            _ => 0,
        };
        if let Some(best) = legal
            .iter()
            .filter(|m| value(m) > 0)
            .max_by_key(|m| value(m))
        {
            return *best;
        }
    }
    legal[(position.ply_count() * 7 + 3) % legal.len()]
}

/// `Greed` from `name Greed value N` (UCI) or `Greed N` (UCCI).
fn parse_greed(words: &[&str]) -> Option<u32> {
    match words {
        ["name", "Greed", "value", v] | ["Greed", v] => v.parse().ok().map(|g: u32| g.min(100)),
        _ => None,
    }
}

/// Whether `--once` lets it misbehave now (creating its file when it does).
fn once_allows(flags: &Flags) -> bool {
    match &flags.once {
        Some(file) if file.exists() => false,
        Some(file) => std::fs::write(file, "misbehaved\n").is_ok(),
        None => true,
    }
}

/// The byte misdeeds before a move: invalid UTF-8, a megabyte line, and a flood without end
/// when `flood`.
fn noise(flags: &Flags, flood: bool) {
    let mut out = std::io::stdout().lock();
    if flags.bad_utf8 {
        let _ = out.write_all(b"info string caf\xe9 \xff\xfe not utf-8\n");
    }
    if flags.long_line {
        let mut line = b"info string ".to_vec();
        line.resize(1 << 20, b'x');
        line.push(b'\n');
        let _ = out.write_all(&line);
    }
    let _ = out.flush();
    if flood {
        eprintln!("uci-misbehave pid {}: flooding", std::process::id());
        loop {
            if out
                .write_all(b"info depth 1 score cp 0 nodes 1 pv the flood goes on\n")
                .is_err()
            {
                std::process::exit(0);
            }
        }
    }
}

/// The positions (FEN board and side) before each move of a `position` command's game.
fn history_of(words: &[&str]) -> Vec<String> {
    let key = |p: &Position| p.to_fen().split(' ').take(2).collect::<Vec<_>>().join(" ");
    let moves_at = words.iter().position(|w| *w == "moves");
    let head = &words[..moves_at.unwrap_or(words.len())];
    let mut pos = match head.first() {
        Some(&"fen") => match Position::from_fen(&head[1..].join(" ")) {
            Ok(p) => p,
            Err(_) => return Vec::new(),
        },
        _ => Position::startpos(),
    };
    let mut seen = vec![key(&pos)];
    for text in moves_at.map_or(&[][..], |i| &words[i + 1..]) {
        let Ok(mv) = pos.parse_uci_move(text) else {
            break;
        };
        pos.make(mv);
        seen.push(key(&pos));
    }
    seen
}

/// The UCCI dialect of the test engine.
fn ucci_main(flags: &Flags) -> ! {
    let pid = std::process::id();
    eprintln!("uci-misbehave pid {pid} started (ucci)");
    let key = |p: &Position| p.to_fen().split(' ').take(2).collect::<Vec<_>>().join(" ");
    let mut position = Position::startpos();
    let mut history: Vec<String> = Vec::new();
    let mut banned: Vec<Move> = Vec::new();
    let mut greed = 0u32;
    let mut moves_made = 0u64;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("ucci") => {
                say("id name uci-misbehave (ucci)");
                say("option usemillisec type check default false");
                say("option Greed type spin min 0 max 100 default 0");
                say("ucciok");
            }
            Some("isready") => say("readyok"),
            Some("setoption") => {
                eprintln!("uci-misbehave pid {pid}: {line}");
                greed = parse_greed(&words[1..]).unwrap_or(greed);
            }
            Some("position") => match parse_position(&words[1..]) {
                Some(p) => {
                    position = p;
                    history = history_of(&words[1..]);
                    banned.clear();
                }
                None => eprintln!("uci-misbehave pid {pid}: bad position command: {line}"),
            },
            Some("banmoves") => {
                eprintln!("uci-misbehave pid {pid}: {line}");
                banned = words[1..]
                    .iter()
                    .filter_map(|w| Move::parse_uci(w))
                    .collect();
            }
            Some("go") => {
                moves_made += 1;
                eprintln!("uci-misbehave pid {pid} move {moves_made}: {line}");
                noise(
                    flags,
                    flags.flood_at == Some(moves_made) && once_allows(flags),
                );
                let mut legal: Vec<Move> = position.legal_moves().iter().copied().collect();
                if !flags.ignore_banmoves {
                    legal.retain(|m| !banned.contains(m));
                }
                if legal.is_empty() {
                    say("nobestmove");
                    continue;
                }
                let repeat = legal.iter().copied().find(|&mv| {
                    position.make(mv);
                    let again = history.contains(&key(&position));
                    position.unmake();
                    again
                });
                let pick = match repeat {
                    Some(mv) if flags.prefer_repeat => mv,
                    _ => pick_move(&mut position, &legal, greed),
                };
                say("info depth 1 score 0 nodes 1");
                say(&format!("bestmove {}", pick.to_uci()));
            }
            Some("quit") => {
                say("bye");
                break;
            }
            Some(other) => say(&format!("unknown command: {other}")),
            None => {}
        }
    }
    std::process::exit(0)
}
