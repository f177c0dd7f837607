//! Adaptive ladders: play in rounds, give each round's game pairs to the pairings that shrink the
//! widest neighbour-gap interval most (an unordered gap counting as twice as wide), and stop when
//! every gap is precise or a budget runs out.
//!
//! A run the arena plays round by round (see [`plan_round`]):
//!
//! 1. From the games so far, compute the honest intervals
//!    ([`crate::ratings::honest_intervals`]); stop when [`precision_reached`] (every neighbour
//!    gap's 95% half-width at most `X` Elo; a one-sided or unbounded gap is never precise) or when
//!    the [`Budget`] is spent.
//! 2. Size the next round ([`RoundSizes::next_round`]): a fixed number of pairs per pairing at the
//!    start, then about the pairs the widest gap still needs to reach `X` (half-widths shrink as
//!    one over the square root of the games), never more than half the pairs played so far and
//!    never fewer than one per pairing.
//! 3. Hand the round's pairs to the pairings ([`allocate`]) and play them.
//!
//! [`current_round`] does all three from the games so far, replaying the earlier rounds so that a
//! resumed run continues the round it was in.
//!
//! **The allocation.** The joint fit's Fisher information is `F = sum over pairings of
//! n_ij w_ij e_ij e_ij^T` (`n_ij` games, `e_ij` the contrast `r_j - r_i`, `w_ij = c^2 p (1 - p)`
//! per game at the estimated gap, `c = ln 10 / 400`), and the variance of neighbour gap `k` is
//! `v_k^T F^-1 v_k`. The estimated gaps come from a fit with one virtual draw on every allowed
//! pairing, so that a pairing with a perfect score, or none yet, has a finite (shrunk) gap and a
//! small but non-zero information per game. The pairs are handed out greedily, one at a time:
//! each goes to the pairing whose pair (`2 w_ij e_ij e_ij^T` more information) lowers the
//! predicted variance of the currently widest gap most (by the Sherman-Morrison formula), and
//! the prediction is updated. A gap's predicted half-width is its measured honest half-width scaled by the ratio of
//! predicted to current variance, so the profile intervals' asymmetry carries over.
//!
//! **Ordered first.** In a run to a precision `X` ([`plan_round`]), a gap whose predicted
//! interval still holds 0 and whose predicted half-width is above `X` counts as twice as wide as
//! it is ([`ORDER_WEIGHT`] on its variance) when the widest gap is chosen. A ladder's first
//! question is whether its steps are in order: a gap of 550 +- 250 Elo is ordered, and narrowing
//! it does not change what the table says, while a gap of 140 +- 190 Elo is not. The weight is
//! finite, so a gap whose true value is near 0 cannot take every pair: it is served until it is
//! half as wide as the widest ordered gap, or within the target, and then competes by width like
//! the others. [`allocate`] (no target) does not weight.
//!
//! A gap whose honest bound is one-sided or unbounded counts as infinitely wide: its own pairing
//! gets pairs first, until under the shrunk estimate the perfect score is more likely broken than
//! not (`p^(2m) <= 1/2` for `m` pairs of two games won with probability `p` each), after which it
//! competes by predicted variance like the others. Only the pairing's own games can break a
//! perfect score, so pairs through other players would not make such a gap two-sided.
//!
//! **Determinism.** The allocation depends only on the games given (grouped by pair id, so not
//! on the order in which they finished), the schedule and the round size; ties go to the lowest
//! pairing index. With the pair ids assigned in schedule order, the same seed gives the same games
//! at any concurrency, and a resumed run recomputes the same round from the games on disk.
//!
//! **What is reported at the stop.** The honest intervals of all games played. Stopping when an
//! interval is narrow enough is a sequential design; in simulation (`tests/adaptive.rs`, 200
//! six-player ladders with gaps of 50 to 600 Elo run to a 60 Elo half-width) the intervals at the
//! stop held the true gap 95.0% of the time (950 of 1,000); on 300 mixed ladders (4-6 players,
//! half the gaps 400-800 Elo) run to 100 Elo, 95.0% (1,150 of 1,211).
//!
//! **Measured gain.** On those ladders, after the same 180 game pairs, the widest half-width is
//! 36% narrower than with equal shares (ratio of the means over the 170 seeds where both are
//! two-sided; the fixed schedule left a gap one-sided in 29 of 200 runs, the adaptive one in
//! 1), and a 60 Elo target takes 702 game pairs on average instead of 2,148
//! (`examples/adaptive_vs_fixed.rs`). Width alone (before the ordering weight) was 43% narrower
//! there; the weight buys order: on a ladder like the default one (steps of 140-570 Elo, 120
//! game pairs, target 150 Elo) 71 of 1,000 gaps still held 0 at the stop against 120 by width
//! alone, for a widest half-width 1% wider (`tests/adaptive.rs`).
//!
//! [`wide_steps`] flags neighbour pairings scored above 95% or below 5% and proposes an in-between
//! knob value.

