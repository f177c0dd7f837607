//! Chess evaluation: material and a few positional terms, each with a middlegame and an
//! endgame value blended by the phase (knights and bishops 1, rooks 2, queens 4; 24 at the
//! start). Every number is a named entry of [`EvalParams`], so Texel tuning and SPSA can move
//! any of them; the defaults are hand-set first values, not tuned ones.
//!
//! Terms (from White's view, then negated for Black): material; centralisation of each piece
//! (a square's closeness to the centre, 0 at a corner to 6 on the four centre squares); pawn
//! advance; passed pawns by rank; doubled and isolated pawns; the bishop pair; rooks on open and
//! half-open files; mobility of knights, bishops, rooks and queens (attacked squares not held by
//! own pieces nor attacked by enemy pawns); the king's pawn shelter; a tempo for the side to move.

use crate::chess::position::Position;
use crate::chess::tables::{bishop_attacks, pawn_attacks, rook_attacks, FILE_A, KNIGHT_ATTACKS};
use crate::chess::types::{Bitboard, Color, PieceKind, Square};

/// The phase weight of a full set of pieces (2 × (2 + 2 + 4 + 4)).
pub const MAX_PHASE: i32 = 24;

macro_rules! eval_params {
    ($($field:ident = $default:expr, $doc:literal;)*) => {
        /// The evaluation's numbers, in centipawns. [`EvalParams::NAMES`] lists them in order;
        /// [`EvalParams::get`] and [`EvalParams::set`] address them by name, for tuners.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct EvalParams {
            $(#[doc = $doc] pub $field: i32,)*
        }

        impl Default for EvalParams {
            fn default() -> Self {
                EvalParams { $($field: $default,)* }
            }
        }

        impl EvalParams {
            /// Every parameter's name, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($field),)*];

            /// The value of the parameter called `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($field) => Some(self.$field),)*
                    _ => None,
                }
            }

            /// Sets the parameter called `name`; false when there is none.
            pub fn set(&mut self, name: &str, value: i32) -> bool {
                match name {
                    $(stringify!($field) => { self.$field = value; true })*
                    _ => false,
                }
            }
        }
    };
}

eval_params! {
    pawn_mg = 82, "Pawn value, middlegame.";
    pawn_eg = 100, "Pawn value, endgame.";
    knight_mg = 337, "Knight value, middlegame.";
    knight_eg = 300, "Knight value, endgame.";
    bishop_mg = 365, "Bishop value, middlegame.";
    bishop_eg = 315, "Bishop value, endgame.";
    rook_mg = 477, "Rook value, middlegame.";
    rook_eg = 530, "Rook value, endgame.";
    queen_mg = 1025, "Queen value, middlegame.";
    queen_eg = 960, "Queen value, endgame.";
    knight_center_mg = 8, "Knight centralisation per step, middlegame.";
    knight_center_eg = 6, "Knight centralisation per step, endgame.";
    bishop_center_mg = 3, "Bishop centralisation per step, middlegame.";
    bishop_center_eg = 3, "Bishop centralisation per step, endgame.";
    rook_center_mg = 0, "Rook centralisation per step, middlegame.";
    rook_center_eg = 1, "Rook centralisation per step, endgame.";
    queen_center_mg = 1, "Queen centralisation per step, middlegame.";
    queen_center_eg = 4, "Queen centralisation per step, endgame.";
    king_center_mg = -8, "King centralisation per step, middlegame (negative: stay home).";
    king_center_eg = 10, "King centralisation per step, endgame.";
    pawn_advance_mg = 2, "Pawn advance per rank beyond the second, middlegame.";
    pawn_advance_eg = 4, "Pawn advance per rank beyond the second, endgame.";
    pawn_center_mg = 12, "A pawn on d4, e4, d5 or e5 (either side's), middlegame.";
    passed_mg = 3, "Passed pawn, times the square of its ranks advanced, middlegame.";
    passed_eg = 7, "Passed pawn, times the square of its ranks advanced, endgame.";
    doubled_mg = -10, "Each pawn behind another of its side on a file, middlegame.";
    doubled_eg = -20, "Each pawn behind another of its side on a file, endgame.";
    isolated_mg = -10, "A pawn without own pawns on the neighbour files, middlegame.";
    isolated_eg = -12, "A pawn without own pawns on the neighbour files, endgame.";
    bishop_pair_mg = 25, "Two bishops or more, middlegame.";
    bishop_pair_eg = 45, "Two bishops or more, endgame.";
    rook_open_mg = 25, "Rook on a file without pawns, middlegame.";
    rook_open_eg = 10, "Rook on a file without pawns, endgame.";
    rook_half_open_mg = 12, "Rook on a file without own pawns, middlegame.";
    rook_half_open_eg = 6, "Rook on a file without own pawns, endgame.";
    knight_mobility_mg = 4, "Per safe square a knight attacks, middlegame.";
    knight_mobility_eg = 4, "Per safe square a knight attacks, endgame.";
    bishop_mobility_mg = 5, "Per safe square a bishop attacks, middlegame.";
    bishop_mobility_eg = 5, "Per safe square a bishop attacks, endgame.";
    rook_mobility_mg = 2, "Per safe square a rook attacks, middlegame.";
    rook_mobility_eg = 4, "Per safe square a rook attacks, endgame.";
    queen_mobility_mg = 1, "Per safe square a queen attacks, middlegame.";
    queen_mobility_eg = 2, "Per safe square a queen attacks, endgame.";
    shelter_mg = 12, "Per own pawn on the three squares in front of the king, middlegame.";
    tempo = 12, "For the side to move.";
}

