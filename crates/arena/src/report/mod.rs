//! Reporting: the one progress contract of every job ([`progress`]: events, and a reporter per
//! audience), the adapter from the runner's game events to it ([`Reporter`]), the result
//! tables, the stat block to paste into a commit message ([`statblock`]), every plot
//! ([`plots`]), and the self-contained report.html ([`html`]).

pub mod html;
pub mod plots;
pub mod progress;
pub mod statblock;

pub use progress::{Audience, Progress, ProgressReporter};
pub use statblock::stat_block;

use crate::play::record::{Event, PlayedGame};
use crate::stats::{Estimate, Pentanomial, Trinomial};
use std::collections::BTreeMap;

/// Results of one pairing from its first player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Losses, draws, wins (games).
    pub wdl: [u64; 3],
    /// Pair counts by pair score 0, 1/4, 1/2, 3/4, 1.
    pub penta: [u64; 5],
}

impl Tally {
    /// Adds one game with the first player's score (0, 0.5, 1).
    pub fn add_game(&mut self, score: f64) {
        self.wdl[(score * 2.0).round() as usize] += 1;
    }

    /// Adds one complete pair (the first player's two scores).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        self.penta[((first + second) * 2.0).round() as usize] += 1;
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wdl.iter().sum()
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// The game counts.
    pub fn trinomial(&self) -> Trinomial {
        Trinomial::new(self.wdl[0], self.wdl[1], self.wdl[2])
    }

    /// The pair counts.
    pub fn pentanomial(&self) -> Pentanomial {
        Pentanomial::from_counts(self.penta)
    }

    /// Elo and friends: from the pairs when there are any (the right unit for paired games),
    /// else from the games; the draw ratio always from the games.
    pub fn estimate(&self) -> Option<Estimate> {
        if self.pairs() > 0 {
            Estimate::from_pentanomial(&self.pentanomial())
                .map(|e| e.with_draw_ratio(&self.trinomial()))
        } else {
            Estimate::from_trinomial(&self.trinomial())
        }
    }

    /// `W-D-L`.
    pub fn wdl_text(&self) -> String {
        format!("{}-{}-{}", self.wdl[2], self.wdl[1], self.wdl[0])
    }

    /// `[LL, LD, DD+WL, WD, WW]` counts.
    pub fn penta_text(&self) -> String {
        let p = self.penta;
        format!("[{}, {}, {}, {}, {}]", p[0], p[1], p[2], p[3], p[4])
    }
}

/// The score of the pairing's first player in a game (Red in a pair's first game, Black in the
/// second).
pub fn first_score(record: &PlayedGame) -> f64 {
    if record.game % 2 == 0 {
        record.red_score()
    } else {
        1.0 - record.red_score()
    }
}

/// Tallies games and pairs of `records` per pairing. Only pairs up to `last_pair` (inclusive)
/// count when it is given; a pair counts in the pentanomial only when both games are present.
/// (`records` holds games or references to them: report.html tallies without copying.)
pub fn tally<R: std::borrow::Borrow<PlayedGame>>(
    records: &BTreeMap<u64, R>,
    pairings: usize,
    last_pair: Option<u64>,
) -> Vec<Tally> {
    let mut out = vec![Tally::default(); pairings];
    for r in records.values() {
        let r = r.borrow();
        if last_pair.is_some_and(|k| r.pair > k) {
            continue;
        }
        out[r.pairing].add_game(first_score(r));
        if r.game % 2 == 0 {
            if let Some(second) = records.get(&(r.game + 1)) {
                out[r.pairing].add_pair(first_score(r), first_score(second.borrow()));
            }
        }
    }
    out
}

/// A short statistics text for the progress line: Elo with its honest 95% interval
/// (`Elo +40.7 [+10.4, +71.2]`, `Elo >= +218.9 (perfect score)`).
pub fn describe_elo(t: &Tally) -> String {
    t.estimate()
        .map(|e| format!("Elo {}", e.elo_text(1)))
        .unwrap_or_default()
}

/// Two decimals; an infinite value (fishtest's half-width after a lopsided score) is an empty
/// field, as an open side in ratings.csv.
fn fmt2(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}")
    } else {
        String::new()
    }
}

