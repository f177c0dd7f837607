//! `chuhan uci`: the engine as a UCI engine, as Pikafish speaks it for xiangqi (moves in a0–i9
//! coordinates). The search runs on its own thread so `stop` and `isready` answer at once.
//! Malformed input never ends the session: an `info string` names the problem, and that holds
//! for bytes too (invalid UTF-8, lines of any length: see [`serve`]).

use super::uci_common::{
    bestmove_line, emit, info_line, parse_go, split_position, split_setoption, Out,
};
use chuhan_arena::play::config::{builtin_levels, find_level};
use chuhan_engine::params;
use chuhan_engine::search::tt::MAX_TT_MB;
use chuhan_engine::{Engine, EngineConfig, Level, Move, Position, SearchInfo};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The UCI session state.
pub struct Session {
    out: Out,
    engine: Arc<Mutex<Engine>>,
    config: EngineConfig,
    levels: Vec<Level>,
    position: Position,
    game_ply: usize,
    stop: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    seed: u64,
    rules: chuhan_engine::RuleSet,
}

impl Session {
    /// A session writing to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> Session {
        let config = EngineConfig::default();
        Session {
            out: Arc::new(Mutex::new(out)),
            engine: Arc::new(Mutex::new(Engine::new(config.clone()))),
            config,
            levels: builtin_levels(),
            position: Position::startpos(),
            game_ply: 0,
            stop: Arc::new(AtomicBool::new(false)),
            search: None,
            seed: 0,
            rules: chuhan_engine::RuleSet::default(),
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
        let mut e = Engine::new(self.config.clone());
        e.set_rules(self.rules);
        e.new_game(self.seed);
        self.engine = Arc::new(Mutex::new(e));
    }

    /// Handles one input line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
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
                self.position = Position::startpos();
                self.game_ply = 0;
            }
            "setoption" => self.cmd_setoption(&rest),
            "position" => self.cmd_position(&rest),
            "go" => self.cmd_go(&rest),
            "stop" => self.stop_search(),
            "ponderhit" => {}
            "quit" => {
                self.stop_search();
                return false;
            }
            "d" => self.say(&format!("info string fen {}", self.position.to_fen())),
            "bench" => self.cmd_bench(),
            other => self.say(&format!("info string unknown command '{other}'")),
        }
        true
    }

    fn cmd_uci(&self) {
        self.say(&format!("id name Chuhan {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the Chuhan developers");
        self.say(&format!(
            "option name Hash type spin default 16 min 1 max {MAX_TT_MB}"
        ));
        self.say("option name Clear Hash type button");
        let mut combo = String::from("option name Level type combo default none var none");
        for l in &self.levels {
            combo.push_str(&format!(" var {}", l.name));
        }
        self.say(&combo);
        self.say("option name Rules type combo default asian var asian var check-only");
        for (name, on) in [
            ("NullMove", true),
            ("LMR", true),
            ("CheckExtension", true),
            ("Futility", true),
        ] {
            self.say(&format!("option name {name} type check default {on}"));
        }
        for d in params::table() {
            self.say(&format!(
                "option name {} type spin default {} min {} max {}",
                d.name, d.default, d.min, d.max
            ));
        }
        self.say("uciok");
    }

    fn cmd_setoption(&mut self, rest: &[&str]) {
        let (name, value) = match split_setoption(rest) {
            Ok(nv) => nv,
            Err(e) => return self.say(&format!("info string {e}")),
        };
        let (name, value) = (name.as_str(), value.as_deref());
        let lower = name.to_ascii_lowercase();
        let parse_bool = |v: Option<&str>| match v.map(|s| s.to_ascii_lowercase()) {
            Some(s) if s == "true" => Ok(true),
            Some(s) if s == "false" => Ok(false),
            other => Err(format!(
                "'{}' is not true or false",
                other.unwrap_or_default()
            )),
        };
        let result: Result<(), String> = match lower.as_str() {
            "hash" => value
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|&mb| (1..=MAX_TT_MB).contains(&mb))
                .map(|mb| self.config.options.tt_mb = mb)
                .ok_or_else(|| {
                    format!("Hash value '{}' is not 1..{MAX_TT_MB}", value.unwrap_or(""))
                }),
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
                Some(v) => find_level(&self.levels, v)
                    .map(|l| self.config.level = Some(l))
                    .ok_or_else(|| format!("unknown level '{v}'")),
                None => Err("Level needs a value".into()),
            },
            "rules" => match value.map(str::parse::<chuhan_engine::RuleSet>) {
                Some(Ok(rules)) => {
                    self.rules = rules;
                    Ok(())
                }
                Some(Err(e)) => Err(e.to_string()),
                None => Err("Rules needs a value".into()),
            },
            "nullmove" => parse_bool(value).map(|b| self.config.options.null_move = b),
            "lmr" => parse_bool(value).map(|b| self.config.options.lmr = b),
            "checkextension" => parse_bool(value).map(|b| self.config.options.check_extension = b),
            "futility" => parse_bool(value).map(|b| self.config.options.futility = b),
            _ => match (params::index_of(name), value) {
                (Some(_), Some(v)) => v
                    .parse::<i64>()
                    .map_err(|_| format!("'{v}' is not a whole number"))
                    .and_then(|n| self.config.params.set(name, n).map_err(|e| e.to_string())),
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
            None => Position::startpos(),
            Some(fen) => match Position::from_fen(&fen) {
                Ok(p) => p,
                Err(e) => return self.say(&format!("info string bad FEN '{fen}': {e}")),
            },
        };
        for (i, text) in moves.iter().enumerate() {
            match pos.parse_uci_move(text) {
                Ok(mv) => pos.make(mv),
                Err(e) => return self.say(&format!("info string move {} ({text}): {e}", i + 1)),
            }
        }
        self.stop_search();
        self.position = pos;
        self.game_ply = moves.len();
    }

    fn cmd_go(&mut self, rest: &[&str]) {
        if rest.first() == Some(&"perft") {
            return self.cmd_perft(rest.get(1).copied());
        }
        let red = self.position.side_to_move() == chuhan_engine::Color::Red;
        let mut limits = match parse_go(rest, red) {
            Ok(l) => l,
            Err(e) => return self.say(&format!("info string {e}")),
        };
        // A new `go` while searching ends the running search first.
        self.stop_search();
        self.stop = Arc::new(AtomicBool::new(false));
        limits.stop = Some(self.stop.clone());
        let engine = self.engine.clone();
        let out = self.out.clone();
        let pos = self.position.clone();
        let ply = self.game_ply;
        self.search = Some(std::thread::spawn(move || {
            let Ok(mut e) = engine.lock() else { return };
            let mut info = |i: &SearchInfo| emit(&out, &info_line(i));
            let r = e.choose_move(&pos, &[], &limits, ply, &mut info);
            let best = (r.best_move != Move::NONE).then(|| r.best_move.to_string());
            emit(&out, &bestmove_line(best));
        }));
    }
}

