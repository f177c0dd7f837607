//! Ladders played to a precision: rounds of game pairs handed to the pairings that shrink the
//! widest neighbour-gap interval most (`chuhan_stats::adaptive`), until every neighbour gap's
//! 95% half-width is at most the target or a budget runs out.
//!
//! Every round is planned by [`current_round`] from the games of the earlier rounds only, and
//! its pairs get the next pair ids in schedule order; a game's seed and opening come from its
//! pair id (as in every run: `game_seed(run seed, game index)`, opening `pair id`). So the same
//! seed gives the same games at any `--concurrency`, and a resumed run replays the rounds from
//! games.csv and finishes the round it was in: a pair with one game on disk keeps it (the
//! runner plays the pair's other game, with the same seed and opening, as an uninterrupted run
//! would have). Only the wall-time budget depends on the machine: a run it stops is not
//! reproducible.

pub use super::config::parse_duration;
use super::{
    rating_games, Analysis, LadderConfig, LadderError, LadderOutcome, LadderPlan, LADDER_COPY,
};
use crate::play::results::RunConfig;
use crate::play::runner::{PlayedGame, StopRule};
use crate::play::schedule::{game_seed, GameSpec, Pairing, Schedule};
use crate::play::setup::{execute, plan_from_config, Destination, Finished, PreparedRun};
use crate::ratings::RatedGame;
use crate::report::{describe_elo, Audience, Progress, ProgressReporter};
use chuhan_engine::GameResult;
use chuhan_stats::adaptive::{current_round, AdaptiveError, Budget, RoundSizes, StopReason};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// How a ladder is run to a precision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Precision {
    /// Target 95% half-width of every neighbour gap, in Elo.
    pub precision: f64,
    /// At most this many games in all (counting games already played).
    pub max_games: Option<u64>,
    /// Wall-time budget of this session (not reproducible: the games played depend on speed).
    pub max_time: Option<Duration>,
    /// Game pairs per pairing in the first round.
    pub first_pairs: u64,
}

impl Precision {
    /// Checks the settings against the ladder's pairings; errors name the flag (or file key).
    pub fn check(&self, pairings: usize) -> Result<(), LadderError> {
        if !(self.precision.is_finite() && self.precision > 0.0) {
            return Err(LadderError::PrecisionFlag(self.precision));
        }
        if let Some(m) = self.max_games {
            // One game pair per pairing at least, or no neighbour gap can be measured.
            let least = 2 * pairings as u64;
            if m < least.max(1) {
                return Err(LadderError::MaxGamesFlag {
                    max_games: m,
                    pairings,
                    least,
                });
            }
        }
        if self.max_time == Some(Duration::ZERO) {
            return Err(LadderError::ZeroMaxTime);
        }
        if self.first_pairs == 0 {
            return Err(LadderError::ZeroPairs);
        }
        Ok(())
    }

    fn budget(&self) -> Budget {
        Budget {
            max_games: self.max_games,
        }
    }

    fn sizes(&self) -> RoundSizes {
        RoundSizes {
            first_per_pairing: self.first_pairs,
            ..RoundSizes::default()
        }
    }
}

/// Why an adaptive ladder stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdaptiveStop {
    /// Every neighbour gap's 95% half-width is at most the target.
    PrecisionReached,
    /// The `--max-games` budget is spent.
    MaxGames,
    /// The `--max-time` wall-time budget is spent (the run is not reproducible).
    MaxTime,
}

impl AdaptiveStop {
    /// The reason in words.
    pub fn describe(&self, p: &Precision) -> String {
        match self {
            AdaptiveStop::PrecisionReached => format!(
                "precision reached: every neighbour gap's 95% half-width is at most {:.0} Elo",
                p.precision
            ),
            AdaptiveStop::MaxGames => format!(
                "budget spent: --max-games {} reached before the target ±{:.0} Elo",
                p.max_games.unwrap_or(0),
                p.precision
            ),
            AdaptiveStop::MaxTime => format!(
                "budget spent: --max-time {} reached before the target ±{:.0} Elo (a wall-time \
                 stop: another run may play other games)",
                format_duration(p.max_time.unwrap_or_default()),
                p.precision
            ),
        }
    }
}

