//! Joint ratings of many players from a schedule of games (ladders), in the manner of Ordo.
//!
//! Model: `P(i beats j) = 1 / (1 + 10^(-(r_i - r_j) / 400))`, a draw counting half a point. All
//! ratings are fitted jointly by maximum likelihood with Newton's method (with step halving when
//! a full step would lower the likelihood), one player anchored at 0.
//!
//! A finite maximum exists only when the schedule is connected and no group of players scored
//! 100% against the rest (in particular no player has a perfect or zero score). Both conditions
//! are checked and reported by name; a weak [`Prior`] of virtual draws can be added so that such
//! players still get a finite (prior-dominated) rating.
//!
//! Error bars come from the inverse Hessian (model-based), from a sandwich estimator clustered by
//! game pair (robust to draws and to correlation inside a pair), or from a bootstrap over game
//! pairs resampled within each pairing ([`Bootstrap`]).

use crate::stats::{Pentanomial, Trinomial};
use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::{SplitMix64, Xoshiro256PlusPlus};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};
use std::fmt;

/// Natural-log slope of the logistic Elo curve: `ln 10 / 400`.
const C: f64 = std::f64::consts::LN_10 / 400.0;

/// One game of a schedule. Players are indices `0..n_players`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
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
}

impl Default for FitOptions {
    fn default() -> Self {
        Self {
            anchor: 0,
            prior: Prior::None,
            max_iterations: 100,
            tolerance: 1e-9,
        }
    }
}

/// Why ratings could not be fitted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RatingError {
    /// There are no players.
    NoPlayers,
    /// The anchor is not a player.
    AnchorOutOfRange {
        /// The anchor given.
        anchor: usize,
        /// Number of players.
        players: usize,
    },
    /// A game names a player outside `0..players`.
    PlayerOutOfRange {
        /// Index of the game in the input.
        game: usize,
        /// The offending player index.
        player: usize,
    },
    /// A game has the same player on both sides.
    SelfPlay {
        /// Index of the game in the input.
        game: usize,
    },
    /// A game's score is not 0, 0.5 or 1.
    BadScore {
        /// Index of the game in the input.
        game: usize,
        /// The score given.
        score: f64,
    },
    /// Games sharing a pair id are not all between the same two players.
    MixedPair {
        /// The pair id.
        pair_id: u64,
    },
    /// The prior's number of virtual games is negative or not finite.
    BadPrior,
    /// A `player order` for neighbour gaps names a player outside `0..players`.
    BadOrder,
    /// The schedule falls apart into groups with no games between them.
    Disconnected {
        /// The connected groups, each sorted, ordered by their smallest player.
        components: Vec<Vec<usize>>,
    },
    /// Some group of players scored 100% against all the others, so the likelihood has no
    /// finite maximum.
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
    BadConfidence {
        /// The level given.
        confidence: f64,
    },
    /// No bootstrap replicate could be fitted (or none was asked for).
    BootstrapFailed {
        /// Replicates whose resampled games had no finite ratings.
        failed: usize,
    },
    /// Newton's method did not converge (should not happen on valid input).
    NotConverged {
        /// Iterations run.
        iterations: usize,
    },
}

impl fmt::Display for RatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoPlayers => write!(f, "no players to rate"),
            Self::AnchorOutOfRange { anchor, players } => {
                write!(f, "anchor {anchor} is not one of the {players} players")
            }
            Self::PlayerOutOfRange { game, player } => {
                write!(f, "game {game} names player {player}, which does not exist")
            }
            Self::SelfPlay { game } => write!(f, "game {game} has a player against itself"),
            Self::BadScore { game, score } => {
                write!(f, "game {game} has score {score}, not 0, 0.5 or 1")
            }
            Self::MixedPair { pair_id } => write!(
                f,
                "games of pair {pair_id} are not all between the same two players"
            ),
            Self::BadPrior => write!(f, "prior must be a finite, non-negative number of games"),
            Self::BadOrder => write!(f, "player order names a player that does not exist"),
            Self::Disconnected { components } => write!(
                f,
                "schedule is disconnected; groups with no games between them: {components:?}"
            ),
            Self::NoFiniteRating {
                perfect,
                zero,
                groups,
            } => write!(
                f,
                "no finite ratings: players with a perfect score {perfect:?}, with a zero score \
                 {zero:?}; groups separated by 100% results (strongest first): {groups:?}"
            ),
            Self::BadConfidence { confidence } => {
                write!(f, "confidence level {confidence} is not between 0 and 1")
            }
            Self::BootstrapFailed { failed } => write!(
                f,
                "no bootstrap replicate could be fitted ({failed} failed); consider a prior"
            ),
            Self::NotConverged { iterations } => {
                write!(f, "rating fit did not converge in {iterations} iterations")
            }
        }
    }
}

impl std::error::Error for RatingError {}

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

