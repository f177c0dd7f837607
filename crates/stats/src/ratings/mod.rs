//! Joint ratings of many players from a schedule of games (ladders), in the manner of Ordo.
//!
//! Model: `P(i beats j) = 1 / (1 + 10^(-(r_i - r_j) / 400))`, a draw counting half a point. All
//! ratings are fitted jointly by maximum likelihood with Newton's method (with step halving when
//! a full step would lower the likelihood), one player anchored at 0 ([`fit_ratings`]).
//!
//! A finite maximum exists only when the schedule is connected and no group of players scored
//! 100% against the rest (in particular no player has a perfect or zero score). Both conditions
//! are checked and reported by name; a weak [`Prior`] of virtual draws can be added so that such
//! players still get a finite (prior-dominated) rating.
//!
//! Error bars come from the inverse Hessian (model-based), from a sandwich estimator clustered by
//! game pair (robust to draws and to correlation inside a pair), or from a bootstrap over game
//! pairs resampled within each pairing ([`Bootstrap`]).
//!
//! For reporting, [`honest_intervals`] gives intervals that are two-sided only where the games
//! bound both sides (profile likelihood of the joint fit) and one-sided exact bounds where a
//! pairing has a perfect or zero score ([`honest`]).
//!
//! The modules: [`fit`] (the likelihood and its maximum), [`bootstrap`] (resampling by game
//! pairs), [`honest`] (honest intervals), `profile` (profile-likelihood intervals) and `graph`
//! (connectivity and separation checks).

pub mod bootstrap;
mod first_move;
pub mod fit;
mod graph;
pub mod honest;
mod profile;
#[cfg(test)]
pub(crate) mod testutil;

pub use bootstrap::{bootstrap_intervals, Bootstrap, BootstrapIntervals, BootstrapSamples};
pub use first_move::fit_ratings;
pub use fit::head_to_head;
pub(crate) use graph::components as graph_components;
pub use honest::{
    honest_intervals, honest_intervals_with, BoundMethod, HonestBound, HonestIntervals,
};

use crate::wdl::{Pentanomial, Trinomial};
use serde::{Deserialize, Serialize};

/// Natural-log slope of the logistic Elo curve: `ln 10 / 400`.
pub(crate) const C: f64 = std::f64::consts::LN_10 / 400.0;

/// One game as the rating fit sees it (not a PGN game: that is `chuhan_engine::GameRecord`).
/// Players are indices `0..n_players`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RatedGame {
    /// Games of one pair (same opening, colours swapped) share this id; a game with an id of its
    /// own is a unit by itself. All games with one id must be between the same two players.
    pub pair_id: u64,
    /// The player whose score is recorded (e.g. the one with the first move).
    pub first: usize,
    /// The opponent.
    pub second: usize,
    /// Score of `first`: 0, 0.5 or 1.
    pub score_first: f64,
}

/// A weak prior that keeps every rating finite.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
pub enum Prior {
    /// Pure maximum likelihood: perfect or zero scores and separated groups are errors.
    #[default]
    None,
    /// This many virtual drawn games added to every pairing that has at least one real game (as
    /// BayesElo's prior). Keeps ratings finite on a connected schedule, but does not connect a
    /// disconnected one.
    DrawsPerPairing(f64),
    /// This many virtual drawn games between players `i` and `i + 1` for every `i` (the player
    /// indices should be in ladder order). Connects any schedule; pulls neighbours together by a
    /// few Elo when real games are few.
    DrawsBetweenNeighbours(f64),
}

/// The advantage of the first move (White in chess, Red in xiangqi), in Elo: the player who
/// moves first is expected to score as if rated this much higher (Ordo's `-W` model:
/// `P(first scores) = 1 / (1 + 10^(-(r_first - r_second + advantage) / 400))`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum FirstMove {
    /// A fixed advantage; `Fixed(0.0)`, the default, is the fit without a first-move term
    /// (colours ignored).
    Fixed(f64),
    /// Estimated jointly with the ratings by maximum likelihood.
    Auto,
}

impl Default for FirstMove {
    fn default() -> Self {
        FirstMove::Fixed(0.0)
    }
}

impl FirstMove {
    /// Whether the fit looks at colours at all (anything but `Fixed(0.0)`).
    pub fn uses_colours(&self) -> bool {
        *self != FirstMove::Fixed(0.0)
    }

    /// `Fixed(0.0)`: the fit without a first-move term (for `skip_serializing_if`).
    pub fn ignores_colours(&self) -> bool {
        !self.uses_colours()
    }
}

