//! SIGINT and SIGTERM (issue 18, item 4): each long command is started, signalled once it has
//! written some of its work, and must then exit 130 (SIGINT) or 143 (SIGTERM) with one line
//! saying how to continue, its folder lock released and no engine process of its own left;
//! the line it printed, run as given, must finish the run with the outputs of an uninterrupted
//! run. A second SIGINT while stopping ends at once, and the folder still resumes.

use crate::fixtures as common;

use common::{run, spsa_run, strings, texel_run};

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a run may take to show progress, or to stop after the signal, on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(120);

fn scratch(name: &str) -> PathBuf {
    common::scratch("signals", name)
}

/// Data rows of every games.csv under `dir` (a calibration has one per stage).
fn game_rows(dir: &Path) -> usize {
    let mut n = 0;
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                n += game_rows(&p);
            } else if p.file_name().is_some_and(|f| f == "games.csv") {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                n += text
                    .lines()
                    .skip(1)
                    .filter(|l| l.ends_with(char::is_alphanumeric))
                    .count();
            }
        }
    }
    n
}

/// Rows of every games.csv under `dir` whose termination is `interrupted`.
fn interrupted_rows(dir: &Path) -> usize {
    let mut n = 0;
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                n += interrupted_rows(&p);
            } else if p.file_name().is_some_and(|f| f == "games.csv") {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                n += text
                    .lines()
                    .filter(|l| l.split(',').nth(6) == Some("interrupted"))
                    .count();
            }
        }
    }
    n
}

/// games.csv (at `sub` below the folder) sorted by game, without the seconds column; no game
/// may appear twice.
fn games(dir: &Path, sub: &str) -> String {
    common::sorted_games(&dir.join(sub).join("games.csv"))
        .into_iter()
        .map(|r| r + "\n")
        .collect()
}

fn files(dir: &Path, names: &[&str]) -> String {
    names
        .iter()
        .map(|f| format!("--- {f}\n{}", std::fs::read_to_string(dir.join(f)).unwrap()))
        .collect()
}

/// The pids whose parent is `pid` (from /proc).
fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(child) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
        let rest = &stat[stat.rfind(')').unwrap() + 1..];
        let ppid: u32 = rest.split_whitespace().nth(1).unwrap().parse().unwrap();
        if ppid == pid {
            out.push(child);
        }
    }
    out
}

/// Whether `pid` is a live process (a zombie is dead).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let rest = &stat[stat.rfind(')').unwrap() + 1..];
            !matches!(rest.split_whitespace().next(), Some("Z" | "X"))
        }
        Err(_) => false,
    }
}

fn send(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .unwrap();
    assert!(status.success(), "kill -{signal} {pid}");
}

/// One long command under test.
struct Case {
    name: &'static str,
    /// The command line of a new run, without the target (`--out TARGET` is appended).
    args: Vec<String>,
    /// The target is a file (datagen), not a folder.
    is_file: bool,
    /// Whether the run has written some of its work (the moment to signal).
    progressed: fn(&Path) -> bool,
    /// The outputs that must match an uninterrupted run.
    outputs: fn(&Path) -> String,
    /// `INT` or `TERM`.
    signal: &'static str,
    /// Send the signal twice.
    twice: bool,
    /// The run starts engine processes of its own that must be gone after it.
    external: bool,
    /// The run keeps nothing when interrupted and says to start again.
    starts_again: bool,
}

fn with_target(args: &[String], target: &Path) -> Vec<String> {
    let mut a = args.to_vec();
    a.push("--out".into());
    a.push(target.display().to_string());
    a
}

