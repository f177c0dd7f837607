//! One UCI engine process driven line by line, for the jobs that are not games (`perft`,
//! `bench`, `engine-check`): the same process and pipe threads as a player's, with a handshake
//! that keeps what the engine declared, and errors that name the engine file, the command sent
//! and the line received.

use super::{ExternalEngine, Process, SharedLog, StartError};
use crate::play::player::PlayerFailure;
use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Why talking to the engine failed: always names the engine file and what was sent.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The program could not be started (missing, not executable).
    #[error("engine file {file}: cannot start '{command}': {cause}")]
    Spawn {
        /// The engine file.
        file: String,
        /// The program.
        command: String,
        /// Why.
        cause: std::io::Error,
    },
    /// The engine answered a command wrongly, too late, or not at all.
    #[error("engine file {file}: sent '{sent}', {}: {why}", received_text(.received))]
    Answer {
        /// The engine file.
        file: String,
        /// The last command sent.
        sent: String,
        /// The line received that is wrong (or the last one before the failure), if any.
        received: Option<String>,
        /// What is wrong.
        why: String,
    },
}

fn received_text(line: &Option<String>) -> String {
    match line {
        Some(l) => format!("got '{l}'"),
        None => "got no line".into(),
    }
}

/// A running engine after (or before) the handshake.
pub struct Session {
    engine: ExternalEngine,
    process: Option<Process>,
    stderr_file: Option<PathBuf>,
    sent: String,
    last_line: Option<String>,
    /// Lines the engine printed between `uci` and `uciok` (`id ...`, `option name ...`).
    pub greeting: Vec<String>,
}

/// Makes temporary stderr file names unique within this process.
static STDERR_FILES: AtomicU64 = AtomicU64::new(0);

impl Session {
    /// Starts the engine without sending anything. With `capture_stderr` its error output is
    /// kept (in a temporary file) and returned by [`Session::quit`]: Stockfish prints its bench
    /// summary there.
    pub fn spawn(engine: &ExternalEngine, capture_stderr: bool) -> Result<Session, SessionError> {
        let (log, stderr_file): (SharedLog, _) = if capture_stderr {
            let n = STDERR_FILES.fetch_add(1, Ordering::Relaxed);
            let path = std::env::temp_dir()
                .join(format!("chuhan-engine-{}-{n}.stderr", std::process::id()));
            let file = File::create(&path).ok();
            let path = file.as_ref().map(|_| path);
            (Arc::new(Mutex::new(file)), path)
        } else {
            (Arc::new(Mutex::new(None)), None)
        };
        let process = Process::spawn(engine, log).map_err(|e| match e {
            StartError::Spawn { command, source } => SessionError::Spawn {
                file: engine.source.clone(),
                command,
                cause: source,
            },
            StartError::Failed(f) => SessionError::Answer {
                file: engine.source.clone(),
                sent: String::new(),
                received: None,
                why: f.to_string(),
            },
            // Spawning sends nothing, so no answer can be wrong or missing yet; named anyway.
            other @ (StartError::Protocol { .. } | StartError::Silent { .. }) => {
                SessionError::Answer {
                    file: engine.source.clone(),
                    sent: String::new(),
                    received: None,
                    why: other.to_string(),
                }
            }
        })?;
        Ok(Session {
            engine: engine.clone(),
            process: Some(process),
            stderr_file,
            sent: String::new(),
            last_line: None,
            greeting: Vec::new(),
        })
    }

    /// Starts the engine and completes the handshake: `uci` until `uciok` (keeping the lines
    /// before it), the file's options, `isready` until `readyok`.
    pub fn start(engine: &ExternalEngine, capture_stderr: bool) -> Result<Session, SessionError> {
        let mut s = Session::spawn(engine, capture_stderr)?;
        s.handshake()?;
        Ok(s)
    }

    /// `uci` → `uciok` (lines before it kept in [`Session::greeting`]), `setoption` for each
    /// option of the engine file, then `isready` → `readyok`.
    pub fn handshake(&mut self) -> Result<(), SessionError> {
        self.send("uci")?;
        let (since, limit) = (Instant::now(), self.engine.startup_timeout);
        loop {
            let line = self.line_within(
                since,
                limit,
                "uciok",
                "startup_timeout_ms; is it a UCI engine?",
            )?;
            if line.trim() == "uciok" {
                break;
            }
            self.greeting.push(line);
        }
        for (name, value) in self.engine.options.clone() {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.ready()
    }

    /// The engine file this session runs.
    pub fn engine(&self) -> &ExternalEngine {
        &self.engine
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), SessionError> {
        self.sent = line.to_string();
        let result = match self.process.as_mut() {
            Some(p) => p.send(line),
            None => Err(PlayerFailure::Crash("the engine is not running".into())),
        };
        result.map_err(|f| self.error(None, &f.to_string()))
    }

    /// The next line before `deadline`, as the player sees it: a timeout, crash or disconnect
    /// is a [`PlayerFailure`].
    pub fn next_line(&mut self, deadline: Instant) -> Result<String, PlayerFailure> {
        let p = self
            .process
            .as_mut()
            .ok_or_else(|| PlayerFailure::Crash("the engine is not running".into()))?;
        let line = p.next_line(deadline)?;
        self.last_line = Some(line.clone());
        Ok(line)
    }

    /// The next line within `limit` of `since`; a timeout says it waited `limit` for
    /// `awaited`, and `why` (the setting behind the limit, a hint).
    pub fn line_within(
        &mut self,
        since: Instant,
        limit: Duration,
        awaited: &str,
        why: &str,
    ) -> Result<String, SessionError> {
        self.next_line(since + limit).map_err(|f| {
            let why = match f {
                PlayerFailure::Timeout => {
                    format!("no {awaited} within {} ms ({why})", limit.as_millis())
                }
                other => other.to_string(),
            };
            let last = self.last_line.clone();
            self.error(last.as_deref(), &why)
        })
    }

    /// `isready` and wait (startup_timeout_ms) for `readyok`.
    pub fn ready(&mut self) -> Result<(), SessionError> {
        self.send("isready")?;
        let (since, limit) = (Instant::now(), self.engine.startup_timeout);
        while self
            .line_within(since, limit, "readyok", "startup_timeout_ms")?
            .trim()
            != "readyok"
        {}
        Ok(())
    }

    /// An error naming the engine file, the last command sent and `received`.
    pub fn error(&self, received: Option<&str>, why: &str) -> SessionError {
        self.error_after(&self.sent, received, why)
    }

    /// An error naming the engine file, the command `sent` it answers and `received`.
    pub fn error_after(&self, sent: &str, received: Option<&str>, why: &str) -> SessionError {
        SessionError::Answer {
            file: self.engine.source.clone(),
            sent: sent.to_string(),
            received: received.map(str::to_string),
            why: why.to_string(),
        }
    }

    /// Whether the engine process has exited.
    pub fn exited(&mut self) -> bool {
        self.process
            .as_mut()
            .map_or(true, |p| matches!(p.child.try_wait(), Ok(Some(_))))
    }

    /// Sends `quit`, waits a bounded time for the process to end (then kills it), and returns
    /// its captured error output (empty without capture).
    pub fn quit(&mut self) -> String {
        if let Some(mut p) = self.process.take() {
            // Give a well-behaved engine the chance to exit by itself before it is killed.
            let _ = p.send("quit");
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline && !matches!(p.child.try_wait(), Ok(Some(_))) {
                match p.next_line(deadline) {
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
            p.kill();
        }
        let Some(path) = self.stderr_file.take() else {
            return String::new();
        };
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let _ = std::fs::remove_file(&path);
        text
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.quit();
    }
}
