//! External UCI and UCCI engines as players: the configuration (from an engine TOML file with
//! a `[uci]` table; `protocol = "ucci"` in it for UCCI), the engine process, and
//! [`ExternalPlayer`].
//!
//! UCCI (the Chinese engine protocol of ElephantEye and UCCILEAG) differs from UCI in the
//! handshake (`ucci`/`ucciok`), `setoption NAME VALUE`, no `ucinewgame`, the `go` forms
//! (`go time T increment I opptime T oppincrement I`, `go time T movestogo M ...`, `go depth D`,
//! `go nodes N`; times in milliseconds when the engine declares `usemillisec`, which is then
//! switched on, else in seconds, unless the file's `time_unit` says otherwise: Fairy-Stockfish
//! reads milliseconds without declaring it), scores without `cp`, `nobestmove`, and `banmoves`: before each
//! `go` the arena sends the legal moves the judge says would lose on the spot by the repetition
//! rules (perpetual check or chase), as UCCILEAG does, unless every legal move would.
//!
//! One process per engine per worker thread, started lazily and reused across games
//! (`ucinewgame` + `isready`). Each move sends `position fen <start FEN> moves ...` and a `go`
//! command built from the move limits; the last `info` score, depth and node count go with the
//! `bestmove`. Every failure is a named, scored outcome ([`PlayerFailure`]): the process exits
//! (`crash`), no `bestmove` before the deadline (`timeout`), a `bestmove` that does not parse or
//! is not legal (`illegal-move`), its output closes while it keeps running (`disconnect`). After
//! a failure the process is killed and a fresh one starts with the next game.
//!
//! The engine's output is read by a thread per pipe feeding a bounded channel; waits are
//! `recv_timeout` against a deadline, never sleeps. Bytes are bytes: lines are capped at
//! [`MAX_LINE_BYTES`] (the rest dropped) and decoded lossily, so a stray non-UTF-8 byte or a
//! megabyte line costs nothing; an engine that prints more than [`MAX_OUTPUT_PER_MOVE`] bytes
//! without a `bestmove` is a `disconnect` named as a flood in the game's log, and one that floods
//! while the opponent thinks is slowed by the full channel (the pipe blocks), not buffered. Its stderr goes to one file per game under
//! the run folder (`DIR/engines/<player>/game-<index>.stderr.log`), followed by a line saying
//! how the arena saw any failure.

pub mod session;

use super::external_knobs::EngineLimits;
use super::lines::{read_capped_line, MAX_LINE_BYTES};
use super::{MoveChoice, Player, PlayerFailure};
use crate::play::any::{AnyGame, AnyMove, GameKind};
use crate::play::limits::MoveLimits;
use chuhan_engine::search::MATE;
use chuhan_engine::{move_from_fairy, move_to_fairy, Game, Move};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Default time allowed from start-up to `uciok` and from each `isready` to `readyok`.
pub const DEFAULT_STARTUP_TIMEOUT_MS: u64 = 10_000;
/// Default time allowed beyond the clock or the fixed move time before a move times out.
pub const DEFAULT_MOVE_MARGIN_MS: u64 = 1_000;
/// Default time allowed for one move under a node or depth limit.
pub const DEFAULT_FIXED_LIMIT_TIMEOUT_MS: u64 = 120_000;
/// How long to wait, after the engine's output closed, for its error output to close too
/// (which tells an exiting process from one that only dropped its output).
const EXIT_GRACE: Duration = Duration::from_secs(2);
/// Most bytes of output an engine may print for one move before its `bestmove`: more is a
/// flood (a `disconnect`), whatever the clock says.
pub const MAX_OUTPUT_PER_MOVE: u64 = 32 * 1024 * 1024;
/// Lines of engine output buffered between the reader thread and the arena; beyond it the
/// reader waits and the engine's pipe fills, which bounds memory.
const CHANNEL_LINES: usize = 4096;
/// Placeholder in `command` for the running `chuhan` executable.
pub const CHUHAN_PLACEHOLDER: &str = "{chuhan}";

/// How the engine writes squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Coordinates {
    /// Ranks 0–9 (`h2e2`): Chuhan, Pikafish and most xiangqi UCI engines.
    #[default]
    #[serde(rename = "a0")]
    A0,
    /// Ranks 1–10 (`h3e3`, `b3b10`): Fairy-Stockfish in `uci` mode.
    #[serde(rename = "a1")]
    A1,
}

