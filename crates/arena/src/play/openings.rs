//! Opening positions: a seeded generator of short random openings, or a file of FEN/EPD lines.
//! Each opening is used by exactly one game pair while there are enough; file openings are
//! shuffled by the run seed and, when a run needs more pairs than a file holds, used again in
//! the same order (as cutechess and fastchess repeat a book), which the run's notes say. One
//! rule for every command: match, sprt, ladder, calibrate and spsa alike.
//! Generated openings must have equal material, no check, and a depth-2 search score within
//! [`BALANCE_MARGIN`]. A file whose name ends in `.pgn` is a PGN book instead: each record's
//! start position with its moves played, up to `--opening-plies` of them when given.
//!
//! Both games use the same rules here (positions checked by the run's game's rules, chess EPD
//! and PGN books read as chess); generated chess openings are balanced by chess material and
//! the chess search.

use crate::play::any::{
    chess960_start_fen, chess_material_balance, AnyGame, GameKind, CHESS960_POSITIONS,
};
use crate::play::material::material_balance;
use crate::play::schedule::splitmix64;
use chuhan_engine::chess;
use chuhan_engine::{Game, GameConfig, Limits, Params, Position, SearchOptions, Searcher};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpeningSource {
    /// Random legal plies from the start position, kept when balanced.
    Generated {
        /// Plies played from the start position.
        plies: u32,
    },
    /// One FEN or EPD per line, or (a `.pgn` file) one game record per opening.
    File {
        /// The file.
        path: PathBuf,
        /// FNV-1a hash of its contents, so a resumed run notices a changed file.
        content_hash: String,
        /// PGN books: at most this many of each record's moves (absent: all of them).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plies: Option<u32>,
    },
    /// Chess960 start positions ([`chess960_start_fen`]): the 960 numbers shuffled by the run
    /// seed, pair `k` taking the `k`-th (again in the same order past 960 pairs).
    Chess960,
}

/// Why openings could not be produced.
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    /// The file could not be read.
    #[error("cannot read opening file {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A line is not a valid position.
    #[error("{path}:{line}: not a valid FEN/EPD position: {reason}")]
    BadLine {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A PGN book record that does not read (a malformed record or an illegal move).
    #[error("{path}: record {record}: line {line}: {reason}")]
    BadRecord {
        /// The file.
        path: PathBuf,
        /// 1-based record number.
        record: usize,
        /// 1-based line number.
        line: usize,
        /// What is wrong (for a move: its number, side and text).
        reason: String,
    },
    /// A PGN book record whose opening position is already decided.
    #[error("{path}: record {record}: the position after {plies} plies is already decided (no legal move or a rules draw)")]
    FinishedRecord {
        /// The file.
        path: PathBuf,
        /// 1-based record number.
        record: usize,
        /// Plies played from the record's start.
        plies: usize,
    },
    /// A line holds a finished game.
    #[error("{path}:{line}: the position is already decided (no legal move or a rules draw)")]
    Finished {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
    },
    /// Too few openings for the pairs asked for.
    #[error("{source_name} gives {available} distinct openings; {needed} pairs need one each")]
    TooFew {
        /// Description of the source.
        source_name: String,
        /// Openings available.
        available: usize,
        /// Openings needed.
        needed: usize,
    },
    /// `--opening-plies 0`.
    #[error("--opening-plies must be at least 1 (every pair needs its own opening)")]
    ZeroPlies,
    /// The opening file of a run being continued is not the one it started with.
    #[error("opening file {path} changed since the run started (content hash {found}, manifest says {expected})")]
    Changed {
        /// The file.
        path: PathBuf,
        /// Its hash now.
        found: String,
        /// Its hash in the manifest.
        expected: String,
    },
}

impl OpeningSource {
    /// The positions of a file source, read again and checked against the hash the run was
    /// started with (`None` for generated openings).
    pub fn read_checked(&self, kind: GameKind) -> Result<Option<Vec<String>>, OpeningError> {
        self.read_checked_in(kind, false)
    }

