//! Xiangqi PGN: game records written to and read from strings (no I/O here).
//!
//! A record is a tag section followed by move text:
//!
//! ```text
//! [Game "Chinese Chess"]
//! [Event "Club match"]
//! [Red "Lu"]
//! [Black "Hu"]
//! [Result "1-0"]
//! [Format "WXF"]
//!
//! 1. C2.5 H8+7 2. H2+3 R9.8 {a comment} 1-0
//! ```
//!
//! `[FEN "..."]` gives the start position when it is not the standard one; `[Format "..."]`
//! names the move notation (`ICCS`, `WXF`, `Chinese`, or `UCI`; absent means ICCS). When
//! reading, move numbers, `{comments}`, `;` comments, `(variations)`, `$n` glyphs and `!`/`?`
//! suffixes are skipped; a move that does not read in the declared notation is tried in the
//! others. A file may hold several games, each starting with its tags.

use super::fen::START_FEN;
use super::notation::{parse, parse_any, render, Notation, NotationError};
use super::position::Position;
use super::types::{Color, Move};
use crate::game::Xiangqi;
use crate::text::pgn::{
    read_games, write_movetext, write_other_tags, write_roster, write_tag, PgnGame,
};

pub use crate::text::pgn::RESULTS;

/// One game: tags (other than `Result`, `FEN` and `Format`, which live in the other fields
/// and in the notation chosen when writing), start position, moves and result (`1-0`: Red
/// won).
pub type GameRecord = crate::text::pgn::Record<Xiangqi>;

/// A PGN read error: the 1-based line and what is wrong there.
pub type PgnError = crate::text::pgn::PgnError<Xiangqi>;

/// What is wrong with a PGN record.
pub type PgnErrorKind = crate::text::pgn::PgnErrorKind<Xiangqi>;

impl PgnGame for Xiangqi {
    /// The notation a `Format` tag names (ICCS when there is none).
    type Format = Option<Notation>;
    type StartError = NotationError;
    type MoveError = NotationError;
    const START_FEN: &'static str = START_FEN;
    const MOVERS: [&'static str; 2] = ["for Red", "for Black"];
    const FORMATS: &'static str = "ICCS, WXF, Chinese or UCI";

    fn start(fen: &str, _: Option<Notation>) -> Result<Position, NotationError> {
        Position::from_fen(fen).map_err(|error| NotationError::Fen {
            fen: fen.to_string(),
            error,
        })
    }

    fn read_tag(
        name: &str,
        value: &str,
        format: &mut Option<Notation>,
    ) -> Result<bool, PgnErrorKind> {
        if name != "Format" {
            return Ok(false);
        }
        *format =
            Some(format_from_name(value).ok_or_else(|| PgnErrorKind::UnknownFormat(value.into()))?);
        Ok(true)
    }

    fn parse_move(
        pos: &mut Position,
        text: &str,
        format: Option<Notation>,
    ) -> Result<Move, NotationError> {
        parse(pos, text, format.unwrap_or(Notation::Iccs)).or_else(|error| {
            parse_any(pos, text).map_err(|other| match (&error, &other) {
                // Text that is not move text in the declared notation but reads as a move in
                // another: what is wrong is the move (illegal, ambiguous), not its syntax.
                (NotationError::Syntax { .. }, NotationError::NoSuchMove { .. })
                | (NotationError::Syntax { .. }, NotationError::Ambiguous { .. }) => other,
                _ => error,
            })
        })
    }

    fn turn(pos: &Position) -> (bool, u16) {
        (pos.side_to_move() == Color::Black, pos.fullmove())
    }
}

fn format_name(notation: Notation) -> &'static str {
    match notation {
        Notation::Uci => "UCI",
        Notation::Iccs => "ICCS",
        Notation::Wxf => "WXF",
        Notation::Chinese => "Chinese",
    }
}

fn format_from_name(name: &str) -> Option<Notation> {
    Notation::ALL
        .into_iter()
        .find(|&n| format_name(n).eq_ignore_ascii_case(name.trim()))
}

/// The tags every record starts with, and the values written when a record lacks them.
const ROSTER: [(&str, &str); 4] = [
    ("Game", "Chinese Chess"),
    ("Event", "?"),
    ("Red", "?"),
    ("Black", "?"),
];

/// Writes one game as PGN with its moves in `notation`.
///
/// The tag section starts with `Game` (`Chinese Chess` unless the record says otherwise),
/// `Event`, `Red` and `Black` (`?` when absent), then the record's other tags in order, then
/// `Result`, `FEN` (only when the start is not the standard one) and `Format`. Errors when the
/// start FEN is invalid, a move is illegal, or the result is not a result token.
pub fn write_pgn(record: &GameRecord, notation: Notation) -> Result<String, NotationError> {
    write_pgn_annotated(record, notation, &[])
}

/// Writes one game as [`write_pgn`] does, with `comments[i]` as a `{comment}` after move `i`
/// (an empty or missing entry writes none; `{` and `}` in a comment are written `(` and `)` so
/// the comment stays one comment).
pub fn write_pgn_annotated(
    record: &GameRecord,
    notation: Notation,
    comments: &[String],
) -> Result<String, NotationError> {
    if !RESULTS.contains(&record.result.as_str()) {
        return Err(NotationError::BadResult(record.result.clone()));
    }
    let pos = Xiangqi::start(&record.start_fen, None)?;
    let mut out = String::new();
    write_roster(&mut out, record, &ROSTER);
    write_other_tags(&mut out, record, &ROSTER, &["Result", "FEN", "Format"]);
    write_tag(&mut out, "Result", &record.result);
    if pos.to_fen() != START_FEN {
        write_tag(&mut out, "FEN", &record.start_fen);
    }
    write_tag(&mut out, "Format", format_name(notation));
    write_movetext::<Xiangqi, _>(&mut out, pos, record, comments, |pos, mv, _| {
        render(pos, mv, notation)
    })?;
    Ok(out)
}

/// Reads every game in a PGN text.
///
/// Reading what [`write_pgn`] wrote gives back the same start position, moves and result.
/// Errors name the line and what is wrong there: a malformed tag line, a bad FEN or Format,
/// move text that denotes no legal move, an unterminated comment or variation.
pub fn read_pgn(text: &str) -> Result<Vec<GameRecord>, PgnError> {
    read_games::<Xiangqi>(text)
}
