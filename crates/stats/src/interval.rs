//! Honest 95% intervals of one match, for Elo and normalised Elo: asymmetric and two-sided
//! wherever the games bound both sides, one-sided after a perfect or zero score, never infinite.
//!
//! fishtest's symmetric half-width (`elo(mu ± 1.96 se)`, [`crate::Estimate::elo_ci95`]) leaves
//! the open interval (0, 1) of scores near 0% or 100% and then reads `± inf`, even when the games
//! clearly bound both sides (43 wins, 1 draw and 2 losses). Here instead:
//!
//! 1. **A perfect or zero score** (every game won, or every game lost; for game pairs every pair
//!    won twice, or lost twice): the games bound one side only. The bound is the ladder's
//!    ([`crate::ratings::honest_intervals`]): the exact Clopper-Pearson bound on the score after
//!    `n` wins in `n` games, `score >= (1 - c)^(1/n)` ([`crate::bound::perfect_score_elo_bound`]),
//!    so `Elo >= elo((1 - c)^(1/n))` (`<= -...` after a zero score). For normalised Elo the same
//!    region of win probabilities `q_W >= (1 - c)^(1/n)` gives `t = (mu - 1/2) / sigma >= (Q -
//!    1/2) / sqrt(Q (1 - Q))` with `Q = (1 - c)^(1/n)`: for a fixed mean a distribution on [0, 1]
//!    has its largest variance on {0, 1}, so the lowest `t` of the region is that of a win-or-loss
//!    game won with probability `Q`.
//! 2. **Otherwise**: the profile-likelihood interval of the multinomial model of the counts
//!    (trinomial games or pentanomial game pairs, zero counts regularised as everywhere in this
//!    crate): all Elo (nElo) values whose constrained maximum-likelihood distribution — the one
//!    fishtest's SPRT computes for a hypothesis ([`crate::Sprt`]) — is within `z^2 / 2` of the
//!    unconstrained log-likelihood, `2 N sum p_i ln(p_i / q_i) <= z^2`, `z = 1.959964`. The model's
//!    scores lie in [0, 1], so the ends map to finite Elo; they are asymmetric where the score is
//!    near 0 or 1, and agree with fishtest's symmetric interval for large balanced samples.
//!
//! Coverage is checked by simulation in the tests below (20-40 games at true Elo from -400 to
//! +400, with and without draws, by games and by pairs).

use crate::bound::{perfect_score_elo_bound, perfect_score_probability_bound, Bound};
use crate::ratings::honest::DISPERSION_PRIOR_DF;
use crate::scale::{regularise, score_from_elo, NELO_PER_NT, Z95};
use crate::sprt::{mle_expected, mle_t_value_from};
use crate::wdl::{Pentanomial, Trinomial, PENTA_SCORES, TRI_SCORES};
use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, StudentsT};

/// Confidence of the intervals of [`MatchInterval`] (two-sided intervals and one-sided bounds).
pub const CONFIDENCE: f64 = 0.95;

/// How a [`MatchInterval`] was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum IntervalMethod {
    /// Two-sided profile-likelihood interval of the counts' multinomial model.
    ProfileLikelihood,
    /// Every one of `games` games was won: exact one-sided lower bounds.
    PerfectScore {
        /// Games played, all won.
        games: u64,
    },
    /// Every one of `games` games was lost: exact one-sided upper bounds.
    ZeroScore {
        /// Games played, all lost.
        games: u64,
    },
}

/// The honest intervals of one match at [`CONFIDENCE`]: Elo and normalised Elo.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MatchInterval {
    /// Interval of the Elo difference.
    pub elo: Bound,
    /// Interval of the normalised Elo.
    pub nelo: Bound,
    /// How both were made.
    pub method: IntervalMethod,
}

impl MatchInterval {
    /// The intervals of game counts; `None` with no games.
    pub fn from_trinomial(t: &Trinomial) -> Option<Self> {
        let counts = t.counts();
        Self::from_counts(&TRI_SCORES, &counts, 1.0, t.total())
    }

    /// The intervals of game-pair counts; `None` with no pairs.
    pub fn from_pentanomial(p: &Pentanomial) -> Option<Self> {
        Self::from_counts(
            &PENTA_SCORES,
            &p.counts,
            std::f64::consts::SQRT_2,
            p.games(),
        )
    }

