//! A small perspective network (NNUE, stage 0 of docs/nnue.md): 1,260 inputs per perspective
//! (own or enemy × 7 kinds × 90 points, the board seen from the perspective's back rank), one
//! hidden layer of `H` units per perspective, squared clipped ReLU, one output from the side
//! to move's view. The default engine evaluates with [`embedded`], a network built into the
//! binary (`configs/networks/s71-h64.nnue`); an engine without a network evaluates with the
//! handcrafted evaluation.
//!
//! The accumulators (the hidden layer before activation) are kept per colour, so a move
//! changes two or three rows of each and a null move none; the search keeps a stack of them
//! beside its material stack.
//!
//! File format (all little-endian): the 4 bytes `CHNN`, then u16 version (1), inputs (1,260),
//! hidden `H`, `QA`, `QB`, i32 `SCALE` and u16 flags (bit 0: residual, the output is added to
//! the handcrafted evaluation instead of replacing it); then i16 input weights (`inputs × H`, row per
//! input), i16 hidden biases (`H`), i16 output weights (`2H`: the side to move's half first),
//! and i32 output bias. Input weights and biases are the trained values × `QA`, output weights
//! × `QB`, the output bias × `QA × QB`; the evaluation in centipawns is the output × `SCALE`.

use crate::xiangqi::position::Position;
use crate::xiangqi::types::{Color, Move, Piece, SQUARE_COUNT};
use thiserror::Error;

/// Inputs per perspective: 2 relations × 7 kinds × 90 points.
pub const INPUTS: usize = 2 * 7 * SQUARE_COUNT;

/// Largest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 1024;

const MAGIC: &[u8; 4] = b"CHNN";
const VERSION: u16 = 2;
const HEADER: usize = 4 + 2 * 5 + 4 + 2;
/// Flag bit: the network's output is added to the handcrafted evaluation.
const RESIDUAL: u16 = 1;

/// The bytes of the network built into the binary: `configs/networks/s71-h64.nnue` (64 hidden
/// units, trained on 2.26 M positions of our own search's scores; docs/nnue.md).
pub const EMBEDDED_BYTES: &[u8] = include_bytes!("../../../../configs/networks/s71-h64.nnue");

/// The file the embedded network was built from (for messages and records).
pub const EMBEDDED_NAME: &str = "s71-h64.nnue";

/// The network built into the binary, parsed once and shared: the default engine's evaluation.
pub fn embedded() -> std::sync::Arc<Network> {
    static NET: std::sync::OnceLock<std::sync::Arc<Network>> = std::sync::OnceLock::new();
    NET.get_or_init(|| {
        std::sync::Arc::new(
            // A unit test reads the same bytes: a build whose embedded file is broken fails it.
            Network::from_bytes(EMBEDDED_BYTES).expect("the embedded network is valid"),
        )
    })
    .clone()
}

/// Why a network file was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NetworkError {
    /// The file does not start with `CHNN`.
    #[error("not a Chuhan network (the file does not start with CHNN)")]
    Magic,
    /// A version this engine does not read.
    #[error("network version {0} is not supported (this engine reads version {VERSION})")]
    Version(u16),
    /// A header field out of range.
    #[error("network header: {0}")]
    Header(String),
    /// The file is shorter or longer than its header says.
    #[error("network file is {found} bytes, its header needs {expected}")]
    Length {
        /// Bytes the header implies.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
}

/// A network's weights, quantised.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    hidden: usize,
    qa: i32,
    qb: i32,
    scale: i32,
    residual: bool,
    w1: Vec<i16>,
    b1: Vec<i16>,
    w2: Vec<i16>,
    b2: i32,
}

/// The feature index of `piece` on point `s` seen from `perspective`.
#[inline]
pub fn feature(perspective: Color, piece: Piece, s: usize) -> usize {
    let relation = usize::from(piece.color() != perspective);
    let point = match perspective {
        Color::Red => s,
        Color::Black => (9 - s / 9) * 9 + s % 9,
    };
    (relation * 7 + piece.kind_bits() as usize - 1) * SQUARE_COUNT + point
}

