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
pub mod output;

pub use data::{
    drop_extreme_scores, parse_data, parse_data_for, read_data, read_data_for, split, DataError,
    LabelledPosition, Split,
};
pub use output::{
    chess_params, summary_text, tuned_config_toml, write_chess_outputs, write_csv, write_outputs,
    TexelOutputError,
};

use crate::report::Progress;
use chuhan_engine::{params, Params};
use rayon::prelude::*;
use std::fmt;

/// Positions per chunk of the parallel sums. Fixed so that results never depend on threads.
pub const CHUNK: usize = 4096;

/// `ln 10 / 400`: d/dx of the sigmoid's exponent.
const SCALE: f64 = std::f64::consts::LN_10 / 400.0;

/// The win probability `1 / (1 + 10^(-x/400))` of an evaluation `x` (already multiplied by K).
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x * SCALE).exp())
}

/// Positions prepared for the tuner: results, the fixed part of each evaluation (parameters
/// not tuned, at their base values) and the tuned features as a sparse matrix (rows =
/// positions, columns = tuned parameters in selection order).
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    results: Vec<f64>,
    evals: Vec<f64>,
    fixed: Vec<f64>,
    starts: Vec<usize>,
    columns: Vec<u32>,
    values: Vec<f64>,
}

impl Dataset {
    /// Builds the matrix for `tuned` (table indices; column `c` is `tuned[c]`), with every
    /// other linear parameter fixed at its value in `base`.
    pub fn new<'a>(
        positions: impl IntoIterator<Item = &'a LabelledPosition>,
        tuned: &[usize],
        base: &Params,
    ) -> Dataset {
        let values: Vec<f64> = (0..params::table().len())
            .map(|i| f64::from(base.get(i)))
            .collect();
        Dataset::with_values(positions, tuned, &values)
    }

    /// [`Dataset::new`] for any linear evaluation: `values[i]` is the base value of feature
    /// index `i` (the chess table's, for chess data).
    pub fn with_values<'a>(
        positions: impl IntoIterator<Item = &'a LabelledPosition>,
        tuned: &[usize],
        values: &[f64],
    ) -> Dataset {
        let mut column_of = vec![None; values.len()];
        for (c, &i) in tuned.iter().enumerate() {
            column_of[i] = Some(c as u32);
        }
        let mut d = Dataset {
            results: Vec::new(),
            evals: Vec::new(),
            fixed: Vec::new(),
            starts: vec![0],
            columns: Vec::new(),
            values: Vec::new(),
        };
        for p in positions {
            let mut fixed = 0.0;
            for &(i, x) in &p.features {
                match column_of[i] {
                    Some(c) => {
                        d.columns.push(c);
                        d.values.push(x);
                    }
                    None => fixed += values[i] * x,
                }
            }
            d.results.push(p.result);
            d.evals.push(p.eval);
            d.fixed.push(fixed);
            d.starts.push(d.columns.len());
        }
        d
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Result of position `i` from Red's view (the fitting target: a blend with the recorded
    /// score after [`Dataset::blended`]).
    pub fn result(&self, i: usize) -> f64 {
        self.results[i]
    }

    /// The same positions with targets `lambda R_i + (1 - lambda) sigmoid(k e_i)`: the game
    /// result blended with the recorded score `e_i` (Red's view). `lambda = 1` is a copy.
    pub fn blended(&self, lambda: f64, k: f64) -> Dataset {
        let mut d = self.clone();
        if lambda < 1.0 {
            for (r, &e) in d.results.iter_mut().zip(&self.evals) {
                *r = lambda * *r + (1.0 - lambda) * sigmoid(k * e);
            }
        }
        d
    }

    /// Evaluation of position `i` from Red's view with the tuned parameters at `weights`.
    #[inline]
    pub fn evaluation(&self, i: usize, weights: &[f64]) -> f64 {
        let (a, b) = (self.starts[i], self.starts[i + 1]);
        self.columns[a..b]
            .iter()
            .zip(&self.values[a..b])
            .fold(self.fixed[i], |q, (&c, &x)| q + weights[c as usize] * x)
    }

    fn chunks(&self) -> impl IndexedParallelIterator<Item = std::ops::Range<usize>> + '_ {
        let n = self.len();
        (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(move |c| c * CHUNK..((c + 1) * CHUNK).min(n))
    }

    /// The mean squared error `(1/N) sum (R_i - sigmoid(K q_i))^2` (NaN when empty).
    pub fn loss(&self, k: f64, weights: &[f64]) -> f64 {
        let partial: Vec<f64> = self
            .chunks()
            .map(|range| {
                range
                    .map(|i| {
                        let e = self.results[i] - sigmoid(k * self.evaluation(i, weights));
                        e * e
                    })
                    .sum()
            })
            .collect();
        partial.iter().sum::<f64>() / self.len() as f64
    }

    /// The loss and its exact gradient with respect to the tuned weights.
    pub fn loss_and_gradient(&self, k: f64, weights: &[f64]) -> (f64, Vec<f64>) {
        let partial: Vec<(f64, Vec<f64>)> = self
            .chunks()
            .map(|range| {
                let mut loss = 0.0;
                let mut grad = vec![0.0; weights.len()];
                for i in range {
                    let s = sigmoid(k * self.evaluation(i, weights));
                    let e = self.results[i] - s;
                    loss += e * e;
                    let c = e * s * (1.0 - s);
                    let (a, b) = (self.starts[i], self.starts[i + 1]);
                    for (&col, &x) in self.columns[a..b].iter().zip(&self.values[a..b]) {
                        grad[col as usize] += c * x;
                    }
                }
                (loss, grad)
            })
            .collect();
        let mut loss = 0.0;
        let mut grad = vec![0.0; weights.len()];
        for (l, g) in &partial {
            loss += l;
            for (a, b) in grad.iter_mut().zip(g) {
                *a += b;
            }
        }
        let n = self.len() as f64;
        let factor = -2.0 / n * k * SCALE;
        grad.iter_mut().for_each(|g| *g *= factor);
        (loss / n, grad)
    }
}