/// `auto` or a number of Elo, as `--first-move-advantage` and the ladder file's
/// `first_move_advantage` write it.
impl std::fmt::Display for FirstMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FirstMove::Auto => f.write_str("auto"),
            FirstMove::Fixed(w) => write!(f, "{w}"),
        }
    }
}

/// Reads `auto` (any case) or a finite number of Elo.
impl std::str::FromStr for FirstMove {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("auto") {
            return Ok(FirstMove::Auto);
        }
        match t.parse::<f64>() {
            Ok(w) if w.is_finite() => Ok(FirstMove::Fixed(w)),
            _ => Err(format!(
                "'{text}' is not a first-move advantage: expected auto or a number of Elo"
            )),
        }
    }
}

/// The first-move advantage of a fit: the value used and, when it was estimated, its interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FirstMoveEstimate {
    /// The advantage in Elo (estimated, or the fixed value).
    pub elo: f64,
    /// Whether it was estimated from the games (else it was given).
    pub estimated: bool,
    /// Its profile-likelihood interval at the intervals' confidence, when estimated (an open
    /// side: the games do not bound it).
    pub bound: Option<crate::bound::Bound>,
}

/// Settings of a rating fit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FitOptions {
    /// The player whose rating is fixed at 0.
    pub anchor: usize,
    /// Optional weak prior.
    pub prior: Prior,
    /// Newton iterations allowed before giving up.
    pub max_iterations: usize,
    /// Convergence threshold on the largest Newton step, in Elo.
    pub tolerance: f64,
    /// The first-move advantage: none (the default), fixed, or estimated.
    #[serde(default)]
    pub first_move: FirstMove,
}

impl Default for FitOptions {
    fn default() -> Self {
        Self {
            anchor: 0,
            prior: Prior::None,
            max_iterations: 100,
            tolerance: 1e-9,
            first_move: FirstMove::Fixed(0.0),
        }
    }
}

/// Why ratings could not be fitted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
pub enum RatingError {
    /// There are no players.
    #[error("no players to rate")]
    NoPlayers,
    /// The anchor is not a player.
    #[error("anchor {anchor} is not one of the {players} players")]
    AnchorOutOfRange {
        /// The anchor given.
        anchor: usize,
        /// Number of players.
        players: usize,
    },
    /// A game names a player outside `0..players`.
    #[error("game {game} names player {player}, which does not exist")]
    PlayerOutOfRange {
        /// Index of the game in the input.
        game: usize,
        /// The offending player index.
        player: usize,
    },
    /// A game has the same player on both sides.
    #[error("game {game} has a player against itself")]
    SelfPlay {
        /// Index of the game in the input.
        game: usize,
    },
    /// A game's score is not 0, 0.5 or 1.
    #[error("game {game} has score {score}, not 0, 0.5 or 1")]
    BadScore {
        /// Index of the game in the input.
        game: usize,
        /// The score given.
        score: f64,
    },
    /// Games sharing a pair id are not all between the same two players.
    #[error("games of pair {pair_id} are not all between the same two players")]
    MixedPair {
        /// The pair id.
        pair_id: u64,
    },
    /// The prior's number of virtual games is negative or not finite.
    #[error("prior must be a finite, non-negative number of games")]
    BadPrior,
    /// A fixed first-move advantage that is not a finite number.
    #[error("first-move advantage {0} is not a finite number of Elo")]
    BadFirstMove(f64),
    /// The side that moves first (or the other side) scored every point that colours decide,
    /// so the estimated first-move advantage is unbounded.
    #[error("no finite first-move advantage: one side scored every point the colours decide")]
    NoFiniteFirstMove,
    /// A `player order` for neighbour gaps names a player outside `0..players`.
    #[error("player order names a player that does not exist")]
    BadOrder,
    /// The schedule falls apart into groups with no games between them.
    #[error("schedule is disconnected; groups with no games between them: {components:?}")]
    Disconnected {
        /// The connected groups, each sorted, ordered by their smallest player.
        components: Vec<Vec<usize>>,
    },
    /// Some group of players scored 100% against all the others, so the likelihood has no
    /// finite maximum.
    #[error(
        "no finite ratings: players with a perfect score {perfect:?}, with a zero score \
         {zero:?}; groups separated by 100% results (strongest first): {groups:?}"
    )]
    NoFiniteRating {
        /// Players who won every game they played.
        perfect: Vec<usize>,
        /// Players who lost every game they played.
        zero: Vec<usize>,
        /// Groups inside which ratings are determined, strongest group first: every group
        /// scored 100% against the groups after it that it met.
        groups: Vec<Vec<usize>>,
    },
    /// The bootstrap confidence level is not in (0, 1).
    #[error("confidence level {confidence} is not between 0 and 1")]
    BadConfidence {
        /// The level given.
        confidence: f64,
    },
    /// No bootstrap replicate could be fitted (or none was asked for).
    #[error("no bootstrap replicate could be fitted ({failed} failed); consider a prior")]
    BootstrapFailed {
        /// Replicates whose resampled games had no finite ratings.
        failed: usize,
    },
    /// Newton's method did not converge (should not happen on valid input).
    #[error("rating fit did not converge in {iterations} iterations")]
    NotConverged {
        /// Iterations run.
        iterations: usize,
    },
}