/// Starts, signals, checks the exit and the line, runs the line, compares the outputs.
/// Returns false, having checked nothing, only when a case that signals twice finds that the
/// first signal had already ended the run before the second came (the caller retries with slower
/// moves); every other outcome is asserted here.
fn interrupt_and_continue(case: Case) -> bool {
    let root = scratch(case.name);
    let target_in = |name: &str| {
        root.join(if case.is_file {
            format!("{name}.txt")
        } else {
            name.into()
        })
    };
    let reference = target_in("reference");
    let (code, err) = run(&with_target(&case.args, &reference));
    assert_eq!(code, 0, "{}: {err}", case.name);
    let expected = (case.outputs)(&reference).replace(&reference.display().to_string(), "TARGET");

    let target = target_in("interrupted");
    let args = with_target(&case.args, &target);
    let stderr_path = root.join("stderr.txt");
    let mut child: Child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .unwrap();
    let pid = child.id();
    let started = Instant::now();
    let mut engines = Vec::new();
    loop {
        assert!(
            child.try_wait().unwrap().is_none(),
            "{}: the run ended before it was signalled: make it longer\n{}",
            case.name,
            std::fs::read_to_string(&stderr_path).unwrap()
        );
        if case.external {
            for c in children_of(pid) {
                if !engines.contains(&c) {
                    engines.push(c);
                }
            }
        }
        if (case.progressed)(&target) {
            break;
        }
        assert!(started.elapsed() < PATIENCE, "{}: no progress", case.name);
        std::thread::sleep(Duration::from_millis(20));
    }
    if case.external {
        assert!(
            engines.iter().any(|&c| alive(c)),
            "{}: no engine process seen",
            case.name
        );
    }
    send(pid, case.signal);
    if case.twice {
        std::thread::sleep(Duration::from_millis(5));
        send(pid, case.signal);
    }
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "{}: still running after the signal",
            case.name
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let stderr = std::fs::read_to_string(&stderr_path).unwrap();
    if case.twice && stderr.contains("interrupted by") {
        // The moves in flight ended before the second signal arrived (a loaded machine can
        // delay the second `kill` by more than a move): this attempt tested nothing.
        return false;
    }
    let (expected_code, name) = match case.signal {
        "INT" => (130, "SIGINT"),
        "TERM" => (143, "SIGTERM"),
        s => panic!("no such signal {s}"),
    };
    assert_eq!(
        status.code(),
        Some(expected_code),
        "{}: {stderr}",
        case.name
    );
    for &e in &engines {
        assert!(!alive(e), "{}: engine process {e} left running", case.name);
    }
    let lock = if case.is_file {
        PathBuf::from(format!("{}.lock", target.display()))
    } else {
        target.join(".chuhan.lock")
    };
    // A second signal ends the process as a kill does: the kernel releases the lock, the file
    // may stay (the next run takes it over).
    if !case.twice {
        assert!(!lock.exists(), "{}: {} left", case.name, lock.display());
    }

    let command = if case.twice {
        // The process ended inside the handler, before it could say anything: the folder is
        // resumed as after a kill.
        None
    } else {
        let line = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or_default();
        let shown = target.display().to_string();
        let prefix = if case.starts_again {
            format!("interrupted by {name}: nothing was kept; start again with: chuhan ")
        } else {
            format!("interrupted by {name}: resume with: chuhan ")
        };
        assert!(
            line.starts_with(&prefix),
            "{}: last line {line:?}",
            case.name
        );
        let words = common::shell_words(&line[prefix.len() - "chuhan ".len()..]);
        assert_eq!(words[0], "chuhan");
        assert!(
            words.contains(&shown),
            "{}: the line does not name {shown}: {line}",
            case.name
        );
        Some(words[1..].to_vec())
    };
    if case.starts_again {
        assert!(
            !target.exists() || std::fs::read_dir(&target).unwrap().next().is_none(),
            "{}: an interrupted run that keeps nothing left files in {}",
            case.name,
            target.display()
        );
        assert_eq!(command.as_deref(), Some(&args[..]), "{}", case.name);
    } else if !case.twice {
        // Something was kept and something is left to do.
        assert!(
            (case.progressed)(&target),
            "{}: nothing kept after the signal",
            case.name
        );
    }
    // A game cut short by the signal is abandoned, not recorded as a result.
    assert_eq!(
        interrupted_rows(&target),
        0,
        "{}: an abandoned game was recorded",
        case.name
    );
    let command = command.unwrap_or_else(|| {
        // What a user gives after a kill: match takes its configuration from the folder.
        vec![
            case.args[0].clone(),
            "--quiet".into(),
            "--resume".into(),
            target.display().to_string(),
        ]
    });
    let (code, err) = run(&command);
    assert_eq!(code, 0, "{}: {command:?}\n{err}", case.name);
    assert_eq!(
        (case.outputs)(&target).replace(&target.display().to_string(), "TARGET"),
        expected,
        "{}: outputs differ from the uninterrupted run",
        case.name
    );
    true
}

