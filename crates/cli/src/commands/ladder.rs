//! `chuhan ladder`: play a ladder (embedded default or a file) with the library's ladder job,
//! which fits joint ratings with honest intervals and writes ratings.csv, gaps.csv,
//! pairings.csv and ladder.svg; print the tables.

use crate::args::LadderArgs;
use crate::EXIT_OK;
use anyhow::bail;
use chuhan_arena::jobs::ladder::{
    self, adaptive, load_config_for, Analysis, LadderPlan, GAP_HEADER, RATING_HEADER,
};
use chuhan_arena::play::results::{default_out_dir, ResultsDir};
use chuhan_arena::play::schedule::Shard;
use chuhan_arena::play::setup::{lock_existing, lock_new};
use chuhan_arena::report::table;

/// Runs the command.
pub fn run(args: &LadderArgs) -> anyhow::Result<u8> {
    if args.precision.is_none() && (args.max_games.is_some() || args.max_time.is_some()) {
        bail!("--max-games and --max-time are budgets of a ladder played to a precision: add --precision");
    }
    if let Some(p) = args.precision {
        if !(p.is_finite() && p > 0.0) {
            bail!("--precision must be a positive number of Elo (a 95% half-width), not {p}");
        }
    }
    if args.max_games == Some(0) {
        bail!("--max-games must be at least 1");
    }
    let max_time = args
        .max_time
        .as_deref()
        .map(|t| adaptive::parse_duration(t, "--max-time"))
        .transpose()?;
    let shard = args
        .shard
        .as_deref()
        .map(str::parse::<Shard>)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    // Held until the run ends: one writer per results folder.
    let _lock;
    let mut plan = match &args.resume {
        Some(dir) => {
            if args.config.is_some()
                || shard.is_some()
                || args.pairs.is_some()
                || args.seed.is_some()
                || args.precision.is_some()
                || args.max_games.is_some()
            {
                bail!(
                    "--resume takes the configuration from {}; give no --config, --pairs, --seed, --precision, --max-games or --shard",
                    dir.display()
                );
            }
            if let Some(game) = args.game.kind() {
                ResultsDir::check_game(dir, game)?;
            }
            crate::commands::setup::check_resume_chess960(Some(dir), &args.game)?;
            _lock = lock_existing(dir)?;
            crate::signals::resume_with(&["chuhan", "ladder", "--resume", &dir.to_string_lossy()]);
            let mut plan = LadderPlan::resume(dir)?;
            if let (Some(p), Some(t)) = (plan.precision.as_mut(), max_time) {
                // The wall-time budget is this session's.
                p.max_time = Some(t);
            } else if max_time.is_some() {
                bail!(
                    "--max-time: the ladder in {} is not played to a precision",
                    dir.display()
                );
            }
            plan
        }
        None => {
            let (mut ladder, _) = load_config_for(args.config.as_deref(), args.game.kind())?;
            if args.game.chess960().is_some() {
                ladder.chess960 = crate::commands::setup::chess960_for(&args.game, ladder.kind())?;
            } else if ladder.chess960 && ladder.kind() != chuhan_arena::play::any::GameKind::Chess {
                bail!("the ladder file says chess960 = true for a {} ladder: Chess960 is a chess variant (game = \"chess\")", ladder.kind());
            }
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
            if let Some(p) = args.precision {
                ladder.precision = Some(p);
            }
            if let Some(m) = args.max_games {
                ladder.max_games = Some(m);
            }
            if let Some(t) = &args.max_time {
                ladder.max_time = Some(t.clone());
            }
            let dir = match &args.out {
                Some(d) => d.clone(),
                None => default_out_dir(&format!("ladder-{}", ladder.name)),
            };
            _lock = lock_new(&dir)?;
            crate::signals::resume_with(&["chuhan", "ladder", "--resume", &dir.to_string_lossy()]);
            let mut plan = LadderPlan::new(&ladder, dir)?;
            if shard.is_some() && plan.precision.is_some() {
                // Rounds go to the pairings the games so far leave widest: no shard can know
                // them without the others' games, so only a fixed schedule splits.
                bail!(
                    "--shard: the ladder '{}' is played to a precision (adaptive rounds, which depend on every game so far), so it cannot be split; shard a ladder file without precision (a fixed number of pairs), e.g. a copy of it without the precision, max_games and max_time keys",
                    ladder.name
                );
            }
            plan.config.shard = shard;
            plan
        }
    };
    let (outcome, stop) = match plan.precision.take() {
        Some(precision) => {
            // Check with the flags' names before anything is played.
            precision.check(plan.config.pairings.len())?;
            let (outcome, stop) = adaptive::run_to_precision(
                plan,
                &precision,
                args.session.concurrency,
                args.session.audience(),
            )?;
            (outcome, Some(stop.describe(&precision)))
        }
        None => (
            ladder::run(plan, args.session.concurrency, args.session.audience())?,
            None,
        ),
    };
    match (&outcome.analysis, outcome.prepared.config.shard) {
        (Some(analysis), _) => print_ratings(analysis),
        (None, Some(shard)) => outln!(
            "shard {shard}: no ratings from one shard's games; chuhan merge --out DIR over all shard folders fits them"
        ),
        (None, None) => {}
    }
    if let Some(stop) = stop {
        outln!("stopped: {stop}");
    }
    outln!(
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
    outln!("{}", table(&RATING_HEADER, &analysis.rating_rows()));
    outln!("{}", table(&GAP_HEADER, &analysis.gap_rows()));
    for note in &analysis.notes {
        outln!("note: {note}");
    }
}