/// A confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

impl Interval {
    /// Whether `x` lies in `[lo, hi]`.
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// `hi - lo`.
    pub fn width(&self) -> f64 {
        self.hi - self.lo
    }
}

/// Maximum-likelihood ratings with their model-based and robust covariances.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingFit {
    /// Rating of each player in Elo, the anchor at 0.
    pub ratings: Vec<f64>,
    /// The anchored player.
    pub anchor: usize,
    /// Inverse of the negative Hessian (covariance of the ratings relative to the anchor; the
    /// anchor's row and column are 0). It treats every game as a Bernoulli trial, which
    /// overstates the variance when there are draws.
    pub covariance: Vec<Vec<f64>>,
    /// Sandwich covariance `H^-1 J H^-1`, `J` summing the outer products of each game pair's
    /// score residuals: accounts for draws and for correlation within a pair.
    pub robust_covariance: Vec<Vec<f64>>,
    /// Square roots of the diagonal of `covariance`.
    pub std_errors: Vec<f64>,
    /// Square roots of the diagonal of `robust_covariance`.
    pub robust_std_errors: Vec<f64>,
    /// Log-likelihood at the optimum (including any prior games).
    pub log_likelihood: f64,
    /// Newton iterations used.
    pub iterations: usize,
    /// Players who won every real game they played (finite only thanks to the prior).
    pub perfect_score: Vec<usize>,
    /// Players who lost every real game they played (finite only thanks to the prior).
    pub zero_score: Vec<usize>,
    /// When the real games alone are disconnected (bridged only by the prior), their connected
    /// groups; empty otherwise.
    pub disconnected_groups: Vec<Vec<usize>>,
    /// When the real games alone are connected but admit no finite ratings (a group scored 100%
    /// against the rest), the groups they separate into, strongest first; empty otherwise.
    pub separated_groups: Vec<Vec<usize>>,
    /// The first-move advantage in Elo the ratings were fitted with (0 without a first-move
    /// term; the maximum-likelihood value with [`FirstMove::Auto`]).
    pub first_move_advantage: f64,
}

impl RatingFit {
    /// `r[j] - r[i]`, or `None` for an unknown player.
    pub fn difference(&self, i: usize, j: usize) -> Option<f64> {
        Some(self.ratings.get(j)? - self.ratings.get(i)?)
    }

    /// Inverse-Hessian standard error of `r[j] - r[i]`.
    pub fn difference_std_error(&self, i: usize, j: usize) -> Option<f64> {
        difference_se(&self.covariance, i, j)
    }

    /// Sandwich (pair-clustered) standard error of `r[j] - r[i]`.
    pub fn robust_difference_std_error(&self, i: usize, j: usize) -> Option<f64> {
        difference_se(&self.robust_covariance, i, j)
    }

    /// Neighbour gaps `r[order[k + 1]] - r[order[k]]`; `None` if `order` names an unknown player.
    pub fn neighbour_gaps(&self, order: &[usize]) -> Option<Vec<f64>> {
        order
            .windows(2)
            .map(|w| self.difference(w[0], w[1]))
            .collect()
    }
}

fn difference_se(cov: &[Vec<f64>], i: usize, j: usize) -> Option<f64> {
    let cii = *cov.get(i)?.get(i)?;
    let cjj = *cov.get(j)?.get(j)?;
    let cij = *cov[i].get(j)?;
    Some((cii + cjj - 2.0 * cij).max(0.0).sqrt())
}

/// Results between two players, from the lower-indexed player's view.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HeadToHead {
    /// The lower-indexed player.
    pub a: usize,
    /// The higher-indexed player.
    pub b: usize,
    /// Games between them.
    pub games: u64,
    /// Wins, draws and losses of `a`.
    pub record: Trinomial,
    /// Score fraction of `a`.
    pub score: f64,
    /// Pentanomial of `a` over the pair ids holding exactly two games (in input order).
    pub pairs: Pentanomial,
}

impl From<Interval> for crate::bound::Bound {
    fn from(i: Interval) -> Self {
        Self::two_sided(i.lo, i.hi)
    }
}
