//! A run reads the git state for its manifest without rewriting `.git/index` (many shards of
//! one run on one shared checkout would otherwise contend for its lock).

use crate::fixtures as common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, SystemTime};

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[test]
fn a_run_does_not_rewrite_the_git_index() {
    let (Some(index), Some(top)) = (
        git(&["rev-parse", "--path-format=absolute", "--git-path", "index"]),
        git(&["rev-parse", "--show-toplevel"]),
    ) else {
        panic!("the tests run in the project's git checkout");
    };
    let index = Path::new(&index);
    // A tracked file whose stat data is newer than the index makes a plain `git status`
    // refresh the index and write it back: what the run must not do.
    let tracked = Path::new(&top).join("README.md");
    let file = std::fs::File::options()
        .append(true)
        .open(&tracked)
        .unwrap();
    file.set_modified(SystemTime::now() + Duration::from_secs(1))
        .unwrap();
    drop(file);
    let before = std::fs::metadata(index).unwrap().modified().unwrap();
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("git-state-run");
    let _ = std::fs::remove_dir_all(&out);
    let (code, _, err) = common::chuhan(&[
        "match",
        "--player",
        "random",
        "--player",
        "greedy",
        "--pairs",
        "1",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let manifest = std::fs::read_to_string(out.join("manifest.toml")).unwrap();
    assert!(
        !manifest.contains("git_commit = \"unknown\""),
        "the run read the git state: {manifest}"
    );
    let after = std::fs::metadata(index).unwrap().modified().unwrap();
    assert_eq!(before, after, "{} was rewritten", index.display());
}
