//! Does rewriting report.html slow a run? Plays the same seeded runs through the library's
//! `execute` (as `chuhan match` does) with the live rewrites at their normal cadence ("on") and
//! with them off (`report::html::set_live_rewrites(false)`: the final page is written either
//! way), alternating on/off several times, and prints the wall time of each run, the ratio and
//! the time spent inside the rewrites. Then the cost of one rewrite at 200, 2,000 and 20,000
//! games.
//!
//!     cargo run --release -p chuhan-arena --example report_bench -- [ROUNDS] [BASE_GAMES]
//!
//! Two runs: a new match (`default` against itself, 300 pairs at 200 nodes a move) and the
//! resumption of a folder that holds BASE_GAMES games (default 20,000, made once at the start
//! with the rewrites off), playing 1,000 more games, so that the page is at its largest.
//! ROUNDS (default 3) on/off pairs of each; the order alternates (on, off, off, on, ...) so
//! that a drift of the machine's load does not favour one side. Folders go under the system's
//! temporary folder and are removed at the end.

use chuhan_arena::play::game::Adjudication;
use chuhan_arena::play::limits::LimitSpec;
use chuhan_arena::play::openings::OpeningSource;
use chuhan_arena::play::results::{PlayerEntry, RunConfig, RunKind};
use chuhan_arena::play::runner::StopRule;
use chuhan_arena::play::schedule::round_robin;
use chuhan_arena::play::setup::{execute, plan_from_config, Destination, PreparedRun};
use chuhan_arena::report::html::{
    read_games, rewrite_stats, set_live_rewrites, LiveReport, RewriteStats,
};
use chuhan_arena::report::Audience;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Node budget per move: games of a few milliseconds.
const NODES: u64 = 200;
/// Game pairs of the new match.
const MATCH_PAIRS: u64 = 300;
/// Game pairs the resumed run plays on top of its folder.
const RESUME_PAIRS: u64 = 500;

fn config(pairs: u64) -> RunConfig {
    RunConfig {
        command: RunKind::Match,
        game: Default::default(),
        chess960: false,
        seed: 1,
        pairs,
        rules: chuhan_engine::RuleSet::default(),
        move_limit: 120,
        shard: None,
        players: ["default", "default"]
            .iter()
            .enumerate()
            .map(|(i, n)| PlayerEntry {
                name: format!("{n}-{}", i + 1),
                spec: n.to_string(),
            })
            .collect(),
        limit: LimitSpec::Nodes(NODES),
        openings: OpeningSource::Generated { plies: 6 },
        adjudication: Adjudication::default(),
        sprt: None,
        pairings: Vec::new(),
        pgn_format: chuhan_engine::Notation::Iccs,
        first_move_advantage: Default::default(),
    }
}

/// Stops a run after this many complete pairs (to make a folder a later run resumes).
struct StopAfter(u64);

impl StopRule for StopAfter {
    fn add_pair(&mut self, _pairing: usize, _first: f64, _second: f64) -> bool {
        self.0 = self.0.saturating_sub(1);
        self.0 == 0
    }
}