fn some_games(dir: &Path) -> bool {
    game_rows(dir) >= 1
}

fn match_outputs(dir: &Path) -> String {
    games(dir, "") + &files(dir, &["summary.csv"])
}

fn match_args(first: &str) -> Vec<String> {
    strings(&[
        "match",
        "--player",
        first,
        "--player",
        "easy",
        "--pairs",
        "8",
        "--nodes",
        "1500",
        "--seed",
        "5",
        "--concurrency",
        "2",
        "--quiet",
    ])
}

#[test]
fn match_stops_on_sigint_and_resumes() {
    interrupt_and_continue(Case {
        name: "match",
        args: match_args("default"),
        is_file: false,
        progressed: some_games,
        outputs: match_outputs,
        signal: "INT",
        twice: false,
        external: false,
        starts_again: false,
    });
}

#[test]
fn match_with_an_external_engine_stops_on_sigterm_and_leaves_no_engine_behind() {
    let dir = scratch("external-engine");
    let engine = dir.join("uci.toml");
    std::fs::write(
        &engine,
        format!(
            "[uci]\ncommand = {:?}\nargs = [\"uci\"]\n[uci.options]\nHash = 16\n",
            env!("CARGO_BIN_EXE_chuhan")
        ),
    )
    .unwrap();
    interrupt_and_continue(Case {
        name: "match-external",
        args: match_args(&engine.display().to_string()),
        is_file: false,
        progressed: some_games,
        outputs: match_outputs,
        signal: "TERM",
        twice: false,
        external: true,
        starts_again: false,
    });
}

#[test]
fn a_second_sigint_ends_at_once_and_the_folder_resumes() {
    // Slow moves (many nodes, few plies), so that the second signal lands while the first
    // waits for the moves in flight; signalled as soon as the run has its manifest. 400,000
    // nodes is about 150 ms a move. Both players search the full budget (Hard, not Easy, whose
    // moves take a millisecond: with both games on an Easy move the first signal ended the run
    // at once). On a loaded machine the second `kill` can still come after the moves in flight
    // have ended; such an attempt checks nothing, and the next one has moves four times slower.
    let tested = [400_000u32, 1_600_000, 6_400_000].iter().any(|&nodes| {
        let name: &'static str = Box::leak(format!("match-twice-{nodes}").into_boxed_str());
        let nodes = nodes.to_string();
        interrupt_and_continue(Case {
            name,
            args: strings(&[
                "match",
                "--player",
                "default",
                "--player",
                "hard",
                "--pairs",
                "2",
                "--nodes",
                &nodes,
                "--ply-cap",
                "12",
                "--seed",
                "5",
                "--concurrency",
                "2",
                "--quiet",
            ]),
            is_file: false,
            progressed: |dir| dir.join("manifest.toml").exists(),
            outputs: match_outputs,
            signal: "INT",
            twice: true,
            external: false,
            starts_again: false,
        })
    });
    assert!(
        tested,
        "in every attempt the first signal had ended the run before the second came"
    );
}

#[test]
fn sprt_stops_on_sigint_and_resumes() {
    interrupt_and_continue(Case {
        name: "sprt",
        args: strings(&[
            "sprt",
            // Two players of one strength: no decision within the pair limit, so the run is
            // still playing when the signal comes.
            "--base",
            "default:tt_mb=4",
            "--test",
            "default",
            "--elo0",
            "-5",
            "--elo1",
            "5",
            "--nodes",
            "1500",
            "--max-pairs",
            "8",
            "--seed",
            "2",
            "--concurrency",
            "2",
            "--quiet",
        ]),
        is_file: false,
        progressed: some_games,
        outputs: match_outputs,
        signal: "INT",
        twice: false,
        external: false,
        starts_again: false,
    });
}

#[test]
fn ladder_stops_on_sigterm_and_resumes() {
    let dir = scratch("ladder-config");
    let config = dir.join("ladder.toml");
    std::fs::write(
        &config,
        "name = \"tiny\"\nseed = 3\npairs = 3\nneighbours = 1\nmax_nodes = 1500\nbootstrap = 200\n\
         [[players]]\nname = \"d1\"\nspec = \"default:depth=1\"\n\
         [[players]]\nname = \"n500\"\nspec = \"default:nodes=500\"\n\
         [[players]]\nname = \"n1500\"\nspec = \"default:nodes=1500\"\n",
    )
    .unwrap();
    let mut args = strings(&["ladder", "--quiet", "--concurrency", "2", "--config"]);
    args.push(config.display().to_string());
    interrupt_and_continue(Case {
        name: "ladder",
        args,
        is_file: false,
        progressed: some_games,
        outputs: |dir| games(dir, "") + &files(dir, &["ratings.csv", "gaps.csv"]),
        signal: "TERM",
        twice: false,
        external: false,
        starts_again: false,
    });
}

