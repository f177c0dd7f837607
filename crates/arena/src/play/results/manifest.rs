//! `manifest.toml`: the players, the kind of run, the resolved configuration and who made it.

use super::{git::git_state, serde_text::as_text, serde_text::model_text};
use crate::play::any::GameKind;
use crate::play::game::Adjudication;
use crate::play::limits::LimitSpec;
use crate::play::openings::OpeningSource;
use crate::play::schedule::Shard;
use crate::ratings::FirstMove;
use crate::stats::SprtModel;
use chuhan_engine::{Notation, RuleSet};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A player as recorded in the manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerEntry {
    /// Name in reports and games.csv.
    pub name: String,
    /// The spec it was resolved from.
    pub spec: String,
}

/// What kind of run a results folder holds (`command` in the manifest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunKind {
    /// `chuhan match`.
    Match,
    /// `chuhan sprt`.
    Sprt,
    /// `chuhan ladder`.
    Ladder,
    /// One stage of `chuhan calibrate`.
    Calibrate,
}

impl fmt::Display for RunKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RunKind::Match => "match",
            RunKind::Sprt => "sprt",
            RunKind::Ladder => "ladder",
            RunKind::Calibrate => "calibrate",
        })
    }
}

/// SPRT settings as recorded in the manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSettings {
    /// H0 bound.
    pub elo0: f64,
    /// H1 bound.
    pub elo1: f64,
    /// Type I error.
    pub alpha: f64,
    /// Type II error.
    pub beta: f64,
    /// The scale of the bounds (`normalized` or `logistic` in the manifest).
    #[serde(with = "model_text")]
    pub model: SprtModel,
}

/// Everything that determines a run's games, and how a ladder or calibration rates them (the
/// first-move advantage). Two runs with equal configs play equal games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunConfig {
    /// The kind of run.
    pub command: RunKind,
    /// The game played (`game = "chess"`; not written for xiangqi, so manifests of earlier
    /// runs read as xiangqi).
    #[serde(default, skip_serializing_if = "GameKind::is_xiangqi")]
    pub game: GameKind,
    /// Chess played under Chess960's castling rules (`chess960 = true`; not written for
    /// standard chess or xiangqi, so earlier manifests read as they were).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chess960: bool,
    /// Run seed (written as a string: TOML integers are signed 64-bit).
    #[serde(with = "as_text")]
    pub seed: u64,
    /// Pairs per pairing (match) or the maximum pairs (sprt).
    pub pairs: u64,
    /// Repetition rules (`asian` or `check-only` in the manifest).
    #[serde(with = "as_text")]
    pub rules: RuleSet,
    /// The judge's move limit.
    pub move_limit: u16,
    /// Shard of the pairs, if any.
    pub shard: Option<Shard>,
    /// Players in order.
    pub players: Vec<PlayerEntry>,
    /// Per-move limit.
    pub limit: LimitSpec,
    /// Opening source.
    pub openings: OpeningSource,
    /// Adjudication.
    pub adjudication: Adjudication,
    /// SPRT settings (sprt only).
    pub sprt: Option<SprtSettings>,
    /// Explicit pairings `[first, second]` (ladders, calibration); empty = a round robin.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairings: Vec<[usize; 2]>,
    /// Move notation of games.pgn (`iccs`, the default, is not written, so manifests of
    /// earlier runs read as ICCS).
    #[serde(default = "iccs", skip_serializing_if = "is_iccs", with = "as_text")]
    pub pgn_format: Notation,
    /// The first-move advantage of the joint fit of a ladder or calibration (`auto` estimates
    /// it; `0`, the default, ignores colours and is not written, so earlier manifests read as
    /// they were fitted).
    #[serde(
        default,
        skip_serializing_if = "FirstMove::ignores_colours",
        with = "as_text"
    )]
    pub first_move_advantage: FirstMove,
}

fn iccs() -> Notation {
    Notation::Iccs
}

fn is_iccs(n: &Notation) -> bool {
    *n == Notation::Iccs
}

/// `manifest.toml` of every run folder: who made it, and the configuration `C` that determines
/// its games ([`RunConfig`] for match, sprt, ladder and calibration stages; the SPSA
/// configuration for tuning runs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest<C = RunConfig> {
    /// chuhan version that made the run.
    pub chuhan_version: String,
    /// Git commit of the source tree, or "unknown".
    pub git_commit: String,
    /// "true", "false" or "unknown".
    pub git_dirty: String,
    /// The engine's bench signature (node count of `chuhan bench`) of this build.
    pub bench_signature: String,
    /// When the run was created (seconds since the Unix epoch).
    pub created_unix: u64,
    /// The resolved configuration.
    pub config: C,
    /// The engine files the players were read from, as they were when the run started (a
    /// resumed run refuses files that changed since). Absent in manifests written before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub engine_files: Vec<EngineFile>,
}

impl<C> Manifest<C> {
    /// A manifest for a new run of `config`, with version and git state filled in.
    pub fn new(config: C) -> Manifest<C> {
        let (git_commit, git_dirty) = git_state();
        Manifest {
            chuhan_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit,
            git_dirty,
            bench_signature: chuhan_engine::bench::SIGNATURE.to_string(),
            created_unix: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            config,
            engine_files: Vec::new(),
        }
    }
}

/// An engine file (`configs/engines/*.toml`, or an external engine's `[uci]` file) as it was
/// when a run started: its path as the player spec gives it, an FNV-1a hash and the text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineFile {
    /// The path in the player spec.
    pub path: String,
    /// FNV-1a of the contents (hex), for a quick look.
    pub fnv1a: String,
    /// The contents.
    pub text: String,
}