/// Closeness to the centre: 0 at a corner, 6 on d4, e4, d5, e5.
const fn centrality(sq: u8) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    7 - ((2 * f - 7).abs() + (2 * r - 7).abs()) / 2
}

const CENTRALITY: [i32; 64] = {
    let mut t = [0; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = centrality(s as u8);
        s += 1;
    }
    t
};

const CENTER_PAWN_SQUARES: Bitboard = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36);

/// The files beside each file (for isolated pawns).
const fn adjacent_files(file: u8) -> Bitboard {
    let mut bb = 0;
    if file > 0 {
        bb |= FILE_A << (file - 1);
    }
    if file < 7 {
        bb |= FILE_A << (file + 1);
    }
    bb
}

/// Squares in front of `sq` for `color` on its own and the neighbour files (for passed pawns).
fn front_span(color: Color, sq: Square) -> Bitboard {
    let files = adjacent_files(sq.file()) | (FILE_A << sq.file());
    let r = sq.rank() as u32;
    match color {
        Color::White => {
            if r >= 7 {
                0
            } else {
                files & (!0u64 << (8 * (r + 1)))
            }
        }
        Color::Black => files & ((1u64 << (8 * r)) - 1),
    }
}

fn shift_forward(color: Color, bb: Bitboard) -> Bitboard {
    match color {
        Color::White => bb << 8,
        Color::Black => bb >> 8,
    }
}

fn pawn_attack_span(color: Color, pawns: Bitboard) -> Bitboard {
    let f = shift_forward(color, pawns);
    ((f & !FILE_A) >> 1) | ((f & !(FILE_A << 7)) << 1)
}

/// Middlegame and endgame sums from White's view.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct Score {
    mg: i32,
    eg: i32,
}

impl Score {
    fn add(&mut self, mg: i32, eg: i32) {
        self.mg += mg;
        self.eg += eg;
    }
}

/// The game phase: 24 with every piece on, 0 with only kings and pawns.
pub fn phase(pos: &Position) -> i32 {
    let mut p = 0;
    for c in Color::ALL {
        p += pos.count(c, PieceKind::Knight) as i32;
        p += pos.count(c, PieceKind::Bishop) as i32;
        p += 2 * pos.count(c, PieceKind::Rook) as i32;
        p += 4 * pos.count(c, PieceKind::Queen) as i32;
    }
    p.min(MAX_PHASE)
}

/// Material value of a piece kind, middlegame weight (for move ordering and SEE-like tests).
pub fn piece_value(p: &EvalParams, kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Pawn => p.pawn_mg,
        PieceKind::Knight => p.knight_mg,
        PieceKind::Bishop => p.bishop_mg,
        PieceKind::Rook => p.rook_mg,
        PieceKind::Queen => p.queen_mg,
        PieceKind::King => 20_000,
    }
}

