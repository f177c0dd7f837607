//! `chuhan uci --game chess`: the chess engine as a UCI engine, for chess GUIs and harnesses.
//! The same shape as the xiangqi front end (`commands/uci.rs`): the search runs on its own
//! thread so `stop` and `isready` answer at once, and malformed input never ends the session
//! (an `info string` names the problem).

use crate::common::uci::{
    bestmove_line, emit, final_info_line, info_line, parse_go, split_position, split_setoption, Out,
};
use chuhan_engine::chess::bench as chess_bench;
use chuhan_engine::chess::engine::levels;
use chuhan_engine::chess::search::SearchInfo;
use chuhan_engine::chess::{ChessConfig, ChessEngine, Color, EvalParams, Move, Position};
use chuhan_engine::search::tt::MAX_TT_MB;
use chuhan_engine::Level;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The range a UCI client may set an evaluation parameter to.
const PARAM_RANGE: (i32, i32) = (-5_000, 5_000);

/// The chess UCI session state.
pub struct ChessSession {
    out: Out,
    engine: Arc<Mutex<ChessEngine>>,
    config: ChessConfig,
    levels: Vec<Level>,
    position: Position,
    game_ply: usize,
    stop: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    seed: u64,
    /// `UCI_Chess960`: positions are read as Chess960 and castling is written as the king
    /// taking its own rook (`e1h1`).
    chess960: bool,
}

