//! `chuhan calibrate --game chess` with Stockfish's own strength knobs (`Skill Level`, and
//! `UCI_Elo` under `UCI_LimitStrength`), on tiny node-limited budgets: the placed values rise
//! with the targets, each level is an engine file with its value set, validation.csv's pass
//! column follows from each row's own interval, and the written files load and play.

use crate::fixtures as common;

use chuhan_engine::chess::{Game, Position};
use common::{chuhan, stockfish_present};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The shipped Stockfish engine file, by absolute path (the tests run from the crate folder).
fn stockfish_file() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../configs/engines/stockfish.toml")
        .to_string_lossy()
        .into_owned()
}

/// A fresh, empty directory under the test target's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("calibrate-chess-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The rows of a CSV file as maps from column name to value.
fn csv_rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let headers = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            headers
                .iter()
                .zip(rec.unwrap().iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// A calibration of Stockfish by `knob` over `grid` at 500 nodes a move (`extra` base
/// overrides after that), three levels at +0, +40, +80 (small steps: Stockfish's strength knobs are not seeded by us, and a grid of 8 games a setting once reached only +191 of a +200 target); asserts exit 0 and returns the
/// folder and the placed value of each level, from the placement table, in target order.
fn calibrate_stockfish(
    name: &str,
    knob: &str,
    extra: &str,
    grid: &str,
    names: [&str; 3],
) -> (PathBuf, Vec<f64>) {
    let out = scratch(name).join("cal");
    let base = format!("{}:go-nodes=500{extra}", stockfish_file());
    let names_flag = names.join(",");
    let (code, stdout, stderr) = chuhan(&[
        "calibrate",
        "--game",
        "chess",
        "--knob",
        knob,
        "--base",
        &base,
        "--grid",
        grid,
        "--targets",
        "0,40,80",
        "--names",
        &names_flag,
        "--pairs",
        "2",
        "--validate-pairs",
        "1",
        "--seed",
        "3",
        "--concurrency",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let placed = names
        .iter()
        .map(|n| {
            let row = stdout
                .lines()
                .find(|l| l.starts_with(&format!("{n} ")))
                .unwrap_or_else(|| panic!("no placement row for {n} in\n{stdout}"));
            let fields: Vec<&str> = row.split_whitespace().collect();
            assert!(
                fields[3].ends_with(&format!("levels/{n}.toml")),
                "the level is its engine file: {row}"
            );
            fields[2].parse().unwrap_or_else(|e| panic!("{row}: {e}"))
        })
        .collect();
    (out, placed)
}

/// The placed values: the first target (+0) within the grid, and each later value at least
/// the one before, within the grid.
fn assert_monotone(placed: &[f64], grid: &str) {
    let grid: Vec<f64> = grid.split(',').map(|g| g.parse().unwrap()).collect();
    // Where +0 lands depends on the grid's games, which Stockfish's unseeded knobs make
    // random (once Skill 5 of a 0,10,20 grid): within the grid, not at a fixed setting.
    assert!(
        placed[0] >= grid[0] && placed[0] < grid[grid.len() - 1],
        "target +0 within the grid: {placed:?}"
    );
    assert!(
        placed.windows(2).all(|w| w[0] <= w[1]),
        "placed values fall as targets rise: {placed:?}"
    );
    assert!(
        placed[2] > placed[0] && placed[2] <= grid[grid.len() - 1],
        "{placed:?} within {grid:?}"
    );
}

/// validation.csv: one row per adjacent pair of levels, +100 each, the default tolerance, and
/// a pass column that says exactly whether the row's two-sided interval lies within target ±
/// tolerance (a one-sided interval never passes).
fn assert_validation(dir: &Path, names: [&str; 3]) {
    let rows = csv_rows(&dir.join("validation.csv"));
    assert_eq!(rows.len(), 2);
    for (r, pair) in rows.iter().zip(names.windows(2)) {
        assert_eq!((r["from"].as_str(), r["to"].as_str()), (pair[0], pair[1]));
        let num = |k: &str| (!r[k].is_empty()).then(|| r[k].parse::<f64>().unwrap());
        let (target, tolerance) = (num("target_gap").unwrap(), num("tolerance").unwrap());
        assert_eq!((target, tolerance), (40.0, 50.0));
        let expected = match (num("lo95"), num("hi95")) {
            (Some(lo), Some(hi)) => lo >= target - tolerance && hi <= target + tolerance,
            _ => false,
        };
        assert_eq!(r["pass"], expected.to_string(), "{r:?}");
    }
}

/// Each level's engine file holds the base's node limit, the shipped file's options and
/// `lines` (the knob at its placed value), and the validation stage played those files.
fn assert_level_files(dir: &Path, names: [&str; 3], lines: &[Vec<(String, String)>]) {
    let manifest = std::fs::read_to_string(dir.join("validate/manifest.toml")).unwrap();
    for (name, lines) in names.iter().zip(lines) {
        let file = dir.join("levels").join(format!("{name}.toml"));
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("game = \"chess\""), "{text}");
        assert!(text.contains("go_nodes = 500"), "{text}");
        assert!(
            text.contains("Threads = 1") && text.contains("Hash = 16"),
            "{text}"
        );
        // The options as TOML reads them (the writer may quote a key or not).
        let doc: toml::Table = text.parse().unwrap();
        let options = doc["uci"]["options"].as_table().unwrap();
        for (key, value) in lines {
            assert_eq!(
                options.get(key).map(|v| v.to_string()).as_deref(),
                Some(value.as_str()),
                "{key} = {value} in {file:?}:\n{text}"
            );
        }
        assert!(manifest.contains(&format!("{name}.toml")), "{manifest}");
    }
}

/// The first and last level files load as chess players and play a short match with each
/// other: no player failure, every move legal in turn and the judge's own verdict recorded
/// when the rules ended a game.
fn assert_files_play(dir: &Path, names: [&str; 3]) {
    use chuhan_arena::play::any::GameKind;
    use chuhan_arena::play::player::{resolve_player_for, PlayerSpec};
    let files: Vec<String> = [names[0], names[2]]
        .iter()
        .map(|n| {
            let f = dir.join("levels").join(format!("{n}.toml"));
            f.to_string_lossy().into_owned()
        })
        .collect();
    for f in &files {
        let spec = resolve_player_for(f, GameKind::Chess).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(
            matches!(&spec, PlayerSpec::External(e) if e.game == GameKind::Chess),
            "{f}"
        );
    }
    let out = dir.join("replay-match");
    let (code, stdout, stderr) = chuhan(&[
        "match",
        "--game",
        "chess",
        "--player",
        &files[0],
        "--player",
        &files[1],
        "--pairs",
        "1",
        "--nodes",
        "2000",
        "--seed",
        "4",
        "--concurrency",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let games = csv_rows(&out.join("games.csv"));
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(
            !["crash", "timeout", "illegal-move", "disconnect"]
                .contains(&g["termination"].as_str()),
            "{g:?}"
        );
        let mut game = Game::new(Position::from_fen(&g["opening"]).unwrap());
        for text in g["moves"].split_whitespace() {
            assert!(game.verdict().is_none(), "a move after the end: {g:?}");
            let mv = game.position().parse_uci(text).unwrap();
            game.play(mv).unwrap();
        }
        if let Some(v) = game.verdict() {
            assert_eq!(v.termination.as_str(), g["termination"], "{g:?}");
            assert_eq!(v.result.as_pgn(), g["result"], "{g:?}");
        }
    }
}

#[test]
fn stockfish_is_calibrated_by_its_skill_level_and_its_levels_play() {
    if !stockfish_present() {
        return;
    }
    let names = ["skill-a", "skill-b", "skill-c"];
    let grid = "0,10,20";
    let (dir, placed) = calibrate_stockfish("skill", "option:Skill Level", "", grid, names);
    assert_monotone(&placed, grid);
    let lines: Vec<Vec<(String, String)>> = placed
        .iter()
        .map(|v| vec![("Skill Level".to_string(), v.to_string())])
        .collect();
    assert_level_files(&dir, names, &lines);
    assert_validation(&dir, names);
    assert_files_play(&dir, names);
}

#[test]
fn stockfish_is_calibrated_by_uci_elo_under_limit_strength_and_its_levels_play() {
    if !stockfish_present() {
        return;
    }
    let names = ["elo-a", "elo-b", "elo-c"];
    // UCI_Elo's range in Stockfish 15.1 is 1350 to 2850; it only acts with
    // UCI_LimitStrength on, given here as an override of the base.
    let grid = "1350,2100,2850";
    let (dir, placed) = calibrate_stockfish(
        "elo",
        "option:UCI_Elo",
        ",option:UCI_LimitStrength=true",
        grid,
        names,
    );
    assert_monotone(&placed, grid);
    let lines: Vec<Vec<(String, String)>> = placed
        .iter()
        .map(|v| {
            vec![
                ("UCI_LimitStrength".to_string(), "true".to_string()),
                ("UCI_Elo".to_string(), v.to_string()),
            ]
        })
        .collect();
    assert_level_files(&dir, names, &lines);
    assert_validation(&dir, names);
    assert_files_play(&dir, names);
}