/// A duration as `5m`, `90s` or `1.5h`.
pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 3600.0 && (s / 3600.0).fract() == 0.0 {
        format!("{}h", s / 3600.0)
    } else if s >= 60.0 && (s / 60.0).fract() == 0.0 {
        format!("{}m", s / 60.0)
    } else {
        format!("{s}s")
    }
}

/// The adaptive schedule of a ladder's run configuration (order = player order, first anchored).
pub fn stats_schedule(config: &RunConfig) -> chuhan_stats::adaptive::Schedule {
    chuhan_stats::adaptive::Schedule {
        players: config.players.len(),
        pairings: config.pairings.iter().map(|&[a, b]| (a, b)).collect(),
        order: (0..config.players.len()).collect(),
        anchor: 0,
    }
}

/// The arena schedule of the pairs `pairs` (pair id -> pairing index), in pair-id order.
fn arena_schedule(config: &RunConfig, pairs: &BTreeMap<u64, usize>) -> Schedule {
    let mut counts = vec![0u64; config.pairings.len()];
    let mut games = Vec::with_capacity(2 * pairs.len());
    for (&pair, &pairing) in pairs {
        counts[pairing] += 1;
        let [first, second] = config.pairings[pairing];
        for g in 0..2 {
            let index = 2 * pair + g;
            let (red, black) = if g == 0 {
                (first, second)
            } else {
                (second, first)
            };
            games.push(GameSpec {
                index,
                pair,
                pairing,
                red,
                black,
                seed: game_seed(config.seed, index),
            });
        }
    }
    Schedule {
        pairings: config
            .pairings
            .iter()
            .zip(&counts)
            .map(|(&[first, second], &pairs)| Pairing {
                first,
                second,
                pairs,
            })
            .collect(),
        games,
        total_pairs: pairs.keys().next_back().map_or(0, |&p| p + 1),
    }
}

/// The games on disk of an interrupted adaptive ladder (a truncated last line is ignored, as
/// the runner's resume does), and the pairing of each pair id found. The runner checks every
/// row against the schedule built from them before anything is played.
fn games_on_disk(
    dir: &Path,
    config: &RunConfig,
) -> Result<(Vec<RatedGame>, BTreeMap<u64, usize>), LadderError> {
    let path = dir.join("games.csv");
    let bytes = std::fs::read(&path).map_err(|source| LadderError::Read {
        path: path.clone(),
        source,
    })?;
    let complete = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(end) => &bytes[..=end],
        None => &bytes[..0],
    };
    let names: Vec<&str> = config.players.iter().map(|p| p.name.as_str()).collect();
    let index = |name: &str, line: usize| {
        names
            .iter()
            .position(|n| *n == name)
            .ok_or_else(|| LadderError::RowPlayer {
                path: path.clone(),
                line,
                name: name.to_string(),
            })
    };
    let mut games = Vec::new();
    let mut pairs = BTreeMap::new();
    let mut reader = csv::ReaderBuilder::new().from_reader(complete);
    for (i, row) in reader.deserialize::<PlayedGame>().enumerate() {
        let line = i + 2;
        let row = row.map_err(|error| LadderError::Row {
            path: path.clone(),
            line,
            error,
        })?;
        let (red, black) = (index(&row.red, line)?, index(&row.black, line)?);
        // The pairing's first player is Red in the pair's first game (even game index).
        let (first, second) = if row.game % 2 == 0 {
            (red, black)
        } else {
            (black, red)
        };
        let pairing = config
            .pairings
            .iter()
            .position(|&p| p == [first, second])
            .ok_or_else(|| LadderError::RowPairing {
                path: path.clone(),
                line,
                red: row.red.clone(),
                black: row.black.clone(),
            })?;
        pairs.insert(row.pair, pairing);
        let score_first = match row.result {
            GameResult::RedWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        };
        games.push(RatedGame {
            pair_id: row.pair,
            first: red,
            second: black,
            score_first,
        });
    }
    Ok((games, pairs))
}

/// Stops dispatching games once the wall-time deadline has passed.
struct Deadline(Instant);