use crate::elo::score_from_elo;
use crate::linalg::invert_spd;
use crate::ratings::fit::{win_probability, PairTotal, Prepared};
use crate::ratings::{honest_intervals, FitOptions, HonestIntervals, RatedGame, RatingError, C};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod wide;

pub use wide::{wide_steps, WideStep, WIDE_STEP_SCORE};

/// Virtual drawn games added to every allowed pairing for the estimated gaps of the allocation
/// (one draw, as BayesElo's default prior): keeps a perfect score's gap finite.
const VIRTUAL_DRAWS: f64 = 1.0;

/// In a run to a precision, an unordered gap (its predicted interval holds 0, its predicted
/// half-width is above the target) competes with its predicted variance times this: it counts
/// as twice as wide as it is.
pub const ORDER_WEIGHT: f64 = 4.0;

/// The confidence of every interval the adaptive rule looks at.
pub const CONFIDENCE: f64 = 0.95;

/// Why a round could not be planned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
pub enum AdaptiveError {
    /// The order has fewer than two players, so there is no neighbour gap to make precise.
    #[error("the ladder has no neighbour gap (its order names {players} player(s))")]
    NoNeighbours {
        /// Players in the order.
        players: usize,
    },
    /// The schedule has no pairings, so no game can be played.
    #[error("the schedule has no pairings")]
    NoPairings,
    /// A pairing names a player outside `0..players` or the same player twice.
    #[error("pairing {index} ({a}, {b}) is not two different players of the {players}")]
    BadPairing {
        /// Index of the pairing in the schedule.
        index: usize,
        /// Its first player.
        a: usize,
        /// Its second player.
        b: usize,
        /// Number of players.
        players: usize,
    },
    /// A pairing is listed twice.
    #[error("pairing {index} repeats pairing {first}")]
    DuplicatePairing {
        /// Index of the repeat.
        index: usize,
        /// Index of its first occurrence.
        first: usize,
    },
    /// The allowed pairings do not connect all players, so some gaps can never be measured.
    #[error("the pairings are disconnected; groups with no pairing between them: {components:?}")]
    Disconnected {
        /// The connected groups, each sorted, ordered by their smallest player.
        components: Vec<Vec<usize>>,
    },
    /// The precision target is not a positive number of Elo.
    #[error("precision must be a positive number of Elo, not {precision}")]
    BadPrecision {
        /// The value given.
        precision: f64,
    },
    /// The games are invalid (or the fit failed).
    #[error(transparent)]
    Rating(#[from] RatingError),
}

/// Whether every neighbour gap's interval has a half-width of at most `x` Elo: the stopping rule
/// of a ladder run to a precision. A one-sided or unbounded gap is never precise; with no gaps
/// at all it is vacuously true (a schedule without neighbours is rejected before that).
pub fn precision_reached(honest: &HonestIntervals, x: f64) -> bool {
    widest_half_width(honest).map_or(true, |w| w <= x)
}

/// The widest neighbour gap's half-width (infinite when a gap is one-sided or unbounded), or
/// `None` without gaps. See [`HonestIntervals::widest_gap`] for which gap it is.
pub fn widest_half_width(honest: &HonestIntervals) -> Option<f64> {
    honest.widest_gap().map(|(_, w)| w)
}

/// A limit on the games of a run. The arena combines it with its own time limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Budget {
    /// At most this many games in all (counting the games already played); `None`: no limit.
    pub max_games: Option<u64>,
}

impl Budget {
    /// No limit.
    pub fn unlimited() -> Self {
        Self::default()
    }

    /// At most `games` games.
    pub fn games(games: u64) -> Self {
        Self {
            max_games: Some(games),
        }
    }

    /// Game pairs (two games each) still allowed after `played_games`; `None` without a limit.
    pub fn remaining_pairs(&self, played_games: u64) -> Option<u64> {
        self.max_games.map(|m| m.saturating_sub(played_games) / 2)
    }

    /// Whether not even one more game pair fits.
    pub fn exhausted(&self, played_games: u64) -> bool {
        self.remaining_pairs(played_games) == Some(0)
    }
}

/// How big the rounds are.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RoundSizes {
    /// Game pairs per pairing in the first round (all pairings alike: nothing is known yet).
    pub first_per_pairing: u64,
    /// A later round is at most this fraction of the pairs played so far, so that the allocation
    /// is revised often while the estimates are rough.
    pub max_growth: f64,
}

impl Default for RoundSizes {
    fn default() -> Self {
        Self {
            first_per_pairing: 4,
            max_growth: 0.5,
        }
    }
}

