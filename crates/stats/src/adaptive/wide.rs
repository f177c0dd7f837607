//! Steps too far apart: a neighbour pairing scored above 95% or below 5%, so its gap is
//! measured badly (one-sided after a perfect score), with a proposed in-between knob value.
//! Apart from the round planning of the parent module: it reads the games, it plans nothing.

use super::CONFIDENCE;
use crate::bound::Bound;
use crate::ratings::fit::Prepared;
use crate::ratings::{honest_intervals, FitOptions, RatedGame, RatingError};
use serde::{Deserialize, Serialize};

/// A neighbour step that is too far apart (or reversed): its pairing scored above 95% or below
/// 5%, from [`wide_steps`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WideStep {
    /// Index of the neighbour gap (`order[gap] -> order[gap + 1]`).
    pub gap: usize,
    /// The lower player of the step.
    pub from: usize,
    /// The upper player.
    pub to: usize,
    /// The upper player's score fraction against the lower one in their own games.
    pub score: f64,
    /// Game pairs (units) between them.
    pub pairs: u64,
    /// The honest bound on the gap (one-sided after a perfect score).
    pub bound: Bound,
    /// A knob value between the two players' (on the knob's scale), when both values are known:
    /// see [`wide_steps`].
    pub proposal: Option<f64>,
}

/// Score fraction above which (or below one minus which) a neighbour step is too far apart.
pub const WIDE_STEP_SCORE: f64 = 0.95;

/// The neighbour steps along `order` whose own pairing has at least `min_pairs` game pairs and a
/// score above 95% or below 5% for the upper player: the step is too wide for its gap to be
/// measured well (and a perfect score makes it one-sided).
///
/// `knob`, when given, holds each player's knob value on calibrate's knob scale (log2 nodes,
/// depth, minus the margin...; `None` for a player without one). A flagged step between two
/// players with values gets a proposal in between on that scale: where the fitted Elo, linear
/// in the knob between the two players, is halfway between them, i.e. the midpoint of the
/// scale values (the geometric mean of the nodes on the log2 scale). With `target_step` Elo and
/// a two-sided fitted gap, the proposal is instead the point `target_step` Elo above the lower
/// player on that line (at most three quarters of the way, so the new step is not just as wide
/// on the other side).
pub fn wide_steps(
    games: &[RatedGame],
    n_players: usize,
    order: &[usize],
    min_pairs: u64,
    knob: Option<&[Option<f64>]>,
    target_step: Option<f64>,
) -> Result<Vec<WideStep>, RatingError> {
    let honest = honest_intervals(
        games,
        n_players,
        order,
        order.first().copied().unwrap_or(0),
        CONFIDENCE,
    )?;
    let data = Prepared::new(games, n_players, &FitOptions::default())?;
    let mut out = Vec::new();
    for (gap, g) in honest.gaps.iter().enumerate() {
        let (lo, hi) = (g.from.min(g.to), g.from.max(g.to));
        let Some(p) = data.pairings.iter().find(|p| (p.a, p.b) == (lo, hi)) else {
            continue;
        };
        let (games_n, score_a) = p
            .units
            .iter()
            .fold((0.0, 0.0), |(n, s), u| (n + u.0, s + u.1));
        let pairs = p.units.len() as u64;
        if pairs < min_pairs || games_n == 0.0 {
            continue;
        }
        // Score of `to`: `b` when `to` is the higher index.
        let score = if g.to == hi {
            (games_n - score_a) / games_n
        } else {
            score_a / games_n
        };
        if (1.0 - WIDE_STEP_SCORE..=WIDE_STEP_SCORE).contains(&score) {
            continue;
        }
        let proposal = knob.and_then(|k| {
            let x0 = (*k.get(g.from)?)?;
            let x1 = (*k.get(g.to)?)?;
            let t = match (target_step, g.estimate, g.bound.is_two_sided()) {
                (Some(s), Some(e), true) if e.abs() > 0.0 => (s / e.abs()).clamp(0.0, 0.75),
                _ => 0.5,
            };
            Some(x0 + t * (x1 - x0))
        });
        out.push(WideStep {
            gap,
            from: g.from,
            to: g.to,
            score,
            pairs,
            bound: g.bound,
            proposal,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adaptive::tests::sweep;
    use crate::ratings::testutil::game;
    use crate::sim::simulate_pairings;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn perfect_steps_are_flagged_with_an_in_between_knob() {
        // 1 beats 0 in 8 pairs (16-0); 1-2 is close; 3 loses every game to 2.
        let mut id = 0;
        let mut games = sweep(&mut id, 1, 0, 8);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        games.extend(simulate_pairings(
            &mut rng,
            &[0.0, 0.0, 0.0],
            &[(1, 2)],
            20,
            0.3,
            100,
        ));
        games.extend(sweep(&mut id, 2, 3, 3));
        // Knob on the log2 scale: 256, 1024 nodes; player 2 has no value.
        let knob = [Some(8.0), Some(10.0), None, Some(12.0)];
        let order = [0, 1, 2, 3];
        let wide = wide_steps(&games, 4, &order, 2, Some(&knob), None).unwrap();
        assert_eq!(wide.len(), 2, "{wide:?}");
        assert_eq!((wide[0].gap, wide[0].from, wide[0].to), (0, 0, 1));
        assert_eq!(wide[0].score, 1.0);
        assert_eq!(wide[0].pairs, 8);
        assert!(wide[0].bound.is_one_sided());
        // The geometric mean of 256 and 1024 nodes: 512 = 2^9.
        assert_eq!(wide[0].proposal, Some(9.0));
        assert_eq!((wide[1].gap, wide[1].score), (2, 0.0));
        assert_eq!(wide[1].proposal, None);
        // At least 4 pairs: the 3-pair sweep is not flagged yet.
        let wide = wide_steps(&games, 4, &order, 4, None, None).unwrap();
        assert_eq!(wide.len(), 1);
        assert_eq!(wide[0].proposal, None);
    }

    #[test]
    fn a_target_step_interpolates_on_the_fitted_gap() {
        // 1 scores about 97% against 0 (a two-sided gap near 600 Elo).
        let mut games = Vec::new();
        for k in 0..50u64 {
            let second = if k < 3 { 0.5 } else { 0.0 };
            games.push(game(k, 1, 0, 1.0));
            games.push(game(k, 0, 1, second));
        }
        let knob = [Some(0.0), Some(6.0)];
        let wide = wide_steps(&games, 2, &[0, 1], 5, Some(&knob), Some(200.0)).unwrap();
        assert_eq!(wide.len(), 1);
        let gap = honest_intervals(&games, 2, &[0, 1], 0, 0.95).unwrap().gaps[0];
        let e = gap.estimate.unwrap();
        assert!(gap.bound.is_two_sided() && e > 500.0, "{gap:?}");
        let x = wide[0].proposal.unwrap();
        assert!((x - 6.0 * 200.0 / e).abs() < 1e-9, "{x} {e}");
        // Without a target: halfway.
        let wide = wide_steps(&games, 2, &[0, 1], 5, Some(&knob), None).unwrap();
        assert_eq!(wide[0].proposal, Some(3.0));
    }
}
