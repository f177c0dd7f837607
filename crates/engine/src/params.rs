//! The one table of tunables. Every number the evaluation and the search use is declared here
//! once — name, default, min, max, step — and that table drives engine TOML configs, UCI
//! `setoption` names, SPSA parameter files and the Texel tuner's parameter vector.

use crate::xiangqi::types::PieceKind;
use std::sync::OnceLock;
use thiserror::Error;

/// One tunable: its name, default value, legal range and a sensible tuning step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamDef {
    /// Dotted name, e.g. `material.horse`, `pst.cannon.e2`, `search.contempt`.
    pub name: String,
    /// Default value.
    pub default: i32,
    /// Smallest accepted value.
    pub min: i32,
    /// Largest accepted value.
    pub max: i32,
    /// Step for tuners (SPSA's `c_end` starts from about this).
    pub step: i32,
    /// Group for selecting parameters by group in tuners (`material`, `pst`, `eg`, `eval`,
    /// `search`).
    pub group: &'static str,
    /// Whether the evaluation is linear in this parameter (Texel can tune it exactly).
    pub linear: bool,
}

/// Why a parameter assignment was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParamError {
    /// No such parameter.
    #[error("unknown parameter '{0}'")]
    Unknown(String),
    /// Value outside the declared range.
    #[error("parameter '{name}' = {value} is outside [{min}, {max}]")]
    OutOfRange {
        /// Parameter name.
        name: String,
        /// Value given.
        value: i64,
        /// Smallest accepted.
        min: i32,
        /// Largest accepted.
        max: i32,
    },
}

/// Kinds that have a piece-square table, with the points (files a–e, left half; the right
/// half mirrors) where they can stand. Ranks are counted from the piece's own side.
pub const PST_KINDS: [PieceKind; 7] = [
    PieceKind::Soldier,
    PieceKind::Horse,
    PieceKind::Chariot,
    PieceKind::Cannon,
    PieceKind::General,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

/// Lower-case name of a kind in parameter names.
pub const fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::General => "general",
        PieceKind::Advisor => "advisor",
        PieceKind::Elephant => "elephant",
        PieceKind::Horse => "horse",
        PieceKind::Chariot => "chariot",
        PieceKind::Cannon => "cannon",
        PieceKind::Soldier => "soldier",
    }
}

/// Whether a kind can stand on (file 0..=4, own rank) — the left half of the board.
fn pst_point_used(kind: PieceKind, file: u8, rank: u8) -> bool {
    match kind {
        PieceKind::General => (3..=4).contains(&file) && rank <= 2,
        PieceKind::Advisor => matches!((file, rank), (3, 0) | (4, 1) | (3, 2)),
        PieceKind::Elephant => matches!((file, rank), (2, 0) | (0, 2) | (4, 2) | (2, 4)),
        PieceKind::Soldier => rank >= 5 || (rank >= 3 && file % 2 == 0),
        _ => true,
    }
}

