//! `chuhan judge`: plays moves from a FEN, judging after each under the game rules, and
//! prints the first verdict (or that the game goes on).

use crate::args::JudgeArgs;
use crate::{EXIT_OK, EXIT_USAGE};
use chuhan_engine::{Game, GameConfig, Move, Position, Verdict};
use serde::Serialize;

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

/// Runs the command: exit 0 with a verdict or `*`, 2 on a bad FEN or a bad or illegal move.
/// Moves after the first verdict are not played (their text is still checked).
pub fn run(args: &JudgeArgs) -> anyhow::Result<u8> {
    let pos = match Position::from_fen(&args.fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("chuhan: error: bad FEN '{}': {e}", args.fen);
            return Ok(EXIT_USAGE);
        }
    };
    let texts: Vec<&str> = args.moves.split_whitespace().collect();
    let mut moves = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        match Move::parse_uci(text) {
            Some(mv) => moves.push(mv),
            None => {
                eprintln!(
                    "chuhan: error: move {} '{text}' is not a move in a0-i9 coordinates \
                     (like h2e2)",
                    i + 1
                );
                return Ok(EXIT_USAGE);
            }
        }
    }
    let config = GameConfig {
        rules: args.rules,
        move_limit: args.move_limit,
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
                eprintln!(
                    "chuhan: error: move {} '{}' is illegal in {}",
                    i + 1,
                    texts[i],
                    e.fen
                );
                return Ok(EXIT_USAGE);
            }
        }
    }
    if played < moves.len() {
        eprintln!(
            "chuhan: the game ended at ply {played}; {} later move(s) not played",
            moves.len() - played
        );
    }
    if args.json {
        let report = Report {
            result: verdict.map_or("*", |v| v.result.as_pgn()),
            reason: verdict.map(|v| v.termination.as_str()),
            ply: played,
        };
        outln!("{}", serde_json::to_string(&report)?);
    } else {
        outln!("{}", human_line(verdict, played));
    }
    Ok(EXIT_OK)
}

/// One line for people: `0-1 perpetual-chase after 8 plies (Black wins)`.
fn human_line(verdict: Option<Verdict>, played: usize) -> String {
    let plies = if played == 1 { "ply" } else { "plies" };
    match verdict {
        Some(v) => {
            let who = match v.result.winner() {
                Some(color) => format!("{color:?} wins"),
                None => "draw".to_string(),
            };
            format!(
                "{} {} after {played} {plies} ({who})",
                v.result, v.termination
            )
        }
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
            human_line(Some(v), 8),
            "0-1 perpetual-chase after 8 plies (Black wins)"
        );
        let v = Verdict::draw(Termination::Repetition);
        assert_eq!(
            human_line(Some(v), 1),
            "1/2-1/2 repetition after 1 ply (draw)"
        );
        assert_eq!(human_line(None, 0), "* game goes on after 0 plies");
    }
}
