//! # chuhan-stats
//!
//! The numbers behind engine testing, as pure functions with no engine attached: what a match or
//! a ladder of games says about playing strength. The formulas follow the chess-engine testing
//! community (fishtest's `LLRcalc`, fastchess), so a figure printed by a program using this crate
//! means the same thing there; `docs/statistics.md` in the Chuhan repository gives each formula
//! and the golden values the tests check.
//!
//! What is here:
//!
//! - [`adaptive`]: ladders played in rounds until every neighbour gap is precise: which pairings
//!   get the next game pairs, when to stop, and which steps are too far apart.
//! - [`wdl`]: game outcomes, trinomial counts (losses, draws, wins) and pentanomial counts of game
//!   pairs (same opening, colours swapped).
//! - [`elo`]: Elo with a 95% interval, LOS and normalised Elo of one match ([`Estimate`]), and the
//!   games needed for a target precision.
//! - [`interval`]: the honest 95% intervals of one match that every printer shows: asymmetric
//!   profile-likelihood intervals of Elo and nElo, finite wherever the games bound them, and the
//!   ladder's one-sided bounds after a perfect or zero score ([`Estimate::elo_text`]).
//! - [`sprt`]: the generalised SPRT (logistic and normalised models).
//! - [`ratings`]: joint maximum-likelihood ratings of many players (ladders), with inverse-Hessian,
//!   pair-clustered sandwich and bootstrap error bars, and honest intervals
//!   ([`ratings::honest_intervals`]): two-sided only where the games bound both sides, one-sided
//!   exact bounds after perfect or zero scores.
//! - [`bound`]: intervals with open sides ([`Bound`]: `[+a, +b]`, `>= +X`, `<= -X`) and exact
//!   bounds after perfect and zero scores.
//! - [`linalg`]: the small dense linear algebra the fit needs (Cholesky solves and inverses).
//! - [`curve`]: monotone (isotonic) and log-linear fits of Elo against a strength knob, and their
//!   inverses, for difficulty calibration.
//! - [`sim`]: games simulated from known ratings, to check coverage and efficiency.
//! - [`homogeneity`]: do runs at different seeds agree? A χ² homogeneity test over runs.
//!
//! ## Example
//!
//! One match, then a three-player ladder:
//!
//! ```
//! use chuhan_stats::ratings::{fit_ratings, FitOptions, RatedGame};
//! use chuhan_stats::{Estimate, Sprt, SprtModel, Trinomial, SprtDecision};
//!
//! // 136 wins, 111 draws, 96 losses: +40.7 ± 30.4 Elo, LOS 99.6%.
//! let counts = Trinomial::new(96, 111, 136);
//! let e = Estimate::from_trinomial(&counts).unwrap();
//! assert!((e.elo - 40.70).abs() < 0.01 && (e.elo_ci95 - 30.43).abs() < 0.01);
//! assert!(e.los > 0.99);
//!
//! // Is it +0 or +2 nElo? Not decided yet after so few games.
//! let sprt = Sprt::new(0.0, 2.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
//! let llr = sprt.llr_trinomial(&counts).unwrap();
//! assert_eq!(sprt.verdict(llr), SprtDecision::Continue);
//!
//! // Players 0 < 1 < 2. A game pair is one opening played twice with colours swapped; here
//! // (pair id, weaker player, stronger player, the stronger player's two scores).
//! let pairs = [
//!     (0, 0, 1, [1.0, 0.5]),
//!     (1, 0, 1, [0.0, 1.0]),
//!     (2, 1, 2, [1.0, 1.0]),
//!     (3, 1, 2, [0.5, 0.0]),
//!     (4, 0, 2, [1.0, 0.5]),
//! ];
//! let mut games = Vec::new();
//! for (pair_id, weaker, stronger, [s1, s2]) in pairs {
//!     games.push(RatedGame { pair_id, first: stronger, second: weaker, score_first: s1 });
//!     games.push(RatedGame { pair_id, first: weaker, second: stronger, score_first: 1.0 - s2 });
//! }
//! let fit = fit_ratings(&games, 3, &FitOptions::default()).unwrap();
//! assert_eq!(fit.ratings[0], 0.0); // the anchor
//! assert!(fit.ratings[0] < fit.ratings[1] && fit.ratings[1] < fit.ratings[2]);
//! ```
//!
//! Ratings of players with a perfect or zero score have no finite maximum-likelihood value; the
//! fit says so by name ([`ratings::RatingError::NoFiniteRating`]) and a weak [`ratings::Prior`]
//! can keep them finite. A prior must not make the interval, though: what 12 wins in 12 games
//! support is one-sided, and [`ratings::honest_intervals`] says so:
//!
//! ```
//! use chuhan_stats::ratings::{honest_intervals, RatedGame};
//!
//! // Player 1 beats player 0 in all 12 games (6 pairs, colours swapped).
//! let games: Vec<RatedGame> = (0..6)
//!     .flat_map(|pair_id| {
//!         [
//!             RatedGame { pair_id, first: 1, second: 0, score_first: 1.0 },
//!             RatedGame { pair_id, first: 0, second: 1, score_first: 0.0 },
//!         ]
//!     })
//!     .collect();
//! let honest = honest_intervals(&games, 2, &[0, 1], 0, 0.95).unwrap();
//! assert_eq!(honest.gaps[0].bound.to_string(), ">= +219"); // exact: 0.05^(1/12) = 0.779
//! assert_eq!(honest.gaps[0].estimate, None); // the maximum-likelihood gap is infinite
//! ```
#![forbid(unsafe_code)]

pub mod adaptive;
pub mod bound;
pub mod curve;
pub mod elo;
pub mod homogeneity;
pub mod interval;
pub mod linalg;
pub mod ratings;
pub mod scale;
pub mod sim;
pub mod sprt;
pub mod wdl;

pub use bound::Bound;
pub use elo::{
    elo_from_score, games_for_ci, normal_cdf, score_from_elo, Estimate, NELO_PER_NT, Z95,
    ZERO_COUNT,
};
pub use sprt::{solve_secular, Sprt, SprtDecision, SprtError, SprtModel};
pub use wdl::{InvalidScore, Outcome, Pentanomial, Trinomial};
