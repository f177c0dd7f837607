//! `games.pgn`: one PGN record per finished game, written beside games.csv (xiangqi records
//! in the run's notation with per-move comments; chess records in SAN with the Seven Tag
//! Roster, `White`/`Black` for the players).
//!
//! games.csv is the source of truth: a record is made from a finished game's row (and the
//! per-move search info the row carries while the run is live), and a resumed run rebuilds
//! games.pgn from games.csv before appending ([`rebuild`]), keeping the records it already had
//! for those rows and writing the missing ones from the rows (without per-move comments,
//! which games.csv does not keep). [`pgn_record`] is the one writer; `chuhan merge` and the
//! report call it too.
//!
//! Tags: `Game`, `Event` (`chuhan <command>`), `Red`, `Black`, `White` (Red's player again,
//! for rating tools that read only chess's `White`/`Black`), `Site` (`chuhan <version>
//! (<commit>)`), `Date` (the run's creation date), `Round` (`<pair>.<game>`, games.csv's
//! indices), `PlyCount`, `Termination` (the rule, and for repetitions who checked or chased
//! which piece), then `Result`, `FEN` (when the opening is not the standard start) and
//! `Format`. Each move has a comment `{score/depth nodes time}`: the score in pawns from the
//! mover's side (`+M3`/`-M3`: mate in 3 moves), `-` when the player gave none.

use crate::play::any::GameKind;
use crate::play::game::MoveInfo;
use crate::play::results::{civil_date, Manifest, RunConfig};
use crate::play::runner::PlayedGame;
use chuhan_engine::search::{MATE, MATE_BOUND};
use chuhan_engine::{
    read_pgn, repetition_ruling, write_pgn_annotated, Color, Game, GameConfig, GameRecord, Move,
    Notation, PieceKind, Position, RepetitionOutcome, Termination,
};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a game record cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum PgnWriteError {
    /// The row's opening or moves do not replay (a damaged games.csv row).
    #[error("game {game}: {reason}")]
    BadGame {
        /// Global game index.
        game: u64,
        /// What does not replay.
        reason: String,
    },
    /// An I/O problem with games.pgn.
    #[error("{path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// What every record of a run shares: the tags from the run, the rules to replay and explain
/// endings by, the move notation.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnContext {
    /// `Event` tag.
    pub event: String,
    /// `Site` tag.
    pub site: String,
    /// `Date` tag, `YYYY.MM.DD`.
    pub date: String,
    /// The judge's rules of the run.
    pub game: GameConfig,
    /// Move notation (xiangqi; chess records are in SAN).
    pub notation: Notation,
    /// The game of the run.
    pub kind: GameKind,
    /// Chess960: records say `[Variant "Chess960"]` and always carry `SetUp` and `FEN`.
    pub chess960: bool,
}

impl PgnContext {
    /// The context of a match, sprt, ladder or calibration run from its manifest.
    pub fn for_run(manifest: &Manifest<RunConfig>) -> PgnContext {
        let config = &manifest.config;
        let game = GameConfig {
            rules: config.rules,
            move_limit: config.move_limit,
        };
        let event = format!("chuhan {}", config.command);
        PgnContext {
            kind: config.game,
            chess960: config.chess960,
            ..PgnContext::of_manifest(manifest, &event, game, config.pgn_format)
        }
    }

    /// The context of any run: `Event` as given, `Site` and `Date` from the manifest.
    pub fn of_manifest<C>(
        manifest: &Manifest<C>,
        event: &str,
        game: GameConfig,
        notation: Notation,
    ) -> PgnContext {
        let commit: String = manifest.git_commit.chars().take(10).collect();
        PgnContext {
            event: event.to_string(),
            site: format!("chuhan {} ({commit})", manifest.chuhan_version),
            date: civil_date(manifest.created_unix).replace('-', "."),
            game,
            notation,
            kind: GameKind::Xiangqi,
            chess960: false,
        }
    }
}

/// The comment of one move: `score/depth nodes time`, e.g. `+0.35/12 10234 0.051s`.
pub fn move_comment(info: &MoveInfo) -> String {
    let score = match info.score {
        None => "-".to_string(),
        Some(s) if s.abs() >= MATE_BOUND => {
            let plies = MATE - s.abs();
            let sign = if s > 0 { '+' } else { '-' };
            format!("{sign}M{}", (plies + 1) / 2)
        }
        Some(s) => format!("{:+.2}", f64::from(s) / 100.0),
    };
    let depth = info.depth.map_or("-".to_string(), |d| d.to_string());
    format!("{score}/{depth} {} {:.3}s", info.nodes, info.seconds)
}

