//! `chuhan bench`: the engine's node-count signature and its speed.

use crate::args::BenchArgs;
use crate::EXIT_OK;

/// Runs the bench and prints per-position nodes, the total (signature) and nodes per second.
pub fn run(args: &BenchArgs) -> anyhow::Result<u8> {
    if args.depth == 0 {
        anyhow::bail!("--depth must be at least 1");
    }
    let r = chuhan_engine::bench::run(args.depth);
    for (fen, n) in chuhan_engine::bench::BENCH_FENS.iter().zip(&r.per_position) {
        eprintln!("{n:>10}  {fen}");
    }
    outln!("depth: {}", args.depth);
    outln!("nodes: {}", r.nodes);
    outln!("seconds: {:.3}", r.elapsed.as_secs_f64());
    outln!("nps: {:.0}", r.nps());
    Ok(EXIT_OK)
}
