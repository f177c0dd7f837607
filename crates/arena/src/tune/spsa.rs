//! `chuhan tune spsa`: fishtest-compatible SPSA over the engine's parameter table.
//!
//! **Algorithm** (docs/tuning.md). `N` iterations; `A = 0.1 N`, `alpha = 0.602`,
//! `gamma = 0.101`; per parameter `c = c_end N^gamma`, `a = r_end c_end^2 (A + N)^alpha`. At
//! iteration `k` (1-based): `c_k = c / k^gamma`, `R_k = a / (A + k)^alpha / c_k^2`; every
//! parameter is flipped by a random `delta_i = ±1`; `theta + c_k delta` plays
//! `theta - c_k delta` in game pairs (one opening, colours swapped), the values rounded
//! stochastically (`floor(x + U[0,1))`) to the engine's integers; then
//! `theta_i <- clip(theta_i + R_k c_k (W - L) delta_i, min_i, max_i)` with W and L counted from
//! the `theta + c_k delta` side. (So `c_N = c_end` and `R_N = r_end`.)
//!
//! **Seeds.** Iteration `k` draws its flips and rounding from its own generator seeded by
//! `splitmix64(splitmix64(seed ^ TAG) ^ k)`; the game with global index `g` (pair
//! `p = (k - 1) P + j` of `P` pairs per iteration, games `2p` and `2p + 1`) gets the arena's
//! `game_seed(seed, g)` and opening `p`. Nothing depends on the order in which games finish.
//!
//! **Parallelism and the lag rule (deterministic).** Iteration `k` is evaluated at
//! `theta^(max(k - 1 - lag, 0))`, where `theta^(j)` is theta after the updates of iterations
//! `1..=j` (`theta^(0)` the start); updates are applied strictly in iteration order, each to the
//! latest theta. With `--lag 0` (the default) this is plain sequential SPSA and only the `2P`
//! games of one iteration run at once; `--lag L` lets up to `L + 1` iterations be in flight,
//! fishtest-style, at the cost of gradients measured `L` updates late. Since every evaluation
//! point, flip, rounding draw, opening and game seed is a function of the seed and `k` alone, the
//! trajectory is the same at any `--concurrency` and after `--resume`.
//!
//! **Output** (`--out DIR`): `manifest.toml`, `spsa.csv` (one row per iteration, flushed as it
//! completes), `spsa.svg` and `tuned.toml` at the end.

use crate::cli::SpsaArgs;
use crate::config::{builtin_levels, parse_engine_config, resolve_engine};
use crate::game::{Adjudication, PlaySettings};
use crate::limits::LimitSpec;
use crate::openings::{book_for, fnv1a_hex, read_opening_file, OpeningBook, OpeningSource};
use crate::player::PlayerSpec;
use crate::report::table;
use crate::results::{default_out_dir, git_state, ResultsDir};
use crate::runner::play_scheduled;
use crate::schedule::{game_seed, splitmix64, GameSpec};
use crate::EXIT_OK;
use anyhow::{anyhow, bail, Context};
use chuhan_engine::{params, EngineConfig, GameConfig, GameResult, Params, RuleSet};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// fishtest's `alpha`: the decay exponent of the learning rate.
pub const ALPHA: f64 = 0.602;
/// fishtest's `gamma`: the decay exponent of the perturbation size.
pub const GAMMA: f64 = 0.101;
/// Default `r_end` for `--params`.
pub const DEFAULT_R_END: f64 = 0.002;
/// Default per-move node limit.
pub const DEFAULT_NODES: u64 = 2_000;
/// Default number of iterations.
pub const DEFAULT_ITERATIONS: u64 = 1_000;
/// Mixed into the run seed for the per-iteration generators.
const ITERATION_TAG: u64 = 0x7370_7361_5f69_7465; // "spsa_ite"

/// One tuned parameter: a name from the parameter table and its SPSA settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaParam {
    /// Name in the parameter table (`chuhan params`).
    pub name: String,
    /// Start value of theta.
    pub start: f64,
    /// Smallest value theta may take (a whole number within the table's range).
    pub min: f64,
    /// Largest value theta may take (a whole number within the table's range).
    pub max: f64,
    /// Perturbation size at the last iteration.
    pub c_end: f64,
    /// Learning rate at the last iteration.
    pub r_end: f64,
}

/// A bad line in a parameter file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}:{line}: field '{field}': {reason}")]
pub struct ParamFileError {
    /// The file.
    pub source_name: String,
    /// 1-based line number.
    pub line: usize,
    /// The field at fault (`name`, `start`, `min`, `max`, `c_end`, `r_end`, or `line`).
    pub field: &'static str,
    /// What is wrong.
    pub reason: String,
}

/// The field names of a parameter line, in order.
pub const FIELDS: [&str; 6] = ["name", "start", "min", "max", "c_end", "r_end"];

/// Parses a fishtest parameter file: lines `name, start, min, max, c_end, r_end`; blank lines
/// and `#` comments (whole lines or line ends) are skipped. Names come from the parameter
/// table; `min <= start <= max` within the table's range, `min` and `max` whole numbers,
/// `c_end > 0`, `r_end > 0`, no name twice.
pub fn parse_param_file(text: &str, source: &str) -> Result<Vec<SpsaParam>, ParamFileError> {
    let mut out: Vec<SpsaParam> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let err = |field: &'static str, reason: String| ParamFileError {
            source_name: source.to_string(),
            line,
            field,
            reason,
        };
        let cells: Vec<&str> = body.split(',').map(str::trim).collect();
        if cells.len() != FIELDS.len() {
            return Err(err(
                "line",
                format!(
                    "expected 6 comma-separated fields `name, start, min, max, c_end, r_end`, found {}",
                    cells.len()
                ),
            ));
        }
        let name = cells[0];
        let index = params::index_of(name).ok_or_else(|| {
            err(
                "name",
                format!("unknown parameter '{name}' (see `chuhan params`)"),
            )
        })?;
        if out.iter().any(|p| p.name == name) {
            return Err(err("name", format!("'{name}' is listed twice")));
        }
        let mut nums = [0.0f64; 5];
        for (k, cell) in cells[1..].iter().enumerate() {
            let field = FIELDS[k + 1];
            let v: f64 = cell
                .parse()
                .map_err(|_| err(field, format!("'{cell}' is not a number")))?;
            if !v.is_finite() {
                return Err(err(field, format!("'{cell}' is not a finite number")));
            }
            nums[k] = v;
        }
        let [start, min, max, c_end, r_end] = nums;
        let def = &params::table()[index];
        for (field, v) in [("min", min), ("max", max)] {
            if v.fract() != 0.0 {
                return Err(err(field, format!("{v} is not a whole number")));
            }
            if v < def.min as f64 || v > def.max as f64 {
                return Err(err(
                    field,
                    format!(
                        "{v} is outside the table's range [{}, {}] for {name}",
                        def.min, def.max
                    ),
                ));
            }
        }
        if min > max {
            return Err(err("min", format!("min {min} is above max {max}")));
        }
        if start < min || start > max {
            return Err(err(
                "start",
                format!("{start} is outside [min, max] = [{min}, {max}]"),
            ));
        }
        if c_end <= 0.0 {
            return Err(err("c_end", format!("{c_end} must be above 0")));
        }
        if r_end <= 0.0 {
            return Err(err("r_end", format!("{r_end} must be above 0")));
        }
        out.push(SpsaParam {
            name: name.to_string(),
            start,
            min,
            max,
            c_end,
            r_end,
        });
    }
    if out.is_empty() {
        return Err(ParamFileError {
            source_name: source.to_string(),
            line: text.lines().count().max(1),
            field: "line",
            reason: "the file lists no parameter".into(),
        });
    }
    Ok(out)
}

