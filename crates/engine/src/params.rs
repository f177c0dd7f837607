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
    /// Group for selecting parameters by group in tuners (`material`, `pst`, `eval`, `search`).
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

/// Defaults measured by Texel tuning (`chuhan tune texel` on 197,323 self-play positions;
/// configs/engines/texel.toml, +83 ± 56 Elo over the hand-set values at 50 ms per move and
/// again by SPRT in docs/strength.md). They replace the hand-set starting values above, which
/// remain the formula for points the tuner left alone.
const TUNED_DEFAULTS: &[(&str, i32)] = &[
    ("material.soldier", 140),
    ("material.advisor", 140),
    ("material.elephant", 134),
    ("material.horse", 490),
    ("material.chariot", 1200),
    ("material.cannon", 373),
    ("eval.tempo", 0),
    ("pst.soldier.a3", 41),
    ("pst.soldier.c3", -55),
    ("pst.soldier.e3", 41),
    ("pst.soldier.a4", 22),
    ("pst.soldier.c4", -8),
    ("pst.soldier.e4", 84),
    ("pst.soldier.a5", 81),
    ("pst.soldier.b5", 97),
    ("pst.soldier.c5", 78),
    ("pst.soldier.d5", 114),
    ("pst.soldier.e5", 150),
    ("pst.soldier.a6", 104),
    ("pst.soldier.b6", 135),
    ("pst.soldier.c6", 162),
    ("pst.soldier.d6", 108),
    ("pst.soldier.e6", 130),
    ("pst.soldier.a7", 228),
    ("pst.soldier.b7", 182),
    ("pst.soldier.c7", 179),
    ("pst.soldier.d7", 277),
    ("pst.soldier.e7", 270),
    ("pst.soldier.a8", 2),
    ("pst.soldier.b8", 152),
    ("pst.soldier.c8", 197),
    ("pst.soldier.d8", 157),
    ("pst.soldier.e8", 298),
    ("pst.soldier.a9", -126),
    ("pst.soldier.b9", -18),
    ("pst.soldier.c9", 26),
    ("pst.soldier.d9", -195),
    ("pst.soldier.e9", -200),
    ("pst.horse.a0", -82),
    ("pst.horse.b0", -128),
    ("pst.horse.c0", -66),
    ("pst.horse.d0", -70),
    ("pst.horse.e0", -25),
    ("pst.horse.a1", -105),
    ("pst.horse.b1", 36),
    ("pst.horse.c1", -1),
    ("pst.horse.d1", -86),
    ("pst.horse.e1", -75),
    ("pst.horse.a2", -117),
    ("pst.horse.b2", -97),
    ("pst.horse.c2", -76),
    ("pst.horse.d2", 59),
    ("pst.horse.e2", -24),
    ("pst.horse.a3", -28),
    ("pst.horse.b3", 64),
    ("pst.horse.c3", 24),
    ("pst.horse.d3", -31),
    ("pst.horse.e3", 89),
    ("pst.horse.a4", 119),
    ("pst.horse.b4", 49),
    ("pst.horse.c4", 96),
    ("pst.horse.d4", 44),
    ("pst.horse.e4", 62),
    ("pst.horse.a5", 15),
    ("pst.horse.b5", 60),
    ("pst.horse.c5", 126),
    ("pst.horse.d5", 81),
    ("pst.horse.e5", 56),
    ("pst.horse.a6", 0),
    ("pst.horse.b6", 24),
    ("pst.horse.c6", 135),
    ("pst.horse.d6", 42),
    ("pst.horse.e6", 97),
    ("pst.horse.a7", 106),
    ("pst.horse.b7", 69),
    ("pst.horse.c7", 104),
    ("pst.horse.d7", 23),
    ("pst.horse.e7", 194),
    ("pst.horse.a8", 36),
    ("pst.horse.b8", 134),
    ("pst.horse.c8", 41),
    ("pst.horse.d8", 65),
    ("pst.horse.e8", -96),
    ("pst.horse.a9", 93),
    ("pst.horse.b9", 20),
    ("pst.horse.c9", 21),
    ("pst.horse.d9", 262),
    ("pst.horse.e9", -140),
    ("pst.chariot.a0", 13),
    ("pst.chariot.b0", 161),
    ("pst.chariot.c0", 167),
    ("pst.chariot.d0", 158),
    ("pst.chariot.e0", -52),
    ("pst.chariot.a1", 25),
    ("pst.chariot.b1", -27),
    ("pst.chariot.c1", 180),
    ("pst.chariot.d1", 178),
    ("pst.chariot.e1", 32),
    ("pst.chariot.a2", 87),
    ("pst.chariot.b2", 172),
    ("pst.chariot.c2", 155),
    ("pst.chariot.d2", 203),
    ("pst.chariot.e2", 229),
    ("pst.chariot.a3", 165),
    ("pst.chariot.b3", 130),
    ("pst.chariot.c3", 189),
    ("pst.chariot.d3", 247),
    ("pst.chariot.e3", 273),
    ("pst.chariot.a4", 123),
    ("pst.chariot.b4", 188),
    ("pst.chariot.c4", 221),
    ("pst.chariot.d4", 246),
    ("pst.chariot.e4", 200),
    ("pst.chariot.a5", 201),
    ("pst.chariot.b5", 234),
    ("pst.chariot.c5", 263),
    ("pst.chariot.d5", 269),
    ("pst.chariot.e5", 247),
    ("pst.chariot.a6", 218),
    ("pst.chariot.b6", 186),
    ("pst.chariot.c6", 266),
    ("pst.chariot.d6", 275),
    ("pst.chariot.e6", 268),
    ("pst.chariot.a7", 265),
    ("pst.chariot.b7", 167),
    ("pst.chariot.c7", 235),
    ("pst.chariot.d7", 294),
    ("pst.chariot.e7", 260),
    ("pst.chariot.a8", 193),
    ("pst.chariot.b8", 188),
    ("pst.chariot.c8", 231),
    ("pst.chariot.d8", 242),
    ("pst.chariot.e8", 245),
    ("pst.chariot.a9", 189),
    ("pst.chariot.b9", 185),
    ("pst.chariot.c9", 200),
    ("pst.chariot.d9", 246),
    ("pst.chariot.e9", 217),
    ("pst.cannon.a0", -82),
    ("pst.cannon.b0", 76),
    ("pst.cannon.c0", -99),
    ("pst.cannon.d0", 48),
    ("pst.cannon.e0", -25),
    ("pst.cannon.a1", 122),
    ("pst.cannon.b1", 56),
    ("pst.cannon.c1", 149),
    ("pst.cannon.d1", 158),
    ("pst.cannon.e1", 3),
    ("pst.cannon.a2", 97),
    ("pst.cannon.b2", 71),
    ("pst.cannon.c2", 37),
    ("pst.cannon.d2", 24),
    ("pst.cannon.e2", 152),
    ("pst.cannon.a3", 16),
    ("pst.cannon.b3", -40),
    ("pst.cannon.c3", 3),
    ("pst.cannon.d3", 27),
    ("pst.cannon.e3", 5),
    ("pst.cannon.a4", 34),
    ("pst.cannon.b4", 41),
    ("pst.cannon.c4", 91),
    ("pst.cannon.d4", 80),
    ("pst.cannon.e4", 71),
    ("pst.cannon.a5", 24),
    ("pst.cannon.b5", 38),
    ("pst.cannon.c5", 13),
    ("pst.cannon.e5", 113),
    ("pst.cannon.a6", -35),
    ("pst.cannon.b6", 33),
    ("pst.cannon.c6", 6),
    ("pst.cannon.d6", -16),
    ("pst.cannon.e6", -20),
    ("pst.cannon.a7", -72),
    ("pst.cannon.b7", 36),
    ("pst.cannon.c7", -61),
    ("pst.cannon.d7", -81),
    ("pst.cannon.e7", -96),
    ("pst.cannon.a8", 12),
    ("pst.cannon.b8", 7),
    ("pst.cannon.c8", -30),
    ("pst.cannon.d8", -77),
    ("pst.cannon.e8", -51),
    ("pst.cannon.a9", 24),
    ("pst.cannon.b9", 33),
    ("pst.cannon.c9", -1),
    ("pst.cannon.d9", -59),
    ("pst.cannon.e9", -199),
    ("pst.general.d0", 28),
    ("pst.general.e0", 10),
    ("pst.general.d1", -31),
    ("pst.general.e1", 14),
    ("pst.general.d2", -148),
    ("pst.general.e2", -93),
    ("pst.advisor.d0", -27),
    ("pst.advisor.e1", 6),
    ("pst.advisor.d2", -97),
    ("pst.elephant.c0", -16),
    ("pst.elephant.a2", -83),
    ("pst.elephant.e2", -14),
    ("pst.elephant.c4", -76),
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
    // phase ([`crate::eval::PHASE_MAX`]). 0 everywhere by default: no taper.
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
