//! The flag groups several commands share, each defined once and `#[command(flatten)]`ed where
//! it is used. A command whose flag means something more specific than a group's text (its own
//! default, its folder's name) says so with `#[command(mut_arg(ID, |a| a.help(...)))]` beside
//! its own flags, so that every `--help` stays true of that command.
//!
//! Values with a shape are parsed here, by clap: a bad `--shard` or `--max-time` is a usage
//! error naming the flag (exit 2) before anything runs.

use chuhan_arena::jobs::ladder::{adaptive, LadderError};
use chuhan_arena::play::any::GameKind;
use chuhan_arena::play::schedule::Shard;
use chuhan_arena::ratings::FirstMove;
use chuhan_arena::report::Audience;
use chuhan_arena::stats::SprtModel;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// Which game a command plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum GameArg {
    /// Xiangqi (Chinese chess), the default.
    #[default]
    Xiangqi,
    /// Chess (international chess).
    Chess,
}

impl GameArg {
    /// The arena's name for the game.
    pub fn kind(self) -> GameKind {
        match self {
            GameArg::Xiangqi => GameKind::Xiangqi,
            GameArg::Chess => GameKind::Chess,
        }
    }
}

/// The game a run plays: one flag for match, sprt and ladder.
#[derive(Debug, Args, Clone)]
pub struct GameArgs {
    /// The game: xiangqi (the default) or chess. Every player must play it; a ladder file may
    /// say `game = "chess"` instead, and a resumed run keeps the game it started with.
    #[arg(long, value_enum)]
    pub game: Option<GameArg>,
    /// Chess960 (with chess): games start from the 960 start positions (Scharnagl numbers,
    /// chosen by the seed; both games of a pair from the same one) or from `--openings` of
    /// Chess960 FEN/EPD lines, castling by Chess960's rules; external engines are sent
    /// `UCI_Chess960`.
    #[arg(long, conflicts_with = "variant")]
    pub chess960: bool,
    /// The chess variant: `standard` (the default) or `chess960` (as `--chess960`).
    #[arg(long, value_parser = ["standard", "chess960"])]
    pub variant: Option<String>,
}

impl GameArgs {
    /// Chess960 asked for (`--chess960`, `--variant chess960`): `Some(true)`; `--variant
    /// standard`: `Some(false)`; neither: `None`.
    pub fn chess960(&self) -> Option<bool> {
        if self.chess960 {
            return Some(true);
        }
        self.variant.as_deref().map(|v| v == "chess960")
    }

    /// The game asked for, if `--game` was given.
    pub fn kind(&self) -> Option<GameKind> {
        self.game.map(GameArg::kind)
    }
}

/// How progress is shown on stderr: every long-running command takes these.
#[derive(Debug, Args, Clone)]
pub struct ProgressArgs {
    /// No progress output on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Progress output: `bar`, `plain` (a status line every 5 s) or `json` (one event object a
    /// line). Default: a bar on a terminal, plain lines otherwise.
    #[arg(long, value_name = "FORMAT", conflicts_with = "quiet")]
    pub progress: Option<ProgressFormat>,
}

/// `--progress` formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProgressFormat {
    /// An indicatif bar.
    Bar,
    /// A plain status line every few seconds.
    Plain,
    /// One JSON object per event.
    Json,
}

impl ProgressArgs {
    /// Who the progress output is for.
    pub fn audience(&self) -> Audience {
        match self.progress {
            Some(ProgressFormat::Bar) => Audience::Terminal,
            Some(ProgressFormat::Plain) => Audience::Plain,
            Some(ProgressFormat::Json) => Audience::Json,
            None => Audience::detect(self.quiet),
        }
    }
}

/// How a command that plays games runs them: games at once and progress output. Shared by
/// match, sprt, spsa, ladder, calibrate and datagen.
#[derive(Debug, Args, Clone)]
pub struct SessionArgs {
    /// Games played at once (default: all cores). Results do not depend on it. (`--threads`
    /// is for threads inside one computation: perft, Texel tuning.)
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Progress output.
    #[command(flatten)]
    pub progress: ProgressArgs,
}

