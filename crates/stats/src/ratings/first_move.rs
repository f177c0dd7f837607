//! The first-move advantage (Ordo's `-W`): estimated by maximising the profile likelihood, the
//! ratings refitted at every trial value, and its profile-likelihood interval.
//!
//! With an advantage `w` the player who moves first is expected to score
//! `1 / (1 + 10^(-(r_first - r_second + w) / 400))`. The log-likelihood is jointly concave in
//! the ratings and `w`, so its profile in `w` (the ratings at their best for each `w`) is
//! concave too, and its slope is the plain derivative in `w` at the refitted ratings: the
//! first movers' points minus their expected points (times `ln 10 / 400`). The maximum is where
//! the first movers' expected score equals their actual score, with every player's expected
//! score equal to their actual score, which is the equilibrium Ordo's `-W` reaches.

use super::fit::{win_probability, PairTotal};
use super::profile::constrained_fit;
use super::{FirstMove, FitOptions, RatedGame, RatingError, RatingFit, C};

/// Beyond this many Elo the games say nothing more about the advantage.
const LIMIT: f64 = 4000.0;

/// The profile likelihood of the first-move advantage over groups of players whose ratings are
/// finite, each given by its number of players and its totals (local indices, with signs).
pub(crate) struct AdvantageProfile {
    groups: Vec<(usize, Vec<PairTotal>, Vec<f64>)>,
}

impl AdvantageProfile {
    /// The profile over `groups` of `(players, totals)`.
    pub(crate) fn new(groups: Vec<(usize, Vec<PairTotal>)>) -> Self {
        Self {
            groups: groups
                .into_iter()
                .map(|(n, totals)| (n, totals, vec![0.0; n]))
                .collect(),
        }
    }

    /// Whether any game tells colours apart (else the advantage is not estimable).
    pub(crate) fn has_colours(&self) -> bool {
        self.groups
            .iter()
            .any(|(_, totals, _)| totals.iter().any(|t| t.sign != 0.0 && t.games > 0.0))
    }

    /// The profile log-likelihood at `w` and its slope.
    pub(crate) fn at(&mut self, w: f64) -> Result<(f64, f64), RatingError> {
        let (mut ll, mut slope) = (0.0, 0.0);
        for (n, totals, warm) in &mut self.groups {
            for t in totals.iter_mut() {
                t.offset = t.sign * w;
            }
            let (r, l) = constrained_fit(*n, totals, None, warm)?;
            ll += l;
            slope += totals
                .iter()
                .filter(|t| t.sign != 0.0)
                .map(|t| t.sign * C * (t.score_a - t.games * win_probability(t.difference(&r))))
                .sum::<f64>();
            *warm = r;
        }
        Ok((ll, slope))
    }

    /// The maximum-likelihood advantage: 0 when no game tells colours apart; an error when
    /// the first (or second) mover scored every point, so the advantage is unbounded.
    pub(crate) fn estimate(&mut self) -> Result<f64, RatingError> {
        if !self.has_colours() {
            return Ok(0.0);
        }
        let (_, s0) = self.at(0.0)?;
        if s0 == 0.0 {
            return Ok(0.0);
        }
        let dir = s0.signum();
        // The slope falls with `w`: the root lies on the side the slope points to.
        let root = increasing_root(|d| Ok(-dir * self.at(dir * d)?.1), -dir * s0, 10.0)?;
        root.map(|d| dir * d).ok_or(RatingError::NoFiniteFirstMove)
    }

    /// The profile-likelihood interval of the advantage around its estimate `est` (with
    /// log-likelihood `ll_max`): every `w` with `2 (ll_max - l_p(w)) / phi <= z^2`. A side the
    /// games do not bound within a huge range is open (`None`).
    pub(crate) fn interval(
        &mut self,
        est: f64,
        ll_max: f64,
        z: f64,
        phi: f64,
    ) -> Result<(Option<f64>, Option<f64>), RatingError> {
        let mut side = |sign: f64| -> Result<Option<f64>, RatingError> {
            let root = increasing_root(
                |d| {
                    let (ll, _) = self.at(est + sign * d)?;
                    Ok((2.0 * (ll_max - ll).max(0.0) / phi).sqrt() - z)
                },
                -z,
                20.0,
            )?;
            Ok(root.map(|d| est + sign * d))
        };
        Ok((side(-1.0)?, side(1.0)?))
    }
}