impl Session {
    /// `go perft D`: the divide of the current position as Stockfish prints it (`move: count`
    /// lines, a blank line, `Nodes searched: N`), counted before the next command is read.
    fn cmd_perft(&mut self, depth: Option<&str>) {
        let Some(depth) = depth
            .and_then(|d| d.parse::<u32>().ok())
            .filter(|&d| d >= 1)
        else {
            self.say("info string go perft needs a depth of at least 1");
            return;
        };
        self.stop_search();
        let parts = chuhan_engine::divide(&mut self.position.clone(), depth);
        for (mv, n) in &parts {
            self.say(&format!("{mv}: {n}"));
        }
        self.say("");
        let total: u64 = parts.iter().map(|(_, n)| n).sum();
        self.say(&format!("Nodes searched: {total}"));
    }

    /// `bench`: the built-in bench (its node count is the signature `chuhan bench` prints),
    /// summarised on stderr as Stockfish does, before the next command is read.
    fn cmd_bench(&mut self) {
        self.stop_search();
        let r = chuhan_engine::bench::run(chuhan_engine::bench::BENCH_DEPTH);
        eprintln!("\n===========================");
        eprintln!("Total time (ms) : {}", r.elapsed.as_millis());
        eprintln!("Nodes searched  : {}", r.nodes);
        eprintln!("Nodes/second    : {:.0}", r.nps());
    }
}

/// Runs the UCI loop on stdin/stdout until `quit` or end of input.
pub fn run() -> anyhow::Result<u8> {
    let mut session = Session::new(Box::new(std::io::stdout()));
    super::uci_common::serve(&mut session, &mut std::io::stdin().lock());
    Ok(crate::EXIT_OK)
}

impl super::uci_common::Session for Session {
    fn say(&self, line: &str) {
        Session::say(self, line)
    }
    fn handle(&mut self, line: &str) -> bool {
        Session::handle(self, line)
    }
    fn stop_search(&mut self) {
        Session::stop_search(self)
    }
}
