//! [`Setup`]: a position as FEN describes it (pieces, side to move, counters) before any rule
//! is checked, and [`PositionError`]: why a setup is not a position a game can reach.
//!
//! Reading FEN text into a setup is [`super::fen`]'s job; turning a setup into a
//! [`super::position::Position`] is `Position::from_setup`, which checks every rule here.

use super::tables::in_own_palace;
use super::types::{Color, Piece, PieceKind, Square, SQUARE_COUNT};
use thiserror::Error;

/// Why a setup is not a legal position (the FEN text itself was well formed).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A side has no general.
    #[error("{0:?} has no general")]
    MissingGeneral(Color),
    /// A side has more pieces of one kind than a set holds.
    #[error("{color:?} has {count} {kind:?}s; a set has {max}")]
    TooMany {
        /// The side.
        color: Color,
        /// The kind.
        kind: PieceKind,
        /// How many were found.
        count: u8,
        /// How many a set holds.
        max: u8,
    },
    /// A piece stands where it can never be.
    #[error("{color:?} {kind:?} on {square} is a point it can never reach")]
    Unreachable {
        /// The side.
        color: Color,
        /// The kind.
        kind: PieceKind,
        /// The point.
        square: Square,
    },
    /// The generals face each other on an open file.
    #[error("the generals face each other on an open file")]
    GeneralsFacing,
    /// The side that has just moved is in check.
    #[error("the side not to move ({0:?}) is in check")]
    OpponentInCheck(Color),
}

/// A position as FEN describes it, before any rule is checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Pieces by point.
    pub board: [Piece; SQUARE_COUNT],
    /// Side to move.
    pub side: Color,
    /// Plies since the last capture.
    pub quiet_plies: u16,
    /// Move number.
    pub fullmove: u16,
}

impl Setup {
    /// The standard start position, Red to move, built without reading any text (a test checks
    /// that it equals [`super::fen::START_FEN`]).
    pub const START: Setup = Setup {
        board: start_board(),
        side: Color::Red,
        quiet_plies: 0,
        fullmove: 1,
    };

    /// The point of a side's general, `None` when it has none (the first one if it has more).
    pub fn general(&self, color: Color) -> Option<Square> {
        let general = Piece::new(color, PieceKind::General);
        self.board
            .iter()
            .position(|&p| p == general)
            .map(|s| Square(s as u8))
    }

    /// Checks every rule that the board alone decides, in this order: each piece on a point
    /// it can reach (lowest point first), then per side (Red first) no more pieces of a kind
    /// than a set holds and one general, then the generals not facing each other. Whether the
    /// side not to move is in check needs attack detection: `Position::from_setup` checks it.
    pub fn check_board(&self) -> Result<(), PositionError> {
        let mut counts = [[0u8; 8]; 2];
        for (s, p) in self.board.iter().enumerate() {
            let Some(kind) = p.kind() else { continue };
            let color = p.color();
            counts[color.index()][kind as usize] += 1;
            let square = Square(s as u8);
            if !reachable(color, kind, square) {
                return Err(PositionError::Unreachable {
                    color,
                    kind,
                    square,
                });
            }
        }
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let count = counts[color.index()][kind as usize];
                if count > kind.max_count() {
                    return Err(PositionError::TooMany {
                        color,
                        kind,
                        count,
                        max: kind.max_count(),
                    });
                }
            }
            if counts[color.index()][PieceKind::General as usize] == 0 {
                return Err(PositionError::MissingGeneral(color));
            }
        }
        if let (Some(red), Some(black)) = (self.general(Color::Red), self.general(Color::Black)) {
            if red.file() == black.file() {
                let file = red.file();
                let open = (red.rank() + 1..black.rank())
                    .all(|r| self.board[Square::new(file, r).index()].is_empty());
                if open {
                    return Err(PositionError::GeneralsFacing);
                }
            }
        }
        Ok(())
    }
}

/// The start position's board: chariot, horse, elephant, advisor, general, advisor, elephant,
/// horse, chariot on the back ranks, cannons on files b and h, soldiers on the odd files.
const fn start_board() -> [Piece; SQUARE_COUNT] {
    const BACK: [PieceKind; 9] = [
        PieceKind::Chariot,
        PieceKind::Horse,
        PieceKind::Elephant,
        PieceKind::Advisor,
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
    ];
    let mut board = [Piece::EMPTY; SQUARE_COUNT];
    let mut file = 0u8;
    while file < 9 {
        let kind = BACK[file as usize];
        board[Square::new(file, 0).index()] = Piece::new(Color::Red, kind);
        board[Square::new(file, 9).index()] = Piece::new(Color::Black, kind);
        if file % 2 == 0 {
            board[Square::new(file, 3).index()] = Piece::new(Color::Red, PieceKind::Soldier);
            board[Square::new(file, 6).index()] = Piece::new(Color::Black, PieceKind::Soldier);
        }
        if file == 1 || file == 7 {
            board[Square::new(file, 2).index()] = Piece::new(Color::Red, PieceKind::Cannon);
            board[Square::new(file, 7).index()] = Piece::new(Color::Black, PieceKind::Cannon);
        }
        file += 1;
    }
    board
}