/// Parameters from a comma-separated list of names: start from `base` (the table default
/// unless the base engine overrides it), min and max from the table, `c_end = (max - min) / 20`,
/// `r_end = 0.002`.
pub fn params_from_names(list: &str, base: &Params) -> anyhow::Result<Vec<SpsaParam>> {
    let mut out: Vec<SpsaParam> = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let index = params::index_of(name)
            .ok_or_else(|| anyhow!("--params: unknown parameter '{name}' (see `chuhan params`)"))?;
        if out.iter().any(|p| p.name == name) {
            bail!("--params: '{name}' is listed twice");
        }
        let def = &params::table()[index];
        if def.min == def.max {
            bail!(
                "--params: '{name}' has an empty range [{}, {}]",
                def.min,
                def.max
            );
        }
        out.push(SpsaParam {
            name: name.to_string(),
            start: base.get(index) as f64,
            min: def.min as f64,
            max: def.max as f64,
            c_end: (def.max - def.min) as f64 / 20.0,
            r_end: DEFAULT_R_END,
        });
    }
    if out.is_empty() {
        bail!("--params: give at least one parameter name");
    }
    Ok(out)
}

/// The gain schedule of a run of `iterations` iterations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    /// `N`.
    pub iterations: u64,
    /// `A = 0.1 N`.
    pub big_a: f64,
    /// `alpha`.
    pub alpha: f64,
    /// `gamma`.
    pub gamma: f64,
}

impl Gains {
    /// fishtest's schedule for `iterations` iterations.
    pub fn new(iterations: u64) -> Gains {
        Gains {
            iterations,
            big_a: 0.1 * iterations as f64,
            alpha: ALPHA,
            gamma: GAMMA,
        }
    }

    /// `c = c_end N^gamma`.
    pub fn c(&self, c_end: f64) -> f64 {
        c_end * (self.iterations as f64).powf(self.gamma)
    }

    /// `a = r_end c_end^2 (A + N)^alpha`.
    pub fn a(&self, c_end: f64, r_end: f64) -> f64 {
        r_end * c_end * c_end * (self.big_a + self.iterations as f64).powf(self.alpha)
    }

    /// `c_k = c / k^gamma` (k 1-based).
    pub fn c_k(&self, c_end: f64, k: u64) -> f64 {
        self.c(c_end) / (k as f64).powf(self.gamma)
    }

    /// `R_k = a / (A + k)^alpha / c_k^2`.
    pub fn r_k(&self, c_end: f64, r_end: f64, k: u64) -> f64 {
        let ck = self.c_k(c_end, k);
        self.a(c_end, r_end) / (self.big_a + k as f64).powf(self.alpha) / (ck * ck)
    }
}

/// Stochastic rounding: `floor(x + u)` for `u` uniform in [0, 1); its mean is `x`.
pub fn stochastic_round(x: f64, u: f64) -> i64 {
    (x + u).floor() as i64
}

/// One iteration's perturbation: the flips and the two rounded parameter vectors.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// `delta_i`, each +1 or -1.
    pub delta: Vec<i8>,
    /// Rounded `theta + c_k delta`, clipped to [min, max].
    pub plus: Arc<[i32]>,
    /// Rounded `theta - c_k delta`, clipped to [min, max].
    pub minus: Arc<[i32]>,
}

/// A run's SPSA settings: what is tuned, for how long, and how it is seeded.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// The tuned parameters.
    pub params: Vec<SpsaParam>,
    /// The gain schedule.
    pub gains: Gains,
    /// Game pairs per iteration (all at the same perturbation; W and L are summed).
    pub pairs_per_iteration: u64,
    /// Iteration `k` is evaluated at theta after iteration `k - 1 - lag`.
    pub lag: u64,
    /// Run seed.
    pub seed: u64,
}

/// The seed of iteration `k`'s flips and rounding draws.
pub fn iteration_seed(run_seed: u64, k: u64) -> u64 {
    splitmix64(splitmix64(run_seed ^ ITERATION_TAG) ^ k)
}

impl Spsa {
    /// The start vector `theta^(0)`.
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }

    /// `c_k` of parameter `i`.
    pub fn c_k(&self, i: usize, k: u64) -> f64 {
        self.gains.c_k(self.params[i].c_end, k)
    }

    /// `R_k` of parameter `i`.
    pub fn r_k(&self, i: usize, k: u64) -> f64 {
        let p = &self.params[i];
        self.gains.r_k(p.c_end, p.r_end, k)
    }

    /// The perturbation of iteration `k` around `theta` (its evaluation point): flips and
    /// rounding draws from the iteration's own generator.
    pub fn perturb(&self, k: u64, theta: &[f64]) -> Perturbation {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(iteration_seed(self.seed, k));
        let delta: Vec<i8> = self
            .params
            .iter()
            .map(|_| if rng.gen::<bool>() { 1 } else { -1 })
            .collect();
        let mut plus = Vec::with_capacity(self.params.len());
        let mut minus = Vec::with_capacity(self.params.len());
        for (i, p) in self.params.iter().enumerate() {
            let step = self.c_k(i, k) * delta[i] as f64;
            let (u_plus, u_minus): (f64, f64) = (rng.gen(), rng.gen());
            // Clip before rounding: floor(x + u) of x in [min, max] stays in [min, max].
            let round = |x: f64, u: f64| {
                stochastic_round(x.clamp(p.min, p.max), u).clamp(p.min as i64, p.max as i64) as i32
            };
            plus.push(round(theta[i] + step, u_plus));
            minus.push(round(theta[i] - step, u_minus));
        }
        Perturbation {
            delta,
            plus: plus.into(),
            minus: minus.into(),
        }
    }

    /// Theta after iteration `k`: `clip(theta_i + R_k c_k result delta_i, min_i, max_i)` with
    /// `result = W - L` from the `theta + c_k delta` side.
    pub fn update(&self, k: u64, theta: &[f64], delta: &[i8], result: f64) -> Vec<f64> {
        self.params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let step = self.r_k(i, k) * self.c_k(i, k) * result * delta[i] as f64;
                (theta[i] + step).clamp(p.min, p.max)
            })
            .collect()
    }
}

/// One game to play for an iteration.
#[derive(Clone, Debug)]
pub struct GameJob {
    /// The iteration (1-based).
    pub iteration: u64,
    /// Global pair index (also the opening index).
    pub pair: u64,
    /// Global game index (`2 pair` or `2 pair + 1`).
    pub game: u64,
    /// Whether `theta + c_k delta` plays Red (the first game of each pair).
    pub plus_is_red: bool,
    /// The game's seed (`game_seed(run seed, game)`).
    pub seed: u64,
    /// Values of `theta + c_k delta`, one per tuned parameter.
    pub plus: Arc<[i32]>,
    /// Values of `theta - c_k delta`.
    pub minus: Arc<[i32]>,
}

