//! Labelled positions (`chuhan datagen` output) and the train/validation split by whole games.

use crate::play::any::GameKind;
use chuhan_engine::eval::linear_features;
use chuhan_engine::Position;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use std::path::Path;
use thiserror::Error;

/// One labelled position of a data file, with its linear features.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledPosition {
    /// 1-based line in the data file.
    pub line: usize,
    /// Game number: positions between the same two `#game` markers share it; without any
    /// markers in the file each position has its own. Numbers may skip (empty games).
    pub game: u32,
    /// Game result from Red's view: 1, 0.5 or 0.
    pub result: f64,
    /// Game ply of the position.
    pub ply: u32,
    /// The score recorded with the position from Red's view (datagen's `eval` field: the
    /// static evaluation for built-in engines, the search score an external engine reported).
    pub eval: f64,
    /// `(parameter index, value)` pairs from Red's view (see `linear_features`).
    pub features: Vec<(usize, f64)>,
}

/// Why a data file was rejected.
#[derive(Debug, Error)]
pub enum DataError {
    /// The file could not be read.
    #[error("cannot read {file}: {error}")]
    Io {
        /// The file.
        file: String,
        /// What went wrong.
        error: std::io::Error,
    },
    /// A malformed line.
    #[error("{file}: line {line}: {message}")]
    Line {
        /// The file.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The file holds no positions.
    #[error("{file}: no labelled positions")]
    Empty {
        /// The file.
        file: String,
    },
}

/// Reads a data file of `FEN;result;ply;eval` lines (see [`parse_data`]).
pub fn read_data(path: &Path) -> Result<Vec<LabelledPosition>, DataError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| DataError::Io {
        file: file.clone(),
        error,
    })?;
    parse_data(&text, &file)
}

/// [`read_data`] for a file of `game`'s positions (chess: chess FENs, chess features).
pub fn read_data_for(path: &Path, game: GameKind) -> Result<Vec<LabelledPosition>, DataError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| DataError::Io {
        file: file.clone(),
        error,
    })?;
    parse_data_for(&text, &file, game)
}

/// Parses labelled positions: one `FEN;result;ply;eval` a line, `result` from Red's view
/// (`1`, `0.5` or `0`), `eval` the recorded score from Red's view (used by `--lambda` below 1). Blank lines and `#` comments are skipped. Comments
/// starting with `#game` separate games (`chuhan datagen` writes one after each game's
/// positions; one before each works too); a file without them counts every position as its
/// own game. The first malformed line (in file order) is reported with `source` and its line
/// number. Features are computed in parallel.
pub fn parse_data(text: &str, source: &str) -> Result<Vec<LabelledPosition>, DataError> {
    parse_data_for(text, source, GameKind::Xiangqi)
}

/// [`parse_data`] for `game`: chess lines hold a chess FEN (the result from White's view) and
/// their features are [`chuhan_engine::chess::eval::linear_features`], indexed by
/// [`chuhan_engine::chess::EvalParams::NAMES`]; a position of the other game is an error naming
/// the file and line.
pub fn parse_data_for(
    text: &str,
    source: &str,
    game_kind: GameKind,
) -> Result<Vec<LabelledPosition>, DataError> {
    let mut lines: Vec<(usize, &str, u32)> = Vec::new();
    let mut segment = 0u32;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            if comment.starts_with("game") {
                segment += 1;
            }
            continue;
        }
        lines.push((n + 1, line, segment));
    }
    if segment == 0 {
        for (i, l) in lines.iter_mut().enumerate() {
            l.2 = i as u32;
        }
    }
    let parsed: Vec<Result<LabelledPosition, DataError>> = lines
        .par_iter()
        .map(|&(line, text, game)| {
            parse_line(text, line, game, game_kind).map_err(|message| DataError::Line {
                file: source.to_string(),
                line,
                message,
            })
        })
        .collect();
    let positions = parsed.into_iter().collect::<Result<Vec<_>, _>>()?;
    if positions.is_empty() {
        return Err(DataError::Empty {
            file: source.to_string(),
        });
    }
    Ok(positions)
}

fn parse_line(
    text: &str,
    line: usize,
    game: u32,
    kind: GameKind,
) -> Result<LabelledPosition, String> {
    let fields: Vec<&str> = text.split(';').map(str::trim).collect();
    if fields.len() != 4 {
        return Err(format!(
            "expected 4 fields 'FEN;result;ply;eval', found {}",
            fields.len()
        ));
    }
    let features = match kind {
        GameKind::Xiangqi => {
            let pos = Position::from_fen(fields[0]).map_err(|e| {
                // Datagen writes chess data in the same line format: say so rather than only
                // "8 rows".
                let chess = chuhan_engine::chess::Position::from_fen(fields[0]).is_ok();
                let hint = if chess {
                    " (a chess position: give --game chess)"
                } else {
                    ""
                };
                format!("bad FEN '{}': {e}{hint}", fields[0])
            })?;
            linear_features(&pos)
        }
        GameKind::Chess => {
            let pos = chuhan_engine::chess::Position::from_fen(fields[0]).map_err(|e| {
                let xiangqi = Position::from_fen(fields[0]).is_ok();
                let hint = if xiangqi {
                    " (a xiangqi position, and this run tunes chess)"
                } else {
                    ""
                };
                format!("bad chess FEN '{}': {e}{hint}", fields[0])
            })?;
            chuhan_engine::chess::eval::linear_features(&pos)
        }
    };
    let result = match fields[1].parse::<f64>() {
        Ok(r) if r == 0.0 || r == 0.5 || r == 1.0 => r,
        _ => {
            return Err(format!(
                "result '{}' is not 1, 0.5 or 0 (Red's view)",
                fields[1]
            ))
        }
    };
    let ply = fields[2]
        .parse::<u32>()
        .map_err(|_| format!("ply '{}' is not a whole number", fields[2]))?;
    let eval = match fields[3].parse::<f64>() {
        Ok(e) if e.is_finite() => e,
        _ => return Err(format!("eval '{}' is not a number", fields[3])),
    };
    Ok(LabelledPosition {
        line,
        game,
        result,
        ply,
        eval,
        features,
    })
}

