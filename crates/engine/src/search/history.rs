//! Quiet-move history: a from-to table updated with "gravity" (bonuses shrink as a value
//! nears its bound, so the table never saturates and old lessons fade), a malus for the quiet
//! moves tried before a cutoff, and counter moves (the quiet reply that refuted each move).

use crate::xiangqi::types::{Move, SQUARE_COUNT};

/// Largest absolute history value.
pub(crate) const HISTORY_MAX: i32 = 16_384;

/// History and counter-move tables, kept across searches of a game.
pub(crate) struct History {
    quiet: Vec<i32>,
    counter: Vec<Move>,
}

impl History {
    /// Empty tables.
    pub(crate) fn new() -> History {
        History {
            quiet: vec![0; SQUARE_COUNT * SQUARE_COUNT],
            counter: vec![Move::NONE; SQUARE_COUNT * SQUARE_COUNT],
        }
    }

    /// Forgets everything (new game).
    pub(crate) fn clear(&mut self) {
        self.quiet.iter_mut().for_each(|h| *h = 0);
        self.counter.iter_mut().for_each(|m| *m = Move::NONE);
    }

    /// Ages the table at the start of a search.
    pub(crate) fn age(&mut self) {
        self.quiet.iter_mut().for_each(|h| *h /= 2);
    }

    /// The history score of a quiet move.
    #[inline]
    pub(crate) fn quiet(&self, mv: Move) -> i32 {
        self.quiet[mv.history_index()]
    }

    /// The counter move to `prev` (`Move::NONE` when unknown or after a null move).
    #[inline]
    pub(crate) fn counter(&self, prev: Move) -> Move {
        if prev.is_none() {
            Move::NONE
        } else {
            self.counter[prev.history_index()]
        }
    }

    /// A quiet `best` caused a cutoff at `depth` after `tried` (other quiet moves) failed.
    pub(crate) fn reward(&mut self, best: Move, tried: &[Move], prev: Move, depth: i32) {
        let bonus = (120 * depth).min(1_500);
        self.update(best, bonus);
        for &mv in tried {
            self.update(mv, -bonus);
        }
        if !prev.is_none() {
            self.counter[prev.history_index()] = best;
        }
    }

    #[inline]
    fn update(&mut self, mv: Move, bonus: i32) {
        let h = &mut self.quiet[mv.history_index()];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}
