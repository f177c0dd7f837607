//! Player specs: the text of a player (`random`, `greedy`, `default`, a level, an engine file,
//! with `:key=value` overrides) resolved once into a [`PlayerSpec`], which makes fresh players.

use super::builtin::EnginePlayer;
use super::external_knobs::apply_external_overrides;
use super::simple::SimplePlayer;
use super::uci::{load_external, ExternalEngine, ExternalPlayer, UciError};
use super::Player;
use crate::play::config::{builtin_levels, resolve_engine};
use chuhan_engine::EngineConfig;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// A resolved player description: validated once, then turned into fresh [`Player`]
/// instances (one per worker thread).
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// [`SimplePlayer::random`].
    Random,
    /// [`SimplePlayer::greedy`].
    Greedy,
    /// The in-process engine ([`EnginePlayer`]) with this configuration.
    Engine(Arc<EngineConfig>),
    /// An external UCI engine ([`ExternalPlayer`]).
    External(Arc<ExternalEngine>),
}

/// Why a player spec could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerSpecError {
    /// Nothing matched the text, or the engine configuration is invalid.
    #[error("{0} (built-in test players: random, greedy)")]
    Unknown(String),
    /// An external engine file that is not valid.
    #[error("{0}")]
    External(String),
}

/// Resolves a player spec from the command line. The one place that knows every kind of player:
/// `random`, `greedy`, `default` (the engine at full strength), a level name (`easy`, `medium`,
/// `hard`) or an engine configuration file (`configs/engines/*.toml`): the in-process engine,
/// or an external UCI engine when the file has a `[uci]` table. An external engine file takes
/// the overrides of [`super::external_knobs`] (`go-nodes`, `go-depth`, `movetime`,
/// `option:<name>`).
///
/// In the arena, time comes only from the run's limits: a level's own time cap is dropped so
/// that node- and depth-limited runs stay reproducible.
pub fn resolve_player(text: &str) -> Result<PlayerSpec, PlayerSpecError> {
    match text.trim() {
        "random" => Ok(PlayerSpec::Random),
        "greedy" => Ok(PlayerSpec::Greedy),
        other => {
            match load_external(Path::new(other)) {
                Ok(Some(engine)) => return Ok(PlayerSpec::External(Arc::new(engine))),
                Ok(None) => {}
                Err(e) => return Err(PlayerSpecError::External(crate::error_chain(&e))),
            }
            // An external engine file with knob overrides: `fs.toml:go-nodes=500,option:Skill
            // Level=3` (the first colon ends the file name).
            if let Some((base, mods)) = other.split_once(':') {
                match load_external(Path::new(base.trim())) {
                    Ok(Some(mut engine)) => {
                        apply_external_overrides(&mut engine, mods, other)
                            .map_err(|e| PlayerSpecError::External(crate::error_chain(&e)))?;
                        return Ok(PlayerSpec::External(Arc::new(engine)));
                    }
                    Ok(None) => {}
                    Err(e) => return Err(PlayerSpecError::External(crate::error_chain(&e))),
                }
            }
            let mut config = resolve_engine(other, &builtin_levels())
                .map_err(|e| PlayerSpecError::Unknown(crate::error_chain(&e)))?;
            if let Some(level) = config.level.as_mut() {
                level.time = None;
            }
            Ok(PlayerSpec::Engine(Arc::new(config)))
        }
    }
}

impl PlayerSpec {
    /// A fresh player instance named `name`.
    pub fn create(&self, name: &str) -> Box<dyn Player> {
        match self {
            PlayerSpec::Random => Box::new(SimplePlayer::random(name)),
            PlayerSpec::Greedy => Box::new(SimplePlayer::greedy(name)),
            PlayerSpec::Engine(config) => Box::new(EnginePlayer::new(name, (**config).clone())),
            PlayerSpec::External(engine) => Box::new(ExternalPlayer::new(name, (**engine).clone())),
        }
    }

    /// Prepares the spec for a run writing to `run_dir` (`name` is the entrant's name):
    /// external engines keep their stderr under `run_dir/engines/<name>/`, with every
    /// character of the name other than letters, digits, `.`, `-` and `_` written `_`
    /// (`configs/engines/x.toml` -> `configs_engines_x.toml`).
    pub fn for_run(&self, name: &str, run_dir: &Path) -> PlayerSpec {
        let folder: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        match self {
            PlayerSpec::External(engine) => PlayerSpec::External(Arc::new(ExternalEngine {
                log_dir: Some(run_dir.join("engines").join(folder)),
                ..(**engine).clone()
            })),
            other => other.clone(),
        }
    }

    /// Checks that the player can play before a run starts (external engines are started,
    /// greeted and quit).
    pub fn check(&self) -> Result<(), UciError> {
        match self {
            PlayerSpec::External(engine) => engine.probe(),
            _ => Ok(()),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Engine(c) => write!(f, "engine {}", c.name),
            PlayerSpec::External(e) => write!(f, "uci {}", e.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_resolve_and_unknown_names_are_named() {
        assert_eq!(resolve_player("random"), Ok(PlayerSpec::Random));
        assert_eq!(resolve_player("greedy"), Ok(PlayerSpec::Greedy));
        assert!(matches!(resolve_player("easy"), Ok(PlayerSpec::Engine(_))));
        let err = resolve_player("stockfish").unwrap_err().to_string();
        assert!(err.contains("unknown player 'stockfish'"), "{err}");
    }
}
