//! FEN reading and writing both games share: splitting and counting the fields, the board
//! rows (digits for empty points, letters for pieces, every error placed by row, rank and
//! character), the side to move, the two counters, and the error variants that name all
//! these (`fen_error!` declares a game's error enum with them). The fields only one game
//! has (chess castling and en passant, the xiangqi `-` placeholders) stay with that game.
//! Nothing here panics on any input.

/// What can be wrong with the parts of a FEN both games have; each game's error enum (from
/// `fen_error!`) has a variant of the same name for each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Common {
    Empty,
    FieldCount(usize),
    RowCount(usize),
    FileCount {
        row: usize,
        rank: u8,
        files: usize,
    },
    UnknownChar {
        ch: char,
        row: usize,
        rank: u8,
        column: usize,
    },
    Side(String),
    Number {
        field: usize,
        name: &'static str,
        value: String,
        range: &'static str,
    },
}

/// Declares a game's FEN error enum `FenError`: the variants every FEN has (their messages
/// filled in with the game's field counts, board size and side names), then the game's own
/// variants, and the conversion from `Common`.
macro_rules! fen_error {
    (
        $(#[$meta:meta])*
        fields: $fields:literal, rows: $rows:literal, files: $files:literal, sides: $sides:literal,
        rank: $rank_doc:literal;
        $($own:tt)*
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
        pub enum FenError {
            /// The text is empty.
            #[error("empty FEN")]
            Empty,
            /// Wrong number of space-separated fields.
            #[error("FEN has {0} fields; expected {expected}", expected = $fields)]
            FieldCount(usize),
            /// The board field does not have as many rows as the board.
            #[error("board has {0} rows separated by '/'; expected {expected}", expected = $rows)]
            RowCount(usize),
            /// A row does not cover the board's width.
            #[error("row {row} (rank {rank}) covers {files} files; expected {expected}", expected = $files)]
            FileCount {
                /// 1-based row number in the FEN (row 1 is the top rank).
                row: usize,
                #[doc = $rank_doc]
                rank: u8,
                /// Files the row covered.
                files: usize,
            },
            /// A character that is neither a piece letter nor a digit from 1 to the width.
            #[error("unknown character '{ch}' in row {row} (rank {rank}), character {column} of the FEN")]
            UnknownChar {
                /// The character.
                ch: char,
                /// 1-based row number.
                row: usize,
                #[doc = $rank_doc]
                rank: u8,
                /// 1-based character position in the whole text.
                column: usize,
            },
            /// The side-to-move field is not `w` or `b`.
            #[error("side to move '{0}' (field 2) is not {expected}", expected = $sides)]
            Side(String),
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
            $($own)*
        }

        impl From<$crate::text::fen::Common> for FenError {
            fn from(common: $crate::text::fen::Common) -> FenError {
                use $crate::text::fen::Common as C;
                match common {
                    C::Empty => FenError::Empty,
                    C::FieldCount(n) => FenError::FieldCount(n),
                    C::RowCount(n) => FenError::RowCount(n),
                    C::FileCount { row, rank, files } => FenError::FileCount { row, rank, files },
                    C::UnknownChar { ch, row, rank, column } => {
                        FenError::UnknownChar { ch, row, rank, column }
                    }
                    C::Side(s) => FenError::Side(s),
                    C::Number { field, name, value, range } => {
                        FenError::Number { field, name, value, range }
                    }
                }
            }
        }
    };
}
pub(crate) use fen_error;

/// The board's shape as FEN writes it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Board {
    /// Files (columns), at most 9.
    pub files: u8,
    /// Ranks (rows of the FEN), 0-based from the bottom.
    pub ranks: u8,
    /// The rank error messages give the top row: its 0-based number for xiangqi (9), its
    /// 1-based one for chess (8).
    pub top_rank_name: u8,
}

/// The whitespace-separated fields of `fen`, when there are `counts` of them.
pub(crate) fn fields<'a>(fen: &'a str, counts: &[usize]) -> Result<Vec<&'a str>, Common> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(Common::Empty);
    }
    if !counts.contains(&fields.len()) {
        return Err(Common::FieldCount(fields.len()));
    }
    Ok(fields)
}

impl Board {
    /// Reads the board field (the first of `fen`, whose text gives error columns): each
    /// letter that `kind` (given it in upper case) knows is handed to `put` with its file,
    /// 0-based rank and whether it is upper case (the first side's).
    pub(crate) fn read<K>(
        self,
        fen: &str,
        field: &str,
        kind: impl Fn(char) -> Option<K>,
        mut put: impl FnMut(u8, u8, K, bool),
    ) -> Result<(), Common> {
        let rows: Vec<&str> = field.split('/').collect();
        if rows.len() != usize::from(self.ranks) {
            return Err(Common::RowCount(rows.len()));
        }
        let width = usize::from(self.files);
        // Characters before the board field, for error positions.
        let mut row_start = fen.chars().take_while(|c| c.is_whitespace()).count();
        for (i, row) in rows.iter().enumerate() {
            let rank = self.ranks - 1 - i as u8;
            let rank_name = self.top_rank_name - i as u8;
            let mut file = 0usize;
            for (offset, ch) in row.chars().enumerate() {
                if let Some(d) = ch.to_digit(10).filter(|&d| d >= 1 && d as usize <= width) {
                    file += d as usize;
                } else {
                    let k = kind(ch.to_ascii_uppercase())
                        .filter(|_| ch.is_ascii_alphabetic())
                        .ok_or(Common::UnknownChar {
                            ch,
                            row: i + 1,
                            rank: rank_name,
                            column: row_start + offset + 1,
                        })?;
                    if file < width {
                        put(file as u8, rank, k, ch.is_ascii_uppercase());
                    }
                    file += 1;
                }
                if file > width {
                    break;
                }
            }
            if file != width {
                return Err(Common::FileCount {
                    row: i + 1,
                    rank: rank_name,
                    files: file,
                });
            }
            // The row and its '/'.
            row_start += row.chars().count() + 1;
        }
        Ok(())
    }

