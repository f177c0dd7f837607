//! Evaluation: material + piece-square tables (one signed table per piece, updated
//! incrementally by the search; each value has a middlegame and an endgame part, blended by
//! the game phase, see [`Psq`]) + a side-to-move bonus, plus optional terms whose weights are
//! zero until an SPRT says they win: the positional terms of [`terms`] (mobility, horse legs,
//! chariot files, cannons aimed at the general, king safety, connected soldiers) and hanging
//! pieces.
//!
//! Everything but hanging pieces is linear in the parameters: [`linear_features`] exposes it so
//! the Texel tuner's gradient is exact.

pub mod nnue;
pub mod terms;

use crate::params::{self, Params, PST_KINDS};
use crate::xiangqi::movegen::{GenKind, MoveList};
use crate::xiangqi::position::Position;
use crate::xiangqi::tables::{HORSE_STEPS, RAYS};
use crate::xiangqi::types::{Color, Move, Piece, PieceKind, Square, SQUARE_COUNT};

/// The phase of a full board: every chariot, horse, cannon, advisor and elephant on it.
pub const PHASE_MAX: i32 = 56;

/// Phase weight of a kind: chariot 6, horse and cannon 3, advisor and elephant 1 (soldiers and
/// generals 0); both sides' pieces sum to [`PHASE_MAX`] at the start.
pub const fn phase_weight(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Chariot => 6,
        PieceKind::Horse | PieceKind::Cannon => 3,
        PieceKind::Advisor | PieceKind::Elephant => 1,
        PieceKind::Soldier | PieceKind::General => 0,
    }
}

/// The incremental part of the evaluation from Red's view: the middlegame sum of material +
/// PST, the sum of the endgame offsets (`eg.` parameters), and the phase (0 = bare board,
/// [`PHASE_MAX`] = every piece on it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Psq {
    /// Middlegame material + PST.
    pub mg: i32,
    /// Endgame offsets: the endgame value is `mg + eg`.
    pub eg: i32,
    /// Phase weight of the pieces on the board.
    pub phase: i32,
}

impl Psq {
    /// The tapered value: `mg + eg * (PHASE_MAX - phase) / PHASE_MAX`, the phase clamped to
    /// `0..=PHASE_MAX`.
    #[inline]
    pub fn value(self) -> i32 {
        let endgame = PHASE_MAX - self.phase.clamp(0, PHASE_MAX);
        self.mg + self.eg * endgame / PHASE_MAX
    }
}

impl std::ops::Add for Psq {
    type Output = Psq;
    #[inline]
    fn add(self, o: Psq) -> Psq {
        Psq {
            mg: self.mg + o.mg,
            eg: self.eg + o.eg,
            phase: self.phase + o.phase,
        }
    }
}

impl std::ops::AddAssign for Psq {
    #[inline]
    fn add_assign(&mut self, o: Psq) {
        *self = *self + o;
    }
}

/// Evaluation weights resolved from [`Params`] into lookup tables.
#[derive(Clone, Debug)]
pub struct EvalTables {
    /// Material + PST per piece encoding and point, from Red's view (Black pieces negative).
    pub psq: [[i32; SQUARE_COUNT]; 16],
    /// Endgame offsets of material + PST, laid out like `psq`.
    pub psq_eg: [[i32; SQUARE_COUNT]; 16],
    /// Phase weight per piece encoding (0 for empty points).
    pub phase: [i32; 16],
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Weights of the positional terms ([`terms::TERM_NAMES`] order), 0 = off.
    pub terms: [i32; terms::TERM_COUNT],
    /// Whether a mobility weight is set (the only terms that scan rays).
    mobility_on: bool,
    /// Penalty per hanging piece (attacked and undefended), 0 = off.
    pub hanging: i32,
    /// Material values by kind bits (for move ordering and pruning margins).
    pub material: [i32; 8],
}

/// Rank counted from a side's own back rank.
#[inline]
pub fn own_rank(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    }
}