fn side(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

fn piece_name(kind: Option<PieceKind>) -> &'static str {
    match kind {
        Some(PieceKind::General) => "general",
        Some(PieceKind::Advisor) => "advisor",
        Some(PieceKind::Elephant) => "elephant",
        Some(PieceKind::Horse) => "horse",
        Some(PieceKind::Chariot) => "chariot",
        Some(PieceKind::Cannon) => "cannon",
        Some(PieceKind::Soldier) => "soldier",
        None => "piece",
    }
}

/// The `Termination` tag of a game: its termination name, and what the rule found. `game` is
/// the judge after the game's last move.
pub fn termination_text(row: &PlayedGame, game: &Game) -> String {
    let name = row.termination.as_str();
    let pos = game.position();
    let loser = row.result.winner().map(Color::flip);
    let detail = match name {
        "checkmate" | "stalemate" => loser.map(|l| format!("{} has no legal move", side(l))),
        "perpetual-check" | "perpetual-chase" | "repetition" => {
            repetition_ruling(pos, game.config().rules).map(|r| match r.outcome {
                RepetitionOutcome::Loses(l, Termination::PerpetualCheck) => format!(
                    "{} checked with every move of the {}-ply cycle and loses",
                    side(l),
                    r.plies
                ),
                RepetitionOutcome::Loses(l, _) => {
                    let pieces: Vec<String> = r
                        .chased
                        .iter()
                        .map(|(p, s)| format!("{} {} on {s}", side(p.color()), piece_name(p.kind())))
                        .collect();
                    format!(
                        "{} chased the {} with every move of the {}-ply cycle and loses",
                        side(l),
                        pieces.join(" and the "),
                        r.plies
                    )
                }
                RepetitionOutcome::Draw => format!(
                    "the position occurred three times in a {}-ply cycle; nobody checked or chased throughout",
                    r.plies
                ),
            })
        }
        "no-attacking-material" => Some("neither side has a chariot, horse, cannon or soldier".into()),
        "move-limit" => Some(format!(
            "{} plies without a capture",
            game.config().move_limit
        )),
        "adjudication-resign" => loser.map(|l| format!("both sides' scores had {} lost", side(l))),
        "adjudication-draw" => Some("both sides' scores stayed near zero".into()),
        "ply-cap" => Some(format!("{} plies played", row.plies)),
        "time-forfeit" => loser.map(|l| format!("{}'s flag fell", side(l))),
        "crash" | "timeout" | "illegal-move" | "disconnect" => {
            loser.map(|l| format!("{} ({}) failed", side(l), player_of(row, l)))
        }
        _ => None,
    };
    match detail {
        Some(d) => format!("{name}: {d}"),
        None => name.to_string(),
    }
}

fn player_of(row: &PlayedGame, color: Color) -> &str {
    match color {
        Color::Red => &row.red,
        Color::Black => &row.black,
    }
}

/// Replays a row's moves from its opening through the judge.
fn replay(row: &PlayedGame, config: GameConfig) -> Result<(Game, Vec<Move>), PgnWriteError> {
    let bad = |reason: String| PgnWriteError::BadGame {
        game: row.game,
        reason,
    };
    let start = Position::from_fen(&row.opening)
        .map_err(|e| bad(format!("opening '{}': {e}", row.opening)))?;
    let mut game = Game::new(start, config);
    let mut moves = Vec::new();
    for text in row.moves.split_whitespace() {
        let mv =
            Move::parse_uci(text).ok_or_else(|| bad(format!("move '{text}' does not parse")))?;
        game.play(mv).map_err(|e| bad(e.to_string()))?;
        moves.push(mv);
    }
    Ok((game, moves))
}

/// The `Round` tag of a game: `<pair>.<game>` as in games.csv.
pub fn round_of(row: &PlayedGame) -> String {
    format!("{}.{}", row.pair, row.game)
}

