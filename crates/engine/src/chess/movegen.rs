//! What move generation fills: [`MoveList`] (fixed capacity, no allocation). The generator
//! itself is `Position`'s, in `position/movegen.rs`.

use super::types::Move;

/// Upper bound on legal moves in any chess position (the known maximum is 218).
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves (no allocation): the shared list with this game's move type.
pub type MoveList = crate::move_list::MoveList<Move, MAX_MOVES>;

impl crate::move_list::ListedMove for Move {
    const NONE: Move = Move::NONE;
}
