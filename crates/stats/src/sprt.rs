//! The generalised sequential probability ratio test, as computed by fishtest's `LLRcalc`:
//! logistic and normalised models, on trinomial or pentanomial counts.

use crate::scale::{mean_var, regularise, score_from_elo, NELO_PER_NT};
use crate::wdl::{Pentanomial, Trinomial, PENTA_SCORES, TRI_SCORES};
use serde::{Deserialize, Serialize};

/// Which scale the SPRT bounds `elo0`, `elo1` are expressed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SprtModel {
    /// Normalised Elo (fishtest's default, `LLR_normalized`).
    Normalized,
    /// Logistic Elo (`LLR_logistic`).
    Logistic,
}

/// What an SPRT says after a given LLR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SprtDecision {
    /// LLR reached the lower bound: H0 (`elo = elo0`) accepted.
    AcceptH0,
    /// LLR reached the upper bound: H1 (`elo = elo1`) accepted.
    AcceptH1,
    /// Keep playing.
    Continue,
}

impl SprtDecision {
    /// The short name written to files and printed: `H0`, `H1` or `continue`.
    pub fn name(self) -> &'static str {
        match self {
            SprtDecision::AcceptH0 => "H0",
            SprtDecision::AcceptH1 => "H1",
            SprtDecision::Continue => "continue",
        }
    }
}

/// Why SPRT parameters were refused.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, thiserror::Error)]
pub enum SprtError {
    /// `elo0` must be below `elo1`, both finite.
    #[error("SPRT needs finite elo0 < elo1, got [{elo0}, {elo1}]")]
    BadBounds {
        /// The given `elo0`.
        elo0: f64,
        /// The given `elo1`.
        elo1: f64,
    },
    /// `alpha` and `beta` must lie in (0, 1) with `alpha + beta < 1`.
    #[error("SPRT needs 0 < alpha, beta and alpha + beta < 1, got alpha={alpha} beta={beta}")]
    BadErrorRates {
        /// The given `alpha`.
        alpha: f64,
        /// The given `beta`.
        beta: f64,
    },
}

/// A generalised sequential probability ratio test of `elo = elo0` against `elo = elo1`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// Elo (or nElo) of H0.
    pub elo0: f64,
    /// Elo (or nElo) of H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// The scale of `elo0` and `elo1`.
    pub model: SprtModel,
}