/// The `Termination` tag of a chess game: its termination name, and what the rule found.
fn chess_termination_text(row: &PlayedGame) -> String {
    let name = row.termination.as_str();
    let loser = row.result.winner().map(|c| match c {
        Color::Red => "Black",
        Color::Black => "White",
    });
    let player = |side: &str| {
        if side == "White" {
            &row.red
        } else {
            &row.black
        }
    };
    let detail = match name {
        "checkmate" => loser.map(|l| format!("{l} is mated")),
        "stalemate" => Some("the side to move has no legal move and is not in check".into()),
        "insufficient-material" => Some("neither side can mate".into()),
        "repetition" => Some("the same position for the third time".into()),
        "fifty-moves" => Some("100 plies without a capture or pawn move".into()),
        "adjudication-resign" => loser.map(|l| format!("both sides' scores had {l} lost")),
        "adjudication-draw" => Some("both sides' scores stayed near zero".into()),
        "ply-cap" => Some(format!("{} plies played", row.plies)),
        "time-forfeit" => loser.map(|l| format!("{l}'s flag fell")),
        "crash" | "timeout" | "illegal-move" | "disconnect" => {
            loser.map(|l| format!("{l} ({}) failed", player(l)))
        }
        _ => None,
    };
    match detail {
        Some(d) => format!("{name}: {d}"),
        None => name.to_string(),
    }
}

/// A chess game's record, its moves in SAN (with a comment per move when the row carries
/// search info).
fn chess_pgn_record(row: &PlayedGame, ctx: &PgnContext) -> Result<String, PgnWriteError> {
    use chuhan_engine::chess;
    let bad = |reason: String| PgnWriteError::BadGame {
        game: row.game,
        reason,
    };
    let read = if ctx.chess960 {
        chess::Position::from_fen_chess960
    } else {
        chess::Position::from_fen
    };
    let mut pos = read(&row.opening).map_err(|e| bad(format!("opening '{}': {e}", row.opening)))?;
    let start = pos.clone();
    let mut moves = Vec::new();
    for text in row.moves.split_whitespace() {
        let mv = pos.parse_uci(text).map_err(|e| bad(e.to_string()))?;
        pos.make(mv);
        moves.push(mv);
    }
    let tags = vec![
        ("Event", ctx.event.clone()),
        ("Site", ctx.site.clone()),
        ("Date", ctx.date.clone()),
        ("Round", round_of(row)),
        ("White", row.red.clone()),
        ("Black", row.black.clone()),
        ("PlyCount", moves.len().to_string()),
        ("Termination", chess_termination_text(row)),
    ];
    // The tag section from the engine's writer (a record without moves), the move text here,
    // so that each move can carry its comment.
    let tags: Vec<(String, String)> = tags.into_iter().map(|(n, v)| (n.to_string(), v)).collect();
    let result = row.result.as_pgn();
    let mut tags = tags;
    if ctx.chess960 {
        tags.push(("Variant".into(), "Chess960".into()));
    }
    let head = chess::GameRecord {
        tags,
        start_fen: row.opening.clone(),
        moves: Vec::new(),
        result: result.to_string(),
    };
    let written = chess::write_pgn(&head).map_err(|e| bad(e.to_string()))?;
    let mut text = written
        .split_once("\n\n")
        .map_or(written.clone(), |(tags, _)| format!("{tags}\n\n"));
    let mut tokens: Vec<String> = Vec::new();
    let mut pos = start;
    for (i, &mv) in moves.iter().enumerate() {
        match pos.side_to_move() {
            chess::Color::White => tokens.push(format!("{}.", pos.fullmove())),
            chess::Color::Black if i == 0 => tokens.push(format!("{}...", pos.fullmove())),
            chess::Color::Black => {}
        }
        tokens.push(pos.to_san(mv).map_err(|e| bad(e.to_string()))?);
        if let Some(info) = row.search.get(i) {
            tokens.push(format!("{{{}}}", move_comment(info)));
        }
        pos.make(mv);
    }
    tokens.push(row.result.as_pgn().to_string());
    wrap_tokens(&mut text, &tokens);
    text.push_str("\n\n");
    Ok(text)
}

/// Appends move-text tokens to `text`, space separated, in lines of at most 80 characters.
fn wrap_tokens(text: &mut String, tokens: &[String]) {
    let mut width = 0;
    for (i, token) in tokens.iter().enumerate() {
        let len = token.chars().count();
        if i > 0 {
            if width + 1 + len > 80 {
                text.push('\n');
                width = 0;
            } else {
                text.push(' ');
                width += 1;
            }
        }
        text.push_str(token);
        width += len;
    }
}

