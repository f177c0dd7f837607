//! The dataset of tuned features (a sparse matrix over positions), its loss and gradient with
//! chunked parallel sums, and the fit of the scaling constant K.

use super::LabelledPosition;
use chuhan_engine::{params, Params};
use rayon::prelude::*;

/// Positions per chunk of the parallel sums. Fixed so that results never depend on threads.
pub const CHUNK: usize = 4096;

/// `ln 10 / 400`: d/dx of the sigmoid's exponent.
pub(super) const SCALE: f64 = std::f64::consts::LN_10 / 400.0;

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
