//! Chess PGN: game records written to and read from strings (no I/O here), with moves in
//! SAN, in the same record shape as [`crate::xiangqi::pgn::GameRecord`].
//!
//! ```text
//! [Event "Club match"]
//! [Site "?"]
//! [Date "????.??.??"]
//! [Round "?"]
//! [White "Lu"]
//! [Black "Hu"]
//! [Result "1-0"]
//!
//! 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 {a comment} 4. Qxf7# 1-0
//! ```
//!
//! `[FEN "..."]` (with `[SetUp "1"]`) gives the start position when it is not the standard
//! one. When reading, move numbers, `{comments}`, `;` comments, `(variations)`, `$n` glyphs and
//! `!`/`?` suffixes are skipped; a move that is not SAN is tried as UCI. A file may hold
//! several games, each starting with its tags.

use super::fen::START_FEN;
use super::notation::{MoveError, SanError};
use super::position::{FromFenError, Position};
use super::types::{Color, Move};
use crate::game::Chess;
use crate::text::pgn::{
    read_games, write_movetext, write_other_tags, write_roster, write_tag, PgnGame,
};
use thiserror::Error;

pub use crate::text::pgn::RESULTS;

/// One game: tags (other than `Result`, `FEN` and `SetUp`, which live in the other fields),
/// start position, moves and result (`1-0`: White won).
pub type GameRecord = crate::text::pgn::Record<Chess>;

/// A PGN read error: the 1-based line and what is wrong there.
pub type PgnError = crate::text::pgn::PgnError<Chess>;

/// What is wrong with a PGN record.
pub type PgnErrorKind = crate::text::pgn::PgnErrorKind<Chess>;

/// A `FEN` tag that is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("FEN tag '{fen}': {error}")]
pub struct FenTagError {
    /// The tag's value.
    pub fen: String,
    /// Why it was refused.
    pub error: FromFenError,
}

/// Why a record could not be written.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PgnWriteError {
    /// The result is not a result token.
    #[error("result '{0}' is not 1-0, 0-1, 1/2-1/2 or *")]
    BadResult(String),
    /// The start FEN is not a valid position.
    #[error("start FEN '{fen}': {error}")]
    Fen {
        /// The FEN.
        fen: String,
        /// Why it was refused.
        error: FromFenError,
    },
    /// A move is not legal where it is played.
    #[error("move {index}: {error}")]
    Illegal {
        /// 0-based index in the record's moves.
        index: usize,
        /// The error.
        error: MoveError,
    },
}

/// Whether a `Variant` tag's value names Chess960 (as PGN tools spell it: `Chess960`,
/// `Fischerandom`, `Fischer Random`, any case).
pub fn is_chess960_variant(value: &str) -> bool {
    let v: String = value
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    v == "chess960" || v == "fischerandom" || v == "fischerrandom"
}

/// Whether a record is a Chess960 game (its `Variant` tag says so).
pub fn record_is_chess960(record: &GameRecord) -> bool {
    record.tag("Variant").is_some_and(is_chess960_variant)
}

impl PgnGame for Chess {
    /// Whether the record's `Variant` tag names Chess960: its start is then read with
    /// Chess960's castling rights (X-FEN or Shredder-FEN) and castling moves.
    type Format = bool;
    type StartError = FenTagError;
    type MoveError = SanError;
    const START_FEN: &'static str = START_FEN;
    const MOVERS: [&'static str; 2] = ["for White", "for Black"];
    const FORMATS: &'static str = "SAN";

    fn start(fen: &str, chess960: bool) -> Result<Position, FenTagError> {
        let pos = if chess960 {
            Position::from_fen_chess960(fen)
        } else {
            Position::from_fen(fen)
        };
        pos.map_err(|error| FenTagError {
            fen: fen.to_string(),
            error,
        })
    }

    /// `SetUp` is derived from the `FEN` tag when writing; `Variant` is kept in the record
    /// and, when it names Chess960, chooses how the start is read; any other tag is kept.
    fn read_tag(name: &str, value: &str, chess960: &mut bool) -> Result<bool, PgnErrorKind> {
        if name == "Variant" {
            *chess960 = is_chess960_variant(value);
        }
        Ok(name == "SetUp")
    }

    fn parse_move(pos: &mut Position, text: &str, _: bool) -> Result<Move, SanError> {
        // SAN first; UCI text (`e2e4`) is accepted too, as some tools write it.
        pos.parse_san(text)
            .or_else(|error| pos.parse_uci(text).map_err(|_| error))
    }

    fn turn(pos: &Position) -> (bool, u16) {
        (pos.side_to_move() == Color::Black, pos.fullmove())
    }
}

/// The Seven Tag Roster with the values written when a record lacks them.
const ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
];

/// Writes one game as PGN with its moves in SAN.
///
/// The tag section starts with the Seven Tag Roster (`?` values when absent, `Result` from
/// the record), then the record's other tags in order, then `SetUp` and `FEN` when the start
/// is not the standard one (always, for a Chess960 record: one whose `Variant` tag names it,
/// read and written under Chess960's castling rules). Errors when the start FEN is invalid, a
/// move is illegal, or the result is not a result token.
pub fn write_pgn(record: &GameRecord) -> Result<String, PgnWriteError> {
    if !RESULTS.contains(&record.result.as_str()) {
        return Err(PgnWriteError::BadResult(record.result.clone()));
    }
    let chess960 = record_is_chess960(record);
    let pos = Chess::start(&record.start_fen, chess960).map_err(|e| PgnWriteError::Fen {
        fen: record.start_fen.clone(),
        error: e.error,
    })?;
    let mut out = String::new();
    write_roster(&mut out, record, &ROSTER);
    write_tag(&mut out, "Result", &record.result);
    write_other_tags(&mut out, record, &ROSTER, &["Result", "FEN", "SetUp"]);
    if chess960 || pos.to_fen() != START_FEN {
        write_tag(&mut out, "SetUp", "1");
        write_tag(&mut out, "FEN", &record.start_fen);
    }
    write_movetext::<Chess, _>(&mut out, pos, record, &[], |pos, mv, index| {
        pos.to_san(mv)
            .map_err(|error| PgnWriteError::Illegal { index, error })
    })?;
    Ok(out)
}

