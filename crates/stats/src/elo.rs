//! Elo with a 95% interval, likelihood of superiority and normalised Elo of one match, from its
//! trinomial or pentanomial counts (as fastchess and fishtest compute them).
//!
//! Everything here is a pure function of the counts, following `docs/statistics.md`: a zero count
//! is replaced by `1e-3` before any estimate is computed, so that every quantity stays finite.

use crate::bound::Bound;
use crate::interval::{interval_text, IntervalMethod, MatchInterval};
use crate::wdl::{Pentanomial, Trinomial, PENTA_SCORES, TRI_SCORES};
use serde::{Deserialize, Serialize};

pub use crate::scale::{
    elo_from_score, games_for_ci, normal_cdf, score_from_elo, NELO_PER_NT, Z95, ZERO_COUNT,
};
pub(crate) use crate::scale::{elo_unchecked, mean_var, regularise, spread};

/// Summary of a match result, from the first player's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Elo difference: `elo(mu)`.
    pub elo: f64,
    /// Half-width of fishtest's symmetric 95% Elo interval (`f64::INFINITY` when it reaches a
    /// score of 0 or 1, as after 43 wins, 1 draw and 2 losses). Printers show
    /// [`Estimate::elo_interval`] instead; this stays for `--json` and the golden values.
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
    /// Honest 95% interval of the Elo difference ([`crate::interval`]): asymmetric, finite
    /// wherever the games bound it, one-sided after a perfect or zero score. Print it with
    /// [`Estimate::elo_text`].
    pub elo_interval: Bound,
    /// Honest 95% interval of the normalised Elo, made as `elo_interval`.
    pub nelo_interval: Bound,
    /// How both intervals were made.
    pub interval_method: IntervalMethod,
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
            spread(&TRI_SCORES, &t.counts()),
            1.0,
            t.total(),
            t.draw_ratio(),
            MatchInterval::from_trinomial(t)?,
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
            spread(&PENTA_SCORES, &pt.counts),
            2.0,
            pt.games(),
            draw_ratio,
            MatchInterval::from_pentanomial(pt)?,
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

    /// The Elo estimate with its honest interval: `+496.22 [+314.82, +747.08]`, or after a
    /// perfect score `>= +219.0 (perfect score)` ([`interval_text`]); `decimals` decimals.
    pub fn elo_text(&self, decimals: usize) -> String {
        interval_text(self.elo, &self.elo_interval, self.interval_method, decimals)
    }

    /// The normalised Elo with its honest interval, as [`Estimate::elo_text`].
    pub fn nelo_text(&self, decimals: usize) -> String {
        interval_text(
            self.nelo,
            &self.nelo_interval,
            self.interval_method,
            decimals,
        )
    }

    /// `games_per_unit` is 1 for single games and 2 for pairs.
    #[allow(clippy::too_many_arguments)]
    fn from_distribution(
        a: &[f64],
        p: &[f64],
        n: f64,
        spread: Option<(f64, f64)>,
        games_per_unit: f64,
        games: u64,
        draw_ratio: Option<f64>,
        interval: MatchInterval,
    ) -> Self {
        let (mu, var) = mean_var(a, p);
        let se = match spread {
            Some((units, v)) => (v / units).sqrt(),
            None => (var / n).sqrt(),
        };
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
            elo_interval: interval.elo,
            nelo_interval: interval.nelo,
            interval_method: interval.method,
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

    /// One category only (all draws, all drawn pairs): the observed variance is 0 whatever the
    /// count, so the interval comes from half a loss and half a win added: about ±800 Elo after
    /// one draw or one drawn pair (it used to read about ±30), narrowing with more of them. A
    /// tally with two categories keeps the observed variance.
    #[test]
    fn one_kind_of_result_gets_an_interval_the_games_support() {
        let one_draw = Estimate::from_trinomial(&Trinomial::new(0, 1, 0)).unwrap();
        close(one_draw.elo, 0.0, 1e-9);
        assert!(one_draw.elo_ci95 > 700.0, "{one_draw:?}");
        let one_pair = Estimate::from_pentanomial(&Pentanomial::from_counts([0, 0, 1, 0, 0]));
        assert!(one_pair.unwrap().elo_ci95 > 700.0);
        // Every pair lost-drawn: the spread is taken around the observed score of 1/4.
        let ld = Estimate::from_pentanomial(&Pentanomial::from_counts([0, 10, 0, 0, 0])).unwrap();
        let var = (0.5 * 0.25f64.powi(2) + 0.5 * 0.75f64.powi(2)) / 11.0;
        let se = (var / 11.0).sqrt();
        close(
            ld.elo_ci95,
            (elo_unchecked(ld.score + Z95 * se) - elo_unchecked(ld.score - Z95 * se)) / 2.0,
            1e-6,
        );
        let ten = Estimate::from_trinomial(&Trinomial::new(0, 10, 0)).unwrap();
        let hundred = Estimate::from_trinomial(&Trinomial::new(0, 100, 0)).unwrap();
        // Half a loss and half a win in 11 (101) results: variance 2 (0.5 / n) 0.25.
        let half_width = |n: f64| {
            let se = (2.0 * 0.5 / n * 0.25 / n).sqrt();
            (elo_from_score(0.5 + Z95 * se).unwrap() - elo_from_score(0.5 - Z95 * se).unwrap())
                / 2.0
        };
        close(ten.elo_ci95, half_width(11.0), 1e-9);
        close(hundred.elo_ci95, half_width(101.0), 1e-9);
        assert!(
            (55.0..70.0).contains(&ten.elo_ci95) && (5.0..9.0).contains(&hundred.elo_ci95),
            "{} {}",
            ten.elo_ci95,
            hundred.elo_ci95
        );
        close(hundred.los, 0.5, 1e-12);
        let pairs = Estimate::from_pentanomial(&Pentanomial::from_counts([0, 0, 40, 0, 0]));
        assert!(pairs.unwrap().elo_ci95 > 0.0);
        // All wins: unbounded too (it was already, from the score's side).
        let wins = Estimate::from_trinomial(&Trinomial::new(0, 0, 10)).unwrap();
        assert!(wins.elo_ci95.is_infinite());
        // Two kinds of result: the observed variance, as before.
        let mixed = Estimate::from_trinomial(&Trinomial::new(0, 9, 1)).unwrap();
        let (n, p) = regularise(&[0, 9, 1]);
        let (mu, var) = mean_var(&TRI_SCORES, &p);
        let se = (var / n).sqrt();
        close(
            mixed.elo_ci95,
            (elo_unchecked(mu + Z95 * se) - elo_unchecked(mu - Z95 * se)) / 2.0,
            1e-9,
        );
    }

    #[test]
    fn normal_cdf_values() {
        close(normal_cdf(0.0), 0.5, 1e-15);
        close(normal_cdf(Z95), 0.975, 1e-7);
        close(normal_cdf(-Z95), 0.025, 1e-7);
    }
}
