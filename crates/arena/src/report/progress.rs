//! The one progress contract of every job (match, sprt, ladder, calibrate, datagen, texel,
//! spsa): jobs emit [`Progress`] events; one [`ProgressReporter`] per audience shows them on
//! stderr — an indicatif bar on a terminal, a plain status line every few seconds otherwise,
//! or one JSON object a line for programs — and shows nothing when asked to be quiet.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// What a job reports while it runs, whatever the job.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Progress {
    /// The job starts: `total` units of work (`unit`: game, iteration, epoch), of which
    /// `done` were done by an earlier, interrupted run.
    Started {
        /// The job (`match`, `sprt`, `ladder`, `calibrate`, `datagen`, `texel`, `spsa`).
        job: String,
        /// What is counted, singular (`game`, `iteration`, `epoch`).
        unit: String,
        /// Units in all.
        total: u64,
        /// Units already done when it starts (resumed).
        done: u64,
        /// Units run at once.
        workers: usize,
        /// Few, slow units (epochs): plain output gets a line for every one of them rather than
        /// one every few seconds.
        line_per_unit: bool,
    },
    /// `done` units are complete; `status` sums up the job's numbers in a few words.
    Advanced {
        /// Units complete.
        done: u64,
        /// A short status (W-D-L, Elo, losses, theta...).
        status: String,
    },
    /// A line worth showing on its own (K fitted, a stop rule reached...).
    Note {
        /// The text.
        text: String,
    },
    /// The job has finished its work.
    Finished,
}

/// Who reads the progress output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// A person at a terminal: a bar.
    Terminal,
    /// A log file: a plain status line every few seconds.
    Plain,
    /// A program: every event as one JSON object a line.
    Json,
    /// Nobody: nothing is shown.
    Silent,
}

impl Audience {
    /// The bar on a terminal, plain lines otherwise; nothing when `quiet`.
    pub fn detect(quiet: bool) -> Audience {
        if quiet {
            Audience::Silent
        } else if std::io::stderr().is_terminal() {
            Audience::Terminal
        } else {
            Audience::Plain
        }
    }
}

/// Shows [`Progress`] events to one [`Audience`] on stderr.
pub struct ProgressReporter {
    audience: Audience,
    bar: Option<ProgressBar>,
    unit: String,
    total: u64,
    done: u64,
    done_at_start: u64,
    status: String,
    line_per_unit: bool,
    printed: Option<u64>,
    start: Instant,
    last_plain: Instant,
    plain_every: Duration,
}

impl ProgressReporter {
    /// A reporter for `audience`.
    pub fn new(audience: Audience) -> ProgressReporter {
        ProgressReporter {
            audience,
            bar: None,
            unit: String::new(),
            total: 0,
            done: 0,
            done_at_start: 0,
            status: String::new(),
            line_per_unit: false,
            printed: None,
            start: Instant::now(),
            last_plain: Instant::now(),
            plain_every: Duration::from_secs(5),
        }
    }

    /// Seconds since the reporter was made.
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Shows one event.
    pub fn on(&mut self, event: &Progress) {
        if self.audience == Audience::Json {
            if let Ok(line) = serde_json::to_string(event) {
                eprintln!("{line}");
            }
        }
        match event {
            Progress::Started {
                unit,
                total,
                done,
                workers,
                line_per_unit,
                ..
            } => {
                self.unit = unit.clone();
                self.line_per_unit = *line_per_unit;
                self.total = *total;
                self.done = *done;
                self.done_at_start = *done;
                self.start = Instant::now();
                match self.audience {
                    Audience::Terminal => {
                        let bar = ProgressBar::with_draw_target(
                            Some(*total),
                            ProgressDrawTarget::stderr(),
                        );
                        bar.set_style(
                            ProgressStyle::with_template(&format!(
                                "{{bar:30}} {{pos}}/{{len}} {unit}s  {{msg}}  ETA {{eta}}"
                            ))
                            .expect("valid template"),
                        );
                        bar.set_position(*done);
                        // Work loaded from an earlier run says nothing about this one's speed.
                        bar.reset_eta();
                        self.bar = Some(bar);
                    }
                    Audience::Plain => {
                        if *done > 0 {
                            eprintln!("resuming: {done} of {total} {unit}s already done");
                        }
                        eprintln!("{total} {unit}s on {workers} workers");
                    }
                    Audience::Json | Audience::Silent => {}
                }
            }
            Progress::Advanced { done, status } => {
                self.done = *done;
                self.status = status.clone();
                if let Some(bar) = &self.bar {
                    bar.set_position(*done);
                    bar.set_message(status.clone());
                }
                if self.audience == Audience::Plain && self.line_per_unit {
                    self.print_plain();
                }
            }
            Progress::Note { text } => match (&self.bar, self.audience) {
                (Some(bar), _) => bar.println(text),
                (None, Audience::Plain | Audience::Terminal) => eprintln!("{text}"),
                _ => {}
            },
            Progress::Finished => {
                if let Some(bar) = self.bar.take() {
                    bar.finish_and_clear();
                }
                // The last count, unless its line is already out.
                if self.audience == Audience::Plain && self.printed != Some(self.done) {
                    self.print_plain();
                }
            }
        }
        self.tick();
    }

    /// Prints the plain status line when one is due (call now and then when no event comes).
    pub fn tick(&mut self) {
        if self.audience == Audience::Plain
            && !self.unit.is_empty()
            && self.last_plain.elapsed() >= self.plain_every
        {
            self.print_plain();
        }
    }

    fn print_plain(&mut self) {
        self.last_plain = Instant::now();
        self.printed = Some(self.done);
        let rate = self.done.saturating_sub(self.done_at_start) as f64 / self.elapsed().max(1e-9);
        let left = self.total.saturating_sub(self.done);
        let eta = if rate > 0.0 {
            format!("{:.0}s", left as f64 / rate)
        } else {
            "-".to_string()
        };
        eprintln!(
            "{} {}/{}  {}  {rate:.1} {}s/s  ETA {eta}",
            self.unit, self.done, self.total, self.status, self.unit
        );
    }
}

impl Drop for ProgressReporter {
    fn drop(&mut self) {
        // A job that fails half way must not leave a bar drawn over the error message.
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_one_json_object_each() {
        let started = Progress::Started {
            job: "spsa".into(),
            unit: "iteration".into(),
            total: 10,
            done: 2,
            workers: 4,
            line_per_unit: false,
        };
        assert_eq!(
            serde_json::to_string(&started).unwrap(),
            r#"{"event":"started","job":"spsa","unit":"iteration","total":10,"done":2,"workers":4,"line_per_unit":false}"#
        );
        assert_eq!(
            serde_json::to_string(&Progress::Finished).unwrap(),
            r#"{"event":"finished"}"#
        );
    }

    #[test]
    fn the_reporter_follows_the_count() {
        let mut r = ProgressReporter::new(Audience::Silent);
        r.on(&Progress::Started {
            job: "match".into(),
            unit: "game".into(),
            total: 4,
            done: 1,
            workers: 2,
            line_per_unit: false,
        });
        r.on(&Progress::Advanced {
            done: 3,
            status: "W-D-L 1-1-1".into(),
        });
        assert_eq!((r.done, r.done_at_start, r.total), (3, 1, 4));
        assert_eq!(r.status, "W-D-L 1-1-1");
    }
}