/// The active features of `pos` from `perspective`.
pub fn features(pos: &Position, perspective: Color) -> Vec<usize> {
    pos.board()
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.is_empty())
        .map(|(s, &p)| feature(perspective, p, s))
        .collect()
}

impl Network {
    /// A network from float weights (as a trainer holds them): `w1` is `INPUTS × hidden` (row
    /// per input), `b1` `hidden`, `w2` `2 × hidden` (side to move first). Values are rounded
    /// to the quantised grid.
    #[allow(clippy::too_many_arguments)]
    pub fn from_floats(
        hidden: usize,
        qa: i32,
        qb: i32,
        scale: i32,
        w1: &[f32],
        b1: &[f32],
        w2: &[f32],
        b2: f32,
    ) -> Network {
        assert_eq!(w1.len(), INPUTS * hidden);
        assert_eq!(b1.len(), hidden);
        assert_eq!(w2.len(), 2 * hidden);
        let q = |x: f32, by: i32| (x * by as f32).round().clamp(-32767.0, 32767.0) as i16;
        Network {
            hidden,
            qa,
            qb,
            scale,
            residual: false,
            w1: w1.iter().map(|&x| q(x, qa)).collect(),
            b1: b1.iter().map(|&x| q(x, qa)).collect(),
            w2: w2.iter().map(|&x| q(x, qb)).collect(),
            b2: (b2 * (qa * qb) as f32).round() as i32,
        }
    }