#[test]
fn calibrate_stops_on_sigint_and_resumes() {
    interrupt_and_continue(Case {
        name: "calibrate",
        args: strings(&[
            "calibrate",
            "--knob",
            "nodes",
            "--grid",
            "100,400,1600",
            "--targets",
            "0,200",
            "--names",
            "weak,strong",
            "--pairs",
            "3",
            "--concurrency",
            "2",
            "--quiet",
        ]),
        is_file: false,
        progressed: some_games,
        outputs: |dir| {
            games(dir, "grid")
                + &games(dir, "validate")
                + &files(dir, &["calibration.csv", "levels.toml", "validation.csv"])
        },
        signal: "INT",
        twice: false,
        external: false,
        starts_again: false,
    });
}

#[test]
fn datagen_stops_on_sigint_and_resumes() {
    interrupt_and_continue(Case {
        name: "datagen",
        args: strings(&[
            "datagen",
            "--games",
            "24",
            "--nodes",
            "600",
            "--max-plies",
            "80",
            "--concurrency",
            "2",
            "--quiet",
        ]),
        is_file: true,
        progressed: |file| {
            std::fs::read_to_string(file).is_ok_and(|t| t.lines().any(|l| l.starts_with("#game")))
        },
        outputs: |file| std::fs::read_to_string(file).unwrap(),
        signal: "INT",
        twice: false,
        external: false,
        starts_again: false,
    });
}

#[test]
fn spsa_stops_on_sigterm_and_resumes() {
    let args = spsa_run(&scratch("spsa-params"), "8", "800");
    interrupt_and_continue(Case {
        name: "spsa",
        args,
        is_file: false,
        progressed: |dir| {
            std::fs::read_to_string(dir.join("spsa.csv")).is_ok_and(|t| t.lines().count() >= 2)
        },
        outputs: |dir| files(dir, &["spsa.csv", "tuned.toml"]),
        signal: "TERM",
        twice: false,
        external: false,
        starts_again: false,
    });
}

#[test]
fn texel_stops_on_sigint_keeps_nothing_and_starts_again() {
    let args = texel_run(
        &scratch("texel-data"),
        "12",
        &["--epochs", "15000", "--threads", "1", "--progress", "json"],
    );
    interrupt_and_continue(Case {
        name: "texel",
        args,
        is_file: false,
        // The epochs have begun once the run's folder exists (it is locked before loading)
        // and the progress says so; the stderr file is read by the case's own root.
        progressed: |dir| {
            let stderr = dir.parent().unwrap().join("stderr.txt");
            dir.exists()
                && std::fs::read_to_string(stderr).is_ok_and(|t| t.contains("\"advanced\""))
        },
        outputs: |dir| files(dir, &["tuned.toml", "texel.csv"]),
        signal: "INT",
        twice: false,
        external: false,
        starts_again: true,
    });
}

/// Shard folders of a small two-shard match under `root`.
fn match_shards(root: &Path) -> Vec<PathBuf> {
    (0..2)
        .map(|i| {
            let dir = root.join(format!("shard-{i}"));
            let mut args = strings(&[
                "match", "--player", "default", "--player", "easy", "--pairs", "4", "--nodes",
                "300", "--seed", "9", "--quiet", "--shard",
            ]);
            args.push(format!("{i}/2"));
            let (code, err) = run(&with_target(&args, &dir));
            assert_eq!(code, 0, "shard {i}: {err}");
            dir
        })
        .collect()
}