/// Head-to-head table: one row per pairing that has games, ordered by `(a, b)`.
pub fn head_to_head(
    games: &[GameRecord],
    n_players: usize,
) -> Result<Vec<HeadToHead>, RatingError> {
    let units = group_units(games, n_players)?;
    let mut table: BTreeMap<(usize, usize), HeadToHead> = BTreeMap::new();
    for unit in &units {
        let row = table.entry((unit.a, unit.b)).or_insert(HeadToHead {
            a: unit.a,
            b: unit.b,
            games: 0,
            record: Trinomial::default(),
            score: 0.0,
            pairs: Pentanomial::new(),
        });
        for &s in &unit.scores_a {
            row.games += 1;
            // Scores were validated by `group_units`.
            let _ = row.record.add_game(s);
        }
        if let [s1, s2] = unit.scores_a[..] {
            let _ = row.pairs.add_pair(s1, s2);
        }
    }
    Ok(table
        .into_values()
        .map(|mut row| {
            row.score = row.record.points() / row.games as f64;
            row
        })
        .collect())
}

/// Fits all ratings jointly by maximum likelihood.
pub fn fit_ratings(
    games: &[GameRecord],
    n_players: usize,
    options: &FitOptions,
) -> Result<RatingFit, RatingError> {
    let data = Prepared::new(games, n_players, options)?;
    let totals = data.totals_all();
    data.fit(&totals)
}

/// Percentile bootstrap intervals from [`Bootstrap`] replicates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BootstrapIntervals {
    /// Interval of each player's rating relative to the anchor.
    pub ratings: Vec<Interval>,
    /// Interval of each neighbour gap `r[order[k + 1]] - r[order[k]]`.
    pub gaps: Vec<Interval>,
    /// Replicates used.
    pub replicates: usize,
    /// Replicates whose resampled games had no finite ratings (dropped; if this is more than a
    /// few, the intervals are too narrow and a prior should be used).
    pub failed: usize,
}

/// Ratings of bootstrap replicates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BootstrapSamples {
    /// Fitted ratings of each successful replicate, in replicate order.
    pub ratings: Vec<Vec<f64>>,
    /// Number of replicates that could not be fitted.
    pub failed: usize,
}

impl BootstrapSamples {
    /// Collects replicate results (e.g. from [`Bootstrap::replicate`] run in parallel, in index
    /// order).
    pub fn from_results<I>(results: I) -> Self
    where
        I: IntoIterator<Item = Result<Vec<f64>, RatingError>>,
    {
        let mut samples = Self {
            ratings: Vec::new(),
            failed: 0,
        };
        for r in results {
            match r {
                Ok(ratings) => samples.ratings.push(ratings),
                Err(_) => samples.failed += 1,
            }
        }
        samples
    }

    /// Central `confidence` percentile intervals (e.g. 0.95 for 2.5%..97.5%, interpolating
    /// linearly between order statistics) for every rating and for the neighbour gaps along
    /// `order`. `None` with no successful replicate, a bad confidence or a bad order.
    pub fn intervals(&self, order: &[usize], confidence: f64) -> Option<BootstrapIntervals> {
        let first = self.ratings.first()?;
        let n = first.len();
        if !(confidence > 0.0 && confidence < 1.0)
            || order.iter().any(|&p| p >= n)
            || self.ratings.iter().any(|r| r.len() != n)
        {
            return None;
        }
        let tail = (1.0 - confidence) / 2.0;
        let interval = |mut values: Vec<f64>| -> Interval {
            values.sort_by(f64::total_cmp);
            Interval {
                lo: percentile(&values, tail),
                hi: percentile(&values, 1.0 - tail),
            }
        };
        let ratings = (0..n)
            .map(|i| interval(self.ratings.iter().map(|r| r[i]).collect()))
            .collect();
        let gaps = order
            .windows(2)
            .map(|w| interval(self.ratings.iter().map(|r| r[w[1]] - r[w[0]]).collect()))
            .collect();
        Some(BootstrapIntervals {
            ratings,
            gaps,
            replicates: self.ratings.len(),
            failed: self.failed,
        })
    }
}

/// Linear-interpolation percentile of sorted, non-empty values.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// A schedule prepared for bootstrapping: game pairs grouped by pairing.
///
/// Each replicate draws, for every pairing, as many game pairs as it has, with replacement, and
/// refits. Replicate `k` uses a Xoshiro256++ generator derived from `(seed, k)` alone, so results
/// do not depend on how replicates are spread over threads.
#[derive(Debug, Clone)]
pub struct Bootstrap {
    data: Prepared,
}

impl Bootstrap {
    /// Prepares `games` for resampling; fails on invalid games or options.
    pub fn new(
        games: &[GameRecord],
        n_players: usize,
        options: &FitOptions,
    ) -> Result<Self, RatingError> {
        Ok(Self {
            data: Prepared::new(games, n_players, options)?,
        })
    }

    /// Ratings fitted to replicate `index` of the bootstrap seeded with `seed`.
    pub fn replicate(&self, seed: u64, index: u64) -> Result<Vec<f64>, RatingError> {
        let mut rng = replicate_rng(seed, index);
        let totals = self.data.totals_resampled(&mut rng);
        self.data.fit_ratings_only(&totals)
    }

    /// Runs replicates `0..replicates` sequentially.
    pub fn run(&self, seed: u64, replicates: usize) -> BootstrapSamples {
        BootstrapSamples::from_results((0..replicates as u64).map(|k| self.replicate(seed, k)))
    }
}

