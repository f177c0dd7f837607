//! The games of the browser: which ones (a bounded set), their moves in every notation, and the
//! per-move comments of games.pgn.

use crate::play::runner::PlayedGame;
use chuhan_engine::notation::{render, Notation};
use chuhan_engine::{Move, Position};
use serde::Serialize;
use std::collections::HashMap;

/// Terminations that are a player's failure (shown first in the browser).
pub const FAILURES: [&str; 4] = ["crash", "timeout", "illegal-move", "disconnect"];

/// One game as the page's script sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameView {
    /// Global game index.
    pub game: u64,
    /// Global pair index.
    pub pair: u64,
    /// A chess game (drawn on an 8x8 board, moves in SAN and UCI): its opening is a chess FEN.
    pub chess: bool,
    /// The first mover's name (Red in xiangqi, White in chess).
    pub red: String,
    /// Black's name.
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: String,
    /// Termination name.
    pub termination: String,
    /// The game's seed.
    pub seed: u64,
    /// Start FEN.
    pub opening: String,
    /// Moves in UCI (a0-i9).
    pub uci: Vec<String>,
    /// Moves in WXF (empty when a move could not be rendered).
    pub wxf: Vec<String>,
    /// Moves in Chinese (empty when a move could not be rendered).
    pub zh: Vec<String>,
    /// Chess moves in SAN (empty for xiangqi, or when a move could not be rendered).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub san: Vec<String>,
    /// Per-move comments (`score/depth nodes time` from games.pgn), empty strings when none.
    pub comments: Vec<String>,
}

impl GameView {
    /// The view of one game; `comments` are games.pgn's comments of its moves, if known.
    pub fn new(g: &PlayedGame, comments: Option<&Vec<String>>) -> GameView {
        let uci: Vec<String> = g.moves.split_whitespace().map(str::to_string).collect();
        let chess = is_chess_fen(&g.opening);
        let (wxf, zh, san) = if chess {
            (Vec::new(), Vec::new(), render_san(&g.opening, &uci))
        } else {
            let (wxf, zh) = render_all(&g.opening, &uci);
            (wxf, zh, Vec::new())
        };
        let comments = match comments {
            Some(c) if c.len() == uci.len() => c.clone(),
            _ => vec![String::new(); uci.len()],
        };
        GameView {
            game: g.game,
            pair: g.pair,
            chess,
            red: g.red.clone(),
            black: g.black.clone(),
            result: g.result.as_pgn().to_string(),
            termination: g.termination.clone(),
            seed: g.seed,
            opening: g.opening.clone(),
            uci,
            wxf,
            zh,
            san,
            comments,
        }
    }
}

/// The moves in WXF and Chinese; both empty when the opening or a move does not parse.
pub fn render_all(fen: &str, uci: &[String]) -> (Vec<String>, Vec<String>) {
    let Ok(mut pos) = Position::from_fen(fen) else {
        return (Vec::new(), Vec::new());
    };
    let mut wxf = Vec::with_capacity(uci.len());
    let mut zh = Vec::with_capacity(uci.len());
    for text in uci {
        let Some(mv) = Move::parse_uci(text) else {
            return (Vec::new(), Vec::new());
        };
        match (
            render(&mut pos, mv, Notation::Wxf),
            render(&mut pos, mv, Notation::Chinese),
        ) {
            (Ok(w), Ok(c)) => {
                wxf.push(w);
                zh.push(c);
            }
            _ => return (Vec::new(), Vec::new()),
        }
        pos.make(mv);
    }
    (wxf, zh)
}

/// Whether `fen` is a chess position: eight ranks (a xiangqi board has ten), which tells the
/// two games apart without the run's manifest.
pub fn is_chess_fen(fen: &str) -> bool {
    fen.split_whitespace()
        .next()
        .is_some_and(|board| board.split('/').count() == 8)
}

/// Chess moves in SAN; empty when the opening or a move does not parse (the browser then
/// shows UCI alone). A game that does not replay by standard rules is tried under Chess960's
/// (its start or its king-takes-rook castling refused by the standard ones), so a Chess960
/// run's report needs no manifest either.
pub fn render_san(fen: &str, uci: &[String]) -> Vec<String> {
    use chuhan_engine::chess;
    let standard = chess::Position::from_fen(fen).map(|pos| san_of(pos, uci));
    match standard {
        Ok(Some(san)) => san,
        _ => chess::Position::from_fen_chess960(fen)
            .ok()
            .and_then(|pos| san_of(pos, uci))
            .unwrap_or_default(),
    }
}

