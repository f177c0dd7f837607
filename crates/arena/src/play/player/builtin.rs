//! The in-process engines (xiangqi's and chess's) as a player.

use super::{MoveChoice, Player, PlayerFailure};
use crate::play::any::{AnyGame, AnyMove, GameKind};
use crate::play::limits::MoveLimits;
use chuhan_engine::chess::{ChessConfig, ChessEngine};
use chuhan_engine::{Engine, EngineConfig, Limits};

/// The engine of one game.
enum Inner {
    Xiangqi(Box<Engine>),
    Chess(Box<ChessEngine>),
}

/// The in-process engine: searches under the move limits (and its level's caps), over the
/// moves that do not forfeit by a repetition rule (xiangqi; chess has none).
pub struct EnginePlayer {
    name: String,
    engine: Inner,
}

impl EnginePlayer {
    /// A xiangqi engine player called `name`.
    pub fn new(name: &str, config: EngineConfig) -> EnginePlayer {
        EnginePlayer {
            name: name.to_string(),
            engine: Inner::Xiangqi(Box::new(Engine::new(config))),
        }
    }

    /// A chess engine player called `name`.
    pub fn chess(name: &str, config: ChessConfig) -> EnginePlayer {
        EnginePlayer {
            name: name.to_string(),
            engine: Inner::Chess(Box::new(ChessEngine::new(config))),
        }
    }
}

/// Search limits for one move. On a clock: the engine's one rule, [`Limits::clock`].
pub fn search_limits(limits: &MoveLimits) -> Limits {
    let mut out = Limits {
        depth: limits.depth,
        nodes: limits.nodes,
        ..Limits::default()
    };
    if let Some(t) = limits.movetime {
        out.soft_time = Some(t);
        out.hard_time = Some(t);
    }
    if let Some(left) = limits.time_left {
        let clock = Limits::clock(left, limits.increment, limits.moves_to_go);
        out.soft_time = clock.soft_time;
        out.hard_time = clock.hard_time;
    }
    out
}

impl Player for EnginePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, seed: u64) {
        match &mut self.engine {
            Inner::Xiangqi(e) => e.new_game(seed),
            Inner::Chess(e) => e.new_game(seed),
        }
    }

    fn choose_move(
        &mut self,
        game: &mut AnyGame,
        limits: &MoveLimits,
    ) -> Result<MoveChoice, PlayerFailure> {
        let ply = game.ply();
        let limits = search_limits(limits);
        let (mv, score, depth, nodes) = match (&mut self.engine, game) {
            (Inner::Xiangqi(engine), AnyGame::Xiangqi(game)) => {
                let all = game.legal_moves().len();
                let safe = super::playable_moves(game);
                // Empty candidates mean "all legal moves" to the engine.
                let candidates = if safe.len() == all { Vec::new() } else { safe };
                engine.set_rules(game.config().rules);
                let r = engine.choose_move(game.position(), &candidates, &limits, ply, &mut |_| {});
                let mv = (!r.best_move.is_none()).then_some(AnyMove::Xiangqi(r.best_move));
                (mv, r.score, r.depth, r.nodes)
            }
            (Inner::Chess(engine), AnyGame::Chess(game)) => {
                let r = engine.choose_move(game.position(), &limits, ply, &mut |_| {});
                let mv = (!r.best_move.is_none()).then_some(AnyMove::Chess(r.best_move));
                (mv, r.score, r.depth, r.nodes)
            }
            (_, game) => {
                // Runs check every player's game before they start; this is a bug guard.
                return Err(PlayerFailure::Crash(format!(
                    "this engine does not play {}",
                    game.kind()
                )));
            }
        };
        let Some(mv) = mv else {
            return Err(PlayerFailure::Crash("the search returned no move".into()));
        };
        Ok(MoveChoice {
            mv,
            score: Some(score),
            depth: Some(depth),
            nodes,
        })
    }
}

