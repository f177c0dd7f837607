//! Move notations: UCI (`h2e2`), ICCS (`H2-E2`), WXF (`C2.5`) and Chinese (`炮二平五`).
//!
//! UCI and ICCS name the two points. WXF and Chinese describe the move from the mover's side:
//! the piece, the file it stands on (1–9 from the mover's right), the direction (forward, back,
//! sideways) and a number — ranks moved for a chariot, cannon, soldier or general going along
//! its file, otherwise the destination file.
//!
//! Like pieces on one file are told apart by their place on it instead of the file, counted
//! from the front (farther forward from the mover's side):
//!
//! | pieces on the file | WXF, front to rear | Chinese, front to rear |
//! |---|---|---|
//! | 2 | `R+` `R-` | 前车 后车 |
//! | 3 soldiers | `P+` `P3` `P-` (middle keeps its file) | 前兵 中兵 后兵 |
//! | 4 soldiers | `++` `P+` `P-` `--` | 一兵 二兵 三兵 四兵 |
//! | 5 soldiers | `++` `P+` `P3` `P-` `--` | 一兵 … 五兵 |
//! | soldiers doubled on two files | `3+` `33` `3-` (file digit first) | 前兵三 中兵三 后兵三 |
//!
//! Advisors and elephants never carry a marker: two of them on one file cannot both move in the
//! same direction (the one on the back rank can only go forward, the other only back), so the
//! direction already tells them apart.
//!
//! Chinese text writes Red's files and numbers as 一…九 and Black's as full-width １…９, with
//! the side's own piece characters (帅仕相马车炮兵 / 将士象马车炮卒); the ordinal markers for four
//! or five soldiers are 一…五 for both sides.
//!
//! Every function emits one canonical form. Parsing accepts the common variants (lower case,
//! `B`/`N` for elephant/horse, `=` for sideways, traditional characters, any digit form) and,
//! when the text is not canonical for any legal move, also a looser reading (for example a
//! file digit where a front/rear marker was due) as long as exactly one legal move fits it.
//!
//! ```
//! use chuhan_engine::notation::{parse, render, Notation};
//! use chuhan_engine::{Move, Position};
//! let mut pos = Position::startpos();
//! let mv = Move::parse_uci("h2e2").unwrap();
//! assert_eq!(render(&mut pos, mv, Notation::Wxf).unwrap(), "C2.5");
//! assert_eq!(render(&mut pos, mv, Notation::Chinese).unwrap(), "炮二平五");
//! assert_eq!(parse(&mut pos, "H2-E2", Notation::Iccs).unwrap(), mv);
//! ```

use super::position::Position;
use super::types::{Color, Move, PieceKind, Square, FILE_COUNT, RANK_COUNT};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A way of writing moves as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Coordinates with ranks 0–9, lower case: `h2e2`.
    Uci,
    /// Coordinates, upper case with a dash: `H2-E2`.
    Iccs,
    /// World Xiangqi Federation notation: `C2.5`, `H8+7`, `R+.3`.
    Wxf,
    /// Traditional Chinese notation: `炮二平五`, `马８进７`.
    Chinese,
}

impl Notation {
    /// Every notation, in the order [`parse_any`] tries them.
    pub const ALL: [Notation; 4] = [
        Notation::Uci,
        Notation::Iccs,
        Notation::Wxf,
        Notation::Chinese,
    ];

