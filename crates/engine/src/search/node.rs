//! Per-node bookkeeping: making and unmaking moves with the incremental evaluation stacks
//! (material, network accumulators), the static evaluation, and the limits check.

use super::{history, Searcher};
use crate::xiangqi::types::{Color, Move};

impl Searcher {
    #[inline]
    pub(super) fn static_eval(&self) -> i32 {
        if let Some(net) = &self.net {
            let n = 2 * net.hidden();
            let acc = &self.acc[self.acc.len() - n..];
            // The incremental accumulators equal a refresh (checked in debug builds, so the
            // tests walk every node of their searches).
            debug_assert_eq!(
                {
                    let mut fresh = vec![0; n];
                    net.refresh(&self.pos, &mut fresh);
                    fresh
                },
                acc
            );
            let value = net.evaluate(acc, self.pos.side_to_move());
            if !net.residual() {
                return value;
            }
            return value + self.handcrafted_eval();
        }
        self.handcrafted_eval()
    }

    /// The handcrafted evaluation of the current position (side to move's view) from the
    /// incremental material stack.
    #[inline]
    pub(super) fn handcrafted_eval(&self) -> i32 {
        let mut red = self.psq.last().copied().unwrap_or_default().value();
        if self.eval.has_optional_terms() {
            red += self.eval.optional_terms(&self.pos);
        }
        let stm = if self.pos.side_to_move() == Color::Red {
            red
        } else {
            -red
        };
        stm + self.eval.tempo
    }

    #[inline]
    pub(super) fn make(&mut self, mv: Move) {
        let delta = self.eval.psq_delta(&self.pos, mv);
        let top = self.psq.last().copied().unwrap_or_default();
        self.psq.push(top + delta);
        if let Some(net) = &self.net {
            let n = 2 * net.hidden();
            let len = self.acc.len();
            self.acc.resize(len + n, 0);
            let (parent, child) = self.acc.split_at_mut(len);
            net.update(&self.pos, mv, &parent[len - n..], child);
        }
        self.pos.make(mv);
    }

    /// Makes `mv` at `ply`, remembering its (piece, to) for continuation history.
    #[inline]
    pub(super) fn make_at(&mut self, mv: Move, ply: usize) {
        self.moved[ply] = history::PieceTo::new(self.pos.board()[mv.from().index()], mv);
        self.make(mv);
    }

    /// The (piece, to) keys of the moves one and two plies before `ply`.
    #[inline]
    pub(super) fn conts(&self, ply: usize) -> [history::PieceTo; 2] {
        let at = |back: usize| {
            if ply >= back {
                self.moved[ply - back]
            } else {
                history::PieceTo::NONE
            }
        };
        [at(1), at(2)]
    }

    #[inline]
    pub(super) fn unmake(&mut self) {
        self.pos.unmake();
        self.psq.pop();
        if let Some(net) = &self.net {
            self.acc.truncate(self.acc.len() - 2 * net.hidden());
        }
    }

    #[inline]
    pub(super) fn check_limits(&mut self) {
        let nodes = self.nodes;
        if self.limits.reached(nodes, self.start)
            || self.smp.as_mut().is_some_and(|l| l.poll(nodes))
        {
            self.stopped = true;
        }
    }
}
