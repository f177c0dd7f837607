//! Bootstrap over game pairs: each replicate resamples, within every pairing, as many game pairs
//! as it has (with replacement) and refits; intervals are percentiles of the replicates.

use super::fit::{PairTotal, Prepared};
use super::{FitOptions, Interval, RatedGame, RatingError};
use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::{SplitMix64, Xoshiro256PlusPlus};
use serde::{Deserialize, Serialize};

/// Percentile bootstrap intervals from [`Bootstrap`] replicates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BootstrapIntervals {
    /// Interval of each player's rating relative to the anchor.
    pub ratings: Vec<Interval>,
    /// Interval of each neighbour gap `r[order[k + 1]] - r[order[k]]`.
    pub gaps: Vec<Interval>,
    /// Replicates used.
    pub replicates: usize,
    /// Replicates whose resampled games had no finite ratings (dropped; if this is more than a
    /// few, the intervals are too narrow and a prior should be used).
    pub failed: usize,
}

/// Ratings of bootstrap replicates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BootstrapSamples {
    /// Fitted ratings of each successful replicate, in replicate order.
    pub ratings: Vec<Vec<f64>>,
    /// Number of replicates that could not be fitted.
    pub failed: usize,
}

impl BootstrapSamples {
    /// Collects replicate results (e.g. from [`Bootstrap::replicate`] run in parallel, in index
    /// order).
    pub fn from_results<I>(results: I) -> Self
    where
        I: IntoIterator<Item = Result<Vec<f64>, RatingError>>,
    {
        let mut samples = Self {
            ratings: Vec::new(),
            failed: 0,
        };
        for r in results {
            match r {
                Ok(ratings) => samples.ratings.push(ratings),
                Err(_) => samples.failed += 1,
            }
        }
        samples
    }

    /// Central `confidence` percentile intervals (e.g. 0.95 for 2.5%..97.5%, interpolating
    /// linearly between order statistics) for every rating and for the neighbour gaps along
    /// `order`. `None` with no successful replicate, a bad confidence or a bad order.
    pub fn intervals(&self, order: &[usize], confidence: f64) -> Option<BootstrapIntervals> {
        let first = self.ratings.first()?;
        let n = first.len();
        if !(confidence > 0.0 && confidence < 1.0)
            || order.iter().any(|&p| p >= n)
            || self.ratings.iter().any(|r| r.len() != n)
        {
            return None;
        }
        let tail = (1.0 - confidence) / 2.0;
        let interval = |mut values: Vec<f64>| -> Interval {
            values.sort_by(f64::total_cmp);
            Interval {
                lo: percentile(&values, tail),
                hi: percentile(&values, 1.0 - tail),
            }
        };
        let ratings = (0..n)
            .map(|i| interval(self.ratings.iter().map(|r| r[i]).collect()))
            .collect();
        let gaps = order
            .windows(2)
            .map(|w| interval(self.ratings.iter().map(|r| r[w[1]] - r[w[0]]).collect()))
            .collect();
        Some(BootstrapIntervals {
            ratings,
            gaps,
            replicates: self.ratings.len(),
            failed: self.failed,
        })
    }
}

/// Linear-interpolation percentile of sorted, non-empty values.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// A schedule prepared for bootstrapping: game pairs grouped by pairing.
///
/// Each replicate draws, for every pairing, as many game pairs as it has, with replacement, and
/// refits. Replicate `k` uses a Xoshiro256++ generator derived from `(seed, k)` alone, so results
/// do not depend on how replicates are spread over threads.
#[derive(Debug, Clone)]
pub struct Bootstrap {
    data: Prepared,
}

impl Bootstrap {
    /// Prepares `games` for resampling; fails on invalid games or options.
    pub fn new(
        games: &[RatedGame],
        n_players: usize,
        options: &FitOptions,
    ) -> Result<Self, RatingError> {
        Ok(Self {
            data: Prepared::new(games, n_players, options)?,
        })
    }