impl RoundSizes {
    /// Game pairs of the next round, from the pairs played so far, the number of pairings, the
    /// widest half-width now (infinite when a gap is one-sided) and the target `precision`:
    /// about the pairs that bring the widest gap to the target if half-widths shrink as one over
    /// the square root of the pairs, between one per pairing and `max_growth` times the pairs
    /// played. `remaining` (from [`Budget::remaining_pairs`]) caps it. Depends only on its
    /// arguments.
    pub fn next_round(
        &self,
        played_pairs: u64,
        pairings: usize,
        widest: f64,
        precision: f64,
        remaining: Option<u64>,
    ) -> u64 {
        let pairings = pairings as u64;
        let size = if played_pairs == 0 {
            self.first_per_pairing.max(1) * pairings
        } else {
            let most = ((played_pairs as f64 * self.max_growth).floor() as u64).max(pairings);
            let ratio = widest / precision;
            let needed = if ratio.is_finite() {
                (played_pairs as f64 * (ratio * ratio - 1.0))
                    .ceil()
                    .max(0.0) as u64
            } else {
                most
            };
            needed.clamp(pairings, most)
        };
        remaining.map_or(size, |r| size.min(r))
    }
}

/// The schedule of an adaptive ladder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    /// Number of players, indices `0..players`.
    pub players: usize,
    /// The pairings that may be played (neighbours and anchors), as player index pairs; the
    /// allocation's counts follow this order.
    pub pairings: Vec<(usize, usize)>,
    /// The ladder order, weakest first: the neighbour gaps are `order[k] -> order[k + 1]`.
    pub order: Vec<usize>,
    /// The player whose rating is 0 in the honest intervals.
    pub anchor: usize,
}

/// Why a run stops.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum StopReason {
    /// Every neighbour gap's half-width is at most the target.
    PrecisionReached,
    /// The game budget is spent.
    BudgetExhausted,
}

/// What to do next, from [`plan_round`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundPlan {
    /// The honest intervals of the games so far (for the progress line and the report).
    pub honest: HonestIntervals,
    /// The widest gap (index into `honest.gaps`) and its half-width, infinite when one-sided.
    pub widest: Option<(usize, f64)>,
    /// `Some` when the run stops here.
    pub stop: Option<StopReason>,
    /// Game pairs to play next for each pairing of the schedule (all zero when stopping).
    pub pairs: Vec<u64>,
}

/// One round of a ladder run to `precision` Elo: the honest intervals of `games`, whether to stop
/// (precision first, then budget), and otherwise the next round's pairs per pairing. The arena
/// plays the pairs (pair ids in schedule order), adds the games and calls again; its time limit
/// is its own. Pure: the same games give the same plan.
pub fn plan_round(
    games: &[RatedGame],
    schedule: &Schedule,
    precision: f64,
    budget: &Budget,
    sizes: &RoundSizes,
) -> Result<RoundPlan, AdaptiveError> {
    if !(precision.is_finite() && precision > 0.0) {
        return Err(AdaptiveError::BadPrecision { precision });
    }
    check_schedule(schedule)?;
    let honest = honest_intervals(
        games,
        schedule.players,
        &schedule.order,
        schedule.anchor,
        CONFIDENCE,
    )?;
    let widest = honest.widest_gap();
    let k = schedule.pairings.len();
    let played = games.len() as u64;
    let stop = if precision_reached(&honest, precision) {
        Some(StopReason::PrecisionReached)
    } else if budget.exhausted(played) {
        Some(StopReason::BudgetExhausted)
    } else {
        None
    };
    let pairs = if stop.is_some() {
        vec![0; k]
    } else {
        let played_pairs = distinct_pairs(games);
        let size = sizes.next_round(
            played_pairs,
            k,
            widest.map_or(f64::INFINITY, |w| w.1),
            precision,
            budget.remaining_pairs(played),
        );
        allocate_with(games, schedule, &honest, size, Some(precision))?
    };
    Ok(RoundPlan {
        honest,
        widest,
        stop,
        pairs,
    })
}

/// A round of a run with its pair ids, from [`current_round`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// Rounds before this one (0 for the first).
    pub index: usize,
    /// The plan of this round, made from the games of the rounds before it only.
    pub plan: RoundPlan,
    /// Every game pair of the round as `(pair id, pairing index)`: ids count up from the pairs of
    /// the earlier rounds, pairing by pairing in schedule order. Empty when the plan stops.
    pub pairs: Vec<(u64, usize)>,
    /// The pairs of `pairs` not yet complete (two games) in the games given: what is left to
    /// play of this round.
    pub missing: Vec<(u64, usize)>,
}

