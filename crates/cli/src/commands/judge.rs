//! `chuhan judge`: plays moves from a FEN, judging after each under the game rules (xiangqi,
//! or chess with `--game chess`), and prints the first verdict (or that the game goes on).

use crate::common::flags::GameArg;
use crate::common::game_input::{self, ChessMoveError, CHESS_MOVE_FORMS};
use crate::{EXIT_OK, EXIT_USAGE};
use chuhan_engine::chess;
use chuhan_engine::{Game, GameConfig, Move, Verdict};
use clap::Args;
use serde::Serialize;

/// `chuhan judge`.
#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// The starting position, as FEN (xiangqi: ranks 0-9, `w` = Red to move).
    #[arg(long)]
    pub fen: String,
    /// Moves separated by spaces: xiangqi in UCI form with ranks 0-9 ("h2e2 h9g7"); chess in
    /// UCI ("e2e4 e7e5") or SAN ("e4 e5 Nf3"), mixed as you like.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Xiangqi repetition rules: `asian` (perpetual check and perpetual chase lose; the
    /// default) or `check-only`. Not for chess.
    #[arg(long)]
    pub rules: Option<chuhan_engine::RuleSet>,
    /// Xiangqi: plies without a capture after which the game is drawn (0: no limit; default
    /// 120). Not for chess, whose fifty-move rule is fixed (100 plies without a capture or pawn
    /// move).
    #[arg(long)]
    pub move_limit: Option<u16>,
    /// The game: xiangqi (default) or chess (checkmate, stalemate, threefold repetition, the
    /// fifty-move rule, insufficient material).
    #[arg(long, value_enum, default_value_t = GameArg::Xiangqi)]
    pub game: GameArg,
    /// Print one JSON object: {"result", "reason", "ply"}.
    #[arg(long)]
    pub json: bool,
}

/// The `--json` report, one object on one line.
#[derive(Debug, Serialize)]
struct Report {
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    result: &'static str,
    /// The termination name, `null` while the game goes on.
    reason: Option<&'static str>,
    /// Moves played.
    ply: usize,
}

/// A verdict of either game, as the report shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ending {
    /// The PGN result.
    result: &'static str,
    /// The termination name.
    reason: &'static str,
    /// `Red wins`, `White wins`, `draw`.
    who: String,
}

impl From<Verdict> for Ending {
    fn from(v: Verdict) -> Ending {
        Ending {
            result: v.result.as_pgn(),
            reason: v.termination.as_str(),
            who: match v.result.winner() {
                Some(color) => format!("{color:?} wins"),
                None => "draw".to_string(),
            },
        }
    }
}

impl From<chess::Verdict> for Ending {
    fn from(v: chess::Verdict) -> Ending {
        Ending {
            result: v.result.as_pgn(),
            reason: v.termination.as_str(),
            who: match v.result.winner() {
                Some(color) => format!("{color:?} wins"),
                None => "draw".to_string(),
            },
        }
    }
}

/// Runs the command: exit 0 with a verdict or `*`, 2 on a bad FEN or a bad or illegal move.
/// Moves after the first verdict are not played (their text is still checked).
pub fn run(args: &JudgeArgs) -> anyhow::Result<u8> {
    let judged = match args.game {
        GameArg::Xiangqi => judge_xiangqi(args),
        GameArg::Chess => judge_chess(args),
    };
    let (verdict, played, total) = match judged {
        Ok(j) => j,
        Err(message) => {
            eprintln!("chuhan: error: {message}");
            return Ok(EXIT_USAGE);
        }
    };
    if played < total {
        eprintln!(
            "chuhan: the game ended at ply {played}; {} later move(s) not played",
            total - played
        );
    }
    if args.json {
        let report = Report {
            result: verdict.as_ref().map_or("*", |v| v.result),
            reason: verdict.as_ref().map(|v| v.reason),
            ply: played,
        };
        outln!("{}", serde_json::to_string(&report)?);
    } else {
        outln!("{}", human_line(verdict.as_ref(), played));
    }
    Ok(EXIT_OK)
}

/// The verdict (if any), the moves played and the moves given; `Err` is the message of a bad
/// FEN or move.
type Judged = Result<(Option<Ending>, usize, usize), String>;

