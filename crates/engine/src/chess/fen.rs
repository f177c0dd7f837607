//! FEN text: read it into a [`Setup`] and write a setup back. [`FenError`] says why text is
//! not FEN; whether the setup is a legal position is [`super::setup::PositionError`]'s
//! business. Nothing here panics on any input.

use super::setup::Setup;
use super::types::{Castling, Color, Piece, PieceKind, Square, SQUARE_COUNT};
use crate::text::fen::{counters, fen_error, fields, second_to_move, Board};
use std::fmt;
use std::str::FromStr;

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The board as FEN writes it: 8 rows of 8 files; error messages number the ranks 8 to 1.
const BOARD: Board = Board {
    files: 8,
    ranks: 8,
    top_rank_name: 8,
};

fen_error! {
    /// Why text is not FEN. Every variant says where in the text the problem is.
    fields: "4 or 6 (board, side, castling, en passant[, halfmove, move])",
    rows: 8,
    files: 8,
    sides: "'w' or 'b'",
    rank: "The rank that row describes (1..=8).";
    /// The castling field is not `-` or letters of `KQkq` (X-FEN) and file letters `A`–`H`,
    /// `a`–`h` (Shredder-FEN), at most one per side of each king.
    #[error(
        "castling rights '{0}' (field 3) are not '-' or letters of 'KQkq' or files 'A'-'H', 'a'-'h', one a side of each king"
    )]
    Castling(String),
    /// The en-passant field is not `-` or a square.
    #[error("en-passant square '{0}' (field 4) is not '-' or a square a1–h8")]
    EnPassant(String),
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
        let fields = fields(fen, &[4, 6])?;
        let mut board = [Piece::EMPTY; SQUARE_COUNT];
        BOARD.read(
            fen,
            fields[0],
            PieceKind::from_upper,
            |file, rank, kind, white| {
                let color = if white { Color::White } else { Color::Black };
                board[Square::new(file, rank).index()] = Piece::new(color, kind);
            },
        )?;
        let side = if second_to_move(fields[1])? {
            Color::Black
        } else {
            Color::White
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
        setup.en_passant = match fields[3] {
            "-" => None,
            s => Some(Square::parse(s).ok_or_else(|| FenError::EnPassant(s.to_string()))?),
        };
        (setup.halfmove, setup.fullmove) =
            counters(&fields, "plies since the last capture or pawn move")?;
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
        let board = BOARD.write(|file, rank| {
            let p = self.board[Square::new(file, rank).index()];
            (!p.is_empty()).then(|| p.fen_char())
        });
        let ep = self
            .en_passant
            .map_or_else(|| "-".to_string(), |sq| sq.to_string());
        write!(
            f,
            "{} {} {} {} {} {}",
            board,
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
