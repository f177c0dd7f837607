//! Player specs: the text of a player (`random`, `greedy`, `default`, a level, an engine file,
//! with `:key=value` overrides) resolved once into a [`PlayerSpec`], which makes fresh players.

use super::builtin::{file_game, resolve_chess_engine, EnginePlayer};
use super::external_knobs::apply_external_overrides;
use super::simple::SimplePlayer;
use super::uci::{load_external, ExternalEngine, ExternalPlayer, UciError};
use super::Player;
use crate::play::any::GameKind;
use crate::play::config::{builtin_levels, resolve_engine};
use chuhan_engine::chess::ChessConfig;
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
    /// The in-process chess engine ([`EnginePlayer::chess`]) with this configuration.
    ChessEngine(Arc<ChessConfig>),
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
    /// A player of the other game.
    #[error("{0}")]
    WrongGame(String),
}

/// Resolves a player spec for a run of `game`: as [`resolve_player`] for xiangqi; for chess,
/// `random`, `greedy`, the chess built-ins ([`resolve_chess_engine`]) and external engine files
/// that say `game = "chess"`. A player of the other game is an error naming it.
pub fn resolve_player_for(text: &str, game: GameKind) -> Result<PlayerSpec, PlayerSpecError> {
    let trimmed = text.trim();
    if let Some(Err(e)) = file_game(trimmed) {
        return Err(PlayerSpecError::Unknown(e));
    }
    let spec = match game {
        GameKind::Xiangqi => {
            if let Some(Ok(GameKind::Chess)) = file_game(trimmed) {
                return Err(PlayerSpecError::WrongGame(format!(
                    "player '{trimmed}' is a chess engine (its file says game = \"chess\"), and this run plays xiangqi (give --game chess, or game = \"chess\" in a ladder file)"
                )));
            }
            resolve_xiangqi(trimmed)?
        }
        GameKind::Chess => match resolve_external(trimmed)? {
            Some(engine) => PlayerSpec::External(Arc::new(engine)),
            None => match trimmed {
                "random" => PlayerSpec::Random,
                "greedy" => PlayerSpec::Greedy,
                other => PlayerSpec::ChessEngine(Arc::new(
                    resolve_chess_engine(other).map_err(PlayerSpecError::WrongGame)?,
                )),
            },
        },
    };
    match spec.game() {
        Some(g) if g != game => Err(PlayerSpecError::WrongGame(format!(
            "player '{trimmed}' plays {g} (its file says game = \"{g}\"{}), and this run plays {game}",
            if g == GameKind::Xiangqi { " or nothing" } else { "" }
        ))),
        _ => Ok(spec),
    }
}

/// An external engine file (with knob overrides after the first colon), if `text` names one.
fn resolve_external(text: &str) -> Result<Option<ExternalEngine>, PlayerSpecError> {
    match load_external(Path::new(text)) {
        Ok(Some(engine)) => return Ok(Some(engine)),
        Ok(None) => {}
        Err(e) => return Err(PlayerSpecError::External(format!("{e:#}"))),
    }
    if let Some((base, mods)) = text.split_once(':') {
        match load_external(Path::new(base.trim())) {
            Ok(Some(mut engine)) => {
                apply_external_overrides(&mut engine, mods, text)
                    .map_err(|e| PlayerSpecError::External(format!("{e:#}")))?;
                return Ok(Some(engine));
            }
            Ok(None) => {}
            Err(e) => return Err(PlayerSpecError::External(format!("{e:#}"))),
        }
    }
    Ok(None)
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
    resolve_player_for(text, GameKind::Xiangqi)
}

/// [`resolve_player`] without the check of the file's game.
fn resolve_xiangqi(text: &str) -> Result<PlayerSpec, PlayerSpecError> {
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
            PlayerSpec::ChessEngine(config) => {
                Box::new(EnginePlayer::chess(name, (**config).clone()))
            }
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

    /// The spec for a Chess960 run: an external engine is started once to see that it
    /// declares `UCI_Chess960` (refused naming it otherwise) and is then sent `setoption name
    /// UCI_Chess960 value true` after its file's options at every start; built-in players
    /// play Chess960 from the position as it is.
    pub fn for_chess960(&self) -> Result<PlayerSpec, UciError> {
        const OPTION: &str = "UCI_Chess960";
        match self {
            PlayerSpec::External(engine) => {
                let declared = engine.declared_options()?;
                let Some(option) = declared
                    .iter()
                    .find(|o| o.name.eq_ignore_ascii_case(OPTION))
                else {
                    let names: Vec<&str> = declared.iter().map(|o| o.name.as_str()).collect();
                    return Err(UciError::NoChess960 {
                        name: engine.name.clone(),
                        file: engine.source.clone(),
                        declared: if names.is_empty() {
                            "none".into()
                        } else {
                            names.join(", ")
                        },
                    });
                };
                let mut options = engine.options.clone();
                options.retain(|(name, _)| !name.eq_ignore_ascii_case(OPTION));
                options.push((option.name.clone(), "true".into()));
                Ok(PlayerSpec::External(Arc::new(ExternalEngine {
                    options,
                    ..(**engine).clone()
                })))
            }
            other => Ok(other.clone()),
        }
    }

    /// The game the player plays, `None` for the test players that play both.
    pub fn game(&self) -> Option<GameKind> {
        match self {
            PlayerSpec::Random | PlayerSpec::Greedy => None,
            PlayerSpec::Engine(_) => Some(GameKind::Xiangqi),
            PlayerSpec::ChessEngine(_) => Some(GameKind::Chess),
            PlayerSpec::External(e) => Some(e.game),
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
            PlayerSpec::ChessEngine(c) => write!(f, "chess engine {}", c.name),
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
