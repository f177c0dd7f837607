//! Profile-likelihood intervals for a rating difference, from the joint fit.
//!
//! For a contrast `delta = r[j] - r[i]`, the profile log-likelihood `l_p(delta)` is the largest
//! log-likelihood of the games with `r[j] - r[i]` held at `delta` (all other ratings free). The
//! interval holds every `delta` whose scaled likelihood-ratio statistic
//! `W(delta) = 2 (l_max - l_p(delta)) / phi` is at most the chi-square(1) quantile `z^2`.
//!
//! The model treats a draw as half a win, so it overstates the variance of a game's score when
//! there are draws and ignores the correlation of the two games of a pair; `phi` (the dispersion,
//! as in a quasi-binomial model) corrects both: it is the ratio of the observed variance of the
//! game-pair scores around their fitted expectation to the variance the model assigns them.
//!
//! Unlike a Wald interval (estimate ± z SE), the profile interval follows the curvature of the
//! logistic model, so it is lopsided where a pairing is lopsided; and it needs no resampling,
//! which makes it cheap enough to check by simulating thousands of ladders.

use super::fit::{gradient, log_likelihood, neg_hessian, unit_moments, PairTotal};
use super::RatingError;
use crate::bound::Bound;
use crate::linalg::{invert_spd, solve_spd};

/// A schedule whose maximum-likelihood ratings are finite (a strongly connected group), in local
/// player indices `0..n`, player 0 anchored.
#[derive(Debug, Clone)]
pub(crate) struct Problem {
    pub(crate) n: usize,
    pub(crate) totals: Vec<PairTotal>,
    /// The maximum-likelihood ratings (player 0 at 0).
    pub(crate) ratings: Vec<f64>,
    /// The log-likelihood at the maximum.
    pub(crate) log_likelihood: f64,
    /// Inverse observed information over all players (row and column 0 are zero).
    pub(crate) covariance: Vec<Vec<f64>>,
}

/// Newton iterations allowed for one (constrained) fit.
const MAX_ITERATIONS: usize = 200;

/// Convergence threshold on the largest Newton step, in Elo.
const TOLERANCE: f64 = 1e-9;

impl Problem {
    /// Fits `totals` (which must admit finite ratings) on `n` local players.
    pub(crate) fn new(n: usize, totals: Vec<PairTotal>) -> Result<Self, RatingError> {
        let start = vec![0.0; n];
        let (ratings, log_likelihood) = constrained_fit(n, &totals, None, &start)?;
        let free: Vec<usize> = (1..n).collect();
        let neg_h = crate::linalg::reduced(&neg_hessian(n, &totals, &ratings), &free);
        let inv = invert_spd(&neg_h).ok_or(RatingError::NotConverged {
            iterations: MAX_ITERATIONS,
        })?;
        let covariance = crate::linalg::expand(&inv, &free, n);
        Ok(Self {
            n,
            totals,
            ratings,
            log_likelihood,
            covariance,
        })
    }

    /// `r[j] - r[i]` at the maximum.
    pub(crate) fn estimate(&self, i: usize, j: usize) -> f64 {
        self.ratings[j] - self.ratings[i]
    }

    /// Model-based (inverse-information) standard error of `r[j] - r[i]`.
    fn std_error(&self, i: usize, j: usize) -> f64 {
        let c = &self.covariance;
        (c[i][i] + c[j][j] - 2.0 * c[i][j]).max(0.0).sqrt()
    }

    /// The largest log-likelihood with `r[j] - r[i] = delta`, starting Newton from `start`;
    /// returns the constrained ratings too.
    fn profile(&self, i: usize, j: usize, delta: f64, start: &[f64]) -> Option<(Vec<f64>, f64)> {
        constrained_fit(self.n, &self.totals, Some((i, j, delta)), start).ok()
    }

    /// The two-sided profile-likelihood interval of `r[j] - r[i]` at the critical value `z`
    /// (1.96 for 95%), with dispersion `phi`. A side whose statistic never reaches `z^2` within
    /// a huge range is left open.
    pub(crate) fn interval(&self, i: usize, j: usize, z: f64, phi: f64) -> Bound {
        if i == j {
            return Bound::two_sided(0.0, 0.0);
        }
        let est = self.estimate(i, j);
        let se = (self.std_error(i, j) * phi.sqrt()).max(1e-6);
        let side = |sign: f64| self.side(i, j, est, sign, se, z, phi);
        Bound {
            low: side(-1.0),
            high: side(1.0),
        }
    }

