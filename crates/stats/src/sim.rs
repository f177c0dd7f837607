//! Simulated games between players of known ratings, for coverage and efficiency tests (here and
//! in programs that use this crate). Deterministic given the generator.

use crate::elo::score_from_elo;
use crate::ratings::RatedGame;
use rand::Rng;

/// One game's score for a player with expected score `e`, with a draw rate of `draw_base` between
/// equals falling off with the gap (`draw_base * 4 e (1 - e)`); the expected score stays `e`.
pub fn simulate_game<R: Rng>(rng: &mut R, e: f64, draw_base: f64) -> f64 {
    let draw = draw_base * 4.0 * e * (1.0 - e);
    let u: f64 = rng.gen();
    if u < e - draw / 2.0 {
        1.0
    } else if u < e + draw / 2.0 {
        0.5
    } else {
        0.0
    }
}

/// Game pairs between players rated `truth` (in Elo): for every pairing `(i, j)` listed, `pairs`
/// pairs of two games with colours swapped. Pair ids count up from `first_pair_id`.
pub fn simulate_pairings<R: Rng>(
    rng: &mut R,
    truth: &[f64],
    pairings: &[(usize, usize)],
    pairs: usize,
    draw_base: f64,
    first_pair_id: u64,
) -> Vec<RatedGame> {
    let mut games = Vec::new();
    let mut id = first_pair_id;
    for &(i, j) in pairings {
        let e = score_from_elo(truth[j] - truth[i]);
        for _ in 0..pairs {
            games.push(RatedGame {
                pair_id: id,
                first: j,
                second: i,
                score_first: simulate_game(rng, e, draw_base),
            });
            games.push(RatedGame {
                pair_id: id,
                first: i,
                second: j,
                score_first: 1.0 - simulate_game(rng, e, draw_base),
            });
            id += 1;
        }
    }
    games
}

/// As [`simulate_pairings`], with the first mover of every game expected to score as if rated
/// `advantage` Elo higher (the first-move model of the joint fit): each pair has `j` moving
/// first in its first game and `i` in its second.
pub fn simulate_pairings_first_move<R: Rng>(
    rng: &mut R,
    truth: &[f64],
    pairings: &[(usize, usize)],
    pairs: usize,
    draw_base: f64,
    advantage: f64,
) -> Vec<RatedGame> {
    let mut games = Vec::new();
    let mut id = 0;
    for &(i, j) in pairings {
        for (first, second) in [(j, i), (i, j)].into_iter().cycle().take(2 * pairs) {
            let e = score_from_elo(truth[first] - truth[second] + advantage);
            games.push(RatedGame {
                pair_id: id / 2,
                first,
                second,
                score_first: simulate_game(rng, e, draw_base),
            });
            id += 1;
        }
    }
    games
}

/// The pairings of a ladder of `n` players in order: neighbours and next-but-one neighbours,
/// `(0, 1), (0, 2), (1, 2), (1, 3), ...`.
pub fn ladder_pairings(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| [i + 1, i + 2].into_iter().map(move |j| (i, j)))
        .filter(|&(_, j)| j < n)
        .collect()
}

/// A ladder of players rated `truth` (in order) with neighbour and next-but-one pairings,
/// `pairs` game pairs each.
pub fn simulate_ladder<R: Rng>(
    rng: &mut R,
    truth: &[f64],
    pairs: usize,
    draw_base: f64,
) -> Vec<RatedGame> {
    simulate_pairings(
        rng,
        truth,
        &ladder_pairings(truth.len()),
        pairs,
        draw_base,
        0,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn ladder_pairings_are_neighbours_and_next_but_one() {
        assert_eq!(
            ladder_pairings(4),
            vec![(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(ladder_pairings(1), vec![]);
    }

    #[test]
    fn simulated_scores_match_expectation() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let games = simulate_pairings(&mut rng, &[0.0, 200.0], &[(0, 1)], 5000, 0.3, 7);
        assert_eq!(games.len(), 10_000);
        assert_eq!(games[0].pair_id, 7);
        let points_of_1: f64 = games
            .iter()
            .map(|g| {
                if g.first == 1 {
                    g.score_first
                } else {
                    1.0 - g.score_first
                }
            })
            .sum();
        let e = score_from_elo(200.0);
        // 10,000 games: the standard error of the mean score is below 0.005.
        assert!((points_of_1 / 10_000.0 - e).abs() < 0.015, "{points_of_1}");
        let draws = games.iter().filter(|g| g.score_first == 0.5).count() as f64;
        assert!((draws / 10_000.0 - 0.3 * 4.0 * e * (1.0 - e)).abs() < 0.02);
    }
}
