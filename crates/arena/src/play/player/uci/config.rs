//! The engine file: an external engine's `[uci]` table (and `game`, `name` above it) read and
//! checked into an [`ExternalEngine`]; every refusal is a [`UciError`] naming the file and key.

use super::protocol::{Coordinates, Protocol};
use crate::play::any::GameKind;
use crate::play::limits::MoveLimits;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Default time allowed from start-up to `uciok` and from each `isready` to `readyok`.
pub const DEFAULT_STARTUP_TIMEOUT_MS: u64 = 10_000;
/// Default time allowed beyond the clock or the fixed move time before a move times out.
pub const DEFAULT_MOVE_MARGIN_MS: u64 = 1_000;
/// Default time allowed for one move under a node or depth limit.
pub const DEFAULT_FIXED_LIMIT_TIMEOUT_MS: u64 = 120_000;
/// Placeholder in `command` for the running `chuhan` executable.
pub const CHUHAN_PLACEHOLDER: &str = "{chuhan}";

/// The unit of UCCI `go time` values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeUnit {
    /// Milliseconds if the engine declares `usemillisec` (then switched on), else seconds, as
    /// the UCCI specification says.
    #[default]
    Auto,
    /// Milliseconds, declared or not (Fairy-Stockfish in UCCI mode).
    Ms,
    /// Whole seconds.
    S,
}

