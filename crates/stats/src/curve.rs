//! Monotone curve fits for difficulty calibration: Elo as a function of a strength knob.
//!
//! Two fits, both weighted by `1 / SE^2` of each measured point:
//!
//! * [`IsotonicFit`]: weighted isotonic (non-decreasing) regression by pool-adjacent-violators,
//!   joined by straight lines between the fitted points. It interpolates in the `x` it is given,
//!   so pass `log2(nodes)` to interpolate on a log scale.
//! * [`LogFit`]: weighted least squares of `y = a + b log2(x)`.
//!
//! Both can be inverted: given a target Elo, find the knob setting. Both assume Elo increases
//! with the knob; for a knob that weakens the engine (e.g. a random-move rate) fit against `-x`.

use serde::{Deserialize, Serialize};

/// One measured point of a curve.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// Knob setting.
    pub x: f64,
    /// Measured value (e.g. Elo).
    pub y: f64,
    /// Standard error of `y`; the point's weight is `1 / se^2`.
    pub se: f64,
}

/// Why a curve could not be fitted or inverted.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, thiserror::Error)]
pub enum CurveError {
    /// Too few usable points.
    #[error("curve fit needs at least {needed} points, got {got}")]
    TooFewPoints {
        /// Points needed.
        needed: usize,
        /// Points given (distinct knob settings for the log fit).
        got: usize,
    },
    /// A point has a non-finite coordinate or a standard error that is not positive and finite.
    #[error("point {index} has a non-finite value or a non-positive standard error")]
    InvalidPoint {
        /// Index of the point in the input.
        index: usize,
    },
    /// The log fit needs `x > 0`.
    #[error("point {index} has x <= 0, which has no log2")]
    NonPositiveX {
        /// Index of the point in the input.
        index: usize,
    },
    /// The target lies outside the values the curve reaches.
    #[error("target {target} is outside the curve's reachable range [{min}, {max}]")]
    OutOfRange {
        /// The target asked for.
        target: f64,
        /// Lowest value the curve reaches.
        min: f64,
        /// Highest value the curve reaches.
        max: f64,
    },
    /// The fitted log curve does not increase (slope `b <= 0`), so it cannot be inverted.
    #[error("fitted curve does not increase (slope {slope} per doubling); cannot invert")]
    NotIncreasing {
        /// The fitted slope per doubling.
        slope: f64,
    },
}

/// Checks points and returns their weights `1 / se^2`.
fn weights(points: &[CurvePoint]) -> Result<Vec<f64>, CurveError> {
    points
        .iter()
        .enumerate()
        .map(|(index, p)| {
            let w = 1.0 / (p.se * p.se);
            if p.x.is_finite() && p.y.is_finite() && p.se > 0.0 && w.is_finite() {
                Ok(w)
            } else {
                Err(CurveError::InvalidPoint { index })
            }
        })
        .collect()
}

/// Weighted isotonic regression by pool-adjacent-violators: the non-decreasing sequence closest
/// to `values` in weighted least squares. `None` if the lengths differ or a weight is not
/// positive and finite, or a value is not finite.
pub fn isotonic_regression(values: &[f64], weights: &[f64]) -> Option<Vec<f64>> {
    if values.len() != weights.len()
        || values.iter().any(|v| !v.is_finite())
        || weights.iter().any(|w| !(w.is_finite() && *w > 0.0))
    {
        return None;
    }
    // Blocks of pooled points: (weighted mean, total weight, number of points).
    let mut blocks: Vec<(f64, f64, usize)> = Vec::with_capacity(values.len());
    for (&v, &w) in values.iter().zip(weights) {
        let mut block = (v, w, 1);
        while let Some(&(prev_mean, prev_w, prev_n)) = blocks.last() {
            if prev_mean <= block.0 {
                break;
            }
            blocks.pop();
            let total = prev_w + block.1;
            block = (
                (prev_mean * prev_w + block.0 * block.1) / total,
                total,
                prev_n + block.2,
            );
        }
        blocks.push(block);
    }
    Some(
        blocks
            .into_iter()
            .flat_map(|(mean, _, n)| std::iter::repeat(mean).take(n))
            .collect(),
    )
}

/// Weighted isotonic fit of a non-decreasing curve, linear between fitted points.
///
/// Built only by [`IsotonicFit::fit`], which guarantees at least one point, increasing `xs`
/// and non-decreasing `ys` of equal length.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IsotonicFit {
    xs: Vec<f64>,
    ys: Vec<f64>,
    weights: Vec<f64>,
}