/// Default piece-square bonus (centipawns, added to material) for a kind on (file 0..=4 from
/// the left edge, own rank 0..=9). Hand-set starting values; Texel tuning improves them.
fn pst_default(kind: PieceKind, file: u8, rank: u8) -> i32 {
    let centre = file as i32; // 0 = edge file, 4 = centre file
    let r = rank as i32;
    match kind {
        PieceKind::Soldier => {
            if rank < 5 {
                0
            } else {
                // Crossed soldiers gain value, most near the enemy palace; the last rank is weak.
                let advance = match rank {
                    5 => 50,
                    6 => 70,
                    7 => 90,
                    8 => 80,
                    _ => 20,
                };
                let palace = if file >= 3 && (6..=8).contains(&rank) {
                    30
                } else {
                    0
                };
                advance + palace + 4 * centre
            }
        }
        PieceKind::Horse => {
            let mut v = 6 * centre.min(3) - 10;
            v += match rank {
                0 => -15,
                1 => -5,
                2..=4 => 5,
                5..=7 => 20,
                8 => 10,
                _ => -10,
            };
            if file >= 2 && (6..=8).contains(&rank) {
                v += 15;
            }
            v
        }
        PieceKind::Chariot => {
            let mut v = 2 * centre;
            v += match rank {
                0 => -10,
                1..=2 => 0,
                3..=5 => 8,
                6..=7 => 15,
                8 => 20,
                _ => 10,
            };
            if file == 3 && rank >= 6 {
                v += 5;
            }
            v
        }
        PieceKind::Cannon => {
            let mut v = 0;
            if file == 4 {
                v += 20;
            }
            v += match rank {
                0..=2 => 0,
                3..=5 => 3,
                6..=7 => 6,
                8 => -5,
                _ => 10,
            };
            v + centre
        }
        PieceKind::General => {
            let mut v = 0;
            if file != 4 {
                v -= 8;
            }
            v - 12 * r
        }
        PieceKind::Advisor | PieceKind::Elephant => 0,
    }
}

/// Scalar parameters: (name, default, min, max, step, group, linear).
const SCALARS: &[(&str, i32, i32, i32, i32, &str, bool)] = &[
    ("material.soldier", 100, 50, 200, 5, "material", true),
    ("material.advisor", 200, 100, 350, 10, "material", true),
    ("material.elephant", 200, 100, 350, 10, "material", true),
    ("material.horse", 430, 300, 600, 10, "material", true),
    ("material.chariot", 920, 700, 1500, 20, "material", true),
    ("material.cannon", 450, 250, 600, 10, "material", true),
    ("eval.tempo", 3, -20, 40, 2, "eval", true),
    // Optional terms: weights are zero (off) until an SPRT says they win. All but hanging
    // are linear (eval::terms): Texel tunes them with the tables.
    ("eval.mobility.horse", 0, -20, 40, 1, "eval", true),
    ("eval.mobility.chariot", 0, -20, 40, 1, "eval", true),
    ("eval.mobility.cannon", 0, -20, 40, 1, "eval", true),
    ("eval.horse.blocked_leg", 0, -200, 200, 5, "eval", true),
    ("eval.chariot.open_file", 0, -200, 200, 5, "eval", true),
    ("eval.chariot.half_open_file", 0, -200, 200, 5, "eval", true),
    (
        "eval.cannon.two_screens_general",
        0,
        -200,
        200,
        5,
        "eval",
        true,
    ),
    ("eval.cannon.hollow_general", 0, -200, 200, 5, "eval", true),
    ("eval.king.advisor_missing", 0, -200, 200, 5, "eval", true),
    ("eval.king.elephant_missing", 0, -200, 200, 5, "eval", true),
    ("eval.soldier.connected", 0, -200, 200, 5, "eval", true),
    ("eval.hanging", 0, 0, 200, 5, "eval", false),
    ("search.contempt", 20, -100, 200, 5, "search", false),
    ("search.null_reduction", 3, 1, 5, 1, "search", false),
    ("search.lmr_min_depth", 3, 1, 8, 1, "search", false),
    ("search.lmr_min_moves", 3, 1, 12, 1, "search", false),
    ("search.lmr_base", 75, 0, 200, 10, "search", false),
    ("search.lmr_divisor", 225, 100, 500, 15, "search", false),
    ("search.futility_margin", 120, 0, 400, 10, "search", false),
    ("search.delta_margin", 200, 0, 800, 20, "search", false),
    ("search.aspiration", 30, 5, 200, 5, "search", false),
    ("search.lmp_base", 3, 0, 30, 1, "search", false),
    ("search.futility_quiet", 110, 0, 400, 10, "search", false),
];

