//! `chuhan sprt`: a test player against a base player until the SPRT accepts H0 or H1 (or the
//! pair limit is reached). Exit 0 whatever the verdict.
//!
//! The verdict is computed on complete game pairs taken in pair-index order (see
//! [`chuhan_arena::play::runner`]): the same seed and options give the same verdict at the same pair, at any
//! concurrency and across interruptions and `--resume`.

use crate::common::flags::{parse_model, RunArgs};
use crate::common::report::{expect_kind, print_played, sprt_of, sprt_report};
use crate::common::setup::{check_resume_chess960, config_from_args};
use crate::EXIT_OK;
use anyhow::{bail, Context};
use chuhan_arena::jobs::sprt::{JointStop, SprtStop};
use chuhan_arena::play::results::{spec_label, ResultsDir, RunConfig, RunKind, SprtSettings};
use chuhan_arena::play::runner::StopRule;
use chuhan_arena::play::schedule::Pairing;
use chuhan_arena::play::setup::{choose_config, execute, plan_from_config, PreparedRun};
use chuhan_arena::report::{describe_elo, Tally};
use chuhan_arena::stats::SprtModel;
use clap::Args;

/// `chuhan sprt`.
#[derive(Debug, Args)]
pub struct SprtArgs {
    /// The reference player.
    #[arg(long)]
    pub base: Option<String>,
    /// The player under test.
    #[arg(long)]
    pub test: Option<String>,
    /// H0 bound.
    #[arg(long, allow_hyphen_values = true)]
    pub elo0: Option<f64>,
    /// H1 bound.
    #[arg(long, allow_hyphen_values = true)]
    pub elo1: Option<f64>,
    /// Scale of the bounds: `normalized` (nElo) or `logistic` (Elo).
    #[arg(long)]
    pub model: Option<String>,
    /// Type I error (default 0.05).
    #[arg(long)]
    pub alpha: Option<f64>,
    /// Type II error (default 0.05).
    #[arg(long)]
    pub beta: Option<f64>,
    /// Give up after this many pairs (default 20000).
    #[arg(long)]
    pub max_pairs: Option<u64>,
    /// Shared run options.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Default maximum number of game pairs.
pub const DEFAULT_MAX_PAIRS: u64 = 20_000;

/// The single pairing: the test player (index 0) against the base (index 1).
pub fn pairings(config: &RunConfig) -> Vec<Pairing> {
    vec![Pairing {
        first: 0,
        second: 1,
        pairs: config.pairs,
    }]
}

fn config_from(args: &SprtArgs) -> anyhow::Result<RunConfig> {
    let test = args.test.as_ref().context("give --test PLAYER")?;
    let base = args.base.as_ref().context("give --base PLAYER")?;
    let (elo0, elo1) = match (args.elo0, args.elo1) {
        (Some(a), Some(b)) => (a, b),
        _ => bail!("give --elo0 and --elo1"),
    };
    let settings = SprtSettings {
        elo0,
        elo1,
        alpha: args.alpha.unwrap_or(0.05),
        beta: args.beta.unwrap_or(0.05),
        model: args
            .model
            .as_deref()
            .map_or(Ok(SprtModel::Normalized), parse_model)?,
    };
    sprt_of(&settings)?;
    config_from_args(
        RunKind::Sprt,
        &[test.clone(), base.clone()],
        args.max_pairs.unwrap_or(DEFAULT_MAX_PAIRS),
        &args.run,
        Some(settings),
    )
}

/// Runs the command.
pub fn run(args: &SprtArgs) -> anyhow::Result<u8> {
    let nothing_given =
        args.test.is_none() && args.base.is_none() && args.elo0.is_none() && args.elo1.is_none();
    let from_args = if nothing_given && args.run.dir.resume.is_some() {
        None
    } else {
        Some(config_from(args))
    };
    let default_name = format!(
        "sprt-{}-vs-{}",
        spec_label(args.test.as_deref().unwrap_or("test")),
        spec_label(args.base.as_deref().unwrap_or("base"))
    );
    if let (Some(dir), Some(game)) = (&args.run.dir.resume, args.run.game.kind()) {
        ResultsDir::check_game(dir, game)?;
    }
    check_resume_chess960(args.run.dir.resume.as_deref(), &args.run.game)?;
    // Held until the run ends: one writer per results folder.
    let (config, destination, _lock) = choose_config(
        from_args,
        args.run.dir.resume.as_deref(),
        args.run.dir.out.as_deref(),
        &default_name,
    )?;
    expect_kind(&config, RunKind::Sprt)?;
    crate::signals::resume_with(&[
        "chuhan",
        "sprt",
        "--resume",
        &destination.path().to_string_lossy(),
    ]);
    let settings = config
        .sprt
        .clone()
        .context("the manifest has no [config.sprt]")?;
    let sprt = sprt_of(&settings)?;
    let plan = plan_from_config(&config, pairings(&config), args.run.session.concurrency)?;
    let prepared = PreparedRun::new(config, plan, destination);
    let labels = prepared.pairing_labels();
    let describe = move |t: &Tally| {
        let mut text = describe_elo(t);
        if let Some(llr) = sprt.llr_pentanomial(&t.pentanomial()) {
            text.push_str(&format!(
                " LLR {llr:.2} ({:.2}, {:.2})",
                sprt.lower_bound(),
                sprt.upper_bound()
            ));
        }
        text
    };
    // A shard sees only every n-th pair: its own LLR would decide on the wrong pairs. So it
    // stops when the joint LLR over the pairs its sibling folders and it have played, in pair
    // order, has decided (the single-machine rule); `chuhan merge --check` decides as well.
    let mut joint = None;
    let stop: Option<Box<dyn StopRule>> = match JointStop::new(
        prepared.destination.path(),
        &prepared.config,
        sprt,
        prepared.config.pairs,
    ) {
        None => Some(Box::new(SprtStop::new(sprt))),
        Some((rule, decision)) => {
            joint = Some(decision);
            Some(Box::new(rule))
        }
    };
    let finished = execute(
        &prepared,
        stop,
        labels.clone(),
        Box::new(describe),
        args.run.session.audience(),
    )?;
    sprt_report(&prepared.config, &labels, &finished)?;
    let decision = joint.and_then(|d| *d.lock().unwrap_or_else(|e| e.into_inner()));
    if let Some(d) = decision {
        outln!(
            "stopped: the joint test over {} shard folders decided {} at pair {}; chuhan merge over all of them gives the verdict",
            d.shards,
            d.verdict.name(),
            d.stopped_at
        );
    }
    print_played(&prepared, &finished);
    Ok(EXIT_OK)
}