impl IsotonicFit {
    /// Fits the points (in any order). Points with equal `x` are first merged into their
    /// weighted mean. Needs at least one point.
    pub fn fit(points: &[CurvePoint]) -> Result<Self, CurveError> {
        let w = weights(points)?;
        if points.is_empty() {
            return Err(CurveError::TooFewPoints { needed: 1, got: 0 });
        }
        let mut order: Vec<usize> = (0..points.len()).collect();
        order.sort_by(|&i, &j| points[i].x.total_cmp(&points[j].x));
        let mut xs: Vec<f64> = Vec::new();
        let mut sums: Vec<(f64, f64)> = Vec::new(); // (sum w y, sum w)
        for i in order {
            let p = points[i];
            if xs.last() == Some(&p.x) {
                if let Some(last) = sums.last_mut() {
                    last.0 += w[i] * p.y;
                    last.1 += w[i];
                }
            } else {
                xs.push(p.x);
                sums.push((w[i] * p.y, w[i]));
            }
        }
        let means: Vec<f64> = sums.iter().map(|(wy, w)| wy / w).collect();
        let weights: Vec<f64> = sums.iter().map(|s| s.1).collect();
        let ys =
            isotonic_regression(&means, &weights).ok_or(CurveError::InvalidPoint { index: 0 })?;
        Ok(Self { xs, ys, weights })
    }

    /// Distinct knob settings, increasing.
    pub fn xs(&self) -> &[f64] {
        &self.xs
    }

    /// Fitted non-decreasing values at [`IsotonicFit::xs`].
    pub fn ys(&self) -> &[f64] {
        &self.ys
    }

    /// Total weight (`sum 1 / se^2`) of the measurements at each knob setting, before pooling.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// The lowest and highest fitted values.
    pub fn range(&self) -> (f64, f64) {
        (
            self.ys.first().copied().unwrap_or(f64::NAN),
            self.ys.last().copied().unwrap_or(f64::NAN),
        )
    }

    /// The curve at `x`, interpolating linearly; `None` outside the measured knob range.
    pub fn predict(&self, x: f64) -> Option<f64> {
        let (first, last) = (*self.xs.first()?, *self.xs.last()?);
        if !(first..=last).contains(&x) {
            return None;
        }
        let k = self.xs.partition_point(|&xi| xi < x);
        if self.xs[k] == x {
            return Some(self.ys[k]);
        }
        let (x0, x1, y0, y1) = (self.xs[k - 1], self.xs[k], self.ys[k - 1], self.ys[k]);
        Some(y0 + (x - x0) / (x1 - x0) * (y1 - y0))
    }

    /// The knob setting where the curve equals `target`. Where the curve is flat at exactly
    /// `target` (a pooled block), the middle of the flat stretch is returned. Errs with the
    /// reachable range when `target` lies outside it.
    pub fn invert(&self, target: f64) -> Result<f64, CurveError> {
        let (min, max) = self.range();
        if !(target >= min && target <= max) {
            return Err(CurveError::OutOfRange { target, min, max });
        }
        let n = self.ys.len();
        let lerp = |k: usize| -> f64 {
            // Segment k-1..k with ys[k-1] != ys[k] containing the target.
            let (x0, x1, y0, y1) = (self.xs[k - 1], self.xs[k], self.ys[k - 1], self.ys[k]);
            x0 + (target - y0) / (y1 - y0) * (x1 - x0)
        };
        // Smallest x with f(x) >= target.
        let first = self.ys.partition_point(|&y| y < target);
        let left = if first == 0 { self.xs[0] } else { lerp(first) };
        // Largest x with f(x) <= target.
        let after = self.ys.partition_point(|&y| y <= target);
        let right = if after == n {
            self.xs[n - 1]
        } else {
            lerp(after)
        };
        Ok(0.5 * (left + right))
    }
}

/// Weighted least-squares fit of `y = a + b log2(x)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LogFit {
    /// Intercept: the value at `x = 1`.
    pub a: f64,
    /// Slope: the gain per doubling of `x`.
    pub b: f64,
    /// Standard error of `a` (from the given standard errors, not rescaled by the fit quality).
    pub se_a: f64,
    /// Standard error of `b`.
    pub se_b: f64,
    /// Covariance of `a` and `b`.
    pub cov_ab: f64,
    /// Weighted sum of squared residuals; about `dof` when the model and the SEs are right.
    pub chi2: f64,
    /// Degrees of freedom: points minus 2.
    pub dof: usize,
    /// Smallest knob setting measured.
    pub x_min: f64,
    /// Largest knob setting measured.
    pub x_max: f64,
}

