//! The engine commands for any UCI engine, through the real binary: `perft --engine` finds each
//! planted move-generation bug of the test engine (`uci-misbehave --bug KIND`) and agrees with
//! Fairy-Stockfish and `chuhan uci`; `bench --engine` reads and checks the signature;
//! unusable engines and malformed answers are exit 2 naming the file, the command and the line.

use crate::fixtures as common;

use common::misbehave_exe;

use std::path::{Path, PathBuf};

const FAIRY: &str = "/usr/games/fairy-stockfish";
const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn repo() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).to_path_buf()
}

fn chuhan(args: &[&str]) -> (i32, String, String) {
    common::chuhan_in(Some(&repo()), args)
}

/// A fresh, empty directory under the test target's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("engine-jobs-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An engine file for the test engine with these flags.
fn misbehave_file(dir: &Path, name: &str, flags: &[&str]) -> PathBuf {
    let args: Vec<String> = flags.iter().map(|f| format!("{f:?}")).collect();
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(
        &path,
        format!(
            "[uci]\ncommand = {:?}\nargs = [{}]\nstartup_timeout_ms = 5000\nfixed_limit_timeout_ms = 20000\n",
            misbehave_exe().display().to_string(),
            args.join(", ")
        ),
    )
    .unwrap();
    path
}

/// The report lines of a mismatch: key -> value.
fn report(out: &str) -> std::collections::HashMap<String, String> {
    out.lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.to_string(), v.trim().to_string()))
        .collect()
}

fn perft(engine: &Path, fen: &str, depth: u32) -> (i32, String, String) {
    chuhan(&[
        "perft",
        "--engine",
        engine.to_str().unwrap(),
        "--fen",
        fen,
        "--depth",
        &depth.to_string(),
    ])
}

#[test]
fn a_correct_engine_agrees_at_every_depth_and_on_a_suite() {
    let dir = scratch("agree");
    let good = misbehave_file(&dir, "good", &[]);
    for depth in 1..=3 {
        let (code, out, err) = perft(&good, START, depth);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.starts_with(&format!("agree: depth {depth}: ")), "{out}");
    }
    let (_, out, _) = perft(&good, START, 3);
    assert!(out.contains("79666 nodes"), "{out}");
    let (code, out, err) = chuhan(&[
        "perft",
        "--engine",
        good.to_str().unwrap(),
        "--suite",
        "crates/engine/tests/data/xiangqi.epd",
        "--max-depth",
        "2",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("FAIL"), "{out}");
    assert!(out.contains("failed: 0"), "{out}");
}

#[test]
fn missing_move_kinds_are_found_at_the_root() {
    let dir = scratch("missing");
    let cannon = misbehave_file(&dir, "cannon", &["--bug", "cannon-capture"]);
    let (code, out, err) = perft(&cannon, START, 3);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.starts_with("mismatch: depth 3: engine 71208, ours 79666"),
        "{out}"
    );
    let r = report(&out);
    assert_eq!(r["position"], START);
    assert_eq!(r["path"], "");
    assert_eq!(
        r["missing"], "b2b9 h2h9",
        "the two cannon captures of the start"
    );
    assert_eq!(r["extra"], "");

    let horse = misbehave_file(&dir, "horse", &["--bug", "horse-edge"]);
    let (code, out, _) = perft(&horse, START, 2);
    assert_eq!(code, 1, "{out}");
    let r = report(&out);
    assert_eq!(r["missing"], "b0a2 h0i2");
    assert_eq!(r["extra"], "");
}