    /// As [`OpeningSource::read_checked`], a chess file's positions read under Chess960's
    /// castling rules when `chess960`.
    pub fn read_checked_in(
        &self,
        kind: GameKind,
        chess960: bool,
    ) -> Result<Option<Vec<String>>, OpeningError> {
        match self {
            OpeningSource::File {
                path,
                content_hash,
                plies,
            } => {
                let (list, hash) = read_opening_file_in(path, *plies, kind, chess960)?;
                if &hash != content_hash {
                    return Err(OpeningError::Changed {
                        path: path.clone(),
                        found: hash,
                        expected: content_hash.clone(),
                    });
                }
                Ok(Some(list))
            }
            OpeningSource::Generated { .. } | OpeningSource::Chess960 => Ok(None),
        }
    }
}

/// 64-bit FNV-1a of a byte string, as hex (a content fingerprint, not a security hash).
pub fn fnv1a_hex(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Parses one opening line: FEN (2, 4 or 6 fields) or EPD (`board side - - opcodes;`).
fn parse_line(text: &str) -> Result<Position, String> {
    let body = text.split(';').next().unwrap_or("").trim();
    match Position::from_fen(body) {
        Ok(p) => Ok(p),
        Err(full) => {
            let fields: Vec<&str> = body.split_whitespace().collect();
            if fields.len() > 4 && fields[2] == "-" && fields[3] == "-" {
                Position::from_fen(&fields[..4].join(" ")).map_err(|e| e.to_string())
            } else {
                Err(full.to_string())
            }
        }
    }
}

/// Parses one chess opening line: FEN, or EPD (`board side castling en-passant opcodes;`,
/// taken as a FEN with no halfmove clock and move 1); under Chess960's castling rules when
/// `chess960`.
fn parse_chess_line(text: &str, chess960: bool) -> Result<chess::Position, String> {
    let read = |fen: &str| {
        if chess960 {
            chess::Position::from_fen_chess960(fen)
        } else {
            chess::Position::from_fen(fen)
        }
    };
    let body = text.split(';').next().unwrap_or("").trim();
    match read(body) {
        Ok(p) => Ok(p),
        Err(full) => {
            let fields: Vec<&str> = body.split_whitespace().collect();
            if fields.len() > 4 && fields[4].parse::<u32>().is_err() {
                read(&format!("{} 0 1", fields[..4].join(" "))).map_err(|e| e.to_string())
            } else {
                Err(full.to_string())
            }
        }
    }
}

/// One opening line as a game of `kind` (not yet judged).
fn game_of_line(kind: GameKind, text: &str, chess960: bool) -> Result<AnyGame, String> {
    Ok(match kind {
        GameKind::Xiangqi => AnyGame::Xiangqi(Game::new(parse_line(text)?, GameConfig::default())),
        GameKind::Chess => AnyGame::Chess(chess::Game::new(parse_chess_line(text, chess960)?)),
    })
}

/// Whether an opening file is a PGN book (its name ends in `.pgn`, any case).
pub fn is_pgn_book(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case("pgn"))
}

/// The 1-based number of the record that `line` (1-based) belongs to: a record starts at the
/// first tag line after move text (or at the first line of the file).
fn record_of_line(text: &str, line: usize) -> usize {
    let mut record = 0;
    let mut in_tags = false;
    let mut seen_moves = true;
    for l in text.lines().take(line.max(1)) {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        if t.starts_with('[') {
            if !in_tags && seen_moves {
                record += 1;
            }
            in_tags = true;
            seen_moves = false;
        } else {
            if record == 0 {
                record = 1;
            }
            in_tags = false;
            seen_moves = true;
        }
    }
    record.max(1)
}

/// A book record: its start FEN, its moves and whether it is a Chess960 game.
type BookRecord = (String, Vec<crate::play::any::AnyMove>, bool);

/// A PGN book's records of either game, as start FENs and moves.
fn book_records(kind: GameKind, text: &str) -> Result<Vec<BookRecord>, (usize, String)> {
    use crate::play::any::AnyMove;
    match kind {
        GameKind::Xiangqi => chuhan_engine::read_pgn(text)
            .map(|records| {
                records
                    .into_iter()
                    .map(|r| {
                        (
                            r.start_fen,
                            r.moves.into_iter().map(AnyMove::Xiangqi).collect(),
                            false,
                        )
                    })
                    .collect()
            })
            .map_err(|e| (e.line, e.kind.to_string())),
        GameKind::Chess => chess::read_pgn(text)
            .map(|records| {
                records
                    .into_iter()
                    .map(|r| {
                        let chess960 = chess::pgn::record_is_chess960(&r);
                        (
                            r.start_fen,
                            r.moves.into_iter().map(AnyMove::Chess).collect(),
                            chess960,
                        )
                    })
                    .collect()
            })
            .map_err(|e| (e.line, e.kind.to_string())),
    }
}

