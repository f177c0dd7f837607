//! The maximum-likelihood fit: validation of the games, the log-likelihood with its gradient and
//! Hessian, Newton's method, and the model-based and pair-clustered covariances.

use super::graph::{components, strong_groups};
use super::{FirstMove, FitOptions, HeadToHead, Prior, RatedGame, RatingError, RatingFit, C};
use crate::linalg::{expand, invert_spd, mat_mul, reduced, solve_spd};
use crate::wdl::{Pentanomial, Trinomial};
use std::collections::BTreeMap;

/// Head-to-head table: one row per pairing that has games, ordered by `(a, b)`.
pub fn head_to_head(games: &[RatedGame], n_players: usize) -> Result<Vec<HeadToHead>, RatingError> {
    let units = group_units(games, n_players)?;
    let mut table: BTreeMap<(usize, usize), HeadToHead> = BTreeMap::new();
    for unit in &units {
        let row = table.entry((unit.a, unit.b)).or_insert(HeadToHead {
            a: unit.a,
            b: unit.b,
            games: 0,
            record: Trinomial::default(),
            score: 0.0,
            pairs: Pentanomial::new(),
        });
        for &s in &unit.scores_a {
            row.games += 1;
            // Scores were validated by `group_units`.
            let _ = row.record.add_game(s);
        }
        if let [s1, s2] = unit.scores_a[..] {
            let _ = row.pairs.add_pair(s1, s2);
        }
    }
    Ok(table
        .into_values()
        .map(|mut row| {
            row.score = row.record.points() / row.games as f64;
            row
        })
        .collect())
}

/// The games of one pair id, from the lower-indexed player's view.
#[derive(Debug, Clone)]
pub(crate) struct Unit {
    pub(crate) a: usize,
    pub(crate) b: usize,
    pub(crate) scores_a: Vec<f64>,
    /// For each game, whether `a` moved first.
    pub(crate) a_first: Vec<bool>,
}

/// Validates games and groups them by pair id (in increasing id order).
pub(crate) fn group_units(games: &[RatedGame], n_players: usize) -> Result<Vec<Unit>, RatingError> {
    let mut by_id: BTreeMap<u64, Unit> = BTreeMap::new();
    for (index, g) in games.iter().enumerate() {
        for player in [g.first, g.second] {
            if player >= n_players {
                return Err(RatingError::PlayerOutOfRange {
                    game: index,
                    player,
                });
            }
        }
        if g.first == g.second {
            return Err(RatingError::SelfPlay { game: index });
        }
        if ![0.0, 0.5, 1.0].contains(&g.score_first) {
            return Err(RatingError::BadScore {
                game: index,
                score: g.score_first,
            });
        }
        let (a, b, score_a) = if g.first < g.second {
            (g.first, g.second, g.score_first)
        } else {
            (g.second, g.first, 1.0 - g.score_first)
        };
        let unit = by_id.entry(g.pair_id).or_insert(Unit {
            a,
            b,
            scores_a: Vec::new(),
            a_first: Vec::new(),
        });
        if (unit.a, unit.b) != (a, b) {
            return Err(RatingError::MixedPair { pair_id: g.pair_id });
        }
        unit.scores_a.push(score_a);
        unit.a_first.push(g.first == a);
    }
    Ok(by_id.into_values().collect())
}

/// Games and points of one pairing (real games plus prior), or with a first-move term, of the
/// games of one pairing in which one side moved first.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PairTotal {
    pub(crate) a: usize,
    pub(crate) b: usize,
    pub(crate) games: f64,
    pub(crate) score_a: f64,
    /// `1` when `a` moved first in these games, `-1` when `b` did, `0` when colours are not
    /// modelled (or for a prior's virtual games).
    pub(crate) sign: f64,
    /// Elo added to `r[a] - r[b]`: `sign` times the first-move advantage.
    pub(crate) offset: f64,
}

impl PairTotal {
    /// Games without a first-move term.
    pub(crate) fn even(a: usize, b: usize, games: f64, score_a: f64) -> Self {
        Self {
            a,
            b,
            games,
            score_a,
            sign: 0.0,
            offset: 0.0,
        }
    }

    /// `r[a] - r[b]` plus the first-move offset.
    pub(crate) fn difference(&self, r: &[f64]) -> f64 {
        r[self.a] - r[self.b] + self.offset
    }
}