impl StopRule for Deadline {
    fn add_pair(&mut self, _pairing: usize, _first: f64, _second: f64) -> bool {
        Instant::now() >= self.0
    }
}

/// The progress line of a round: games so far, the widest gap and its half-width.
fn progress_line(
    round: &chuhan_stats::adaptive::Round,
    names: &[String],
    games: usize,
    precision: f64,
) -> String {
    let widest = match round.plan.widest {
        Some((k, w)) => {
            let g = &round.plan.honest.gaps[k];
            let width = if w.is_finite() {
                format!("±{w:.0}")
            } else {
                "one-sided".to_string()
            };
            format!("widest gap {} -> {} {width}", names[g.from], names[g.to])
        }
        None => "no gap".to_string(),
    };
    let next = if round.plan.stop.is_some() {
        "stop".to_string()
    } else {
        format!("{} pairs to play", round.missing.len())
    };
    format!(
        "round {}: {games} games, {widest} (target ±{precision:.0}); {next}",
        round.index + 1
    )
}

/// Plays (or resumes) the ladder in rounds until `precision` is met or a budget is spent, then
/// fits the ratings and writes the outputs as [`super::run`] does. Progress (one line per round)
/// goes to the reporter of `audience` as a note.
pub fn run_to_precision(
    plan: LadderPlan,
    precision: &Precision,
    concurrency: Option<usize>,
    audience: Audience,
) -> Result<(LadderOutcome, AdaptiveStop), LadderError> {
    let mut rounds = ProgressReporter::new(audience);
    let config = plan.config;
    precision.check(config.pairings.len())?;
    let schedule = stats_schedule(&config);
    let names: Vec<String> = config.players.iter().map(|p| p.name.clone()).collect();
    let started = Instant::now();
    let deadline = precision.max_time.map(|t| started + t);
    let mut destination = plan.destination;
    let (mut games, mut pairs) = match &destination {
        Destination::Resume(dir) => games_on_disk(dir, &config)?,
        Destination::New(_) => (Vec::new(), BTreeMap::new()),
    };
    let mut last: Option<(PreparedRun, Finished)> = None;
    let mut played = 0;
    let mut seconds = 0.0;
    let stop = loop {
        let round = current_round(
            &games,
            &schedule,
            precision.precision,
            &precision.budget(),
            &precision.sizes(),
        )
        .map_err(|e| match e {
            AdaptiveError::NoNeighbours { .. } => LadderError::NoNeighbours(e),
            other => LadderError::Plan(other),
        })?;
        rounds.on(&Progress::Note {
            text: progress_line(&round, &names, games.len(), precision.precision),
        });
        let stop = match round.plan.stop {
            Some(StopReason::PrecisionReached) => Some(AdaptiveStop::PrecisionReached),
            Some(StopReason::BudgetExhausted) => Some(AdaptiveStop::MaxGames),
            None if deadline.is_some_and(|d| Instant::now() >= d) => Some(AdaptiveStop::MaxTime),
            None => None,
        };
        if let (Some(stop), Some(_)) = (stop, &last) {
            break stop;
        }
        if stop.is_none() {
            pairs.extend(round.pairs.iter().copied());
        }
        // Play the round (or, when a resumed run has nothing left, open its folder).
        let mut plan = plan_from_config(
            &config,
            vec![Pairing {
                first: config.pairings[0][0],
                second: config.pairings[0][1],
                pairs: pairs.len() as u64,
            }],
            concurrency,
        )?;
        plan.schedule = arena_schedule(&config, &pairs);
        let mut prepared = PreparedRun::new(config.clone(), plan, destination);
        // Only the first round can resume a folder of another build; the later ones resume
        // the folder this run has just written.
        prepared.note_engine_build = last.is_none();
        let labels = prepared.pairing_labels();
        let rule: Option<Box<dyn StopRule>> = deadline.map(|d| Box::new(Deadline(d)) as _);
        let finished = execute(&prepared, rule, labels, Box::new(describe_elo), audience)?;
        played += finished.played;
        seconds += finished.seconds;
        games = rating_games(&finished.records, &names, None);
        destination = Destination::Resume(finished.dir.path().to_path_buf());
        let timed_out = finished.stopped_at.is_some();
        last = Some((prepared, finished));
        if let Some(stop) = stop {
            break stop;
        }
        if timed_out {
            break AdaptiveStop::MaxTime;
        }
    };
    let (prepared, mut finished) = last.expect("at least one session was opened");
    finished.played = played;
    finished.seconds = seconds;
    if let Some(copy) = &plan.copy {
        super::write_file(&finished.dir.path().join(LADDER_COPY), copy.clone())?;
    }
    let analysis: Analysis =
        super::write_outputs(&prepared, &finished, &format!("Ladder '{}'", plan.name))?;
    Ok((
        LadderOutcome {
            prepared,
            finished,
            analysis: Some(analysis),
        },
        stop,
    ))
}