impl Coordinates {
    /// Writes a xiangqi move in this convention.
    pub fn write(self, mv: Move) -> String {
        match self {
            Coordinates::A0 => mv.to_uci(),
            Coordinates::A1 => move_to_fairy(mv),
        }
    }

    /// Reads a xiangqi move in this convention (legality not checked).
    pub fn read(self, text: &str) -> Option<Move> {
        match self {
            Coordinates::A0 => Move::parse_uci(text),
            Coordinates::A1 => move_from_fairy(text),
        }
    }

    /// Writes a move of either game (chess moves are always plain UCI).
    pub fn write_any(self, mv: AnyMove) -> String {
        match mv {
            AnyMove::Xiangqi(m) => self.write(m),
            AnyMove::Chess(_) => mv.to_uci(),
        }
    }

    /// Reads a move of `game` in this convention (xiangqi legality not checked; a chess move
    /// is read against the position).
    pub fn read_any(self, game: &AnyGame, text: &str) -> Option<AnyMove> {
        match game {
            AnyGame::Xiangqi(_) => self.read(text).map(AnyMove::Xiangqi),
            AnyGame::Chess(_) => game.parse_uci(text),
        }
    }
}

/// The protocol an external engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// UCI as Pikafish and Fairy-Stockfish speak it for xiangqi.
    #[default]
    Uci,
    /// UCCI (ElephantEye, UCCILEAG's engines).
    Ucci,
}

impl Protocol {
    /// The handshake command and the line that ends its answer.
    pub fn handshake(self) -> (&'static str, &'static str) {
        match self {
            Protocol::Uci => ("uci", "uciok"),
            Protocol::Ucci => ("ucci", "ucciok"),
        }
    }

    /// The other protocol (for naming an engine that answers in it).
    fn other(self) -> Protocol {
        match self {
            Protocol::Uci => Protocol::Ucci,
            Protocol::Ucci => Protocol::Uci,
        }
    }

    /// The engine-file spelling.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
        }
    }
}

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

/// The keys of `[uci.options]` in the order they appear in the file (TOML tables are sorted).
fn option_order(text: &str) -> Vec<String> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            inside = l.trim_start_matches('[').trim_end_matches(']').trim() == "uci.options";
            continue;
        }
        if inside {
            if let Some((k, _)) = l.split_once('=') {
                out.push(k.trim().trim_matches('"').to_string());
            }
        }
    }
    out
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

impl ExternalEngine {
    /// Starts the engine once, completes the handshake and quits: the check a run makes before
    /// it starts, so a missing program or a silent engine is an error, not a run of losses.
    pub fn probe(&self) -> Result<(), UciError> {
        self.declared_options().map(|_| ())
    }

    /// Starts the engine once, completes the handshake and quits, returning the names of the
    /// options it declared (errors as [`ExternalEngine::probe`]).
    pub fn declared_options(&self) -> Result<Vec<DeclaredOption>, UciError> {
        let mut p = Process::start(self, Arc::new(Mutex::new(None))).map_err(|e| {
            let (hello, ok) = self.protocol.handshake();
            let why = match e {
                StartError::Silent { sent, last } => format!(
                    "'{}' did not answer '{sent}' within {} ms (startup_timeout_ms; protocol = \"{}\" expects {}); {}",
                    self.command.display(),
                    self.startup_timeout.as_millis(),
                    self.protocol.name(),
                    if sent == hello { ok } else { "readyok" },
                    match last {
                        Some(l) => format!("the last line received was '{l}'"),
                        None => "no line was received".into(),
                    }
                ),
                other => other.to_string(),
            };
            UciError::Start {
                name: self.name.clone(),
                file: self.source.clone(),
                why,
            }
        })?;
        p.quit();
        Ok(std::mem::take(&mut p.declared))
    }
}

/// An option an engine declared in its handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredOption {
    /// Its name as the engine wrote it.
    pub name: String,
    /// For a `spin`: its default, min and max (`None` for other types, or a spin missing one).
    pub spin: Option<(i64, i64, i64)>,
}

