//! [`Setup`]: a position as FEN describes it (pieces, side to move, castling rights,
//! en-passant square, counters) before any rule is checked, and [`PositionError`]: why a setup
//! is not a position a game can reach.
//!
//! Reading FEN text into a setup is [`super::fen`]'s job; turning a setup into a
//! [`super::position::Position`] is `Position::from_setup`, which checks every rule here.

use super::types::{Castling, Color, Piece, PieceKind, Square, SQUARE_COUNT};
use thiserror::Error;

/// Why a setup is not a legal position (the FEN text itself was well formed).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A side has no king, or more than one.
    #[error("{color:?} has {count} kings; each side has exactly one")]
    KingCount {
        /// The side.
        color: Color,
        /// How many kings it has.
        count: u32,
    },
    /// A pawn stands on the first or the eighth rank.
    #[error("{color:?} pawn on {square}: pawns never stand on the first or eighth rank")]
    PawnOnBackRank {
        /// The pawn's side.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// A side has more than 8 pawns or more than 16 pieces.
    #[error("{color:?} has {count} {what}; a side has at most {max}")]
    TooMany {
        /// The side.
        color: Color,
        /// `pawns` or `pieces`.
        what: &'static str,
        /// How many were found.
        count: u32,
        /// The most a side can have.
        max: u32,
    },
    /// The side that has just moved is in check.
    #[error("the side not to move ({0:?}) is in check")]
    OpponentInCheck(Color),
    /// A castling right whose king is not on its first rank, or whose rook is not on the
    /// square the right names (on the king's side for `K`/`k`, the other for `Q`/`q`).
    #[error("castling right '{right}' needs the {color:?} king on {king} and a rook on {rook}")]
    ImpossibleCastling {
        /// The FEN letter of the right as read (`K`, `Q`, `k`, `q`, or a file letter such as
        /// `H` or `b`).
        right: char,
        /// The side.
        color: Color,
        /// Where the king must stand.
        king: Square,
        /// Where the rook must stand.
        rook: Square,
    },
    /// The en-passant square is not one a double pawn step just passed over.
    #[error("en-passant square {square}: {reason}")]
    BadEnPassant {
        /// The square given in FEN field 4.
        square: Square,
        /// What is wrong with it.
        reason: &'static str,
    },
}

/// A position as FEN describes it, before any rule is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Pieces by square (a1 = 0).
    pub board: [Piece; SQUARE_COUNT],
    /// Side to move.
    pub side: Color,
    /// Castling rights.
    pub castling: Castling,
    /// The file (0..8, a..h) of the rook each right castles with, indexed
    /// `[color][0 for the king side (towards h), 1 for the queen side]`: files 7 and 0 in
    /// standard chess, any file in Chess960. A right not held keeps the standard file, so
    /// that equal setups compare equal.
    pub rook_files: [[u8; 2]; 2],
    /// Chess960 rules for castling: a right may have its king anywhere on its first rank
    /// and its rook on any file (standard chess wants the king on e1/e8 and the rooks on the
    /// a- and h-files), and castling moves are written as the king taking its own rook.
    /// FEN cannot say this (`KQkq` with the king on f1 is a refused standard position and a
    /// legal Chess960 one), so the reader is told: [`Setup::parse_chess960`].
    pub chess960: bool,
    /// The square a pawn just passed over with a double step (FEN field 4).
    pub en_passant: Option<Square>,
    /// Plies since the last capture or pawn move (FEN field 5).
    pub halfmove: u16,
    /// Move number (FEN field 6), incremented after Black moves.
    pub fullmove: u16,
}

impl Setup {
    /// The rook files of standard chess: h for the king side, a for the queen side.
    pub const STANDARD_ROOK_FILES: [[u8; 2]; 2] = [[7, 0], [7, 0]];

    /// The standard start position, built without reading text.
    pub const START: Setup = {
        let back = [
            PieceKind::Rook,
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Queen,
            PieceKind::King,
            PieceKind::Bishop,
            PieceKind::Knight,
            PieceKind::Rook,
        ];
        let mut board = [Piece::EMPTY; SQUARE_COUNT];
        let mut f = 0;
        while f < 8 {
            board[f] = Piece::new(Color::White, back[f]);
            board[8 + f] = Piece::new(Color::White, PieceKind::Pawn);
            board[48 + f] = Piece::new(Color::Black, PieceKind::Pawn);
            board[56 + f] = Piece::new(Color::Black, back[f]);
            f += 1;
        }
        Setup {
            board,
            side: Color::White,
            castling: Castling::ALL,
            rook_files: Setup::STANDARD_ROOK_FILES,
            chess960: false,
            en_passant: None,
            halfmove: 0,
            fullmove: 1,
        }
    };

