//! The gain schedule, the per-iteration perturbation (flips, stochastic rounding, clipping) and
//! the update rule.

use super::parameters::SpsaParam;
use super::{ALPHA, GAMMA, ITERATION_TAG};
use crate::play::schedule::splitmix64;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

/// The gain schedule of a run of `iterations` iterations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    /// `N`.
    pub iterations: u64,
    /// `A = 0.1 N`.
    pub big_a: f64,
    /// `alpha`.
    pub alpha: f64,
    /// `gamma`.
    pub gamma: f64,
}

impl Gains {
    /// fishtest's schedule for `iterations` iterations.
    pub fn new(iterations: u64) -> Gains {
        Gains {
            iterations,
            big_a: 0.1 * iterations as f64,
            alpha: ALPHA,
            gamma: GAMMA,
        }
    }

    /// `c = c_end N^gamma`.
    pub fn c(&self, c_end: f64) -> f64 {
        c_end * (self.iterations as f64).powf(self.gamma)
    }

    /// `a = r_end c_end^2 (A + N)^alpha`.
    pub fn a(&self, c_end: f64, r_end: f64) -> f64 {
        r_end * c_end * c_end * (self.big_a + self.iterations as f64).powf(self.alpha)
    }

    /// `c_k = c / k^gamma` (k 1-based).
    pub fn c_k(&self, c_end: f64, k: u64) -> f64 {
        self.c(c_end) / (k as f64).powf(self.gamma)
    }

    /// `R_k = a / (A + k)^alpha / c_k^2`.
    pub fn r_k(&self, c_end: f64, r_end: f64, k: u64) -> f64 {
        let ck = self.c_k(c_end, k);
        self.a(c_end, r_end) / (self.big_a + k as f64).powf(self.alpha) / (ck * ck)
    }
}

/// Stochastic rounding: `floor(x + u)` for `u` uniform in [0, 1); its mean is `x`.
pub fn stochastic_round(x: f64, u: f64) -> i64 {
    (x + u).floor() as i64
}

/// One iteration's perturbation: the flips and the two rounded parameter vectors.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// `delta_i`, each +1 or -1.
    pub delta: Vec<i8>,
    /// Rounded `theta + c_k delta`, clipped to [min, max].
    pub plus: Arc<[i32]>,
    /// Rounded `theta - c_k delta`, clipped to [min, max].
    pub minus: Arc<[i32]>,
}

/// A run's SPSA settings: what is tuned, for how long, and how it is seeded.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// The tuned parameters.
    pub params: Vec<SpsaParam>,
    /// The gain schedule.
    pub gains: Gains,
    /// Game pairs per iteration (all at the same perturbation; W and L are summed).
    pub pairs_per_iteration: u64,
    /// Iteration `k` is evaluated at theta after iteration `k - 1 - lag`.
    pub lag: u64,
    /// Run seed.
    pub seed: u64,
}

/// The seed of iteration `k`'s flips and rounding draws.
pub fn iteration_seed(run_seed: u64, k: u64) -> u64 {
    splitmix64(splitmix64(run_seed ^ ITERATION_TAG) ^ k)
}

