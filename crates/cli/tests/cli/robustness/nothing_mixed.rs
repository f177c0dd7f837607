//! Nothing lost, nothing mixed (issue 18, item 2): datagen keeps a manifest and refuses to
//! resume a file it did not write or with other settings; `--resume` of a run refuses an engine
//! file edited since the run started, naming it. Every refusal exits 2 and changes nothing.

use crate::fixtures as common;

use common::chuhan;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("nothing-mixed-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn datagen(games: &str, extra: &[&str]) -> (i32, String) {
    let mut args = vec![
        "datagen",
        "--games",
        games,
        "--nodes",
        "200",
        "--max-plies",
        "60",
        "--concurrency",
        "1",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let (code, _, err) = chuhan(&args);
    (code, err)
}

/// Runs `args`, expects exit 2 with `needle` in stderr and `file` unchanged.
fn refused(code: i32, err: &str, needle: &str, file: &Path, before: &[u8]) {
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
    assert_eq!(
        std::fs::read(file).unwrap(),
        before,
        "{} changed",
        file.display()
    );
}

#[test]
fn datagen_resumes_only_its_own_file_with_its_own_settings() {
    let dir = scratch("datagen");
    // A file datagen did not write (the case: a copy of README.md).
    let readme = dir.join("README.md");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"),
        &readme,
    )
    .unwrap();
    let before = std::fs::read(&readme).unwrap();
    let (code, err) = datagen("2", &["--resume", readme.to_str().unwrap()]);
    refused(
        code,
        &err,
        "README.md.manifest.toml is missing",
        &readme,
        &before,
    );

    // Its own file, with a manifest beside it.
    let data = dir.join("data.txt");
    let (code, err) = datagen("2", &["--out", data.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let manifest = std::fs::read_to_string(dir.join("data.txt.manifest.toml")).unwrap();
    assert!(manifest.contains("nodes = 200"), "{manifest}");
    let before = std::fs::read(&data).unwrap();
    // Other settings are refused, naming them.
    for (flag, value) in [("--nodes", "300"), ("--seed", "9"), ("--engine", "easy")] {
        let (code, err) = datagen("2", &[flag, value, "--resume", data.to_str().unwrap()]);
        refused(code, &err, flag, &data, &before);
    }
    // The same settings continue it (more games are allowed: game i is the same game).
    let (code, err) = datagen("3", &["--resume", data.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let grown = std::fs::read(&data).unwrap();
    assert!(grown.starts_with(&before) && grown.len() > before.len());

    // Its manifest beside a file that holds something else: the foreign line is not cut away.
    let mut text = String::from_utf8(grown).unwrap();
    text.push_str("not a position\n");
    std::fs::write(&data, &text).unwrap();
    let (code, err) = datagen("4", &["--resume", data.to_str().unwrap()]);
    refused(code, &err, "not a datagen line", &data, text.as_bytes());
}

#[test]
fn an_engine_file_edited_since_the_run_started_is_refused_naming_it() {
    let dir = scratch("engine-file");
    let engine = dir.join("mine.toml");
    std::fs::write(
        &engine,
        "name = \"mine\"\nevaluation = \"handcrafted\"\n[params]\neval.mobility.horse = 4\n",
    )
    .unwrap();
    let e = engine.to_str().unwrap();

    // A match: the manifest keeps the file's text.
    let run = dir.join("run");
    let r = run.to_str().unwrap();
    let args = [
        "match", "--player", e, "--player", "easy", "--pairs", "1", "--nodes", "300", "--quiet",
    ];
    let (code, _, err) = chuhan(&[&args[..], &["--out", r]].concat());
    assert_eq!(code, 0, "{err}");
    let manifest = std::fs::read_to_string(run.join("manifest.toml")).unwrap();
    assert!(
        manifest.contains("eval.mobility.horse = 4") && manifest.contains("[[engine_files]]"),
        "{manifest}"
    );
    // Cut the games back so that there is something to resume.
    let games = run.join("games.csv");
    let header = std::fs::read_to_string(&games).unwrap();
    let header = format!("{}\n", header.lines().next().unwrap());
    std::fs::write(&games, &header).unwrap();
    std::fs::write(
        &engine,
        "name = \"mine\"\nevaluation = \"handcrafted\"\n[params]\neval.mobility.horse = 9\n",
    )
    .unwrap();
    for resume in [
        &["match", "--quiet", "--resume", r][..],
        &[&args[..], &["--resume", r]].concat(),
    ] {
        let (code, _, err) = chuhan(resume);
        refused(
            code,
            &err,
            "mine.toml changed since the run started",
            &games,
            header.as_bytes(),
        );
    }
    // Restored, it resumes.
    std::fs::write(
        &engine,
        "name = \"mine\"\nevaluation = \"handcrafted\"\n[params]\neval.mobility.horse = 4\n",
    )
    .unwrap();
    let (code, _, err) = chuhan(&["match", "--quiet", "--resume", r]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&games).unwrap().lines().count(), 3);

    // datagen with an engine file.
    let data = dir.join("data.txt");
    let (code, err) = datagen("2", &["--engine", e, "--out", data.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let before = std::fs::read(&data).unwrap();
    std::fs::write(
        &engine,
        "name = \"mine\"\nevaluation = \"handcrafted\"\n[params]\neval.mobility.horse = 5\n",
    )
    .unwrap();
    let (code, err) = datagen("3", &["--engine", e, "--resume", data.to_str().unwrap()]);
    refused(
        code,
        &err,
        "mine.toml changed since the run started",
        &data,
        &before,
    );
}