    /// Reads a network file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER || &bytes[..4] != MAGIC {
            return Err(NetworkError::Magic);
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let version = u16_at(4);
        if version != VERSION {
            return Err(NetworkError::Version(version));
        }
        let (inputs, hidden, qa, qb) = (
            u16_at(6) as usize,
            u16_at(8) as usize,
            i32::from(u16_at(10)),
            i32::from(u16_at(12)),
        );
        let scale = i32::from_le_bytes([bytes[14], bytes[15], bytes[16], bytes[17]]);
        let flags = u16_at(18);
        if flags & !RESIDUAL != 0 {
            return Err(NetworkError::Header(format!("unknown flags {flags:#x}")));
        }
        if inputs != INPUTS {
            return Err(NetworkError::Header(format!(
                "{inputs} inputs, this engine has {INPUTS}"
            )));
        }
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetworkError::Header(format!(
                "hidden size {hidden} is not 1..={MAX_HIDDEN}"
            )));
        }
        if qa <= 0 || qb <= 0 || scale <= 0 {
            return Err(NetworkError::Header(format!(
                "QA {qa}, QB {qb} and SCALE {scale} must be positive"
            )));
        }
        let count = INPUTS * hidden + hidden + 2 * hidden;
        let expected = HEADER + 2 * count + 4;
        if bytes.len() != expected {
            return Err(NetworkError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let i16s: Vec<i16> = bytes[HEADER..HEADER + 2 * count]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let tail = &bytes[HEADER + 2 * count..];
        let (w1, rest) = i16s.split_at(INPUTS * hidden);
        let (b1, w2) = rest.split_at(hidden);
        Ok(Network {
            hidden,
            qa,
            qb,
            scale,
            residual: flags & RESIDUAL != 0,
            w1: w1.to_vec(),
            b1: b1.to_vec(),
            w2: w2.to_vec(),
            b2: i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]),
        })
    }

    /// The file's bytes ([`Network::from_bytes`] reads them back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 2 * (self.w1.len() + 3 * self.hidden) + 4);
        out.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            INPUTS as u16,
            self.hidden as u16,
            self.qa as u16,
            self.qb as u16,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.scale.to_le_bytes());
        let flags = if self.residual { RESIDUAL } else { 0 };
        out.extend_from_slice(&flags.to_le_bytes());
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// The same network marked residual (`true`: its output is added to the handcrafted
    /// evaluation) or not.
    pub fn with_residual(mut self, residual: bool) -> Network {
        self.residual = residual;
        self
    }

    /// Whether the output is added to the handcrafted evaluation instead of replacing it.
    pub fn residual(&self) -> bool {
        self.residual
    }

    /// Hidden units per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Writes the accumulators of `pos` from scratch into `acc` (`2 × hidden`: Red's
    /// perspective, then Black's).
    pub fn refresh(&self, pos: &Position, acc: &mut [i16]) {
        let h = self.hidden;
        for (k, color) in Color::ALL.into_iter().enumerate() {
            let a = &mut acc[k * h..(k + 1) * h];
            a.copy_from_slice(&self.b1);
            for f in features(pos, color) {
                add(a, &self.w1[f * h..(f + 1) * h]);
            }
        }
    }

    /// Writes into `child` the accumulators after `mv` from those of `parent` (both
    /// `2 × hidden`), judged on `pos` before the move is made.
    #[inline]
    pub fn update(&self, pos: &Position, mv: Move, parent: &[i16], child: &mut [i16]) {
        let h = self.hidden;
        let board = pos.board();
        let (from, to) = (mv.from().index(), mv.to().index());
        let piece = board[from];
        let captured = board[to];
        child.copy_from_slice(parent);
        for (k, color) in Color::ALL.into_iter().enumerate() {
            let a = &mut child[k * h..(k + 1) * h];
            let row = |f: usize| &self.w1[f * h..(f + 1) * h];
            sub(a, row(feature(color, piece, from)));
            add(a, row(feature(color, piece, to)));
            if !captured.is_empty() {
                sub(a, row(feature(color, captured, to)));
            }
        }
    }

    /// The evaluation in centipawns from the side to move's view, from the accumulators
    /// (`2 × hidden`, Red's then Black's).
    #[inline]
    pub fn evaluate(&self, acc: &[i16], side_to_move: Color) -> i32 {
        let h = self.hidden;
        let (red, black) = acc.split_at(h);
        let (us, them) = match side_to_move {
            Color::Red => (red, black),
            Color::Black => (black, red),
        };
        let qa = self.qa;
        let half = |a: &[i16], w: &[i16]| -> i64 {
            a.iter()
                .zip(w)
                .map(|(&x, &w)| {
                    let c = i32::from(x).clamp(0, qa);
                    i64::from(c * i32::from(w)) * i64::from(c)
                })
                .sum()
        };
        let sum = half(us, &self.w2[..h]) + half(them, &self.w2[h..]);
        let out = sum / i64::from(qa) + i64::from(self.b2);
        (out * i64::from(self.scale) / i64::from(qa * self.qb)) as i32
    }

    /// The evaluation from the side to move's active features `us` and the other side's
    /// `them` (as [`features`] gives them), in centipawns from the side to move's view.
    pub fn evaluate_features(&self, us: &[u16], them: &[u16]) -> i32 {
        let h = self.hidden;
        let mut acc = vec![0i16; 2 * h];
        for (k, feats) in [us, them].into_iter().enumerate() {
            let a = &mut acc[k * h..(k + 1) * h];
            a.copy_from_slice(&self.b1);
            for &f in feats {
                add(a, &self.w1[f as usize * h..(f as usize + 1) * h]);
            }
        }
        // The side to move's accumulator sits where Red's does.
        self.evaluate(&acc, Color::Red)
    }

    /// The evaluation of `pos` from scratch, in centipawns from the side to move's view.
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        let mut acc = vec![0i16; 2 * self.hidden];
        self.refresh(pos, &mut acc);
        self.evaluate(&acc, pos.side_to_move())
    }
}

