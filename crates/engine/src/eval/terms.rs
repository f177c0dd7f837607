//! Positional terms read off the board in one pass over the pieces (no position copy, no move
//! list): mobility, blocked horse legs, chariots on open files, cannons aimed at the enemy
//! general through two screens or none, king safety (missing advisors and elephants against attackers across the river)
//! and connected soldiers.
//!
//! Every term is a count from Red's view (Red's count minus Black's), multiplied by one weight,
//! so the evaluation stays linear in the weights and the Texel tuner fits them exactly together
//! with material and the piece-square tables.

use super::{mobility, own_rank};
use crate::xiangqi::position::Position;
use crate::xiangqi::tables::HORSE_STEPS;
use crate::xiangqi::types::{Color, PieceKind, SQUARE_COUNT};

/// Number of positional terms.
pub const TERM_COUNT: usize = 11;

/// Index of the first mobility term; the three mobility terms (horse, chariot, cannon) are
/// the only ones that scan rays, so they are counted only when one of their weights is set.
const MOBILITY: usize = 0;

/// Parameter names of the terms, in term order (the weights live in the parameter table).
pub const TERM_NAMES: [&str; TERM_COUNT] = [
    "eval.mobility.horse",
    "eval.mobility.chariot",
    "eval.mobility.cannon",
    "eval.horse.blocked_leg",
    "eval.chariot.open_file",
    "eval.chariot.half_open_file",
    "eval.cannon.two_screens_general",
    "eval.cannon.hollow_general",
    "eval.king.advisor_missing",
    "eval.king.elephant_missing",
    "eval.soldier.connected",
];

/// Per-side facts gathered in the one pass.
#[derive(Default, Clone, Copy)]
struct Side {
    /// Files (bit per file) holding a soldier of this side.
    soldier_files: u16,
    /// Crossed soldiers as a bit per point.
    crossed_soldiers: u128,
    /// Chariots, horses and cannons standing on the enemy's half.
    crossed_attackers: i32,
    chariots: [u8; 2],
    n_chariots: usize,
    cannons: [u8; 2],
    n_cannons: usize,
}

/// The term counts from Red's view (Red minus Black), in [`TERM_NAMES`] order. The mobility
/// counts are left at 0 unless `with_mobility`.
pub fn term_counts(pos: &Position, with_mobility: bool) -> [i32; TERM_COUNT] {
    let board = pos.board();
    let mut t = [0i32; TERM_COUNT];
    let mut sides = [Side::default(); 2];
    for color in Color::ALL {
        let sign = if color == Color::Red { 1 } else { -1 };
        let side = &mut sides[color.index()];
        let mut bits = pos.occupancy(color);
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let piece = board[s];
            let crossed = own_rank(color, crate::xiangqi::types::Square(s as u8)) >= 5;
            match piece.kind_bits() {
                k if k == PieceKind::Soldier as u8 => {
                    side.soldier_files |= 1 << (s % 9);
                    if crossed {
                        side.crossed_soldiers |= 1u128 << s;
                    }
                }
                k if k == PieceKind::Horse as u8 => {
                    side.crossed_attackers += i32::from(crossed);
                    let steps = &HORSE_STEPS[s];
                    let blocked = (0..steps.len as usize)
                        .filter(|&i| !board[steps.via[i] as usize].is_empty())
                        .count();
                    t[3] += sign * blocked as i32;
                    if with_mobility {
                        t[MOBILITY] += sign * mobility(board, s, piece) as i32;
                    }
                }
                k if k == PieceKind::Chariot as u8 => {
                    side.crossed_attackers += i32::from(crossed);
                    if side.n_chariots < 2 {
                        side.chariots[side.n_chariots] = s as u8;
                        side.n_chariots += 1;
                    }
                    if with_mobility {
                        t[MOBILITY + 1] += sign * mobility(board, s, piece) as i32;
                    }
                }
                k if k == PieceKind::Cannon as u8 => {
                    side.crossed_attackers += i32::from(crossed);
                    if side.n_cannons < 2 {
                        side.cannons[side.n_cannons] = s as u8;
                        side.n_cannons += 1;
                    }
                    if with_mobility {
                        t[MOBILITY + 2] += sign * mobility(board, s, piece) as i32;
                    }
                }
                _ => {}
            }
        }
    }
    for color in Color::ALL {
        let sign = if color == Color::Red { 1 } else { -1 };
        let own = sides[color.index()];
        let enemy = sides[color.flip().index()];
        for &c in &own.chariots[..own.n_chariots] {
            let file = 1u16 << (c % 9);
            if own.soldier_files & file == 0 {
                if enemy.soldier_files & file == 0 {
                    t[4] += sign;
                } else {
                    t[5] += sign;
                }
            }
        }
        let general = pos.general(color.flip()).index();
        for &c in &own.cannons[..own.n_cannons] {
            match between(board, c as usize, general) {
                // One screen is check (the side to move's evaluation never sees it, and a
                // checked position is not quiet); two screens are a discovered threat.
                Some(2) => t[6] += sign,
                Some(0) => t[7] += sign,
                _ => {}
            }
        }
        // Missing defenders count only as far as enemy attackers stand on our half.
        let missing_advisors = 2 - i32::from(pos.count(color, PieceKind::Advisor).min(2));
        let missing_elephants = 2 - i32::from(pos.count(color, PieceKind::Elephant).min(2));
        t[8] += sign * missing_advisors * enemy.crossed_attackers;
        t[9] += sign * missing_elephants * enemy.crossed_attackers;
        // Side-by-side pairs: each crossed soldier with a crossed neighbour one file east.
        let s = own.crossed_soldiers;
        let not_file_i = !FILE_I_MASK;
        t[10] += sign * ((s & not_file_i) & (s >> 1)).count_ones() as i32;
    }
    t
}

