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
use thiserror::Error;

/// The result tokens a record may end with.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// One game: tags, start position, moves and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Tag pairs in order, other than `Result`, `FEN` and `Format` (which live in the fields
    /// below and in the notation chosen when writing).
    pub tags: Vec<(String, String)>,
    /// The start position as FEN ([`START_FEN`] for the standard start).
    pub start_fen: String,
    /// The moves from the start position, all legal in turn.
    pub moves: Vec<Move>,
    /// `1-0` (Red won), `0-1` (Black won), `1/2-1/2` or `*` (unfinished or unknown).
    pub result: String,
}

impl Default for GameRecord {
    /// No tags, the standard start, no moves, result `*`.
    fn default() -> GameRecord {
        GameRecord {
            tags: Vec::new(),
            start_fen: START_FEN.to_string(),
            moves: Vec::new(),
            result: "*".to_string(),
        }
    }
}

impl GameRecord {
    /// The value of the first tag with this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A PGN read error: the 1-based line and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {kind}")]
pub struct PgnError {
    /// 1-based line number in the text.
    pub line: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// What is wrong with a PGN record.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PgnErrorKind {
    /// A line starting with `[` that is not `[Name "value"]`.
    #[error("malformed tag line '{text}': {reason}")]
    BadTag {
        /// The line.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A `FEN` tag that is not a valid position.
    #[error("{0}")]
    BadFen(Box<NotationError>),
    /// A `Format` tag naming no notation we know.
    #[error("unknown Format '{0}'; expected ICCS, WXF, Chinese or UCI")]
    UnknownFormat(String),
    /// A `Result` tag that is not a result.
    #[error("Result tag '{0}' is not 1-0, 0-1, 1/2-1/2 or *")]
    BadResult(String),
    /// A move that cannot be read or is illegal.
    #[error("move {number} {side} '{text}': {error}")]
    BadMove {
        /// The move number as written in PGN (`12.` or `12...`).
        number: String,
        /// `for Red` or `for Black`.
        side: &'static str,
        /// The move text.
        text: String,
        /// Why it was rejected (in the declared notation).
        error: Box<NotationError>,
    },
    /// A `{` comment never closed.
    #[error("comment opened on this line is never closed with '}}'")]
    UnterminatedComment,
    /// A `(` variation never closed.
    #[error("variation opened on this line is never closed with ')'")]
    UnterminatedVariation,
    /// A `)` or `}` with nothing to close.
    #[error("'{0}' closes nothing")]
    Unmatched(char),
    /// Move text after the game's result token.
    #[error("'{0}' follows the result token; a new game must start with its tags")]
    AfterResult(String),
    /// The result token at the end of the moves disagrees with the `Result` tag.
    #[error("result token '{token}' disagrees with the Result tag '{tag}'")]
    ResultMismatch {
        /// The token.
        token: String,
        /// The tag value.
        tag: String,
    },
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

fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                s.push('\\');
                s.push(c);
            }
            '\n' | '\r' => s.push(' '),
            _ => s.push(c),
        }
    }
    s
}

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
    let mut pos = Position::from_fen(&record.start_fen).map_err(|error| NotationError::Fen {
        fen: record.start_fen.clone(),
        error,
    })?;
    let standard_start = pos.to_fen() == START_FEN;
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    const ROSTER: [(&str, &str); 4] = [
        ("Game", "Chinese Chess"),
        ("Event", "?"),
        ("Red", "?"),
        ("Black", "?"),
    ];
    for (name, default) in ROSTER {
        tag(name, record.tag(name).unwrap_or(default));
    }
    for (name, value) in &record.tags {
        let derived = ["Result", "FEN", "Format"].contains(&name.as_str());
        if !derived && !ROSTER.iter().any(|(n, _)| n == name) {
            tag(name, value);
        }
    }
    tag("Result", &record.result);
    if !standard_start {
        tag("FEN", &record.start_fen);
    }
    tag("Format", format_name(notation));
    out.push('\n');

    let mut tokens = Vec::with_capacity(record.moves.len() * 3 / 2 + 1);
    for (i, &mv) in record.moves.iter().enumerate() {
        match pos.side_to_move() {
            Color::Red => tokens.push(format!("{}.", pos.fullmove())),
            Color::Black if i == 0 => tokens.push(format!("{}...", pos.fullmove())),
            Color::Black => {}
        }
        tokens.push(render(&mut pos, mv, notation)?);
        pos.make(mv);
        if let Some(c) = comments.get(i).filter(|c| !c.is_empty()) {
            tokens.push(format!("{{{}}}", c.replace('{', "(").replace('}', ")")));
        }
    }
    tokens.push(record.result.clone());
    let mut width = 0;
    for (i, token) in tokens.iter().enumerate() {
        let len = token.chars().count();
        if i > 0 {
            if width + 1 + len > 80 {
                out.push('\n');
                width = 0;
            } else {
                out.push(' ');
                width += 1;
            }
        }
        out.push_str(token);
        width += len;
    }
    out.push('\n');
    Ok(out)
}

