//! Repetition judging: finding the most recent cycle on a position's stack and deciding who,
//! if anyone, it condemns. [`super::Game`] judges the third occurrence; the search judges the
//! second inside its tree through a [`RepetitionJudge`].

use super::chase::{points, ChaseBoard};
use super::{RepetitionOutcome, RuleSet, Termination};
use crate::xiangqi::position::{Position, StateInfo};
use crate::xiangqi::types::{Color, Piece, Square};

/// Judges the most recent repetition cycle on the position's stack: the current position
/// recurring (same side to move) within the plies since the last capture or null move. The
/// cycle runs from the latest earlier occurrence to now. `None` when the current position
/// does not repeat; that answer costs only a scan of the stored keys.
///
/// The position is not changed: the cycle is replayed on a copy of the board.
pub fn cycle_outcome(pos: &mut Position, rules: RuleSet) -> Option<RepetitionOutcome> {
    repetition_span(pos, 2).map(|span| judge_span(pos, span, rules))
}

/// How many plies back the current position occurred for the `(occurrence - 1)`-th time
/// before now, counting back from the latest; `None` when it did not occur that often since
/// the last capture or null move.
pub(super) fn repetition_span(pos: &Position, occurrence: usize) -> Option<usize> {
    let history = pos.history();
    let n = history.len();
    let window = usize::from(pos.quiet_plies()).min(n);
    let key = pos.key();
    let mut found = 1;
    // The same side is to move only an even number of plies back, and a position cannot
    // recur after two plies.
    (4..=window).step_by(2).find(|&d| {
        if history[n - d].key_before == key {
            found += 1;
        }
        found == occurrence
    })
}

/// Judges the last `span` plies of the position's history, which lead from an earlier
/// occurrence of the current position back to it.
pub(super) fn judge_span(pos: &Position, span: usize, rules: RuleSet) -> RepetitionOutcome {
    let history = pos.history();
    let cycle = &history[history.len() - span..];
    // The side to move now also moved first in the cycle: it made the even-indexed moves.
    let first = pos.side_to_move();
    let all_check = |offset: usize| cycle.iter().skip(offset).step_by(2).all(|st| st.gave_check);
    match (all_check(0), all_check(1)) {
        (true, false) => return RepetitionOutcome::Loses(first, Termination::PerpetualCheck),
        (false, true) => {
            return RepetitionOutcome::Loses(first.flip(), Termination::PerpetualCheck)
        }
        (true, true) => return RepetitionOutcome::Draw,
        (false, false) => {}
    }
    if !rules.forbids_perpetual_chase() {
        return RepetitionOutcome::Draw;
    }
    // Any position of the cycle with a side in check: no chase verdict.
    if pos.in_check() || cycle.iter().any(|st| st.in_check_before) {
        return RepetitionOutcome::Draw;
    }
    match chasers(pos, cycle, first) {
        [true, false] => RepetitionOutcome::Loses(Color::Red, Termination::PerpetualChase),
        [false, true] => RepetitionOutcome::Loses(Color::Black, Termination::PerpetualChase),
        _ => RepetitionOutcome::Draw,
    }
}

/// Which sides (indexed by colour) chased one and the same enemy piece with every one of
/// their moves in the cycle. `first` made the first move of `cycle`, which ends in `pos`.
fn chasers(pos: &Position, cycle: &[StateInfo], first: Color) -> [bool; 2] {
    let (still_chased, _) = chased_identities(pos, cycle, first);
    [still_chased[0] != 0, still_chased[1] != 0]
}

