//! FEN: parse text into an unvalidated [`Setup`], validate it into a [`Position`], and write
//! it back. Every rejection names the problem; nothing here panics on any input.

use super::position::Position;
use super::tables::in_own_palace;
use super::types::{Color, Piece, PieceKind, Square, SQUARE_COUNT};
use thiserror::Error;

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    /// The text is empty.
    #[error("empty FEN")]
    Empty,
    /// Wrong number of space-separated fields.
    #[error("FEN has {0} fields; expected 2, 4 or 6 (board, side[, -, -[, plies, move]])")]
    FieldCount(usize),
    /// The board field does not have 10 rows.
    #[error("board has {0} rows separated by '/'; expected 10")]
    RowCount(usize),
    /// A row does not cover 9 files.
    #[error("row {row} (rank {rank}) covers {files} files; expected 9")]
    FileCount {
        /// 1-based row number in the FEN (row 1 = rank 9).
        row: usize,
        /// The rank that row describes.
        rank: u8,
        /// Files the row covered.
        files: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–9.
    #[error("unknown character '{ch}' in row {row} (rank {rank})")]
    UnknownChar {
        /// The character.
        ch: char,
        /// 1-based row number.
        row: usize,
        /// The rank that row describes.
        rank: u8,
    },
    /// The side-to-move field is not `w` or `b`.
    #[error("side to move '{0}' is not 'w' (Red) or 'b' (Black)")]
    Side(String),
    /// Fields 3 or 4 are not `-`.
    #[error("field {field} is '{value}'; xiangqi FEN has '-' there")]
    Placeholder {
        /// 1-based field number.
        field: usize,
        /// Text found.
        value: String,
    },
    /// Field 5 or 6 is not a number in range.
    #[error("field {field} ({name}) is '{value}'; expected a whole number{range}")]
    Number {
        /// 1-based field number.
        field: usize,
        /// What the field means.
        name: &'static str,
        /// Text found.
        value: String,
        /// Range text, e.g. " >= 1".
        range: &'static str,
    },
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

/// A parsed but unvalidated position: what the FEN says, before any rule is checked.
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
    /// Parses FEN text. Accepts `B`/`E` for elephants and `N`/`H` for horses, 2, 4 or 6 fields.
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if !matches!(fields.len(), 2 | 4 | 6) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 10 {
            return Err(FenError::RowCount(rows.len()));
        }
        let mut board = [Piece::EMPTY; SQUARE_COUNT];
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else {
                    let kind = PieceKind::from_fen_upper(ch.to_ascii_uppercase())
                        .filter(|_| ch.is_ascii_alphabetic())
                        .ok_or(FenError::UnknownChar {
                            ch,
                            row: i + 1,
                            rank,
                        })?;
                    let color = if ch.is_ascii_uppercase() {
                        Color::Red
                    } else {
                        Color::Black
                    };
                    if file < 9 {
                        board[Square::new(file as u8, rank).index()] = Piece::new(color, kind);
                    }
                    file += 1;
                }
                if file > 9 {
                    break;
                }
            }
            if file != 9 {
                return Err(FenError::FileCount {
                    row: i + 1,
                    rank,
                    files: file,
                });
            }
        }
        let side = match fields[1] {
            "w" => Color::Red,
            "b" => Color::Black,
            other => return Err(FenError::Side(other.to_string())),
        };
        let mut quiet_plies = 0;
        let mut fullmove = 1;
        if fields.len() >= 4 {
            for (idx, f) in fields[2..4].iter().enumerate() {
                if *f != "-" {
                    return Err(FenError::Placeholder {
                        field: idx + 3,
                        value: f.to_string(),
                    });
                }
            }
        }
        if fields.len() == 6 {
            quiet_plies = fields[4].parse::<u16>().map_err(|_| FenError::Number {
                field: 5,
                name: "plies since the last capture",
                value: fields[4].to_string(),
                range: " from 0 to 65535",
            })?;
            fullmove = fields[5]
                .parse::<u16>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| FenError::Number {
                    field: 6,
                    name: "move number",
                    value: fields[5].to_string(),
                    range: " from 1 to 65535",
                })?;
        }
        Ok(Setup {
            board,
            side,
            quiet_plies,
            fullmove,
        })
    }

    /// Checks every rule a real position obeys and builds the [`Position`].
    pub fn validate(self) -> Result<Position, FenError> {
        let mut counts = [[0u8; 8]; 2];
        for (s, p) in self.board.iter().enumerate() {
            let Some(kind) = p.kind() else { continue };
            let color = p.color();
            counts[color.index()][kind as usize] += 1;
            let square = Square(s as u8);
            if !reachable(color, kind, square) {
                return Err(FenError::Unreachable {
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
                    return Err(FenError::TooMany {
                        color,
                        kind,
                        count,
                        max: kind.max_count(),
                    });
                }
            }
            if counts[color.index()][PieceKind::General as usize] == 0 {
                return Err(FenError::MissingGeneral(color));
            }
        }
        let pos = Position::from_parts(self.board, self.side, self.quiet_plies, self.fullmove);
        let red = pos.general(Color::Red);
        let black = pos.general(Color::Black);
        if red.file() == black.file() {
            let file = red.file();
            let open = (red.rank() + 1..black.rank())
                .all(|r| pos.piece_at(Square::new(file, r)).is_empty());
            if open {
                return Err(FenError::GeneralsFacing);
            }
        }
        let other = self.side.flip();
        if pos.general_attacked(other) {
            return Err(FenError::OpponentInCheck(other));
        }
        Ok(pos)
    }
}

/// Whether a piece of this colour and kind can ever stand on `square`.
pub fn reachable(color: Color, kind: PieceKind, square: Square) -> bool {
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

impl Position {
    /// Parses and validates a FEN.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Setup::parse(fen)?.validate()
    }

    /// Writes the position as FEN (6 fields, `w`/`b` for the side to move).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let p = self.piece_at(Square::new(file, rank));
                if p.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.fen_char());
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        format!(
            "{} {} - - {} {}",
            s,
            self.side_to_move().fen_char(),
            self.quiet_plies(),
            self.fullmove()
        )
    }
}
