//! Texel tuning of the linear evaluation (material, piece-square tables, tempo): [`data`]
//! (labelled positions and the train/validation split), the dataset, loss, gradient, K and the
//! optimizers here, and [`output`] (tuned.toml, texel.csv, summary.txt; the plot is in
//! [`crate::report::plots`]).
//!
//! Each labelled position `i` has sparse features `x_ij` (from
//! [`chuhan_engine::eval::linear_features`], Red's view) so that the evaluation is
//! `q_i = sum_j w_j x_ij`. With game results `R_i` from Red's view the loss is
//!
//! ```text
//! L(w) = (1/N) sum_i (R_i - s_i)^2,   s_i = sigmoid(K q_i),   sigmoid(x) = 1 / (1 + 10^(-x/400))
//! dL/dw_j = -(2/N) sum_i (R_i - s_i) s_i (1 - s_i) (K ln10 / 400) x_ij
//! ```
//!
//! With `lambda` below 1 ([`TexelSettings::lambda`]) the target is a blend of the game result
//! and the score recorded with the position (datagen's `eval`, Red's view) seen through the
//! same sigmoid, `T_i = lambda R_i + (1 - lambda) sigmoid(K e_i)`, and `R_i` above becomes
//! `T_i`: with `lambda = 0` the evaluation is fitted to the recorded scores (those an external
//! engine's searches reported, for `datagen --engine`), whatever K, which then only weighs
//! where the fit matters most. K is always fitted against the game results.
//!
//! `K` is fitted once on the untuned evaluation and then frozen. Parameters that are not tuned
//! stay at their base values and enter `q_i` as a fixed offset. Sums run over fixed chunks of
//! [`CHUNK`] positions added in chunk order, so results are bitwise identical for any number
//! of threads. Everything here runs on the caller's rayon pool and prints nothing.

pub mod data;
mod dataset;
mod optimizer;
pub mod output;

pub use data::{
    drop_extreme_scores, parse_data, parse_data_for, read_data, read_data_for, split, DataError,
    LabelledPosition, Split,
};
pub use dataset::{fit_k, sigmoid, Dataset, CHUNK};
pub use optimizer::{Optimizer, UnknownOptimizer};
pub use output::{
    chess_params, summary_text, tuned_config_toml, write_chess_outputs, write_csv, write_outputs,
    TexelOutputError,
};

use crate::report::Progress;
use chuhan_engine::{params, Params};
use optimizer::Stepper;

/// Settings of one tuning run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TexelSettings {
    /// Full-batch epochs.
    pub epochs: usize,
    /// Learning rate (centipawns).
    pub learning_rate: f64,
    /// Gradient-descent method.
    pub optimizer: Optimizer,
    /// A fixed K, or `None` to fit it on the untuned evaluation of the training positions.
    pub k: Option<f64>,
    /// Weight of the game result in the target (1: results only; 0: the recorded scores only).
    pub lambda: f64,
    /// Early stopping: end the run once this many epochs pass without a new lowest validation
    /// loss, and keep the weights of the lowest (`None`: run every epoch, keep the last
    /// weights). Needs held-out positions; without any it is ignored.
    pub patience: Option<usize>,
}

/// Losses after an epoch (epoch 0: before tuning).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochLosses {
    /// Epochs done.
    pub epoch: usize,
    /// Loss on the training positions.
    pub train: f64,
    /// Loss on the held-out positions (`None` without any).
    pub validation: Option<f64>,
}

/// The problem: which parameters are tuned, their base values and the prepared positions.
#[derive(Clone, Debug)]
pub struct TexelProblem {
    /// Tuned parameters (table indices; weight `c` belongs to `tuned[c]`).
    pub tuned: Vec<usize>,
    /// Values of every parameter before tuning.
    pub base: Params,
    /// Training positions.
    pub train: Dataset,
    /// Held-out positions (`None` when nothing is held out).
    pub validation: Option<Dataset>,
    /// Start weight of each tuned parameter.
    pub start: Vec<f64>,
    /// The range `[min, max]` each tuned weight is clamped to.
    pub bounds: Vec<(f64, f64)>,
}