/// Reads every game in a PGN text.
///
/// Reading what [`write_pgn`] wrote gives back the same start position, moves and result.
/// Errors name the line and what is wrong there: a malformed tag line, a bad FEN, move text
/// that denotes no legal move, an unterminated comment or variation.
pub fn read_pgn(text: &str) -> Result<Vec<GameRecord>, PgnError> {
    read_games::<Chess>(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_then_read_gives_the_game_back() {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for san in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"] {
            let mv = pos.parse_san(san).unwrap();
            pos.make(mv);
            moves.push(mv);
        }
        let record = GameRecord {
            tags: vec![
                ("White".into(), "Lu \"the fox\"".into()),
                ("Annotator".into(), "x".into()),
            ],
            moves,
            result: "1-0".into(),
            ..GameRecord::default()
        };
        let text = write_pgn(&record).unwrap();
        assert!(
            text.contains("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0"),
            "{text}"
        );
        assert!(text.starts_with("[Event \"?\"]\n[Site \"?\"]"), "{text}");
        let back = read_pgn(&text).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].moves, record.moves);
        assert_eq!(back[0].result, "1-0");
        assert_eq!(back[0].tag("White"), Some("Lu \"the fox\""));
        assert_eq!(back[0].start_fen, START_FEN);
    }

    #[test]
    fn non_standard_start_and_black_first() {
        let fen = "4k3/8/8/8/8/8/4p3/4K3 b - - 0 40";
        let pos = Position::from_fen(fen).unwrap();
        let mv = pos.parse_san("Kd7").unwrap();
        let record = GameRecord {
            start_fen: fen.into(),
            moves: vec![mv],
            ..GameRecord::default()
        };
        let text = write_pgn(&record).unwrap();
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4p3/4K3 b - - 0 40\"]"));
        assert!(text.contains("40... Kd7 *"), "{text}");
        let back = &read_pgn(&text).unwrap()[0];
        assert_eq!(
            (&back.start_fen, &back.moves, &back.result),
            (&record.start_fen, &record.moves, &record.result)
        );
        // The roster comes back with its placeholder values.
        assert_eq!(back.tag("Event"), Some("?"));
    }

    #[test]
    fn reading_skips_comments_variations_and_glyphs_and_names_bad_lines() {
        let text =
            "[Event \"x\"]\n\n1. e4 {best} e5 (1... c5 2. Nf3) 2. Nf3! $1 Nc6 ; rest\n3. d2d3 *\n";
        let games = read_pgn(text).unwrap();
        assert_eq!(games[0].moves.len(), 5);
        let err = read_pgn("[Event \"x\"]\n\n1. e4 e5\n2. Ke3 *\n").unwrap_err();
        assert_eq!(err.line, 4);
        assert!(err.to_string().contains("move 2. for White 'Ke3'"), "{err}");
        let err = read_pgn("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4 *\n").unwrap_err();
        assert_eq!(err.line, 1);
        assert!(matches!(err.kind, PgnErrorKind::BadFen { .. }), "{err}");
        let err = read_pgn("1. e4 {never closed\n").unwrap_err();
        assert_eq!(err.kind, PgnErrorKind::UnterminatedComment);
        let err = read_pgn("[Result \"1-0\"]\n1. e4 0-1\n").unwrap_err();
        assert!(matches!(err.kind, PgnErrorKind::ResultMismatch { .. }));
        assert!(matches!(
            write_pgn(&GameRecord {
                result: "2-0".into(),
                ..GameRecord::default()
            }),
            Err(PgnWriteError::BadResult(_))
        ));
    }

    #[test]
    fn chess960_records_are_read_and_written_under_its_castling() {
        let fen = "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1";
        let mut pos = Position::from_fen_chess960(fen).unwrap();
        let mut moves = Vec::new();
        for san in ["O-O", "O-O-O"] {
            let mv = pos.parse_san(san).unwrap();
            moves.push(mv);
            pos.make(mv);
        }
        let record = GameRecord {
            tags: vec![("Variant".into(), "Chess960".into())],
            start_fen: fen.into(),
            moves,
            result: "*".into(),
        };
        let text = write_pgn(&record).unwrap();
        assert!(
            text.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rk5r/")
                && text.contains("1. O-O O-O-O *"),
            "{text}"
        );
        let back = read_pgn(&text).unwrap();
        assert_eq!(
            (&back[0].start_fen, &back[0].moves, back[0].tag("Variant")),
            (&record.start_fen, &record.moves, Some("Chess960"))
        );
        // The Variant tag is what makes the start a Chess960 one.
        assert!(read_pgn(&text.replace("[Variant \"Chess960\"]\n", "")).is_err());
        assert!(is_chess960_variant("Fischer Random") && !is_chess960_variant("Standard"));
    }
}
