//! Parallel execution of a schedule. Workers (threads) take games in index order, play them and
//! report back; the runner turns that into [`Event`]s on a channel and never prints.
//!
//! **Stopping rule (deterministic).** A [`StopRule`] (e.g. an SPRT) sees complete game pairs
//! strictly in pair-index order: pair `k` is fed only once pairs `0..k` (of this schedule) are
//! all complete. When it says stop at pair `k`, the verdict is defined on exactly the pairs up
//! to `k`, whatever the concurrency; no new game is started, games already running finish and
//! are recorded (they appear in games.csv but not in the verdict).

use crate::play::any::AnyGame;
use crate::play::game::{play_game, Ending, PlaySettings};
use crate::play::openings::OpeningBook;
use crate::play::player::{Player, PlayerSpec};
pub use crate::play::record::{Event, PlayedGame};
use crate::play::schedule::{splitmix64, GameSpec, Schedule};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};

/// A player of the run: its display name and how to build it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    /// Unique name within the run.
    pub name: String,
    /// How to build instances.
    pub spec: PlayerSpec,
}

/// Decides, pair by pair in index order, whether the run may stop.
pub trait StopRule: Send {
    /// Adds one complete pair (scores from the pairing's first player's view); returns `true`
    /// when the run should stop with this pair as the last one counted.
    fn add_pair(&mut self, pairing: usize, first: f64, second: f64) -> bool;
}

/// Everything a run needs.
pub struct RunPlan {
    /// Players, indexed by the schedule.
    pub entrants: Vec<Entrant>,
    /// Games to play.
    pub schedule: Schedule,
    /// Opening per global pair index.
    pub openings: OpeningBook,
    /// Rules, limits, adjudication.
    pub settings: PlaySettings,
    /// Worker threads.
    pub concurrency: usize,
}

enum WorkerMsg {
    Finished(Box<PlayedGame>),
}

/// The seed a player gets for one game (distinct per colour).
pub fn player_seed(game_seed: u64, red: bool) -> u64 {
    splitmix64(game_seed ^ if red { 0x0052_4544 } else { 0x0042_4c41_434b })
}

/// Plays one scheduled game with the given player instances.
pub fn play_scheduled(
    spec: &GameSpec,
    opening: &str,
    red: &mut dyn Player,
    black: &mut dyn Player,
    settings: &PlaySettings,
) -> PlayedGame {
    let position =
        AnyGame::from_fen_rules(settings.kind, settings.chess960, opening, settings.game)
            .expect("openings are validated before the run");
    red.set_game_index(spec.index);
    black.set_game_index(spec.index);
    red.new_game(player_seed(spec.seed, true));
    black.new_game(player_seed(spec.seed, false));
    let out = play_game(position, red, black, settings);
    PlayedGame {
        pair: spec.pair,
        game: spec.index,
        pairing: spec.pairing,
        opening: opening.to_string(),
        red: red.name().to_string(),
        black: black.name().to_string(),
        result: out.result,
        termination: out.ending.as_str().to_string(),
        plies: out.moves.len() as u32,
        nodes: out.nodes,
        seconds: out.seconds,
        seed: spec.seed,
        moves: out
            .moves
            .iter()
            .map(|m| m.to_uci())
            .collect::<Vec<_>>()
            .join(" "),
        search: out.info,
    }
}

/// Tracks finished games and feeds complete pairs to the stop rule in index order.
struct Collector<'a> {
    schedule: &'a Schedule,
    done: BTreeMap<u64, PlayedGame>,
    /// Position in `schedule.games` (step 2) of the next pair the prefix waits for.
    cursor: usize,
    stop: Option<Box<dyn StopRule + 'a>>,
    stopped_at: Option<u64>,
}

impl Collector<'_> {
    fn pair_scores(&self, first: &PlayedGame, second: &PlayedGame) -> (f64, f64) {
        // The pairing's first player is Red in the first game, Black in the second.
        (first.red_score(), 1.0 - second.red_score())
    }

    /// Records a game, reports a completed pair, and feeds the in-order prefix to the rule.
    fn add(&mut self, record: PlayedGame, events: &Sender<Event>) {
        let index = record.game;
        self.done.insert(index, record);
        if let (Some(a), Some(b)) = (self.done.get(&(index & !1)), self.done.get(&(index | 1))) {
            let (first, second) = self.pair_scores(a, b);
            let _ = events.send(Event::PairFinished {
                pair: a.pair,
                pairing: a.pairing,
                first,
                second,
            });
        }
        while self.stopped_at.is_none() && self.cursor + 1 < self.schedule.games.len() {
            let g0 = &self.schedule.games[self.cursor];
            let (Some(a), Some(b)) = (self.done.get(&g0.index), self.done.get(&(g0.index + 1)))
            else {
                break;
            };
            let (first, second) = self.pair_scores(a, b);
            let (pair, pairing) = (a.pair, a.pairing);
            self.cursor += 2;
            if let Some(rule) = self.stop.as_mut() {
                if rule.add_pair(pairing, first, second) {
                    self.stopped_at = Some(pair);
                    let _ = events.send(Event::Stopped { at_pair: pair });
                }
            }
        }
    }
}