impl TexelProblem {
    /// Prepares `positions` split by `split`.
    pub fn new(
        positions: &[LabelledPosition],
        split: &Split,
        tuned: Vec<usize>,
        base: Params,
    ) -> TexelProblem {
        let train = Dataset::new(split.train.iter().map(|&i| &positions[i]), &tuned, &base);
        let validation = (!split.validation.is_empty()).then(|| {
            Dataset::new(
                split.validation.iter().map(|&i| &positions[i]),
                &tuned,
                &base,
            )
        });
        let table = params::table();
        let start = tuned.iter().map(|&i| f64::from(base.get(i))).collect();
        let bounds = tuned
            .iter()
            .map(|&i| (f64::from(table[i].min), f64::from(table[i].max)))
            .collect();
        TexelProblem {
            tuned,
            base,
            train,
            validation,
            start,
            bounds,
        }
    }

    /// A problem over another linear evaluation (chess): `values[i]` is feature `i`'s base
    /// value, `bounds[c]` the range of tuned weight `c`. `base` (the xiangqi table) is left at
    /// its defaults and unused.
    pub fn with_values(
        positions: &[LabelledPosition],
        split: &Split,
        tuned: Vec<usize>,
        values: &[f64],
        bounds: Vec<(f64, f64)>,
    ) -> TexelProblem {
        let train =
            Dataset::with_values(split.train.iter().map(|&i| &positions[i]), &tuned, values);
        let validation = (!split.validation.is_empty()).then(|| {
            Dataset::with_values(
                split.validation.iter().map(|&i| &positions[i]),
                &tuned,
                values,
            )
        });
        let start = tuned.iter().map(|&i| values[i]).collect();
        TexelProblem {
            tuned,
            base: Params::default(),
            train,
            validation,
            start,
            bounds,
        }
    }

    /// The tuned parameters' base values, as the starting weights.
    pub fn start_weights(&self) -> Vec<f64> {
        self.start.clone()
    }

    /// The problem with its targets blended ([`Dataset::blended`]).
    fn blended(&self, lambda: f64, k: f64) -> TexelProblem {
        TexelProblem {
            tuned: self.tuned.clone(),
            base: self.base.clone(),
            train: self.train.blended(lambda, k),
            validation: self.validation.as_ref().map(|v| v.blended(lambda, k)),
            start: self.start.clone(),
            bounds: self.bounds.clone(),
        }
    }

    fn losses(&self, epoch: usize, train: f64, k: f64, weights: &[f64]) -> EpochLosses {
        EpochLosses {
            epoch,
            train,
            validation: self.validation.as_ref().map(|v| v.loss(k, weights)),
        }
    }
}

/// The result of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct TexelOutcome {
    /// The scaling constant used.
    pub k: f64,
    /// Whether K was fitted (rather than given).
    pub k_fitted: bool,
    /// Losses before tuning.
    pub initial: EpochLosses,
    /// Losses after each epoch.
    pub history: Vec<EpochLosses>,
    /// Starting weights of the tuned parameters.
    pub start: Vec<f64>,
    /// Final weights of the tuned parameters (unrounded): with early stopping, those of the
    /// epoch with the lowest validation loss.
    pub weights: Vec<f64>,
    /// With early stopping, the epoch whose weights were kept (0: the start).
    pub kept_epoch: Option<usize>,
    /// Whether early stopping ended the run before `--epochs`.
    pub stopped_early: bool,
}

/// One tuned parameter's change.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamChange {
    /// Parameter name.
    pub name: &'static str,
    /// Base value.
    pub base: i32,
    /// Tuned value, rounded.
    pub tuned: i32,
    /// Tuned value before rounding.
    pub exact: f64,
}

impl TexelOutcome {
    /// Every parameter: the base values with the tuned ones rounded in.
    pub fn params(&self, problem: &TexelProblem) -> Params {
        let mut p = problem.base.clone();
        for (&i, &w) in problem.tuned.iter().zip(&self.weights) {
            p.set_clamped(i, w.round() as i32);
        }
        p
    }

    /// Changes of the tuned parameters, largest rounded change first (ties in table order).
    pub fn changes(&self, problem: &TexelProblem) -> Vec<ParamChange> {
        let table = params::table();
        let mut v: Vec<ParamChange> = problem
            .tuned
            .iter()
            .zip(&self.weights)
            .map(|(&i, &w)| {
                let d = &table[i];
                ParamChange {
                    name: d.name.as_str(),
                    base: problem.base.get(i),
                    tuned: (w.round() as i32).clamp(d.min, d.max),
                    exact: w,
                }
            })
            .collect();
        v.sort_by_key(|c| std::cmp::Reverse((c.tuned - c.base).abs()));
        v
    }
}