/// Defaults measured by Texel tuning with `--lambda 0`: material, piece-square values and their
/// endgame offsets fitted to the scores Fairy-Stockfish 11.1 reported for 67,547 quiet positions
/// of its own games (`chuhan datagen --engine configs/engines/fairy-stockfish.toml --nodes 8000
/// --seed 21`, 1,603 games; positions scored beyond ±2500 left out; `chuhan tune texel --lambda
/// 0 --max-eval 2500 --params material,pst,eg,eval.tempo --epochs 152`, the epoch of the lowest
/// validation loss), from the earlier self-play Texel values. Measured in docs/strength.md,
/// session 8. They replace the hand-set starting values above, which remain the formula for
/// points the tuner left alone.
const TUNED_DEFAULTS: &[(&str, i32)] = &[
    ("material.soldier", 91),
    ("material.advisor", 270),
    ("material.elephant", 236),
    ("material.horse", 405),
    ("material.chariot", 970),
    ("material.cannon", 425),
    ("eval.tempo", 7),
    ("pst.soldier.a3", -12),
    ("pst.soldier.c3", -43),
    ("pst.soldier.e3", 35),
    ("pst.soldier.a4", 15),
    ("pst.soldier.c4", 1),
    ("pst.soldier.e4", 34),
    ("pst.soldier.a5", 41),
    ("pst.soldier.b5", 60),
    ("pst.soldier.c5", 44),
    ("pst.soldier.d5", 91),
    ("pst.soldier.e5", 94),
    ("pst.soldier.a6", 50),
    ("pst.soldier.b6", 76),
    ("pst.soldier.c6", 94),
    ("pst.soldier.d6", 104),
    ("pst.soldier.e6", 104),
    ("pst.soldier.a7", 92),
    ("pst.soldier.b7", 108),
    ("pst.soldier.c7", 118),
    ("pst.soldier.d7", 197),
    ("pst.soldier.e7", 199),
    ("pst.soldier.a8", 33),
    ("pst.soldier.b8", 109),
    ("pst.soldier.c8", 128),
    ("pst.soldier.d8", 127),
    ("pst.soldier.e8", 222),
    ("pst.soldier.a9", -23),
    ("pst.soldier.b9", 27),
    ("pst.soldier.c9", 52),
    ("pst.soldier.d9", -76),
    ("pst.soldier.e9", -72),
    ("pst.horse.a0", -131),
    ("pst.horse.b0", -128),
    ("pst.horse.c0", -139),
    ("pst.horse.d0", -77),
    ("pst.horse.e0", -92),
    ("pst.horse.a1", -97),
    ("pst.horse.b1", -47),
    ("pst.horse.c1", -66),
    ("pst.horse.d1", -79),
    ("pst.horse.e1", -94),
    ("pst.horse.a2", -87),
    ("pst.horse.b2", -94),
    ("pst.horse.c2", -57),
    ("pst.horse.d2", -37),
    ("pst.horse.e2", -19),
    ("pst.horse.a3", -90),
    ("pst.horse.b3", -28),
    ("pst.horse.c3", -54),
    ("pst.horse.d3", -38),
    ("pst.horse.e3", 21),
    ("pst.horse.a4", 29),
    ("pst.horse.b4", -53),
    ("pst.horse.c4", 40),
    ("pst.horse.d4", -11),
    ("pst.horse.e4", 14),
    ("pst.horse.a5", -23),
    ("pst.horse.b5", -25),
    ("pst.horse.c5", 37),
    ("pst.horse.d5", 27),
    ("pst.horse.e5", 14),
    ("pst.horse.a6", -60),
    ("pst.horse.b6", 20),
    ("pst.horse.c6", 44),
    ("pst.horse.d6", 20),
    ("pst.horse.e6", 16),
    ("pst.horse.a7", 27),
    ("pst.horse.b7", 13),
    ("pst.horse.c7", 40),
    ("pst.horse.d7", 18),
    ("pst.horse.e7", 91),
    ("pst.horse.a8", -46),
    ("pst.horse.b8", 61),
    ("pst.horse.c8", 14),
    ("pst.horse.d8", -4),
    ("pst.horse.e8", -35),
    ("pst.horse.a9", -37),
    ("pst.horse.b9", -37),
    ("pst.horse.c9", -4),
    ("pst.horse.d9", 134),
    ("pst.horse.e9", -81),
    ("pst.chariot.a0", -76),
    ("pst.chariot.b0", -20),
    ("pst.chariot.c0", -38),
    ("pst.chariot.d0", -29),
    ("pst.chariot.e0", -200),
    ("pst.chariot.a1", -49),
    ("pst.chariot.b1", -54),
    ("pst.chariot.c1", -15),
    ("pst.chariot.d1", -6),
    ("pst.chariot.e1", -78),
    ("pst.chariot.a2", -69),
    ("pst.chariot.b2", -18),
    ("pst.chariot.c2", -15),
    ("pst.chariot.d2", 4),
    ("pst.chariot.e2", 21),
    ("pst.chariot.a3", -15),
    ("pst.chariot.b3", 13),
    ("pst.chariot.c3", 9),
    ("pst.chariot.d3", 35),
    ("pst.chariot.e3", 45),
    ("pst.chariot.a4", -19),
    ("pst.chariot.b4", 11),
    ("pst.chariot.c4", 16),
    ("pst.chariot.d4", 40),
    ("pst.chariot.e4", 11),
    ("pst.chariot.a5", 7),
    ("pst.chariot.b5", 27),
    ("pst.chariot.c5", 44),
    ("pst.chariot.d5", 45),
    ("pst.chariot.e5", 37),
    ("pst.chariot.a6", 16),
    ("pst.chariot.b6", 13),
    ("pst.chariot.c6", 54),
    ("pst.chariot.d6", 56),
    ("pst.chariot.e6", 49),
    ("pst.chariot.a7", 56),
    ("pst.chariot.b7", 14),
    ("pst.chariot.c7", 47),
    ("pst.chariot.d7", 100),
    ("pst.chariot.e7", 58),
    ("pst.chariot.a8", 16),
    ("pst.chariot.b8", 36),
    ("pst.chariot.c8", 50),
    ("pst.chariot.d8", 54),
    ("pst.chariot.e8", 86),
    ("pst.chariot.a9", 12),
    ("pst.chariot.b9", 22),
    ("pst.chariot.c9", 42),
    ("pst.chariot.d9", 61),
    ("pst.chariot.e9", 84),
    ("pst.cannon.a0", -34),
    ("pst.cannon.b0", 54),
    ("pst.cannon.c0", -31),
    ("pst.cannon.d0", 68),
    ("pst.cannon.e0", -6),
    ("pst.cannon.a1", 35),
    ("pst.cannon.b1", 42),
    ("pst.cannon.c1", 58),
    ("pst.cannon.d1", 72),
    ("pst.cannon.e1", 81),
    ("pst.cannon.a2", 37),
    ("pst.cannon.b2", 58),
    ("pst.cannon.c2", 39),
    ("pst.cannon.d2", 73),
    ("pst.cannon.e2", 108),
    ("pst.cannon.a3", 21),
    ("pst.cannon.b3", 35),
    ("pst.cannon.c3", 40),
    ("pst.cannon.d3", 59),
    ("pst.cannon.e3", 105),
    ("pst.cannon.a4", 48),
    ("pst.cannon.b4", 67),
    ("pst.cannon.c4", 70),
    ("pst.cannon.d4", 83),
    ("pst.cannon.e4", 121),
    ("pst.cannon.a5", 22),
    ("pst.cannon.b5", 53),
    ("pst.cannon.c5", 13),
    ("pst.cannon.e5", 94),
    ("pst.cannon.a6", -9),
    ("pst.cannon.b6", 42),
    ("pst.cannon.c6", 37),
    ("pst.cannon.d6", 34),
    ("pst.cannon.e6", 73),
    ("pst.cannon.a7", -11),
    ("pst.cannon.b7", 61),
    ("pst.cannon.c7", -13),
    ("pst.cannon.d7", -8),
    ("pst.cannon.e7", -21),
    ("pst.cannon.a8", 30),
    ("pst.cannon.b8", 68),
    ("pst.cannon.c8", 9),
    ("pst.cannon.d8", 29),
    ("pst.cannon.e8", 21),
    ("pst.cannon.a9", 75),
    ("pst.cannon.b9", 73),
    ("pst.cannon.c9", 2),
    ("pst.cannon.d9", -12),
    ("pst.cannon.e9", -66),
    ("pst.general.d0", -52),
    ("pst.general.e0", 40),
    ("pst.general.d1", -63),
    ("pst.general.e1", -21),
    ("pst.general.d2", -103),
    ("pst.general.e2", -77),
    ("pst.advisor.d0", -6),
    ("pst.advisor.e1", 41),
    ("pst.advisor.d2", -69),
    ("pst.elephant.c0", -39),
    ("pst.elephant.a2", -64),
    ("pst.elephant.e2", 15),
    ("pst.elephant.c4", -55),
    ("pst.cannon.d5", 35),
    ("eg.material.soldier", -21),
    ("eg.material.advisor", -148),
    ("eg.material.elephant", -131),
    ("eg.material.horse", -83),
    ("eg.material.chariot", -231),
    ("eg.material.cannon", -118),
    ("eg.pst.soldier.a3", 4),
    ("eg.pst.soldier.c3", 127),
    ("eg.pst.soldier.e3", 45),
    ("eg.pst.soldier.a4", -11),
    ("eg.pst.soldier.c4", 54),
    ("eg.pst.soldier.e4", 34),
    ("eg.pst.soldier.a5", 1),
    ("eg.pst.soldier.b5", -6),
    ("eg.pst.soldier.c5", 50),
    ("eg.pst.soldier.d5", -2),
    ("eg.pst.soldier.e5", -6),
    ("eg.pst.soldier.a6", -42),
    ("eg.pst.soldier.b6", -26),
    ("eg.pst.soldier.c6", -18),
    ("eg.pst.soldier.d6", -8),
    ("eg.pst.soldier.e6", -18),
    ("eg.pst.soldier.a7", -83),
    ("eg.pst.soldier.b7", -73),
    ("eg.pst.soldier.c7", -48),
    ("eg.pst.soldier.d7", -98),
    ("eg.pst.soldier.e7", -84),
    ("eg.pst.soldier.a8", 22),
    ("eg.pst.soldier.b8", -75),
    ("eg.pst.soldier.c8", -74),
    ("eg.pst.soldier.d8", -57),
    ("eg.pst.soldier.e8", -77),
    ("eg.pst.soldier.a9", 93),
    ("eg.pst.soldier.b9", -14),
    ("eg.pst.soldier.c9", 20),
    ("eg.pst.soldier.d9", 116),
    ("eg.pst.soldier.e9", 122),
    ("eg.pst.horse.a0", -43),
    ("eg.pst.horse.b0", 57),
    ("eg.pst.horse.c0", 100),
    ("eg.pst.horse.d0", 18),
    ("eg.pst.horse.e0", -37),
    ("eg.pst.horse.a1", 34),
    ("eg.pst.horse.b1", -63),
    ("eg.pst.horse.c1", 9),
    ("eg.pst.horse.d1", 2),
    ("eg.pst.horse.e1", 46),
    ("eg.pst.horse.a2", 54),
    ("eg.pst.horse.b2", 58),
    ("eg.pst.horse.c2", 42),
    ("eg.pst.horse.d2", 16),
    ("eg.pst.horse.e2", -55),
    ("eg.pst.horse.a3", 69),
    ("eg.pst.horse.b3", -49),
    ("eg.pst.horse.c3", 29),
    ("eg.pst.horse.d3", 31),
    ("eg.pst.horse.e3", -68),
    ("eg.pst.horse.a4", -88),
    ("eg.pst.horse.b4", 30),
    ("eg.pst.horse.c4", -77),
    ("eg.pst.horse.d4", -8),
    ("eg.pst.horse.e4", -68),
    ("eg.pst.horse.a5", -32),
    ("eg.pst.horse.b5", -15),
    ("eg.pst.horse.c5", -82),
    ("eg.pst.horse.d5", -77),
    ("eg.pst.horse.e5", -31),
    ("eg.pst.horse.a6", 4),
    ("eg.pst.horse.b6", -70),
    ("eg.pst.horse.c6", -98),
    ("eg.pst.horse.d6", -55),
    ("eg.pst.horse.e6", -47),
    ("eg.pst.horse.a7", -96),
    ("eg.pst.horse.b7", -69),
    ("eg.pst.horse.c7", -69),
    ("eg.pst.horse.d7", -49),
    ("eg.pst.horse.e7", -113),
    ("eg.pst.horse.a8", -13),
    ("eg.pst.horse.b8", -78),
    ("eg.pst.horse.c8", -54),
    ("eg.pst.horse.d8", -89),
    ("eg.pst.horse.e8", 16),
    ("eg.pst.horse.a9", -149),
    ("eg.pst.horse.b9", -48),
    ("eg.pst.horse.c9", 27),
    ("eg.pst.horse.d9", -119),
    ("eg.pst.horse.e9", 19),
    ("eg.pst.chariot.a0", -167),
    ("eg.pst.chariot.b0", -217),
    ("eg.pst.chariot.c0", -196),
    ("eg.pst.chariot.d0", -212),
    ("eg.pst.chariot.e0", -196),
    ("eg.pst.chariot.a1", -129),
    ("eg.pst.chariot.b1", -94),
    ("eg.pst.chariot.c1", -169),
    ("eg.pst.chariot.d1", -216),
    ("eg.pst.chariot.e1", -94),
    ("eg.pst.chariot.a2", -61),
    ("eg.pst.chariot.b2", -144),
    ("eg.pst.chariot.c2", -123),
    ("eg.pst.chariot.d2", -172),
    ("eg.pst.chariot.e2", -176),
    ("eg.pst.chariot.a3", -173),
    ("eg.pst.chariot.b3", -200),
    ("eg.pst.chariot.c3", -180),
    ("eg.pst.chariot.d3", -214),
    ("eg.pst.chariot.e3", -226),
    ("eg.pst.chariot.a4", -135),
    ("eg.pst.chariot.b4", -188),
    ("eg.pst.chariot.c4", -199),
    ("eg.pst.chariot.d4", -204),
    ("eg.pst.chariot.e4", -177),
    ("eg.pst.chariot.a5", -196),
    ("eg.pst.chariot.b5", -217),
    ("eg.pst.chariot.c5", -216),
    ("eg.pst.chariot.d5", -223),
    ("eg.pst.chariot.e5", -210),
    ("eg.pst.chariot.a6", -194),
    ("eg.pst.chariot.b6", -203),
    ("eg.pst.chariot.c6", -219),
    ("eg.pst.chariot.d6", -222),
    ("eg.pst.chariot.e6", -212),
    ("eg.pst.chariot.a7", -194),
    ("eg.pst.chariot.b7", -165),
    ("eg.pst.chariot.c7", -178),
    ("eg.pst.chariot.d7", -203),
    ("eg.pst.chariot.e7", -195),
    ("eg.pst.chariot.a8", -188),
    ("eg.pst.chariot.b8", -206),
    ("eg.pst.chariot.c8", -202),
    ("eg.pst.chariot.d8", -189),
    ("eg.pst.chariot.e8", -175),
    ("eg.pst.chariot.a9", -177),
    ("eg.pst.chariot.b9", -176),
    ("eg.pst.chariot.c9", -178),
    ("eg.pst.chariot.d9", -195),
    ("eg.pst.chariot.e9", -163),
    ("eg.pst.cannon.a0", 5),
    ("eg.pst.cannon.b0", -95),
    ("eg.pst.cannon.c0", 33),
    ("eg.pst.cannon.d0", -92),
    ("eg.pst.cannon.e0", -15),
    ("eg.pst.cannon.a1", -95),
    ("eg.pst.cannon.b1", -96),
    ("eg.pst.cannon.c1", -119),
    ("eg.pst.cannon.d1", -107),
    ("eg.pst.cannon.e1", -127),
    ("eg.pst.cannon.a2", -97),
    ("eg.pst.cannon.b2", -96),
    ("eg.pst.cannon.c2", -69),
    ("eg.pst.cannon.d2", -94),
    ("eg.pst.cannon.e2", -112),
    ("eg.pst.cannon.a3", -22),
    ("eg.pst.cannon.b3", -69),
    ("eg.pst.cannon.c3", -77),
    ("eg.pst.cannon.d3", -100),
    ("eg.pst.cannon.e3", -155),
    ("eg.pst.cannon.a4", -118),
    ("eg.pst.cannon.b4", -96),
    ("eg.pst.cannon.c4", -97),
    ("eg.pst.cannon.d4", -131),
    ("eg.pst.cannon.e4", -164),
    ("eg.pst.cannon.a5", -46),
    ("eg.pst.cannon.b5", -88),
    ("eg.pst.cannon.c5", -19),
    ("eg.pst.cannon.d5", -58),
    ("eg.pst.cannon.e5", -118),
    ("eg.pst.cannon.a6", 9),
    ("eg.pst.cannon.b6", -63),
    ("eg.pst.cannon.c6", -68),
    ("eg.pst.cannon.d6", -69),
    ("eg.pst.cannon.e6", -89),
    ("eg.pst.cannon.a7", 6),
    ("eg.pst.cannon.b7", -95),
    ("eg.pst.cannon.c7", -1),
    ("eg.pst.cannon.d7", 16),
    ("eg.pst.cannon.e7", 25),
    ("eg.pst.cannon.a8", -37),
    ("eg.pst.cannon.b8", -108),
    ("eg.pst.cannon.c8", 7),
    ("eg.pst.cannon.d8", -36),
    ("eg.pst.cannon.e8", 37),
    ("eg.pst.cannon.a9", -108),
    ("eg.pst.cannon.b9", -62),
    ("eg.pst.cannon.c9", -8),
    ("eg.pst.cannon.d9", 4),
    ("eg.pst.cannon.e9", 104),
    ("eg.pst.general.d0", 45),
    ("eg.pst.general.e0", -44),
    ("eg.pst.general.d1", 40),
    ("eg.pst.general.e1", -12),
    ("eg.pst.general.d2", 68),
    ("eg.pst.general.e2", 17),
    ("eg.pst.advisor.d0", -53),
    ("eg.pst.advisor.e1", -98),
    ("eg.pst.advisor.d2", 11),
    ("eg.pst.elephant.c0", 4),
    ("eg.pst.elephant.a2", 21),
    ("eg.pst.elephant.e2", -67),
    ("eg.pst.elephant.c4", -5),
];

