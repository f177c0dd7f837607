//! `chuhan ladder`: play a ladder (embedded default or a file) with the library's ladder job,
//! which fits joint ratings with honest intervals and writes ratings.csv, gaps.csv,
//! pairings.csv and ladder.svg; print the tables.

use crate::args::LadderArgs;
use crate::EXIT_OK;
use anyhow::bail;
use chuhan_arena::jobs::ladder::{
    self, load_config, Analysis, LadderPlan, GAP_HEADER, RATING_HEADER,
};
use chuhan_arena::play::results::{default_out_dir, ResultsDir};
use chuhan_arena::report::table;

/// Runs the command.
pub fn run(args: &LadderArgs) -> anyhow::Result<u8> {
    let plan = match &args.resume {
        Some(dir) => {
            if args.config.is_some() || args.pairs.is_some() || args.seed.is_some() {
                bail!(
                    "--resume takes the configuration from {}; give no --config, --pairs or --seed",
                    dir.display()
                );
            }
            LadderPlan::resume(dir)?
        }
        None => {
            let (mut ladder, _) = load_config(args.config.as_deref())?;
            if let Some(p) = args.pairs {
                if p == 0 {
                    bail!("--pairs must be at least 1");
                }
                ladder.pairs = p;
            }
            if let Some(s) = args.seed {
                ladder.seed = s;
            }
            if let Some(b) = args.bootstrap {
                if b < 100 {
                    bail!("--bootstrap must be at least 100");
                }
                ladder.bootstrap = b;
            }
            let dir = match &args.out {
                Some(d) => {
                    ResultsDir::check_new(d)?;
                    d.clone()
                }
                None => default_out_dir(&format!("ladder-{}", ladder.name)),
            };
            LadderPlan::new(&ladder, dir)?
        }
    };
    let outcome = ladder::run(plan, args.session.concurrency, args.session.quiet)?;
    print_ratings(&outcome.analysis);
    println!(
        "played {} games in {:.1} s on {} workers; results in {}",
        outcome.finished.played,
        outcome.finished.seconds,
        outcome.prepared.plan.concurrency,
        outcome.finished.dir.path().display()
    );
    Ok(EXIT_OK)
}

/// The rating table, the neighbour gaps and the notes of a fitted ladder.
pub fn print_ratings(analysis: &Analysis) {
    println!("{}", table(&RATING_HEADER, &analysis.rating_rows()));
    println!("{}", table(&GAP_HEADER, &analysis.gap_rows()));
    for note in &analysis.notes {
        println!("note: {note}");
    }
}
