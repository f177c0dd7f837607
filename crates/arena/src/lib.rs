//! # chuhan-arena
//!
//! The Chuhan harness library around the engine, in three layers (docs/architecture.md):
//!
//! - [`play`]: players, limits, openings, one game, the schedule, the runner (which emits
//!   events) and the results folders;
//! - [`jobs`]: ladder, calibration, datagen and tuning (Texel, SPSA), built on `play`;
//! - [`report`]: the reporters that turn events into progress output, tables, plots and
//!   report.html;
//! - [`web`]: the loopback web server of `chuhan serve` and `chuhan play`.
//!
//! Statistics ([`stats`], [`ratings`], [`curve`]) are pure numbers. The library holds no
//! command-line types: the `chuhan` binary (crate `chuhan-cli`) parses arguments into the typed
//! settings these modules take.

pub mod curve;
pub mod engines;
pub mod interrupt;
pub mod jobs;
pub mod play;
pub mod ratings;
pub mod report;
pub mod stats;
pub mod web;

/// Builds a rayon pool of `threads` workers (all cores when `None`).
pub fn thread_pool(threads: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    let n = threads.unwrap_or(0);
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start {n} worker threads: {e}"))
}