/// Reads a PGN book: per record, its start with its moves (at most `plies` of them) played.
fn read_pgn_book(
    path: &Path,
    text: &str,
    plies: Option<u32>,
    kind: GameKind,
    chess960: bool,
) -> Result<Vec<String>, OpeningError> {
    let records = book_records(kind, text).map_err(|(line, reason)| OpeningError::BadRecord {
        path: path.to_path_buf(),
        record: record_of_line(text, line),
        line,
        reason,
    })?;
    let mut out = Vec::with_capacity(records.len());
    for (i, (start_fen, moves, record960)) in records.iter().enumerate() {
        let bad = |reason: String| OpeningError::BadRecord {
            path: path.to_path_buf(),
            record: i + 1,
            line: 0,
            reason,
        };
        // A record's moves were read under its own rules (its Variant tag), so a record of
        // the other variant cannot open this run's games.
        if *record960 != chess960 {
            return Err(bad(if chess960 {
                "not a Chess960 game (no [Variant \"Chess960\"] tag) in a --chess960 run".into()
            } else {
                "a Chess960 game ([Variant \"Chess960\"]): give --chess960".into()
            }));
        }
        let mut game = AnyGame::from_fen_rules(kind, chess960, start_fen, GameConfig::default())
            .map_err(bad)?;
        let take = plies.map_or(moves.len(), |p| moves.len().min(p as usize));
        for &mv in &moves[..take] {
            // The reader checked legality; a verdict before the last ply means the line runs
            // past the end of a game.
            game.play(mv).map_err(bad)?;
        }
        if game.verdict().is_some() {
            return Err(OpeningError::FinishedRecord {
                path: path.to_path_buf(),
                record: i + 1,
                plies: take,
            });
        }
        out.push(game.fen());
    }
    Ok(out)
}

/// Reads an opening file: one FEN or EPD per line, blank lines and `#` comments skipped; or a
/// PGN book (see [`is_pgn_book`]), one opening per record, `plies` moves deep at most.
/// Returns the positions as FEN and the content hash. Positions are read by `kind`'s rules.
pub fn read_opening_file(
    path: &Path,
    plies: Option<u32>,
    kind: GameKind,
) -> Result<(Vec<String>, String), OpeningError> {
    read_opening_file_in(path, plies, kind, false)
}

