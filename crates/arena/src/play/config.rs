//! Engine configurations and difficulty levels from TOML. Errors name the file and the key
//! (and the line, where the TOML parser knows it).

use chuhan_engine::eval::nnue::Network;
use chuhan_engine::search::tt::MAX_TT_MB;
use chuhan_engine::{EngineConfig, Level, ParamError, Params, SearchOptions};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Why a levels file, an engine configuration or a player spec's overrides were refused. Every
/// message names the file (or the spec) and the key; a TOML parser error is part of the message
/// because it carries the line and column.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file is not valid TOML or has an unknown key.
    #[error("{file}: {error}")]
    Toml {
        /// The file (or a description of the text).
        file: String,
        /// The parser's error (with line and column).
        error: Box<toml::de::Error>,
    },
    /// A level table of a levels file does not fit a level.
    #[error("{file}: level '{name}': {error}")]
    LevelToml {
        /// The file.
        file: String,
        /// The level.
        name: String,
        /// The parser's error.
        error: Box<toml::de::Error>,
    },
    /// A level's value is out of range.
    #[error("{file}: level '{name}': {reason}")]
    LevelValue {
        /// The file.
        file: String,
        /// The level.
        name: String,
        /// Which value and why.
        reason: String,
    },
    /// A `[params]` value that is not an integer.
    #[error("{file}: [params] {name} = {value}: expected a whole number")]
    ParamNotInteger {
        /// The file.
        file: String,
        /// The dotted parameter name.
        name: String,
        /// The value as written in TOML.
        value: toml::Value,
    },
    /// A `[params]` name the engine does not know, or a value outside its range.
    #[error("{file}: [params] {error}")]
    Param {
        /// The file.
        file: String,
        /// The engine's reason.
        error: ParamError,
    },
    /// `tt_mb` out of range in a file.
    #[error("{file}: tt_mb = {mb} must be between 1 and {MAX_TT_MB}")]
    TtMb {
        /// The file.
        file: String,
        /// The value given.
        mb: usize,
    },
    /// `level = "name"` names no known level.
    #[error("{file}: level = \"{name}\" is not a known level (known: {known})")]
    UnknownLevel {
        /// The file.
        file: String,
        /// The name given.
        name: String,
        /// The known level names, comma separated.
        known: String,
    },
    /// A `[level]` table that does not fit a level.
    #[error("{file}: [level] {error}")]
    LevelTable {
        /// The file.
        file: String,
        /// The parser's error.
        error: Box<toml::de::Error>,
    },
    /// `level` is neither a name nor a table.
    #[error("{file}: level = {value}: expected a level name or a [level] table")]
    LevelType {
        /// The file.
        file: String,
        /// The value as written in TOML.
        value: toml::Value,
    },
    /// The engine configuration file cannot be read.
    #[error("cannot read engine config {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The network file named by `network` cannot be read.
    #[error("{file}: network: cannot read {}", path.display())]
    NetworkRead {
        /// The engine config file.
        file: String,
        /// The network file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The network file named by `network` is not a valid network.
    #[error("{file}: network: {}: {error}", path.display())]
    Network {
        /// The engine config file.
        file: String,
        /// The network file.
        path: PathBuf,
        /// What is wrong with it.
        error: chuhan_engine::eval::nnue::NetworkError,
    },
    /// An override item without `=`.
    #[error("player '{spec}': '{item}' is not key=value")]
    NotKeyValue {
        /// The whole player spec.
        spec: String,
        /// The item.
        item: String,
    },
    /// An override value that does not fit its key.
    #[error("player '{spec}': {key} = '{value}' is not a valid value")]
    BadValue {
        /// The whole player spec.
        spec: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
    },
    /// A `tt_mb` override out of range.
    #[error("player '{spec}': tt_mb = '{value}' must be between 1 and {MAX_TT_MB}")]
    OverrideTtMb {
        /// The whole player spec.
        spec: String,
        /// The value given.
        value: String,
    },
    /// A parameter override the engine refused.
    #[error("player '{spec}': {error}")]
    OverrideParam {
        /// The whole player spec.
        spec: String,
        /// The engine's reason.
        error: ParamError,
    },
    /// `evaluation` is neither `network` nor `handcrafted`.
    #[error("{file}: evaluation = \"{value}\": expected \"network\" or \"handcrafted\"")]
    Evaluation {
        /// The file.
        file: String,
        /// The value given.
        value: String,
    },
    /// `evaluation = "handcrafted"` beside `network = FILE`.
    #[error("{file}: evaluation = \"handcrafted\" and network = \"{}\" name two evaluations: keep one", network.display())]
    EvaluationAndNetwork {
        /// The file.
        file: String,
        /// The network file named.
        network: PathBuf,
    },
    /// A handcrafted-evaluation parameter on an engine that evaluates with a network, where
    /// it would change nothing.
    #[error(
        "{place}: parameter '{name}' is a term of the handcrafted evaluation, but this engine evaluates with a network, so it would change nothing: add evaluation = \"handcrafted\" to the engine file, or start a player spec from 'handcrafted' (handcrafted:{name}=...)"
    )]
    ParamUnderNetwork {
        /// The file, or `player 'SPEC'`.
        place: String,
        /// The parameter.
        name: String,
    },
    /// A spec that is neither `default`, a level nor an engine file.
    #[error(
        "unknown player '{spec}': not 'default', not 'handcrafted', not a level ({known}), and not an engine .toml file"
    )]
    UnknownPlayer {
        /// The spec.
        spec: String,
        /// The known level names, comma separated.
        known: String,
    },
}

