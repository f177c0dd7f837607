//! `chuhan merge` end to end: shard folders of match, ladder and sprt runs merged into the
//! folder the single-machine run writes (game for game, timing aside), `--check`, and every
//! kind of unusable shard set (missing, duplicated, unfinished, foreign) refused with exit 2
//! naming it.

use crate::fixtures as common;

use common::chuhan;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A fresh, absent directory under the test target's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("merge-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = chuhan(args);
    assert_eq!(code, 0, "chuhan {args:?}\n{out}\n{err}");
    out
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// games.csv rows keyed by game index, without the timing column.
fn games(dir: &Path) -> BTreeMap<u64, Vec<String>> {
    let mut r = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let seconds = header.iter().position(|h| h == "seconds").unwrap();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            let mut row: Vec<String> = rec.iter().map(String::from).collect();
            row.remove(seconds);
            (rec[1].parse().unwrap(), row)
        })
        .collect()
}

/// Game indices in file order.
fn order(dir: &Path) -> Vec<u64> {
    let mut r = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    r.records()
        .map(|rec| rec.unwrap()[1].parse().unwrap())
        .collect()
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The `[config]` table of a manifest.
fn config_of(dir: &Path) -> toml::Value {
    let m: toml::Value = toml::from_str(&read(dir, "manifest.toml")).unwrap();
    m["config"].clone()
}

/// Runs `base` once on one machine and as `n` shards; returns (single, shard folders).
fn single_and_shards(name: &str, base: &[&str], n: u64) -> (PathBuf, Vec<PathBuf>) {
    let root = scratch(name);
    let single = root.join("single");
    let mut args: Vec<&str> = base.to_vec();
    args.extend(["--out", s(&single)]);
    ok(&args);
    let shards: Vec<PathBuf> = (0..n).map(|i| root.join(format!("shard-{i}"))).collect();
    for (i, dir) in shards.iter().enumerate() {
        let spec = format!("{i}/{n}");
        let mut args: Vec<&str> = base.to_vec();
        args.extend(["--shard", &spec, "--out", s(dir)]);
        ok(&args);
    }
    (single, shards)
}

fn merge(out: &Path, shards: &[&Path]) -> (i32, String, String) {
    let mut args = vec!["merge", "--out", s(out)];
    args.extend(shards.iter().map(|p| s(p)));
    chuhan(&args)
}

fn merge_ok(out: &Path, shards: &[&Path]) -> String {
    let (code, stdout, stderr) = merge(out, shards);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    stdout
}

fn merge_fails(out: &Path, shards: &[&Path], needles: &[&str]) {
    let (code, stdout, stderr) = merge(out, shards);
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    for n in needles {
        assert!(stderr.contains(n), "expected '{n}' in: {stderr}");
    }
    assert!(!out.exists(), "a refused merge writes nothing");
}

const MATCH: &[&str] = &[
    "match",
    "--player",
    "random",
    "--player",
    "greedy",
    "--player",
    "random",
    "--pairs",
    "4",
    "--seed",
    "11",
    "--concurrency",
    "2",
    "--quiet",
];

#[test]
fn merged_match_equals_the_single_machine_run() {
    let (single, shards) = single_and_shards("match", MATCH, 3);
    let out = single.parent().unwrap().join("merged");
    // Any order of the shard folders.
    let text = merge_ok(&out, &[&shards[2], &shards[0], &shards[1]]);
    assert!(text.contains("merged 24 games of 3 shards"), "{text}");
    assert_eq!(games(&out), games(&single));
    assert_eq!(games(&out).len(), 24);
    let mut sorted = order(&out);
    sorted.sort_unstable();
    assert_eq!(order(&out), sorted, "games.csv is sorted by (pair, game)");
    assert_eq!(read(&out, "summary.csv"), read(&single, "summary.csv"));
    assert_eq!(config_of(&out), config_of(&single));
    // games.pgn: the shards' records, one per game in games.csv's order, with the same moves
    // and results as the single run's (comments hold times, so the text differs).
    let pgn = |dir: &Path| -> Vec<(String, Vec<String>, String)> {
        chuhan_engine::read_pgn(&read(dir, "games.pgn"))
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r.tag("Round").unwrap().to_string(),
                    r.moves.iter().map(|m| m.to_uci()).collect(),
                    r.result.clone(),
                )
            })
            .collect()
    };
    let merged_pgn = pgn(&out);
    assert_eq!(merged_pgn.len(), 24);
    let mut single_pgn = pgn(&single);
    let round_key = |r: &str| -> (u64, u64) {
        let (p, g) = r.split_once('.').unwrap();
        (p.parse().unwrap(), g.parse().unwrap())
    };
    single_pgn.sort_by_key(|r| round_key(&r.0));
    assert_eq!(merged_pgn, single_pgn);
    assert!(
        read(&out, "games.pgn").contains('{'),
        "the shards' move comments are kept"
    );
    let manifest = read(&out, "manifest.toml");
    for i in 0..3 {
        assert!(
            manifest.contains(&format!("shard = \"{i}/3\"")),
            "{manifest}"
        );
    }
    // A merged folder resumes like a finished single run: nothing left to play.
    let again = ok(&["match", "--resume", s(&out), "--quiet"]);
    assert!(again.contains("played 0 games"), "{again}");
    assert_eq!(games(&out), games(&single));

    let (code, status, _) = chuhan(&[
        "merge",
        "--check",
        s(&shards[0]),
        s(&shards[1]),
        s(&shards[2]),
    ]);
    assert_eq!(code, 0, "{status}");
    assert!(status.contains("done: yes"), "{status}");

    // A shard built from another commit (same version and bench signature): a warning only.
    let manifest = read(&shards[1], "manifest.toml");
    let line = manifest
        .lines()
        .find(|l| l.starts_with("git_commit"))
        .unwrap();
    let other = manifest.replace(line, "git_commit = \"0123456789abcdef\"");
    std::fs::write(shards[1].join("manifest.toml"), other).unwrap();
    let out2 = single.parent().unwrap().join("merged-2");
    let (code, _, err) = merge(&out2, &[&shards[0], &shards[1], &shards[2]]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning") && err.contains("0123456789abcdef"),
        "{err}"
    );
    assert_eq!(games(&out2), games(&single));
}

