//! Runs of one pairing at different seeds agree (issue "Answers that hold up", item 2): twelve
//! real matches of Easy against Easy-Medium, seeds 1 to 12, pass a χ² homogeneity test over
//! their game pairs. The statistic can fail on real games: six of the runs replaced by runs
//! seen from Easy-Medium's side (a score near 0.85 instead of 0.15, as a seed-dependent bug
//! that swapped or re-weighted players would give) are told apart.

use crate::fixtures as common;

use chuhan_stats::homogeneity::homogeneity;
use chuhan_stats::Pentanomial;
use common::{chuhan, scratch};

/// The pentanomial counts of a `chuhan match` run between `a` and `b` at `seed` (from `a`'s
/// view, as summary.csv writes them).
fn run(a: &str, b: &str, seed: u64, pairs: u64) -> Pentanomial {
    let dir = scratch("seed-homogeneity", &format!("{a}-{b}-{seed}"));
    let (code, _, err) = chuhan(&[
        "match",
        "--player",
        a,
        "--player",
        b,
        "--pairs",
        &pairs.to_string(),
        "--seed",
        &seed.to_string(),
        "--concurrency",
        "2",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let mut r = csv::Reader::from_path(dir.join("summary.csv")).unwrap();
    let headers = r.headers().unwrap().clone();
    let column = headers.iter().position(|h| h == "pentanomial").unwrap();
    let row = r.records().next().unwrap().unwrap();
    let counts: Vec<u64> = row[column]
        .trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .map(|v| v.trim().parse().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u64>(), pairs, "{counts:?}");
    Pentanomial::from_counts(counts.try_into().unwrap())
}

#[test]
fn runs_at_different_seeds_agree_and_other_pairings_do_not() {
    let pairs = 10;
    let same: Vec<Pentanomial> = (1..=12)
        .map(|seed| run("easy", "easy-medium", seed, pairs))
        .collect();
    let h = homogeneity(&same).unwrap();
    eprintln!("seeds 1-12: {h:?}");
    assert_eq!(h.df, 11);
    assert!(
        h.p_value > 0.01,
        "runs at seeds 1-12 disagree: chi2 {:.1} on {} df, p {:.4}: {same:?}",
        h.chi2,
        h.df,
        h.p_value
    );
    // Easy scores clearly below half against the next level (validated about -290 Elo).
    assert!(h.pooled_score < 0.3, "{h:?}");

    // Six of the runs replaced by runs seen from the other side: the test must see it.
    let mut mixed = same[..6].to_vec();
    mixed.extend((13..=18).map(|seed| run("easy-medium", "easy", seed, pairs)));
    let m = homogeneity(&mixed).unwrap();
    eprintln!("mixed: {m:?}");
    assert!(
        m.p_value < 0.01,
        "runs of two different pairings were not told apart: chi2 {:.1}, p {:.4}",
        m.chi2,
        m.p_value
    );
}
