//! Do runs of the same pairing at different seeds agree? A χ² homogeneity test over runs.
//!
//! Each run is a set of independent units with scores in [0, 1]: game pairs (pentanomial counts,
//! scores 0, ¼, ½, ¾, 1) or single games (trinomial counts, scores 0, ½, 1). Under the
//! hypothesis that every run draws its units from one distribution, the statistic
//!
//! ```text
//! χ² = Σ_i n_i (m_i − m)² / σ²
//! ```
//!
//! (n_i units in run i with mean score m_i, m the pooled mean, σ² the pooled variance of a unit
//! about m) is approximately χ² with k − 1 degrees of freedom for k runs. This is the one-way
//! analysis of variance of the unit scores, read on the χ² scale as a test of binomial
//! proportions is; a small p-value says that the seed (the openings it draws, a bug that leaks
//! state from run to run) moves the result beyond chance.

use statrs::distribution::{ChiSquared, ContinuousCDF};

use crate::{Pentanomial, Trinomial};

/// The outcome of [`homogeneity`].
#[derive(Debug, Clone, PartialEq)]
pub struct Homogeneity {
    /// The χ² statistic.
    pub chi2: f64,
    /// Its degrees of freedom: runs − 1.
    pub df: u32,
    /// P(χ²(df) ≥ chi2): small when the runs disagree.
    pub p_value: f64,
    /// The pooled mean score of a unit (a game pair's mean or a game's score).
    pub pooled_score: f64,
    /// Units (pairs or games) in all runs.
    pub units: u64,
}

/// Why runs cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HomogeneityError {
    /// Fewer than two runs with at least one unit each.
    #[error("a homogeneity test needs at least two runs with games; got {0}")]
    TooFewRuns(usize),
    /// Every unit of every run has the same score: there is no variance to compare against.
    #[error(
        "every game pair (or game) of every run has the same score, so the runs cannot disagree"
    )]
    NoVariance,
}

/// The χ² homogeneity test over runs given as (score, count) categories. Runs with no units
/// are left out.
pub fn homogeneity_of(runs: &[Vec<(f64, u64)>]) -> Result<Homogeneity, HomogeneityError> {
    let runs: Vec<&Vec<(f64, u64)>> = runs
        .iter()
        .filter(|r| r.iter().map(|&(_, c)| c).sum::<u64>() > 0)
        .collect();
    if runs.len() < 2 {
        return Err(HomogeneityError::TooFewRuns(runs.len()));
    }
    let count = |r: &[(f64, u64)]| r.iter().map(|&(_, c)| c).sum::<u64>() as f64;
    let sum = |r: &[(f64, u64)]| r.iter().map(|&(s, c)| s * c as f64).sum::<f64>();
    let n: f64 = runs.iter().map(|r| count(r)).sum();
    let mean = runs.iter().map(|r| sum(r)).sum::<f64>() / n;
    let variance = runs
        .iter()
        .flat_map(|r| r.iter())
        .map(|&(s, c)| c as f64 * (s - mean).powi(2))
        .sum::<f64>()
        / n;
    if variance <= 1e-15 {
        return Err(HomogeneityError::NoVariance);
    }
    let chi2 = runs
        .iter()
        .map(|r| {
            let (ni, mi) = (count(r), sum(r) / count(r));
            ni * (mi - mean).powi(2)
        })
        .sum::<f64>()
        / variance;
    let df = runs.len() as u32 - 1;
    let p_value = ChiSquared::new(df as f64)
        .map(|d| 1.0 - d.cdf(chi2))
        .unwrap_or(f64::NAN);
    Ok(Homogeneity {
        chi2,
        df,
        p_value,
        pooled_score: mean,
        units: n as u64,
    })
}

/// The χ² homogeneity test over runs of game pairs (the pairs are the independent units).
pub fn homogeneity(runs: &[Pentanomial]) -> Result<Homogeneity, HomogeneityError> {
    let runs: Vec<Vec<(f64, u64)>> = runs
        .iter()
        .map(|p| {
            p.counts
                .iter()
                .enumerate()
                .map(|(i, &c)| (i as f64 / 4.0, c))
                .collect()
        })
        .collect();
    homogeneity_of(&runs)
}