    /// The lower-case name: `uci`, `iccs`, `wxf` or `chinese`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Uci => "uci",
            Notation::Iccs => "iccs",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Notation {
    type Err = NotationError;

    /// Reads `uci`, `iccs`, `wxf` or `chinese`, in any case.
    fn from_str(s: &str) -> Result<Notation, NotationError> {
        Notation::ALL
            .into_iter()
            .find(|n| n.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| NotationError::UnknownNotation(s.to_string()))
    }
}

/// Why a move could not be written or read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotationError {
    /// A notation name that is none of ours.
    #[error("'{0}' is not a notation; expected uci, iccs, wxf or chinese")]
    UnknownNotation(String),
    /// The move to render is not legal in the position.
    #[error("move {mv} is not legal in {fen}")]
    IllegalMove {
        /// The move.
        mv: Move,
        /// The position, as FEN.
        fen: String,
    },
    /// The text does not have the shape of a move in the notation.
    #[error("'{text}' is not {notation} move text: {reason}")]
    Syntax {
        /// The text.
        text: String,
        /// The notation it was read as.
        notation: Notation,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Well-formed text that fits no legal move.
    #[error("'{text}' ({notation}) denotes no legal move in {fen}")]
    NoSuchMove {
        /// The text.
        text: String,
        /// The notation it was read as.
        notation: Notation,
        /// The position, as FEN.
        fen: String,
    },
    /// Text that fits more than one legal move.
    #[error("'{text}' ({notation}) is ambiguous in {fen}: it fits {candidates}")]
    Ambiguous {
        /// The text.
        text: String,
        /// The notation it was read as.
        notation: Notation,
        /// The position, as FEN.
        fen: String,
        /// The moves it fits, in UCI, space-separated.
        candidates: String,
    },
    /// Text that is a move in no notation.
    #[error("'{text}' is not a move in uci, iccs, wxf or chinese notation")]
    Unrecognised {
        /// The text.
        text: String,
    },
    /// A start position that is not a valid FEN.
    #[error("bad FEN '{fen}': {error}")]
    Fen {
        /// The FEN text.
        fen: String,
        /// What is wrong with it.
        error: super::position::FromFenError,
    },
    /// A game result that is not `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[error("'{0}' is not a game result; expected 1-0, 0-1, 1/2-1/2 or *")]
    BadResult(String),
}

/// Writes a legal move in a notation.
///
/// Errors with [`NotationError::IllegalMove`] when the move is not legal in `pos`. The
/// position is left as it was.
pub fn render(pos: &mut Position, mv: Move, notation: Notation) -> Result<String, NotationError> {
    if !pos.is_legal(mv) {
        return Err(NotationError::IllegalMove {
            mv,
            fen: pos.to_fen(),
        });
    }
    Ok(render_unchecked(pos, mv, notation))
}

/// Writes a move known to be legal.
fn render_unchecked(pos: &Position, mv: Move, notation: Notation) -> String {
    match notation {
        Notation::Uci => mv.to_uci(),
        Notation::Iccs => {
            let (from, to) = (mv.from(), mv.to());
            format!(
                "{}{}-{}{}",
                char::from(b'A' + from.file()),
                from.rank(),
                char::from(b'A' + to.file()),
                to.rank()
            )
        }
        Notation::Wxf => {
            let bytes = wxf_bytes(&Facts::of(pos, mv));
            bytes.iter().map(|&b| char::from(b)).collect()
        }
        Notation::Chinese => {
            let facts = Facts::of(pos, mv);
            chinese_text(&chinese_key(&facts), facts.color)
        }
    }
}

/// Reads text in a notation and returns the legal move it denotes.
///
/// Errors name the text: [`NotationError::Syntax`] when it is not shaped like a move of the
/// notation, [`NotationError::NoSuchMove`] when no legal move fits, and
/// [`NotationError::Ambiguous`] when several do. The position is left as it was.
pub fn parse(pos: &mut Position, text: &str, notation: Notation) -> Result<Move, NotationError> {
    match notation {
        Notation::Uci => {
            let mv = Move::parse_uci(text.trim()).ok_or_else(|| {
                syntax(
                    text,
                    notation,
                    "expected two points like h2e2 (files a-i, ranks 0-9)",
                )
            })?;
            legal_or_no_such_move(pos, mv, text, notation)
        }
        Notation::Iccs => {
            let mv = parse_iccs(text.trim())
                .ok_or_else(|| syntax(text, notation, "expected two points like H2-E2"))?;
            legal_or_no_such_move(pos, mv, text, notation)
        }
        Notation::Wxf => {
            let (exact, loose) = parse_wxf(text)?;
            resolve(pos, text, notation, |f| wxf_bytes(f) == exact, &loose)
        }
        Notation::Chinese => {
            let (exact, loose) = parse_chinese(text)?;
            resolve(pos, text, notation, |f| chinese_key(f) == exact, &loose)
        }
    }
}

/// Reads a move in whichever notation fits, trying UCI, ICCS, WXF and Chinese in turn.
///
/// When the text has the shape of some notation but denotes no legal move (or several), that
/// notation's error is returned; text shaped like no notation gives
/// [`NotationError::Unrecognised`].
pub fn parse_any(pos: &mut Position, text: &str) -> Result<Move, NotationError> {
    let mut first_meaningful = None;
    for notation in Notation::ALL {
        match parse(pos, text, notation) {
            Ok(mv) => return Ok(mv),
            Err(NotationError::Syntax { .. }) => {}
            Err(e) => {
                first_meaningful.get_or_insert(e);
            }
        }
    }
    Err(
        first_meaningful.unwrap_or_else(|| NotationError::Unrecognised {
            text: text.to_string(),
        }),
    )
}

fn syntax(text: &str, notation: Notation, reason: &'static str) -> NotationError {
    NotationError::Syntax {
        text: text.to_string(),
        notation,
        reason,
    }
}

fn legal_or_no_such_move(
    pos: &mut Position,
    mv: Move,
    text: &str,
    notation: Notation,
) -> Result<Move, NotationError> {
    if pos.is_legal(mv) {
        Ok(mv)
    } else {
        Err(NotationError::NoSuchMove {
            text: text.to_string(),
            notation,
            fen: pos.to_fen(),
        })
    }
}

fn parse_iccs(text: &str) -> Option<Move> {
    let b = text.as_bytes();
    if b.len() != 5 || b[2] != b'-' {
        return None;
    }
    let square = |file: u8, rank: u8| {
        let file = file.to_ascii_lowercase().wrapping_sub(b'a');
        let rank = rank.wrapping_sub(b'0');
        (file < FILE_COUNT && rank < RANK_COUNT).then(|| Square::new(file, rank))
    };
    let from = square(b[0], b[1])?;
    let to = square(b[3], b[4])?;
    (from != to).then(|| Move::new(from, to))
}

/// Direction of a move seen from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    Forward,
    Backward,
    Sideways,
}

