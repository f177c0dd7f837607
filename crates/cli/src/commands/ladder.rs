//! `chuhan ladder`: play a ladder (embedded default or a file) with the library's ladder job,
//! which fits joint ratings with honest intervals and writes ratings.csv, gaps.csv,
//! pairings.csv and ladder.svg; print the tables.

use crate::common::flags::{
    BudgetArgs, FirstMoveArgs, GameArgs, RunDirArgs, SeedArgs, SessionArgs, ShardArgs,
};
use crate::common::report::print_ratings;
use crate::common::setup::{check_resume_chess960, chess960_for};
use crate::EXIT_OK;
use anyhow::bail;
use chuhan_arena::jobs::ladder::{self, adaptive, load_config_for, LadderPlan};
use chuhan_arena::play::results::{default_out_dir, ResultsDir};
use chuhan_arena::play::setup::{lock_existing, lock_new};
use clap::Args;
use std::path::PathBuf;

/// `chuhan ladder`.
#[derive(Debug, Args)]
#[command(mut_arg("seed", |a| a.help("Run seed (overrides the file)")))]
#[command(mut_arg("precision", |a| a.help(
    "Play in rounds until every neighbour gap's 95% half-width is at most this many Elo: each \
     round's game pairs go to the pairings that shrink the widest gap most, a gap whose \
     interval still holds 0 counting as twice as wide (the first round plays --pairs per \
     pairing). Reproducible: the same seed gives the same games at any --concurrency, and \
     --resume continues the round it was in",
)))]
#[command(mut_arg("max_games", |a| a.help("With --precision: stop after at most this many games in all")))]
#[command(mut_arg("max_time", |a| a.help(
    "With --precision: stop after this much wall time (e.g. 90s, 5m, 1h). A time budget makes \
     the run not reproducible: a faster or busier machine plays other games",
)))]
#[command(mut_arg("out", |a| a.help(
    "Results folder (default results/<date>-ladder-<name>/); must be absent or empty",
)))]
#[command(mut_arg("resume", |a| a.help("Continue the interrupted ladder in this folder")))]
#[command(mut_arg("shard", |a| a.help(
    "Play only pairs `i` modulo `n` (`--shard i/n`) of a ladder with a fixed schedule (no \
     precision); `chuhan merge` joins the shard folders",
)))]
pub struct LadderArgs {
    /// Ladder file (default: the embedded configs/ladder.toml).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Game pairs per pairing (overrides the file).
    #[arg(long)]
    pub pairs: Option<u64>,
    /// Run seed.
    #[command(flatten)]
    pub seed: SeedArgs,
    /// Ignored, kept so older scripts still run: the 95% intervals are honest (profile
    /// likelihood, exact one-sided bounds after perfect scores), not bootstrapped.
    #[arg(long, hide = true)]
    pub bootstrap: Option<usize>,
    /// The precision to play to, and its budgets.
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Results folder, or the ladder to resume.
    #[command(flatten)]
    pub dir: RunDirArgs,
    /// One share of a fixed schedule.
    #[command(flatten)]
    pub sharding: ShardArgs,
    /// The game played (must agree with the file's `game`).
    #[command(flatten)]
    pub game: GameArgs,
    /// The first-move term of the joint fit (overrides the file).
    #[command(flatten)]
    pub first_move: FirstMoveArgs,
    /// Games at once, progress output.
    #[command(flatten)]
    pub session: SessionArgs,
}

/// Runs the command.
pub fn run(args: &LadderArgs) -> anyhow::Result<u8> {
    let budget = &args.budget;
    if budget.precision.is_none() && (budget.max_games.is_some() || budget.max_time.is_some()) {
        bail!("--max-games and --max-time are budgets of a ladder played to a precision: add --precision");
    }
    if let Some(p) = budget.precision {
        if !(p.is_finite() && p > 0.0) {
            bail!("--precision must be a positive number of Elo (a 95% half-width), not {p}");
        }
    }
    if budget.max_games == Some(0) {
        bail!("--max-games must be at least 1");
    }
    let max_time = budget.max_time.as_ref().map(|t| t.duration);
    let shard = args.sharding.shard;
    // Held until the run ends: one writer per results folder.
    let _lock;
    let mut plan = match &args.dir.resume {
        Some(dir) => {
            if args.config.is_some()
                || shard.is_some()
                || args.pairs.is_some()
                || args.seed.given().is_some()
                || budget.precision.is_some()
                || budget.max_games.is_some()
                || args.first_move.first_move_advantage.is_some()
            {
                bail!(
                    "--resume takes the configuration from {}; give no --config, --pairs, --seed, --precision, --max-games, --first-move-advantage or --shard (chuhan rate DIR/games.pgn --first-move-advantage refits finished games)",
                    dir.display()
                );
            }
            if let Some(game) = args.game.kind() {
                ResultsDir::check_game(dir, game)?;
            }
            check_resume_chess960(Some(dir), &args.game)?;
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
                ladder.chess960 = chess960_for(&args.game, ladder.kind())?;
            } else if ladder.chess960 && ladder.kind() != chuhan_arena::play::any::GameKind::Chess {
                bail!("the ladder file says chess960 = true for a {} ladder: Chess960 is a chess variant (game = \"chess\")", ladder.kind());
            }
            if let Some(p) = args.pairs {
                if p == 0 {
                    bail!("--pairs must be at least 1");
                }
                ladder.pairs = p;
            }
            if let Some(s) = args.seed.given() {
                ladder.seed = s;
            }
            if let Some(b) = args.bootstrap {
                if b < 100 {
                    bail!("--bootstrap must be at least 100");
                }
                ladder.bootstrap = b;
            }
            if let Some(w) = args.first_move.first_move_advantage {
                ladder.first_move_advantage = w;
            }
            if let Some(p) = budget.precision {
                ladder.precision = Some(p);
            }
            if let Some(m) = budget.max_games {
                ladder.max_games = Some(m);
            }
            if let Some(t) = &budget.max_time {
                ladder.max_time = Some(t.text.clone());
            }
            let dir = match &args.dir.out {
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
