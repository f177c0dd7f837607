//! FEN text: read it into a [`Setup`] and write a setup back. [`FenError`] says why text is
//! not FEN; whether the setup is a legal position is [`super::setup::PositionError`]'s
//! business. Nothing here panics on any input.

use super::setup::Setup;
use super::types::{Castling, Color, Piece, PieceKind, Square, SQUARE_COUNT};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why text is not FEN. Every variant says where in the text the problem is.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    /// The text is empty.
    #[error("empty FEN")]
    Empty,
    /// Wrong number of space-separated fields.
    #[error(
        "FEN has {0} fields; expected 4 or 6 (board, side, castling, en passant[, halfmove, move])"
    )]
    FieldCount(usize),
    /// The board field does not have 8 rows.
    #[error("board has {0} rows separated by '/'; expected 8")]
    RowCount(usize),
    /// A row does not cover 8 files.
    #[error("row {row} (rank {rank}) covers {files} files; expected 8")]
    FileCount {
        /// 1-based row number in the FEN (row 1 = rank 8).
        row: usize,
        /// The rank that row describes (1..=8).
        rank: u8,
        /// Files the row covered.
        files: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–8.
    #[error("unknown character '{ch}' in row {row} (rank {rank}), character {column} of the FEN")]
    UnknownChar {
        /// The character.
        ch: char,
        /// 1-based row number.
        row: usize,
        /// The rank that row describes (1..=8).
        rank: u8,
        /// 1-based character position in the whole text.
        column: usize,
    },
    /// The side-to-move field is not `w` or `b`.
    #[error("side to move '{0}' (field 2) is not 'w' or 'b'")]
    Side(String),
    /// The castling field is not `-` or letters of `KQkq` (X-FEN) and file letters `A`–`H`,
    /// `a`–`h` (Shredder-FEN), at most one per side of each king.
    #[error(
        "castling rights '{0}' (field 3) are not '-' or letters of 'KQkq' or files 'A'-'H', 'a'-'h', one a side of each king"
    )]
    Castling(String),
    /// The en-passant field is not `-` or a square.
    #[error("en-passant square '{0}' (field 4) is not '-' or a square a1–h8")]
    EnPassant(String),
    /// Field 5 or 6 is not a number in range.
    #[error("field {field} ({name}) is '{value}'; expected a whole number{range}")]
    Number {
        /// 1-based field number.
        field: usize,
        /// What the field means.
        name: &'static str,
        /// Text found.
        value: String,
        /// Range text, e.g. " from 1 to 65535".
        range: &'static str,
    },
}

