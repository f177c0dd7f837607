//! The Elo scale and the moments of score distributions: the conversions between a score and
//! Elo, the normal quantile and CDF, the zero-count rule and the mean and variance of observed
//! counts. The primitives every estimate in this crate stands on (`elo`, `interval`, `sprt`,
//! `bound`), kept apart from them so that none of those needs another.

/// Two-sided 95% standard-normal quantile used throughout (as fastchess and fishtest).
pub const Z95: f64 = 1.959964;

/// Normalised Elo per unit of normalised t-value: `800 / ln 10`.
pub const NELO_PER_NT: f64 = 800.0 / std::f64::consts::LN_10;

/// Value that replaces a zero count before estimating (as fishtest's `results_to_pdf`).
pub const ZERO_COUNT: f64 = 1e-3;

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
pub(crate) fn elo_unchecked(score: f64) -> f64 {
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
pub(crate) fn regularise<const K: usize>(counts: &[u64; K]) -> (f64, [f64; K]) {
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

/// The spread the interval uses when every result fell in one category, as `(units,
/// variance)`; `None` otherwise (the observed variance is used).
///
/// With one category the observed variance is 0 however many results there are, so one draw
/// (or one drawn pair) would get an interval of about ±30 Elo from the regularised zero counts
/// alone: an interval the games cannot support. Then half a result is added at each extreme
/// (a loss and a win, or a lost and a won pair) and the variance is taken around the observed
/// score: one draw or one drawn pair gets about ±800 Elo, 10 draws about ±62, 100 draws about
/// ±7.
pub(crate) fn spread<const K: usize>(a: &[f64; K], counts: &[u64; K]) -> Option<(f64, f64)> {
    let mut seen = counts.iter().zip(a).filter(|(&c, _)| c > 0);
    let (_, &observed) = seen.next()?;
    if seen.next().is_some() {
        return None;
    }
    let mut padded = [0.0; K];
    for (p, &c) in padded.iter_mut().zip(counts) {
        *p = c as f64;
    }
    padded[0] += 0.5;
    padded[K - 1] += 0.5;
    let units: f64 = padded.iter().sum();
    let var = padded
        .iter()
        .zip(a)
        .map(|(p, ai)| p / units * (ai - observed).powi(2))
        .sum();
    Some((units, var))
}

/// Mean and variance of the distribution `p` on the scores `a`.
pub(crate) fn mean_var(a: &[f64], p: &[f64]) -> (f64, f64) {
    let mu: f64 = a.iter().zip(p).map(|(ai, pi)| ai * pi).sum();
    let var: f64 = a.iter().zip(p).map(|(ai, pi)| pi * (ai - mu).powi(2)).sum();
    (mu, var)
}
