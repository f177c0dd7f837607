//! The analysis of a played ladder: rating-model games from the arena's records, the joint
//! fit with honest intervals, and the tables and CSV files written from it.

use super::{write_file, LadderError};
use crate::play::runner::PlayedGame;
use crate::ratings::{self, Bound, FirstMove, FitOptions, HonestIntervals, Prior, RatingError};
use chuhan_engine::GameResult;
use std::collections::BTreeMap;
use std::path::Path;

/// The text a CSV writer into memory wrote (CSV of `String` fields is UTF-8).
fn csv_text(w: csv::Writer<Vec<u8>>) -> Result<String, LadderError> {
    let bytes = w
        .into_inner()
        .map_err(|e| csv::Error::from(e.into_error()))?;
    Ok(String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8"))
}

/// Rating-model games from arena records (pairs grouped by the arena's pair index).
pub fn rating_games(
    records: &BTreeMap<u64, PlayedGame>,
    names: &[String],
    last_pair: Option<u64>,
) -> Vec<ratings::RatedGame> {
    let index: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    records
        .values()
        .filter(|r| last_pair.map_or(true, |k| r.pair <= k))
        .filter_map(|r| {
            let red = *index.get(r.red.as_str())?;
            let black = *index.get(r.black.as_str())?;
            let score = match r.result {
                GameResult::RedWins => 1.0,
                GameResult::Draw => 0.5,
                GameResult::BlackWins => 0.0,
            };
            Some(ratings::RatedGame {
                pair_id: r.pair,
                first: red,
                second: black,
                score_first: score,
            })
        })
        .collect()
}

/// One player's line in the ratings table.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRating {
    /// Name.
    pub name: String,
    /// Maximum-likelihood Elo relative to the first player, without any prior; `None` when it
    /// is infinite (the player is in a group separated from the first player by 100% results).
    pub elo: Option<f64>,
    /// The Elo of a fit with a weak prior (one virtual draw per pairing played) when some rating
    /// is infinite, else `elo`: only for ordering the table, placing the plot's marker and
    /// weighting calibrate's curve, never for an interval.
    pub shrunk: f64,
    /// Honest 95% bound relative to the first player (an open side is not supported by games).
    pub interval: Bound,
    /// Games played.
    pub games: u64,
    /// Points scored.
    pub points: f64,
    /// Draws.
    pub draws: u64,
}

/// A neighbour gap with its interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Gap {
    /// Lower player (ladder order).
    pub from: String,
    /// Upper player.
    pub to: String,
    /// Maximum-likelihood gap without a prior; `None` when infinite (a perfect or zero score
    /// separates the two).
    pub elo: Option<f64>,
    /// Honest 95% bound: two-sided, or one-sided (`>= +X`) after a perfect score.
    pub interval: Bound,
}

impl Gap {
    /// The gap as text: the estimate, or what makes it infinite.
    pub fn elo_text(&self) -> String {
        match (self.elo, self.interval.low, self.interval.high) {
            (Some(e), _, _) => signed(e),
            (None, Some(_), None) => "perfect score".to_string(),
            (None, None, Some(_)) => "zero score".to_string(),
            (None, _, _) => "unknown".to_string(),
        }
    }

    /// The 95% half-width as text (`±45`), or `one-sided` / `unbounded`.
    pub fn half_width_text(&self) -> String {
        match self.interval.half_width() {
            Some(h) => format!("±{h:.0}"),
            None if self.interval.is_one_sided() => "one-sided".to_string(),
            None => "unbounded".to_string(),
        }
    }
}

/// The fitted ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Ratings in ladder order.
    pub players: Vec<PlayerRating>,
    /// Gaps between consecutive players.
    pub gaps: Vec<Gap>,
    /// Head-to-head rows.
    pub head_to_head: Vec<ratings::HeadToHead>,
    /// The honest intervals the ratings and gaps come from (ladder order, first player 0).
    pub honest: HonestIntervals,
    /// Notes for the reader (perfect scores and what they mean for the intervals).
    pub notes: Vec<String>,
}

/// Fits the ratings and their honest 95% intervals (`honest_intervals`: profile likelihood
/// where the games bound both sides, exact one-sided bounds after perfect or zero scores; no
/// prior decides an interval). Players with a perfect or zero score are reported in the notes;
/// a weak prior (one virtual draw per pairing played) then gives the `shrunk` ratings used only
/// to order the table and place the plot's markers.
pub fn analyse(games: &[ratings::RatedGame], names: &[String]) -> Result<Analysis, RatingError> {
    analyse_with(games, names, 0, FirstMove::Fixed(0.0))
}

