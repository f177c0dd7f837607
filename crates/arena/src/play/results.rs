//! Results on disk: `manifest.toml` (the resolved configuration, seed, version, git state),
//! `games.csv` (one row per game, flushed as each game ends), `summary.csv`; and resuming an
//! interrupted run from them.

use crate::play::any::GameKind;
use crate::play::game::Adjudication;
use crate::play::limits::LimitSpec;
use crate::play::openings::OpeningSource;
use crate::play::pgn::{rebuild, PgnContext, PgnFile, PgnWriteError};
use crate::play::runner::PlayedGame;
use crate::play::schedule::{Schedule, Shard};
use crate::stats::SprtModel;
use chuhan_engine::{Notation, RuleSet};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

pub use crate::play::lock::{
    is_lock_file, lock_file, lock_folder, FolderLock, LockError, LOCK_FILE,
};

/// A player as recorded in the manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerEntry {
    /// Name in reports and games.csv.
    pub name: String,
    /// The spec it was resolved from.
    pub spec: String,
}

/// A value kept in manifests as its text (`Display` out, `FromStr` in): seeds (TOML integers
/// are signed 64-bit), rule sets.
pub mod as_text {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::fmt::Display;
    use std::str::FromStr;

    /// Writes `value` as its text.
    pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    /// Reads a value from its text.
    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// The SPRT model as manifests write it: `normalized` or `logistic`.
mod model_text {
    use crate::stats::SprtModel;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(model: &SprtModel, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(super::model_name(*model))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SprtModel, D::Error> {
        let text = String::deserialize(d)?;
        super::parse_model(&text).map_err(serde::de::Error::custom)
    }
}

/// `normalized` or `logistic`.
pub fn model_name(model: SprtModel) -> &'static str {
    match model {
        SprtModel::Normalized => "normalized",
        SprtModel::Logistic => "logistic",
    }
}

/// Reads `normalized` (or `normalised`) or `logistic`.
pub fn parse_model(text: &str) -> Result<SprtModel, String> {
    match text {
        "normalized" | "normalised" => Ok(SprtModel::Normalized),
        "logistic" => Ok(SprtModel::Logistic),
        other => Err(format!(
            "unknown model '{other}' (expected normalized or logistic)"
        )),
    }
}

/// What kind of run a results folder holds (`command` in the manifest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunKind {
    /// `chuhan match`.
    Match,
    /// `chuhan sprt`.
    Sprt,
    /// `chuhan ladder`.
    Ladder,
    /// One stage of `chuhan calibrate`.
    Calibrate,
}

impl fmt::Display for RunKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RunKind::Match => "match",
            RunKind::Sprt => "sprt",
            RunKind::Ladder => "ladder",
            RunKind::Calibrate => "calibrate",
        })
    }
}

/// SPRT settings as recorded in the manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSettings {
    /// H0 bound.
    pub elo0: f64,
    /// H1 bound.
    pub elo1: f64,
    /// Type I error.
    pub alpha: f64,
    /// Type II error.
    pub beta: f64,
    /// The scale of the bounds (`normalized` or `logistic` in the manifest).
    #[serde(with = "model_text")]
    pub model: SprtModel,
}

/// Everything that determines a run's games. Two runs with equal configs play equal games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunConfig {
    /// The kind of run.
    pub command: RunKind,
    /// The game played (`game = "chess"`; not written for xiangqi, so manifests of earlier
    /// runs read as xiangqi).
    #[serde(default, skip_serializing_if = "GameKind::is_xiangqi")]
    pub game: GameKind,
    /// Chess played under Chess960's castling rules (`chess960 = true`; not written for
    /// standard chess or xiangqi, so earlier manifests read as they were).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chess960: bool,
    /// Run seed (written as a string: TOML integers are signed 64-bit).
    #[serde(with = "as_text")]
    pub seed: u64,
    /// Pairs per pairing (match) or the maximum pairs (sprt).
    pub pairs: u64,
    /// Repetition rules (`asian` or `check-only` in the manifest).
    #[serde(with = "as_text")]
    pub rules: RuleSet,
    /// The judge's move limit.
    pub move_limit: u16,
    /// Shard of the pairs, if any.
    pub shard: Option<Shard>,
    /// Players in order.
    pub players: Vec<PlayerEntry>,
    /// Per-move limit.
    pub limit: LimitSpec,
    /// Opening source.
    pub openings: OpeningSource,
    /// Adjudication.
    pub adjudication: Adjudication,
    /// SPRT settings (sprt only).
    pub sprt: Option<SprtSettings>,
    /// Explicit pairings `[first, second]` (ladders, calibration); empty = a round robin.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairings: Vec<[usize; 2]>,
    /// Move notation of games.pgn (`iccs`, the default, is not written, so manifests of
    /// earlier runs read as ICCS).
    #[serde(default = "iccs", skip_serializing_if = "is_iccs", with = "as_text")]
    pub pgn_format: Notation,
}