/// Everything the relative notations say about a move.
#[derive(Clone, Copy, Debug)]
struct Facts {
    kind: PieceKind,
    color: Color,
    /// File 1–9 counted from the mover's right.
    file: u8,
    /// Place among the like pieces on the file, 0 = front.
    index: u8,
    /// Like pieces (same colour and kind) on the file.
    count: u8,
    /// Files holding two or more like pieces.
    tandem_files: u8,
    dir: Dir,
    /// Ranks moved along the file, or the destination file (1–9 from the mover's right).
    num: u8,
}

/// The file as its owner counts it: Red from i (1) to a (9), Black from a (1) to i (9).
fn own_file(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => FILE_COUNT - file,
        Color::Black => file + 1,
    }
}

impl Facts {
    /// Facts of a move whose origin holds a piece (true of every legal move).
    fn of(pos: &Position, mv: Move) -> Facts {
        let (from, to) = (mv.from(), mv.to());
        let piece = pos.piece_at(from);
        let color = piece.color();
        let kind = piece.kind().unwrap_or(PieceKind::General);
        let same = |file: u8, rank: u8| pos.piece_at(Square::new(file, rank)) == piece;
        let ahead = |rank: u8| match color {
            Color::Red => rank > from.rank(),
            Color::Black => rank < from.rank(),
        };
        let mut count = 0;
        let mut index = 0;
        for rank in 0..RANK_COUNT {
            if same(from.file(), rank) {
                count += 1;
                index += u8::from(ahead(rank));
            }
        }
        let tandem_files = if count >= 2 {
            (0..FILE_COUNT)
                .filter(|&file| (0..RANK_COUNT).filter(|&rank| same(file, rank)).count() >= 2)
                .count() as u8
        } else {
            0
        };
        let dir = if to.rank() == from.rank() {
            Dir::Sideways
        } else if (to.rank() > from.rank()) == (color == Color::Red) {
            Dir::Forward
        } else {
            Dir::Backward
        };
        let diagonal = matches!(
            kind,
            PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse
        );
        let num = if dir == Dir::Sideways || diagonal {
            own_file(color, to.file())
        } else {
            to.rank().abs_diff(from.rank())
        };
        Facts {
            kind,
            color,
            file: own_file(color, from.file()),
            index,
            count,
            tandem_files,
            dir,
            num,
        }
    }

    /// Whether the piece needs no place marker: alone on its file, or an advisor or elephant.
    fn unmarked(&self) -> bool {
        self.count == 1 || matches!(self.kind, PieceKind::Advisor | PieceKind::Elephant)
    }

    /// Front, middle or rear among two or three pieces on the file.
    fn place(&self) -> Place {
        if self.index == 0 {
            Place::Front
        } else if self.index + 1 == self.count {
            Place::Rear
        } else {
            Place::Middle
        }
    }
}