fn judge_xiangqi(args: &JudgeArgs) -> Judged {
    let pos = game_input::xiangqi_position(&args.fen)?;
    let texts: Vec<&str> = args.moves.split_whitespace().collect();
    let mut moves = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        match Move::parse_uci(text) {
            Some(mv) => moves.push(mv),
            None => {
                return Err(format!(
                    "move {} '{text}' is not a move in a0-i9 coordinates (like h2e2)",
                    i + 1
                ))
            }
        }
    }
    let config = GameConfig {
        rules: args.rules.unwrap_or(chuhan_engine::RuleSet::Asian),
        move_limit: args.move_limit.unwrap_or(GameConfig::DEFAULT_MOVE_LIMIT),
    };
    let mut game = Game::new(pos, config);
    let mut verdict = game.verdict();
    let mut played = 0;
    for (i, &mv) in moves.iter().enumerate() {
        if verdict.is_some() {
            break;
        }
        match game.play(mv) {
            Ok(v) => {
                verdict = v;
                played = i + 1;
            }
            Err(e) => {
                return Err(format!(
                    "move {} '{}' is illegal in {}",
                    i + 1,
                    texts[i],
                    e.fen
                ))
            }
        }
    }
    Ok((verdict.map(Ending::from), played, moves.len()))
}

/// Chess: moves in UCI or SAN, read in the position they are played in; after the verdict
/// each later text must still be a move in one of the two notations.
fn judge_chess(args: &JudgeArgs) -> Judged {
    if args.rules.is_some() || args.move_limit.is_some() {
        return Err(
            "--rules and --move-limit are xiangqi rules; chess has one set (the fifty-move rule \
             is 100 plies without a capture or pawn move)"
                .into(),
        );
    }
    let pos = game_input::chess_position(&args.fen)?;
    let texts: Vec<&str> = args.moves.split_whitespace().collect();
    let mut game = chess::Game::new(pos);
    let mut verdict = game.verdict();
    let mut played = 0;
    for (i, text) in texts.iter().enumerate() {
        let index = i + 1;
        let read = game_input::chess_move(game.position(), text);
        if verdict.is_some() {
            if read == Err(ChessMoveError::Syntax) {
                return Err(format!("move {index} '{text}' is not {CHESS_MOVE_FORMS}"));
            }
            continue;
        }
        match read {
            Ok(mv) => {
                verdict = game
                    .play(mv)
                    .map_err(|e| format!("move {index} '{text}': {e}"))?;
                played = index;
            }
            Err(ChessMoveError::Syntax) => {
                return Err(format!("move {index} '{text}' is not {CHESS_MOVE_FORMS}"))
            }
            Err(ChessMoveError::Illegal(why)) => {
                return Err(format!("move {index} '{text}' is illegal: {why}"))
            }
        }
    }
    Ok((verdict.map(Ending::from), played, texts.len()))
}

/// One line for people: `0-1 perpetual-chase after 8 plies (Black wins)`.
fn human_line(verdict: Option<&Ending>, played: usize) -> String {
    let plies = if played == 1 { "ply" } else { "plies" };
    match verdict {
        Some(v) => format!(
            "{} {} after {played} {plies} ({})",
            v.result, v.reason, v.who
        ),
        None => format!("* game goes on after {played} {plies}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhan_engine::{Color, Termination};

    #[test]
    fn human_lines() {
        let v = Verdict::loss(Color::Red, Termination::PerpetualChase);
        assert_eq!(
            human_line(Some(&v.into()), 8),
            "0-1 perpetual-chase after 8 plies (Black wins)"
        );
        let v = Verdict::draw(Termination::Repetition);
        assert_eq!(
            human_line(Some(&v.into()), 1),
            "1/2-1/2 repetition after 1 ply (draw)"
        );
        assert_eq!(human_line(None, 0), "* game goes on after 0 plies");
        let v = chess::Verdict::loss(chess::Color::Black, chess::Termination::Checkmate);
        assert_eq!(
            human_line(Some(&v.into()), 3),
            "1-0 checkmate after 3 plies (White wins)"
        );
    }
}