fn iccs() -> Notation {
    Notation::Iccs
}

fn is_iccs(n: &Notation) -> bool {
    *n == Notation::Iccs
}

/// `manifest.toml` of every run folder: who made it, and the configuration `C` that determines
/// its games ([`RunConfig`] for match, sprt, ladder and calibration stages; the SPSA
/// configuration for tuning runs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest<C = RunConfig> {
    /// chuhan version that made the run.
    pub chuhan_version: String,
    /// Git commit of the source tree, or "unknown".
    pub git_commit: String,
    /// "true", "false" or "unknown".
    pub git_dirty: String,
    /// The engine's bench signature (node count of `chuhan bench`) of this build.
    pub bench_signature: String,
    /// When the run was created (seconds since the Unix epoch).
    pub created_unix: u64,
    /// The resolved configuration.
    pub config: C,
    /// The engine files the players were read from, as they were when the run started (a
    /// resumed run refuses files that changed since). Absent in manifests written before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub engine_files: Vec<EngineFile>,
}

/// An engine file (`configs/engines/*.toml`, or an external engine's `[uci]` file) as it was
/// when a run started: its path as the player spec gives it, an FNV-1a hash and the text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineFile {
    /// The path in the player spec.
    pub path: String,
    /// FNV-1a of the contents (hex), for a quick look.
    pub fnv1a: String,
    /// The contents.
    pub text: String,
}

/// The engine file a player spec names (`FILE` or `FILE:key=value,...`), if it names one.
pub fn engine_file_of(spec: &str) -> Option<PathBuf> {
    let spec = spec.trim();
    let path = Path::new(spec.split_once(':').map_or(spec, |(file, _)| file.trim()));
    path.is_file().then(|| path.to_path_buf())
}

/// The engine files named by `specs`, each once, in first-seen order.
pub fn engine_files<'a>(
    specs: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<EngineFile>, ResultsError> {
    let mut out: Vec<EngineFile> = Vec::new();
    for spec in specs {
        let Some(path) = engine_file_of(spec) else {
            continue;
        };
        let shown = path.display().to_string();
        if out.iter().any(|f| f.path == shown) {
            continue;
        }
        let bytes = std::fs::read(&path).map_err(io(&path))?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let network = network_of(&path, &text);
        out.push(EngineFile {
            path: shown,
            fnv1a: crate::play::openings::fnv1a_hex(&bytes),
            text,
        });
        // The network file an engine file names is part of the player too: recorded by its
        // size and hash (it is binary), so a resume notices a replaced network.
        if let Some(net) = network {
            let shown = net.display().to_string();
            if out.iter().any(|f| f.path == shown) {
                continue;
            }
            let bytes = std::fs::read(&net).map_err(io(&net))?;
            let fnv1a = crate::play::openings::fnv1a_hex(&bytes);
            out.push(EngineFile {
                path: shown,
                text: format!("network file: {} bytes, FNV-1a {fnv1a}", bytes.len()),
                fnv1a,
            });
        }
    }
    Ok(out)
}

/// The network file an engine file's `network = "FILE"` names (relative to the engine file),
/// if it has one.
fn network_of(engine_file: &Path, text: &str) -> Option<PathBuf> {
    let table: toml::Table = text.parse().ok()?;
    let net = Path::new(table.get("network")?.as_str()?);
    Some(match engine_file.parent() {
        Some(dir) if net.is_relative() => dir.join(net),
        _ => net.to_path_buf(),
    })
}