/// The file names of a merged folder and the text of each (the folder's own path replaced),
/// except report.html's, which holds its folder's name and the time it was written.
fn merged_outputs(dir: &Path) -> String {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let compared: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|&n| n != "report.html")
        .collect();
    let text = files(dir, &compared).replace(&dir.display().to_string(), "TARGET");
    // The manifest's `created_unix` is when each merge ran: two merges a second apart differ
    // there and nowhere else (it failed so in CI).
    let text: Vec<&str> = text
        .lines()
        .map(|l| {
            if l.starts_with("created_unix = ") {
                "created_unix = (time)"
            } else {
                l
            }
        })
        .collect();
    format!("{names:?}\n") + &text.join("\n")
}

/// A merge is over in well under a second, so a signal sent "while it runs" would race it.
/// Instead the last shard's games.csv is a FIFO: the merge blocks reading it, the test knows
/// it is there once its own open for writing returns (a FIFO's open waits for the other end),
/// signals it, and only then writes the file's text. The merge cannot run past the read
/// without first handling the pending signal, so the signal always lands mid-merge, before
/// anything is written.
fn merge_stops_on(signal: &str) {
    let (expected_code, name) = match signal {
        "INT" => (130, "SIGINT"),
        "TERM" => (143, "SIGTERM"),
        s => panic!("no such signal {s}"),
    };
    let root = scratch(&format!("merge-{signal}"));
    let shards = match_shards(&root);
    let merge_args = |out: &Path| {
        let mut a = vec![
            "merge".to_string(),
            "--out".into(),
            out.display().to_string(),
        ];
        a.extend(shards.iter().map(|d| d.display().to_string()));
        a
    };
    let reference = root.join("reference");
    let (code, err) = run(&merge_args(&reference));
    assert_eq!(code, 0, "{err}");
    let expected = merged_outputs(&reference);

    let games_csv = shards[1].join("games.csv");
    let text = std::fs::read(&games_csv).unwrap();
    let restored = text.clone();
    std::fs::remove_file(&games_csv).unwrap();
    let made = Command::new("mkfifo").arg(&games_csv).status().unwrap();
    assert!(made.success(), "mkfifo {}", games_csv.display());

    let target = root.join("interrupted");
    let args = merge_args(&target);
    let stderr_path = root.join("stderr.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .unwrap();
    let (opened_tx, opened) = std::sync::mpsc::channel();
    let (write_tx, write) = std::sync::mpsc::channel::<()>();
    let fifo = games_csv.clone();
    let writer = std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        opened_tx.send(()).unwrap();
        if write.recv().is_ok() {
            use std::io::Write;
            f.write_all(&text).unwrap();
        }
    });
    let started = Instant::now();
    loop {
        if opened.recv_timeout(Duration::from_millis(20)).is_ok() {
            break;
        }
        if let Some(status) = child.try_wait().unwrap() {
            // Unblock the writer's open before failing.
            let _ = std::fs::File::open(&games_csv);
            panic!(
                "merge ended ({status}) before reading the shard's games.csv\n{}",
                std::fs::read_to_string(&stderr_path).unwrap()
            );
        }
        assert!(started.elapsed() < PATIENCE, "merge never read the shard");
    }
    send(child.id(), signal);
    write_tx.send(()).unwrap();
    writer.join().unwrap();
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "merge still running after {name}"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let stderr = std::fs::read_to_string(&stderr_path).unwrap();
    assert_eq!(status.code(), Some(expected_code), "{stderr}");
    assert!(
        !target.join(".chuhan.lock").exists(),
        "the lock was left: {stderr}"
    );
    assert!(
        !target.exists() || std::fs::read_dir(&target).unwrap().next().is_none(),
        "an interrupted merge left files in {}: {stderr}",
        target.display()
    );
    let line = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default();
    let prefix = format!("interrupted by {name}: nothing was kept; start again with: ");
    assert!(line.starts_with(&prefix), "last line {line:?}");
    let words = common::shell_words(&line[prefix.len()..]);
    assert_eq!(words[0], "chuhan");
    assert_eq!(words[1..], args[..], "the line to start again");

    std::fs::remove_file(&games_csv).unwrap();
    std::fs::write(&games_csv, restored).unwrap();
    let (code, err) = run(&words[1..]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        merged_outputs(&target),
        expected,
        "outputs differ from the merge that was never interrupted"
    );
}

#[test]
fn merge_stops_on_sigint_writes_nothing_and_starts_again() {
    merge_stops_on("INT");
}

#[test]
fn merge_stops_on_sigterm_writes_nothing_and_starts_again() {
    merge_stops_on("TERM");
}