/// Plays one game of an iteration; the SPSA loop is generic over it (real engine games, or a
/// simulated objective in tests).
pub trait PlayGame: Sync {
    /// Plays `job` and returns the score of the `theta + c_k delta` side: 1, 1/2 or 0.
    fn play(&self, job: &GameJob) -> anyhow::Result<f64>;
}

/// One completed iteration, as written to spsa.csv.
#[derive(Clone, Debug, PartialEq)]
pub struct IterationRow {
    /// The iteration (1-based).
    pub iteration: u64,
    /// `c_k / c_end = (N / k)^gamma`, common to every parameter.
    pub c_scale: f64,
    /// `R_k / r_end = ((A + N) / (A + k))^alpha (k / N)^(2 gamma)`, common to every parameter.
    pub r_scale: f64,
    /// Wins of `theta + c_k delta`.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses of `theta + c_k delta`.
    pub losses: u64,
    /// Theta after the update.
    pub theta: Vec<f64>,
}

struct Pending {
    perturbation: Perturbation,
    scores: Vec<Option<f64>>,
}

/// Runs the iterations after those in `history` (`history[j]` = theta after `j` iterations;
/// `history[0]` the start) up to `spsa.gains.iterations`, playing games on `concurrency`
/// threads, calling `on_row` for each completed iteration in order, and returns the full
/// history. On an error no further games start; the games running finish and every iteration
/// completed before is reported.
pub fn drive<G: PlayGame + ?Sized>(
    spsa: &Spsa,
    mut history: Vec<Vec<f64>>,
    player: &G,
    concurrency: usize,
    on_row: &mut dyn FnMut(&IterationRow) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<Vec<f64>>> {
    assert!(!history.is_empty(), "the history holds at least the start");
    let n = spsa.gains.iterations;
    let per_iteration = 2 * spsa.pairs_per_iteration.max(1);
    let mut done = history.len() as u64 - 1;
    if done >= n {
        return Ok(history);
    }
    let workers = concurrency.max(1);
    let (job_tx, job_rx) = channel::<GameJob>();
    let job_rx = Mutex::new(job_rx);
    let (res_tx, res_rx) = channel::<(u64, usize, anyhow::Result<f64>)>();
    let mut error: Option<anyhow::Error> = None;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let res_tx = res_tx.clone();
            let job_rx = &job_rx;
            scope.spawn(move || loop {
                let job = {
                    let rx = job_rx.lock().unwrap_or_else(|p| p.into_inner());
                    rx.recv()
                };
                let Ok(job) = job else { break };
                let slot = (job.game % per_iteration) as usize;
                // A panic becomes an error: the loop must hear back about every job it sent.
                let result =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| player.play(&job)))
                        .unwrap_or_else(|_| Err(anyhow!("game {} panicked", job.game)));
                if res_tx.send((job.iteration, slot, result)).is_err() {
                    break;
                }
            });
        }
        drop(res_tx);
        let mut pending: BTreeMap<u64, Pending> = BTreeMap::new();
        let (mut next_k, mut next_slot, mut in_flight) = (done + 1, 0u64, 0usize);
        loop {
            // Dispatch while workers are free and the next iteration's evaluation point is known.
            while error.is_none()
                && in_flight < workers
                && next_k <= n
                && next_k <= done + 1 + spsa.lag
            {
                if next_slot == 0 {
                    let at = (next_k - 1).saturating_sub(spsa.lag) as usize;
                    pending.insert(
                        next_k,
                        Pending {
                            perturbation: spsa.perturb(next_k, &history[at]),
                            scores: vec![None; per_iteration as usize],
                        },
                    );
                }
                let p = &pending[&next_k].perturbation;
                let game = (next_k - 1) * per_iteration + next_slot;
                let job = GameJob {
                    iteration: next_k,
                    pair: game / 2,
                    game,
                    plus_is_red: game % 2 == 0,
                    seed: game_seed(spsa.seed, game),
                    plus: p.plus.clone(),
                    minus: p.minus.clone(),
                };
                job_tx.send(job).expect("workers wait for jobs");
                in_flight += 1;
                next_slot += 1;
                if next_slot == per_iteration {
                    next_slot = 0;
                    next_k += 1;
                }
            }
            if in_flight == 0 {
                break;
            }
            let Ok((k, slot, result)) = res_rx.recv() else {
                break;
            };
            in_flight -= 1;
            match result {
                Ok(score) => {
                    if let Some(p) = pending.get_mut(&k) {
                        p.scores[slot] = Some(score);
                    }
                }
                Err(e) => {
                    error.get_or_insert(e);
                }
            }
            // Apply complete iterations strictly in order.
            while error.is_none() {
                let k = done + 1;
                let Some(p) = pending.get(&k) else { break };
                if p.scores.iter().any(Option::is_none) {
                    break;
                }
                let p = pending.remove(&k).expect("present");
                let (mut wins, mut draws, mut losses) = (0, 0, 0);
                for s in p.scores.iter().flatten() {
                    match (s * 2.0).round() as i64 {
                        2 => wins += 1,
                        1 => draws += 1,
                        _ => losses += 1,
                    }
                }
                let result = wins as f64 - losses as f64;
                let theta = spsa.update(k, &history[k as usize - 1], &p.perturbation.delta, result);
                let row = IterationRow {
                    iteration: k,
                    c_scale: spsa.gains.c_k(1.0, k),
                    r_scale: spsa.gains.r_k(1.0, 1.0, k),
                    wins,
                    draws,
                    losses,
                    theta: theta.clone(),
                };
                history.push(theta);
                done = k;
                if let Err(e) = on_row(&row) {
                    error = Some(e);
                }
            }
        }
        drop(job_tx);
    });
    match error {
        Some(e) => Err(e),
        None => Ok(history),
    }
}

/// The spsa.csv header for these parameters.
pub fn csv_header(params: &[SpsaParam]) -> String {
    let mut h = String::from("iteration,c_k/c_end,R_k/r_end,W,D,L");
    for p in params {
        h.push(',');
        h.push_str(&p.name);
    }
    h
}

/// One spsa.csv line (without the newline). Floats use the shortest text that reads back
/// exactly, so a resumed run continues from the very same theta.
pub fn csv_line(row: &IterationRow) -> String {
    let mut s = format!(
        "{},{},{},{},{},{}",
        row.iteration, row.c_scale, row.r_scale, row.wins, row.draws, row.losses
    );
    for t in &row.theta {
        let _ = write!(s, ",{t}");
    }
    s
}