/// Checks that the engine files `specs` name now are the ones `stored` recorded when the run in
/// `what` started (nothing to check for a manifest written before engine files were kept).
pub fn check_engine_files<'a>(
    stored: &[EngineFile],
    specs: impl IntoIterator<Item = &'a str>,
    what: &Path,
) -> Result<(), ResultsError> {
    if stored.is_empty() {
        return Ok(());
    }
    let now = engine_files(specs)?;
    for old in stored {
        let current = now.iter().find(|f| f.path == old.path);
        if current.map(|f| &f.text) != Some(&old.text) {
            return Err(ResultsError::EngineFileChanged {
                what: what.to_path_buf(),
                path: old.path.clone(),
                was: old.fnv1a.clone(),
                now: current.map_or_else(|| "missing".to_string(), |f| f.fnv1a.clone()),
            });
        }
    }
    Ok(())
}

/// The warning for a resumed run whose manifest records another engine (bench signature
/// `stored`) than this build's (`current`, the signature of the game the run plays), when the
/// rest of the run depends on this build's engine: one of its players moves with it (a
/// built-in engine player; not `random` or `greedy`), or its openings are generated (a short search of the engine balances them). `None` when the
/// signatures agree, when the manifest has none, and when every player is an external engine
/// that is not this chuhan (`{chuhan}`) and the openings come from a book. Old runs still
/// resume (tests/data/runs): this says so instead of refusing.
pub fn engine_build_note<'a>(
    stored: &str,
    current: u64,
    specs: impl IntoIterator<Item = &'a str>,
    generated_openings: bool,
    what: &Path,
) -> Option<String> {
    let stored = stored.trim();
    if stored.is_empty() || stored == current.to_string() {
        return None;
    }
    let ours: Vec<&str> = specs
        .into_iter()
        .filter(|s| {
            // `random` and `greedy` pick their moves without the engine.
            let name = s.split_once(':').map_or(*s, |(name, _)| name).trim();
            !matches!(name, "random" | "greedy") && !plays_elsewhere(s)
        })
        .collect();
    let what_changes = match (ours.is_empty(), generated_openings) {
        (true, false) => return None,
        (true, true) => "the openings of the rest of the games are generated".to_string(),
        (false, _) => format!("{} play the rest of the games", ours.join(", ")),
    };
    Some(format!(
        "--resume {}: the run started with engine bench {stored} and this chuhan's engine is bench \
         {current}: {what_changes} with this build's engine, not the one of the first games \
         (finish the run with the build that started it to keep one engine)",
        what.display(),
    ))
}

/// The signature a datagen or SPSA manifest of `game` records, as [`engine_build_note`] reads
/// it: unknown (empty) for a chess run's manifest written before those recorded the chess
/// engine's signature (they held the xiangqi engine's).
pub fn recorded_signature(stored: &str, game: crate::play::any::GameKind) -> &str {
    let xiangqi = chuhan_engine::bench::SIGNATURE.to_string();
    if game == crate::play::any::GameKind::Chess && stored.trim() == xiangqi {
        ""
    } else {
        stored
    }
}

/// Whether a player spec names an external engine file whose `[uci] command` is not this
/// chuhan (`{chuhan}`).
fn plays_elsewhere(spec: &str) -> bool {
    let command = |text: String| -> Option<bool> {
        let table: toml::Table = text.parse().ok()?;
        let command = table.get("uci")?.get("command")?.as_str()?;
        Some(!command.contains(crate::play::player::uci::CHUHAN_PLACEHOLDER))
    };
    engine_file_of(spec)
        .and_then(|path| std::fs::read_to_string(path).ok())
        .and_then(command)
        .unwrap_or(false)
}

impl<C> Manifest<C> {
    /// A manifest for a new run of `config`, with version and git state filled in.
    pub fn new(config: C) -> Manifest<C> {
        let (git_commit, git_dirty) = git_state();
        Manifest {
            chuhan_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit,
            git_dirty,
            bench_signature: chuhan_engine::bench::SIGNATURE.to_string(),
            created_unix: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            config,
            engine_files: Vec::new(),
        }
    }
}

/// The commit this binary was built from and whether its source tree had uncommitted
/// changes. The commit is recorded at build time; the dirty flag is read via `git` at run time
/// and is "unknown" when the tree has since moved to another commit (a copied snapshot binary)
/// or git is not available. Read without optional locks: a plain `git status` refreshes and
/// rewrites `.git/index`, which many shards started at once on one shared checkout would
/// contend for.
pub fn git_state() -> (String, String) {
    let dir = env!("CARGO_MANIFEST_DIR");
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .env("GIT_OPTIONAL_LOCKS", "0")
            .arg("--no-optional-locks")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let head = git(&["rev-parse", "HEAD"]).filter(|c| !c.is_empty());
    provenance(env!("CHUHAN_BUILD_COMMIT"), head.as_deref(), || {
        git(&["status", "--porcelain", "--untracked-files=no"]).map(|s| !s.is_empty())
    })
}