/// A piece's place on its file, as a marker names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Front,
    Middle,
    Rear,
    /// 1-based, counted from the front (four or five soldiers on a file).
    Ordinal(u8),
}

/// What a non-canonical text can still say: used when no legal move has the text as its
/// canonical form.
#[derive(Clone, Copy, Debug)]
struct Loose {
    kind: PieceKind,
    file: Option<u8>,
    place: Option<Place>,
    dir: Dir,
    num: u8,
}

impl Loose {
    fn fits(&self, f: &Facts) -> bool {
        f.kind == self.kind
            && f.dir == self.dir
            && f.num == self.num
            && self.file.map_or(true, |file| file == f.file)
            && match self.place {
                None => true,
                Some(Place::Front) => f.count >= 2 && f.index == 0,
                Some(Place::Rear) => f.count >= 2 && f.index + 1 == f.count,
                Some(Place::Middle) => f.count >= 3 && f.index > 0 && f.index + 1 < f.count,
                Some(Place::Ordinal(k)) => f.count >= 2 && f.index + 1 == k,
            }
    }
}

/// Finds the legal move whose canonical form `exact` accepts, else the one legal move that
/// `loose` fits.
fn resolve(
    pos: &mut Position,
    text: &str,
    notation: Notation,
    exact: impl Fn(&Facts) -> bool,
    loose: &Loose,
) -> Result<Move, NotationError> {
    let moves = pos.legal_moves();
    let facts: Vec<(Move, Facts)> = moves.iter().map(|&mv| (mv, Facts::of(pos, mv))).collect();
    if let Some(&(mv, _)) = facts.iter().find(|(_, f)| exact(f)) {
        return Ok(mv);
    }
    let fitting: Vec<Move> = facts
        .iter()
        .filter(|(_, f)| loose.fits(f))
        .map(|&(mv, _)| mv)
        .collect();
    match fitting.as_slice() {
        [mv] => Ok(*mv),
        [] => Err(NotationError::NoSuchMove {
            text: text.to_string(),
            notation,
            fen: pos.to_fen(),
        }),
        many => Err(NotationError::Ambiguous {
            text: text.to_string(),
            notation,
            fen: pos.to_fen(),
            candidates: many
                .iter()
                .map(|m| m.to_uci())
                .collect::<Vec<_>>()
                .join(" "),
        }),
    }
}

// ---------------------------------------------------------------------------------------------
// WXF
// ---------------------------------------------------------------------------------------------

const fn wxf_letter(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::General => b'K',
        PieceKind::Advisor => b'A',
        PieceKind::Elephant => b'E',
        PieceKind::Horse => b'H',
        PieceKind::Chariot => b'R',
        PieceKind::Cannon => b'C',
        PieceKind::Soldier => b'P',
    }
}

/// Reads a WXF piece letter, accepting `B` (elephant), `N` (horse), `G` (general) and `S`
/// (soldier) as used by some programs, in either case.
fn wxf_kind(letter: u8) -> Option<PieceKind> {
    match letter.to_ascii_uppercase() {
        b'K' | b'G' => Some(PieceKind::General),
        b'A' => Some(PieceKind::Advisor),
        b'E' | b'B' => Some(PieceKind::Elephant),
        b'H' | b'N' => Some(PieceKind::Horse),
        b'R' => Some(PieceKind::Chariot),
        b'C' => Some(PieceKind::Cannon),
        b'P' | b'S' => Some(PieceKind::Soldier),
        _ => None,
    }
}

/// The canonical WXF text of a move as four ASCII bytes.
fn wxf_bytes(f: &Facts) -> [u8; 4] {
    let letter = wxf_letter(f.kind);
    let digit = b'0' + f.file;
    let head = if f.unmarked() {
        [letter, digit]
    } else if f.kind == PieceKind::Soldier && f.tandem_files >= 2 {
        let mark = match f.place() {
            Place::Front => b'+',
            Place::Rear => b'-',
            _ => digit,
        };
        [digit, mark]
    } else {
        match (f.count, f.index) {
            (2 | 3, 0) => [letter, b'+'],
            (2, _) | (3, 2) => [letter, b'-'],
            (3, _) => [letter, digit],
            (_, 0) => [b'+', b'+'],
            (_, 1) => [letter, b'+'],
            (5, 2) => [letter, digit],
            (4, 2) | (5, 3) => [letter, b'-'],
            _ => [b'-', b'-'],
        }
    };
    let dir = match f.dir {
        Dir::Forward => b'+',
        Dir::Backward => b'-',
        Dir::Sideways => b'.',
    };
    [head[0], head[1], dir, b'0' + f.num]
}