#[test]
fn a_bug_deep_in_the_tree_is_followed_down_to_its_position() {
    let dir = scratch("deep");
    // Red's general alone against a black chariot: the general can capture only after the
    // chariot has come next to it, at the third ply.
    let fen = "3k5/9/9/9/9/9/9/9/r8/4K4 w - - 0 1";
    let engine = misbehave_file(&dir, "general", &["--bug", "general-capture"]);
    for depth in 1..=2 {
        assert_eq!(
            perft(&engine, fen, depth).0,
            0,
            "depth {depth} cannot see it"
        );
    }
    let (code, out, err) = perft(&engine, fen, 3);
    assert_eq!(code, 1, "{out}{err}");
    let r = report(&out);
    let path: Vec<&str> = r["path"].split(' ').collect();
    assert_eq!(path.len(), 2, "{out}");
    assert_eq!(r["missing"].split(' ').count(), 1, "{out}");
    assert_eq!(r["extra"], "");
    // The report is right: in the reported position the missing move is a capture by the
    // general that our rules allow.
    let mut pos = chuhan_engine::Position::from_fen(&r["position"]).unwrap();
    let mv = pos
        .parse_uci_move(&r["missing"])
        .expect("the missing move is legal");
    assert!(pos.is_capture(mv));
    assert_eq!(
        pos.piece_at(mv.from()).kind(),
        Some(chuhan_engine::PieceKind::General)
    );
    let mut replay = chuhan_engine::Position::from_fen(fen).unwrap();
    for m in &path {
        let mv = replay.parse_uci_move(m).unwrap();
        replay.make(mv);
    }
    assert_eq!(
        replay.to_fen(),
        r["position"],
        "the path leads to the position"
    );
}

#[test]
fn an_illegal_extra_move_is_reported_as_extra() {
    let dir = scratch("extra");
    // The black horse on e5 stands between the generals: moving it away is illegal.
    let fen = "4k4/9/9/9/4n4/9/9/9/9/R3K4 w - - 0 1";
    let engine = misbehave_file(&dir, "facing", &["--bug", "flying-general"]);
    let (code, out, err) = perft(&engine, fen, 3);
    assert_eq!(code, 1, "{out}{err}");
    let r = report(&out);
    assert_eq!(r["path"].split(' ').count(), 1, "{out}");
    assert_eq!(r["missing"], "");
    let extra: Vec<&str> = r["extra"].split(' ').collect();
    assert_eq!(extra.len(), 8, "every move of the screening horse: {out}");
    let mut pos = chuhan_engine::Position::from_fen(&r["position"]).unwrap();
    for m in extra {
        assert!(m.starts_with("e5"), "{m}");
        assert!(pos.parse_uci_move(m).is_err(), "{m} is illegal");
    }
}

#[test]
fn a_count_that_depends_on_the_path_is_reported_with_a_note() {
    let dir = scratch("leaf");
    let engine = misbehave_file(&dir, "leaf", &["--bug", "leaf-count"]);
    assert_eq!(perft(&engine, START, 2).0, 0);
    let (code, out, err) = perft(&engine, START, 3);
    assert_eq!(code, 1, "{out}{err}");
    let r = report(&out);
    assert_eq!(r["path"].split(' ').count(), 2, "{out}");
    assert_eq!((r["missing"].as_str(), r["extra"].as_str()), ("", ""));
    assert!(r["note"].contains("depends on the path"), "{out}");
    // The planted bug counts one node too many below the root when in check.
    let pos = chuhan_engine::Position::from_fen(&r["position"]).unwrap();
    assert!(pos.in_check(), "{out}");
}

#[test]
fn the_bug_can_be_planted_through_a_uci_option_too() {
    let dir = scratch("option");
    let path = dir.join("opt.toml");
    std::fs::write(
        &path,
        format!(
            "[uci]\ncommand = {:?}\n[uci.options]\nBug = \"horse-edge\"\n",
            misbehave_exe().display().to_string()
        ),
    )
    .unwrap();
    let (code, out, _) = perft(&path, START, 1);
    assert_eq!(code, 1, "{out}");
    assert_eq!(report(&out)["missing"], "b0a2 h0i2");
}