/// The commit and dirty flag to record, from the commit the binary was built from (`built`,
/// "unknown" outside a git tree), the tree's HEAD now (`head`) and a check of the tree for
/// uncommitted changes (`dirty`, asked only when the tree is still at the built commit).
fn provenance(
    built: &str,
    head: Option<&str>,
    dirty: impl FnOnce() -> Option<bool>,
) -> (String, String) {
    match head {
        Some(h) if built == "unknown" || h == built => (
            h.to_string(),
            dirty().map_or("unknown".to_string(), |d| d.to_string()),
        ),
        _ => (built.to_string(), "unknown".to_string()),
    }
}

/// Why the results directory cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// `--out` names a directory with files in it.
    #[error("{0} exists and is not empty; choose another --out or continue it with --resume")]
    NotEmpty(PathBuf),
    /// An I/O problem.
    #[error("{path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A malformed manifest.
    #[error("{path}: {reason}")]
    Manifest {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// games.pgn could not be written.
    #[error(transparent)]
    Pgn(#[from] PgnWriteError),
    /// A malformed games.csv row.
    #[error("{path}:{line}: {reason}")]
    Row {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        reason: String,
    },
    /// A folder without a manifest: not a run, or one stopped before it started.
    #[error("--resume {}: there is no manifest.toml, so no run to continue (a run stopped before it started played nothing: remove the folder and start it again with --out)", .0.display())]
    NoManifest(PathBuf),
    /// An engine file changed since the run started.
    #[error("--resume {}: the engine file {path} changed since the run started (FNV-1a {was} then, {now} now; its text then is in the manifest); restore it, or start a new run", what.display())]
    EngineFileChanged {
        /// The run's folder (or datagen's file).
        what: PathBuf,
        /// The engine file.
        path: String,
        /// Its hash when the run started.
        was: String,
        /// Its hash now (`missing` when it is gone).
        now: String,
    },
    /// The resumed run plays the other game.
    #[error("--resume {}: the run there plays {found}, and --game {asked} was given; resume it with --game {found}, or without --game", dir.display())]
    OtherGame {
        /// The folder.
        dir: PathBuf,
        /// The game of the run.
        found: GameKind,
        /// The game asked for.
        asked: GameKind,
    },
    /// The resumed run is Chess960 and the command line asked for standard chess, or the
    /// reverse.
    #[error("--resume {}: the run there plays {found}, and the command line asks for {asked}; resume it with {hint}, or with only --resume", dir.display())]
    OtherVariant {
        /// The folder.
        dir: PathBuf,
        /// The run's variant (`chess960`, `standard chess`).
        found: &'static str,
        /// The variant asked for.
        asked: &'static str,
        /// The flags that resume it.
        hint: &'static str,
    },
    /// The resumed run's configuration differs from the command line.
    #[error("--resume {dir}: the command line differs from the run's manifest.toml ({what}); resume with the same options, or give only --resume")]
    ConfigDiffers {
        /// The directory.
        dir: PathBuf,
        /// Which part differs.
        what: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ResultsError + '_ {
    move |source| ResultsError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The PGN file of every run folder that plays games.
pub const GAMES_PGN: &str = "games.pgn";

/// The games.csv header.
pub const GAMES_HEADER: &str =
    "pair,game,opening,red,black,result,termination,plies,nodes,seconds,seed,moves";

/// How a [`PlayedGame`] is written in games.csv: the result as `1-0`, `0-1` or `1/2-1/2`, the
/// wall time rounded to 0.1 ms. (The pairing is not written: a resumed run takes it from the
/// schedule.)
pub mod csv_fields {
    use chuhan_engine::GameResult;
    use serde::{Deserialize, Deserializer, Serializer};

    /// `1-0`, `0-1`, `1/2-1/2`.
    pub mod result {
        use super::*;

        /// Writes the PGN form.
        pub fn serialize<S: Serializer>(result: &GameResult, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(result.as_pgn())
        }

        /// Reads the PGN form.
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
            let text = String::deserialize(d)?;
            match text.as_str() {
                "1-0" => Ok(GameResult::RedWins),
                "0-1" => Ok(GameResult::BlackWins),
                "1/2-1/2" => Ok(GameResult::Draw),
                _ => Err(serde::de::Error::custom(format!(
                    "result '{text}' is not 1-0, 0-1 or 1/2-1/2"
                ))),
            }
        }
    }

    /// Seconds rounded to four decimals.
    pub fn rounded_seconds<S: Serializer>(seconds: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64((seconds * 1e4).round() / 1e4)
    }
}

/// An open results directory that games are appended to.
pub struct ResultsDir {
    dir: PathBuf,
    games: csv::Writer<File>,
    pgn: PgnFile,
}

impl ResultsDir {
    /// The directory.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Checks that `dir` can hold a new run (absent, or empty but for its lock file), without
    /// creating anything.
    pub fn check_new(dir: &Path) -> Result<(), ResultsError> {
        if dir.exists() {
            for entry in std::fs::read_dir(dir).map_err(io(dir))? {
                let entry = entry.map_err(io(dir))?;
                if !is_lock_file(&entry.file_name()) {
                    return Err(ResultsError::NotEmpty(dir.to_path_buf()));
                }
            }
        }
        Ok(())
    }

    /// Creates a new run directory with its manifest and an empty games.csv.
    pub fn create(dir: &Path, manifest: &Manifest) -> Result<ResultsDir, ResultsError> {
        Self::check_new(dir)?;
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let text = toml::to_string(manifest).map_err(|e| ResultsError::Manifest {
            path: dir.join("manifest.toml"),
            reason: e.to_string(),
        })?;
        // games.csv first, the manifest last and whole: a folder with a manifest is resumable
        // whenever the run was killed.
        let gpath = dir.join("games.csv");
        std::fs::write(&gpath, format!("{GAMES_HEADER}\n")).map_err(io(&gpath))?;
        let ppath = dir.join(GAMES_PGN);
        std::fs::write(&ppath, "").map_err(io(&ppath))?;
        let mpath = dir.join("manifest.toml");
        write_whole(&mpath, &text)?;
        Self::open_append(dir, PgnContext::for_run(manifest))
    }

    /// Opens a run directory for appending as it is, games.pgn included (for a folder whose
    /// games.pgn was just written whole, such as a merge's).
    pub fn open_written(dir: &Path) -> Result<ResultsDir, ResultsError> {
        let ctx = PgnContext::for_run(&Self::read_manifest(dir)?);
        Self::open_append(dir, ctx)
    }

    fn open_append(dir: &Path, pgn: PgnContext) -> Result<ResultsDir, ResultsError> {
        let gpath = dir.join("games.csv");
        let file = OpenOptions::new()
            .append(true)
            .open(&gpath)
            .map_err(io(&gpath))?;
        let games = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        let pgn = PgnFile::open(&dir.join(GAMES_PGN), pgn)?;
        Ok(ResultsDir {
            dir: dir.to_path_buf(),
            games,
            pgn,
        })
    }

    /// Checks that the run in `dir` (being resumed) plays `asked`, the game of the command line.
    pub fn check_game(dir: &Path, asked: GameKind) -> Result<(), ResultsError> {
        match ResultsDir::read_manifest(dir) {
            Ok(m) if m.config.game != asked => Err(ResultsError::OtherGame {
                dir: dir.to_path_buf(),
                found: m.config.game,
                asked,
            }),
            // A missing or unreadable manifest is reported by the resume itself.
            _ => Ok(()),
        }
    }

    /// Checks that the run in `dir` (being resumed) is a Chess960 run when `asked` is true and
    /// a standard one when false (a xiangqi run is left to [`ResultsDir::check_game`]).
    pub fn check_chess960(dir: &Path, asked: bool) -> Result<(), ResultsError> {
        let name = |chess960: bool| {
            if chess960 {
                "chess960"
            } else {
                "standard chess"
            }
        };
        match ResultsDir::read_manifest(dir) {
            Ok(m) if m.config.game == GameKind::Chess && m.config.chess960 != asked => {
                Err(ResultsError::OtherVariant {
                    dir: dir.to_path_buf(),
                    found: name(m.config.chess960),
                    asked: name(asked),
                    hint: if m.config.chess960 {
                        "--game chess --chess960"
                    } else {
                        "--game chess (without --chess960)"
                    },
                })
            }
            _ => Ok(()),
        }
    }

    /// Reads a run's manifest.
    pub fn read_manifest(dir: &Path) -> Result<Manifest, ResultsError> {
        let mpath = dir.join("manifest.toml");
        let text = std::fs::read_to_string(&mpath).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound && dir.is_dir() {
                ResultsError::NoManifest(dir.to_path_buf())
            } else {
                io(&mpath)(e)
            }
        })?;
        toml::from_str(&text).map_err(|e| ResultsError::Manifest {
            path: mpath,
            reason: e.to_string(),
        })
    }

    /// Reads games.csv of a run being resumed: checks every row against the schedule and the
    /// openings, drops a truncated last line (that game is replayed), and returns the records.
    /// Nothing is modified; call [`ResultsDir::reopen`] to continue writing.
    pub fn read_games(
        dir: &Path,
        schedule: &Schedule,
        openings: &crate::play::openings::OpeningBook,
        names: &[String],
    ) -> Result<Vec<PlayedGame>, ResultsError> {
        let gpath = dir.join("games.csv");
        let bytes = std::fs::read(&gpath).map_err(io(&gpath))?;
        let complete = match bytes.iter().rposition(|&b| b == b'\n') {
            Some(end) => &bytes[..=end],
            None => &bytes[..0],
        };
        let row_err = |line: u64, reason: String| ResultsError::Row {
            path: gpath.clone(),
            line,
            reason,
        };
        let first_line = complete.split(|&b| b == b'\n').next().unwrap_or(&[]);
        if first_line != GAMES_HEADER.as_bytes() {
            return Err(row_err(1, format!("expected the header '{GAMES_HEADER}'")));
        }
        let by_index: std::collections::HashMap<u64, &crate::play::schedule::GameSpec> =
            schedule.games.iter().map(|g| (g.index, g)).collect();
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut reader = csv::ReaderBuilder::new().from_reader(complete);
        for (i, row) in reader.deserialize::<PlayedGame>().enumerate() {
            let line = i as u64 + 2;
            let mut row = row.map_err(|e| row_err(line, e.to_string()))?;
            let spec = by_index.get(&row.game).ok_or_else(|| {
                row_err(
                    line,
                    format!("game {} is not in this run's schedule", row.game),
                )
            })?;
            let expected_opening = openings
                .get(spec.pair as usize)
                .map_err(|e| row_err(line, e.to_string()))?;
            if row.pair != spec.pair
                || row.seed != spec.seed
                || row.red != names[spec.red]
                || row.black != names[spec.black]
                || row.opening != expected_opening
            {
                return Err(row_err(
                    line,
                    format!(
                        "game {} does not match the run's schedule (players, seed or opening differ)",
                        row.game
                    ),
                ));
            }
            if !seen.insert(row.game) {
                return Err(row_err(line, format!("game {} appears twice", row.game)));
            }
            row.pairing = spec.pairing;
            out.push(row);
        }
        Ok(out)
    }

    /// Reopens a run directory for appending, first cutting a truncated last line off games.csv
    /// and rebuilding games.pgn to hold exactly the games of `rows` (games.csv's complete rows,
    /// from [`ResultsDir::read_games`]).
    pub fn reopen(dir: &Path, rows: &[PlayedGame]) -> Result<ResultsDir, ResultsError> {
        let gpath = dir.join("games.csv");
        let bytes = std::fs::read(&gpath).map_err(io(&gpath))?;
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |e| e + 1);
        if keep != bytes.len() {
            let f = OpenOptions::new()
                .write(true)
                .open(&gpath)
                .map_err(io(&gpath))?;
            f.set_len(keep as u64).map_err(io(&gpath))?;
        }
        let ctx = PgnContext::for_run(&Self::read_manifest(dir)?);
        rebuild(&dir.join(GAMES_PGN), rows, &ctx)?;
        Self::open_append(dir, ctx)
    }

    /// Appends one game and flushes it to the file.
    pub fn append(&mut self, record: &PlayedGame) -> Result<(), ResultsError> {
        let gpath = self.dir.join("games.csv");
        self.games.serialize(record).map_err(|e| ResultsError::Io {
            path: gpath.clone(),
            source: std::io::Error::other(e),
        })?;
        self.games.flush().map_err(io(&gpath))?;
        // After games.csv, the source of truth: a crash in between leaves a row whose record
        // the next --resume writes.
        self.pgn.append(record)?;
        Ok(())
    }

    /// Writes summary.csv (replacing an earlier one) from a header and rows.
    pub fn write_summary(&self, header: &[&str], rows: &[Vec<String>]) -> Result<(), ResultsError> {
        let spath = self.dir.join("summary.csv");
        let mut w = csv::Writer::from_path(&spath).map_err(|e| ResultsError::Io {
            path: spath.clone(),
            source: std::io::Error::other(e),
        })?;
        let wrap = |e: csv::Error| ResultsError::Io {
            path: spath.clone(),
            source: std::io::Error::other(e),
        };
        w.write_record(header).map_err(wrap)?;
        for r in rows {
            w.write_record(r).map_err(wrap)?;
        }
        w.flush().map_err(io(&spath))?;
        Ok(())
    }
}