/// The levels file shipped with Chuhan (configs/levels.toml), embedded in the binary.
pub const BUILTIN_LEVELS: &str = include_str!("../../../../configs/levels.toml");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LevelToml {
    depth: Option<u32>,
    nodes: Option<u64>,
    time_ms: Option<u64>,
    #[serde(default)]
    margin: i32,
    #[serde(default)]
    random_rate: f64,
    #[serde(default)]
    opening_plies: u32,
    opening_depth: Option<u32>,
    #[serde(default)]
    opening_margin: i32,
}

impl LevelToml {
    fn into_level(self, name: &str, source: &str) -> Result<Level, ConfigError> {
        let bad = |reason: String| ConfigError::LevelValue {
            file: source.to_string(),
            name: name.to_string(),
            reason,
        };
        if !(0.0..=1.0).contains(&self.random_rate) {
            return Err(bad(format!(
                "random_rate = {} is outside 0..1",
                self.random_rate
            )));
        }
        if self.margin < 0 || self.opening_margin < 0 {
            return Err(bad("margins must not be negative".into()));
        }
        if self.depth == Some(0) || self.nodes == Some(0) || self.time_ms == Some(0) {
            return Err(bad("depth, nodes and time_ms must be at least 1".into()));
        }
        Ok(Level {
            name: name.to_string(),
            depth: self.depth,
            nodes: self.nodes,
            time: self.time_ms.map(Duration::from_millis),
            margin: self.margin,
            random_rate: self.random_rate,
            opening_plies: self.opening_plies,
            opening_depth: self.opening_depth,
            opening_margin: self.opening_margin,
        })
    }
}

/// Parses a levels file: one table per level.
pub fn parse_levels(text: &str, source: &str) -> Result<Vec<Level>, ConfigError> {
    let tables: BTreeMap<String, toml::Value> =
        toml::from_str(text).map_err(|error| ConfigError::Toml {
            file: source.to_string(),
            error: Box::new(error),
        })?;
    let mut levels = Vec::new();
    // Keep file order: re-read the keys in the order they appear.
    let order = table_order(text);
    let mut names: Vec<&String> = tables.keys().collect();
    names.sort_by_key(|n| order.iter().position(|o| o == *n).unwrap_or(usize::MAX));
    for name in names {
        let value = tables[name].clone();
        let lt: LevelToml = value.try_into().map_err(|error| ConfigError::LevelToml {
            file: source.to_string(),
            name: name.clone(),
            error: Box::new(error),
        })?;
        levels.push(lt.into_level(name, source)?);
    }
    Ok(levels)
}

fn table_order(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            l.strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .map(|n| n.trim().trim_matches('"').to_string())
        })
        .collect()
}

/// The built-in levels (easy, medium, hard), parsed once: every player spec resolves against
/// them (13% of the `ladder_toml` fuzz target's time went to parsing them again).
pub fn builtin_levels() -> Vec<Level> {
    static LEVELS: std::sync::OnceLock<Vec<Level>> = std::sync::OnceLock::new();
    LEVELS
        .get_or_init(|| {
            parse_levels(BUILTIN_LEVELS, "configs/levels.toml (built in)")
                .expect("the built-in levels file is valid")
        })
        .clone()
}

