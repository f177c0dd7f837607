//! `chuhan calibrate`: the pass column of validation.csv, calibrations played to a precision
//! (reproducible at any concurrency, resumable mid-round), with small node budgets.

use crate::fixtures as common;

use std::path::{Path, PathBuf};

use common::chuhan;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("chuhan-calib-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A small node-budget calibration writing to `out`, with `extra` flags.
fn calibrate(out: &Path, extra: &[&str]) -> (i32, String, String) {
    calibrate_to(out, "0,200", extra)
}

/// [`calibrate`] with other `targets`.
fn calibrate_to(out: &Path, targets: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "calibrate",
        "--knob",
        "nodes",
        "--grid",
        "40,150,600",
        "--targets",
        targets,
        "--names",
        "weak,strong",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    chuhan(&args)
}

/// One row of validation.csv, by column name.
struct Row {
    target: f64,
    measured: Option<f64>,
    lo: Option<f64>,
    hi: Option<f64>,
    tolerance: f64,
    pass: bool,
}

fn validation_rows(dir: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(dir.join("validation.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        header,
        [
            "from",
            "to",
            "target_gap",
            "measured_gap",
            "lo95",
            "hi95",
            "half_width",
            "tolerance",
            "pass"
        ]
    );
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let num = |s: &str| (!s.is_empty()).then(|| s.parse::<f64>().unwrap());
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Row {
                target: f[col("target_gap")].parse().unwrap(),
                measured: num(f[col("measured_gap")]),
                lo: num(f[col("lo95")]),
                hi: num(f[col("hi95")]),
                tolerance: f[col("tolerance")].parse().unwrap(),
                pass: match f[col("pass")] {
                    "true" => true,
                    "false" => false,
                    other => panic!("pass column: {other}"),
                },
            }
        })
        .collect()
}

/// What the pass column must say, from the row's own interval, target and tolerance.
fn expected_pass(r: &Row) -> bool {
    match (r.lo, r.hi) {
        (Some(lo), Some(hi)) => lo >= r.target - r.tolerance && hi <= r.target + r.tolerance,
        _ => false,
    }
}