impl SessionArgs {
    /// Who the progress output is for.
    pub fn audience(&self) -> Audience {
        self.progress.audience()
    }
}

/// `--seed`, one type for every command. Without it each command takes its own default, which
/// its help states: 1 for a new run, the file's seed for a ladder file.
#[derive(Debug, Args, Clone, Copy)]
pub struct SeedArgs {
    /// Run seed (default 1): the same seed and options give the same games.
    #[arg(long)]
    pub seed: Option<u64>,
}

impl SeedArgs {
    /// The seed given, if any.
    pub fn given(self) -> Option<u64> {
        self.seed
    }

    /// The seed given, or `default`.
    pub fn or(self, default: u64) -> u64 {
        self.seed.unwrap_or(default)
    }
}

/// `--out` and `--resume`: where a new run writes, or the interrupted run it continues; never
/// both.
#[derive(Debug, Args, Clone)]
#[command(group(clap::ArgGroup::new("dir").args(["out", "resume"])))]
pub struct RunDirArgs {
    /// Results folder (default results/<date>-<name>/); must be absent or empty.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the interrupted run in this folder.
    #[arg(long)]
    pub resume: Option<PathBuf>,
}

/// `--shard i/n`: play one share of a run on this machine; `chuhan merge` joins the shares.
#[derive(Debug, Args, Clone, Copy)]
pub struct ShardArgs {
    /// Play only pairs `i` modulo `n` (`--shard i/n`).
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<Shard>,
}

/// `--shard`'s value: `i/n` with `0 <= i < n`.
fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
        .map_err(|_| "expected i/n with 0 <= i < n, e.g. 0/4".to_string())
}

/// A run played to a precision (ladder, calibrate): the target and its budgets.
#[derive(Debug, Args, Clone)]
pub struct BudgetArgs {
    /// Play in rounds until every neighbour gap's 95% half-width is at most this many Elo.
    #[arg(long, allow_negative_numbers = true)]
    pub precision: Option<f64>,
    /// With --precision: stop after at most this many games.
    #[arg(long)]
    pub max_games: Option<u64>,
    /// With --precision: stop after this much wall time (e.g. 90s, 5m, 1h).
    #[arg(long, value_parser = parse_max_time)]
    pub max_time: Option<MaxTime>,
}

/// A `--max-time` value: the duration, and the text given (which run files record).
#[derive(Clone, Debug, PartialEq)]
pub struct MaxTime {
    /// As given, e.g. `5m`.
    pub text: String,
    /// Parsed.
    pub duration: Duration,
}

/// `--max-time`'s value: a positive number with an optional unit `s` (default), `m` or `h`.
fn parse_max_time(text: &str) -> Result<MaxTime, String> {
    match adaptive::parse_duration(text, "--max-time") {
        Ok(duration) => Ok(MaxTime {
            text: text.to_string(),
            duration,
        }),
        Err(LadderError::DurationUnit { unit, .. }) => {
            Err(format!("unknown unit '{unit}' (use s, m or h, e.g. 5m)"))
        }
        Err(_) => Err("not a positive duration (e.g. 90s, 5m, 1h)".to_string()),
    }
}

/// `--pgn-format`: the move notation of games.pgn.
#[derive(Debug, Args, Clone)]
pub struct PgnFormatArgs {
    /// Move notation of games.pgn: `iccs` (default), `wxf` or `chinese`.
    #[arg(long, value_parser = ["iccs", "wxf", "chinese"])]
    pub pgn_format: Option<String>,
}

impl PgnFormatArgs {
    /// The notation asked for (ICCS without the flag).
    pub fn notation(&self) -> anyhow::Result<chuhan_engine::Notation> {
        match self.pgn_format.as_deref() {
            Some(name) => name.parse().map_err(anyhow::Error::msg),
            None => Ok(chuhan_engine::Notation::Iccs),
        }
    }
}

