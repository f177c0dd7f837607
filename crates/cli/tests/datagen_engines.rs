//! `chuhan datagen --engine FILE` with an external engine: the data of a stronger engine's
//! games for Texel tuning. Through `chuhan uci` the file holds the same games as the in-process
//! engine; an engine that crashes stops the run with an error naming it and the game, keeps the
//! games before it, and `--resume` finishes the file as one run would.

mod common;

use common::{chuhan, misbehave_exe, scratch};
use std::path::{Path, PathBuf};

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The FEN, result and ply of every line (the eval column is a search score for an external
/// engine and a static evaluation for the built-in one).
fn positions(path: &Path) -> Vec<String> {
    read(path)
        .lines()
        .map(|l| {
            if l.starts_with('#') {
                l.to_string()
            } else {
                l.rsplit_once(';').unwrap().0.to_string()
            }
        })
        .collect()
}

fn misbehave_file(dir: &Path, name: &str, flags: &[String]) -> PathBuf {
    let args: Vec<String> = flags.iter().map(|f| format!("{f:?}")).collect();
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(
        &path,
        format!(
            "name = {name:?}\n[uci]\ncommand = {:?}\nargs = [{}]\n",
            misbehave_exe().display().to_string(),
            args.join(", ")
        ),
    )
    .unwrap();
    path
}

fn datagen(engine: &str, out: &Path, flag: &str, concurrency: &str) -> (i32, String, String) {
    chuhan(&[
        "datagen",
        "--engine",
        engine,
        "--games",
        "4",
        "--nodes",
        "600",
        "--random-plies",
        "4",
        "--seed",
        "5",
        "--concurrency",
        concurrency,
        "--quiet",
        flag,
        out.to_str().unwrap(),
    ])
}

#[test]
fn chuhan_uci_as_an_external_engine_writes_the_in_process_engines_games() {
    let dir = scratch("datagen-engines", "uci");
    let file = dir.join("chuhan-uci.toml");
    std::fs::write(
        &file,
        "name = \"chuhan-uci\"\n[uci]\ncommand = \"{chuhan}\"\nargs = [\"uci\"]\ncoordinates = \"a0\"\n",
    )
    .unwrap();
    let (external, builtin) = (dir.join("external.txt"), dir.join("builtin.txt"));
    let (code, _, err) = datagen(file.to_str().unwrap(), &external, "--out", "2");
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = datagen("default", &builtin, "--out", "1");
    assert_eq!(code, 0, "{err}");
    let lines = positions(&external);
    assert!(
        lines.iter().filter(|l| !l.starts_with('#')).count() > 20,
        "{lines:?}"
    );
    assert_eq!(lines, positions(&builtin));
    // Its eval column holds the scores chuhan uci reported, not all zero.
    assert!(read(&external)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .any(|l| !l.ends_with(";0")));
    let manifest = read(&dir.join("external.txt.manifest.toml"));
    assert!(manifest.contains("command = \"{chuhan}\""), "{manifest}");
}

#[test]
fn a_crashing_engine_stops_the_run_keeps_its_games_and_resume_finishes_it() {
    let dir = scratch("datagen-engines", "crash");
    let clean = misbehave_file(&dir, "clean", &[]);
    let once = dir.join("crashed-once");
    let crashing = misbehave_file(
        &dir,
        "crashing",
        &[
            "--crash-at".into(),
            "400".into(),
            "--once".into(),
            once.display().to_string(),
        ],
    );
    let (whole, parts) = (dir.join("whole.txt"), dir.join("parts.txt"));
    let (code, _, err) = datagen(clean.to_str().unwrap(), &whole, "--out", "1");
    assert_eq!(code, 0, "{err}");

    let (code, _, err) = datagen(crashing.to_str().unwrap(), &parts, "--out", "1");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--engine") && err.contains("crashing.toml"),
        "{err}"
    );
    assert!(err.contains("game 1: the engine crashed"), "{err}");
    assert!(err.contains("--resume"), "{err}");
    // The games before the failed one are whole and are the clean run's first games.
    let kept = positions(&parts);
    let all = positions(&whole);
    assert!(
        kept.last().is_none_or(|l| l.starts_with("#game")),
        "{kept:?}"
    );
    // At its 400th move the engine is in game 1 (game 0 is a long draw).
    assert_eq!(
        kept.iter().filter(|l| l.starts_with("#game")).count(),
        1,
        "{kept:?}"
    );
    assert!(kept.len() < all.len(), "the crash cut the run short");
    assert_eq!(kept[..], all[..kept.len()]);

    let (code, _, err) = datagen(crashing.to_str().unwrap(), &parts, "--resume", "1");
    assert_eq!(code, 0, "{err}");
    assert_eq!(positions(&parts), all);
}

#[test]
fn an_engine_of_the_other_game_or_a_broken_file_is_refused_before_any_file_is_written() {
    let dir = scratch("datagen-engines", "refused");
    let chess = dir.join("chess.toml");
    std::fs::write(
        &chess,
        "name = \"c\"\ngame = \"chess\"\n[uci]\ncommand = \"{chuhan}\"\nargs = [\"uci\", \"--game\", \"chess\"]\n",
    )
    .unwrap();
    let out = dir.join("out.txt");
    let (code, _, err) = datagen(chess.to_str().unwrap(), &out, "--out", "1");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("chess"), "{err}");
    let broken = dir.join("broken.toml");
    std::fs::write(&broken, "[uci]\ncommand = \"/nonexistent/engine\"\n").unwrap();
    let (code, _, err) = datagen(broken.to_str().unwrap(), &out, "--out", "1");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("broken.toml") || err.contains("/nonexistent/engine"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written for a refused engine");
}
