//! `chuhan tune nnue`: trains the network of [`chuhan_engine::eval::nnue`] (1,260 inputs per
//! perspective → `H` hidden units, squared clipped ReLU, one output) on labelled positions
//! (`chuhan datagen` files, Texel's reader and split by games), towards the target Texel
//! uses: `lambda R + (1 − lambda) sigmoid(K e)`. Minibatch Adam; gradients summed per chunk of
//! fixed size in a fixed order, so the result does not depend on the thread count. Every
//! epoch reports the training and validation loss; the weights of the epoch with the lowest
//! validation loss are kept. The handcrafted evaluation's loss on the same positions is the
//! bar a network has to clear (docs/nnue.md, stage 2). [`run`] is the whole job: data file in,
//! results folder out.

mod job;

pub use job::{run, NnueEvent, NnueJobError, NnuePlan, NnueRun};

use super::texel::{sigmoid, LabelledPosition};
use chuhan_engine::eval::nnue::{self, Network, INPUTS};
use chuhan_engine::eval::EvalTables;
use chuhan_engine::{Color, Params, Position};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use thiserror::Error;

/// Positions per chunk of the parallel gradient sums (fixed: results never depend on threads).
pub const CHUNK: usize = 256;

/// Quantisation of the written network (docs/nnue.md): input weights × 255, output × 64.
pub const QA: i32 = 255;
/// See [`QA`].
pub const QB: i32 = 64;
/// Centipawns per unit of network output.
pub const SCALE: i32 = 400;

/// Weights are kept within this bound, so that the quantised accumulators fit in i16.
const CLIP: f32 = 1.98;

/// One training position: the active features from the side to move's view and the other
/// side's, and the target win probability of the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct NnueSample {
    us: Vec<u16>,
    them: Vec<u16>,
    target: f32,
    /// The handcrafted evaluation, side to move's view (centipawns).
    handcrafted: f32,
}

/// A data line the trainer cannot use.
#[derive(Debug, Error)]
pub enum NnueDataError {
    /// The FEN does not parse (the Texel reader checks lines, so this means a changed file).
    #[error("{file}: line {line}: {message}")]
    Fen {
        /// The data file.
        file: String,
        /// 1-based line.
        line: usize,
        /// Why.
        message: String,
    },
}

/// The samples of `positions` (read from `text` by Texel's reader), with targets
/// `lambda R + (1 − lambda) sigmoid(K e)` from the side to move's view.
pub fn samples(
    text: &str,
    source: &str,
    positions: &[LabelledPosition],
    k: f64,
    lambda: f64,
) -> Result<Vec<NnueSample>, NnueDataError> {
    let lines: Vec<&str> = text.lines().collect();
    let tables = EvalTables::new(&Params::default());
    positions
        .par_iter()
        .map(|p| {
            let line = lines.get(p.line - 1).copied().unwrap_or_default();
            let fen = line.split(';').next().unwrap_or_default();
            let pos = Position::from_fen(fen).map_err(|e| NnueDataError::Fen {
                file: source.to_string(),
                line: p.line,
                message: e.to_string(),
            })?;
            let stm = pos.side_to_move();
            let red_target = lambda * p.result + (1.0 - lambda) * sigmoid(k * p.eval);
            let target = if stm == Color::Red {
                red_target
            } else {
                1.0 - red_target
            };
            let feats = |c: Color| {
                nnue::features(&pos, c)
                    .into_iter()
                    .map(|f| f as u16)
                    .collect::<Vec<u16>>()
            };
            Ok(NnueSample {
                us: feats(stm),
                them: feats(stm.flip()),
                target: target as f32,
                handcrafted: tables.evaluate(&pos) as f32,
            })
        })
        .collect()
}

