//! Run setup shared by every job that plays scheduled games (match, sprt, ladder, calibrate):
//! a validated [`RunConfig`] (as the manifest stores it) resolved into a [`RunPlan`], the
//! results folder prepared or resumed, the run executed with its reporter, every game written
//! as it ends.

use crate::play::game::PlaySettings;
use crate::play::lock::LockError;
use crate::play::openings::book_for;
use crate::play::openings::OpeningError;
use crate::play::player::resolve_player_for;
use crate::play::player::uci::UciError;
use crate::play::player::PlayerSpecError;
use crate::play::results::{
    check_engine_files, default_out_dir, engine_build_note, engine_files, lock_folder, FolderLock,
    Manifest, ResultsDir, ResultsError, RunConfig, RunKind,
};
use crate::play::runner::{run, Entrant, Event, PlayedGame, RunPlan, StopRule};
use crate::play::schedule::{Pairing, Schedule};
use crate::report::html::HtmlError;
use crate::report::html::LiveReport;
use crate::report::{Audience, Describe, Reporter};
use chuhan_engine::GameConfig;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// Default plies of generated openings.
pub const DEFAULT_OPENING_PLIES: u32 = 6;
/// Openings an SPRT generates before it starts.
pub const EAGER_SPRT_OPENINGS: usize = 200;
/// Default run seed.
pub const DEFAULT_SEED: u64 = 1;

/// Names for player specs, unique within the run (`random`, `random-2`, ...).
pub fn unique_names(specs: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in specs {
        let base = s.trim().to_string();
        let mut name = base.clone();
        let mut n = 2;
        while out.contains(&name) {
            name = format!("{base}-{n}");
            n += 1;
        }
        out.push(name);
    }
    out
}

/// Top-level keys of the configuration that differ between two configs.
pub fn config_differences(a: &RunConfig, b: &RunConfig) -> Vec<String> {
    let (Ok(toml::Value::Table(x)), Ok(toml::Value::Table(y))) =
        (toml::Value::try_from(a), toml::Value::try_from(b))
    else {
        return vec!["config".to_string()];
    };
    let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| x.get(*k) != y.get(*k))
        .cloned()
        .collect()
}

/// Where the run writes.
pub enum Destination {
    /// A new folder.
    New(PathBuf),
    /// An earlier run's folder.
    Resume(PathBuf),
}

impl Destination {
    /// The results folder.
    pub fn path(&self) -> &Path {
        match self {
            Destination::New(p) | Destination::Resume(p) => p,
        }
    }
}

/// A run ready to start: configuration, plan, destination.
pub struct PreparedRun {
    /// The configuration (as in the manifest).
    pub config: RunConfig,
    /// The plan.
    pub plan: RunPlan,
    /// Where results go.
    pub destination: Destination,
    /// Whether a resume says so when the folder was started by another engine build (see
    /// [`engine_build_note`]); off for the later rounds of one adaptive run, which resume the
    /// folder they have just written.
    pub note_engine_build: bool,
}

impl PreparedRun {
    /// A run of `plan` writing to `destination`; players that keep files (external engines'
    /// stderr logs) are told the results folder.
    pub fn new(config: RunConfig, mut plan: RunPlan, destination: Destination) -> PreparedRun {
        for e in &mut plan.entrants {
            e.spec = e.spec.for_run(&e.name, destination.path());
        }
        PreparedRun {
            config,
            plan,
            destination,
            note_engine_build: true,
        }
    }
}

impl PreparedRun {
    /// `first vs second` for each pairing.
    pub fn pairing_labels(&self) -> Vec<String> {
        let names: Vec<&str> = self.plan.entrants.iter().map(|e| e.name.as_str()).collect();
        self.plan
            .schedule
            .pairings
            .iter()
            .map(|p| format!("{} vs {}", names[p.first], names[p.second]))
            .collect()
    }
}

