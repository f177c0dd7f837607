//! What the settings plan: their checks, the level specs and engine files, the grid and
//! validation ladders.

use super::Result;
use crate::jobs::calibrate::error::{invalid, other, refuse, IoContext};
use crate::jobs::calibrate::settings::{CalibrateSettings, Stage};
use crate::jobs::calibrate::{levels_toml, ExternalKnob, Knob};
use crate::jobs::ladder::adaptive::{parse_duration, Precision};
use crate::jobs::ladder::{LadderConfig, LadderPlayer};
use crate::play::any::GameKind;
use crate::play::config::{builtin_levels, resolve_engine};
use crate::play::player::external_knobs::engine_file_with;
use crate::play::player::{resolve_player_for, PlayerSpec};
use crate::play::results::today;
use chuhan_engine::RuleSet;
use std::path::Path;
use std::time::Duration;

impl CalibrateSettings {
    /// Checks the settings (errors name the flag).
    pub fn check(&self) -> Result<()> {
        self.knob.check_grid(&self.grid)?;
        if self.targets.is_empty() {
            refuse!("--targets needs at least one value");
        }
        if self.targets.windows(2).any(|w| w[1] <= w[0]) {
            refuse!("--targets must increase (weakest level first)");
        }
        if self.names.len() != self.targets.len() {
            refuse!(
                "--names gives {} names for {} targets",
                self.names.len(),
                self.targets.len()
            );
        }
        if self.names.iter().any(|n| n.is_empty()) {
            refuse!("--names: a level name is empty");
        }
        if self.pairs == 0 || self.validate_pairs == 0 || self.max_nodes == 0 {
            refuse!("--pairs, --validate-pairs and --max-nodes must be at least 1");
        }
        if self.bootstrap < 100 {
            refuse!("--bootstrap must be at least 100");
        }
        if !(self.tolerance.is_finite() && self.tolerance > 0.0) {
            refuse!(
                "--tolerance must be a positive number of Elo, not {}",
                self.tolerance
            );
        }
        match self.precision {
            None if self.grid_precision.is_some()
                || self.max_games.is_some()
                || self.max_time.is_some() =>
            {
                refuse!(
                    "--grid-precision, --max-games and --max-time apply to a calibration played \
                     to a precision: add --precision"
                )
            }
            _ => {}
        }
        if let Some(p) = self.precision {
            self.stage_precision(p, 1)
                .check(self.grid_pairings())
                .map_err(other)?;
            let g = self.grid_precision.unwrap_or(p);
            self.stage_precision(g, 1)
                .check(self.grid_pairings())
                .map_err(|e| {
                    invalid!(
                        "{}",
                        e.to_string().replace("--precision", "--grid-precision")
                    )
                })?;
            if self.names.len() >= 2 {
                self.stage_precision(p, 1)
                    .check(self.names.len() - 1)
                    .map_err(other)?;
            }
        }
        if let Some((_, mods)) = self.base.split_once(':') {
            let key = self.knob.key();
            if mods
                .split(',')
                .filter_map(|kv| kv.split_once('='))
                .any(|(k, _)| k.trim() == key)
            {
                refuse!("--base already sets {key}; the calibration moves it");
            }
        }
        let base = resolve_player_for(&self.base, self.game)
            .map_err(|e| invalid!("--base '{}': {e}", self.base))?;
        match (&base, self.knob.is_external()) {
            (PlayerSpec::External(_), true)
            | (PlayerSpec::Engine(_) | PlayerSpec::ChessEngine(_), false) => {}
            (_, true) => refuse!(
                "--knob {} moves an external engine: --base must be an engine file with a \
                 [uci] table, not '{}'",
                self.knob.key(),
                self.base
            ),
            (_, false) => refuse!(
                "--knob {} moves the built-in engine: --base must be default, a level or a \
                 built-in engine file, not '{}' (an external engine takes go-nodes, go-depth, \
                 movetime or option:<name>)",
                self.knob.key(),
                self.base
            ),
        }
        for v in &self.grid {
            resolve_player_for(&self.spec(*v), self.game)
                .map_err(|e| invalid!("--base '{}': {e}", self.base))?;
        }
        Ok(())
    }

    /// The player spec of a knob setting.
    pub fn spec(&self, value: f64) -> String {
        let v = self.knob.format(value);
        if self.base.contains(':') {
            format!("{},{}={v}", self.base, self.knob.key())
        } else {
            format!("{}:{}={v}", self.base, self.knob.key())
        }
    }

    /// Pairings of the grid stage (neighbours and next-but-one).
    fn grid_pairings(&self) -> usize {
        let n = self.grid.len();
        (n - 1) + n.saturating_sub(2)
    }

    /// The wall-time budget, parsed.
    pub fn time_budget(&self) -> Result<Option<Duration>> {
        self.max_time
            .as_deref()
            .map(|t| parse_duration(t, "--max-time").map_err(other))
            .transpose()
    }

    /// The adaptive settings of a stage with target `precision` whose first round plays
    /// `first_pairs` per pairing (the time budget is set by [`run`]).
    pub(super) fn stage_precision(&self, precision: f64, first_pairs: u64) -> Precision {
        Precision {
            precision,
            max_games: self.max_games,
            max_time: None,
            first_pairs,
        }
    }