/// [`analyse`] with the ratings relative to player `anchor` and a first-move term (estimated
/// with [`FirstMove::Auto`], its interval in `honest.first_move`); the gaps run along the
/// player indices.
pub fn analyse_with(
    games: &[ratings::RatedGame],
    names: &[String],
    anchor: usize,
    first_move: FirstMove,
) -> Result<Analysis, RatingError> {
    let n = names.len();
    let mut notes = Vec::new();
    let mut options = FitOptions {
        anchor,
        first_move,
        ..FitOptions::default()
    };
    let fit = match ratings::fit_ratings(games, n, &options) {
        Ok(f) => f,
        Err(e @ RatingError::NoFiniteRating { .. }) => {
            notes.push(format!(
                "{}; intervals across it are one-sided (exact bounds from the games: what a \
                 perfect score supports, printed >= +X); only the order of the table and the \
                 plot use a weak prior of 1 virtual draw per pairing played",
                describe_error(&e, names)
            ));
            options.prior = Prior::DrawsPerPairing(1.0);
            ratings::fit_ratings(games, n, &options)?
        }
        Err(e) => return Err(e),
    };
    let order: Vec<usize> = (0..n).collect();
    let honest = ratings::honest_intervals_with(games, n, &order, anchor, 0.95, first_move)?;
    let mut per: Vec<(u64, f64, u64)> = vec![(0, 0.0, 0); n];
    for g in games {
        per[g.first].0 += 1;
        per[g.second].0 += 1;
        per[g.first].1 += g.score_first;
        per[g.second].1 += 1.0 - g.score_first;
        if g.score_first == 0.5 {
            per[g.first].2 += 1;
            per[g.second].2 += 1;
        }
    }
    let players = (0..n)
        .map(|i| PlayerRating {
            name: names[i].clone(),
            elo: honest.ratings[i].estimate,
            shrunk: fit.ratings[i],
            interval: honest.ratings[i].bound,
            games: per[i].0,
            points: per[i].1,
            draws: per[i].2,
        })
        .collect();
    let gaps = honest
        .gaps
        .iter()
        .map(|g| Gap {
            from: names[g.from].clone(),
            to: names[g.to].clone(),
            elo: g.estimate,
            interval: g.bound,
        })
        .collect();
    Ok(Analysis {
        players,
        gaps,
        head_to_head: ratings::head_to_head(games, n)?,
        honest,
        notes,
    })
}

/// The header of gaps.csv (an interface other tools read: keep it).
pub const GAPS_CSV_HEADER: [&str; 5] = ["from", "to", "elo", "ci_low", "ci_high"];

/// The header of the neighbour-gap table.
pub const GAP_HEADER: [&str; 4] = ["neighbour gap", "elo", "95% interval", "half-width"];

/// gaps.csv contents: `from,to,elo,ci_low,ci_high`, one row per neighbour gap in ladder order,
/// an infinite gap (`elo`) and an open side of its 95% interval left empty.
pub fn gaps_csv(gaps: &[Gap]) -> Result<String, LadderError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(GAPS_CSV_HEADER)?;
    for g in gaps {
        let [lo, hi] = g.interval.csv_fields(1);
        w.write_record([
            g.from.clone(),
            g.to.clone(),
            g.elo.map_or(String::new(), |e| format!("{e:.1}")),
            lo,
            hi,
        ])?;
    }
    csv_text(w)
}

/// Writes `dir/gaps.csv` (see [`gaps_csv`]).
pub fn write_gaps_csv(dir: &Path, gaps: &[Gap]) -> Result<(), LadderError> {
    write_file(&dir.join("gaps.csv"), gaps_csv(gaps)?)
}

