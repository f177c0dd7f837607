//! A results folder that cannot be written (issue 18, item 4): a clear error naming the folder
//! or file, exit 2, nothing changed, and the run resumes to an uninterrupted run's games once
//! it is writable again.
//!
//! Root ignores permission bits, and CI runs the tests as root: there the binary runs as the
//! unprivileged user 65534 (`setpriv --reuid=65534 --regid=65534 --clear-groups`, util-linux),
//! from a copy every user can execute, on folders under the system temporary directory; as any
//! other user it runs as that user. Nothing is skipped: a root without `setpriv` fails.

use crate::fixtures as common;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const NOBODY: u32 = 65534;

fn euid() -> u32 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("Uid:")).unwrap();
    line.split_whitespace().nth(2).unwrap().parse().unwrap()
}

/// Runs the binary as a user whose writes permission bits can refuse.
struct User {
    /// The binary this user runs (a copy it may execute when the tests run as root).
    exe: PathBuf,
    root: bool,
}

impl User {
    fn new(base: &Path) -> User {
        let root = euid() == 0;
        let exe = if root {
            let bin = base.join("bin");
            std::fs::create_dir_all(&bin).unwrap();
            let exe = bin.join("chuhan");
            std::fs::copy(env!("CARGO_BIN_EXE_chuhan"), &exe).unwrap();
            for p in [&bin, &exe] {
                std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
            }
            exe
        } else {
            PathBuf::from(env!("CARGO_BIN_EXE_chuhan"))
        };
        User { exe, root }
    }

    fn command(&self, args: &[&str]) -> Command {
        if self.root {
            let mut c = Command::new("setpriv");
            c.args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                self.exe.to_str().unwrap(),
            ]);
            c.args(args);
            c
        } else {
            let mut c = Command::new(&self.exe);
            c.args(args);
            c
        }
    }

    fn run(&self, args: &[&str]) -> (i32, String) {
        let out: Output = self
            .command(args)
            .output()
            .expect("setpriv (util-linux) runs the binary as an unprivileged user");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// Makes `path` (and everything below it) this user's, so that only the mode bits decide.
    fn own(&self, path: &Path) {
        if self.root {
            std::os::unix::fs::chown(path, Some(NOBODY), Some(NOBODY)).unwrap();
            if path.is_dir() {
                for e in std::fs::read_dir(path).unwrap().flatten() {
                    self.own(&e.path());
                }
            }
        }
    }
}

fn base(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhan-read-only-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Every user may enter it (the temporary directory itself is world-writable).
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Every file below `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(snapshot(&p));
        } else {
            out.insert(p.clone(), std::fs::read(&p).unwrap());
        }
    }
    out
}

/// Data rows of games.csv sorted by game, without the seconds column; none twice.
fn games(dir: &Path) -> Vec<String> {
    common::sorted_games(&dir.join("games.csv"))
}

const MATCH: [&str; 13] = [
    "match",
    "--player",
    "default",
    "--player",
    "easy",
    "--pairs",
    "6",
    "--nodes",
    "1500",
    "--seed",
    "5",
    "--concurrency",
    "2",
];

fn match_args<'a>(flag: &'a str, dir: &'a str) -> Vec<&'a str> {
    let mut a = MATCH.to_vec();
    a.extend(["--quiet", flag, dir]);
    a
}

#[test]
fn a_read_only_results_folder_is_refused_and_resumes_once_writable() {
    let base = base("folder");
    let user = User::new(&base);

    let reference = base.join("reference");
    let (code, _, err) = common::chuhan(&match_args("--out", reference.to_str().unwrap()));
    assert_eq!(code, 0, "{err}");

    // A run of the user's, stopped after its first games (SIGINT), as a folder to resume.
    let runs = base.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    user.own(&runs);
    let part = runs.join("part");
    let shown = part.to_str().unwrap();
    let mut child = user
        .command(&match_args("--out", shown))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(part.join("games.csv")).map_or(0, |t| t.lines().count()) < 2 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended too soon"
        );
        assert!(started.elapsed() < Duration::from_secs(120), "no game");
        std::thread::sleep(Duration::from_millis(20));
    }
    // setpriv execs the binary, so the child's pid is the run's.
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(child.wait().unwrap().code(), Some(130));
    let kept = games(&part);
    assert!(
        !kept.is_empty() && kept.len() < 12,
        "{} games kept",
        kept.len()
    );

    // The folder read-only: refused before anything is touched, naming the folder.
    let files: Vec<PathBuf> = snapshot(&part).into_keys().collect();
    for f in &files {
        chmod(f, 0o444);
    }
    chmod(&part, 0o555);
    let before = snapshot(&part);
    let (code, err) = user.run(&["match", "--resume", shown, "--quiet"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{shown}/.chuhan.lock")) && err.contains("Permission denied"),
        "{err}"
    );
    assert!(err.contains("not writable"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(snapshot(&part), before, "the read-only folder changed");

    // The folder writable but games.csv not: refused naming the file, nothing changed.
    chmod(&part, 0o755);
    let (code, err) = user.run(&["match", "--resume", shown, "--quiet"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{shown}/games.csv")) && err.contains("Permission denied"),
        "{err}"
    );
    assert!(
        err.contains(&format!("continue with: chuhan match --resume {shown}")),
        "{err}"
    );
    assert_eq!(snapshot(&part), before, "the folder changed");

    // Writable again: the resume finishes with the games of an uninterrupted run.
    for f in &files {
        chmod(f, 0o644);
    }
    let (code, err) = user.run(&["match", "--resume", shown, "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(games(&part), games(&reference));
    assert_eq!(
        std::fs::read_to_string(part.join("summary.csv")).unwrap(),
        std::fs::read_to_string(reference.join("summary.csv")).unwrap()
    );
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn a_new_run_in_a_read_only_folder_writes_nothing_and_says_so() {
    let base = base("parent");
    let user = User::new(&base);
    let parent = base.join("locked");
    std::fs::create_dir_all(&parent).unwrap();
    user.own(&parent);
    chmod(&parent, 0o555);

    let new = parent.join("new");
    let (code, err) = user.run(&match_args("--out", new.to_str().unwrap()));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(new.to_str().unwrap()), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert!(!new.exists());

    let data = parent.join("data.txt");
    let datagen = [
        "datagen",
        "--games",
        "2",
        "--nodes",
        "100",
        "--quiet",
        "--out",
        data.to_str().unwrap(),
    ];
    let (code, err) = user.run(&datagen);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(data.to_str().unwrap()), "{err}");
    assert!(std::fs::read_dir(&parent).unwrap().next().is_none());

    // Writable again: the same command runs.
    chmod(&parent, 0o755);
    let (code, err) = user.run(&datagen);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&data).unwrap().contains("#game"));
    let _ = std::fs::remove_dir_all(&base);
}