impl ChessSession {
    /// A session writing to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> ChessSession {
        let config = ChessConfig::default();
        ChessSession {
            out: Arc::new(Mutex::new(out)),
            engine: Arc::new(Mutex::new(ChessEngine::new(config.clone()))),
            config,
            levels: levels(),
            position: Position::startpos(),
            game_ply: 0,
            stop: Arc::new(AtomicBool::new(false)),
            search: None,
            seed: 0,
            chess960: false,
        }
    }

    /// The start position in the session's castling convention.
    fn start_position(&self) -> Position {
        if self.chess960 {
            Position::from_fen_chess960(chuhan_engine::chess::START_FEN)
                .expect("the start position is a Chess960 position")
        } else {
            Position::startpos()
        }
    }

    fn say(&self, line: &str) {
        emit(&self.out, line);
    }

    fn wait_search(&mut self) {
        if let Some(h) = self.search.take() {
            let _ = h.join();
        }
    }

    fn stop_search(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.wait_search();
    }

    fn rebuild_engine(&mut self) {
        self.stop_search();
        let mut e = ChessEngine::new(self.config.clone());
        e.new_game(self.seed);
        self.engine = Arc::new(Mutex::new(e));
    }

    /// Handles one input line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return true };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => self.cmd_uci(),
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.stop_search();
                self.seed = self.seed.wrapping_add(1);
                if let Ok(mut e) = self.engine.lock() {
                    e.new_game(self.seed);
                }
                self.position = self.start_position();
                self.game_ply = 0;
            }
            "setoption" => self.cmd_setoption(&rest),
            "position" => self.cmd_position(&rest),
            "go" => self.cmd_go(&rest),
            "stop" => self.stop_search(),
            "ponderhit" => {}
            "bench" => self.cmd_bench(),
            "quit" => {
                self.stop_search();
                return false;
            }
            "d" => self.say(&format!("info string fen {}", self.position.to_fen())),
            other => self.say(&format!("info string unknown command '{other}'")),
        }
        true
    }

    fn cmd_uci(&self) {
        self.say(&format!(
            "id name Chuhan-chess {}",
            env!("CARGO_PKG_VERSION")
        ));
        self.say("id author the Chuhan developers");
        self.say(&format!(
            "option name Hash type spin default 16 min 1 max {MAX_TT_MB}"
        ));
        self.say("option name Clear Hash type button");
        self.say("option name UCI_Chess960 type check default false");
        let mut combo = String::from("option name Level type combo default none var none");
        for l in &self.levels {
            combo.push_str(&format!(" var {}", l.name));
        }
        self.say(&combo);
        let defaults = EvalParams::default();
        for name in EvalParams::NAMES {
            self.say(&format!(
                "option name {name} type spin default {} min {} max {}",
                defaults.get(name).unwrap_or(0),
                PARAM_RANGE.0,
                PARAM_RANGE.1
            ));
        }
        self.say("uciok");
    }

    fn cmd_bench(&mut self) {
        self.stop_search();
        let r = chess_bench::run(chess_bench::BENCH_DEPTH);
        self.say(&format!("Nodes searched  : {}", r.nodes));
        self.say(&format!("Nodes/second    : {}", r.nps() as u64));
    }

    fn cmd_setoption(&mut self, rest: &[&str]) {
        let (name, value) = match split_setoption(rest) {
            Ok(nv) => nv,
            Err(e) => return self.say(&format!("info string {e}")),
        };
        let (name, value) = (name.as_str(), value.as_deref());
        let result: Result<(), String> = match name.to_ascii_lowercase().as_str() {
            "hash" => value
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|&mb| (1..=MAX_TT_MB).contains(&mb))
                .map(|mb| self.config.tt_mb = mb)
                .ok_or_else(|| {
                    format!("Hash value '{}' is not 1..{MAX_TT_MB}", value.unwrap_or(""))
                }),
            "uci_chess960" => {
                match value.map(str::to_ascii_lowercase).as_deref() {
                    Some("true") => self.chess960 = true,
                    Some("false") => self.chess960 = false,
                    other => {
                        return self.say(&format!(
                            "info string UCI_Chess960 value '{}' is not true or false",
                            other.unwrap_or("")
                        ))
                    }
                }
                // GUIs set this before `position`; a position already set is read again in
                // the new convention (its FEN, so a standard one stays the same position).
                self.stop_search();
                if let Ok(p) = self.read_fen(&self.position.to_fen()) {
                    self.position = p;
                }
                return;
            }
            "clear hash" => {
                self.wait_search();
                if let Ok(mut e) = self.engine.lock() {
                    e.new_game(self.seed);
                }
                return;
            }
            "level" => match value {
                Some("none") => {
                    self.config.level = None;
                    Ok(())
                }
                Some(v) => self
                    .levels
                    .iter()
                    .find(|l| l.name.eq_ignore_ascii_case(v))
                    .map(|l| self.config.level = Some(l.clone()))
                    .ok_or_else(|| format!("unknown level '{v}'")),
                None => Err("Level needs a value".into()),
            },
            _ => match (self.config.params.get(name), value) {
                (Some(_), Some(v)) => match v.parse::<i32>() {
                    Ok(n) if (PARAM_RANGE.0..=PARAM_RANGE.1).contains(&n) => {
                        self.config.params.set(name, n);
                        Ok(())
                    }
                    _ => Err(format!(
                        "{name} value '{v}' is not a whole number in {}..{}",
                        PARAM_RANGE.0, PARAM_RANGE.1
                    )),
                },
                (Some(_), None) => Err(format!("{name} needs a value")),
                (None, _) => Err(format!("unknown option '{name}'")),
            },
        };
        match result {
            Ok(()) => self.rebuild_engine(),
            Err(e) => self.say(&format!("info string {e}")),
        }
    }

    fn cmd_position(&mut self, rest: &[&str]) {
        let (fen, moves) = match split_position(rest) {
            Ok(x) => x,
            Err(e) => return self.say(&format!("info string {e}")),
        };
        let mut pos = match fen {
            None => self.start_position(),
            Some(fen) => match self.read_fen(&fen) {
                Ok(p) => p,
                Err(e) => return self.say(&format!("info string bad FEN '{fen}': {e}")),
            },
        };
        for (i, text) in moves.iter().enumerate() {
            match pos.parse_uci(text) {
                Ok(mv) => pos.make(mv),
                Err(e) => return self.say(&format!("info string move {} ({text}): {e}", i + 1)),
            }
        }
        self.stop_search();
        self.position = pos;
        self.game_ply = moves.len();
    }

    fn read_fen(&self, fen: &str) -> Result<Position, chuhan_engine::chess::FromFenError> {
        if self.chess960 {
            Position::from_fen_chess960(fen)
        } else {
            Position::from_fen(fen)
        }
    }

    /// `go perft D`: the divide of the current position as Stockfish prints it (`move: count`
    /// lines, a blank line, `Nodes searched: N`), so `chuhan engine-check --game chess` and
    /// `perft --engine` can check this engine too.
    fn cmd_perft(&mut self, depth: Option<&str>) {
        let Some(depth) = depth
            .and_then(|d| d.parse::<u32>().ok())
            .filter(|&d| d >= 1)
        else {
            self.say("info string go perft needs a depth of at least 1");
            return;
        };
        self.stop_search();
        let parts = chuhan_engine::chess::perft::divide(&mut self.position.clone(), depth);
        for (mv, n) in &parts {
            self.say(&format!("{mv}: {n}"));
        }
        self.say("");
        let total: u64 = parts.iter().map(|(_, n)| n).sum();
        self.say(&format!("Nodes searched: {total}"));
    }

    fn cmd_go(&mut self, rest: &[&str]) {
        if rest.first() == Some(&"perft") {
            return self.cmd_perft(rest.get(1).copied());
        }
        let white = self.position.side_to_move() == Color::White;
        let mut limits = match parse_go(rest, white) {
            Ok(l) => l,
            Err(e) => return self.say(&format!("info string {e}")),
        };
        self.stop_search();
        self.stop = Arc::new(AtomicBool::new(false));
        limits.stop = Some(self.stop.clone());
        let engine = self.engine.clone();
        let out = self.out.clone();
        let pos = self.position.clone();
        let ply = self.game_ply;
        self.search = Some(std::thread::spawn(move || {
            let Ok(mut e) = engine.lock() else { return };
            let start = std::time::Instant::now();
            let mut printed = None;
            let mut info = |i: &SearchInfo| {
                printed = i.pv.first().map(|&m| (m, i.score));
                emit(&out, &info_line(i));
            };
            let r = e.choose_move(&pos, &limits, ply, &mut info);
            if let Some(line) = final_info_line(&r, printed, start.elapsed(), &Move::NONE) {
                emit(&out, &line);
            }
            let best = (r.best_move != Move::NONE).then(|| r.best_move.to_string());
            emit(&out, &bestmove_line(best));
        }));
    }
}

/// Runs the chess UCI loop on stdin/stdout until `quit` or end of input (the shared loop:
/// a line that is not UTF-8 or too long is named and skipped).
pub fn run() -> anyhow::Result<u8> {
    let mut session = ChessSession::new(Box::new(std::io::stdout()));
    crate::common::uci::serve(&mut session, &mut std::io::stdin().lock());
    Ok(crate::EXIT_OK)
}

impl crate::common::uci::Session for ChessSession {
    fn say(&self, line: &str) {
        ChessSession::say(self, line)
    }
    fn handle(&mut self, line: &str) -> bool {
        ChessSession::handle(self, line)
    }
    fn stop_search(&mut self) {
        ChessSession::stop_search(self)
    }
}