#[test]
fn pass_means_the_interval_lies_within_target_plus_minus_the_tolerance() {
    let base = temp("pass");
    // Three pairs: an interval far wider than ±50 that contains the +200 target but does not lie
    // within [+150, +250]: where "contains" and "within" differ.
    let strict = base.join("strict");
    let (code, stdout, stderr) = calibrate(&strict, &["--pairs", "3", "--strict"]);
    let rows = validation_rows(&strict);
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    assert_eq!(r.tolerance, 50.0, "the documented default");
    assert_eq!(r.pass, expected_pass(r), "pass column vs its own interval");
    let (lo, hi) = (r.lo.unwrap(), r.hi.unwrap());
    assert!(
        hi - lo > 100.0,
        "a wide interval after 6 games: [{lo}, {hi}]"
    );
    assert!(!r.pass, "a wide interval never passes");
    assert_eq!(code, 1, "--strict fails on a failed gap: {stdout}{stderr}");
    assert!(
        stdout.contains("FAIL") && stdout.contains("within target ± 50 Elo"),
        "{stdout}"
    );

    // A gap whose interval holds 0 gives no slope to re-place the levels by.
    assert!(r.lo.unwrap() <= 0.0, "[{lo}, {hi}]");
    assert!(!strict.join("refine.toml").exists());
    assert!(!stdout.contains("re-placed"), "{stdout}");

    // With a tolerance wider than the interval's distance from the target, the same games pass.
    let loose = base.join("loose");
    let (code, stdout, stderr) =
        calibrate(&loose, &["--pairs", "3", "--strict", "--tolerance", "5000"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let rows = validation_rows(&loose);
    assert_eq!(
        (rows[0].lo, rows[0].hi),
        (r.lo, r.hi),
        "same seed, same games"
    );
    assert_eq!(rows[0].tolerance, 5000.0);
    assert!(rows[0].pass && expected_pass(&rows[0]), "{stdout}");
    assert!(stdout.contains("pass"), "{stdout}");
    assert!(
        !loose.join("refine.toml").exists(),
        "nothing to re-place when every gap passes"
    );

    // A tolerance that is not a positive number is refused, naming the flag.
    let (code, _, stderr) = calibrate(&base.join("bad"), &["--tolerance", "0"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--tolerance"), "{stderr}");
}

/// games.csv rows without the timing column (`seconds`, the tenth), sorted.
fn game_rows(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let mut rows: Vec<String> = text
        .lines()
        .map(|l| {
            l.split(',')
                .enumerate()
                .filter(|(i, _)| *i != 9)
                .map(|(_, f)| f)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn a_calibration_to_a_precision_is_reproducible_and_resumes_mid_round() {
    let base = temp("precision");
    let budget = [
        "--pairs",
        "4",
        "--precision",
        "30",
        "--max-games",
        "40",
        "--concurrency",
    ];
    let one = base.join("one");
    let (code, stdout, stderr) = calibrate(&one, &[&budget[..], &["1"]].concat());
    assert_eq!(code, 0, "{stderr}");
    // Both stages say why they stopped; ±30 is out of reach in 40 games.
    assert!(
        stdout.contains("grid stage: budget spent: --max-games 40")
            && stdout.contains("validate stage: budget spent: --max-games 40"),
        "{stdout}"
    );
    let grid = game_rows(&one.join("grid"));
    let validate = game_rows(&one.join("validate"));
    assert_eq!(grid.len(), 41, "the grid's budget is spent exactly");
    assert_eq!(
        validate.len(),
        41,
        "the validation's budget is spent exactly"
    );
    // The grid's pairings (neighbours and next-but-one) hold the 40 games between them.
    let text = std::fs::read_to_string(one.join("grid/pairings.csv")).unwrap();
    let games: Vec<u64> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap().parse().unwrap())
        .collect();
    assert_eq!(games.iter().sum::<u64>(), 40, "{text}");

    let two = base.join("two");
    let (code, _, stderr) = calibrate(&two, &[&budget[..], &["2"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        game_rows(&two.join("grid")),
        grid,
        "same games at any concurrency"
    );
    assert_eq!(game_rows(&two.join("validate")), validate);
    let levels = std::fs::read_to_string(one.join("levels.toml")).unwrap();
    assert_eq!(
        std::fs::read_to_string(two.join("validation.csv")).unwrap(),
        std::fs::read_to_string(one.join("validation.csv")).unwrap()
    );

    // Interrupted mid-round in the validation stage: 15 games and a truncated line; the
    // resumed calibration plays the same games as the uninterrupted one.
    let cut = base.join("cut");
    std::fs::create_dir_all(cut.join("validate")).unwrap();
    std::fs::copy(one.join("calibrate.toml"), cut.join("calibrate.toml")).unwrap();
    let copy_dir = |from: &Path, to: &Path| {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_file() {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    };
    copy_dir(&one.join("grid"), &cut.join("grid"));
    std::fs::copy(
        one.join("validate/manifest.toml"),
        cut.join("validate/manifest.toml"),
    )
    .unwrap();
    let text = std::fs::read_to_string(one.join("validate/games.csv")).unwrap();
    let keep: String = text.lines().take(16).collect::<Vec<_>>().join("\n") + "\n7,15,rnb";
    std::fs::write(cut.join("validate/games.csv"), keep).unwrap();
    let (code, stdout, stderr) =
        chuhan(&["calibrate", "--resume", cut.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        game_rows(&cut.join("validate")),
        validate,
        "resumed = uninterrupted"
    );
    assert_eq!(game_rows(&cut.join("grid")), grid);
    assert_eq!(
        std::fs::read_to_string(cut.join("levels.toml"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>(),
        levels
            .lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
    );
    assert!(stdout.contains("validate stage: budget spent"), "{stdout}");
}

#[test]
fn a_calibration_stops_when_every_validated_gap_is_precise() {
    let out = temp("precise");
    let (code, stdout, stderr) = calibrate(
        &out,
        &[
            "--pairs",
            "2",
            "--precision",
            "150",
            "--grid-precision",
            "400",
            "--max-games",
            "400",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("validate stage: precision reached: every neighbour gap's 95% half-width is at most 150 Elo"),
        "{stdout}"
    );
    let rows = validation_rows(&out);
    let (lo, hi) = (rows[0].lo.unwrap(), rows[0].hi.unwrap());
    assert!((hi - lo) / 2.0 <= 150.0, "[{lo}, {hi}]");
    // Budgets without a precision, and an unmeetable budget, are refused naming the flag.
    let (code, _, stderr) = calibrate(&temp("nop"), &["--max-games", "100"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("add --precision"), "{stderr}");
    let (code, _, stderr) = calibrate(&temp("few"), &["--precision", "50", "--max-games", "4"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--max-games 4 cannot be met"), "{stderr}");
    let (code, _, stderr) = calibrate(&temp("neg"), &["--precision=-5"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--precision"), "{stderr}");
}

/// `chuhan uci` as an external engine (`{chuhan}` is this binary).
const CHUHAN_UCI: &str = r#"
name = "chuhan-uci"
[uci]
command = "{chuhan}"
args = ["uci"]
[uci.options]
Hash = 16
"#;

/// Result and moves of each game (what the engines played, not the node counts they report).
fn results_and_moves(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let mut rows: Vec<String> = text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            format!("{},{},{},{}", f[0], f[1], f[5], f[11])
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn an_external_engine_is_calibrated_by_go_nodes_and_its_levels_are_engine_files() {
    let base = temp("external");
    std::fs::create_dir_all(&base).unwrap();
    let engine = base.join("chuhan-uci.toml");
    std::fs::write(&engine, CHUHAN_UCI).unwrap();
    let out = base.join("ext");
    let (code, stdout, stderr) = chuhan(&[
        "calibrate",
        "--knob",
        "go-nodes",
        "--base",
        engine.to_str().unwrap(),
        "--grid",
        "40,150,600",
        "--targets",
        "0,200",
        "--names",
        "weak,strong",
        "--pairs",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("levels written as engine files"),
        "{stdout}"
    );
    // The same engine in process with the same node budgets plays the same games: the go
    // limits reach the engine.
    let inproc = base.join("inproc");
    let (code, _, stderr) = calibrate(&inproc, &["--pairs", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        results_and_moves(&out.join("grid")),
        results_and_moves(&inproc.join("grid"))
    );
    // Each level is an engine file with its go_nodes, and the validation played those files.
    let levels = chuhan_arena::play::config::parse_levels(
        &std::fs::read_to_string(inproc.join("levels.toml")).unwrap(),
        "levels.toml",
    )
    .unwrap();
    for (name, level) in ["weak", "strong"].iter().zip(&levels) {
        let file = out.join("levels").join(format!("{name}.toml"));
        let text = std::fs::read_to_string(&file).unwrap();
        let nodes = level.nodes.unwrap();
        assert!(text.contains(&format!("go_nodes = {nodes}")), "{text}");
        assert!(
            text.contains("Hash = 16") && text.contains("[uci]"),
            "{text}"
        );
        let manifest = std::fs::read_to_string(out.join("validate/manifest.toml")).unwrap();
        assert!(
            manifest.contains(&file.file_name().unwrap().to_string_lossy().to_string()),
            "{manifest}"
        );
    }
    assert_eq!(
        results_and_moves(&out.join("validate")),
        results_and_moves(&inproc.join("validate"))
    );

    // Knobs and bases of the other kind are refused, naming both.
    let (code, _, stderr) = chuhan(&[
        "calibrate",
        "--knob",
        "nodes",
        "--base",
        engine.to_str().unwrap(),
        "--targets",
        "0,100",
        "--out",
        base.join("bad1").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--knob nodes moves the built-in engine"),
        "{stderr}"
    );
    let (code, _, stderr) = chuhan(&[
        "calibrate",
        "--knob",
        "option:Skill Level",
        "--base",
        "default",
        "--grid",
        "0,5,10",
        "--targets",
        "0,100",
        "--out",
        base.join("bad2").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--knob option:Skill Level moves an external engine"),
        "{stderr}"
    );
    let (code, _, stderr) = chuhan(&[
        "calibrate",
        "--knob",
        "option:Skill Level",
        "--base",
        engine.to_str().unwrap(),
        "--targets",
        "0,100",
        "--out",
        base.join("bad3").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("give --grid"), "{stderr}");
}

#[test]
fn fairy_stockfish_is_calibrated_by_its_skill_level_at_a_node_limit() {
    // Like uci_players.rs, this never skips: scripts/test.sh installs Fairy-Stockfish.
    let engine = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/engines/fairy-stockfish.toml"
    );
    let out = temp("fairy");
    let base = format!("{engine}:go-nodes=500");
    let (code, stdout, stderr) = chuhan(&[
        "calibrate",
        "--knob",
        "option:Skill Level",
        "--base",
        &base,
        "--grid",
        "0,10,20",
        "--targets",
        "0,100",
        "--names",
        "fs-a,fs-b",
        "--pairs",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    // The placed Skill Level of each level, from the placement table, is in its engine file,
    // with the base's node limit and the file's own options before it.
    for name in ["fs-a", "fs-b"] {
        let row = stdout
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no placement row for {name} in\n{stdout}"));
        let skill: i64 = row.split_whitespace().nth(2).unwrap().parse().unwrap();
        assert!((0..=20).contains(&skill), "{row}");
        let text =
            std::fs::read_to_string(out.join("levels").join(format!("{name}.toml"))).unwrap();
        assert!(
            text.contains(&format!("\"Skill Level\" = {skill}")),
            "{text}"
        );
        assert!(text.contains("go_nodes = 500"), "{text}");
        assert!(
            text.find("UCI_Variant").unwrap() < text.find("Skill Level\" =").unwrap(),
            "{text}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(out.join("validate/games.csv"))
            .unwrap()
            .lines()
            .count(),
        5,
        "2 pairs of validation games"
    );
}

/// Runs `chuhan calibrate` with `args` and `--quiet`, asserting exit 0.
fn calibrate_ok(args: &[&str]) -> String {
    let mut all = vec!["calibrate"];
    all.extend_from_slice(args);
    all.push("--quiet");
    let (code, stdout, stderr) = chuhan(&all);
    assert_eq!(code, 0, "calibrate {args:?}: {stdout}{stderr}");
    stdout
}

fn merge(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["merge"];
    all.extend_from_slice(args);
    chuhan(&all)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_calibration_sharded_stage_by_stage_equals_the_single_machine_one_game_for_game() {
    let base = temp("sharded");
    let single = base.join("single");
    let (code, stdout, stderr) = calibrate(&single, &["--pairs", "2"]);
    assert_eq!(code, 0, "{stdout}{stderr}");

    // The grid in 3 shards, one of them interrupted mid-row and resumed.
    let grid: Vec<PathBuf> = (0..3)
        .map(|i| base.join(format!("grid/shard-{i}")))
        .collect();
    for (i, dir) in grid.iter().enumerate() {
        let shard = format!("{i}/3");
        let (code, stdout, stderr) =
            calibrate(dir, &["--pairs", "2", "--stage", "grid", "--shard", &shard]);
        assert_eq!(code, 0, "{stdout}{stderr}");
    }
    let games = grid[1].join("grid/games.csv");
    let text = std::fs::read_to_string(&games).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 3, "{text}");
    let cut = format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..20]);
    std::fs::write(&games, cut).unwrap();
    let (code, stdout, _) = merge(&["--check", s(&grid[0]), s(&grid[1]), s(&grid[2])]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("stage: grid") && stdout.contains("2 complete"),
        "{stdout}"
    );
    calibrate_ok(&["--resume", s(&grid[1])]);
    let (code, stdout, _) = merge(&["--check", s(&grid[0]), s(&grid[1]), s(&grid[2])]);
    assert_eq!(code, 0, "{stdout}");

    // A missing shard, and a shard of another calibration: exit 2 naming it, nothing written.
    let merged = base.join("merged");
    let (code, _, stderr) = merge(&["--out", s(&merged), s(&grid[0]), s(&grid[2])]);
    assert_eq!(code, 2);
    assert!(stderr.contains("shard 1/3 is missing"), "{stderr}");
    let other = base.join("other");
    let (code, _, stderr) = calibrate(
        &other,
        &[
            "--pairs", "2", "--seed", "7", "--stage", "grid", "--shard", "1/3",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = merge(&["--out", s(&merged), s(&grid[0]), s(&other), s(&grid[2])]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(s(&other)) && stderr.contains("calibrate.toml"),
        "{stderr}"
    );
    assert!(!merged.join("grid").exists());

    let (code, stdout, stderr) =
        merge(&["--out", s(&merged), s(&grid[2]), s(&grid[0]), s(&grid[1])]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("next: the validation stage"), "{stdout}");
    let (code, stdout, _) = merge(&["--check", s(&merged)]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("next stage: validate"), "{stdout}");

    // The validation in 2 shards, from the merged folder.
    let validate: Vec<PathBuf> = (0..2)
        .map(|i| base.join(format!("validate/shard-{i}")))
        .collect();
    for (i, dir) in validate.iter().enumerate() {
        let shard = format!("{i}/2");
        calibrate_ok(&[
            "--stage",
            "validate",
            "--from",
            s(&merged),
            "--shard",
            &shard,
            "--out",
            s(dir),
        ]);
    }
    // A grid shard among them is foreign.
    let (code, _, stderr) = merge(&["--out", s(&merged), s(&validate[0]), s(&grid[1])]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(s(&grid[1])) && stderr.contains("calibration stages"),
        "{stderr}"
    );
    let (code, _, stderr) = merge(&["--out", s(&merged), s(&validate[1])]);
    assert_eq!(code, 2);
    assert!(stderr.contains("shard 0/2 is missing"), "{stderr}");
    let (code, stdout, stderr) = merge(&["--out", s(&merged), s(&validate[0]), s(&validate[1])]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("validation (adjacent levels"), "{stdout}");
    let (code, stdout, _) = merge(&["--check", s(&merged)]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("done: yes"), "{stdout}");

    // Game for game, and every derived file.
    for stage in ["grid", "validate"] {
        assert_eq!(
            game_rows(&merged.join(stage)),
            game_rows(&single.join(stage)),
            "{stage}"
        );
        assert!(game_rows(&merged.join(stage)).len() > 2);
    }
    for file in [
        "calibration.csv",
        "levels.toml",
        "validation.csv",
        "gaps.csv",
        "grid/gaps.csv",
        "validate/gaps.csv",
        "calibrate.toml",
    ] {
        assert_eq!(
            std::fs::read_to_string(merged.join(file)).unwrap(),
            std::fs::read_to_string(single.join(file)).unwrap(),
            "{file}"
        );
    }
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn a_calibration_to_a_precision_or_a_validation_without_a_merged_grid_is_not_sharded() {
    let base = temp("noshard");
    let out = base.join("p");
    let (code, _, stderr) = calibrate(
        &out,
        &["--precision", "100", "--stage", "grid", "--shard", "0/2"],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--precision") && stderr.contains("adaptive"),
        "{stderr}"
    );
    assert!(!out.exists(), "a refused shard leaves no folder");
    let (code, _, stderr) = chuhan(&[
        "calibrate",
        "--stage",
        "validate",
        "--shard",
        "0/2",
        "--out",
        s(&out),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--from"), "{stderr}");
    // A grid shard folder is not the merged grid.
    let grid = base.join("g");
    let (code, _, stderr) = calibrate(
        &grid,
        &["--pairs", "1", "--stage", "grid", "--shard", "0/2"],
    );
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = chuhan(&[
        "calibrate",
        "--stage",
        "validate",
        "--from",
        s(&grid),
        "--shard",
        "0/2",
        "--out",
        s(&out),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("shard folder of one stage"), "{stderr}");
    let (code, _, stderr) = calibrate(&out, &["--stage", "final", "--shard", "0/2"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("grid or validate"), "{stderr}");
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn every_stage_writes_games_pgn_in_the_chosen_notation_and_it_reads_back() {
    for (format, tag) in [("wxf", "WXF"), ("chinese", "Chinese"), ("iccs", "ICCS")] {
        let out = temp(&format!("pgn-{format}"));
        let (code, stdout, stderr) = calibrate(&out, &["--pairs", "1", "--pgn-format", format]);
        assert_eq!(code, 0, "{stdout}{stderr}");
        for stage in ["grid", "validate"] {
            let dir = out.join(stage);
            let text = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
            let games = chuhan_engine::read_pgn(&text)
                .unwrap_or_else(|e| panic!("{format} {stage}: games.pgn does not read: {e}"));
            let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
            let rows: Vec<Vec<&str>> = csv
                .lines()
                .skip(1)
                .map(|l| l.split(',').collect())
                .collect();
            assert!(!rows.is_empty());
            assert_eq!(games.len(), rows.len(), "{format} {stage}");
            assert_eq!(
                text.matches(&format!("[Format \"{tag}\"]")).count(),
                rows.len(),
                "{format} {stage}"
            );
            for (game, row) in games.iter().zip(&rows) {
                assert_eq!(
                    game.tag("Round"),
                    Some(format!("{}.{}", row[0], row[1]).as_str())
                );
                let moves: Vec<String> = game.moves.iter().map(|m| m.to_uci()).collect();
                assert_eq!(moves.join(" "), row[11], "{format} {stage}");
            }
        }
        let settings = std::fs::read_to_string(out.join("calibrate.toml")).unwrap();
        assert_eq!(
            settings.contains(&format!("pgn_format = \"{format}\"")),
            format != "iccs",
            "{settings}"
        );
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn a_failed_validation_is_re_placed_from_the_measured_slope() {
    // The failed gap re-places the strong level from the measured slope: the target gap in
    // doublings of the node budget at the Elo a doubling bought between the placed levels.
    let base = temp("refine");
    let strict = base.join("strict");
    let (code, stdout, stderr) = calibrate_to(&strict, "0,450", &["--pairs", "6"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let rows = validation_rows(&strict);
    let r = &rows[0];
    assert!(
        !r.pass && r.lo.unwrap() > 0.0,
        "an ordered gap that fails: {stdout}"
    );
    let measured = r.measured.unwrap();
    let nodes_of = |text: &str, key: &str| -> Vec<f64> {
        text.lines()
            .filter_map(|l| l.trim().strip_prefix(key))
            .map(|v| {
                let digits: String = v
                    .trim_start_matches([' ', '=', '"'])
                    .chars()
                    .skip_while(|c| !c.is_ascii_digit())
                    .take_while(|c| c.is_ascii_digit())
                    .collect();
                digits.parse().unwrap()
            })
            .collect()
    };
    let placed = nodes_of(
        &std::fs::read_to_string(strict.join("levels.toml")).unwrap(),
        "nodes",
    );
    let refine = std::fs::read_to_string(strict.join("refine.toml")).unwrap();
    let respecs: Vec<f64> = refine
        .lines()
        .filter_map(|l| l.strip_prefix("spec = \"default:nodes="))
        .map(|v| v.trim_end_matches('"').parse().unwrap())
        .collect();
    assert_eq!(placed.len(), 2, "levels.toml: {placed:?}");
    assert_eq!(respecs.len(), 2, "{refine}");
    assert_eq!(respecs[0], placed[0], "the first level stays");
    let slope = measured / (placed[1] / placed[0]).log2();
    let expected = placed[0] * (450.0 / slope).exp2();
    assert!(
        (respecs[1] - expected).abs() <= 0.5 + 1e-9,
        "{} against {expected} ({refine})",
        respecs[1]
    );
    assert!(
        stdout.contains("re-placed from the measured slopes")
            && stdout.contains("chuhan ladder --config"),
        "{stdout}"
    );
    // The file is a ladder the harness plays: the validation's settings, another seed.
    assert!(
        refine.contains("neighbours = 1") && refine.contains("pairs = 6"),
        "{refine}"
    );
    let replay = base.join("replay");
    let (code, out, err) = chuhan(&[
        "ladder",
        "--config",
        strict.join("refine.toml").to_str().unwrap(),
        "--out",
        replay.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("weak -> strong"), "{out}");

    let _ = std::fs::remove_dir_all(&base);
}
