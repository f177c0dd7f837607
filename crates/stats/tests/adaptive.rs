//! Adaptive allocation on simulated ladders (issue 13, items 3 and 4): on the same ladder and the
//! same number of game pairs, rounds allocated by `adaptive::plan_round` leave a clearly narrower
//! widest neighbour-gap half-width than the fixed equal schedule; the same rounds with equal
//! shares (the naive allocator) do not pass that check; the allocation is deterministic and does
//! not depend on the order in which a round's games finish; and the honest intervals still cover
//! the truth when the run stops at a precision.
//!
//! The ladder: 6 players with neighbour gaps of 50, 150, 300, 600 and 100 Elo, a draw rate of 0.3
//! between equals, neighbour and next-but-one pairings (9), as in
//! `examples/adaptive_vs_fixed.rs`, which prints the figures side by side.

use chuhan_stats::adaptive::{
    allocate, current_round, equal_shares, plan_round, Budget, RoundPlan, RoundSizes, Schedule,
    StopReason,
};
use chuhan_stats::ratings::{honest_intervals, RatedGame};
use chuhan_stats::sim::{ladder_pairings, simulate_pairings};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const GAPS: [f64; 5] = [50.0, 150.0, 300.0, 600.0, 100.0];
const DRAW: f64 = 0.3;
/// Game pairs of every compared run: 20 per pairing in the fixed schedule.
const PAIRS: u64 = 180;
const SEEDS: u64 = 200;

fn truth_of(gaps: &[f64]) -> Vec<f64> {
    let mut t = vec![0.0];
    for &g in gaps {
        t.push(t.last().unwrap() + g);
    }
    t
}

fn schedule() -> Schedule {
    Schedule {
        players: GAPS.len() + 1,
        pairings: ladder_pairings(GAPS.len() + 1),
        order: (0..=GAPS.len()).collect(),
        anchor: 0,
    }
}

/// Plays `counts[k]` pairs of pairing `k`, pair ids continuing after the games so far (schedule
/// order, as the arena numbers them).
fn play(
    rng: &mut Xoshiro256PlusPlus,
    truth: &[f64],
    s: &Schedule,
    games: &mut Vec<RatedGame>,
    counts: &[u64],
) {
    for (&pairing, &m) in s.pairings.iter().zip(counts) {
        let first = games.len() as u64 / 2;
        games.extend(simulate_pairings(
            rng,
            truth,
            &[pairing],
            m as usize,
            DRAW,
            first,
        ));
    }
}

/// How a run hands out each round's pairs.
#[derive(Clone, Copy, PartialEq)]
enum Allocator {
    Adaptive,
    /// The same round sizes, equal shares: the naive allocator.
    EqualRounds,
    /// The same round sizes, handed out by width alone (`adaptive::allocate`, no ordering
    /// weight).
    WidestOnly,
}

/// A run in rounds to `precision` or `max_pairs`; the plans of every round and the games.
fn run(
    gaps: &[f64],
    seed: u64,
    allocator: Allocator,
    precision: f64,
    max_pairs: u64,
) -> (Vec<RoundPlan>, Vec<RatedGame>) {
    run_sized(
        gaps,
        seed,
        allocator,
        precision,
        max_pairs,
        RoundSizes::default(),
    )
}

/// [`run`] with its own round sizes.
fn run_sized(
    gaps: &[f64],
    seed: u64,
    allocator: Allocator,
    precision: f64,
    max_pairs: u64,
    sizes: RoundSizes,
) -> (Vec<RoundPlan>, Vec<RatedGame>) {
    let s = schedule();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut games = Vec::new();
    let mut plans = Vec::new();
    let budget = Budget::games(2 * max_pairs);
    loop {
        let plan = plan_round(&games, &s, precision, &budget, &sizes).unwrap();
        let counts = match allocator {
            Allocator::Adaptive => plan.pairs.clone(),
            Allocator::EqualRounds => equal_shares(s.pairings.len(), plan.pairs.iter().sum()),
            Allocator::WidestOnly if games.is_empty() => plan.pairs.clone(),
            Allocator::WidestOnly => allocate(&games, &s, plan.pairs.iter().sum()).unwrap(),
        };
        let stop = plan.stop.is_some();
        plans.push(plan);
        if stop {
            return (plans, games);
        }
        play(&mut rng, &truth_of(gaps), &s, &mut games, &counts);
    }
}

/// The widest half-width when a run stops (infinite when a gap is one-sided).
fn widest_at_stop(plans: &[RoundPlan]) -> f64 {
    plans.last().unwrap().widest.unwrap().1
}

