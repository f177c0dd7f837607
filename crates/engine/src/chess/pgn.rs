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
use thiserror::Error;

/// The result tokens a record may end with.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// One game: tags, start position, moves and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Tag pairs in order, other than `Result`, `FEN` and `SetUp` (which live in the fields
    /// below).
    pub tags: Vec<(String, String)>,
    /// The start position as FEN ([`START_FEN`] for the standard start).
    pub start_fen: String,
    /// The moves from the start position, all legal in turn.
    pub moves: Vec<Move>,
    /// `1-0` (White won), `0-1` (Black won), `1/2-1/2` or `*` (unfinished or unknown).
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
    #[error("FEN tag '{fen}': {error}")]
    BadFen {
        /// The tag's value.
        fen: String,
        /// Why it was refused.
        error: Box<FromFenError>,
    },
    /// A `Result` tag that is not a result.
    #[error("Result tag '{0}' is not 1-0, 0-1, 1/2-1/2 or *")]
    BadResult(String),
    /// A move that cannot be read or is illegal.
    #[error("move {number} {side} '{text}': {error}")]
    BadMove {
        /// The move number as written in PGN (`12.` or `12...`).
        number: String,
        /// `for White` or `for Black`.
        side: &'static str,
        /// The move text.
        text: String,
        /// Why it was rejected as SAN.
        error: Box<SanError>,
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
/// is not the standard one. Errors when the start FEN is invalid, a move is illegal, or the
/// result is not a result token.
pub fn write_pgn(record: &GameRecord) -> Result<String, PgnWriteError> {
    if !RESULTS.contains(&record.result.as_str()) {
        return Err(PgnWriteError::BadResult(record.result.clone()));
    }
    let mut pos = Position::from_fen(&record.start_fen).map_err(|error| PgnWriteError::Fen {
        fen: record.start_fen.clone(),
        error,
    })?;
    let standard_start = pos.to_fen() == START_FEN;
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    for (name, default) in ROSTER {
        tag(name, record.tag(name).unwrap_or(default));
    }
    tag("Result", &record.result);
    for (name, value) in &record.tags {
        let derived = ["Result", "FEN", "SetUp"].contains(&name.as_str());
        if !derived && !ROSTER.iter().any(|(n, _)| n == name) {
            tag(name, value);
        }
    }
    if !standard_start {
        tag("SetUp", "1");
        tag("FEN", &record.start_fen);
    }
    out.push('\n');

    let mut tokens = Vec::with_capacity(record.moves.len() * 3 / 2 + 1);
    for (i, &mv) in record.moves.iter().enumerate() {
        match pos.side_to_move() {
            Color::White => tokens.push(format!("{}.", pos.fullmove())),
            Color::Black if i == 0 => tokens.push(format!("{}...", pos.fullmove())),
            Color::Black => {}
        }
        let san = pos
            .to_san(mv)
            .map_err(|error| PgnWriteError::Illegal { index: i, error })?;
        tokens.push(san);
        pos.make(mv);
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
/// Errors name the line and what is wrong there: a malformed tag line, a bad FEN, move text
/// that denotes no legal move, an unterminated comment or variation.
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
                kind: PgnErrorKind::BadFen {
                    fen,
                    error: Box::new(error),
                },
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
            // Derived from the FEN tag when writing.
            "SetUp" => {}
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
        let pos = game.position()?;
        // SAN first; UCI text (`e2e4`) is accepted too, as some tools write it.
        let mv = match pos.parse_san(text) {
            Ok(mv) => mv,
            Err(error) => pos.parse_uci(text).map_err(|_| {
                let black = pos.side_to_move() == Color::Black;
                PgnError {
                    line: number,
                    kind: PgnErrorKind::BadMove {
                        number: format!("{}{}", pos.fullmove(), if black { "..." } else { "." }),
                        side: if black { "for Black" } else { "for White" },
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
/// number. A digit right after the dots means the token is not a move number.
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
}