/// Reads spsa.csv of a run being resumed: the header must match, iterations must run 1, 2, ...
/// and every theta must lie in its range. A truncated last line (no newline) is ignored.
/// Returns the history (start first) and the byte length of the complete lines.
pub fn read_csv(path: &Path, spsa: &Spsa) -> anyhow::Result<(Vec<Vec<f64>>, u64)> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let complete = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(end) => &bytes[..=end],
        None => &bytes[..0],
    };
    let text = std::str::from_utf8(complete)
        .map_err(|e| anyhow!("{}: not UTF-8 text: {e}", path.display()))?;
    let mut lines = text.lines();
    let header = csv_header(&spsa.params);
    if lines.next() != Some(header.as_str()) {
        bail!("{}:1: expected the header '{header}'", path.display());
    }
    let mut history = vec![spsa.start()];
    for (i, line) in lines.enumerate() {
        let lineno = i + 2;
        let bad = |what: String| anyhow!("{}:{lineno}: {what}", path.display());
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() != 6 + spsa.params.len() {
            return Err(bad(format!(
                "expected {} fields, found {}",
                6 + spsa.params.len(),
                cells.len()
            )));
        }
        let k: u64 = cells[0]
            .parse()
            .map_err(|_| bad(format!("iteration '{}' is not a whole number", cells[0])))?;
        if k != history.len() as u64 {
            return Err(bad(format!(
                "iteration {k} where {} was expected",
                history.len()
            )));
        }
        if k > spsa.gains.iterations {
            return Err(bad(format!(
                "iteration {k} is beyond the run's {} iterations",
                spsa.gains.iterations
            )));
        }
        let mut theta = Vec::with_capacity(spsa.params.len());
        for (p, cell) in spsa.params.iter().zip(&cells[6..]) {
            let v: f64 = cell
                .parse()
                .map_err(|_| bad(format!("{}: '{cell}' is not a number", p.name)))?;
            if !(p.min..=p.max).contains(&v) {
                return Err(bad(format!(
                    "{}: {v} is outside [{}, {}]",
                    p.name, p.min, p.max
                )));
            }
            theta.push(v);
        }
        history.push(theta);
    }
    Ok((history, complete.len() as u64))
}

/// Real games: the base engine with the tuned parameters overridden, per-move limits and
/// openings as in the arena.
pub struct EngineGames {
    /// The base engine (level time caps dropped, as in the arena).
    pub base: EngineConfig,
    /// Table indices of the tuned parameters.
    pub indices: Vec<usize>,
    /// Opening per pair index.
    pub openings: Openings,
    /// Rules, limits, adjudication.
    pub settings: PlaySettings,
}

/// Openings of a tuning run: generated on demand, or a file's positions (shuffled by the seed)
/// used in turn, starting over when the file runs out.
pub enum Openings {
    /// Generated as the arena does.
    Generated(OpeningBook),
    /// A file's openings, cycled.
    Cycled(Vec<String>),
}

impl Openings {
    /// The openings for `source` and `seed`; `count` is the number of pairs of the run.
    pub fn new(source: &OpeningSource, seed: u64, count: u64) -> anyhow::Result<Openings> {
        match source {
            OpeningSource::Generated { .. } => {
                let book = book_for(source, None, count as usize, 1, seed)?;
                Ok(Openings::Generated(book))
            }
            OpeningSource::File { path, content_hash } => {
                let (list, hash) = read_opening_file(path)?;
                if &hash != content_hash {
                    bail!(
                        "opening file {} changed since the run started (content hash {hash}, manifest says {content_hash})",
                        path.display()
                    );
                }
                if list.is_empty() {
                    bail!("opening file {} holds no position", path.display());
                }
                let n = list.len();
                let book = book_for(source, Some(&list), n, n, seed)?;
                let all = (0..n).map(|i| book.get(i)).collect::<Result<Vec<_>, _>>()?;
                Ok(Openings::Cycled(all))
            }
        }
    }

    /// The opening of pair `pair`.
    pub fn get(&self, pair: u64) -> anyhow::Result<String> {
        match self {
            Openings::Generated(book) => Ok(book.get(pair as usize)?),
            Openings::Cycled(list) => Ok(list[(pair % list.len() as u64) as usize].clone()),
        }
    }
}

impl EngineGames {
    fn config(&self, name: &str, values: &[i32]) -> EngineConfig {
        let mut c = self.base.clone();
        c.name = name.to_string();
        for (&i, &v) in self.indices.iter().zip(values) {
            c.params.set_clamped(i, v);
        }
        c
    }
}

impl PlayGame for EngineGames {
    fn play(&self, job: &GameJob) -> anyhow::Result<f64> {
        let opening = self.openings.get(job.pair)?;
        let plus = PlayerSpec::Engine(Arc::new(self.config("theta+", &job.plus)));
        let minus = PlayerSpec::Engine(Arc::new(self.config("theta-", &job.minus)));
        let mut plus = plus.create("theta+");
        let mut minus = minus.create("theta-");
        let spec = GameSpec {
            index: job.game,
            pair: job.pair,
            pairing: 0,
            red: usize::from(!job.plus_is_red),
            black: usize::from(job.plus_is_red),
            seed: job.seed,
        };
        let record = if job.plus_is_red {
            play_scheduled(&spec, &opening, &mut *plus, &mut *minus, &self.settings)
        } else {
            play_scheduled(&spec, &opening, &mut *minus, &mut *plus, &self.settings)
        };
        let red = match record.result {
            GameResult::RedWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWins => 0.0,
        };
        Ok(if job.plus_is_red { red } else { 1.0 - red })
    }
}

/// Everything that determines a tuning run (stored in manifest.toml).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaConfig {
    /// Always `tune spsa`.
    pub command: String,
    /// Run seed (a string: TOML integers are signed 64-bit).
    pub seed: String,
    /// `N`.
    pub iterations: u64,
    /// Game pairs per iteration.
    pub pairs_per_iteration: u64,
    /// Evaluation lag in iterations (see the module docs).
    pub lag: u64,
    /// The base engine spec (`default`, a level, or an engine file).
    pub base: String,
    /// FNV-1a of the base engine file, when the base is a file.
    pub base_hash: Option<String>,
    /// `asian` or `check-only`.
    pub rules: String,
    /// The judge's move limit.
    pub move_limit: u16,
    /// Draw games that reach this many plies.
    pub ply_cap: Option<u32>,
    /// `A`.
    pub big_a: f64,
    /// `alpha`.
    pub alpha: f64,
    /// `gamma`.
    pub gamma: f64,
    /// Per-move limit (nodes or depth).
    pub limit: LimitSpec,
    /// Opening source.
    pub openings: OpeningSource,
    /// The tuned parameters.
    pub params: Vec<SpsaParam>,
}

/// `manifest.toml` of a tuning run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaManifest {
    /// chuhan version that made the run.
    pub chuhan_version: String,
    /// Git commit of the source tree, or "unknown".
    pub git_commit: String,
    /// "true", "false" or "unknown".
    pub git_dirty: String,
    /// The engine's bench signature of this build.
    pub bench_signature: String,
    /// When the run was created (seconds since the Unix epoch).
    pub created_unix: u64,
    /// The configuration.
    pub config: SpsaConfig,
}

impl SpsaConfig {
    /// The SPSA settings of this configuration.
    pub fn spsa(&self) -> anyhow::Result<Spsa> {
        Ok(Spsa {
            params: self.params.clone(),
            gains: Gains {
                iterations: self.iterations,
                big_a: self.big_a,
                alpha: self.alpha,
                gamma: self.gamma,
            },
            pairs_per_iteration: self.pairs_per_iteration,
            lag: self.lag,
            seed: self
                .seed
                .parse()
                .with_context(|| format!("seed '{}' is not a whole number", self.seed))?,
        })
    }
}

/// The base engine of a spec (as `--player` takes it, overrides included), and the hash of its
/// engine file if it names one.
fn resolve_base(spec: &str) -> anyhow::Result<(EngineConfig, Option<String>)> {
    let config =
        resolve_engine(spec, &builtin_levels()).with_context(|| format!("--base {spec}"))?;
    // An engine file (possibly followed by `:key=value` overrides) is fingerprinted so that a
    // resumed run notices a changed file.
    let path = Path::new(spec.split_once(':').map_or(spec, |(file, _)| file.trim()));
    let hash = if path.is_file() {
        Some(fnv1a_hex(&std::fs::read(path).with_context(|| {
            format!("cannot read {}", path.display())
        })?))
    } else {
        None
    };
    Ok((config, hash))
}