fn side_score(pos: &Position, p: &EvalParams, us: Color) -> Score {
    let them = us.flip();
    let mut s = Score::default();
    let occ = pos.occupied();
    let ours = pos.occupancy(us);
    let our_pawns = pos.pieces(us, PieceKind::Pawn);
    let their_pawns = pos.pieces(them, PieceKind::Pawn);
    let all_pawns = our_pawns | their_pawns;
    // Squares where a piece of ours can be taken by a pawn: not counted as mobility.
    let unsafe_sq = pawn_attack_span(them, their_pawns);
    let relative_rank = |sq: Square| -> i32 {
        match us {
            Color::White => sq.rank() as i32,
            Color::Black => 7 - sq.rank() as i32,
        }
    };
    let squares = |mut bb: Bitboard| {
        std::iter::from_fn(move || {
            if bb == 0 {
                return None;
            }
            let sq = Square(bb.trailing_zeros() as u8);
            bb &= bb - 1;
            Some(sq)
        })
    };

    for sq in squares(our_pawns) {
        s.add(p.pawn_mg, p.pawn_eg);
        let adv = relative_rank(sq) - 1;
        s.add(p.pawn_advance_mg * adv, p.pawn_advance_eg * adv);
        if sq.bb() & CENTER_PAWN_SQUARES != 0 {
            s.add(p.pawn_center_mg, 0);
        }
        let file = FILE_A << sq.file();
        if front_span(us, sq) & file & our_pawns != 0 {
            s.add(p.doubled_mg, p.doubled_eg);
        }
        if adjacent_files(sq.file()) & our_pawns == 0 {
            s.add(p.isolated_mg, p.isolated_eg);
        }
        if front_span(us, sq) & their_pawns == 0 {
            let r = adv * adv;
            s.add(p.passed_mg * r, p.passed_eg * r);
        }
    }
    for sq in squares(pos.pieces(us, PieceKind::Knight)) {
        let c = CENTRALITY[sq.index()];
        s.add(
            p.knight_mg + p.knight_center_mg * c,
            p.knight_eg + p.knight_center_eg * c,
        );
        let m = (KNIGHT_ATTACKS[sq.index()] & !ours & !unsafe_sq).count_ones() as i32;
        s.add(p.knight_mobility_mg * m, p.knight_mobility_eg * m);
    }
    let bishops = pos.pieces(us, PieceKind::Bishop);
    if bishops.count_ones() >= 2 {
        s.add(p.bishop_pair_mg, p.bishop_pair_eg);
    }
    for sq in squares(bishops) {
        let c = CENTRALITY[sq.index()];
        s.add(
            p.bishop_mg + p.bishop_center_mg * c,
            p.bishop_eg + p.bishop_center_eg * c,
        );
        let m = (bishop_attacks(sq, occ) & !ours & !unsafe_sq).count_ones() as i32;
        s.add(p.bishop_mobility_mg * m, p.bishop_mobility_eg * m);
    }
    for sq in squares(pos.pieces(us, PieceKind::Rook)) {
        let c = CENTRALITY[sq.index()];
        s.add(
            p.rook_mg + p.rook_center_mg * c,
            p.rook_eg + p.rook_center_eg * c,
        );
        let file = FILE_A << sq.file();
        if file & all_pawns == 0 {
            s.add(p.rook_open_mg, p.rook_open_eg);
        } else if file & our_pawns == 0 {
            s.add(p.rook_half_open_mg, p.rook_half_open_eg);
        }
        let m = (rook_attacks(sq, occ) & !ours & !unsafe_sq).count_ones() as i32;
        s.add(p.rook_mobility_mg * m, p.rook_mobility_eg * m);
    }
    for sq in squares(pos.pieces(us, PieceKind::Queen)) {
        let c = CENTRALITY[sq.index()];
        s.add(
            p.queen_mg + p.queen_center_mg * c,
            p.queen_eg + p.queen_center_eg * c,
        );
        let attacks = rook_attacks(sq, occ) | bishop_attacks(sq, occ);
        let m = (attacks & !ours & !unsafe_sq).count_ones() as i32;
        s.add(p.queen_mobility_mg * m, p.queen_mobility_eg * m);
    }
    let king = pos.king(us);
    let c = CENTRALITY[king.index()];
    s.add(p.king_center_mg * c, p.king_center_eg * c);
    // The shelter: own pawns on the three squares in front of the king (the squares a pawn on
    // the king's square would attack, plus the one straight ahead).
    let ahead = shift_forward(us, king.bb()) | pawn_attacks(us, king);
    s.add(p.shelter_mg * (ahead & our_pawns).count_ones() as i32, 0);
    s
}

/// The static evaluation from the side to move's view, in centipawns.
pub fn evaluate(pos: &Position, p: &EvalParams) -> i32 {
    let white = side_score(pos, p, Color::White);
    let black = side_score(pos, p, Color::Black);
    let mg = white.mg - black.mg;
    let eg = white.eg - black.eg;
    let ph = phase(pos);
    let blended = (mg * ph + eg * (MAX_PHASE - ph)) / MAX_PHASE;
    let from_mover = match pos.side_to_move() {
        Color::White => blended,
        Color::Black => -blended,
    };
    from_mover + p.tempo
}

