//! Lazy SMP: several threads search the same root at once, sharing the transposition table,
//! a stop flag and their node counts, and nothing else. The main thread is an ordinary
//! [`Searcher::search`] (its limits, its time management, its move); helper threads run the
//! same search without limits, skipping some depths so that they run ahead of the main thread
//! and fill the table with results it reaches later. When the main thread returns, the
//! helpers are stopped and joined, and their nodes are added to the result.
//!
//! A search on one thread (no helpers) never goes through here: it stays exactly what it was,
//! deterministic under node and depth limits. With helpers nothing is deterministic.

use super::{Limits, SearchInfo, SearchOptions, SearchResult, Searcher};
use crate::xiangqi::position::Position;
use crate::xiangqi::types::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Most threads one search may use (the main thread included).
pub const MAX_THREADS: usize = 64;

/// How many nodes a thread searches between two looks at what the others did: it publishes
/// its count, reads the stop flag and sums all counts against the node limit, so every thread
/// stops within this many nodes (and two) of the total reaching it, whatever the scheduling.
pub const POLL_NODES: u64 = 1024;

/// What the threads of one search share besides the table.
struct Shared {
    stop: AtomicBool,
    nodes: Vec<AtomicU64>,
}

impl Shared {
    fn total(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// One thread's link to the others during a multi-threaded search (`Searcher::smp`).
pub(super) struct Link {
    shared: Arc<Shared>,
    index: usize,
    next_poll: u64,
    max_nodes: Option<u64>,
}

/// Stop patterns of the helper threads (Stockfish 9's): helper `i` searches a depth only when
/// `(depth + SKIP_PHASE[i]) / SKIP_SIZE[i]` is even, so that two helpers rarely work on the
/// same depth and most of them are ahead of the main thread.
const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

impl Link {
    /// Every [`POLL_NODES`] nodes: publishes this thread's count and says whether to stop
    /// (the helpers told to, or the node limit reached by all threads together).
    #[inline]
    pub(super) fn poll(&mut self, nodes: u64) -> bool {
        if nodes < self.next_poll {
            return false;
        }
        self.next_poll = nodes + POLL_NODES;
        self.shared.nodes[self.index].store(nodes, Ordering::Relaxed);
        self.shared.stop.load(Ordering::Relaxed)
            || self.max_nodes.is_some_and(|max| self.shared.total() >= max)
    }

    /// Whether this thread leaves out the iteration of nominal `depth` (helpers only).
    pub(super) fn skips(&self, depth: u32) -> bool {
        if self.index == 0 {
            return false;
        }
        let i = (self.index - 1) % SKIP_SIZE.len();
        (depth + SKIP_PHASE[i]) / SKIP_SIZE[i] % 2 == 1
    }
}

/// Sets the stop flag when dropped: helpers end even if the main thread's search panics.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Searcher {
    /// A helper thread's searcher for this one: the same parameters, options and repetition
    /// judge, its own history and killers, and a handle on this searcher's table.
    pub fn helper(&self) -> Searcher {
        // The helper's own table is never used: allocate the smallest.
        let mut s = Searcher::new(
            self.params.clone(),
            SearchOptions {
                tt_mb: 1,
                ..self.options
            },
        );
        s.options = self.options;
        s.tt = self.tt.share();
        s.judge = self.judge;
        s.set_network(self.net.clone());
        s
    }

    /// [`Searcher::search`] with `helpers` searching the same root on their own threads
    /// (Lazy SMP; see the module documentation). This searcher is the main thread: it decides
    /// the move, and `limits` (time, nodes, depth, stop flag) end the whole search. Node
    /// counts (the limit, `info`'s and the result's) are all threads' together. With no
    /// helpers this is exactly [`Searcher::search`].
    pub fn search_smp(
        &mut self,
        helpers: &mut [Searcher],
        pos: &Position,
        limits: &Limits,
        root_moves: &[Move],
        exact_root_scores: bool,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        if helpers.is_empty() {
            return self.search(pos, limits, root_moves, exact_root_scores, info);
        }
        let shared = Arc::new(Shared {
            stop: AtomicBool::new(false),
            nodes: (0..=helpers.len()).map(|_| AtomicU64::new(0)).collect(),
        });
        let link = |index, max_nodes| Link {
            shared: Arc::clone(&shared),
            index,
            next_poll: 0,
            max_nodes,
        };
        for (i, h) in helpers.iter_mut().enumerate() {
            if !h.tt.same_table(&self.tt) {
                h.tt = self.tt.share();
            }
            h.judge = self.judge;
            h.smp = Some(link(i + 1, limits.nodes));
        }
        self.smp = Some(link(0, limits.nodes));
        // Helpers stop when the main thread is done, or at once on the caller's stop flag.
        let helper_limits = Limits {
            stop: limits.stop.clone(),
            ..Limits::default()
        };
        let result = std::thread::scope(|s| {
            let stop = StopOnDrop(&shared.stop);
            let handles: Vec<_> = helpers
                .iter_mut()
                .map(|h| {
                    let limits = &helper_limits;
                    s.spawn(move || h.search(pos, limits, root_moves, false, &mut |_| {}).nodes)
                })
                .collect();
            let mut all_threads = |i: &SearchInfo| {
                let helper_nodes: u64 = shared.nodes[1..]
                    .iter()
                    .map(|n| n.load(Ordering::Relaxed))
                    .sum();
                info(&SearchInfo {
                    nodes: i.nodes + helper_nodes,
                    ..i.clone()
                })
            };
            let mut result =
                self.search(pos, limits, root_moves, exact_root_scores, &mut all_threads);
            drop(stop);
            for h in handles {
                match h.join() {
                    Ok(nodes) => result.nodes += nodes,
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            result
        });
        self.smp = None;
        for h in helpers.iter_mut() {
            h.smp = None;
        }
        result
    }
}