/// The fixed schedule: equal shares of `PAIRS` in one go.
fn fixed(gaps: &[f64], seed: u64) -> f64 {
    let s = schedule();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut games = Vec::new();
    play(
        &mut rng,
        &truth_of(gaps),
        &s,
        &mut games,
        &equal_shares(s.pairings.len(), PAIRS),
    );
    let h = honest_intervals(&games, s.players, &s.order, 0, 0.95).unwrap();
    h.widest_gap().unwrap().1
}

/// Comparison of a schedule's widest half-widths with the fixed schedule's, seed by seed.
#[derive(Debug)]
struct Comparison {
    /// Mean over the seeds where both are two-sided of the widest half-width, this schedule's
    /// over the fixed one's.
    ratio_of_means: f64,
    /// Seeds with a one-sided widest gap: this schedule, the fixed one.
    one_sided: (usize, usize),
}

impl Comparison {
    fn new(fixed: &[f64], other: &[f64]) -> Self {
        let both: Vec<(f64, f64)> = fixed
            .iter()
            .zip(other)
            .filter(|(f, o)| f.is_finite() && o.is_finite())
            .map(|(&f, &o)| (f, o))
            .collect();
        let mean = |k: fn(&(f64, f64)) -> f64| both.iter().map(k).sum::<f64>() / both.len() as f64;
        Self {
            ratio_of_means: mean(|x| x.1) / mean(|x| x.0),
            one_sided: (
                other.iter().filter(|x| !x.is_finite()).count(),
                fixed.iter().filter(|x| !x.is_finite()).count(),
            ),
        }
    }

    /// The efficiency claim: at least 20% narrower on average (measured over 200 seeds: 36% narrower with the ordering weight, 43% by width alone, the naive allocator 3% wider), and no
    /// more seeds left one-sided.
    fn clearly_narrower(&self) -> bool {
        self.ratio_of_means <= 0.80 && self.one_sided.0 <= self.one_sided.1
    }
}

#[test]
fn adaptive_rounds_are_clearly_narrower_than_the_fixed_schedule() {
    let mut fixed_widest = Vec::new();
    let mut adaptive_widest = Vec::new();
    let mut naive_widest = Vec::new();
    for seed in 0..SEEDS {
        fixed_widest.push(fixed(&GAPS, seed));
        for (allocator, out) in [
            (Allocator::Adaptive, &mut adaptive_widest),
            (Allocator::EqualRounds, &mut naive_widest),
        ] {
            let (plans, games) = run(&GAPS, seed, allocator, 1e-9, PAIRS);
            assert_eq!(games.len() as u64, 2 * PAIRS);
            assert_eq!(
                plans.last().unwrap().stop,
                Some(StopReason::BudgetExhausted)
            );
            out.push(widest_at_stop(&plans));
        }
    }
    let adaptive = Comparison::new(&fixed_widest, &adaptive_widest);
    let naive = Comparison::new(&fixed_widest, &naive_widest);
    eprintln!("adaptive vs fixed: {adaptive:?}; equal rounds vs fixed: {naive:?}");
    assert!(adaptive.clearly_narrower(), "{adaptive:?}");
    // The check has teeth: the naive allocator in the same rounds is the fixed schedule again.
    assert!(!naive.clearly_narrower(), "{naive:?}");
    assert!(naive.ratio_of_means > 0.95, "{naive:?}");
}

#[test]
fn allocation_is_deterministic_and_ignores_the_finishing_order() {
    let s = schedule();
    for seed in [1, 2, 3] {
        let (plans, games) = run(&GAPS, seed, Allocator::Adaptive, 40.0, 2000);
        let (again, games_again) = run(&GAPS, seed, Allocator::Adaptive, 40.0, 2000);
        assert_eq!(plans, again);
        assert_eq!(games, games_again);
        assert!(plans.len() >= 4, "{} rounds", plans.len());
        // Replay: every round planned again from the games so far in a shuffled order (as they
        // finish at any concurrency) gives the same plan.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(99);
        let mut played = 0;
        for plan in &plans {
            let mut so_far = games[..played].to_vec();
            so_far.shuffle(&mut rng);
            let replay = plan_round(
                &so_far,
                &s,
                40.0,
                &Budget::games(4000),
                &RoundSizes::default(),
            )
            .unwrap();
            assert_eq!(replay.pairs, plan.pairs);
            assert_eq!(replay.stop, plan.stop);
            played += 2 * plan.pairs.iter().sum::<u64>() as usize;
        }
        assert_eq!(played, games.len());
    }
}

