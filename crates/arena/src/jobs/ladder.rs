//! Ladders: players in order, each meeting its next neighbours (plus fixed anchors) in game
//! pairs; ratings fitted jointly by maximum likelihood with the first player anchored at 0;
//! honest 95% intervals (`chuhan_stats::ratings::honest_intervals`: profile likelihood where the
//! games bound both sides, exact one-sided bounds after perfect or zero scores) for every rating
//! and every neighbour gap, written to ratings.csv and gaps.csv.

use crate::play::any::GameKind;
use crate::play::limits::LimitSpec;
use crate::play::openings::OpeningSource;
use crate::play::player::{resolve_player_for, PlayerSpecError};
use crate::play::results::{as_text, PlayerEntry, RunConfig, RunKind};
use crate::play::results::{ResultsDir, ResultsError};
use crate::play::runner::PlayedGame;
use crate::play::schedule::Pairing;
use crate::play::setup::{
    execute, plan_from_config, Destination, Finished, PreparedRun, SetupError,
};
use crate::ratings::{self, Bound, FitOptions, HonestIntervals, Prior, RatingError};
use crate::report::html::HtmlError;
use crate::report::plots::PlotError;
use crate::report::{describe_elo, Audience};
use chuhan_engine::{GameResult, Notation, RuleSet};
use chuhan_stats::adaptive::AdaptiveError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub mod adaptive;
pub mod steps;