#[test]
fn missing_duplicated_unfinished_and_foreign_shards_exit_2_naming_them() {
    let (single, shards) = single_and_shards("bad", MATCH, 3);
    let root = single.parent().unwrap().to_path_buf();
    let out = root.join("merged");
    let [a, b, c] = [&shards[0], &shards[1], &shards[2]];

    merge_fails(&out, &[a, c], &["shard 1/3 is missing"]);
    let (code, status, _) = chuhan(&["merge", "--check", s(a), s(c)]);
    assert_eq!(code, 1, "not yet mergeable: {status}");
    assert!(status.contains("shards: 2 of 3 given"), "{status}");

    let copy = root.join("copy-of-1");
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["manifest.toml", "games.csv"] {
        std::fs::copy(b.join(f), copy.join(f)).unwrap();
    }
    merge_fails(
        &out,
        &[a, b, c, &copy],
        &["shard 1/3 is given twice", s(b), s(&copy)],
    );

    merge_fails(&out, &[a, b, c, &single], &[s(&single), "is not a shard"]);

    // Shard 2 interrupted: its last game and half of the one before are gone.
    let text = read(c, "games.csv");
    let lines: Vec<&str> = text.lines().collect();
    let cut = lines[..lines.len() - 2].join("\n") + "\n" + &lines[lines.len() - 2][..20];
    std::fs::write(c.join("games.csv"), cut).unwrap();
    merge_fails(
        &out,
        &[a, b, c],
        &[s(c), "shard 2/3 is unfinished", "6 of its 8 games"],
    );
    let (code, status, _) = chuhan(&["merge", "--check", s(a), s(b), s(c)]);
    assert_eq!(code, 1, "{status}");
    assert!(status.contains("done: no"), "{status}");
    // Finished with --resume, it merges to the single run.
    ok(&["match", "--resume", s(c), "--quiet"]);
    merge_ok(&out, &[a, b, c]);
    assert_eq!(games(&out), games(&single));

    // A shard of another run (another seed).
    let other = root.join("other-seed");
    let mut args: Vec<&str> = MATCH.to_vec();
    let seed = args.len() - 4;
    args[seed] = "12";
    args.extend(["--shard", "1/3", "--out", s(&other)]);
    ok(&args);
    let out2 = root.join("merged-2");
    merge_fails(
        &out2,
        &[a, &other, c],
        &[s(&other), "not a shard of the same run", "seed"],
    );
    // Another shard count.
    let four = root.join("four");
    let mut args: Vec<&str> = MATCH.to_vec();
    args.extend(["--shard", "1/4", "--out", s(&four)]);
    ok(&args);
    merge_fails(&out2, &[a, &four], &[s(&four), "shard counts"]);

    // A row that belongs to another shard.
    let moved = root.join("moved");
    std::fs::create_dir_all(&moved).unwrap();
    std::fs::copy(a.join("manifest.toml"), moved.join("manifest.toml")).unwrap();
    let rows_a = read(a, "games.csv");
    let row_b = read(b, "games.csv").lines().nth(1).unwrap().to_string();
    std::fs::write(moved.join("games.csv"), format!("{rows_a}{row_b}\n")).unwrap();
    merge_fails(
        &out2,
        &[&moved, b, c],
        &["moved/games.csv:10", "belongs to shard 1/3"],
    );

    // Merging into a folder that holds files.
    let before = games(&single);
    let (code, _, err) = merge(&single, &[a, b, c]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("exists and is not empty"), "{err}");
    assert_eq!(games(&single), before);
}

