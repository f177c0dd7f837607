//! `chuhan stats`: Elo, nElo, LOS and draw ratio of given counts, and with bounds the SPRT
//! log-likelihood ratio and verdict. Other tools call it; its output keys are an interface
//! (`elo_ci95`, fishtest's symmetric half-width, stays beside the honest interval's `elo_low`
//! and `elo_high`, null when a side is open; likewise for nElo).

use crate::common::flags::parse_model;
use crate::EXIT_OK;
use anyhow::{bail, Context};
use chuhan_arena::stats::{Estimate, Pentanomial, Sprt, Trinomial};
use clap::Args;

/// `chuhan stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Counts, low to high: `L,D,W` (games) or `LL,LD,DD_WL,WD,WW` (game pairs).
    #[arg(long)]
    pub counts: String,
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

/// Runs the command.
pub fn run(args: &StatsArgs) -> anyhow::Result<u8> {
    let counts = parse_counts(&args.counts)?;
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
        outln!("{obj}");
        return Ok(EXIT_OK);
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