/// Writes `text` to `path` whole or not at all (a temporary file renamed over it), so a run
/// killed while writing never leaves half a manifest.
pub fn write_whole(path: &Path, text: &str) -> Result<(), ResultsError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}

/// Today's date as `YYYY-MM-DD` (UTC), for default result folder names.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_date(secs)
}

/// The UTC date of a Unix time as `YYYY-MM-DD`.
pub fn civil_date(secs: u64) -> String {
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The (year, month, day) of a day count since 1970-01-01 (Howard Hinnant's algorithm).
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// How a player spec reads in a folder name: an engine file by its stem (`configs/x.toml:nodes=9`
/// -> `x:nodes=9`), anything else as given.
pub fn spec_label(spec: &str) -> String {
    let (base, rest) = match spec.split_once(':') {
        Some((b, r)) => (b, Some(r)),
        None => (spec, None),
    };
    let path = Path::new(base);
    let base = if base.contains(['/', '\\']) || base.ends_with(".toml") {
        path.file_stem()
            .map_or_else(|| base.to_string(), |s| s.to_string_lossy().into_owned())
    } else {
        base.to_string()
    };
    match rest {
        Some(r) => format!("{base}:{r}"),
        None => base,
    }
}

/// Longest `<name>` part of a default folder name, in bytes.
const MAX_FOLDER_NAME: usize = 100;

/// The `<name>` of a default folder as one safe path component: characters other than
/// letters, digits and `._=+,:-` become `_` (so a path in a player spec never nests folders),
/// cut to [`MAX_FOLDER_NAME`] bytes.
fn folder_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        let c = if c.is_ascii_alphanumeric() || "._=+,:-".contains(c) {
            c
        } else {
            '_'
        };
        if out.len() + c.len_utf8() > MAX_FOLDER_NAME {
            break;
        }
        out.push(c);
    }
    out
}