/// Training settings.
#[derive(Clone, Debug, PartialEq)]
pub struct NnueSettings {
    /// Hidden units per perspective.
    pub hidden: usize,
    /// Epochs at most.
    pub epochs: usize,
    /// Stop after this many epochs without a new lowest validation loss.
    pub patience: Option<usize>,
    /// Adam's step size.
    pub learning_rate: f32,
    /// Positions per Adam step.
    pub batch: usize,
    /// Seed of the initial weights and of the shuffles.
    pub seed: u64,
    /// The sigmoid's scale: `sigmoid(K × centipawns)` is the predicted win probability.
    pub k: f64,
    /// Train the network as a correction added to the handcrafted evaluation.
    pub residual: bool,
}

/// Losses after one epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NnueEpoch {
    /// 1-based epoch (0: the initial weights).
    pub epoch: usize,
    /// Mean squared error on the training positions.
    pub train: f64,
    /// The same on the held-out positions (NaN without any).
    pub validation: f64,
}

/// What a run found.
#[derive(Clone, Debug)]
pub struct NnueOutcome {
    /// The quantised network of the kept epoch.
    pub network: Network,
    /// Losses per epoch, from epoch 0.
    pub history: Vec<NnueEpoch>,
    /// The kept epoch (lowest validation loss, or the last without validation).
    pub kept: usize,
    /// The handcrafted evaluation's loss: training and held-out positions.
    pub handcrafted: (f64, f64),
    /// The quantised network's loss (as the engine evaluates): training and held-out.
    pub quantised: (f64, f64),
    /// Whether the run was stopped before its end (`stop` returned true).
    pub stopped: bool,
}

/// Float weights: `w1` row per input, then `b1`, `w2` (side to move first), `b2`.
#[derive(Clone, Debug, PartialEq)]
struct Weights {
    hidden: usize,
    w: Vec<f32>,
}

impl Weights {
    fn new(hidden: usize, rng: &mut Xoshiro256PlusPlus) -> Weights {
        let mut w = Vec::with_capacity(INPUTS * hidden + 3 * hidden + 1);
        // Input rows start at 0: a feature the data never shows adds nothing, instead of
        // noise, wherever the search meets it.
        w.resize(INPUTS * hidden, 0.0);
        w.extend((0..hidden).map(|_| 0.3 + (rng.gen::<f32>() - 0.5) * 0.1));
        w.extend((0..2 * hidden).map(|_| (rng.gen::<f32>() - 0.5) * 0.2));
        w.push(0.0);
        Weights { hidden, w }
    }

    fn b1_at(&self) -> usize {
        INPUTS * self.hidden
    }

    /// The output (units of [`SCALE`] centipawns) for `s`; with `grad`, adds `d` (the loss's
    /// derivative by the output) times the output's gradient.
    fn forward(&self, s: &NnueSample, acc: &mut [f32]) -> f32 {
        let h = self.hidden;
        let b1 = &self.w[self.b1_at()..self.b1_at() + h];
        let (us, them) = acc.split_at_mut(h);
        us.copy_from_slice(b1);
        them.copy_from_slice(b1);
        for (a, feats) in [(us, &s.us), (them, &s.them)] {
            for &f in feats {
                let row = &self.w[f as usize * h..(f as usize + 1) * h];
                a.iter_mut().zip(row).for_each(|(x, w)| *x += w);
            }
        }
        let w2 = &self.w[self.b1_at() + h..self.b1_at() + 3 * h];
        let mut out = self.w[self.b1_at() + 3 * h];
        for (a, w) in acc.iter().zip(w2) {
            let c = a.clamp(0.0, 1.0);
            out += c * c * w;
        }
        out
    }

    fn backward(&self, s: &NnueSample, acc: &[f32], d: f32, grad: &mut [f32]) {
        let h = self.hidden;
        let (b1, w2) = (self.b1_at(), self.b1_at() + h);
        grad[w2 + 2 * h] += d;
        let mut ga = vec![0f32; 2 * h];
        for j in 0..2 * h {
            let a = acc[j];
            let c = a.clamp(0.0, 1.0);
            grad[w2 + j] += d * c * c;
            if a > 0.0 && a < 1.0 {
                ga[j] = d * self.w[w2 + j] * 2.0 * a;
            }
        }
        for j in 0..h {
            grad[b1 + j] += ga[j] + ga[h + j];
        }
        for (half, feats) in [(&ga[..h], &s.us), (&ga[h..], &s.them)] {
            for &f in feats {
                let row = &mut grad[f as usize * h..(f as usize + 1) * h];
                row.iter_mut().zip(half).for_each(|(g, x)| *g += x);
            }
        }
    }

