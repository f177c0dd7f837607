//! Geometry computed once at compile time, so move generation does no coordinate arithmetic:
//! step lists per point (with the blocking leg/eye point), four rays per point, attack
//! patterns toward a general, the attack lines through each point and Zobrist keys.

use super::types::{Color, SQUARE_COUNT};

/// Up to `N` destination points, each with the point that must be empty to reach it
/// (the horse's leg or the elephant's eye; the destination itself for plain steps).
#[derive(Clone, Copy, Debug)]
pub struct Steps<const N: usize> {
    /// Number of valid entries.
    pub len: u8,
    /// Destination points.
    pub to: [u8; N],
    /// Blocking point for each destination.
    pub via: [u8; N],
}

impl<const N: usize> Steps<N> {
    const EMPTY: Steps<N> = Steps {
        len: 0,
        to: [0; N],
        via: [0; N],
    };

    const fn push(mut self, to: u8, via: u8) -> Self {
        self.to[self.len as usize] = to;
        self.via[self.len as usize] = via;
        self.len += 1;
        self
    }
}

/// Ray directions: north (toward rank 9), south, east (toward file i), west.
pub const DIRECTIONS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < 9 && rank >= 0 && rank < 10
}

const fn sq(file: i32, rank: i32) -> u8 {
    (rank * 9 + file) as u8
}

/// Whether `(file, rank)` lies in a palace (either side's).
const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7) && rank >= 0 && rank <= 9
}

/// Whether `(file, rank)` is in the palace of `color`.
pub const fn in_own_palace(color: Color, file: u8, rank: u8) -> bool {
    file >= 3
        && file <= 5
        && match color {
            Color::Red => rank <= 2,
            Color::Black => rank >= 7,
        }
}

const fn build_rays() -> [[Steps<9>; 4]; SQUARE_COUNT] {
    let mut t = [[Steps::<9>::EMPTY; 4]; SQUARE_COUNT];
    let mut s = 0;
    while s < SQUARE_COUNT {
        let f = (s % 9) as i32;
        let r = (s / 9) as i32;
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRECTIONS[d];
            let mut nf = f + df as i32;
            let mut nr = r + dr as i32;
            let mut steps = Steps::<9>::EMPTY;
            while on_board(nf, nr) {
                steps = steps.push(sq(nf, nr), sq(nf, nr));
                nf += df as i32;
                nr += dr as i32;
            }
            t[s][d] = steps;
            d += 1;
        }
        s += 1;
    }
    t
}

const fn build_general() -> [Steps<4>; SQUARE_COUNT] {
    let mut t = [Steps::<4>::EMPTY; SQUARE_COUNT];
    let mut s = 0;
    while s < SQUARE_COUNT {
        let f = (s % 9) as i32;
        let r = (s / 9) as i32;
        if in_palace(f, r) {
            let mut d = 0;
            while d < 4 {
                let nf = f + DIRECTIONS[d].0 as i32;
                let nr = r + DIRECTIONS[d].1 as i32;
                // Staying in the same palace: ranks never jump from 2 to 7.
                if in_palace(nf, nr) && (nr - r).abs() <= 1 {
                    t[s] = t[s].push(sq(nf, nr), sq(nf, nr));
                }
                d += 1;
            }
        }
        s += 1;
    }
    t
}

const DIAGONALS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn build_advisor() -> [Steps<4>; SQUARE_COUNT] {
    let mut t = [Steps::<4>::EMPTY; SQUARE_COUNT];
    let mut s = 0;
    while s < SQUARE_COUNT {
        let f = (s % 9) as i32;
        let r = (s / 9) as i32;
        if in_palace(f, r) {
            let mut d = 0;
            while d < 4 {
                let nf = f + DIAGONALS[d].0;
                let nr = r + DIAGONALS[d].1;
                if in_palace(nf, nr) {
                    t[s] = t[s].push(sq(nf, nr), sq(nf, nr));
                }
                d += 1;
            }
        }
        s += 1;
    }
    t
}