fn build_table() -> Vec<ParamDef> {
    let mut t: Vec<ParamDef> = SCALARS
        .iter()
        .map(|&(name, default, min, max, step, group, linear)| ParamDef {
            name: name.to_string(),
            default,
            min,
            max,
            step,
            group,
            linear,
        })
        .collect();
    for kind in PST_KINDS {
        for rank in 0..10u8 {
            for file in 0..5u8 {
                if !pst_point_used(kind, file, rank) {
                    continue;
                }
                t.push(ParamDef {
                    name: format!("pst.{}.{}{}", kind_name(kind), (b'a' + file) as char, rank),
                    default: pst_default(kind, file, rank),
                    min: -200,
                    max: 300,
                    step: 5,
                    group: "pst",
                    linear: true,
                });
            }
        }
    }
    // Endgame offsets (group `eg`): a piece's endgame value is its middlegame value (the
    // parameter without the `eg.` prefix) plus this; the evaluation blends the two by the game
    // phase ([`crate::eval::PHASE_MAX`]). 0 in the table (no taper); `TUNED_DEFAULTS` below sets
    // the fitted ones.
    let eg: Vec<ParamDef> = t
        .iter()
        .filter(|d| d.group == "material" || d.group == "pst")
        .map(|d| ParamDef {
            name: format!("eg.{}", d.name),
            default: 0,
            min: -400,
            max: 400,
            step: d.step,
            group: "eg",
            linear: true,
        })
        .collect();
    t.extend(eg);
    for &(name, value) in TUNED_DEFAULTS {
        let def = t
            .iter_mut()
            .find(|d| d.name == name)
            .unwrap_or_else(|| panic!("tuned default for unknown parameter {name}"));
        def.default = value;
    }
    t
}