/// The option an `option` line declares: UCI `option name NAME... type spin default D min A
/// max B`, UCCI `option NAME type spin min A max B default D` (the keys in any order);
/// `None` for a line that declares none. (Public for the fuzz target `engine_lines`.)
pub fn declared_option(words: &[&str], protocol: Protocol) -> Option<DeclaredOption> {
    let rest = match (protocol, words) {
        (Protocol::Uci, ["option", "name", rest @ ..]) => rest,
        (Protocol::Ucci, ["option", rest @ ..]) => rest,
        _ => return None,
    };
    let end = rest.iter().position(|w| *w == "type").unwrap_or(rest.len());
    if end == 0 {
        return None;
    }
    let tail = &rest[end..];
    let value = |key: &str| -> Option<i64> {
        let i = tail.iter().position(|w| *w == key)?;
        tail.get(i + 1)?.parse().ok()
    };
    let spin = if tail.get(1) == Some(&"spin") {
        match (value("default"), value("min"), value("max")) {
            (Some(d), Some(lo), Some(hi)) => Some((d, lo, hi)),
            _ => None,
        }
    } else {
        None
    };
    Some(DeclaredOption {
        name: rest[..end].join(" "),
        spin,
    })
}

/// What the pipe reader threads report.
enum Output {
    /// A line and its length in bytes as read (before the cap).
    Line(String, u64),
    StdoutClosed,
    StderrClosed,
}

/// Why start-up failed.
#[derive(Debug, thiserror::Error)]
enum StartError {
    #[error("cannot start '{command}': {source}")]
    Spawn {
        command: String,
        source: std::io::Error,
    },
    #[error("sent '{sent}' and received '{received}': the engine speaks {speaks}, set protocol = \"{speaks}\" in [uci]")]
    Protocol {
        sent: String,
        received: String,
        speaks: &'static str,
    },
    #[error("no answer to '{sent}' in time")]
    Silent { sent: String, last: Option<String> },
    #[error("{0}")]
    Failed(PlayerFailure),
}

impl StartError {
    /// The failure a game records when the engine cannot be started.
    fn into_failure(self) -> PlayerFailure {
        match self {
            StartError::Failed(f) => f,
            StartError::Silent { .. } => PlayerFailure::Timeout,
            other => PlayerFailure::Crash(other.to_string()),
        }
    }
}

type SharedLog = Arc<Mutex<Option<File>>>;

/// A running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    output: Receiver<Output>,
    stderr_closed: bool,
    startup_timeout: Duration,
    protocol: Protocol,
    /// UCCI: whether `go` times are in milliseconds (the engine declared `usemillisec`).
    millis: bool,
    /// The last line of output seen (for naming a silent engine).
    last_line: Option<String>,
    /// Bytes of output read so far (the flood check counts them per move).
    bytes_read: u64,
    /// Options the engine declared in the handshake.
    declared: Vec<DeclaredOption>,
}

impl Process {
    /// Spawns the engine and completes `uci`/`uciok`, the options, and `isready`/`readyok`.
    fn start(engine: &ExternalEngine, log: SharedLog) -> Result<Process, StartError> {
        let mut p = Process::spawn(engine, log)?;
        match p.handshake(engine) {
            Ok(()) => Ok(p),
            Err(e) => {
                p.kill();
                Err(e)
            }
        }
    }