/// Why a ladder file was refused, or a ladder could not be played or written. Messages name the
/// file and key (or the flag); a TOML parser error is part of the message because it carries
/// the line and column.
#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    /// The ladder file is not valid TOML or has an unknown key.
    #[error("{file}: {error}")]
    Toml {
        /// The file.
        file: String,
        /// The parser's error (with line and column).
        error: Box<toml::de::Error>,
    },
    /// `--game` names one game and the ladder file another.
    #[error("--game {asked}: the ladder file {file} says game = \"{says}\"; give --game {says}, or a {asked} ladder file")]
    WrongGame {
        /// The file.
        file: String,
        /// The game `--game` asked for.
        asked: GameKind,
        /// The game the file names.
        says: GameKind,
    },
    /// Fewer than two players.
    #[error("{file}: a ladder needs at least two [[players]]")]
    TooFewPlayers {
        /// The file.
        file: String,
    },
    /// A player without a name (`index` counts from 1).
    #[error("{file}: player {index} has an empty name")]
    EmptyName {
        /// The file.
        file: String,
        /// The player's place in the file, from 1.
        index: usize,
    },
    /// Two players with one name.
    #[error("{file}: player name '{name}' appears twice")]
    DuplicateName {
        /// The file.
        file: String,
        /// The name.
        name: String,
    },
    /// A player whose spec resolves to no player.
    #[error("{file}: player '{name}': {error}")]
    Player {
        /// The file.
        file: String,
        /// The player's name.
        name: String,
        /// Why the spec was refused.
        error: PlayerSpecError,
    },
    /// An anchor that is not a player.
    #[error("{file}: anchor '{anchor}' is not one of the players")]
    UnknownAnchor {
        /// The file.
        file: String,
        /// The anchor's name.
        anchor: String,
    },
    /// A count key (`pairs`, `max_nodes`) set to 0.
    #[error("{file}: {key} must be at least 1")]
    Zero {
        /// The file.
        file: String,
        /// The key.
        key: &'static str,
    },
    /// `precision` that is not a positive number.
    #[error("{file}: precision must be a positive number of Elo, not {value}")]
    BadPrecision {
        /// The file.
        file: String,
        /// The value given.
        value: f64,
    },
    /// `max_games` or `max_time` without `precision`.
    #[error(
        "{file}: max_games and max_time are budgets of a ladder played to a precision: add precision"
    )]
    BudgetWithoutPrecision {
        /// The file.
        file: String,
    },
    /// `max_games` below one game pair per pairing.
    #[error("{file}: max_games = {max_games} cannot be met: the ladder's pairings need at least {least} games (one game pair each)")]
    MaxGamesTooFew {
        /// The file.
        file: String,
        /// The value given.
        max_games: u64,
        /// Two games per pairing.
        least: u64,
    },
    /// `bootstrap` below 100.
    #[error("{file}: bootstrap must be at least 100 replicates")]
    BootstrapTooSmall {
        /// The file.
        file: String,
    },
    /// Players that no game links.
    #[error("{file}: the schedule is disconnected: no games link {groups} (raise neighbours or add an anchor)")]
    Disconnected {
        /// The file.
        file: String,
        /// The groups of names, `{a, b} and {c}`.
        groups: String,
    },
    /// A duration with an unknown unit (`what` names the flag or key).
    #[error("{what} '{text}': unknown unit '{unit}' (use s, m or h, e.g. 5m)")]
    DurationUnit {
        /// The flag or key.
        what: String,
        /// The text given.
        text: String,
        /// The unit found.
        unit: String,
    },
    /// A duration that is not a positive number.
    #[error("{what} '{text}' is not a positive duration (e.g. 90s, 5m, 1h)")]
    DurationValue {
        /// The flag or key.
        what: String,
        /// The text given.
        text: String,
    },
    /// `--precision` that is not a positive number.
    #[error("--precision must be a positive number of Elo (a 95% half-width), not {0}")]
    PrecisionFlag(f64),
    /// `--max-games` below one game pair per pairing.
    #[error(
        "--max-games {max_games} cannot be met: the ladder's {pairings} pairings need at least \
         {least} games (one game pair each)"
    )]
    MaxGamesFlag {
        /// The value given.
        max_games: u64,
        /// The ladder's pairings.
        pairings: usize,
        /// Two games per pairing.
        least: u64,
    },
    /// `--max-time 0`.
    #[error("--max-time must be longer than 0")]
    ZeroMaxTime,
    /// Zero game pairs per pairing in the first round.
    #[error("pairs must be at least 1")]
    ZeroPairs,
    /// The precision cannot be planned for (no neighbour gaps).
    #[error("--precision: {0}")]
    NoNeighbours(AdaptiveError),
    /// The next round cannot be planned.
    #[error("cannot plan the next round: {0}")]
    Plan(AdaptiveError),
    /// The ladder file cannot be read.
    #[error("cannot read ladder config {}", path.display())]
    ReadConfig {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// A file of the run folder cannot be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// An output file cannot be written.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// A games.csv row that does not parse (`line` counts the header as 1).
    #[error("{}:{line}: {error}", path.display())]
    Row {
        /// The file.
        path: PathBuf,
        /// The line.
        line: usize,
        /// The CSV reader's reason.
        error: csv::Error,
    },
    /// A games.csv row naming a player the ladder does not have.
    #[error("{}:{line}: player '{name}' is not in this ladder", path.display())]
    RowPlayer {
        /// The file.
        path: PathBuf,
        /// The line.
        line: usize,
        /// The name in the row.
        name: String,
    },
    /// A games.csv row of two players the ladder does not pair.
    #[error("{}:{line}: {red} vs {black} is not a pairing of this ladder", path.display())]
    RowPairing {
        /// The file.
        path: PathBuf,
        /// The line.
        line: usize,
        /// Red's name.
        red: String,
        /// Black's name.
        black: String,
    },
    /// `--resume` of a folder that holds another kind of run.
    #[error("{} holds a '{kind}' run; resume it with chuhan {kind}", dir.display())]
    WrongKind {
        /// The folder.
        dir: PathBuf,
        /// The kind of run it holds.
        kind: RunKind,
    },
    /// The ratings cannot be fitted (the reason names the players).
    #[error("cannot fit ratings: {0}")]
    Fit(String),
    /// A CSV table could not be built.
    #[error(transparent)]
    Csv(#[from] csv::Error),
    /// The ladder file copy could not be written as TOML.
    #[error(transparent)]
    Copy(#[from] toml::ser::Error),
    /// Setting up or playing the run.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The results folder.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// ladder.svg.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// report.html.
    #[error(transparent)]
    Report(#[from] HtmlError),
}

/// The text a CSV writer into memory wrote (CSV of `String` fields is UTF-8).
fn csv_text(w: csv::Writer<Vec<u8>>) -> Result<String, LadderError> {
    let bytes = w
        .into_inner()
        .map_err(|e| csv::Error::from(e.into_error()))?;
    Ok(String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8"))
}

/// The default ladder (configs/ladder.toml), embedded in the binary.
pub const DEFAULT_LADDER: &str = include_str!("../../../../configs/ladder.toml");

/// One player of a ladder file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LadderPlayer {
    /// Unique name in tables.
    pub name: String,
    /// Player spec (see `chuhan_arena::config::resolve_engine`).
    pub spec: String,
}

/// A ladder file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LadderConfig {
    /// Name (used in the default results folder name).
    pub name: String,
    /// Run seed.
    #[serde(default = "one")]
    pub seed: u64,
    /// Game pairs per pairing; with `precision`, the game pairs per pairing of the first round.
    pub pairs: u64,
    /// Play in rounds until every neighbour gap's 95% half-width is at most this many Elo (or
    /// a budget runs out): see [`adaptive`].
    #[serde(default)]
    pub precision: Option<f64>,
    /// With `precision`: at most this many games in all.
    #[serde(default)]
    pub max_games: Option<u64>,
    /// With `precision`: a wall-time budget such as `5m` (a run it stops is not reproducible).
    #[serde(default)]
    pub max_time: Option<String>,
    /// Each player meets the next `neighbours` players.
    #[serde(default = "two")]
    pub neighbours: usize,
    /// Players that meet every other player.
    #[serde(default)]
    pub anchors: Vec<String>,
    /// Per-move node cap on top of each player's own budget.
    #[serde(default = "default_max_nodes")]
    pub max_nodes: u64,
    /// Random plies of generated openings.
    #[serde(default = "six")]
    pub opening_plies: u32,
    /// Repetition rules (`asian` or `check-only`).
    #[serde(default, with = "as_text")]
    pub rules: RuleSet,
    /// Judge's move limit (plies without a capture).
    #[serde(default = "move_limit")]
    pub move_limit: u16,
    /// Bootstrap replicates: no longer used (the intervals are honest profile-likelihood and
    /// exact bounds, not a bootstrap); kept so that older ladder files still parse.
    #[serde(default = "bootstrap")]
    pub bootstrap: usize,
    /// Move notation of games.pgn: `iccs` (default), `wxf` or `chinese`.
    #[serde(default = "iccs", with = "as_text")]
    pub pgn_format: Notation,
    /// The game (`xiangqi`, the default, or `chess`); every player must play it.
    #[serde(default)]
    pub game: Option<GameKind>,
    /// Players, weakest first.
    pub players: Vec<LadderPlayer>,
}

fn one() -> u64 {
    1
}
fn two() -> usize {
    2
}
fn six() -> u32 {
    6
}
fn default_max_nodes() -> u64 {
    2_000_000
}
fn move_limit() -> u16 {
    120
}
fn iccs() -> Notation {
    Notation::Iccs
}
fn is_iccs(n: &Notation) -> bool {
    *n == Notation::Iccs
}
fn bootstrap() -> usize {
    1000
}

impl LadderConfig {
    /// Parses and validates a ladder file; errors name the source and the problem.
    pub fn parse(text: &str, source: &str) -> Result<LadderConfig, LadderError> {
        LadderConfig::parse_for(text, source, None)
    }

    /// [`LadderConfig::parse`] for a run of `game` (`--game`, when given): see
    /// [`LadderConfig::set_game`].
    pub fn parse_for(
        text: &str,
        source: &str,
        game: Option<GameKind>,
    ) -> Result<LadderConfig, LadderError> {
        let mut c: LadderConfig = toml::from_str(text).map_err(|e| LadderError::Toml {
            file: source.to_string(),
            error: Box::new(e),
        })?;
        match game {
            Some(g) => c.set_game(g, source)?,
            None => c.validate(source)?,
        }
        Ok(c)
    }

    /// The game played (xiangqi when the file does not say).
    pub fn kind(&self) -> GameKind {
        self.game.unwrap_or_default()
    }

    /// Plays `game` as `--game` asks: a file that names another game is an error naming both;
    /// a file that names none takes it (and its players are checked again).
    pub fn set_game(&mut self, game: GameKind, source: &str) -> Result<(), LadderError> {
        match self.game {
            Some(g) if g != game => Err(LadderError::WrongGame {
                file: source.to_string(),
                asked: game,
                says: g,
            }),
            _ => {
                self.game = Some(game);
                self.validate(source)
            }
        }
    }

    /// Checks players, anchors, numbers and that the schedule is connected.
    pub fn validate(&self, source: &str) -> Result<(), LadderError> {
        let file = || source.to_string();
        if self.players.len() < 2 {
            return Err(LadderError::TooFewPlayers { file: file() });
        }
        let mut seen = std::collections::HashSet::new();
        for (i, p) in self.players.iter().enumerate() {
            if p.name.trim().is_empty() {
                return Err(LadderError::EmptyName {
                    file: file(),
                    index: i + 1,
                });
            }
            if !seen.insert(p.name.as_str()) {
                return Err(LadderError::DuplicateName {
                    file: file(),
                    name: p.name.clone(),
                });
            }
            resolve_player_for(&p.spec, self.kind()).map_err(|error| LadderError::Player {
                file: file(),
                name: p.name.clone(),
                error,
            })?;
        }
        for a in &self.anchors {
            if !self.players.iter().any(|p| &p.name == a) {
                return Err(LadderError::UnknownAnchor {
                    file: file(),
                    anchor: a.clone(),
                });
            }
        }
        if self.pairs == 0 {
            return Err(LadderError::Zero {
                file: file(),
                key: "pairs",
            });
        }
        if self.max_nodes == 0 {
            return Err(LadderError::Zero {
                file: file(),
                key: "max_nodes",
            });
        }
        match self.precision {
            Some(p) if !(p.is_finite() && p > 0.0) => {
                return Err(LadderError::BadPrecision {
                    file: file(),
                    value: p,
                })
            }
            None if self.max_games.is_some() || self.max_time.is_some() => {
                return Err(LadderError::BudgetWithoutPrecision { file: file() })
            }
            _ => {}
        }
        if let Some(m) = self.max_games {
            let least = 2 * self.pairings().len() as u64;
            if m < least {
                return Err(LadderError::MaxGamesTooFew {
                    file: file(),
                    max_games: m,
                    least,
                });
            }
        }
        if let Some(t) = &self.max_time {
            adaptive::parse_duration(t, &format!("{source}: max_time"))?;
        }
        if self.bootstrap < 100 {
            return Err(LadderError::BootstrapTooSmall { file: file() });
        }
        let pairings = self.pairings();
        if let Some(groups) = disconnected(self.players.len(), &pairings) {
            let names: Vec<String> = groups
                .iter()
                .map(|g| {
                    let n: Vec<&str> = g.iter().map(|&i| self.players[i].name.as_str()).collect();
                    format!("{{{}}}", n.join(", "))
                })
                .collect();
            return Err(LadderError::Disconnected {
                file: file(),
                groups: names.join(" and "),
            });
        }
        Ok(())
    }

    /// Pairings: each player with its next `neighbours`, then anchors with everyone else.
    pub fn pairings(&self) -> Vec<[usize; 2]> {
        let n = self.players.len();
        let mut out: Vec<[usize; 2]> = Vec::new();
        for i in 0..n {
            for j in i + 1..=(i + self.neighbours).min(n - 1) {
                out.push([i, j]);
            }
        }
        for a in &self.anchors {
            let ai = self.players.iter().position(|p| &p.name == a).unwrap_or(0);
            for j in 0..n {
                let pair = [ai.min(j), ai.max(j)];
                if j != ai && !out.contains(&pair) {
                    out.push(pair);
                }
            }
        }
        out
    }

    /// The run configuration the arena plays and records.
    pub fn run_config(&self, command: RunKind) -> RunConfig {
        RunConfig {
            command,
            game: self.kind(),
            seed: self.seed,
            pairs: self.pairs,
            rules: self.rules,
            move_limit: self.move_limit,
            shard: None,
            players: self
                .players
                .iter()
                .map(|p| PlayerEntry {
                    name: p.name.clone(),
                    spec: p.spec.clone(),
                })
                .collect(),
            limit: LimitSpec::Nodes(self.max_nodes),
            openings: OpeningSource::Generated {
                plies: self.opening_plies,
            },
            adjudication: Default::default(),
            sprt: None,
            pairings: self.pairings(),
            pgn_format: self.pgn_format,
        }
    }
}

/// Components of the pairing graph when it is not connected.
pub fn disconnected(n: usize, pairings: &[[usize; 2]]) -> Option<Vec<Vec<usize>>> {
    let mut comp: Vec<usize> = (0..n).collect();
    fn find(c: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while c[r] != r {
            r = c[r];
        }
        c[x] = r;
        r
    }
    for &[a, b] in pairings {
        let (ra, rb) = (find(&mut comp, a), find(&mut comp, b));
        comp[ra] = rb;
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..n {
        let r = find(&mut comp, i);
        groups.entry(r).or_default().push(i);
    }
    (groups.len() > 1).then(|| groups.into_values().collect())
}

/// Arena pairings from `[first, second]` pairs with `pairs` game pairs each.
pub fn arena_pairings(pairs: &[[usize; 2]], per_pairing: u64) -> Vec<Pairing> {
    pairs
        .iter()
        .map(|&[first, second]| Pairing {
            first,
            second,
            pairs: per_pairing,
        })
        .collect()
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
    let n = names.len();
    let mut notes = Vec::new();
    let mut options = FitOptions::default();
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
    let honest = ratings::honest_intervals(games, n, &order, 0, 0.95)?;
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

/// Writes `text` to `path`, naming the file on error.
fn write_file(path: &Path, text: String) -> Result<(), LadderError> {
    std::fs::write(path, text).map_err(|source| LadderError::Write {
        path: path.to_path_buf(),
        source,
    })
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
    /// Rows of the ratings table, strongest first: rank, name, Elo, −, +, games, score, draws.
    /// An infinite rating shows its bound (`>= +219`) in the Elo column and no −/+; an open side
    /// of a finite rating shows `inf`.
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
                            d.map_or("inf".to_string(), |d| format!("{:.0}", d.max(0.0)))
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

/// File in the run folder that keeps the ladder's analysis settings.
pub const LADDER_COPY: &str = "ladder.toml";

/// Loads the ladder config: a file, or the embedded default.
pub fn load_config(path: Option<&Path>) -> Result<(LadderConfig, String), LadderError> {
    load_config_for(path, None)
}

/// [`load_config`] for a run of `game` (`--game`, when given).
pub fn load_config_for(
    path: Option<&Path>,
    game: Option<GameKind>,
) -> Result<(LadderConfig, String), LadderError> {
    match path {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|source| LadderError::ReadConfig {
                path: p.to_path_buf(),
                source,
            })?;
            Ok((
                LadderConfig::parse_for(&text, &p.display().to_string(), game)?,
                text,
            ))
        }
        None => Ok((
            LadderConfig::parse_for(DEFAULT_LADDER, "configs/ladder.toml (built in)", game)?,
            DEFAULT_LADDER.to_string(),
        )),
    }
}

/// Plays (or resumes) a run with explicit pairings and returns what the arena recorded.
pub fn play(
    config: RunConfig,
    destination: Destination,
    concurrency: Option<usize>,
    audience: Audience,
) -> Result<(PreparedRun, Finished), LadderError> {
    let pairings = arena_pairings(&config.pairings, config.pairs);
    let plan = plan_from_config(&config, pairings, concurrency)?;
    let prepared = PreparedRun::new(config, plan, destination);
    let labels = prepared.pairing_labels();
    let finished = execute(&prepared, None, labels, Box::new(describe_elo), audience)?;
    Ok((prepared, finished))
}

/// A ladder ready to play: a new one (from a ladder file, overrides applied) or one to resume.
pub struct LadderPlan {
    /// The run configuration (as in the manifest).
    pub config: RunConfig,
    /// Where results go.
    pub destination: Destination,
    /// The ladder's name (for the plot title).
    pub name: String,
    /// A new ladder's file as written back into the run folder (none when resuming).
    pub copy: Option<String>,
    /// Play to a precision (the ladder's `precision` key) instead of a fixed schedule.
    pub precision: Option<adaptive::Precision>,
}

impl LadderPlan {
    /// A new ladder writing to `dir`.
    pub fn new(ladder: &LadderConfig, dir: PathBuf) -> Result<LadderPlan, LadderError> {
        Ok(LadderPlan {
            config: ladder.run_config(RunKind::Ladder),
            destination: Destination::New(dir),
            name: ladder.name.clone(),
            copy: Some(toml::to_string(&LadderCopy::from(ladder))?),
            precision: adaptive::from_config(ladder)?,
        })
    }

    /// The interrupted ladder in `dir`.
    pub fn resume(dir: &Path) -> Result<LadderPlan, LadderError> {
        let manifest = ResultsDir::read_manifest(dir)?;
        if manifest.config.command != RunKind::Ladder {
            return Err(LadderError::WrongKind {
                dir: dir.to_path_buf(),
                kind: manifest.config.command,
            });
        }
        let stored = std::fs::read_to_string(dir.join(LADDER_COPY))
            .ok()
            .and_then(|t| LadderConfig::parse(&t, LADDER_COPY).ok());
        let precision = match &stored {
            Some(c) => adaptive::from_config(c)?,
            None => None,
        };
        let name = stored.map_or_else(|| "ladder".to_string(), |c| c.name);
        Ok(LadderPlan {
            config: manifest.config,
            destination: Destination::Resume(dir.to_path_buf()),
            name,
            copy: None,
            precision,
        })
    }
}

/// What a finished ladder produced.
pub struct LadderOutcome {
    /// The run as it was played.
    pub prepared: PreparedRun,
    /// The games.
    pub finished: Finished,
    /// The fitted ratings (none for a shard: `chuhan merge` fits the merged games).
    pub analysis: Option<Analysis>,
}

/// The header of the rating table (and summary.csv).
pub const RATING_HEADER: [&str; 8] = ["rank", "name", "elo", "-", "+", "games", "score", "draws"];

/// Plays (or resumes) the ladder, then fits the ratings and writes summary.csv, ratings.csv,
/// pairings.csv, ladder.svg (not for a shard) and (for a new ladder) the ladder file copy.
pub fn run(
    plan: LadderPlan,
    concurrency: Option<usize>,
    audience: Audience,
) -> Result<LadderOutcome, LadderError> {
    let (prepared, finished) = play(plan.config, plan.destination, concurrency, audience)?;
    if let Some(copy) = &plan.copy {
        write_file(&finished.dir.path().join(LADDER_COPY), copy.clone())?;
    }
    // A shard's games are every n-th pair: too few (maybe a disconnected schedule) to fit the
    // ladder, so only the merged folder gets ratings (`chuhan merge`).
    let analysis = match prepared.config.shard {
        None => Some(write_outputs(
            &prepared,
            &finished,
            &format!("Ladder '{}'", plan.name),
        )?),
        Some(_) => None,
    };
    Ok(LadderOutcome {
        prepared,
        finished,
        analysis,
    })
}

/// Fits the joint ratings of a played run with honest intervals; the error names the players
/// concerned.
pub fn fit_ratings(prepared: &PreparedRun, finished: &Finished) -> Result<Analysis, String> {
    fit_ratings_of(&prepared.config, &finished.records)
}

/// Fits the joint ratings of the games `records` of a run of `config`.
pub fn fit_ratings_of(
    config: &RunConfig,
    records: &BTreeMap<u64, PlayedGame>,
) -> Result<Analysis, String> {
    let names: Vec<String> = config.players.iter().map(|p| p.name.clone()).collect();
    let games = rating_games(records, &names, None);
    analyse(&games, &names).map_err(|e| describe_error(&e, &names))
}

/// Fits the ladder's ratings and writes its outputs (summary.csv, ratings.csv, gaps.csv,
/// pairings.csv, ladder.svg).
pub fn write_outputs(
    prepared: &PreparedRun,
    finished: &Finished,
    title: &str,
) -> Result<Analysis, LadderError> {
    write_outputs_of(&prepared.config, finished, title)
}

/// [`write_outputs`] for the games of a run of `config` (a played run, or merged shards).
pub fn write_outputs_of(
    config: &RunConfig,
    finished: &Finished,
    title: &str,
) -> Result<Analysis, LadderError> {
    let mut analysis = fit_ratings_of(config, &finished.records).map_err(LadderError::Fit)?;
    let names: Vec<String> = analysis.players.iter().map(|p| p.name.clone()).collect();
    let games = rating_games(&finished.records, &names, None);
    analysis
        .notes
        .extend(steps::ladder_notes(config, &games, &names));
    let dir = finished.dir.path();
    finished
        .dir
        .write_summary(&RATING_HEADER, &analysis.rating_rows())?;
    write_file(&dir.join("ratings.csv"), analysis.ratings_csv()?)?;
    write_file(&dir.join("pairings.csv"), analysis.pairings_csv()?)?;
    write_gaps_csv(dir, &analysis.gaps)?;
    crate::report::plots::ladder_svg(&dir.join("ladder.svg"), title, &analysis.plot_points())?;
    crate::report::html::write_report(dir)?;
    Ok(analysis)
}

/// The ladder file as written back into the run folder.
#[derive(serde::Serialize)]
struct LadderCopy {
    name: String,
    seed: u64,
    pairs: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    precision: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_games: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_time: Option<String>,
    neighbours: usize,
    anchors: Vec<String>,
    max_nodes: u64,
    opening_plies: u32,
    #[serde(with = "as_text")]
    rules: RuleSet,
    move_limit: u16,
    bootstrap: usize,
    #[serde(skip_serializing_if = "is_iccs", with = "as_text")]
    pgn_format: Notation,
    players: Vec<PlayerCopy>,
}

#[derive(serde::Serialize)]
struct PlayerCopy {
    name: String,
    spec: String,
}

impl From<&LadderConfig> for LadderCopy {
    fn from(c: &LadderConfig) -> Self {
        LadderCopy {
            name: c.name.clone(),
            seed: c.seed,
            pairs: c.pairs,
            precision: c.precision,
            max_games: c.max_games,
            max_time: c.max_time.clone(),
            neighbours: c.neighbours,
            anchors: c.anchors.clone(),
            max_nodes: c.max_nodes,
            opening_plies: c.opening_plies,
            rules: c.rules,
            move_limit: c.move_limit,
            bootstrap: c.bootstrap,
            pgn_format: c.pgn_format,
            players: c
                .players
                .iter()
                .map(|p| PlayerCopy {
                    name: p.name.clone(),
                    spec: p.spec.clone(),
                })
                .collect(),
        }
    }
}
