//! The in-process engine as a player.

use super::{playable_moves, MoveChoice, Player, PlayerFailure};
use crate::play::limits::MoveLimits;
use chuhan_engine::{Engine, EngineConfig, Game, Limits};
use std::time::Duration;

/// The in-process engine: searches under the move limits (and its level's caps), over the
/// moves that do not forfeit by a repetition rule.
pub struct EnginePlayer {
    name: String,
    engine: Engine,
}

impl EnginePlayer {
    /// An engine player called `name`.
    pub fn new(name: &str, config: EngineConfig) -> EnginePlayer {
        EnginePlayer {
            name: name.to_string(),
            engine: Engine::new(config),
        }
    }
}

/// Search limits for one move. On a clock: about 1/30 of the time left (or of the time to
/// the next control) plus most of the increment, never more than 40% of what is left.
pub fn search_limits(limits: &MoveLimits) -> Limits {
    let mut out = Limits {
        depth: limits.depth,
        nodes: limits.nodes,
        ..Limits::default()
    };
    if let Some(t) = limits.movetime {
        out.soft_time = Some(t);
        out.hard_time = Some(t);
    }
    if let Some(left) = limits.time_left {
        let moves = limits.moves_to_go.unwrap_or(30).clamp(1, 30) as f64;
        let left_s = left.as_secs_f64();
        let soft = (left_s / moves + 0.75 * limits.increment.as_secs_f64()).min(0.4 * left_s);
        let hard = (3.0 * soft).min(0.8 * left_s);
        out.soft_time = Some(Duration::from_secs_f64(soft.max(0.0)));
        out.hard_time = Some(Duration::from_secs_f64(hard.max(0.0)));
    }
    out
}

impl Player for EnginePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, seed: u64) {
        self.engine.new_game(seed);
    }

    fn choose_move(
        &mut self,
        game: &mut Game,
        limits: &MoveLimits,
    ) -> Result<MoveChoice, PlayerFailure> {
        let all = game.legal_moves().len();
        let safe = playable_moves(game);
        // Empty candidates mean "all legal moves" to the engine.
        let candidates = if safe.len() == all { Vec::new() } else { safe };
        self.engine.set_rules(game.config().rules);
        let ply = game.moves().len();
        let result = self.engine.choose_move(
            game.position(),
            &candidates,
            &search_limits(limits),
            ply,
            &mut |_| {},
        );
        if result.best_move.is_none() {
            return Err(PlayerFailure::Crash("the search returned no move".into()));
        }
        Ok(MoveChoice {
            mv: result.best_move,
            score: Some(result.score),
            depth: Some(result.depth),
            nodes: result.nodes,
        })
    }
}