const LADDER: &str = r#"
name = "tiny"
seed = 5
pairs = 3
neighbours = 1
max_nodes = 300
[[players]]
name = "random"
spec = "random"
[[players]]
name = "greedy"
spec = "greedy"
[[players]]
name = "d1"
spec = "default:depth=1"
"#;

#[test]
fn merged_ladder_equals_the_single_machine_run() {
    let root = scratch("ladder-file");
    std::fs::create_dir_all(&root).unwrap();
    let file = root.join("tiny.toml");
    std::fs::write(&file, LADDER).unwrap();
    let base = [
        "ladder",
        "--config",
        s(&file),
        "--concurrency",
        "2",
        "--quiet",
    ];
    let (single, shards) = single_and_shards("ladder", &base, 2);
    let out = single.parent().unwrap().join("merged");
    let text = merge_ok(&out, &[&shards[1], &shards[0]]);
    assert!(text.contains("neighbour gap"), "{text}");
    assert_eq!(games(&out), games(&single));
    for f in [
        "summary.csv",
        "ratings.csv",
        "gaps.csv",
        "pairings.csv",
        "ladder.toml",
    ] {
        assert_eq!(read(&out, f), read(&single, f), "{f}");
    }
    assert!(out.join("ladder.svg").exists());
    assert_eq!(config_of(&out), config_of(&single));

    // A ladder played to a precision allocates by results so far: it cannot be sharded.
    let (code, _, err) = chuhan(&[
        "ladder",
        "--config",
        s(&file),
        "--precision",
        "100",
        "--shard",
        "0/2",
        "--out",
        s(&root.join("adaptive")),
        "--quiet",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--shard") && err.contains("precision"),
        "{err}"
    );
    assert!(!root.join("adaptive").exists());
}

const SPRT: &[&str] = &[
    "sprt",
    "--test",
    "greedy",
    "--base",
    "random",
    "--elo0",
    "0",
    "--elo1",
    "50",
    "--model",
    "logistic",
    "--max-pairs",
    "90",
    "--seed",
    "3",
    "--concurrency",
    "2",
    "--quiet",
];

/// Keeps the header and the complete rows of games below `limit` in `dir/games.csv`, then
/// `tail` (a cut-off row when not empty), as a shard cancelled mid-game leaves it.
fn keep_games_below(dir: &Path, limit: u64, tail: &str) {
    let text = read(dir, "games.csv");
    let mut out: Vec<&str> = text.lines().take(1).collect();
    out.extend(text.lines().skip(1).filter(|l| {
        l.split(',')
            .nth(1)
            .and_then(|g| g.parse::<u64>().ok())
            .is_some_and(|g| g < limit)
    }));
    let mut text = out.join("\n") + "\n";
    text.push_str(tail);
    std::fs::write(dir.join("games.csv"), text).unwrap();
}

/// The pair at which an sprt's printed verdict came (`verdict: H1 after N pairs`).
fn verdict_pairs(out: &str) -> u64 {
    out.split("after ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no verdict in {out}"))
}