/// Reads the `game` key of an engine file (`FILE` or `FILE:overrides`), if `spec` names a TOML
/// file that has one: xiangqi when the file has none, `None` when `spec` names no file.
pub fn file_game(spec: &str) -> Option<Result<GameKind, String>> {
    let file = spec.split_once(':').map_or(spec, |(f, _)| f).trim();
    let path = std::path::Path::new(file);
    if !path.extension().is_some_and(|e| e == "toml") || !path.is_file() {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let table: toml::Table = text.parse().ok()?;
    Some(match table.get("game") {
        None => Ok(GameKind::Xiangqi),
        Some(toml::Value::String(s)) => s.parse().map_err(|e| format!("{file}: game = {e}")),
        Some(other) => Err(format!(
            "{file}: game = {other}: expected \"xiangqi\" or \"chess\""
        )),
    })
}

/// Resolves a built-in chess player: `default` (full strength), a chess level (`easy`,
/// `medium`, `hard`: [`chuhan_engine::chess::engine::levels`]) or a chess engine file
/// (`game = "chess"`, with `name`, `tt_mb`, `level` as a level name and a `[params]` table
/// of evaluation parameters by name), each optionally with
/// `:key=value,...` overrides of `depth`, `nodes`, `margin`, `random_rate` and `tt_mb`. As for
/// xiangqi, a level's own time cap is dropped in the arena so runs stay reproducible.
pub fn resolve_chess_engine(spec: &str) -> Result<ChessConfig, String> {
    let (base, mods) = spec
        .split_once(':')
        .map_or((spec.trim(), ""), |(b, m)| (b.trim(), m));
    let levels = chuhan_engine::chess::engine::levels();
    let known = || {
        levels
            .iter()
            .map(|l| l.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let level_named = |name: &str, source: &str| {
        levels
            .iter()
            .find(|l| l.name == name)
            .cloned()
            .ok_or_else(|| {
                format!(
                    "{source}: '{name}' is not a chess level (known: {})",
                    known()
                )
            })
    };
    let mut config = ChessConfig {
        name: base.to_string(),
        ..ChessConfig::default()
    };
    if base == "default" {
    } else if levels.iter().any(|l| l.name == base) {
        config.level = Some(level_named(base, "player")?);
    } else if let Some(game) = file_game(base) {
        if game? != GameKind::Chess {
            return Err(format!(
                "{base} is a xiangqi engine file, and this run plays chess (a chess engine file says game = \"chess\")"
            ));
        }
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct ChessToml {
            game: String,
            name: Option<String>,
            tt_mb: Option<usize>,
            level: Option<String>,
            params: Option<std::collections::BTreeMap<String, i32>>,
        }
        let text = std::fs::read_to_string(base).map_err(|e| format!("{base}: {e}"))?;
        let t: ChessToml = toml::from_str(&text).map_err(|e| format!("{base}: {e}"))?;
        if let Some(name) = t.name {
            config.name = name;
        }
        if let Some(mb) = t.tt_mb {
            config.tt_mb = mb;
        }
        if let Some(level) = t.level {
            config.level = Some(level_named(&level, base)?);
        }
        // Evaluation parameters by name (what the tuners write).
        for (name, value) in t.params.unwrap_or_default() {
            if !config.params.set(&name, value) {
                return Err(format!(
                    "{base}: [params]: '{name}' is not a chess evaluation parameter (known: {})",
                    chuhan_engine::chess::EvalParams::NAMES.join(", ")
                ));
            }
        }
    } else {
        return Err(format!(
            "unknown chess player '{base}' (chess players: random, greedy, default, {}, a chess engine file, or an external engine file with game = \"chess\")",
            known()
        ));
    }
    for item in mods.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| format!("player '{spec}': '{item}' is not key=value"))?;
        let bad = || format!("player '{spec}': {key} = '{value}' is not a valid value");
        if key == "tt_mb" {
            config.tt_mb = value.parse().ok().filter(|&n| n >= 1).ok_or_else(bad)?;
            continue;
        }
        let level = config
            .level
            .get_or_insert_with(|| chuhan_engine::Level::uncapped(config.name.clone()));
        match key {
            "depth" => level.depth = Some(value.parse().ok().filter(|&n| n >= 1).ok_or_else(bad)?),
            "nodes" => level.nodes = Some(value.parse().ok().filter(|&n| n >= 1).ok_or_else(bad)?),
            "margin" => level.margin = value.parse().ok().filter(|&n| n >= 0).ok_or_else(bad)?,
            "random_rate" => {
                level.random_rate = value
                    .parse()
                    .ok()
                    .filter(|r| (0.0..=1.0).contains(r))
                    .ok_or_else(bad)?
            }
            _ => {
                return Err(format!(
                    "player '{spec}': unknown key '{key}' (chess engines take depth, nodes, margin, random_rate, tt_mb)"
                ))
            }
        }
    }
    if let Some(level) = config.level.as_mut() {
        level.time = None;
    }
    Ok(config)
}
