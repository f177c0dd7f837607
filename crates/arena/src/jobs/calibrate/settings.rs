//! What a calibration folder records, as stored: the settings (calibrate.toml), its stages and
//! a shard folder's stage.toml. Plain data: the job ([`super::job`]) plans and plays them, the
//! merge ([`crate::jobs::merge`]) reads them.

use super::Knob;
use crate::play::any::GameKind;
use crate::play::schedule::Shard;
use crate::ratings::FirstMove;
use chuhan_engine::Notation;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Default tolerance of a validated gap: its 95% interval must lie within target ± this.
pub const DEFAULT_TOLERANCE: f64 = 50.0;

fn default_tolerance() -> f64 {
    DEFAULT_TOLERANCE
}

/// Settings of a calibration run (saved as calibrate.toml in the run folder).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalibrateSettings {
    /// Knob.
    pub knob: Knob,
    /// Base player spec the knob is applied to.
    pub base: String,
    /// Grid of knob values, weakest first.
    pub grid: Vec<f64>,
    /// Target Elo of each level above the first grid setting.
    pub targets: Vec<f64>,
    /// Level names.
    pub names: Vec<String>,
    /// Game pairs per grid pairing.
    pub pairs: u64,
    /// Game pairs per validation pairing.
    pub validate_pairs: u64,
    /// Per-move node cap.
    pub max_nodes: u64,
    /// Random plies of generated openings.
    pub opening_plies: u32,
    /// Run seed.
    pub seed: u64,
    /// Bootstrap replicates: no longer used (the intervals are honest); kept so that older
    /// calibration folders resume.
    pub bootstrap: usize,
    /// Play each stage to this 95% half-width of every neighbour gap (Elo); `None`: a fixed
    /// schedule of `pairs` / `validate_pairs` per pairing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    /// The grid stage's own precision target (default: `precision`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid_precision: Option<f64>,
    /// With a precision: at most this many games in each stage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_games: Option<u64>,
    /// With a precision: wall-time budget of one session of the whole calibration (e.g. `1h`);
    /// the validation stage gets what the grid left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_time: Option<String>,
    /// A validated gap passes when its 95% interval lies within target ± this many Elo.
    #[serde(default = "default_tolerance")]
    pub tolerance: f64,
    /// The game (not written for xiangqi, so earlier calibrate.toml files read as xiangqi).
    #[serde(default, skip_serializing_if = "GameKind::is_xiangqi")]
    pub game: GameKind,
    /// Chess960 (chess only): every stage's games start from the 960 start positions.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chess960: bool,
    /// Move notation of every stage's games.pgn (ICCS when absent, as older folders have it).
    #[serde(
        default = "iccs",
        skip_serializing_if = "is_iccs",
        with = "crate::play::results::as_text"
    )]
    pub pgn_format: Notation,
    /// The first-move advantage of every stage's joint fit (`auto`, or Elo; 0, the default,
    /// ignores colours and is not written, so earlier folders read as they were fitted).
    #[serde(
        default,
        skip_serializing_if = "FirstMove::ignores_colours",
        with = "crate::play::results::as_text"
    )]
    pub first_move_advantage: FirstMove,
}

fn iccs() -> Notation {
    Notation::Iccs
}

fn is_iccs(n: &Notation) -> bool {
    *n == Notation::Iccs
}

/// The file in a shard folder that names its stage and shard.
pub const STAGE_FILE: &str = "stage.toml";

/// The settings file of a calibration folder (and of each of its shards).
pub const SETTINGS_FILE: &str = "calibrate.toml";

/// A stage of a calibration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// The grid of knob settings the curve is fitted to.
    Grid,
    /// Adjacent placed levels against each other.
    Validate,
}

impl Stage {
    /// The stage's name, as `--stage` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Grid => "grid",
            Stage::Validate => "validate",
        }
    }

    /// The stage's folder in a calibration folder.
    pub fn folder(self) -> &'static str {
        self.name()
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Stage {
    type Err = String;
    fn from_str(s: &str) -> Result<Stage, String> {
        match s.trim() {
            "grid" => Ok(Stage::Grid),
            "validate" => Ok(Stage::Validate),
            other => Err(format!(
                "--stage '{other}': expected grid or validate (the calibration's two stages, in \
                 that order)"
            )),
        }
    }
}

/// stage.toml of a shard folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StageFile {
    /// The stage the shard plays.
    pub stage: Stage,
    /// The shard, `i/n`.
    #[serde(with = "crate::play::results::as_text")]
    pub shard: Shard,
    /// The validation's merged calibration folder (whose grid placed the levels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<PathBuf>,
}

impl StageFile {
    /// The shard's stage folder in its shard folder `dir`.
    pub fn run_dir(&self, dir: &Path) -> PathBuf {
        dir.join(self.stage.folder())
    }
}

/// The shards of one calibration stage, as [`ShardSet::read`] finds them.
#[derive(Clone, Debug, PartialEq)]
pub struct StageShards {
    /// The calibration's settings (equal in every shard).
    pub settings: CalibrateSettings,
    /// The stage.
    pub stage: Stage,
}