/// Splits WXF text into its canonical bytes and the loose reading.
fn parse_wxf(text: &str) -> Result<([u8; 4], Loose), NotationError> {
    let n = Notation::Wxf;
    let t = text.trim().as_bytes();
    if t.len() != 4 {
        return Err(syntax(
            text,
            n,
            "expected four characters: piece, file, +/-/., number",
        ));
    }
    let digit = |b: u8| (b'1'..=b'9').contains(&b).then(|| b - b'0');
    let sign = |b: u8| matches!(b, b'+' | b'-');
    let dir = match t[2] {
        b'+' => Dir::Forward,
        b'-' => Dir::Backward,
        b'.' | b'=' => Dir::Sideways,
        _ => return Err(syntax(text, n, "third character must be +, - or .")),
    };
    let num = digit(t[3]).ok_or_else(|| syntax(text, n, "fourth character must be 1-9"))?;
    let place = |b: u8| if b == b'+' { Place::Front } else { Place::Rear };
    let (head, kind, file, mark) = if let Some(kind) = wxf_kind(t[0]) {
        let letter = wxf_letter(kind);
        if let Some(d) = digit(t[1]) {
            ([letter, t[1]], kind, Some(d), None)
        } else if sign(t[1]) {
            ([letter, t[1]], kind, None, Some(place(t[1])))
        } else {
            return Err(syntax(
                text,
                n,
                "second character must be a file 1-9, + or -",
            ));
        }
    } else if let Some(d) = digit(t[0]) {
        // Soldiers doubled on two files: file digit, then +, - or the same digit (middle).
        let mark = if sign(t[1]) {
            place(t[1])
        } else if t[1] == t[0] {
            Place::Middle
        } else {
            return Err(syntax(
                text,
                n,
                "after a file digit comes +, - or the same digit (middle soldier)",
            ));
        };
        ([t[0], t[1]], PieceKind::Soldier, Some(d), Some(mark))
    } else if sign(t[0]) && t[1] == t[0] {
        // Foremost (++) or rearmost (--) of four or five soldiers on a file.
        ([t[0], t[1]], PieceKind::Soldier, None, Some(place(t[0])))
    } else {
        return Err(syntax(
            text,
            n,
            "first character must be a piece letter (K A E H R C P), a file digit, ++ or --",
        ));
    };
    let dir_byte = match dir {
        Dir::Forward => b'+',
        Dir::Backward => b'-',
        Dir::Sideways => b'.',
    };
    let loose = Loose {
        kind,
        file,
        place: mark,
        dir,
        num,
    };
    Ok(([head[0], head[1], dir_byte, t[3]], loose))
}

// ---------------------------------------------------------------------------------------------
// Chinese
// ---------------------------------------------------------------------------------------------

/// The canonical content of a Chinese move: what gets written, before choosing characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ChineseKey {
    place: Option<Place>,
    kind: PieceKind,
    file: Option<u8>,
    dir: Dir,
    num: u8,
}

fn chinese_key(f: &Facts) -> ChineseKey {
    let (place, file) = if f.unmarked() {
        (None, Some(f.file))
    } else if f.kind == PieceKind::Soldier && f.tandem_files >= 2 {
        (Some(f.place()), Some(f.file))
    } else if f.count <= 3 {
        (Some(f.place()), None)
    } else {
        (Some(Place::Ordinal(f.index + 1)), None)
    };
    ChineseKey {
        place,
        kind: f.kind,
        file,
        dir: f.dir,
        num: f.num,
    }
}

const CHINESE_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// A file or count as the mover writes it: Chinese numerals for Red, full-width digits for
/// Black.
fn chinese_number(color: Color, n: u8) -> char {
    match color {
        Color::Red => CHINESE_NUMERALS[usize::from(n - 1)],
        Color::Black => char::from_u32(0xFF10 + u32::from(n)).unwrap_or('?'),
    }
}