    fn network(&self) -> Network {
        let h = self.hidden;
        let b1 = self.b1_at();
        Network::from_floats(
            h,
            QA,
            QB,
            SCALE,
            &self.w[..b1],
            &self.w[b1..b1 + h],
            &self.w[b1 + h..b1 + 3 * h],
            self.w[b1 + 3 * h],
        )
    }
}

/// `ln 10 / 400`, the slope of [`sigmoid`]'s exponent per centipawn.
const LN10_400: f64 = std::f64::consts::LN_10 / 400.0;

fn mean_loss(samples: &[NnueSample], eval_cp: impl Fn(&NnueSample) -> f64 + Sync, k: f64) -> f64 {
    let sums: Vec<f64> = samples
        .par_chunks(CHUNK)
        .map(|c| {
            c.iter()
                .map(|s| (sigmoid(k * eval_cp(s)) - f64::from(s.target)).powi(2))
                .sum::<f64>()
        })
        .collect();
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// The handcrafted evaluation a residual network's output is added to (0 otherwise).
fn base_cp(s: &NnueSample, residual: bool) -> f64 {
    if residual {
        f64::from(s.handcrafted)
    } else {
        0.0
    }
}

fn weights_loss(w: &Weights, samples: &[NnueSample], k: f64, residual: bool) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    mean_loss(
        samples,
        |s| {
            let mut acc = vec![0f32; 2 * w.hidden];
            f64::from(w.forward(s, &mut acc)) * f64::from(SCALE) + base_cp(s, residual)
        },
        k,
    )
}

/// The quantised network's evaluation of a sample (what the engine computes).
fn quantised_cp(net: &Network, s: &NnueSample) -> f64 {
    f64::from(net.evaluate_features(&s.us, &s.them))
}

