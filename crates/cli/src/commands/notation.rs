//! `chuhan notation`: play moves from a position and write each in the chosen notation
//! (xiangqi: ICCS, UCI, WXF, Chinese; chess with `--game chess`: SAN or UCI).

use crate::common::flags::GameArg;
use crate::common::game_input::{self, ChessMoveError, CHESS_MOVE_FORMS};
use crate::{EXIT_OK, EXIT_USAGE};
use chuhan_engine::notation::{parse_any, render};
use chuhan_engine::{Notation, START_FEN};
use clap::Args;
use std::io::Write;

/// `chuhan notation`.
#[derive(Debug, Args)]
pub struct NotationArgs {
    /// The start position, as FEN (default: the standard start of the game).
    #[arg(long)]
    pub fen: Option<String>,
    /// The moves, space-separated: xiangqi in UCI (`h2e2`) or any other notation (ICCS, WXF,
    /// Chinese); chess in UCI (`e2e4`, `e7e8q`) or SAN (`Nf3`, `exd5`, `e8=Q`, `O-O`).
    #[arg(long, allow_hyphen_values = true)]
    pub moves: String,
    /// The notation to write: xiangqi iccs (default), uci, wxf or chinese; chess san (default)
    /// or uci.
    #[arg(long)]
    pub format: Option<String>,
    /// The game: xiangqi (default) or chess.
    #[arg(long, value_enum, default_value_t = GameArg::Xiangqi)]
    pub game: GameArg,
}

/// Runs the command: one line per move on stdout; exit 2 on a bad FEN, a bad `--format` or a
/// move that is not legal (the message names the move and its 1-based index).
pub fn run(args: &NotationArgs) -> anyhow::Result<u8> {
    let written = match args.game {
        GameArg::Xiangqi => xiangqi(args),
        GameArg::Chess => chess(args),
    };
    let lines = match written {
        Ok(lines) => lines,
        Err(message) => {
            eprintln!("chuhan: error: {message}");
            return Ok(EXIT_USAGE);
        }
    };
    let mut out = std::io::stdout().lock();
    for line in &lines {
        writeln!(out, "{line}")?;
    }
    Ok(EXIT_OK)
}

fn xiangqi(args: &NotationArgs) -> Result<Vec<String>, String> {
    let format: Notation = match &args.format {
        None => Notation::Iccs,
        Some(text) => text.parse().map_err(|e| format!("--format: {e}"))?,
    };
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    let mut pos = game_input::xiangqi_position(fen)?;
    let mut lines = Vec::new();
    for (i, text) in args.moves.split_whitespace().enumerate() {
        let index = i + 1;
        let mv =
            parse_any(&mut pos, text).and_then(|mv| render(&mut pos, mv, format).map(|s| (mv, s)));
        match mv {
            Ok((mv, line)) => {
                lines.push(line);
                pos.make(mv);
            }
            Err(e) => return Err(format!("move {index} '{text}' is not a legal move: {e}")),
        }
    }
    Ok(lines)
}

/// The notations chess moves are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ChessFormat {
    San,
    Uci,
}

fn chess(args: &NotationArgs) -> Result<Vec<String>, String> {
    let format = match args.format.as_deref().map(str::trim) {
        None => ChessFormat::San,
        Some(f) if f.eq_ignore_ascii_case("san") => ChessFormat::San,
        Some(f) if f.eq_ignore_ascii_case("uci") => ChessFormat::Uci,
        Some(other) => {
            return Err(format!(
                "--format: '{other}' is not a chess notation; expected san or uci"
            ))
        }
    };
    let fen = args
        .fen
        .as_deref()
        .unwrap_or(chuhan_engine::chess::START_FEN);
    let mut pos = game_input::chess_position(fen)?;
    let mut lines = Vec::new();
    for (i, text) in args.moves.split_whitespace().enumerate() {
        let index = i + 1;
        let mv = match game_input::chess_move(&pos, text) {
            Ok(mv) => mv,
            Err(ChessMoveError::Syntax) => {
                return Err(format!("move {index} '{text}' is not {CHESS_MOVE_FORMS}"))
            }
            Err(ChessMoveError::Illegal(why)) => {
                return Err(format!("move {index} '{text}' is not a legal move: {why}"))
            }
        };
        lines.push(match format {
            ChessFormat::Uci => mv.to_uci(),
            ChessFormat::San => pos
                .to_san(mv)
                .map_err(|e| format!("move {index} '{text}': {e}"))?,
        });
        pos.make(mv);
    }
    Ok(lines)
}
