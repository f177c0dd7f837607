//! `chuhan ladder` and `chuhan calibrate` end to end, with small budgets.

mod common;

use std::path::{Path, PathBuf};

use common::chuhan;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("chuhan-ladder-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

const LADDER: &str = r#"
name = "tiny"
seed = 3
pairs = 2
neighbours = 2
max_nodes = 400
bootstrap = 200
[[players]]
name = "random"
spec = "random"
[[players]]
name = "greedy"
spec = "greedy"
[[players]]
name = "d1"
spec = "default:depth=1"
[[players]]
name = "d2"
spec = "default:depth=2"
"#;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_small_ladder_writes_its_table_and_files_and_resumes_exactly() {
    let base = temp("run");
    let cfg = write(&base, "ladder.toml", LADDER);
    let out = base.join("out");
    let (code, stdout, stderr) = chuhan(&[
        "ladder",
        "--config",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{stderr}");
    for name in ["random", "greedy", "d1", "d2"] {
        assert!(stdout.contains(name), "{name} missing from\n{stdout}");
    }
    assert!(stdout.contains("neighbour gap"), "{stdout}");
    for f in [
        "games.csv",
        "ratings.csv",
        "gaps.csv",
        "pairings.csv",
        "ladder.svg",
        "summary.csv",
        "manifest.toml",
    ] {
        assert!(out.join(f).exists(), "{f} missing");
    }
    let ratings = std::fs::read_to_string(out.join("ratings.csv")).unwrap();
    assert_eq!(ratings.lines().count(), 5, "{ratings}");
    assert!(
        ratings.lines().nth(1).unwrap().starts_with("0,random,0.0,"),
        "anchored first player"
    );
    // 4 players, neighbours 2: 3 + 2 = 5 pairings of 2 pairs = 20 games.
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 21);
    let pairings = std::fs::read_to_string(out.join("pairings.csv")).unwrap();
    assert_eq!(pairings.lines().count(), 6, "{pairings}");
    let gaps = std::fs::read_to_string(out.join("gaps.csv")).unwrap();
    let gap_lines: Vec<&str> = gaps.lines().collect();
    assert_eq!(gap_lines.len(), 4, "{gaps}");
    assert_eq!(gap_lines[0], "from,to,elo,ci_low,ci_high");
    assert!(gap_lines[1].starts_with("random,greedy,"), "{gaps}");
    assert!(gap_lines[3].starts_with("d1,d2,"), "{gaps}");
    for line in &gap_lines[1..] {
        assert_eq!(line.split(',').count(), 5, "{line}");
    }
    let svg = std::fs::read_to_string(out.join("ladder.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("greedy"));

    // Interrupt: cut games.csv mid-way (a truncated last line), resume, same ratings.
    let keep: String = games.lines().take(12).collect::<Vec<_>>().join("\n") + "\n3,7,rnb";
    std::fs::write(out.join("games.csv"), keep).unwrap();
    let (code, stdout2, stderr) = chuhan(&["ladder", "--resume", out.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read_to_string(out.join("ratings.csv")).unwrap(),
        ratings
    );
    let games2 = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games2.lines().count(), 21);
    let strip = |t: &str| -> Vec<String> {
        // Drop the timing column (seconds) before comparing rows.
        let mut rows: Vec<String> = t
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
    };
    assert_eq!(strip(&games2), strip(&games));
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with(char::is_numeric))
            .collect::<Vec<_>>(),
        stdout2
            .lines()
            .filter(|l| l.starts_with(char::is_numeric))
            .collect::<Vec<_>>()
    );
}

/// Three players, each far stronger than the one before at a small node cap.
const SWEEP: &str = r#"
name = "sweep"
seed = 1
pairs = 3
neighbours = 2
max_nodes = 2000
[[players]]
name = "random"
spec = "random"
[[players]]
name = "greedy"
spec = "greedy"
[[players]]
name = "default"
spec = "default"
"#;

#[test]
fn perfect_scores_give_one_sided_bounds_and_empty_csv_sides() {
    let base = temp("sweep");
    let cfg = write(&base, "ladder.toml", SWEEP);
    let out = base.join("out");
    let (code, stdout, stderr) = chuhan(&[
        "ladder",
        "--config",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{stderr}");
    // Every step really is won 100%: the stronger player wins all six games of each pairing.
    let pairings = std::fs::read_to_string(out.join("pairings.csv")).unwrap();
    let rows: Vec<&str> = pairings.lines().skip(1).collect();
    assert_eq!(rows.len(), 3, "{pairings}");
    for row in &rows {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(&f[2..6], ["6", "0", "0", "6"], "not a sweep: {row}");
    }
    // One-sided bounds, no point estimate, no finite two-sided interval.
    for gap in ["random -> greedy", "greedy -> default"] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(gap))
            .unwrap_or_else(|| panic!("{gap} missing from\n{stdout}"));
        assert!(
            line.contains("perfect score") && line.contains(">= +") && line.contains("one-sided"),
            "{line}"
        );
        assert!(
            !line.contains('['),
            "a two-sided interval after 6-0: {line}"
        );
    }
    assert!(
        stdout.contains("note: perfect score (100%): default"),
        "{stdout}"
    );
    // ratings.csv: the infinite ratings have no elo and an empty upper side.
    let ratings = std::fs::read_to_string(out.join("ratings.csv")).unwrap();
    let lines: Vec<&str> = ratings.lines().collect();
    assert_eq!(
        lines[0],
        "order,name,elo,elo_lo95,elo_hi95,games,points,draws"
    );
    for (line, name) in lines[2..].iter().zip(["greedy", "default"]) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f[1], name);
        assert_eq!(f[2], "", "infinite elo left empty: {line}");
        assert!(f[3].parse::<f64>().unwrap() > 0.0, "a lower bound: {line}");
        assert_eq!(f[4], "", "unbounded side left empty: {line}");
    }
    // gaps.csv: the exact interface, one row per neighbour gap, open sides empty.
    let gaps = std::fs::read_to_string(out.join("gaps.csv")).unwrap();
    let lines: Vec<&str> = gaps.lines().collect();
    assert_eq!(lines.len(), 3, "{gaps}");
    assert_eq!(lines[0], "from,to,elo,ci_low,ci_high");
    for (line, (from, to)) in lines[1..]
        .iter()
        .zip([("random", "greedy"), ("greedy", "default")])
    {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!((f[0], f[1], f[2], f[4]), (from, to, "", ""), "{line}");
        // 6 wins in 6 games: the exact bound elo(0.05^(1/6)) = +75.5.
        assert_eq!(f[3], "75.5", "{line}");
    }
}

