//! A tiny chess UCI engine for the tests of `chuhan perft --engine --game chess` and
//! `engine-check --game chess`: it answers `go perft D` with a Stockfish-style divide from the
//! engine library's chess rules, except for a planted bug, and any other `go` with the first
//! legal move (`go infinite` only at `stop`, answering `isready` meanwhile).
//!
//! - `--bug no-en-passant`: never generates en-passant captures (moves missing);
//! - `--bug no-underpromotion`: promotes to a queen only (moves missing);
//! - `--bug king-into-check`: adds king steps onto attacked empty squares, each counted as one
//!   leaf (moves extra);
//! - `--illegal-bestmove`: answers every `go` with a well-formed move that is not legal;
//! - `--no-perft`: `go perft` is answered like any `go`.

use chuhan_engine::chess::{Move, MoveKind, PieceKind, Position, Square};
use std::io::{BufRead, Write};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bug {
    NoEnPassant,
    NoUnderpromotion,
    KingIntoCheck,
}

#[derive(Default)]
struct Flags {
    bug: Option<Bug>,
    illegal_bestmove: bool,
    no_perft: bool,
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn flags() -> Flags {
    let mut f = Flags::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bug" => {
                f.bug = Some(match args.next().as_deref() {
                    Some("no-en-passant") => Bug::NoEnPassant,
                    Some("no-underpromotion") => Bug::NoUnderpromotion,
                    Some("king-into-check") => Bug::KingIntoCheck,
                    other => {
                        eprintln!("uci-chess-misbehave: unknown bug {other:?}");
                        std::process::exit(2);
                    }
                })
            }
            "--illegal-bestmove" => f.illegal_bestmove = true,
            "--no-perft" => f.no_perft = true,
            other => {
                eprintln!("uci-chess-misbehave: unknown flag {other}");
                std::process::exit(2);
            }
        }
    }
    f
}

/// The moves it generates: the legal ones less or more the bug's, each with whether it is
/// legal (an illegal one is counted as a leaf).
fn moves(pos: &Position, bug: Option<Bug>) -> Vec<(Move, bool)> {
    let mut out: Vec<(Move, bool)> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| match (bug, m.kind()) {
            (Some(Bug::NoEnPassant), MoveKind::EnPassant) => false,
            (Some(Bug::NoUnderpromotion), MoveKind::Promotion(k)) => k == PieceKind::Queen,
            _ => true,
        })
        .map(|m| (m, true))
        .collect();
    if bug == Some(Bug::KingIntoCheck) {
        let side = pos.side_to_move();
        let king = pos.king(side);
        for to in (0..64u8).map(Square) {
            let step = (king.file().abs_diff(to.file())).max(king.rank().abs_diff(to.rank())) == 1;
            if step
                && pos.piece_at(to).is_empty()
                && pos.is_attacked(to, side.flip(), pos.occupied())
            {
                out.push((Move::new(king, to), false));
            }
        }
    }
    out
}

fn perft(pos: &mut Position, depth: u32, bug: Option<Bug>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for (mv, legal) in moves(pos, bug) {
        if legal {
            pos.make(mv);
            n += perft(pos, depth - 1, bug);
            pos.unmake();
        } else {
            n += 1;
        }
    }
    n
}

fn divide(pos: &mut Position, depth: u32, bug: Option<Bug>) {
    let mut total = 0;
    for (mv, legal) in moves(pos, bug) {
        let n = if legal {
            pos.make(mv);
            let n = perft(pos, depth.saturating_sub(1), bug);
            pos.unmake();
            n
        } else {
            1
        };
        total += n;
        say(&format!("{mv}: {n}"));
    }
    say("");
    say(&format!("Nodes searched: {total}"));
}

/// A well-formed move of a piece of the side to move that is not legal.
fn illegal_move(pos: &Position) -> Move {
    let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_uci()).collect();
    let side = pos.side_to_move();
    for from in (0..64u8).map(Square) {
        let piece = pos.piece_at(from);
        if piece.is_empty() || piece.color() != side {
            continue;
        }
        for to in (0..64u8).map(Square) {
            let mv = Move::new(from, to);
            if to != from && !legal.contains(&mv.to_uci()) {
                return mv;
            }
        }
    }
    unreachable!("some move is always illegal")
}

fn bestmove(pos: &Position, f: &Flags) -> String {
    if f.illegal_bestmove {
        return format!("bestmove {}", illegal_move(pos));
    }
    match pos.legal_moves().iter().next() {
        Some(mv) => format!("bestmove {mv}"),
        None => "bestmove 0000".into(),
    }
}

fn position(words: &[&str]) -> Option<Position> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let head = &words[..moves_at.unwrap_or(words.len())];
    let mut pos = match head.first() {
        Some(&"startpos") => Position::startpos(),
        Some(&"fen") => Position::from_fen(&head[1..].join(" ")).ok()?,
        _ => return None,
    };
    for text in moves_at.map_or(&[][..], |i| &words[i + 1..]) {
        let mv = pos.parse_uci(text).ok()?;
        pos.make(mv);
    }
    Some(pos)
}

fn main() {
    let f = flags();
    let mut pos = Position::startpos();
    let mut input = std::io::stdin().lock().lines();
    while let Some(Ok(line)) = input.next() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                say("id name uci-chess-misbehave");
                say("option name Hash type spin default 16 min 1 max 1024");
                say("uciok");
            }
            Some("isready") => say("readyok"),
            Some("position") => match position(&words[1..]) {
                Some(p) => pos = p,
                None => say(&format!("info string bad position: {line}")),
            },
            Some("go") => match words.get(1).copied() {
                Some("perft") if !f.no_perft => {
                    let depth = words.get(2).and_then(|d| d.parse().ok()).unwrap_or(1);
                    divide(&mut pos, depth, f.bug);
                }
                Some("infinite") => {
                    while let Some(Ok(next)) = input.next() {
                        match next.trim() {
                            "isready" => say("readyok"),
                            "stop" => break,
                            "quit" => return,
                            _ => {}
                        }
                    }
                    say(&bestmove(&pos, &f));
                }
                _ => say(&bestmove(&pos, &f)),
            },
            Some("quit") => return,
            _ => {}
        }
    }
}
