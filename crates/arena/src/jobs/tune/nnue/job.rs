//! The `tune nnue` job: from a [`NnuePlan`] (the data file, its split and the training
//! settings) to a results folder holding network.nnue, an engine file that plays with it,
//! nnue.csv (the losses per epoch) and summary.txt. The job never prints: it reports
//! [`NnueEvent`]s, and the caller's reporter shows them.

use super::{samples, train, NnueDataError, NnueEpoch, NnueSettings, QA, QB, SCALE};
use crate::jobs::tune::texel::{self, DataError};
use crate::jobs::tune::{choose_out_dir, OutDirError};
use crate::play::results::LockError;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;
use thiserror::Error;

/// What one `tune nnue` run is asked to do (every value checked by the caller).
#[derive(Clone, Debug, PartialEq)]
pub struct NnuePlan {
    /// Labelled positions, one `FEN;result;ply;eval` a line.
    pub data: PathBuf,
    /// Fraction of games held out for validation.
    pub validation: f64,
    /// Leave out positions whose recorded score is beyond this many centipawns either way.
    pub max_eval: Option<f64>,
    /// Weight of the game result in the target, from 0 to 1.
    pub lambda: f64,
    /// Worker threads (all cores when `None`); the result does not depend on it.
    pub threads: Option<usize>,
    /// The results folder (`None`: `results/<date>-nnue`).
    pub out: Option<PathBuf>,
    /// Write into a non-empty `out`, replacing its files.
    pub force: bool,
    /// The network and its training (`settings.seed` also seeds the split).
    pub settings: NnueSettings,
}

/// What the job reports while it runs.
#[derive(Clone, Debug, PartialEq)]
pub enum NnueEvent {
    /// The results folder is chosen and locked; nothing is kept until the end, so an
    /// interrupted run is started again.
    Started {
        /// The folder.
        dir: PathBuf,
    },
    /// Positions left out by `max_eval`.
    Dropped {
        /// How many.
        count: usize,
        /// The bound.
        max: f64,
    },
    /// The positions are read and split.
    Loaded {
        /// Training positions.
        train: usize,
        /// Held-out positions.
        validation: usize,
        /// Games they come from.
        games: usize,
        /// Seconds since the job started.
        seconds: f64,
    },
    /// The losses after an epoch (epoch 0: the initial weights).
    Epoch(NnueEpoch),
}

impl NnueEvent {
    /// The event as a progress line (none for [`NnueEvent::Started`]).
    pub fn line(&self) -> Option<String> {
        match self {
            NnueEvent::Started { .. } => None,
            NnueEvent::Dropped { count, max } => Some(format!(
                "left out {count} positions scored beyond ±{max} (--max-eval)"
            )),
            NnueEvent::Loaded {
                train,
                validation,
                games,
                seconds,
            } => Some(format!(
                "loaded {} positions from {games} games: {train} train, {validation} validation \
                 ({seconds:.1} s)",
                train + validation
            )),
            NnueEvent::Epoch(e) => Some(format!(
                "epoch {}: train {:.6} validation {:.6}",
                e.epoch, e.train, e.validation
            )),
        }
    }
}

/// What a finished run wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct NnueRun {
    /// The results folder.
    pub dir: PathBuf,
    /// summary.txt's text.
    pub summary: String,
    /// Seconds the job took.
    pub seconds: f64,
}

