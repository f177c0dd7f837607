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
//! [`MAX_LINE_BYTES`](super::lines::MAX_LINE_BYTES) (the rest dropped) and decoded lossily, so a stray non-UTF-8 byte or a
//! megabyte line costs nothing; an engine that prints more than [`MAX_OUTPUT_PER_MOVE`] bytes
//! without a `bestmove` is a `disconnect` named as a flood in the game's log, and one that floods
//! while the opponent thinks is slowed by the full channel (the pipe blocks), not buffered. Its stderr goes to one file per game under
//! the run folder (`DIR/engines/<player>/game-<index>.stderr.log`), followed by a line saying
//! how the arena saw any failure.
//!
//! The pieces, one module each: `config` reads the engine file, `protocol` writes and
//! parses the protocol's lines, `process` runs the engine and its pipes, [`session`] drives
//! one by hand (for the engine checks), and this module holds the player that joins them.

mod config;
mod process;
mod protocol;
pub mod session;

pub use config::{
    is_external, load_external, parse_external, EngineLimits, ExternalEngine, TimeUnit, UciError,
    CHUHAN_PLACEHOLDER, DEFAULT_FIXED_LIMIT_TIMEOUT_MS, DEFAULT_MOVE_MARGIN_MS,
    DEFAULT_STARTUP_TIMEOUT_MS,
};
pub use process::MAX_OUTPUT_PER_MOVE;
pub use protocol::{
    banned_moves, declared_option, go_command, ucci_go_command, Coordinates, DeclaredOption,
    Protocol, SearchReport,
};

use super::{MoveChoice, Player, PlayerFailure};
use crate::play::any::{AnyGame, GameKind};
use crate::play::limits::MoveLimits;
use process::{Process, SharedLog, StartError};
use std::fs::File;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
