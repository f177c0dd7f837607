//! Progress of an SPSA run on stderr.

use crate::jobs::tune::spsa::{IterationRow, SpsaParam};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Progress on stderr: a bar on a terminal, a plain line every 5 s otherwise.
pub struct SpsaProgress {
    bar: Option<ProgressBar>,
    plain: bool,
    last: Instant,
    start: Instant,
    total: u64,
    resumed: u64,
    wdl: [u64; 3],
}

impl SpsaProgress {
    /// Progress of `total` iterations of which `resumed` were done before; `quiet` hides it.
    pub fn new(total: u64, resumed: u64, quiet: bool) -> SpsaProgress {
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
        SpsaProgress {
            bar,
            plain,
            last: Instant::now(),
            start: Instant::now(),
            total,
            resumed,
            wdl: [0; 3],
        }
    }

    fn status(&self, row: &IterationRow, params: &[SpsaParam]) -> String {
        let mut s = format!("W-D-L {}-{}-{}", self.wdl[0], self.wdl[1], self.wdl[2]);
        for (p, t) in params.iter().zip(&row.theta).take(4) {
            let _ = write!(s, "  {}={t:.1}", p.name);
        }
        if params.len() > 4 {
            s.push_str("  ...");
        }
        s
    }

    /// Shows one completed iteration.
    pub fn on_row(&mut self, row: &IterationRow, params: &[SpsaParam]) {
        self.wdl[0] += row.wins;
        self.wdl[1] += row.draws;
        self.wdl[2] += row.losses;
        if let Some(bar) = &self.bar {
            bar.set_position(row.iteration);
            bar.set_message(self.status(row, params));
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
                self.status(row, params)
            );
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
