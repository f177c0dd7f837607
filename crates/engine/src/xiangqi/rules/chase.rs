//! Attack queries for the chase rule, on a bare board: which enemy pieces a side threatens in the
//! sense of the Asian rules (see [`ChaseBoard::chased`]).
//!
//! The judge replays a repetition cycle on a plain copy of the board, so these queries never
//! touch the [`Position`] (and its make/unmake stacks) they were started from.

use crate::xiangqi::position::Position;
use crate::xiangqi::tables::{
    Steps, ADVISOR_STEPS, ELEPHANT_STEPS, GENERAL_STEPS, HORSE_STEPS, SOLDIER_STEPS,
};
use crate::xiangqi::types::{Color, Piece, PieceKind, SQUARE_COUNT};

/// Iterates over the set bits of a 90-point set, lowest point first.
pub(super) fn points(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let s = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(s)
    })
}

/// Whether a soldier of `color` on point `s` has crossed the river.
fn crossed(color: Color, s: usize) -> bool {
    let rank = s / 9;
    match color {
        Color::Red => rank >= 5,
        Color::Black => rank <= 4,
    }
}

/// Whether `to` is one of the step destinations, with its leg/eye point empty when `blockable`.
fn step_reaches<const N: usize>(
    squares: &[Piece; SQUARE_COUNT],
    steps: &Steps<N>,
    to: usize,
    blockable: bool,
) -> bool {
    (0..steps.len as usize).any(|i| {
        steps.to[i] as usize == to && (!blockable || squares[steps.via[i] as usize].is_empty())
    })
}

/// A bare copy of a position's board (pieces, occupancy per side, the generals' points) that
/// the chase judge replays a cycle on, without the position's stacks and key.
#[derive(Clone, Copy)]
pub(super) struct ChaseBoard {
    squares: [Piece; SQUARE_COUNT],
    occupied: [u128; 2],
    generals: [usize; 2],
}

impl ChaseBoard {
    /// The board of a position.
    pub(super) fn new(pos: &Position) -> ChaseBoard {
        ChaseBoard {
            squares: *pos.board(),
            occupied: [pos.occupancy(Color::Red), pos.occupancy(Color::Black)],
            generals: [
                pos.general(Color::Red).index(),
                pos.general(Color::Black).index(),
            ],
        }
    }

    /// Moves the piece on `from` to `to`, removing whatever stood there, and returns it.
    pub(super) fn play(&mut self, from: usize, to: usize) -> Piece {
        let piece = self.squares[from];
        let captured = self.squares[to];
        let us = piece.color().index();
        if !captured.is_empty() {
            self.occupied[captured.color().index()] &= !(1u128 << to);
        }
        self.occupied[us] ^= (1u128 << from) | (1u128 << to);
        self.squares[to] = piece;
        self.squares[from] = Piece::EMPTY;
        if piece.kind() == Some(PieceKind::General) {
            self.generals[us] = to;
        }
        captured
    }

    /// Takes back [`ChaseBoard::play`]`(from, to)` that removed `captured`.
    pub(super) fn unplay(&mut self, from: usize, to: usize, captured: Piece) {
        let piece = self.squares[to];
        let us = piece.color().index();
        self.occupied[us] ^= (1u128 << from) | (1u128 << to);
        self.squares[from] = piece;
        self.squares[to] = captured;
        if !captured.is_empty() {
            self.occupied[captured.color().index()] |= 1u128 << to;
        }
        if piece.kind() == Some(PieceKind::General) {
            self.generals[us] = from;
        }
    }

    /// Number of pieces strictly between two points on one file or rank; `None` when the
    /// points do not share a line.
    fn between_count(&self, a: usize, b: usize) -> Option<u32> {
        let (lo, hi) = (a.min(b), a.max(b));
        let step = if lo / 9 == hi / 9 {
            1
        } else if lo % 9 == hi % 9 {
            9
        } else {
            return None;
        };
        let count = (lo + step..hi)
            .step_by(step)
            .filter(|&s| !self.squares[s].is_empty())
            .count();
        Some(count as u32)
    }

    /// Whether the piece on `from` could capture a piece standing on `to` (movement rules
    /// only: colours and the safety of its own general are not checked).
    pub(super) fn attacks(&self, from: usize, to: usize) -> bool {
        let piece = self.squares[from];
        let Some(kind) = piece.kind() else {
            return false;
        };
        if from == to {
            return false;
        }
        let squares = &self.squares;
        match kind {
            PieceKind::Chariot => self.between_count(from, to) == Some(0),
            PieceKind::Cannon => self.between_count(from, to) == Some(1),
            PieceKind::Horse => step_reaches(squares, &HORSE_STEPS[from], to, true),
            PieceKind::Elephant => step_reaches(squares, &ELEPHANT_STEPS[from], to, true),
            PieceKind::Advisor => step_reaches(squares, &ADVISOR_STEPS[from], to, false),
            PieceKind::General => step_reaches(squares, &GENERAL_STEPS[from], to, false),
            PieceKind::Soldier => step_reaches(
                squares,
                &SOLDIER_STEPS[piece.color().index()][from],
                to,
                false,
            ),
        }
    }