/// As [`read_opening_file`], chess positions read under Chess960's castling rules when
/// `chess960` (a PGN book's records must then be Chess960 games: `[Variant "Chess960"]`).
pub fn read_opening_file_in(
    path: &Path,
    plies: Option<u32>,
    kind: GameKind,
    chess960: bool,
) -> Result<(Vec<String>, String), OpeningError> {
    let bytes = std::fs::read(path).map_err(|source| OpeningError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8_lossy(&bytes);
    if is_pgn_book(path) {
        let chess960 = chess960 && kind == GameKind::Chess;
        return Ok((
            read_pgn_book(path, &text, plies, kind, chess960)?,
            fnv1a_hex(&bytes),
        ));
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let mut game = game_of_line(kind, t, chess960).map_err(|reason| OpeningError::BadLine {
            path: path.to_path_buf(),
            line: i + 1,
            reason: format!("{reason} (a {kind} position was expected)"),
        })?;
        if game.verdict().is_some() {
            return Err(OpeningError::Finished {
                path: path.to_path_buf(),
                line: i + 1,
            });
        }
        out.push(game.fen());
    }
    Ok((out, fnv1a_hex(&bytes)))
}

/// Largest absolute score (centipawns) of the short search that keeps a generated opening.
pub const BALANCE_MARGIN: i32 = 150;

/// The first balance test for generated openings: equal material, side to move not in check,
/// and the game not over. (The generator then also asks a short search.)
pub fn is_balanced(game: &mut Game) -> bool {
    material_balance(game.position()) == 0
        && !game.position().in_check()
        && game.verdict().is_none()
}

/// The first balance test of either game (see [`is_balanced`]; chess: equal chess material).
fn balanced(game: &mut AnyGame) -> bool {
    match game {
        AnyGame::Xiangqi(g) => is_balanced(g),
        AnyGame::Chess(g) => {
            chess_material_balance(g.position()) == 0
                && !g.position().in_check()
                && g.verdict().is_none()
        }
    }
}

/// The short search that balances generated openings, of the run's game.
enum BalanceSearch {
    Xiangqi(Box<Searcher>),
    Chess(Box<chess::search::Searcher>),
}

/// Produces balanced random openings one after another, reproducibly from a seed.
struct Generator {
    kind: GameKind,
    plies: u32,
    rng: Xoshiro256PlusPlus,
    seen: HashSet<String>,
    searcher: BalanceSearch,
}

impl Generator {
    fn new(plies: u32, seed: u64, kind: GameKind) -> Result<Generator, OpeningError> {
        if plies == 0 {
            return Err(OpeningError::ZeroPlies);
        }
        let options = SearchOptions {
            tt_mb: 1,
            ..SearchOptions::default()
        };
        let searcher = match kind {
            GameKind::Xiangqi => {
                BalanceSearch::Xiangqi(Box::new(Searcher::new(Params::default(), options)))
            }
            GameKind::Chess => BalanceSearch::Chess(Box::new(chess::search::Searcher::new(
                chess::EvalParams::default(),
                1,
            ))),
        };
        Ok(Generator {
            kind,
            plies,
            rng: Xoshiro256PlusPlus::seed_from_u64(splitmix64(seed ^ 0x6f70_656e_696e_6773)),
            seen: HashSet::new(),
            searcher,
        })
    }

    /// Whether a depth-2 search (cleared tables, so independent of earlier openings) scores
    /// the position within [`BALANCE_MARGIN`].
    fn search_says_balanced(&mut self, game: &AnyGame) -> bool {
        let limits = Limits {
            depth: Some(2),
            nodes: Some(4_000),
            ..Limits::default()
        };
        let score = match (&mut self.searcher, game) {
            (BalanceSearch::Xiangqi(s), AnyGame::Xiangqi(g)) => {
                s.clear();
                s.search(g.position(), &limits, &[], false, &mut |_| {})
                    .score
            }
            (BalanceSearch::Chess(s), AnyGame::Chess(g)) => {
                s.clear();
                s.search(g.position(), &limits, &[], false, &mut |_| {})
                    .score
            }
            _ => return false,
        };
        score.abs() <= BALANCE_MARGIN
    }

    /// The next opening; `made` is how many were produced before (for the error message).
    fn next(&mut self, made: usize, needed: usize) -> Result<String, OpeningError> {
        // Give up after many attempts without a new opening: the space is exhausted.
        let mut misses = 0u32;
        loop {
            if misses > 20_000 {
                return Err(OpeningError::TooFew {
                    source_name: format!("--opening-plies {}", self.plies),
                    available: made,
                    needed,
                });
            }
            misses += 1;
            let mut game = AnyGame::startpos(self.kind, GameConfig::default());
            let mut ok = true;
            for _ in 0..self.plies {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    ok = false;
                    break;
                }
                let mv = moves[self.rng.gen_range(0..moves.len())];
                if game.play(mv).ok().flatten().is_some() {
                    ok = false;
                    break;
                }
            }
            if !ok || !balanced(&mut game) {
                continue;
            }
            let fen = game.fen();
            if self.seen.contains(&fen) || !self.search_says_balanced(&game) {
                continue;
            }
            self.seen.insert(fen.clone());
            return Ok(fen);
        }
    }
}

enum BookState {
    Fixed(Vec<String>),
    Generated {
        generator: Box<Generator>,
        list: Vec<String>,
        capacity: usize,
    },
}

