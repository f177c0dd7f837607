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
    ("material.chariot", 920, 700, 1200, 20, "material", true),
    ("material.cannon", 450, 300, 600, 10, "material", true),
    ("eval.tempo", 3, -20, 40, 2, "eval", true),
    // Optional terms: weights are zero (off) until an SPRT says they win.
    ("eval.mobility.horse", 0, -10, 20, 1, "eval", false),
    ("eval.mobility.chariot", 0, -10, 20, 1, "eval", false),
    ("eval.mobility.cannon", 0, -10, 20, 1, "eval", false),
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