/// What [`tune`] reports while it runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TexelEvent<'a> {
    /// K is settled (before the first epoch).
    K {
        /// The value.
        k: f64,
        /// Whether it was fitted (rather than given).
        fitted: bool,
    },
    /// The losses after an epoch.
    Epoch(&'a EpochLosses),
}

impl TexelEvent<'_> {
    /// The event as the [`Progress`] every job reports (epochs are the unit).
    pub fn progress(&self) -> Progress {
        match self {
            TexelEvent::K { k, fitted } => Progress::Note {
                text: format!("K = {k:.6} ({})", if *fitted { "fitted" } else { "given" }),
            },
            TexelEvent::Epoch(e) => Progress::Advanced {
                done: e.epoch as u64,
                status: match e.validation {
                    Some(v) => format!("train {:.6}  validation {v:.6}", e.train),
                    None => format!("train {:.6}", e.train),
                },
            },
        }
    }
}

/// [`tune`] reporting [`Progress`]: started (epochs as the unit), K, every epoch, finished.
pub fn tune_with_progress(
    problem: &TexelProblem,
    settings: &TexelSettings,
    on_progress: &mut dyn FnMut(&Progress),
) -> TexelOutcome {
    on_progress(&Progress::Started {
        job: "texel".into(),
        unit: "epoch".into(),
        total: settings.epochs as u64,
        done: 0,
        workers: rayon::current_num_threads(),
        line_per_unit: true,
    });
    let outcome = tune(problem, settings, |event| on_progress(&event.progress()));
    on_progress(&Progress::Finished);
    outcome
}

/// Runs the tuner: fits (or takes) K, then `settings.epochs` full-batch steps, clamping every
/// weight to its declared range, or fewer with early stopping (`settings.patience`). `on_event`
/// hears K, then the losses after every epoch. Runs on the current rayon pool; the result does
/// not depend on its size.
pub fn tune(
    problem: &TexelProblem,
    settings: &TexelSettings,
    mut on_event: impl FnMut(TexelEvent),
) -> TexelOutcome {
    let start = problem.start_weights();
    let (k, k_fitted) = match settings.k {
        Some(k) => (k, false),
        None => (fit_k(&problem.train, &start), true),
    };
    on_event(TexelEvent::K {
        k,
        fitted: k_fitted,
    });
    let blended;
    let problem = if settings.lambda < 1.0 {
        blended = problem.blended(settings.lambda, k);
        &blended
    } else {
        problem
    };
    let mut weights = start.clone();
    let mut stepper = Stepper::new(settings.optimizer, settings.learning_rate, weights.len());
    let mut initial = None;
    // `epochs` is only an upper bound with early stopping: no allocation from it alone.
    let mut history = Vec::with_capacity(settings.epochs.min(4096));
    // Early stopping: the lowest validation loss so far, its epoch and its weights.
    let early = settings.patience.filter(|_| problem.validation.is_some());
    let mut best: Option<(f64, usize, Vec<f64>)> = None;
    let mut stopped_early = false;
    for epoch in 0..=settings.epochs {
        // The gradient pass also yields the loss at the current weights: the previous epoch's.
        let (loss, grad) = problem.train.loss_and_gradient(k, &weights);
        let losses = problem.losses(epoch, loss, k, &weights);
        if epoch == 0 {
            initial = Some(losses);
        } else {
            on_event(TexelEvent::Epoch(&losses));
            history.push(losses);
        }
        if let (Some(patience), Some(v)) = (early, losses.validation) {
            match &best {
                Some((lowest, _, _)) if v >= *lowest => {}
                _ => best = Some((v, epoch, weights.clone())),
            }
            let since = epoch - best.as_ref().map_or(epoch, |b| b.1);
            if since >= patience && epoch < settings.epochs {
                stopped_early = true;
                break;
            }
        }
        // A stop request ends the loop early; the caller sees it and writes nothing.
        if epoch == settings.epochs || crate::interrupt::requested() {
            break;
        }
        stepper.step(&mut weights, &grad);
        for (w, &(min, max)) in weights.iter_mut().zip(&problem.bounds) {
            *w = w.clamp(min, max);
        }
    }
    let kept_epoch = best.map(|(_, epoch, kept)| {
        weights = kept;
        epoch
    });
    TexelOutcome {
        k,
        k_fitted,
        initial: initial.expect("epoch 0 runs"),
        history,
        start,
        weights,
        kept_epoch,
        stopped_early,
    }
}

#[cfg(test)]
pub(crate) mod fixtures;
#[cfg(test)]
mod tests;
