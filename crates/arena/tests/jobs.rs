//! The arena's jobs called as a library, with no binary: a ladder, the same ladder played in
//! shards and merged, and `rate` over the ladder's own games.pgn. Seeded, node-limited, no time
//! limits, so every figure is reproducible.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chuhan_arena::jobs::ladder::{self, LadderConfig, LadderOutcome, LadderPlan};
use chuhan_arena::jobs::merge::ShardSet;
use chuhan_arena::jobs::rate::{rate, read_collection, RateOptions};
use chuhan_arena::play::record::PlayedGame;
use chuhan_arena::play::schedule::Shard;
use chuhan_arena::ratings::FirstMove;
use chuhan_arena::report::Audience;

/// Three players a depth apart at a small node cap; each meets the next one.
const LADDER: &str = r#"
name = "jobs"
seed = 11
pairs = 3
neighbours = 1
max_nodes = 400
[[players]]
name = "d1"
spec = "default:depth=1"
[[players]]
name = "d2"
spec = "default:depth=2"
[[players]]
name = "d3"
spec = "default:depth=3"
"#;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("chuhan-jobs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn config(first_move: FirstMove) -> LadderConfig {
    let mut c = LadderConfig::parse(LADDER, "jobs.rs").expect("a valid ladder");
    c.first_move_advantage = first_move;
    c
}

fn play(c: &LadderConfig, dir: &Path, shard: Option<Shard>) -> LadderOutcome {
    let mut plan = LadderPlan::new(c, dir.to_path_buf()).expect("a plan");
    plan.config.shard = shard;
    ladder::run(plan, Some(2), Audience::Silent).expect("the ladder plays")
}

/// What two runs of the same games share (not the seconds they took).
fn games(records: &BTreeMap<u64, PlayedGame>) -> Vec<(u64, String, String, String, String)> {
    records
        .iter()
        .map(|(&i, r)| {
            (
                i,
                r.red.clone(),
                r.black.clone(),
                format!("{:?}", r.result),
                r.moves.clone(),
            )
        })
        .collect()
}

#[test]
fn a_ladder_plays_its_schedule_and_fits_every_gap() {
    let dir = scratch("ladder");
    let out = play(&config(FirstMove::Auto), &dir, None);
    // Two pairings of three pairs: twelve games, each player in each of its pairings.
    assert_eq!(out.finished.records.len(), 12);
    assert_eq!(out.finished.played, 12);
    let a = out.analysis.expect("an unsharded ladder is fitted");
    let names: Vec<&str> = a.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["d1", "d2", "d3"]);
    assert_eq!(a.gaps.len(), 2);
    assert_eq!(
        a.players[0].elo,
        Some(0.0),
        "ratings are relative to the first player"
    );
    let games_of = |n: &str| a.players.iter().find(|p| p.name == n).unwrap().games;
    assert_eq!((games_of("d1"), games_of("d2"), games_of("d3")), (6, 12, 6));
    // The first-move term asked for is estimated, with an interval.
    let w = a.honest.first_move.expect("a first-move estimate");
    assert!(w.estimated && w.elo.is_finite(), "{w:?}");
    for f in [
        "ratings.csv",
        "gaps.csv",
        "games.csv",
        "games.pgn",
        "manifest.toml",
    ] {
        assert!(dir.join(f).exists(), "{f} missing");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_merged_hold_the_single_runs_games() {
    let c = config(FirstMove::default());
    let whole = scratch("whole");
    let single = play(&c, &whole, None);
    let dirs: Vec<PathBuf> = (0..2).map(|i| scratch(&format!("shard-{i}"))).collect();
    for (i, d) in dirs.iter().enumerate() {
        let out = play(
            &c,
            d,
            Some(Shard {
                index: i as u64,
                count: 2,
            }),
        );
        assert!(out.analysis.is_none(), "a shard is not fitted on its own");
        assert!(!out.finished.records.is_empty() && out.finished.records.len() < 12);
    }
    let mut set = ShardSet::read(&dirs).expect("the shards read");
    assert!(set.status().done, "both shards are complete");
    let merged = set.merged().expect("the shards merge");
    assert_eq!(games(&merged.records), games(&single.finished.records));
    for d in dirs.iter().chain([&whole]) {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn rate_on_a_ladders_games_pgn_gives_the_ladders_ratings() {
    let dir = scratch("rate");
    let out = play(&config(FirstMove::Auto), &dir, None);
    let a = out.analysis.unwrap();
    let collection = read_collection(&[dir.join("games.pgn")]).expect("games.pgn reads");
    assert_eq!(collection.games.len(), 12);
    let rated = rate(
        &collection,
        &RateOptions {
            anchor: Some("d1".to_string()),
            anchor_elo: 0.0,
            first_move: FirstMove::Auto,
        },
    )
    .expect("a connected collection rates");
    assert_eq!(rated.groups.len(), 1);
    let r = &rated.groups[0].analysis;
    for p in &a.players {
        let q = r.players.iter().find(|q| q.name == p.name).unwrap();
        let (x, y) = (p.elo.unwrap(), q.elo.unwrap());
        assert!((x - y).abs() < 1e-6, "{}: ladder {x}, rate {y}", p.name);
        assert_eq!((p.games, p.draws), (q.games, q.draws));
    }
    let (w, v) = (a.honest.first_move.unwrap(), r.honest.first_move.unwrap());
    assert!((w.elo - v.elo).abs() < 1e-6, "{w:?} vs {v:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
