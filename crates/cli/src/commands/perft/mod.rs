//! `chuhan perft`: one position (optionally divided), or a suite checked against its counts,
//! for either game (`--game xiangqi|chess`): the code is written once over [`Rules`].

mod engine;

use crate::common::flags::GameArg;
use crate::{EXIT_FAIL, EXIT_OK, EXIT_USAGE};
use anyhow::Context;
use chuhan_engine::game::{Chess, Rules, Xiangqi};
use chuhan_engine::SuiteEntry;
use clap::Args;
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// `chuhan perft`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["fen", "suite"])))]
pub struct PerftArgs {
    /// The position, as FEN (ranks 0-9, `w` = Red to move). Use with --depth.
    #[arg(long, requires = "depth")]
    pub fen: Option<String>,
    /// Depth for --fen.
    #[arg(long)]
    pub depth: Option<u32>,
    /// With --fen: print `MOVE: COUNT` per legal root move, then `total: COUNT`.
    #[arg(long, requires = "fen")]
    pub divide: bool,
    /// A suite file of lines `FEN ;D1 n ;D2 n ...` (`#` comments allowed).
    #[arg(long, conflicts_with_all = ["fen", "depth", "divide"])]
    pub suite: Option<PathBuf>,
    /// With --suite: skip listed depths above this.
    #[arg(long, requires = "suite")]
    pub max_depth: Option<u32>,
    /// Worker threads (default: all cores). 1 is strictly single-threaded.
    #[arg(long)]
    pub threads: Option<usize>,
    /// The game: xiangqi (default; FEN ranks 0-9) or chess. With --engine, the engine file must
    /// play that game (its `game = ...`), and its divide is compared with our rules of it.
    #[arg(long, value_enum, default_value_t = GameArg::Xiangqi)]
    pub game: GameArg,
    /// An external engine file (`[uci]` table): compare its `go perft` divide with our counts
    /// and, on a difference, walk down to the position where the move lists differ.
    #[arg(long, conflicts_with_all = ["divide", "threads"])]
    pub engine: Option<PathBuf>,
    /// With --game chess: read the FEN (or every suite FEN) as Chess960, so a castling right
    /// may have its king and rook on any files (`KQkq` as the outermost rooks, or the rooks'
    /// files as in `HFhf`), and --divide writes castling as the king taking its own rook.
    #[arg(long)]
    pub chess960: bool,
}

/// Runs the command; exit 0 when every count matches, 1 on a mismatch, 2 on unusable input.
pub fn run(args: &PerftArgs) -> anyhow::Result<u8> {
    if let Some(engine) = &args.engine {
        return engine::run(engine, args);
    }
    match args.game {
        GameArg::Xiangqi if args.chess960 => {
            anyhow::bail!("--chess960 is a chess variant; add --game chess")
        }
        GameArg::Xiangqi => run_game::<Xiangqi>(args),
        GameArg::Chess if args.chess960 => run_game::<Chess960>(args),
        GameArg::Chess => run_game::<Chess>(args),
    }
}

/// Chess with Chess960's castling: the chess rules, every FEN read as a Chess960 position.
struct Chess960;

impl Rules for Chess960 {
    type Position = <Chess as Rules>::Position;
    type Move = <Chess as Rules>::Move;
    type FenError = <Chess as Rules>::FenError;
    const NAME: &'static str = "chess960";

    fn from_fen(fen: &str) -> Result<Self::Position, Self::FenError> {
        chuhan_engine::chess::Position::from_fen_chess960(fen)
    }
    fn legal_moves(pos: &Self::Position) -> Vec<Self::Move> {
        Chess::legal_moves(pos)
    }
    fn make(pos: &mut Self::Position, mv: Self::Move) {
        Chess::make(pos, mv)
    }
    fn perft(pos: &mut Self::Position, depth: u32) -> u64 {
        Chess::perft(pos, depth)
    }
    fn divide(pos: &mut Self::Position, depth: u32) -> Vec<(Self::Move, u64)> {
        Chess::divide(pos, depth)
    }
    fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, chuhan_engine::SuiteError> {
        chuhan_engine::chess::parse_suite_chess960(text)
    }
}

