//! Opening positions: a seeded generator of short random openings, or a file of FEN/EPD lines.
//! Each opening is used by exactly one game pair; file openings are shuffled by the run seed.
//! (PGN opening books are not read yet: the engine has no PGN reader.)

use crate::player::material_balance;
use crate::schedule::splitmix64;
use chuhan_engine::{Game, GameConfig, Position};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpeningSource {
    /// Random legal plies from the start position, kept when balanced.
    Generated {
        /// Plies played from the start position.
        plies: u32,
    },
    /// One FEN or EPD per line.
    File {
        /// The file.
        path: PathBuf,
        /// FNV-1a hash of its contents, so a resumed run notices a changed file.
        content_hash: String,
    },
}

/// Why openings could not be produced.
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    /// The file could not be read.
    #[error("cannot read opening file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A line is not a valid position.
    #[error("{path}:{line}: not a valid FEN/EPD position: {reason}")]
    BadLine {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A line holds a finished game.
    #[error("{path}:{line}: the position is already decided (no legal move or a rules draw)")]
    Finished {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
    },
    /// Too few openings for the pairs asked for.
    #[error("{source_name} gives {available} distinct openings; {needed} pairs need one each")]
    TooFew {
        /// Description of the source.
        source_name: String,
        /// Openings available.
        available: usize,
        /// Openings needed.
        needed: usize,
    },
    /// `--opening-plies 0`.
    #[error("--opening-plies must be at least 1 (every pair needs its own opening)")]
    ZeroPlies,
}

/// 64-bit FNV-1a of a byte string, as hex (a content fingerprint, not a security hash).
pub fn fnv1a_hex(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Parses one opening line: FEN (2, 4 or 6 fields) or EPD (`board side - - opcodes;`).
fn parse_line(text: &str) -> Result<Position, String> {
    let body = text.split(';').next().unwrap_or("").trim();
    match Position::from_fen(body) {
        Ok(p) => Ok(p),
        Err(full) => {
            let fields: Vec<&str> = body.split_whitespace().collect();
            if fields.len() > 4 && fields[2] == "-" && fields[3] == "-" {
                Position::from_fen(&fields[..4].join(" ")).map_err(|e| e.to_string())
            } else {
                Err(full.to_string())
            }
        }
    }
}

/// Reads an opening file: one FEN or EPD per line, blank lines and `#` comments skipped.
/// Returns the positions as FEN (with the line numbers) and the content hash.
pub fn read_opening_file(path: &Path) -> Result<(Vec<String>, String), OpeningError> {
    let bytes = std::fs::read(path).map_err(|source| OpeningError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let pos = parse_line(t).map_err(|reason| OpeningError::BadLine {
            path: path.to_path_buf(),
            line: i + 1,
            reason,
        })?;
        let mut game = Game::new(pos.clone(), GameConfig::default());
        if game.verdict().is_some() {
            return Err(OpeningError::Finished {
                path: path.to_path_buf(),
                line: i + 1,
            });
        }
        out.push(pos.to_fen());
    }
    Ok((out, fnv1a_hex(&bytes)))
}

/// The cheap balance test for generated openings: equal material, side to move not in check,
/// and the game not over.
pub fn is_balanced(game: &mut Game) -> bool {
    material_balance(game.position()) == 0
        && !game.position().in_check()
        && game.verdict().is_none()
}

/// Generates `count` distinct balanced openings of `plies` random legal plies from the start,
/// reproducibly from `seed`. Fails when the space is too small to give that many.
pub fn generate(plies: u32, count: usize, seed: u64) -> Result<Vec<String>, OpeningError> {
    if plies == 0 {
        return Err(OpeningError::ZeroPlies);
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(splitmix64(seed ^ 0x6f70_656e_696e_6773));
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(count);
    // Give up after many attempts without a new opening: the space is exhausted.
    let mut misses = 0u32;
    while out.len() < count {
        if misses > 20_000 {
            return Err(OpeningError::TooFew {
                source_name: format!("--opening-plies {plies}"),
                available: out.len(),
                needed: count,
            });
        }
        let mut game = Game::new(Position::startpos(), GameConfig::default());
        let mut ok = true;
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            let mv = moves.as_slice()[rng.gen_range(0..moves.len())];
            if game.play(mv).ok().flatten().is_some() {
                ok = false;
                break;
            }
        }
        if !ok || !is_balanced(&mut game) {
            misses += 1;
            continue;
        }
        let fen = game.position().to_fen();
        if seen.insert(fen.clone()) {
            out.push(fen);
            misses = 0;
        } else {
            misses += 1;
        }
    }
    Ok(out)
}

/// Produces the openings of a run: `count` of them, in the order pairs use them.
pub fn openings_for(
    source: &OpeningSource,
    file_openings: Option<&[String]>,
    count: usize,
    seed: u64,
) -> Result<Vec<String>, OpeningError> {
    match source {
        OpeningSource::Generated { plies } => generate(*plies, count, seed),
        OpeningSource::File { path, .. } => {
            let mut all = file_openings.map(<[String]>::to_vec).unwrap_or_default();
            let mut rng =
                Xoshiro256PlusPlus::seed_from_u64(splitmix64(seed ^ 0x0073_6875_6666_6c65));
            all.shuffle(&mut rng);
            if all.len() < count {
                return Err(OpeningError::TooFew {
                    source_name: path.display().to_string(),
                    available: all.len(),
                    needed: count,
                });
            }
            all.truncate(count);
            Ok(all)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_openings_are_distinct_balanced_and_reproducible() {
        let a = generate(6, 50, 1).unwrap();
        assert_eq!(a, generate(6, 50, 1).unwrap());
        assert_ne!(a, generate(6, 50, 2).unwrap());
        let set: HashSet<_> = a.iter().collect();
        assert_eq!(set.len(), 50);
        for fen in &a {
            let mut g = Game::new(Position::from_fen(fen).unwrap(), GameConfig::default());
            assert!(is_balanced(&mut g), "{fen}");
        }
    }

    #[test]
    fn a_small_space_is_reported_not_looped_on() {
        // One ply from the start: 44 moves, of which the two cannon captures unbalance material.
        let err = generate(1, 100, 3).unwrap_err().to_string();
        assert!(err.contains("100 pairs"), "{err}");
        assert_eq!(generate(1, 42, 3).unwrap().len(), 42);
        assert!(generate(1, 43, 3).is_err());
    }

    #[test]
    fn epd_lines_with_opcodes_parse() {
        let p = parse_line(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - bm h2e2; id \"x\";",
        )
        .unwrap();
        assert_eq!(p, Position::startpos());
        assert!(parse_line("nonsense w").is_err());
    }
}