/// The openings of a run, opening `k` for pair `k`. Generated openings are made on demand (in
/// order, so the sequence never depends on who asks first): an SPRT that stops early does not
/// pay for openings it never uses.
pub struct OpeningBook {
    state: Mutex<BookState>,
    reuse: Option<String>,
}

impl OpeningBook {
    /// A book of fixed openings (already shuffled and counted).
    pub fn fixed(list: Vec<String>) -> OpeningBook {
        OpeningBook {
            state: Mutex::new(BookState::Fixed(list)),
            reuse: None,
        }
    }

    /// Up to `capacity` generated openings of `kind` of `plies` plies from `seed`.
    pub fn generated(
        plies: u32,
        seed: u64,
        capacity: usize,
        kind: GameKind,
    ) -> Result<OpeningBook, OpeningError> {
        Ok(OpeningBook {
            state: Mutex::new(BookState::Generated {
                generator: Box::new(Generator::new(plies, seed, kind)?),
                list: Vec::new(),
                capacity,
            }),
            reuse: None,
        })
    }

    /// When a file's openings are used more than once, a note saying so (for the run's output).
    pub fn reuse_note(&self) -> Option<&str> {
        self.reuse.as_deref()
    }

    /// Opening `index` (FEN).
    pub fn get(&self, index: usize) -> Result<String, OpeningError> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match &mut *state {
            BookState::Fixed(list) => list.get(index).cloned().ok_or(OpeningError::TooFew {
                source_name: "the opening list".into(),
                available: list.len(),
                needed: index + 1,
            }),
            BookState::Generated {
                generator,
                list,
                capacity,
            } => {
                while list.len() <= index {
                    let made = list.len();
                    list.push(generator.next(made, (*capacity).max(index + 1))?);
                }
                Ok(list[index].clone())
            }
        }
    }
}

/// Generates `count` distinct balanced openings of `plies` random legal plies from the start,
/// reproducibly from `seed`. Fails when the space is too small to give that many.
pub fn generate(
    plies: u32,
    count: usize,
    seed: u64,
    kind: GameKind,
) -> Result<Vec<String>, OpeningError> {
    let mut generator = Generator::new(plies, seed, kind)?;
    (0..count).map(|i| generator.next(i, count)).collect()
}