#[inline]
fn add(a: &mut [i16], row: &[i16]) {
    for (x, &w) in a.iter_mut().zip(row) {
        *x = x.wrapping_add(w);
    }
}

#[inline]
fn sub(a: &mut [i16], row: &[i16]) {
    for (x, &w) in a.iter_mut().zip(row) {
        *x = x.wrapping_sub(w);
    }
}

/// A random network with weights small enough for the accumulators to stay in range (for
/// tests and speed measurements).
pub fn random_network(hidden: usize, seed: u64) -> Network {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut r = |s: f32| (rng.gen::<f32>() - 0.5) * s;
    let w1: Vec<f32> = (0..INPUTS * hidden).map(|_| r(0.2)).collect();
    let b1: Vec<f32> = (0..hidden).map(|_| 0.3 + r(0.2)).collect();
    let w2: Vec<f32> = (0..2 * hidden).map(|_| r(1.0)).collect();
    Network::from_floats(hidden, 255, 64, 400, &w1, &b1, &w2, 0.01)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::position::Position;

    #[test]
    fn the_embedded_network_is_the_shipped_file_and_judges_material() {
        let net = embedded();
        assert_eq!(net.hidden(), 64);
        assert!(!net.residual());
        assert_eq!(net.to_bytes(), EMBEDDED_BYTES);
        // A chariot up is a large advantage for the side that has it, from either side's view.
        let up = Position::from_fen(
            "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        )
        .unwrap();
        let down = Position::from_fen(
            "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        )
        .unwrap();
        assert!(
            net.evaluate_position(&up) > 300,
            "{}",
            net.evaluate_position(&up)
        );
        assert!(
            net.evaluate_position(&down) < -300,
            "{}",
            net.evaluate_position(&down)
        );
    }

    #[test]
    fn bytes_round_trip_and_bad_files_are_refused() {
        let net = random_network(8, 1);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetworkError::Length {
                expected: bytes.len(),
                found: bytes.len() - 1
            })
        );
        assert_eq!(Network::from_bytes(b"XXXX"), Err(NetworkError::Magic));
        let mut v2 = bytes.clone();
        v2[4] = 3;
        assert_eq!(Network::from_bytes(&v2), Err(NetworkError::Version(3)));
        let residual = net.clone().with_residual(true);
        assert_eq!(Network::from_bytes(&residual.to_bytes()), Ok(residual));
        let mut h0 = bytes;
        h0[8] = 0;
        h0[9] = 0;
        assert!(matches!(
            Network::from_bytes(&h0),
            Err(NetworkError::Header(_))
        ));
    }

    #[test]
    fn the_board_seen_from_either_side_evaluates_alike() {
        // The start position is symmetric: each side to move sees the same board.
        let net = random_network(16, 2);
        let red = Position::startpos();
        let black = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        )
        .unwrap();
        assert_eq!(net.evaluate_position(&red), net.evaluate_position(&black));
        assert_ne!(net.evaluate_position(&red), 0);
    }

    #[test]
    fn quantised_output_follows_the_float_network() {
        // One hidden unit, weights on the quantised grid: the output is exact.
        let hidden = 1;
        let mut w1 = vec![0.0f32; INPUTS];
        let pos = Position::startpos();
        // Each side's own general (the same feature from either side): both accumulators
        // are 0.5 (128 of QA 255).
        let own_general = features(&pos, Color::Red)
            .into_iter()
            .find(|&f| f / SQUARE_COUNT == 0)
            .unwrap();
        w1[own_general] = 0.5;
        let net = Network::from_floats(hidden, 255, 64, 400, &w1, &[0.0], &[1.0, 0.5], 0.0);
        // 0.5² × 1 + 0.5² × 0.5 = 0.375, × 400 = 150 cp (151 once 0.5 × 255 is rounded
        // to 128).
        let v = net.evaluate_position(&pos);
        assert!((v - 150).abs() <= 1, "{v}");
    }
}
