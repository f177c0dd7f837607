//! The chess engine: evaluation parameters, a table size and an optional level, with a seeded
//! random stream per game: what the UCI front end (`chuhan uci --game chess`) drives. It mirrors
//! the xiangqi [`crate::Engine`], over the chess searcher.

use crate::chess::eval::EvalParams;
use crate::chess::position::Position;
use crate::chess::search::{SearchInfo, SearchResult, Searcher};
use crate::chess::types::Move;
use crate::level::Level;
use crate::search::Limits;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Duration;

/// A complete chess engine configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct ChessConfig {
    /// Display name.
    pub name: String,
    /// Evaluation parameters.
    pub params: EvalParams,
    /// Transposition table size in megabytes.
    pub tt_mb: usize,
    /// Difficulty level (None = full strength within the caller's limits).
    pub level: Option<Level>,
}

impl Default for ChessConfig {
    fn default() -> Self {
        ChessConfig {
            name: "chuhan-chess".into(),
            params: EvalParams::default(),
            tt_mb: 16,
            level: None,
        }
    }
}

/// The chess levels, as numbers like the xiangqi ones: Easy searches 2 plies within 2,000
/// nodes, strays up to 150 cp and plays 10% random moves; Medium 5 plies, 30,000 nodes, 30 cp,
/// 2%; Hard 400,000 nodes without straying. Not calibrated yet.
pub fn levels() -> Vec<Level> {
    let level = |name: &str, depth, nodes, ms, margin, random_rate| Level {
        name: name.into(),
        depth: Some(depth),
        nodes: Some(nodes),
        time: Some(Duration::from_millis(ms)),
        margin,
        random_rate,
        opening_plies: 0,
        opening_depth: None,
        opening_margin: 0,
    };
    vec![
        level("easy", 2, 2_000, 500, 150, 0.10),
        level("medium", 5, 30_000, 1_500, 30, 0.02),
        level("hard", 64, 400_000, 4_000, 0, 0.0),
    ]
}

/// A chess engine instance (one per worker; reused across games).
pub struct ChessEngine {
    config: ChessConfig,
    searcher: Searcher,
    rng: Xoshiro256PlusPlus,
}

impl ChessEngine {
    /// A fresh engine.
    pub fn new(config: ChessConfig) -> ChessEngine {
        ChessEngine {
            searcher: Searcher::new(config.params.clone(), config.tt_mb),
            config,
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ChessConfig {
        &self.config
    }

    /// Starts a new game: clears the table and history, reseeds the random stream.
    pub fn new_game(&mut self, seed: u64) {
        self.searcher.clear();
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    }

    /// A plain search at full strength within `limits` (the level ignored).
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.searcher.search(pos, limits, &[], false, info)
    }

    /// Picks the move to play: searches within the tighter of `limits` and the level's caps,
    /// then lets the level stray or play randomly (never away from a forced mate).
    pub fn choose_move(
        &mut self,
        pos: &Position,
        limits: &Limits,
        game_ply: usize,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let Some(level) = self.config.level.clone() else {
            return self.searcher.search(pos, limits, &[], false, info);
        };
        let limits = limits.tightest(&level.limits(game_ply));
        let exact = level.margin_at(game_ply) > 0;
        let mut result = self.searcher.search(pos, &limits, &[], exact, info);
        let all: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let has_move = !result.best_move.is_none();
        level.apply(&mut result, has_move, &all, game_ply, &mut self.rng);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_play_legal_moves_and_never_throw_a_mate_in_one() {
        // Back-rank mate in one: every level, whatever its random stream, plays it.
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        for level in levels() {
            for seed in 0..20 {
                let mut e = ChessEngine::new(ChessConfig {
                    level: Some(level.clone()),
                    ..ChessConfig::default()
                });
                e.new_game(seed);
                let r = e.choose_move(&pos, &Limits::default(), 10, &mut |_| {});
                assert_eq!(
                    r.best_move.to_string(),
                    "d1d8",
                    "{} seed {seed}",
                    level.name
                );
            }
        }
    }

    #[test]
    fn easy_strays_and_is_reproducible() {
        let pos = Position::startpos();
        let easy = levels().remove(0);
        let play = |seed| {
            let mut e = ChessEngine::new(ChessConfig {
                level: Some(easy.clone()),
                ..ChessConfig::default()
            });
            e.new_game(seed);
            e.choose_move(&pos, &Limits::default(), 0, &mut |_| {})
                .best_move
        };
        let moves: Vec<Move> = (0..30).map(play).collect();
        assert_eq!(moves, (0..30).map(play).collect::<Vec<_>>());
        let distinct: std::collections::BTreeSet<_> = moves.iter().collect();
        assert!(
            distinct.len() >= 3,
            "easy should vary its first move: {moves:?}"
        );
        assert!(moves.iter().all(|&m| pos.is_legal(m)));
    }
}
