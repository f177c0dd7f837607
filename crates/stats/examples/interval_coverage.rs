//! Measures the coverage of neighbour-gap intervals on simulated ladders, for three methods on
//! the same ladders: the honest intervals (profile likelihood, exact bounds after perfect
//! scores), a Wald interval on the pair-clustered sandwich standard error, and the percentile
//! bootstrap as the arena's ladder runs it (200 replicates, a prior of one draw per pairing when
//! a rating is infinite or more than 5% of resamples fail).
//!
//! ```text
//! cargo run --profile test -p chuhan-stats --example interval_coverage -- [mixed|old] [FIRST_SEED] [LADDERS]
//! ```
//!
//! `mixed` is the design of `tests/coverage.rs` (4-6 players, half the gaps 0-300 Elo and half
//! 400-800, 6-40 game pairs per pairing, draw rates 0.1-0.5); `old` the bootstrap coverage test
//! of `ratings::bootstrap` (5 players 150 Elo apart, 40 pairs per pairing, draw rate 0.3).

use chuhan_stats::ratings::{
    bootstrap_intervals, fit_ratings, honest_intervals, BoundMethod, FitOptions, Prior,
};
use chuhan_stats::sim::simulate_ladder;
use chuhan_stats::Z95;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The ladder of `tests/coverage.rs` for `seed`.
fn mixed_ladder(seed: u64) -> (Vec<f64>, Vec<chuhan_stats::ratings::RatedGame>, usize) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let players = rng.gen_range(4..=6);
    let mut truth = vec![0.0];
    for _ in 1..players {
        let gap = if rng.gen_bool(0.5) {
            rng.gen_range(0.0..300.0)
        } else {
            rng.gen_range(400.0..800.0)
        };
        truth.push(truth.last().unwrap() + gap);
    }
    let pairs = [6, 10, 20, 40][rng.gen_range(0..4)];
    let draw_base = [0.1, 0.3, 0.5][rng.gen_range(0..3)];
    let games = simulate_ladder(&mut rng, &truth, pairs, draw_base);
    (truth, games, pairs)
}

fn rate(hits: u32, trials: u32) -> String {
    format!(
        "{hits}/{trials} = {:.4}",
        f64::from(hits) / f64::from(trials.max(1))
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let design = args.get(1).map_or("mixed", String::as_str);
    let first: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let ladders: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let (mut honest2, mut honest1, mut wald, mut boot) =
        ([0u32; 2], [0u32; 2], [0u32; 2], [0u32; 2]);
    let mut honest_by_pairs = [[0u32; 2]; 4];
    let add = |c: &mut [u32; 2], hit: bool| {
        c[0] += u32::from(hit);
        c[1] += 1;
    };
    for seed in first..first + ladders {
        let (truth, games, pairs) = if design == "old" {
            let truth = vec![0.0, 150.0, 300.0, 450.0, 600.0];
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(1000 + seed);
            let games = simulate_ladder(&mut rng, &truth, 40, 0.3);
            (truth, games, 40)
        } else {
            mixed_ladder(seed)
        };
        let by_pairs = match pairs {
            6 => 0,
            10 => 1,
            20 => 2,
            _ => 3,
        };
        let n = truth.len();
        let order: Vec<usize> = (0..n).collect();
        let honest = honest_intervals(&games, n, &order, 0, 0.95).expect("valid ladder");
        let mut options = FitOptions::default();
        let fit = fit_ratings(&games, n, &options).ok();
        if fit.is_none() {
            options.prior = Prior::DrawsPerPairing(1.0);
        }
        let mut b =
            bootstrap_intervals(&games, n, &options, seed, 200, &order, 0.95).expect("bootstrap");
        if b.failed * 20 > 200 && options.prior == Prior::None {
            let with_prior = FitOptions {
                prior: Prior::DrawsPerPairing(1.0),
                ..options
            };
            b = bootstrap_intervals(&games, n, &with_prior, seed, 200, &order, 0.95)
                .expect("bootstrap");
        }
        for (k, gap) in honest.gaps.iter().enumerate() {
            let true_gap = truth[k + 1] - truth[k];
            if gap.method != BoundMethod::ProfileLikelihood {
                add(&mut honest1, gap.bound.contains(true_gap));
                continue;
            }
            // The other methods are scored on the gaps reported two-sided.
            add(&mut honest2, gap.bound.contains(true_gap));
            add(&mut honest_by_pairs[by_pairs], gap.bound.contains(true_gap));
            add(&mut boot, b.gaps[k].contains(true_gap));
            if let Some(f) = &fit {
                let se = f.robust_difference_std_error(k, k + 1).unwrap();
                let d = f.difference(k, k + 1).unwrap();
                add(&mut wald, (d - true_gap).abs() <= Z95 * se);
            }
        }
    }
    println!("{design} ladders, seeds {first}..{}:", first + ladders);
    println!(
        "  honest two-sided (profile likelihood): {}",
        rate(honest2[0], honest2[1])
    );
    println!(
        "  honest one-sided (exact, perfect/zero scores): {}",
        rate(honest1[0], honest1[1])
    );
    for (k, pairs) in [6, 10, 20, 40].iter().enumerate() {
        let [h, t] = honest_by_pairs[k];
        if t > 0 {
            println!("    with {pairs} game pairs per pairing: {}", rate(h, t));
        }
    }
    println!(
        "  percentile bootstrap, same gaps: {}",
        rate(boot[0], boot[1])
    );
    println!(
        "  sandwich Wald, same gaps with a finite fit: {}",
        rate(wald[0], wald[1])
    );
}
