//! Run folders written by an earlier version still resume: `tests/data/runs/` holds a match, an
//! SPRT and an SPSA run made by the `chuhan` of commit 0d3d22b (before the arena was layered),
//! each cut short with a truncated last line, as an interrupted run leaves it. Resuming them
//! must keep every complete game (and SPSA iteration) already in the folder, byte for byte, and
//! finish the run with the games the current engine plays from there. The openings of the
//! remaining pairs are generated with the engine's evaluation, so `*.expected.csv` is the
//! current engine's continuation: regenerate it (resume a copy of the fixture and copy its
//! games.csv / spsa.csv) when a functional engine change updates the bench signature, and say
//! so in that commit. It was last made with bench signature 185781. Each resume warns that the
//! engine changed since the run started (the fixtures say bench 1246375).

use crate::fixtures as common;

use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/runs")
        .join(name)
}

/// A scratch copy of the fixture folder `name` (the fixture itself stays untouched).
fn copy_of(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("old-run-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(data(name)).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    dir
}

/// games.csv rows sorted by game index, without the `seconds` column (wall time).
fn games_without_time(path: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let seconds = header.iter().position(|h| h == "seconds").unwrap();
    let game = header.iter().position(|h| h == "game").unwrap();
    let mut rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| {
            r.unwrap()
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != seconds)
                .map(|(_, v)| v.to_string())
                .collect()
        })
        .collect();
    let game = if game > seconds { game - 1 } else { game };
    rows.sort_by_key(|r| r[game].parse::<u64>().unwrap());
    rows
}

/// The lines of `path` that end with a newline (a truncated last line is left out).
fn complete_lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let end = text.rfind('\n').map_or(0, |i| i + 1);
    text[..end].lines().map(String::from).collect()
}

/// The fixtures were made by the engine of bench 1246375: a resume says that the rest of the
/// games are played by this build's engine.
fn says_the_engine_changed(err: &str) {
    let expected = format!(
        "the run started with engine bench 1246375 and this chuhan's engine is bench {}",
        chuhan_engine::bench::SIGNATURE
    );
    assert!(
        err.contains(&expected),
        "no warning of the engine change:\n{err}"
    );
}

fn resumes_with_the_old_games(command: &[&str], name: &str) {
    let dir = copy_of(name);
    let mut args = command.to_vec();
    args.extend(["--resume", dir.to_str().unwrap()]);
    let (code, out, err) = common::chuhan(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    says_the_engine_changed(&err);
    let expected = games_without_time(&data(&format!("{name}.expected.csv")));
    let got = games_without_time(&dir.join("games.csv"));
    // Every complete game of the old folder is kept as it was.
    let old = complete_lines(&data(name).join("games.csv"));
    let new = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert!(old.len() > 1, "the fixture has games");
    for line in &old {
        assert!(new.lines().any(|l| l == line), "old game lost: {line}");
    }
    assert_eq!(got.len(), expected.len(), "{out}");
    assert_eq!(got, expected, "the resumed run played other games");
    assert!(dir.join("summary.csv").exists());
}

#[test]
fn an_old_match_folder_resumes_with_the_same_games() {
    resumes_with_the_old_games(&["match"], "match");
}

#[test]
fn an_old_sprt_folder_resumes_with_the_same_games() {
    resumes_with_the_old_games(&["sprt"], "sprt");
}

#[test]
fn an_old_spsa_folder_resumes_with_the_same_trajectory() {
    let dir = copy_of("spsa");
    let (code, out, err) = common::chuhan(&[
        "tune",
        "spsa",
        "--resume",
        dir.to_str().unwrap(),
        "--concurrency",
        "2",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    says_the_engine_changed(&err);
    let expected = std::fs::read_to_string(data("spsa.expected.csv")).unwrap();
    let got = std::fs::read_to_string(dir.join("spsa.csv")).unwrap();
    let old = complete_lines(&data("spsa").join("spsa.csv"));
    assert!(old.len() > 1, "the fixture has iterations");
    assert!(
        got.lines().zip(&old).all(|(g, o)| g == o),
        "the old iterations were not kept:\n{got}"
    );
    assert_eq!(got, expected, "the resumed run took another trajectory");
    assert!(dir.join("tuned.toml").exists() && dir.join("spsa.svg").exists());
}