/// Per side, the identities (start-of-cycle points) of the enemy pieces it chased with every
/// one of its moves in the cycle, and each point's identity at the end of the cycle (meaningful
/// for occupied points).
fn chased_identities(pos: &Position, cycle: &[StateInfo], first: Color) -> ([u128; 2], [u8; 90]) {
    let mut board = ChaseBoard::new(pos);
    let mut identity: [u8; 90] = std::array::from_fn(|s| s as u8);
    for st in cycle.iter().rev() {
        if st.mv.is_none() || !st.captured.is_empty() {
            // Cannot happen within a repetition (captures and null moves end the scan).
            return ([0, 0], identity);
        }
        board.unplay(st.mv.from().index(), st.mv.to().index(), st.captured);
    }
    // Identity of a piece: the point it stood on at the start of the cycle.
    // Per side: identities of the enemy pieces newly threatened after each of its moves.
    let mut still_chased = [u128::MAX; 2];
    let mut mover = first;
    for st in cycle {
        let (from, to) = (st.mv.from().index(), st.mv.to().index());
        let before = board.chased(mover);
        board.play(from, to);
        identity[to] = identity[from];
        let newly = board.chased(mover) & !before;
        let ids = points(newly).fold(0u128, |acc, s| acc | 1u128 << identity[s]);
        still_chased[mover.index()] &= ids;
        if still_chased == [0, 0] {
            break;
        }
        mover = mover.flip();
    }
    (still_chased, identity)
}

/// A repetition ruling explained, for game records: the outcome, how many plies the judged
/// cycle spans, and for a perpetual chase the enemy pieces the loser chased with every move
/// (where they stand when the game ends).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepetitionRuling {
    /// Who, if anyone, loses.
    pub outcome: RepetitionOutcome,
    /// Plies from the first of the three occurrences to now.
    pub plies: usize,
    /// For a perpetual chase: each chased piece and its point.
    pub chased: Vec<(Piece, Square)>,
}

/// Explains the repetition the game judge rules on at the third occurrence of the current
/// position (the same cycle and verdict as [`super::Game::verdict`]); `None` when the current
/// position has not occurred three times since the last capture.
pub fn repetition_ruling(pos: &Position, rules: RuleSet) -> Option<RepetitionRuling> {
    let span = repetition_span(pos, 3)?;
    let outcome = judge_span(pos, span, rules);
    let mut chased = Vec::new();
    if let RepetitionOutcome::Loses(loser, Termination::PerpetualChase) = outcome {
        let history = pos.history();
        let cycle = &history[history.len() - span..];
        let (sets, identity) = chased_identities(pos, cycle, pos.side_to_move());
        let ids = sets[loser.index()];
        for (s, piece) in pos.board().iter().enumerate() {
            if !piece.is_empty() && piece.color() != loser && ids >> identity[s] & 1 == 1 {
                chased.push((*piece, Square(s as u8)));
            }
        }
    }
    Some(RepetitionRuling {
        outcome,
        plies: span,
        chased,
    })
}

/// Judges a repetition inside the search tree: who, if anyone, the most recent cycle condemns,
/// or `None` when the position does not repeat.
pub type RepetitionJudge = fn(&mut Position) -> Option<CycleVerdict>;

fn verdict_of(outcome: RepetitionOutcome) -> CycleVerdict {
    match outcome {
        RepetitionOutcome::Draw => CycleVerdict::Draw,
        RepetitionOutcome::Loses(c, _) => CycleVerdict::Loses(c),
    }
}

/// Tree repetition under Asian rules: perpetual check, then perpetual chase, loses.
pub fn asian_cycle(pos: &mut Position) -> Option<CycleVerdict> {
    cycle_outcome(pos, RuleSet::Asian).map(verdict_of)
}

/// The tree judge for a rule set.
pub fn judge_for(rules: RuleSet) -> RepetitionJudge {
    if rules.forbids_perpetual_chase() {
        asian_cycle
    } else {
        check_only_cycle
    }
}

/// Who, if anyone, a repetition cycle condemns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleVerdict {
    /// Neither side forfeits: a draw.
    Draw,
    /// This side loses (perpetual check or chase).
    Loses(Color),
}

/// Tree repetition by the perpetual-check rule only: the current key recurring within the
/// plies since the last capture or null move; a side that checked with every move of the
/// cycle (while the other did not) loses.
pub fn check_only_cycle(pos: &mut Position) -> Option<CycleVerdict> {
    cycle_outcome(pos, RuleSet::CheckOnly).map(verdict_of)
}
