//! `chuhan stats`: Elo, nElo, LOS and draw ratio of given counts, and with bounds the SPRT
//! log-likelihood ratio and verdict. Given several runs' counts (`--counts` more than once), it
//! pools them and says whether the runs agree: the χ² homogeneity test over runs
//! (`chuhan_stats::homogeneity`), the check that another seed reproduces a result. Other tools call it; its output keys are an interface
//! (`elo_ci95`, fishtest's symmetric half-width, stays beside the honest interval's `elo_low`
//! and `elo_high`, null when a side is open; likewise for nElo).

use crate::common::flags::parse_model;
use crate::EXIT_OK;
use anyhow::{bail, Context};
use chuhan_arena::stats::{
    homogeneity, homogeneity_of_games, Estimate, Homogeneity, Pentanomial, Sprt, Trinomial,
};
use clap::Args;

/// `chuhan stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Counts, low to high: `L,D,W` (games) or `LL,LD,DD_WL,WD,WW` (game pairs). Give it once
    /// a run to pool several runs of one form and test whether they agree (χ² homogeneity).
    #[arg(long, required = true)]
    pub counts: Vec<String>,
    /// SPRT H0 bound (with --elo1).
    #[arg(long, requires = "elo1", allow_hyphen_values = true)]
    pub elo0: Option<f64>,
    /// SPRT H1 bound (with --elo0).
    #[arg(long, requires = "elo0", allow_hyphen_values = true)]
    pub elo1: Option<f64>,
    /// Scale of the bounds: `normalized` (nElo) or `logistic` (Elo).
    #[arg(long, default_value = "normalized")]
    pub model: String,
    /// SPRT type I error.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// SPRT type II error.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Counts given on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counts {
    /// `L,D,W`.
    Trinomial(Trinomial),
    /// `LL,LD,DD_WL,WD,WW`.
    Pentanomial(Pentanomial),
}

/// Parses `--counts`: 3 numbers (games) or 5 (pairs), comma separated.
pub fn parse_counts(text: &str) -> anyhow::Result<Counts> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let mut nums = Vec::with_capacity(parts.len());
    for (i, p) in parts.iter().enumerate() {
        let n: u64 = p.parse().with_context(|| {
            format!(
                "--counts '{text}': count {} ('{p}') is not a whole number 0 or more",
                i + 1
            )
        })?;
        nums.push(n);
    }
    let counts = match *nums.as_slice() {
        [l, d, w] => Counts::Trinomial(Trinomial::new(l, d, w)),
        [a, b, c, d, e] => Counts::Pentanomial(Pentanomial::from_counts([a, b, c, d, e])),
        _ => bail!(
            "--counts '{text}' has {} numbers; give 3 (L,D,W games) or 5 (LL,LD,DD_WL,WD,WW pairs)",
            nums.len()
        ),
    };
    // The estimators sum the counts; a sum past u64::MAX would wrap (or panic in a debug build).
    let fits = match &counts {
        Counts::Trinomial(t) => t.checked_total().is_some(),
        Counts::Pentanomial(p) => p.checked_games().is_some(),
    };
    if !fits {
        bail!(
            "--counts '{text}': the number of games does not fit in 64 bits ({} at most)",
            u64::MAX
        );
    }
    if nums.iter().all(|&n| n == 0) {
        bail!("--counts '{text}': all counts are zero; there is nothing to estimate");
    }
    Ok(counts)
}

/// Parses every `--counts` (one a run), which must all be games or all pairs, into the pooled
/// counts and, for two runs or more, the homogeneity test over them.
pub fn parse_runs(texts: &[String]) -> anyhow::Result<(Counts, Option<Homogeneity>)> {
    let runs = texts
        .iter()
        .map(|t| parse_counts(t))
        .collect::<anyhow::Result<Vec<Counts>>>()?;
    let mut games = Vec::new();
    let mut pairs = Vec::new();
    for c in &runs {
        match c {
            Counts::Trinomial(t) => games.push(*t),
            Counts::Pentanomial(p) => pairs.push(*p),
        }
    }
    if !games.is_empty() && !pairs.is_empty() {
        bail!(
            "--counts mixes game counts (3 numbers) and pair counts (5 numbers); give every run in one form"
        );
    }
    let pooled = if pairs.is_empty() {
        let mut t = Trinomial::default();
        games.iter().for_each(|g| t.merge(g));
        Counts::Trinomial(t)
    } else {
        let mut p = Pentanomial::default();
        pairs.iter().for_each(|q| p.merge(q));
        Counts::Pentanomial(p)
    };
    let fits = match &pooled {
        Counts::Trinomial(t) => t.checked_total().is_some(),
        Counts::Pentanomial(p) => p.checked_games().is_some(),
    };
    if !fits {
        bail!("the runs' games together do not fit in 64 bits");
    }
    if runs.len() < 2 {
        return Ok((pooled, None));
    }
    let test = if pairs.is_empty() {
        homogeneity_of_games(&games)
    } else {
        homogeneity(&pairs)
    };
    Ok((pooled, Some(test.map_err(anyhow::Error::msg)?)))
}

