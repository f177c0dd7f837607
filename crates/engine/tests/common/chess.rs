//! Helpers shared by the chess perft tests.

use chuhan_engine::chess::{perft, Position};
use chuhan_engine::SuiteEntry;

/// Checks every perft count of `entry` up to `limit` nodes from `pos` (its position, read as
/// that suite reads it); how many counts it checked.
pub fn check_counts(pos: &mut Position, entry: &SuiteEntry, limit: u64) -> usize {
    let mut checked = 0;
    for &(d, n) in &entry.expected {
        if n <= limit {
            assert_eq!(
                perft(pos, d),
                n,
                "line {} depth {d}: {}",
                entry.line,
                entry.fen
            );
            checked += 1;
        }
    }
    checked
}
