//! Match statistics: trinomial and pentanomial counts, Elo with a 95% interval, LOS, normalised
//! Elo, and the generalised SPRT as computed by fishtest's `LLRcalc`.
//!
//! Everything here is a pure function of the counts, following `docs/statistics.md`: a zero count
//! is replaced by `1e-3` before any estimate is computed, so that every quantity stays finite.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Two-sided 95% standard-normal quantile used throughout (as fastchess and fishtest).
pub const Z95: f64 = 1.959964;

/// Normalised Elo per unit of normalised t-value: `800 / ln 10`.
pub const NELO_PER_NT: f64 = 800.0 / std::f64::consts::LN_10;

/// Value that replaces a zero count before estimating (as fishtest's `results_to_pdf`).
pub const ZERO_COUNT: f64 = 1e-3;

/// Scores of the three trinomial outcomes: loss, draw, win.
const TRI_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// Scores of the five pentanomial buckets: LL, LD+DL, LW+DD+WL, DW+WD, WW.
const PENTA_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// A game score that is not one of 0, 0.5 or 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct InvalidScore(pub f64);

impl fmt::Display for InvalidScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game score {} is not 0, 0.5 or 1", self.0)
    }
}

impl std::error::Error for InvalidScore {}

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

/// Elo difference for an expected score `score`: `-400 log10(1/score - 1)`; `None` unless
/// `0 < score < 1`.
pub fn elo_from_score(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| elo_unchecked(score))
}

/// Expected score for an Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo of a score, extended to `-inf` at or below 0 and `+inf` at or above 1.
fn elo_unchecked(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Standard normal cumulative distribution function.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * statrs::function::erf::erfc(-z / std::f64::consts::SQRT_2)
}

/// Approximate number of games for a 95% Elo interval of half-width `half_width_elo` at draw
/// ratio `draw_ratio`, near equal strength: `(1.959964 * 800 / ln 10 / X)^2 * (1 - d)`, i.e.
/// statistics.md's `(681 / X)^2 (1 - d)` (the constant is 680.96). Rounded up; `None` unless
/// `X > 0` and `0 <= d < 1`.
pub fn games_for_ci(half_width_elo: f64, draw_ratio: f64) -> Option<u64> {
    if !(half_width_elo > 0.0 && half_width_elo.is_finite() && (0.0..1.0).contains(&draw_ratio)) {
        return None;
    }
    let games = (Z95 * NELO_PER_NT / half_width_elo).powi(2) * (1.0 - draw_ratio);
    Some(games.ceil() as u64)
}

/// Regularised empirical distribution: returns `(N, p)` with zero counts replaced by 1e-3.
fn regularise<const K: usize>(counts: &[u64; K]) -> (f64, [f64; K]) {
    let mut c = [0.0; K];
    for (ci, &n) in c.iter_mut().zip(counts) {
        *ci = if n == 0 { ZERO_COUNT } else { n as f64 };
    }
    let total: f64 = c.iter().sum();
    let mut p = [0.0; K];
    for (pi, ci) in p.iter_mut().zip(c) {
        *pi = ci / total;
    }
    (total, p)
}

/// Mean and variance of the distribution `p` on the scores `a`.
fn mean_var(a: &[f64], p: &[f64]) -> (f64, f64) {
    let mu: f64 = a.iter().zip(p).map(|(ai, pi)| ai * pi).sum();
    let var: f64 = a.iter().zip(p).map(|(ai, pi)| pi * (ai - mu).powi(2)).sum();
    (mu, var)
}

