//! `chuhan datagen --engine FILE` with an external engine: the data of a stronger engine's
//! games for Texel tuning. Through `chuhan uci` the file holds the same games as the in-process
//! engine; an engine that crashes stops the run with an error naming it and the game, keeps the
//! games before it, and `--resume` finishes the file as one run would.

use crate::fixtures as common;

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
    datagen_with(engine, out, flag, concurrency, &[])
}

fn datagen_with(
    engine: &str,
    out: &Path,
    flag: &str,
    concurrency: &str,
    extra: &[&str],
) -> (i32, String, String) {
    let mut args = datagen_args(engine, out, flag, concurrency);
    args.push("--quiet");
    args.extend_from_slice(extra);
    chuhan(&args)
}

/// The arguments of the small run the tests play (4 games at 600 nodes, seed 5), progress and
/// notes left on.
fn datagen_args<'a>(
    engine: &'a str,
    out: &'a Path,
    flag: &'a str,
    concurrency: &'a str,
) -> Vec<&'a str> {
    vec![
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
        flag,
        out.to_str().unwrap(),
    ]
}

/// The pieces of a FEN's board (its first field's letters).
fn pieces(fen: &str) -> usize {
    fen.split(' ')
        .next()
        .unwrap()
        .chars()
        .filter(char::is_ascii_alphabetic)
        .count()
}

fn chuhan_uci_file(dir: &Path) -> PathBuf {
    let file = dir.join("chuhan-uci.toml");
    std::fs::write(
        &file,
        "name = \"chuhan-uci\"\n[uci]\ncommand = \"{chuhan}\"\nargs = [\"uci\"]\ncoordinates = \"a0\"\n",
    )
    .unwrap();
    file
}