/// The round a run is in, replayed from its games: round after round, plan it with
/// [`plan_round`] from the games of the earlier rounds, give its pairs the next ids (see
/// [`Round::pairs`]), and go on while all of them are complete (two games each). The first round
/// not complete (or the stop) is returned, with the pairs it still lacks.
///
/// A run calls this before every round; a resumed run calls it on the games found on disk and
/// plays `missing` (a pair with one game is missing: play it again in full and drop the lone game).
/// Because every round is planned from the earlier rounds only, the games of a run, their pair
/// ids and its stop do not depend on the concurrency, on the order in which games finish or on
/// interruptions. Games whose pair id belongs to no round yet are ignored.
///
/// ```
/// use chuhan_stats::adaptive::{current_round, Budget, RoundSizes, Schedule, StopReason};
/// use chuhan_stats::sim::{ladder_pairings, simulate_pairings};
/// use rand::SeedableRng;
///
/// // Four players 0, 100, 400 and 450 Elo, neighbours and next-but-one neighbours.
/// let truth = [0.0, 100.0, 400.0, 450.0];
/// let schedule = Schedule {
///     players: 4,
///     pairings: ladder_pairings(4),
///     order: vec![0, 1, 2, 3],
///     anchor: 0,
/// };
/// let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
/// let mut games = Vec::new();
/// let budget = Budget::games(4000);
/// let last = loop {
///     let round = current_round(&games, &schedule, 80.0, &budget, &RoundSizes::default()).unwrap();
///     if round.plan.stop.is_some() {
///         break round;
///     }
///     // The progress line: the widest gap and its half-width (infinite while one-sided).
///     let (_gap, _half_width) = round.plan.widest.unwrap();
///     for &(pair_id, pairing) in &round.missing {
///         let p = schedule.pairings[pairing];
///         games.extend(simulate_pairings(&mut rng, &truth, &[p], 1, 0.3, pair_id));
///     }
/// };
/// assert_eq!(last.plan.stop, Some(StopReason::PrecisionReached));
/// assert!(last.plan.honest.gaps.iter().all(|g| g.bound.half_width().unwrap() <= 80.0));
/// ```
pub fn current_round(
    games: &[RatedGame],
    schedule: &Schedule,
    precision: f64,
    budget: &Budget,
    sizes: &RoundSizes,
) -> Result<Round, AdaptiveError> {
    let mut per_id: BTreeMap<u64, usize> = BTreeMap::new();
    for g in games {
        *per_id.entry(g.pair_id).or_default() += 1;
    }
    let complete = |id: &u64| per_id.get(id) == Some(&2);
    let mut next_id = 0u64;
    let mut index = 0;
    loop {
        let earlier: Vec<RatedGame> = games
            .iter()
            .filter(|g| g.pair_id < next_id)
            .copied()
            .collect();
        let plan = plan_round(&earlier, schedule, precision, budget, sizes)?;
        let mut pairs = Vec::new();
        for (pairing, &m) in plan.pairs.iter().enumerate() {
            for _ in 0..m {
                pairs.push((next_id, pairing));
                next_id += 1;
            }
        }
        let missing: Vec<(u64, usize)> = pairs
            .iter()
            .filter(|(id, _)| !complete(id))
            .copied()
            .collect();
        if plan.stop.is_some() || !missing.is_empty() {
            return Ok(Round {
                index,
                plan,
                pairs,
                missing,
            });
        }
        index += 1;
    }
}

/// Game pairs for each of `schedule.pairings` in the next round of `pairs` pairs, chosen to shrink
/// the widest neighbour-gap interval most (see the module documentation). With no games yet every
/// pairing gets an equal share (the remainder to the first pairings).
pub fn allocate(
    games: &[RatedGame],
    schedule: &Schedule,
    pairs: u64,
) -> Result<Vec<u64>, AdaptiveError> {
    check_schedule(schedule)?;
    let honest = honest_intervals(
        games,
        schedule.players,
        &schedule.order,
        schedule.anchor,
        CONFIDENCE,
    )?;
    allocate_with(games, schedule, &honest, pairs, None)
}

/// Equal shares: `pairs / k` each, the remainder one each to the first pairings.
pub fn equal_shares(pairings: usize, pairs: u64) -> Vec<u64> {
    if pairings == 0 {
        return Vec::new();
    }
    let k = pairings as u64;
    (0..k)
        .map(|i| pairs / k + u64::from(i < pairs % k))
        .collect()
}

/// Number of distinct pair ids among the games.
fn distinct_pairs(games: &[RatedGame]) -> u64 {
    let mut ids: Vec<u64> = games.iter().map(|g| g.pair_id).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.len() as u64
}

fn check_schedule(s: &Schedule) -> Result<(), AdaptiveError> {
    let n = s.players;
    if s.order.len() < 2 {
        return Err(AdaptiveError::NoNeighbours {
            players: s.order.len(),
        });
    }
    if s.pairings.is_empty() {
        return Err(AdaptiveError::NoPairings);
    }
    let mut seen: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let mut adj = vec![vec![false; n]; n];
    for (index, &(a, b)) in s.pairings.iter().enumerate() {
        if a >= n || b >= n || a == b {
            return Err(AdaptiveError::BadPairing {
                index,
                a,
                b,
                players: n,
            });
        }
        if let Some(&first) = seen.get(&(a.min(b), a.max(b))) {
            return Err(AdaptiveError::DuplicatePairing { index, first });
        }
        seen.insert((a.min(b), a.max(b)), index);
        adj[a][b] = true;
        adj[b][a] = true;
    }
    let components = crate::ratings::graph_components(&adj);
    if components.len() > 1 {
        return Err(AdaptiveError::Disconnected { components });
    }
    Ok(())
}

