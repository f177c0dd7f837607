//! FEN text: read it into a [`Setup`] and write a setup back. [`FenError`] says why text is
//! not FEN; whether the setup is a legal position is [`super::setup::PositionError`]'s
//! business. Nothing here panics on any input.

use super::setup::Setup;
use super::types::{Color, Piece, PieceKind, Square, SQUARE_COUNT};
use crate::text::fen::{counters, fen_error, fields, second_to_move, Board};
use std::fmt;
use std::str::FromStr;

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The board as FEN writes it: 10 rows of 9 files; error messages number the ranks 9 to 0.
const BOARD: Board = Board {
    files: 9,
    ranks: 10,
    top_rank_name: 9,
};

fen_error! {
    /// Why text is not FEN. Every variant says where in the text the problem is.
    fields: "2, 4 or 6 (board, side[, -, -[, plies, move]])",
    rows: 10,
    files: 9,
    sides: "'w' (Red) or 'b' (Black)",
    rank: "The rank that row describes (0..=9).";
    /// Fields 3 or 4 are not `-`.
    #[error("field {field} is '{value}'; xiangqi FEN has '-' there")]
    Placeholder {
        /// 1-based field number.
        field: usize,
        /// Text found.
        value: String,
    },
}

impl Setup {
    /// Reads FEN text. Accepts `B`/`E` for elephants and `N`/`H` for horses, 2, 4 or 6 fields
    /// (missing counters read as 0 and 1). No rule is checked.
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        let fields = fields(fen, &[2, 4, 6])?;
        let mut board = [Piece::EMPTY; SQUARE_COUNT];
        BOARD.read(
            fen,
            fields[0],
            PieceKind::from_fen_upper,
            |file, rank, kind, red| {
                let color = if red { Color::Red } else { Color::Black };
                board[Square::new(file, rank).index()] = Piece::new(color, kind);
            },
        )?;
        let side = if second_to_move(fields[1])? {
            Color::Black
        } else {
            Color::Red
        };
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
        let (quiet_plies, fullmove) = counters(&fields, "plies since the last capture")?;
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
        let board = BOARD.write(|file, rank| {
            let p = self.board[Square::new(file, rank).index()];
            (!p.is_empty()).then(|| p.fen_char())
        });
        write!(
            f,
            "{} {} - - {} {}",
            board,
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
