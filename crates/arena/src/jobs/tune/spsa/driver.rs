//! The iteration loop (deterministic at any concurrency, with the lag rule) and the games it
//! plays: built-in engine games ([`EngineGames`]), external engine games with tuned options
//! ([`OptionGames`]), or any [`PlayGame`].

use super::gains::{Perturbation, Spsa};
use super::parameters::option_name;
use super::SpsaError;
use crate::play::any::GameKind;
use crate::play::game::PlaySettings;
use crate::play::openings::{book_for, OpeningBook, OpeningSource};
use crate::play::pgn::PgnFile;
use crate::play::player::uci::ExternalEngine;
use crate::play::player::PlayerSpec;
use crate::play::runner::play_scheduled;
use crate::play::schedule::{game_seed, GameSpec};
use chuhan_engine::chess::ChessConfig;
use chuhan_engine::{EngineConfig, GameResult};
use std::collections::BTreeMap;
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};

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
    fn play(&self, job: &GameJob) -> Result<f64, SpsaError>;
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
    on_row: &mut dyn FnMut(&IterationRow) -> Result<(), SpsaError>,
) -> Result<Vec<Vec<f64>>, SpsaError> {
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
    let (res_tx, res_rx) = channel::<(u64, usize, Result<f64, SpsaError>)>();
    let mut error: Option<SpsaError> = None;
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
                        .unwrap_or(Err(SpsaError::Panicked(job.game)));
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
                && !crate::interrupt::requested()
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
        // Stopped by a request before the last iteration: every complete one was reported.
        None if (history.len() as u64) <= n => Err(crate::interrupt::check()
            .err()
            .map_or(SpsaError::EndedEarly, Into::into)),
        None => Ok(history),
    }
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
    /// games.pgn, when the run writes one: each game's record appended as it ends.
    pub pgn: Option<Mutex<PgnFile>>,
}

/// Openings of a tuning run: the arena's book (generated on demand, or a file's positions
/// shuffled by the seed and used again when the run needs more pairs than the file holds).
pub struct Openings(OpeningBook);

impl Openings {
    /// The openings for `source` and `seed`; `count` is the number of pairs of the run.
    pub fn new(source: &OpeningSource, seed: u64, count: u64) -> Result<Openings, SpsaError> {
        Openings::for_game(source, seed, count, GameKind::Xiangqi)
    }

    /// [`Openings::new`] for a run of `game` (its start position, moves and FEN).
    pub fn for_game(
        source: &OpeningSource,
        seed: u64,
        count: u64,
        game: GameKind,
    ) -> Result<Openings, SpsaError> {
        let list = source.read_checked(game)?;
        if let (OpeningSource::File { path, .. }, Some(l)) = (source, &list) {
            if l.is_empty() {
                return Err(SpsaError::EmptyOpenings(path.clone()));
            }
        }
        Ok(Openings(book_for(
            source,
            list.as_deref(),
            count as usize,
            1,
            seed,
            game,
        )?))
    }

    /// The opening of pair `pair`.
    pub fn get(&self, pair: u64) -> Result<String, SpsaError> {
        Ok(self.0.get(pair as usize)?)
    }