/// The allocation proper, given the honest intervals of `games` on `schedule`. With
/// `order_to: Some(x)`, a gap whose predicted interval still holds 0 and is wider than `x` is
/// served before the others (see the module documentation, "Order first").
fn allocate_with(
    games: &[RatedGame],
    schedule: &Schedule,
    honest: &HonestIntervals,
    pairs: u64,
    order_to: Option<f64>,
) -> Result<Vec<u64>, AdaptiveError> {
    let k = schedule.pairings.len();
    if games.is_empty() {
        return Ok(equal_shares(k, pairs));
    }
    let n = schedule.players;
    let options = FitOptions::default();
    let data = Prepared::new(games, n, &options)?;
    let real = data.totals_real();

    // Shrunk ratings: the real games plus one virtual draw on every allowed pairing (connected by
    // `check_schedule`, so the ratings are finite).
    let mut shrunk = real.clone();
    for &(a, b) in &schedule.pairings {
        shrunk.push(PairTotal::even(
            a.min(b),
            a.max(b),
            VIRTUAL_DRAWS,
            VIRTUAL_DRAWS / 2.0,
        ));
    }
    let (r, _) = data.newton(&shrunk)?;
    // Information per game of a pairing at the shrunk gap.
    let per_game = |a: usize, b: usize| {
        let p = win_probability(r[a] - r[b]);
        C * C * p * (1.0 - p)
    };

    // Player 0 carries no variable (gaps are contrasts, so any anchor gives the same variances).
    let dim = n - 1;
    let contrast = |a: usize, b: usize| -> Vec<f64> {
        let mut v = vec![0.0; dim];
        if b > 0 {
            v[b - 1] += 1.0;
        }
        if a > 0 {
            v[a - 1] -= 1.0;
        }
        v
    };
    let mut info = vec![vec![0.0; dim]; dim];
    let add = |info: &mut Vec<Vec<f64>>, u: &[f64], w: f64| {
        for i in 0..dim {
            if u[i] != 0.0 {
                for j in 0..dim {
                    info[i][j] += w * u[i] * u[j];
                }
            }
        }
    };
    for t in &shrunk {
        add(&mut info, &contrast(t.a, t.b), t.games * per_game(t.a, t.b));
    }
    let candidates: Vec<(Vec<f64>, f64)> = schedule
        .pairings
        .iter()
        .map(|&(a, b)| (contrast(a, b), 2.0 * per_game(a, b)))
        .collect();
    let gaps: Vec<Vec<f64>> = schedule
        .order
        .windows(2)
        .map(|w| contrast(w[0], w[1]))
        .collect();
    let quad = |m: &[Vec<f64>], x: &[f64], y: &[f64]| -> f64 {
        (0..dim)
            .map(|i| x[i] * (0..dim).map(|j| m[i][j] * y[j]).sum::<f64>())
            .sum()
    };
    let not_converged = || RatingError::NotConverged { iterations: 0 };
    let mut cov = invert_spd(&info).ok_or_else(not_converged)?;

    // Scale of each gap: measured half-width squared over predicted variance; for a gap without
    // a two-sided interval, the Wald scale z^2 phi of the others' model.
    let wald_scale = crate::Z95 * crate::Z95 * honest.dispersion;
    let scale: Vec<f64> = honest
        .gaps
        .iter()
        .zip(&gaps)
        .map(|(g, v)| match g.bound.half_width() {
            Some(h) if h > 0.0 => h * h / quad(&cov, v, v).max(f64::MIN_POSITIVE),
            _ => wald_scale,
        })
        .collect();
    // Open gaps: their own pairing, and the pairs it gets first this round.
    let mut open_quota: Vec<Option<(usize, u64)>> = honest
        .gaps
        .iter()
        .map(|g| {
            if g.bound.is_two_sided() {
                return None;
            }
            let direct = schedule
                .pairings
                .iter()
                .position(|&(a, b)| (a.min(b), a.max(b)) == (g.from.min(g.to), g.from.max(g.to)))?;
            Some((direct, games_to_break(r[g.to] - r[g.from])))
        })
        .collect();

    let mut counts = vec![0u64; k];
    for _ in 0..pairs {
        // An open gap still owed pairs first (the one with the largest predicted variance).
        let open = (0..gaps.len())
            .filter(|&g| open_quota[g].is_some_and(|(_, q)| q > 0))
            .fold(None, |best: Option<(usize, f64)>, g| {
                let v = quad(&cov, &gaps[g], &gaps[g]);
                match best {
                    Some((_, bv)) if bv >= v => best,
                    _ => Some((g, v)),
                }
            });
        let choice = if let Some((g, _)) = open {
            let (direct, quota) = open_quota[g].expect("filtered on Some");
            open_quota[g] = Some((direct, quota - 1));
            direct
        } else {
            // Predicted squared half-widths; an unordered gap counts as twice as wide.
            let predicted: Vec<f64> = (0..gaps.len())
                .map(|g| scale[g] * quad(&cov, &gaps[g], &gaps[g]))
                .collect();
            let unordered: Vec<bool> = (0..gaps.len())
                .map(|g| {
                    order_to.is_some_and(|x| {
                        predicted[g].sqrt() > x
                            && predicted_holds_zero(&honest.gaps[g], predicted[g].sqrt())
                    })
                })
                .collect();
            let (target, _) = (0..gaps.len())
                .map(|g| {
                    let weight = if unordered[g] { ORDER_WEIGHT } else { 1.0 };
                    (g, weight * predicted[g])
                })
                .fold(
                    (0, f64::NEG_INFINITY),
                    |best, x| {
                        if x.1 > best.1 {
                            x
                        } else {
                            best
                        }
                    },
                );
            let v = &gaps[target];
            let mut best = (0, f64::NEG_INFINITY);
            for (p, (u, w)) in candidates.iter().enumerate() {
                let cu = quad(&cov, v, u);
                let reduction = w * cu * cu / (1.0 + w * quad(&cov, u, u));
                if reduction > best.1 {
                    best = (p, reduction);
                }
            }
            best.0
        };
        counts[choice] += 1;
        let (u, w) = &candidates[choice];
        add(&mut info, u, *w);
        cov = invert_spd(&info).ok_or_else(not_converged)?;
    }
    Ok(counts)
}