#[test]
fn honest_intervals_cover_the_truth_at_an_adaptive_stop() {
    let truth = truth_of(&GAPS);
    let (mut hits, mut trials, mut reached, mut pairs_used) = (0u32, 0u32, 0u32, 0u64);
    for seed in 0..SEEDS {
        let (plans, games) = run(&GAPS, 20_000 + seed, Allocator::Adaptive, 60.0, 4000);
        let last = plans.last().unwrap();
        reached += u32::from(last.stop == Some(StopReason::PrecisionReached));
        pairs_used += games.len() as u64 / 2;
        for gap in &last.honest.gaps {
            trials += 1;
            hits += u32::from(gap.bound.contains(truth[gap.to] - truth[gap.from]));
        }
    }
    let coverage = f64::from(hits) / f64::from(trials);
    eprintln!(
        "adaptive stop at 60 Elo: {reached}/{SEEDS} reached, mean {:.0} game pairs; gap coverage \
         {hits}/{trials} = {coverage:.4}",
        pairs_used as f64 / SEEDS as f64
    );
    assert_eq!(reached as u64, SEEDS);
    assert!(coverage >= 0.93, "coverage {coverage}");
}

#[test]
fn adaptive_rounds_do_no_harm_on_an_even_ladder() {
    // Equal gaps: the fixed schedule is about right already. Width alone does no harm; the
    // ordering weight (with a target of 0, every gap holding 0 is weighted all run long) costs
    // a little width, bounded by the weight.
    let gaps = [100.0; 5];
    let mut f = Vec::new();
    let mut widest_only = Vec::new();
    let mut ordered_first = Vec::new();
    for seed in 0..SEEDS / 2 {
        f.push(fixed(&gaps, 40_000 + seed));
        for (allocator, out) in [
            (Allocator::WidestOnly, &mut widest_only),
            (Allocator::Adaptive, &mut ordered_first),
        ] {
            let (plans, _) = run(&gaps, 40_000 + seed, allocator, 1e-9, PAIRS);
            out.push(widest_at_stop(&plans));
        }
    }
    let plain = Comparison::new(&f, &widest_only);
    let ordered = Comparison::new(&f, &ordered_first);
    eprintln!("even ladder vs fixed: widest only {plain:?}; ordered first {ordered:?}");
    assert!(plain.ratio_of_means <= 1.0, "{plain:?}");
    assert!(ordered.ratio_of_means <= 1.10, "{ordered:?}");
}

/// The games of pair `id` of `pairing`, as a run seeded by pair id would play them.
fn pair_games(truth: &[f64], s: &Schedule, id: u64, pairing: usize) -> Vec<RatedGame> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1_000_000 + id);
    simulate_pairings(&mut rng, truth, &[s.pairings[pairing]], 1, DRAW, id)
}

#[test]
fn current_round_resumes_mid_round_to_the_same_run() {
    let s = schedule();
    let truth = truth_of(&GAPS);
    let (precision, budget, sizes) = (50.0, Budget::games(3000), RoundSizes::default());
    // An uninterrupted run, round by round, games seeded by pair id.
    let mut games = Vec::new();
    let mut rounds = Vec::new();
    loop {
        let round = current_round(&games, &s, precision, &budget, &sizes).unwrap();
        assert_eq!(round.index, rounds.len());
        assert_eq!(round.missing, round.pairs);
        if round.plan.stop.is_some() {
            rounds.push(round);
            break;
        }
        // Games finish in any order.
        for &(id, pairing) in round.pairs.iter().rev() {
            games.extend(pair_games(&truth, &s, id, pairing));
        }
        rounds.push(round);
    }
    assert!(rounds.len() >= 4, "{} rounds", rounds.len());
    assert_eq!(
        rounds.last().unwrap().plan.stop,
        Some(StopReason::PrecisionReached)
    );
    // Interrupted in the middle of round 2 (plus a lone game of an unfinished pair), resumed.
    let stop_id = rounds[2].pairs[rounds[2].pairs.len() / 2].0;
    let mut partial: Vec<RatedGame> = games
        .iter()
        .filter(|g| g.pair_id < stop_id)
        .copied()
        .collect();
    let lone = pair_games(
        &truth,
        &s,
        stop_id,
        rounds[2].pairs[rounds[2].pairs.len() / 2].1,
    );
    partial.push(lone[0]);
    let resumed = current_round(&partial, &s, precision, &budget, &sizes).unwrap();
    assert_eq!(resumed.index, 2);
    assert_eq!(resumed.plan, rounds[2].plan);
    assert_eq!(resumed.pairs, rounds[2].pairs);
    let expected: Vec<(u64, usize)> = rounds[2]
        .pairs
        .iter()
        .filter(|p| p.0 >= stop_id)
        .copied()
        .collect();
    assert_eq!(resumed.missing, expected);
    // Play what is missing (dropping the lone game) and carry on: the same run.
    partial.retain(|g| g.pair_id != stop_id);
    loop {
        let round = current_round(&partial, &s, precision, &budget, &sizes).unwrap();
        if round.plan.stop.is_some() {
            assert_eq!(&round, rounds.last().unwrap());
            break;
        }
        for &(id, pairing) in &round.missing {
            partial.extend(pair_games(&truth, &s, id, pairing));
        }
    }
    let key = |g: &RatedGame| (g.pair_id, g.first);
    partial.sort_by_key(key);
    games.sort_by_key(key);
    assert_eq!(partial, games);
}

