//! Basic chess types: colours, piece kinds, one-byte pieces, squares, bitboards, castling
//! rights and 16-bit moves.

use std::fmt;

/// Number of squares on the board.
pub const SQUARE_COUNT: usize = 64;

/// A set of squares, bit `s` for square `s` (a1 = 0, h8 = 63).
pub type Bitboard = u64;

/// A side: White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White (upper case in FEN).
    White = 0,
    /// Black (lower case in FEN).
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN side-to-move letter.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

/// The six kinds of chess pieces, encoded 1..=6 (0 is an empty square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// Pawn, `P`.
    Pawn = 1,
    /// Knight, `N`.
    Knight = 2,
    /// Bishop, `B`.
    Bishop = 3,
    /// Rook, `R`.
    Rook = 4,
    /// Queen, `Q`.
    Queen = 5,
    /// King, `K`.
    King = 6,
}

impl PieceKind {
    /// All kinds in encoding order.
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];

    /// The kinds a pawn may promote to, strongest first.
    pub const PROMOTIONS: [PieceKind; 4] = [
        PieceKind::Queen,
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Knight,
    ];

    /// The upper-case letter (`P N B R Q K`).
    pub const fn fen_char(self) -> char {
        match self {
            PieceKind::Pawn => 'P',
            PieceKind::Knight => 'N',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Queen => 'Q',
            PieceKind::King => 'K',
        }
    }

    /// Reads an upper-case letter.
    pub const fn from_upper(c: char) -> Option<PieceKind> {
        match c {
            'P' => Some(PieceKind::Pawn),
            'N' => Some(PieceKind::Knight),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'Q' => Some(PieceKind::Queen),
            'K' => Some(PieceKind::King),
            _ => None,
        }
    }

    /// Kind from its encoding 1..=6.
    #[inline]
    pub const fn from_index(i: u8) -> Option<PieceKind> {
        match i {
            1 => Some(PieceKind::Pawn),
            2 => Some(PieceKind::Knight),
            3 => Some(PieceKind::Bishop),
            4 => Some(PieceKind::Rook),
            5 => Some(PieceKind::Queen),
            6 => Some(PieceKind::King),
            _ => None,
        }
    }

    /// Index 0..6 for tables indexed by kind.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize - 1
    }
}

/// A piece or an empty square in one byte: bits 0–2 the kind (0 = empty), bit 3 set for Black.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Piece(pub u8);

impl Piece {
    /// The empty square.
    pub const EMPTY: Piece = Piece(0);
    /// Bit that marks a Black piece.
    pub const BLACK_BIT: u8 = 8;