const fn build_elephant() -> [Steps<4>; SQUARE_COUNT] {
    let mut t = [Steps::<4>::EMPTY; SQUARE_COUNT];
    let mut s = 0;
    while s < SQUARE_COUNT {
        let f = (s % 9) as i32;
        let r = (s / 9) as i32;
        let red_half = r <= 4;
        let mut d = 0;
        while d < 4 {
            let nf = f + 2 * DIAGONALS[d].0;
            let nr = r + 2 * DIAGONALS[d].1;
            // The river is built in: the destination must be on the same half.
            if on_board(nf, nr) && (nr <= 4) == red_half {
                let eye = sq(f + DIAGONALS[d].0, r + DIAGONALS[d].1);
                t[s] = t[s].push(sq(nf, nr), eye);
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// Horse jumps: (file, rank) offset of the destination and of the leg.
const HORSE_JUMPS: [((i32, i32), (i32, i32)); 8] = [
    ((1, 2), (0, 1)),
    ((-1, 2), (0, 1)),
    ((1, -2), (0, -1)),
    ((-1, -2), (0, -1)),
    ((2, 1), (1, 0)),
    ((2, -1), (1, 0)),
    ((-2, 1), (-1, 0)),
    ((-2, -1), (-1, 0)),
];

const fn build_horse() -> [Steps<8>; SQUARE_COUNT] {
    let mut t = [Steps::<8>::EMPTY; SQUARE_COUNT];
    let mut s = 0;
    while s < SQUARE_COUNT {
        let f = (s % 9) as i32;
        let r = (s / 9) as i32;
        let mut j = 0;
        while j < 8 {
            let ((df, dr), (lf, lr)) = HORSE_JUMPS[j];
            if on_board(f + df, r + dr) {
                t[s] = t[s].push(sq(f + df, r + dr), sq(f + lf, r + lr));
            }
            j += 1;
        }
        s += 1;
    }
    t
}

/// For each target point: the points from which a horse attacks it (`to`) and the leg that
/// must be empty (`via`). The leg is adjacent to the horse, diagonally adjacent to the target.
const fn build_horse_attacks() -> [Steps<8>; SQUARE_COUNT] {
    let mut t = [Steps::<8>::EMPTY; SQUARE_COUNT];
    let mut s = 0;
    while s < SQUARE_COUNT {
        let f = (s % 9) as i32;
        let r = (s / 9) as i32;
        let mut j = 0;
        while j < 8 {
            let ((df, dr), _) = HORSE_JUMPS[j];
            let hf = f + df;
            let hr = r + dr;
            if on_board(hf, hr) {
                let leg = sq(f + df.signum(), r + dr.signum());
                t[s] = t[s].push(sq(hf, hr), leg);
            }
            j += 1;
        }
        s += 1;
    }
    t
}

const fn build_soldier() -> [[Steps<3>; SQUARE_COUNT]; 2] {
    let mut t = [[Steps::<3>::EMPTY; SQUARE_COUNT]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < SQUARE_COUNT {
            let f = (s % 9) as i32;
            let r = (s / 9) as i32;
            let forward = if c == 0 { 1 } else { -1 };
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            if on_board(f, r + forward) {
                t[c][s] = t[c][s].push(sq(f, r + forward), sq(f, r + forward));
            }
            if crossed {
                if on_board(f + 1, r) {
                    t[c][s] = t[c][s].push(sq(f + 1, r), sq(f + 1, r));
                }
                if on_board(f - 1, r) {
                    t[c][s] = t[c][s].push(sq(f - 1, r), sq(f - 1, r));
                }
            }
            s += 1;
        }
        c += 1;
    }
    t
}

/// Bit of [`GENERAL_LINES`] set when a point is diagonally next to the general: the leg of a
/// horse attacking it.
pub const HORSE_LEG: u8 = 1 << 4;

/// For a general on `g` and any point `s`, which of the general's attack lines run through
/// `s`: bit `d` when `s` lies on ray `d` from `g` ([`DIRECTIONS`] order; chariots, cannons
/// and their screens, the facing general), [`HORSE_LEG`] when `s` is diagonally next to `g`.
/// A move that touches no such point cannot expose its general.
const fn build_general_lines() -> [[u8; SQUARE_COUNT]; SQUARE_COUNT] {
    let rays = build_rays();
    let mut t = [[0u8; SQUARE_COUNT]; SQUARE_COUNT];
    let mut g = 0;
    while g < SQUARE_COUNT {
        let mut d = 0;
        while d < 4 {
            let ray = &rays[g][d];
            let mut i = 0;
            while i < ray.len as usize {
                t[g][ray.to[i] as usize] |= 1 << d;
                i += 1;
            }
            d += 1;
        }
        let f = (g % 9) as i32;
        let r = (g / 9) as i32;
        let mut j = 0;
        while j < 4 {
            let (nf, nr) = (f + DIAGONALS[j].0, r + DIAGONALS[j].1);
            if on_board(nf, nr) {
                t[g][sq(nf, nr) as usize] |= HORSE_LEG;
            }
            j += 1;
        }
        g += 1;
    }
    t
}

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn build_zobrist() -> ([[u64; SQUARE_COUNT]; 16], u64) {
    let mut t = [[0u64; SQUARE_COUNT]; 16];
    let mut state = 0x4368_7568_616E_u64; // "Chuhan"
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < SQUARE_COUNT {
            // Empty (0) and unused encodings keep zero keys.
            let kind = p & 7;
            if kind != 0 {
                let (ns, v) = splitmix64(state);
                state = ns;
                t[p][s] = v;
            }
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix64(state);
    (t, side)
}

/// Rays per point and direction ([`DIRECTIONS`] order), nearest point first.
pub static RAYS: [[Steps<9>; 4]; SQUARE_COUNT] = build_rays();
/// General steps inside the palace.
pub static GENERAL_STEPS: [Steps<4>; SQUARE_COUNT] = build_general();
/// Advisor steps inside the palace.
pub static ADVISOR_STEPS: [Steps<4>; SQUARE_COUNT] = build_advisor();
/// Elephant moves with their eye point; never across the river.
pub static ELEPHANT_STEPS: [Steps<4>; SQUARE_COUNT] = build_elephant();
/// Horse moves with their leg point.
pub static HORSE_STEPS: [Steps<8>; SQUARE_COUNT] = build_horse();
/// Horse attackers of a point with their leg point.
pub static HORSE_ATTACKS: [Steps<8>; SQUARE_COUNT] = build_horse_attacks();
/// Soldier steps per colour.
pub static SOLDIER_STEPS: [[Steps<3>; SQUARE_COUNT]; 2] = build_soldier();
/// Attack lines through each point per general point (see [`HORSE_LEG`]).
pub static GENERAL_LINES: [[u8; SQUARE_COUNT]; SQUARE_COUNT] = build_general_lines();

const ZOBRIST_ALL: ([[u64; SQUARE_COUNT]; 16], u64) = build_zobrist();
/// Zobrist keys per piece encoding and point.
pub static ZOBRIST_PIECE: [[u64; SQUARE_COUNT]; 16] = ZOBRIST_ALL.0;
/// Zobrist key toggled when Black is to move.
pub const ZOBRIST_SIDE: u64 = ZOBRIST_ALL.1;