/// The precision settings of a ladder file (`precision`, `max_games`, `max_time` keys), if it
/// has a `precision`.
pub fn from_config(ladder: &LadderConfig) -> Result<Option<Precision>, LadderError> {
    let Some(precision) = ladder.precision else {
        return Ok(None);
    };
    let max_time = ladder
        .max_time
        .as_deref()
        .map(|t| parse_duration(t, "max_time"))
        .transpose()?;
    Ok(Some(Precision {
        precision,
        max_games: ladder.max_games,
        max_time,
        first_pairs: ladder.pairs,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_with_units_and_refuse_nonsense() {
        assert_eq!(parse_duration("90", "t").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_duration("5m", "t").unwrap(), Duration::from_secs(300));
        assert_eq!(
            parse_duration("1.5h", "t").unwrap(),
            Duration::from_secs(5400)
        );
        assert_eq!(format_duration(Duration::from_secs(300)), "5m");
        assert_eq!(format_duration(Duration::from_secs(90)), "90s");
        for bad in ["", "0", "-3m", "5 days", "abc", "inf"] {
            let e = parse_duration(bad, "--max-time").unwrap_err().to_string();
            assert!(e.contains("--max-time"), "{bad}: {e}");
        }
    }

    #[test]
    fn the_default_ladder_plays_to_a_precision_within_budgets() {
        let (ladder, _) = super::super::load_config(None).unwrap();
        let p = from_config(&ladder)
            .unwrap()
            .expect("the default ladder is adaptive");
        assert_eq!(p.precision, 150.0);
        assert_eq!(p.max_games, Some(240));
        assert_eq!(p.max_time, Some(Duration::from_secs(720)));
        p.check(ladder.pairings().len()).unwrap();
        // Unknown keys are still refused, naming the key.
        let text = super::super::DEFAULT_LADDER.replace("precision = 150", "precison = 150");
        assert_ne!(
            text,
            super::super::DEFAULT_LADDER,
            "the key to misspell is there"
        );
        let e = LadderConfig::parse(&text, "x.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("precison") && e.contains("x.toml"), "{e}");
        let text =
            super::super::DEFAULT_LADDER.replace("max_time = \"12m\"", "max_time = \"5 weeks\"");
        assert_ne!(
            text,
            super::super::DEFAULT_LADDER,
            "the max_time line is there"
        );
        let e = LadderConfig::parse(&text, "x.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("max_time") && e.contains("x.toml"), "{e}");
    }

    #[test]
    fn settings_are_checked_naming_the_flag() {
        let ok = Precision {
            precision: 50.0,
            max_games: Some(10),
            max_time: None,
            first_pairs: 2,
        };
        ok.check(5).unwrap();
        for (p, needle) in [
            (
                Precision {
                    precision: 0.0,
                    ..ok
                },
                "--precision",
            ),
            (
                Precision {
                    precision: -5.0,
                    ..ok
                },
                "--precision",
            ),
            (
                Precision {
                    max_games: Some(0),
                    ..ok
                },
                "--max-games",
            ),
            (
                Precision {
                    max_games: Some(9),
                    ..ok
                },
                "--max-games 9 cannot be met",
            ),
            (
                Precision {
                    max_time: Some(Duration::ZERO),
                    ..ok
                },
                "--max-time",
            ),
        ] {
            let e = p.check(5).unwrap_err().to_string();
            assert!(e.contains(needle), "{e}");
        }
    }
}