    /// `t_scale` converts per-game normalised t into the t of one counting unit (sqrt 2 for
    /// pairs).
    fn from_counts<const K: usize>(
        a: &[f64; K],
        counts: &[u64; K],
        t_scale: f64,
        games: u64,
    ) -> Option<Self> {
        let total: u64 = counts.iter().sum();
        if total == 0 {
            return None;
        }
        if counts[K - 1] == total {
            let (elo, nelo) = perfect_score_bounds(games)?;
            return Some(Self {
                elo: Bound::at_least(elo),
                nelo: Bound::at_least(nelo),
                method: IntervalMethod::PerfectScore { games },
            });
        }
        if counts[0] == total {
            let (elo, nelo) = perfect_score_bounds(games)?;
            return Some(Self {
                elo: Bound::at_most(-elo),
                nelo: Bound::at_most(-nelo),
                method: IntervalMethod::ZeroScore { games },
            });
        }
        let (n, p) = regularise(counts);
        let (mu, var) = crate::scale::mean_var(a, &p);
        let limit = critical_value(total).powi(2);
        // 2 N KL(p || q): the likelihood-ratio statistic of the constrained distribution q.
        let statistic = |q: Option<Vec<f64>>| -> Option<f64> {
            let q = q?;
            let kl: f64 = p.iter().zip(&q).map(|(pi, qi)| pi * (pi / qi).ln()).sum();
            let s = 2.0 * n * kl;
            (s.is_finite() && s >= -1e-9).then_some(s)
        };
        let elo_hat = crate::scale::elo_from_score(mu)?;
        let elo = profile_bound(elo_hat, 10.0, MAX_REACH, limit, |elo| {
            statistic(mle_expected(a, &p, score_from_elo(elo)))
        });
        let nelo_hat = (mu - 0.5) / (t_scale * var.sqrt()) * NELO_PER_NT;
        // The constrained fit of a t-value is iterated from the fit of a nearby one (fishtest's
        // uniform start fails for a large |t|): each side walks out from the estimate.
        let fit_t = |nelo: f64, start: &[f64]| -> Option<(f64, Vec<f64>)> {
            let t = nelo / NELO_PER_NT * t_scale;
            let q = mle_t_value_from(a, &p, t, start.to_vec())?;
            // The iteration must have met its constraint; otherwise the value is unreachable.
            let (m, v) = crate::scale::mean_var(a, &q);
            if ((m - 0.5) / v.sqrt() - t).abs() > 1e-6 * t.abs().max(1.0) {
                return None;
            }
            Some((statistic(Some(q.clone()))?, q))
        };
        let nelo = Bound {
            low: walk_out(nelo_hat, -1.0, limit, &p, &fit_t),
            high: walk_out(nelo_hat, 1.0, limit, &p, &fit_t),
        };
        Some(Self {
            elo,
            nelo,
            method: IntervalMethod::ProfileLikelihood,
        })
    }

    /// Whether both intervals are two-sided.
    pub fn is_two_sided(&self) -> bool {
        self.elo.is_two_sided() && self.nelo.is_two_sided()
    }
}

/// How far (Elo or nElo) from the estimate an interval's end is searched; beyond it a side is
/// reported open (never reached by counts that are not a perfect or zero score).
const MAX_REACH: f64 = 6000.0;

/// The two-sided 95% critical value for `units` counting units (games, or pairs): Student's t
/// on `units - 1` degrees of freedom plus the ladder's [`DISPERSION_PRIOR_DF`], as the ladder's
/// profile intervals use it. With a handful of games the plain normal value under-covers (the
/// counts are few and discrete); from a few hundred on the two agree to the second decimal.
fn critical_value(units: u64) -> f64 {
    let df = units.saturating_sub(1) as f64 + DISPERSION_PRIOR_DF;
    StudentsT::new(0.0, 1.0, df).map_or(Z95, |t| t.inverse_cdf(0.5 + CONFIDENCE / 2.0))
}

