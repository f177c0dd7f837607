//! What move generation fills: [`MoveList`] (fixed capacity, no allocation) and [`GenKind`]
//! (which moves to generate). The generator itself is `Position`'s, in `position/movegen.rs`.

use super::types::Move;

/// Upper bound on pseudo-legal moves in any position reachable with a standard set
/// (2x17 chariot + 2x17 cannon + 2x8 horse + 2x4 elephant + 2x4 advisor + 4 + 5x3 = 119).
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves (no allocation): the shared list with this game's move type.
pub type MoveList = crate::move_list::MoveList<Move, MAX_MOVES>;

impl crate::move_list::ListedMove for Move {
    const NONE: Move = Move::NONE;
}

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenKind {
    /// Captures and quiet moves.
    All,
    /// Captures only (quiescence).
    Captures,
    /// Non-captures only.
    Quiets,
}