#[test]
fn record_quiet_move_keeps_the_quiet_board_positions_and_those_before_a_quiet_move() {
    let dir = scratch("datagen-engines", "record");
    let (board, quiet) = (dir.join("board.txt"), dir.join("move.txt"));
    let (code, _, err) = datagen("default", &board, "--out", "2");
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = datagen_with("default", &quiet, "--out", "2", &["--record", "quiet-move"]);
    assert_eq!(code, 0, "{err}");
    let lines = |p: &Path| -> Vec<String> { read(p).lines().map(str::to_string).collect() };
    let (board_lines, quiet_lines) = (lines(&board), lines(&quiet));
    let data = |l: &[String]| -> Vec<String> {
        l.iter().filter(|l| !l.starts_with('#')).cloned().collect()
    };
    let (board_data, quiet_data) = (data(&board_lines), data(&quiet_lines));
    // The same games (same seed): their markers agree but for the count of positions.
    let games = |l: &[String]| -> Vec<String> {
        l.iter()
            .filter(|l| l.starts_with("#game"))
            .map(|l| l.rsplit_once(' ').unwrap().0.to_string())
            .collect()
    };
    assert_eq!(games(&board_lines), games(&quiet_lines));
    // Every position with no capture on the board comes before a quiet move too; the filter
    // also keeps positions with a capture on the board, so more of them.
    for l in &board_data {
        assert!(quiet_data.contains(l), "{l} missing from quiet-move");
    }
    assert!(
        quiet_data.len() > board_data.len() + 20,
        "{} against {}",
        quiet_data.len(),
        board_data.len()
    );
    // Where two recorded positions follow each other in a game, the move between them took
    // nothing.
    let mut followed = 0;
    for w in quiet_lines.windows(2) {
        if w[0].starts_with('#') || w[1].starts_with('#') {
            continue;
        }
        let field = |l: &str, i: usize| l.split(';').nth(i).unwrap().trim().to_string();
        let (p0, p1): (u32, u32) = (
            field(&w[0], 2).parse().unwrap(),
            field(&w[1], 2).parse().unwrap(),
        );
        if p1 == p0 + 1 {
            followed += 1;
            assert_eq!(pieces(&field(&w[0], 0)), pieces(&field(&w[1], 0)), "{w:?}");
        }
    }
    assert!(followed > 20, "{followed}");
    // The external engine's path keeps the same positions.
    let external = dir.join("external.txt");
    let uci = chuhan_uci_file(&dir);
    let (code, _, err) = datagen_with(
        uci.to_str().unwrap(),
        &external,
        "--out",
        "2",
        &["--record", "quiet-move"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(positions(&external), positions(&quiet));
    // The manifest records the filter, and a resume with the other one is refused by name.
    let manifest = read(&dir.join("move.txt.manifest.toml"));
    assert!(manifest.contains("record = \"quiet-move\""), "{manifest}");
    assert!(!read(&dir.join("board.txt.manifest.toml")).contains("record"));
    let (code, _, err) = datagen("default", &quiet, "--resume", "2");
    assert_ne!(code, 0);
    assert!(err.contains("--record"), "{err}");
    let (code, _, err) = datagen_with(
        "default",
        &quiet,
        "--resume",
        "2",
        &["--record", "quiet-move"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines(&quiet), quiet_lines);
}

#[test]
fn chuhan_uci_as_an_external_engine_writes_the_in_process_engines_games() {
    let dir = scratch("datagen-engines", "uci");
    let file = chuhan_uci_file(&dir);
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

/// The eval column of every position line.
fn evals(path: &Path) -> Vec<i32> {
    read(path)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.rsplit_once(';').unwrap().1.parse().unwrap())
        .collect()
}

#[test]
fn score_search_records_the_scores_chuhan_uci_reports_for_the_same_searches() {
    let dir = scratch("datagen-engines", "score");
    let file = chuhan_uci_file(&dir);
    let (external, search, fixed) = (
        dir.join("external.txt"),
        dir.join("search.txt"),
        dir.join("static.txt"),
    );
    let all = ["--record", "all"];
    let (code, _, err) = datagen_with(file.to_str().unwrap(), &external, "--out", "2", &all);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = datagen_with(
        "default",
        &search,
        "--out",
        "1",
        &["--record", "all", "--score", "search"],
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = datagen_with("default", &fixed, "--out", "2", &all);
    assert_eq!(code, 0, "{err}");
    // The same games and positions whatever the score column holds.
    assert_eq!(positions(&search), positions(&external));
    assert_eq!(positions(&search), positions(&fixed));
    let (ext, srch, stat) = (evals(&external), evals(&search), evals(&fixed));
    assert!(srch.len() > 50, "{}", srch.len());
    // The in-process search's scores are the ones chuhan uci printed for the same searches
    // (mate scores aside: UCI reports those in moves).
    let cp = |e: i32| e.abs() < 20_000;
    let pairs: Vec<(i32, i32)> = srch
        .iter()
        .zip(&ext)
        .filter(|(a, b)| cp(**a) && cp(**b))
        .map(|(a, b)| (*a, *b))
        .collect();
    assert!(pairs.len() > 50);
    assert!(pairs.iter().all(|(a, b)| a == b), "{pairs:?}");
    // And not the static evaluation: most positions score differently.
    let same = srch.iter().zip(&stat).filter(|(a, b)| a == b).count();
    assert!(same * 4 < srch.len(), "{same} of {}", srch.len());
    // The manifest records the choice (a static run writes nothing), and a resume with
    // another choice is refused by name before anything changes.
    assert!(read(&dir.join("search.txt.manifest.toml")).contains("score = \"search\""));
    assert!(!read(&dir.join("static.txt.manifest.toml")).contains("score"));
    let before = read(&search);
    let (code, _, err) = datagen_with("default", &search, "--resume", "1", &all);
    assert_ne!(code, 0);
    assert!(err.contains("--score"), "{err}");
    assert_eq!(read(&search), before);
    // An external engine has no static evaluation: the flag is refused, no file written.
    let refused = dir.join("refused.txt");
    let (code, _, err) = datagen_with(
        file.to_str().unwrap(),
        &refused,
        "--out",
        "1",
        &["--score", "static"],
    );
    assert_ne!(code, 0);
    assert!(err.contains("--score"), "{err}");
    assert!(!refused.exists());
}

#[test]
fn a_resume_by_another_engine_build_says_so_and_keeps_the_file() {
    let dir = scratch("datagen-engines", "build");
    let out = dir.join("data.txt");
    let (code, _, err) = datagen("default", &out, "--out", "1");
    assert_eq!(code, 0, "{err}");
    let mpath = dir.join("data.txt.manifest.toml");
    let manifest = read(&mpath);
    let this_build = format!("bench_signature = \"{}\"", chuhan_engine::bench::SIGNATURE);
    assert!(manifest.contains(&this_build), "{manifest}");
    // As if an earlier build had written it.
    std::fs::write(
        &mpath,
        manifest.replace(&this_build, "bench_signature = \"1\""),
    )
    .unwrap();
    let before = read(&out);
    // Without --quiet: the note is a progress line.
    let (code, _, err) = chuhan(&datagen_args("default", &out, "--resume", "1"));
    assert_eq!(code, 0, "{err}");
    let expected = format!(
        "the run started with engine bench 1 and this chuhan's engine is bench {}: default play",
        chuhan_engine::bench::SIGNATURE
    );
    assert!(err.contains(&expected), "{err}");
    assert_eq!(read(&out), before, "the finished file is kept as it was");
}
