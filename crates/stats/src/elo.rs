//! Elo with a 95% interval, likelihood of superiority and normalised Elo of one match, from its
//! trinomial or pentanomial counts (as fastchess and fishtest compute them).
//!
//! Everything here is a pure function of the counts, following `docs/statistics.md`: a zero count
//! is replaced by `1e-3` before any estimate is computed, so that every quantity stays finite.

use crate::wdl::{Pentanomial, Trinomial, PENTA_SCORES, TRI_SCORES};
use serde::{Deserialize, Serialize};

/// Two-sided 95% standard-normal quantile used throughout (as fastchess and fishtest).
pub const Z95: f64 = 1.959964;

/// Normalised Elo per unit of normalised t-value: `800 / ln 10`.
pub const NELO_PER_NT: f64 = 800.0 / std::f64::consts::LN_10;

/// Value that replaces a zero count before estimating (as fishtest's `results_to_pdf`).
pub const ZERO_COUNT: f64 = 1e-3;

/// Elo difference for an expected score `score`: `-400 log10(1/score - 1)`; `None` unless
/// `0 < score < 1`.
pub fn elo_from_score(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| elo_unchecked(score))
}

/// Expected score for an Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo of a score, extended to `-inf` at or below 0 and `+inf` at or above 1.
fn elo_unchecked(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Standard normal cumulative distribution function.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * statrs::function::erf::erfc(-z / std::f64::consts::SQRT_2)
}

/// Approximate number of games for a 95% Elo interval of half-width `half_width_elo` at draw
/// ratio `draw_ratio`, near equal strength: `(1.959964 * 800 / ln 10 / X)^2 * (1 - d)`, i.e.
/// statistics.md's `(681 / X)^2 (1 - d)` (the constant is 680.96). Rounded up; `None` unless
/// `X > 0` and `0 <= d < 1`.
pub fn games_for_ci(half_width_elo: f64, draw_ratio: f64) -> Option<u64> {
    if !(half_width_elo > 0.0 && half_width_elo.is_finite() && (0.0..1.0).contains(&draw_ratio)) {
        return None;
    }
    let games = (Z95 * NELO_PER_NT / half_width_elo).powi(2) * (1.0 - draw_ratio);
    Some(games.ceil() as u64)
}

/// Regularised empirical distribution: returns `(N, p)` with zero counts replaced by 1e-3.
pub(crate) fn regularise<const K: usize>(counts: &[u64; K]) -> (f64, [f64; K]) {
    let mut c = [0.0; K];
    for (ci, &n) in c.iter_mut().zip(counts) {
        *ci = if n == 0 { ZERO_COUNT } else { n as f64 };
    }
    let total: f64 = c.iter().sum();
    let mut p = [0.0; K];
    for (pi, ci) in p.iter_mut().zip(c) {
        *pi = ci / total;
    }
    (total, p)
}

/// Mean and variance of the distribution `p` on the scores `a`.
pub(crate) fn mean_var(a: &[f64], p: &[f64]) -> (f64, f64) {
    let mu: f64 = a.iter().zip(p).map(|(ai, pi)| ai * pi).sum();
    let var: f64 = a.iter().zip(p).map(|(ai, pi)| pi * (ai - mu).powi(2)).sum();
    (mu, var)
}

/// Summary of a match result, from the first player's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Elo difference: `elo(mu)`.
    pub elo: f64,
    /// Half-width of the 95% Elo interval (`f64::INFINITY` when the interval reaches a score of
    /// 0 or 1, which happens only with very few games).
    pub elo_ci95: f64,
    /// Normalised Elo (`nt * 800 / ln 10`, with the per-game standard deviation).
    pub nelo: f64,
    /// Half-width of the 95% normalised-Elo interval: `1.959964 * 800 / ln 10 / sqrt(games)`.
    pub nelo_ci95: f64,
    /// Likelihood of superiority, in 0..=1: `Phi((mu - 0.5) / se)`.
    pub los: f64,
    /// Mean score per game, `mu`.
    pub score: f64,
    /// Fraction of games drawn; `None` for a pentanomial whose double-draw count is unknown.
    pub draw_ratio: Option<f64>,
    /// Games played (twice the number of pairs for a pentanomial).
    pub games: u64,
}