fn material_index(kind: PieceKind) -> Option<usize> {
    match kind {
        PieceKind::General => None,
        k => params::index_of(&format!("material.{}", params::kind_name(k))),
    }
}

/// The index of the endgame offset of parameter `i` (`eg.` + its name).
fn eg_index(i: usize) -> usize {
    static INDEX: std::sync::OnceLock<Vec<Option<usize>>> = std::sync::OnceLock::new();
    let idx = INDEX.get_or_init(|| {
        params::table()
            .iter()
            .map(|d| params::index_of(&format!("eg.{}", d.name)))
            .collect()
    });
    idx[i].unwrap_or_else(|| panic!("no endgame offset for {}", params::table()[i].name))
}

impl EvalTables {
    /// Builds the tables from parameter values.
    pub fn new(p: &Params) -> EvalTables {
        let mut material = [0i32; 8];
        for kind in PieceKind::ALL {
            material[kind as usize] = material_index(kind).map_or(0, |i| p.get(i));
        }
        let mut psq = [[0i32; SQUARE_COUNT]; 16];
        let mut psq_eg = [[0i32; SQUARE_COUNT]; 16];
        let mut phase = [0i32; 16];
        for color in Color::ALL {
            for kind in PST_KINDS {
                let piece = Piece::new(color, kind);
                phase[piece.index()] = phase_weight(kind);
                let material_eg = material_index(kind).map_or(0, |i| p.get(eg_index(i)));
                for s in 0..SQUARE_COUNT {
                    let sq = Square(s as u8);
                    let pst = params::pst_index(kind, sq.file(), own_rank(color, sq));
                    let v = material[kind as usize] + pst.map_or(0, |i| p.get(i));
                    let eg = material_eg + pst.map_or(0, |i| p.get(eg_index(i)));
                    let sign = if color == Color::Red { 1 } else { -1 };
                    psq[piece.index()][s] = sign * v;
                    psq_eg[piece.index()][s] = sign * eg;
                }
            }
        }
        let weights = terms::TERM_NAMES.map(|name| p.get(params::scalar(name)));
        EvalTables {
            psq,
            psq_eg,
            phase,
            tempo: p.get(params::scalar("eval.tempo")),
            terms: weights,
            mobility_on: weights[..3].iter().any(|&w| w != 0),
            hanging: p.get(params::scalar("eval.hanging")),
            material,
        }
    }

    /// Material + PST of the whole board from Red's view, computed from scratch.
    pub fn psq_full(&self, pos: &Position) -> Psq {
        let mut sum = Psq::default();
        for (s, p) in pos.board().iter().enumerate() {
            let i = p.index();
            sum += Psq {
                mg: self.psq[i][s],
                eg: self.psq_eg[i][s],
                phase: self.phase[i],
            };
        }
        sum
    }

    /// Change of [`EvalTables::psq_full`] that `mv` causes; call before making it.
    #[inline]
    pub fn psq_delta(&self, pos: &Position, mv: Move) -> Psq {
        let from = mv.from().index();
        let to = mv.to().index();
        let piece = pos.board()[from].index();
        let captured = pos.board()[to].index();
        Psq {
            mg: self.psq[piece][to] - self.psq[piece][from] - self.psq[captured][to],
            eg: self.psq_eg[piece][to] - self.psq_eg[piece][from] - self.psq_eg[captured][to],
            phase: -self.phase[captured],
        }
    }

    /// Whether any optional (non-incremental) term is switched on.
    pub fn has_optional_terms(&self) -> bool {
        self.hanging != 0 || self.terms.iter().any(|&w| w != 0)
    }

    /// Whether a term the evaluation is not linear in (hanging pieces) is switched on: the
    /// Texel tuner cannot see it.
    pub fn has_nonlinear_terms(&self) -> bool {
        self.hanging != 0
    }

