//! The engine process: spawning it in its own process group, the reader threads feeding a
//! bounded channel, the handshake, and every wait against a deadline. A closed pipe, a silent
//! engine and an exit are told apart here and become a [`PlayerFailure`].

use super::config::{ExternalEngine, TimeUnit, UciError};
use super::protocol::{declared_option, DeclaredOption, Protocol};
use crate::play::player::lines::{read_capped_line, MAX_LINE_BYTES};
use crate::play::player::PlayerFailure;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long to wait, after the engine's output closed, for its error output to close too
/// (which tells an exiting process from one that only dropped its output).
const EXIT_GRACE: Duration = Duration::from_secs(2);
/// Most bytes of output an engine may print for one move before its `bestmove`: more is a
/// flood (a `disconnect`), whatever the clock says.
pub const MAX_OUTPUT_PER_MOVE: u64 = 32 * 1024 * 1024;
/// Lines of engine output buffered between the reader thread and the arena; beyond it the
/// reader waits and the engine's pipe fills, which bounds memory.
const CHANNEL_LINES: usize = 4096;

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

/// What the pipe reader threads report.
enum Output {
    /// A line and its length in bytes as read (before the cap).
    Line(String, u64),
    StdoutClosed,
    StderrClosed,
}

/// Why start-up failed.
#[derive(Debug, thiserror::Error)]
pub(super) enum StartError {
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
    pub(super) fn into_failure(self) -> PlayerFailure {
        match self {
            StartError::Failed(f) => f,
            StartError::Silent { .. } => PlayerFailure::Timeout,
            other => PlayerFailure::Crash(other.to_string()),
        }
    }
}

pub(super) type SharedLog = Arc<Mutex<Option<File>>>;

/// A running engine process.
pub(super) struct Process {
    pub(super) child: Child,
    stdin: ChildStdin,
    output: Receiver<Output>,
    stderr_closed: bool,
    startup_timeout: Duration,
    pub(super) protocol: Protocol,
    /// UCCI: whether `go` times are in milliseconds (the engine declared `usemillisec`).
    pub(super) millis: bool,
    /// The last line of output seen (for naming a silent engine).
    last_line: Option<String>,
    /// Bytes of output read so far (the flood check counts them per move).
    pub(super) bytes_read: u64,
    /// Options the engine declared in the handshake.
    declared: Vec<DeclaredOption>,
}

impl Process {
    /// Spawns the engine and completes `uci`/`uciok`, the options, and `isready`/`readyok`.
    pub(super) fn start(engine: &ExternalEngine, log: SharedLog) -> Result<Process, StartError> {
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
    pub(super) fn spawn(engine: &ExternalEngine, log: SharedLog) -> Result<Process, StartError> {
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
    pub(super) fn send(&mut self, line: &str) -> Result<(), PlayerFailure> {
        let ok = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        match ok {
            Ok(()) => Ok(()),
            Err(_) => Err(self.closed()),
        }
    }

    /// `isready` and wait for `readyok`.
    pub(super) fn ready(&mut self) -> Result<(), PlayerFailure> {
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
    pub(super) fn next_line(&mut self, deadline: Instant) -> Result<String, PlayerFailure> {
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
    pub(super) fn kill(&mut self) {
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
    pub(super) fn quit(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
        self.kill();
    }
}
