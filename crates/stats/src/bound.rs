//! Intervals whose sides may be unbounded, and exact bounds from perfect and zero scores.
//!
//! A score of n wins in n games supports a one-sided statement only: the win probability is at
//! least `alpha^(1/n)` with confidence `1 - alpha` (the exact Clopper-Pearson bound), so the Elo
//! difference is at least `400 log10(p / (1 - p))` for that `p`. A prior that keeps a fit finite
//! must not also make the other side of the interval; [`Bound`] leaves it open instead.

use crate::scale::elo_from_score;
use serde::{Deserialize, Serialize};
use std::fmt;

/// An interval `[low, high]` whose sides may be unbounded (`None`: minus or plus infinity).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Bound {
    /// Lower end, or `None` when the data give no lower bound.
    pub low: Option<f64>,
    /// Upper end, or `None` when the data give no upper bound.
    pub high: Option<f64>,
}

impl Bound {
    /// A two-sided interval `[low, high]`.
    pub fn two_sided(low: f64, high: f64) -> Self {
        Self {
            low: Some(low),
            high: Some(high),
        }
    }

    /// The one-sided bound `>= low`.
    pub fn at_least(low: f64) -> Self {
        Self {
            low: Some(low),
            high: None,
        }
    }

    /// The one-sided bound `<= high`.
    pub fn at_most(high: f64) -> Self {
        Self {
            low: None,
            high: Some(high),
        }
    }

    /// No bound on either side.
    pub fn unbounded() -> Self {
        Self::default()
    }

    /// Whether both sides are bounded.
    pub fn is_two_sided(&self) -> bool {
        self.low.is_some() && self.high.is_some()
    }

    /// Whether exactly one side is bounded.
    pub fn is_one_sided(&self) -> bool {
        self.low.is_some() != self.high.is_some()
    }

    /// Whether `x` lies in the interval (an open side holds every value).
    pub fn contains(&self, x: f64) -> bool {
        self.low.map_or(true, |lo| lo <= x) && self.high.map_or(true, |hi| x <= hi)
    }

    /// `high - low` for a two-sided interval.
    pub fn width(&self) -> Option<f64> {
        Some(self.high? - self.low?)
    }

    /// Half of [`Bound::width`].
    pub fn half_width(&self) -> Option<f64> {
        self.width().map(|w| w / 2.0)
    }

    /// The interval seen from the other side: `[-high, -low]`.
    pub fn negated(&self) -> Self {
        Self {
            low: self.high.map(|h| -h),
            high: self.low.map(|l| -l),
        }
    }

    /// The two ends as text with `decimals` decimals, an open side as the empty string (the
    /// convention of `ratings.csv` and `gaps.csv`).
    pub fn csv_fields(&self, decimals: usize) -> [String; 2] {
        let text = |side: Option<f64>| side.map_or(String::new(), |x| format!("{x:.decimals$}"));
        [text(self.low), text(self.high)]
    }

    /// Whether the interval excludes 0 (the sign of the quantity is settled).
    pub fn excludes_zero(&self) -> bool {
        !self.contains(0.0)
    }
}

/// `[+a, +b]`, `>= +X`, `<= -X` or `unbounded`; the precision (default 0 decimals) applies to
/// each number, e.g. `format!("{:.1}", bound)`.
impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = f.precision().unwrap_or(0);
        match (self.low, self.high) {
            (Some(lo), Some(hi)) => write!(f, "[{lo:+.p$}, {hi:+.p$}]"),
            (Some(lo), None) => write!(f, ">= {lo:+.p$}"),
            (None, Some(hi)) => write!(f, "<= {hi:+.p$}"),
            (None, None) => write!(f, "unbounded"),
        }
    }
}

/// Exact one-sided lower bound, with confidence `confidence`, on the win probability after `n`
/// wins in `n` games: `(1 - confidence)^(1/n)` (Clopper-Pearson). It also bounds the expected
/// score when draws are possible, since a draw is not a win: `P(n wins) = P(win)^n <= score^n`.
/// `None` unless `n > 0` and `0 < confidence < 1`.
pub fn perfect_score_probability_bound(n: u64, confidence: f64) -> Option<f64> {
    (n > 0 && confidence > 0.0 && confidence < 1.0).then(|| (1.0 - confidence).powf(1.0 / n as f64))
}

/// Exact one-sided lower bound in Elo, with confidence `confidence`, after `n` wins in `n` games:
/// the Elo of [`perfect_score_probability_bound`] (e.g. 12-0 gives `>= +218.9` at 95%). A zero
/// score gives the same bound with the sign changed (`<= -X`).
pub fn perfect_score_elo_bound(n: u64, confidence: f64) -> Option<f64> {
    elo_from_score(perfect_score_probability_bound(n, confidence)?)
}