#[test]
fn fairy_stockfish_and_chuhan_uci_agree() {
    assert!(
        Path::new(FAIRY).is_file(),
        "{FAIRY} is missing: scripts/test.sh installs it (Debian package fairy-stockfish)"
    );
    for file in [
        "configs/engines/fairy-stockfish.toml",
        "configs/engines/chuhan-uci.toml",
    ] {
        let engine = repo().join(file);
        let (code, out, err) = perft(&engine, START, 3);
        assert_eq!(code, 0, "{file}: {out}{err}");
        assert!(out.contains("79666 nodes"), "{out}");
        let (code, out, err) = chuhan(&[
            "perft",
            "--engine",
            file,
            "--suite",
            "crates/engine/tests/data/xiangqi.epd",
            "--max-depth",
            "2",
        ]);
        assert_eq!(code, 0, "{file}: {out}{err}");
        assert!(out.contains("failed: 0"), "{out}");
    }
}

#[test]
fn unusable_engines_and_malformed_perft_lines_are_exit_2_naming_file_command_and_line() {
    let dir = scratch("bad");
    let check = |engine: &Path, wants: &[&str]| {
        let (code, out, err) = perft(engine, START, 2);
        assert_eq!(code, 2, "{out}{err}");
        assert!(err.contains(&engine.display().to_string()), "{err}");
        for w in wants {
            assert!(err.contains(w), "{w}: {err}");
        }
    };
    let no_perft = misbehave_file(&dir, "noperft", &["--no-perft"]);
    check(
        &no_perft,
        &["sent 'go perft 2'", "got 'bestmove", "no perft"],
    );
    let garbage = misbehave_file(&dir, "garbage", &["--perft-garbage"]);
    check(
        &garbage,
        &[
            "sent 'go perft 2'",
            "got 'h2e2: lots'",
            "not a whole number",
        ],
    );
    let silent = misbehave_file(&dir, "silent", &["--no-uciok"]);
    std::fs::write(
        &silent,
        std::fs::read_to_string(&silent)
            .unwrap()
            .replace("startup_timeout_ms = 5000", "startup_timeout_ms = 500"),
    )
    .unwrap();
    check(
        &silent,
        &["sent 'uci'", "got 'option name", "no uciok within 500 ms"],
    );
    let missing = dir.join("missing.toml");
    std::fs::write(&missing, "[uci]\ncommand = \"/nonexistent/engine\"\n").unwrap();
    check(&missing, &["cannot start '/nonexistent/engine'"]);
    // A file that is not executable.
    let text_file = dir.join("not-a-program");
    std::fs::write(&text_file, "hello\n").unwrap();
    let not_exec = dir.join("notexec.toml");
    std::fs::write(
        &not_exec,
        format!("[uci]\ncommand = {:?}\n", text_file.display().to_string()),
    )
    .unwrap();
    check(&not_exec, &["cannot start"]);
    // Not an engine file at all.
    let (code, _, err) = chuhan(&[
        "perft",
        "--engine",
        "configs/engines/default.toml",
        "--fen",
        START,
        "--depth",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("not an external engine file"), "{err}");
    let (code, _, err) = chuhan(&[
        "perft",
        "--engine",
        "nope.toml",
        "--fen",
        START,
        "--depth",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("nope.toml"), "{err}");
    let good = misbehave_file(&dir, "good", &[]);
    let (code, _, err) = perft(&good, "not a fen", 1);
    assert_eq!(code, 2);
    assert!(err.contains("bad FEN"), "{err}");
    assert_eq!(perft(&good, START, 0).0, 2, "depth 0 checks nothing");
}

#[test]
fn bench_reads_the_signature_and_checks_it() {
    let dir = scratch("bench");
    let engine = misbehave_file(&dir, "bench", &["--bench-nodes", "31337"]);
    let e = engine.to_str().unwrap();
    let (code, out, err) = chuhan(&["bench", "--engine", e]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("nodes: 31337"), "{out}");
    assert!(out.contains("nps: 848400"), "{out}");
    let (code, out, _) = chuhan(&["bench", "--engine", e, "--expect", "31337"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("signature: ok"), "{out}");
    let (code, out, _) = chuhan(&["bench", "--engine", e, "--expect", "31338"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("signature: FAIL expected 31338 got 31337"),
        "{out}"
    );

    let garbage = misbehave_file(&dir, "garbage", &["--bench-garbage"]);
    let (code, _, err) = chuhan(&["bench", "--engine", garbage.to_str().unwrap()]);
    assert_eq!(code, 2);
    for w in [
        garbage.to_str().unwrap(),
        "sent 'bench'",
        "got 'Nodes searched  : many'",
    ] {
        assert!(err.contains(w), "{w}: {err}");
    }
    // An engine without bench: no nodes line.
    let plain = misbehave_file(&dir, "plain", &["--no-bench"]);
    let (code, _, err) = chuhan(&["bench", "--engine", plain.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("sent 'bench'") && err.contains("no 'Nodes searched"),
        "{err}"
    );
}

#[test]
fn chuhan_uci_and_fairy_stockfish_benches_are_read() {
    let signature = chuhan_engine::bench::SIGNATURE.to_string();
    let (code, out, err) = chuhan(&[
        "bench",
        "--engine",
        "configs/engines/chuhan-uci.toml",
        "--expect",
        &signature,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("nodes: {signature}")), "{out}");
    let (code, out, err) = chuhan(&[
        "bench",
        "--engine",
        "configs/engines/fairy-stockfish.toml",
        "--bench-args",
        "16 1 5",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let nodes: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("nodes: "))
        .and_then(|n| n.parse().ok())
        .expect("a node count");
    assert!(nodes > 0, "{out}");
    // The built-in bench checks its signature the same way.
    let (code, out, _) = chuhan(&["bench", "--expect", &signature]);
    assert_eq!(code, 0, "{out}");
}

/// `chuhan engine-check FILE`: exit code and the problem lines (`PROBLEM <check>: ...`).
fn engine_check(file: &Path) -> (i32, String, Vec<String>) {
    engine_check_with(file, &[])
}

fn engine_check_with(file: &Path, flags: &[&str]) -> (i32, String, Vec<String>) {
    let mut args = vec!["engine-check", file.to_str().unwrap()];
    args.extend_from_slice(flags);
    let (code, out, err) = chuhan(&args);
    let problems = out
        .lines()
        .filter(|l| l.starts_with("PROBLEM"))
        .map(str::to_string)
        .collect();
    (code, format!("{out}{err}"), problems)
}

#[test]
fn engine_check_passes_chuhan_uci_fairy_stockfish_and_the_plain_test_engine() {
    let dir = scratch("check-good");
    let good = misbehave_file(&dir, "good", &[]);
    for file in [
        repo().join("configs/engines/chuhan-uci.toml"),
        repo().join("configs/engines/fairy-stockfish.toml"),
        good,
    ] {
        // A loaded test machine may answer late; lateness is tested with a slow engine below.
        let (code, out, problems) = engine_check_with(&file, &["--time-margin", "3000"]);
        assert_eq!(code, 0, "{out}");
        assert!(problems.is_empty(), "{out}");
        for check in ["uci", "options", "isready", "stop", "movetime", "perft"] {
            assert!(
                out.lines()
                    .any(|l| l.starts_with(&format!("ok      {check}: "))),
                "{check} passed: {out}"
            );
        }
        assert!(out.contains("problems: 0"), "{out}");
    }
}

#[test]
fn engine_check_names_each_broken_behaviour() {
    let dir = scratch("check-bad");
    let cases: [(&str, &[&str], &str, &str); 10] = [
        (
            "badopt",
            &["--bad-option"],
            "options",
            "default 50 is outside",
        ),
        (
            "reject",
            &["--reject-options"],
            "options",
            "unknown option Hash",
        ),
        (
            "deaf",
            &["--deaf-in-search"],
            "isready",
            "no readyok during 'go infinite'",
        ),
        ("early", &["--early-bestmove"], "stop", "before 'stop'"),
        ("nostop", &["--ignore-stop"], "stop", "no bestmove within"),
        (
            "slow",
            &["--time-factor", "4"],
            "movetime",
            "answered after",
        ),
        (
            "illegal",
            &["--illegal-at", "1"],
            "bestmove",
            "is not legal",
        ),
        (
            "bug",
            &["--bug", "cannon-capture"],
            "perft",
            "missing 'b2b9 h2h9'",
        ),
        ("garbage", &["--perft-garbage"], "perft", "got 'h2e2: lots'"),
        ("crash", &["--crash-at", "1"], "movetime", "crashed"),
    ];
    for (name, flags, check, detail) in cases {
        let file = misbehave_file(&dir, name, flags);
        // Hangs are waited for the start-up time: keep it short.
        let text = std::fs::read_to_string(&file)
            .unwrap()
            .replace("startup_timeout_ms = 5000", "startup_timeout_ms = 800");
        std::fs::write(&file, text).unwrap();
        let (code, out, problems) = engine_check(&file);
        assert_eq!(code, 1, "{name}: {out}");
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with(&format!("PROBLEM {check}: ")) && p.contains(detail)),
            "{name}: want a {check} problem with '{detail}': {out}"
        );
        // The other checks still ran.
        assert!(out.contains("problems: "), "{out}");
        assert!(
            out.lines().any(|l| l.contains("perft: ")),
            "{name}: the last check ran: {out}"
        );
    }
    // An option in the engine file that the engine does not declare.
    let file = dir.join("typo.toml");
    std::fs::write(
        &file,
        format!(
            "[uci]\ncommand = {:?}\n[uci.options]\nHahs = 16\n",
            misbehave_exe().display().to_string()
        ),
    )
    .unwrap();
    let (code, out, problems) = engine_check(&file);
    assert_eq!(code, 1, "{out}");
    assert!(problems.iter().any(|p| p.contains("sets 'Hahs'")), "{out}");
    // Without perft the check is skipped, not a problem.
    let file = misbehave_file(&dir, "noperft", &["--no-perft"]);
    let (code, out, _) = engine_check(&file);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("skip    perft: not offered"), "{out}");
}

#[test]
fn engine_check_of_an_unusable_engine_is_exit_2() {
    let dir = scratch("check-unusable");
    let silent = misbehave_file(&dir, "silent", &["--no-uciok"]);
    let text = std::fs::read_to_string(&silent)
        .unwrap()
        .replace("startup_timeout_ms = 5000", "startup_timeout_ms = 500");
    std::fs::write(&silent, text).unwrap();
    let (code, out, _) = engine_check(&silent);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("sent 'uci'") && out.contains("no uciok"),
        "{out}"
    );
    let missing = dir.join("missing.toml");
    std::fs::write(&missing, "[uci]\ncommand = \"/nonexistent/engine\"\n").unwrap();
    let (code, out, _) = engine_check(&missing);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("missing.toml") && out.contains("cannot start"),
        "{out}"
    );
    let (code, out, _) = engine_check(Path::new("configs/engines/default.toml"));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("not an external engine file"), "{out}");
}

#[test]
fn chuhan_uci_answers_go_perft_and_bench_as_stockfish_does() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"go perft\nposition startpos moves h2e2\ngo perft 1\nbench\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("info string go perft needs a depth of at least 1"),
        "{stdout}"
    );
    // Black's replies to h2e2 (45: Fairy-Stockfish agrees), from our own move generator.
    let mut pos = chuhan_engine::Position::startpos();
    let h2e2 = pos.parse_uci_move("h2e2").unwrap();
    pos.make(h2e2);
    let replies = pos.legal_moves();
    let entries: Vec<&str> = stdout.lines().filter(|l| l.ends_with(": 1")).collect();
    assert_eq!(entries.len(), replies.len(), "{stdout}");
    for mv in replies.iter() {
        assert!(
            entries.contains(&format!("{mv}: 1").as_str()),
            "{mv}: {stdout}"
        );
    }
    assert!(
        stdout.contains(&format!("\nNodes searched: {}\n", replies.len())),
        "{stdout}"
    );
    let signature = chuhan_engine::bench::SIGNATURE;
    assert!(
        stderr.contains(&format!("Nodes searched  : {signature}\n")),
        "{stderr}"
    );
    assert!(stderr.contains("Nodes/second    : "), "{stderr}");
}
