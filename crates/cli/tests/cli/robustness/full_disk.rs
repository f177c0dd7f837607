//! A full disk (issue 18, item 4), as a file-size limit: a match whose games.csv cannot grow
//! past 2 KiB ends with exit 2 naming the file and the cause, and once the limit is gone the
//! folder resumes to the games of an uninterrupted run.
//!
//! The limit is set by `ulimit -f` in a shell that also ignores SIGXFSZ (whose default action
//! would kill the process), so writes fail with EFBIG as they would on a full disk.

use crate::fixtures as common;

use common::chuhan;
use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("full-disk-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn args(flag: &str, dir: &Path) -> Vec<String> {
    [
        "match", "--player", "greedy", "--player", "random", "--pairs", "20", "--seed", "3",
        "--quiet", flag,
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([dir.display().to_string()])
    .collect()
}

/// games.csv rows sorted, without the seconds column.
fn games(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let mut rows: Vec<String> = text
        .lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.remove(9);
            f.join(",")
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn a_full_disk_is_a_clear_error_and_the_folder_resumes() {
    let reference = scratch("reference");
    let a = args("--out", &reference);
    let (code, _, err) = chuhan(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::metadata(reference.join("games.csv"))
            .unwrap()
            .len()
            > 4096
    );

    let dir = scratch("run");
    let out = Command::new("bash")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 2; exec \"$@\"")
        .arg("bash")
        .arg(env!("CARGO_BIN_EXE_chuhan"))
        .args(args("--out", &dir))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        (err.contains("games.csv") || err.contains("games.pgn")) && err.contains("File too large"),
        "the error names the file and the cause: {err}"
    );
    assert!(std::fs::metadata(dir.join("games.csv")).unwrap().len() <= 2048);

    let r = args("--resume", &dir);
    let (code, _, err) = chuhan(&r.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    assert_eq!(games(&dir), games(&reference));
}