/// Summary of a match result, from the first player's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Elo difference: `elo(mu)`.
    pub elo: f64,
    /// Half-width of the 95% Elo interval (`f64::INFINITY` when the interval reaches a score of
    /// 0 or 1, which happens only with very few games).
    pub elo_ci95: f64,
    /// Normalised Elo (`nt * 800 / ln 10`, with the per-game standard deviation).
    pub nelo: f64,
    /// Half-width of the 95% normalised-Elo interval: `1.959964 * 800 / ln 10 / sqrt(games)`.
    pub nelo_ci95: f64,
    /// Likelihood of superiority, in 0..=1: `Phi((mu - 0.5) / se)`.
    pub los: f64,
    /// Mean score per game, `mu`.
    pub score: f64,
    /// Fraction of games drawn; `None` for a pentanomial whose double-draw count is unknown.
    pub draw_ratio: Option<f64>,
    /// Games played (twice the number of pairs for a pentanomial).
    pub games: u64,
}

impl Estimate {
    /// Estimate from game counts; `None` with no games.
    pub fn from_trinomial(t: &Trinomial) -> Option<Self> {
        if t.total() == 0 {
            return None;
        }
        let (n, p) = regularise(&t.counts());
        Some(Self::from_distribution(
            &TRI_SCORES,
            &p,
            n,
            1.0,
            t.total(),
            t.draw_ratio(),
        ))
    }

    /// Estimate from game-pair counts; `None` with no pairs. The draw ratio is filled in when
    /// the pentanomial knows its double draws (see [`Pentanomial`]); otherwise use
    /// [`Estimate::with_draw_ratio`].
    pub fn from_pentanomial(pt: &Pentanomial) -> Option<Self> {
        if pt.total() == 0 {
            return None;
        }
        let (n, p) = regularise(&pt.counts);
        let draw_ratio = pt.to_trinomial().and_then(|t| t.draw_ratio());
        Some(Self::from_distribution(
            &PENTA_SCORES,
            &p,
            n,
            2.0,
            pt.games(),
            draw_ratio,
        ))
    }

    /// This estimate with the draw ratio taken from game-level counts (e.g. kept beside a
    /// pentanomial built from bare counts).
    pub fn with_draw_ratio(self, games: &Trinomial) -> Self {
        Self {
            draw_ratio: games.draw_ratio(),
            ..self
        }
    }

    /// `games_per_unit` is 1 for single games and 2 for pairs.
    fn from_distribution(
        a: &[f64],
        p: &[f64],
        n: f64,
        games_per_unit: f64,
        games: u64,
        draw_ratio: Option<f64>,
    ) -> Self {
        let (mu, var) = mean_var(a, p);
        let se = (var / n).sqrt();
        let elo = elo_unchecked(mu);
        let hi = elo_unchecked(mu + Z95 * se);
        let lo = elo_unchecked(mu - Z95 * se);
        let elo_ci95 = (hi - lo) / 2.0;
        let los = normal_cdf((mu - 0.5) / se);
        let per_game_sd = (games_per_unit * var).sqrt();
        let nelo = (mu - 0.5) / per_game_sd * NELO_PER_NT;
        let nelo_ci95 = Z95 * NELO_PER_NT / (games_per_unit * n).sqrt();
        Self {
            elo,
            elo_ci95,
            nelo,
            nelo_ci95,
            los,
            score: mu,
            draw_ratio,
            games,
        }
    }
}

/// Which scale the SPRT bounds `elo0`, `elo1` are expressed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SprtModel {
    /// Normalised Elo (fishtest's default, `LLR_normalized`).
    Normalized,
    /// Logistic Elo (`LLR_logistic`).
    Logistic,
}

/// What an SPRT says after a given LLR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    /// LLR reached the lower bound: H0 (`elo = elo0`) accepted.
    AcceptH0,
    /// LLR reached the upper bound: H1 (`elo = elo1`) accepted.
    AcceptH1,
    /// Keep playing.
    Continue,
}

