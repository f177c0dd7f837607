//! Difficulty levels: numbers, not code. A level caps depth, nodes and time, and may "stray"
//! to a plausible second-best move within a margin, or play a random move at some rate. During
//! the first plies of a game it may search differently (opening variety).

use crate::search::{is_mate_score, Limits, SearchResult};
use crate::xiangqi::types::Move;
use rand::Rng;
use std::time::Duration;

/// The top of the skill dial ([`Level::set_skill`]).
pub const SKILL_MAX: f64 = 20.0;

/// A difficulty level.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// Name (`easy`, `medium`, `hard`, or any).
    pub name: String,
    /// Depth cap.
    pub depth: Option<u32>,
    /// Node budget per move.
    pub nodes: Option<u64>,
    /// Time budget per move.
    pub time: Option<Duration>,
    /// Centipawns below the best within which the level may stray to another move.
    pub margin: i32,
    /// Probability (0..=1) of a random legal move instead of the searched one.
    pub random_rate: f64,
    /// Plies at the start of a game that use the opening settings below.
    pub opening_plies: u32,
    /// Depth cap during the opening plies (None = the normal cap).
    pub opening_depth: Option<u32>,
    /// Margin during the opening plies.
    pub opening_margin: i32,
}

impl Level {
    /// A level named `name` with no caps, no straying and no random moves: the plain engine,
    /// limited only by what the game gives it (the base that per-player settings fill in).
    pub fn uncapped(name: impl Into<String>) -> Level {
        Level {
            name: name.into(),
            depth: None,
            nodes: None,
            time: None,
            margin: 0,
            random_rate: 0.0,
            opening_plies: 0,
            opening_depth: None,
            opening_margin: 0,
        }
    }

    /// A published level below Hard: Hard with the skill dial ([`Level::set_skill`]) at `skill`
    /// and a time budget of `time_ms` (a safety net: the node budget decides).
    fn on_the_dial(name: &str, skill: f64, time_ms: u64) -> Level {
        let mut level = Level::hard();
        level.set_skill(skill);
        level.name = name.into();
        level.time = Some(Duration::from_millis(time_ms));
        level
    }

    /// The published Easy level: skill 4 on the dial (800 nodes, margin 80, 7.68% random
    /// moves), within 500 ms. (Until 2026-12-06: depth 2, 6,000 nodes, margin 100, 12%.)
    pub fn easy() -> Level {
        Level::on_the_dial("easy", 4.0, 500)
    }

    /// The published step between Easy and Medium, about 300 Elo above Easy: skill 7.13
    /// (2,367 nodes, margin 64, 4.97% random), within 1,000 ms. (Skill 7.03 before the
    /// network evaluation, 2026-12-07.)
    pub fn easy_medium() -> Level {
        Level::on_the_dial("easy-medium", 7.13, 1_000)
    }

    /// The published Medium level, about 600 Elo above Easy: skill 9.99 (6,378 nodes, margin
    /// 50, 3.01% random), within 1,500 ms. (Skill 9.83 before the network evaluation; until
    /// 2026-12-06: depth 4, 60,000 nodes, margin 24, 2%.)
    pub fn medium() -> Level {
        Level::on_the_dial("medium", 9.99, 1_500)
    }

    /// The published step between Medium and Hard, about 900 Elo above Easy: skill 12.77
    /// (16,715 nodes, margin 36, 1.57% random), within 2,000 ms. (Skill 12.31 before the
    /// network evaluation.)
    pub fn medium_hard() -> Level {
        Level::on_the_dial("medium-hard", 12.77, 2_000)
    }

    /// The published last step below Hard, about 1,200 Elo above Easy: skill 15.77 (47,277
    /// nodes, margin 21, 0.54% random), within 3,000 ms. (Skill 14.75 before the network
    /// evaluation.)
    pub fn hard_lite() -> Level {
        Level::on_the_dial("hard-lite", 15.77, 3_000)
    }

    /// The published levels, weakest first: what configs/levels.toml holds.
    pub fn published() -> Vec<Level> {
        vec![
            Level::easy(),
            Level::easy_medium(),
            Level::medium(),
            Level::medium_hard(),
            Level::hard_lite(),
            Level::hard(),
        ]
    }

    /// The Hard level: the full engine (no depth cap), at most 8,000,000 nodes and 4,000 ms a
    /// move, no straying; its first 8 plies stray up to 14 centipawns at full depth, for
    /// variety. (Until 2026-12-03 it was capped at depth 14 and 1,200,000 nodes and searched
    /// its first 8 plies 5 plies deep: caps the faster engine reached at 10 s + 0.1 s.)
    pub fn hard() -> Level {
        Level {
            name: "hard".into(),
            depth: None,
            nodes: Some(8_000_000),
            time: Some(Duration::from_millis(4_000)),
            margin: 0,
            random_rate: 0.0,
            opening_plies: 8,
            opening_depth: None,
            opening_margin: 14,
        }
    }