/// The root in `(0, LIMIT]` of an increasing function `f` with `f(0) = f0 < 0`, bracketed by
/// doubling from `step`, then Illinois regula falsi; `None` when `f` stays below 0.
fn increasing_root(
    mut f: impl FnMut(f64) -> Result<f64, RatingError>,
    f0: f64,
    step: f64,
) -> Result<Option<f64>, RatingError> {
    let (mut lo, mut f_lo) = (0.0, f0);
    let mut hi = step;
    let mut f_hi = f(hi)?;
    while f_hi < 0.0 {
        if hi >= LIMIT {
            return Ok(None);
        }
        lo = hi;
        f_lo = f_hi;
        hi *= 2.0;
        f_hi = f(hi)?;
    }
    let mut kept = 0i8;
    for _ in 0..200 {
        let d = hi - f_hi * (hi - lo) / (f_hi - f_lo);
        let d = if d > lo && d < hi { d } else { 0.5 * (lo + hi) };
        let v = f(d)?;
        if v.abs() < 1e-12 || hi - lo < 1e-10 {
            return Ok(Some(d));
        }
        if v < 0.0 {
            lo = d;
            f_lo = v;
            if kept == -1 {
                f_hi *= 0.5;
            }
            kept = -1;
        } else {
            hi = d;
            f_hi = v;
            if kept == 1 {
                f_lo *= 0.5;
            }
            kept = 1;
        }
    }
    Ok(Some(0.5 * (lo + hi)))
}

/// Fits all ratings jointly by maximum likelihood.
pub fn fit_ratings(
    games: &[RatedGame],
    n_players: usize,
    options: &FitOptions,
) -> Result<RatingFit, RatingError> {
    let mut data = super::fit::Prepared::new(games, n_players, options)?;
    if options.first_move == FirstMove::Auto {
        // The advantage that maximises the likelihood, the ratings refitted at each trial
        // value (the profile likelihood in the advantage is concave).
        let totals = data.totals_all();
        data.check(&totals)?;
        data.advantage = AdvantageProfile::new(vec![(n_players, totals)]).estimate()?;
    }
    let totals = data.totals_all();
    data.fit(&totals)
}

#[cfg(test)]
mod tests {
    use crate::ratings::testutil::{game, sixty_percent};
    use crate::ratings::{
        fit_ratings, honest_intervals, honest_intervals_with, FirstMove, FitOptions, RatedGame,
        RatingError,
    };
    use crate::sim::{ladder_pairings, simulate_pairings_first_move};
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn auto() -> FitOptions {
        FitOptions {
            first_move: FirstMove::Auto,
            ..FitOptions::default()
        }
    }

    fn expected_score(first: f64, second: f64, advantage: f64) -> f64 {
        crate::elo::score_from_elo(first - second + advantage)
    }

    #[test]
    fn a_known_advantage_is_recovered_with_its_interval() {
        let truth = [0.0, 150.0, 300.0, 420.0];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let games =
            simulate_pairings_first_move(&mut rng, &truth, &ladder_pairings(4), 400, 0.3, 60.0);
        let fit = fit_ratings(&games, 4, &auto()).unwrap();
        // 4,000 games: the advantage's standard error is about 6 Elo.
        assert!(
            (fit.first_move_advantage - 60.0).abs() < 20.0,
            "{}",
            fit.first_move_advantage
        );
        for k in 0..4 {
            assert!(
                (fit.ratings[k] - truth[k]).abs() < 40.0,
                "{:?}",
                fit.ratings
            );
        }
        let h = honest_intervals_with(&games, 4, &[0, 1, 2, 3], 0, 0.95, FirstMove::Auto).unwrap();
        let w = h.first_move.unwrap();
        assert!(w.estimated);
        assert!((w.elo - fit.first_move_advantage).abs() < 1e-6);
        let bound = w.bound.unwrap();
        assert!(bound.contains(60.0) && bound.contains(w.elo), "{bound:?}");
        let half = bound.half_width().unwrap();
        assert!(half > 5.0 && half < 30.0, "{bound:?}");
        for k in 0..4 {
            assert!((h.ratings[k].estimate.unwrap() - fit.ratings[k]).abs() < 1e-6);
        }
        // Ignoring colours on balanced pairs moves the ratings little, but the fit with the
        // term explains the games better.
        let plain = fit_ratings(&games, 4, &FitOptions::default()).unwrap();
        assert!(fit.log_likelihood > plain.log_likelihood + 10.0);
    }