/// The default output folder `results/<date>-<name>/`, with `-2`, `-3`... when taken; `name`
/// is made one safe path component ([`folder_name`]).
pub fn default_out_dir(name: &str) -> PathBuf {
    let base = format!("results/{}-{}", today(), folder_name(name));
    let mut dir = PathBuf::from(&base);
    let mut n = 2;
    while ResultsDir::check_new(&dir).is_err() {
        dir = PathBuf::from(format!("{base}-{n}"));
        n += 1;
    }
    dir
}

#[cfg(test)]
mod engine_file_tests {
    use super::*;

    #[test]
    fn default_folder_names_are_one_path_component() {
        assert_eq!(
            spec_label("/work/main/configs/engines/nnue.toml"),
            "nnue".to_string()
        );
        assert_eq!(spec_label("configs/x.toml:nodes=9"), "x:nodes=9");
        assert_eq!(spec_label("hard:skill=7.5"), "hard:skill=7.5");
        assert_eq!(folder_name("match-/a/b c-d"), "match-_a_b_c-d");
        assert_eq!(folder_name(&"x".repeat(300)).len(), MAX_FOLDER_NAME);
        let dir = default_out_dir("match-/work/a.toml-/work/b.toml");
        assert_eq!(dir.components().count(), 2, "{}", dir.display());
        assert!(dir.starts_with("results"));
    }