    /// Ratings fitted to replicate `index` of the bootstrap seeded with `seed`.
    pub fn replicate(&self, seed: u64, index: u64) -> Result<Vec<f64>, RatingError> {
        let mut rng = replicate_rng(seed, index);
        let totals = self.data.totals_resampled(&mut rng);
        self.data.fit_ratings_only(&totals)
    }

    /// Runs replicates `0..replicates` sequentially.
    pub fn run(&self, seed: u64, replicates: usize) -> BootstrapSamples {
        BootstrapSamples::from_results((0..replicates as u64).map(|k| self.replicate(seed, k)))
    }
}

/// Bootstrap intervals in one call: `replicates` replicates from `seed`, central `confidence`
/// intervals, neighbour gaps along `order`.
pub fn bootstrap_intervals(
    games: &[RatedGame],
    n_players: usize,
    options: &FitOptions,
    seed: u64,
    replicates: usize,
    order: &[usize],
    confidence: f64,
) -> Result<BootstrapIntervals, RatingError> {
    if order.iter().any(|&p| p >= n_players) {
        return Err(RatingError::BadOrder);
    }
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(RatingError::BadConfidence { confidence });
    }
    let boot = Bootstrap::new(games, n_players, options)?;
    let data = &boot.data;
    // Report the data's own problem (disconnected, perfect score, ...) rather than a failure
    // of every replicate.
    data.check(&data.totals_all())?;
    let samples = boot.run(seed, replicates);
    samples
        .intervals(order, confidence)
        .ok_or(RatingError::BootstrapFailed {
            failed: samples.failed,
        })
}