/// Finds a level by name.
pub fn find_level(levels: &[Level], name: &str) -> Option<Level> {
    levels.iter().find(|l| l.name == name).cloned()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchToml {
    null_move: Option<bool>,
    lmr: Option<bool>,
    check_extension: Option<bool>,
    futility: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineToml {
    /// `game = "xiangqi"` may be said; a file of the other game is refused before parsing
    /// (see [`crate::play::player::resolve_player_for`]).
    #[allow(dead_code)]
    game: Option<String>,
    name: Option<String>,
    tt_mb: Option<usize>,
    search: Option<SearchToml>,
    params: Option<toml::Table>,
    level: Option<toml::Value>,
    /// A network file (relative paths from the config file's folder) that replaces the
    /// handcrafted evaluation (default: the network built into the binary).
    network: Option<PathBuf>,
    /// `network` (the default) or `handcrafted`.
    evaluation: Option<String>,
}

/// The first parameter in `names` that only the handcrafted evaluation reads (every group
/// but `search` and `material`: material values also set the exchange values the search
/// prunes by), when `config` evaluates with a network that replaces it.
pub fn param_without_effect<'a>(
    config: &EngineConfig,
    names: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if config.evaluation_params_act() {
        return None;
    }
    let table = chuhan_engine::params::table();
    names.into_iter().find(|name| {
        chuhan_engine::params::index_of(name)
            .is_some_and(|i| !matches!(table[i].group, "search" | "material"))
    })
}

/// Flattens nested TOML tables into dotted names: `{material = {horse = 440}}` ->
/// `material.horse = 440`.
fn flatten(prefix: &str, table: &toml::Table, out: &mut Vec<(String, toml::Value)>) {
    for (k, v) in table {
        let name = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(t) => flatten(&name, t, out),
            other => out.push((name, other.clone())),
        }
    }
}

/// Applies `name = value` parameter overrides to `params`, naming the source on error.
pub fn apply_params(
    params: &mut Params,
    table: &toml::Table,
    source: &str,
) -> Result<(), ConfigError> {
    let mut flat = Vec::new();
    flatten("", table, &mut flat);
    for (name, value) in flat {
        let v = match value {
            toml::Value::Integer(i) => i,
            value => {
                return Err(ConfigError::ParamNotInteger {
                    file: source.to_string(),
                    name,
                    value,
                })
            }
        };
        params.set(&name, v).map_err(|error| ConfigError::Param {
            file: source.to_string(),
            error,
        })?;
    }
    Ok(())
}