    /// The optional terms from Red's view.
    pub fn optional_terms(&self, pos: &Position) -> i32 {
        if !self.has_optional_terms() {
            return 0;
        }
        let mut score = 0;
        if self.terms.iter().any(|&w| w != 0) {
            let counts = terms::term_counts(pos, self.mobility_on);
            score += counts
                .iter()
                .zip(&self.terms)
                .map(|(c, w)| c * w)
                .sum::<i32>();
        }
        if self.hanging != 0 {
            let (red, black) = hanging_counts(pos);
            score -= self.hanging * (red as i32 - black as i32);
        }
        score
    }

    /// Full evaluation from the side to move's view, from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let red = self.psq_full(pos).value() + self.optional_terms(pos);
        let stm = if pos.side_to_move() == Color::Red {
            red
        } else {
            -red
        };
        stm + self.tempo
    }
}

/// The number of pseudo-legal moves of a chariot, cannon or horse `piece` on point `from`, as
/// if its side were to move (0 for other kinds), read off the board and the step tables: the
/// same count as generating its moves, without a position copy or a move list.
#[inline]
pub fn mobility(board: &[Piece; SQUARE_COUNT], from: usize, piece: Piece) -> u32 {
    let color = piece.color();
    let enemy = |t: usize| !board[t].is_empty() && board[t].color() != color;
    let mut n = 0u32;
    match piece.kind_bits() {
        k if k == PieceKind::Chariot as u8 => {
            for ray in &RAYS[from] {
                for &t in &ray.to[..ray.len as usize] {
                    if board[t as usize].is_empty() {
                        n += 1;
                    } else {
                        n += u32::from(enemy(t as usize));
                        break;
                    }
                }
            }
        }
        k if k == PieceKind::Cannon as u8 => {
            for ray in &RAYS[from] {
                let to = &ray.to[..ray.len as usize];
                let mut i = 0;
                while i < to.len() && board[to[i] as usize].is_empty() {
                    n += 1;
                    i += 1;
                }
                // Past the screen: the first piece beyond it, if it is an enemy.
                i += 1;
                while i < to.len() && board[to[i] as usize].is_empty() {
                    i += 1;
                }
                if i < to.len() {
                    n += u32::from(enemy(to[i] as usize));
                }
            }
        }
        k if k == PieceKind::Horse as u8 => {
            let steps = &HORSE_STEPS[from];
            for i in 0..steps.len as usize {
                let t = steps.to[i] as usize;
                if board[steps.via[i] as usize].is_empty() && (board[t].is_empty() || enemy(t)) {
                    n += 1;
                }
            }
        }
        _ => {}
    }
    n
}

/// Pseudo-legal moves of the piece on `sq` as if its side were to move, by generating them
/// (the reference [`mobility`] is tested against).
pub fn pseudo_mobility(pos: &Position, sq: Square) -> usize {
    let color = pos.piece_at(sq).color();
    let mut list = MoveList::new();
    if color == pos.side_to_move() {
        pos.generate_piece_pseudo(sq, &mut list);
    } else {
        let mut other = pos.clone();
        other.side = color;
        other.generate_piece_pseudo(sq, &mut list);
    }
    list.len()
}

/// Pieces (not generals) of each side attacked by the enemy and not defended: (red, black).
pub fn hanging_counts(pos: &Position) -> (u32, u32) {
    let mut attacked = [[false; SQUARE_COUNT]; 2];
    for color in Color::ALL {
        let mut p = pos.clone();
        p.side = color;
        let mut list = MoveList::new();
        p.generate_pseudo(GenKind::All, &mut list);
        for m in list.iter() {
            attacked[color.index()][m.to().index()] = true;
        }
        // Defence: squares holding own pieces that an own piece could recapture on. Found by
        // pretending each own piece is an enemy is costly; use a cheap proxy below.
    }
    let mut counts = (0, 0);
    for s in 0..SQUARE_COUNT {
        let piece = pos.board()[s];
        let Some(kind) = piece.kind() else { continue };
        if kind == PieceKind::General {
            continue;
        }
        let c = piece.color();
        if attacked[c.flip().index()][s] && !defended(pos, Square(s as u8)) {
            if c == Color::Red {
                counts.0 += 1;
            } else {
                counts.1 += 1;
            }
        }
    }
    counts
}