impl Sprt {
    /// A test after checking the parameters.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: SprtModel,
    ) -> Result<Self, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::BadBounds { elo0, elo1 });
        }
        if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
            return Err(SprtError::BadErrorRates { alpha, beta });
        }
        Ok(Self {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// Lower LLR bound `ln(beta / (1 - alpha))`: H0 is accepted at or below it.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper LLR bound `ln((1 - beta) / alpha)`: H1 is accepted at or above it.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// Log-likelihood ratio of game counts; `None` when a hypothesis has no distribution on the
    /// scores (e.g. a bound beyond any reachable score).
    pub fn llr_trinomial(&self, t: &Trinomial) -> Option<f64> {
        let (n, p) = regularise(&t.counts());
        self.llr(&TRI_SCORES, &p, n, 1.0)
    }

    /// Log-likelihood ratio of game-pair counts; `None` as for [`Sprt::llr_trinomial`].
    pub fn llr_pentanomial(&self, pt: &Pentanomial) -> Option<f64> {
        let (n, p) = regularise(&pt.counts);
        self.llr(&PENTA_SCORES, &p, n, std::f64::consts::SQRT_2)
    }

    /// The decision at log-likelihood ratio `llr`.
    pub fn verdict(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper_bound() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// `t_scale` converts per-game normalised t into the t of one counting unit (sqrt 2 for pairs).
    fn llr(&self, a: &[f64], p: &[f64], n: f64, t_scale: f64) -> Option<f64> {
        let (q0, q1) = match self.model {
            SprtModel::Logistic => (
                mle_expected(a, p, score_from_elo(self.elo0))?,
                mle_expected(a, p, score_from_elo(self.elo1))?,
            ),
            SprtModel::Normalized => (
                mle_t_value(a, p, self.elo0 / NELO_PER_NT * t_scale)?,
                mle_t_value(a, p, self.elo1 / NELO_PER_NT * t_scale)?,
            ),
        };
        let sum: f64 = p
            .iter()
            .zip(q0.iter().zip(&q1))
            .map(|(pi, (q0i, q1i))| pi * (q1i / q0i).ln())
            .sum();
        let llr = n * sum;
        llr.is_finite().then_some(llr)
    }
}

/// Solves the secular equation `sum_i p_i v_i / (1 + x v_i) = 0` for `x` in
/// `(-1 / max v, -1 / min v)`; `None` unless `min v < 0 < max v`.
///
/// The left side is strictly decreasing on that interval, going from `+inf` to `-inf` when the
/// extreme `p_i` are positive, so safeguarded Newton steps inside a shrinking bracket converge to
/// machine precision.
pub fn solve_secular(p: &[f64], v: &[f64]) -> Option<f64> {
    let vmin = v.iter().copied().fold(f64::INFINITY, f64::min);
    let vmax = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(vmin < 0.0 && vmax > 0.0) || p.len() != v.len() {
        return None;
    }
    let eval = |x: f64| -> (f64, f64) {
        let mut f = 0.0;
        let mut df = 0.0;
        for (pi, vi) in p.iter().zip(v) {
            let d = 1.0 + x * vi;
            f += pi * vi / d;
            df -= pi * vi * vi / (d * d);
        }
        (f, df)
    };
    let (mut lo, mut hi) = (-1.0 / vmax, -1.0 / vmin);
    let mut x = 0.0;
    for _ in 0..300 {
        let (f, df) = eval(x);
        if f == 0.0 {
            return Some(x);
        }
        if f > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let newton = x - f / df;
        let next = if newton.is_finite() && newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        let step = (next - x).abs();
        x = next;
        if step <= 1e-15 * x.abs().max(1e-3) || hi - lo <= 1e-15 * x.abs().max(1e-3) {
            break;
        }
    }
    x.is_finite().then_some(x)
}

/// Maximum-likelihood distribution on scores `a` with expected score `s`, given observed `p`.
pub(crate) fn mle_expected(a: &[f64], p: &[f64], s: f64) -> Option<Vec<f64>> {
    let v: Vec<f64> = a.iter().map(|ai| ai - s).collect();
    let x = solve_secular(p, &v)?;
    Some(
        p.iter()
            .zip(&v)
            .map(|(pi, vi)| pi / (1.0 + x * vi))
            .collect(),
    )
}

/// Maximum-likelihood distribution on scores `a` with normalised t-value `(mu - 1/2) / sigma`
/// equal to `t`, given observed `p` (fishtest's `MLE_tvalue`, iterated to 1e-12).
pub(crate) fn mle_t_value(a: &[f64], p: &[f64], t: f64) -> Option<Vec<f64>> {
    let k = a.len();
    mle_t_value_from(a, p, t, vec![1.0 / k as f64; k])
}

/// [`mle_t_value`] iterated from the distribution `q` instead of the uniform one (a nearby
/// solution: the iteration's first step needs deviations of both signs, which a uniform start
/// lacks for a large `|t|`).
pub(crate) fn mle_t_value_from(a: &[f64], p: &[f64], t: f64, mut q: Vec<f64>) -> Option<Vec<f64>> {
    for _ in 0..100 {
        let (mu, var) = mean_var(a, &q);
        let sigma = var.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            return None;
        }
        let v: Vec<f64> = a
            .iter()
            .map(|ai| ai - 0.5 - t * sigma * (1.0 + ((ai - mu) / sigma).powi(2)) / 2.0)
            .collect();
        let x = solve_secular(p, &v)?;
        let next: Vec<f64> = p
            .iter()
            .zip(&v)
            .map(|(pi, vi)| pi / (1.0 + x * vi))
            .collect();
        let change = next
            .iter()
            .zip(&q)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        q = next;
        if change < 1e-12 {
            break;
        }
    }
    Some(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tol: f64) {
        assert!(
            (actual - expected).abs() <= tol,
            "expected {expected} ± {tol}, got {actual}"
        );
    }

    fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap()
    }

    #[test]
    fn bounds_and_verdicts() {
        let s = sprt(0.0, 2.0, SprtModel::Normalized);
        close(s.lower_bound(), -2.944, 5e-4);
        close(s.upper_bound(), 2.944, 5e-4);
        assert_eq!(s.verdict(2.95), SprtDecision::AcceptH1);
        assert_eq!(s.verdict(s.upper_bound()), SprtDecision::AcceptH1);
        assert_eq!(s.verdict(-2.95), SprtDecision::AcceptH0);
        assert_eq!(s.verdict(0.0), SprtDecision::Continue);
    }

    #[test]
    fn sprt_rejects_bad_parameters() {
        assert!(Sprt::new(2.0, 0.0, 0.05, 0.05, SprtModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 2.0, 0.0, 0.05, SprtModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 2.0, 0.6, 0.5, SprtModel::Logistic).is_err());
        assert!(Sprt::new(f64::NAN, 2.0, 0.05, 0.05, SprtModel::Logistic).is_err());
    }

    #[test]
    fn llr_is_antisymmetric_under_swapping_sides_and_bounds() {
        let t = Trinomial::new(300, 500, 340);
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            let a = sprt(0.0, 5.0, model).llr_trinomial(&t).unwrap();
            let b = sprt(-5.0, 0.0, model).llr_trinomial(&t.reversed()).unwrap();
            close(a, -b, 1e-9);
        }
    }

    #[test]
    fn llr_empty_and_degenerate_inputs_do_not_panic() {
        let s = sprt(0.0, 2.0, SprtModel::Normalized);
        let llr = s.llr_trinomial(&Trinomial::default()).unwrap();
        assert!(llr.abs() < 1e-2);
        assert!(s.llr_trinomial(&Trinomial::new(0, 0, 50)).is_some());
        assert!(s
            .llr_pentanomial(&Pentanomial::from_counts([0, 0, 0, 0, 9]))
            .is_some());
        // A hypothesis of +5000 nElo has no distribution on the scores.
        let huge = Sprt::new(0.0, 5000.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        assert_eq!(huge.llr_trinomial(&Trinomial::new(10, 10, 10)), None);
    }

    #[test]
    fn secular_root_is_tight() {
        let p = [0.2, 0.3, 0.5];
        let v = [-0.6, -0.1, 0.4];
        let x = solve_secular(&p, &v).unwrap();
        let f: f64 = p.iter().zip(&v).map(|(p, v)| p * v / (1.0 + x * v)).sum();
        assert!(f.abs() < 1e-14, "residual {f}");
        assert!(x > -1.0 / 0.4 && x < 1.0 / 0.6);
        assert_eq!(solve_secular(&[0.5, 0.5], &[0.1, 0.2]), None);
    }

    #[test]
    fn mle_distributions_meet_their_constraints() {
        let (_, p) = regularise(&[34u64, 54, 63, 64, 75]);
        let s = score_from_elo(10.0);
        let q = mle_expected(&PENTA_SCORES, &p, s).unwrap();
        let (mu, _) = mean_var(&PENTA_SCORES, &q);
        close(q.iter().sum::<f64>(), 1.0, 1e-12);
        close(mu, s, 1e-12);
        let t = 0.05;
        let q = mle_t_value(&PENTA_SCORES, &p, t).unwrap();
        let (mu, var) = mean_var(&PENTA_SCORES, &q);
        close((mu - 0.5) / var.sqrt(), t, 1e-10);
    }
}