/// The summary table (also summary.csv): one row per pairing.
pub fn summary_rows(labels: &[String], tallies: &[Tally]) -> (Vec<&'static str>, Vec<Vec<String>>) {
    let header = vec![
        "pairing",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "pentanomial",
        "elo",
        "elo_ci95",
        "elo_low",
        "elo_high",
        "nelo",
        "nelo_ci95",
        "nelo_low",
        "nelo_high",
        "los",
        "draw_ratio",
    ];
    let rows = labels
        .iter()
        .zip(tallies)
        .map(|(label, t)| {
            let games = t.games();
            let points = t.wdl[2] as f64 + 0.5 * t.wdl[1] as f64;
            let est = t.estimate();
            let field =
                |f: fn(&Estimate) -> f64| est.as_ref().map_or(String::new(), |e| fmt2(f(e)));
            // The honest interval's ends, an open side empty (as ratings.csv).
            let ends = |f: fn(&Estimate) -> crate::stats::Bound| {
                est.as_ref()
                    .map_or([String::new(), String::new()], |e| f(e).csv_fields(2))
            };
            let [elo_low, elo_high] = ends(|e| e.elo_interval);
            let [nelo_low, nelo_high] = ends(|e| e.nelo_interval);
            vec![
                label.clone(),
                games.to_string(),
                t.wdl[2].to_string(),
                t.wdl[1].to_string(),
                t.wdl[0].to_string(),
                format!("{:.3}", points / games.max(1) as f64),
                t.penta_text(),
                field(|e| e.elo),
                field(|e| e.elo_ci95),
                elo_low,
                elo_high,
                field(|e| e.nelo),
                field(|e| e.nelo_ci95),
                nelo_low,
                nelo_high,
                field(|e| e.los),
                est.and_then(|e| e.draw_ratio).map_or(String::new(), fmt2),
            ]
        })
        .collect();
    (header, rows)
}

/// A function that describes a tally in a few words (Elo, LLR...), supplied by the command.
pub type Describe = Box<dyn Fn(&Tally) -> String + Send>;

/// Turns the runner's events into [`Progress`] for one audience: counts games, keeps the live
/// W-D-L and pentanomial of every pairing, and describes them in the status line.
pub struct Reporter {
    progress: ProgressReporter,
    job: String,
    already: u64,
    done: u64,
    played: u64,
    live: Vec<Tally>,
    labels: Vec<String>,
    describe: Describe,
}

impl Reporter {
    /// A reporter of job `job` for pairings labelled `labels` (e.g. `greedy vs random`);
    /// `describe` adds statistics to the status line.
    pub fn new(job: &str, labels: Vec<String>, describe: Describe, audience: Audience) -> Reporter {
        Reporter {
            progress: ProgressReporter::new(audience),
            job: job.to_string(),
            already: 0,
            done: 0,
            played: 0,
            live: vec![Tally::default(); labels.len()],
            labels,
            describe,
        }
    }

    /// Games played in this session (not loaded from an earlier run).
    pub fn played(&self) -> u64 {
        self.played
    }

    /// Seconds since the run started.
    pub fn elapsed(&self) -> f64 {
        self.progress.elapsed()
    }

    fn status(&self) -> String {
        // Many pairings (ladders, round robins) would make an unreadable line: show totals.
        if self.labels.len() > 3 {
            let mut total = Tally::default();
            for t in &self.live {
                for (a, b) in total.wdl.iter_mut().zip(&t.wdl) {
                    *a += b;
                }
            }
            return format!(
                "{} pairings, first players' W-D-L {}",
                self.labels.len(),
                total.wdl_text()
            );
        }
        let mut parts = Vec::new();
        for (label, t) in self.labels.iter().zip(&self.live) {
            let extra = (self.describe)(t);
            let prefix = if self.labels.len() > 1 {
                format!("{label}: ")
            } else {
                String::new()
            };
            parts.push(format!(
                "{prefix}W-D-L {} penta {}{}{extra}",
                t.wdl_text(),
                t.penta_text(),
                if extra.is_empty() { "" } else { " " }
            ));
        }
        parts.join(" | ")
    }

    fn advance(&mut self) {
        // Games loaded from an earlier run are counted at the start, not shown one by one.
        if self.done >= self.already {
            let status = self.status();
            self.progress.on(&Progress::Advanced {
                done: self.done,
                status,
            });
        }
    }

    /// Passes a note (a line for the user) to the progress reporter.
    pub fn note(&mut self, text: &str) {
        self.progress.on(&Progress::Note { text: text.into() });
    }

    /// Handles one event.
    pub fn on_event(&mut self, event: &Event) {
        match event {
            Event::RunStarted {
                total_games,
                already_done,
                workers,
            } => {
                self.already = *already_done;
                self.progress.on(&Progress::Started {
                    job: self.job.clone(),
                    unit: "game".into(),
                    total: *total_games,
                    done: *already_done,
                    workers: *workers,
                    line_per_unit: false,
                });
            }
            Event::GameFinished { record, resumed } => {
                self.done += 1;
                if !*resumed {
                    self.played += 1;
                }
                self.live[record.pairing].add_game(first_score(record));
                self.advance();
            }
            Event::PairFinished {
                pairing,
                first,
                second,
                ..
            } => {
                self.live[*pairing].add_pair(*first, *second);
                self.advance();
            }
            Event::Stopped { at_pair } => self.progress.on(&Progress::Note {
                text: format!("stop rule reached at pair {at_pair}; finishing running games"),
            }),
            Event::RunFinished { .. } => self.progress.on(&Progress::Finished),
        }
    }

    /// Prints the plain status line when one is due (call now and then when no event comes).
    pub fn tick(&mut self) {
        self.progress.tick();
    }
}

/// Formats rows as a left-aligned text table.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for r in rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let line = |cells: Vec<&str>| {
        cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    let mut out = line(header.to_vec());
    out.push('\n');
    for r in rows {
        out.push_str(&line(r.iter().map(String::as_str).collect()));
        out.push('\n');
    }
    out
}
