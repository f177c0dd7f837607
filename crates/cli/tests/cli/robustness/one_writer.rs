//! One writer per results folder (issue 18, item 1): two runs started at once on one folder
//! (two new runs, two resumes, each spawned in both orders), a run killed with SIGKILL whose
//! stale lock the resume takes over, and every writing command refusing a folder in use.

use crate::fixtures as common;

use chuhan_arena::play::results::{lock_file, lock_folder, LOCK_FILE};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::chuhan;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("one-writer-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A match long enough (engine players, about a second) that a second process started with it
/// finds the folder in use rather than finished.
fn match_args(flag: &str, dir: &Path) -> Vec<String> {
    [
        "match",
        "--player",
        "default",
        "--player",
        "easy",
        "--pairs",
        "3",
        "--nodes",
        "3000",
        "--seed",
        "5",
        "--concurrency",
        "1",
        "--quiet",
        flag,
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([dir.display().to_string()])
    .collect()
}

fn spawn(args: &[String]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chuhan starts")
}

/// Exit code and stderr.
fn finish(child: Child) -> (i32, String) {
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// games.csv rows by game index, without the seconds column.
fn games(dir: &Path) -> BTreeMap<u64, String> {
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let mut rows = BTreeMap::new();
    for line in text.lines().skip(1) {
        let mut f: Vec<&str> = line.split(',').collect();
        f.remove(9); // seconds
        let game: u64 = f[1].parse().unwrap();
        assert!(
            rows.insert(game, f.join(",")).is_none(),
            "game {game} written twice in {}",
            dir.display()
        );
    }
    rows
}

/// Starts two runs at once (`first` spawned first), and checks that exactly one finished and
/// the other exited 2 naming the winner's pid.
fn race(first: &[String], second: &[String], dir: &Path) {
    let a = spawn(first);
    let b = spawn(second);
    let (pa, pb) = (a.id(), b.id());
    let (ca, ea) = finish(a);
    let (cb, eb) = finish(b);
    let (winner, loser_err) = match (ca, cb) {
        (0, 2) => (pa, eb),
        (2, 0) => (pb, ea),
        _ => panic!("expected one run to finish and one to exit 2, got {ca} and {cb}\n{ea}\n{eb}"),
    };
    assert!(
        loser_err.contains("is in use by another run")
            && loser_err.contains(&format!("pid {winner} ")),
        "the refused run must name pid {winner}: {loser_err}"
    );
    assert!(
        loser_err.contains(&dir.display().to_string()),
        "{loser_err}"
    );
    assert!(
        !dir.join(LOCK_FILE).exists(),
        "a run that ended normally removes its lock file"
    );
}

#[test]
fn two_runs_started_at_once_one_writes_and_the_other_is_told_who() {
    let reference = scratch("reference");
    let (code, _, err) = chuhan(
        &match_args("--out", &reference)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(code, 0, "{err}");
    let expected = games(&reference);
    assert_eq!(expected.len(), 6);

    for round in 0..2 {
        // Two new runs on one folder.
        let dir = scratch(&format!("new-{round}"));
        let args = match_args("--out", &dir);
        race(&args, &args, &dir);
        assert_eq!(games(&dir), expected, "round {round}");

        // Two resumes of one interrupted folder (a requeued task and its old incarnation), in
        // both spawn orders: a bare `--resume` and the full command line with `--resume`.
        let cut = scratch(&format!("resume-{round}"));
        std::fs::create_dir_all(&cut).unwrap();
        for f in ["manifest.toml", "games.csv"] {
            std::fs::copy(reference.join(f), cut.join(f)).unwrap();
        }
        let text = std::fs::read_to_string(cut.join("games.csv")).unwrap();
        let kept: Vec<&str> = text.lines().take(3).collect();
        std::fs::write(cut.join("games.csv"), format!("{}\n", kept.join("\n"))).unwrap();
        let bare: Vec<String> = ["match", "--quiet", "--resume"]
            .iter()
            .map(|s| s.to_string())
            .chain([cut.display().to_string()])
            .collect();
        let full = match_args("--resume", &cut);
        if round == 0 {
            race(&bare, &full, &cut);
        } else {
            race(&full, &bare, &cut);
        }
        assert_eq!(
            games(&cut),
            expected,
            "round {round}: nothing lost or doubled"
        );
    }
}

#[test]
fn a_killed_run_leaves_a_stale_lock_that_the_resume_takes_over() {
    let dir = scratch("killed");
    let mut child = spawn(&match_args("--out", &dir));
    let pid = child.id();
    let started = Instant::now();
    // Kill once the first game is written.
    while std::fs::read_to_string(dir.join("games.csv")).map_or(true, |t| t.lines().count() < 2) {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no game written"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let lock = std::fs::read_to_string(dir.join(LOCK_FILE)).expect("the lock file stays");
    assert!(lock.contains(&format!("pid = {pid}")), "{lock}");
    let (code, _, err) = chuhan(&["match", "--quiet", "--resume", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "the dead holder's lock is taken over: {err}");
    assert!(!dir.join(LOCK_FILE).exists());
    let reference = scratch("killed-reference");
    let (code, _, err) = chuhan(
        &match_args("--out", &reference)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(games(&dir), games(&reference));
}

/// Every command that writes a results folder (or datagen's file) refuses one in use, naming
/// the holder (here this test process) and leaving the folder as it was.
#[test]
fn every_writing_command_refuses_a_folder_in_use() {
    let me = format!("pid {} ", std::process::id());
    let check = |args: &[&str], what: &Path| {
        let (code, out, err) = chuhan(args);
        assert_eq!(code, 2, "chuhan {args:?}\n{out}\n{err}");
        assert!(
            err.contains("is in use by another run") && err.contains(&me),
            "chuhan {args:?}: {err}"
        );
        assert!(err.contains(&what.display().to_string()), "{err}");
    };
    let dir = scratch("held");
    let held = lock_folder(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let m = &["--player", "greedy", "--player", "random"];
    check(
        &[&["match"][..], m, &["--pairs", "1", "--out", d]].concat(),
        &dir,
    );
    check(&["match", "--resume", d], &dir);
    check(
        &[
            "sprt", "--base", "random", "--test", "greedy", "--elo0", "0", "--elo1", "5", "--out",
            d,
        ],
        &dir,
    );
    check(&["sprt", "--resume", d], &dir);
    check(&["ladder", "--out", d], &dir);
    check(&["ladder", "--resume", d], &dir);
    check(
        &[
            "calibrate",
            "--knob",
            "nodes",
            "--grid",
            "10,50,100",
            "--targets",
            "0,10",
            "--out",
            d,
        ],
        &dir,
    );
    check(&["calibrate", "--resume", d], &dir);
    check(
        &["tune", "spsa", "--params", "material.horse", "--out", d],
        &dir,
    );
    check(&["tune", "spsa", "--resume", d], &dir);
    let data = scratch("held-data.txt");
    std::fs::write(&data, "#game 0 1 0\n").unwrap();
    check(
        &[
            "tune",
            "texel",
            "--data",
            data.to_str().unwrap(),
            "--out",
            d,
        ],
        &dir,
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "only the lock file is there"
    );
    drop(held);
    assert!(!dir.exists(), "the folder the lock made is gone again");

    let file_lock = lock_file(&data).unwrap();
    let g = &["--games", "2", "--nodes", "100"];
    check(
        &[&["datagen"][..], g, &["--out", data.to_str().unwrap()]].concat(),
        &data,
    );
    check(
        &[&["datagen"][..], g, &["--resume", data.to_str().unwrap()]].concat(),
        &data,
    );
    assert_eq!(std::fs::read_to_string(&data).unwrap(), "#game 0 1 0\n");
    drop(file_lock);
}