/// Whether a two-sided gap's interval, shrunk about its estimate to the predicted half-width
/// `predicted` (each side in proportion, so the profile interval's asymmetry carries over), still
/// holds 0. A gap without a two-sided interval or an estimate is not counted (the open-gap
/// quota serves it).
fn predicted_holds_zero(gap: &crate::ratings::HonestBound, predicted: f64) -> bool {
    let (Some(lo), Some(hi), Some(est)) = (gap.bound.low, gap.bound.high, gap.estimate) else {
        return false;
    };
    let half = (hi - lo) / 2.0;
    if half <= 0.0 {
        return false;
    }
    let s = predicted / half;
    est - (est - lo) * s <= 0.0 && 0.0 <= est + (hi - est) * s
}

/// Game pairs after which a perfect score at (shrunk) gap `gap` is more likely broken than not:
/// the least `m >= 1` with `p^(2m) <= 1/2`, `p` the expected score at `|gap|` (a draw breaks it
/// too, so this is an upper estimate).
fn games_to_break(gap: f64) -> u64 {
    let p = score_from_elo(gap.abs());
    if p >= 1.0 {
        return u64::MAX;
    }
    ((0.5f64.ln() / (2.0 * p.ln())).ceil() as u64).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratings::testutil::game;
    use crate::sim::{ladder_pairings, simulate_pairings};
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn schedule(players: usize) -> Schedule {
        Schedule {
            players,
            pairings: ladder_pairings(players),
            order: (0..players).collect(),
            anchor: 0,
        }
    }

    /// `pairs` pairs in which `winner` beats `loser` twice, ids from `id`.
    pub(super) fn sweep(id: &mut u64, winner: usize, loser: usize, pairs: usize) -> Vec<RatedGame> {
        let mut games = Vec::new();
        for _ in 0..pairs {
            games.push(game(*id, winner, loser, 1.0));
            games.push(game(*id, loser, winner, 0.0));
            *id += 1;
        }
        games
    }

    #[test]
    fn the_first_round_is_shared_equally() {
        let s = schedule(4);
        assert_eq!(s.pairings.len(), 5);
        assert_eq!(allocate(&[], &s, 20).unwrap(), vec![4; 5]);
        assert_eq!(allocate(&[], &s, 7).unwrap(), vec![2, 2, 1, 1, 1]);
        assert_eq!(equal_shares(0, 3), Vec::<u64>::new());
        let plan = plan_round(&[], &s, 30.0, &Budget::unlimited(), &RoundSizes::default()).unwrap();
        assert_eq!(plan.stop, None);
        assert_eq!(plan.pairs, vec![4; 5]);
        assert_eq!(plan.widest, Some((0, f64::INFINITY)));
    }

    /// Three players in a line (pairings 0-1 and 1-2 only, no 0-2) at ratings `truth`, with
    /// `first` simulated pairs of 0-1 and then `second` of 1-2 (draw rate 0.3, ids in order).
    fn line_of_three(
        seed: u64,
        truth: [f64; 3],
        first: usize,
        second: usize,
    ) -> (Schedule, Vec<RatedGame>) {
        let s = Schedule {
            players: 3,
            pairings: vec![(0, 1), (1, 2)],
            order: vec![0, 1, 2],
            anchor: 0,
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut games = simulate_pairings(&mut rng, &truth, &[(0, 1)], first, 0.3, 0);
        games.extend(simulate_pairings(
            &mut rng,
            &truth,
            &[(1, 2)],
            second,
            0.3,
            first as u64,
        ));
        (s, games)
    }

    #[test]
    fn an_unordered_gap_is_served_before_a_wider_ordered_one() {
        // Three players in a line: 0-1 is a small gap (40 Elo) over 12 pairs, its interval holds
        // 0; 1-2 is a large one (500 Elo) over 6 pairs, wider but clearly ordered.
        let (s, games) = line_of_three(5, [0.0, 40.0, 540.0], 12, 6);
        let honest = honest_intervals(&games, 3, &s.order, 0, CONFIDENCE).unwrap();
        let (small, large) = (&honest.gaps[0], &honest.gaps[1]);
        assert!(small.bound.contains(0.0), "{small:?}");
        assert!(!large.bound.contains(0.0), "{large:?}");
        let (hs, hl) = (
            small.bound.half_width().unwrap(),
            large.bound.half_width().unwrap(),
        );
        assert!(hl > hs, "the ordered gap must be the wider: {hl} vs {hs}");
        // Without a target the widest gap decides: its pairing gets the first pairs.
        let plain = allocate(&games, &s, 4).unwrap();
        assert_eq!(plain, vec![0, 4], "{plain:?}");
        // Run to a precision below the small gap's half-width, the unordered gap counts as twice
        // as wide, which is wider than the ordered one: it comes first.
        assert!(2.0 * hs > hl, "{hs} {hl}");
        let ordered = allocate_with(&games, &s, &honest, 4, Some(hs / 2.0)).unwrap();
        assert_eq!(ordered, vec![4, 0], "{ordered:?}");
        // Once the small gap is within the target, width decides again.
        let within = allocate_with(&games, &s, &honest, 4, Some(hs * 1.01)).unwrap();
        assert_eq!(within, plain);
    }

    #[test]
    fn the_wide_gap_gets_the_pairs() {
        // Three players in a line (no 0-2 pairing): the 0-1 gap has 100 pairs, the 1-2 gap 10.
        let (s, games) = line_of_three(3, [0.0, 100.0, 200.0], 100, 10);
        let counts = allocate(&games, &s, 30).unwrap();
        assert_eq!(counts.iter().sum::<u64>(), 30);
        assert_eq!(counts, vec![0, 30], "{counts:?}");
        // With many more pairs to hand out, both get some: the 1-2 gap catches up, then they
        // alternate.
        let counts = allocate(&games, &s, 400).unwrap();
        assert!(counts[0] > 100 && counts[1] > 200, "{counts:?}");
    }

    #[test]
    fn one_sided_gaps_get_games_first() {
        // 0-1 and 0-2 well measured; 2 beat 1 in all 6 pairs: the 1-2 gap is one-sided.
        let s = schedule(3);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let truth = [0.0, 100.0, 500.0];
        let mut games = simulate_pairings(&mut rng, &truth, &[(0, 1), (0, 2)], 60, 0.3, 0);
        let mut id = 1000;
        games.extend(sweep(&mut id, 2, 1, 6));
        let honest = honest_intervals(&games, 3, &[0, 1, 2], 0, 0.95).unwrap();
        assert!(honest.gaps[1].bound.is_one_sided());
        let counts = allocate(&games, &s, 6).unwrap();
        // Pairing index 2 is (1, 2).
        assert_eq!(s.pairings[2], (1, 2));
        assert_eq!(counts, vec![0, 0, 6]);
        // The shrunk gap keeps the quota finite: other pairings get games in a big round.
        let counts = allocate(&games, &s, 200).unwrap();
        assert!(counts[2] >= games_to_break(500.0).min(200), "{counts:?}");
        assert!(counts[2] < 200, "{counts:?}");
    }

    #[test]
    fn quota_to_break_a_perfect_score() {
        assert_eq!(games_to_break(0.0), 1);
        // p = 0.9615 at 552 Elo: 0.9615^18 = 0.49.
        let p = score_from_elo(552.0);
        let m = games_to_break(552.0);
        assert!(
            p.powi(2 * m as i32) <= 0.5 && p.powi(2 * (m as i32 - 1)) > 0.5,
            "{m}"
        );
        assert_eq!(games_to_break(-552.0), m);
    }

    #[test]
    fn allocation_ignores_the_order_of_the_games() {
        let s = schedule(5);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let truth = [0.0, 40.0, 300.0, 350.0, 700.0];
        let games = simulate_pairings(&mut rng, &truth, &s.pairings, 6, 0.3, 0);
        let a = allocate(&games, &s, 50).unwrap();
        let mut reversed = games.clone();
        reversed.reverse();
        assert_eq!(allocate(&reversed, &s, 50).unwrap(), a);
        assert_eq!(a.iter().sum::<u64>(), 50);
    }

    #[test]
    fn bad_schedules_are_rejected() {
        let mut s = schedule(3);
        s.order = vec![1];
        assert_eq!(
            allocate(&[], &s, 4).unwrap_err(),
            AdaptiveError::NoNeighbours { players: 1 }
        );
        let mut s = schedule(3);
        s.pairings.push((2, 2));
        assert!(matches!(
            allocate(&[], &s, 4),
            Err(AdaptiveError::BadPairing { index: 3, .. })
        ));
        let mut s = schedule(3);
        s.pairings.push((1, 0));
        assert_eq!(
            allocate(&[], &s, 4).unwrap_err(),
            AdaptiveError::DuplicatePairing { index: 3, first: 0 }
        );
        let s = Schedule {
            players: 4,
            pairings: vec![(0, 1), (2, 3)],
            order: vec![0, 1, 2, 3],
            anchor: 0,
        };
        assert_eq!(
            allocate(&[], &s, 4).unwrap_err(),
            AdaptiveError::Disconnected {
                components: vec![vec![0, 1], vec![2, 3]]
            }
        );
        let s = Schedule {
            players: 2,
            pairings: vec![],
            order: vec![0, 1],
            anchor: 0,
        };
        assert_eq!(allocate(&[], &s, 4).unwrap_err(), AdaptiveError::NoPairings);
        let s = schedule(3);
        for bad in [0.0, -5.0, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                plan_round(&[], &s, bad, &Budget::unlimited(), &RoundSizes::default()),
                Err(AdaptiveError::BadPrecision { .. })
            ));
        }
        let s = schedule(3);
        assert!(matches!(
            allocate(&[game(0, 0, 5, 1.0)], &s, 4),
            Err(AdaptiveError::Rating(RatingError::PlayerOutOfRange { .. }))
        ));
    }

    #[test]
    fn budgets_count_game_pairs() {
        let b = Budget::games(101);
        assert_eq!(b.remaining_pairs(0), Some(50));
        assert_eq!(b.remaining_pairs(99), Some(1));
        assert!(!b.exhausted(99));
        assert!(b.exhausted(100));
        assert!(b.exhausted(500));
        assert_eq!(Budget::unlimited().remaining_pairs(1000), None);
        assert!(!Budget::unlimited().exhausted(u64::MAX));
    }

    #[test]
    fn round_sizes_follow_the_remaining_precision() {
        let r = RoundSizes::default();
        assert_eq!(r.next_round(0, 9, f64::INFINITY, 30.0, None), 36);
        assert_eq!(r.next_round(0, 9, f64::INFINITY, 30.0, Some(10)), 10);
        // Half-width 60 to 30 needs 4x the pairs: capped at half the pairs played.
        assert_eq!(r.next_round(100, 9, 60.0, 30.0, None), 50);
        assert_eq!(r.next_round(100, 9, f64::INFINITY, 30.0, None), 50);
        // 31 to 30: about 7% more, i.e. 7 pairs, but at least one per pairing.
        assert_eq!(r.next_round(100, 9, 31.0, 30.0, None), 9);
        assert_eq!(r.next_round(100, 5, 31.0, 30.0, None), 7);
        assert_eq!(r.next_round(100, 5, 31.0, 30.0, Some(3)), 3);
    }

    #[test]
    fn plan_round_stops_on_precision_then_budget() {
        let s = schedule(3);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        let games = simulate_pairings(&mut rng, &[0.0, 100.0, 200.0], &s.pairings, 40, 0.3, 0);
        let sizes = RoundSizes::default();
        let plan = plan_round(&games, &s, 1000.0, &Budget::games(240), &sizes).unwrap();
        assert_eq!(plan.stop, Some(StopReason::PrecisionReached));
        assert_eq!(plan.pairs, vec![0; 3]);
        assert!(precision_reached(&plan.honest, 1000.0));
        let w = widest_half_width(&plan.honest).unwrap();
        assert!(w.is_finite() && w > 10.0);
        assert!(!precision_reached(&plan.honest, w - 0.1));
        let plan = plan_round(&games, &s, 1.0, &Budget::games(240), &sizes).unwrap();
        assert_eq!(plan.stop, Some(StopReason::BudgetExhausted));
        let plan = plan_round(&games, &s, 1.0, &Budget::games(250), &sizes).unwrap();
        assert_eq!(plan.stop, None);
        assert_eq!(plan.pairs.iter().sum::<u64>(), 5);
        assert_eq!(plan.widest.unwrap().1, w);
    }
}