#[test]
fn bad_ladders_are_refused_with_the_reason() {
    let base = temp("bad");
    let cases = [
        (
            LADDER.replace("neighbours = 2", "neighbours = 2\nanchors = [\"ghost\"]"),
            "anchor 'ghost'",
        ),
        (
            LADDER.replace("neighbours = 2", "neighbours = 0"),
            "disconnected",
        ),
        (
            LADDER.replace("spec = \"greedy\"", "spec = \"grandmaster\""),
            "grandmaster",
        ),
        (
            LADDER.replace("pairs = 2", "pairs = 2\ncolour = 1"),
            "colour",
        ),
        (
            LADDER.replace("name = \"d2\"", "name = \"d1\""),
            "appears twice",
        ),
    ];
    for (i, (text, needle)) in cases.iter().enumerate() {
        let cfg = write(&base, &format!("bad{i}.toml"), text);
        let out = base.join(format!("out{i}"));
        let (code, _, stderr) = chuhan(&[
            "ladder",
            "--config",
            cfg.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "case {i}: {stderr}");
        assert!(
            stderr.contains(needle),
            "case {i}: '{needle}' not in {stderr}"
        );
        assert!(
            stderr.contains(cfg.to_str().unwrap()),
            "case {i} names the file: {stderr}"
        );
        assert!(!out.exists(), "case {i} wrote results");
    }
}

#[test]
fn a_real_calibration_on_small_node_budgets() {
    let out = temp("cal");
    let (code, stdout, stderr) = chuhan(&[
        "calibrate",
        "--knob",
        "nodes",
        "--grid",
        "40,150,600",
        "--targets",
        "0,100",
        "--names",
        "weak,strong",
        "--pairs",
        "3",
        "--bootstrap",
        "200",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{stderr}");
    for f in [
        "calibrate.toml",
        "levels.toml",
        "calibration.csv",
        "calibration.svg",
        "validation.csv",
    ] {
        assert!(out.join(f).exists(), "{f} missing");
    }
    assert!(out.join("grid/games.csv").exists() && out.join("validate/games.csv").exists());
    let levels = std::fs::read_to_string(out.join("levels.toml")).unwrap();
    assert!(
        levels.contains("bench signature")
            && levels.contains("[weak]")
            && levels.contains("[strong]")
    );
    let parsed = chuhan_arena::play::config::parse_levels(&levels, "levels.toml").unwrap();
    let (weak, strong) = (parsed[0].nodes.unwrap(), parsed[1].nodes.unwrap());
    assert!(
        (40..=600).contains(&weak) && (40..=600).contains(&strong),
        "{weak} {strong}"
    );
    assert!(
        strong > weak,
        "the stronger level gets more nodes: {weak} {strong}"
    );
    assert!(
        stdout.contains("validation") && stdout.contains("weak -> strong"),
        "{stdout}"
    );
    let validation = std::fs::read_to_string(out.join("validation.csv")).unwrap();
    assert_eq!(validation.lines().count(), 2);
    // gaps.csv in the calibration folder (the calibrated levels) and in each stage folder.
    let gaps = std::fs::read_to_string(out.join("gaps.csv")).unwrap();
    assert_eq!(gaps.lines().next(), Some("from,to,elo,ci_low,ci_high"));
    assert!(
        gaps.lines().nth(1).unwrap().starts_with("weak,strong,"),
        "{gaps}"
    );
    assert_eq!(gaps.lines().count(), 2, "{gaps}");
    let grid_gaps = std::fs::read_to_string(out.join("grid/gaps.csv")).unwrap();
    assert_eq!(grid_gaps.lines().count(), 3, "{grid_gaps}");
    assert!(grid_gaps
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("nodes=40,nodes=150,"));
    assert!(out.join("validate/gaps.csv").exists());

    // Targets beyond the grid, and a grid in the wrong order, are refused.
    let (code, _, stderr) = chuhan(&[
        "calibrate",
        "--knob",
        "nodes",
        "--grid",
        "600,150,40",
        "--targets",
        "0,100",
        "--out",
        temp("cal-bad").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("weakest to the strongest"), "{stderr}");
    let (code, _, stderr) = chuhan(&[
        "calibrate",
        "--knob",
        "speed",
        "--targets",
        "0,100",
        "--out",
        temp("cal-bad2").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown knob 'speed'"), "{stderr}");
    let far = temp("cal-far");
    let (code, _, stderr) = chuhan(&[
        "calibrate",
        "--knob",
        "nodes",
        "--grid",
        "40,80,160",
        "--targets",
        "0,5000",
        "--pairs",
        "1",
        "--bootstrap",
        "100",
        "--out",
        far.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("outside what the nodes grid reaches"),
        "{stderr}"
    );
}