    #[test]
    fn the_estimate_balances_expected_and_actual_scores() {
        // Ordo's -W equilibrium: every player's expected points equal their points, and the
        // first movers' expected points equal theirs. An unbalanced schedule (colours not
        // swapped) makes the advantage and the ratings interact.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut games = simulate_pairings_first_move(
            &mut rng,
            &[0.0, 80.0, 200.0],
            &[(0, 1), (1, 2), (0, 2)],
            30,
            0.4,
            -30.0,
        );
        games.retain(|g| g.pair_id % 3 != 0 || g.first < g.second);
        let fit = fit_ratings(&games, 3, &auto()).unwrap();
        let w = fit.first_move_advantage;
        let mut expected = [0.0; 3];
        let mut actual = [0.0; 3];
        let (mut first_expected, mut first_actual) = (0.0, 0.0);
        for g in &games {
            let e = expected_score(fit.ratings[g.first], fit.ratings[g.second], w);
            expected[g.first] += e;
            expected[g.second] += 1.0 - e;
            actual[g.first] += g.score_first;
            actual[g.second] += 1.0 - g.score_first;
            first_expected += e;
            first_actual += g.score_first;
        }
        for k in 0..3 {
            assert!(
                (expected[k] - actual[k]).abs() < 1e-6,
                "{expected:?} {actual:?}"
            );
        }
        assert!((first_expected - first_actual).abs() < 1e-6);
    }

    #[test]
    fn a_fixed_zero_is_the_fit_without_colours() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let games = simulate_pairings_first_move(
            &mut rng,
            &[0.0, 100.0, 250.0],
            &ladder_pairings(3),
            20,
            0.3,
            40.0,
        );
        let plain = fit_ratings(&games, 3, &FitOptions::default()).unwrap();
        let zero = FitOptions {
            first_move: FirstMove::Fixed(0.0),
            ..FitOptions::default()
        };
        assert_eq!(fit_ratings(&games, 3, &zero).unwrap(), plain);
        assert_eq!(plain.first_move_advantage, 0.0);
        // A tiny fixed advantage goes through the colour-split totals and lands on the same
        // ratings and intervals.
        let tiny = FitOptions {
            first_move: FirstMove::Fixed(1e-9),
            ..FitOptions::default()
        };
        let split = fit_ratings(&games, 3, &tiny).unwrap();
        for k in 0..3 {
            assert!((split.ratings[k] - plain.ratings[k]).abs() < 1e-6);
            assert!((split.robust_std_errors[k] - plain.robust_std_errors[k]).abs() < 1e-6);
        }
        let h0 = honest_intervals(&games, 3, &[0, 1, 2], 0, 0.95).unwrap();
        assert_eq!(h0.first_move, None);
        let h =
            honest_intervals_with(&games, 3, &[0, 1, 2], 0, 0.95, FirstMove::Fixed(1e-9)).unwrap();
        assert!(!h.first_move.unwrap().estimated);
        for (a, b) in h.gaps.iter().zip(&h0.gaps) {
            assert!((a.bound.low.unwrap() - b.bound.low.unwrap()).abs() < 1e-5);
            assert!((a.bound.high.unwrap() - b.bound.high.unwrap()).abs() < 1e-5);
        }
        // A fixed advantage shifts the expected scores: with player 1 first in most games, a
        // positive advantage explains some of its points, lowering its rating.
        let mut tilted: Vec<RatedGame> = sixty_percent();
        tilted.retain(|g| g.first == 1 || g.pair_id % 2 == 0);
        let w = FitOptions {
            first_move: FirstMove::Fixed(50.0),
            ..FitOptions::default()
        };
        let with = fit_ratings(&tilted, 2, &w).unwrap();
        let without = fit_ratings(&tilted, 2, &FitOptions::default()).unwrap();
        assert!(with.ratings[1] < without.ratings[1] - 10.0);
        assert_eq!(with.first_move_advantage, 50.0);
    }

    #[test]
    fn one_side_scoring_everything_has_no_finite_advantage() {
        // The first mover wins every game; each player wins half their games.
        let games: Vec<RatedGame> = (0..10)
            .flat_map(|k| [game(k, 0, 1, 1.0), game(k, 1, 0, 1.0)])
            .collect();
        assert_eq!(
            fit_ratings(&games, 2, &auto()).unwrap_err(),
            RatingError::NoFiniteFirstMove
        );
        let bad = FitOptions {
            first_move: FirstMove::Fixed(f64::NAN),
            ..FitOptions::default()
        };
        assert!(matches!(
            fit_ratings(&games, 2, &bad),
            Err(RatingError::BadFirstMove(_))
        ));
    }

    #[test]
    fn the_setting_reads_and_writes_as_flags_and_files_give_it() {
        assert_eq!("auto".parse::<FirstMove>(), Ok(FirstMove::Auto));
        assert_eq!(" AUTO ".parse::<FirstMove>(), Ok(FirstMove::Auto));
        assert_eq!("-23.5".parse::<FirstMove>(), Ok(FirstMove::Fixed(-23.5)));
        for w in [
            FirstMove::Auto,
            FirstMove::Fixed(0.0),
            FirstMove::Fixed(-48.2),
        ] {
            assert_eq!(w.to_string().parse::<FirstMove>(), Ok(w));
        }
        for bad in ["", "sideways", "inf", "NaN"] {
            let err = bad.parse::<FirstMove>().unwrap_err();
            assert!(err.contains("expected auto or a number of Elo"), "{err}");
        }
        assert!(FirstMove::Fixed(0.0).ignores_colours());
        assert!(!FirstMove::Auto.ignores_colours() && !FirstMove::Fixed(1.0).ignores_colours());
    }
}
