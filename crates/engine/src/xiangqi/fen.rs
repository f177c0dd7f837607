//! FEN text: read it into a [`Setup`] and write a setup back. [`FenError`] says why text is
//! not FEN; whether the setup is a legal position is [`super::setup::PositionError`]'s
//! business. Nothing here panics on any input.

use super::setup::Setup;
use super::types::{Color, Piece, PieceKind, Square, SQUARE_COUNT};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why text is not FEN. Every variant says where in the text the problem is.
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
    #[error("unknown character '{ch}' in row {row} (rank {rank}), character {column} of the FEN")]
    UnknownChar {
        /// The character.
        ch: char,
        /// 1-based row number.
        row: usize,
        /// The rank that row describes.
        rank: u8,
        /// 1-based character position in the whole text.
        column: usize,
    },
    /// The side-to-move field is not `w` or `b`.
    #[error("side to move '{0}' (field 2) is not 'w' (Red) or 'b' (Black)")]
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
}

impl Setup {
    /// Reads FEN text. Accepts `B`/`E` for elephants and `N`/`H` for horses, 2, 4 or 6 fields
    /// (missing counters read as 0 and 1). No rule is checked.
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
        // Characters before the board field, for error positions.
        let lead = fen.chars().take_while(|c| c.is_whitespace()).count();
        let mut row_start = lead;
        let mut board = [Piece::EMPTY; SQUARE_COUNT];
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            for (offset, ch) in row.chars().enumerate() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else {
                    let kind = PieceKind::from_fen_upper(ch.to_ascii_uppercase())
                        .filter(|_| ch.is_ascii_alphabetic())
                        .ok_or(FenError::UnknownChar {
                            ch,
                            row: i + 1,
                            rank,
                            column: row_start + offset + 1,
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
            // The row and its '/'.
            row_start += row.chars().count() + 1;
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

    /// Writes FEN (6 fields, `w`/`b` for the side to move).
    pub fn to_fen(&self) -> String {
        self.to_string()
    }
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
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
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
        write!(
            f,
            "{} {} - - {} {}",
            s,
            self.side.fen_char(),
            self.quiet_plies,
            self.fullmove
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::position::{FromFenError, Position};

    #[test]
    fn errors_say_where() {
        let e = Setup::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5Q1/9/RNBAKABNR w")
            .unwrap_err();
        assert_eq!(
            e,
            FenError::UnknownChar {
                ch: 'Q',
                row: 8,
                rank: 2,
                column: 46,
            }
        );
        assert_eq!(
            e.to_string(),
            "unknown character 'Q' in row 8 (rank 2), character 46 of the FEN"
        );
        // Leading blanks count.
        let e = Setup::parse("  x8/9/9/9/9/9/9/9/9/9 w").unwrap_err();
        assert!(
            matches!(e, FenError::UnknownChar { column: 3, .. }),
            "{e:?}"
        );
        assert_eq!(
            Setup::parse("9/9/9/9/9/9/9/9/9/9 r")
                .unwrap_err()
                .to_string(),
            "side to move 'r' (field 2) is not 'w' (Red) or 'b' (Black)"
        );
        assert_eq!(
            Setup::parse("9/9 w").unwrap_err().to_string(),
            "board has 2 rows separated by '/'; expected 10"
        );
    }

    #[test]
    fn short_forms_default_the_counters() {
        let two = Setup::parse("4k4/9/9/9/9/9/9/9/9/3K5 b").unwrap();
        let four = Setup::parse("4k4/9/9/9/9/9/9/9/9/3K5 b - -").unwrap();
        assert_eq!(two, four);
        assert_eq!((two.quiet_plies, two.fullmove), (0, 1));
        assert_eq!(two.to_fen(), "4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1");
        assert_eq!(two.to_fen().parse::<Setup>(), Ok(two));
    }

    #[test]
    fn syntax_is_checked_but_rules_are_not() {
        // No generals at all is well-formed FEN.
        assert!(Setup::parse("9/9/9/9/9/9/9/9/9/9 w - - 0 1").is_ok());
    }

    /// The text is refused as FEN, by `Setup::parse` and so by `Position::from_fen`, with a
    /// message that mentions `needle`.
    fn rejected(fen: &str, needle: &str) {
        match Setup::parse(fen) {
            Ok(_) => panic!("accepted {fen}"),
            Err(e) => assert!(
                e.to_string().contains(needle),
                "{fen}: message '{e}' does not mention '{needle}'"
            ),
        }
        match Position::from_fen(fen) {
            Err(FromFenError::Syntax(e)) => assert!(e.to_string().contains(needle), "{e}"),
            other => panic!("{fen}: {other:?}"),
        }
    }

    #[test]
    fn fen_rejection_wrong_row_count() {
        rejected(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "9 rows",
        );
    }

    #[test]
    fn fen_rejection_wrong_file_count() {
        rejected(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C2/9/RNBAKABNR w - - 0 1",
            "10 files",
        );
        rejected(
            "rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "8 files",
        );
    }

    #[test]
    fn fen_rejection_unknown_letter() {
        rejected(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5Q1/9/RNBAKABNR w - - 0 1",
            "'Q'",
        );
        rejected(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/0RNBAKABNR/9 w - - 0 1",
            "'0'",
        );
    }

    #[test]
    fn fen_rejection_bad_fields() {
        rejected(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1",
            "side to move 'x'",
        );
        rejected(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
            "field 5",
        );
        rejected(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0",
            "field 6",
        );
        rejected(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ - 0 1",
            "field 3",
        );
        rejected(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0",
            "5 fields",
        );
        rejected("", "empty");
    }
}
