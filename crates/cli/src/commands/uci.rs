//! `chuhan uci`: the engine as a UCI engine, as Pikafish speaks it for xiangqi (moves in a0–i9
//! coordinates). The search runs on its own thread so `stop` and `isready` answer at once.
//! Malformed input never ends the session: an `info string` names the problem, and that holds
//! for bytes too (invalid UTF-8, lines of any length: see [`serve`]).

use chuhan_arena::play::config::{builtin_levels, find_level};
use chuhan_arena::play::player::lines::{read_capped_line, MAX_LINE_BYTES};
use chuhan_engine::params;
use chuhan_engine::search::tt::MAX_TT_MB;
use chuhan_engine::search::uci_score;
use chuhan_engine::{Engine, EngineConfig, Level, Limits, Move, Position, SearchInfo};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Writes one line to stdout and flushes (every UCI line goes through here).
fn emit(out: &Mutex<Box<dyn Write + Send>>, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// The UCI session state.
pub struct Session {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
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
        // setoption name <id...> [value <x...>]
        let joined = rest.join(" ");
        let Some(after_name) = joined.strip_prefix("name ") else {
            self.say("info string setoption needs 'name <option> [value <value>]'");
            return;
        };
        let (name, value) = match after_name.split_once(" value ") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (after_name.trim(), None),
        };
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
        let (mut pos, moves_at) = match rest.first() {
            Some(&"startpos") => (Position::startpos(), 1),
            Some(&"fen") => {
                let end = rest
                    .iter()
                    .position(|w| *w == "moves")
                    .unwrap_or(rest.len());
                let fen = rest[1..end].join(" ");
                match Position::from_fen(&fen) {
                    Ok(p) => (p, end),
                    Err(e) => {
                        self.say(&format!("info string bad FEN '{fen}': {e}"));
                        return;
                    }
                }
            }
            _ => {
                self.say("info string position needs 'startpos' or 'fen <FEN>'");
                return;
            }
        };
        let mut plies = 0;
        if rest.get(moves_at) == Some(&"moves") {
            for (i, text) in rest[moves_at + 1..].iter().enumerate() {
                match pos.parse_uci_move(text) {
                    Ok(mv) => {
                        pos.make(mv);
                        plies += 1;
                    }
                    Err(e) => {
                        self.say(&format!("info string move {} ({text}): {e}", i + 1));
                        return;
                    }
                }
            }
        } else if let Some(w) = rest.get(moves_at) {
            self.say(&format!("info string unexpected '{w}' in position command"));
            return;
        }
        self.stop_search();
        self.position = pos;
        self.game_ply = plies;
    }

    fn cmd_go(&mut self, rest: &[&str]) {
        if rest.first() == Some(&"perft") {
            return self.cmd_perft(rest.get(1).copied());
        }
        let mut limits = Limits::default();
        let (mut wtime, mut btime, mut winc, mut binc, mut movestogo) =
            (None, None, 0u64, 0u64, None);
        let mut infinite = false;
        let mut i = 0;
        while i < rest.len() {
            let key = rest[i];
            let num = rest.get(i + 1).and_then(|v| v.parse::<i64>().ok());
            let needs_value = !matches!(key, "infinite" | "ponder");
            if needs_value && num.is_none() {
                self.say(&format!("info string go {key} needs a number"));
                return;
            }
            let n = num.unwrap_or(0).max(0) as u64;
            match key {
                "depth" => limits.depth = Some(n.clamp(1, 100) as u32),
                "nodes" => limits.nodes = Some(n.max(1)),
                "movetime" => {
                    limits.soft_time = Some(Duration::from_millis(n.max(1)));
                    limits.hard_time = Some(Duration::from_millis(n.max(1)));
                }
                "wtime" => wtime = Some(n),
                "btime" => btime = Some(n),
                "winc" => winc = n,
                "binc" => binc = n,
                "movestogo" => movestogo = Some(n.max(1)),
                "mate" => limits.depth = Some((2 * n).clamp(1, 100) as u32),
                "infinite" => infinite = true,
                "ponder" => {}
                other => {
                    self.say(&format!("info string unknown go parameter '{other}'"));
                    return;
                }
            }
            i += if needs_value { 2 } else { 1 };
        }
        let red = self.position.side_to_move() == chuhan_engine::Color::Red;
        let (time, inc) = if red { (wtime, winc) } else { (btime, binc) };
        if let (Some(t), false) = (time, infinite) {
            let moves = movestogo.unwrap_or(30).min(30);
            let soft = t / moves + inc * 3 / 4;
            let hard = (soft * 3).min(t.saturating_sub(50).max(1) * 2 / 5).max(1);
            limits.soft_time = Some(Duration::from_millis(soft.min(hard)));
            limits.hard_time = Some(Duration::from_millis(hard));
        }
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
            let mut info = |i: &SearchInfo| {
                let ms = i.elapsed.as_millis().max(1);
                let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
                emit(
                    &out,
                    &format!(
                        "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
                        i.depth,
                        i.seldepth,
                        uci_score(i.score),
                        i.nodes,
                        i.nodes as u128 * 1000 / ms,
                        ms,
                        pv.join(" ")
                    ),
                );
            };
            let r = e.choose_move(&pos, &[], &limits, ply, &mut info);
            let best = if r.best_move == Move::NONE {
                "0000".to_string()
            } else {
                r.best_move.to_string()
            };
            emit(&out, &format!("bestmove {best}"));
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
    let session = Session::new(Box::new(std::io::stdout()));
    serve(session, &mut std::io::stdin().lock());
    Ok(crate::EXIT_OK)
}

/// Feeds `input` to the session line by line until `quit` or its end. Bytes are bytes: a line
/// over [`MAX_LINE_BYTES`] or not valid UTF-8 is answered with an `info string` naming it and
/// skipped (only its first bytes are ever held), and the session goes on.
pub fn serve(mut session: Session, input: &mut dyn BufRead) {
    let mut number = 0u64;
    while let Ok(Some(line)) = read_capped_line(input, MAX_LINE_BYTES) {
        number += 1;
        if line.dropped > 0 {
            session.say(&format!(
                "info string input line {number} ignored: longer than {MAX_LINE_BYTES} bytes ({} bytes dropped)",
                line.dropped
            ));
            continue;
        }
        if line.invalid_utf8 {
            session.say(&format!(
                "info string input line {number} ignored: not valid UTF-8"
            ));
            continue;
        }
        if !session.handle(&line.text) {
            return;
        }
    }
    session.stop_search();
}