/// Bit per point of file i (the east edge), so the neighbour test does not wrap to the next
/// rank.
const FILE_I_MASK: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < 10 {
        m |= 1u128 << (r * 9 + 8);
        r += 1;
    }
    m
};

/// The number of pieces strictly between points `a` and `b` when they share a file or a rank,
/// `None` otherwise.
#[inline]
fn between(
    board: &[crate::xiangqi::types::Piece; SQUARE_COUNT],
    a: usize,
    b: usize,
) -> Option<u32> {
    let step = if a % 9 == b % 9 {
        9
    } else if a / 9 == b / 9 {
        1
    } else {
        return None;
    };
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let mut n = 0;
    let mut s = lo + step;
    while s < hi {
        n += u32::from(!board[s].is_empty());
        s += step;
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::types::Square;

    fn counts(fen: &str) -> [i32; TERM_COUNT] {
        term_counts(&Position::from_fen(fen).expect("fen"), true)
    }

    /// The start position is symmetric: every term cancels.
    #[test]
    fn start_position_is_balanced() {
        assert_eq!(
            term_counts(&Position::startpos(), true),
            [0; TERM_COUNT],
            "start position"
        );
    }

    /// A central cannon behind both centre soldiers aims at the general through two screens;
    /// with the file empty it is hollow. Red's cannon on e2, Black's general on e9.
    #[test]
    fn cannon_screens_and_hollow_cannons() {
        // Red: general e0, cannon e2, soldier e3. Black: general e9, soldier e6.
        let screened = counts("2bakab2/9/9/4p4/9/9/4P4/4C4/9/3AKAB2 w - - 0 1");
        assert_eq!(screened[6], 1, "{screened:?}");
        assert_eq!(screened[7], 0, "{screened:?}");
        let hollow = counts("2bakab2/9/9/9/9/9/9/4C4/9/3AKAB2 w - - 0 1");
        assert_eq!(hollow[6], 0, "{hollow:?}");
        assert_eq!(hollow[7], 1, "{hollow:?}");
    }

    /// Chariots: open file (no soldier), half-open (only an enemy soldier), closed (own soldier).
    #[test]
    fn chariot_files() {
        // Red chariot a0, no soldier on file a: open.
        let open = counts("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
        assert_eq!((open[4], open[5]), (1, 0), "{open:?}");
        // Black soldier a6 (rank 3 from Black's side, uncrossed): half-open for Red.
        let half = counts("3k5/9/9/p8/9/9/9/9/9/R3K4 w - - 0 1");
        assert_eq!((half[4], half[5]), (0, 1), "{half:?}");
        // Red soldier a3: closed.
        let closed = counts("3k5/9/9/9/9/9/P8/9/9/R3K4 w - - 0 1");
        assert_eq!((closed[4], closed[5]), (0, 0), "{closed:?}");
    }

    /// Missing advisors and elephants count once per enemy attacker on our half.
    #[test]
    fn king_safety_counts_attackers_across_the_river() {
        // Red has no advisors or elephants (2 + 2 missing, 1 attacker: +2 each, Red worse); Black has a chariot on e4 (Red's half) and a
        // horse on b7 (its own half, not counted); Black keeps two advisors and elephants.
        let c = counts("2bakab2/9/1n7/9/9/4r4/9/9/9/4K4 w - - 0 1");
        assert_eq!(c[8], 2, "{c:?}");
        assert_eq!(c[9], 2, "{c:?}");
    }

    /// Crossed soldiers side by side form pairs; the east edge does not wrap to the next rank.
    #[test]
    fn connected_soldiers() {
        // Red soldiers on d6, e6, f6 (crossed): two pairs. A Red soldier on i5 and one on a6
        // are not neighbours.
        let c = counts("3k5/9/9/P2PPP3/8P/9/9/9/9/4K4 w - - 0 1");
        assert_eq!(c[10], 2, "{c:?}");
    }

    /// Blocked legs count blocked horse moves: a horse on b0 with a piece on b1 loses two of its three moves.
    #[test]
    fn blocked_horse_legs() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/1R7/1N2K4 w - - 0 1").expect("fen");
        let c = term_counts(&pos, true);
        assert_eq!(
            pos.piece_at(Square::new(1, 0)).kind(),
            Some(PieceKind::Horse)
        );
        assert_eq!(c[3], 2, "{c:?}");
        assert_eq!(c[0], 1, "{c:?}");
    }

    /// Counts without mobility leave the mobility terms at zero and the others unchanged.
    #[test]
    fn mobility_is_optional() {
        let pos = Position::from_fen("2bakab2/9/1n7/9/9/4r4/9/9/9/4K4 w - - 0 1").expect("fen");
        let all = term_counts(&pos, true);
        let cheap = term_counts(&pos, false);
        assert_eq!(&cheap[..3], &[0, 0, 0]);
        assert_eq!(&cheap[3..], &all[3..]);
        assert_ne!(&all[..3], &[0, 0, 0]);
    }
}