/// The one-sided bounds after a perfect score of `games` games: `(Elo, nElo)` lower bounds.
fn perfect_score_bounds(games: u64) -> Option<(f64, f64)> {
    let elo = perfect_score_elo_bound(games, CONFIDENCE)?;
    let q = perfect_score_probability_bound(games, CONFIDENCE)?;
    let nelo = (q - 0.5) / (q * (1.0 - q)).sqrt() * NELO_PER_NT;
    Some((elo, nelo))
}

/// The interval `{x : statistic(x) <= limit}` around `hat` (where the statistic is 0), each end
/// found by doubling steps from `step` and then bisection; a value the statistic cannot reach
/// (`None`) counts as beyond the limit. A side not reached within `reach` of `hat` stays open.
fn profile_bound(
    hat: f64,
    step: f64,
    reach: f64,
    limit: f64,
    statistic: impl Fn(f64) -> Option<f64>,
) -> Bound {
    let outside = |x: f64| statistic(x).map_or(true, |s| s > limit);
    let end = |sign: f64| -> Option<f64> {
        let (mut inside, mut d) = (0.0, step);
        loop {
            if outside(hat + sign * d) {
                break;
            }
            if d >= reach {
                return None;
            }
            inside = d;
            d = (2.0 * d).min(reach);
        }
        let (mut lo, mut hi) = (inside, d);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if hi - lo <= 1e-4 {
                break;
            }
            if outside(hat + sign * mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Some(hat + sign * 0.5 * (lo + hi))
    };
    Bound {
        low: end(-1.0),
        high: end(1.0),
    }
}

/// Largest step of [`walk_out`], in nElo: small enough that the fit of the last point is a
/// start from which the next one converges.
const WALK_STEP: f64 = 15.0;

/// The end on side `sign` of `{x : statistic(x) <= limit}` for a statistic whose fit at `x`
/// starts from the fit of a nearby point (`fit(x, start)` gives the statistic and the fit): a walk
/// out from `hat` (fit `start`) in steps of at most [`WALK_STEP`], then bisection between the
/// last point inside and the first outside. A point whose fit fails counts as outside; a side not
/// reached within [`MAX_REACH`] stays open.
fn walk_out(
    hat: f64,
    sign: f64,
    limit: f64,
    start: &[f64],
    fit: &impl Fn(f64, &[f64]) -> Option<(f64, Vec<f64>)>,
) -> Option<f64> {
    let (mut inside, mut q) = (0.0, start.to_vec());
    let mut step = 1.0;
    let mut outside = loop {
        let d = inside + step;
        if d > MAX_REACH {
            return None;
        }
        match fit(hat + sign * d, &q) {
            Some((s, next)) if s <= limit => {
                inside = d;
                q = next;
                // Far out the fit changes slowly: steps grow with the distance walked.
                step = (2.0 * step).min(WALK_STEP.max(inside / 4.0));
            }
            Some(_) => break d,
            // A long step may leave the iteration's reach: shorten it before giving up.
            None if step > WALK_STEP => step /= 4.0,
            None => break d,
        }
    };
    for _ in 0..60 {
        let mid = 0.5 * (inside + outside);
        if outside - inside <= 1e-4 {
            break;
        }
        match fit(hat + sign * mid, &q) {
            Some((s, next)) if s <= limit => {
                inside = mid;
                q = next;
            }
            _ => outside = mid,
        }
    }
    Some(hat + sign * 0.5 * (inside + outside))
}

/// `+496.2 [+310.5, +805.1]`, `>= +450.3 (perfect score)` or `<= -450.3 (zero score)`: an
/// estimate with its honest interval, `decimals` decimals. After a perfect or zero score the
/// estimate (infinite without the regularisation of zero counts) is left out. A profile interval
/// with an open side (the likelihood falls too slowly to bound it, as for nElo after 9 won pairs
/// and one won-drawn pair) reads `+1532.5 (>= +162.4)`.
pub fn interval_text(
    estimate: f64,
    bound: &Bound,
    method: IntervalMethod,
    decimals: usize,
) -> String {
    match method {
        IntervalMethod::ProfileLikelihood if bound.is_two_sided() => {
            format!("{estimate:+.decimals$} {bound:.decimals$}")
        }
        IntervalMethod::ProfileLikelihood => format!("{estimate:+.decimals$} ({bound:.decimals$})"),
        IntervalMethod::PerfectScore { .. } => format!("{bound:.decimals$} (perfect score)"),
        IntervalMethod::ZeroScore { .. } => format!("{bound:.decimals$} (zero score)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::Estimate;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn tri(l: u64, d: u64, w: u64) -> MatchInterval {
        MatchInterval::from_trinomial(&Trinomial::new(l, d, w)).unwrap()
    }

    #[test]
    fn the_interval_holds_the_estimate() {
        for (l, d, w) in [
            (96, 111, 136),
            (2, 1, 43),
            (43, 1, 2),
            (0, 1, 0),
            (3, 0, 1),
            (0, 9, 1),
        ] {
            let t = Trinomial::new(l, d, w);
            let e = Estimate::from_trinomial(&t).unwrap();
            let i = MatchInterval::from_trinomial(&t).unwrap();
            assert_eq!(i.method, IntervalMethod::ProfileLikelihood);
            assert!(i.is_two_sided(), "{l}-{d}-{w}: {i:?}");
            assert!(i.elo.contains(e.elo), "{l}-{d}-{w}: {} {:?}", e.elo, i.elo);
            assert!(
                i.nelo.contains(e.nelo),
                "{l}-{d}-{w}: {} {:?}",
                e.nelo,
                i.nelo
            );
            assert!(i.elo.width().unwrap() > 0.0 && i.nelo.width().unwrap() > 0.0);
        }
        for counts in [[34, 54, 63, 64, 75], [0, 1, 3, 10, 20], [5, 0, 0, 0, 1]] {
            let p = Pentanomial::from_counts(counts);
            let e = Estimate::from_pentanomial(&p).unwrap();
            let i = MatchInterval::from_pentanomial(&p).unwrap();
            assert!(i.is_two_sided(), "{counts:?}: {i:?}");
            assert!(
                i.elo.contains(e.elo) && i.nelo.contains(e.nelo),
                "{counts:?}"
            );
        }
    }

    /// Many balanced games: the likelihood-ratio interval is fishtest's symmetric one.
    #[test]
    fn large_balanced_samples_agree_with_fishtest() {
        let cases = [
            Estimate::from_trinomial(&Trinomial::new(96, 111, 136))
                .zip(MatchInterval::from_trinomial(&Trinomial::new(96, 111, 136))),
            Estimate::from_trinomial(&Trinomial::new(3602, 6869, 3643)).zip(
                MatchInterval::from_trinomial(&Trinomial::new(3602, 6869, 3643)),
            ),
        ];
        for (k, (e, i)) in cases.into_iter().map(Option::unwrap).enumerate() {
            let tol = if k == 0 { 0.6 } else { 0.02 };
            let (lo, hi) = (i.elo.low.unwrap(), i.elo.high.unwrap());
            assert!(
                (lo - (e.elo - e.elo_ci95)).abs() < tol && (hi - (e.elo + e.elo_ci95)).abs() < tol,
                "{e:?} {i:?}"
            );
            let (lo, hi) = (i.nelo.low.unwrap(), i.nelo.high.unwrap());
            assert!(
                (lo - (e.nelo - e.nelo_ci95)).abs() < 2.0 * tol
                    && (hi - (e.nelo + e.nelo_ci95)).abs() < 2.0 * tol,
                "{e:?} {i:?}"
            );
        }
        // The golden pentanomial: 55.58 ± 27.65 Elo, 57.94 ± 28.28 nElo.
        let i = MatchInterval::from_pentanomial(&Pentanomial::from_counts([34, 54, 63, 64, 75]))
            .unwrap();
        let half = i.elo.half_width().unwrap();
        assert!((half - 27.65).abs() < 0.5, "{i:?}");
        // fastchess's nElo half-width is 1.96 / sqrt(games) in t, without the terms of the
        // observed distribution's shape that the likelihood keeps: about 1 nElo apart here.
        assert!((i.nelo.half_width().unwrap() - 28.28).abs() < 1.5, "{i:?}");
    }

    /// The 43 wins, 1 draw, 2 losses: fishtest reads `496.22 ± inf`.
    #[test]
    fn lopsided_counts_give_a_finite_asymmetric_interval() {
        let e = Estimate::from_trinomial(&Trinomial::new(2, 1, 43)).unwrap();
        assert!(e.elo_ci95.is_infinite());
        let i = tri(2, 1, 43);
        let (lo, hi) = (i.elo.low.unwrap(), i.elo.high.unwrap());
        assert!(lo.is_finite() && hi.is_finite());
        // Asymmetric: the top is further from the estimate than the bottom.
        assert!(hi - e.elo > e.elo - lo, "{i:?}");
        // Wide but sensible: a score of 2.5 points lost in 46 games.
        assert!(
            (250.0..450.0).contains(&lo) && (600.0..1200.0).contains(&hi),
            "{i:?}"
        );
        // The mirror image.
        let m = tri(43, 1, 2);
        assert!((m.elo.low.unwrap() + hi).abs() < 1e-6 && (m.elo.high.unwrap() + lo).abs() < 1e-6);
        assert!(
            (m.nelo.low.unwrap() + i.nelo.high.unwrap()).abs() < 1e-4,
            "{m:?} {i:?}"
        );
        assert_eq!(
            interval_text(e.elo, &i.elo, i.method, 1),
            format!("+496.2 [{lo:+.1}, {hi:+.1}]")
        );
        // Ten draws: symmetric, and about as wide as the symmetric interval of one kind of
        // result (±62; the small-sample critical value makes it a little wider).
        let ten = tri(0, 10, 0);
        let half = ten.elo.high.unwrap();
        assert!((ten.elo.low.unwrap() + half).abs() < 1e-6, "{ten:?}");
        assert!((55.0..90.0).contains(&half), "{ten:?}");
        assert_eq!(
            interval_text(
                10.0,
                &Bound::at_least(2.0),
                IntervalMethod::ProfileLikelihood,
                1
            ),
            "+10.0 (>= +2.0)"
        );
    }

    #[test]
    fn perfect_and_zero_scores_give_the_ladder_s_one_sided_bounds() {
        let wins = tri(0, 0, 4);
        assert_eq!(wins.method, IntervalMethod::PerfectScore { games: 4 });
        assert_eq!(
            wins.elo,
            Bound::at_least(perfect_score_elo_bound(4, 0.95).unwrap())
        );
        assert!(wins.nelo.is_one_sided() && wins.nelo.high.is_none());
        let losses = tri(4, 0, 0);
        assert_eq!(losses.method, IntervalMethod::ZeroScore { games: 4 });
        assert_eq!(losses.elo, wins.elo.negated());
        assert_eq!(losses.nelo, wins.nelo.negated());
        // 12-0 as in docs/statistics.md: >= +218.9; as six won pairs the same twelve games.
        let twelve = tri(0, 0, 12);
        assert!((twelve.elo.low.unwrap() - 218.9).abs() < 0.05);
        let pairs = MatchInterval::from_pentanomial(&Pentanomial::from_counts([0, 0, 0, 0, 6]));
        assert_eq!(pairs.unwrap().elo, twelve.elo);
        let lost = MatchInterval::from_pentanomial(&Pentanomial::from_counts([6, 0, 0, 0, 0]));
        assert_eq!(
            lost.unwrap().method,
            IntervalMethod::ZeroScore { games: 12 }
        );
        assert_eq!(
            interval_text(0.0, &twelve.elo, twelve.method, 1),
            ">= +218.9 (perfect score)"
        );
        assert_eq!(
            interval_text(0.0, &losses.elo, losses.method, 0),
            format!(
                "<= {:+.0} (zero score)",
                -perfect_score_elo_bound(4, 0.95).unwrap()
            )
        );
    }

    /// The nElo bound after a perfect score is the lowest `(mu - 1/2) / sigma` among trinomial
    /// distributions whose win probability is at least `Q`: checked on a grid.
    #[test]
    fn perfect_score_nelo_bound_is_the_least_t_of_the_region() {
        for games in [1, 3, 4, 5, 12, 40] {
            let q = perfect_score_probability_bound(games, 0.95).unwrap();
            let (_, nelo) = perfect_score_bounds(games).unwrap();
            let mut least = f64::INFINITY;
            let steps = 400;
            for i in 0..=steps {
                let w = q + (1.0 - q) * i as f64 / steps as f64;
                for j in 0..=steps {
                    let l = (1.0 - w) * j as f64 / steps as f64;
                    let d = 1.0 - w - l;
                    let mu = w + 0.5 * d;
                    let var = w + 0.25 * d - mu * mu;
                    if var > 1e-12 {
                        least = least.min((mu - 0.5) / var.sqrt() * NELO_PER_NT);
                    }
                }
            }
            assert!(
                (least - nelo).abs() < 1e-6,
                "{games}: grid {least} vs {nelo}"
            );
        }
    }

    /// A draw of `games` games (or `games / 2` pairs of independent games) at true Elo `elo`
    /// with draw probability `draw` (limited to what the score allows).
    fn outcome_probabilities(elo: f64, draw: f64) -> [f64; 3] {
        let s = score_from_elo(elo);
        let d = draw.min(2.0 * s.min(1.0 - s) * 0.9);
        [1.0 - s - d / 2.0, d, s - d / 2.0]
    }

    fn draw_outcome(rng: &mut Xoshiro256PlusPlus, p: &[f64; 3]) -> usize {
        let u: f64 = rng.gen();
        if u < p[0] {
            0
        } else if u < p[0] + p[1] {
            1
        } else {
            2
        }
    }

    /// True per-game nElo of the outcome probabilities `p`. (For pairs of two independent such
    /// games the pair score's variance is half the game's, and nElo divides it by sqrt 2 again:
    /// the same value.)
    fn true_nelo(p: &[f64; 3]) -> f64 {
        let mu = p[1] * 0.5 + p[2];
        let var = p[1] * 0.25 + p[2] - mu * mu;
        (mu - 0.5) / var.sqrt() * NELO_PER_NT
    }

    /// Seeded simulation: small matches (20 and 40 games, by games and by pairs) at true Elo
    /// from -400 to +400, with and without draws; every design's intervals hold the true Elo and
    /// the true nElo at least ~93% of the time (95% nominal; a perfect or zero score counts as
    /// held when its one-sided bound holds the truth).
    #[test]
    fn coverage_of_small_lopsided_matches() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(41);
        let draws = 2000;
        let mut report = Vec::new();
        for &elo in &[-400.0, -200.0, 0.0, 150.0, 400.0] {
            for &draw in &[0.0, 0.3] {
                for &games in &[20u64, 40] {
                    for pairs in [false, true] {
                        let p = outcome_probabilities(elo, draw);
                        let nelo = true_nelo(&p);
                        let (mut held_elo, mut held_nelo, mut one_sided) = (0, 0, 0);
                        for _ in 0..draws {
                            let i = if pairs {
                                let mut counts = [0u64; 5];
                                for _ in 0..games / 2 {
                                    let k = draw_outcome(&mut rng, &p) + draw_outcome(&mut rng, &p);
                                    counts[k] += 1;
                                }
                                MatchInterval::from_pentanomial(&Pentanomial::from_counts(counts))
                            } else {
                                let mut counts = [0u64; 3];
                                for _ in 0..games {
                                    counts[draw_outcome(&mut rng, &p)] += 1;
                                }
                                MatchInterval::from_trinomial(&Trinomial::new(
                                    counts[0], counts[1], counts[2],
                                ))
                            }
                            .unwrap();
                            held_elo += i.elo.contains(elo) as u32;
                            held_nelo += i.nelo.contains(nelo) as u32;
                            one_sided += (!i.is_two_sided()) as u32;

                            assert!(
                                [i.elo.low, i.elo.high, i.nelo.low, i.nelo.high]
                                    .iter()
                                    .flatten()
                                    .all(|x| x.is_finite()),
                                "{i:?}"
                            );
                        }
                        let (ce, cn) = (
                            held_elo as f64 / draws as f64,
                            held_nelo as f64 / draws as f64,
                        );
                        report.push(format!(
                            "elo {elo:+} draw {draw} games {games} pairs {pairs}: \
                             Elo {ce:.3} nElo {cn:.3} one-sided {one_sided}"
                        ));
                        assert!(ce >= 0.93 && cn >= 0.93, "{}", report.join("\n"));
                    }
                }
            }
        }
        eprintln!("{}", report.join("\n"));
    }
}