/// Bootstrap intervals in one call: `replicates` replicates from `seed`, central `confidence`
/// intervals, neighbour gaps along `order`.
pub fn bootstrap_intervals(
    games: &[GameRecord],
    n_players: usize,
    options: &FitOptions,
    seed: u64,
    replicates: usize,
    order: &[usize],
    confidence: f64,
) -> Result<BootstrapIntervals, RatingError> {
    if order.iter().any(|&p| p >= n_players) {
        return Err(RatingError::BadOrder);
    }
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(RatingError::BadConfidence { confidence });
    }
    let boot = Bootstrap::new(games, n_players, options)?;
    let data = &boot.data;
    // Report the data's own problem (disconnected, perfect score, ...) rather than a failure
    // of every replicate.
    data.check(&data.totals_all())?;
    let samples = boot.run(seed, replicates);
    samples
        .intervals(order, confidence)
        .ok_or(RatingError::BootstrapFailed {
            failed: samples.failed,
        })
}

/// The generator of replicate `index`: Xoshiro256++ seeded from SplitMix64 streams of `seed`
/// and of `index`.
fn replicate_rng(seed: u64, index: u64) -> Xoshiro256PlusPlus {
    let mut from_seed = SplitMix64::seed_from_u64(seed);
    let mut from_index = SplitMix64::seed_from_u64(index ^ 0xD1B5_4A32_D192_ED03);
    let mut bytes = [0u8; 32];
    for (k, chunk) in bytes.chunks_exact_mut(8).enumerate() {
        let word = if k < 2 {
            from_seed.next_u64()
        } else {
            from_index.next_u64()
        };
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    Xoshiro256PlusPlus::from_seed(bytes)
}

/// The games of one pair id, from the lower-indexed player's view.
#[derive(Debug, Clone)]
struct Unit {
    a: usize,
    b: usize,
    scores_a: Vec<f64>,
}

/// Validates games and groups them by pair id (in increasing id order).
fn group_units(games: &[GameRecord], n_players: usize) -> Result<Vec<Unit>, RatingError> {
    let mut by_id: BTreeMap<u64, Unit> = BTreeMap::new();
    for (index, g) in games.iter().enumerate() {
        for player in [g.first, g.second] {
            if player >= n_players {
                return Err(RatingError::PlayerOutOfRange {
                    game: index,
                    player,
                });
            }
        }
        if g.first == g.second {
            return Err(RatingError::SelfPlay { game: index });
        }
        if ![0.0, 0.5, 1.0].contains(&g.score_first) {
            return Err(RatingError::BadScore {
                game: index,
                score: g.score_first,
            });
        }
        let (a, b, score_a) = if g.first < g.second {
            (g.first, g.second, g.score_first)
        } else {
            (g.second, g.first, 1.0 - g.score_first)
        };
        let unit = by_id.entry(g.pair_id).or_insert(Unit {
            a,
            b,
            scores_a: Vec::new(),
        });
        if (unit.a, unit.b) != (a, b) {
            return Err(RatingError::MixedPair { pair_id: g.pair_id });
        }
        unit.scores_a.push(score_a);
    }
    Ok(by_id.into_values().collect())
}

/// Games and points of one pairing (real games plus prior).
#[derive(Debug, Clone, Copy)]
struct PairTotal {
    a: usize,
    b: usize,
    games: f64,
    score_a: f64,
}

/// The pair units of one pairing, as (games, score of `a`) sums.
#[derive(Debug, Clone)]
struct Pairing {
    a: usize,
    b: usize,
    units: Vec<(f64, f64)>,
}

/// Validated schedule.
#[derive(Debug, Clone)]
struct Prepared {
    n: usize,
    options: FitOptions,
    pairings: Vec<Pairing>,
}

impl Prepared {
    fn new(
        games: &[GameRecord],
        n_players: usize,
        options: &FitOptions,
    ) -> Result<Self, RatingError> {
        if n_players == 0 {
            return Err(RatingError::NoPlayers);
        }
        if options.anchor >= n_players {
            return Err(RatingError::AnchorOutOfRange {
                anchor: options.anchor,
                players: n_players,
            });
        }
        match options.prior {
            Prior::None => {}
            Prior::DrawsPerPairing(k) | Prior::DrawsBetweenNeighbours(k) => {
                if !(k.is_finite() && k >= 0.0) {
                    return Err(RatingError::BadPrior);
                }
            }
        }
        let mut pairings: BTreeMap<(usize, usize), Pairing> = BTreeMap::new();
        for unit in group_units(games, n_players)? {
            let entry = pairings.entry((unit.a, unit.b)).or_insert(Pairing {
                a: unit.a,
                b: unit.b,
                units: Vec::new(),
            });
            entry
                .units
                .push((unit.scores_a.len() as f64, unit.scores_a.iter().sum()));
        }
        Ok(Self {
            n: n_players,
            options: *options,
            pairings: pairings.into_values().collect(),
        })
    }

    /// Totals of the real games, without any prior.
    fn totals_real(&self) -> Vec<PairTotal> {
        self.pairings
            .iter()
            .map(|p| {
                let (games, score_a) = p
                    .units
                    .iter()
                    .fold((0.0, 0.0), |(g, s), u| (g + u.0, s + u.1));
                PairTotal {
                    a: p.a,
                    b: p.b,
                    games,
                    score_a,
                }
            })
            .collect()
    }

    /// Totals of the real games plus the prior.
    fn totals_all(&self) -> Vec<PairTotal> {
        self.with_prior(self.totals_real())
    }

    fn totals_resampled<R: Rng>(&self, rng: &mut R) -> Vec<PairTotal> {
        let real = self.pairings.iter().map(|p| {
            let k = p.units.len();
            let (mut games, mut score_a) = (0.0, 0.0);
            for _ in 0..k {
                let u = p.units[rng.gen_range(0..k)];
                games += u.0;
                score_a += u.1;
            }
            PairTotal {
                a: p.a,
                b: p.b,
                games,
                score_a,
            }
        });
        self.with_prior(real.collect())
    }

    fn with_prior(&self, mut totals: Vec<PairTotal>) -> Vec<PairTotal> {
        match self.options.prior {
            Prior::None => {}
            Prior::DrawsPerPairing(k) => {
                for t in &mut totals {
                    t.games += k;
                    t.score_a += k / 2.0;
                }
            }
            Prior::DrawsBetweenNeighbours(k) => {
                for i in 1..self.n {
                    totals.push(PairTotal {
                        a: i - 1,
                        b: i,
                        games: k,
                        score_a: k / 2.0,
                    });
                }
            }
        }
        totals.retain(|t| t.games > 0.0);
        totals
    }

    /// Checks that finite ratings exist for `totals`.
    fn check(&self, totals: &[PairTotal]) -> Result<(), RatingError> {
        let n = self.n;
        let mut undirected = vec![vec![false; n]; n];
        // scored[i][j]: i scored at least half a point against j.
        let mut scored = vec![vec![false; n]; n];
        for t in totals {
            undirected[t.a][t.b] = true;
            undirected[t.b][t.a] = true;
            if t.score_a > 0.0 {
                scored[t.a][t.b] = true;
            }
            if t.games - t.score_a > 0.0 {
                scored[t.b][t.a] = true;
            }
        }
        let components = components(&undirected);
        if components.len() > 1 {
            return Err(RatingError::Disconnected { components });
        }
        let groups = strong_groups(&scored);
        if groups.len() > 1 {
            let (perfect, zero) = self.extreme_players();
            return Err(RatingError::NoFiniteRating {
                perfect,
                zero,
                groups,
            });
        }
        Ok(())
    }

    /// Players with a perfect and with a zero score over the real games.
    fn extreme_players(&self) -> (Vec<usize>, Vec<usize>) {
        let mut games = vec![0.0; self.n];
        let mut points = vec![0.0; self.n];
        for p in &self.pairings {
            for &(g, s) in &p.units {
                games[p.a] += g;
                games[p.b] += g;
                points[p.a] += s;
                points[p.b] += g - s;
            }
        }
        let perfect = (0..self.n)
            .filter(|&i| games[i] > 0.0 && points[i] == games[i])
            .collect();
        let zero = (0..self.n)
            .filter(|&i| games[i] > 0.0 && points[i] == 0.0)
            .collect();
        (perfect, zero)
    }

    /// Full fit with covariances and diagnostics.
    fn fit(&self, totals: &[PairTotal]) -> Result<RatingFit, RatingError> {
        self.check(totals)?;
        let (ratings, iterations) = self.newton(totals)?;
        let n = self.n;
        let anchor = self.options.anchor;
        let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
        let neg_h = reduced(&neg_hessian(n, totals, &ratings), &free);
        let inv = invert_spd(&neg_h).ok_or(RatingError::NotConverged { iterations })?;
        let covariance = expand(&inv, &free, n);

        // Meat of the sandwich: one score-residual vector per game pair.
        let mut meat = vec![vec![0.0; n]; n];
        for p in &self.pairings {
            let prob = win_probability(ratings[p.a] - ratings[p.b]);
            for &(g, s) in &p.units {
                let e = C * (s - g * prob);
                meat[p.a][p.a] += e * e;
                meat[p.b][p.b] += e * e;
                meat[p.a][p.b] -= e * e;
                meat[p.b][p.a] -= e * e;
            }
        }
        let meat = reduced(&meat, &free);
        let robust = expand(&mat_mul(&mat_mul(&inv, &meat), &inv), &free, n);

        let diag_sqrt = |m: &[Vec<f64>]| (0..n).map(|i| m[i][i].max(0.0).sqrt()).collect();
        let std_errors = diag_sqrt(&covariance);
        let robust_std_errors = diag_sqrt(&robust);
        let (perfect_score, zero_score) = self.extreme_players();
        let (disconnected_groups, separated_groups) = match self.check(&self.totals_real()) {
            Err(RatingError::Disconnected { components }) => (components, Vec::new()),
            Err(RatingError::NoFiniteRating { groups, .. }) => (Vec::new(), groups),
            _ => (Vec::new(), Vec::new()),
        };
        Ok(RatingFit {
            log_likelihood: log_likelihood(totals, &ratings),
            ratings,
            anchor,
            covariance,
            robust_covariance: robust,
            std_errors,
            robust_std_errors,
            iterations,
            perfect_score,
            zero_score,
            disconnected_groups,
            separated_groups,
        })
    }

    /// Ratings only (for bootstrap replicates).
    fn fit_ratings_only(&self, totals: &[PairTotal]) -> Result<Vec<f64>, RatingError> {
        self.check(totals)?;
        Ok(self.newton(totals)?.0)
    }

    /// Newton's method with step halving, from all ratings 0.
    fn newton(&self, totals: &[PairTotal]) -> Result<(Vec<f64>, usize), RatingError> {
        let n = self.n;
        let anchor = self.options.anchor;
        let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
        let mut r = vec![0.0; n];
        if free.is_empty() {
            return Ok((r, 0));
        }
        let mut ll = log_likelihood(totals, &r);
        for iteration in 1..=self.options.max_iterations {
            let grad = gradient(n, totals, &r);
            let g: Vec<f64> = free.iter().map(|&i| grad[i]).collect();
            let h = reduced(&neg_hessian(n, totals, &r), &free);
            let step = solve_spd(&h, &g).ok_or(RatingError::NotConverged {
                iterations: iteration,
            })?;
            let mut t = 1.0;
            let mut accepted = None;
            for _ in 0..60 {
                let mut trial = r.clone();
                for (&i, d) in free.iter().zip(&step) {
                    trial[i] += t * d;
                }
                let trial_ll = log_likelihood(totals, &trial);
                if trial_ll >= ll - 1e-12 * ll.abs().max(1.0) {
                    accepted = Some((trial, trial_ll));
                    break;
                }
                t *= 0.5;
            }
            let Some((trial, trial_ll)) = accepted else {
                return Err(RatingError::NotConverged {
                    iterations: iteration,
                });
            };
            r = trial;
            ll = trial_ll;
            let largest = step.iter().fold(0.0f64, |m, d| m.max(d.abs()));
            if largest <= self.options.tolerance {
                return Ok((r, iteration));
            }
        }
        Err(RatingError::NotConverged {
            iterations: self.options.max_iterations,
        })
    }
}

/// Logistic expected score of a rating difference `d`.
fn win_probability(d: f64) -> f64 {
    1.0 / (1.0 + (-C * d).exp())
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

fn log_likelihood(totals: &[PairTotal], r: &[f64]) -> f64 {
    totals
        .iter()
        .map(|t| {
            let x = C * (r[t.a] - r[t.b]);
            // ln P = -softplus(-x), ln(1 - P) = -softplus(x)
            -t.score_a * softplus(-x) - (t.games - t.score_a) * softplus(x)
        })
        .sum()
}

fn gradient(n: usize, totals: &[PairTotal], r: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; n];
    for t in totals {
        let e = C * (t.score_a - t.games * win_probability(r[t.a] - r[t.b]));
        g[t.a] += e;
        g[t.b] -= e;
    }
    g
}

fn neg_hessian(n: usize, totals: &[PairTotal], r: &[f64]) -> Vec<Vec<f64>> {
    let mut h = vec![vec![0.0; n]; n];
    for t in totals {
        let p = win_probability(r[t.a] - r[t.b]);
        let w = C * C * t.games * p * (1.0 - p);
        h[t.a][t.a] += w;
        h[t.b][t.b] += w;
        h[t.a][t.b] -= w;
        h[t.b][t.a] -= w;
    }
    h
}

fn reduced(m: &[Vec<f64>], keep: &[usize]) -> Vec<Vec<f64>> {
    keep.iter()
        .map(|&i| keep.iter().map(|&j| m[i][j]).collect())
        .collect()
}

fn expand(m: &[Vec<f64>], keep: &[usize], n: usize) -> Vec<Vec<f64>> {
    let mut full = vec![vec![0.0; n]; n];
    for (a, &i) in keep.iter().enumerate() {
        for (b, &j) in keep.iter().enumerate() {
            full[i][j] = m[a][b];
        }
    }
    full
}

fn mat_mul(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let k = b.len();
    let cols = b.first().map_or(0, Vec::len);
    a.iter()
        .map(|row| {
            (0..cols)
                .map(|j| (0..k).map(|l| row[l] * b[l][j]).sum())
                .collect()
        })
        .collect()
}

/// Lower-triangular Cholesky factor of a symmetric positive-definite matrix.
fn cholesky(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            if i == j {
                let d = m[i][i] - s;
                if d.is_nan() || d <= 0.0 {
                    return None;
                }
                l[i][i] = d.sqrt();
            } else {
                l[i][j] = (m[i][j] - s) / l[j][j];
            }
        }
    }
    Some(l)
}