    /// Spawns the engine with its pipes read by threads; nothing is sent yet.
    fn spawn(engine: &ExternalEngine, log: SharedLog) -> Result<Process, StartError> {
        let mut cmd = Command::new(&engine.command);
        cmd.args(&engine.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Its own process group: a terminal's Ctrl-C reaches the harness only, which abandons
        // the game and then stops the engine itself, instead of the engine dying mid-move and
        // losing a game it did not lose.
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        if let Some(dir) = &engine.working_dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|source| StartError::Spawn {
            command: engine.command.display().to_string(),
            source,
        })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (tx, rx) = sync_channel(CHANNEL_LINES);
        let tx2 = tx.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Ok(Some(line)) = read_capped_line(&mut reader, MAX_LINE_BYTES) {
                let size = line.text.len() as u64 + line.dropped;
                if tx.send(Output::Line(line.text, size)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Output::StdoutClosed);
        });
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut buf = Vec::new();
            while reader.read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
                if let Ok(mut guard) = log.lock() {
                    if let Some(f) = guard.as_mut() {
                        let _ = f.write_all(&buf);
                    }
                }
                buf.clear();
            }
            // Drain anything left without a newline.
            let _ = reader.read_to_end(&mut buf);
            let _ = tx2.send(Output::StderrClosed);
        });
        Ok(Process {
            child,
            stdin,
            output: rx,
            stderr_closed: false,
            startup_timeout: engine.startup_timeout,
            protocol: engine.protocol,
            millis: false,
            last_line: None,
            bytes_read: 0,
            declared: Vec::new(),
        })
    }

    /// `uci`/`uciok` (or `ucci`/`ucciok`), the options, and `isready`/`readyok`. An answer in
    /// the other protocol's words is named at once; silence is named with the last line seen.
    fn handshake(&mut self, engine: &ExternalEngine) -> Result<(), StartError> {
        let (hello, ok) = self.protocol.handshake();
        let (_, other_ok) = self.protocol.other().handshake();
        self.send(hello).map_err(StartError::Failed)?;
        let deadline = Instant::now() + engine.startup_timeout;
        loop {
            let line = match self.next_line(deadline) {
                Ok(l) => l,
                Err(PlayerFailure::Timeout) => {
                    return Err(StartError::Silent {
                        sent: hello.into(),
                        last: self.last_line.clone(),
                    })
                }
                Err(f) => return Err(StartError::Failed(f)),
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [w] if *w == ok => break,
                [w] if *w == other_ok => {
                    return Err(StartError::Protocol {
                        sent: hello.into(),
                        received: line.clone(),
                        speaks: self.protocol.other().name(),
                    })
                }
                ["option", ..] => {
                    if let Some(option) = declared_option(&words, self.protocol) {
                        if self.protocol == Protocol::Ucci && option.name == "usemillisec" {
                            self.millis = true;
                        }
                        self.declared.push(option);
                    }
                }
                _ => {}
            }
        }
        if self.millis && engine.time_unit != TimeUnit::S {
            self.send("setoption usemillisec true")
                .map_err(StartError::Failed)?;
        }
        self.millis = match engine.time_unit {
            TimeUnit::Auto => self.millis,
            TimeUnit::Ms => true,
            TimeUnit::S => false,
        };
        for (name, value) in &engine.options {
            let line = match self.protocol {
                Protocol::Uci => format!("setoption name {name} value {value}"),
                Protocol::Ucci => format!("setoption {name} {value}"),
            };
            self.send(&line).map_err(StartError::Failed)?;
        }
        self.ready().map_err(|f| match f {
            PlayerFailure::Timeout => StartError::Silent {
                sent: "isready".into(),
                last: self.last_line.clone(),
            },
            f => StartError::Failed(f),
        })
    }

    /// Sends one line; a closed pipe becomes a crash or a disconnect.
    fn send(&mut self, line: &str) -> Result<(), PlayerFailure> {
        let ok = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        match ok {
            Ok(()) => Ok(()),
            Err(_) => Err(self.closed()),
        }
    }

    /// `isready` and wait for `readyok`.
    fn ready(&mut self) -> Result<(), PlayerFailure> {
        self.send("isready")?;
        self.wait_for("readyok", Instant::now() + self.startup_timeout)
    }

    /// Waits for a line equal to `word` (other lines are ignored).
    fn wait_for(&mut self, word: &str, deadline: Instant) -> Result<(), PlayerFailure> {
        loop {
            let line = self.next_line(deadline)?;
            if line.trim() == word {
                return Ok(());
            }
        }
    }

    /// The next line of output before `deadline`.
    fn next_line(&mut self, deadline: Instant) -> Result<String, PlayerFailure> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(Output::Line(l, size)) => {
                    self.bytes_read += size + 1;
                    self.last_line = Some(l.clone());
                    return Ok(l);
                }
                Ok(Output::StderrClosed) => self.stderr_closed = true,
                Ok(Output::StdoutClosed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.closed())
                }
                Err(RecvTimeoutError::Timeout) => return Err(PlayerFailure::Timeout),
            }
        }
    }

    /// The engine's output closed (or its input broke): a crash when the process ended (its
    /// stderr closes too, or it has exited), a disconnect when it runs on.
    fn closed(&mut self) -> PlayerFailure {
        self.await_stderr_close();
        let exited = matches!(self.child.try_wait(), Ok(Some(_)));
        if self.stderr_closed || exited {
            // Both pipes closed: the process is gone or going; collect its status.
            let _ = self.child.kill();
            let status = self
                .child
                .wait()
                .map_or_else(|e| e.to_string(), |s| s.to_string());
            PlayerFailure::Crash(format!("the engine process ended ({status})"))
        } else {
            PlayerFailure::Disconnect("the engine closed its output but is still running".into())
        }
    }

    /// Ends the process now, and lets its last stderr reach the log (waiting a bounded time
    /// for the pipe to close: a helper process of the engine may still hold it).
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.await_stderr_close();
    }

    /// Waits up to [`EXIT_GRACE`] for the stderr pipe to close (all of it then is in the log);
    /// other output is dropped.
    fn await_stderr_close(&mut self) {
        let deadline = Instant::now() + EXIT_GRACE;
        while !self.stderr_closed {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(Output::StderrClosed) | Err(RecvTimeoutError::Disconnected) => {
                    self.stderr_closed = true
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => break,
            }
        }
    }

    /// Asks the engine to quit, then makes sure it has.
    fn quit(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
        self.kill();
    }
}

