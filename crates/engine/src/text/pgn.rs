//! PGN for both games, with no I/O: the [`Lexer`] (tag pairs and their escapes, `{comments}`,
//! `;` comments, `(variations)`, `$n` glyphs, move numbers, `!`/`?` suffixes, result tokens,
//! `%` escape lines), the reader of a whole text ([`read_games`]) and the game-independent
//! part of writing a record (tag lines, move numbers, comments, lines of at most 80 columns).
//!
//! A game plugs in through [`PgnGame`]: its start position, how a `FEN` tag becomes a
//! position, its own tags, and its move text (xiangqi: ICCS, WXF, Chinese or UCI; chess: SAN,
//! or UCI). `crate::xiangqi::pgn` and `crate::chess::pgn` are thin layers over this module.
//!
//! Reading rules, the same for both games:
//! - A line that starts with `[` outside a comment or variation is a tag pair,
//!   `[Name "value"]` with `\"` and `\\` escaped in the value; after move text it starts a new
//!   game.
//! - A line that starts with `%` outside a comment or variation is an escape line and is
//!   skipped.
//! - `{...}` comments may span lines and end at the first `}`; `;` comments end the line.
//!   Braces inside a tag value are part of the value.
//! - `(...)` variations nest and are skipped; `$n` glyphs are skipped.
//! - Move numbers (`12.`, `12...`, also glued to the move: `12.e4`) and `!`/`?` suffixes are
//!   dropped; a digit right after the dots means the token is a move (WXF `33.4`).
//! - A result token (`1-0`, `0-1`, `1/2-1/2`, `*`) ends the game's moves and must agree with
//!   its `Result` tag; a game with neither has result `*`.

use crate::game::Rules;
use std::fmt::{Debug, Display};
use thiserror::Error;

/// The result tokens a record may end with.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// One game: tags, start position, moves and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record<G: PgnGame> {
    /// Tag pairs in order, other than `Result`, `FEN` and the tags the game derives when
    /// writing (xiangqi `Format`, chess `SetUp`), which live in the fields below.
    pub tags: Vec<(String, String)>,
    /// The start position as FEN (the game's standard start when the record has none).
    pub start_fen: String,
    /// The moves from the start position, all legal in turn.
    pub moves: Vec<G::Move>,
    /// `1-0` (the side that moves first won), `0-1` (the other side won), `1/2-1/2` or `*`
    /// (unfinished or unknown).
    pub result: String,
}

impl<G: PgnGame> Default for Record<G> {
    /// No tags, the game's standard start, no moves, result `*`.
    fn default() -> Record<G> {
        Record::starting_at(G::START_FEN)
    }
}

impl<G: PgnGame> Record<G> {
    /// No tags, the start position `start_fen`, no moves, result `*`.
    pub fn starting_at(start_fen: &str) -> Record<G> {
        Record {
            tags: Vec::new(),
            start_fen: start_fen.to_string(),
            moves: Vec::new(),
            result: "*".to_string(),
        }
    }