/// The mixed design of `tests/coverage.rs` (4-6 players, half the gaps 0-300 Elo and half
/// 400-800, draw rates 0.1-0.5), neighbour and next-but-one pairings, run adaptively to a 100 Elo
/// half-width (measured: 95.3% of 1,211 gaps covered, 300 of 300 runs reached the target with 482
/// game pairs on average; at 50 Elo, 95.4%).
#[test]
fn honest_intervals_cover_the_truth_at_an_adaptive_stop_on_mixed_ladders() {
    let (mut hits, mut trials, mut reached) = (0u32, 0u32, 0u32);
    let ladders = 300;
    for seed in 0..ladders {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let n = rng.gen_range(4..=6);
        let mut truth = vec![0.0];
        for _ in 1..n {
            let gap = if rng.gen_bool(0.5) {
                rng.gen_range(0.0..300.0)
            } else {
                rng.gen_range(400.0..800.0)
            };
            truth.push(truth.last().unwrap() + gap);
        }
        let draw = [0.1, 0.3, 0.5][rng.gen_range(0..3)];
        let s = Schedule {
            players: n,
            pairings: ladder_pairings(n),
            order: (0..n).collect(),
            anchor: 0,
        };
        let mut games = Vec::new();
        let budget = Budget::games(6000);
        let round = loop {
            let round = current_round(&games, &s, 100.0, &budget, &RoundSizes::default()).unwrap();
            if round.plan.stop.is_some() {
                break round;
            }
            for &(id, p) in &round.pairs {
                games.extend(simulate_pairings(
                    &mut rng,
                    &truth,
                    &[s.pairings[p]],
                    1,
                    draw,
                    id,
                ));
            }
        };
        reached += u32::from(round.plan.stop == Some(StopReason::PrecisionReached));
        for g in &round.plan.honest.gaps {
            trials += 1;
            hits += u32::from(g.bound.contains(truth[g.to] - truth[g.from]));
        }
    }
    let coverage = f64::from(hits) / f64::from(trials);
    eprintln!(
        "mixed ladders at a 100 Elo stop: {reached}/{ladders} reached; coverage {hits}/{trials} = \
         {coverage:.4}"
    );
    assert!(reached >= 290, "{reached}");
    assert!(coverage >= 0.93, "coverage {coverage}");
}

/// Gaps whose interval at the stop holds 0 (one-sided or open ones that hold it too).
fn unordered_at_stop(plans: &[RoundPlan]) -> usize {
    let last = plans.last().unwrap();
    last.honest
        .gaps
        .iter()
        .filter(|g| g.bound.contains(0.0))
        .count()
}

#[test]
fn gaps_are_ordered_first_on_a_budget() {
    // A ladder like the default one: large steps and one small one (its second gap), two pairs
    // per pairing in the first round, a target of 150 Elo that 120 game pairs do not reach.
    let gaps = [380.0, 140.0, 570.0, 460.0, 550.0];
    let sizes = RoundSizes {
        first_per_pairing: 2,
        ..RoundSizes::default()
    };
    let (mut ordered_first, mut widest_only) = (0, 0);
    let (mut width_first, mut width_only) = (Vec::new(), Vec::new());
    for seed in 0..SEEDS {
        for (allocator, unordered, widths) in [
            (Allocator::Adaptive, &mut ordered_first, &mut width_first),
            (Allocator::WidestOnly, &mut widest_only, &mut width_only),
        ] {
            let (plans, games) = run_sized(&gaps, 60_000 + seed, allocator, 150.0, 120, sizes);
            assert_eq!(games.len(), 240);
            *unordered += unordered_at_stop(&plans);
            widths.push(widest_at_stop(&plans));
        }
    }
    let c = Comparison::new(&width_only, &width_first);
    eprintln!(
        "default-like ladder, 120 pairs: gaps holding 0 at the stop, ordered first {ordered_first}, \
         widest only {widest_only} (of {}); widest half-width ordered first / widest only {c:?}",
        SEEDS * 5
    );
    assert!(
        ordered_first < widest_only,
        "{ordered_first} vs {widest_only}"
    );
}