/// The generator of replicate `index`: Xoshiro256++ seeded from SplitMix64 streams of `seed`
/// and of `index`.
fn replicate_rng(seed: u64, index: u64) -> Xoshiro256PlusPlus {
    let mut from_seed = SplitMix64::seed_from_u64(seed);
    let mut from_index = SplitMix64::seed_from_u64(index ^ 0xD1B5_4A32_D192_ED03);
    let mut bytes = [0u8; 32];
    for (k, chunk) in bytes.chunks_exact_mut(8).enumerate() {
        let word = if k < 2 {
            from_seed.next_u64()
        } else {
            from_index.next_u64()
        };
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    Xoshiro256PlusPlus::from_seed(bytes)
}

impl Prepared {
    /// Totals of one resample: for every pairing, as many of its game pairs as it has, drawn
    /// with replacement, plus the prior.
    fn totals_resampled<R: Rng>(&self, rng: &mut R) -> Vec<PairTotal> {
        let mut real = Vec::with_capacity(self.pairings.len());
        for p in &self.pairings {
            let k = p.units.len();
            let (mut games, mut score_a) = (0.0, 0.0);
            let (mut first, mut first_score) = (0.0, 0.0);
            for _ in 0..k {
                let i = rng.gen_range(0..k);
                let u = p.units[i];
                games += u.0;
                score_a += u.1;
                first += p.first_units[i].0;
                first_score += p.first_units[i].1;
            }
            self.push_totals(&mut real, p, (games, score_a), (first, first_score));
        }
        self.with_prior(real)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratings::fit_ratings;
    use crate::sim::simulate_ladder;

    #[test]
    fn recovers_simulated_ladder() {
        let truth = [0.0, 150.0, 300.0, 450.0, 600.0, 750.0];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let games = simulate_ladder(&mut rng, &truth, 200, 0.3);
        let options = FitOptions::default();
        let fit = fit_ratings(&games, truth.len(), &options).unwrap();
        let order: Vec<usize> = (0..truth.len()).collect();
        let boot =
            bootstrap_intervals(&games, truth.len(), &options, 11, 400, &order, 0.95).unwrap();
        assert_eq!(boot.failed, 0);
        assert_eq!(boot.replicates, 400);
        for (i, &t) in truth.iter().enumerate() {
            assert!(
                (fit.ratings[i] - t).abs() < 3.0 * fit.std_errors[i] + 1e-9,
                "player {i}: {} vs {t}",
                fit.ratings[i]
            );
            assert!(boot.ratings[i].contains(fit.ratings[i]));
        }
        assert_eq!(boot.ratings[0], Interval { lo: 0.0, hi: 0.0 });
        let gaps = fit.neighbour_gaps(&order).unwrap();
        for (k, g) in gaps.iter().enumerate() {
            assert!(boot.gaps[k].contains(*g));
            assert!(boot.gaps[k].contains(150.0), "gap {k}: {:?}", boot.gaps[k]);
            // Bootstrap and sandwich agree on the spread to within ~25%.
            let se_boot = boot.gaps[k].width() / (2.0 * 1.959964);
            let se_robust = fit.robust_difference_std_error(k, k + 1).unwrap();
            assert!(
                (se_boot / se_robust - 1.0).abs() < 0.25,
                "{se_boot} vs {se_robust}"
            );
            // Draws make the Bernoulli Hessian pessimistic.
            assert!(fit.difference_std_error(k, k + 1).unwrap() > se_robust);
        }
    }

    #[test]
    fn bootstrap_is_deterministic_and_order_free() {
        let truth = [0.0, 150.0, 300.0, 450.0];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let games = simulate_ladder(&mut rng, &truth, 20, 0.3);
        let boot = Bootstrap::new(&games, 4, &FitOptions::default()).unwrap();
        let a = boot.run(99, 30);
        let b = boot.run(99, 30);
        assert_eq!(a, b);
        let reversed: Vec<_> = (0..30u64).rev().map(|k| boot.replicate(99, k)).collect();
        let mut reversed = BootstrapSamples::from_results(reversed);
        reversed.ratings.reverse();
        assert_eq!(a, reversed);
        assert_ne!(a, boot.run(100, 30));
    }

    #[test]
    fn coverage_of_neighbour_gap_intervals() {
        let truth = [0.0, 150.0, 300.0, 450.0, 600.0];
        let order: Vec<usize> = (0..truth.len()).collect();
        let options = FitOptions::default();
        let sims = 200;
        let (mut boot_hits, mut robust_hits, mut hessian_hits, mut trials) = (0, 0, 0, 0);
        for sim in 0..sims {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(1000 + sim);
            let games = simulate_ladder(&mut rng, &truth, 40, 0.3);
            let fit = fit_ratings(&games, truth.len(), &options).unwrap();
            let boot =
                bootstrap_intervals(&games, truth.len(), &options, sim, 200, &order, 0.95).unwrap();
            for k in 0..truth.len() - 1 {
                trials += 1;
                let gap = fit.difference(k, k + 1).unwrap();
                if boot.gaps[k].contains(150.0) {
                    boot_hits += 1;
                }
                let robust = fit.robust_difference_std_error(k, k + 1).unwrap();
                if (gap - 150.0).abs() <= 1.959964 * robust {
                    robust_hits += 1;
                }
                let hessian = fit.difference_std_error(k, k + 1).unwrap();
                if (gap - 150.0).abs() <= 1.959964 * hessian {
                    hessian_hits += 1;
                }
            }
        }
        let rate = |hits: i32| hits as f64 / trials as f64;
        let (boot, robust, hessian) = (rate(boot_hits), rate(robust_hits), rate(hessian_hits));
        assert!((0.88..=0.99).contains(&boot), "bootstrap coverage {boot}");
        assert!(
            (0.88..=0.99).contains(&robust),
            "sandwich coverage {robust}"
        );
        // The Bernoulli Hessian ignores that draws lower the variance: it over-covers.
        assert!(
            (0.88..=1.0).contains(&hessian),
            "hessian coverage {hessian}"
        );
    }
}