/// A rating error in words, with player names instead of indices.
pub fn describe_error(e: &RatingError, names: &[String]) -> String {
    let list = |v: &[usize]| {
        v.iter()
            .map(|&i| names.get(i).map_or("?", |s| s.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match e {
        RatingError::NoFiniteRating { perfect, zero, .. } => {
            let mut parts = Vec::new();
            if !perfect.is_empty() {
                parts.push(format!("perfect score (100%): {}", list(perfect)));
            }
            if !zero.is_empty() {
                parts.push(format!("zero score: {}", list(zero)));
            }
            if parts.is_empty() {
                "a group of players won every game against the rest".to_string()
            } else {
                parts.join("; ")
            }
        }
        other => other.to_string(),
    }
}

/// Formats an Elo value with sign.
pub fn signed(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.0}")
    } else {
        "inf".into()
    }
}

impl Analysis {
    /// The first-move advantage line of a fit with a first-move term: `first-move advantage
    /// +23.4  95% interval [+5.1, +41.8]` when estimated, `... (fixed)` when given; `None`
    /// when colours were ignored.
    pub fn first_move_line(&self) -> Option<String> {
        let w = self.honest.first_move?;
        Some(match (w.estimated, w.bound) {
            (true, Some(b)) => format!("first-move advantage  {:+.1}  95% interval {b}", w.elo),
            _ => format!("first-move advantage  {:+.1} (fixed)", w.elo),
        })
    }

    /// Rows of the ratings table, strongest first: rank, name, Elo, −, +, games, score, draws.
    /// An infinite rating shows its bound (`>= +219`) in the Elo column and no −/+; an open side
    /// of a finite rating shows `open` (never `inf`).
    pub fn rating_rows(&self) -> Vec<Vec<String>> {
        let mut idx: Vec<usize> = (0..self.players.len()).collect();
        idx.sort_by(|&a, &b| {
            self.players[b]
                .shrunk
                .partial_cmp(&self.players[a].shrunk)
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        idx.iter()
            .enumerate()
            .map(|(rank, &i)| {
                let p = &self.players[i];
                let (elo, minus, plus) = match p.elo {
                    Some(e) => {
                        let side = |d: Option<f64>| {
                            d.map_or("open".to_string(), |d| format!("{:.0}", d.max(0.0)))
                        };
                        (
                            format!("{e:.0}"),
                            side(p.interval.low.map(|lo| e - lo)),
                            side(p.interval.high.map(|hi| hi - e)),
                        )
                    }
                    None => (p.interval.to_string(), String::new(), String::new()),
                };
                vec![
                    (rank + 1).to_string(),
                    p.name.clone(),
                    elo,
                    minus,
                    plus,
                    p.games.to_string(),
                    format!("{:.1}%", 100.0 * p.points / p.games.max(1) as f64),
                    format!("{:.1}%", 100.0 * p.draws as f64 / p.games.max(1) as f64),
                ]
            })
            .collect()
    }

    /// Rows of the gap table in ladder order: from -> to, gap (or `perfect score`), 95% interval
    /// (`[+a, +b]` or `>= +X`), half-width (see [`GAP_HEADER`]).
    pub fn gap_rows(&self) -> Vec<Vec<String>> {
        self.gaps
            .iter()
            .map(|g| {
                vec![
                    format!("{} -> {}", g.from, g.to),
                    g.elo_text(),
                    g.interval.to_string(),
                    g.half_width_text(),
                ]
            })
            .collect()
    }

    /// ratings.csv contents: an infinite Elo and an open side of an interval are empty fields.
    pub fn ratings_csv(&self) -> Result<String, LadderError> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record([
            "order", "name", "elo", "elo_lo95", "elo_hi95", "games", "points", "draws",
        ])?;
        for (i, p) in self.players.iter().enumerate() {
            let [lo, hi] = p.interval.csv_fields(1);
            w.write_record([
                i.to_string(),
                p.name.clone(),
                p.elo.map_or(String::new(), |e| format!("{e:.1}")),
                lo,
                hi,
                p.games.to_string(),
                format!("{:.1}", p.points),
                p.draws.to_string(),
            ])?;
        }
        csv_text(w)
    }

    /// gaps.csv contents (see [`gaps_csv`]).
    pub fn gaps_csv(&self) -> Result<String, LadderError> {
        gaps_csv(&self.gaps)
    }

    /// Points of the ladder plot: name, marker, interval ends (an open side ends at the
    /// marker: the plot draws no whisker the games do not support).
    pub fn plot_points(&self) -> Vec<(String, f64, f64, f64)> {
        self.players
            .iter()
            .map(|p| {
                let at = p.elo.unwrap_or(p.shrunk);
                let lo = p.interval.low.unwrap_or(at).min(at);
                let hi = p.interval.high.unwrap_or(at).max(at);
                (p.name.clone(), at, lo, hi)
            })
            .collect()
    }

    /// pairings.csv contents: every head-to-head.
    pub fn pairings_csv(&self) -> Result<String, LadderError> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record([
            "first",
            "second",
            "games",
            "first_wins",
            "draws",
            "first_losses",
            "first_score",
            "pentanomial",
        ])?;
        for h in &self.head_to_head {
            w.write_record([
                self.players[h.a].name.clone(),
                self.players[h.b].name.clone(),
                h.games.to_string(),
                h.record.wins.to_string(),
                h.record.draws.to_string(),
                h.record.losses.to_string(),
                format!("{:.3}", h.score),
                format!("{:?}", h.pairs.counts),
            ])?;
        }
        csv_text(w)
    }
}

/// The header of the rating table (and summary.csv).
pub const RATING_HEADER: [&str; 8] = ["rank", "name", "elo", "-", "+", "games", "score", "draws"];