/// `--first-move-advantage`: the first mover's advantage in the joint fit (ladder, calibrate,
/// rate), as Ordo's `-W` models it.
#[derive(Debug, Args, Clone)]
pub struct FirstMoveArgs {
    /// The first mover's advantage in Elo (Ordo's -W): `auto` estimates it with the ratings
    /// and prints it with its 95% interval; a number fixes it; 0 ignores colours (the default,
    /// or a ladder file's `first_move_advantage`).
    #[arg(
        long = "first-move-advantage",
        value_name = "auto|VALUE",
        allow_negative_numbers = true
    )]
    pub first_move_advantage: Option<FirstMove>,
}

/// The per-move limits a player can be given (match, sprt, spsa, serve, play).
#[derive(Debug, Args, Clone)]
pub struct LimitArgs {
    /// Nodes per move (the default limit, reproducible: 10000; tune spsa: 2000).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Milliseconds per move.
    #[arg(long)]
    pub movetime: Option<u64>,
}

/// The play flags shared by `chuhan match`, `chuhan sprt` and `chuhan tune spsa`: limits,
/// openings, seed, rules, adjudication, results folder, and the session flags.
#[derive(Debug, Args, Clone)]
#[command(group(clap::ArgGroup::new("limit").args(["nodes", "depth", "movetime", "tc"])))]
pub struct RunArgs {
    /// Nodes, depth or milliseconds per move.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Clock: `moves/seconds+increment` (e.g. 40/60+0.6) or `seconds+increment`.
    #[arg(long)]
    pub tc: Option<String>,
    /// Opening file: one FEN or EPD per line (`#` comments allowed), or a PGN book (`*.pgn`, one
    /// opening per record); shuffled by the seed.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Random plies from the start for generated openings (default 6); with a PGN book
    /// (`--openings FILE.pgn`), at most this many of each record's moves (default: all).
    #[arg(long)]
    pub opening_plies: Option<u32>,
    /// Run seed.
    #[command(flatten)]
    pub seed: SeedArgs,
    /// Results folder, or the run to resume.
    #[command(flatten)]
    pub dir: RunDirArgs,
    /// Repetition rules: `asian` or `check-only` (default asian).
    #[arg(long)]
    pub rules: Option<chuhan_engine::RuleSet>,
    /// Moves per side after which the judge draws the game (default 120).
    #[arg(long)]
    pub move_limit: Option<u16>,
    /// Resign adjudication: centipawn threshold (with --resign-plies).
    #[arg(long, requires = "resign_plies")]
    pub resign_score: Option<i32>,
    /// Resign adjudication: consecutive plies both sides agree.
    #[arg(long, requires = "resign_score")]
    pub resign_plies: Option<u32>,
    /// Draw adjudication: centipawn threshold (with --draw-plies).
    #[arg(long, requires = "draw_plies")]
    pub draw_score: Option<i32>,
    /// Draw adjudication: consecutive plies within the threshold.
    #[arg(long, requires = "draw_score")]
    pub draw_plies: Option<u32>,
    /// Draw adjudication: first ply it may apply (default 0).
    #[arg(long, requires = "draw_score")]
    pub draw_after: Option<u32>,
    /// Draw any game that reaches this many plies.
    #[arg(long)]
    pub ply_cap: Option<u32>,
    /// One share of the run's pairs.
    #[command(flatten)]
    pub sharding: ShardArgs,
    /// games.pgn's notation.
    #[command(flatten)]
    pub notation: PgnFormatArgs,
    /// The game played.
    #[command(flatten)]
    pub game: GameArgs,
    /// Games at once, progress output.
    #[command(flatten)]
    pub session: SessionArgs,
}

/// Parses `--model` (stats, sprt).
pub fn parse_model(text: &str) -> anyhow::Result<SprtModel> {
    chuhan_arena::play::results::parse_model(text.trim())
        .map_err(|_| anyhow::anyhow!("--model '{}': expected normalized or logistic", text.trim()))
}