#[test]
fn merged_sprt_stops_at_the_single_machine_pair_with_the_same_verdict() {
    let (single, shards) = single_and_shards("sprt", SPRT, 3);
    let single_out = read(&single, "summary.csv");
    assert!(single_out.contains(",H1"), "{single_out}");
    let root = single.parent().unwrap().to_path_buf();
    let look = root.join("look");
    let mut look_args = SPRT.to_vec();
    look_args.extend(["--shard", "0/3", "--out", s(&look)]);
    let shard_out = ok(&look_args);
    assert!(
        shard_out.contains("verdict: none for shard 0/3"),
        "{shard_out}"
    );
    // Shards play their share to the pair limit: 30 pairs each.
    assert_eq!(games(&shards[0]).len(), 60);

    let (code, status, _) = chuhan(&[
        "merge",
        "--check",
        s(&shards[0]),
        s(&shards[1]),
        s(&shards[2]),
    ]);
    assert_eq!(code, 0, "{status}");
    assert!(
        status.contains("verdict: H1") && status.contains("done: yes"),
        "{status}"
    );

    let out = root.join("merged");
    let text = merge_ok(&out, &[&shards[0], &shards[1], &shards[2]]);
    assert_eq!(read(&out, "summary.csv"), single_out);
    let pairs = verdict_pairs(&text);
    assert!(pairs < 90, "{text}");
    let counted = |dir: &Path| -> BTreeMap<u64, Vec<String>> {
        games(dir)
            .into_iter()
            .filter(|(g, _)| *g < 2 * pairs)
            .collect()
    };
    // The merged folder holds exactly the counted pairs, equal to the single run's.
    assert_eq!(games(&out), counted(&single));
    assert_eq!(games(&out).len() as u64, 2 * pairs);

    // Shards cancelled soon after the decision (only pairs up to the stop, one of them cut
    // mid-row) still merge to the same verdict.
    for dir in &shards {
        keep_games_below(dir, 2 * pairs, "12");
    }
    let out2 = root.join("merged-cut");
    merge_ok(&out2, &[&shards[0], &shards[1], &shards[2]]);
    assert_eq!(read(&out2, "summary.csv"), single_out);

    // Before the decision: not done (exit 1), and a merge names the shard that must go on.
    let early = pairs - 2;
    let missing_shard = early % 3;
    let dir = &shards[missing_shard as usize];
    keep_games_below(dir, 2 * early, "");
    let (code, status, _) = chuhan(&[
        "merge",
        "--check",
        s(&shards[0]),
        s(&shards[1]),
        s(&shards[2]),
    ]);
    assert_eq!(code, 1, "{status}");
    assert!(
        status.contains("verdict: continue")
            && status.contains(&format!("pairs in order: {early} of 90")),
        "{status}"
    );
    merge_fails(
        &root.join("merged-early"),
        &[&shards[0], &shards[1], &shards[2]],
        &[&format!("pair {early} (shard {missing_shard}/3"), s(dir)],
    );
}

/// A datagen file's game blocks (positions and their `#game` marker) by game index.
fn datagen_blocks(path: &Path) -> BTreeMap<u64, String> {
    let mut out = BTreeMap::new();
    let mut block = String::new();
    for line in read(
        path.parent().unwrap(),
        path.file_name().unwrap().to_str().unwrap(),
    )
    .lines()
    {
        block.push_str(line);
        block.push('\n');
        if let Some(rest) = line.strip_prefix("#game ") {
            let index = rest.split(' ').next().unwrap().parse().unwrap();
            out.insert(index, std::mem::take(&mut block));
        }
    }
    out
}