/// The parameter table (built once).
pub fn table() -> &'static [ParamDef] {
    static TABLE: OnceLock<Vec<ParamDef>> = OnceLock::new();
    TABLE.get_or_init(build_table)
}

/// Index of a parameter by name.
pub fn index_of(name: &str) -> Option<usize> {
    table().iter().position(|p| p.name == name)
}

/// Index of the piece-square parameter for a kind on (file 0..=8, own rank), mirrored to the
/// left half. `None` for points the kind can never stand on.
pub fn pst_index(kind: PieceKind, file: u8, rank: u8) -> Option<usize> {
    static INDEX: OnceLock<Vec<Option<usize>>> = OnceLock::new();
    let idx = INDEX.get_or_init(|| {
        let mut v = vec![None; 8 * 50];
        for kind in PST_KINDS {
            for rank in 0..10u8 {
                for file in 0..5u8 {
                    let name = format!("pst.{}.{}{}", kind_name(kind), (b'a' + file) as char, rank);
                    v[kind as usize * 50 + rank as usize * 5 + file as usize] = index_of(&name);
                }
            }
        }
        v
    });
    let half = file.min(8 - file);
    idx[kind as usize * 50 + rank as usize * 5 + half as usize]
}

/// A full assignment of values, one per table entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    values: Vec<i32>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            values: table().iter().map(|p| p.default).collect(),
        }
    }
}

