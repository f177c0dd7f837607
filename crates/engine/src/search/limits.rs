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

    /// Limits for one move on a clock: `left` on the mover's clock, `increment` added after
    /// each move, `moves_to_go` to the next time control (`None`: the whole game, sudden death
    /// or increment). The optimum (soft) time is `left / moves + 3/4 increment`, with
    /// `moves` the moves to go but at most [`Limits::CLOCK_HORIZON`]; the hard time is
    /// [`Limits::CLOCK_HARD_FACTOR`] times that, and neither is more than 2/5 of what is left
    /// after a reserve of up to 50 ms for the pipes and the process. Both searches (xiangqi
    /// and chess) and every caller (the in-process players, `chuhan uci`) use this one rule.
    pub fn clock(left: Duration, increment: Duration, moves_to_go: Option<u32>) -> Limits {
        let left_ms = left.as_millis().min(u128::from(u64::MAX)) as u64;
        let inc_ms = increment.as_millis().min(u128::from(u64::MAX)) as u64;
        let moves = u64::from(
            moves_to_go
                .unwrap_or(Self::CLOCK_HORIZON)
                .clamp(1, Self::CLOCK_HORIZON),
        );
        // Saturating: the numbers may be a client's (`winc 9223372036854775807` overflowed).
        let optimum = (left_ms / moves).saturating_add(inc_ms.saturating_mul(3) / 4);
        let reserve = left_ms.min(50);
        let cap = (left_ms - reserve) * 2 / 5;
        let hard = optimum
            .saturating_mul(Self::CLOCK_HARD_FACTOR)
            .min(cap)
            .max(1);
        Limits {
            soft_time: Some(Duration::from_millis(optimum.min(hard))),
            hard_time: Some(Duration::from_millis(hard)),
            ..Limits::default()
        }
    }

    /// The most moves a clock's time is shared over (see [`Limits::clock`]).
    pub const CLOCK_HORIZON: u32 = 20;

    /// The hard time on a clock as a multiple of the optimum (see [`Limits::clock`]).
    pub const CLOCK_HARD_FACTOR: u64 = 3;

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

#[cfg(test)]
mod tests {
    use super::Limits;
    use std::time::Duration;

    fn ms(limits: &Limits) -> (u128, u128) {
        (
            limits.soft_time.unwrap().as_millis(),
            limits.hard_time.unwrap().as_millis(),
        )
    }

    #[test]
    fn a_clock_shares_the_time_left_over_the_horizon_plus_most_of_the_increment() {
        let h = u128::from(Limits::CLOCK_HORIZON);
        let f = u128::from(Limits::CLOCK_HARD_FACTOR);
        let l = Limits::clock(Duration::from_secs(60), Duration::from_millis(400), None);
        let optimum = 60_000 / h + 300;
        assert_eq!(ms(&l), (optimum, (optimum * f).min((60_000 - 50) * 2 / 5)));
        // Moves to go below the horizon give each move more; above it, the horizon rules.
        let few = Limits::clock(Duration::from_secs(60), Duration::ZERO, Some(10));
        assert_eq!(ms(&few).0, 6_000);
        let many = Limits::clock(Duration::from_secs(60), Duration::ZERO, Some(1_000));
        assert_eq!(ms(&many).0, 60_000 / h);
    }

    #[test]
    fn a_clock_never_spends_more_than_two_fifths_of_what_is_left() {
        // One move to go: the optimum is everything left, capped by the hard limit.
        let l = Limits::clock(Duration::from_secs(10), Duration::ZERO, Some(1));
        assert_eq!(ms(&l), ((10_000 - 50) * 2 / 5, (10_000 - 50) * 2 / 5));
        // A huge increment cannot buy more than the cap either, and nothing overflows.
        let l = Limits::clock(
            Duration::from_secs(1),
            Duration::from_secs(u64::MAX / 2),
            None,
        );
        assert_eq!(ms(&l), (380, 380));
        // An empty clock still gives a positive hard time (the search makes its move).
        let l = Limits::clock(Duration::ZERO, Duration::ZERO, None);
        assert_eq!(ms(&l), (0, 1));
    }
}
