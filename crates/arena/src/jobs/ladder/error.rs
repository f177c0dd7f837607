//! [`LadderError`]: every way a ladder file is refused or a ladder cannot be played or written.

use crate::play::any::GameKind;
use crate::play::player::PlayerSpecError;
use crate::play::results::{ResultsError, RunKind};
use crate::play::setup::SetupError;
use crate::report::html::HtmlError;
use crate::report::plots::PlotError;
use chuhan_stats::adaptive::AdaptiveError;
use std::path::PathBuf;

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