/// Reads 1–9 written as a Chinese numeral, an ASCII digit or a full-width digit.
fn chinese_digit(c: char) -> Option<u8> {
    if let Some(i) = CHINESE_NUMERALS.iter().position(|&x| x == c) {
        return Some(i as u8 + 1);
    }
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((u32::from(c) - 0xFF10) as u8),
        _ => None,
    }
}

fn chinese_piece(color: Color, kind: PieceKind) -> char {
    match (color, kind) {
        (Color::Red, PieceKind::General) => '帅',
        (Color::Black, PieceKind::General) => '将',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Black, PieceKind::Elephant) => '象',
        (_, PieceKind::Horse) => '马',
        (_, PieceKind::Chariot) => '车',
        (_, PieceKind::Cannon) => '炮',
        (Color::Red, PieceKind::Soldier) => '兵',
        (Color::Black, PieceKind::Soldier) => '卒',
    }
}

/// Reads a piece character of either colour, simplified or traditional.
fn chinese_kind(c: char) -> Option<PieceKind> {
    match c {
        '帅' | '帥' | '将' | '將' => Some(PieceKind::General),
        '仕' | '士' => Some(PieceKind::Advisor),
        '相' | '象' => Some(PieceKind::Elephant),
        '马' | '馬' | '傌' => Some(PieceKind::Horse),
        '车' | '車' | '俥' => Some(PieceKind::Chariot),
        '炮' | '砲' | '包' => Some(PieceKind::Cannon),
        '兵' | '卒' => Some(PieceKind::Soldier),
        _ => None,
    }
}

fn chinese_text(key: &ChineseKey, color: Color) -> String {
    let mut s = String::with_capacity(16);
    match key.place {
        None => {}
        Some(Place::Front) => s.push('前'),
        Some(Place::Middle) => s.push('中'),
        Some(Place::Rear) => s.push('后'),
        Some(Place::Ordinal(k)) => s.push(CHINESE_NUMERALS[usize::from(k - 1)]),
    }
    s.push(chinese_piece(color, key.kind));
    if let Some(file) = key.file {
        s.push(chinese_number(color, file));
    }
    s.push(match key.dir {
        Dir::Forward => '进',
        Dir::Backward => '退',
        Dir::Sideways => '平',
    });
    s.push(chinese_number(color, key.num));
    s
}

/// Reads `[marker] piece [file] direction number`, where the marker is 前/中/后 or an
/// ordinal 一…五 and at least one of marker and file is present.
fn parse_chinese(text: &str) -> Result<(ChineseKey, Loose), NotationError> {
    let n = Notation::Chinese;
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut i = 0;
    let place =
        match chars.first() {
            Some(&c) if chinese_kind(c).is_none() => {
                i = 1;
                Some(match c {
                    '前' => Place::Front,
                    '中' => Place::Middle,
                    '后' | '後' => Place::Rear,
                    _ => match chinese_digit(c) {
                        Some(k @ 1..=5) => Place::Ordinal(k),
                        _ => return Err(syntax(
                            text,
                            n,
                            "expected a piece (帅仕相马车炮兵 将士象卒) or a marker (前中后 一…五)",
                        )),
                    },
                })
            }
            _ => None,
        };
    let kind = chars
        .get(i)
        .copied()
        .and_then(chinese_kind)
        .ok_or_else(|| syntax(text, n, "expected a piece character after the marker"))?;
    i += 1;
    let file = chars.get(i).copied().and_then(chinese_digit);
    if file.is_some() {
        i += 1;
    }
    if place.is_none() && file.is_none() {
        return Err(syntax(
            text,
            n,
            "expected a file number after the piece (or a 前/中/后 marker before it)",
        ));
    }
    let dir = match chars.get(i) {
        Some('进' | '進') => Dir::Forward,
        Some('退') => Dir::Backward,
        Some('平') => Dir::Sideways,
        _ => return Err(syntax(text, n, "expected 进, 退 or 平")),
    };
    let num = chars
        .get(i + 1)
        .copied()
        .and_then(chinese_digit)
        .ok_or_else(|| syntax(text, n, "expected a number 1-9 after 进/退/平"))?;
    if chars.len() != i + 2 {
        return Err(syntax(text, n, "unexpected characters after the number"));
    }
    // In canonical text an ordinal always stands alone; with a file it reads as front/rear.
    let key = ChineseKey {
        place,
        kind,
        file,
        dir,
        num,
    };
    let loose = Loose {
        kind,
        file,
        place,
        dir,
        num,
    };
    Ok((key, loose))
}
