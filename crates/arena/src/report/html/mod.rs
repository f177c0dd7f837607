//! `report.html`: one self-contained page per run folder (inline CSS, JavaScript and SVG; it
//! makes no network request when opened from disk), built from what the folder holds:
//!
//! - the summary computed from games.csv (W-D-L, pentanomial bars, Elo and nElo with 95%
//!   intervals, LOS, draw ratio), the SPRT's LLR against its bounds when the manifest has an
//!   SPRT (a diagnostic: the verdict counts only the pairs up to the stopping pair), the
//!   terminations, the engine failures and, with three or more players, the crosstable;
//! - every CSV result table the job wrote (ratings, gaps, calibration, SPSA, Texel...) and every
//!   SVG plot, inlined;
//! - a text stat block to paste into a commit message;
//! - a game browser over a bounded set of games ([`DEFAULT_GAME_LIMIT`]: failures first, then
//!   the first games), with moves in UCI, WXF and Chinese rendered here and the per-move comments of
//!   games.pgn when the folder has one.
//!
//! [`LiveReport`] rewrites the file while a run goes on, at most every few seconds, on the
//! thread that collects results (never a game thread); every write goes to a temporary file
//! renamed over the old one, so a reader never sees half a page. [`set_live_rewrites`] turns
//! the live rewrites off for a process (the final page is still written) and
//! [`rewrite_stats`] tells how often the page was written and how long that took: the
//! `report_bench` example measures a run with and without them side by side.

pub mod games;
mod page;
pub mod play_page;

pub use games::{browser_games, pgn_comments, GameView};

use crate::play::runner::PlayedGame;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use thiserror::Error;

/// Games embedded in report.html at most (`chuhan serve` offers every game).
pub const DEFAULT_GAME_LIMIT: usize = 200;
/// The page stays under this size: games are dropped until it does.
pub const MAX_BYTES: usize = 5_000_000;
/// How often a live report is rewritten at most.
pub const LIVE_EVERY: Duration = Duration::from_secs(3);
/// A live rewrite waits at least this many times as long as the last one took (and at least
/// [`LIVE_EVERY`]), so rewriting takes at most about 1% of the collecting thread's time
/// however large the run or busy the machine (a rewrite of 20,000 games costs tens of
/// milliseconds, more when the cores are shared).
pub const LIVE_COST_FACTOR: u32 = 100;

/// Whether [`LiveReport`]s of this process rewrite the page while the run goes on.
static LIVE_REWRITES: AtomicBool = AtomicBool::new(true);
/// Live rewrites so far in this process, and their nanoseconds (render + write).
static LIVE_COUNT: AtomicU64 = AtomicU64::new(0);
static LIVE_NANOS: AtomicU64 = AtomicU64::new(0);
/// Final pages written by [`LiveReport::finish`], and their nanoseconds (read + render + write).
static FINAL_COUNT: AtomicU64 = AtomicU64::new(0);
static FINAL_NANOS: AtomicU64 = AtomicU64::new(0);

/// Turns the live rewrites of every [`LiveReport`] of this process on (the default) or off.
/// Off, a run writes report.html once, at its end, as it always does: a benchmark knob (the
/// `report_bench` example), not a user setting.
pub fn set_live_rewrites(on: bool) {
    LIVE_REWRITES.store(on, Ordering::Relaxed);
}

/// How often report.html was written by [`LiveReport`]s of this process, and the time spent
/// doing it (on the collecting thread, where it delays the next result's handling).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RewriteStats {
    /// Live rewrites.
    pub live: u64,
    /// Time inside them.
    pub live_time: Duration,
    /// Final pages (one per finished run).
    pub finals: u64,
    /// Time inside them (games.csv read again, page rendered, written).
    pub final_time: Duration,
}

impl RewriteStats {
    /// What happened between `earlier` and `self`.
    pub fn since(&self, earlier: &RewriteStats) -> RewriteStats {
        RewriteStats {
            live: self.live - earlier.live,
            live_time: self.live_time.saturating_sub(earlier.live_time),
            finals: self.finals - earlier.finals,
            final_time: self.final_time.saturating_sub(earlier.final_time),
        }
    }
}

