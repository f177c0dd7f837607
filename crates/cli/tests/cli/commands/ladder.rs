//! `chuhan ladder` and `chuhan calibrate` end to end, with small budgets.

use crate::fixtures as common;

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
    assert_eq!(rows_without_seconds(&games2), rows_without_seconds(&games));
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

/// Three players, each far stronger than the one before at a small node cap. Greedy needs
/// room to mate a random mover (at the default 120-ply limit some of its games are drawn by
/// the limit), hence the long move limit; the test checks the sweep before anything else.
const SWEEP: &str = r#"
name = "sweep"
seed = 1
pairs = 3
neighbours = 2
max_nodes = 2000
move_limit = 400
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
fn too_wide_steps_get_an_in_between_proposal() {
    // A ladder: two node-limited players far apart; the proposal is the midpoint of the budgets.
    let base = temp("wide");
    let cfg = write(
        &base,
        "ladder.toml",
        r#"
name = "wide"
seed = 1
pairs = 4
neighbours = 1
max_nodes = 5000
[[players]]
name = "n10"
spec = "default:nodes=10"
[[players]]
name = "n5000"
spec = "default:nodes=5000"
"#,
    );
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
    let pairings = std::fs::read_to_string(out.join("pairings.csv")).unwrap();
    let row = pairings.lines().nth(1).unwrap();
    assert!(row.starts_with("n10,n5000,8,0,0,8,"), "not a sweep: {row}");
    assert!(
        stdout.contains("note: step n10 -> n5000 is too wide: n5000 scored 100.0%")
            && stdout.contains("nodes=2505 (the midpoint of their node budgets)"),
        "{stdout}"
    );

    // A calibration: the proposal is on the knob's scale (log2 nodes: the geometric mean).
    let cal = base.join("cal");
    let (code, stdout, stderr) = chuhan(&[
        "calibrate",
        "--knob",
        "nodes",
        "--grid",
        "10,5000,6000",
        "--targets",
        "0,10",
        "--pairs",
        "3",
        "--out",
        cal.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let note = stdout
        .lines()
        .find(|l| l.starts_with("note: step nodes=10 -> nodes=5000 is too wide"))
        .unwrap_or_else(|| panic!("no wide-step note in\n{stdout}"));
    // sqrt(10 * 5000) = 223.6
    assert!(note.contains("e.g. nodes=224"), "{note}");
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

/// Three close players at a small node cap: an adaptive ladder reaches ±120 Elo in seconds.
const CLOSE: &str = r#"
name = "close"
seed = 5
pairs = 2
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

/// games.csv rows without the timing column, sorted.
fn game_rows(dir: &Path) -> Vec<String> {
    rows_without_seconds(&std::fs::read_to_string(dir.join("games.csv")).unwrap())
}

/// The rows of games.csv text without the timing column (`seconds`, the tenth), sorted: what
/// must be equal between two runs of the same games.
fn rows_without_seconds(text: &str) -> Vec<String> {
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

fn adaptive(cfg: &Path, out: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "ladder",
        "--config",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    chuhan(&args)
}

#[test]
fn adaptive_ladders_are_reproducible_across_concurrency_and_resume() {
    let base = temp("adaptive");
    let cfg = write(&base, "ladder.toml", CLOSE);
    let budget = ["--precision", "40", "--max-games", "40"];
    let one = base.join("one");
    let (code, stdout, stderr) =
        adaptive(&cfg, &one, &[&budget[..], &["--concurrency", "1"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("stopped: budget spent: --max-games 40"),
        "{stdout}"
    );
    let games = game_rows(&one);
    assert_eq!(games.len(), 41, "the budget is spent exactly");
    // Rounds went to the pairings unequally or equally, but the pair ids are 0..20 in order.
    let two = base.join("two");
    let (code, stdout2, stderr) =
        adaptive(&cfg, &two, &[&budget[..], &["--concurrency", "2"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(game_rows(&two), games, "the same games at any concurrency");
    let ratings = std::fs::read_to_string(one.join("ratings.csv")).unwrap();
    assert_eq!(
        std::fs::read_to_string(two.join("ratings.csv")).unwrap(),
        ratings
    );
    assert_eq!(
        std::fs::read_to_string(two.join("gaps.csv")).unwrap(),
        std::fs::read_to_string(one.join("gaps.csv")).unwrap()
    );
    assert!(stdout2.contains("stopped: budget spent"), "{stdout2}");

    // Interrupt mid-round: 21 games (the fourth round, 18 to 26 games, has begun; pair 10 has
    // one game of two) and a truncated line; the resumed run equals the uninterrupted one.
    let cut = base.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    for f in ["manifest.toml", "ladder.toml"] {
        std::fs::copy(one.join(f), cut.join(f)).unwrap();
    }
    let text = std::fs::read_to_string(one.join("games.csv")).unwrap();
    let keep: String = text.lines().take(22).collect::<Vec<_>>().join("\n") + "\n10,21,rnb";
    std::fs::write(cut.join("games.csv"), keep).unwrap();
    let (code, stdout3, stderr) = chuhan(&["ladder", "--resume", cut.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(game_rows(&cut), games, "resumed mid-round = uninterrupted");
    assert_eq!(
        std::fs::read_to_string(cut.join("ratings.csv")).unwrap(),
        ratings
    );
    assert!(stdout3.contains("stopped: budget spent"), "{stdout3}");
}

#[test]
fn an_adaptive_ladder_stops_when_every_gap_is_precise() {
    let base = temp("precise");
    let cfg = write(&base, "ladder.toml", CLOSE);
    let out = base.join("out");
    let (code, stdout, stderr) =
        adaptive(&cfg, &out, &["--precision", "120", "--max-games", "2000"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("stopped: precision reached"), "{stdout}");
    let gaps = std::fs::read_to_string(out.join("gaps.csv")).unwrap();
    let rows: Vec<&str> = gaps.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{gaps}");
    for row in rows {
        let f: Vec<f64> = row.split(',').skip(2).map(|x| x.parse().unwrap()).collect();
        assert!(f[2] - f[1] <= 240.0, "half-width above 120: {row}");
        assert!(f[1] <= f[0] && f[0] <= f[2], "{row}");
    }
    let played = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(
        played.lines().count() - 1 < 2000,
        "stopped before the budget"
    );
    // The progress lines name the widest gap and its half-width (stderr without --quiet).
    let out2 = base.join("out2");
    let (code, _, stderr) = chuhan(&[
        "ladder",
        "--config",
        cfg.to_str().unwrap(),
        "--out",
        out2.to_str().unwrap(),
        "--precision",
        "120",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("round 2: 8 games, widest gap") && stderr.contains("(target ±120)"),
        "{stderr}"
    );
    assert_eq!(
        game_rows(&out2),
        game_rows(&out),
        "the budget did not change a game"
    );
}

#[test]
fn bad_precision_settings_are_refused_naming_the_flag() {
    let base = temp("bad-precision");
    let cfg = write(&base, "ladder.toml", CLOSE);
    let no_neighbours = write(
        &base,
        "none.toml",
        &CLOSE.replace("neighbours = 1", "neighbours = 0"),
    );
    let cases: [(&Path, &[&str], &str); 7] = [
        (&cfg, &["--precision", "0"], "--precision"),
        (&cfg, &["--precision", "-20"], "--precision"),
        (
            &cfg,
            &["--precision", "50", "--max-games", "0"],
            "--max-games",
        ),
        (
            &cfg,
            &["--precision", "50", "--max-games", "3"],
            "--max-games 3 cannot be met",
        ),
        (
            &cfg,
            &["--precision", "50", "--max-time", "0"],
            "--max-time",
        ),
        (&cfg, &["--max-games", "100"], "add --precision"),
        (&no_neighbours, &["--precision", "50"], "disconnected"),
    ];
    for (i, (file, extra, needle)) in cases.iter().enumerate() {
        let out = base.join(format!("out{i}"));
        let (code, _, stderr) = adaptive(file, &out, extra);
        assert_eq!(code, 2, "case {i}: {stderr}");
        assert!(
            stderr.contains(needle),
            "case {i}: '{needle}' not in {stderr}"
        );
        assert!(!out.exists(), "case {i} wrote results");
    }
    // The same keys in a ladder file are checked too, naming the file and the key.
    let bad = write(
        &base,
        "bad.toml",
        &CLOSE.replace("pairs = 2", "pairs = 2\nprecision = -1"),
    );
    let (code, _, stderr) = adaptive(&bad, &base.join("outf"), &[]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("precision must be a positive") && stderr.contains("bad.toml"),
        "{stderr}"
    );
}

/// The first-move line of a ladder's or rate's output.
fn first_move_line(stdout: &str) -> String {
    stdout
        .lines()
        .find(|l| l.starts_with("first-move advantage"))
        .unwrap_or_else(|| panic!("no first-move advantage in\n{stdout}"))
        .to_string()
}

#[test]
fn a_ladder_estimates_the_first_move_advantage_as_rate_does_on_its_games() {
    let base = temp("first-move");
    let cfg = write(
        &base,
        "ladder.toml",
        &CLOSE.replace("pairs = 2", "pairs = 6"),
    );
    let out = base.join("out");
    let (code, plain, err) = adaptive(&cfg, &base.join("plain"), &[]);
    assert_eq!(code, 0, "{err}");
    assert!(!plain.contains("first-move advantage"), "{plain}");
    let (code, stdout, err) = adaptive(&cfg, &out, &["--first-move-advantage", "auto"]);
    assert_eq!(code, 0, "{err}");
    let line = first_move_line(&stdout);
    assert!(line.contains("95% interval ["), "{line}");
    let manifest = std::fs::read_to_string(out.join("manifest.toml")).unwrap();
    assert!(
        manifest.contains("first_move_advantage = \"auto\""),
        "{manifest}"
    );
    // The same games read back from games.pgn by `chuhan rate` (whose fit is pinned to Ordo's
    // -W) give the same advantage and the same ratings.
    let pgn = out.join("games.pgn");
    let (code, rated, err) = chuhan(&[
        "rate",
        pgn.to_str().unwrap(),
        "--anchor",
        "d1",
        "--first-move-advantage",
        "auto",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(first_move_line(&rated), line);
    let table = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| ["d1", "d2", "d3"].iter().any(|n| l.contains(n)))
            .take(3)
            .map(str::to_string)
            .collect()
    };
    assert_eq!(table(&rated), table(&stdout), "{rated}\n{stdout}");
    // A resume fits as the run was started.
    let (code, again, err) = chuhan(&["ladder", "--resume", out.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(first_move_line(&again), line);
    let (code, _, err) = chuhan(&[
        "ladder",
        "--resume",
        out.to_str().unwrap(),
        "--first-move-advantage",
        "0",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--first-move-advantage"), "{err}");
    // The ladder file's key: a number fixes the advantage, nonsense is refused naming it.
    let fixed = write(
        &base,
        "fixed.toml",
        &CLOSE.replace(
            "neighbours = 1",
            "neighbours = 1\nfirst_move_advantage = 25",
        ),
    );
    let (code, stdout, err) = adaptive(&fixed, &base.join("fixed"), &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        first_move_line(&stdout),
        "first-move advantage  +25.0 (fixed)"
    );
    let bad = write(
        &base,
        "bad.toml",
        &CLOSE.replace(
            "neighbours = 1",
            "neighbours = 1\nfirst_move_advantage = \"sideways\"",
        ),
    );
    let (code, _, err) = adaptive(&bad, &base.join("bad"), &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("bad.toml") && err.contains("'sideways' is not a first-move advantage"),
        "{err}"
    );
    let (code, _, err) = adaptive(&cfg, &base.join("bad2"), &["--first-move-advantage", "x"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("expected auto or a number of Elo"), "{err}");
}

#[test]
fn a_calibration_fits_every_stage_with_the_first_move_term_it_was_given() {
    let out = temp("cal-first-move");
    let args = |out: &Path, w: &'static str| -> Vec<String> {
        [
            "calibrate",
            "--knob",
            "nodes",
            "--grid",
            "40,150,600",
            "--targets",
            "0,100",
            "--pairs",
            "2",
            "--first-move-advantage",
            w,
            "--quiet",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([out.to_str().unwrap().to_string()])
        .collect()
    };
    let a = args(&out, "15");
    let (code, stdout, stderr) = chuhan(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{stderr}");
    // The grid's fit and the validation's both say so.
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("first-move advantage"))
        .collect();
    assert_eq!(
        lines, ["first-move advantage  +15.0 (fixed)"; 2],
        "{stdout}"
    );
    let settings = std::fs::read_to_string(out.join("calibrate.toml")).unwrap();
    assert!(
        settings.contains("first_move_advantage = \"15\""),
        "{settings}"
    );
    let (code, _, stderr) = chuhan(&[
        "calibrate",
        "--resume",
        out.to_str().unwrap(),
        "--first-move-advantage",
        "auto",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("fits with --first-move-advantage 15"),
        "{stderr}"
    );
}