/// CPU seconds (user + system) of `/proc/self/stat` (the process) or `/proc/thread-self/stat`
/// (this thread, which is the run's collecting thread: `execute` collects on its caller's
/// thread). CPU time, unlike wall time, hardly depends on what else the machine runs.
fn cpu_seconds(file: &str) -> f64 {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    // Fields after the command name in parentheses: utime and stime are the 12th and 13th.
    let after = text.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

/// What one run cost.
struct Cost {
    wall: Duration,
    /// CPU seconds of the whole process.
    cpu: f64,
    /// CPU seconds of the collecting thread.
    collector_cpu: f64,
    rewrites: RewriteStats,
    played: u64,
}

/// Plays `config` into `destination`.
fn play(
    config: &RunConfig,
    destination: Destination,
    stop: Option<Box<dyn StopRule>>,
) -> anyhow::Result<Cost> {
    let plan = plan_from_config(config, round_robin(2, config.pairs), Some(2))?;
    let prepared = PreparedRun::new(config.clone(), plan, destination);
    let labels = prepared.pairing_labels();
    let before = rewrite_stats();
    let (cpu, thread) = (
        cpu_seconds("/proc/self/stat"),
        cpu_seconds("/proc/thread-self/stat"),
    );
    let start = Instant::now();
    let finished = execute(
        &prepared,
        stop,
        labels,
        Box::new(|_| String::new()),
        Audience::Silent,
    )?;
    Ok(Cost {
        wall: start.elapsed(),
        cpu: cpu_seconds("/proc/self/stat") - cpu,
        collector_cpu: cpu_seconds("/proc/thread-self/stat") - thread,
        rewrites: rewrite_stats().since(&before),
        played: finished.played,
    })
}

fn copy_folder(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len().max(1) as f64
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|t| t.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.first().map_or(Ok(3), |a| a.parse())?;
    let base_games: u64 = args.get(1).map_or(Ok(20_000), |a| a.parse())?;
    anyhow::ensure!(
        rounds >= 1 && base_games >= 200,
        "give ROUNDS >= 1, BASE_GAMES >= 200"
    );
    let root = std::env::temp_dir().join(format!("chuhan-report-bench-{}", std::process::id()));
    anyhow::ensure!(!root.exists(), "{} exists", root.display());
    let result = bench(&root, rounds, base_games);
    std::fs::remove_dir_all(&root).ok();
    result
}

fn bench(root: &Path, rounds: usize, base_games: u64) -> anyhow::Result<()> {
    println!("load average at start: {}", load());
    let base_pairs = base_games / 2;
    let resume_config = config(base_pairs + RESUME_PAIRS);
    let base = root.join("base");
    set_live_rewrites(false);
    let made = play(
        &resume_config,
        Destination::New(base.clone()),
        Some(Box::new(StopAfter(base_pairs))),
    )?;
    let played = made.played;
    println!(
        "made the folder to resume: {played} games in {:.1} s",
        made.wall.as_secs_f64()
    );

    let mut runs = 0usize;
    let mut fresh = |name: &str| -> PathBuf {
        runs += 1;
        root.join(format!("{name}-{runs}"))
    };
    for (scenario, what) in [
        (
            "match",
            format!("new match, {MATCH_PAIRS} pairs at nodes={NODES}"),
        ),
        (
            "resume",
            format!("resumed folder of {played} games, {RESUME_PAIRS} pairs more"),
        ),
    ] {
        println!("\n{scenario}: {what}; load average {}", load());
        println!(
            "run  rewrites  wall ms  cpu ms  collector cpu ms  live rewrites  ms inside them  final page ms  games"
        );
        // [off, on] for wall and CPU milliseconds.
        let mut wall: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        let mut cpu: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        let mut collector: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        let mut inside = Vec::new();
        for i in 0..rounds * 2 {
            // on off off on on off ...: each side as often first as second.
            let on = (i % 4 == 0) || (i % 4 == 3);
            let dir = fresh(scenario);
            let (destination, cfg) = if scenario == "match" {
                (Destination::New(dir), config(MATCH_PAIRS))
            } else {
                copy_folder(&base, &dir)?;
                (Destination::Resume(dir), resume_config.clone())
            };
            set_live_rewrites(on);
            let c = play(&cfg, destination, None)?;
            let side = usize::from(on);
            wall[side].push(ms(c.wall));
            cpu[side].push(c.cpu * 1000.0);
            collector[side].push(c.collector_cpu * 1000.0);
            if on {
                inside.push(ms(c.rewrites.live_time));
            }
            println!(
                "{:>3}  {:>8}  {:>7.0}  {:>6.0}  {:>16.0}  {:>13}  {:>14.1}  {:>13.1}  {}",
                i + 1,
                if on { "on" } else { "off" },
                ms(c.wall),
                c.cpu * 1000.0,
                c.collector_cpu * 1000.0,
                c.rewrites.live,
                ms(c.rewrites.live_time),
                ms(c.rewrites.final_time),
                c.played
            );
        }
        let (off, on) = (mean(&wall[0]), mean(&wall[1]));
        let (cpu_off, cpu_on) = (mean(&cpu[0]), mean(&cpu[1]));
        println!(
            "{scenario}: mean wall on {on:.0} ms, off {off:.0} ms, ratio on/off {:.3}; \
             mean CPU on {cpu_on:.0} ms, off {cpu_off:.0} ms, ratio {:.3}; \
             collecting thread's CPU on {:.0} ms, off {:.0} ms; \
             mean time inside live rewrites {:.1} ms ({:.2}% of the run); load average {}",
            on / off,
            cpu_on / cpu_off,
            mean(&collector[1]),
            mean(&collector[0]),
            mean(&inside),
            100.0 * mean(&inside) / on,
            load()
        );
    }

    // One rewrite at a given size: the first (every browser game rendered) and the next ones
    // (the rendered games cached, as in a running job), of the big folder's first games.
    set_live_rewrites(true);
    let games = read_games(&base)?;
    println!("\none rewrite (render + write), load average {}", load());
    println!("games  first ms  next ms (median of 5)  page bytes");
    for n in [200usize, 2_000, 20_000] {
        let n = n.min(games.len());
        let dir = fresh("size");
        copy_folder(&base, &dir)?;
        let mut live = LiveReport::new(&dir);
        for g in &games[..n - 1] {
            live.on_game(g);
        }
        let before = rewrite_stats();
        live.write_now();
        let first = rewrite_stats().since(&before).live_time;
        let mut next = Vec::new();
        for _ in 0..5 {
            live.on_game(&games[n - 1]);
            let before = rewrite_stats();
            live.write_now();
            next.push(ms(rewrite_stats().since(&before).live_time));
        }
        next.sort_by(f64::total_cmp);
        let bytes = std::fs::metadata(dir.join("report.html"))?.len();
        println!("{n:>5}  {:>8.1}  {:>21.1}  {bytes:>10}", ms(first), next[2]);
    }
    println!("load average at the end: {}", load());
    Ok(())
}