impl Estimate {
    /// Estimate from game counts; `None` with no games.
    pub fn from_trinomial(t: &Trinomial) -> Option<Self> {
        if t.total() == 0 {
            return None;
        }
        let (n, p) = regularise(&t.counts());
        Some(Self::from_distribution(
            &TRI_SCORES,
            &p,
            n,
            1.0,
            t.total(),
            t.draw_ratio(),
        ))
    }

    /// Estimate from game-pair counts; `None` with no pairs. The draw ratio is filled in when
    /// the pentanomial knows its double draws (see [`Pentanomial`]); otherwise use
    /// [`Estimate::with_draw_ratio`].
    pub fn from_pentanomial(pt: &Pentanomial) -> Option<Self> {
        if pt.total() == 0 {
            return None;
        }
        let (n, p) = regularise(&pt.counts);
        let draw_ratio = pt.to_trinomial().and_then(|t| t.draw_ratio());
        Some(Self::from_distribution(
            &PENTA_SCORES,
            &p,
            n,
            2.0,
            pt.games(),
            draw_ratio,
        ))
    }

    /// This estimate with the draw ratio taken from game-level counts (e.g. kept beside a
    /// pentanomial built from bare counts).
    pub fn with_draw_ratio(self, games: &Trinomial) -> Self {
        Self {
            draw_ratio: games.draw_ratio(),
            ..self
        }
    }

    /// `games_per_unit` is 1 for single games and 2 for pairs.
    fn from_distribution(
        a: &[f64],
        p: &[f64],
        n: f64,
        games_per_unit: f64,
        games: u64,
        draw_ratio: Option<f64>,
    ) -> Self {
        let (mu, var) = mean_var(a, p);
        let se = (var / n).sqrt();
        let elo = elo_unchecked(mu);
        let hi = elo_unchecked(mu + Z95 * se);
        let lo = elo_unchecked(mu - Z95 * se);
        let elo_ci95 = (hi - lo) / 2.0;
        let los = normal_cdf((mu - 0.5) / se);
        let per_game_sd = (games_per_unit * var).sqrt();
        let nelo = (mu - 0.5) / per_game_sd * NELO_PER_NT;
        let nelo_ci95 = Z95 * NELO_PER_NT / (games_per_unit * n).sqrt();
        Self {
            elo,
            elo_ci95,
            nelo,
            nelo_ci95,
            los,
            score: mu,
            draw_ratio,
            games,
        }
    }
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

    #[test]
    fn elo_score_round_trip() {
        for elo in [-800.0, -70.0, 0.0, 35.5, 400.0] {
            close(elo_from_score(score_from_elo(elo)).unwrap(), elo, 1e-9);
        }
        close(elo_from_score(0.6).unwrap(), 70.437, 1e-3);
        assert_eq!(elo_from_score(0.0), None);
        assert_eq!(elo_from_score(1.0), None);
        assert_eq!(elo_from_score(f64::NAN), None);
    }

    #[test]
    fn games_for_ci_matches_rule_of_thumb() {
        // (681 / 10)^2 * (1 - 0.5) = 2318.8
        let g = games_for_ci(10.0, 0.5).unwrap();
        assert!((2310..=2320).contains(&g), "{g}");
        assert_eq!(games_for_ci(0.0, 0.5), None);
        assert_eq!(games_for_ci(10.0, 1.0), None);
        assert_eq!(games_for_ci(10.0, -0.1), None);
    }

    #[test]
    fn estimate_edge_cases() {
        assert!(Estimate::from_trinomial(&Trinomial::default()).is_none());
        assert!(Estimate::from_pentanomial(&Pentanomial::new()).is_none());
        let e = Estimate::from_trinomial(&Trinomial::new(0, 0, 3)).unwrap();
        assert!(e.elo.is_finite() && e.elo > 0.0);
        assert!(e.elo_ci95.is_infinite());
        assert!(e.los > 0.5 && e.los <= 1.0);
        let even = Estimate::from_trinomial(&Trinomial::new(10, 20, 10)).unwrap();
        close(even.elo, 0.0, 1e-12);
        close(even.los, 0.5, 1e-12);
        close(even.draw_ratio.unwrap(), 0.5, 1e-12);
    }

    #[test]
    fn normal_cdf_values() {
        close(normal_cdf(0.0), 0.5, 1e-15);
        close(normal_cdf(Z95), 0.975, 1e-7);
        close(normal_cdf(-Z95), 0.025, 1e-7);
    }
}
