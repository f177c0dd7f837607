//! Basic types: colours, piece kinds, one-byte pieces, squares and 16-bit moves.

use std::fmt;

/// Number of points on the board (9 files x 10 ranks).
pub const SQUARE_COUNT: usize = 90;
/// Number of files (a–i).
pub const FILE_COUNT: u8 = 9;
/// Number of ranks (0–9).
pub const RANK_COUNT: u8 = 10;

/// A side: Red moves first and sits on ranks 0–4; Black sits on ranks 5–9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Red (upper case in FEN, `w` as side to move).
    Red = 0,
    /// Black (lower case in FEN, `b` as side to move).
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN side-to-move letter: `w` for Red, `b` for Black.
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }
}

/// The seven kinds of xiangqi pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// General (king), `K`.
    General = 1,
    /// Advisor, `A`.
    Advisor = 2,
    /// Elephant, `B` (also read as `E`).
    Elephant = 3,
    /// Horse, `N` (also read as `H`).
    Horse = 4,
    /// Chariot, `R`.
    Chariot = 5,
    /// Cannon, `C`.
    Cannon = 6,
    /// Soldier, `P`.
    Soldier = 7,
}

impl PieceKind {
    /// All kinds in encoding order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    /// How many of this kind one side has in a full set.
    pub const fn max_count(self) -> u8 {
        match self {
            PieceKind::General => 1,
            PieceKind::Soldier => 5,
            _ => 2,
        }
    }

    /// The upper-case FEN letter (`K A B N R C P`).
    pub const fn fen_char(self) -> char {
        match self {
            PieceKind::General => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Soldier => 'P',
        }
    }

    /// Reads an upper-case FEN letter, accepting `E` for elephant and `H` for horse.
    pub const fn from_fen_upper(c: char) -> Option<PieceKind> {
        match c {
            'K' => Some(PieceKind::General),
            'A' => Some(PieceKind::Advisor),
            'B' | 'E' => Some(PieceKind::Elephant),
            'N' | 'H' => Some(PieceKind::Horse),
            'R' => Some(PieceKind::Chariot),
            'C' => Some(PieceKind::Cannon),
            'P' => Some(PieceKind::Soldier),
            _ => None,
        }
    }

    /// Kind from its encoding 1..=7.
    #[inline]
    pub const fn from_index(i: u8) -> Option<PieceKind> {
        match i {
            1 => Some(PieceKind::General),
            2 => Some(PieceKind::Advisor),
            3 => Some(PieceKind::Elephant),
            4 => Some(PieceKind::Horse),
            5 => Some(PieceKind::Chariot),
            6 => Some(PieceKind::Cannon),
            7 => Some(PieceKind::Soldier),
            _ => None,
        }
    }
}

/// A piece or an empty point in one byte: bits 0–2 the kind (0 = empty), bit 3 set for Black.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Piece(pub u8);

impl Piece {
    /// The empty point.
    pub const EMPTY: Piece = Piece(0);
    /// Bit that marks a Black piece.
    pub const BLACK_BIT: u8 = 8;

    /// A piece of the given colour and kind.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(kind as u8 | ((color as u8) << 3))
    }

    /// Whether the point is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The piece's kind, `None` for an empty point.
    #[inline]
    pub const fn kind(self) -> Option<PieceKind> {
        PieceKind::from_index(self.0 & 7)
    }

    /// The raw kind bits (0 for empty, 1..=7).
    #[inline]
    pub const fn kind_bits(self) -> u8 {
        self.0 & 7
    }

    /// The piece's colour (meaningless for an empty point, which reads as Red).
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & Self::BLACK_BIT != 0 {
            Color::Black
        } else {
            Color::Red
        }
    }

    /// Index 0..16 for tables indexed by piece.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The FEN letter: upper case for Red, lower case for Black, `.` for empty.
    pub fn fen_char(self) -> char {
        match self.kind() {
            None => '.',
            Some(k) => {
                let c = k.fen_char();
                if self.color() == Color::Black {
                    c.to_ascii_lowercase()
                } else {
                    c
                }
            }
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

/// A point on the board, `rank * 9 + file`, 0..90 (a0 = 0, i9 = 89).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(pub u8);

impl Square {
    /// The square at `file` (0..9, a..i) and `rank` (0..10).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * FILE_COUNT + file)
    }

    /// The square from a 0..90 index, `None` when out of range.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < SQUARE_COUNT {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// File 0..9 (a..i).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILE_COUNT
    }

    /// Rank 0..10 (0 = Red's back rank).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILE_COUNT
    }

    /// Index 0..90.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Parses `a0`..`i9`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'0');
        (file < FILE_COUNT && rank < RANK_COUNT).then(|| Square::new(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A move in 16 bits: from-square in bits 0–6, to-square in bits 7–13. Zero is "no move".
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(pub u16);

impl Move {
    /// The null value ("no move"); never a legal move since from == to.
    pub const NONE: Move = Move(0);

    /// A move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | ((to.0 as u16) << 7))
    }

    /// Origin square.
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    /// Destination square.
    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 >> 7) as u8)
    }

    /// Whether this is the null value.
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The UCI/UCCI text with ranks 0–9, e.g. `h2e2`.
    pub fn to_uci(self) -> String {
        format!("{}{}", self.from(), self.to())
    }

    /// Parses UCI text with ranks 0–9 (`h2e2`) into a move, without checking legality.
    pub fn parse_uci(s: &str) -> Option<Move> {
        if s.len() != 4 || !s.is_ascii() {
            return None;
        }
        let from = Square::parse(&s[0..2])?;
        let to = Square::parse(&s[2..4])?;
        (from != to).then(|| Move::new(from, to))
    }

    /// Index `from * 90 + to`, for history tables.
    #[inline]
    pub const fn history_index(self) -> usize {
        (self.0 & 0x7f) as usize * SQUARE_COUNT + (self.0 >> 7) as usize
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            write!(f, "0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