    /// Sets the level's strength from one number, `skill` in `0.0..=SKILL_MAX` (clamped): a
    /// dial from a blundering beginner to the full search within a node budget, along which
    /// `chuhan calibrate --knob skill` places levels at target Elo gaps. With `f = skill / 20`:
    ///
    /// - node budget `200 * 2^(skill / 2)`: 200 nodes at 0, 3,200 at 8, 204,800 at 20;
    /// - straying margin `100 * (1 - f)` centipawns: 100 at 0 (Easy's old margin), 0 at 20;
    /// - random-move rate `0.12 * (1 - f)^2`: 12% at 0 (Easy's old rate), 3% at 10, 0 at 20;
    /// - no depth cap (the node budget decides).
    ///
    /// Every part grows stronger with `skill`, and the weakest levels keep the straying and the
    /// random moves that make them beatable (never past a forced win: see [`Level::choose`]).
    /// The time budget and the opening settings are left as they are.
    pub fn set_skill(&mut self, skill: f64) {
        let s = if skill.is_nan() {
            0.0
        } else {
            skill.clamp(0.0, SKILL_MAX)
        };
        let weak = 1.0 - s / SKILL_MAX;
        self.nodes = Some((200.0 * (s / 2.0).exp2()).round() as u64);
        self.margin = (100.0 * weak).round() as i32;
        self.random_rate = ((0.12 * weak * weak) * 10_000.0).round() / 10_000.0;
        self.depth = None;
    }

    /// Whether this level is in its opening phase at `game_ply` (0 = first move of the game).
    pub fn in_opening(&self, game_ply: usize) -> bool {
        (game_ply as u64) < self.opening_plies as u64
    }

    /// The limits this level imposes at `game_ply`.
    pub fn limits(&self, game_ply: usize) -> Limits {
        let depth = if self.in_opening(game_ply) {
            self.opening_depth.or(self.depth)
        } else {
            self.depth
        };
        Limits {
            depth,
            nodes: self.nodes,
            soft_time: self.time,
            hard_time: self.time,
            stop: None,
        }
    }

    /// The straying margin at `game_ply`.
    pub fn margin_at(&self, game_ply: usize) -> i32 {
        if self.in_opening(game_ply) {
            self.opening_margin
        } else {
            self.margin
        }
    }

    /// Chooses the move to play from a finished search: a random candidate at the random rate,
    /// else a move within the margin drawn with weight `exp(-(best - score) / max(1, margin/2))`.
    /// Never strays or plays randomly once a forced win or loss is found (mate scores), so a
    /// mate in one is never missed.
    pub fn choose<R: Rng>(
        &self,
        result: &SearchResult,
        candidates: &[Move],
        game_ply: usize,
        rng: &mut R,
    ) -> Move {
        let best = (!result.best_move.is_none()).then_some(result.best_move);
        self.choose_among(
            best,
            result.score,
            &result.root_scores,
            candidates,
            game_ply,
            rng,
        )
        .unwrap_or(result.best_move)
    }

    /// Lets the level pick the move of a finished search of either game (see
    /// [`Level::choose_among`]) and rewrites `result` for it: the chosen move, its own score,
    /// and a principal variation of that move alone.
    pub fn apply<M: Copy + PartialEq, R: Rng>(
        &self,
        result: &mut SearchResult<M>,
        has_move: bool,
        candidates: &[M],
        game_ply: usize,
        rng: &mut R,
    ) {
        let best = has_move.then_some(result.best_move);
        let Some(chosen) = self.choose_among(
            best,
            result.score,
            &result.root_scores,
            candidates,
            game_ply,
            rng,
        ) else {
            return;
        };
        if chosen != result.best_move {
            result.score = result
                .root_scores
                .iter()
                .find(|(m, _)| *m == chosen)
                .map_or(result.score, |&(_, s)| s);
            result.best_move = chosen;
            result.pv = vec![chosen];
        }
    }

    /// [`Level::choose`] for any game's moves: `best` is the searched move (None when there is
    /// no legal move), `score` its score, `root_scores` every root move's exact score (empty
    /// when the search did not compute them).
    pub fn choose_among<M: Copy + PartialEq, R: Rng>(
        &self,
        best: Option<M>,
        score: i32,
        root_scores: &[(M, i32)],
        candidates: &[M],
        game_ply: usize,
        rng: &mut R,
    ) -> Option<M> {
        // Draw both numbers every time so the random stream does not depend on the branch.
        let roll: f64 = rng.gen();
        let pick: f64 = rng.gen();
        let best_move = best?;
        if is_mate_score(score) {
            return Some(best_move);
        }
        if self.random_rate > 0.0 && roll < self.random_rate && !candidates.is_empty() {
            let i = ((pick * candidates.len() as f64) as usize).min(candidates.len() - 1);
            return Some(candidates[i]);
        }
        let margin = self.margin_at(game_ply);
        if margin <= 0 || root_scores.len() < 2 {
            return Some(best_move);
        }
        let temperature = (margin as f64 / 2.0).max(1.0);
        let near: Vec<(M, f64)> = root_scores
            .iter()
            .filter(|&&(m, s)| score - s <= margin && candidates.contains(&m) && !is_mate_score(s))
            .map(|&(m, s)| (m, (-((score - s).max(0) as f64) / temperature).exp()))
            .collect();
        let total: f64 = near.iter().map(|(_, w)| w).sum();
        if near.is_empty() || total <= 0.0 {
            return Some(best_move);
        }
        let mut target = pick * total;
        for (m, w) in &near {
            if target < *w {
                return Some(*m);
            }
            target -= w;
        }
        Some(near[near.len() - 1].0)
    }
}