/// Whether a piece of this colour and kind can ever stand on `square`.
fn reachable(color: Color, kind: PieceKind, square: Square) -> bool {
    let (file, rank) = (square.file(), square.rank());
    // Ranks as seen from the piece's own side (0 = its back rank).
    let own_rank = match color {
        Color::Red => rank,
        Color::Black => 9 - rank,
    };
    match kind {
        PieceKind::General => in_own_palace(color, file, rank),
        PieceKind::Advisor => in_own_palace(color, file, rank) && (file == 4) == (own_rank == 1),
        PieceKind::Elephant => matches!(
            (file, own_rank),
            (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
        ),
        PieceKind::Soldier => match own_rank {
            0..=2 => false,
            3 | 4 => file % 2 == 0,
            _ => true,
        },
        PieceKind::Horse | PieceKind::Chariot | PieceKind::Cannon => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::fen::START_FEN;
    use crate::xiangqi::position::{FromFenError, Position};

    #[test]
    fn start_setup_equals_the_parsed_start_fen() {
        assert_eq!(Setup::parse(START_FEN), Ok(Setup::START));
        assert_eq!(Setup::START.to_fen(), START_FEN);
        assert_eq!(Setup::START.check_board(), Ok(()));
    }

    #[test]
    fn every_start_piece_is_on_a_reachable_point() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let count = Setup::START
                    .board
                    .iter()
                    .filter(|&&p| p == Piece::new(color, kind))
                    .count();
                assert_eq!(count, usize::from(kind.max_count()), "{color:?} {kind:?}");
            }
        }
    }

    #[test]
    fn reachable_points_per_kind() {
        // Counted per side: 9 palace points, 5 advisor points, 7 elephant points, 55 for
        // soldiers (5 points on each of ranks 3 and 4, all 45 beyond the river), 90 otherwise.
        let expected = [
            (PieceKind::General, 9),
            (PieceKind::Advisor, 5),
            (PieceKind::Elephant, 7),
            (PieceKind::Soldier, 55),
            (PieceKind::Horse, 90),
            (PieceKind::Chariot, 90),
            (PieceKind::Cannon, 90),
        ];
        for color in Color::ALL {
            for (kind, n) in expected {
                let count = (0..SQUARE_COUNT as u8)
                    .filter(|&s| reachable(color, kind, Square(s)))
                    .count();
                assert_eq!(count, n, "{color:?} {kind:?}");
            }
        }
    }

    #[test]
    fn board_checks_come_in_order() {
        // An unreachable piece is reported before a missing general.
        let mut s = Setup::START;
        s.board[Square::new(4, 9).index()] = Piece::EMPTY;
        s.board[Square::new(0, 0).index()] = Piece::new(Color::Red, PieceKind::Elephant);
        assert!(matches!(
            s.check_board(),
            Err(PositionError::Unreachable { square, .. }) if square == Square::new(0, 0)
        ));
        s.board[Square::new(0, 0).index()] = Piece::EMPTY;
        assert_eq!(
            s.check_board(),
            Err(PositionError::MissingGeneral(Color::Black))
        );
    }

    /// The FEN reads but is refused as a position, with a message that mentions `needle`.
    fn rejected(fen: &str, needle: &str) {
        assert!(Setup::parse(fen).is_ok(), "{fen}");
        match Position::from_fen(fen) {
            Ok(_) => panic!("accepted {fen}"),
            Err(FromFenError::Position(e)) => assert!(
                e.to_string().contains(needle),
                "{fen}: message '{e}' does not mention '{needle}'"
            ),
            Err(e) => panic!("{fen}: not a position error: {e}"),
        }
    }

    #[test]
    fn fen_rejection_missing_general() {
        rejected(
            "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "Black has no general",
        );
    }

    #[test]
    fn fen_rejection_second_general() {
        rejected(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w - - 0 1",
            "2 Generals",
        );
    }

    #[test]
    fn fen_rejection_too_many_pieces() {
        rejected(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/2C6/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "3 Cannons",
        );
        rejected(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P8/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "6 Soldiers",
        );
    }

    #[test]
    fn fen_rejection_unreachable_points() {
        rejected(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2A2C1/9/RNBAKAB1R w - - 0 1"
                .replace("RNBAKAB1R", "RNB1KABNR")
                .as_str(),
            "Advisor on e2",
        );
        rejected("3k5/9/9/9/9/4B4/9/9/9/4K4 w - - 0 1", "Elephant on e4");
        rejected("3k5/9/9/9/9/9/9/P8/9/4K4 w - - 0 1", "Soldier on a2");
        rejected("3k5/9/9/9/9/9/1P7/9/9/4K4 w - - 0 1", "Soldier on b3");
        rejected("3k5/9/9/9/9/9/9/9/9/K8 w - - 0 1", "General on a0");
        rejected("3k5/9/9/9/4B4/9/9/9/9/4K4 w - - 0 1", "Elephant on e5");
    }

    #[test]
    fn fen_rejection_generals_facing() {
        rejected("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "face each other");
    }

    #[test]
    fn fen_rejection_side_not_to_move_in_check() {
        rejected(
            "3k5/9/9/9/9/9/9/9/3R5/4K4 w - - 0 1",
            "side not to move (Black) is in check",
        );
    }
}
