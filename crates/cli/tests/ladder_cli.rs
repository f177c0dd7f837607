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