/// Writes a Chess960 game as PGN: the record with `[Variant "Chess960"]` (replacing any other
/// `Variant`), which the engine's writer reads under Chess960's castling rules and writes with
/// `SetUp` and `FEN` (X-FEN) and castling as O-O / O-O-O.
pub fn write_chess960_pgn(record: &chuhan_engine::chess::GameRecord) -> Result<String, String> {
    let mut record = record.clone();
    record.tags.retain(|(n, _)| n != "Variant");
    record.tags.push(("Variant".into(), "Chess960".into()));
    chuhan_engine::chess::write_pgn(&record).map_err(|e| e.to_string())
}

/// One game's PGN record (ending with a blank line), from its games.csv row; each move gets
/// a comment when the row carries search info (games just played), none otherwise.
pub fn pgn_record(row: &PlayedGame, ctx: &PgnContext) -> Result<String, PgnWriteError> {
    if ctx.kind == GameKind::Chess {
        return chess_pgn_record(row, ctx);
    }
    let (game, moves) = replay(row, ctx.game)?;
    let tags = [
        ("Event", ctx.event.clone()),
        ("Red", row.red.clone()),
        ("Black", row.black.clone()),
        // The first player again, for rating tools that know only chess's roster (Ordo and
        // BayesElo read `White`, `Black` and `Result`).
        ("White", row.red.clone()),
        ("Site", ctx.site.clone()),
        ("Date", ctx.date.clone()),
        ("Round", round_of(row)),
        ("PlyCount", moves.len().to_string()),
        ("Termination", termination_text(row, &game)),
    ];
    let record = GameRecord {
        tags: tags.map(|(n, v)| (n.to_string(), v)).to_vec(),
        start_fen: row.opening.clone(),
        moves,
        result: row.result.as_pgn().to_string(),
    };
    let comments: Vec<String> = row.search.iter().map(move_comment).collect();
    let mut text = write_pgn_annotated(&record, ctx.notation, &comments).map_err(|e| {
        PgnWriteError::BadGame {
            game: row.game,
            reason: e.to_string(),
        }
    })?;
    text.push('\n');
    Ok(text)
}

/// Splits a games.pgn text into its records: each starts at a `[Game ` line (xiangqi), or at
/// an `[Event ` line that does not follow one (chess), as [`pgn_record`] writes them.
pub fn split_records(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = Vec::new();
    let mut offset = 0;
    let mut after_game_tag = false;
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Game ") || (line.starts_with("[Event ") && !after_game_tag) {
            starts.push(offset);
        }
        after_game_tag = line.starts_with("[Game ");
        offset += line.len();
    }
    let mut out = Vec::with_capacity(starts.len());
    for (i, &s) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        out.push(&text[s..end]);
    }
    out
}

/// Whether a stored record is the complete record of this row: it reads, has the row's
/// `Round`, start, moves and result.
fn record_matches(text: &str, row: &PlayedGame, kind: GameKind) -> bool {
    use chuhan_engine::chess;
    // Each game's reader gives its own record type: what is compared is taken from it in the
    // same words (the start as that game's rules write the FEN back).
    let (round, result, moves, same_start) = match kind {
        GameKind::Xiangqi => {
            let Some(record) = only_record(read_pgn(text)) else {
                return false;
            };
            let fen = |f: &str| Position::from_fen(f).map(|p| p.to_fen());
            let moves: Vec<String> = record.moves.iter().map(|m| m.to_uci()).collect();
            let same_start = fen(&record.start_fen) == fen(&row.opening);
            (
                record.tag("Round").map(str::to_owned),
                record.result,
                moves,
                same_start,
            )
        }
        GameKind::Chess => {
            let Some(record) = only_record(chess::read_pgn(text)) else {
                return false;
            };
            // A Chess960 record (its Variant tag) was read under its castling rules; its
            // start is compared under them too.
            let chess960 = chess::pgn::record_is_chess960(&record);
            let fen = |f: &str| {
                let pos = if chess960 {
                    chess::Position::from_fen_chess960(f)
                } else {
                    chess::Position::from_fen(f)
                };
                pos.ok().map(|p| p.to_fen())
            };
            let moves: Vec<String> = record.moves.iter().map(|m| m.to_uci()).collect();
            let start = fen(&record.start_fen);
            let same_start = start.is_some() && start == fen(&row.opening);
            (
                record.tag("Round").map(str::to_owned),
                record.result,
                moves,
                same_start,
            )
        }
    };
    round.as_deref() == Some(round_of(row).as_str())
        && result == row.result.as_pgn()
        && moves.join(" ") == row.moves
        && same_start
        && text.trim_end().ends_with(row.result.as_pgn())
}

