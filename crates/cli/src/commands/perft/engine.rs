//! `chuhan perft --engine FILE`: the engine's `go perft` divide against our counts, and on a
//! difference the position where the move lists differ (`position:`, `path:`, `missing:`,
//! `extra:`, moves in our UCI text: xiangqi a0-i9, chess e2e4), for either game (`--game`).

use super::PerftArgs;
use crate::common::flags::GameArg;
use crate::common::{external, game_input};
use crate::{EXIT_FAIL, EXIT_OK, EXIT_USAGE};
use anyhow::{bail, Context};
use chuhan_arena::engines::game::{Chess, EngineGame, Xiangqi};
use chuhan_arena::engines::perft::{compare, Mismatch, Outcome};
use chuhan_arena::engines::Session;
use chuhan_engine::SuiteEntry;
use std::path::Path;
use std::time::Instant;

/// Runs the comparison; exit 0 when everything agrees, 1 on a difference, 2 on unusable input
/// or an engine that cannot be asked (named). The engine file must play `--game`.
pub fn run(engine_file: &Path, args: &PerftArgs) -> anyhow::Result<u8> {
    match args.game {
        GameArg::Xiangqi if args.chess960 => {
            bail!("--chess960 is a chess variant; add --game chess")
        }
        GameArg::Xiangqi => run_game::<Xiangqi>(engine_file, args),
        GameArg::Chess => run_game::<Chess>(engine_file, args),
    }
}

/// How the positions of `G` are read from the command line and the suite.
trait Input: EngineGame {
    fn position(fen: &str, chess960: bool) -> Result<Self::Position, String>;
    fn suite(text: &str, chess960: bool) -> Result<Vec<SuiteEntry>, chuhan_engine::SuiteError>;
}

impl Input for Xiangqi {
    fn position(fen: &str, _: bool) -> Result<Self::Position, String> {
        game_input::xiangqi_position(fen)
    }
    fn suite(text: &str, _: bool) -> Result<Vec<SuiteEntry>, chuhan_engine::SuiteError> {
        chuhan_engine::parse_suite(text)
    }
}

impl Input for Chess {
    fn position(fen: &str, chess960: bool) -> Result<Self::Position, String> {
        if chess960 {
            chuhan_engine::chess::Position::from_fen_chess960(fen)
                .map_err(|e| game_input::fen_error(GameArg::Chess, fen, &e))
        } else {
            game_input::chess_position(fen)
        }
    }
    fn suite(text: &str, chess960: bool) -> Result<Vec<SuiteEntry>, chuhan_engine::SuiteError> {
        if chess960 {
            chuhan_engine::chess::parse_suite_chess960(text)
        } else {
            chuhan_engine::chess::parse_suite(text)
        }
    }
}

/// A session with the engine, told to read Chess960 castling when `--chess960` is given.
fn start(
    engine: &chuhan_arena::play::player::uci::ExternalEngine,
    chess960: bool,
) -> anyhow::Result<Session> {
    let mut session = Session::start(engine, false)?;
    if chess960 {
        session.send("setoption name UCI_Chess960 value true")?;
        session.ready()?;
    }
    Ok(session)
}

fn run_game<G: Input>(engine_file: &Path, args: &PerftArgs) -> anyhow::Result<u8> {
    let engine = external::load_for(engine_file, "--engine", args.game)?;
    if args.depth == Some(0) || args.max_depth == Some(0) {
        bail!("the depth must be at least 1");
    }
    let start_time = Instant::now();
    if let Some(fen) = &args.fen {
        let depth = args.depth.context("--fen needs --depth")?;
        let pos = match G::position(fen, args.chess960) {
            Ok(p) => p,
            Err(message) => {
                eprintln!("chuhan: error: {message}");
                return Ok(EXIT_USAGE);
            }
        };
        let mut session = start(&engine, args.chess960)?;
        let outcome = compare::<G>(&mut session, &pos, depth)?;
        session.quit();
        let code = match outcome {
            Outcome::Agree { nodes } => {
                outln!("agree: depth {depth}: {nodes} nodes ({})", engine.name);
                EXIT_OK
            }
            Outcome::Differ {
                engine_total,
                our_total,
                mismatch,
            } => {
                outln!(
                    "mismatch: depth {depth}: engine {engine_total}, ours {our_total} ({})",
                    engine.name
                );
                print_mismatch(&mismatch);
                EXIT_FAIL
            }
        };
        eprintln!("{:.3} s", start_time.elapsed().as_secs_f64());
        return Ok(code);
    }
    let path = args.suite.as_ref().context("give --fen or --suite")?;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let suite =
        G::suite(&text, args.chess960).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let depths = |e: &SuiteEntry| -> Vec<u32> {
        let mut d: Vec<u32> = e
            .expected
            .iter()
            .map(|&(d, _)| d)
            .filter(|&d| args.max_depth.map_or(true, |m| d <= m))
            .collect();
        d.sort_unstable();
        d
    };
    if suite.iter().all(|e| depths(e).is_empty()) {
        bail!(
            "{}: the suite has no positions with a depth to check (at or below --max-depth)",
            path.display()
        );
    }
    let mut session = start(&engine, args.chess960)?;
    let (mut passed, mut failed, mut nodes) = (0, 0, 0u64);
    for entry in &suite {
        let pos = G::position(&entry.fen, args.chess960)
            .map_err(|e| anyhow::anyhow!("{}: line {}: {e}", path.display(), entry.line))?;
        let mut deepest = None;
        let mut failure = None;
        for d in depths(entry) {
            match compare::<G>(&mut session, &pos, d)? {
                Outcome::Agree { nodes: n } => {
                    nodes += n;
                    deepest = Some((d, n));
                }
                Outcome::Differ {
                    engine_total,
                    our_total,
                    mismatch,
                } => {
                    failure = Some((d, engine_total, our_total, mismatch));
                    break;
                }
            }
        }
        match (failure, deepest) {
            (Some((d, theirs, ours, mismatch)), _) => {
                failed += 1;
                outln!(
                    "FAIL line {}: depth {d}: engine {theirs}, ours {ours}  {}",
                    entry.line,
                    entry.fen
                );
                print_mismatch(&mismatch);
            }
            (None, Some((d, n))) => {
                passed += 1;
                outln!("pass line {}: D{d} {n}  {}", entry.line, entry.fen);
            }
            (None, None) => outln!(
                "skip line {}: no depth within --max-depth  {}",
                entry.line,
                entry.fen
            ),
        }
    }
    session.quit();
    outln!(
        "positions: {}  passed: {passed}  failed: {failed}  nodes: {nodes}  seconds: {:.3}  engine: {}",
        suite.len(),
        start_time.elapsed().as_secs_f64(),
        engine.name
    );
    Ok(if failed == 0 { EXIT_OK } else { EXIT_FAIL })
}

fn moves<M: std::fmt::Display>(list: &[M]) -> String {
    list.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The report, one item a line (an empty list leaves the line's value empty).
fn print_mismatch<M: std::fmt::Display>(m: &Mismatch<M>) {
    let line = |key: &str, value: String| {
        if value.is_empty() {
            outln!("{key}:");
        } else {
            outln!("{key}: {value}");
        }
    };
    line("position", m.fen.clone());
    line("path", moves(&m.path));
    line("missing", moves(&m.missing));
    line("extra", moves(&m.extra));
    line(
        "counts",
        format!(
            "depth {} here: engine {}, ours {}",
            m.depth, m.engine_count, m.our_count
        ),
    );
    if let Some(note) = &m.note {
        line("note", note.clone());
    }
}
