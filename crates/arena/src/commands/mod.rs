//! One module per subcommand.

pub mod bench;
pub mod calibrate;
pub mod datagen;
pub mod judge;
pub mod ladder;
pub mod matches;
pub mod notation;
pub mod params;
pub mod perft;
pub mod sprt;
pub mod stats;
pub mod tournament;
pub mod uci;

/// Builds a rayon pool of `threads` workers (all cores when `None`).
pub fn thread_pool(threads: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    let n = threads.unwrap_or(0);
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start {n} worker threads: {e}"))
}