    /// Whether the general of `color` is attacked, the enemy general counting as a chariot
    /// along the file (facing generals).
    pub(super) fn general_attacked(&self, color: Color) -> bool {
        let g = self.generals[color.index()];
        points(self.occupied[color.flip().index()]).any(|s| {
            if self.squares[s].kind() == Some(PieceKind::General) {
                s % 9 == g % 9 && self.between_count(s, g) == Some(0)
            } else {
                self.attacks(s, g)
            }
        })
    }

    /// Whether moving the piece on `from` to `to` leaves its own general safe.
    pub(super) fn move_is_legal(&self, from: usize, to: usize) -> bool {
        let mover = self.squares[from].color();
        let mut after = *self;
        after.play(from, to);
        !after.general_attacked(mover)
    }

    /// Whether a piece of `by` can legally capture on `target`.
    fn defended(&self, target: usize, by: Color) -> bool {
        points(self.occupied[by.index()])
            .any(|s| self.attacks(s, target) && self.move_is_legal(s, target))
    }

    /// The points of the enemy pieces that `chaser` threatens in the sense of the chase rule:
    ///
    /// - attackers: chariot, horse, cannon, advisor, elephant (the general and soldiers chase
    ///   freely);
    /// - targets: every enemy piece but the general and soldiers that have not crossed the
    ///   river;
    /// - the capture must be legal (so a pinned attacker threatens only its pinner);
    /// - a horse or cannon on a chariot, and an advisor or elephant on a chariot, cannon or
    ///   horse, count even when the target is protected; otherwise a target with a legal
    ///   recapture is not threatened, and a chariot, cannon or horse attacking its own kind
    ///   counts only when the target cannot legally capture it back.
    pub(super) fn chased(&self, chaser: Color) -> u128 {
        let victim = chaser.flip();
        let mut out = 0u128;
        for s in points(self.occupied[chaser.index()]) {
            let Some(attacker) = self.squares[s].kind() else {
                continue;
            };
            if matches!(attacker, PieceKind::General | PieceKind::Soldier) {
                continue;
            }
            for t in points(self.occupied[victim.index()] & !out) {
                let Some(target) = self.squares[t].kind() else {
                    continue;
                };
                let eligible = match target {
                    PieceKind::General => false,
                    PieceKind::Soldier => crossed(victim, t),
                    _ => true,
                };
                if !eligible || !self.attacks(s, t) {
                    continue;
                }
                let mut after = *self;
                after.play(s, t);
                if after.general_attacked(chaser) {
                    continue;
                }
                let stronger_target = match attacker {
                    PieceKind::Horse | PieceKind::Cannon => target == PieceKind::Chariot,
                    PieceKind::Advisor | PieceKind::Elephant => matches!(
                        target,
                        PieceKind::Chariot | PieceKind::Cannon | PieceKind::Horse
                    ),
                    _ => false,
                };
                if !stronger_target {
                    if attacker == target && self.attacks(t, s) && self.move_is_legal(t, s) {
                        continue;
                    }
                    if after.defended(t, victim) {
                        continue;
                    }
                }
                out |= 1u128 << t;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::movegen::{GenKind, MoveList};
    use crate::xiangqi::types::{Move, Square};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn sq(name: &str) -> usize {
        Square::parse(name).expect("a point name").index()
    }

    fn board(fen: &str) -> ChaseBoard {
        ChaseBoard::new(&Position::from_fen(fen).expect("valid FEN"))
    }

    fn set(names: &[&str]) -> u128 {
        names.iter().fold(0, |acc, n| acc | 1u128 << sq(n))
    }

    /// On random playouts the board's attack, legality and check tests agree with the
    /// position's move generator, and `play`/`unplay` round-trip.
    #[test]
    fn attacks_and_legality_agree_with_movegen_on_random_games() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                let mut list = MoveList::new();
                pos.generate_pseudo(GenKind::All, &mut list);
                let b = ChaseBoard::new(&pos);
                let us = pos.side_to_move();
                for from in points(b.occupied[us.index()]) {
                    for to in points(b.occupied[us.flip().index()]) {
                        let mv = Move::new(Square(from as u8), Square(to as u8));
                        assert_eq!(b.attacks(from, to), list.contains(mv), "{mv} in {pos:?}");
                    }
                }
                for &mv in list.iter() {
                    let (from, to) = (mv.from().index(), mv.to().index());
                    assert_eq!(b.move_is_legal(from, to), pos.is_legal_pseudo(mv), "{mv}");
                    let mut c = b;
                    let captured = c.play(from, to);
                    c.unplay(from, to, captured);
                    assert!(c.squares == b.squares && c.occupied == b.occupied);
                    assert_eq!(c.generals, b.generals);
                }
                for color in Color::ALL {
                    assert_eq!(b.general_attacked(color), pos.general_attacked(color));
                }
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                pos.make(legal.as_slice()[rng.gen_range(0..legal.len())]);
            }
        }
    }