/// Builds the configuration from the command line (validated; nothing written).
pub fn config_from_args(args: &SpsaArgs) -> anyhow::Result<SpsaConfig> {
    let base = args.base.clone().unwrap_or_else(|| "default".into());
    let (base_config, base_hash) = resolve_base(&base)?;
    let params = match (&args.params_file, &args.params) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read parameter file {}", path.display()))?;
            parse_param_file(&text, &path.display().to_string())?
        }
        (None, Some(list)) => params_from_names(list, &base_config.params)?,
        (None, None) => bail!("give --params-file FILE or --params name,name"),
    };
    let iterations = args.iterations.unwrap_or(DEFAULT_ITERATIONS);
    if iterations == 0 {
        bail!("--iterations must be at least 1");
    }
    let pairs_per_iteration = args.pairs_per_iteration.unwrap_or(1);
    if pairs_per_iteration == 0 {
        bail!("--pairs-per-iteration must be at least 1");
    }
    let limit = match (args.nodes, args.depth) {
        (_, Some(0)) => bail!("--depth must be at least 1"),
        (_, Some(d)) => LimitSpec::Depth(d),
        (Some(0), _) => bail!("--nodes must be at least 1"),
        (n, None) => LimitSpec::Nodes(n.unwrap_or(DEFAULT_NODES)),
    };
    let openings = match &args.openings {
        Some(path) => {
            let (list, content_hash) = read_opening_file(path)?;
            if list.is_empty() {
                bail!("opening file {} holds no position", path.display());
            }
            OpeningSource::File {
                path: path.clone(),
                content_hash,
            }
        }
        None => {
            let plies = args
                .opening_plies
                .unwrap_or(crate::commands::tournament::DEFAULT_OPENING_PLIES);
            if plies == 0 {
                bail!("--opening-plies must be at least 1");
            }
            OpeningSource::Generated { plies }
        }
    };
    let rules: RuleSet = args
        .rules
        .as_deref()
        .unwrap_or("asian")
        .parse()
        .map_err(|e: chuhan_engine::UnknownRuleSet| anyhow!("--rules: {e}"))?;
    let move_limit = args.move_limit.unwrap_or(GameConfig::default().move_limit);
    if move_limit == 0 {
        bail!("--move-limit must be at least 1");
    }
    if args.ply_cap == Some(0) {
        bail!("--ply-cap must be at least 1");
    }
    let gains = Gains::new(iterations);
    Ok(SpsaConfig {
        command: "tune spsa".into(),
        seed: args
            .seed
            .unwrap_or(crate::commands::tournament::DEFAULT_SEED)
            .to_string(),
        iterations,
        pairs_per_iteration,
        lag: args.lag.unwrap_or(0),
        base,
        base_hash,
        rules: rules.to_string(),
        move_limit,
        ply_cap: args.ply_cap,
        big_a: gains.big_a,
        alpha: gains.alpha,
        gamma: gains.gamma,
        limit,
        openings,
        params,
    })
}

/// Writes `tuned.toml`: the base engine's settings with the final theta, rounded.
pub fn tuned_toml(base: &EngineConfig, spsa: &Spsa, theta: &[f64], comment: &str) -> String {
    let mut params = base.params.clone();
    for (p, &t) in spsa.params.iter().zip(theta) {
        let i = params::index_of(&p.name).expect("validated name");
        params.set_clamped(i, t.clamp(p.min, p.max).round() as i32);
    }
    let mut s = String::new();
    for line in comment.lines() {
        let _ = writeln!(s, "# {line}");
    }
    let _ = writeln!(s, "name = \"spsa-tuned\"");
    let _ = writeln!(s, "tt_mb = {}", base.options.tt_mb);
    let builtin = builtin_levels();
    if let Some(level) = &base.level {
        if builtin.contains(level) {
            let _ = writeln!(s, "level = \"{}\"", level.name);
        }
    }
    let o = &base.options;
    let _ = writeln!(
        s,
        "\n[search]\nnull_move = {}\nlmr = {}\ncheck_extension = {}\nfutility = {}",
        o.null_move, o.lmr, o.check_extension, o.futility
    );
    if let Some(level) = base.level.as_ref().filter(|l| !builtin.contains(l)) {
        let _ = writeln!(s, "\n[level]");
        let opt = |s: &mut String, k: &str, v: Option<String>| {
            if let Some(v) = v {
                let _ = writeln!(s, "{k} = {v}");
            }
        };
        opt(&mut s, "depth", level.depth.map(|v| v.to_string()));
        opt(&mut s, "nodes", level.nodes.map(|v| v.to_string()));
        opt(
            &mut s,
            "time_ms",
            level.time.map(|t| t.as_millis().max(1).to_string()),
        );
        let _ = writeln!(s, "margin = {}", level.margin);
        let _ = writeln!(s, "random_rate = {:?}", level.random_rate);
        let _ = writeln!(s, "opening_plies = {}", level.opening_plies);
        opt(
            &mut s,
            "opening_depth",
            level.opening_depth.map(|v| v.to_string()),
        );
        let _ = writeln!(s, "opening_margin = {}", level.opening_margin);
    }
    // Every tuned parameter (even one back at its default) and every other base override.
    let _ = writeln!(s, "\n[params]");
    for (i, def) in params::table().iter().enumerate() {
        let tuned = spsa.params.iter().any(|p| p.name == def.name);
        if tuned || params.get(i) != def.default {
            let _ = writeln!(s, "\"{}\" = {}", def.name, params.get(i));
        }
    }
    s
}

/// Draws theta per parameter over the iterations, each normalised to its [min, max].
pub fn write_svg(path: &Path, spsa: &Spsa, history: &[Vec<f64>]) -> anyhow::Result<()> {
    use plotters::prelude::*;
    let svg_err = |e: &dyn std::fmt::Display| anyhow!("{}: {e}", path.display());
    let root = SVGBackend::new(path, (960, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| svg_err(&e))?;
    let last = (history.len().max(2) - 1) as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("SPSA: theta over {} iterations", history.len() - 1),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0f64..last, 0f64..1f64)
        .map_err(|e| svg_err(&e))?;
    chart
        .configure_mesh()
        .x_desc("iteration")
        .y_desc("(theta - min) / (max - min)")
        .draw()
        .map_err(|e| svg_err(&e))?;
    for (i, p) in spsa.params.iter().enumerate() {
        let span = (p.max - p.min).max(f64::MIN_POSITIVE);
        let color = Palette99::pick(i).to_rgba();
        let points = history
            .iter()
            .enumerate()
            .map(|(k, t)| (k as f64, (t[i] - p.min) / span));
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(1)))
            .map_err(|e| svg_err(&e))?
            .label(p.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| svg_err(&e))?;
    root.present().map_err(|e| svg_err(&e))?;
    Ok(())
}

/// Progress on stderr: a bar on a terminal, a plain line every 5 s otherwise.
struct Progress {
    bar: Option<ProgressBar>,
    plain: bool,
    last: Instant,
    start: Instant,
    total: u64,
    resumed: u64,
    wdl: [u64; 3],
}