/// What the engine said about its search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchReport {
    /// Last score, centipawns from the mover's view (mates as large scores).
    pub score: Option<i32>,
    /// Last depth.
    pub depth: Option<u32>,
    /// Last node count.
    pub nodes: u64,
}

impl SearchReport {
    /// Takes what an `info` line says (lines for other PVs than the first are ignored).
    pub fn update(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") || words.get(1) == Some(&"string") {
            return;
        }
        let value = |key: &str| {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|i| words.get(i + 1))
        };
        if value("multipv").is_some_and(|v| *v != "1") {
            return;
        }
        if let Some(d) = value("depth").and_then(|v| v.parse().ok()) {
            self.depth = Some(d);
        }
        if let Some(n) = value("nodes").and_then(|v| v.parse().ok()) {
            self.nodes = n;
        }
        if let Some(i) = words.iter().position(|w| *w == "score") {
            let n = words.get(i + 2).and_then(|v| v.parse::<i32>().ok());
            match (words.get(i + 1), n) {
                (Some(&"cp"), Some(cp)) => self.score = Some(cp),
                // The distance clamped to MATE/2 moves: an engine may print any number
                // (`mate 2000000000` overflowed), and the sign must stay the mover's.
                (Some(&"mate"), Some(m)) if m > 0 => {
                    self.score = Some(MATE - (2 * m.min(MATE / 2) - 1))
                }
                (Some(&"mate"), Some(m)) => self.score = Some(-(MATE + 2 * m.max(-MATE / 2))),
                // UCCI writes the score bare: `score 35`.
                (Some(v), _) => {
                    if let Ok(cp) = v.parse::<i32>() {
                        self.score = Some(cp);
                    }
                }
                _ => {}
            }
        }
    }
}

/// The `go` command for the move limits (`ours` is whether the mover is Red).
pub fn go_command(limits: &MoveLimits, red_to_move: bool) -> String {
    let mut go = String::from("go");
    if let Some(left) = limits.time_left {
        let other = limits.opponent_time_left.unwrap_or(left);
        let (w, b) = if red_to_move {
            (left, other)
        } else {
            (other, left)
        };
        let inc = limits.increment.as_millis();
        go.push_str(&format!(
            " wtime {} btime {} winc {inc} binc {inc}",
            w.as_millis(),
            b.as_millis()
        ));
        if let Some(m) = limits.moves_to_go {
            go.push_str(&format!(" movestogo {m}"));
        }
    }
    if let Some(t) = limits.movetime {
        go.push_str(&format!(" movetime {}", t.as_millis().max(1)));
    }
    if let Some(d) = limits.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = limits.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    if go == "go" {
        go.push_str(" infinite");
    }
    go
}

/// The UCCI `go` command for the move limits: one mode (`time`, `depth` or `nodes`), times in
/// milliseconds when `millis` (the engine has `usemillisec` on), else whole seconds (at least
/// 1). A fixed move time is `time T movestogo 1`; with no limit, `go depth infinite`.
pub fn ucci_go_command(limits: &MoveLimits, millis: bool) -> String {
    let t = |d: Duration| {
        if millis {
            d.as_millis().max(1)
        } else {
            (d.as_millis() / 1000).max(1)
        }
    };
    if let Some(left) = limits.time_left {
        let other = limits.opponent_time_left.unwrap_or(left);
        let inc = t(limits.increment);
        return match limits.moves_to_go {
            Some(m) => format!(
                "go time {} movestogo {m} opptime {} oppmovestogo {m}",
                t(left),
                t(other)
            ),
            None if limits.increment.is_zero() => {
                format!("go time {} opptime {}", t(left), t(other))
            }
            None => format!(
                "go time {} increment {inc} opptime {} oppincrement {inc}",
                t(left),
                t(other)
            ),
        };
    }
    if let Some(m) = limits.movetime {
        return format!("go time {} movestogo 1", t(m));
    }
    if let Some(d) = limits.depth {
        return format!("go depth {d}");
    }
    if let Some(n) = limits.nodes {
        return format!("go nodes {n}");
    }
    "go depth infinite".into()
}