fn cholesky_solve(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = l.len();
    let mut y = vec![0.0; n];
    for i in 0..n {
        let s: f64 = (0..i).map(|k| l[i][k] * y[k]).sum();
        y[i] = (b[i] - s) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| l[k][i] * x[k]).sum();
        x[i] = (y[i] - s) / l[i][i];
    }
    x
}

fn solve_spd(m: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let l = cholesky(m)?;
    let x = cholesky_solve(&l, b);
    x.iter().all(|v| v.is_finite()).then_some(x)
}

fn invert_spd(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let l = cholesky(m)?;
    let n = m.len();
    let mut inv = vec![vec![0.0; n]; n];
    for j in 0..n {
        let mut e = vec![0.0; n];
        e[j] = 1.0;
        let col = cholesky_solve(&l, &e);
        for i in 0..n {
            inv[i][j] = col[i];
        }
    }
    Some(inv)
}

/// Reachability from `start` in a graph given by an adjacency matrix.
fn reachable(adj: &[Vec<bool>], start: usize) -> Vec<bool> {
    let mut seen = vec![false; adj.len()];
    let mut queue = VecDeque::from([start]);
    seen[start] = true;
    while let Some(i) = queue.pop_front() {
        for (j, &edge) in adj[i].iter().enumerate() {
            if edge && !seen[j] {
                seen[j] = true;
                queue.push_back(j);
            }
        }
    }
    seen
}

