//! Board geometry and Zobrist keys, all computed at compile time by `const fn`s: leaper
//! attacks, the eight rays from every square (slider attacks are read from the rays with the
//! first blocker found by a bit scan, the "classical" approach), the squares between and the
//! line through two squares, and Zobrist keys from a fixed SplitMix64 stream.

use super::types::{Bitboard, Color, Square};

/// Rank 1.
pub const RANK_1: Bitboard = 0xff;
/// Rank 8.
pub const RANK_8: Bitboard = 0xff << 56;
/// File a.
pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
/// File h.
pub const FILE_H: Bitboard = FILE_A << 7;
/// The light squares.
pub const LIGHT_SQUARES: Bitboard = 0x55aa_55aa_55aa_55aa;

/// Ray directions as (file step, rank step); the first four run towards higher squares.
const DIRS: [(i8, i8); 8] = [
    (0, 1),   // north
    (1, 1),   // north-east
    (1, 0),   // east
    (-1, 1),  // north-west
    (0, -1),  // south
    (-1, -1), // south-west
    (-1, 0),  // west
    (1, -1),  // south-east
];

/// Whether direction `d` of [`DIRS`] runs towards higher square numbers.
const fn dir_positive(d: usize) -> bool {
    d < 4
}

const fn leaper(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut out = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s % 8) as i8, (s / 8) as i8);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                out[s] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        s += 1;
    }
    out
}

/// Knight attacks from each square.
pub static KNIGHT_ATTACKS: [Bitboard; 64] = leaper(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);

/// King attacks from each square.
pub static KING_ATTACKS: [Bitboard; 64] = leaper(&[
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
]);

/// Pawn captures from each square, by colour of the pawn.
pub static PAWN_ATTACKS: [[Bitboard; 64]; 2] =
    [leaper(&[(-1, 1), (1, 1)]), leaper(&[(-1, -1), (1, -1)])];

const fn make_rays() -> [[Bitboard; 64]; 8] {
    let mut out = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 64 {
            let (mut f, mut r) = ((s % 8) as i8, (s / 8) as i8);
            loop {
                f += DIRS[d].0;
                r += DIRS[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                out[d][s] |= 1u64 << (r * 8 + f);
            }
            s += 1;
        }
        d += 1;
    }
    out
}

/// The squares along each direction from each square, to the edge (the square excluded).
const RAYS: [[Bitboard; 64]; 8] = make_rays();

const fn make_between_line(line: bool) -> [[Bitboard; 64]; 64] {
    let mut out = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let ray = RAYS[d][a];
            let mut b = 0;
            while b < 64 {
                if ray & (1u64 << b) != 0 {
                    out[a][b] = if line {
                        // Both rays through `a` plus `a` itself.
                        RAYS[d][a] | RAYS[(d + 4) % 8][a] | (1u64 << a)
                    } else {
                        ray & !RAYS[d][b] & !(1u64 << b)
                    };
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    out
}

/// The squares strictly between two squares on a line, 0 when they share no line.
pub static BETWEEN: [[Bitboard; 64]; 64] = make_between_line(false);
/// The whole line (edge to edge) through two squares, 0 when they share no line.
pub static LINE: [[Bitboard; 64]; 64] = make_between_line(true);

#[inline]
fn ray_attacks(d: usize, sq: Square, occ: Bitboard) -> Bitboard {
    let ray = RAYS[d][sq.index()];
    let blockers = ray & occ;
    if blockers == 0 {
        return ray;
    }
    let first = if dir_positive(d) {
        blockers.trailing_zeros()
    } else {
        63 - blockers.leading_zeros()
    };
    ray ^ RAYS[d][first as usize]
}

/// Rook attacks from `sq` with the given occupancy (blockers included).
#[inline]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    ray_attacks(0, sq, occ)
        | ray_attacks(2, sq, occ)
        | ray_attacks(4, sq, occ)
        | ray_attacks(6, sq, occ)
}

/// Bishop attacks from `sq` with the given occupancy (blockers included).
#[inline]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    ray_attacks(1, sq, occ)
        | ray_attacks(3, sq, occ)
        | ray_attacks(5, sq, occ)
        | ray_attacks(7, sq, occ)
}