/// What a run produced.
#[derive(Debug)]
pub struct RunOutcome {
    /// Every game, old and new, by index.
    pub records: BTreeMap<u64, PlayedGame>,
    /// The last pair the stop rule counted, if it fired.
    pub stopped_at: Option<u64>,
    /// Why the run stopped short, if something failed (e.g. no more openings).
    pub error: Option<String>,
}

/// Runs the plan. `done` holds games from an earlier run (resume): they are not replayed but
/// count exactly as if they had just been played. `cancel` stops dispatching new games when set
/// (games in progress finish).
pub fn run(
    plan: &RunPlan,
    done: Vec<PlayedGame>,
    stop: Option<Box<dyn StopRule + '_>>,
    cancel: Arc<AtomicBool>,
    events: Sender<Event>,
) -> RunOutcome {
    let mut collector = Collector {
        schedule: &plan.schedule,
        done: BTreeMap::new(),
        cursor: 0,
        stop,
        stopped_at: None,
    };
    let already: std::collections::HashSet<u64> = done.iter().map(|r| r.game).collect();
    let to_play: Vec<&GameSpec> = plan
        .schedule
        .games
        .iter()
        .filter(|g| !already.contains(&g.index))
        .collect();
    let workers = plan.concurrency.clamp(1, to_play.len().max(1));
    let _ = events.send(Event::RunStarted {
        total_games: plan.schedule.games.len() as u64,
        already_done: already.len() as u64,
        workers,
    });
    for record in done {
        let _ = events.send(Event::GameFinished {
            record: record.clone(),
            resumed: true,
        });
        collector.add(record, &events);
    }
    let halt = AtomicBool::new(collector.stopped_at.is_some());
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let mut played = 0u64;
    let (tx, rx) = channel::<WorkerMsg>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, halt, cancel, to_play, failure) =
                (&next, &halt, &cancel, &to_play, &failure);
            scope.spawn(move || {
                let mut instances: Vec<Option<Box<dyn Player>>> =
                    plan.entrants.iter().map(|_| None).collect();
                loop {
                    if halt.load(Ordering::SeqCst)
                        || cancel.load(Ordering::SeqCst)
                        || crate::interrupt::requested()
                    {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(spec) = to_play.get(i) else { break };
                    let opening = match plan.openings.get(spec.pair as usize) {
                        Ok(o) => o,
                        Err(e) => {
                            let mut f = failure.lock().unwrap_or_else(|p| p.into_inner());
                            f.get_or_insert(e.to_string());
                            halt.store(true, Ordering::SeqCst);
                            break;
                        }
                    };
                    for idx in [spec.red, spec.black] {
                        if instances[idx].is_none() {
                            let e = &plan.entrants[idx];
                            instances[idx] = Some(e.spec.create(&e.name));
                        }
                    }
                    let (red, black) = two_mut(&mut instances, spec.red, spec.black);
                    let record = play_scheduled(spec, &opening, red, black, &plan.settings);
                    if record.termination == Ending::Interrupted.as_str() {
                        // Abandoned by a stop request: not a result; --resume replays it.
                        break;
                    }
                    if tx.send(WorkerMsg::Finished(Box::new(record))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for msg in rx {
            match msg {
                WorkerMsg::Finished(record) => {
                    played += 1;
                    let _ = events.send(Event::GameFinished {
                        record: (*record).clone(),
                        resumed: false,
                    });
                    collector.add(*record, &events);
                    if collector.stopped_at.is_some() {
                        halt.store(true, Ordering::SeqCst);
                    }
                }
            }
        }
    });
    let complete = collector.done.len() == plan.schedule.games.len();
    let _ = events.send(Event::RunFinished {
        played,
        stopped_at_pair: collector.stopped_at,
        cancelled: !complete && collector.stopped_at.is_none(),
    });
    RunOutcome {
        records: collector.done,
        stopped_at: collector.stopped_at,
        error: failure.into_inner().unwrap_or_else(|p| p.into_inner()),
    }
}

/// Two distinct mutable player instances out of the worker's table.
fn two_mut(
    v: &mut [Option<Box<dyn Player>>],
    a: usize,
    b: usize,
) -> (&mut dyn Player, &mut dyn Player) {
    assert_ne!(a, b, "a player cannot meet itself");
    let (lo, hi) = (a.min(b), a.max(b));
    let (left, right) = v.split_at_mut(hi);
    let x = left[lo].as_deref_mut().expect("created above");
    let y = right[0].as_deref_mut().expect("created above");
    if a < b {
        (x, y)
    } else {
        (y, x)
    }
}