    /// Checks the rules that need no move generation: one king a side, no pawn on a back
    /// rank, at most 8 pawns and 16 pieces a side, castling rights backed by king and rook on
    /// their squares, and an en-passant square that a double step just passed over.
    /// (Whether the side not to move is in check is checked by `Position::from_setup`.)
    pub fn check_board(&self) -> Result<(), PositionError> {
        for color in Color::ALL {
            let mut kings = 0;
            let mut pawns = 0;
            let mut pieces = 0;
            for (s, &p) in self.board.iter().enumerate() {
                if p.is_empty() || p.color() != color {
                    continue;
                }
                pieces += 1;
                let square = Square(s as u8);
                match p.kind() {
                    Some(PieceKind::King) => kings += 1,
                    Some(PieceKind::Pawn) => {
                        pawns += 1;
                        if square.rank() == 0 || square.rank() == 7 {
                            return Err(PositionError::PawnOnBackRank { color, square });
                        }
                    }
                    _ => {}
                }
            }
            if kings != 1 {
                return Err(PositionError::KingCount {
                    color,
                    count: kings,
                });
            }
            if pawns > 8 {
                return Err(PositionError::TooMany {
                    color,
                    what: "pawns",
                    count: pawns,
                    max: 8,
                });
            }
            if pieces > 16 {
                return Err(PositionError::TooMany {
                    color,
                    what: "pieces",
                    count: pieces,
                    max: 16,
                });
            }
        }
        for color in Color::ALL {
            let back = if color == Color::White { 0 } else { 7 };
            let king_piece = Piece::new(color, PieceKind::King);
            let king_file = self.king_file(color);
            for (i, king_side) in [(0, true), (1, false)] {
                if !self.castling.has(color, king_side) {
                    continue;
                }
                let file = self.rook_files[color.index()][i];
                let standard_file = Setup::STANDARD_ROOK_FILES[color.index()][i];
                let (king, rook, on_its_side) = if self.chess960 {
                    let on_its_side = match king_file {
                        Some(k) if king_side => file > k,
                        Some(k) => file < k,
                        None => false,
                    };
                    let king = Square::new(king_file.unwrap_or(4), back);
                    (king, Square::new(file, back), on_its_side)
                } else {
                    (
                        Square::new(4, back),
                        Square::new(standard_file, back),
                        file == standard_file,
                    )
                };
                if self.board[king.index()] != king_piece
                    || self.board[rook.index()] != Piece::new(color, PieceKind::Rook)
                    || !on_its_side
                {
                    return Err(PositionError::ImpossibleCastling {
                        right: self.castling_letter(color, i),
                        color,
                        king,
                        rook,
                    });
                }
            }
        }
        if let Some(square) = self.en_passant {
            let bad = |reason| Err(PositionError::BadEnPassant { square, reason });
            // The pawn that moved belongs to the side not to move.
            let (rank, step): (u8, i8) = match self.side {
                Color::White => (5, -1),
                Color::Black => (2, 1),
            };
            if square.rank() != rank {
                return bad(if self.side == Color::White {
                    "with White to move it must be on rank 6"
                } else {
                    "with Black to move it must be on rank 3"
                });
            }
            let pawn_sq = Square((square.0 as i8 + 8 * step) as u8);
            let origin = Square((square.0 as i8 - 8 * step) as u8);
            if !self.board[square.index()].is_empty() {
                return bad("the square is occupied");
            }
            if !self.board[origin.index()].is_empty() {
                return bad("the pawn's starting square is occupied");
            }
            if self.board[pawn_sq.index()] != Piece::new(self.side.flip(), PieceKind::Pawn) {
                return bad("no pawn of the side that just moved stands in front of it");
            }
        }
        Ok(())
    }
}

impl Setup {
    /// The file of `color`'s king when it stands on its first rank (where a king that may
    /// castle stands), `None` otherwise.
    pub fn king_file(&self, color: Color) -> Option<u8> {
        let back = if color == Color::White { 0 } else { 7 };
        let king = Piece::new(color, PieceKind::King);
        (0..8u8).find(|&f| self.board[Square::new(f, back).index()] == king)
    }

    /// The file of the outermost rook of `color` on its first rank on one side of its king
    /// (what X-FEN's `K`/`Q` mean), or the standard file (h or a) when there is none, so
    /// that a right without its rook is refused naming the square it needs.
    pub fn outermost_rook_file(&self, color: Color, king_side: bool) -> u8 {
        let back = if color == Color::White { 0 } else { 7 };
        let rook = Piece::new(color, PieceKind::Rook);
        let king = self.king_file(color).unwrap_or(4);
        let is_rook = |f: &u8| self.board[Square::new(*f, back).index()] == rook;
        if king_side {
            (king + 1..8).rev().find(is_rook).unwrap_or(7)
        } else {
            (0..king).find(is_rook).unwrap_or(0)
        }
    }

    /// The FEN letter of one right as this setup is written: `K`/`Q` (lower case for Black)
    /// when the rook is the one X-FEN's letter means, else the rook's file letter
    /// (Shredder-FEN), so that the text always names one rook.
    pub fn castling_letter(&self, color: Color, side: usize) -> char {
        let king_side = side == 0;
        let file = self.rook_files[color.index()][side];
        let letter = if file == self.outermost_rook_file(color, king_side) {
            if king_side {
                'K'
            } else {
                'Q'
            }
        } else {
            (b'A' + file) as char
        };
        match color {
            Color::White => letter,
            Color::Black => letter.to_ascii_lowercase(),
        }
    }

    /// The FEN castling field: the held rights in the order White king side, White queen
    /// side, Black king side, Black queen side, each as [`Setup::castling_letter`] writes it;
    /// `-` for none. Standard positions read `KQkq` as always.
    pub fn castling_field(&self) -> String {
        let mut s = String::with_capacity(4);
        for color in Color::ALL {
            for (i, king_side) in [(0, true), (1, false)] {
                if self.castling.has(color, king_side) {
                    s.push(self.castling_letter(color, i));
                }
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_valid() {
        assert_eq!(Setup::START.check_board(), Ok(()));
        assert_eq!(Setup::START.castling, Castling::ALL);
    }
}
