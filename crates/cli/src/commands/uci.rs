//! `chuhan uci`: the engine as a UCI engine, as Pikafish speaks it for xiangqi (moves in a0–i9
//! coordinates). The search runs on its own thread so `stop` and `isready` answer at once.
//! Malformed input never ends the session: an `info string` names the problem, and that holds
//! for bytes too (invalid UTF-8, lines of any length: see [`serve`]).

use crate::common::flags::GameArg;
use crate::common::uci::{bestmove_line, emit, final_info_line, info_line, parse_go, Out};
use chuhan_arena::engines::uci_front::{
    parse_command, xiangqi_option, xiangqi_position, Command, XiangqiOption,
};
use chuhan_arena::play::config::{builtin_levels, param_without_effect};
use chuhan_engine::params;
use chuhan_engine::search::smp::MAX_THREADS;
use chuhan_engine::search::tt::MAX_TT_MB;
use chuhan_engine::{Engine, EngineConfig, Level, Move, Position, SearchInfo};
use clap::Args;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// `chuhan uci` options.
#[derive(Debug, Args)]
pub struct UciArgs {
    /// The game to speak UCI for.
    #[arg(long, value_enum, default_value_t = GameArg::Xiangqi)]
    pub game: GameArg,
}

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
    threads: usize,
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
            threads: 1,
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
        e.set_threads(self.threads);
        e.new_game(self.seed);
        self.engine = Arc::new(Mutex::new(e));
    }

    /// Handles one input line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let command = match parse_command(line) {
            None => return true,
            Some(Ok(c)) => c,
            Some(Err(e)) => {
                self.say(&format!("info string {e}"));
                return true;
            }
        };
        match command {
            Command::Uci => self.cmd_uci(),
            Command::IsReady => self.say("readyok"),
            Command::UciNewGame => {
                self.stop_search();
                self.seed = self.seed.wrapping_add(1);
                if let Ok(mut e) = self.engine.lock() {
                    e.new_game(self.seed);
                }
                self.position = Position::startpos();
                self.game_ply = 0;
            }
            Command::SetOption { name, value } => self.cmd_setoption(&name, value.as_deref()),
            Command::Position { fen, moves } => self.cmd_position(fen.as_deref(), &moves),
            Command::Perft(depth) => self.cmd_perft(depth.as_deref()),
            Command::Go(words) => self.cmd_go(&words),
            Command::Stop => self.stop_search(),
            Command::PonderHit => {}
            Command::Quit => {
                self.stop_search();
                return false;
            }
            Command::Display => self.say(&format!("info string fen {}", self.position.to_fen())),
            Command::Bench => self.cmd_bench(),
            Command::Unknown(other) => self.say(&format!("info string unknown command '{other}'")),
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
        self.say(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        let mut combo = String::from("option name Level type combo default none var none");
        for l in &self.levels {
            combo.push_str(&format!(" var {}", l.name));
        }
        self.say(&combo);
        self.say("option name Skill Level type spin default 20 min 0 max 20");
        self.say("option name Rules type combo default asian var asian var check-only");
        self.say("option name Evaluation type combo default network var network var handcrafted");
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

    fn cmd_setoption(&mut self, name: &str, value: Option<&str>) {
        let option = match xiangqi_option(name, value, &self.levels) {
            Ok(o) => o,
            Err(e) => return self.say(&format!("info string {e}")),
        };
        let options = &mut self.config.options;
        match option {
            XiangqiOption::Hash(mb) => options.tt_mb = mb,
            XiangqiOption::ClearHash => {
                self.wait_search();
                if let Ok(mut e) = self.engine.lock() {
                    e.new_game(self.seed);
                }
                return;
            }
            XiangqiOption::Threads(n) => self.threads = n,
            XiangqiOption::Level(level) => self.config.level = level,
            XiangqiOption::Rules(rules) => self.rules = rules,
            XiangqiOption::NullMove(b) => options.null_move = b,
            XiangqiOption::Lmr(b) => options.lmr = b,
            XiangqiOption::CheckExtension(b) => options.check_extension = b,
            XiangqiOption::Futility(b) => options.futility = b,
            XiangqiOption::Param(name, n) => {
                if let Err(e) = self.config.params.set(&name, n) {
                    return self.say(&format!("info string {e}"));
                }
                // Kept either way (a GUI sends its options in any order), but said.
                let default = chuhan_engine::Params::default().value(&name).ok();
                if default != Some(n as i32)
                    && param_without_effect(&self.config, [name.as_str()]).is_some()
                {
                    self.say(&format!(
                        "info string {name} is set, but it is a term of the handcrafted evaluation and the evaluation is the network: it acts once Evaluation is handcrafted"
                    ));
                }
            }
            XiangqiOption::Handcrafted(handcrafted) => {
                self.config.network = if handcrafted {
                    None
                } else {
                    EngineConfig::default().network
                };
            }
        }
        self.rebuild_engine();
    }

    fn cmd_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let pos = match xiangqi_position(fen, moves) {
            Ok(p) => p,
            Err(e) => return self.say(&format!("info string {e}")),
        };
        self.stop_search();
        self.position = pos;
        self.game_ply = moves.len();
    }

    fn cmd_go(&mut self, rest: &[String]) {
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
            let start = std::time::Instant::now();
            let mut printed = None;
            let mut info = |i: &SearchInfo| {
                printed = i.pv.first().map(|&m| (m, i.score));
                emit(&out, &info_line(i));
            };
            let r = e.choose_move(&pos, &[], &limits, ply, &mut info);
            if let Some(line) = final_info_line(&r, printed, start.elapsed(), &Move::NONE) {
                emit(&out, &line);
            }
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
    crate::common::uci::serve(&mut session, &mut std::io::stdin().lock());
    Ok(crate::EXIT_OK)
}

impl crate::common::uci::Session for Session {
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