/// Connected components of an undirected graph, ordered by smallest member.
fn components(adj: &[Vec<bool>]) -> Vec<Vec<usize>> {
    let n = adj.len();
    let mut assigned = vec![false; n];
    let mut out = Vec::new();
    for i in 0..n {
        if !assigned[i] {
            let seen = reachable(adj, i);
            let comp: Vec<usize> = (0..n).filter(|&j| seen[j]).collect();
            for &j in &comp {
                assigned[j] = true;
            }
            out.push(comp);
        }
    }
    out
}

/// Strongly connected components of a directed graph, in topological order (sources first).
fn strong_groups(adj: &[Vec<bool>]) -> Vec<Vec<usize>> {
    let n = adj.len();
    let reach: Vec<Vec<bool>> = (0..n).map(|i| reachable(adj, i)).collect();
    let mut assigned = vec![false; n];
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for i in 0..n {
        if !assigned[i] {
            let group: Vec<usize> = (0..n).filter(|&j| reach[i][j] && reach[j][i]).collect();
            for &j in &group {
                assigned[j] = true;
            }
            let reach_count = reach[i].iter().filter(|&&x| x).count();
            groups.push((reach_count, group));
        }
    }
    // A group reaching another reaches strictly more players, so this is a topological order.
    groups.sort_by(|x, y| y.0.cmp(&x.0).then(x.1[0].cmp(&y.1[0])));
    groups.into_iter().map(|(_, g)| g).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{elo_from_score, score_from_elo};

    fn game(pair_id: u64, first: usize, second: usize, score_first: f64) -> GameRecord {
        GameRecord {
            pair_id,
            first,
            second,
            score_first,
        }
    }

    /// Player 1 scores 60% against player 0 in 50 pairs: 50 wins, 20 draws, 30 losses.
    fn sixty_percent() -> Vec<GameRecord> {
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

    #[test]
    fn two_players_sixty_percent() {
        let fit = fit_ratings(&sixty_percent(), 2, &FitOptions::default()).unwrap();
        let expected = elo_from_score(0.6).unwrap();
        assert!((fit.ratings[1] - 70.437).abs() < 1e-3, "{:?}", fit.ratings);
        assert!((fit.ratings[1] - expected).abs() < 1e-8);
        assert_eq!(fit.ratings[0], 0.0);
        // SE = 1 / (C sqrt(n p (1 - p))) = (400 / ln 10) / sqrt(24)
        let se = 400.0 / std::f64::consts::LN_10 / 24f64.sqrt();
        assert!(
            (fit.std_errors[1] - se).abs() < 1e-6,
            "{}",
            fit.std_errors[1]
        );
        // Pairs are 25 WW, 10 DD, 15 LL: pair residuals 0.8, -0.2, -1.2 points, so the
        // pair-clustered variance is (25 * 0.64 + 10 * 0.04 + 15 * 1.44) / 24^2 / C^2.
        let robust = 38f64.sqrt() / 24.0 / C;
        assert!(
            (fit.robust_std_errors[1] - robust).abs() < 1e-6,
            "{}",
            fit.robust_std_errors[1]
        );
        assert!(fit.iterations < 10);
        assert!(fit.perfect_score.is_empty() && fit.separated_groups.is_empty());
    }

    #[test]
    fn head_to_head_counts() {
        let table = head_to_head(&sixty_percent(), 2).unwrap();
        assert_eq!(table.len(), 1);
        let row = table[0];
        assert_eq!((row.a, row.b, row.games), (0, 1, 100));
        assert_eq!(row.record, Trinomial::new(50, 20, 30));
        assert!((row.score - 0.4).abs() < 1e-12);
        assert_eq!(row.pairs.total(), 50);
        assert_eq!(row.pairs.to_trinomial(), Some(row.record));
    }

    /// Game outcome with expected score `e` and a draw rate falling off with the gap.
    fn simulate_game<R: Rng>(rng: &mut R, e: f64, draw_base: f64) -> f64 {
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

    /// A ladder with neighbour and next-but-one pairings, `pairs` game pairs each.
    fn simulate_ladder<R: Rng>(
        rng: &mut R,
        truth: &[f64],
        pairs: usize,
        draw_base: f64,
    ) -> Vec<GameRecord> {
        let mut games = Vec::new();
        let mut id = 0;
        for i in 0..truth.len() {
            for j in [i + 1, i + 2] {
                if j >= truth.len() {
                    continue;
                }
                let e = score_from_elo(truth[j] - truth[i]);
                for _ in 0..pairs {
                    games.push(game(id, j, i, simulate_game(rng, e, draw_base)));
                    games.push(game(id, i, j, 1.0 - simulate_game(rng, e, draw_base)));
                    id += 1;
                }
            }
        }
        games
    }

    #[test]
    fn recovers_simulated_ladder() {
        let truth = [0.0, 150.0, 300.0, 450.0, 600.0, 750.0];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let games = simulate_ladder(&mut rng, &truth, 200, 0.3);
        let options = FitOptions::default();
        let fit = fit_ratings(&games, truth.len(), &options).unwrap();
        let order: Vec<usize> = (0..truth.len()).collect();
        let boot =
            bootstrap_intervals(&games, truth.len(), &options, 11, 400, &order, 0.95).unwrap();
        assert_eq!(boot.failed, 0);
        assert_eq!(boot.replicates, 400);
        for (i, &t) in truth.iter().enumerate() {
            assert!(
                (fit.ratings[i] - t).abs() < 3.0 * fit.std_errors[i] + 1e-9,
                "player {i}: {} vs {t}",
                fit.ratings[i]
            );
            assert!(boot.ratings[i].contains(fit.ratings[i]));
        }
        assert_eq!(boot.ratings[0], Interval { lo: 0.0, hi: 0.0 });
        let gaps = fit.neighbour_gaps(&order).unwrap();
        for (k, g) in gaps.iter().enumerate() {
            assert!(boot.gaps[k].contains(*g));
            assert!(boot.gaps[k].contains(150.0), "gap {k}: {:?}", boot.gaps[k]);
            // Bootstrap and sandwich agree on the spread to within ~25%.
            let se_boot = boot.gaps[k].width() / (2.0 * 1.959964);
            let se_robust = fit.robust_difference_std_error(k, k + 1).unwrap();
            assert!(
                (se_boot / se_robust - 1.0).abs() < 0.25,
                "{se_boot} vs {se_robust}"
            );
            // Draws make the Bernoulli Hessian pessimistic.
            assert!(fit.difference_std_error(k, k + 1).unwrap() > se_robust);
        }
    }

    #[test]
    fn bootstrap_is_deterministic_and_order_free() {
        let truth = [0.0, 150.0, 300.0, 450.0];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let games = simulate_ladder(&mut rng, &truth, 20, 0.3);
        let boot = Bootstrap::new(&games, 4, &FitOptions::default()).unwrap();
        let a = boot.run(99, 30);
        let b = boot.run(99, 30);
        assert_eq!(a, b);
        let reversed: Vec<_> = (0..30u64).rev().map(|k| boot.replicate(99, k)).collect();
        let mut reversed = BootstrapSamples::from_results(reversed);
        reversed.ratings.reverse();
        assert_eq!(a, reversed);
        assert_ne!(a, boot.run(100, 30));
    }

    #[test]
    fn coverage_of_neighbour_gap_intervals() {
        let truth = [0.0, 150.0, 300.0, 450.0, 600.0];
        let order: Vec<usize> = (0..truth.len()).collect();
        let options = FitOptions::default();
        let sims = 200;
        let (mut boot_hits, mut robust_hits, mut hessian_hits, mut trials) = (0, 0, 0, 0);
        for sim in 0..sims {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(1000 + sim);
            let games = simulate_ladder(&mut rng, &truth, 40, 0.3);
            let fit = fit_ratings(&games, truth.len(), &options).unwrap();
            let boot =
                bootstrap_intervals(&games, truth.len(), &options, sim, 200, &order, 0.95).unwrap();
            for k in 0..truth.len() - 1 {
                trials += 1;
                let gap = fit.difference(k, k + 1).unwrap();
                if boot.gaps[k].contains(150.0) {
                    boot_hits += 1;
                }
                let robust = fit.robust_difference_std_error(k, k + 1).unwrap();
                if (gap - 150.0).abs() <= 1.959964 * robust {
                    robust_hits += 1;
                }
                let hessian = fit.difference_std_error(k, k + 1).unwrap();
                if (gap - 150.0).abs() <= 1.959964 * hessian {
                    hessian_hits += 1;
                }
            }
        }
        let rate = |hits: i32| hits as f64 / trials as f64;
        let (boot, robust, hessian) = (rate(boot_hits), rate(robust_hits), rate(hessian_hits));
        assert!((0.88..=0.99).contains(&boot), "bootstrap coverage {boot}");
        assert!(
            (0.88..=0.99).contains(&robust),
            "sandwich coverage {robust}"
        );
        // The Bernoulli Hessian ignores that draws lower the variance: it over-covers.
        assert!(
            (0.88..=1.0).contains(&hessian),
            "hessian coverage {hessian}"
        );
    }

    #[test]
    fn perfect_score_is_reported() {
        // 0 and 1 trade results; 2 beats both every time.
        let mut games = vec![
            game(0, 0, 1, 1.0),
            game(0, 1, 0, 1.0),
            game(1, 0, 1, 0.5),
            game(1, 1, 0, 0.5),
        ];
        for k in 0..4usize {
            games.push(game(10 + k as u64, 2, k % 2, 1.0));
            games.push(game(10 + k as u64, k % 2, 2, 0.0));
        }
        let err = fit_ratings(&games, 3, &FitOptions::default()).unwrap_err();
        assert_eq!(
            err,
            RatingError::NoFiniteRating {
                perfect: vec![2],
                zero: vec![],
                groups: vec![vec![2], vec![0, 1]],
            }
        );
        assert!(err.to_string().contains("[2]"));

        for prior in [
            Prior::DrawsPerPairing(2.0),
            Prior::DrawsBetweenNeighbours(2.0),
        ] {
            let options = FitOptions {
                prior,
                ..FitOptions::default()
            };
            let fit = fit_ratings(&games, 3, &options).unwrap();
            assert!(fit.ratings.iter().all(|r| r.is_finite()));
            assert!(fit.ratings[2] > 150.0, "{:?}", fit.ratings);
            assert_eq!(fit.perfect_score, vec![2]);
            assert_eq!(fit.separated_groups, vec![vec![2], vec![0, 1]]);
        }
    }

    #[test]
    fn group_separation_without_extreme_players_is_reported() {
        // {0,1} beat {2,3} always; inside each group results are mixed.
        let mut games = Vec::new();
        let mut id = 0;
        for (a, b) in [(0, 1), (2, 3)] {
            games.push(game(id, a, b, 1.0));
            games.push(game(id, b, a, 1.0));
            id += 1;
        }
        for (a, b) in [(0, 2), (1, 3)] {
            games.push(game(id, a, b, 1.0));
            id += 1;
        }
        let err = fit_ratings(&games, 4, &FitOptions::default()).unwrap_err();
        assert_eq!(
            err,
            RatingError::NoFiniteRating {
                perfect: vec![],
                zero: vec![],
                groups: vec![vec![0, 1], vec![2, 3]],
            }
        );
    }

    #[test]
    fn zero_score_is_reported() {
        let games = vec![game(0, 0, 1, 0.5), game(1, 1, 2, 1.0), game(2, 0, 2, 1.0)];
        let err = fit_ratings(&games, 3, &FitOptions::default()).unwrap_err();
        match err {
            RatingError::NoFiniteRating { perfect, zero, .. } => {
                assert!(perfect.is_empty());
                assert_eq!(zero, vec![2]);
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn disconnected_schedule_is_reported() {
        let games = vec![
            game(0, 0, 1, 1.0),
            game(0, 1, 0, 0.5),
            game(1, 2, 3, 0.0),
            game(1, 3, 2, 0.5),
        ];
        let err = fit_ratings(&games, 5, &FitOptions::default()).unwrap_err();
        assert_eq!(
            err,
            RatingError::Disconnected {
                components: vec![vec![0, 1], vec![2, 3], vec![4]],
            }
        );
        assert!(err.to_string().contains("[4]"));
        let per_pairing = FitOptions {
            prior: Prior::DrawsPerPairing(1.0),
            ..FitOptions::default()
        };
        assert!(matches!(
            fit_ratings(&games, 5, &per_pairing),
            Err(RatingError::Disconnected { .. })
        ));
        let neighbours = FitOptions {
            prior: Prior::DrawsBetweenNeighbours(1.0),
            ..FitOptions::default()
        };
        let fit = fit_ratings(&games, 5, &neighbours).unwrap();
        assert!(fit.ratings.iter().all(|r| r.is_finite()));
    }

    #[test]
    fn invalid_input_is_rejected() {
        let opts = FitOptions::default();
        assert_eq!(
            fit_ratings(&[], 0, &opts).unwrap_err(),
            RatingError::NoPlayers
        );
        assert!(matches!(
            fit_ratings(&[game(0, 0, 5, 1.0)], 2, &opts),
            Err(RatingError::PlayerOutOfRange { game: 0, player: 5 })
        ));
        assert!(matches!(
            fit_ratings(&[game(0, 1, 1, 1.0)], 2, &opts),
            Err(RatingError::SelfPlay { game: 0 })
        ));
        assert!(matches!(
            fit_ratings(&[game(0, 0, 1, 0.7)], 2, &opts),
            Err(RatingError::BadScore { game: 0, .. })
        ));
        assert!(matches!(
            fit_ratings(&[game(0, 0, 1, 1.0), game(0, 0, 2, 1.0)], 3, &opts),
            Err(RatingError::MixedPair { pair_id: 0 })
        ));
        let bad_anchor = FitOptions { anchor: 3, ..opts };
        assert!(matches!(
            fit_ratings(&sixty_percent(), 2, &bad_anchor),
            Err(RatingError::AnchorOutOfRange { .. })
        ));
        let bad_prior = FitOptions {
            prior: Prior::DrawsPerPairing(-1.0),
            ..opts
        };
        assert_eq!(
            fit_ratings(&sixty_percent(), 2, &bad_prior).unwrap_err(),
            RatingError::BadPrior
        );
        assert_eq!(
            bootstrap_intervals(&sixty_percent(), 2, &opts, 0, 10, &[0, 2], 0.95).unwrap_err(),
            RatingError::BadOrder
        );
        // A single player is trivially rated.
        let fit = fit_ratings(&[], 1, &opts).unwrap();
        assert_eq!(fit.ratings, vec![0.0]);
    }

    #[test]
    fn anchor_choice_shifts_ratings() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let games = simulate_ladder(&mut rng, &[0.0, 100.0, 200.0], 30, 0.2);
        let a = fit_ratings(&games, 3, &FitOptions::default()).unwrap();
        let b = fit_ratings(
            &games,
            3,
            &FitOptions {
                anchor: 2,
                ..FitOptions::default()
            },
        )
        .unwrap();
        for i in 0..3 {
            assert!((a.ratings[i] - a.ratings[2] - b.ratings[i]).abs() < 1e-7);
        }
        assert!(
            (a.difference_std_error(0, 1).unwrap() - b.difference_std_error(0, 1).unwrap()).abs()
                < 1e-7
        );
    }
}