    /// One end of the interval: the `delta` beyond the estimate (in direction `sign`) where the
    /// signed root statistic reaches `z`.
    #[allow(clippy::too_many_arguments)]
    fn side(
        &self,
        i: usize,
        j: usize,
        est: f64,
        sign: f64,
        se: f64,
        z: f64,
        phi: f64,
    ) -> Option<f64> {
        // Signed root of the scaled likelihood-ratio statistic at distance `d` from the estimate:
        // increasing in `d`, about `d / se` near 0.
        let mut warm = self.ratings.clone();
        let root = |d: f64, warm: &mut Vec<f64>| -> Option<f64> {
            let (r, ll) = self.profile(i, j, est + sign * d, warm)?;
            *warm = r;
            Some((2.0 * (self.log_likelihood - ll).max(0.0) / phi).sqrt())
        };
        // Bracket: start at the Wald distance, expand until the statistic passes `z`.
        let (mut lo, mut f_lo) = (0.0, -z);
        let mut hi = z * se;
        let mut f_hi = root(hi, &mut warm)? - z;
        let mut expansions = 0;
        while f_hi < 0.0 {
            lo = hi;
            f_lo = f_hi;
            hi *= 2.0;
            expansions += 1;
            // Beyond 20,000 Elo the data say nothing more: leave this side open.
            if expansions > 40 || hi > 20_000.0 {
                return None;
            }
            f_hi = root(hi, &mut warm)? - z;
        }
        // Illinois regula falsi on the nearly linear root statistic.
        let mut side_kept = 0i8;
        for _ in 0..100 {
            let d = hi - (f_hi * (hi - lo)) / (f_hi - f_lo);
            let d = if d > lo && d < hi { d } else { 0.5 * (lo + hi) };
            let f = root(d, &mut warm)? - z;
            if f.abs() < 1e-10 || hi - lo < 1e-6 {
                return Some(est + sign * d);
            }
            if f < 0.0 {
                lo = d;
                f_lo = f;
                if side_kept == -1 {
                    f_hi *= 0.5;
                }
                side_kept = -1;
            } else {
                hi = d;
                f_hi = f;
                if side_kept == 1 {
                    f_lo *= 0.5;
                }
                side_kept = 1;
            }
        }
        Some(est + sign * 0.5 * (lo + hi))
    }
}

/// Maximum-likelihood ratings of `totals` with player 0 at 0 and, when `constraint` is
/// `Some((i, j, delta))`, `r[j] - r[i] = delta`. Newton's method with step halving from `start`
/// (shifted to meet the constraints). Returns the ratings and the log-likelihood.
pub(crate) fn constrained_fit(
    n: usize,
    totals: &[PairTotal],
    constraint: Option<(usize, usize, f64)>,
    start: &[f64],
) -> Result<(Vec<f64>, f64), RatingError> {
    // Each player's rating is `x[var] + offset` or, with no variable, `offset` alone.
    let mut var: Vec<Option<usize>> = vec![None; n];
    let mut offset = vec![0.0; n];
    let tied = constraint.map(|(i, j, delta)| {
        // Tie the non-anchored player of the two to the other one.
        if j != 0 {
            (j, i, delta)
        } else {
            (i, j, -delta)
        }
    });
    let mut count = 0;
    for (k, v) in var.iter_mut().enumerate() {
        if k != 0 && tied.map_or(true, |(t, _, _)| t != k) {
            *v = Some(count);
            count += 1;
        }
    }
    if let Some((t, base, off)) = tied {
        var[t] = var[base];
        offset[t] = off;
    }
    let ratings_of = |x: &[f64]| -> Vec<f64> {
        (0..n)
            .map(|k| var[k].map_or(0.0, |v| x[v]) + offset[k])
            .collect()
    };
    let mut x = vec![0.0; count];
    for k in 0..n {
        if let Some(v) = var[k] {
            if tied.map_or(true, |(t, _, _)| t != k) {
                x[v] = start[k];
            }
        }
    }
    let mut r = ratings_of(&x);
    let mut ll = log_likelihood(totals, &r);
    if count == 0 {
        return Ok((r, ll));
    }
    for iteration in 1..=MAX_ITERATIONS {
        let g = gradient(n, totals, &r);
        let h = neg_hessian(n, totals, &r);
        let mut gx = vec![0.0; count];
        let mut hx = vec![vec![0.0; count]; count];
        for k in 0..n {
            let Some(vk) = var[k] else { continue };
            gx[vk] += g[k];
            for l in 0..n {
                if let Some(vl) = var[l] {
                    hx[vk][vl] += h[k][l];
                }
            }
        }
        let step = solve_spd(&hx, &gx).ok_or(RatingError::NotConverged {
            iterations: iteration,
        })?;
        let mut t = 1.0;
        let mut accepted = None;
        for _ in 0..60 {
            let trial_x: Vec<f64> = x.iter().zip(&step).map(|(a, d)| a + t * d).collect();
            let trial = ratings_of(&trial_x);
            let trial_ll = log_likelihood(totals, &trial);
            if trial_ll >= ll - 1e-12 * ll.abs().max(1.0) {
                accepted = Some((trial_x, trial, trial_ll));
                break;
            }
            t *= 0.5;
        }
        let Some((trial_x, trial, trial_ll)) = accepted else {
            return Err(RatingError::NotConverged {
                iterations: iteration,
            });
        };
        x = trial_x;
        r = trial;
        ll = trial_ll;
        if step.iter().fold(0.0f64, |m, d| m.max(d.abs())) <= TOLERANCE {
            return Ok((r, ll));
        }
    }
    Err(RatingError::NotConverged {
        iterations: MAX_ITERATIONS,
    })
}