/// The pair units of one pairing, as (games, score of `a`) sums.
#[derive(Debug, Clone)]
pub(crate) struct Pairing {
    pub(crate) a: usize,
    pub(crate) b: usize,
    pub(crate) units: Vec<(f64, f64)>,
    /// For each unit, (games in which `a` moved first, `a`'s score in them).
    pub(crate) first_units: Vec<(f64, f64)>,
}

/// Validated schedule.
#[derive(Debug, Clone)]
pub(crate) struct Prepared {
    pub(crate) n: usize,
    pub(crate) options: FitOptions,
    pub(crate) pairings: Vec<Pairing>,
    /// Whether colours are modelled (any first-move term but a fixed 0).
    pub(crate) split: bool,
    /// The first-move advantage in Elo the totals are made with (when `split`).
    pub(crate) advantage: f64,
}

/// Expected score of `a` over `games` games (`first` of them with `a` moving first) at rating
/// difference `d = r[a] - r[b]`, and its variance as Bernoulli trials; `advantage` is the
/// first-move advantage (`None`: colours not modelled).
pub(crate) fn unit_moments(d: f64, games: f64, first: f64, advantage: Option<f64>) -> (f64, f64) {
    match advantage {
        None => {
            let p = win_probability(d);
            (games * p, games * p * (1.0 - p))
        }
        Some(w) => {
            let (p1, p2) = (win_probability(d + w), win_probability(d - w));
            let second = games - first;
            (
                first * p1 + second * p2,
                first * p1 * (1.0 - p1) + second * p2 * (1.0 - p2),
            )
        }
    }
}

impl Prepared {
    pub(crate) fn new(
        games: &[RatedGame],
        n_players: usize,
        options: &FitOptions,
    ) -> Result<Self, RatingError> {
        if n_players == 0 {
            return Err(RatingError::NoPlayers);
        }
        if options.anchor >= n_players {
            return Err(RatingError::AnchorOutOfRange {
                anchor: options.anchor,
                players: n_players,
            });
        }
        match options.prior {
            Prior::None => {}
            Prior::DrawsPerPairing(k) | Prior::DrawsBetweenNeighbours(k) => {
                if !(k.is_finite() && k >= 0.0) {
                    return Err(RatingError::BadPrior);
                }
            }
        }
        let advantage = match options.first_move {
            FirstMove::Fixed(w) if !w.is_finite() => return Err(RatingError::BadFirstMove(w)),
            FirstMove::Fixed(w) => w,
            FirstMove::Auto => 0.0,
        };
        let mut pairings: BTreeMap<(usize, usize), Pairing> = BTreeMap::new();
        for unit in group_units(games, n_players)? {
            let entry = pairings.entry((unit.a, unit.b)).or_insert(Pairing {
                a: unit.a,
                b: unit.b,
                units: Vec::new(),
                first_units: Vec::new(),
            });
            entry
                .units
                .push((unit.scores_a.len() as f64, unit.scores_a.iter().sum()));
            let (mut first, mut first_score) = (0.0, 0.0);
            for (&s, &f) in unit.scores_a.iter().zip(&unit.a_first) {
                if f {
                    first += 1.0;
                    first_score += s;
                }
            }
            entry.first_units.push((first, first_score));
        }
        Ok(Self {
            n: n_players,
            options: *options,
            pairings: pairings.into_values().collect(),
            split: options.first_move.uses_colours(),
            advantage,
        })
    }

    /// The first-move advantage of the model: `None` when colours are not modelled.
    pub(crate) fn advantage_term(&self) -> Option<f64> {
        self.split.then_some(self.advantage)
    }

    /// Totals of the real games, without any prior.
    pub(crate) fn totals_real(&self) -> Vec<PairTotal> {
        let mut totals = Vec::with_capacity(self.pairings.len());
        for p in &self.pairings {
            let sum = |v: &[(f64, f64)]| v.iter().fold((0.0, 0.0), |(g, s), u| (g + u.0, s + u.1));
            self.push_totals(&mut totals, p, sum(&p.units), sum(&p.first_units));
        }
        totals
    }

