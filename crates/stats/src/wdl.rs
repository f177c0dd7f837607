//! Game counts: single games ([`Outcome`]), game counts from one side ([`Trinomial`]: losses,
//! draws, wins) and game pairs with colours swapped ([`Pentanomial`]).

use serde::{Deserialize, Serialize};

/// Scores of the three trinomial outcomes: loss, draw, win.
pub(crate) const TRI_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// Scores of the five pentanomial buckets: LL, LD+DL, LW+DD+WL, DW+WD, WW.
pub(crate) const PENTA_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// A game score that is not one of 0, 0.5 or 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[error("game score {0} is not 0, 0.5 or 1")]
pub struct InvalidScore(pub f64);

/// Outcome of one game from one player's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// Score 0.
    Loss,
    /// Score 1/2.
    Draw,
    /// Score 1.
    Win,
}

impl Outcome {
    /// The outcome with score `score` (exactly 0, 0.5 or 1), or an error for any other value.
    pub fn from_score(score: f64) -> Result<Self, InvalidScore> {
        if score == 0.0 {
            Ok(Self::Loss)
        } else if score == 0.5 {
            Ok(Self::Draw)
        } else if score == 1.0 {
            Ok(Self::Win)
        } else {
            Err(InvalidScore(score))
        }
    }

    /// The score of this outcome: 0, 0.5 or 1.
    pub fn score(self) -> f64 {
        match self {
            Self::Loss => 0.0,
            Self::Draw => 0.5,
            Self::Win => 1.0,
        }
    }

    /// Half points of this game: 0, 1 or 2 (a pair's sum is its pentanomial bucket).
    fn half_points(self) -> usize {
        match self {
            Self::Loss => 0,
            Self::Draw => 1,
            Self::Win => 2,
        }
    }
}

/// Game counts from one player's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Trinomial {
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games won.
    pub wins: u64,
}

impl Trinomial {
    /// Counts from losses, draws and wins.
    pub fn new(losses: u64, draws: u64, wins: u64) -> Self {
        Self {
            losses,
            draws,
            wins,
        }
    }

    /// Number of games.
    pub fn total(&self) -> u64 {
        self.losses + self.draws + self.wins
    }

    /// Number of games, or `None` when it does not fit in a `u64` (counts read from input
    /// must be checked with this before [`Trinomial::total`] is used).
    pub fn checked_total(&self) -> Option<u64> {
        self.losses.checked_add(self.draws)?.checked_add(self.wins)
    }

    /// Records one game with score `score` (0, 0.5 or 1) for this player.
    pub fn add_game(&mut self, score: f64) -> Result<(), InvalidScore> {
        self.add_outcome(Outcome::from_score(score)?);
        Ok(())
    }

    /// Records one game outcome.
    pub fn add_outcome(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Loss => self.losses += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Win => self.wins += 1,
        }
    }

    /// Adds another tally to this one.
    pub fn merge(&mut self, other: &Trinomial) {
        self.losses += other.losses;
        self.draws += other.draws;
        self.wins += other.wins;
    }

    /// The same games seen from the opponent's side (wins and losses swapped).
    pub fn reversed(&self) -> Self {
        Self::new(self.wins, self.draws, self.losses)
    }

    /// Total points scored: wins + draws / 2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Fraction of games drawn, or `None` with no games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.total();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }

    /// The counts as `[losses, draws, wins]`.
    pub fn counts(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }
}

/// Game-pair counts (same opening, colours swapped) by pair score, from one player's view.
///
/// `counts` is `[LL, LD+DL, LW+DD+WL, DW+WD, WW]`, i.e. pair scores 0, 1/4, 1/2, 3/4 and 1.
/// The middle bucket mixes a win and a loss with two draws, so the game-level draw count cannot be
/// recovered from `counts` alone; `double_draws` records how many middle-bucket pairs were DD when
/// that is known (it is kept by [`Pentanomial::add_pair`], and is `None` after
/// [`Pentanomial::from_counts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pair counts `[LL, LD+DL, LW+DD+WL, DW+WD, WW]`.
    pub counts: [u64; 5],
    /// How many pairs of the middle bucket were two draws, when known.
    pub double_draws: Option<u64>,
}

impl Default for Pentanomial {
    fn default() -> Self {
        Self::new()
    }
}

impl Pentanomial {
    /// An empty tally (with a known double-draw count of zero).
    pub fn new() -> Self {
        Self {
            counts: [0; 5],
            double_draws: Some(0),
        }
    }

    /// A tally from bare bucket counts; the game-level draw count is then unknown.
    pub fn from_counts(counts: [u64; 5]) -> Self {
        Self {
            counts,
            double_draws: None,
        }
    }

    /// Number of pairs.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Number of games (twice the number of pairs).
    pub fn games(&self) -> u64 {
        2 * self.total()
    }

