//! Test helpers shared by the submodules' tests.

use super::*;
use crate::jobs::tune::select_params;
use chuhan_engine::eval::linear_features;
use chuhan_engine::{Params, Position};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Positions of seeded random games (after the first 6 plies), labelled by `label` from
/// their features; each game is a `#game`.
pub fn random_games(
    games: usize,
    plies: usize,
    seed: u64,
    mut label: impl FnMut(&[(usize, f64)]) -> f64,
) -> Vec<LabelledPosition> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    for game in 0..games {
        let mut pos = Position::startpos();
        for ply in 1..=plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[rng.gen_range(0..moves.len())];
            pos.make(mv);
            if ply > 6 {
                let features = linear_features(&pos);
                out.push(LabelledPosition {
                    line: out.len() + 1,
                    game: game as u32,
                    result: label(&features),
                    ply: ply as u32,
                    eval: 0.0,
                    features,
                });
            }
        }
    }
    out
}

pub fn evaluation(params: &Params, features: &[(usize, f64)]) -> f64 {
    features
        .iter()
        .map(|&(i, x)| f64::from(params.get(i)) * x)
        .sum()
}

/// The defaults with the material values moved about 20% (up and down).
pub fn perturbed_material() -> Params {
    let mut p = Params::default();
    for (name, factor) in [
        ("material.soldier", 0.8),
        ("material.advisor", 1.2),
        ("material.elephant", 0.8),
        ("material.horse", 1.2),
        ("material.chariot", 0.8),
        ("material.cannon", 0.8),
    ] {
        let v = f64::from(p.value(name).unwrap()) * factor;
        p.set(name, v.round() as i64).unwrap();
    }
    p
}

pub fn all_linear() -> Vec<usize> {
    select_params(&["material", "pst", "eg", "eval"], true).unwrap()
}

pub fn distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt()
}

pub fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}