/// Parses an engine configuration. `default_name` is used when the file has no `name`.
pub fn parse_engine_config(
    text: &str,
    source: &str,
    default_name: &str,
    levels: &[Level],
) -> Result<EngineConfig, ConfigError> {
    let t: EngineToml = toml::from_str(text).map_err(|error| ConfigError::Toml {
        file: source.to_string(),
        error: Box::new(error),
    })?;
    let mut config = EngineConfig {
        name: t.name.unwrap_or_else(|| default_name.to_string()),
        ..EngineConfig::default()
    };
    let mut options = SearchOptions::default();
    if let Some(mb) = t.tt_mb {
        if mb == 0 || mb > MAX_TT_MB {
            return Err(ConfigError::TtMb {
                file: source.to_string(),
                mb,
            });
        }
        options.tt_mb = mb;
    }
    if let Some(s) = t.search {
        options.null_move = s.null_move.unwrap_or(options.null_move);
        options.lmr = s.lmr.unwrap_or(options.lmr);
        options.check_extension = s.check_extension.unwrap_or(options.check_extension);
        options.futility = s.futility.unwrap_or(options.futility);
    }
    config.options = options;
    match t.evaluation.as_deref() {
        None | Some("network") => {}
        Some("handcrafted") => {
            if let Some(network) = &t.network {
                return Err(ConfigError::EvaluationAndNetwork {
                    file: source.to_string(),
                    network: network.clone(),
                });
            }
            config.network = None;
        }
        Some(other) => {
            return Err(ConfigError::Evaluation {
                file: source.to_string(),
                value: other.to_string(),
            })
        }
    }
    if let Some(path) = t.network {
        let path = match Path::new(source).parent() {
            Some(dir) if path.is_relative() => dir.join(path),
            _ => path,
        };
        let bytes = std::fs::read(&path).map_err(|e| ConfigError::NetworkRead {
            file: source.to_string(),
            path: path.clone(),
            source: e,
        })?;
        let net = Network::from_bytes(&bytes).map_err(|error| ConfigError::Network {
            file: source.to_string(),
            path,
            error,
        })?;
        config.network = Some(std::sync::Arc::new(net));
    }
    if let Some(p) = t.params {
        apply_params(&mut config.params, &p, source)?;
        let mut flat = Vec::new();
        flatten("", &p, &mut flat);
        if let Some(name) = param_without_effect(&config, flat.iter().map(|(n, _)| n.as_str())) {
            return Err(ConfigError::ParamUnderNetwork {
                place: source.to_string(),
                name: name.to_string(),
            });
        }
    }
    config.level =
        match t.level {
            None => None,
            Some(toml::Value::String(name)) => Some(find_level(levels, &name).ok_or_else(
                || ConfigError::UnknownLevel {
                    file: source.to_string(),
                    known: level_names(levels),
                    name,
                },
            )?),
            Some(v @ toml::Value::Table(_)) => {
                let lt: LevelToml = v.try_into().map_err(|error| ConfigError::LevelTable {
                    file: source.to_string(),
                    error: Box::new(error),
                })?;
                Some(lt.into_level(&config.name, source)?)
            }
            Some(value) => {
                return Err(ConfigError::LevelType {
                    file: source.to_string(),
                    value,
                })
            }
        };
    Ok(config)
}

fn level_names(levels: &[Level]) -> String {
    levels
        .iter()
        .map(|l| l.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads an engine configuration file.
pub fn load_engine_config(path: &Path, levels: &[Level]) -> Result<EngineConfig, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "engine".into());
    parse_engine_config(&text, &path.display().to_string(), &stem, levels)
}

/// Reads an engine file as the starting point of a fit of the handcrafted evaluation (`tune
/// texel --base`): a file that names no evaluation (`evaluation` or `network`) is read as
/// `evaluation = "handcrafted"`, so files written before the network became the default,
/// whose parameters meant the handcrafted evaluation, still load.
pub fn load_handcrafted_base(path: &Path, levels: &[Level]) -> Result<EngineConfig, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let names_evaluation = toml::from_str::<toml::Table>(&text)
        .is_ok_and(|t| t.contains_key("evaluation") || t.contains_key("network"));
    let text = if names_evaluation {
        text
    } else {
        format!("evaluation = \"handcrafted\"\n{text}")
    };
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "engine".into());
    parse_engine_config(&text, &path.display().to_string(), &stem, levels)
}

/// Resolves a player spec to an engine configuration: `default` (full strength, the network
/// evaluation), `handcrafted` (the same with the handcrafted evaluation), a level name
/// (`easy`, `medium`, `hard`, or one from `levels`), or a path to an engine TOML file, each
/// optionally followed by `:key=value,...` overrides. Keys are level keys (`depth`, `nodes`,
/// `time_ms`, `margin`, `random_rate`, `opening_plies`, `opening_depth`, `opening_margin`, and
/// `skill` (0 to 20, which sets nodes, margin and random_rate at once and lifts the depth cap:
/// [`Level::set_skill`]); on an engine without a level they create one), `tt_mb`, or parameter
/// names (`material.horse=440`). Overrides apply in order, so a key after `skill` adjusts it.
/// Example: `hard:nodes=300000`, `easy:margin=60,random_rate=0.06`, `hard:skill=7.5`.
pub fn resolve_engine(spec: &str, levels: &[Level]) -> Result<EngineConfig, ConfigError> {
    let Some((base, mods)) = spec.split_once(':') else {
        return resolve_base_engine(spec, levels);
    };
    let mut config = resolve_base_engine(base.trim(), levels)?;
    apply_overrides(&mut config, mods, spec)?;
    Ok(config)
}