/// The χ² homogeneity test over runs of single games (losses, draws, wins).
pub fn homogeneity_of_games(runs: &[Trinomial]) -> Result<Homogeneity, HomogeneityError> {
    let runs: Vec<Vec<(f64, u64)>> = runs
        .iter()
        .map(|t| {
            let [l, d, w] = t.counts();
            vec![(0.0, l), (0.5, d), (1.0, w)]
        })
        .collect();
    homogeneity_of(&runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn games(l: u64, d: u64, w: u64) -> Trinomial {
        Trinomial::new(l, d, w)
    }

    #[test]
    fn two_runs_by_hand() {
        // 10 games each: 2 and 6 wins, no draws. Pooled p = 0.4, variance 0.24,
        // χ² = 10 (0.2 − 0.4)² / 0.24 + 10 (0.6 − 0.4)² / 0.24 = 3.333, the Pearson χ² of the
        // 2×2 table [[2, 8], [6, 4]] with the n/(n−1)-free (large-sample) variance.
        let h = homogeneity_of_games(&[games(8, 0, 2), games(4, 0, 6)]).unwrap();
        assert!((h.chi2 - 10.0 / 3.0).abs() < 1e-12, "{h:?}");
        assert_eq!(h.df, 1);
        // P(χ²(1) >= 3.333) = 0.0679.
        assert!((h.p_value - 0.0679).abs() < 5e-4, "{h:?}");
        assert!((h.pooled_score - 0.4).abs() < 1e-12);
        assert_eq!(h.units, 20);
    }

    #[test]
    fn identical_runs_agree_perfectly() {
        let run = Pentanomial::from_counts([3, 1, 10, 2, 4]);
        let h = homogeneity(&[run, run, run]).unwrap();
        assert!(h.chi2.abs() < 1e-12);
        assert_eq!(h.df, 2);
        assert!((h.p_value - 1.0).abs() < 1e-12);
    }

    #[test]
    fn refuses_what_cannot_be_compared() {
        assert_eq!(
            homogeneity(&[Pentanomial::from_counts([0, 0, 4, 0, 0])]),
            Err(HomogeneityError::TooFewRuns(1))
        );
        assert_eq!(
            homogeneity(&[
                Pentanomial::new(),
                Pentanomial::from_counts([1, 0, 0, 0, 0])
            ]),
            Err(HomogeneityError::TooFewRuns(1))
        );
        assert_eq!(
            homogeneity_of_games(&[games(0, 3, 0), games(0, 5, 0)]),
            Err(HomogeneityError::NoVariance)
        );
    }

    /// Runs drawn from one distribution reject at about the nominal rate; runs whose scores
    /// differ by 20 points (10% and 30% a game) are rejected almost always.
    #[test]
    fn false_alarms_at_the_nominal_rate_and_power_against_a_real_shift() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(41);
        let pentanomial = |rng: &mut Xoshiro256PlusPlus, p: f64, pairs: u64| {
            let mut c = [0u64; 5];
            for _ in 0..pairs {
                let a = u64::from(rng.gen::<f64>() < p) * 2;
                let b = u64::from(rng.gen::<f64>() < p) * 2;
                c[(a + b) as usize] += 1;
            }
            Pentanomial::from_counts(c)
        };
        let (trials, mut alarms, mut detected) = (2000, 0, 0);
        for _ in 0..trials {
            let same: Vec<Pentanomial> = (0..12).map(|_| pentanomial(&mut rng, 0.2, 40)).collect();
            alarms += u32::from(homogeneity(&same).unwrap().p_value < 0.05);
            let shifted: Vec<Pentanomial> = (0..12)
                .map(|i| pentanomial(&mut rng, if i < 6 { 0.1 } else { 0.3 }, 40))
                .collect();
            detected += u32::from(homogeneity(&shifted).unwrap().p_value < 0.05);
        }
        let alarm_rate = alarms as f64 / trials as f64;
        assert!(
            (0.03..=0.07).contains(&alarm_rate),
            "false alarms {alarm_rate}"
        );
        assert!(detected as f64 / trials as f64 > 0.95, "power {detected}");
    }
}