impl Setup {
    /// Reads FEN text with 4 or 6 fields (missing counters read as 0 and 1), for standard
    /// chess. No rule is checked. Castling rights may be written as X-FEN's `KQkq` or as
    /// Shredder-FEN's rook files (`HAha`); standard chess accepts only the a- and h-file rooks
    /// either way.
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        Setup::parse_with(fen, false)
    }

    /// Reads FEN text for Chess960: as [`Setup::parse`], with [`Setup::chess960`] set, so
    /// that `K`/`Q` mean the outermost rook on that side of a king on any file, and file
    /// letters name any rook.
    pub fn parse_chess960(fen: &str) -> Result<Setup, FenError> {
        Setup::parse_with(fen, true)
    }

    fn parse_with(fen: &str, chess960: bool) -> Result<Setup, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if !matches!(fields.len(), 4 | 6) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 8 {
            return Err(FenError::RowCount(rows.len()));
        }
        // Characters before the board field, for error positions.
        let lead = fen.chars().take_while(|c| c.is_whitespace()).count();
        let mut row_start = lead;
        let mut board = [Piece::EMPTY; SQUARE_COUNT];
        for (i, row) in rows.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0usize;
            for (offset, ch) in row.chars().enumerate() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += d as usize;
                } else {
                    let kind = PieceKind::from_upper(ch.to_ascii_uppercase())
                        .filter(|_| ch.is_ascii_alphabetic())
                        .ok_or(FenError::UnknownChar {
                            ch,
                            row: i + 1,
                            rank: rank + 1,
                            column: row_start + offset + 1,
                        })?;
                    let color = if ch.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    if file < 8 {
                        board[Square::new(file as u8, rank).index()] = Piece::new(color, kind);
                    }
                    file += 1;
                }
                if file > 8 {
                    break;
                }
            }
            if file != 8 {
                return Err(FenError::FileCount {
                    row: i + 1,
                    rank: rank + 1,
                    files: file,
                });
            }
            row_start += row.chars().count() + 1;
        }
        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::Side(other.to_string())),
        };
        let mut setup = Setup {
            board,
            side,
            castling: Castling::NONE,
            rook_files: Setup::STANDARD_ROOK_FILES,
            chess960,
            en_passant: None,
            halfmove: 0,
            fullmove: 1,
        };
        parse_castling(fields[2], &mut setup)?;
        let en_passant = match fields[3] {
            "-" => None,
            s => Some(Square::parse(s).ok_or_else(|| FenError::EnPassant(s.to_string()))?),
        };
        let mut halfmove = 0;
        let mut fullmove = 1;
        if fields.len() == 6 {
            halfmove = fields[4].parse::<u16>().map_err(|_| FenError::Number {
                field: 5,
                name: "plies since the last capture or pawn move",
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
        setup.en_passant = en_passant;
        setup.halfmove = halfmove;
        setup.fullmove = fullmove;
        Ok(setup)
    }

    /// Writes FEN (6 fields).
    pub fn to_fen(&self) -> String {
        self.to_string()
    }
}

/// Reads the castling field into `setup` (whose board is already read): `K`/`Q` mean the
/// outermost rook on that side of the king (X-FEN), a file letter means the rook on that file,
/// on the side of the king it stands (Shredder-FEN). Whether the rook and king are really
/// there is the position check's business.
fn parse_castling(s: &str, setup: &mut Setup) -> Result<(), FenError> {
    if s == "-" {
        return Ok(());
    }
    let bad = || FenError::Castling(s.to_string());
    for ch in s.chars() {
        let color = if ch.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let (king_side, file) = match ch.to_ascii_uppercase() {
            'K' => (true, setup.outermost_rook_file(color, true)),
            'Q' => (false, setup.outermost_rook_file(color, false)),
            c @ 'A'..='H' if ch.is_ascii_alphabetic() => {
                let file = c as u8 - b'A';
                (file > setup.king_file(color).unwrap_or(4), file)
            }
            _ => return Err(bad()),
        };
        let bit = Castling::bit(color, king_side);
        if setup.castling.0 & bit != 0 {
            return Err(bad());
        }
        setup.castling.0 |= bit;
        setup.rook_files[color.index()][usize::from(!king_side)] = file;
    }
    Ok(())
}

impl FromStr for Setup {
    type Err = FenError;

    /// Same as [`Setup::parse`].
    fn from_str(s: &str) -> Result<Setup, FenError> {
        Setup::parse(s)
    }
}

impl fmt::Display for Setup {
    /// The FEN text (6 fields).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(90);
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let p = self.board[Square::new(file, rank).index()];
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
        let ep = self
            .en_passant
            .map_or_else(|| "-".to_string(), |sq| sq.to_string());
        write!(
            f,
            "{} {} {} {} {} {}",
            s,
            self.side.fen_char(),
            self.castling_field(),
            ep,
            self.halfmove,
            self.fullmove
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trips() {
        let s = Setup::parse(START_FEN).unwrap();
        assert_eq!(s, Setup::START);
        assert_eq!(s.to_fen(), START_FEN);
    }

    #[test]
    fn errors_say_where() {
        let e =
            Setup::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1").unwrap_err();
        assert_eq!(
            e,
            FenError::UnknownChar {
                ch: 'X',
                row: 8,
                rank: 1,
                column: 43,
            }
        );
        let four = Setup::parse("4k3/8/8/8/8/8/8/4K3 b - -").unwrap();
        assert_eq!((four.halfmove, four.fullmove), (0, 1));
    }
}