/// Runs the command.
pub fn run(args: &StatsArgs) -> anyhow::Result<u8> {
    let (counts, agree) = parse_runs(&args.counts)?;
    let model = parse_model(&args.model)?;
    let sprt = match (args.elo0, args.elo1) {
        (Some(e0), Some(e1)) => {
            Some(Sprt::new(e0, e1, args.alpha, args.beta, model).map_err(anyhow::Error::msg)?)
        }
        _ => None,
    };
    let (estimate, llr) = match &counts {
        Counts::Trinomial(t) => (
            Estimate::from_trinomial(t),
            sprt.as_ref().map(|s| s.llr_trinomial(t)),
        ),
        Counts::Pentanomial(p) => (
            Estimate::from_pentanomial(p),
            sprt.as_ref().map(|s| s.llr_pentanomial(p)),
        ),
    };
    let estimate = estimate.context("no games in --counts")?;
    let llr = match llr {
        Some(None) => bail!("the SPRT bounds are beyond any reachable score; no LLR exists"),
        Some(Some(v)) => Some(v),
        None => None,
    };
    if args.json {
        let mut obj = serde_json::json!({
            "elo": estimate.elo,
            "elo_ci95": estimate.elo_ci95,
            "elo_low": estimate.elo_interval.low,
            "elo_high": estimate.elo_interval.high,
            "nelo": estimate.nelo,
            "nelo_ci95": estimate.nelo_ci95,
            "nelo_low": estimate.nelo_interval.low,
            "nelo_high": estimate.nelo_interval.high,
            "los": estimate.los,
            "draw_ratio": estimate.draw_ratio,
            "games": estimate.games,
        });
        if let (Some(s), Some(l)) = (&sprt, llr) {
            obj["llr"] = l.into();
            obj["lower"] = s.lower_bound().into();
            obj["upper"] = s.upper_bound().into();
            obj["verdict"] = s.verdict(l).name().into();
        }
        if let Some(h) = &agree {
            obj["runs"] = args.counts.len().into();
            obj["chi2"] = h.chi2.into();
            obj["df"] = h.df.into();
            obj["p_value"] = h.p_value.into();
        }
        outln!("{obj}");
        return Ok(EXIT_OK);
    }
    if let Some(h) = &agree {
        outln!("runs:       {} (pooled below)", args.counts.len());
        outln!(
            "agreement:  chi2 {:.2} on {} df, p = {:.4} ({})",
            h.chi2,
            h.df,
            h.p_value,
            if h.p_value > 0.01 {
                "the runs agree"
            } else {
                "the runs disagree at p <= 0.01"
            }
        );
    }
    outln!("games:      {}", estimate.games);
    outln!("Elo:        {} (95%)", estimate.elo_text(2));
    outln!("nElo:       {} (95%)", estimate.nelo_text(2));
    outln!("LOS:        {:.2}%", 100.0 * estimate.los);
    match estimate.draw_ratio {
        Some(d) => outln!("draw ratio: {:.2}%", 100.0 * d),
        None => {
            outln!("draw ratio: unknown (pair counts do not say how many pairs were two draws)")
        }
    }
    if let (Some(s), Some(l)) = (&sprt, llr) {
        outln!(
            "LLR:        {l:.4} (lower {:.4}, upper {:.4})",
            s.lower_bound(),
            s.upper_bound()
        );
        outln!("verdict:    {}", s.verdict(l).name());
    }
    Ok(EXIT_OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn one_run_is_not_tested_for_agreement() {
        let (pooled, agree) = parse_runs(&texts(&["1,2,3"])).unwrap();
        assert_eq!(pooled, Counts::Trinomial(Trinomial::new(1, 2, 3)));
        assert!(agree.is_none());
    }

    #[test]
    fn runs_are_pooled_and_tested() {
        let (pooled, agree) = parse_runs(&texts(&["1,2,3,4,5", "5,4,3,2,1"])).unwrap();
        assert_eq!(
            pooled,
            Counts::Pentanomial(Pentanomial::from_counts([6, 6, 6, 6, 6]))
        );
        let h = agree.unwrap();
        assert_eq!(h.df, 1);
        assert_eq!(h.units, 30);
        // Mean pair scores 2/3 and 1/3 against a pooled 1/2: far apart for 15 pairs each.
        assert!(h.p_value < 0.01, "{h:?}");
        let (_, same) = parse_runs(&texts(&["1,2,3,4,5", "1,2,3,4,5"])).unwrap();
        let same = same.unwrap();
        assert!(same.chi2.abs() < 1e-12 && (same.p_value - 1.0).abs() < 1e-9);
    }

    #[test]
    fn mixed_forms_are_refused_by_name() {
        let err = parse_runs(&texts(&["1,2,3", "1,2,3,4,5"])).unwrap_err();
        assert!(err.to_string().contains("mixes game counts"), "{err}");
        let err = parse_runs(&texts(&["1,2,3", "1,x,3"])).unwrap_err();
        assert!(err.to_string().contains("count 2 ('x')"), "{err}");
    }
}