/// Trains a network on `train`, keeping the weights of the epoch with the lowest loss on
/// `validation` (the last epoch's without validation). `progress` is called after every
/// epoch; `stop` is asked between batches and ends the run early (the outcome says so).
pub fn train(
    train: &[NnueSample],
    validation: &[NnueSample],
    settings: &NnueSettings,
    progress: &mut dyn FnMut(&NnueEpoch),
    stop: &dyn Fn() -> bool,
) -> NnueOutcome {
    let k = settings.k;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(settings.seed);
    let mut weights = Weights::new(settings.hidden, &mut rng);
    let n = weights.w.len();
    let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
    let (beta1, beta2) = (0.9f32, 0.999f32);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let first = NnueEpoch {
        epoch: 0,
        train: weights_loss(&weights, train, k, settings.residual),
        validation: weights_loss(&weights, validation, k, settings.residual),
    };
    progress(&first);
    let mut history = vec![first];
    let (mut best, mut kept, mut best_loss) = (weights.clone(), 0, f64::INFINITY);
    let mut step = 0i32;
    let mut stopped = false;
    let clip_end = INPUTS * settings.hidden + 3 * settings.hidden;
    'epochs: for epoch in 1..=settings.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.gen_range(0..=i));
        }
        for batch in order.chunks(settings.batch.max(1)) {
            if stop() {
                stopped = true;
                break 'epochs;
            }
            let w = &weights;
            let grads: Vec<Vec<f32>> = batch
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut g = vec![0f32; n];
                    let mut acc = vec![0f32; 2 * w.hidden];
                    for &i in chunk {
                        let s = &train[i];
                        let out = f64::from(w.forward(s, &mut acc));
                        let p =
                            sigmoid(k * (out * f64::from(SCALE) + base_cp(s, settings.residual)));
                        // d/d out of (p − t)²: 2 (p − t) p (1 − p) ln10/400 K SCALE.
                        let d = 2.0
                            * (p - f64::from(s.target))
                            * p
                            * (1.0 - p)
                            * LN10_400
                            * k
                            * f64::from(SCALE);
                        w.backward(s, &acc, d as f32, &mut g);
                    }
                    g
                })
                .collect();
            let mut g = vec![0f32; n];
            for part in &grads {
                g.iter_mut().zip(part).for_each(|(a, b)| *a += b);
            }
            step += 1;
            let inv = 1.0 / batch.len() as f32;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            for i in 0..n {
                let gi = g[i] * inv;
                m[i] = beta1 * m[i] + (1.0 - beta1) * gi;
                v[i] = beta2 * v[i] + (1.0 - beta2) * gi * gi;
                let x = &mut weights.w[i];
                *x -= settings.learning_rate * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
                if i < clip_end {
                    *x = x.clamp(-CLIP, CLIP);
                }
            }
        }
        let e = NnueEpoch {
            epoch,
            train: weights_loss(&weights, train, k, settings.residual),
            validation: weights_loss(&weights, validation, k, settings.residual),
        };
        progress(&e);
        history.push(e);
        let judged = if validation.is_empty() {
            e.train
        } else {
            e.validation
        };
        if judged < best_loss {
            best_loss = judged;
            best = weights.clone();
            kept = epoch;
        }
        if settings.patience.is_some_and(|p| epoch - kept >= p) {
            break;
        }
    }
    if kept == 0 {
        best = weights.clone();
    }
    let network = best.network().with_residual(settings.residual);
    let hand = |set: &[NnueSample]| {
        if set.is_empty() {
            f64::NAN
        } else {
            mean_loss(set, |s| f64::from(s.handcrafted), k)
        }
    };
    let quant = |set: &[NnueSample]| {
        if set.is_empty() {
            f64::NAN
        } else {
            mean_loss(
                set,
                |s| quantised_cp(&network, s) + base_cp(s, settings.residual),
                k,
            )
        }
    };
    NnueOutcome {
        handcrafted: (hand(train), hand(validation)),
        quantised: (quant(train), quant(validation)),
        network,
        history,
        kept,
        stopped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(fen: &str, target: f32) -> NnueSample {
        let pos = Position::from_fen(fen).unwrap();
        let stm = pos.side_to_move();
        let f = |c| {
            nnue::features(&pos, c)
                .into_iter()
                .map(|f| f as u16)
                .collect()
        };
        NnueSample {
            us: f(stm),
            them: f(stm.flip()),
            target,
            handcrafted: 0.0,
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let s = sample(
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            0.8,
        );
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let w = Weights::new(4, &mut rng);
        let mut acc = vec![0f32; 8];
        let mut grad = vec![0f32; w.w.len()];
        w.forward(&s, &mut acc);
        // d out / d w with d = 1.
        w.backward(&s, &acc, 1.0, &mut grad);
        let f0 = s.us[0] as usize * 4;
        for i in [f0, f0 + 3, w.b1_at() + 1, w.b1_at() + 4 + 5, w.w.len() - 1] {
            let eps = 1e-3;
            let (mut up, mut down) = (w.clone(), w.clone());
            up.w[i] += eps;
            down.w[i] -= eps;
            let numeric = (up.forward(&s, &mut acc.clone()) - down.forward(&s, &mut acc.clone()))
                / (2.0 * eps);
            assert!(
                (numeric - grad[i]).abs() < 1e-2 * (1.0 + numeric.abs()),
                "weight {i}: numeric {numeric}, analytic {}",
                grad[i]
            );
        }
    }

    #[test]
    fn the_quantised_network_evaluates_like_the_engine() {
        let fen = "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 b - - 0 1";
        let s = sample(fen, 0.5);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let w = Weights::new(8, &mut rng);
        let net = w.network();
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(
            quantised_cp(&net, &s),
            f64::from(net.evaluate_position(&pos))
        );
        let float = f64::from(w.forward(&s, &mut [0f32; 16])) * f64::from(SCALE);
        assert!((float - quantised_cp(&net, &s)).abs() <= 2.0, "{float}");
    }
}