/// Applies `key=value,...` overrides (see [`resolve_engine`]).
pub fn apply_overrides(
    config: &mut EngineConfig,
    mods: &str,
    spec: &str,
) -> Result<(), ConfigError> {
    for item in mods.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| ConfigError::NotKeyValue {
                spec: spec.to_string(),
                item: item.to_string(),
            })?;
        let (key, value) = (key.trim(), value.trim());
        let bad = || ConfigError::BadValue {
            spec: spec.to_string(),
            key: key.to_string(),
            value: value.to_string(),
        };
        let int = || value.parse::<i64>().map_err(|_| bad());
        let level_keys = [
            "depth",
            "nodes",
            "time_ms",
            "margin",
            "random_rate",
            "opening_plies",
            "opening_depth",
            "opening_margin",
            "skill",
        ];
        if level_keys.contains(&key) {
            let level = config
                .level
                .get_or_insert_with(|| Level::uncapped(config.name.clone()));
            let positive = |v: i64| (v >= 1).then_some(v).ok_or_else(bad);
            let non_negative = |v: i64| (v >= 0).then_some(v).ok_or_else(bad);
            match key {
                "depth" => level.depth = Some(positive(int()?)? as u32),
                "nodes" => level.nodes = Some(positive(int()?)? as u64),
                "time_ms" => level.time = Some(Duration::from_millis(positive(int()?)? as u64)),
                "margin" => level.margin = non_negative(int()?)? as i32,
                "random_rate" => {
                    let r: f64 = value.parse().map_err(|_| bad())?;
                    if !(0.0..=1.0).contains(&r) {
                        return Err(bad());
                    }
                    level.random_rate = r;
                }
                "opening_plies" => level.opening_plies = non_negative(int()?)? as u32,
                "opening_depth" => level.opening_depth = Some(positive(int()?)? as u32),
                "skill" => {
                    let skill: f64 = value.parse().map_err(|_| bad())?;
                    if !(0.0..=chuhan_engine::SKILL_MAX).contains(&skill) {
                        return Err(bad());
                    }
                    level.set_skill(skill);
                }
                _ => level.opening_margin = non_negative(int()?)? as i32,
            }
        } else if key == "tt_mb" {
            let mb = int()?;
            if !(1..=MAX_TT_MB as i64).contains(&mb) {
                return Err(ConfigError::OverrideTtMb {
                    spec: spec.to_string(),
                    value: value.to_string(),
                });
            }
            config.options.tt_mb = mb as usize;
        } else {
            config
                .params
                .set(key, int()?)
                .map_err(|error| ConfigError::OverrideParam {
                    spec: spec.to_string(),
                    error,
                })?;
            if let Some(name) = param_without_effect(config, [key]) {
                return Err(ConfigError::ParamUnderNetwork {
                    place: format!("player '{spec}'"),
                    name: name.to_string(),
                });
            }
        }
    }
    config.name = spec.to_string();
    Ok(())
}