/// The openings of a run: `count` of them, in the order pairs use them. File openings are
/// shuffled by the run seed; generated ones are made on demand, of which the first `eager`
/// now (so that a too small opening space is reported before anything is written).
pub fn book_for(
    source: &OpeningSource,
    file_openings: Option<&[String]>,
    count: usize,
    eager: usize,
    seed: u64,
    kind: GameKind,
) -> Result<OpeningBook, OpeningError> {
    match source {
        OpeningSource::Generated { plies } => {
            let book = OpeningBook::generated(*plies, seed, count, kind)?;
            if count > 0 && eager > 0 {
                book.get(eager.min(count) - 1)?;
            }
            Ok(book)
        }
        OpeningSource::Chess960 => {
            let mut numbers: Vec<u16> = (0..CHESS960_POSITIONS).collect();
            let mut rng =
                Xoshiro256PlusPlus::seed_from_u64(splitmix64(seed ^ 0x0000_0000_0960_0960));
            numbers.shuffle(&mut rng);
            let list: Vec<String> = (0..count)
                .map(|i| {
                    chess960_start_fen(numbers[i % numbers.len()])
                        .expect("the numbers are below 960")
                })
                .collect();
            let mut book = OpeningBook::fixed(list);
            book.reuse = (count > numbers.len()).then(|| {
                format!(
                    "the {} Chess960 start positions for {count} game pairs: each is used by up to {} pairs (in the same shuffled order each time round)",
                    numbers.len(),
                    count.div_ceil(numbers.len())
                )
            });
            Ok(book)
        }
        OpeningSource::File { path, .. } => {
            let mut all = file_openings.map(<[String]>::to_vec).unwrap_or_default();
            let mut rng =
                Xoshiro256PlusPlus::seed_from_u64(splitmix64(seed ^ 0x0073_6875_6666_6c65));
            all.shuffle(&mut rng);
            let available = all.len();
            if available == 0 && count > 0 {
                return Err(OpeningError::TooFew {
                    source_name: path.display().to_string(),
                    available,
                    needed: count,
                });
            }
            let reuse = (available < count).then(|| {
                format!(
                    "{} gives {available} distinct openings for {count} game pairs: each is used by up to {} pairs (in the same shuffled order each time round)",
                    path.display(),
                    count.div_ceil(available)
                )
            });
            let list: Vec<String> = (0..count).map(|i| all[i % available].clone()).collect();
            let mut book = OpeningBook::fixed(list);
            book.reuse = reuse;
            Ok(book)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const X: GameKind = GameKind::Xiangqi;

    #[test]
    fn chess_openings_generate_balanced_and_epd_lines_read_as_chess() {
        let a = generate(4, 20, 1, GameKind::Chess).unwrap();
        assert_eq!(a, generate(4, 20, 1, GameKind::Chess).unwrap());
        assert_eq!(a.iter().collect::<HashSet<_>>().len(), 20);
        for fen in &a {
            let mut g = AnyGame::from_fen(GameKind::Chess, fen, GameConfig::default()).unwrap();
            assert!(balanced(&mut g), "{fen}");
        }
        let mut g = game_of_line(
            GameKind::Chess,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 bm e5; id \"x\";",
            false,
        )
        .unwrap();
        assert_eq!(g.legal_moves().len(), 20);
        // A xiangqi FEN is not a chess position, and the error says which game was expected.
        let err = game_of_line(GameKind::Chess, chuhan_engine::START_FEN, false).unwrap_err();
        assert!(!err.is_empty());
    }

    #[test]
    fn chess960_books_take_start_positions_by_seed_and_read_960_lines() {
        let source = OpeningSource::Chess960;
        let fens = |seed: u64, count: usize| -> Vec<String> {
            let book = book_for(&source, None, count, count, seed, GameKind::Chess).unwrap();
            (0..count).map(|i| book.get(i).unwrap()).collect()
        };
        let a = fens(7, 960);
        assert_eq!(a, fens(7, 960), "the seed decides the order");
        assert_ne!(a, fens(8, 960));
        assert_eq!(
            a.iter().collect::<HashSet<_>>().len(),
            960,
            "each start once"
        );
        let all: HashSet<String> = (0..960).map(|n| chess960_start_fen(n).unwrap()).collect();
        assert!(a.iter().all(|f| all.contains(f)));
        let more = book_for(&source, None, 970, 970, 7, GameKind::Chess).unwrap();
        assert_eq!(
            more.get(960).unwrap(),
            a[0],
            "past 960 pairs the order repeats"
        );
        assert!(more.reuse_note().unwrap().contains("970 game pairs"));
        // A Chess960 line (king on b1, rooks a1 and h1 castling) reads under the 960 rules
        // only.
        let line = "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1";
        let g = game_of_line(GameKind::Chess, line, true).unwrap();
        assert!(g.is_chess960());
        assert!(game_of_line(GameKind::Chess, line, false).is_err());
    }

    #[test]
    fn generated_openings_are_distinct_balanced_and_reproducible() {
        let a = generate(6, 50, 1, X).unwrap();
        assert_eq!(a, generate(6, 50, 1, X).unwrap());
        assert_ne!(a, generate(6, 50, 2, X).unwrap());
        let set: HashSet<_> = a.iter().collect();
        assert_eq!(set.len(), 50);
        for fen in &a {
            let mut g = Game::new(Position::from_fen(fen).unwrap(), GameConfig::default());
            assert!(is_balanced(&mut g), "{fen}");
        }
    }

    #[test]
    fn a_small_space_is_reported_not_looped_on() {
        // One ply from the start: 44 moves; the two cannon captures unbalance material and the
        // short search rejects four more.
        let err = generate(1, 100, 3, X).unwrap_err().to_string();
        assert!(err.contains("100 pairs"), "{err}");
        assert_eq!(generate(1, 38, 3, X).unwrap().len(), 38);
        assert!(generate(1, 39, 3, X).is_err());
    }

    #[test]
    fn epd_lines_with_opcodes_parse() {
        let p = parse_line(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - bm h2e2; id \"x\";",
        )
        .unwrap();
        assert_eq!(p, Position::startpos());
        assert!(parse_line("nonsense w").is_err());
    }
}