    /// A piece of the given colour and kind.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(kind as u8 | ((color as u8) << 3))
    }

    /// Whether the square is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The piece's kind, `None` for an empty square.
    #[inline]
    pub const fn kind(self) -> Option<PieceKind> {
        PieceKind::from_index(self.0 & 7)
    }

    /// The piece's colour (meaningless for an empty square, which reads as White).
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & Self::BLACK_BIT != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Index 0..16 for tables indexed by piece.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The FEN letter: upper case for White, lower case for Black, `.` for empty.
    pub fn fen_char(self) -> char {
        match self.kind() {
            None => '.',
            Some(k) if self.color() == Color::Black => k.fen_char().to_ascii_lowercase(),
            Some(k) => k.fen_char(),
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

/// A square, `rank * 8 + file`, 0..64 (a1 = 0, h8 = 63).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(pub u8);

impl Square {
    /// The square at `file` (0..8, a..h) and `rank` (0..8, 1..8).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }

    /// File 0..8 (a..h).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0..8 (0 = rank 1, White's back rank).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// Index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The one-square bitboard.
    #[inline]
    pub const fn bb(self) -> Bitboard {
        1u64 << self.0
    }

    /// Whether the square is a light square (h1 is light, a1 dark).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }

    /// Parses `a1`..`h8`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        (file < 8 && rank < 8).then(|| Square::new(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Castling rights in four bits: White king side, White queen side, Black king side, Black
/// queen side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Castling(pub u8);

impl Castling {
    /// No rights.
    pub const NONE: Castling = Castling(0);
    /// Every right.
    pub const ALL: Castling = Castling(15);
    /// White king side (`K`).
    pub const WHITE_KING: u8 = 1;
    /// White queen side (`Q`).
    pub const WHITE_QUEEN: u8 = 2;
    /// Black king side (`k`).
    pub const BLACK_KING: u8 = 4;
    /// Black queen side (`q`).
    pub const BLACK_QUEEN: u8 = 8;

    /// The right bit for `color` on the king side (`king_side`) or the queen side.
    #[inline]
    pub const fn bit(color: Color, king_side: bool) -> u8 {
        (if king_side { 1 } else { 2 }) << (2 * color as u8)
    }

    /// Whether the right is held.
    #[inline]
    pub const fn has(self, color: Color, king_side: bool) -> bool {
        self.0 & Self::bit(color, king_side) != 0
    }

    /// The FEN field: `KQkq` in that order, `-` for none.
    pub fn to_fen(self) -> String {
        if self.0 == 0 {
            return "-".to_string();
        }
        [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')]
            .iter()
            .filter(|(b, _)| self.0 & b != 0)
            .map(|&(_, c)| c)
            .collect()
    }
}

impl fmt::Debug for Castling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

/// What a move does beyond moving a piece from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A plain move or capture (a pawn's double step included).
    Normal,
    /// A promotion, to the kind given (capturing or not).
    Promotion(PieceKind),
    /// An en-passant capture.
    EnPassant,
    /// Castling: from the king's square to its target (g- or c-file) in standard notation,
    /// or to the square of its own rook in Chess960's; either way towards the rook.
    Castle,
}

/// A move in 16 bits: from-square in bits 0–5, to-square in bits 6–11, bits 12–15 the
/// kind (0 normal, 1 en passant, 2 castle, 4..=7 promotion to knight, bishop, rook, queen).
/// Zero is "no move".
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(pub u16);

impl Move {
    /// The null value ("no move"); never a legal move since from == to.
    pub const NONE: Move = Move(0);
    const EP: u16 = 1 << 12;
    const CASTLE: u16 = 2 << 12;
    const PROMO: u16 = 4 << 12;

    /// A plain move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | ((to.0 as u16) << 6))
    }

    /// A move of the given kind.
    #[inline]
    pub const fn with_kind(from: Square, to: Square, kind: MoveKind) -> Move {
        let base = Move::new(from, to).0;
        Move(
            base | match kind {
                MoveKind::Normal => 0,
                MoveKind::EnPassant => Self::EP,
                MoveKind::Castle => Self::CASTLE,
                MoveKind::Promotion(k) => Self::PROMO | ((k as u16 - 2) << 12),
            },
        )
    }

    /// Origin square.
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    /// Destination square.
    #[inline]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 6) & 63) as u8)
    }

    /// The move's kind.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        let flags = self.0 >> 12;
        if flags >= 4 {
            match PieceKind::from_index((flags - 4 + 2) as u8) {
                Some(k) => MoveKind::Promotion(k),
                None => MoveKind::Normal,
            }
        } else if flags == 1 {
            MoveKind::EnPassant
        } else if flags == 2 {
            MoveKind::Castle
        } else {
            MoveKind::Normal
        }
    }

    /// The promotion kind, if this is a promotion.
    #[inline]
    pub const fn promotion(self) -> Option<PieceKind> {
        match self.kind() {
            MoveKind::Promotion(k) => Some(k),
            _ => None,
        }
    }

    /// Whether this is the null value.
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The UCI text, e.g. `e2e4`, `e7e8q`, castling as the move was generated: the king's
    /// move `e1g1`, or `e1h1` (king takes own rook) in a Chess960-mode position.
    pub fn to_uci(self) -> String {
        self.to_string()
    }

    /// Index `from * 64 + to`, for history tables.
    #[inline]
    pub const fn history_index(self) -> usize {
        (self.0 & 0xfff) as usize
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return write!(f, "0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(k) = self.promotion() {
            write!(f, "{}", k.fen_char().to_ascii_lowercase())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_pack_and_unpack() {
        let e7 = Square::parse("e7").unwrap();
        let e8 = Square::parse("e8").unwrap();
        for k in PieceKind::PROMOTIONS {
            let m = Move::with_kind(e7, e8, MoveKind::Promotion(k));
            assert_eq!((m.from(), m.to(), m.promotion()), (e7, e8, Some(k)));
        }
        let m = Move::with_kind(e7, e8, MoveKind::EnPassant);
        assert_eq!(m.kind(), MoveKind::EnPassant);
        let m = Move::with_kind(e7, e8, MoveKind::Castle);
        assert_eq!(m.kind(), MoveKind::Castle);
        assert_eq!(Move::new(e7, e8).kind(), MoveKind::Normal);
        assert_eq!(
            Move::with_kind(e7, e8, MoveKind::Promotion(PieceKind::Queen)).to_string(),
            "e7e8q"
        );
        assert!(Square::new(7, 0).is_light() && !Square::new(0, 0).is_light());
        assert_eq!(Castling::ALL.to_fen(), "KQkq");
        assert_eq!(Castling(Castling::BLACK_QUEEN | 1).to_fen(), "Kq");
    }
}