/// Reads every game in a PGN text.
///
/// Reading what [`write_pgn`] wrote gives back the same start position, moves and result.
/// Errors name the line and what is wrong there: a malformed tag line, a bad FEN or Format,
/// move text that denotes no legal move, an unterminated comment or variation.
pub fn read_pgn(text: &str) -> Result<Vec<GameRecord>, PgnError> {
    let mut reader = Reader::default();
    for (i, line) in text.lines().enumerate() {
        reader.line(i + 1, line)?;
    }
    reader.finish()
}

/// One game being read.
#[derive(Default)]
struct Pending {
    tags: Vec<(String, String)>,
    fen: Option<(String, usize)>,
    format: Option<Notation>,
    result_tag: Option<String>,
    /// The position after the moves so far; set up at the first move.
    pos: Option<Position>,
    moves: Vec<Move>,
    result_token: Option<(String, usize)>,
    /// Whether move text (moves or a result token) has been seen.
    in_moves: bool,
    /// Whether anything at all belongs to this game.
    started: bool,
}

impl Pending {
    fn position(&mut self) -> Result<&mut Position, PgnError> {
        if self.pos.is_none() {
            let (fen, line) = self
                .fen
                .clone()
                .unwrap_or_else(|| (START_FEN.to_string(), 0));
            let pos = Position::from_fen(&fen).map_err(|error| PgnError {
                line,
                kind: PgnErrorKind::BadFen(Box::new(NotationError::Fen { fen, error })),
            })?;
            self.pos = Some(pos);
        }
        Ok(self.pos.get_or_insert_with(Position::startpos))
    }

    fn finish(mut self) -> Result<GameRecord, PgnError> {
        self.position()?;
        let result = match (self.result_token, self.result_tag) {
            (Some((token, line)), Some(tag)) if token != tag && token != "*" && tag != "*" => {
                return Err(PgnError {
                    line,
                    kind: PgnErrorKind::ResultMismatch { token, tag },
                })
            }
            (Some((token, _)), Some(tag)) if token == "*" => tag,
            (Some((token, _)), _) => token,
            (None, Some(tag)) => tag,
            (None, None) => "*".to_string(),
        };
        Ok(GameRecord {
            tags: self.tags,
            start_fen: self
                .fen
                .map(|(f, _)| f)
                .unwrap_or_else(|| START_FEN.to_string()),
            moves: self.moves,
            result,
        })
    }
}

#[derive(Default)]
struct Reader {
    games: Vec<GameRecord>,
    game: Pending,
    /// Line where the open `{` comment started.
    comment_from: Option<usize>,
    /// Open `(` variations and the line of the outermost one.
    variation_depth: usize,
    variation_from: usize,
}

impl Reader {
    fn line(&mut self, number: usize, line: &str) -> Result<(), PgnError> {
        let trimmed = line.trim();
        let free = self.comment_from.is_none() && self.variation_depth == 0;
        if free && trimmed.starts_with('[') {
            if self.game.in_moves {
                let done = std::mem::take(&mut self.game);
                self.games.push(done.finish()?);
            }
            return self.tag(number, trimmed);
        }
        if free && trimmed.starts_with('%') {
            return Ok(());
        }
        let mut token = String::new();
        for c in line.chars() {
            if self.comment_from.is_some() {
                if c == '}' {
                    self.comment_from = None;
                }
                continue;
            }
            let delimiter = c.is_whitespace() || matches!(c, '{' | '}' | ';' | '(' | ')');
            if !delimiter {
                token.push(c);
                continue;
            }
            self.token(number, &std::mem::take(&mut token))?;
            match c {
                '{' => self.comment_from = Some(number),
                ';' => break,
                '(' => {
                    if self.variation_depth == 0 {
                        self.variation_from = number;
                    }
                    self.variation_depth += 1;
                }
                ')' | '}' if c == '}' || self.variation_depth == 0 => {
                    return Err(PgnError {
                        line: number,
                        kind: PgnErrorKind::Unmatched(c),
                    })
                }
                ')' => self.variation_depth -= 1,
                _ => {}
            }
        }
        self.token(number, &token)
    }