/// The legal moves that would lose on the spot by the repetition rules, for UCCI's
/// `banmoves`; empty when there are none or when every legal move would (then the engine must
/// choose among them).
pub fn banned_moves(game: &mut Game) -> Vec<Move> {
    let legal: Vec<Move> = game.legal_moves().iter().copied().collect();
    let banned: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&mv| game.would_forfeit(mv))
        .collect();
    if banned.len() == legal.len() {
        Vec::new()
    } else {
        banned
    }
}

/// An external UCI or UCCI engine playing in the arena.
pub struct ExternalPlayer {
    name: String,
    engine: ExternalEngine,
    process: Option<Process>,
    /// A failure found while preparing the game, reported at the first move.
    pending: Option<PlayerFailure>,
    log: SharedLog,
}

impl ExternalPlayer {
    /// A player called `name` for `engine` (the process starts with the first game).
    pub fn new(name: &str, engine: ExternalEngine) -> ExternalPlayer {
        ExternalPlayer {
            name: name.to_string(),
            engine,
            process: None,
            pending: None,
            log: Arc::new(Mutex::new(None)),
        }
    }

    /// Writes a note from the arena to the current game's log.
    fn note(&self, text: &str) {
        if let Ok(mut guard) = self.log.lock() {
            if let Some(f) = guard.as_mut() {
                let _ = writeln!(f, "[chuhan arena] {text}");
            }
        }
    }

    /// Records a failure: noted in the log, the process killed (a fresh one starts next game).
    fn fail(&mut self, failure: PlayerFailure) -> PlayerFailure {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        self.note(&format!("{}: {failure}", failure.termination()));
        failure
    }

    /// How long this move may take before it times out.
    fn deadline(&self, limits: &MoveLimits) -> Duration {
        if let Some(left) = limits.time_left {
            left + self.engine.move_margin
        } else if let Some(t) = limits.movetime {
            t + self.engine.move_margin
        } else {
            self.engine.fixed_limit_timeout
        }
    }

    fn ask(
        &mut self,
        game: &mut AnyGame,
        limits: &MoveLimits,
    ) -> Result<MoveChoice, PlayerFailure> {
        let limits = &self.engine.limits.apply(limits);
        let coords = self.engine.coordinates;
        let moves = game.moves();
        let mut position = format!("position fen {}", game.start_fen());
        if !moves.is_empty() {
            position.push_str(" moves");
            for &mv in &moves {
                position.push(' ');
                position.push_str(&coords.write_any(mv));
            }
        }
        let red = game.first_to_move();
        let banned = match (self.engine.protocol, game.as_xiangqi()) {
            (Protocol::Ucci, Some(g)) => banned_moves(g),
            _ => Vec::new(),
        };
        let deadline = Instant::now() + self.deadline(limits);
        let Some(p) = self.process.as_mut() else {
            return Err(PlayerFailure::Crash("the engine is not running".into()));
        };
        let go = match p.protocol {
            Protocol::Uci => go_command(limits, red),
            Protocol::Ucci => ucci_go_command(limits, p.millis),
        };
        p.send(&position)?;
        if !banned.is_empty() {
            let list: Vec<String> = banned.iter().map(|&mv| coords.write(mv)).collect();
            p.send(&format!("banmoves {}", list.join(" ")))?;
        }
        p.send(&go)?;
        let mut report = SearchReport::default();
        let start_bytes = p.bytes_read;
        loop {
            let line = p.next_line(deadline)?;
            if p.bytes_read - start_bytes > MAX_OUTPUT_PER_MOVE {
                return Err(PlayerFailure::Disconnect(format!(
                    "flood: the engine printed more than {MAX_OUTPUT_PER_MOVE} bytes without a bestmove"
                )));
            }
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => report.update(&line),
                Some("nobestmove") => {
                    return Err(PlayerFailure::IllegalMove(format!(
                        "'{line}' while the position has legal moves"
                    )))
                }
                Some("bestmove") => {
                    let text = words.next().unwrap_or("");
                    let mv = coords.read_any(game, text).ok_or_else(|| {
                        PlayerFailure::IllegalMove(match game.kind() {
                            GameKind::Xiangqi => format!("'{line}' does not parse"),
                            GameKind::Chess => {
                                format!("'{line}' is not a legal move in {}", game.fen())
                            }
                        })
                    })?;
                    if !game.is_legal(mv) {
                        return Err(PlayerFailure::IllegalMove(format!(
                            "{text} (ours: {}) in {}",
                            mv.to_uci(),
                            game.fen()
                        )));
                    }
                    return Ok(MoveChoice {
                        mv,
                        score: report.score,
                        depth: report.depth,
                        nodes: report.nodes,
                    });
                }
                _ => {}
            }
        }
    }
}