impl Spsa {
    /// The start vector `theta^(0)`.
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }

    /// `c_k` of parameter `i`.
    pub fn c_k(&self, i: usize, k: u64) -> f64 {
        self.gains.c_k(self.params[i].c_end, k)
    }

    /// `R_k` of parameter `i`.
    pub fn r_k(&self, i: usize, k: u64) -> f64 {
        let p = &self.params[i];
        self.gains.r_k(p.c_end, p.r_end, k)
    }

    /// The perturbation of iteration `k` around `theta` (its evaluation point): flips and
    /// rounding draws from the iteration's own generator.
    pub fn perturb(&self, k: u64, theta: &[f64]) -> Perturbation {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(iteration_seed(self.seed, k));
        let delta: Vec<i8> = self
            .params
            .iter()
            .map(|_| if rng.gen::<bool>() { 1 } else { -1 })
            .collect();
        let mut plus = Vec::with_capacity(self.params.len());
        let mut minus = Vec::with_capacity(self.params.len());
        for (i, p) in self.params.iter().enumerate() {
            let step = self.c_k(i, k) * delta[i] as f64;
            let (u_plus, u_minus): (f64, f64) = (rng.gen(), rng.gen());
            // Clip before rounding: floor(x + u) of x in [min, max] stays in [min, max].
            let round = |x: f64, u: f64| {
                stochastic_round(x.clamp(p.min, p.max), u).clamp(p.min as i64, p.max as i64) as i32
            };
            plus.push(round(theta[i] + step, u_plus));
            minus.push(round(theta[i] - step, u_minus));
        }
        Perturbation {
            delta,
            plus: plus.into(),
            minus: minus.into(),
        }
    }

    /// Theta after iteration `k`: `clip(theta_i + R_k c_k result delta_i, min_i, max_i)` with
    /// `result = W - L` from the `theta + c_k delta` side.
    pub fn update(&self, k: u64, theta: &[f64], delta: &[i8], result: f64) -> Vec<f64> {
        self.params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let step = self.r_k(i, k) * self.c_k(i, k) * result * delta[i] as f64;
                (theta[i] + step).clamp(p.min, p.max)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{param, spsa};
    use super::*;

    #[test]
    fn gains_match_hand_computed_values() {
        // N = 1000, c_end = 10, r_end = 0.002; values computed independently (Python).
        let g = Gains::new(1000);
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1.0);
        assert!(close(g.big_a, 100.0));
        assert!(close(g.c(10.0), 20.09092812608728));
        assert!(close(g.a(10.0, 0.002), 13.550283827094189));
        assert!(close(g.c_k(10.0, 1), 20.09092812608728));
        assert!(close(g.r_k(10.0, 0.002, 1), 0.0020861566909309405));
        assert!(close(g.c_k(10.0, 10), 15.922087270511701));
        assert!(close(g.r_k(10.0, 0.002, 10), 0.0031552225393986976));
        assert!(close(g.c_k(10.0, 500), 10.725166168179424));
        assert!(close(g.r_k(10.0, 0.002, 500), 0.0025043399425713608));
        // At the last iteration the gains are exactly the `_end` values.
        assert!(close(g.c_k(10.0, 1000), 10.0));
        assert!(close(g.r_k(10.0, 0.002, 1000), 0.002));
    }

    #[test]
    fn stochastic_rounding_is_unbiased_and_seeded() {
        for x in [3.3, -2.75, 0.5, 7.0] {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
            let n = 200_000;
            let sum: i64 = (0..n).map(|_| stochastic_round(x, rng.gen())).sum();
            let mean = sum as f64 / n as f64;
            assert!((mean - x).abs() < 0.005, "x {x}: mean {mean}");
        }
        assert_eq!(stochastic_round(7.0, 0.999), 7);
        assert_eq!(stochastic_round(-2.5, 0.4), -3);
        // The perturbation (flips and rounding) is a function of the seed and k alone.
        let s = spsa(
            vec![
                param("material.horse", 430.3, 300.0, 600.0, 15.0, 0.002),
                param("eval.tempo", 3.5, -20.0, 40.0, 3.0, 0.002),
            ],
            100,
            0,
            5,
        );
        let theta = s.start();
        assert_eq!(s.perturb(7, &theta), s.perturb(7, &theta));
        let other = Spsa {
            seed: 6,
            ..s.clone()
        };
        let differ = (1..20).any(|k| s.perturb(k, &theta) != other.perturb(k, &theta));
        assert!(differ);
        // Rounded values scatter around theta +- c_k delta.
        let mut sum = 0.0;
        for k in 1..=2000 {
            let p = s.perturb(k, &theta);
            sum += (p.plus[0] - p.minus[0]) as f64 / p.delta[0] as f64 / (2.0 * s.c_k(0, k));
        }
        assert!((sum / 2000.0 - 1.0).abs() < 0.02, "{}", sum / 2000.0);
    }

    #[test]
    fn clipping_respects_min_and_max() {
        let s = spsa(
            vec![
                param("eval.tempo", 39.5, -20.0, 40.0, 30.0, 0.5),
                param("search.null_reduction", 1.0, 1.0, 5.0, 3.0, 0.5),
            ],
            50,
            0,
            1,
        );
        for k in 1..=50 {
            let p = s.perturb(k, &s.start());
            for (i, q) in s.params.iter().enumerate() {
                for v in [p.plus[i], p.minus[i]] {
                    assert!((q.min..=q.max).contains(&(v as f64)), "{v}");
                }
            }
            for result in [-1e6, 1e6] {
                let t = s.update(k, &s.start(), &p.delta, result);
                for (i, q) in s.params.iter().enumerate() {
                    assert!((q.min..=q.max).contains(&t[i]));
                }
                assert!(t
                    .iter()
                    .zip(&s.params)
                    .any(|(v, q)| *v == q.min || *v == q.max));
            }
        }
        // A plain update: theta + R_k c_k (W - L) delta.
        let t = s.update(10, &[0.0, 3.0], &[1, -1], 0.5);
        assert!((t[0] - 0.5 * s.r_k(0, 10) * s.c_k(0, 10)).abs() < 1e-12);
        assert!((t[1] - (3.0 - 0.5 * s.r_k(1, 10) * s.c_k(1, 10))).abs() < 1e-12);
        assert!(t[0] < 40.0 && t[1] > 1.0, "{t:?}");
    }
}