    /// Appends the totals of `(games, score of a)` between `p.a` and `p.b`, of which `first`
    /// are the games with `a` moving first: one total, or with colours modelled, one per side
    /// that moved first.
    pub(crate) fn push_totals(
        &self,
        totals: &mut Vec<PairTotal>,
        p: &Pairing,
        (games, score_a): (f64, f64),
        first: (f64, f64),
    ) {
        if !self.split {
            totals.push(PairTotal::even(p.a, p.b, games, score_a));
            return;
        }
        for (sign, g, s) in [
            (1.0, first.0, first.1),
            (-1.0, games - first.0, score_a - first.1),
        ] {
            if g > 0.0 {
                totals.push(PairTotal {
                    sign,
                    offset: sign * self.advantage,
                    ..PairTotal::even(p.a, p.b, g, s)
                });
            }
        }
    }

    /// Totals of the real games plus the prior.
    pub(crate) fn totals_all(&self) -> Vec<PairTotal> {
        self.with_prior(self.totals_real())
    }

    pub(crate) fn with_prior(&self, mut totals: Vec<PairTotal>) -> Vec<PairTotal> {
        match self.options.prior {
            Prior::None => {}
            Prior::DrawsPerPairing(k) => {
                for t in &mut totals {
                    t.games += k;
                    t.score_a += k / 2.0;
                }
            }
            Prior::DrawsBetweenNeighbours(k) => {
                for i in 1..self.n {
                    totals.push(PairTotal::even(i - 1, i, k, k / 2.0));
                }
            }
        }
        totals.retain(|t| t.games > 0.0);
        totals
    }

    /// Checks that finite ratings exist for `totals`.
    pub(crate) fn check(&self, totals: &[PairTotal]) -> Result<(), RatingError> {
        let n = self.n;
        let mut undirected = vec![vec![false; n]; n];
        // scored[i][j]: i scored at least half a point against j.
        let mut scored = vec![vec![false; n]; n];
        for t in totals {
            undirected[t.a][t.b] = true;
            undirected[t.b][t.a] = true;
            if t.score_a > 0.0 {
                scored[t.a][t.b] = true;
            }
            if t.games - t.score_a > 0.0 {
                scored[t.b][t.a] = true;
            }
        }
        let components = components(&undirected);
        if components.len() > 1 {
            return Err(RatingError::Disconnected { components });
        }
        let groups = strong_groups(&scored);
        if groups.len() > 1 {
            let (perfect, zero) = self.extreme_players();
            return Err(RatingError::NoFiniteRating {
                perfect,
                zero,
                groups,
            });
        }
        Ok(())
    }

    /// Players with a perfect and with a zero score over the real games.
    pub(crate) fn extreme_players(&self) -> (Vec<usize>, Vec<usize>) {
        let mut games = vec![0.0; self.n];
        let mut points = vec![0.0; self.n];
        for p in &self.pairings {
            for &(g, s) in &p.units {
                games[p.a] += g;
                games[p.b] += g;
                points[p.a] += s;
                points[p.b] += g - s;
            }
        }
        let perfect = (0..self.n)
            .filter(|&i| games[i] > 0.0 && points[i] == games[i])
            .collect();
        let zero = (0..self.n)
            .filter(|&i| games[i] > 0.0 && points[i] == 0.0)
            .collect();
        (perfect, zero)
    }

    /// Full fit with covariances and diagnostics.
    pub(crate) fn fit(&self, totals: &[PairTotal]) -> Result<RatingFit, RatingError> {
        self.check(totals)?;
        let (ratings, iterations) = self.newton(totals)?;
        let n = self.n;
        let anchor = self.options.anchor;
        let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
        let neg_h = reduced(&neg_hessian(n, totals, &ratings), &free);
        let inv = invert_spd(&neg_h).ok_or(RatingError::NotConverged { iterations })?;
        let covariance = expand(&inv, &free, n);

        // Meat of the sandwich: one score-residual vector per game pair.
        let mut meat = vec![vec![0.0; n]; n];
        for p in &self.pairings {
            let d = ratings[p.a] - ratings[p.b];
            for (&(g, s), &(first, _)) in p.units.iter().zip(&p.first_units) {
                let e = C * (s - unit_moments(d, g, first, self.advantage_term()).0);
                meat[p.a][p.a] += e * e;
                meat[p.b][p.b] += e * e;
                meat[p.a][p.b] -= e * e;
                meat[p.b][p.a] -= e * e;
            }
        }
        let meat = reduced(&meat, &free);
        let robust = expand(&mat_mul(&mat_mul(&inv, &meat), &inv), &free, n);

        let diag_sqrt = |m: &[Vec<f64>]| (0..n).map(|i| m[i][i].max(0.0).sqrt()).collect();
        let std_errors = diag_sqrt(&covariance);
        let robust_std_errors = diag_sqrt(&robust);
        let (perfect_score, zero_score) = self.extreme_players();
        let (disconnected_groups, separated_groups) = match self.check(&self.totals_real()) {
            Err(RatingError::Disconnected { components }) => (components, Vec::new()),
            Err(RatingError::NoFiniteRating { groups, .. }) => (Vec::new(), groups),
            _ => (Vec::new(), Vec::new()),
        };
        Ok(RatingFit {
            log_likelihood: log_likelihood(totals, &ratings),
            ratings,
            anchor,
            covariance,
            robust_covariance: robust,
            std_errors,
            robust_std_errors,
            iterations,
            perfect_score,
            zero_score,
            disconnected_groups,
            separated_groups,
            first_move_advantage: self.advantage_term().unwrap_or(0.0),
        })
    }