/// Fits the scaling constant K minimising the loss at `weights`: a scan over a log grid from
/// about 0.001 to 32, then a golden-section search between the best grid point's neighbours.
pub fn fit_k(data: &Dataset, weights: &[f64]) -> f64 {
    let grid: Vec<f64> = (-20..=10).map(|g| 2f64.powf(f64::from(g) / 2.0)).collect();
    let losses: Vec<f64> = grid.iter().map(|&k| data.loss(k, weights)).collect();
    let best = (0..grid.len()).fold(0, |b, i| if losses[i] < losses[b] { i } else { b });
    let lo = if best == 0 { 0.0 } else { grid[best - 1] };
    let hi = grid[(best + 1).min(grid.len() - 1)];
    golden_section(lo, hi, |k| data.loss(k, weights))
}

/// Minimum of a unimodal `f` on `[a, b]`.
fn golden_section(mut a: f64, mut b: f64, f: impl Fn(f64) -> f64) -> f64 {
    let inv_phi = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - inv_phi * (b - a);
    let mut d = a + inv_phi * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..200 {
        if b - a <= 1e-9 * b.abs().max(1e-3) {
            break;
        }
        if fc < fd {
            (b, d, fd) = (d, c, fc);
            c = b - inv_phi * (b - a);
            fc = f(c);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + inv_phi * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// Gradient-descent method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Optimizer {
    /// Adam (beta1 0.9, beta2 0.999, eps 1e-8); a step moves a weight by about `lr`.
    Adam,
    /// AdaGrad (eps 1e-8); steps shrink as squared gradients accumulate.
    AdaGrad,
}

/// An optimizer name that is neither `adam` nor `adagrad`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown optimizer '{0}' (expected adam or adagrad)")]
pub struct UnknownOptimizer(pub String);

impl Optimizer {
    /// Every optimizer, by its name.
    pub const ALL: [Optimizer; 2] = [Optimizer::Adam, Optimizer::AdaGrad];
}

impl std::str::FromStr for Optimizer {
    type Err = UnknownOptimizer;

    fn from_str(s: &str) -> Result<Optimizer, UnknownOptimizer> {
        Optimizer::ALL
            .into_iter()
            .find(|o| o.to_string() == s)
            .ok_or_else(|| UnknownOptimizer(s.to_string()))
    }
}

impl Optimizer {
    /// The default learning rate (centipawns).
    pub fn default_learning_rate(self) -> f64 {
        match self {
            Optimizer::Adam => 1.0,
            Optimizer::AdaGrad => 5.0,
        }
    }
}

impl fmt::Display for Optimizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Optimizer::Adam => "adam",
            Optimizer::AdaGrad => "adagrad",
        })
    }
}