#[test]
fn datagen_shards_hold_the_single_runs_games_and_resume() {
    let root = scratch("datagen");
    std::fs::create_dir_all(&root).unwrap();
    let base = [
        "datagen", "--games", "7", "--nodes", "150", "--seed", "4", "--quiet",
    ];
    let single = root.join("all.txt");
    let mut args = base.to_vec();
    args.extend(["--out", s(&single)]);
    ok(&args);
    let mut merged = BTreeMap::new();
    for i in 0..3 {
        let file = root.join(format!("shard-{i}.txt"));
        let spec = format!("{i}/3");
        let mut args = base.to_vec();
        args.extend(["--shard", &spec, "--out", s(&file)]);
        ok(&args);
        let blocks = datagen_blocks(&file);
        assert!(blocks.keys().all(|g| g % 3 == i), "{blocks:?}");
        if i == 1 {
            // Cut after the first game and halfway into the next line: resume plays the rest.
            let text = read(&root, "shard-1.txt");
            let first_end = text.find("#game").unwrap();
            let cut = first_end + text[first_end..].find('\n').unwrap() + 1;
            std::fs::write(&file, &text[..cut + 5]).unwrap();
            let mut args = base.to_vec();
            args.extend(["--shard", &spec, "--resume", s(&file)]);
            ok(&args);
            assert_eq!(datagen_blocks(&file), blocks);
        }
        merged.extend(blocks);
    }
    assert_eq!(merged, datagen_blocks(&single));
    assert_eq!(merged.len(), 7);
}

#[test]
fn external_engines_stderr_logs_are_merged_with_their_games() {
    let engine =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/engines/chuhan-uci.toml");
    let base = [
        "match",
        "--player",
        s(&engine),
        "--player",
        "random",
        "--pairs",
        "2",
        "--nodes",
        "50",
        "--concurrency",
        "1",
        "--quiet",
    ];
    let (single, shards) = single_and_shards("engine-logs", &base, 2);
    let out = single.parent().unwrap().join("merged");
    merge_ok(&out, &[&shards[0], &shards[1]]);
    assert_eq!(games(&out), games(&single));
    let logs = |dir: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir.join("engines"))
            .unwrap()
            .flat_map(|p| std::fs::read_dir(p.unwrap().path()).unwrap())
            .map(|f| {
                let f = f.unwrap().path();
                let player = f
                    .parent()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .to_string();
                format!("{player}/{}", f.file_name().unwrap().to_string_lossy())
            })
            .collect();
        names.sort();
        names
    };
    assert_eq!(logs(&out).len(), 4, "{:?}", logs(&out));
    assert_eq!(logs(&out), logs(&single));
}

#[test]
fn sprt_shards_stop_once_the_joint_test_over_their_siblings_has_decided() {
    let root = scratch("joint");
    let mut base = SPRT.to_vec();
    let at = base.iter().position(|a| *a == "--max-pairs").unwrap();
    base[at + 1] = "400";
    let single = root.join("single");
    let mut args = base.clone();
    args.extend(["--out", s(&single)]);
    let single_text = ok(&args);
    let pairs = verdict_pairs(&single_text);
    assert!(pairs < 40, "{single_text}");
    // Shard 0 alone cannot see a decision (the odd pairs are nobody's yet): it plays all 200
    // of its pairs. Its last row is then cut in half, as a shard being written leaves it.
    let shards: Vec<PathBuf> = (0..2).map(|i| root.join(format!("shard-{i}"))).collect();
    let mut args = base.clone();
    args.extend(["--shard", "0/2", "--out", s(&shards[0])]);
    let first = ok(&args);
    assert!(!first.contains("stopped:"), "{first}");
    assert_eq!(games(&shards[0]).len(), 400);
    keep_games_below(&shards[0], 398, "398,399,rnbakabnr/9/1c5c1/p1p1");
    // Shard 1 reads shard 0's whole rows and its own, and stops at the single machine's pair.
    let mut args = base.clone();
    args.extend(["--shard", "1/2", "--out", s(&shards[1])]);
    let second = ok(&args);
    assert!(
        second.contains(&format!(
            "stopped: the joint test over 2 shard folders decided H1 at pair {}",
            pairs - 1
        )),
        "{second}"
    );
    let played = games(&shards[1]).len();
    assert!(played < 100, "shard 1 played {played} of its 400 games");
    let (code, status, _) = chuhan(&["merge", "--check", s(&shards[0]), s(&shards[1])]);
    assert_eq!(code, 0, "{status}");
    let out = root.join("merged");
    merge_ok(&out, &[&shards[0], &shards[1]]);
    assert_eq!(read(&out, "summary.csv"), read(&single, "summary.csv"));
    // Resumed after the decision, a shard stops again at once.
    let (code, text, err) = chuhan(&["sprt", "--resume", s(&shards[1]), "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("stopped: the joint test"), "{text}");
    assert!(games(&shards[1]).len() < 100);
}
