//! An engine: parameters + search features + an optional level, with a seeded random stream
//! per game. This is what players in the arena and the UCI front end drive.

use crate::eval::nnue::Network;
use crate::level::Level;
use crate::params::Params;
use crate::search::smp::MAX_THREADS;
use crate::search::{Limits, SearchInfo, SearchOptions, SearchResult, Searcher};
use crate::xiangqi::position::Position;
use crate::xiangqi::rules::{judge_for, RuleSet};
use crate::xiangqi::types::Move;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

/// A complete engine configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// Display name.
    pub name: String,
    /// Parameter values.
    pub params: Params,
    /// Search switches and TT size.
    pub options: SearchOptions,
    /// Difficulty level (None = full strength within the caller's limits).
    pub level: Option<Level>,
    /// A network that replaces the handcrafted evaluation (None: the handcrafted one). The
    /// default is the network built into the binary ([`crate::eval::nnue::embedded`]).
    pub network: Option<Arc<Network>>,
}

impl EngineConfig {
    /// The default engine with the handcrafted evaluation instead of the network (the
    /// default engine before the network; Texel-tuned parameters act on this one).
    pub fn handcrafted() -> EngineConfig {
        EngineConfig {
            name: "handcrafted".into(),
            network: None,
            ..EngineConfig::default()
        }
    }

    /// Whether the evaluation parameters (every group but `search`) decide this engine's
    /// evaluation: true without a network and with a residual one (added to the handcrafted
    /// evaluation); false when a network replaces it. `material.*` also sets the exchange
    /// values the search prunes by, but that alone is not what a tuner of it means.
    pub fn evaluation_params_act(&self) -> bool {
        self.network.as_ref().map_or(true, |n| n.residual())
    }
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            name: "chuhan".into(),
            params: Params::default(),
            options: SearchOptions::default(),
            level: None,
            network: Some(crate::eval::nnue::embedded()),
        }
    }
}

/// An engine instance (one per worker; reused across games).
pub struct Engine {
    config: EngineConfig,
    searcher: Searcher,
    // Lazy SMP helpers (threads beyond the first); empty on one thread.
    helpers: Vec<Searcher>,
    rng: Xoshiro256PlusPlus,
}

impl Engine {
    /// A fresh engine.
    pub fn new(config: EngineConfig) -> Engine {
        let mut searcher = Searcher::new(config.params.clone(), config.options);
        searcher.set_network(config.network.clone());
        Engine {
            searcher,
            helpers: Vec::new(),
            config,
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The searcher (for the repetition judge, evaluation access).
    pub fn searcher_mut(&mut self) -> &mut Searcher {
        &mut self.searcher
    }

    /// Sets the repetition rules the search judges cycles by (default: Asian).
    pub fn set_rules(&mut self, rules: RuleSet) {
        self.searcher.set_repetition_judge(judge_for(rules));
        for h in &mut self.helpers {
            h.set_repetition_judge(judge_for(rules));
        }
    }

    /// Search threads: 1 (the default) searches exactly as before, deterministic under node
    /// and depth limits; more run a Lazy SMP search (helpers sharing the table; see
    /// [`crate::search::smp`]) for full-strength searches. Levels always search on one
    /// thread, as they were calibrated. Clamped to 1..=[`MAX_THREADS`] (callers refuse other
    /// values first).
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.clamp(1, MAX_THREADS) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            self.helpers.push(self.searcher.helper());
        }
    }

    /// Search threads (see [`Engine::set_threads`]).
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Starts a new game: clears the TT and history, reseeds the random stream.
    pub fn new_game(&mut self, seed: u64) {
        self.searcher.clear();
        for h in &mut self.helpers {
            h.clear();
        }
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    }

    /// A plain search at full strength within `limits` (levels ignored), on every thread.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.searcher
            .search_smp(&mut self.helpers, pos, limits, &[], false, info)
    }

    /// Picks the move to play: searches within the tighter of `limits` and the level's caps,
    /// over `candidates` (moves allowed at the root, e.g. without forfeiting repetitions;
    /// empty = all legal moves), then lets the level stray or play randomly. `game_ply` is the
    /// number of plies already played in the game (for the level's opening settings). Without
    /// a level the search runs on every thread, with one on the first only.
    pub fn choose_move(
        &mut self,
        pos: &Position,
        candidates: &[Move],
        limits: &Limits,
        game_ply: usize,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let Some(level) = self.config.level.clone() else {
            return self.searcher.search_smp(
                &mut self.helpers,
                pos,
                limits,
                candidates,
                false,
                info,
            );
        };
        let limits = limits.tightest(&level.limits(game_ply));
        let margin = level.margin_at(game_ply);
        let mut result = self
            .searcher
            .search_within(pos, &limits, candidates, margin, info);
        let all: Vec<Move> = if candidates.is_empty() {
            pos.clone().legal_moves().iter().copied().collect()
        } else {
            candidates.to_vec()
        };
        let has_move = !result.best_move.is_none();
        level.apply(&mut result, has_move, &all, game_ply, &mut self.rng);
        result
    }
}