/// Drops the positions whose recorded score is beyond `max` either way (mate scores and won
/// positions, whose targets a linear evaluation cannot reach); returns how many were dropped.
pub fn drop_extreme_scores(positions: &mut Vec<LabelledPosition>, max: f64) -> usize {
    let before = positions.len();
    positions.retain(|p| p.eval.abs() <= max);
    before - positions.len()
}

/// Indices of the training and the held-out positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// Training positions, in file order.
    pub train: Vec<usize>,
    /// Held-out (validation) positions, in file order.
    pub validation: Vec<usize>,
}

/// Holds out about `fraction` of the games (whole games, so that no game has positions on both
/// sides), chosen by shuffling the game numbers with `seed`. At least one game is held out when
/// `fraction > 0` and there are two or more, and at least one is kept for training.
pub fn split(positions: &[LabelledPosition], fraction: f64, seed: u64) -> Split {
    let games = positions
        .iter()
        .map(|p| p.game as usize + 1)
        .max()
        .unwrap_or(0);
    let mut present = vec![false; games];
    for p in positions {
        present[p.game as usize] = true;
    }
    let mut ids: Vec<usize> = (0..games).filter(|&g| present[g]).collect();
    let n = ids.len();
    let mut held = (fraction.clamp(0.0, 1.0) * n as f64).round() as usize;
    if fraction > 0.0 && n >= 2 {
        held = held.max(1);
    }
    held = held.min(n.saturating_sub(1));
    ids.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
    let mut validation_game = vec![false; games];
    for &g in &ids[..held] {
        validation_game[g] = true;
    }
    let (validation, train) =
        (0..positions.len()).partition(|&i| validation_game[positions[i].game as usize]);
    Split { train, validation }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_lines_comments_games_and_errors() {
        let start = chuhan_engine::START_FEN;
        let text = format!(
            "# made by a test\n\n{start};0.5;0;0\n#game 1\n{start};1;3;12\n{start} ; 0 ; 4 ; -7\n#game 2\n{start};1.0;0;0\n"
        );
        let p = parse_data(&text, "d.txt").unwrap();
        assert_eq!(p.len(), 4);
        assert_eq!(
            p.iter()
                .map(|p| (p.line, p.game, p.result, p.ply, p.eval))
                .collect::<Vec<_>>(),
            [
                (3, 0, 0.5, 0, 0.0),
                (5, 1, 1.0, 3, 12.0),
                (6, 1, 0.0, 4, -7.0),
                (8, 2, 1.0, 0, 0.0)
            ]
        );
        assert_eq!(p[0].features, linear_features(&Position::startpos()));
        let err = |text: String| parse_data(&text, "d.txt").unwrap_err().to_string();
        // Datagen's layout: each game's marker after its positions.
        let datagen = format!("{start};1;5;0\n{start};1;6;0\n#game 0 1 2\n#game 1 0.5 0\n{start};0.5;9;0\n#game 2 0.5 1\n");
        let p = parse_data(&datagen, "d.txt").unwrap();
        assert_eq!(p.iter().map(|p| p.game).collect::<Vec<_>>(), [0, 0, 2]);
        // No markers at all: every position is its own game.
        let p = parse_data(&format!("{start};1;5;0\n{start};1;6;0\n"), "d.txt").unwrap();
        assert_eq!(p.iter().map(|p| p.game).collect::<Vec<_>>(), [0, 1]);
        let e = err(format!("{start};1;0;0\n{start};1;0\n"));
        assert!(
            e.starts_with("d.txt: line 2:") && e.contains("4 fields"),
            "{e}"
        );
        let e = err(format!("{start};1;0;0\n\nrnbakabnr/9 w;1;0;0\n"));
        assert!(
            e.starts_with("d.txt: line 3:") && e.contains("bad FEN"),
            "{e}"
        );
        let e = err(format!("{start};0.7;0;0\n"));
        assert!(e.contains("line 1") && e.contains("'0.7'"), "{e}");
        let e = err(format!("{start};1;-3;0\n"));
        assert!(e.contains("line 1") && e.contains("ply '-3'"), "{e}");
        let e = err(format!("{start};1;3;x\n"));
        assert!(e.contains("line 1") && e.contains("eval 'x'"), "{e}");
        let e = err("# nothing\n\n".into());
        assert!(
            e.contains("d.txt") && e.contains("no labelled positions"),
            "{e}"
        );
        let mut p = parse_data(
            &format!("{start};1;5;29990\n{start};1;6;-400\n{start};0;7;-401\n"),
            "d.txt",
        )
        .unwrap();
        assert_eq!(drop_extreme_scores(&mut p, 400.0), 2);
        assert_eq!(p.iter().map(|p| p.eval).collect::<Vec<_>>(), [-400.0]);
        let e = read_data(Path::new("/nonexistent/data.txt"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("/nonexistent/data.txt"), "{e}");
    }
}