/// An external UCI or UCCI engine: how to start it and talk to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalEngine {
    /// Name from the file (`name = ...`), else the file stem.
    pub name: String,
    /// The file it was read from (for messages).
    pub source: String,
    /// Program to run (`{chuhan}` already replaced).
    pub command: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory, if not the arena's.
    pub working_dir: Option<PathBuf>,
    /// UCI options sent with `setoption`, in file order.
    pub options: Vec<(String, String)>,
    /// Square convention.
    pub coordinates: Coordinates,
    /// UCI or UCCI.
    pub protocol: Protocol,
    /// UCCI: the unit of `go time` values.
    pub time_unit: TimeUnit,
    /// Time allowed for `uciok` and for each `readyok`.
    pub startup_timeout: Duration,
    /// Time allowed beyond the clock or the fixed move time.
    pub move_margin: Duration,
    /// Time allowed for one move under a node or depth limit.
    pub fixed_limit_timeout: Duration,
    /// Where per-game stderr logs go (`DIR/engines/<player>`); set by the command before a run,
    /// `None` to discard the engine's stderr.
    pub log_dir: Option<PathBuf>,
    /// The engine's own per-move limits (`go_nodes`, `go_depth`, `movetime_ms`), on top of the
    /// run's.
    pub limits: EngineLimits,
    /// The game it plays (`game = "chess"` at the top of the file; xiangqi when absent).
    pub game: GameKind,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExternalToml {
    name: Option<String>,
    #[serde(default)]
    game: GameKind,
    uci: UciToml,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UciToml {
    command: String,
    #[serde(default)]
    args: Vec<String>,
    working_dir: Option<String>,
    #[serde(default)]
    coordinates: Coordinates,
    #[serde(default)]
    protocol: Protocol,
    time_unit: Option<TimeUnit>,
    startup_timeout_ms: Option<u64>,
    move_margin_ms: Option<u64>,
    fixed_limit_timeout_ms: Option<u64>,
    #[serde(default)]
    options: toml::Table,
    go_nodes: Option<u64>,
    go_depth: Option<u32>,
    movetime_ms: Option<u64>,
}

/// Whether an engine TOML text describes an external engine (has a top-level `[uci]` table).
pub fn is_external(text: &str) -> bool {
    text.parse::<toml::Table>()
        .is_ok_and(|t| t.contains_key("uci"))
}

/// The keys of `[uci.options]` in the order they appear in the file (`toml`'s tables are
/// sorted). Read as a TOML document, so quoted keys, inline and dotted tables keep their order
/// too (a line-based reader misread `"a = b" = 1`: fuzz finding 6).
fn option_order(text: &str) -> Vec<String> {
    let Ok(doc) = text.parse::<toml_edit::DocumentMut>() else {
        return Vec::new();
    };
    doc.get("uci")
        .and_then(|u| u.get("options"))
        .and_then(|o| o.as_table_like())
        .map(|t| t.iter().map(|(k, _)| k.to_string()).collect())
        .unwrap_or_default()
}

/// Why an external engine file was refused, or an external engine could not be started.
/// Messages name the file and the `[uci]` key; a TOML parser error is part of the message
/// because it carries the line and column.
#[derive(Debug, thiserror::Error)]
pub enum UciError {
    /// The file is not valid TOML or has an unknown key.
    #[error("{file}: {error}")]
    Toml {
        /// The file.
        file: String,
        /// The parser's error (with line and column).
        error: Box<toml::de::Error>,
    },
    /// A `[uci]` value that is not allowed.
    #[error("{file}: [uci] {reason}")]
    Key {
        /// The file.
        file: String,
        /// Which key and why.
        reason: String,
    },
    /// An `[uci.options]` value that is a table or an array.
    #[error("{file}: [uci.options] {name} = {value}: expected a string, number or true/false")]
    OptionValue {
        /// The file.
        file: String,
        /// The option.
        name: String,
        /// The value as written in TOML.
        value: toml::Value,
    },
    /// `{chuhan}` in the command, but the running executable cannot be found.
    #[error("{file}: cannot find the running chuhan executable")]
    CurrentExe {
        /// The file.
        file: String,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The file cannot be read.
    #[error("cannot read engine config {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The engine did not start, or did not complete its handshake.
    #[error("engine {name} ({file}): {why}")]
    Start {
        /// The engine's name.
        name: String,
        /// Its file.
        file: String,
        /// What happened, with the key to change where one applies.
        why: String,
    },
    /// A Chess960 run with an engine that does not declare `option name UCI_Chess960`.
    #[error("engine {name} ({file}) does not offer the UCI_Chess960 option, so it cannot play Chess960 (--chess960); its options: {declared}")]
    NoChess960 {
        /// The engine's name.
        name: String,
        /// Its file.
        file: String,
        /// The options it declared, comma separated (`none` when it declared none).
        declared: String,
    },
}

/// Resolves `{chuhan}` and paths relative to the configuration file's folder.
fn resolve_command(command: &str, base: &Path, source: &str) -> Result<PathBuf, UciError> {
    if command.trim().is_empty() {
        return Err(key_error(source, "command is empty".into()));
    }
    if command.contains(CHUHAN_PLACEHOLDER) {
        let exe = std::env::current_exe().map_err(|e| UciError::CurrentExe {
            file: source.to_string(),
            source: e,
        })?;
        return Ok(PathBuf::from(
            command.replace(CHUHAN_PLACEHOLDER, &exe.to_string_lossy()),
        ));
    }
    let path = Path::new(command);
    // A bare name is looked up on PATH; a relative path is relative to the config file.
    if path.is_relative() && path.components().count() > 1 {
        return Ok(base.join(path));
    }
    Ok(path.to_path_buf())
}

/// A [`UciError::Key`] for the file `source`.
fn key_error(source: &str, reason: String) -> UciError {
    UciError::Key {
        file: source.to_string(),
        reason,
    }
}

/// Parses an external engine file. `source` names it in errors; `base` is the folder relative
/// paths are taken from; `default_name` is used when the file has no `name`.
pub fn parse_external(
    text: &str,
    source: &str,
    base: &Path,
    default_name: &str,
) -> Result<ExternalEngine, UciError> {
    let t: ExternalToml = toml::from_str(text).map_err(|error| UciError::Toml {
        file: source.to_string(),
        error: Box::new(error),
    })?;
    let u = t.uci;
    let order = option_order(text);
    let mut options: Vec<(String, String)> = Vec::new();
    for (name, value) in &u.options {
        let v = match value {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Float(f) => f.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            value => {
                return Err(UciError::OptionValue {
                    file: source.to_string(),
                    name: name.clone(),
                    value: value.clone(),
                })
            }
        };
        options.push((name.clone(), v));
    }
    options.sort_by_key(|(n, _)| order.iter().position(|o| o == n).unwrap_or(usize::MAX));
    let ms = |v: Option<u64>, key: &str, default: u64| -> Result<Duration, UciError> {
        match v {
            Some(0) => Err(key_error(source, format!("{key} must be at least 1"))),
            Some(n) => Ok(Duration::from_millis(n)),
            None => Ok(Duration::from_millis(default)),
        }
    };
    let limits = own_limits(&u, source)?;
    if t.game == GameKind::Chess
        && (u.protocol == Protocol::Ucci || u.coordinates == Coordinates::A1)
    {
        return Err(key_error(
            source,
            "game = \"chess\" takes plain UCI (no protocol = \"ucci\", no coordinates = \"a1\": those are xiangqi conventions)".into(),
        ));
    }
    Ok(ExternalEngine {
        game: t.game,
        name: t.name.unwrap_or_else(|| default_name.to_string()),
        source: source.to_string(),
        command: resolve_command(&u.command, base, source)?,
        args: u.args,
        working_dir: u.working_dir.map(|d| base.join(d)),
        options,
        coordinates: u.coordinates,
        protocol: u.protocol,
        time_unit: match (u.protocol, u.time_unit) {
            (Protocol::Uci, Some(_)) => {
                return Err(key_error(
                    source,
                    "time_unit is for UCCI engines (protocol = \"ucci\"); UCI times are always milliseconds"
                        .into(),
                ))
            }
            (_, unit) => unit.unwrap_or_default(),
        },
        startup_timeout: ms(
            u.startup_timeout_ms,
            "startup_timeout_ms",
            DEFAULT_STARTUP_TIMEOUT_MS,
        )?,
        move_margin: Duration::from_millis(u.move_margin_ms.unwrap_or(DEFAULT_MOVE_MARGIN_MS)),
        fixed_limit_timeout: ms(
            u.fixed_limit_timeout_ms,
            "fixed_limit_timeout_ms",
            DEFAULT_FIXED_LIMIT_TIMEOUT_MS,
        )?,
        log_dir: None,
        limits,
    })
}

/// The `[uci]` keys `go_nodes`, `go_depth`, `movetime_ms` (each at least 1).
fn own_limits(u: &UciToml, source: &str) -> Result<EngineLimits, UciError> {
    for (key, v) in [
        ("go_nodes", u.go_nodes),
        ("go_depth", u.go_depth.map(u64::from)),
        ("movetime_ms", u.movetime_ms),
    ] {
        if v == Some(0) {
            return Err(key_error(source, format!("{key} must be at least 1")));
        }
    }
    Ok(EngineLimits {
        nodes: u.go_nodes,
        depth: u.go_depth,
        movetime: u.movetime_ms.map(Duration::from_millis),
    })
}

/// Reads `path` as an external engine file if it is one (a `.toml` file with a `[uci]`
/// table); `Ok(None)` for anything else.
pub fn load_external(path: &Path) -> Result<Option<ExternalEngine>, UciError> {
    if !path.extension().is_some_and(|e| e == "toml") || !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(path).map_err(|source| UciError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    if !is_external(&text) {
        return Ok(None);
    }
    let stem = path
        .file_stem()
        .map_or_else(|| "engine".into(), |s| s.to_string_lossy().into_owned());
    let base = path.parent().unwrap_or(Path::new("."));
    parse_external(&text, &path.display().to_string(), base, &stem).map(Some)
}

/// Per-move limits an external engine is always given, on top of the run's: each is the
/// smaller of the two when both are set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineLimits {
    /// `go nodes N`.
    pub nodes: Option<u64>,
    /// `go depth D`.
    pub depth: Option<u32>,
    /// `go movetime MS`.
    pub movetime: Option<Duration>,
}

impl EngineLimits {
    /// The limits of one move: the run's, tightened by the engine's own.
    pub fn apply(&self, run: &MoveLimits) -> MoveLimits {
        fn min<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
        MoveLimits {
            nodes: min(run.nodes, self.nodes),
            depth: min(run.depth, self.depth),
            movetime: min(run.movetime, self.movetime),
            ..*run
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_key_parses_and_defaults_to_uci() {
        let base = Path::new("/cfg");
        let e = parse_external(
            "[uci]\ncommand = \"x\"\nprotocol = \"ucci\"",
            "e.toml",
            base,
            "e",
        )
        .unwrap();
        assert_eq!(e.protocol, Protocol::Ucci);
        let e = parse_external("[uci]\ncommand = \"x\"", "e.toml", base, "e").unwrap();
        assert_eq!(e.protocol, Protocol::Uci);
        let m = parse_external(
            "[uci]\ncommand = \"x\"\nprotocol = \"xboard\"",
            "bad.toml",
            base,
            "e",
        )
        .unwrap_err()
        .to_string();
        assert!(m.contains("bad.toml") && m.contains("xboard"), "{m}");
        let e = parse_external(
            "[uci]\ncommand = \"x\"\nprotocol = \"ucci\"\ntime_unit = \"ms\"",
            "e.toml",
            base,
            "e",
        )
        .unwrap();
        assert_eq!((e.protocol, e.time_unit), (Protocol::Ucci, TimeUnit::Ms));
        let m = parse_external(
            "[uci]\ncommand = \"x\"\ntime_unit = \"ms\"",
            "bad.toml",
            base,
            "e",
        )
        .unwrap_err()
        .to_string();
        assert!(m.contains("bad.toml") && m.contains("time_unit"), "{m}");
    }

    #[test]
    fn files_parse_and_errors_name_file_and_key() {
        let base = Path::new("/cfg");
        let e = parse_external(
            "[uci]\ncommand = \"bin/eng\"\ncoordinates = \"a1\"\n[uci.options]\nZeta = 1\nAlpha = \"x\"\nOn = true\n",
            "e.toml",
            base,
            "e",
        )
        .unwrap();
        assert_eq!(e.name, "e");
        assert_eq!(e.command, PathBuf::from("/cfg/bin/eng"));
        assert_eq!(e.coordinates, Coordinates::A1);
        let names: Vec<&str> = e.options.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Zeta", "Alpha", "On"]);
        assert_eq!(
            parse_external("[uci]\ncommand = \"fsf\"", "e.toml", base, "e")
                .unwrap()
                .command,
            PathBuf::from("fsf")
        );
        let err = |text: &str| {
            parse_external(text, "bad.toml", base, "bad")
                .unwrap_err()
                .to_string()
        };
        let m = err("[uci]\ncommand = \"x\"\ncomand = \"y\"");
        assert!(m.contains("bad.toml") && m.contains("comand"), "{m}");
        assert!(m.contains("line 3"), "{m}");
        let m = err("[uci]\nargs = []");
        assert!(m.contains("bad.toml") && m.contains("command"), "{m}");
        let m = err("[uci]\ncommand = \"x\"\ncoordinates = \"a2\"");
        assert!(m.contains("bad.toml") && m.contains("a2"), "{m}");
        let m = err("tt_mb = 4\n[uci]\ncommand = \"x\"");
        assert!(m.contains("bad.toml") && m.contains("tt_mb"), "{m}");
        let m = err("[uci]\ncommand = \"x\"\n[uci.options]\nA = [1]");
        assert!(
            m.contains("bad.toml") && m.contains("[uci.options] A"),
            "{m}"
        );
        let m = err("[uci]\ncommand = \"x\"\nstartup_timeout_ms = 0");
        assert!(m.contains("startup_timeout_ms"), "{m}");
    }

    #[test]
    fn shipped_external_configs_load_and_in_process_ones_are_not_external() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/engines");
        let fairy = load_external(&dir.join("fairy-stockfish.toml"))
            .unwrap()
            .unwrap();
        assert_eq!(fairy.name, "fairy-stockfish");
        assert_eq!(fairy.coordinates, Coordinates::A1);
        assert_eq!(fairy.options[0], ("UCI_Variant".into(), "xiangqi".into()));
        let ucci = load_external(&dir.join("fairy-stockfish-ucci.toml"))
            .unwrap()
            .unwrap();
        assert_eq!(
            (ucci.protocol, ucci.time_unit, ucci.coordinates),
            (Protocol::Ucci, TimeUnit::Ms, Coordinates::A0)
        );
        let ours = load_external(&dir.join("chuhan-uci.toml"))
            .unwrap()
            .unwrap();
        assert_eq!(ours.command, std::env::current_exe().unwrap());
        assert_eq!(ours.args, ["uci"]);
        assert_eq!(load_external(&dir.join("default.toml")).unwrap(), None);
        assert_eq!(load_external(Path::new("hard")).unwrap(), None);
    }
}
