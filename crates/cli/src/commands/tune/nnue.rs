//! `chuhan tune nnue`: the flags to a [`NnuePlan`], the library's job
//! ([`chuhan_arena::jobs::tune::nnue::run`]), and its events and summary on the terminal.

use super::{check_fit_args, FitDataArgs};
use crate::EXIT_OK;
use anyhow::bail;
use chuhan_arena::jobs::tune::nnue::{self, NnueEvent, NnuePlan, NnueSettings};
use chuhan_engine::eval::nnue::MAX_HIDDEN;
use clap::Args;
use std::path::PathBuf;

/// `chuhan tune nnue`.
#[derive(Debug, Args)]
pub struct NnueArgs {
    /// The data, its split, threads and --force.
    #[command(flatten)]
    pub fit: FitDataArgs,
    /// Hidden units per side.
    #[arg(long, default_value_t = 32)]
    pub hidden: usize,
    /// Epochs at most.
    #[arg(long, default_value_t = 100)]
    pub epochs: usize,
    /// Early stopping: end once this many epochs pass without a new lowest validation loss
    /// (the weights of the lowest are written either way).
    #[arg(long, default_value_t = 8)]
    pub patience: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.002)]
    pub lr: f32,
    /// Positions per step.
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Scaling constant K of the sigmoid (win probability of K × centipawns).
    #[arg(long, default_value_t = 0.68)]
    pub k: f64,
    /// Weight of the game result in the target, from 0 to 1 (0: the recorded scores only, for
    /// `datagen --engine` data).
    #[arg(long, default_value_t = 0.0)]
    pub lambda: f64,
    /// Train the network as a correction added to the handcrafted evaluation (the engine then
    /// evaluates with both) instead of a replacement for it.
    #[arg(long)]
    pub residual: bool,
    /// Output folder (default: results/<date>-nnue). Must be empty unless --force.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress output on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// `chuhan tune nnue`: exit 0 when the network and its files are written, 2 on unusable input.
pub fn run(args: &NnueArgs) -> anyhow::Result<u8> {
    check_fit_args(&args.fit, args.lambda, Some(args.k))?;
    if args.epochs == 0 || args.patience == 0 || args.batch == 0 {
        bail!("--epochs, --patience and --batch must be at least 1");
    }
    if args.hidden == 0 || args.hidden > MAX_HIDDEN {
        bail!("--hidden {} must be 1..={MAX_HIDDEN}", args.hidden);
    }
    if !(args.lr.is_finite() && args.lr > 0.0) {
        bail!("--lr {} must be a positive number", args.lr);
    }
    let plan = NnuePlan {
        data: args.fit.data.clone(),
        validation: args.fit.validation,
        max_eval: args.fit.max_eval,
        lambda: args.lambda,
        threads: args.fit.threads,
        out: args.out.clone(),
        force: args.fit.force,
        settings: NnueSettings {
            hidden: args.hidden,
            epochs: args.epochs,
            patience: Some(args.patience),
            learning_rate: args.lr,
            batch: args.batch,
            seed: args.fit.seed(),
            k: args.k,
            residual: args.residual,
        },
    };
    let quiet = args.quiet;
    let done = nnue::run(&plan, &mut |event| {
        if let NnueEvent::Started { .. } = event {
            // Nothing is kept until the end: an interrupted run starts again.
            crate::signals::start_again();
        }
        if let Some(line) = event.line().filter(|_| !quiet) {
            eprintln!("{line}");
        }
    })?;
    out!("{}", done.summary);
    outln!("seconds: {:.1}", done.seconds);
    outln!("written: {}", done.dir.display());
    Ok(EXIT_OK)
}