impl Player for ExternalPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn set_game_index(&mut self, index: u64) {
        let file = self.engine.log_dir.as_ref().and_then(|dir| {
            std::fs::create_dir_all(dir).ok()?;
            File::create(dir.join(format!("game-{index}.stderr.log"))).ok()
        });
        if let Ok(mut guard) = self.log.lock() {
            *guard = file;
        }
    }

    fn new_game(&mut self, _seed: u64) {
        self.pending = None;
        let prepared = match self.process.as_mut() {
            // UCCI has no ucinewgame: isready alone separates the games.
            Some(p) if p.protocol == Protocol::Ucci => p.ready(),
            Some(p) => p.send("ucinewgame").and_then(|_| p.ready()),
            None => match Process::start(&self.engine, self.log.clone()) {
                Ok(p) => {
                    self.process = Some(p);
                    Ok(())
                }
                Err(e) => Err(e.into_failure()),
            },
        };
        if let Err(f) = prepared {
            self.pending = Some(self.fail(f));
        }
    }

    fn choose_move(
        &mut self,
        game: &mut AnyGame,
        limits: &MoveLimits,
    ) -> Result<MoveChoice, PlayerFailure> {
        if let Some(f) = self.pending.take() {
            return Err(f);
        }
        self.ask(game, limits).map_err(|f| self.fail(f))
    }
}

