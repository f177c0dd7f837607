//! Schedules shared by the unit tests of the rating modules.

use super::RatedGame;

pub(crate) fn game(pair_id: u64, first: usize, second: usize, score_first: f64) -> RatedGame {
    RatedGame {
        pair_id,
        first,
        second,
        score_first,
    }
}

/// Player 1 scores 60% against player 0 in 50 pairs: 50 wins, 20 draws, 30 losses.
pub(crate) fn sixty_percent() -> Vec<RatedGame> {
    let mut games = Vec::new();
    let mut results = vec![1.0; 50];
    results.extend(vec![0.5; 20]);
    results.extend(vec![0.0; 30]);
    for (k, pair) in results.chunks(2).enumerate() {
        games.push(game(k as u64, 1, 0, pair[0]));
        games.push(game(k as u64, 0, 1, 1.0 - pair[1]));
    }
    games
}