/// Exact (Clopper-Pearson) two-sided interval with confidence `confidence` for a success
/// probability after `k` successes in `n` trials: `(low, high)`, with `low = 0` when `k = 0` and
/// `high = 1` when `k = n`. `None` unless `k <= n`, `n > 0` and `0 < confidence < 1`.
pub fn clopper_pearson(k: u64, n: u64, confidence: f64) -> Option<(f64, f64)> {
    if !(k <= n && n > 0 && confidence > 0.0 && confidence < 1.0) {
        return None;
    }
    let tail = (1.0 - confidence) / 2.0;
    // P(X >= k | p) is increasing in p; P(X <= k | p) decreasing.
    let low = if k == 0 {
        0.0
    } else {
        bisect(|p| binomial_upper_tail(k, n, p) - tail)
    };
    let high = if k == n {
        1.0
    } else {
        bisect(|p| tail - binomial_lower_tail(k, n, p))
    };
    Some((low, high))
}

/// `P(X <= k)` for `X ~ Binomial(n, p)`, through the regularised incomplete beta function.
fn binomial_lower_tail(k: u64, n: u64, p: f64) -> f64 {
    if k >= n {
        return 1.0;
    }
    // P(X <= k) = I_{1-p}(n - k, k + 1)
    statrs::function::beta::beta_reg((n - k) as f64, (k + 1) as f64, 1.0 - p)
}

/// `P(X >= k)` for `X ~ Binomial(n, p)`.
fn binomial_upper_tail(k: u64, n: u64, p: f64) -> f64 {
    if k == 0 {
        1.0
    } else {
        1.0 - binomial_lower_tail(k - 1, n, p)
    }
}

/// The root in (0, 1) of an increasing function, by bisection to machine precision.
fn bisect(f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_shows_open_sides() {
        assert_eq!(Bound::two_sided(87.2, 345.0).to_string(), "[+87, +345]");
        assert_eq!(Bound::two_sided(-25.0, 289.4).to_string(), "[-25, +289]");
        assert_eq!(Bound::at_least(218.9).to_string(), ">= +219");
        assert_eq!(format!("{:.1}", Bound::at_least(218.94)), ">= +218.9");
        assert_eq!(Bound::at_most(-75.5).to_string(), "<= -76");
        assert_eq!(Bound::unbounded().to_string(), "unbounded");
    }

    #[test]
    fn open_sides_contain_everything_beyond() {
        let b = Bound::at_least(100.0);
        assert!(b.contains(1e9) && b.contains(100.0) && !b.contains(99.0));
        assert!(b.is_one_sided() && !b.is_two_sided());
        assert_eq!(b.width(), None);
        assert_eq!(b.negated(), Bound::at_most(-100.0));
        assert!(b.excludes_zero());
        let t = Bound::two_sided(-1.0, 3.0);
        assert_eq!(t.half_width(), Some(2.0));
        assert!(!t.excludes_zero());
        assert!(Bound::unbounded().contains(f64::MAX));
        assert_eq!(b.csv_fields(1), ["100.0".to_string(), String::new()]);
        assert_eq!(t.csv_fields(0), ["-1".to_string(), "3".to_string()]);
    }

    #[test]
    fn clopper_pearson_matches_known_values() {
        // Closed forms at the ends: k = 0 and k = n.
        let (lo, hi) = clopper_pearson(0, 10, 0.95).unwrap();
        assert_eq!(lo, 0.0);
        assert!((hi - (1.0 - 0.025f64.powf(0.1))).abs() < 1e-12, "{hi}");
        let (lo, hi) = clopper_pearson(10, 10, 0.95).unwrap();
        assert!((lo - 0.025f64.powf(0.1)).abs() < 1e-12 && hi == 1.0);
        // 5 of 10: the textbook interval [0.1871, 0.8129].
        let (lo, hi) = clopper_pearson(5, 10, 0.95).unwrap();
        assert!(
            (lo - 0.1871).abs() < 1e-4 && (hi - 0.8129).abs() < 1e-4,
            "{lo} {hi}"
        );
        assert_eq!(clopper_pearson(3, 2, 0.95), None);
        assert_eq!(clopper_pearson(0, 0, 0.95), None);
        assert_eq!(perfect_score_probability_bound(0, 0.95), None);
        assert_eq!(perfect_score_elo_bound(5, 1.0), None);
    }

    #[test]
    fn one_sided_clopper_pearson_is_the_perfect_score_bound() {
        // A two-sided interval at 90% has a 95% one-sided lower end.
        for n in [1, 6, 12, 40] {
            let (lo, _) = clopper_pearson(n, n, 0.90).unwrap();
            let p = perfect_score_probability_bound(n, 0.95).unwrap();
            assert!((lo - p).abs() < 1e-12, "{n}: {lo} vs {p}");
        }
    }
}