    /// The engine file of an external engine level at knob value `value`: the base engine file
    /// with the base's own overrides and the knob set (see [`engine_file_with`]), headed by a
    /// comment saying how it was calibrated.
    pub fn engine_file(&self, value: f64) -> Result<String> {
        let Knob::External(knob) = &self.knob else {
            refuse!(
                "--knob {} is not a knob of an external engine",
                self.knob.key()
            );
        };
        let (path, mods) = match self.base.split_once(':') {
            Some((p, m)) => (p.trim(), m),
            None => (self.base.trim(), ""),
        };
        let mut text =
            std::fs::read_to_string(path).io_context(|| format!("--base: cannot read {path}"))?;
        let Some(resolved) =
            crate::play::player::uci::load_external(Path::new(path)).map_err(other)?
        else {
            refuse!("--base {path} is not an external engine file (no [uci] table)");
        };
        for item in mods.split(',').filter(|s| !s.trim().is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| invalid!("--base: '{item}' is not key=value"))?;
            let other = ExternalKnob::parse(k)
                .ok_or_else(|| invalid!("--base: '{}' is not an external engine knob", k.trim()))?;
            text = engine_file_with(&text, &resolved, &other, v.trim())
                .map_err(crate::jobs::calibrate::error::other)?;
        }
        text = engine_file_with(&text, &resolved, knob, &self.knob.format(value)).map_err(other)?;
        Ok(format!(
            "# Calibrated by `chuhan calibrate` on {}: {} = {} (base {}, grid {:?}, targets {:?}).\n\
             # Recalibrate whenever the engine changes.\n{text}",
            today(),
            self.knob.key(),
            self.knob.format(value),
            self.base,
            self.grid,
            self.targets
        ))
    }

    /// What the built-in base engine has that a levels file cannot carry (a level table holds
    /// only level settings, and a level played by name runs on the default engine): another
    /// evaluation, other parameter values or other search options. `None` for a base that is
    /// the default engine with or without a level (`default`, `hard`), and for chess.
    pub fn base_beyond_levels(&self) -> Option<String> {
        if self.game != GameKind::Xiangqi || self.knob.is_external() {
            return None;
        }
        let base = resolve_engine(&self.base, &builtin_levels()).ok()?;
        let default = chuhan_engine::EngineConfig::default();
        let mut what = Vec::new();
        match (&base.network, &default.network) {
            (None, Some(_)) => what.push("the handcrafted evaluation"),
            (Some(a), Some(b)) if !std::sync::Arc::ptr_eq(a, b) => what.push("its own network"),
            _ => {}
        }
        if base.params != default.params {
            what.push("parameter values of its own");
        }
        if base.options != default.options {
            what.push("search options of its own");
        }
        (!what.is_empty()).then(|| {
            format!(
                "the base {} has {}, which a levels file cannot hold: played by name from \
                 levels.toml these levels would run on the default engine; play them by their \
                 player specs (as the validation did)",
                self.base,
                what.join(" and ")
            )
        })
    }

    /// The levels file of the placed levels (their `specs`, in target order),
    /// with a header saying how they were calibrated.
    pub fn levels_file(&self, specs: &[String]) -> Result<String> {
        let levels: Vec<chuhan_engine::Level> = specs
            .iter()
            .map(|s| {
                let level = match self.game {
                    GameKind::Xiangqi => resolve_engine(s, &builtin_levels()).map_err(other)?.level,
                    GameKind::Chess => {
                        crate::play::player::builtin::resolve_chess_engine(s)
                            .map_err(other)?
                            .level
                    }
                };
                Ok(level.unwrap_or_else(|| chuhan_engine::Level {
                    name: s.clone(),
                    ..chuhan_engine::Level::easy()
                }))
            })
            .collect::<Result<_>>()?;
        let mut header = format!(
            "Calibrated by `chuhan calibrate` on {}; engine bench signature {}.\n\
             Knob: {}; base: {}; grid: {:?}; targets (Elo above the first grid setting): {:?}.\n\
             Recalibrate whenever the bench signature changes.",
            today(),
            self.game.bench_signature(),
            self.knob.key(),
            self.base,
            self.grid,
            self.targets
        );
        if let Some(warning) = self.base_beyond_levels() {
            header.push_str(&format!("\nWarning: {warning}."));
        }
        Ok(levels_toml(
            &self.names,
            specs,
            &levels,
            &self.targets,
            &header,
        ))
    }

    /// The grid stage's ladder: every grid setting, neighbours and next-but-one.
    pub fn grid_ladder(&self) -> Result<LadderConfig> {
        let knob = &self.knob;
        let players: Vec<LadderPlayer> = self
            .grid
            .iter()
            .map(|&v| LadderPlayer {
                name: format!("{}={}", knob.key(), knob.format(v)),
                spec: self.spec(v),
            })
            .collect();
        let grid = self.ladder(Stage::Grid.name(), players, self.pairs, 2);
        grid.validate("calibration grid").map_err(other)?;
        Ok(grid)
    }

    /// The validation stage's ladder: the placed levels (their `specs`), neighbours only.
    pub fn validate_ladder(&self, specs: &[String]) -> LadderConfig {
        let players: Vec<LadderPlayer> = self
            .names
            .iter()
            .zip(specs)
            .map(|(n, s)| LadderPlayer {
                name: n.clone(),
                spec: s.clone(),
            })
            .collect();
        self.ladder(Stage::Validate.name(), players, self.validate_pairs, 1)
    }

    /// The ladder of one stage.
    pub fn ladder(
        &self,
        name: &str,
        players: Vec<LadderPlayer>,
        pairs: u64,
        neighbours: usize,
    ) -> LadderConfig {
        LadderConfig {
            game: Some(self.game),
            chess960: self.chess960,
            name: name.to_string(),
            seed: self.seed,
            pairs,
            precision: None,
            max_games: None,
            max_time: None,
            neighbours,
            anchors: Vec::new(),
            max_nodes: self.max_nodes,
            opening_plies: self.opening_plies,
            rules: RuleSet::Asian,
            move_limit: 120,
            bootstrap: self.bootstrap,
            pgn_format: self.pgn_format,
            first_move_advantage: self.first_move_advantage,
            players,
        }
    }
}
