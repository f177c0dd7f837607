//! Adaptive against fixed schedules on simulated ladders: the widest neighbour-gap 95% half-width
//! after the same number of game pairs, and the game pairs needed to reach a precision.
//!
//! ```text
//! cargo run --profile test -p chuhan-stats --example adaptive_vs_fixed -- [SEEDS] [PAIRS] [PRECISION] [next-but-one|anchor]
//! ```
//!
//! The ladder (as in `tests/adaptive.rs`): 6 players with neighbour gaps of 50, 150, 300, 600
//! and 100 Elo, a draw rate of 0.3 between equals, neighbour and next-but-one pairings (9); or,
//! with `anchor`, neighbour pairings plus the weakest player against everyone (9 as well).
//! Defaults: 200 seeds, 180 game pairs (20 per pairing in the fixed schedule), precision 60 Elo.
//! Fixed: equal shares, in one go for the same-budget comparison and in the same rounds as the
//! adaptive run for the games-to-precision one.

use chuhan_stats::adaptive::{equal_shares, plan_round, Budget, RoundSizes, Schedule};
use chuhan_stats::ratings::{honest_intervals, RatedGame};
use chuhan_stats::sim::{ladder_pairings, simulate_pairings};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

const GAPS: [f64; 5] = [50.0, 150.0, 300.0, 600.0, 100.0];
const DRAW: f64 = 0.3;
static ANCHOR: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

fn truth() -> Vec<f64> {
    let mut t = vec![0.0];
    for g in GAPS {
        t.push(t.last().unwrap() + g);
    }
    t
}

/// Neighbour and next-but-one pairings, or with `ANCHOR` set neighbours and player 0 against all.
fn schedule() -> Schedule {
    let n = GAPS.len() + 1;
    let pairings = if ANCHOR.get().copied().unwrap_or(false) {
        let mut p: Vec<(usize, usize)> = (1..n).map(|j| (j - 1, j)).collect();
        p.extend((2..n).map(|j| (0, j)));
        p
    } else {
        ladder_pairings(n)
    };
    Schedule {
        players: n,
        pairings,
        order: (0..=GAPS.len()).collect(),
        anchor: 0,
    }
}

/// Plays `counts[k]` pairs of pairing `k`, pair ids continuing after the games so far.
fn play(rng: &mut Xoshiro256PlusPlus, s: &Schedule, games: &mut Vec<RatedGame>, counts: &[u64]) {
    let truth = truth();
    for (&pairing, &m) in s.pairings.iter().zip(counts) {
        let first = games.len() as u64 / 2;
        games.extend(simulate_pairings(
            rng,
            &truth,
            &[pairing],
            m as usize,
            DRAW,
            first,
        ));
    }
}

/// Runs a ladder in rounds to `precision` or `max_pairs`, adaptively or with equal shares per
/// round; returns the widest half-width at the stop and the pairs played.
fn run(seed: u64, adaptive: bool, precision: f64, max_pairs: u64) -> (f64, u64) {
    let s = schedule();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut games = Vec::new();
    let budget = Budget::games(2 * max_pairs);
    loop {
        let plan = plan_round(&games, &s, precision, &budget, &RoundSizes::default()).unwrap();
        let widest = plan.widest.map_or(f64::INFINITY, |w| w.1);
        if plan.stop.is_some() {
            return (widest, games.len() as u64 / 2);
        }
        let counts = if adaptive {
            plan.pairs.clone()
        } else {
            equal_shares(s.pairings.len(), plan.pairs.iter().sum())
        };
        play(&mut rng, &s, &mut games, &counts);
    }
}

/// The fixed schedule in one go: equal shares of `pairs`.
fn fixed(seed: u64, pairs: u64) -> f64 {
    let s = schedule();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut games = Vec::new();
    play(
        &mut rng,
        &s,
        &mut games,
        &equal_shares(s.pairings.len(), pairs),
    );
    let h = honest_intervals(&games, s.players, &s.order, 0, 0.95).unwrap();
    h.widest_gap().unwrap().1
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// Mean over the finite values, quantiles over all (a one-sided widest gap counts as infinite).
fn summary(name: &str, mut xs: Vec<f64>) {
    xs.sort_by(f64::total_cmp);
    let finite: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
    let mean = finite.iter().sum::<f64>() / finite.len().max(1) as f64;
    let open = xs.len() - finite.len();
    println!(
        "{name:<22} mean {mean:7.1}  p10 {:7.1}  median {:7.1}  p90 {:7.1}{}",
        quantile(&xs, 0.1),
        quantile(&xs, 0.5),
        quantile(&xs, 0.9),
        if open > 0 {
            format!("  (mean over {} seeds; {open} one-sided)", finite.len())
        } else {
            String::new()
        }
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seeds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(200);
    let pairs: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(180);
    let precision: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(60.0);
    let anchor = args.get(4).is_some_and(|d| d == "anchor");
    ANCHOR.set(anchor).expect("set once");
    println!(
        "ladder gaps {GAPS:?} Elo, draw rate {DRAW}, {} pairings, {seeds} seeds, {pairs} game pairs",
        if anchor {
            "neighbour + anchor (player 0 against all)"
        } else {
            "neighbour + next-but-one"
        }
    );
    let mut f = Vec::new();
    let mut a = Vec::new();
    let mut ratio = Vec::new();
    for seed in 0..seeds {
        let x = fixed(seed, pairs);
        let (y, used) = run(seed, true, 1e-9, pairs);
        assert_eq!(used, pairs);
        f.push(x);
        a.push(y);
        if x.is_finite() && y.is_finite() {
            ratio.push((x, y));
        }
    }
    println!("widest neighbour-gap 95% half-width after {pairs} game pairs (Elo):");
    summary("fixed (equal shares)", f);
    summary("adaptive (rounds)", a);
    let m = ratio.len() as f64;
    let mean_ratio = ratio.iter().map(|(x, y)| y / x).sum::<f64>() / m;
    let ratio_of_means =
        ratio.iter().map(|r| r.1).sum::<f64>() / ratio.iter().map(|r| r.0).sum::<f64>();
    println!(
        "adaptive / fixed over the {m} seeds where both are two-sided: ratio of means \
         {ratio_of_means:.3}, mean ratio {mean_ratio:.3}"
    );
    let cap = 20 * pairs;
    let mut fu = Vec::new();
    let mut au = Vec::new();
    let (mut fr, mut ar) = (0, 0);
    for seed in 0..seeds {
        let (w, used) = run(10_000 + seed, false, precision, cap);
        fr += usize::from(w <= precision);
        fu.push(used as f64);
        let (w, used) = run(10_000 + seed, true, precision, cap);
        ar += usize::from(w <= precision);
        au.push(used as f64);
    }
    println!("game pairs to reach a widest half-width of {precision} Elo (cap {cap}):");
    summary("fixed (equal rounds)", fu.clone());
    summary("adaptive (rounds)", au.clone());
    println!("reached: fixed {fr}/{seeds}, adaptive {ar}/{seeds}");
}
