//! Benchmark of `chuhan merge`'s library path: writes synthetic shard folders of a two-player
//! match (valid games.csv rows: the run's pairs, seeds and players, random results, 80-ply move
//! lists), then reads, checks and merges them as the command does and prints the figures.
//!
//!     cargo run --release -p chuhan-arena --example merge_bench -- [GAMES] [SHARDS] [DIR]
//!
//! Defaults: 1,000,000 games in 100 shards under the system's temporary folder (removed
//! afterwards; a DIR given is kept).

use chuhan_arena::jobs::merge::{write_folder, ShardSet};
use chuhan_arena::play::game::Adjudication;
use chuhan_arena::play::limits::LimitSpec;
use chuhan_arena::play::openings::OpeningSource;
use chuhan_arena::play::pgn::{pgn_record, PgnContext};
use chuhan_arena::play::results::{Manifest, PlayerEntry, RunConfig, RunKind, GAMES_HEADER};
use chuhan_arena::play::runner::PlayedGame;
use chuhan_arena::play::schedule::{game_seed, Shard};
use chuhan_arena::report::{summary_rows, tally};
use chuhan_engine::{GameResult, RuleSet};
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

const OPENING: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().map_or(Ok(1_000_000), |a| a.parse())?;
    let shards: u64 = args.get(1).map_or(Ok(100), |a| a.parse())?;
    let keep = args.get(2).map(PathBuf::from);
    anyhow::ensure!(games >= 2 && shards >= 1, "give GAMES >= 2 and SHARDS >= 1");
    let root = keep.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("chuhan-merge-bench-{}", std::process::id()))
    });
    anyhow::ensure!(
        !root.exists(),
        "{} exists: give a new folder",
        root.display()
    );
    let pairs = games / 2;
    let config = RunConfig {
        game: Default::default(),
        chess960: false,
        command: RunKind::Match,
        seed: 1,
        pairs,
        rules: RuleSet::default(),
        move_limit: 120,
        shard: None,
        players: ["random", "greedy"]
            .iter()
            .map(|n| PlayerEntry {
                name: n.to_string(),
                spec: n.to_string(),
            })
            .collect(),
        limit: LimitSpec::Nodes(10_000),
        openings: OpeningSource::Generated { plies: 6 },
        adjudication: Adjudication::default(),
        sprt: None,
        pairings: Vec::new(),
        pgn_format: chuhan_engine::Notation::Iccs,
        first_move_advantage: Default::default(),
    };
    // Legal from the start (the merge writes games.pgn, which replays every move): both
    // horses out and back, 20 times.
    let moves = ["h0g2", "h9g7", "g2h0", "g7h9"]
        .iter()
        .cycle()
        .take(80)
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    let started = Instant::now();
    let manifest = Manifest::new(config.clone());
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
    let mut dirs = Vec::new();
    let ctx = PgnContext::for_run(&manifest);
    let mut templates: std::collections::HashMap<(u64, &str), String> = Default::default();
    for i in 0..shards {
        let dir = root.join(format!("shard-{i}"));
        std::fs::create_dir_all(&dir)?;
        let mut m = manifest.clone();
        m.config.shard = Some(Shard {
            index: i,
            count: shards,
        });
        std::fs::write(dir.join("manifest.toml"), toml::to_string(&m)?)?;
        let file = std::io::BufWriter::new(std::fs::File::create(dir.join("games.csv"))?);
        let mut file = file;
        writeln!(file, "{GAMES_HEADER}")?;
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        let mut pgn = std::io::BufWriter::new(std::fs::File::create(dir.join("games.pgn"))?);
        for pair in (i..pairs).step_by(shards as usize) {
            for g in 0..2 {
                let game = 2 * pair + g;
                let (red, black) = if g == 0 {
                    ("random", "greedy")
                } else {
                    ("greedy", "random")
                };
                let result = match rng.gen_range(0..3) {
                    0 => GameResult::RedWins,
                    1 => GameResult::Draw,
                    _ => GameResult::BlackWins,
                };
                let row = PlayedGame {
                    pair,
                    game,
                    pairing: 0,
                    opening: OPENING.to_string(),
                    red: red.to_string(),
                    black: black.to_string(),
                    result,
                    termination: "checkmate".to_string(),
                    plies: 80,
                    nodes: 0,
                    seconds: 0.0123,
                    seed: game_seed(1, game),
                    moves: moves.clone(),
                    search: Vec::new(),
                };
                // A shard's games.pgn as its run writes it: the record of a game of the same
                // players and result, written once, with this game's Round tag.
                let key = (g, result.as_pgn());
                let template = match templates.get(&key) {
                    Some(t) => t,
                    None => {
                        let mut first = row.clone();
                        first.pair = 0;
                        first.game = g;
                        let text = pgn_record(&first, &ctx)?;
                        templates.entry(key).or_insert(text)
                    }
                };
                pgn.write_all(
                    template
                        .replacen(
                            &format!("[Round \"0.{g}\"]"),
                            &format!("[Round \"{pair}.{game}\"]"),
                            1,
                        )
                        .as_bytes(),
                )?;
                w.serialize(row)?;
            }
        }
        w.flush()?;
        pgn.flush()?;
        dirs.push(dir);
    }
    let written = started.elapsed().as_secs_f64();
    let bytes: u64 = dirs
        .iter()
        .map(|d| std::fs::metadata(d.join("games.csv")).map_or(0, |m| m.len()))
        .sum();

    let cpu0 = cpu_seconds();
    let t0 = Instant::now();
    let mut set = ShardSet::read(&dirs)?;
    let read = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let merged = set.merged()?;
    let out = root.join("merged");
    let dir = write_folder(&set, &merged, &out)?;
    let tallies = tally(&merged.records, 1, None);
    let (header, rows) = summary_rows(&["random vs greedy".to_string()], &tallies);
    dir.write_summary(&header, &rows)?;
    let write = t1.elapsed().as_secs_f64();
    let total = read + write;
    let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    println!(
        "synthetic shards: {} games in {shards} shards, {:.0} MB of games.csv, written in {written:.1} s",
        merged.records.len(),
        bytes as f64 / 1e6
    );
    println!("read and check: {read:.2} s");
    println!("merge and write (games.csv, manifest, summary): {write:.2} s");
    println!(
        "total: {total:.2} s ({:.0} games/s, {:.0} MB/s)",
        merged.records.len() as f64 / total,
        bytes as f64 / 1e6 / total
    );
    if let Some(cpu) = cpu {
        // Wall time on a shared machine says little: the CPU time is what the merge costs.
        println!("cpu time of read, check, merge and write: {cpu:.2} s (user + system)");
    }
    if keep.is_none() {
        std::fs::remove_dir_all(&root)?;
    }
    Ok(())
}

/// User + system CPU seconds of this process so far (Linux: /proc/self/stat), if readable.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // The kernel's USER_HZ is 100 on every Linux this project runs on.
    Some(ticks / 100.0)
}