impl Progress {
    fn new(total: u64, resumed: u64, quiet: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && terminal).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} iterations  {msg}  ETA {eta}")
                    .expect("valid template"),
            );
            bar.set_position(resumed);
            bar.reset_eta();
            bar
        });
        let plain = !quiet && !terminal;
        if plain && resumed > 0 {
            eprintln!("resuming: {resumed} of {total} iterations already done");
        }
        Progress {
            bar,
            plain,
            last: Instant::now(),
            start: Instant::now(),
            total,
            resumed,
            wdl: [0; 3],
        }
    }

    fn status(&self, row: &IterationRow, spsa: &Spsa) -> String {
        let mut s = format!("W-D-L {}-{}-{}", self.wdl[0], self.wdl[1], self.wdl[2]);
        for (p, t) in spsa.params.iter().zip(&row.theta).take(4) {
            let _ = write!(s, "  {}={t:.1}", p.name);
        }
        if spsa.params.len() > 4 {
            s.push_str("  ...");
        }
        s
    }

    fn on_row(&mut self, row: &IterationRow, spsa: &Spsa) {
        self.wdl[0] += row.wins;
        self.wdl[1] += row.draws;
        self.wdl[2] += row.losses;
        if let Some(bar) = &self.bar {
            bar.set_position(row.iteration);
            bar.set_message(self.status(row, spsa));
        }
        if self.plain
            && (self.last.elapsed() >= Duration::from_secs(5) || row.iteration == self.total)
        {
            self.last = Instant::now();
            let rate = (row.iteration - self.resumed) as f64
                / self.start.elapsed().as_secs_f64().max(1e-9);
            eprintln!(
                "iteration {}/{}  {}  {rate:.2} it/s",
                row.iteration,
                self.total,
                self.status(row, spsa)
            );
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Runs `chuhan tune spsa`.
pub fn run(args: &SpsaArgs) -> anyhow::Result<u8> {
    let given = args.params_file.is_some() || args.params.is_some();
    let (config, dir, resumed) = match &args.resume {
        Some(dir) => {
            let mpath = dir.join("manifest.toml");
            let text = std::fs::read_to_string(&mpath)
                .with_context(|| format!("--resume: cannot read {}", mpath.display()))?;
            let manifest: SpsaManifest =
                toml::from_str(&text).map_err(|e| anyhow!("{}: {e}", mpath.display()))?;
            if given {
                let from_args = config_from_args(args)?;
                if from_args != manifest.config {
                    bail!(
                        "--resume {}: the command line differs from the run's manifest.toml; resume with the same options, or give only --resume",
                        dir.display()
                    );
                }
            }
            (manifest.config, dir.clone(), true)
        }
        None => {
            let config = config_from_args(args)?;
            let dir = match &args.out {
                Some(d) => {
                    ResultsDir::check_new(d)?;
                    d.clone()
                }
                None => default_out_dir("spsa"),
            };
            (config, dir, false)
        }
    };
    let spsa = config.spsa()?;
    let (full_base, hash) = resolve_base(&config.base)?;
    if hash != config.base_hash {
        bail!(
            "the base engine file {} changed since the run started",
            config.base
        );
    }
    let mut base = full_base.clone();
    if let Some(level) = base.level.as_mut() {
        level.time = None;
    }
    let indices: Vec<usize> = spsa
        .params
        .iter()
        .map(|p| params::index_of(&p.name).ok_or_else(|| anyhow!("unknown parameter '{}'", p.name)))
        .collect::<anyhow::Result<_>>()?;
    if args.concurrency == Some(0) {
        bail!("--concurrency must be at least 1");
    }
    let concurrency = args.concurrency.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let total_pairs = spsa.gains.iterations * spsa.pairs_per_iteration;
    let games = EngineGames {
        base: base.clone(),
        indices,
        openings: Openings::new(&config.openings, spsa.seed, total_pairs)?,
        settings: PlaySettings {
            game: GameConfig {
                rules: config.rules.parse().map_err(anyhow::Error::msg)?,
                move_limit: config.move_limit,
            },
            limit: config.limit,
            adjudication: Adjudication {
                ply_cap: config.ply_cap,
                ..Adjudication::default()
            },
        },
    };

    // Open the results: a new folder, or the resumed spsa.csv cut back to its complete lines.
    let csv_path = dir.join("spsa.csv");
    let history = if resumed {
        let (history, complete_len) = read_csv(&csv_path, &spsa)?;
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&csv_path)
            .with_context(|| format!("cannot open {}", csv_path.display()))?;
        file.set_len(complete_len)
            .with_context(|| format!("cannot truncate {}", csv_path.display()))?;
        history
    } else {
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let (git_commit, git_dirty) = git_state();
        let manifest = SpsaManifest {
            chuhan_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit,
            git_dirty,
            bench_signature: chuhan_engine::bench::SIGNATURE.to_string(),
            created_unix: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            config: config.clone(),
        };
        let mpath = dir.join("manifest.toml");
        std::fs::write(&mpath, toml::to_string(&manifest)?)
            .with_context(|| format!("cannot write {}", mpath.display()))?;
        std::fs::write(&csv_path, format!("{}\n", csv_header(&spsa.params)))
            .with_context(|| format!("cannot write {}", csv_path.display()))?;
        vec![spsa.start()]
    };
    let mut csv = std::fs::OpenOptions::new()
        .append(true)
        .open(&csv_path)
        .with_context(|| format!("cannot open {}", csv_path.display()))?;

    let already = history.len() as u64 - 1;
    let mut progress = Progress::new(spsa.gains.iterations, already, args.quiet);
    let start = Instant::now();
    let mut on_row = |row: &IterationRow| -> anyhow::Result<()> {
        writeln!(csv, "{}", csv_line(row))
            .and_then(|()| csv.flush())
            .with_context(|| format!("cannot write {}", csv_path.display()))?;
        progress.on_row(row, &spsa);
        Ok(())
    };
    let outcome = drive(&spsa, history, &games, concurrency, &mut on_row);
    progress.finish();
    let history = outcome.map_err(|e| {
        anyhow!(
            "{e:#}; the iterations completed so far are kept in {}, continue with --resume {}",
            csv_path.display(),
            dir.display()
        )
    })?;
    let played = 2 * spsa.pairs_per_iteration * (history.len() as u64 - 1 - already);
    let seconds = start.elapsed().as_secs_f64();

    let theta = history.last().expect("non-empty").clone();
    write_svg(&dir.join("spsa.svg"), &spsa, &history)?;
    let limit_flag = match config.limit {
        LimitSpec::Depth(d) => format!("--depth {d}"),
        LimitSpec::Nodes(n) => format!("--nodes {n}"),
        other => format!("# limit {other}"),
    };
    let tuned_path = dir.join("tuned.toml");
    let sprt = format!(
        "chuhan sprt --base {} --test {} --elo0 0 --elo1 5 {limit_flag}",
        config.base,
        tuned_path.display()
    );
    let comment = format!(
        "Made by chuhan tune spsa: {} iterations from base '{}', seed {}.\nAccept only after an SPRT against the start values:\n  {sprt}",
        spsa.gains.iterations, config.base, config.seed
    );
    let text = tuned_toml(&full_base, &spsa, &theta, &comment);
    // The file must load as an engine config; a failure here is a bug, not bad input.
    parse_engine_config(&text, "tuned.toml", "spsa-tuned", &builtin_levels())
        .context("the tuned configuration does not load")?;
    std::fs::write(&tuned_path, text)
        .with_context(|| format!("cannot write {}", tuned_path.display()))?;

    let rows: Vec<Vec<String>> = spsa
        .params
        .iter()
        .zip(&theta)
        .map(|(p, t)| {
            vec![
                p.name.clone(),
                format!("{}", p.start),
                format!("{t:.3}"),
                format!("{}", t.round() as i64),
                format!("{}", p.min),
                format!("{}", p.max),
            ]
        })
        .collect();
    print!(
        "{}",
        table(
            &["parameter", "start", "theta", "tuned", "min", "max"],
            &rows
        )
    );
    println!();
    println!(
        "{} iterations; played {played} games in {seconds:.1} s on {concurrency} workers; results in {}",
        spsa.gains.iterations,
        dir.display()
    );
    println!("accept the tuned values only after an SPRT against the start values:");
    println!("  {sprt}");
    Ok(EXIT_OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, start: f64, min: f64, max: f64, c_end: f64, r_end: f64) -> SpsaParam {
        SpsaParam {
            name: name.into(),
            start,
            min,
            max,
            c_end,
            r_end,
        }
    }

    fn spsa(params: Vec<SpsaParam>, iterations: u64, lag: u64, seed: u64) -> Spsa {
        Spsa {
            params,
            gains: Gains::new(iterations),
            pairs_per_iteration: 1,
            lag,
            seed,
        }
    }

    #[test]
    fn gains_match_hand_computed_values() {
        // N = 1000, c_end = 10, r_end = 0.002; values computed independently (Python).
        let g = Gains::new(1000);
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1.0);
        assert!(close(g.big_a, 100.0));
        assert!(close(g.c(10.0), 20.09092812608728));
        assert!(close(g.a(10.0, 0.002), 13.550283827094189));
        assert!(close(g.c_k(10.0, 1), 20.09092812608728));
        assert!(close(g.r_k(10.0, 0.002, 1), 0.0020861566909309405));
        assert!(close(g.c_k(10.0, 10), 15.922087270511701));
        assert!(close(g.r_k(10.0, 0.002, 10), 0.0031552225393986976));
        assert!(close(g.c_k(10.0, 500), 10.725166168179424));
        assert!(close(g.r_k(10.0, 0.002, 500), 0.0025043399425713608));
        // At the last iteration the gains are exactly the `_end` values.
        assert!(close(g.c_k(10.0, 1000), 10.0));
        assert!(close(g.r_k(10.0, 0.002, 1000), 0.002));
    }

    #[test]
    fn stochastic_rounding_is_unbiased_and_seeded() {
        for x in [3.3, -2.75, 0.5, 7.0] {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
            let n = 200_000;
            let sum: i64 = (0..n).map(|_| stochastic_round(x, rng.gen())).sum();
            let mean = sum as f64 / n as f64;
            assert!((mean - x).abs() < 0.005, "x {x}: mean {mean}");
        }
        assert_eq!(stochastic_round(7.0, 0.999), 7);
        assert_eq!(stochastic_round(-2.5, 0.4), -3);
        // The perturbation (flips and rounding) is a function of the seed and k alone.
        let s = spsa(
            vec![
                param("material.horse", 430.3, 300.0, 600.0, 15.0, 0.002),
                param("eval.tempo", 3.5, -20.0, 40.0, 3.0, 0.002),
            ],
            100,
            0,
            5,
        );
        let theta = s.start();
        assert_eq!(s.perturb(7, &theta), s.perturb(7, &theta));
        let other = Spsa {
            seed: 6,
            ..s.clone()
        };
        let differ = (1..20).any(|k| s.perturb(k, &theta) != other.perturb(k, &theta));
        assert!(differ);
        // Rounded values scatter around theta +- c_k delta.
        let mut sum = 0.0;
        for k in 1..=2000 {
            let p = s.perturb(k, &theta);
            sum += (p.plus[0] - p.minus[0]) as f64 / p.delta[0] as f64 / (2.0 * s.c_k(0, k));
        }
        assert!((sum / 2000.0 - 1.0).abs() < 0.02, "{}", sum / 2000.0);
    }

    #[test]
    fn clipping_respects_min_and_max() {
        let s = spsa(
            vec![
                param("eval.tempo", 39.5, -20.0, 40.0, 30.0, 0.5),
                param("search.null_reduction", 1.0, 1.0, 5.0, 3.0, 0.5),
            ],
            50,
            0,
            1,
        );
        for k in 1..=50 {
            let p = s.perturb(k, &s.start());
            for (i, q) in s.params.iter().enumerate() {
                for v in [p.plus[i], p.minus[i]] {
                    assert!((q.min..=q.max).contains(&(v as f64)), "{v}");
                }
            }
            for result in [-1e6, 1e6] {
                let t = s.update(k, &s.start(), &p.delta, result);
                for (i, q) in s.params.iter().enumerate() {
                    assert!((q.min..=q.max).contains(&t[i]));
                }
                assert!(t
                    .iter()
                    .zip(&s.params)
                    .any(|(v, q)| *v == q.min || *v == q.max));
            }
        }
        // A plain update: theta + R_k c_k (W - L) delta.
        let t = s.update(10, &[0.0, 3.0], &[1, -1], 0.5);
        assert!((t[0] - 0.5 * s.r_k(0, 10) * s.c_k(0, 10)).abs() < 1e-12);
        assert!((t[1] - (3.0 - 0.5 * s.r_k(1, 10) * s.c_k(1, 10))).abs() < 1e-12);
        assert!(t[0] < 40.0 && t[1] > 1.0, "{t:?}");
    }

    /// A simulated objective: a quadratic bowl with its optimum at `optimum`; the side nearer
    /// to it wins more often (logistic in the difference of the objective), draws happen.
    struct Bowl {
        optimum: Vec<f64>,
        scale: Vec<f64>,
    }

    impl Bowl {
        fn value(&self, v: &[i32]) -> f64 {
            v.iter()
                .zip(&self.optimum)
                .zip(&self.scale)
                .map(|((&x, o), s)| -((x as f64 - o) / s).powi(2))
                .sum()
        }
    }

    impl PlayGame for Bowl {
        fn play(&self, job: &GameJob) -> anyhow::Result<f64> {
            let diff = self.value(&job.plus) - self.value(&job.minus);
            let p_plus = 1.0 / (1.0 + (-2.0 * diff).exp());
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(job.seed);
            if rng.gen::<f64>() < 0.3 {
                return Ok(0.5);
            }
            Ok(if rng.gen::<f64>() < p_plus { 1.0 } else { 0.0 })
        }
    }

    fn bowl_run() -> (Spsa, Bowl) {
        let s = spsa(
            vec![
                param("material.horse", 340.0, 300.0, 600.0, 15.0, 0.02),
                param("material.cannon", 560.0, 300.0, 600.0, 15.0, 0.02),
            ],
            2000,
            0,
            3,
        );
        let bowl = Bowl {
            optimum: vec![480.0, 400.0],
            scale: vec![100.0, 100.0],
        };
        (s, bowl)
    }

    fn distance(theta: &[f64], optimum: &[f64]) -> f64 {
        theta
            .iter()
            .zip(optimum)
            .map(|(t, o)| (t - o).powi(2))
            .sum::<f64>()
            .sqrt()
    }

    #[test]
    fn spsa_moves_theta_toward_the_optimum() {
        let (s, bowl) = bowl_run();
        let mut rows = 0;
        let history = drive(&s, vec![s.start()], &bowl, 1, &mut |_| {
            rows += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(rows, 2000);
        let before = distance(&s.start(), &bowl.optimum);
        let after = distance(history.last().unwrap(), &bowl.optimum);
        assert!(after < 0.1 * before, "distance {before:.1} -> {after:.1}");
    }

    #[test]
    fn trajectory_is_the_same_at_any_concurrency_and_after_resume() {
        let (mut s, bowl) = bowl_run();
        s.gains = Gains::new(300);
        s.lag = 2;
        s.pairs_per_iteration = 2;
        let all = |conc| drive(&s, vec![s.start()], &bowl, conc, &mut |_| Ok(())).unwrap();
        let one = all(1);
        assert_eq!(one.len(), 301);
        assert_eq!(one, all(3));
        assert_eq!(one, all(8));
        // Resume after 120 iterations: the rest equals the uninterrupted run.
        let mut rows = Vec::new();
        let resumed = drive(&s, one[..=120].to_vec(), &bowl, 4, &mut |r| {
            rows.push(r.clone());
            Ok(())
        })
        .unwrap();
        assert_eq!(resumed, one);
        assert_eq!(rows.first().map(|r| r.iteration), Some(121));
        // A different lag is a different (but still deterministic) trajectory.
        let lag0 = Spsa {
            lag: 0,
            ..s.clone()
        };
        let other = drive(&lag0, vec![s.start()], &bowl, 3, &mut |_| Ok(())).unwrap();
        assert_ne!(other, one);
    }

    /// Panics in one iteration's games; wins every other game.
    struct FailAt(u64);

    impl PlayGame for FailAt {
        fn play(&self, job: &GameJob) -> anyhow::Result<f64> {
            assert_ne!(job.iteration, self.0, "boom");
            Ok(1.0)
        }
    }

    #[test]
    fn a_failing_game_stops_the_run_and_keeps_earlier_rows() {
        let (mut s, _) = bowl_run();
        s.gains = Gains::new(50);
        let mut rows = 0;
        let out = drive(&s, vec![s.start()], &FailAt(10), 3, &mut |_| {
            rows += 1;
            Ok(())
        });
        let err = out.unwrap_err().to_string();
        assert!(err.contains("panicked"), "{err}");
        assert_eq!(rows, 9);
        // A failure to record a row stops the run too.
        let mut rows = 0;
        let out = drive(&s, vec![s.start()], &FailAt(0), 2, &mut |r| {
            rows += 1;
            anyhow::ensure!(r.iteration < 5, "disk full");
            Ok(())
        });
        assert!(out.unwrap_err().to_string().contains("disk full"));
        assert_eq!(rows, 5);
    }

    #[test]
    fn csv_round_trips_theta_exactly() {
        let (mut s, bowl) = bowl_run();
        s.gains = Gains::new(40);
        let dir = std::env::temp_dir().join(format!("chuhan-spsa-csv-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("spsa.csv");
        let mut text = format!("{}\n", csv_header(&s.params));
        let history = drive(&s, vec![s.start()], &bowl, 2, &mut |r| {
            text.push_str(&csv_line(r));
            text.push('\n');
            Ok(())
        })
        .unwrap();
        // A truncated last line is ignored.
        std::fs::write(&path, format!("{text}41,0.9")).unwrap();
        let (read, len) = read_csv(&path, &s).unwrap();
        assert_eq!(read, history);
        assert_eq!(len, text.len() as u64);
        std::fs::write(&path, text.replace("\n3,", "\n4,")).unwrap();
        let err = read_csv(&path, &s).unwrap_err().to_string();
        assert!(
            err.contains("spsa.csv:4") && err.contains("iteration 4"),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn param_files_parse_and_errors_name_line_and_field() {
        let text = "# tuned\nmaterial.horse, 430, 300, 600, 15, 0.002  # horse\n\neval.tempo,3.5,-20,40,3,0.002\n";
        let p = parse_param_file(text, "p.txt").unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[1], param("eval.tempo", 3.5, -20.0, 40.0, 3.0, 0.002));
        let err = |body: &str| parse_param_file(body, "p.txt").unwrap_err();
        let e = err("material.horse, 430, 300, 600, 15, 0.002\nmaterial.queen, 1, 0, 2, 1, 0.002");
        assert_eq!((e.line, e.field), (2, "name"));
        assert!(e.to_string().starts_with("p.txt:2: field 'name'"), "{e}");
        assert_eq!(
            err("material.horse, 700, 300, 600, 15, 0.002").field,
            "start"
        );
        assert_eq!(err("material.horse, 430, 600, 300, 15, 0.002").field, "min");
        assert_eq!(
            err("material.horse, 430, 300, 600, 0, 0.002").field,
            "c_end"
        );
        assert_eq!(err("material.horse, 430, 300, 600, 15, -1").field, "r_end");
        assert_eq!(err("material.horse, 430, 300, 900, 15, 0.002").field, "max");
        assert_eq!(
            err("material.horse, 430, 300.5, 600, 15, 0.002").field,
            "min"
        );
        assert_eq!(err("material.horse, x, 300, 600, 15, 0.002").field, "start");
        assert_eq!(err("material.horse, 430, 300, 600, 15").field, "line");
        assert_eq!(err("# nothing\n").field, "line");
        let e = err("eval.tempo,3,-20,40,3,0.002\neval.tempo,3,-20,40,3,0.002");
        assert_eq!((e.line, e.field), (2, "name"));
    }

    #[test]
    fn params_by_name_take_the_table() {
        let p = params_from_names("material.horse, eval.tempo", &Params::default()).unwrap();
        assert_eq!(
            p[0],
            param("material.horse", 490.0, 300.0, 600.0, 15.0, 0.002)
        );
        assert_eq!(p[1], param("eval.tempo", 0.0, -20.0, 40.0, 3.0, 0.002));
        assert!(params_from_names("material.queen", &Params::default()).is_err());
        assert!(params_from_names("", &Params::default()).is_err());
    }

    #[test]
    fn tuned_toml_loads_with_the_tuned_values() {
        let s = spsa(
            vec![param("material.horse", 490.0, 300.0, 600.0, 15.0, 0.002)],
            10,
            0,
            1,
        );
        let mut base = resolve_engine(
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../configs/engines/mobility.toml"
            ),
            &[],
        )
        .unwrap();
        base.options.lmr = false;
        let levels = builtin_levels();
        base.level = Some(levels[1].clone());
        let text = tuned_toml(&base, &s, &[441.6], "a comment\nsecond line");
        let c = parse_engine_config(&text, "tuned.toml", "x", &levels).unwrap();
        assert_eq!(c.params.value("material.horse"), Ok(442));
        assert_eq!(c.params.value("eval.mobility.horse"), Ok(4));
        assert!(!c.options.lmr);
        assert_eq!(c.level, base.level);
        // A custom level is written out as a table.
        let mut custom = levels[0].clone();
        custom.name = "mine".into();
        custom.margin = 33;
        base.level = Some(custom);
        let text = tuned_toml(&base, &s, &[300.2], "");
        let c = parse_engine_config(&text, "tuned.toml", "x", &levels).unwrap();
        assert_eq!(c.level.as_ref().map(|l| l.margin), Some(33));
        assert_eq!(c.params.value("material.horse"), Ok(300));
    }
}