/// Sums for the dispersion of game-pair scores: `(sum of squared residuals, sum of model
/// variances, units)` over `units` given as `(a, b, games, score of a, games with a first)`
/// with ratings `r` and first-move advantage `advantage` (`None`: colours not modelled).
pub(crate) fn dispersion_sums(
    units: &[(usize, usize, f64, f64, f64)],
    r: &[f64],
    advantage: Option<f64>,
) -> (f64, f64, usize) {
    let mut resid = 0.0;
    let mut var = 0.0;
    for &(a, b, games, score, first) in units {
        let (mean, v) = unit_moments(r[a] - r[b], games, first, advantage);
        resid += (score - mean).powi(2);
        var += v;
    }
    (resid, var, units.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::elo_from_score;

    fn total(a: usize, b: usize, games: f64, score_a: f64) -> PairTotal {
        PairTotal::even(a, b, games, score_a)
    }

    #[test]
    fn two_player_profile_is_the_binomial_likelihood_ratio_interval() {
        // 60 of 100 points: the interval solves 2 (l(0.6) - l(p)) = z^2 for the binomial.
        let problem = Problem::new(2, vec![total(1, 0, 100.0, 60.0)]).unwrap();
        assert!((problem.ratings[1] - elo_from_score(0.6).unwrap()).abs() < 1e-6);
        let b = problem.interval(0, 1, 1.959964, 1.0);
        let ll = |p: f64| 60.0 * p.ln() + 40.0 * (1.0 - p).ln();
        for end in [b.low.unwrap(), b.high.unwrap()] {
            let p = crate::elo::score_from_elo(end);
            let w = 2.0 * (ll(0.6) - ll(p));
            assert!((w - 1.959964f64.powi(2)).abs() < 1e-6, "{end}: {w}");
        }
        assert!(b.low.unwrap() < 70.437 && b.high.unwrap() > 70.437);
        // Lopsided: the side towards the boundary is longer.
        assert!(b.high.unwrap() - 70.437 > 70.437 - b.low.unwrap());
        // A dispersion below 1 narrows the interval by about sqrt(phi).
        let narrow = problem.interval(1, 0, 1.959964, 0.5);
        let ratio = narrow.width().unwrap() / b.width().unwrap();
        assert!((ratio - 0.5f64.sqrt()).abs() < 0.02, "{ratio}");
        // The reversed contrast is the negated interval.
        let rev = problem.interval(1, 0, 1.959964, 1.0);
        assert!((rev.low.unwrap() + b.high.unwrap()).abs() < 1e-6);
    }

    #[test]
    fn constrained_fit_meets_its_constraint() {
        let totals = vec![
            total(0, 1, 20.0, 8.0),
            total(1, 2, 20.0, 9.0),
            total(0, 2, 20.0, 6.0),
        ];
        let problem = Problem::new(3, totals.clone()).unwrap();
        for (i, j) in [(0, 1), (1, 2), (2, 0), (2, 1)] {
            let (r, ll) = problem.profile(i, j, 55.0, &problem.ratings).unwrap();
            assert!((r[j] - r[i] - 55.0).abs() < 1e-9, "{i} {j} {r:?}");
            assert_eq!(r[0], 0.0);
            assert!(ll <= problem.log_likelihood + 1e-9);
        }
        // At the estimate the profile equals the maximum.
        let est = problem.estimate(1, 2);
        let (_, ll) = problem.profile(1, 2, est, &[0.0; 3]).unwrap();
        assert!((ll - problem.log_likelihood).abs() < 1e-9);
    }
}