    /// When the file's openings are used more than once, a note saying so.
    pub fn reuse_note(&self) -> Option<&str> {
        self.0.reuse_note()
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
    fn play(&self, job: &GameJob) -> Result<f64, SpsaError> {
        let opening = self.openings.get(job.pair)?;
        let plus = PlayerSpec::Engine(Arc::new(self.config("theta+", &job.plus)));
        let minus = PlayerSpec::Engine(Arc::new(self.config("theta-", &job.minus)));
        play_pair_game(
            job,
            &opening,
            &plus,
            &minus,
            &self.settings,
            self.pgn.as_ref(),
        )
    }
}

/// Real chess games: the base chess engine with the tuned evaluation parameters overridden.
pub struct ChessGames {
    /// The base chess engine (level time caps dropped, as in the arena).
    pub base: ChessConfig,
    /// The tuned parameters' names in the chess evaluation table, in parameter order.
    pub names: Vec<String>,
    /// Opening per pair index.
    pub openings: Openings,
    /// Rules, limits, adjudication (`kind` chess).
    pub settings: PlaySettings,
    /// games.pgn, when the run writes one: each game's record appended as it ends.
    pub pgn: Option<Mutex<PgnFile>>,
}

impl ChessGames {
    fn config(&self, name: &str, values: &[i32]) -> ChessConfig {
        let mut c = self.base.clone();
        c.name = name.to_string();
        for (n, &v) in self.names.iter().zip(values) {
            // Names were checked against the table before the run started.
            c.params.set(n, v);
        }
        c
    }
}

impl PlayGame for ChessGames {
    fn play(&self, job: &GameJob) -> Result<f64, SpsaError> {
        let opening = self.openings.get(job.pair)?;
        let plus = PlayerSpec::ChessEngine(Arc::new(self.config("theta+", &job.plus)));
        let minus = PlayerSpec::ChessEngine(Arc::new(self.config("theta-", &job.minus)));
        play_pair_game(
            job,
            &opening,
            &plus,
            &minus,
            &self.settings,
            self.pgn.as_ref(),
        )
    }
}

/// Real games of an external engine: the base engine file with the tuned options set (each
/// game starts its two processes, so no setting leaks from one game into the next). A failure
/// of the engine is a lost game, as in the arena.
pub struct OptionGames {
    /// The base engine.
    pub base: ExternalEngine,
    /// The tuned option names (`option:` removed), in parameter order.
    pub names: Vec<String>,
    /// Opening per pair index.
    pub openings: Openings,
    /// Rules, limits, adjudication.
    pub settings: PlaySettings,
    /// games.pgn, when the run writes one: each game's record appended as it ends.
    pub pgn: Option<Mutex<PgnFile>>,
}

impl OptionGames {
    /// The games for `base` tuning the parameters named `params` (each `option:NAME`).
    pub fn new(
        base: ExternalEngine,
        params: &[String],
        openings: Openings,
        settings: PlaySettings,
    ) -> OptionGames {
        let names = params
            .iter()
            .map(|p| option_name(p).unwrap_or(p).to_string())
            .collect();
        OptionGames {
            base,
            names,
            openings,
            settings,
            pgn: None,
        }
    }

    /// The base engine with the options set to `values`: an option the file sets already is
    /// replaced in place (UCI option names ignore case), others are sent after the file's.
    pub fn engine(&self, name: &str, values: &[i32]) -> ExternalEngine {
        let mut e = self.base.clone();
        e.name = name.to_string();
        for (option, &v) in self.names.iter().zip(values) {
            match e
                .options
                .iter_mut()
                .find(|(n, _)| n.eq_ignore_ascii_case(option))
            {
                Some(slot) => slot.1 = v.to_string(),
                None => e.options.push((option.clone(), v.to_string())),
            }
        }
        e
    }
}

impl PlayGame for OptionGames {
    fn play(&self, job: &GameJob) -> Result<f64, SpsaError> {
        let opening = self.openings.get(job.pair)?;
        let plus = PlayerSpec::External(Arc::new(self.engine("theta+", &job.plus)));
        let minus = PlayerSpec::External(Arc::new(self.engine("theta-", &job.minus)));
        play_pair_game(
            job,
            &opening,
            &plus,
            &minus,
            &self.settings,
            self.pgn.as_ref(),
        )
    }
}

/// Plays one game of a pair between fresh players of `plus` and `minus` and returns the plus
/// side's score.
fn play_pair_game(
    job: &GameJob,
    opening: &str,
    plus: &PlayerSpec,
    minus: &PlayerSpec,
    settings: &PlaySettings,
    pgn: Option<&Mutex<PgnFile>>,
) -> Result<f64, SpsaError> {
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
        play_scheduled(&spec, opening, &mut *plus, &mut *minus, settings)
    } else {
        play_scheduled(&spec, opening, &mut *minus, &mut *plus, settings)
    };
    if record.termination == crate::play::game::Ending::Interrupted.as_str() {
        // Abandoned by a stop request: no score; --resume plays the iteration again.
        crate::interrupt::check()?;
    }
    if let Some(pgn) = pgn {
        pgn.lock()
            .unwrap_or_else(|p| p.into_inner())
            .append(&record)?;
    }
    let red = match record.result {
        GameResult::RedWins => 1.0,
        GameResult::Draw => 0.5,
        GameResult::BlackWins => 0.0,
    };
    Ok(if job.plus_is_red { red } else { 1.0 - red })
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::super::Gains;
    use super::*;

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
        fn play(&self, job: &GameJob) -> Result<f64, SpsaError> {
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
            if r.iteration >= 5 {
                return Err(SpsaError::Io {
                    action: "write",
                    path: "spsa.csv".into(),
                    source: std::io::Error::other("disk full"),
                });
            }
            Ok(())
        });
        assert!(crate::error_chain(&out.unwrap_err()).contains("disk full"));
        assert_eq!(rows, 5);
    }
}