impl LogFit {
    /// Fits the points; needs at least two distinct `x > 0`.
    pub fn fit(points: &[CurvePoint]) -> Result<Self, CurveError> {
        let w = weights(points)?;
        if let Some(index) = points.iter().position(|p| p.x <= 0.0) {
            return Err(CurveError::NonPositiveX { index });
        }
        let mut distinct: Vec<f64> = points.iter().map(|p| p.x).collect();
        distinct.sort_by(f64::total_cmp);
        distinct.dedup();
        if distinct.len() < 2 {
            return Err(CurveError::TooFewPoints {
                needed: 2,
                got: distinct.len(),
            });
        }
        let l: Vec<f64> = points.iter().map(|p| p.x.log2()).collect();
        let sw: f64 = w.iter().sum();
        let l_bar = w.iter().zip(&l).map(|(w, l)| w * l).sum::<f64>() / sw;
        let y_bar = w.iter().zip(points).map(|(w, p)| w * p.y).sum::<f64>() / sw;
        let mut sxx = 0.0;
        let mut sxy = 0.0;
        for ((wi, li), p) in w.iter().zip(&l).zip(points) {
            sxx += wi * (li - l_bar).powi(2);
            sxy += wi * (li - l_bar) * (p.y - y_bar);
        }
        let b = sxy / sxx;
        let a = y_bar - b * l_bar;
        let chi2 = w
            .iter()
            .zip(&l)
            .zip(points)
            .map(|((wi, li), p)| wi * (p.y - a - b * li).powi(2))
            .sum();
        Ok(Self {
            a,
            b,
            se_a: (1.0 / sw + l_bar * l_bar / sxx).sqrt(),
            se_b: (1.0 / sxx).sqrt(),
            cov_ab: -l_bar / sxx,
            chi2,
            dof: points.len() - 2,
            x_min: distinct[0],
            x_max: distinct[distinct.len() - 1],
        })
    }

    /// The curve at `x`; `None` unless `x > 0`.
    pub fn predict(&self, x: f64) -> Option<f64> {
        (x > 0.0).then(|| self.a + self.b * x.log2())
    }

    /// Standard error of the fitted curve at `x`; `None` unless `x > 0`.
    pub fn predict_se(&self, x: f64) -> Option<f64> {
        (x > 0.0).then(|| {
            let l = x.log2();
            (self.se_a.powi(2) + l * l * self.se_b.powi(2) + 2.0 * l * self.cov_ab)
                .max(0.0)
                .sqrt()
        })
    }

    /// The knob setting `2^((target - a) / b)` where the curve equals `target` (extrapolating
    /// freely). Errs when the slope is not positive or the setting would not be a finite
    /// positive number.
    pub fn invert(&self, target: f64) -> Result<f64, CurveError> {
        if !(self.b > 0.0 && self.b.is_finite()) {
            return Err(CurveError::NotIncreasing { slope: self.b });
        }
        let x = ((target - self.a) / self.b).exp2();
        if x.is_finite() && x > 0.0 {
            Ok(x)
        } else {
            Err(CurveError::OutOfRange {
                target,
                min: self.a + self.b * f64::MIN_POSITIVE.log2(),
                max: self.a + self.b * f64::MAX.log2(),
            })
        }
    }