fn resolve_base_engine(spec: &str, levels: &[Level]) -> Result<EngineConfig, ConfigError> {
    if spec == "default" {
        return Ok(EngineConfig {
            name: "default".into(),
            ..EngineConfig::default()
        });
    }
    if spec == "handcrafted" {
        return Ok(EngineConfig::handcrafted());
    }
    if let Some(level) = find_level(levels, spec) {
        return Ok(EngineConfig {
            name: spec.to_string(),
            level: Some(level),
            ..EngineConfig::default()
        });
    }
    let path = Path::new(spec);
    if path.extension().is_some_and(|e| e == "toml") || path.exists() {
        return load_engine_config(path, levels);
    }
    Err(ConfigError::UnknownPlayer {
        spec: spec.to_string(),
        known: level_names(levels),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_levels_match_the_published_defaults() {
        // The names and their order are asserted with the code's own list (engine tests).
        assert_eq!(builtin_levels(), Level::published());
    }

    #[test]
    fn engine_config_overrides_and_dotted_names() {
        let levels = builtin_levels();
        let c = parse_engine_config(
            "name = \"x\"\nevaluation = \"handcrafted\"\ntt_mb = 4\n[search]\nlmr = false\n[params]\nmaterial.horse = 440\n\"eval.tempo\" = 5\n",
            "x.toml",
            "x",
            &levels,
        )
        .unwrap();
        assert_eq!(c.name, "x");
        assert_eq!(c.options.tt_mb, 4);
        assert!(!c.options.lmr && c.options.null_move);
        assert_eq!(c.params.value("material.horse"), Ok(440));
        assert_eq!(c.params.value("eval.tempo"), Ok(5));
        assert!(
            c.network.is_none(),
            "evaluation = \"handcrafted\" drops the network"
        );
        // The default evaluation is the embedded network: only search.* parameters act on
        // it, so the others are refused by name; `network` and `handcrafted` do not mix.
        let refused = |text: &str| {
            parse_engine_config(text, "z.toml", "z", &levels)
                .unwrap_err()
                .to_string()
        };
        let err = refused("[params]\n\"eval.tempo\" = 5\n");
        assert!(
            err.contains("z.toml") && err.contains("'eval.tempo'"),
            "{err}"
        );
        let c =
            parse_engine_config("[params]\nsearch.contempt = 5\n", "y.toml", "y", &levels).unwrap();
        assert_eq!(c.network, EngineConfig::default().network);
        assert_eq!(c.params.value("search.contempt"), Ok(5));
        let err = refused("evaluation = \"handcrafted\"\nnetwork = \"n.nnue\"\n");
        assert!(err.contains("z.toml") && err.contains("keep one"), "{err}");
        let err = refused("evaluation = \"neural\"\n");
        assert!(
            err.contains("z.toml") && err.contains("\"neural\""),
            "{err}"
        );
        let c = parse_engine_config("level = \"medium\"", "m.toml", "m", &levels).unwrap();
        assert_eq!(c.level, Some(Level::medium()));
        let c =
            parse_engine_config("[level]\ndepth = 3\nmargin = 10", "l.toml", "l", &levels).unwrap();
        assert_eq!(c.level.unwrap().depth, Some(3));
    }

    #[test]
    fn errors_name_the_file_and_the_key() {
        let levels = builtin_levels();
        let err = |text: &str| {
            parse_engine_config(text, "bad.toml", "bad", &levels)
                .unwrap_err()
                .to_string()
        };
        let e = err("nmae = \"x\"");
        assert!(e.contains("bad.toml") && e.contains("nmae"), "{e}");
        let e = err("[search]\nnull = true");
        assert!(e.contains("bad.toml") && e.contains("null"), "{e}");
        let e = err("[params]\nmaterial.queen = 900");
        assert!(
            e.contains("bad.toml") && e.contains("material.queen"),
            "{e}"
        );
        let e = err("[params]\nmaterial.horse = 9000");
        assert!(e.contains("outside"), "{e}");
        let e = err("[params]\nmaterial.horse = \"a lot\"");
        assert!(e.contains("whole number"), "{e}");
        let e = err("level = \"grandmaster\"");
        assert!(e.contains("grandmaster") && e.contains("easy"), "{e}");
        let e = err("tt_mb = 0");
        assert!(e.contains("tt_mb"), "{e}");
        // Refused before allocating: 65536 MB would be a 48 GiB table.
        let e = err("tt_mb = 65536");
        assert!(e.contains("bad.toml") && e.contains("tt_mb = 65536"), "{e}");
        assert!(e.contains("between 1 and 4096"), "{e}");
        let e = resolve_engine("default:tt_mb=65536", &builtin_levels())
            .unwrap_err()
            .to_string();
        assert!(e.contains("tt_mb = '65536'") && e.contains("4096"), "{e}");
        assert!(resolve_engine("default:tt_mb=4096", &builtin_levels()).is_ok());
        let e = parse_levels("[x]\nrandom_rate = 2.0", "lv.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("lv.toml") && e.contains("random_rate"), "{e}");
        let e = parse_levels("[x]\ndepht = 2", "lv.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("lv.toml") && e.contains("depht"), "{e}");
        assert!(resolve_engine("nonsense", &levels).is_err());
        assert!(resolve_engine("easy:depth", &levels).is_err());
        assert!(resolve_engine("easy:depth=0", &levels).is_err());
        assert!(resolve_engine("easy:random_rate=2", &levels).is_err());
        let e = resolve_engine("easy:material.queen=9", &levels)
            .unwrap_err()
            .to_string();
        assert!(e.contains("material.queen"), "{e}");
        assert_eq!(
            resolve_engine("easy", &levels).unwrap().level,
            Some(Level::easy())
        );
    }

    #[test]
    fn inline_overrides() {
        let levels = builtin_levels();
        let c = resolve_engine("hard:nodes=300000", &levels).unwrap();
        let l = c.level.unwrap();
        // Only the node budget changes; the other keys are Hard's own.
        let hard = Level::hard();
        assert_eq!(
            (l.nodes, l.depth, l.opening_plies, l.opening_margin),
            (
                Some(300_000),
                hard.depth,
                hard.opening_plies,
                hard.opening_margin
            )
        );
        assert_ne!(hard.nodes, Some(300_000));
        let c =
            resolve_engine("handcrafted:depth=3,margin=40,material.horse=440", &levels).unwrap();
        assert_eq!(c.level.as_ref().unwrap().depth, Some(3));
        assert_eq!(c.level.as_ref().unwrap().margin, 40);
        assert_eq!(c.params.value("material.horse"), Ok(440));
        assert!(c.network.is_none());
        assert_eq!(c.name, "handcrafted:depth=3,margin=40,material.horse=440");
        // On the network's engine the same parameter would change nothing: refused.
        let err = resolve_engine("default:depth=3,eval.tempo=9", &levels)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("'default:depth=3,eval.tempo=9'") && err.contains("handcrafted"),
            "{err}"
        );
        // Search parameters act on every engine, and material values set the search's
        // exchange values too.
        assert!(resolve_engine("hard:search.contempt=0", &levels).is_ok());
        assert!(resolve_engine("default:material.horse=440", &levels).is_ok());
    }

    #[test]
    fn the_skill_override_sets_the_dial_and_later_keys_adjust_it() {
        let levels = builtin_levels();
        let l = resolve_engine("hard:skill=8", &levels)
            .unwrap()
            .level
            .unwrap();
        let mut expected = Level::hard();
        expected.set_skill(8.0);
        assert_eq!(
            l,
            Level {
                name: l.name.clone(),
                ..expected
            }
        );
        assert_eq!((l.nodes, l.margin, l.depth), (Some(3200), 60, None));
        // Hard's own time budget and opening variety stay.
        assert_eq!(l.opening_margin, Level::hard().opening_margin);
        let l = resolve_engine("easy:skill=8,margin=0", &levels)
            .unwrap()
            .level
            .unwrap();
        assert_eq!((l.nodes, l.margin), (Some(3200), 0));
        for bad in [
            "hard:skill=21",
            "hard:skill=-1",
            "hard:skill=x",
            "hard:skill=NaN",
        ] {
            let e = resolve_engine(bad, &levels).unwrap_err().to_string();
            assert!(e.contains("skill"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_texel_base_without_an_evaluation_key_is_read_as_handcrafted() {
        let dir = std::env::temp_dir().join(format!("chuhan-texel-base-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let old = dir.join("old.toml");
        std::fs::write(&old, "name = \"old\"\n[params]\n\"eval.tempo\" = 5\n").unwrap();
        // As a player it is refused (its parameter would change nothing on the network)...
        let err = load_engine_config(&old, &[]).unwrap_err().to_string();
        assert!(
            err.contains("old.toml") && err.contains("'eval.tempo'"),
            "{err}"
        );
        // ... as a Texel base it is what it meant when written: the handcrafted evaluation.
        let c = load_handcrafted_base(&old, &[]).unwrap();
        assert!(c.network.is_none());
        assert_eq!(c.params.value("eval.tempo"), Ok(5));
        // A file that names its evaluation keeps it.
        let net = dir.join("net.toml");
        std::fs::write(
            &net,
            "evaluation = \"network\"\n[params]\nsearch.contempt = 3\n",
        )
        .unwrap();
        assert!(load_handcrafted_base(&net, &[]).unwrap().network.is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn shipped_engine_configs_load() {
        let levels = builtin_levels();
        for f in ["default", "mobility", "texel", "terms"] {
            let path = format!(
                "{}/../../configs/engines/{f}.toml",
                env!("CARGO_MANIFEST_DIR")
            );
            let text = std::fs::read_to_string(&path).unwrap();
            let c = parse_engine_config(&text, &path, f, &levels).unwrap();
            assert_eq!(c.name, f);
            // `default` evaluates with the embedded network (64 hidden units per side, a
            // replacement for the handcrafted evaluation); the tuned files say they act on
            // the handcrafted one.
            let net = c.network.as_deref();
            assert_eq!(
                net.map(|n| (n.hidden(), n.residual())),
                (f == "default").then_some((64, false))
            );
        }
    }
}
