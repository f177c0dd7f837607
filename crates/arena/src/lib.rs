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
#![forbid(unsafe_code)]

pub mod curve;
pub mod engines;
pub mod interrupt;
pub mod jobs;
pub mod play;
pub mod ratings;
pub mod report;
pub mod stats;
pub mod web;

/// An error and its causes on one line, `error: cause: cause`, as the binary prints an error:
/// for a message kept as text (a [`play::player::PlayerSpecError`]) that must not lose the
/// operating system's reason behind it.
pub fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

/// The worker threads of [`thread_pool`] could not be started.
#[derive(Debug, thiserror::Error)]
#[error("cannot start {threads} worker threads: {error}")]
pub struct ThreadPoolError {
    /// The threads asked for (0: all cores).
    pub threads: usize,
    /// rayon's reason.
    pub error: rayon::ThreadPoolBuildError,
}

/// Builds a rayon pool of `threads` workers (all cores when `None`).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, ThreadPoolError> {
    let n = threads.unwrap_or(0);
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|error| ThreadPoolError { threads: n, error })
}