/// The evaluation as a linear function of the parameters, from White's view: `(index in
/// [`EvalParams::NAMES`], coefficient)` pairs, the nonzero ones, for Texel tuning. Every term
/// is a parameter times a count, so a parameter's coefficient is the evaluation with that
/// parameter at 1 and all others at 0; the phase blend is kept exact (no integer division), so
/// the features dotted with any parameters differ from [`evaluate`] (turned to White's view)
/// by less than one centipawn, the blend's rounding. The evaluation itself is not touched.
pub fn linear_features(pos: &Position) -> Vec<(usize, f64)> {
    let mut unit = EvalParams::default();
    for name in EvalParams::NAMES {
        unit.set(name, 0);
    }
    let ph = f64::from(phase(pos));
    let white_to_move = pos.side_to_move() == Color::White;
    let mut out = Vec::new();
    for (i, name) in EvalParams::NAMES.iter().enumerate() {
        if *name == "tempo" {
            // For the side to move, so White's when White moves.
            out.push((i, if white_to_move { 1.0 } else { -1.0 }));
            continue;
        }
        unit.set(name, 1);
        let w = side_score(pos, &unit, Color::White);
        let b = side_score(pos, &unit, Color::Black);
        unit.set(name, 0);
        let mg = f64::from(w.mg - b.mg);
        let eg = f64::from(w.eg - b.eg);
        let v = (mg * ph + eg * (f64::from(MAX_PHASE) - ph)) / f64::from(MAX_PHASE);
        if v != 0.0 {
            out.push((i, v));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_features_dot_the_parameters_equal_the_evaluation() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(17);
        let defaults = EvalParams::default();
        let mut other = EvalParams::default();
        for name in EvalParams::NAMES {
            let v = other.get(name).unwrap();
            other.set(name, v + rng.gen_range(-30..=30));
        }
        let mut checked = 0;
        for game in 0..8 {
            let mut pos = Position::startpos();
            for ply in 0..(20 + 10 * game) {
                for p in [&defaults, &other] {
                    let white = if pos.side_to_move() == Color::White {
                        evaluate(&pos, p)
                    } else {
                        -evaluate(&pos, p)
                    };
                    let dot: f64 = linear_features(&pos)
                        .iter()
                        .map(|&(i, c)| c * f64::from(p.get(EvalParams::NAMES[i]).unwrap()))
                        .sum();
                    assert!(
                        (dot - f64::from(white)).abs() < 1.0,
                        "{} ply {ply}: features {dot} vs eval {white}",
                        pos.to_fen()
                    );
                    checked += 1;
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves.as_slice()[rng.gen_range(0..moves.len())];
                pos.make(mv);
            }
        }
        assert!(checked > 300, "{checked}");
    }

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).unwrap(), &EvalParams::default())
    }

    #[test]
    fn the_start_is_level_but_for_the_tempo() {
        let p = EvalParams::default();
        assert_eq!(evaluate(&Position::startpos(), &p), p.tempo);
    }

    #[test]
    fn colour_flipped_positions_score_alike() {
        // The same position with colours and ranks mirrored scores the same for the mover.
        let pairs = [
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
            ),
            (
                "8/5k2/8/3P4/8/8/2K5/8 w - - 0 1",
                "8/2k5/8/8/3p4/8/5K2/8 b - - 0 1",
            ),
        ];
        for (a, b) in pairs {
            assert_eq!(eval_fen(a), eval_fen(b), "{a} vs {b}");
        }
    }

    #[test]
    fn material_and_passed_pawns_count() {
        // A queen up is worth far more than nothing; an advanced passed pawn more than a
        // blocked home one.
        let up = eval_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(up > 800, "{up}");
        let far = eval_fen("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1");
        let near = eval_fen("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1");
        assert!(far > near + 50, "{far} vs {near}");
    }

    #[test]
    fn parameters_are_addressed_by_name() {
        let mut p = EvalParams::default();
        assert_eq!(EvalParams::NAMES.len(), 45);
        for name in EvalParams::NAMES {
            let v = p.get(name).unwrap();
            assert!(p.set(name, v + 1));
            assert_eq!(p.get(name), Some(v + 1));
        }
        assert!(!p.set("no_such_term", 1));
        assert_eq!(p.get("no_such_term"), None);
    }
}