    #[test]
    fn chariot_threatens_an_unprotected_horse_but_not_a_protected_one() {
        // Red chariot a3 attacks the black horse on a7; nothing protects it.
        let b = board("4k4/9/n8/9/9/9/R8/9/9/3K5 b - - 0 1");
        assert_eq!(b.chased(Color::Red), set(&["a7"]));
        // A black chariot on a8 protects it.
        let b = board("4k4/r8/n8/9/9/9/R8/9/9/3K5 b - - 0 1");
        assert_eq!(b.chased(Color::Red), 0);
    }

    #[test]
    fn horse_on_a_protected_chariot_still_counts() {
        // Red horse d6 attacks the black chariot b7, which the chariot on a7 protects.
        let b = board("5k3/9/rr7/3N5/9/9/9/9/9/3K5 b - - 0 1");
        assert_eq!(b.chased(Color::Red), set(&["b7"]));
    }

    #[test]
    fn uncrossed_soldiers_and_the_general_are_never_targets() {
        // Red chariot a3 attacks the uncrossed black soldier on a6.
        let b = board("4k4/9/9/p8/9/9/R8/9/9/3K5 b - - 0 1");
        assert_eq!(b.chased(Color::Red), 0);
        // A black soldier on a4 has crossed: it counts.
        let b = board("4k4/9/9/9/9/p8/R8/9/9/3K5 b - - 0 1");
        assert_eq!(b.chased(Color::Red), set(&["a4"]));
    }

    #[test]
    fn general_and_soldier_are_not_chasers() {
        // Red soldier e5 attacks the black horse e6; red general e1 attacks the horse e2.
        let b = board("3k5/9/9/4n4/4P4/9/9/4n4/4K4/9 b - - 0 1");
        assert!(b.attacks(sq("e5"), sq("e6")) && b.attacks(sq("e1"), sq("e2")));
        assert_eq!(b.chased(Color::Red), 0);
    }

    #[test]
    fn same_kind_attack_counts_only_without_a_reply() {
        // Chariots facing on the a-file: mutual, not a threat.
        let b = board("4k4/9/r8/9/9/9/R8/9/9/3K5 b - - 0 1");
        assert_eq!(b.chased(Color::Red), 0);
        // Red horse c5 attacks the black horse b7 (leg c6 empty); the way back is blocked by
        // the black cannon on b6 (b7's leg toward c5).
        let b = board("4k4/9/1n7/1c7/2N6/9/9/9/9/3K5 b - - 0 1");
        assert!(b.attacks(sq("c5"), sq("b7")));
        assert!(!b.attacks(sq("b7"), sq("c5")));
        assert_eq!(b.chased(Color::Red), set(&["b7"]));
        // With the leg open, the black horse can take back: no threat.
        let b = board("4k4/9/1n7/9/2N6/9/9/9/9/3K5 b - - 0 1");
        assert_eq!(b.chased(Color::Red), 0);
    }

    #[test]
    fn pinned_attacker_threatens_only_its_pinner() {
        // Red chariot f2 blocks the leg of the black horse f3 that would attack the red
        // general on e1. Taking the horse is legal; taking the cannon on i2 is not.
        let b = board("3k5/9/9/9/9/9/5n3/5R2c/4K4/9 b - - 0 1");
        assert!(b.attacks(sq("f2"), sq("i2")));
        assert!(!b.move_is_legal(sq("f2"), sq("i2")));
        assert_eq!(b.chased(Color::Red), set(&["f3"]));
        // Red chariot e3 pinned on the e-file by the black chariot e8: the horse on a3 is
        // attacked but cannot legally be taken, and the pinner can take back.
        let b = board("3k5/4r4/9/9/9/9/n3R4/9/9/4K4 b - - 0 1");
        assert!(b.attacks(sq("e3"), sq("a3")));
        assert!(!b.move_is_legal(sq("e3"), sq("a3")));
        assert_eq!(b.chased(Color::Red), 0);
    }

    #[test]
    fn advisor_and_elephant_threaten_protected_big_pieces() {
        // Red elephant e2 attacks the black horse c4 (eye d3 empty); the black chariot c9
        // protects it, but an elephant on a horse counts anyway. The red advisor e1 attacks
        // the black cannon d2, protected by the black chariot d9.
        let b = board("2rrk4/9/9/9/9/2n6/9/3cB4/4A4/4K4 b - - 0 1");
        assert_eq!(b.chased(Color::Red), set(&["c4", "d2"]));
    }
}