/// The one record of a text that reads and holds exactly one.
fn only_record<R, E>(records: Result<Vec<R>, E>) -> Option<R> {
    <[R; 1]>::try_from(records.ok()?).ok().map(|[r]| r)
}

/// Rewrites `path` to hold exactly one record per row of `rows` (games.csv's rows, in their
/// order): the stored record when it is complete and matches the row, else one written from
/// the row. Records of games not in `rows` (played after the last complete games.csv line)
/// and any truncated record are dropped. Returns how many records were written from rows.
pub fn rebuild(path: &Path, rows: &[PlayedGame], ctx: &PgnContext) -> Result<usize, PgnWriteError> {
    let io = |source| PgnWriteError::Io {
        path: path.to_path_buf(),
        source,
    };
    let old = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io(e)),
    };
    let mut stored: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
    for text in split_records(&old) {
        if let Some(round) = text.lines().find_map(|l| {
            l.strip_prefix("[Round \"")
                .and_then(|r| r.strip_suffix("\"]"))
        }) {
            // A later record of the same game (a replay after a crash) wins.
            stored.insert(round.to_string(), text);
        }
    }
    let mut out = String::with_capacity(old.len());
    let mut regenerated = 0;
    for row in rows {
        match stored.get(&round_of(row)) {
            Some(text) if record_matches(text, row, ctx.kind) => {
                out.push_str(text.trim_end());
                out.push_str("\n\n");
            }
            _ => {
                out.push_str(&pgn_record(row, ctx)?);
                regenerated += 1;
            }
        }
    }
    let tmp = path.with_extension("pgn.tmp");
    std::fs::write(&tmp, out).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)?;
    Ok(regenerated)
}

/// The global game index of a stored record (from its `Round` tag, `<pair>.<game>`).
fn game_of(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| {
            l.strip_prefix("[Round \"")
                .and_then(|r| r.strip_suffix("\"]"))
        })
        .and_then(|r| r.split_once('.'))
        .and_then(|(_, g)| g.parse().ok())
}

/// For runs without games.csv (SPSA): rewrites `path` keeping only complete records of games
/// with an index below `limit` (those of the iterations kept), once each; the others are
/// replayed and written again. Returns how many records were kept.
pub fn keep_games_below(path: &Path, limit: u64) -> Result<usize, PgnWriteError> {
    let io = |source| PgnWriteError::Io {
        path: path.to_path_buf(),
        source,
    };
    let old = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io(e)),
    };
    let mut kept: std::collections::BTreeMap<u64, &str> = std::collections::BTreeMap::new();
    for text in split_records(&old) {
        let complete = read_pgn(text).is_ok_and(|r| r.len() == 1)
            && chuhan_engine::pgn::RESULTS[..3]
                .iter()
                .any(|r| text.trim_end().ends_with(r));
        match game_of(text) {
            Some(g) if g < limit && complete => {
                kept.insert(g, text);
            }
            _ => {}
        }
    }
    let mut out = String::with_capacity(old.len());
    for text in kept.values() {
        out.push_str(text.trim_end());
        out.push_str("\n\n");
    }
    let tmp = path.with_extension("pgn.tmp");
    std::fs::write(&tmp, out).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)?;
    Ok(kept.len())
}

/// games.pgn open for appending: one record written (and so flushed) per finished game.
pub struct PgnFile {
    path: PathBuf,
    file: File,
    ctx: PgnContext,
}