/// Why a `tune nnue` run failed.
#[derive(Debug, Error)]
pub enum NnueJobError {
    /// The results folder cannot be used.
    #[error(transparent)]
    OutDir(#[from] OutDirError),
    /// The results folder cannot be locked.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// The worker threads cannot be started.
    #[error(transparent)]
    Threads(#[from] crate::ThreadPoolError),
    /// The data file cannot be read.
    #[error("cannot read {file}")]
    Read {
        /// The file.
        file: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A data line is malformed.
    #[error(transparent)]
    Data(#[from] DataError),
    /// A data position does not parse.
    #[error(transparent)]
    Samples(#[from] NnueDataError),
    /// Nothing left to train on after `max_eval`.
    #[error("{0}: no positions to train on")]
    NoPositions(String),
    /// The split holds every game out.
    #[error("{0}: every game is held out; give more games or a smaller --validation")]
    AllHeldOut(String),
    /// A stop request ([`crate::interrupt`]) ended the run; nothing was written.
    #[error("the run was interrupted")]
    Interrupted(#[from] crate::interrupt::Interrupted),
    /// An output file cannot be written.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Runs the plan: reads and splits the positions, trains, and writes the folder. Stopped early
/// ([`crate::interrupt`]), it writes nothing: the weights are not the run's result.
pub fn run(
    plan: &NnuePlan,
    on_event: &mut (dyn FnMut(&NnueEvent) + Send),
) -> Result<NnueRun, NnueJobError> {
    let out = choose_out_dir(plan.out.as_deref(), plan.force, "nnue")?;
    // Held until the outputs are written: one writer per results folder.
    let _lock = crate::play::results::lock_folder(&out)?;
    if !plan.force {
        // Checked again under the lock: another run may have written there since.
        choose_out_dir(Some(&out), false, "nnue")?;
    }
    on_event(&NnueEvent::Started { dir: out.clone() });
    let pool = crate::thread_pool(plan.threads)?;
    let started = Instant::now();
    let source = plan.data.display().to_string();
    let s = &plan.settings;
    let text = std::fs::read_to_string(&plan.data).map_err(|source_error| NnueJobError::Read {
        file: source.clone(),
        source: source_error,
    })?;
    let mut positions = pool.install(|| texel::parse_data(&text, &source))?;
    if let Some(max) = plan.max_eval {
        let count = texel::drop_extreme_scores(&mut positions, max);
        on_event(&NnueEvent::Dropped { count, max });
    }
    if positions.is_empty() {
        return Err(NnueJobError::NoPositions(source));
    }
    let split = texel::split(&positions, plan.validation, s.seed);
    let games = positions
        .iter()
        .map(|p| p.game)
        .collect::<BTreeSet<u32>>()
        .len();
    let pick = |idx: &[usize]| {
        idx.iter()
            .map(|&i| positions[i].clone())
            .collect::<Vec<_>>()
    };
    let (train_set, validation_set) = pool.install(|| -> Result<_, NnueDataError> {
        let train_set = samples(&text, &source, &pick(&split.train), s.k, plan.lambda)?;
        let validation_set = samples(&text, &source, &pick(&split.validation), s.k, plan.lambda)?;
        Ok((train_set, validation_set))
    })?;
    drop(positions);
    if train_set.is_empty() {
        return Err(NnueJobError::AllHeldOut(source));
    }
    crate::interrupt::check()?;
    on_event(&NnueEvent::Loaded {
        train: train_set.len(),
        validation: validation_set.len(),
        games,
        seconds: started.elapsed().as_secs_f64(),
    });
    let outcome = pool.install(|| {
        train(
            &train_set,
            &validation_set,
            s,
            &mut |e| on_event(&NnueEvent::Epoch(*e)),
            &|| crate::interrupt::check().is_err(),
        )
    });
    // Stopped early: the weights are not the run's result, so nothing is written.
    crate::interrupt::check()?;
    let (commit, dirty) = crate::play::results::git_state();
    let last = outcome.history.last().copied();
    let kept = outcome.history[outcome.kept];
    let summary = [
        format!(
            "chuhan {} (git {commit}, dirty {dirty})",
            env!("CARGO_PKG_VERSION")
        ),
        format!("data: {source}"),
        format!(
            "positions: {} from {games} games ({} train, {} validation; seed {}, validation \
             fraction {})",
            train_set.len() + validation_set.len(),
            train_set.len(),
            validation_set.len(),
            s.seed,
            plan.validation
        ),
        format!(
            "network: 1260 -> {} x2 -> 1, SCReLU, QA {QA} QB {QB} SCALE {SCALE}{}",
            s.hidden,
            if s.residual {
                ", residual (added to the handcrafted evaluation)"
            } else {
                ""
            }
        ),
        format!(
            "settings: adam lr {}, batch {}, {} epochs at most (patience {}), K {}, lambda {}{}",
            s.learning_rate,
            s.batch,
            s.epochs,
            s.patience
                .map_or_else(|| "none".to_string(), |p| p.to_string()),
            s.k,
            plan.lambda,
            plan.max_eval
                .map_or_else(String::new, |m| format!(", max-eval {m}"))
        ),
        format!(
            "epochs run: {}; kept epoch {}",
            last.map_or(0, |e| e.epoch),
            outcome.kept
        ),
        format!(
            "loss of the kept network (float): train {:.6} validation {:.6}",
            kept.train, kept.validation
        ),
        format!(
            "loss of the kept network (quantised, as the engine evaluates): train {:.6} \
             validation {:.6}",
            outcome.quantised.0, outcome.quantised.1
        ),
        format!(
            "loss of the handcrafted evaluation (engine defaults): train {:.6} validation {:.6}",
            outcome.handcrafted.0, outcome.handcrafted.1
        ),
    ]
    .join("\n")
        + "\n";
    write(&out, "network.nnue", &outcome.network.to_bytes())?;
    let engine = format!(
        "# Written by chuhan tune nnue: the default engine with the network of this folder.\n\
         name = \"nnue-{}\"\nnetwork = \"network.nnue\"\n",
        s.hidden
    );
    write(&out, "engine.toml", engine.as_bytes())?;
    let mut csv = String::from("epoch,train_loss,validation_loss\n");
    for e in &outcome.history {
        csv.push_str(&format!("{},{},{}\n", e.epoch, e.train, e.validation));
    }
    write(&out, "nnue.csv", csv.as_bytes())?;
    write(&out, "summary.txt", summary.as_bytes())?;
    Ok(NnueRun {
        dir: out,
        summary,
        seconds: started.elapsed().as_secs_f64(),
    })
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), NnueJobError> {
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(|source| NnueJobError::Write { path, source })
}
