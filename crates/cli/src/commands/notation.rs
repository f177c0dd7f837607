//! `chuhan notation`: play moves from a position and write each in the chosen notation.

use crate::args::NotationArgs;
use crate::{EXIT_OK, EXIT_USAGE};
use chuhan_engine::notation::{parse_any, render};
use chuhan_engine::{Position, START_FEN};
use std::io::Write;

/// Runs the command: one line per move on stdout; exit 2 on a bad FEN or a move that is not
/// legal (the message names the move and its 1-based index).
pub fn run(args: &NotationArgs) -> anyhow::Result<u8> {
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    let mut pos = match Position::from_fen(fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("chuhan: error: bad FEN '{fen}': {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let mut lines = Vec::new();
    for (i, text) in args.moves.split_whitespace().enumerate() {
        let index = i + 1;
        let written = parse_any(&mut pos, text)
            .and_then(|mv| render(&mut pos, mv, args.format).map(|s| (mv, s)));
        match written {
            Ok((mv, line)) => {
                lines.push(line);
                pos.make(mv);
            }
            Err(e) => {
                eprintln!("chuhan: error: move {index} '{text}' is not a legal move: {e}");
                return Ok(EXIT_USAGE);
            }
        }
    }
    let mut out = std::io::stdout().lock();
    for line in &lines {
        writeln!(out, "{line}")?;
    }
    Ok(EXIT_OK)
}
