//! Coverage of the honest intervals, by simulation: ladders drawn from known ratings (with
//! neighbour gaps of 400-800 Elo, where perfect scores happen), fitted, and counted.
//!
//! Over 1,000 ladders, the two-sided 95% intervals of neighbour gaps must hold the true gap
//! 95% ± 1.5% of the time (counted over the gaps reported two-sided), and the one-sided bounds
//! (perfect or zero scores) must hold at least 95% of the time.

use chuhan_stats::ratings::{honest_intervals, BoundMethod};
use chuhan_stats::sim::simulate_ladder;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Hits and trials.
#[derive(Default, Debug, Clone, Copy)]
struct Count {
    hits: u32,
    trials: u32,
}

impl Count {
    fn add(&mut self, hit: bool) {
        self.trials += 1;
        self.hits += u32::from(hit);
    }

    fn rate(&self) -> f64 {
        f64::from(self.hits) / f64::from(self.trials)
    }
}

/// One simulated ladder: its true ratings, game pairs per pairing and draw rate between equals.
fn ladder(seed: u64) -> (Vec<f64>, usize, f64, Xoshiro256PlusPlus) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let players = rng.gen_range(4..=6);
    let mut truth = vec![0.0];
    for _ in 1..players {
        // Half the gaps close (0-300 Elo), half far apart (400-800 Elo).
        let gap = if rng.gen_bool(0.5) {
            rng.gen_range(0.0..300.0)
        } else {
            rng.gen_range(400.0..800.0)
        };
        truth.push(truth.last().unwrap() + gap);
    }
    let pairs = [6, 10, 20, 40][rng.gen_range(0..4)];
    let draw_base = [0.1, 0.3, 0.5][rng.gen_range(0..3)];
    (truth, pairs, draw_base, rng)
}

#[test]
fn honest_gap_intervals_cover_the_truth() {
    let ladders = 1000;
    let mut two_sided = Count::default();
    let mut one_sided = Count::default();
    let mut far_two_sided = Count::default();
    let mut ratings_two_sided = Count::default();
    let mut ratings_one_sided = Count::default();
    let mut unbounded = 0;
    for seed in 0..ladders {
        let (truth, pairs, draw_base, mut rng) = ladder(seed);
        let games = simulate_ladder(&mut rng, &truth, pairs, draw_base);
        let order: Vec<usize> = (0..truth.len()).collect();
        let honest = honest_intervals(&games, truth.len(), &order, 0, 0.95).unwrap();
        for gap in &honest.gaps {
            let true_gap = truth[gap.to] - truth[gap.from];
            let hit = gap.bound.contains(true_gap);
            match gap.method {
                BoundMethod::ProfileLikelihood => {
                    assert!(gap.bound.is_two_sided(), "{gap:?}");
                    two_sided.add(hit);
                    if true_gap >= 400.0 {
                        far_two_sided.add(hit);
                    }
                }
                BoundMethod::PerfectScore { .. } | BoundMethod::ZeroScore { .. } => {
                    assert!(gap.bound.is_one_sided(), "{gap:?}");
                    one_sided.add(hit);
                }
                _ => unbounded += 1,
            }
        }
        for r in &honest.ratings[1..] {
            let hit = r.bound.contains(truth[r.to] - truth[r.from]);
            if r.bound.is_two_sided() {
                ratings_two_sided.add(hit);
            } else if r.bound.is_one_sided() {
                ratings_one_sided.add(hit);
            }
        }
    }
    eprintln!(
        "gaps: two-sided {}/{} = {:.4} (of which >= 400 Elo: {}/{} = {:.4}); one-sided {}/{} = \
         {:.4}; unbounded {unbounded}",
        two_sided.hits,
        two_sided.trials,
        two_sided.rate(),
        far_two_sided.hits,
        far_two_sided.trials,
        far_two_sided.rate(),
        one_sided.hits,
        one_sided.trials,
        one_sided.rate(),
    );
    eprintln!(
        "ratings: two-sided {}/{} = {:.4}; one-sided {}/{} = {:.4}",
        ratings_two_sided.hits,
        ratings_two_sided.trials,
        ratings_two_sided.rate(),
        ratings_one_sided.hits,
        ratings_one_sided.trials,
        ratings_one_sided.rate(),
    );
    // Perfect scores must actually happen in this design, or the one-sided check is empty.
    assert!(one_sided.trials >= 200, "{one_sided:?}");
    assert!(far_two_sided.trials >= 200, "{far_two_sided:?}");
    assert!(
        (0.935..=0.965).contains(&two_sided.rate()),
        "two-sided coverage {two_sided:?}"
    );
    assert!(one_sided.rate() >= 0.95, "one-sided coverage {one_sided:?}");
    assert_eq!(unbounded, 0);
}

/// The arena's old coverage check (5 players 150 Elo apart, 40 game pairs per pairing, draws),
/// where the percentile bootstrap holds the truth about 93% of the time: the profile-likelihood
/// intervals reach 95% ± 1.5% over 1,000 ladders.
#[test]
fn profile_intervals_fix_the_bootstrap_undercoverage() {
    let truth = [0.0, 150.0, 300.0, 450.0, 600.0];
    let order: Vec<usize> = (0..truth.len()).collect();
    let mut two_sided = Count::default();
    for sim in 0..1000 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1000 + sim);
        let games = simulate_ladder(&mut rng, &truth, 40, 0.3);
        let honest = honest_intervals(&games, truth.len(), &order, 0, 0.95).unwrap();
        for gap in &honest.gaps {
            assert_eq!(gap.method, BoundMethod::ProfileLikelihood);
            two_sided.add(gap.bound.contains(150.0));
        }
    }
    eprintln!(
        "150-Elo ladder: two-sided {}/{} = {:.4}",
        two_sided.hits,
        two_sided.trials,
        two_sided.rate()
    );
    assert!(
        (0.935..=0.965).contains(&two_sided.rate()),
        "two-sided coverage {two_sided:?}"
    );
}
