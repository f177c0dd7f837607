//! Search limits: depth, nodes, time (soft and hard) and a stop flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Limits for one search. Unset fields do not limit. Node and depth limits are deterministic;
/// time limits and the stop flag are not.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum nominal depth.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// The optimum time on a clock: no new iteration starts after about 60% of it, stretched
    /// while the best move changes or the score falls, shrunk while it is stable. Equal to
    /// `hard_time`, a fixed move time used in full.
    pub soft_time: Option<Duration>,
    /// Time after which the search stops at once.
    pub hard_time: Option<Duration>,
    /// Set from another thread to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// A depth limit.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A node limit.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A fixed time per move (soft = hard).
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            soft_time: Some(time),
            hard_time: Some(time),
            ..Limits::default()
        }
    }

    /// The soft time limit, if any.
    pub fn soft_time(&self) -> Option<Duration> {
        self.soft_time.or(self.hard_time)
    }

    /// The hard time limit, if any.
    pub fn hard_time(&self) -> Option<Duration> {
        self.hard_time
    }

    /// Whether the stop flag is raised.
    pub fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Whether a search that has counted `nodes` since `start` must stop: the node budget at
    /// every call (so node-limited searches are deterministic), the clock and the stop flag
    /// every 1,024 nodes (they cost a system call and an atomic load).
    #[inline]
    pub fn reached(&self, nodes: u64, start: std::time::Instant) -> bool {
        if self.nodes.is_some_and(|max| nodes >= max) {
            return true;
        }
        nodes & 1023 == 0
            && (self.hard_time().is_some_and(|hard| start.elapsed() >= hard)
                || self.stop_requested())
    }

    /// The tighter of two limits in every field.
    pub fn tightest(&self, other: &Limits) -> Limits {
        fn min<T: Ord + Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, None) => x,
                (None, y) => y,
            }
        }
        Limits {
            depth: min(self.depth, other.depth),
            nodes: min(self.nodes, other.nodes),
            soft_time: min(self.soft_time, other.soft_time),
            hard_time: min(self.hard_time, other.hard_time),
            stop: self.stop.clone().or_else(|| other.stop.clone()),
        }
    }
}