/// Optimizer state for a weight vector.
struct Stepper {
    optimizer: Optimizer,
    lr: f64,
    t: i32,
    m: Vec<f64>,
    v: Vec<f64>,
}

impl Stepper {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPS: f64 = 1e-8;

    fn new(optimizer: Optimizer, lr: f64, n: usize) -> Stepper {
        Stepper {
            optimizer,
            lr,
            t: 0,
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    fn step(&mut self, weights: &mut [f64], grad: &[f64]) {
        self.t += 1;
        for j in 0..weights.len() {
            let g = grad[j];
            weights[j] -= match self.optimizer {
                Optimizer::Adam => {
                    self.m[j] = Self::BETA1 * self.m[j] + (1.0 - Self::BETA1) * g;
                    self.v[j] = Self::BETA2 * self.v[j] + (1.0 - Self::BETA2) * g * g;
                    let m = self.m[j] / (1.0 - Self::BETA1.powi(self.t));
                    let v = self.v[j] / (1.0 - Self::BETA2.powi(self.t));
                    self.lr * m / (v.sqrt() + Self::EPS)
                }
                Optimizer::AdaGrad => {
                    self.v[j] += g * g;
                    self.lr * g / (self.v[j].sqrt() + Self::EPS)
                }
            };
        }
    }
}

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

/// Test helpers shared by the submodules' tests.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;
    use crate::jobs::tune::select_params;
    use chuhan_engine::eval::linear_features;
    use chuhan_engine::{Params, Position};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Positions of seeded random games (after the first 6 plies), labelled by `label` from
    /// their features; each game is a `#game`.
    pub fn random_games(
        games: usize,
        plies: usize,
        seed: u64,
        mut label: impl FnMut(&[(usize, f64)]) -> f64,
    ) -> Vec<LabelledPosition> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut out = Vec::new();
        for game in 0..games {
            let mut pos = Position::startpos();
            for ply in 1..=plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves.as_slice()[rng.gen_range(0..moves.len())];
                pos.make(mv);
                if ply > 6 {
                    let features = linear_features(&pos);
                    out.push(LabelledPosition {
                        line: out.len() + 1,
                        game: game as u32,
                        result: label(&features),
                        ply: ply as u32,
                        eval: 0.0,
                        features,
                    });
                }
            }
        }
        out
    }

    pub fn evaluation(params: &Params, features: &[(usize, f64)]) -> f64 {
        features
            .iter()
            .map(|&(i, x)| f64::from(params.get(i)) * x)
            .sum()
    }

    /// The defaults with the material values moved about 20% (up and down).
    pub fn perturbed_material() -> Params {
        let mut p = Params::default();
        for (name, factor) in [
            ("material.soldier", 0.8),
            ("material.advisor", 1.2),
            ("material.elephant", 0.8),
            ("material.horse", 1.2),
            ("material.chariot", 0.8),
            ("material.cannon", 0.8),
        ] {
            let v = f64::from(p.value(name).unwrap()) * factor;
            p.set(name, v.round() as i64).unwrap();
        }
        p
    }

    pub fn all_linear() -> Vec<usize> {
        select_params(&["material", "pst", "eg", "eval"], true).unwrap()
    }

    pub fn distance(a: &[f64], b: &[f64]) -> f64 {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y) * (x - y))
            .sum::<f64>()
            .sqrt()
    }

    pub fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::*;
    use super::*;
    use crate::jobs::tune::select_params;
    use chuhan_engine::eval::linear_features;
    use chuhan_engine::{Color, Position};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn dataset_evaluation_matches_the_engine() {
        let positions = random_games(5, 80, 3, |_| 0.5);
        let base = perturbed_material();
        let tuned = select_params(&["material.horse", "pst.chariot"], true).unwrap();
        let data = Dataset::new(&positions, &tuned, &base);
        let weights: Vec<f64> = tuned.iter().map(|&i| f64::from(base.get(i))).collect();
        let tables = chuhan_engine::eval::EvalTables::new(&base);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        for _ in 0..40 {
            // Rebuild a game position to compare with the engine's own evaluation.
            let mut pos = Position::startpos();
            for _ in 0..rng.gen_range(1..60) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves.as_slice()[rng.gen_range(0..moves.len())]);
            }
            let one = [LabelledPosition {
                line: 1,
                game: 0,
                result: 1.0,
                ply: 0,
                eval: 0.0,
                features: linear_features(&pos),
            }];
            let d = Dataset::new(&one, &tuned, &base);
            let red = d.evaluation(0, &weights);
            let stm = if pos.side_to_move() == Color::Red {
                red
            } else {
                -red
            };
            // The engine truncates the endgame offsets' taper toward zero (whole centipawns).
            let engine = f64::from(tables.evaluate(&pos));
            assert!((stm - engine).abs() < 1.0, "{stm} vs {engine}");
        }
        for (i, p) in positions.iter().enumerate() {
            // Equal but for the order of the floating-point sums (the phase makes features
            // fractional).
            let (got, want) = (data.evaluation(i, &weights), evaluation(&base, &p.features));
            assert!((got - want).abs() < 1e-9, "{got} vs {want}");
        }
    }

    #[test]
    fn gradient_matches_central_differences() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let truth = perturbed_material();
        let positions = random_games(40, 100, 5, |f| {
            // Noisy game-like labels.
            let s = sigmoid(0.9 * evaluation(&truth, f));
            let u: f64 = rng.gen();
            if u < s * 0.9 {
                1.0
            } else if u < s * 0.9 + 0.1 {
                0.5
            } else {
                0.0
            }
        });
        let tuned = all_linear();
        let data = Dataset::new(&positions, &tuned, &Params::default());
        let mut w: Vec<f64> = tuned
            .iter()
            .map(|&i| f64::from(Params::default().get(i)))
            .collect();
        for (j, x) in w.iter_mut().enumerate() {
            *x += (j % 7) as f64 - 3.0;
        }
        let k = 1.1;
        let (loss, grad) = data.loss_and_gradient(k, &w);
        assert_eq!(loss, data.loss(k, &w));
        let biggest = grad.iter().fold(0f64, |m, g| m.max(g.abs()));
        let mut checked = 0;
        for j in 0..w.len() {
            if grad[j].abs() < 1e-2 * biggest {
                continue;
            }
            let h = 1e-2;
            let mut up = w.clone();
            up[j] += h;
            let mut down = w.clone();
            down[j] -= h;
            let numeric = (data.loss(k, &up) - data.loss(k, &down)) / (2.0 * h);
            let rel = (numeric - grad[j]).abs() / grad[j].abs();
            assert!(
                rel < 1e-5,
                "{}: analytic {} numeric {numeric} (relative error {rel})",
                params::table()[tuned[j]].name,
                grad[j]
            );
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} parameters checked");
    }

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
        let positions = random_games(110, 110, 6, |_| f64::from(rng.gen_range(0..3u8)) / 2.0);
        assert!(positions.len() > 2 * CHUNK, "several chunks");
        let s = split(&positions, 0.1, 4);
        let problem = TexelProblem::new(&positions, &s, all_linear(), Params::default());
        let settings = TexelSettings {
            epochs: 8,
            learning_rate: 1.0,
            optimizer: Optimizer::Adam,
            k: None,
            lambda: 1.0,
            patience: None,
        };
        let runs: Vec<TexelOutcome> = [1, 2, 3]
            .iter()
            .map(|&t| pool(t).install(|| tune(&problem, &settings, |_| {})))
            .collect();
        for r in &runs[1..] {
            assert_eq!(r.k.to_bits(), runs[0].k.to_bits());
            let bits = |o: &TexelOutcome| -> Vec<u64> {
                let mut v = o.weights.clone();
                for e in &o.history {
                    v.push(e.train);
                    v.push(e.validation.unwrap());
                }
                v.iter().map(|x| x.to_bits()).collect()
            };
            assert_eq!(bits(r), bits(&runs[0]));
        }
    }

    #[test]
    fn tuning_recovers_perturbed_material_values() {
        let truth = perturbed_material();
        let k_true = 1.0;
        let positions = random_games(60, 120, 7, |f| sigmoid(k_true * evaluation(&truth, f)));
        let s = split(&positions, 0.1, 1);
        let tuned = select_params(&["material"], true).unwrap();
        let problem = TexelProblem::new(&positions, &s, tuned.clone(), Params::default());
        let target: Vec<f64> = tuned.iter().map(|&i| f64::from(truth.get(i))).collect();
        for (optimizer, lr) in [(Optimizer::Adam, 4.0), (Optimizer::AdaGrad, 40.0)] {
            let settings = TexelSettings {
                epochs: 300,
                learning_rate: lr,
                optimizer,
                k: Some(k_true),
                lambda: 1.0,
                patience: None,
            };
            let o = tune(&problem, &settings, |_| {});
            let last = o.history.last().unwrap();
            assert!(
                last.train < 0.05 * o.initial.train,
                "{optimizer}: train loss {} -> {}",
                o.initial.train,
                last.train
            );
            assert!(last.validation.unwrap() < 0.05 * o.initial.validation.unwrap());
            let before = distance(&o.start, &target);
            let after = distance(&o.weights, &target);
            assert!(
                after < 0.01 * before,
                "{optimizer}: distance to the truth {before} -> {after}; weights {:?}, truth {target:?}",
                o.weights
            );
            let changes = o.changes(&problem);
            assert_eq!(changes.len(), 6);
            assert!(changes
                .windows(2)
                .all(|w| (w[0].tuned - w[0].base).abs() >= (w[1].tuned - w[1].base).abs()));
        }
    }

    /// With `lambda = 0` the target is the recorded score: material values are recovered from
    /// scores a "stronger engine" (the perturbed truth) recorded, while the game results are
    /// coin flips that carry nothing; with `lambda = 1` the same data does not recover them.
    #[test]
    fn lambda_zero_fits_the_recorded_scores() {
        let truth = perturbed_material();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(15);
        let mut positions = random_games(60, 120, 7, |_| f64::from(rng.gen_range(0..3u8)) / 2.0);
        for p in &mut positions {
            p.eval = evaluation(&truth, &p.features);
        }
        let s = split(&positions, 0.1, 1);
        let tuned = select_params(&["material"], true).unwrap();
        let problem = TexelProblem::new(&positions, &s, tuned.clone(), Params::default());
        let target: Vec<f64> = tuned.iter().map(|&i| f64::from(truth.get(i))).collect();
        let run = |lambda: f64| {
            let settings = TexelSettings {
                epochs: 300,
                learning_rate: 4.0,
                optimizer: Optimizer::Adam,
                k: Some(1.0),
                lambda,
                patience: None,
            };
            tune(&problem, &settings, |_| {})
        };
        let scores = run(0.0);
        let before = distance(&scores.start, &target);
        let after = distance(&scores.weights, &target);
        assert!(
            after < 0.01 * before,
            "distance to the truth {before} -> {after}; weights {:?}, truth {target:?}",
            scores.weights
        );
        let last = scores.history.last().unwrap();
        assert!(last.validation.unwrap() < 0.05 * scores.initial.validation.unwrap());
        let results = run(1.0);
        assert!(
            distance(&results.weights, &target) > 0.2 * before,
            "coin-flip results should not recover the truth: {:?}",
            results.weights
        );
        // A blend sits between: its target for a position is the average of the two.
        let half = problem.train.blended(0.5, 1.0);
        for i in 0..problem.train.len() {
            let e = positions[s.train[i]].eval;
            let want = 0.5 * problem.train.result(i) + 0.5 * sigmoid(e);
            assert!((half.result(i) - want).abs() < 1e-12);
        }
    }

    /// 400 seeded random games whose results are drawn from perturbed material values (K 0.8),
    /// a fifth held out, every linear parameter tuned: noisy enough that Adam fits the noise.
    fn noisy_results() -> (Vec<LabelledPosition>, TexelProblem) {
        let truth = perturbed_material();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
        let positions = random_games(400, 60, 8, |f| {
            f64::from(u8::from(
                rng.gen::<f64>() < sigmoid(0.8 * evaluation(&truth, f)),
            ))
        });
        let s = split(&positions, 0.2, 2);
        let problem = TexelProblem::new(&positions, &s, all_linear(), Params::default());
        (positions, problem)
    }

    #[test]
    fn tuning_everything_lowers_train_and_validation_loss() {
        let (_, problem) = noisy_results();
        // Few epochs: with 200 parameters and 20,000 noisy labels, Adam starts to fit the noise
        // in rare piece-square entries after a few dozen.
        let settings = TexelSettings {
            epochs: 25,
            learning_rate: 1.0,
            optimizer: Optimizer::Adam,
            k: None,
            lambda: 1.0,
            patience: None,
        };
        let o = tune(&problem, &settings, |_| {});
        assert!(o.k_fitted && o.k > 0.1 && o.k < 5.0, "K = {}", o.k);
        let last = o.history.last().unwrap();
        assert!(last.train < o.initial.train);
        assert!(last.validation.unwrap() < o.initial.validation.unwrap());
        // Every weight stays inside its declared range.
        for (&i, &w) in problem.tuned.iter().zip(&o.weights) {
            let d = &params::table()[i];
            assert!(f64::from(d.min) <= w && w <= f64::from(d.max), "{}", d.name);
        }
    }

    /// Early stopping on noisy labels: the run ends `patience` epochs after the lowest
    /// validation loss, keeps that epoch's weights, and follows the same path as a run without
    /// it until then.
    #[test]
    fn early_stopping_keeps_the_lowest_validation_loss() {
        let (positions, problem) = noisy_results();
        let epochs = 400;
        let patience = 10;
        let settings = TexelSettings {
            epochs,
            learning_rate: 1.0,
            optimizer: Optimizer::Adam,
            k: Some(0.8),
            lambda: 1.0,
            patience: Some(patience),
        };
        let o = tune(&problem, &settings, |_| {});
        let kept = o.kept_epoch.expect("early stopping keeps an epoch");
        assert!(o.stopped_early);
        // The noise is fitted long before 400 epochs: the run stopped early.
        assert!(o.history.len() < epochs, "ran {} epochs", o.history.len());
        assert_eq!(
            o.history.len(),
            kept + patience,
            "stopped {patience} after the best"
        );
        let lowest = std::iter::once(&o.initial)
            .chain(&o.history)
            .min_by(|a, b| a.validation.unwrap().total_cmp(&b.validation.unwrap()))
            .unwrap();
        assert_eq!(lowest.epoch, kept);
        assert!(kept > 0, "tuning first lowers the validation loss");
        let held_out = problem.validation.as_ref().unwrap();
        assert_eq!(held_out.loss(0.8, &o.weights), lowest.validation.unwrap());
        assert!(
            o.history.last().unwrap().validation.unwrap() > lowest.validation.unwrap(),
            "the last epochs fit the noise"
        );
        // Without early stopping, the same epochs take the same path.
        let full = tune(
            &problem,
            &TexelSettings {
                epochs: o.history.len(),
                patience: None,
                ..settings
            },
            |_| {},
        );
        assert_eq!(full.history, o.history);
        assert_eq!((full.kept_epoch, full.stopped_early), (None, false));
        assert_ne!(full.weights, o.weights);
        // Without held-out positions there is nothing to stop on: every epoch runs.
        let none = TexelProblem::new(
            &positions,
            &split(&positions, 0.0, 1),
            all_linear(),
            Params::default(),
        );
        let short = TexelSettings {
            epochs: 5,
            ..settings
        };
        let o = tune(&none, &short, |_| {});
        assert_eq!(
            (o.history.len(), o.kept_epoch, o.stopped_early),
            (5, None, false)
        );
    }

    #[test]
    fn validation_is_held_out_whole_games_and_seeded() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(14);
        let positions = random_games(50, 40, 9, |_| f64::from(rng.gen_range(0..3u8)) / 2.0);
        let a = split(&positions, 0.1, 42);
        assert_eq!(a, split(&positions, 0.1, 42), "same seed, same split");
        assert_ne!(a, split(&positions, 0.1, 43), "another seed, another split");
        let mut all: Vec<usize> = a.train.iter().chain(&a.validation).copied().collect();
        all.sort_unstable();
        assert_eq!(all, (0..positions.len()).collect::<Vec<_>>(), "a partition");
        let held: std::collections::BTreeSet<u32> =
            a.validation.iter().map(|&i| positions[i].game).collect();
        assert_eq!(held.len(), 5, "10% of 50 games");
        assert!(a.train.iter().all(|&i| !held.contains(&positions[i].game)));
        assert!(split(&positions, 0.0, 42).validation.is_empty());

        // The reported validation loss is the loss on exactly the held-out positions.
        let problem = TexelProblem::new(&positions, &a, all_linear(), Params::default());
        let settings = TexelSettings {
            epochs: 3,
            learning_rate: 1.0,
            optimizer: Optimizer::Adam,
            k: Some(1.0),
            lambda: 1.0,
            patience: None,
        };
        let o = tune(&problem, &settings, |_| {});
        let tuned = all_linear();
        let held_out = Dataset::new(
            a.validation.iter().map(|&i| &positions[i]),
            &tuned,
            &Params::default(),
        );
        let trained = Dataset::new(
            a.train.iter().map(|&i| &positions[i]),
            &tuned,
            &Params::default(),
        );
        assert_eq!(o.initial.validation, Some(held_out.loss(1.0, &o.start)));
        assert_eq!(o.initial.train, trained.loss(1.0, &o.start));
        assert_eq!(
            o.history.last().unwrap().validation,
            Some(held_out.loss(1.0, &o.weights))
        );
        assert_ne!(o.initial.validation, Some(o.initial.train));
        let none = TexelProblem::new(
            &positions,
            &split(&positions, 0.0, 1),
            tuned,
            Params::default(),
        );
        assert!(tune(&none, &settings, |_| {}).initial.validation.is_none());
    }

    #[test]
    fn fitted_k_matches_the_k_that_made_the_labels() {
        let p = Params::default();
        let tuned = all_linear();
        let start: Vec<f64> = tuned.iter().map(|&i| f64::from(p.get(i))).collect();
        // Exact labels: the loss is zero at the true K.
        let positions = random_games(20, 100, 10, |f| sigmoid(1.3 * evaluation(&p, f)));
        let data = Dataset::new(&positions, &tuned, &p);
        let k = fit_k(&data, &start);
        assert!((k - 1.3).abs() < 1e-4, "K = {k}");
        // Game-like labels drawn from the same probabilities: close to the true K.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(15);
        for k_true in [0.4, 1.6] {
            let positions = random_games(300, 60, 11, |f| {
                f64::from(u8::from(
                    rng.gen::<f64>() < sigmoid(k_true * evaluation(&p, f)),
                ))
            });
            let data = Dataset::new(&positions, &tuned, &p);
            let k = fit_k(&data, &start);
            assert!((k / k_true - 1.0).abs() < 0.1, "K = {k}, true {k_true}");
        }
    }
}
