//! `chuhan bench`: the engine's node-count signature and its speed, for either game's engine
//! (`--game`), or an external engine's own `bench` (`--engine`).

use crate::common::external;
use crate::common::flags::GameArg;
use crate::{EXIT_FAIL, EXIT_OK};
use clap::Args;
use std::path::PathBuf;

/// `chuhan bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Search depth (the signature is defined at the default: 8 for xiangqi, 9 for chess).
    #[arg(long)]
    pub depth: Option<u32>,
    /// An external engine file (`[uci]` table): run its `bench` and read `Nodes searched : N`
    /// and `Nodes/second : N` (stdout or stderr) instead of the built-in bench.
    #[arg(long, conflicts_with = "depth")]
    pub engine: Option<PathBuf>,
    /// A network file (`chuhan tune nnue`'s network.nnue): the built-in xiangqi bench with
    /// the network as the evaluation (its node count is not the signature).
    #[arg(long, conflicts_with = "engine")]
    pub network: Option<PathBuf>,

    /// The built-in xiangqi bench with the handcrafted evaluation instead of the default
    /// engine's network (for speed comparisons; its node count is not the signature).
    #[arg(long, conflicts_with_all = ["network", "engine"])]
    pub handcrafted: bool,
    /// Words sent after `bench` (Stockfish: `16 1 13` = hash, threads, depth).
    #[arg(long, requires = "engine", allow_hyphen_values = true)]
    pub bench_args: Option<String>,
    /// The expected node count (signature): exit 1 when the bench gives another.
    #[arg(long)]
    pub expect: Option<u64>,
    /// The game: xiangqi (default) or chess, whose engine has its own bench positions and
    /// signature. With --engine, the engine file must play that game (its `game = ...`).
    #[arg(long, value_enum, default_value_t = GameArg::Xiangqi)]
    pub game: GameArg,
}

/// Runs the bench and prints per-position nodes, the total (signature) and nodes per second;
/// with `--expect N`, exit 1 when the total is not N.
pub fn run(args: &BenchArgs) -> anyhow::Result<u8> {
    if let Some(path) = &args.engine {
        return run_engine(path, args);
    }
    if let Some(path) = &args.network {
        return run_network(path, args);
    }
    if args.handcrafted && args.game != GameArg::Xiangqi {
        anyhow::bail!("--handcrafted: the chess engine has only its handcrafted evaluation");
    }
    let (depth, fens, bench): (u32, &[&str], fn(u32) -> chuhan_engine::bench::BenchResult) =
        match args.game {
            GameArg::Xiangqi => (
                args.depth.unwrap_or(chuhan_engine::bench::BENCH_DEPTH),
                chuhan_engine::bench::BENCH_FENS,
                if args.handcrafted {
                    chuhan_engine::bench::run_handcrafted
                } else {
                    chuhan_engine::bench::run
                },
            ),
            GameArg::Chess => (
                args.depth
                    .unwrap_or(chuhan_engine::chess::bench::BENCH_DEPTH),
                chuhan_engine::chess::bench::BENCH_FENS,
                chuhan_engine::chess::bench::run,
            ),
        };
    if depth == 0 {
        anyhow::bail!("--depth must be at least 1");
    }
    let r = bench(depth);
    for (fen, n) in fens.iter().zip(&r.per_position) {
        eprintln!("{n:>10}  {fen}");
    }
    if args.handcrafted {
        outln!("evaluation: handcrafted");
    }
    outln!("depth: {depth}");
    outln!("nodes: {}", r.nodes);
    outln!("seconds: {:.3}", r.elapsed.as_secs_f64());
    outln!("nps: {:.0}", r.nps());
    Ok(expect(args.expect, r.nodes))
}

/// `--network FILE`: the xiangqi bench with the network as the evaluation.
fn run_network(path: &std::path::Path, args: &BenchArgs) -> anyhow::Result<u8> {
    use anyhow::Context;
    if args.game != GameArg::Xiangqi {
        anyhow::bail!("--network: networks evaluate xiangqi only");
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let net = chuhan_engine::eval::nnue::Network::from_bytes(&bytes)
        .with_context(|| format!("{}", path.display()))?;
    let depth = args.depth.unwrap_or(chuhan_engine::bench::BENCH_DEPTH);
    if depth == 0 {
        anyhow::bail!("--depth must be at least 1");
    }
    let mut searcher = chuhan_engine::Searcher::new(Default::default(), Default::default());
    searcher.set_network(Some(std::sync::Arc::new(net)));
    let r = chuhan_engine::bench::run_with(depth, &mut searcher);
    for (fen, n) in chuhan_engine::bench::BENCH_FENS.iter().zip(&r.per_position) {
        eprintln!("{n:>10}  {fen}");
    }
    outln!("network: {}", path.display());
    outln!("depth: {depth}");
    outln!("nodes: {}", r.nodes);
    outln!("seconds: {:.3}", r.elapsed.as_secs_f64());
    outln!("nps: {:.0}", r.nps());
    Ok(expect(args.expect, r.nodes))
}

/// `--expect`: exit 1 (and say so) when the signature differs.
fn expect(expected: Option<u64>, nodes: u64) -> u8 {
    match expected {
        Some(e) if e != nodes => {
            outln!("signature: FAIL expected {e} got {nodes}");
            EXIT_FAIL
        }
        Some(_) => {
            outln!("signature: ok");
            EXIT_OK
        }
        None => EXIT_OK,
    }
}

/// `--engine FILE`: the external engine's own bench (the file must play `--game`).
fn run_engine(path: &std::path::Path, args: &BenchArgs) -> anyhow::Result<u8> {
    let engine = external::load_for(path, "--engine", args.game)?;
    let r = chuhan_arena::engines::bench::run(&engine, args.bench_args.as_deref())?;
    outln!("engine: {}", engine.name);
    outln!("nodes: {}", r.nodes);
    match r.nps {
        Some(nps) => outln!("nps: {nps}"),
        None => outln!("nps: unknown"),
    }
    Ok(expect(args.expect, r.nodes))
}