    #[test]
    fn the_network_an_engine_file_names_is_recorded_and_checked() {
        let dir = std::env::temp_dir().join(format!("chuhan-netrec-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("nets")).unwrap();
        let engine = dir.join("e.toml");
        std::fs::write(&engine, "name = \"e\"\nnetwork = \"nets/n.nnue\"\n").unwrap();
        std::fs::write(dir.join("nets/n.nnue"), [1u8, 2, 3]).unwrap();
        let spec = engine.display().to_string();
        let stored = engine_files([spec.as_str()]).unwrap();
        assert_eq!(stored.len(), 2, "{stored:?}");
        assert_eq!(
            stored[1].path,
            dir.join("nets/n.nnue").display().to_string()
        );
        assert!(
            stored[1].text.starts_with("network file: 3 bytes"),
            "{}",
            stored[1].text
        );
        check_engine_files(&stored, [spec.as_str()], &dir).unwrap();
        // The same engine file with another network: refused, naming the network.
        std::fs::write(dir.join("nets/n.nnue"), [1u8, 2, 4]).unwrap();
        let e = check_engine_files(&stored, [spec.as_str()], &dir).unwrap_err();
        assert!(e.to_string().contains("n.nnue"), "{e}");
        // A network that is gone is an error naming it, not a silent pass.
        std::fs::remove_file(dir.join("nets/n.nnue")).unwrap();
        let e = check_engine_files(&stored, [spec.as_str()], &dir).unwrap_err();
        assert!(e.to_string().contains("n.nnue"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_resume_by_another_engine_build_is_named_when_it_changes_the_games() {
        let dir = std::env::temp_dir().join(format!("chuhan-buildnote-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let other = dir.join("other.toml");
        std::fs::write(&other, "[uci]\ncommand = \"/usr/games/fairy-stockfish\"\n").unwrap();
        let ours = dir.join("ours.toml");
        std::fs::write(&ours, "[uci]\ncommand = \"{chuhan}\"\nargs = [\"uci\"]\n").unwrap();
        let (other, ours) = (other.display().to_string(), ours.display().to_string());
        let note = |stored: &str, specs: &[&str], generated: bool| {
            engine_build_note(stored, 212_586, specs.iter().copied(), generated, &dir)
        };
        // The same build, or a manifest that records none: nothing to say.
        assert_eq!(note("212586", &["default", other.as_str()], true), None);
        assert_eq!(note("", &["default"], true), None);
        // Another build: the built-in players are named, with both signatures.
        let text = note("185781", &["default", other.as_str()], false).expect("a note");
        assert!(
            text.contains("bench 185781") && text.contains("bench 212586"),
            "{text}"
        );
        assert!(text.contains("default play the rest"), "{text}");
        assert!(!text.contains("other.toml"), "{text}");
        // `chuhan uci` behind an engine file is this build too.
        let text = note("185781", &[other.as_str(), ours.as_str()], false).expect("a note");
        assert!(
            text.contains("ours.toml play") && !text.contains("other.toml"),
            "{text}"
        );
        // External engines, `random` and `greedy` only: the build matters only through
        // generated openings.
        assert_eq!(note("185781", &[other.as_str()], false), None);
        assert_eq!(note("185781", &["random", "greedy"], false), None);
        let text = note("185781", &["random", "greedy:x=1"], true).expect("a note");
        assert!(
            !text.contains("random") && !text.contains("greedy"),
            "{text}"
        );
        let text = note("185781", &[other.as_str()], true).expect("a note");
        assert!(text.contains("openings of the rest of the games"), "{text}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[cfg(test)]
mod provenance_tests {
    use super::provenance;

    #[test]
    fn a_binary_names_the_commit_it_was_built_from() {
        // The tree is still where the binary was built: its dirty flag is read.
        let at_build = provenance("abc", Some("abc"), || Some(true));
        assert_eq!(at_build, ("abc".to_string(), "true".to_string()));
        // The tree has moved on (a snapshot binary run later): the built commit, and no
        // claim about the tree it was built from.
        let moved = provenance("abc", Some("def"), || panic!("not asked"));
        assert_eq!(moved, ("abc".to_string(), "unknown".to_string()));
        let no_git_now = provenance("abc", None, || panic!("not asked"));
        assert_eq!(no_git_now, ("abc".to_string(), "unknown".to_string()));
        // Built outside git: what the tree says now, as before.
        let unknown = provenance("unknown", Some("def"), || Some(false));
        assert_eq!(unknown, ("def".to_string(), "false".to_string()));
        assert_eq!(
            provenance("unknown", None, || None),
            ("unknown".to_string(), "unknown".to_string())
        );
    }
}
