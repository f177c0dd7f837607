//! Castling as Chess960 defines it, which standard chess is one case of: each right castles
//! with the rook on a given square, the king ends on the g- or c-file and the rook on the f-
//! or d-file, every square either crosses must be empty but for those two pieces, and no
//! square the king stands on or crosses may be attacked. What a right needs is worked out
//! once, when the position is set up, since rights only ever disappear.

use crate::chess::setup::Setup;
use crate::chess::tables::BETWEEN;
use crate::chess::types::{Bitboard, Castling, Color, Square};

/// What castling needs, per side and per right (`[color][0 king side, 1 queen side]`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct CastleInfo {
    /// The rook each right moves.
    pub(crate) rook: [[Square; 2]; 2],
    /// Squares that must be empty (the king's and the rook's paths and targets, less the
    /// two pieces themselves).
    pub(crate) empty: [[Bitboard; 2]; 2],
    /// Squares that must not be attacked: the king's path and its target, which is its own
    /// square when it does not move (the rook leaving may uncover it).
    pub(crate) safe: [[Bitboard; 2]; 2],
    /// The rights that survive a move from or to each square (the king's square clears
    /// both of its side's, a castling rook's square clears its own).
    pub(crate) mask: [u8; 64],
    /// Chess960 rules: moves are written as the king taking its own rook.
    pub(crate) chess960: bool,
}

/// The king's and the rook's targets for a castle on `back` (rank 0 or 7).
#[inline]
pub(crate) fn targets(back: u8, king_side: bool) -> (Square, Square) {
    if king_side {
        (Square::new(6, back), Square::new(5, back))
    } else {
        (Square::new(2, back), Square::new(3, back))
    }
}

impl CastleInfo {
    /// The castling data of a setup whose board passed `Setup::check_board`.
    pub(crate) fn new(setup: &Setup) -> CastleInfo {
        let mut info = CastleInfo {
            rook: [[Square(0); 2]; 2],
            empty: [[0; 2]; 2],
            safe: [[0; 2]; 2],
            mask: [15; 64],
            chess960: setup.chess960,
        };
        for color in Color::ALL {
            let back = if color == Color::White { 0 } else { 7 };
            let c = color.index();
            for (i, king_side) in [(0, true), (1, false)] {
                let rook = Square::new(setup.rook_files[c][i], back);
                info.rook[c][i] = rook;
                if !setup.castling.has(color, king_side) {
                    continue;
                }
                let king = Square::new(setup.king_file(color).unwrap_or(4), back);
                let (king_to, rook_to) = targets(back, king_side);
                let paths = BETWEEN[king.index()][king_to.index()]
                    | king_to.bb()
                    | BETWEEN[rook.index()][rook_to.index()]
                    | rook_to.bb();
                info.empty[c][i] = paths & !(king.bb() | rook.bb());
                info.safe[c][i] = BETWEEN[king.index()][king_to.index()] | king_to.bb();
                info.mask[king.index()] &=
                    !(Castling::bit(color, true) | Castling::bit(color, false));
                info.mask[rook.index()] &= !Castling::bit(color, king_side);
            }
        }
        info
    }

    /// The rook files as a setup holds them: a right no longer held has the standard file,
    /// as a setup read from FEN has.
    pub(crate) fn rook_files(&self, rights: Castling) -> [[u8; 2]; 2] {
        let mut files = Setup::STANDARD_ROOK_FILES;
        for color in Color::ALL {
            for (i, king_side) in [(0, true), (1, false)] {
                if rights.has(color, king_side) {
                    files[color.index()][i] = self.rook[color.index()][i].file();
                }
            }
        }
        files
    }
}