    /// Ratings only (for bootstrap replicates).
    pub(crate) fn fit_ratings_only(&self, totals: &[PairTotal]) -> Result<Vec<f64>, RatingError> {
        self.check(totals)?;
        Ok(self.newton(totals)?.0)
    }

    /// Newton's method with step halving, from all ratings 0.
    pub(crate) fn newton(&self, totals: &[PairTotal]) -> Result<(Vec<f64>, usize), RatingError> {
        let n = self.n;
        let anchor = self.options.anchor;
        let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
        let mut r = vec![0.0; n];
        if free.is_empty() {
            return Ok((r, 0));
        }
        let mut ll = log_likelihood(totals, &r);
        for iteration in 1..=self.options.max_iterations {
            let grad = gradient(n, totals, &r);
            let g: Vec<f64> = free.iter().map(|&i| grad[i]).collect();
            let h = reduced(&neg_hessian(n, totals, &r), &free);
            let step = solve_spd(&h, &g).ok_or(RatingError::NotConverged {
                iterations: iteration,
            })?;
            let mut t = 1.0;
            let mut accepted = None;
            for _ in 0..60 {
                let mut trial = r.clone();
                for (&i, d) in free.iter().zip(&step) {
                    trial[i] += t * d;
                }
                let trial_ll = log_likelihood(totals, &trial);
                if trial_ll >= ll - 1e-12 * ll.abs().max(1.0) {
                    accepted = Some((trial, trial_ll));
                    break;
                }
                t *= 0.5;
            }
            let Some((trial, trial_ll)) = accepted else {
                return Err(RatingError::NotConverged {
                    iterations: iteration,
                });
            };
            r = trial;
            ll = trial_ll;
            let largest = step.iter().fold(0.0f64, |m, d| m.max(d.abs()));
            if largest <= self.options.tolerance {
                return Ok((r, iteration));
            }
        }
        Err(RatingError::NotConverged {
            iterations: self.options.max_iterations,
        })
    }
}

/// Logistic expected score of a rating difference `d`.
pub(crate) fn win_probability(d: f64) -> f64 {
    1.0 / (1.0 + (-C * d).exp())
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

/// Log-likelihood of the totals at ratings `r`.
pub(crate) fn log_likelihood(totals: &[PairTotal], r: &[f64]) -> f64 {
    totals
        .iter()
        .map(|t| {
            let x = C * t.difference(r);
            // ln P = -softplus(-x), ln(1 - P) = -softplus(x)
            -t.score_a * softplus(-x) - (t.games - t.score_a) * softplus(x)
        })
        .sum()
}

/// Gradient of the log-likelihood.
pub(crate) fn gradient(n: usize, totals: &[PairTotal], r: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; n];
    for t in totals {
        let e = C * (t.score_a - t.games * win_probability(t.difference(r)));
        g[t.a] += e;
        g[t.b] -= e;
    }
    g
}