    fn tag(&mut self, number: usize, text: &str) -> Result<(), PgnError> {
        let bad = |reason| PgnError {
            line: number,
            kind: PgnErrorKind::BadTag {
                text: text.to_string(),
                reason,
            },
        };
        let inner = text
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
            .ok_or_else(|| bad("expected [Name \"value\"] ending with ]"))?
            .trim();
        let name_end = inner
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inner.len());
        let name = &inner[..name_end];
        if name.is_empty() {
            return Err(bad("the tag has no name"));
        }
        let rest = inner[name_end..].trim_start();
        let quoted = rest
            .strip_prefix('"')
            .ok_or_else(|| bad("the value must be in double quotes"))?;
        let mut value = String::new();
        let mut chars = quoted.chars();
        let mut closed = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(e) => value.push(e),
                    None => return Err(bad("the value ends in a lone backslash")),
                },
                '"' => {
                    closed = true;
                    break;
                }
                _ => value.push(c),
            }
        }
        if !closed {
            return Err(bad("the value's closing quote is missing"));
        }
        if !chars.as_str().trim().is_empty() {
            return Err(bad("unexpected text after the value"));
        }
        let game = &mut self.game;
        game.started = true;
        match name {
            "FEN" => game.fen = Some((value.trim().to_string(), number)),
            "Format" => {
                let notation = format_from_name(&value).ok_or(PgnError {
                    line: number,
                    kind: PgnErrorKind::UnknownFormat(value),
                })?;
                game.format = Some(notation);
            }
            "Result" => {
                if !RESULTS.contains(&value.as_str()) {
                    return Err(PgnError {
                        line: number,
                        kind: PgnErrorKind::BadResult(value),
                    });
                }
                game.result_tag = Some(value);
            }
            _ => game.tags.push((name.to_string(), value)),
        }
        Ok(())
    }

    fn token(&mut self, number: usize, token: &str) -> Result<(), PgnError> {
        if token.is_empty() || self.variation_depth > 0 || token.starts_with('$') {
            return Ok(());
        }
        let game = &mut self.game;
        game.started = true;
        if game.result_token.is_some() {
            return Err(PgnError {
                line: number,
                kind: PgnErrorKind::AfterResult(token.to_string()),
            });
        }
        game.in_moves = true;
        if RESULTS.contains(&token) {
            game.result_token = Some((token.to_string(), number));
            return Ok(());
        }
        let Some(text) = strip_move_number(token) else {
            return Ok(());
        };
        let text = text.trim_end_matches(['!', '?']);
        if text.is_empty() {
            return Ok(());
        }
        let notation = game.format.unwrap_or(Notation::Iccs);
        let pos = game.position()?;
        let mv = match parse(pos, text, notation) {
            Ok(mv) => mv,
            Err(error) => parse_any(pos, text).map_err(|other| {
                // Text that is not move text in the declared notation but reads as a move in
                // another: what is wrong is the move (illegal, ambiguous), not its syntax.
                let error = match (&error, &other) {
                    (NotationError::Syntax { .. }, NotationError::NoSuchMove { .. })
                    | (NotationError::Syntax { .. }, NotationError::Ambiguous { .. }) => other,
                    _ => error,
                };
                let black = pos.side_to_move() == Color::Black;
                PgnError {
                    line: number,
                    kind: PgnErrorKind::BadMove {
                        number: format!("{}{}", pos.fullmove(), if black { "..." } else { "." }),
                        side: if black { "for Black" } else { "for Red" },
                        text: text.to_string(),
                        error: Box::new(error),
                    },
                }
            })?,
        };
        pos.make(mv);
        game.moves.push(mv);
        Ok(())
    }

    fn finish(mut self) -> Result<Vec<GameRecord>, PgnError> {
        if let Some(line) = self.comment_from {
            return Err(PgnError {
                line,
                kind: PgnErrorKind::UnterminatedComment,
            });
        }
        if self.variation_depth > 0 {
            return Err(PgnError {
                line: self.variation_from,
                kind: PgnErrorKind::UnterminatedVariation,
            });
        }
        if self.game.started {
            let last = std::mem::take(&mut self.game);
            self.games.push(last.finish()?);
        }
        Ok(self.games)
    }
}

/// Strips a leading move number (`12.`, `12...`) from a token; `None` when the token is only a
/// number. A digit right after the dots means the token is a move (WXF `33.4`), not a number.
fn strip_move_number(token: &str) -> Option<&str> {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return Some(token);
    }
    let after_digits = &token[digits..];
    let rest = after_digits.trim_start_matches('.');
    if rest.len() == after_digits.len() {
        return Some(token);
    }
    if rest.is_empty() {
        return None;
    }
    if rest.starts_with(|c: char| c.is_ascii_digit()) {
        Some(token)
    } else {
        Some(rest)
    }
}
