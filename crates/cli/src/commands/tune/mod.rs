//! `chuhan tune`: its methods ([`texel`], [`spsa`], [`nnue`]), each in its own module, and the
//! flags and checks `tune texel` and `tune nnue` share.

mod nnue;
mod spsa;
mod texel;

use crate::common::flags::SeedArgs;
use anyhow::bail;
use clap::{Args, Subcommand};
use std::path::PathBuf;

pub use nnue::NnueArgs;
pub use spsa::SpsaArgs;
pub use texel::TexelArgs;

/// `chuhan tune` methods.
#[derive(Debug, Subcommand)]
// Parsed once per process: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum TuneCommand {
    /// Texel tuning: fit the linear evaluation weights to game results by gradient descent.
    Texel(TexelArgs),
    /// SPSA (fishtest-compatible): perturb the parameters, play game pairs, follow the result.
    Spsa(SpsaArgs),
    /// Train a network (NNUE: 1,260 inputs per side → hidden → 1) on labelled positions; the
    /// folder gets network.nnue and an engine file that plays with it.
    Nnue(NnueArgs),
}

/// The flags `tune texel` and `tune nnue` share: the labelled positions, their split, the
/// threads and --force.
#[derive(Debug, Args)]
#[command(mut_arg("seed", |a| a.help(
    "Seed for the train/validation split (and, for nnue, the initial weights and the \
     shuffles; default 1)",
)))]
pub struct FitDataArgs {
    /// Labelled positions, one `FEN;result;ply;eval` a line (`chuhan datagen` output).
    #[arg(long)]
    pub data: PathBuf,
    /// Seed of the split (and of nnue's weights).
    #[command(flatten)]
    pub seed: SeedArgs,
    /// Fraction of games (or positions, without `#game` markers) held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Leave out positions whose recorded score (the data's `eval` field) is beyond this many
    /// centipawns either way, such as mate scores (default: keep every position).
    #[arg(long)]
    pub max_eval: Option<f64>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write into a non-empty --out folder, replacing its files.
    #[arg(long)]
    pub force: bool,
}

impl FitDataArgs {
    /// The split's seed (1 without `--seed`).
    pub fn seed(&self) -> u64 {
        self.seed.or(chuhan_arena::play::setup::DEFAULT_SEED)
    }
}

/// Runs a `chuhan tune` method.
pub fn run(command: &TuneCommand) -> anyhow::Result<u8> {
    match command {
        TuneCommand::Texel(args) => texel::run(args),
        TuneCommand::Spsa(args) => spsa::run(args),
        TuneCommand::Nnue(args) => nnue::run(args),
    }
}

/// The arguments `tune texel` and `tune nnue` share, checked before any work: their
/// [`FitDataArgs`], and `--lambda` and `--k` (`None`: texel fits K), which each declares with
/// its own default.
pub(super) fn check_fit_args(fit: &FitDataArgs, lambda: f64, k: Option<f64>) -> anyhow::Result<()> {
    let FitDataArgs {
        threads,
        validation,
        max_eval,
        ..
    } = *fit;
    if threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    if !(0.0..1.0).contains(&validation) {
        bail!("--validation {validation} must be at least 0 and below 1");
    }
    if !(0.0..=1.0).contains(&lambda) {
        bail!("--lambda {lambda} must be between 0 and 1");
    }
    if let Some(max) = max_eval {
        if !(max.is_finite() && max >= 0.0) {
            bail!("--max-eval {max} must be a number of at least 0");
        }
    }
    if let Some(k) = k {
        if !(k.is_finite() && k > 0.0) {
            bail!("--k {k} must be a positive number");
        }
    }
    Ok(())
}