/// The SAN of `uci` played from `pos`, `None` when a move does not parse.
fn san_of(mut pos: chuhan_engine::chess::Position, uci: &[String]) -> Option<Vec<String>> {
    let mut san = Vec::with_capacity(uci.len());
    for text in uci {
        let mv = pos.parse_uci(text).ok()?;
        san.push(pos.to_san(mv).ok()?);
        pos.make(mv);
    }
    Some(san)
}

/// Picks at most `limit` games (all when `None`): failures first (up to a quarter of the
/// limit), then the first games by index; returned in game order. The set changes little as
/// a run grows, so a live report renders each game's moves once.
pub fn select(games: &[PlayedGame], limit: Option<usize>) -> Vec<&PlayedGame> {
    let mut sorted: Vec<&PlayedGame> = games.iter().collect();
    sorted.sort_by_key(|g| g.game);
    let Some(limit) = limit else {
        return sorted;
    };
    if sorted.len() <= limit {
        return sorted;
    }
    let mut chosen: Vec<&PlayedGame> = sorted
        .iter()
        .filter(|g| FAILURES.contains(&g.termination.as_str()))
        .take(limit / 4)
        .copied()
        .collect();
    for g in &sorted {
        if chosen.len() >= limit {
            break;
        }
        if !chosen.iter().any(|c| c.game == g.game) {
            chosen.push(g);
        }
    }
    chosen.sort_by_key(|g| g.game);
    chosen
}

/// The browser's games with their comments; `comments` is called only when a game is not in
/// `cache` (views made here are added to it).
pub fn browser_games(
    games: &[PlayedGame],
    limit: Option<usize>,
    comments: &mut dyn FnMut() -> HashMap<String, Vec<String>>,
    cache: &mut HashMap<u64, GameView>,
) -> Vec<GameView> {
    let mut loaded: Option<HashMap<String, Vec<String>>> = None;
    select(games, limit)
        .into_iter()
        .map(|g| {
            if let Some(v) = cache.get(&g.game) {
                return v.clone();
            }
            let c = loaded.get_or_insert_with(&mut *comments);
            let view = GameView::new(g, comment_for(c, g));
            cache.insert(g.game, view.clone());
            view
        })
        .collect()
}

/// The comments of a game, found by its `Round` tag: `pair.game` with the game's global index,
/// or its number within the pair (1 or 2), pairs counted from 0 or from 1.
fn comment_for<'a>(
    comments: &'a HashMap<String, Vec<String>>,
    g: &PlayedGame,
) -> Option<&'a Vec<String>> {
    let within = g.game % 2 + 1;
    [
        format!("{}.{}", g.pair, g.game),
        format!("{}.{}", g.pair, within),
        format!("{}.{}", g.pair + 1, within),
        format!("{}.{}", g.pair + 1, g.game + 1),
    ]
    .iter()
    .find_map(|k| comments.get(k))
}

/// The comments of every record of a PGN text, by `Round` tag: one string per move (empty
/// when the move has none). Only comments that follow a move count, and the text inside the
/// braces is kept as written.
pub fn pgn_comments(text: &str) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    let mut round: Option<String> = None;
    let mut moves: Vec<String> = Vec::new();
    let mut in_moves = false;
    let mut finish = |round: &mut Option<String>, moves: &mut Vec<String>| {
        if let Some(r) = round.take() {
            out.insert(r, std::mem::take(moves));
        }
        moves.clear();
    };
    let mut comment: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if comment.is_none() && trimmed.starts_with('[') {
            if in_moves {
                finish(&mut round, &mut moves);
                in_moves = false;
            }
            if let Some(rest) = trimmed.strip_prefix("[Round \"") {
                round = rest.split('"').next().map(str::to_string);
            }
            continue;
        }
        in_moves = in_moves || !trimmed.is_empty();
        let mut token = String::new();
        for ch in line.chars().chain(std::iter::once(' ')) {
            if let Some(c) = comment.as_mut() {
                if ch == '}' {
                    if let Some(last) = moves.last_mut() {
                        if last.is_empty() {
                            *last = c.trim().to_string();
                        }
                    }
                    comment = None;
                } else {
                    c.push(ch);
                }
                continue;
            }
            if ch == '{' {
                push_token(&mut token, &mut moves);
                comment = Some(String::new());
            } else if ch.is_whitespace() {
                push_token(&mut token, &mut moves);
            } else {
                token.push(ch);
            }
        }
    }
    finish(&mut round, &mut moves);
    out
}

/// Counts a movetext token as a move unless it is a move number or a result.
fn push_token(token: &mut String, moves: &mut Vec<String>) {
    let t = std::mem::take(token);
    let is_number = t.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()) || t.ends_with('.');
    if t.is_empty() || is_number || ["1-0", "0-1", "1/2-1/2", "*"].contains(&t.as_str()) {
        return;
    }
    moves.push(String::new());
}
