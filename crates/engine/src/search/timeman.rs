//! Time management: when to stop iterating.
//!
//! A fixed move time (soft = hard) is used in full: the hard limit interrupts the last
//! iteration, whose completed moves still count. On a clock (soft < hard) the soft limit is
//! the optimum time; it is stretched while the best move keeps changing or the score drops,
//! shrunk while the best move is stable, and never beyond the hard limit (which the caller
//! derives from the time left, so the clock is never lost).

use super::Limits;
use crate::xiangqi::types::Move;
use std::time::Duration;

/// Decides after every completed iteration whether to start another.
pub(crate) struct TimeManager {
    soft: Option<Duration>,
    hard: Option<Duration>,
    last_best: Move,
    stable_iterations: u32,
    last_score: Option<i32>,
}

impl TimeManager {
    /// A manager for one search within `limits`.
    pub(crate) fn new(limits: &Limits) -> TimeManager {
        TimeManager {
            soft: limits.soft_time(),
            hard: limits.hard_time(),
            last_best: Move::NONE,
            stable_iterations: 0,
            last_score: None,
        }
    }

    /// Whether to stop after an iteration that ended with `best` scoring `score`, `elapsed`
    /// after the start.
    pub(crate) fn stop_after_iteration(
        &mut self,
        best: Move,
        score: i32,
        elapsed: Duration,
    ) -> bool {
        if best == self.last_best {
            self.stable_iterations += 1;
        } else {
            self.stable_iterations = 0;
            self.last_best = best;
        }
        let drop = self.last_score.map_or(0, |s| s - score);
        self.last_score = Some(score);
        let Some(soft) = self.soft else {
            return false;
        };
        if self.hard == Some(soft) {
            // Fixed move time: the hard limit ends the search.
            return elapsed >= soft;
        }
        // A new best move needs confirming; a stable one does not.
        let stability = match self.stable_iterations {
            0 => 1.8,
            1 => 1.35,
            2 => 1.1,
            3 | 4 => 0.9,
            _ => 0.75,
        };
        // A falling score asks for more time to find a way out.
        let falling = 1.0 + (drop.clamp(0, 100) as f64) / 200.0;
        let mut budget = soft.mul_f64(stability * falling);
        if let Some(hard) = self.hard {
            budget = budget.min(hard);
        }
        // The next iteration takes about as long as all before it together: start it only
        // when it is likely to finish within the budget.
        elapsed >= budget.mul_f64(0.6)
    }
}