    /// Number of games (twice the pairs), or `None` when it does not fit in a `u64`; also
    /// guards the game-level sums of [`Pentanomial::to_trinomial`], which are never larger.
    pub fn checked_games(&self) -> Option<u64> {
        self.counts
            .iter()
            .try_fold(0u64, |sum, &n| sum.checked_add(n))?
            .checked_mul(2)
    }

    /// Records a game pair from the scores (0, 0.5 or 1) of both games, from the same player's view.
    pub fn add_pair(
        &mut self,
        first_game_score: f64,
        second_game_score: f64,
    ) -> Result<(), InvalidScore> {
        let first = Outcome::from_score(first_game_score)?;
        let second = Outcome::from_score(second_game_score)?;
        self.add_outcomes(first, second);
        Ok(())
    }

    /// Records a game pair from the outcomes of both games, from the same player's view.
    pub fn add_outcomes(&mut self, first: Outcome, second: Outcome) {
        self.counts[first.half_points() + second.half_points()] += 1;
        if first == Outcome::Draw && second == Outcome::Draw {
            if let Some(dd) = self.double_draws.as_mut() {
                *dd += 1;
            }
        }
    }

    /// Adds another tally to this one; the double-draw count stays known only if both knew it.
    pub fn merge(&mut self, other: &Pentanomial) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine += theirs;
        }
        self.double_draws = match (self.double_draws, other.double_draws) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
    }

    /// The same pairs seen from the opponent's side.
    pub fn reversed(&self) -> Self {
        let c = self.counts;
        Self {
            counts: [c[4], c[3], c[2], c[1], c[0]],
            double_draws: self.double_draws,
        }
    }

    /// The game-level counts of these pairs, or `None` when the number of double draws is unknown.
    pub fn to_trinomial(&self) -> Option<Trinomial> {
        let dd = self.double_draws?;
        let [ll, ld, mid, dw, ww] = self.counts;
        let lw = mid.checked_sub(dd)?;
        Some(Trinomial::new(
            2 * ll + ld + lw,
            ld + 2 * dd + dw,
            lw + dw + 2 * ww,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::Estimate;

    fn close(actual: f64, expected: f64, tol: f64) {
        assert!(
            (actual - expected).abs() <= tol,
            "expected {expected} ± {tol}, got {actual}"
        );
    }

    #[test]
    fn pentanomial_pairs_and_draws() {
        let mut pt = Pentanomial::new();
        pt.add_pair(0.0, 0.0).unwrap();
        pt.add_pair(0.0, 0.5).unwrap();
        pt.add_pair(0.5, 0.0).unwrap();
        pt.add_pair(1.0, 0.0).unwrap();
        pt.add_pair(0.5, 0.5).unwrap();
        pt.add_pair(0.5, 1.0).unwrap();
        pt.add_pair(1.0, 1.0).unwrap();
        assert!(pt.add_pair(0.25, 1.0).is_err());
        assert_eq!(pt.counts, [1, 2, 2, 1, 1]);
        assert_eq!(pt.total(), 7);
        let t = pt.to_trinomial().unwrap();
        assert_eq!(t, Trinomial::new(5, 5, 4));
        assert_eq!(t.total(), pt.games());
        let e = Estimate::from_pentanomial(&pt).unwrap();
        close(e.draw_ratio.unwrap(), 5.0 / 14.0, 1e-12);
        assert_eq!(pt.reversed().to_trinomial().unwrap(), t.reversed());
        let mut merged = pt;
        merged.merge(&Pentanomial::from_counts([1, 0, 0, 0, 0]));
        assert_eq!(merged.to_trinomial(), None);
        let e = Estimate::from_pentanomial(&merged)
            .unwrap()
            .with_draw_ratio(&Trinomial::new(7, 5, 4));
        close(e.draw_ratio.unwrap(), 5.0 / 16.0, 1e-12);
    }

    #[test]
    fn checked_sums_refuse_overflow() {
        assert_eq!(Trinomial::new(1, 2, 3).checked_total(), Some(6));
        assert_eq!(Trinomial::new(u64::MAX, 1, 1).checked_total(), None);
        assert_eq!(
            Pentanomial::from_counts([1, 2, 3, 4, 5]).checked_games(),
            Some(30)
        );
        assert_eq!(
            Pentanomial::from_counts([u64::MAX, 0, 0, 0, 1]).checked_games(),
            None
        );
        assert_eq!(
            Pentanomial::from_counts([1 << 63, 0, 0, 0, 0]).checked_games(),
            None
        );
    }

    #[test]
    fn trinomial_helpers() {
        let mut t = Trinomial::default();
        t.add_game(1.0).unwrap();
        t.add_game(0.5).unwrap();
        t.add_game(0.0).unwrap();
        assert!(t.add_game(2.0).is_err());
        assert_eq!(t, Trinomial::new(1, 1, 1));
        close(t.points(), 1.5, 0.0);
        let mut u = t;
        u.merge(&Trinomial::new(0, 0, 2));
        assert_eq!(u.counts(), [1, 1, 3]);
    }
}