/// Whether a piece is defended: an own piece could capture on its point if an enemy stood there.
fn defended(pos: &Position, sq: Square) -> bool {
    let piece = pos.piece_at(sq);
    let color = piece.color();
    let mut p = pos.clone();
    // Put a dummy enemy soldier there (kept legal for generation purposes only).
    p.board[sq.index()] = Piece::new(color.flip(), PieceKind::Soldier);
    p.occupied[color.index()] &= !(1u128 << sq.index());
    p.occupied[color.flip().index()] |= 1u128 << sq.index();
    p.side = color;
    let mut list = MoveList::new();
    p.generate_pseudo(GenKind::Captures, &mut list);
    list.iter().any(|m| m.to() == sq)
}

/// The linear features of a position from Red's view: `(parameter index, value)` pairs such
/// that material + PST + tempo + the positional terms = sum of `params[index] * value`. The
/// endgame offsets' values carry the phase, `(PHASE_MAX - phase) / PHASE_MAX`: the engine
/// truncates that product toward zero (whole centipawns), so the sum can differ from the engine's
/// evaluation by less than one where an offset is not 0.
pub fn linear_features(pos: &Position) -> Vec<(usize, f64)> {
    let mut acc: Vec<(usize, f64)> = Vec::with_capacity(40);
    let mut add = |i: usize, v: f64| {
        if let Some(e) = acc.iter_mut().find(|(j, _)| *j == i) {
            e.1 += v;
        } else {
            acc.push((i, v));
        }
    };
    let phase: i32 = pos
        .board()
        .iter()
        .filter_map(|p| p.kind())
        .map(phase_weight)
        .sum();
    let endgame = f64::from(PHASE_MAX - phase.clamp(0, PHASE_MAX)) / f64::from(PHASE_MAX);
    for (s, p) in pos.board().iter().enumerate() {
        let Some(kind) = p.kind() else { continue };
        let color = p.color();
        let sign = if color == Color::Red { 1.0 } else { -1.0 };
        let sq = Square(s as u8);
        if let Some(i) = material_index(kind) {
            add(i, sign);
            add(eg_index(i), sign * endgame);
        }
        if let Some(i) = params::pst_index(kind, sq.file(), own_rank(color, sq)) {
            add(i, sign);
            add(eg_index(i), sign * endgame);
        }
    }
    let tempo = params::scalar("eval.tempo");
    add(
        tempo,
        if pos.side_to_move() == Color::Red {
            1.0
        } else {
            -1.0
        },
    );
    for (name, count) in terms::TERM_NAMES.iter().zip(terms::term_counts(pos, true)) {
        add(params::scalar(name), f64::from(count));
    }
    acc.retain(|&(_, v)| v != 0.0);
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table-driven count equals the generated moves' count for every chariot, cannon and
    /// horse of both sides, over positions from seeded random games.
    #[test]
    fn mobility_counts_generated_moves() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut checked = 0;
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                for s in 0..SQUARE_COUNT {
                    let piece = pos.board()[s];
                    let Some(kind) = piece.kind() else { continue };
                    if matches!(
                        kind,
                        PieceKind::Chariot | PieceKind::Cannon | PieceKind::Horse
                    ) {
                        assert_eq!(
                            mobility(pos.board(), s, piece) as usize,
                            pseudo_mobility(&pos, Square(s as u8)),
                            "{} on {s}",
                            pos.to_fen()
                        );
                        checked += 1;
                    }
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves.as_slice()[(next() % moves.len() as u64) as usize];
                pos.make(mv);
            }
        }
        assert!(checked > 10_000, "only {checked} pieces checked");
    }
}