    /// As [`LogFit::invert`], but errs with the range `[f(x_min), f(x_max)]` when the setting
    /// would lie outside the measured knob range (no extrapolation).
    pub fn invert_within_data(&self, target: f64) -> Result<f64, CurveError> {
        let x = self.invert(target)?;
        let min = self.a + self.b * self.x_min.log2();
        let max = self.a + self.b * self.x_max.log2();
        if (min..=max).contains(&target) {
            Ok(x.clamp(self.x_min, self.x_max))
        } else {
            Err(CurveError::OutOfRange { target, min, max })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn pt(x: f64, y: f64, se: f64) -> CurvePoint {
        CurvePoint { x, y, se }
    }

    fn normal<R: Rng>(rng: &mut R) -> f64 {
        // Box-Muller.
        let u1: f64 = 1.0 - rng.gen::<f64>();
        let u2: f64 = rng.gen();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }

    /// True curve: Elo = -600 + 90 log2(nodes), measured at nodes 2^6 .. 2^16.
    fn true_elo(nodes: f64) -> f64 {
        -600.0 + 90.0 * nodes.log2()
    }

    fn synthetic(seed: u64, se: f64) -> Vec<CurvePoint> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        (6..=16)
            .map(|k| {
                let nodes = f64::from(2u32.pow(k));
                pt(nodes, true_elo(nodes) + se * normal(&mut rng), se)
            })
            .collect()
    }

    #[test]
    fn pav_pools_violators() {
        let fitted = isotonic_regression(&[1.0, 3.0, 2.0, 4.0], &[1.0; 4]).unwrap();
        assert_eq!(fitted, vec![1.0, 2.5, 2.5, 4.0]);
        let fitted = isotonic_regression(&[1.0, 3.0, 2.0], &[1.0, 1.0, 3.0]).unwrap();
        assert_eq!(fitted, vec![1.0, 2.25, 2.25]);
        // A violation reaching back across several blocks.
        let fitted = isotonic_regression(&[1.0, 2.0, 3.0, 0.0], &[1.0; 4]).unwrap();
        assert_eq!(fitted[0], 1.0);
        assert!(fitted[1..].iter().all(|&y| (y - 5.0 / 3.0).abs() < 1e-12));
        assert_eq!(isotonic_regression(&[], &[]).unwrap(), Vec::<f64>::new());
        assert_eq!(isotonic_regression(&[1.0], &[0.0]), None);
        assert_eq!(isotonic_regression(&[1.0, 2.0], &[1.0]), None);
    }

    #[test]
    fn isotonic_recovers_synthetic_curve() {
        let points = synthetic(1, 25.0);
        // Interpolate on the log scale by passing log2(nodes) as x.
        let log_points: Vec<CurvePoint> =
            points.iter().map(|p| pt(p.x.log2(), p.y, p.se)).collect();
        let fit = IsotonicFit::fit(&log_points).unwrap();
        assert!(fit.ys().windows(2).all(|w| w[0] <= w[1]));
        for target in [0.0, 150.0, 300.0, 450.0] {
            let log_nodes = fit.invert(target).unwrap();
            let truth = (target + 600.0) / 90.0;
            // Within about one doubling (SE 25 Elo against 90 Elo per doubling).
            assert!(
                (log_nodes - truth).abs() < 1.0,
                "{target}: {log_nodes} vs {truth}"
            );
            let back = fit.predict(log_nodes).unwrap();
            assert!((back - target).abs() < 1e-9);
        }
        let (min, max) = fit.range();
        assert!((min - true_elo(64.0)).abs() < 60.0 && (max - true_elo(65536.0)).abs() < 60.0);
        match fit.invert(2000.0) {
            Err(CurveError::OutOfRange {
                target,
                min: lo,
                max: hi,
            }) => {
                assert_eq!((target, lo, hi), (2000.0, min, max));
            }
            other => panic!("unexpected {other:?}"),
        }
        assert!(fit
            .invert(2000.0)
            .unwrap_err()
            .to_string()
            .contains("range"));
        assert_eq!(fit.predict(5.0), None);
    }

    #[test]
    fn isotonic_weights_and_plateaus() {
        // The precise point wins the pooled block.
        let fit = IsotonicFit::fit(&[
            pt(1.0, 0.0, 1.0),
            pt(2.0, 100.0, 1.0),
            pt(3.0, 40.0, 0.1),
            pt(4.0, 200.0, 1.0),
        ])
        .unwrap();
        let pooled = (100.0 + 40.0 * 100.0) / 101.0;
        assert!((fit.ys()[1] - pooled).abs() < 1e-9 && (fit.ys()[2] - pooled).abs() < 1e-9);
        // On the flat stretch the inverse is its middle.
        assert!((fit.invert(fit.ys()[1]).unwrap() - 2.5).abs() < 1e-9);
        assert!((fit.invert(0.0).unwrap() - 1.0).abs() < 1e-12);
        assert!((fit.invert(200.0).unwrap() - 4.0).abs() < 1e-12);
        let mid = fit.invert(100.0).unwrap();
        assert!(mid > 3.0 && mid < 4.0);
        assert!((fit.predict(mid).unwrap() - 100.0).abs() < 1e-9);
    }

    #[test]
    fn isotonic_merges_equal_x_and_sorts() {
        let fit =
            IsotonicFit::fit(&[pt(2.0, 10.0, 1.0), pt(1.0, 0.0, 1.0), pt(2.0, 20.0, 1.0)]).unwrap();
        assert_eq!(fit.xs(), &[1.0, 2.0]);
        assert_eq!(fit.ys(), &[0.0, 15.0]);
        assert_eq!(fit.weights(), &[1.0, 2.0]);
        let single = IsotonicFit::fit(&[pt(3.0, 7.0, 2.0)]).unwrap();
        assert_eq!(single.invert(7.0).unwrap(), 3.0);
        assert!(single.invert(7.5).is_err());
    }

    #[test]
    fn isotonic_rejects_bad_points() {
        assert_eq!(
            IsotonicFit::fit(&[]),
            Err(CurveError::TooFewPoints { needed: 1, got: 0 })
        );
        assert_eq!(
            IsotonicFit::fit(&[pt(1.0, 1.0, 0.0)]),
            Err(CurveError::InvalidPoint { index: 0 })
        );
        assert_eq!(
            IsotonicFit::fit(&[pt(1.0, 1.0, 1.0), pt(f64::NAN, 1.0, 1.0)]),
            Err(CurveError::InvalidPoint { index: 1 })
        );
        let fit = IsotonicFit::fit(&[pt(1.0, 1.0, 1.0), pt(2.0, 3.0, 1.0)]).unwrap();
        assert!(fit.invert(f64::NAN).is_err());
    }

    #[test]
    fn log_fit_exact_data() {
        let points: Vec<CurvePoint> = [16.0, 64.0, 256.0, 1024.0]
            .iter()
            .map(|&x| pt(x, true_elo(x), 10.0))
            .collect();
        let fit = LogFit::fit(&points).unwrap();
        assert!((fit.a + 600.0).abs() < 1e-9 && (fit.b - 90.0).abs() < 1e-9);
        assert!(fit.chi2 < 1e-12);
        assert_eq!(fit.dof, 2);
        assert!((fit.invert(true_elo(100.0)).unwrap() - 100.0).abs() < 1e-9);
        assert!((fit.predict(100.0).unwrap() - true_elo(100.0)).abs() < 1e-9);
        // Extrapolation allowed by `invert`, refused by `invert_within_data`.
        assert!((fit.invert(true_elo(4096.0)).unwrap() - 4096.0).abs() < 1e-6);
        match fit.invert_within_data(true_elo(4096.0)) {
            Err(CurveError::OutOfRange { min, max, .. }) => {
                assert!(
                    (min - true_elo(16.0)).abs() < 1e-9 && (max - true_elo(1024.0)).abs() < 1e-9
                );
            }
            other => panic!("unexpected {other:?}"),
        }
        assert!((fit.invert_within_data(true_elo(16.0)).unwrap() - 16.0).abs() < 1e-9);
    }

    #[test]
    fn log_fit_recovers_synthetic_curve() {
        let mut covered = 0;
        let runs = 200;
        for seed in 0..runs {
            let fit = LogFit::fit(&synthetic(seed, 30.0)).unwrap();
            if (fit.b - 90.0).abs() <= 1.959964 * fit.se_b {
                covered += 1;
            }
            let x = fit.invert(300.0).unwrap();
            let truth = ((300.0 + 600.0) / 90.0f64).exp2();
            assert!(
                (x.log2() - truth.log2()).abs() < 0.5,
                "seed {seed}: {x} vs {truth}"
            );
        }
        let rate = f64::from(covered) / f64::from(runs as u32);
        assert!((0.88..=0.99).contains(&rate), "slope coverage {rate}");
        let fit = LogFit::fit(&synthetic(0, 30.0)).unwrap();
        let se = fit.predict_se(1000.0).unwrap();
        assert!(se > 0.0 && se < 30.0);
    }

    #[test]
    fn log_fit_errors() {
        assert_eq!(
            LogFit::fit(&[pt(4.0, 1.0, 1.0), pt(4.0, 2.0, 1.0)]),
            Err(CurveError::TooFewPoints { needed: 2, got: 1 })
        );
        assert_eq!(
            LogFit::fit(&[pt(0.0, 1.0, 1.0), pt(4.0, 2.0, 1.0)]),
            Err(CurveError::NonPositiveX { index: 0 })
        );
        let falling = LogFit::fit(&[pt(1.0, 10.0, 1.0), pt(2.0, 5.0, 1.0)]).unwrap();
        assert!(matches!(
            falling.invert(7.0),
            Err(CurveError::NotIncreasing { .. })
        ));
        let rising = LogFit::fit(&[pt(1.0, 0.0, 1.0), pt(2.0, 1.0, 1.0)]).unwrap();
        assert!(matches!(
            rising.invert(1e6),
            Err(CurveError::OutOfRange { .. })
        ));
        assert_eq!(rising.predict(-1.0), None);
    }
}