fn run_game<R: Rules>(args: &PerftArgs) -> anyhow::Result<u8> {
    if args.threads == Some(0) {
        anyhow::bail!("--threads must be at least 1");
    }
    // Depth 0 checks nothing: a gate run with it would pass having counted no move.
    if args.max_depth == Some(0) {
        anyhow::bail!("--max-depth must be at least 1");
    }
    if let Some(fen) = &args.fen {
        let depth = args.depth.context("--fen needs --depth")?;
        let pos = match R::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("chuhan: error: bad FEN '{fen}': {e}");
                return Ok(EXIT_USAGE);
            }
        };
        return run_single::<R>(pos, depth, args.divide, args.threads);
    }
    let path = args.suite.as_ref().context("give --fen or --suite")?;
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("chuhan: error: cannot read {}: {e}", path.display());
            return Ok(EXIT_USAGE);
        }
    };
    let suite = match R::parse_suite(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("chuhan: error: {}: {e}", path.display());
            return Ok(EXIT_USAGE);
        }
    };
    // A suite that checks nothing must not pass: an empty file, or every depth skipped.
    if suite.is_empty() {
        eprintln!(
            "chuhan: error: {}: the suite has no positions",
            path.display()
        );
        return Ok(EXIT_USAGE);
    }
    let checkable = |depth: u32| args.max_depth.map_or(true, |m| depth <= m);
    if !suite
        .iter()
        .any(|e| e.expected.iter().any(|&(d, _)| checkable(d)))
    {
        let max = args.max_depth.map_or(String::new(), |m| format!(" {m}"));
        eprintln!(
            "chuhan: error: {}: the suite has no depths at or below --max-depth{max}",
            path.display()
        );
        return Ok(EXIT_USAGE);
    }
    run_suite::<R>(suite, args.max_depth, args.threads)
}

/// Per-root-move counts, split across threads unless `threads == Some(1)`.
type Divided<R> = Vec<(<R as Rules>::Move, u64)>;

fn divided<R: Rules>(
    pos: &R::Position,
    depth: u32,
    threads: Option<usize>,
) -> anyhow::Result<Divided<R>> {
    if threads == Some(1) || depth <= 1 {
        return Ok(R::divide(&mut pos.clone(), depth));
    }
    let moves = R::legal_moves(pos);
    let pool = chuhan_arena::thread_pool(threads)?;
    Ok(pool.install(|| {
        moves
            .par_iter()
            .map(|&mv| {
                let mut p = pos.clone();
                R::make(&mut p, mv);
                let n = R::perft(&mut p, depth - 1);
                (mv, n)
            })
            .collect()
    }))
}

fn run_single<R: Rules>(
    pos: R::Position,
    depth: u32,
    show_divide: bool,
    threads: Option<usize>,
) -> anyhow::Result<u8> {
    let start = Instant::now();
    let total = if depth == 0 {
        1
    } else {
        let parts = divided::<R>(&pos, depth, threads)?;
        if show_divide {
            for (mv, n) in &parts {
                outln!("{mv}: {n}");
            }
        }
        parts.iter().map(|(_, n)| n).sum()
    };
    let secs = start.elapsed().as_secs_f64();
    outln!("total: {total}");
    eprintln!(
        "depth {depth}: {total} nodes in {secs:.3} s ({:.0} nodes/s)",
        total as f64 / secs.max(1e-9)
    );
    Ok(EXIT_OK)
}

/// The outcome of one suite position.
struct Checked {
    nodes: u64,
    failure: Option<(u32, u64, u64)>,
    deepest: Option<(u32, u64)>,
}

fn check_entry<R: Rules>(entry: &SuiteEntry, max_depth: Option<u32>) -> Checked {
    let Ok(mut pos) = R::from_fen(&entry.fen) else {
        unreachable!("suite FENs are validated while parsing")
    };
    let mut out = Checked {
        nodes: 0,
        failure: None,
        deepest: None,
    };
    for &(depth, expected) in &entry.expected {
        if max_depth.is_some_and(|m| depth > m) {
            continue;
        }
        let got = R::perft(&mut pos, depth);
        out.nodes += got;
        if got != expected {
            out.failure = Some((depth, expected, got));
            break;
        }
        out.deepest = Some((depth, got));
    }
    out
}

fn run_suite<R: Rules>(
    suite: Vec<SuiteEntry>,
    max_depth: Option<u32>,
    threads: Option<usize>,
) -> anyhow::Result<u8> {
    let start = Instant::now();
    let results: Vec<Checked> = if threads == Some(1) {
        suite
            .iter()
            .map(|e| check_entry::<R>(e, max_depth))
            .collect()
    } else {
        let pool = chuhan_arena::thread_pool(threads)?;
        pool.install(|| {
            suite
                .par_iter()
                .map(|e| check_entry::<R>(e, max_depth))
                .collect()
        })
    };
    let secs = start.elapsed().as_secs_f64();
    let mut failed = 0;
    let mut nodes = 0;
    for (entry, r) in suite.iter().zip(&results) {
        nodes += r.nodes;
        match (r.failure, r.deepest) {
            (Some((d, expected, got)), _) => {
                failed += 1;
                outln!(
                    "FAIL line {}: depth {d} expected {expected} got {got}  {}",
                    entry.line,
                    entry.fen
                );
            }
            (None, Some((d, n))) => outln!("pass line {}: D{d} {n}  {}", entry.line, entry.fen),
            (None, None) => outln!(
                "skip line {}: no depth within --max-depth  {}",
                entry.line,
                entry.fen
            ),
        }
    }
    outln!(
        "positions: {}  passed: {}  failed: {failed}  nodes: {nodes}  seconds: {secs:.3}  nodes/s: {:.0}",
        suite.len(),
        suite.len() - failed,
        nodes as f64 / secs.max(1e-9)
    );
    Ok(if failed == 0 { EXIT_OK } else { EXIT_FAIL })
}