    /// The value of the first tag with this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What a game tells the PGN reader beyond its [`Rules`] (positions, moves, make): its
/// start, its own tags, its move text, and whose move it is.
pub trait PgnGame: Rules<Move: Debug> + Clone + Debug + PartialEq + Eq {
    /// The move notation chosen by the game's tags while reading (`()` when there is no
    /// choice).
    type Format: Copy + Default;
    /// Why a `FEN` tag gives no position.
    type StartError: Clone + Debug + PartialEq + Eq + Display;
    /// Why move text is not a legal move.
    type MoveError: Clone + Debug + PartialEq + Eq + Display;
    /// The standard start, for a game without a `FEN` tag.
    const START_FEN: &'static str;
    /// How a move error names the side to move: `[first, second]` (`for Red`, `for Black`).
    const MOVERS: [&'static str; 2];
    /// The notations a `Format` tag may name, for the error when it names another.
    const FORMATS: &'static str;

    /// The position a `FEN` tag (or [`PgnGame::START_FEN`]) describes, read under what the
    /// record's tags chose (`format`: chess reads a Chess960 start by its castling rules).
    fn start(fen: &str, format: Self::Format) -> Result<Self::Position, Self::StartError>;
    /// Reads a tag the game derives itself (other than `FEN` and `Result`): `Ok(true)` when
    /// it is consumed, `Ok(false)` when it is an ordinary tag to keep in the record.
    fn read_tag(
        name: &str,
        value: &str,
        format: &mut Self::Format,
    ) -> Result<bool, PgnErrorKind<Self>>;
    /// The legal move that `text` (move number and suffixes removed) denotes.
    fn parse_move(
        pos: &mut Self::Position,
        text: &str,
        format: Self::Format,
    ) -> Result<Self::Move, Self::MoveError>;
    /// Whether the second side (Black) is to move, and the move number (FEN's last field).
    fn turn(pos: &Self::Position) -> (bool, u16);
}

/// A PGN read error: the 1-based line and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {kind}")]
pub struct PgnError<G: PgnGame> {
    /// 1-based line number in the text.
    pub line: usize,
    /// What is wrong.
    pub kind: PgnErrorKind<G>,
}

/// What is wrong with a PGN record.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PgnErrorKind<G: PgnGame> {
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
    BadFen(Box<G::StartError>),
    /// A `Format` tag naming no notation the game knows (xiangqi; a chess record keeps
    /// `Format` as an ordinary tag).
    #[error("unknown Format '{0}'; expected {formats}", formats = G::FORMATS)]
    UnknownFormat(String),
    /// A `Result` tag that is not a result.
    #[error("Result tag '{0}' is not 1-0, 0-1, 1/2-1/2 or *")]
    BadResult(String),
    /// A move that cannot be read or is illegal.
    #[error("move {number} {side} '{text}': {error}")]
    BadMove {
        /// The move number as written in PGN (`12.` or `12...`).
        number: String,
        /// `for Red`, `for White` or `for Black`.
        side: &'static str,
        /// The move text.
        text: String,
        /// Why it was rejected (in the declared notation).
        error: Box<G::MoveError>,
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

/// One piece of PGN text, as the [`Lexer`] hands it on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// A tag line after move text: the game before it is complete.
    EndOfGame,
    /// A tag pair, its value unescaped.
    Tag {
        /// The name.
        name: &'a str,
        /// The value.
        value: String,
    },
    /// A result token: one of [`RESULTS`].
    Result(&'a str),
    /// Move text outside comments and variations.
    Move {
        /// The token as written (move number and suffixes included).
        raw: &'a str,
        /// The move without its move number and `!`/`?` suffixes; `None` when nothing is
        /// left (a bare move number).
        text: Option<&'a str>,
    },
}

/// Splits PGN text, line by line, into [`Token`]s, keeping what is open across lines (a
/// comment, variations) and whether move text has begun.
#[derive(Debug, Default)]
pub struct Lexer {
    /// Line where the open `{` comment started.
    comment_from: Option<usize>,
    /// Open `(` variations and the line of the outermost one.
    variation_depth: usize,
    variation_from: usize,
    /// Whether the current game has move text (so that a tag line starts the next game).
    in_moves: bool,
}

impl Lexer {
    /// Reads line `number` (1-based), handing each token to `sink` in order. Stops at the
    /// first error, the sink's or the lexer's (a malformed tag line, an unmatched `)` or `}`).
    pub fn line<'a, G: PgnGame>(
        &mut self,
        number: usize,
        line: &'a str,
        mut sink: impl FnMut(Token<'a>) -> Result<(), PgnError<G>>,
    ) -> Result<(), PgnError<G>> {
        let trimmed = line.trim();
        let free = self.comment_from.is_none() && self.variation_depth == 0;
        if free && trimmed.starts_with('[') {
            if std::mem::take(&mut self.in_moves) {
                sink(Token::EndOfGame)?;
            }
            let (name, value) = read_tag(trimmed).map_err(|reason| PgnError {
                line: number,
                kind: PgnErrorKind::BadTag {
                    text: trimmed.to_string(),
                    reason,
                },
            })?;
            return sink(Token::Tag { name, value });
        }
        if free && trimmed.starts_with('%') {
            return Ok(());
        }
        let mut start = 0;
        for (at, c) in line.char_indices() {
            if self.comment_from.is_some() {
                if c == '}' {
                    self.comment_from = None;
                }
                start = at + c.len_utf8();
                continue;
            }
            let delimiter = c.is_whitespace() || matches!(c, '{' | '}' | ';' | '(' | ')');
            if !delimiter {
                continue;
            }
            self.token(&line[start..at], &mut sink)?;
            start = at + c.len_utf8();
            match c {
                '{' => self.comment_from = Some(number),
                ';' => return Ok(()),
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
        if self.comment_from.is_some() {
            return Ok(());
        }
        self.token(&line[start..], &mut sink)
    }

    /// Hands on one token of move text, unless it is empty, inside a variation or a `$n`
    /// glyph.
    fn token<'a, G: PgnGame>(
        &mut self,
        token: &'a str,
        sink: &mut impl FnMut(Token<'a>) -> Result<(), PgnError<G>>,
    ) -> Result<(), PgnError<G>> {
        if token.is_empty() || self.variation_depth > 0 || token.starts_with('$') {
            return Ok(());
        }
        self.in_moves = true;
        if RESULTS.contains(&token) {
            return sink(Token::Result(token));
        }
        let text = strip_move_number(token)
            .map(|t| t.trim_end_matches(['!', '?']))
            .filter(|t| !t.is_empty());
        sink(Token::Move { raw: token, text })
    }

    /// Checks that the text ended with no comment or variation open.
    pub fn finish<G: PgnGame>(&self) -> Result<(), PgnError<G>> {
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
        Ok(())
    }
}

/// Reads a tag line (trimmed) as `[Name "value"]`, unescaping `\"` and `\\` (a backslash
/// keeps whatever character follows it); the error says what is wrong.
fn read_tag(text: &str) -> Result<(&str, String), &'static str> {
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or("expected [Name \"value\"] ending with ]")?
        .trim();
    let name_end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let name = &inner[..name_end];
    if name.is_empty() {
        return Err("the tag has no name");
    }
    let quoted = inner[name_end..]
        .trim_start()
        .strip_prefix('"')
        .ok_or("the value must be in double quotes")?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    loop {
        match chars.next() {
            Some('\\') => value.push(chars.next().ok_or("the value ends in a lone backslash")?),
            Some('"') => break,
            Some(c) => value.push(c),
            None => return Err("the value's closing quote is missing"),
        }
    }
    if !chars.as_str().trim().is_empty() {
        return Err("unexpected text after the value");
    }
    Ok((name, value))
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

/// Reads every game in a PGN text.
///
/// Errors name the line and what is wrong there: a malformed tag line, a bad FEN or Format,
/// move text that denotes no legal move, an unterminated comment or variation, a result
/// token that disagrees with the `Result` tag or is followed by more moves.
pub fn read_games<G: PgnGame>(text: &str) -> Result<Vec<Record<G>>, PgnError<G>> {
    let mut lexer = Lexer::default();
    let mut reader = Reader::<G> {
        games: Vec::new(),
        game: Pending::default(),
    };
    for (i, line) in text.lines().enumerate() {
        lexer.line(i + 1, line, |token| reader.token(i + 1, token))?;
    }
    lexer.finish()?;
    reader.finish()
}

/// One game being read.
struct Pending<G: PgnGame> {
    tags: Vec<(String, String)>,
    fen: Option<(String, usize)>,
    format: G::Format,
    result_tag: Option<String>,
    /// The position after the moves so far; set up at the first move.
    pos: Option<G::Position>,
    moves: Vec<G::Move>,
    result_token: Option<(String, usize)>,
    /// Whether anything at all belongs to this game.
    started: bool,
}

impl<G: PgnGame> Default for Pending<G> {
    fn default() -> Pending<G> {
        Pending {
            tags: Vec::new(),
            fen: None,
            format: G::Format::default(),
            result_tag: None,
            pos: None,
            moves: Vec::new(),
            result_token: None,
            started: false,
        }
    }
}

impl<G: PgnGame> Pending<G> {
    fn position(&mut self) -> Result<&mut G::Position, PgnError<G>> {
        let pos = match self.pos.take() {
            Some(pos) => pos,
            None => {
                let (fen, line) = match &self.fen {
                    Some((fen, line)) => (fen.as_str(), *line),
                    None => (G::START_FEN, 0),
                };
                G::start(fen, self.format).map_err(|error| PgnError {
                    line,
                    kind: PgnErrorKind::BadFen(Box::new(error)),
                })?
            }
        };
        Ok(self.pos.insert(pos))
    }

    fn finish(mut self) -> Result<Record<G>, PgnError<G>> {
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
        Ok(Record {
            tags: self.tags,
            start_fen: self
                .fen
                .map_or_else(|| G::START_FEN.to_string(), |(f, _)| f),
            moves: self.moves,
            result,
        })
    }
}

struct Reader<G: PgnGame> {
    games: Vec<Record<G>>,
    game: Pending<G>,
}

impl<G: PgnGame> Reader<G> {
    fn token(&mut self, number: usize, token: Token) -> Result<(), PgnError<G>> {
        let error = |kind| PgnError { line: number, kind };
        let game = &mut self.game;
        let (raw, text) = match token {
            Token::EndOfGame => {
                let done = std::mem::take(game);
                self.games.push(done.finish()?);
                return Ok(());
            }
            Token::Tag { name, value } => {
                game.started = true;
                match name {
                    "FEN" => game.fen = Some((value.trim().to_string(), number)),
                    "Result" if !RESULTS.contains(&value.as_str()) => {
                        return Err(error(PgnErrorKind::BadResult(value)))
                    }
                    "Result" => game.result_tag = Some(value),
                    _ => {
                        if !G::read_tag(name, &value, &mut game.format).map_err(error)? {
                            game.tags.push((name.to_string(), value));
                        }
                    }
                }
                return Ok(());
            }
            Token::Result(raw) => (raw, None),
            Token::Move { raw, text } => (raw, text),
        };
        game.started = true;
        if game.result_token.is_some() {
            return Err(error(PgnErrorKind::AfterResult(raw.to_string())));
        }
        if RESULTS.contains(&raw) {
            game.result_token = Some((raw.to_string(), number));
            return Ok(());
        }
        let Some(text) = text else {
            return Ok(());
        };
        let format = game.format;
        let pos = game.position()?;
        let mv = G::parse_move(pos, text, format).map_err(|e| {
            let (second, fullmove) = G::turn(pos);
            error(PgnErrorKind::BadMove {
                number: format!("{fullmove}{}", if second { "..." } else { "." }),
                side: G::MOVERS[usize::from(second)],
                text: text.to_string(),
                error: Box::new(e),
            })
        })?;
        G::make(pos, mv);
        game.moves.push(mv);
        Ok(())
    }

    fn finish(mut self) -> Result<Vec<Record<G>>, PgnError<G>> {
        if self.game.started {
            let last = std::mem::take(&mut self.game);
            self.games.push(last.finish()?);
        }
        Ok(self.games)
    }
}

/// Writes `[name "value"]` and a line break, with `"` and `\` escaped and line breaks in the
/// value written as spaces (a tag line cannot hold one).
pub fn write_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

/// Writes the roster tags in order, each with its default value when the record lacks it.
pub fn write_roster<G: PgnGame>(out: &mut String, record: &Record<G>, roster: &[(&str, &str)]) {
    for &(name, default) in roster {
        write_tag(out, name, record.tag(name).unwrap_or(default));
    }
}

/// Writes the record's tags in order, leaving out the roster's and `derived` (the tags the
/// game writes itself from the record's fields).
pub fn write_other_tags<G: PgnGame>(
    out: &mut String,
    record: &Record<G>,
    roster: &[(&str, &str)],
    derived: &[&str],
) {
    for (name, value) in &record.tags {
        if !derived.contains(&name.as_str()) && !roster.iter().any(|(n, _)| n == name) {
            write_tag(out, name, value);
        }
    }
}

/// Writes the move text after a blank line: move numbers (`12.`, or `12...` when the second
/// side moves first), each move as `render` writes it in its position (its index in the
/// record given), `comments[i]` as a `{comment}` after move `i` (`{` and `}` in it written
/// `(` and `)` so that it stays one comment; an empty or missing entry writes none), then the
/// result; lines break before a token that would pass column 80. Stops at `render`'s first
/// error.
pub fn write_movetext<G: PgnGame, E>(
    out: &mut String,
    mut pos: G::Position,
    record: &Record<G>,
    comments: &[String],
    mut render: impl FnMut(&mut G::Position, G::Move, usize) -> Result<String, E>,
) -> Result<(), E> {
    out.push('\n');
    let mut tokens = Vec::with_capacity(record.moves.len() * 3 / 2 + 1);
    for (i, &mv) in record.moves.iter().enumerate() {
        match (G::turn(&pos), i) {
            ((false, fullmove), _) => tokens.push(format!("{fullmove}.")),
            ((true, fullmove), 0) => tokens.push(format!("{fullmove}...")),
            ((true, _), _) => {}
        }
        tokens.push(render(&mut pos, mv, i)?);
        G::make(&mut pos, mv);
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Chess, Xiangqi};

    /// The tokens of `text`, one string each: `T name=value`, `R 1-0`, `M raw>text` (`M raw>-`
    /// for a bare move number), `E` at a game's end; or the first error.
    fn lex(text: &str) -> Result<Vec<String>, PgnError<Xiangqi>> {
        let mut lexer = Lexer::default();
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            lexer.line(i + 1, line, |token| {
                out.push(match token {
                    Token::EndOfGame => "E".to_string(),
                    Token::Tag { name, value } => format!("T {name}={value}"),
                    Token::Result(r) => format!("R {r}"),
                    Token::Move { raw, text } => format!("M {raw}>{}", text.unwrap_or("-")),
                });
                Ok(())
            })?;
        }
        lexer.finish()?;
        Ok(out)
    }

    fn error_kind(text: &str) -> (usize, PgnErrorKind<Xiangqi>) {
        let e = lex(text).expect_err("must not lex");
        (e.line, e.kind)
    }

    #[test]
    fn braces_and_quotes_inside_tag_values_and_comments() {
        // Braces in a tag value are the value, not a comment; a quote in a comment is text.
        assert_eq!(
            lex("[Event \"a {b} c ( ; \"]\n1. e4 {he said \"1-0} e5 {a ] [x \"y\"]} *\n").unwrap(),
            [
                "T Event=a {b} c ( ; ",
                "M 1.>-",
                "M e4>e4",
                "M e5>e5",
                "R *"
            ]
        );
        // A comment ends at its first '}', so a second one closes nothing.
        assert_eq!(
            error_kind("1. e4 {a \"}\" } e5\n"),
            (1, PgnErrorKind::Unmatched('}'))
        );
        // A tag line inside a comment is comment text, and the comment may span lines.
        assert_eq!(
            lex("1. e4 {note:\n[Event \"x\"]\n} e5\n").unwrap(),
            ["M 1.>-", "M e4>e4", "M e5>e5"]
        );
        assert_eq!(
            error_kind("[Event \"x\"]\n1. e4 {open\n\n"),
            (2, PgnErrorKind::UnterminatedComment)
        );
    }

    #[test]
    fn nested_variations_are_skipped_whole() {
        assert_eq!(
            lex("1. e4 (1. d4 (1. c4 c5) d5 {x)} $3) e5 $1 2. Nf3!? ; (\n").unwrap(),
            ["M 1.>-", "M e4>e4", "M e5>e5", "M 2.>-", "M Nf3!?>Nf3"]
        );
        // Results and tag-like text inside a variation are skipped too.
        assert_eq!(
            lex("1. e4 (1. d4 1-0\n[Event \"x\"]\n) e5\n").unwrap(),
            ["M 1.>-", "M e4>e4", "M e5>e5"]
        );
        // The error names the line of the outermost open variation.
        assert_eq!(
            error_kind("1. e4\n(1. d4\n(1. c4) c5\n"),
            (2, PgnErrorKind::UnterminatedVariation)
        );
        assert_eq!(
            error_kind("1. e4 (1. d4) e5)\n"),
            (1, PgnErrorKind::Unmatched(')'))
        );
    }

    #[test]
    fn tag_values_unescape_and_bad_tags_say_why() {
        assert_eq!(
            lex(r#"[White "Lu \"the fox\" \\ \x"]"#).unwrap(),
            [r#"T White=Lu "the fox" \ x"#]
        );
        // An escaped quote does not close the value; one followed by ']' alone leaves it open.
        for (text, reason) in [
            (r#"[White "a\"]"#, "the value's closing quote is missing"),
            (r#"[White "a\"#, "expected [Name \"value\"] ending with ]"),
            (r#"[White "a\]"#, "the value ends in a lone backslash"),
            (r#"[White "a" b]"#, "unexpected text after the value"),
            (r#"[White a]"#, "the value must be in double quotes"),
            (r#"[ "a"]"#, "the tag has no name"),
        ] {
            let (line, kind) = error_kind(text);
            assert_eq!(line, 1);
            assert_eq!(
                kind,
                PgnErrorKind::BadTag {
                    text: text.to_string(),
                    reason
                },
                "{text}"
            );
        }
        let written = {
            let mut s = String::new();
            write_tag(&mut s, "White", "Lu \"the fox\" \\ a\r\nb");
            s
        };
        assert_eq!(written, "[White \"Lu \\\"the fox\\\" \\\\ a  b\"]\n");
        assert_eq!(lex(&written).unwrap(), ["T White=Lu \"the fox\" \\ a  b"]);
    }

    #[test]
    fn escape_lines_are_skipped_outside_comments_only() {
        assert_eq!(
            lex("% [Event \"x\"] { ( 1-0\n[Event \"y\"]\n  %c\n1. e4 *\n").unwrap(),
            ["T Event=y", "M 1.>-", "M e4>e4", "R *"]
        );
        // Inside a comment a '%' line is comment text: its '}' closes the comment.
        assert_eq!(
            lex("1. e4 {x\n% } e5\n").unwrap(),
            ["M 1.>-", "M e4>e4", "M e5>e5"]
        );
        // '%' within a line is part of the token.
        assert_eq!(lex("1. e4%\n").unwrap(), ["M 1.>-", "M e4%>e4%"]);
    }

    #[test]
    fn move_numbers_results_and_game_ends() {
        assert_eq!(
            lex("[A \"1\"]\n12...Qh5 33.4 12.e4 1/2-1/2\n[B \"2\"]\n0-1\n").unwrap(),
            [
                "T A=1",
                "M 12...Qh5>Qh5",
                "M 33.4>33.4",
                "M 12.e4>e4",
                "R 1/2-1/2",
                "E",
                "T B=2",
                "R 0-1"
            ]
        );
        // Tags before any move text start no new game.
        assert_eq!(lex("[A \"1\"]\n[B \"2\"]\n").unwrap(), ["T A=1", "T B=2"]);
    }

    #[test]
    fn a_missing_result_reads_as_the_tag_or_unknown() {
        let text = "[Event \"a\"]\n1. e4 e5\n\n[Event \"b\"]\n[Result \"0-1\"]\n1. d4\n\n\
                    [Event \"c\"]\n[Result \"1-0\"]\n1. c4 *\n";
        let games = read_games::<Chess>(text).unwrap();
        let results: Vec<_> = games.iter().map(|g| g.result.as_str()).collect();
        assert_eq!(results, ["*", "0-1", "1-0"]);
        assert_eq!(
            games.iter().map(|g| g.moves.len()).collect::<Vec<_>>(),
            [2, 1, 1]
        );
        assert_eq!(games[1].tag("Event"), Some("b"));
        // A result token with no tag, and a token that disagrees with its tag.
        assert_eq!(
            read_games::<Xiangqi>("1. h2e2 1-0\n").unwrap()[0].result,
            "1-0"
        );
        let e = read_games::<Xiangqi>("[Result \"0-1\"]\n\n1. h2e2 1-0\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(
            e.kind,
            PgnErrorKind::ResultMismatch {
                token: "1-0".into(),
                tag: "0-1".into()
            }
        );
        let e = read_games::<Chess>("1. e4 1-0 e5\n").unwrap_err();
        assert_eq!(e.kind, PgnErrorKind::AfterResult("e5".into()));
    }

    #[test]
    fn movetext_wraps_at_80_columns_and_numbers_a_second_side_start() {
        let fen = "4k3/8/8/8/8/8/8/R3K3 b - - 0 7";
        let mut pos = Chess::start(fen, false).unwrap();
        let mut record = Record::starting_at(fen);
        for text in ["Kd7", "Ra2", "Kc7", "Ra3", "Kb7", "Ra4", "Kc7", "Ra5"]
            .iter()
            .cycle()
            .take(40)
        {
            let mv = Chess::parse_move(&mut pos, text, false).unwrap();
            Chess::make(&mut pos, mv);
            record.moves.push(mv);
        }
        let comments = vec!["".to_string(), "a {b} c".to_string()];
        let mut out = String::new();
        write_movetext::<Chess, String>(
            &mut out,
            Chess::start(fen, false).unwrap(),
            &record,
            &comments,
            |_, _, i| Ok(format!("m{i}")),
        )
        .unwrap();
        assert!(
            out.starts_with("\n7... m0 8. m1 {a (b) c} m2 9. m3"),
            "{out}"
        );
        assert!(out.ends_with("m39 *\n"), "{out}");
        for line in out.lines() {
            assert!(line.chars().count() <= 80, "{line}");
        }
        assert!(out.lines().count() > 2, "{out}");
        let error = write_movetext::<Chess, usize>(
            &mut String::new(),
            Chess::start(fen, false).unwrap(),
            &record,
            &[],
            |_, _, i| if i == 3 { Err(i) } else { Ok(String::new()) },
        );
        assert_eq!(error, Err(3));
    }
}