impl Params {
    /// Value by table index.
    #[inline]
    pub fn get(&self, index: usize) -> i32 {
        self.values[index]
    }

    /// Value by name.
    pub fn value(&self, name: &str) -> Result<i32, ParamError> {
        index_of(name)
            .map(|i| self.values[i])
            .ok_or_else(|| ParamError::Unknown(name.to_string()))
    }

    /// Sets a value by name, checking the declared range.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let i = index_of(name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        let def = &table()[i];
        if value < def.min as i64 || value > def.max as i64 {
            return Err(ParamError::OutOfRange {
                name: name.to_string(),
                value,
                min: def.min,
                max: def.max,
            });
        }
        self.values[i] = value as i32;
        Ok(())
    }

    /// Sets a value by index, clamped to the declared range.
    pub fn set_clamped(&mut self, index: usize, value: i32) {
        let def = &table()[index];
        self.values[index] = value.clamp(def.min, def.max);
    }

    /// All values in table order.
    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// Parameters whose value differs from the default, in table order.
    pub fn overrides(&self) -> Vec<(&'static str, i32)> {
        table()
            .iter()
            .zip(&self.values)
            .filter(|(d, v)| d.default != **v)
            .map(|(d, v)| (d.name.as_str(), *v))
            .collect()
    }
}

/// Looks up a scalar parameter index by name, panicking if the table lacks it (a programming
/// error caught by the tests).
pub(crate) fn scalar(name: &str) -> usize {
    index_of(name).unwrap_or_else(|| panic!("parameter table lacks {name}"))
}