/// The rewrites of this process so far.
pub fn rewrite_stats() -> RewriteStats {
    RewriteStats {
        live: LIVE_COUNT.load(Ordering::Relaxed),
        live_time: Duration::from_nanos(LIVE_NANOS.load(Ordering::Relaxed)),
        finals: FINAL_COUNT.load(Ordering::Relaxed),
        final_time: Duration::from_nanos(FINAL_NANOS.load(Ordering::Relaxed)),
    }
}

fn count(counter: &AtomicU64, nanos: &AtomicU64, since: Instant) {
    counter.fetch_add(1, Ordering::Relaxed);
    let spent = u64::try_from(since.elapsed().as_nanos()).unwrap_or(u64::MAX);
    nanos.fetch_add(spent, Ordering::Relaxed);
}

/// Why a report could not be read or written.
#[derive(Debug, Error)]
pub enum HtmlError {
    /// A file of the run folder could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// report.html could not be written.
    #[error("cannot write {path}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A row of games.csv does not parse.
    #[error("{path} line {line}: {reason}")]
    Row {
        /// games.csv.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        reason: String,
    },
}

/// What to put in the page.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// Games in the browser at most (`None`: all of them, for `chuhan serve`).
    pub max_games: Option<usize>,
    /// The run is still going: the page says so and, when served, reloads itself on change.
    pub live: bool,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            max_games: Some(DEFAULT_GAME_LIMIT),
            live: false,
        }
    }
}

/// Reads games.csv of a run folder (an absent file is no games; a truncated last line, a game
/// being written, is skipped).
pub fn read_games(dir: &Path) -> Result<Vec<PlayedGame>, HtmlError> {
    let path = dir.join("games.csv");
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(HtmlError::Read { path, source }),
    };
    let complete = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(end) => &bytes[..=end],
        None => &bytes[..0],
    };
    let mut out = Vec::new();
    let mut reader = csv::ReaderBuilder::new().from_reader(complete);
    for (i, row) in reader.deserialize::<PlayedGame>().enumerate() {
        let row = row.map_err(|e| HtmlError::Row {
            path: path.clone(),
            line: i as u64 + 2,
            reason: e.to_string(),
        })?;
        out.push(row);
    }
    Ok(out)
}

/// The page for the run folder `dir` with these games.
pub fn render(dir: &Path, games: &[PlayedGame], options: &ReportOptions) -> String {
    page::render(dir, games, options, &mut HashMap::new())
}