/// Why a run could not be set up, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// A player spec that resolves to no player.
    #[error(transparent)]
    Player(#[from] PlayerSpecError),
    /// An external engine that does not start.
    #[error(transparent)]
    Engine(#[from] UciError),
    /// The opening file or the generated openings.
    #[error(transparent)]
    Openings(#[from] OpeningError),
    /// `--concurrency 0`.
    #[error("--concurrency must be at least 1")]
    ZeroConcurrency,
    /// A new run without players.
    #[error("no players given")]
    NoPlayers,
    /// `--resume DIR` where DIR is not a folder.
    #[error("--resume {}: no such folder", .0.display())]
    NoResumeFolder(PathBuf),
    /// The results folder is held by another run, or cannot be locked.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// The results folder: manifest, games, a changed configuration.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// report.html could not be written.
    #[error(transparent)]
    Report(#[from] HtmlError),
    /// A stop request ([`crate::interrupt`]) ended the run: the complete games are kept. The
    /// request is the source (not transparent), so a caller finds it in the error's chain.
    #[error("the run was interrupted")]
    Interrupted(#[from] crate::interrupt::Interrupted),
    /// The runner stopped before the schedule ended (the games so far are kept).
    #[error(
        "the run stopped early: {0}; the games played so far are kept, continue with --resume"
    )]
    StoppedEarly(String),
}

/// Resolves the configuration into a plan: players, schedule, openings, settings.
pub fn plan_from_config(
    config: &RunConfig,
    pairings: Vec<Pairing>,
    concurrency: Option<usize>,
) -> Result<RunPlan, SetupError> {
    let seed = config.seed;
    let entrants = config
        .players
        .iter()
        .map(|p| {
            Ok(Entrant {
                name: p.name.clone(),
                spec: resolve_player_for(&p.spec, config.game)?,
            })
        })
        .collect::<Result<Vec<_>, PlayerSpecError>>()?;
    let mut entrants = entrants;
    for e in &mut entrants {
        if config.chess960 {
            // The check starts the engine, as check() would.
            e.spec = e.spec.for_chess960()?;
        } else {
            e.spec.check()?;
        }
    }
    let schedule = Schedule::new(pairings, seed, config.shard);
    let file_openings = config
        .openings
        .read_checked_in(config.game, config.chess960)?;
    // A match makes all its openings now; an SPRT makes a first batch now (to catch a too
    // small opening space before writing anything) and the rest as pairs need them.
    let count = schedule.total_pairs as usize;
    let eager = if config.command == RunKind::Sprt {
        count.min(EAGER_SPRT_OPENINGS)
    } else {
        count
    };
    let openings = book_for(
        &config.openings,
        file_openings.as_deref(),
        count,
        eager,
        seed,
        config.game,
    )?;
    if concurrency == Some(0) {
        return Err(SetupError::ZeroConcurrency);
    }
    let concurrency = concurrency.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    Ok(RunPlan {
        entrants,
        schedule,
        openings,
        settings: PlaySettings {
            kind: config.game,
            chess960: config.chess960,
            game: GameConfig {
                rules: config.rules,
                move_limit: config.move_limit,
            },
            limit: config.limit,
            adjudication: config.adjudication,
        },
        concurrency,
    })
}

/// Picks the configuration: from the command line, or from the manifest of the run being
/// resumed (which must then agree with any command line given); and locks the results folder
/// for this process before reading or writing anything in it (hold the lock for the run).
/// `from_args` carries the caller's own error type (the command line's), returned as is.
pub fn choose_config<E: From<SetupError>>(
    from_args: Option<Result<RunConfig, E>>,
    resume: Option<&Path>,
    out: Option<&Path>,
    default_name: &str,
) -> Result<(RunConfig, Destination, FolderLock), E> {
    match resume {
        Some(dir) => {
            let lock = lock_existing(dir)?;
            let manifest = ResultsDir::read_manifest(dir).map_err(SetupError::from)?;
            if let Some(args) = from_args {
                let config = args?;
                let diff = config_differences(&config, &manifest.config);
                if !diff.is_empty() {
                    return Err(SetupError::from(ResultsError::ConfigDiffers {
                        dir: dir.to_path_buf(),
                        what: diff.join(", "),
                    })
                    .into());
                }
            }
            Ok((
                manifest.config,
                Destination::Resume(dir.to_path_buf()),
                lock,
            ))
        }
        None => {
            let config = from_args.ok_or(SetupError::NoPlayers)??;
            let dir = match out {
                Some(d) => d.to_path_buf(),
                None => default_out_dir(default_name),
            };
            let lock = lock_new(&dir)?;
            Ok((config, Destination::New(dir), lock))
        }
    }
}

/// Locks the folder of a run being resumed (which must exist: nothing is created).
pub fn lock_existing(dir: &Path) -> Result<FolderLock, SetupError> {
    if !dir.is_dir() {
        return Err(SetupError::NoResumeFolder(dir.to_path_buf()));
    }
    Ok(lock_folder(dir)?)
}

/// Locks the folder of a new run (creating it) and checks it holds nothing yet. Locking first
/// means that of two runs started at once on one folder, the second is told who has it.
pub fn lock_new(dir: &Path) -> Result<FolderLock, SetupError> {
    let lock = lock_folder(dir)?;
    ResultsDir::check_new(dir)?;
    Ok(lock)
}

/// What a finished run produced.
pub struct Finished {
    /// Every recorded game (old and new) by index.
    pub records: BTreeMap<u64, PlayedGame>,
    /// The last pair the stop rule counted, if it fired.
    pub stopped_at: Option<u64>,
    /// Games played in this session.
    pub played: u64,
    /// Wall seconds of this session.
    pub seconds: f64,
    /// The results folder.
    pub dir: ResultsDir,
}

/// Opens the destination, runs the plan with the reporter, and writes every game as it ends.
pub fn execute(
    prepared: &PreparedRun,
    stop: Option<Box<dyn StopRule + '_>>,
    labels: Vec<String>,
    describe: Describe,
    audience: Audience,
) -> Result<Finished, SetupError> {
    let plan = &prepared.plan;
    let names: Vec<String> = plan.entrants.iter().map(|e| e.name.clone()).collect();
    let specs = || prepared.config.players.iter().map(|p| p.spec.as_str());
    let mut build_note = None;
    let (mut dir, done) = match &prepared.destination {
        Destination::New(path) => {
            let mut manifest = Manifest::new(prepared.config.clone());
            manifest.bench_signature = prepared.config.game.bench_signature().to_string();
            manifest.engine_files = engine_files(specs())?;
            (ResultsDir::create(path, &manifest)?, Vec::new())
        }
        Destination::Resume(path) => {
            let stored = ResultsDir::read_manifest(path)?;
            check_engine_files(&stored.engine_files, specs(), path)?;
            if prepared.note_engine_build {
                build_note = engine_build_note(
                    &stored.bench_signature,
                    prepared.config.game.bench_signature(),
                    specs(),
                    matches!(
                        prepared.config.openings,
                        crate::play::openings::OpeningSource::Generated { .. }
                    ),
                    path,
                );
            }
            let done = ResultsDir::read_games(path, &plan.schedule, &plan.openings, &names)?;
            (ResultsDir::reopen(path, &done)?, done)
        }
    };
    let job = prepared.config.command.to_string();
    let mut reporter = Reporter::new(&job, labels, describe, audience);
    if let Some(note) = &build_note {
        reporter.note(note);
    }
    if let Some(note) = plan.openings.reuse_note() {
        reporter.note(note);
    }
    // report.html is rewritten here, on the collecting thread, never on a game thread.
    let mut live = LiveReport::new(dir.path());
    let (tx, rx) = channel::<Event>();
    let mut write_error = None;
    let outcome = std::thread::scope(|scope| {
        // A stop request from outside is seen by the runner through crate::interrupt.
        let cancel = Arc::new(AtomicBool::new(false));
        let handle = scope.spawn(move || run(plan, done, stop, cancel, tx));
        loop {
            match rx.recv_timeout(Duration::from_secs(1)) {
                Ok(event) => {
                    if let Event::GameFinished {
                        record,
                        resumed: false,
                    } = &event
                    {
                        if let Err(e) = dir.append(record) {
                            write_error.get_or_insert(e);
                        }
                    }
                    if let Event::GameFinished { record, .. } = &event {
                        live.on_game(record);
                    }
                    reporter.on_event(&event);
                    live.tick();
                }
                Err(RecvTimeoutError::Timeout) => {
                    reporter.tick();
                    live.tick();
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        handle.join().expect("the runner does not panic")
    });
    if let Some(e) = write_error {
        return Err(e.into());
    }
    live.finish()?;
    let complete = outcome.records.len() == plan.schedule.games.len();
    if let (Some(reason), false, None) = (crate::interrupt::reason(), complete, outcome.stopped_at)
    {
        // Every complete game is in games.csv; the abandoned ones are played by --resume.
        return Err(crate::interrupt::Interrupted { reason }.into());
    }
    if let Some(e) = outcome.error {
        return Err(SetupError::StoppedEarly(e));
    }
    Ok(Finished {
        records: outcome.records,
        stopped_at: outcome.stopped_at,
        played: reporter.played(),
        seconds: reporter.elapsed(),
        dir,
    })
}

/// The termination table: name, count.
pub fn termination_rows(records: &BTreeMap<u64, PlayedGame>) -> Vec<Vec<String>> {
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    for r in records.values() {
        *counts.entry(r.termination.as_str()).or_default() += 1;
    }
    counts
        .into_iter()
        .map(|(k, v)| vec![k.to_string(), v.to_string()])
        .collect()
}