/// Why SPRT parameters were refused.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum SprtError {
    /// `elo0` must be below `elo1`, both finite.
    BadBounds {
        /// The given `elo0`.
        elo0: f64,
        /// The given `elo1`.
        elo1: f64,
    },
    /// `alpha` and `beta` must lie in (0, 1) with `alpha + beta < 1`.
    BadErrorRates {
        /// The given `alpha`.
        alpha: f64,
        /// The given `beta`.
        beta: f64,
    },
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadBounds { elo0, elo1 } => {
                write!(f, "SPRT needs finite elo0 < elo1, got [{elo0}, {elo1}]")
            }
            Self::BadErrorRates { alpha, beta } => write!(
                f,
                "SPRT needs 0 < alpha, beta and alpha + beta < 1, got alpha={alpha} beta={beta}"
            ),
        }
    }
}

impl std::error::Error for SprtError {}

/// A generalised sequential probability ratio test of `elo = elo0` against `elo = elo1`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// Elo (or nElo) of H0.
    pub elo0: f64,
    /// Elo (or nElo) of H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// The scale of `elo0` and `elo1`.
    pub model: SprtModel,
}

impl Sprt {
    /// A test after checking the parameters.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: SprtModel,
    ) -> Result<Self, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::BadBounds { elo0, elo1 });
        }
        if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
            return Err(SprtError::BadErrorRates { alpha, beta });
        }
        Ok(Self {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// Lower LLR bound `ln(beta / (1 - alpha))`: H0 is accepted at or below it.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper LLR bound `ln((1 - beta) / alpha)`: H1 is accepted at or above it.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// Log-likelihood ratio of game counts; `None` when a hypothesis has no distribution on the
    /// scores (e.g. a bound beyond any reachable score).
    pub fn llr_trinomial(&self, t: &Trinomial) -> Option<f64> {
        let (n, p) = regularise(&t.counts());
        self.llr(&TRI_SCORES, &p, n, 1.0)
    }

    /// Log-likelihood ratio of game-pair counts; `None` as for [`Sprt::llr_trinomial`].
    pub fn llr_pentanomial(&self, pt: &Pentanomial) -> Option<f64> {
        let (n, p) = regularise(&pt.counts);
        self.llr(&PENTA_SCORES, &p, n, std::f64::consts::SQRT_2)
    }

    /// The decision at log-likelihood ratio `llr`.
    pub fn verdict(&self, llr: f64) -> Verdict {
        if llr >= self.upper_bound() {
            Verdict::AcceptH1
        } else if llr <= self.lower_bound() {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        }
    }

    /// `t_scale` converts per-game normalised t into the t of one counting unit (sqrt 2 for pairs).
    fn llr(&self, a: &[f64], p: &[f64], n: f64, t_scale: f64) -> Option<f64> {
        let (q0, q1) = match self.model {
            SprtModel::Logistic => (
                mle_expected(a, p, score_from_elo(self.elo0))?,
                mle_expected(a, p, score_from_elo(self.elo1))?,
            ),
            SprtModel::Normalized => (
                mle_t_value(a, p, self.elo0 / NELO_PER_NT * t_scale)?,
                mle_t_value(a, p, self.elo1 / NELO_PER_NT * t_scale)?,
            ),
        };
        let sum: f64 = p
            .iter()
            .zip(q0.iter().zip(&q1))
            .map(|(pi, (q0i, q1i))| pi * (q1i / q0i).ln())
            .sum();
        let llr = n * sum;
        llr.is_finite().then_some(llr)
    }
}

/// Solves the secular equation `sum_i p_i v_i / (1 + x v_i) = 0` for `x` in
/// `(-1 / max v, -1 / min v)`; `None` unless `min v < 0 < max v`.
///
/// The left side is strictly decreasing on that interval, going from `+inf` to `-inf` when the
/// extreme `p_i` are positive, so safeguarded Newton steps inside a shrinking bracket converge to
/// machine precision.
pub fn solve_secular(p: &[f64], v: &[f64]) -> Option<f64> {
    let vmin = v.iter().copied().fold(f64::INFINITY, f64::min);
    let vmax = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(vmin < 0.0 && vmax > 0.0) || p.len() != v.len() {
        return None;
    }
    let eval = |x: f64| -> (f64, f64) {
        let mut f = 0.0;
        let mut df = 0.0;
        for (pi, vi) in p.iter().zip(v) {
            let d = 1.0 + x * vi;
            f += pi * vi / d;
            df -= pi * vi * vi / (d * d);
        }
        (f, df)
    };
    let (mut lo, mut hi) = (-1.0 / vmax, -1.0 / vmin);
    let mut x = 0.0;
    for _ in 0..300 {
        let (f, df) = eval(x);
        if f == 0.0 {
            return Some(x);
        }
        if f > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let newton = x - f / df;
        let next = if newton.is_finite() && newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        let step = (next - x).abs();
        x = next;
        if step <= 1e-15 * x.abs().max(1e-3) || hi - lo <= 1e-15 * x.abs().max(1e-3) {
            break;
        }
    }
    x.is_finite().then_some(x)
}

/// Maximum-likelihood distribution on scores `a` with expected score `s`, given observed `p`.
fn mle_expected(a: &[f64], p: &[f64], s: f64) -> Option<Vec<f64>> {
    let v: Vec<f64> = a.iter().map(|ai| ai - s).collect();
    let x = solve_secular(p, &v)?;
    Some(
        p.iter()
            .zip(&v)
            .map(|(pi, vi)| pi / (1.0 + x * vi))
            .collect(),
    )
}

/// Maximum-likelihood distribution on scores `a` with normalised t-value `(mu - 1/2) / sigma`
/// equal to `t`, given observed `p` (fishtest's `MLE_tvalue`, iterated to 1e-12).
fn mle_t_value(a: &[f64], p: &[f64], t: f64) -> Option<Vec<f64>> {
    let k = a.len();
    let mut q = vec![1.0 / k as f64; k];
    for _ in 0..100 {
        let (mu, var) = mean_var(a, &q);
        let sigma = var.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            return None;
        }
        let v: Vec<f64> = a
            .iter()
            .map(|ai| ai - 0.5 - t * sigma * (1.0 + ((ai - mu) / sigma).powi(2)) / 2.0)
            .collect();
        let x = solve_secular(p, &v)?;
        let next: Vec<f64> = p
            .iter()
            .zip(&v)
            .map(|(pi, vi)| pi / (1.0 + x * vi))
            .collect();
        let change = next
            .iter()
            .zip(&q)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        q = next;
        if change < 1e-12 {
            break;
        }
    }
    Some(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tol: f64) {
        assert!(
            (actual - expected).abs() <= tol,
            "expected {expected} ± {tol}, got {actual}"
        );
    }

    fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap()
    }

    const TRI: Trinomial = Trinomial {
        losses: 96,
        draws: 111,
        wins: 136,
    };

    fn penta_small() -> Pentanomial {
        Pentanomial::from_counts([34, 54, 63, 64, 75])
    }

    #[test]
    fn golden_trinomial_elo() {
        let e = Estimate::from_trinomial(&TRI).unwrap();
        close(e.elo, 40.70, 0.005);
        close(e.elo_ci95, 30.43, 0.005);
    }

    #[test]
    fn golden_trinomial_los() {
        let e = Estimate::from_trinomial(&TRI).unwrap();
        close(100.0 * e.los, 99.60, 0.005);
    }

    #[test]
    fn golden_trinomial_nelo() {
        let e = Estimate::from_trinomial(&TRI).unwrap();
        close(e.nelo, 49.77, 0.005);
        close(e.nelo_ci95, 36.77, 0.005);
    }

    #[test]
    fn golden_pentanomial_elo() {
        let e = Estimate::from_pentanomial(&penta_small()).unwrap();
        close(e.elo, 55.58, 0.005);
        close(e.elo_ci95, 27.65, 0.005);
        assert_eq!(e.games, 580);
        assert_eq!(e.draw_ratio, None);
    }

    #[test]
    fn golden_pentanomial_nelo() {
        let e = Estimate::from_pentanomial(&penta_small()).unwrap();
        close(e.nelo, 57.94, 0.005);
        close(e.nelo_ci95, 28.28, 0.005);
    }

    #[test]
    fn golden_llr_penta_normalized_0_2() {
        let pt = Pentanomial::from_counts([365, 16618, 36229, 16974, 390]);
        let llr = sprt(0.0, 2.0, SprtModel::Normalized)
            .llr_pentanomial(&pt)
            .unwrap();
        close(llr, 2.2504, 1e-4);
    }

    #[test]
    fn golden_llr_penta_normalized_neg175_025() {
        let pt = Pentanomial::from_counts([127, 4883, 10712, 5150, 104]);
        let llr = sprt(-1.75, 0.25, SprtModel::Normalized)
            .llr_pentanomial(&pt)
            .unwrap();
        close(llr, 3.0102, 1e-4);
    }

    #[test]
    fn golden_llr_penta_logistic_05_25() {
        let pt = Pentanomial::from_counts([223, 9863, 21279, 10037, 246]);
        let llr = sprt(0.5, 2.5, SprtModel::Logistic)
            .llr_pentanomial(&pt)
            .unwrap();
        close(llr, -3.0741, 1e-4);
    }

    #[test]
    fn golden_llr_tri_normalized_0_2() {
        let t = Trinomial::new(36027, 68692, 36433);
        let llr = sprt(0.0, 2.0, SprtModel::Normalized)
            .llr_trinomial(&t)
            .unwrap();
        close(llr, 0.9233, 1e-4);
    }

    #[test]
    fn golden_llr_tri_logistic_05_25() {
        let t = Trinomial::new(21184, 40708, 21404);
        let llr = sprt(0.5, 2.5, SprtModel::Logistic)
            .llr_trinomial(&t)
            .unwrap();
        close(llr, -1.5719, 1e-4);
    }

    #[test]
    fn golden_llr_penta_normalized_0_2_second() {
        let pt = Pentanomial::from_counts([379, 10170, 21828, 10640, 343]);
        let llr = sprt(0.0, 2.0, SprtModel::Normalized)
            .llr_pentanomial(&pt)
            .unwrap();
        close(llr, 2.9455, 1e-4);
    }

    #[test]
    fn bounds_and_verdicts() {
        let s = sprt(0.0, 2.0, SprtModel::Normalized);
        close(s.lower_bound(), -2.944, 5e-4);
        close(s.upper_bound(), 2.944, 5e-4);
        assert_eq!(s.verdict(2.95), Verdict::AcceptH1);
        assert_eq!(s.verdict(s.upper_bound()), Verdict::AcceptH1);
        assert_eq!(s.verdict(-2.95), Verdict::AcceptH0);
        assert_eq!(s.verdict(0.0), Verdict::Continue);
    }

    #[test]
    fn sprt_rejects_bad_parameters() {
        assert!(Sprt::new(2.0, 0.0, 0.05, 0.05, SprtModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 2.0, 0.0, 0.05, SprtModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 2.0, 0.6, 0.5, SprtModel::Logistic).is_err());
        assert!(Sprt::new(f64::NAN, 2.0, 0.05, 0.05, SprtModel::Logistic).is_err());
    }

    #[test]
    fn llr_is_antisymmetric_under_swapping_sides_and_bounds() {
        let t = Trinomial::new(300, 500, 340);
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            let a = sprt(0.0, 5.0, model).llr_trinomial(&t).unwrap();
            let b = sprt(-5.0, 0.0, model).llr_trinomial(&t.reversed()).unwrap();
            close(a, -b, 1e-9);
        }
    }

    #[test]
    fn llr_empty_and_degenerate_inputs_do_not_panic() {
        let s = sprt(0.0, 2.0, SprtModel::Normalized);
        let llr = s.llr_trinomial(&Trinomial::default()).unwrap();
        assert!(llr.abs() < 1e-2);
        assert!(s.llr_trinomial(&Trinomial::new(0, 0, 50)).is_some());
        assert!(s
            .llr_pentanomial(&Pentanomial::from_counts([0, 0, 0, 0, 9]))
            .is_some());
        // A hypothesis of +5000 nElo has no distribution on the scores.
        let huge = Sprt::new(0.0, 5000.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        assert_eq!(huge.llr_trinomial(&Trinomial::new(10, 10, 10)), None);
    }

    #[test]
    fn secular_root_is_tight() {
        let p = [0.2, 0.3, 0.5];
        let v = [-0.6, -0.1, 0.4];
        let x = solve_secular(&p, &v).unwrap();
        let f: f64 = p.iter().zip(&v).map(|(p, v)| p * v / (1.0 + x * v)).sum();
        assert!(f.abs() < 1e-14, "residual {f}");
        assert!(x > -1.0 / 0.4 && x < 1.0 / 0.6);
        assert_eq!(solve_secular(&[0.5, 0.5], &[0.1, 0.2]), None);
    }

    #[test]
    fn mle_distributions_meet_their_constraints() {
        let (_, p) = regularise(&[34u64, 54, 63, 64, 75]);
        let s = score_from_elo(10.0);
        let q = mle_expected(&PENTA_SCORES, &p, s).unwrap();
        let (mu, _) = mean_var(&PENTA_SCORES, &q);
        close(q.iter().sum::<f64>(), 1.0, 1e-12);
        close(mu, s, 1e-12);
        let t = 0.05;
        let q = mle_t_value(&PENTA_SCORES, &p, t).unwrap();
        let (mu, var) = mean_var(&PENTA_SCORES, &q);
        close((mu - 0.5) / var.sqrt(), t, 1e-10);
    }

    #[test]
    fn elo_score_round_trip() {
        for elo in [-800.0, -70.0, 0.0, 35.5, 400.0] {
            close(elo_from_score(score_from_elo(elo)).unwrap(), elo, 1e-9);
        }
        close(elo_from_score(0.6).unwrap(), 70.437, 1e-3);
        assert_eq!(elo_from_score(0.0), None);
        assert_eq!(elo_from_score(1.0), None);
        assert_eq!(elo_from_score(f64::NAN), None);
    }

    #[test]
    fn games_for_ci_matches_rule_of_thumb() {
        // (681 / 10)^2 * (1 - 0.5) = 2318.8
        let g = games_for_ci(10.0, 0.5).unwrap();
        assert!((2310..=2320).contains(&g), "{g}");
        assert_eq!(games_for_ci(0.0, 0.5), None);
        assert_eq!(games_for_ci(10.0, 1.0), None);
        assert_eq!(games_for_ci(10.0, -0.1), None);
    }

    #[test]
    fn estimate_edge_cases() {
        assert!(Estimate::from_trinomial(&Trinomial::default()).is_none());
        assert!(Estimate::from_pentanomial(&Pentanomial::new()).is_none());
        let e = Estimate::from_trinomial(&Trinomial::new(0, 0, 3)).unwrap();
        assert!(e.elo.is_finite() && e.elo > 0.0);
        assert!(e.elo_ci95.is_infinite());
        assert!(e.los > 0.5 && e.los <= 1.0);
        let even = Estimate::from_trinomial(&Trinomial::new(10, 20, 10)).unwrap();
        close(even.elo, 0.0, 1e-12);
        close(even.los, 0.5, 1e-12);
        close(even.draw_ratio.unwrap(), 0.5, 1e-12);
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

    #[test]
    fn normal_cdf_values() {
        close(normal_cdf(0.0), 0.5, 1e-15);
        close(normal_cdf(Z95), 0.975, 1e-7);
        close(normal_cdf(-Z95), 0.025, 1e-7);
    }
}
