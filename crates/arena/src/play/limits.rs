//! Per-move limits: a node count (the default, because it makes runs reproducible), a depth, a
//! fixed time per move, or a chess clock such as `40/60+0.6`.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The node limit used when no limit is given.
pub const DEFAULT_NODES: u64 = 10_000;

/// A chess clock: `moves/seconds+increment`, `seconds+increment` or `seconds`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Moves per period (`None`: the whole game is one period).
    pub moves: Option<u32>,
    /// Time per period, seconds.
    pub seconds: f64,
    /// Time added after each move, seconds.
    pub increment: f64,
}

/// Why a limit was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    /// A time control that does not follow `moves/seconds+increment`.
    #[error("--tc '{text}': {reason} (expected moves/seconds+increment, e.g. 40/60+0.6, or seconds+increment, e.g. 10+0.1)")]
    TimeControl {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A limit of zero or less.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
}

impl FromStr for TimeControl {
    type Err = LimitError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = |reason: &str| LimitError::TimeControl {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .trim()
                    .parse()
                    .map_err(|_| bad("the moves per period are not a whole number"))?;
                if m == 0 {
                    return Err(bad("the moves per period must be at least 1"));
                }
                (Some(m), rest)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let seconds: f64 = base
            .trim()
            .parse()
            .map_err(|_| bad("the seconds per period are not a number"))?;
        if !seconds.is_finite() || seconds <= 0.0 {
            return Err(bad("the seconds per period must be above 0"));
        }
        let increment: f64 = match inc {
            Some(i) => i
                .trim()
                .parse()
                .map_err(|_| bad("the increment is not a number"))?,
            None => 0.0,
        };
        if !increment.is_finite() || increment < 0.0 {
            return Err(bad("the increment must be 0 or more"));
        }
        Ok(TimeControl {
            moves,
            seconds,
            increment,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}+{}", self.seconds, self.increment)
    }
}

/// The limit a run gives each move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LimitSpec {
    /// Search this many nodes per move (reproducible).
    Nodes(u64),
    /// Search to this depth per move (reproducible).
    Depth(u32),
    /// Think this many milliseconds per move.
    MoveTime(u64),
    /// Play on a clock; running out loses on time.
    Clock(TimeControl),
}

impl Default for LimitSpec {
    fn default() -> Self {
        LimitSpec::Nodes(DEFAULT_NODES)
    }
}

impl fmt::Display for LimitSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitSpec::Nodes(n) => write!(f, "nodes={n}"),
            LimitSpec::Depth(d) => write!(f, "depth={d}"),
            LimitSpec::MoveTime(ms) => write!(f, "movetime={ms}ms"),
            LimitSpec::Clock(tc) => write!(f, "tc={tc}"),
        }
    }
}

impl LimitSpec {
    /// Builds the limit from the command-line options (at most one is set; none means the
    /// default node limit) and rejects zero limits.
    pub fn from_options(
        nodes: Option<u64>,
        depth: Option<u32>,
        movetime_ms: Option<u64>,
        tc: Option<&str>,
    ) -> Result<LimitSpec, LimitError> {
        if let Some(n) = nodes {
            if n == 0 {
                return Err(LimitError::Zero("--nodes"));
            }
            return Ok(LimitSpec::Nodes(n));
        }
        if let Some(d) = depth {
            if d == 0 {
                return Err(LimitError::Zero("--depth"));
            }
            return Ok(LimitSpec::Depth(d));
        }
        if let Some(ms) = movetime_ms {
            if ms == 0 {
                return Err(LimitError::Zero("--movetime"));
            }
            return Ok(LimitSpec::MoveTime(ms));
        }
        if let Some(tc) = tc {
            return Ok(LimitSpec::Clock(tc.parse()?));
        }
        Ok(LimitSpec::default())
    }
}

/// What a player is told before one move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveLimits {
    /// Node budget.
    pub nodes: Option<u64>,
    /// Depth budget.
    pub depth: Option<u32>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Time left on the mover's clock.
    pub time_left: Option<Duration>,
    /// Time left on the opponent's clock (told to external engines as `wtime`/`btime`).
    pub opponent_time_left: Option<Duration>,
    /// Time the mover gains after the move.
    pub increment: Duration,
    /// Moves until the next time control, if the clock has periods.
    pub moves_to_go: Option<u32>,
}

/// A side's clock during one game.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    control: TimeControl,
    left: f64,
    moves_made: u32,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            left: control.seconds,
            moves_made: 0,
        }
    }

    /// The limits for the next move.
    pub fn limits(&self) -> MoveLimits {
        MoveLimits {
            time_left: Some(Duration::from_secs_f64(self.left.max(0.0))),
            increment: Duration::from_secs_f64(self.control.increment),
            moves_to_go: self.control.moves.map(|m| m - self.moves_made % m),
            ..MoveLimits::default()
        }
    }

    /// Charges a move that took `seconds`; returns `false` when the flag fell.
    pub fn charge(&mut self, seconds: f64) -> bool {
        self.left -= seconds;
        if self.left < 0.0 {
            return false;
        }
        self.left += self.control.increment;
        self.moves_made += 1;
        if let Some(m) = self.control.moves {
            if self.moves_made % m == 0 {
                self.left += self.control.seconds;
            }
        }
        true
    }
}

impl LimitSpec {
    /// The limits for a move that is not on a clock.
    pub fn fixed_limits(&self) -> MoveLimits {
        match *self {
            LimitSpec::Nodes(n) => MoveLimits {
                nodes: Some(n),
                ..MoveLimits::default()
            },
            LimitSpec::Depth(d) => MoveLimits {
                depth: Some(d),
                ..MoveLimits::default()
            },
            LimitSpec::MoveTime(ms) => MoveLimits {
                movetime: Some(Duration::from_millis(ms)),
                ..MoveLimits::default()
            },
            LimitSpec::Clock(_) => MoveLimits::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_time_controls() {
        let tc: TimeControl = "40/60+0.6".parse().unwrap();
        assert_eq!(tc.moves, Some(40));
        assert_eq!(tc.seconds, 60.0);
        assert_eq!(tc.increment, 0.6);
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!((tc.moves, tc.seconds, tc.increment), (None, 10.0, 0.1));
        let tc: TimeControl = "5".parse().unwrap();
        assert_eq!((tc.moves, tc.seconds, tc.increment), (None, 5.0, 0.0));
        for bad in [
            "", "x", "40/", "0/60", "40/0+1", "40/60+-1", "60+", "/60", "a/60+1", "inf",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn zero_limits_are_rejected_and_nodes_are_the_default() {
        assert_eq!(
            LimitSpec::from_options(None, None, None, None),
            Ok(LimitSpec::Nodes(DEFAULT_NODES))
        );
        assert!(LimitSpec::from_options(Some(0), None, None, None).is_err());
        assert!(LimitSpec::from_options(None, Some(0), None, None).is_err());
        assert!(LimitSpec::from_options(None, None, Some(0), None).is_err());
    }

    #[test]
    fn clock_adds_increment_and_periods_and_flags() {
        let mut c = Clock::new("2/1+0.5".parse().unwrap());
        assert!(c.charge(0.75)); // 1 - 0.75 + 0.5 = 0.75
        assert_eq!(c.limits().moves_to_go, Some(1));
        assert!(c.charge(0.25)); // 0.5 + 0.5 + 1 (new period) = 2
        assert!((c.left - 2.0).abs() < 1e-9);
        assert!(!c.charge(2.5));
    }
}