/// Negative Hessian of the log-likelihood (the observed information).
pub(crate) fn neg_hessian(n: usize, totals: &[PairTotal], r: &[f64]) -> Vec<Vec<f64>> {
    let mut h = vec![vec![0.0; n]; n];
    for t in totals {
        let p = win_probability(t.difference(r));
        let w = C * C * t.games * p * (1.0 - p);
        h[t.a][t.a] += w;
        h[t.b][t.b] += w;
        h[t.a][t.b] -= w;
        h[t.b][t.a] -= w;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::elo_from_score;
    use crate::ratings::testutil::{game, sixty_percent};
    use crate::ratings::{bootstrap_intervals, fit_ratings};
    use crate::sim::simulate_ladder;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn two_players_sixty_percent() {
        let fit = fit_ratings(&sixty_percent(), 2, &FitOptions::default()).unwrap();
        let expected = elo_from_score(0.6).unwrap();
        assert!((fit.ratings[1] - 70.437).abs() < 1e-3, "{:?}", fit.ratings);
        assert!((fit.ratings[1] - expected).abs() < 1e-8);
        assert_eq!(fit.ratings[0], 0.0);
        // SE = 1 / (C sqrt(n p (1 - p))) = (400 / ln 10) / sqrt(24)
        let se = 400.0 / std::f64::consts::LN_10 / 24f64.sqrt();
        assert!(
            (fit.std_errors[1] - se).abs() < 1e-6,
            "{}",
            fit.std_errors[1]
        );
        // Pairs are 25 WW, 10 DD, 15 LL: pair residuals 0.8, -0.2, -1.2 points, so the
        // pair-clustered variance is (25 * 0.64 + 10 * 0.04 + 15 * 1.44) / 24^2 / C^2.
        let robust = 38f64.sqrt() / 24.0 / C;
        assert!(
            (fit.robust_std_errors[1] - robust).abs() < 1e-6,
            "{}",
            fit.robust_std_errors[1]
        );
        assert!(fit.iterations < 10);
        assert!(fit.perfect_score.is_empty() && fit.separated_groups.is_empty());
    }

    #[test]
    fn head_to_head_counts() {
        let table = head_to_head(&sixty_percent(), 2).unwrap();
        assert_eq!(table.len(), 1);
        let row = table[0];
        assert_eq!((row.a, row.b, row.games), (0, 1, 100));
        assert_eq!(row.record, Trinomial::new(50, 20, 30));
        assert!((row.score - 0.4).abs() < 1e-12);
        assert_eq!(row.pairs.total(), 50);
        assert_eq!(row.pairs.to_trinomial(), Some(row.record));
    }

    #[test]
    fn perfect_score_is_reported() {
        // 0 and 1 trade results; 2 beats both every time.
        let mut games = vec![
            game(0, 0, 1, 1.0),
            game(0, 1, 0, 1.0),
            game(1, 0, 1, 0.5),
            game(1, 1, 0, 0.5),
        ];
        for k in 0..4usize {
            games.push(game(10 + k as u64, 2, k % 2, 1.0));
            games.push(game(10 + k as u64, k % 2, 2, 0.0));
        }
        let err = fit_ratings(&games, 3, &FitOptions::default()).unwrap_err();
        assert_eq!(
            err,
            RatingError::NoFiniteRating {
                perfect: vec![2],
                zero: vec![],
                groups: vec![vec![2], vec![0, 1]],
            }
        );
        assert!(err.to_string().contains("[2]"));

        for prior in [
            Prior::DrawsPerPairing(2.0),
            Prior::DrawsBetweenNeighbours(2.0),
        ] {
            let options = FitOptions {
                prior,
                ..FitOptions::default()
            };
            let fit = fit_ratings(&games, 3, &options).unwrap();
            assert!(fit.ratings.iter().all(|r| r.is_finite()));
            assert!(fit.ratings[2] > 150.0, "{:?}", fit.ratings);
            assert_eq!(fit.perfect_score, vec![2]);
            assert_eq!(fit.separated_groups, vec![vec![2], vec![0, 1]]);
        }
    }

    #[test]
    fn group_separation_without_extreme_players_is_reported() {
        // {0,1} beat {2,3} always; inside each group results are mixed.
        let mut games = Vec::new();
        let mut id = 0;
        for (a, b) in [(0, 1), (2, 3)] {
            games.push(game(id, a, b, 1.0));
            games.push(game(id, b, a, 1.0));
            id += 1;
        }
        for (a, b) in [(0, 2), (1, 3)] {
            games.push(game(id, a, b, 1.0));
            id += 1;
        }
        let err = fit_ratings(&games, 4, &FitOptions::default()).unwrap_err();
        assert_eq!(
            err,
            RatingError::NoFiniteRating {
                perfect: vec![],
                zero: vec![],
                groups: vec![vec![0, 1], vec![2, 3]],
            }
        );
    }

    #[test]
    fn zero_score_is_reported() {
        let games = vec![game(0, 0, 1, 0.5), game(1, 1, 2, 1.0), game(2, 0, 2, 1.0)];
        let err = fit_ratings(&games, 3, &FitOptions::default()).unwrap_err();
        match err {
            RatingError::NoFiniteRating { perfect, zero, .. } => {
                assert!(perfect.is_empty());
                assert_eq!(zero, vec![2]);
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn disconnected_schedule_is_reported() {
        let games = vec![
            game(0, 0, 1, 1.0),
            game(0, 1, 0, 0.5),
            game(1, 2, 3, 0.0),
            game(1, 3, 2, 0.5),
        ];
        let err = fit_ratings(&games, 5, &FitOptions::default()).unwrap_err();
        assert_eq!(
            err,
            RatingError::Disconnected {
                components: vec![vec![0, 1], vec![2, 3], vec![4]],
            }
        );
        assert!(err.to_string().contains("[4]"));
        let per_pairing = FitOptions {
            prior: Prior::DrawsPerPairing(1.0),
            ..FitOptions::default()
        };
        assert!(matches!(
            fit_ratings(&games, 5, &per_pairing),
            Err(RatingError::Disconnected { .. })
        ));
        let neighbours = FitOptions {
            prior: Prior::DrawsBetweenNeighbours(1.0),
            ..FitOptions::default()
        };
        let fit = fit_ratings(&games, 5, &neighbours).unwrap();
        assert!(fit.ratings.iter().all(|r| r.is_finite()));
    }

    #[test]
    fn invalid_input_is_rejected() {
        let opts = FitOptions::default();
        assert_eq!(
            fit_ratings(&[], 0, &opts).unwrap_err(),
            RatingError::NoPlayers
        );
        assert!(matches!(
            fit_ratings(&[game(0, 0, 5, 1.0)], 2, &opts),
            Err(RatingError::PlayerOutOfRange { game: 0, player: 5 })
        ));
        assert!(matches!(
            fit_ratings(&[game(0, 1, 1, 1.0)], 2, &opts),
            Err(RatingError::SelfPlay { game: 0 })
        ));
        assert!(matches!(
            fit_ratings(&[game(0, 0, 1, 0.7)], 2, &opts),
            Err(RatingError::BadScore { game: 0, .. })
        ));
        assert!(matches!(
            fit_ratings(&[game(0, 0, 1, 1.0), game(0, 0, 2, 1.0)], 3, &opts),
            Err(RatingError::MixedPair { pair_id: 0 })
        ));
        let bad_anchor = FitOptions { anchor: 3, ..opts };
        assert!(matches!(
            fit_ratings(&sixty_percent(), 2, &bad_anchor),
            Err(RatingError::AnchorOutOfRange { .. })
        ));
        let bad_prior = FitOptions {
            prior: Prior::DrawsPerPairing(-1.0),
            ..opts
        };
        assert_eq!(
            fit_ratings(&sixty_percent(), 2, &bad_prior).unwrap_err(),
            RatingError::BadPrior
        );
        assert_eq!(
            bootstrap_intervals(&sixty_percent(), 2, &opts, 0, 10, &[0, 2], 0.95).unwrap_err(),
            RatingError::BadOrder
        );
        // A single player is trivially rated.
        let fit = fit_ratings(&[], 1, &opts).unwrap();
        assert_eq!(fit.ratings, vec![0.0]);
    }

    #[test]
    fn anchor_choice_shifts_ratings() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let games = simulate_ladder(&mut rng, &[0.0, 100.0, 200.0], 30, 0.2);
        let a = fit_ratings(&games, 3, &FitOptions::default()).unwrap();
        let b = fit_ratings(
            &games,
            3,
            &FitOptions {
                anchor: 2,
                ..FitOptions::default()
            },
        )
        .unwrap();
        for i in 0..3 {
            assert!((a.ratings[i] - a.ratings[2] - b.ratings[i]).abs() < 1e-7);
        }
        assert!(
            (a.difference_std_error(0, 1).unwrap() - b.difference_std_error(0, 1).unwrap()).abs()
                < 1e-7
        );
    }
}