/// Writes `text` to `dir/report.html` through a temporary file and a rename.
fn write_atomic(dir: &Path, text: &str) -> Result<PathBuf, HtmlError> {
    let path = dir.join("report.html");
    let tmp = dir.join(".report.html.tmp");
    std::fs::write(&tmp, text).map_err(|source| HtmlError::Write {
        path: tmp.clone(),
        source,
    })?;
    std::fs::rename(&tmp, &path).map_err(|source| HtmlError::Write {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

/// Writes the final `dir/report.html` from the folder's files; returns its path.
pub fn write_report(dir: &Path) -> Result<PathBuf, HtmlError> {
    let games = read_games(dir)?;
    write_atomic(dir, &render(dir, &games, &ReportOptions::default()))
}

/// Writes `dir/report.html` from the folder's files marked as a run going on (jobs without
/// games.csv rows to feed a [`LiveReport`], such as SPSA, call it now and then).
pub fn write_live_report(dir: &Path) -> Result<PathBuf, HtmlError> {
    let games = read_games(dir)?;
    let options = ReportOptions {
        live: true,
        ..ReportOptions::default()
    };
    write_atomic(dir, &render(dir, &games, &options))
}

/// Keeps report.html of a running job up to date: fed every finished game, it rewrites the
/// page when something changed and [`LIVE_EVERY`] has passed since the last write.
pub struct LiveReport {
    dir: PathBuf,
    games: Vec<PlayedGame>,
    /// Where each game index is in `games`.
    position: HashMap<u64, usize>,
    /// Games other than failures that keep their moves: the lowest indices, the only ones
    /// the bounded browser can pick; the others keep only what the summary needs, so a long
    /// run does not hold every game's moves twice.
    with_moves: std::collections::BTreeSet<u64>,
    every: Duration,
    last: Option<Instant>,
    /// How long the last write took.
    last_cost: Duration,
    dirty: bool,
    error: Option<HtmlError>,
    /// The browser's games already rendered (their moves in every notation): a rewrite renders
    /// only games new to the page.
    views: HashMap<u64, GameView>,
}

impl LiveReport {
    /// A live report of the run folder `dir` (games.csv is read by the first write, so games
    /// of a resumed run are in from the start). The stat block an earlier session of a
    /// resumed run kept ([`STAT_BLOCK_FILE`](crate::report::statblock::STAT_BLOCK_FILE)) is
    /// removed: it no longer describes the run, and the page would show it.
    pub fn new(dir: &Path) -> LiveReport {
        let _ = std::fs::remove_file(crate::report::statblock::stat_block_path(dir));
        LiveReport::with_interval(dir, LIVE_EVERY)
    }

    /// A live report rewritten at most every `every`.
    pub fn with_interval(dir: &Path, every: Duration) -> LiveReport {
        LiveReport {
            dir: dir.to_path_buf(),
            games: Vec::new(),
            position: HashMap::new(),
            with_moves: std::collections::BTreeSet::new(),
            every,
            last: None,
            last_cost: Duration::ZERO,
            dirty: true,
            error: None,
            views: HashMap::new(),
        }
    }

    /// Records one finished game (played now or loaded from an earlier run).
    pub fn on_game(&mut self, record: &PlayedGame) {
        match self.position.get(&record.game) {
            Some(&i) => self.games[i] = record.clone(),
            None => {
                self.position.insert(record.game, self.games.len());
                self.games.push(record.clone());
            }
        }
        if !games::FAILURES.contains(&record.termination.as_str()) {
            self.with_moves.insert(record.game);
            if self.with_moves.len() > DEFAULT_GAME_LIMIT {
                if let Some(last) = self.with_moves.pop_last() {
                    let g = &mut self.games[self.position[&last]];
                    g.moves = String::new();
                    g.opening = String::new();
                }
            }
        }
        self.dirty = true;
    }

    /// Rewrites the page when due: something changed, the interval has passed, and
    /// [`LIVE_COST_FACTOR`] times the last write's cost too. A failure is kept for
    /// [`LiveReport::finish`] rather than stopping the run.
    pub fn tick(&mut self) {
        let wait = self.every.max(self.last_cost * LIVE_COST_FACTOR);
        let due = self.last.map_or(true, |t| t.elapsed() >= wait);
        if self.dirty && due && LIVE_REWRITES.load(Ordering::Relaxed) {
            self.write_now();
        }
    }

    /// Rewrites the live page now, due or not (what [`LiveReport::tick`] does when due).
    pub fn write_now(&mut self) {
        let start = Instant::now();
        self.write(true);
        count(&LIVE_COUNT, &LIVE_NANOS, start);
        self.last_cost = start.elapsed();
    }

    fn write(&mut self, live: bool) {
        let options = ReportOptions {
            live,
            ..ReportOptions::default()
        };
        if !live {
            // The final page takes games.pgn's comments as they are now.
            self.views.clear();
        }
        let text = page::render(&self.dir, &self.games, &options, &mut self.views);
        if let Err(e) = write_atomic(&self.dir, &text) {
            self.error.get_or_insert(e);
        }
        self.last = Some(Instant::now());
        self.dirty = false;
    }

    /// Writes the page one last time (not live), with every game as games.csv has it, and
    /// reports the first error, if any.
    pub fn finish(mut self) -> Result<(), HtmlError> {
        let start = Instant::now();
        self.games = read_games(&self.dir)?;
        self.write(false);
        count(&FINAL_COUNT, &FINAL_NANOS, start);
        match self.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests;