    /// Writes the board field: `at(file, rank)` is the letter on a point, `None` when empty.
    pub(crate) fn write(self, at: impl Fn(u8, u8) -> Option<char>) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..self.ranks).rev() {
            let mut empty = 0;
            for file in 0..self.files {
                match at(file, rank) {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(c);
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }
}

/// Whether field 2 (`w` or `b`) gives the move to the second side (`b`).
pub(crate) fn second_to_move(field: &str) -> Result<bool, Common> {
    match field {
        "w" => Ok(false),
        "b" => Ok(true),
        other => Err(Common::Side(other.to_string())),
    }
}

/// Fields 5 and 6, the plies since the clock was reset (`quiet`, what resets it) and the
/// move number, when the FEN has six fields; 0 and 1 when it has fewer.
pub(crate) fn counters(fields: &[&str], quiet: &'static str) -> Result<(u16, u16), Common> {
    if fields.len() < 6 {
        return Ok((0, 1));
    }
    let plies = fields[4].parse::<u16>().map_err(|_| Common::Number {
        field: 5,
        name: quiet,
        value: fields[4].to_string(),
        range: " from 0 to 65535",
    })?;
    let fullmove = fields[5]
        .parse::<u16>()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| Common::Number {
            field: 6,
            name: "move number",
            value: fields[5].to_string(),
            range: " from 1 to 65535",
        })?;
    Ok((plies, fullmove))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Board = Board {
        files: 3,
        ranks: 2,
        top_rank_name: 2,
    };

    /// Reads a board of `SMALL`'s shape whose pieces are `X` and `x`, and writes it back.
    fn round_trip(field: &str) -> Result<String, Common> {
        let mut points = [[None; 3]; 2];
        SMALL.read(
            field,
            field,
            |c| (c == 'X').then_some(()),
            |file, rank, (), upper| {
                points[usize::from(rank)][usize::from(file)] = Some(if upper { 'X' } else { 'x' })
            },
        )?;
        Ok(SMALL.write(|file, rank| points[usize::from(rank)][usize::from(file)]))
    }

    #[test]
    fn board_rows_read_back_and_errors_place_the_character() {
        assert_eq!(round_trip("X2/1x1").unwrap(), "X2/1x1");
        assert_eq!(round_trip("3/xxX").unwrap(), "3/xxX");
        assert_eq!(
            round_trip("X2/1y1"),
            Err(Common::UnknownChar {
                ch: 'y',
                row: 2,
                rank: 1,
                column: 5
            })
        );
        // A digit wider than the board is not a count of empty points.
        assert!(matches!(
            round_trip("4/3"),
            Err(Common::UnknownChar { ch: '4', .. })
        ));
        assert_eq!(
            round_trip("X1/3"),
            Err(Common::FileCount {
                row: 1,
                rank: 2,
                files: 2
            })
        );
        assert_eq!(
            round_trip("X2xx/3").unwrap_err(),
            Common::FileCount {
                row: 1,
                rank: 2,
                files: 4
            }
        );
        assert_eq!(round_trip("3/3/3"), Err(Common::RowCount(3)));
    }

    #[test]
    fn fields_side_and_counters() {
        assert_eq!(fields("  ", &[2]), Err(Common::Empty));
        assert_eq!(fields("a b c", &[2, 4]), Err(Common::FieldCount(3)));
        assert_eq!(fields(" a  b ", &[2]).unwrap(), ["a", "b"]);
        assert_eq!(second_to_move("b"), Ok(true));
        assert_eq!(second_to_move("w"), Ok(false));
        assert_eq!(second_to_move("B"), Err(Common::Side("B".into())));
        assert_eq!(counters(&["x", "w", "-", "-"], "q"), Ok((0, 1)));
        assert_eq!(counters(&["x", "w", "-", "-", "7", "30"], "q"), Ok((7, 30)));
        assert!(matches!(
            counters(&["x", "w", "-", "-", "-1", "30"], "q"),
            Err(Common::Number {
                field: 5,
                name: "q",
                ..
            })
        ));
        assert!(matches!(
            counters(&["x", "w", "-", "-", "0", "0"], "q"),
            Err(Common::Number { field: 6, .. })
        ));
    }
}