/// The pawn captures of a pawn of `color` on `sq`.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN_ATTACKS[color.index()][sq.index()]
}

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// All Zobrist keys: 16 x 64 piece keys (indexed by piece byte; the empty byte is all
/// zero), then 16 castling-rights keys, 8 en-passant file keys and the side key.
const fn make_zobrist() -> ([[u64; 64]; 16], [u64; 16], [u64; 8], u64) {
    let mut state = 0x6368_6573_735f_6b65; // "chess_ke"
    let mut pieces = [[0u64; 64]; 16];
    let mut p = 1;
    while p < 16 {
        let mut s = 0;
        while s < 64 {
            let (st, v) = splitmix(state);
            state = st;
            pieces[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    // Castling keys are the XOR of one key per right, so that changing rights is one XOR.
    let mut single = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let (st, v) = splitmix(state);
        state = st;
        single[i] = v;
        i += 1;
    }
    let mut castling = [0u64; 16];
    let mut c = 0;
    while c < 16 {
        let mut b = 0;
        while b < 4 {
            if c & (1 << b) != 0 {
                castling[c] ^= single[b];
            }
            b += 1;
        }
        c += 1;
    }
    let mut ep = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        let (st, v) = splitmix(state);
        state = st;
        ep[f] = v;
        f += 1;
    }
    let (_, side) = splitmix(state);
    (pieces, castling, ep, side)
}

const ZOBRIST: ([[u64; 64]; 16], [u64; 16], [u64; 8], u64) = make_zobrist();
/// Zobrist key of a piece (by piece byte) on a square; zero for the empty byte.
pub static ZOBRIST_PIECE: [[u64; 64]; 16] = ZOBRIST.0;
/// Zobrist key of a set of castling rights.
pub static ZOBRIST_CASTLING: [u64; 16] = ZOBRIST.1;
/// Zobrist key of the en-passant file, when a capture there is possible.
pub static ZOBRIST_EP: [u64; 8] = ZOBRIST.2;
/// Zobrist key XORed in when Black is to move.
pub const ZOBRIST_SIDE: u64 = ZOBRIST.3;

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn geometry() {
        assert_eq!(
            KNIGHT_ATTACKS[sq("a1").index()],
            sq("b3").bb() | sq("c2").bb()
        );
        assert_eq!(KING_ATTACKS[sq("e4").index()].count_ones(), 8);
        assert_eq!(pawn_attacks(Color::White, sq("a2")), sq("b3").bb());
        assert_eq!(
            pawn_attacks(Color::Black, sq("e5")),
            sq("d4").bb() | sq("f4").bb()
        );
        assert_eq!(rook_attacks(sq("a1"), 0).count_ones(), 14);
        assert_eq!(bishop_attacks(sq("d4"), 0).count_ones(), 13);
        let occ = sq("d6").bb() | sq("b4").bb();
        let r = rook_attacks(sq("d4"), occ);
        assert!(r & sq("d6").bb() != 0 && r & sq("d7").bb() == 0);
        assert!(r & sq("b4").bb() != 0 && r & sq("a4").bb() == 0);
        assert_eq!(
            BETWEEN[sq("a1").index()][sq("d4").index()],
            sq("b2").bb() | sq("c3").bb()
        );
        assert_eq!(BETWEEN[sq("a1").index()][sq("b3").index()], 0);
        assert_eq!(LINE[sq("c3").index()][sq("e5").index()].count_ones(), 8);
        assert_eq!(LINE[sq("e1").index()][sq("e8").index()], FILE_A << 4);
        assert_eq!(LIGHT_SQUARES & sq("h1").bb(), sq("h1").bb());
        assert_eq!(ZOBRIST_PIECE[0], [0; 64]);
        assert_eq!(ZOBRIST_CASTLING[0], 0);
    }
}