impl Drop for ExternalPlayer {
    fn drop(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.quit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_keep_the_last_score_depth_and_nodes() {
        let mut r = SearchReport::default();
        r.update("info depth 3 seldepth 3 multipv 1 score cp 69 nodes 317 pv h10g8");
        r.update("info depth 4 multipv 2 score cp -500 nodes 999");
        r.update("info string hello score cp 7");
        assert_eq!((r.score, r.depth, r.nodes), (Some(69), Some(3), 317));
        r.update("info depth 9 score mate 2 nodes 4000");
        assert_eq!(r.score, Some(MATE - 3));
        r.update("info depth 9 score mate -1 nodes 4100");
        assert_eq!(r.score, Some(-(MATE - 2)));
        assert_eq!(r.nodes, 4100);
    }

    #[test]
    fn go_commands_follow_the_limits() {
        let nodes = MoveLimits {
            nodes: Some(5000),
            ..MoveLimits::default()
        };
        assert_eq!(go_command(&nodes, true), "go nodes 5000");
        let clock = MoveLimits {
            time_left: Some(Duration::from_millis(9000)),
            opponent_time_left: Some(Duration::from_millis(8000)),
            increment: Duration::from_millis(100),
            moves_to_go: Some(12),
            ..MoveLimits::default()
        };
        assert_eq!(
            go_command(&clock, false),
            "go wtime 8000 btime 9000 winc 100 binc 100 movestogo 12"
        );
        let mt = MoveLimits {
            movetime: Some(Duration::from_millis(100)),
            ..MoveLimits::default()
        };
        assert_eq!(go_command(&mt, true), "go movetime 100");
    }

    #[test]
    fn ucci_go_commands_use_its_forms_and_units() {
        let nodes = MoveLimits {
            nodes: Some(5000),
            ..MoveLimits::default()
        };
        assert_eq!(ucci_go_command(&nodes, true), "go nodes 5000");
        let depth = MoveLimits {
            depth: Some(7),
            ..MoveLimits::default()
        };
        assert_eq!(ucci_go_command(&depth, false), "go depth 7");
        let clock = MoveLimits {
            time_left: Some(Duration::from_millis(9000)),
            opponent_time_left: Some(Duration::from_millis(8000)),
            increment: Duration::from_millis(100),
            ..MoveLimits::default()
        };
        assert_eq!(
            ucci_go_command(&clock, true),
            "go time 9000 increment 100 opptime 8000 oppincrement 100"
        );
        // Seconds without usemillisec (never 0, which would mean no time at all).
        assert_eq!(
            ucci_go_command(&clock, false),
            "go time 9 increment 1 opptime 8 oppincrement 1"
        );
        let cyclic = MoveLimits {
            moves_to_go: Some(12),
            increment: Duration::ZERO,
            ..clock
        };
        assert_eq!(
            ucci_go_command(&cyclic, true),
            "go time 9000 movestogo 12 opptime 8000 oppmovestogo 12"
        );
        let mt = MoveLimits {
            movetime: Some(Duration::from_millis(300)),
            ..MoveLimits::default()
        };
        assert_eq!(ucci_go_command(&mt, true), "go time 300 movestogo 1");
        assert_eq!(
            ucci_go_command(&MoveLimits::default(), true),
            "go depth infinite"
        );
    }

    #[test]
    fn declared_options_and_spin_ranges_are_read() {
        let w = |l: &'static str| l.split_whitespace().collect::<Vec<_>>();
        let skill = declared_option(
            &w("option name Skill Level type spin default 20 min -20 max 20"),
            Protocol::Uci,
        )
        .unwrap();
        assert_eq!(skill.name, "Skill Level");
        assert_eq!(skill.spin, Some((20, -20, 20)));
        let hash = declared_option(
            &w("option hashsize type spin min 0 max 1024 default 16"),
            Protocol::Ucci,
        )
        .unwrap();
        assert_eq!(
            (hash.name.as_str(), hash.spin),
            ("hashsize", Some((16, 0, 1024)))
        );
        let check = declared_option(
            &w("option name Ponder type check default false"),
            Protocol::Uci,
        )
        .unwrap();
        assert_eq!((check.name.as_str(), check.spin), ("Ponder", None));
        assert_eq!(
            declared_option(&w("option name type spin"), Protocol::Uci),
            None
        );
        assert_eq!(declared_option(&w("id name x"), Protocol::Uci), None);
    }

    #[test]
    fn ucci_scores_without_cp_are_read() {
        let mut r = SearchReport::default();
        r.update("info depth 6 score -35 pv h2e2 h9g7");
        assert_eq!((r.score, r.depth), (Some(-35), Some(6)));
    }

    #[test]
    fn banned_moves_are_the_forfeiting_ones_only() {
        // The perpetual check of the rules tests: after these moves Red's f5e5 checks for the
        // third time and loses.
        let fen = "4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 1 1";
        let mut game = Game::new(
            chuhan_engine::Position::from_fen(fen).unwrap(),
            chuhan_engine::GameConfig::default(),
        );
        assert_eq!(banned_moves(&mut game), []);
        for m in "e9f9 e5f5 f9e9 f5e5 e9f9 e5f5 f9e9".split(' ') {
            game.play(Move::parse_uci(m).unwrap()).unwrap();
        }
        assert_eq!(banned_moves(&mut game), [Move::parse_uci("f5e5").unwrap()]);
    }

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
    fn coordinates_convert_both_ways() {
        let mv = Move::parse_uci("b2b9").unwrap();
        assert_eq!(Coordinates::A1.write(mv), "b3b10");
        assert_eq!(Coordinates::A1.read("b3b10"), Some(mv));
        assert_eq!(Coordinates::A0.read("b2b9"), Some(mv));
        assert_eq!(Coordinates::A1.read("b0b1"), None);
        let game = AnyGame::startpos(GameKind::Xiangqi, chuhan_engine::GameConfig::default());
        let any = AnyMove::Xiangqi(mv);
        assert_eq!(Coordinates::A1.write_any(any), "b3b10");
        assert_eq!(Coordinates::A1.read_any(&game, "b3b10"), Some(any));
        let chess = AnyGame::startpos(GameKind::Chess, chuhan_engine::GameConfig::default());
        let e4 = Coordinates::A0.read_any(&chess, "e2e4").unwrap();
        assert_eq!(Coordinates::A1.write_any(e4), "e2e4");
        assert_eq!(Coordinates::A0.read_any(&chess, "e2e5"), None);
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