impl PgnFile {
    /// Opens (creating it if absent) `path` for appending records in `ctx`.
    pub fn open(path: &Path, ctx: PgnContext) -> Result<PgnFile, PgnWriteError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|source| PgnWriteError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        Ok(PgnFile {
            path: path.to_path_buf(),
            file,
            ctx,
        })
    }

    /// Appends the record of one finished game in a single write.
    pub fn append(&mut self, row: &PlayedGame) -> Result<(), PgnWriteError> {
        let text = pgn_record(row, &self.ctx)?;
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|source| PgnWriteError::Io {
                path: self.path.clone(),
                source,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhan_engine::GameResult;

    fn row(opening: &str, moves: &str, result: GameResult, termination: &str) -> PlayedGame {
        PlayedGame {
            pair: 3,
            game: 7,
            pairing: 0,
            opening: opening.to_string(),
            red: "greedy".into(),
            black: "random".into(),
            result,
            termination: termination.into(),
            plies: moves.split_whitespace().count() as u32,
            nodes: 0,
            seconds: 0.1,
            seed: 5,
            moves: moves.into(),
            search: Vec::new(),
        }
    }

    fn ctx(notation: Notation) -> PgnContext {
        PgnContext {
            event: "chuhan match".into(),
            site: "chuhan test".into(),
            date: "2026.12.01".into(),
            game: GameConfig::default(),
            notation,
            kind: GameKind::Xiangqi,
            chess960: false,
        }
    }

    #[test]
    fn a_perpetual_chase_names_the_chaser_and_the_chased_piece() {
        let cycle = "c3a3 a7c8 a3c3 c8a7";
        let r = row(
            "4k4/9/n8/9/9/9/2R6/9/9/3K5 w - - 0 1",
            &format!("{cycle} {cycle}"),
            GameResult::BlackWins,
            "perpetual-chase",
        );
        let text = pgn_record(&r, &ctx(Notation::Iccs)).unwrap();
        assert!(
            text.contains("[Termination \"perpetual-chase: Red chased the Black horse on a7 with every move of the 8-ply cycle and loses\"]"),
            "{text}"
        );
        assert!(text.contains("[Round \"3.7\"]"), "{text}");
        assert!(
            text.contains("[FEN \"4k4/9/n8/9/9/9/2R6/9/9/3K5 w - - 0 1\"]"),
            "{text}"
        );
        let back = read_pgn(&text).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].result, "0-1");
        assert_eq!(back[0].moves.len(), 8);
    }

    #[test]
    fn a_perpetual_check_names_the_checker() {
        let cycle = "f5e5 e9f9 e5f5 f9e9";
        let r = row(
            "4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1",
            &format!("{cycle} {cycle}"),
            GameResult::BlackWins,
            "perpetual-check",
        );
        let text = pgn_record(&r, &ctx(Notation::Wxf)).unwrap();
        assert!(
            text.contains(
                "perpetual-check: Red checked with every move of the 8-ply cycle and loses"
            ),
            "{text}"
        );
        assert!(text.contains("[Format \"WXF\"]"), "{text}");
    }

    #[test]
    fn comments_give_score_depth_nodes_and_time() {
        let info = |score, depth| MoveInfo {
            score,
            depth,
            nodes: 1234,
            seconds: 0.0514,
        };
        assert_eq!(
            move_comment(&info(Some(35), Some(12))),
            "+0.35/12 1234 0.051s"
        );
        assert_eq!(
            move_comment(&info(Some(-250), Some(3))),
            "-2.50/3 1234 0.051s"
        );
        assert_eq!(
            move_comment(&info(Some(MATE - 5), Some(9))),
            "+M3/9 1234 0.051s"
        );
        assert_eq!(
            move_comment(&info(Some(-(MATE - 2)), Some(9))),
            "-M1/9 1234 0.051s"
        );
        assert_eq!(move_comment(&info(None, None)), "-/- 1234 0.051s");
    }

    #[test]
    fn rebuild_keeps_matching_records_drops_extra_and_truncated_ones_and_fills_gaps() {
        let dir = std::env::temp_dir().join(format!("chuhan-pgn-rebuild-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.pgn");
        let start = chuhan_engine::START_FEN;
        let mut a = row(start, "h2e2 h9g7", GameResult::Draw, "ply-cap");
        a.game = 0;
        a.pair = 0;
        a.search = vec![MoveInfo::default(); 2];
        let mut b = row(start, "b2e2", GameResult::Draw, "ply-cap");
        b.game = 1;
        b.pair = 0;
        let mut c = row(start, "h0g2", GameResult::Draw, "ply-cap");
        c.game = 2;
        c.pair = 1;
        let ctx = ctx(Notation::Iccs);
        let rec_a = pgn_record(&a, &ctx).unwrap();
        let rec_c = pgn_record(&c, &ctx).unwrap();
        let rec_b = pgn_record(&b, &ctx).unwrap();
        // a complete, c complete but not in games.csv, b cut in the middle.
        let cut = &rec_b[..rec_b.len() - 12];
        std::fs::write(&path, format!("{rec_a}{rec_c}{cut}")).unwrap();
        let regenerated = rebuild(&path, &[a.clone(), b.clone()], &ctx).unwrap();
        assert_eq!(regenerated, 1);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{rec_a}{rec_b}"));
        let games = read_pgn(&text).unwrap();
        assert_eq!(games.len(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
