//! External UCI engines in the arena, through the real binary: a misbehaving test engine
//! (`uci-misbehave`) shows every failure becomes its named loss, the engine is restarted and the
//! next game is played normally, with its stderr kept per game; `chuhan uci` plays
//! Fairy-Stockfish with every game replayed and judged again; bad engine files are clear errors.

use crate::fixtures as common;

use common::misbehave_exe;

use chuhan_engine::{Game, GameConfig, Position, RuleSet};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

const FAIRY: &str = "/usr/games/fairy-stockfish";

fn chuhan(args: &[&str]) -> (i32, String, String) {
    common::chuhan_in(
        Some(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))),
        args,
    )
}

/// A fresh, empty directory under the test target's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("uci-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// games.csv as maps from column name to value, in game order.
fn rows(dir: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let mut out: Vec<_> = r
        .records()
        .map(|rec| {
            header
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(String::from))
                .collect::<std::collections::HashMap<_, _>>()
        })
        .collect();
    out.sort_by_key(|row| row["game"].parse::<u64>().unwrap());
    out
}

/// The single engine log folder of a run.
fn log_folder(run: &Path) -> PathBuf {
    let folders: Vec<PathBuf> = std::fs::read_dir(run.join("engines"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(folders.len(), 1, "{folders:?}");
    folders[0].clone()
}

/// Process ids that wrote to a log.
fn pids(log: &str) -> HashSet<String> {
    log.lines()
        .filter_map(|l| l.strip_prefix("uci-misbehave pid "))
        .filter_map(|l| l.split_whitespace().next())
        .map(|p| p.trim_end_matches(':').to_string())
        .collect()
}

fn misbehave_file(dir: &Path, flags: &[&str], extra: &str) -> PathBuf {
    let args: Vec<String> = flags.iter().map(|f| format!("{f:?}")).collect();
    let misbehave = misbehave_exe();
    let text = format!(
        "name = \"misbehave\"\n[uci]\ncommand = {misbehave:?}\nargs = [{}]\nstartup_timeout_ms = 5000\nmove_margin_ms = 300\nfixed_limit_timeout_ms = 1500\n{extra}",
        args.join(", ")
    );
    let path = dir.join("misbehave.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// One pair of the misbehaving engine (Red in game 0) against `random`: game 0 is lost with
/// `termination`, game 1 (a restarted process, which behaves) ends normally.
fn failure_becomes_a_named_loss(flag: &str, termination: &str) {
    let dir = scratch(&format!("misbehave{flag}"));
    let once = dir.join("misbehaved");
    let file = misbehave_file(&dir, &[flag, "3", "--once", once.to_str().unwrap()], "");
    let run = dir.join("run");
    let (code, out, err) = chuhan(&[
        "match",
        "--player",
        file.to_str().unwrap(),
        "--player",
        "random",
        "--pairs",
        "1",
        "--nodes",
        "100",
        "--ply-cap",
        "30",
        "--concurrency",
        "1",
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(once.exists(), "the engine never misbehaved");
    let games = rows(&run);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["termination"], termination, "{:?}", games[0]);
    assert_eq!(
        games[0]["result"], "0-1",
        "the misbehaving engine (Red) loses"
    );
    assert_eq!(games[0]["plies"], "4", "it misbehaved at its third move");
    let failures = ["crash", "timeout", "illegal-move", "disconnect"];
    assert!(
        !failures.contains(&games[1]["termination"].as_str()),
        "the next game is played normally: {:?}",
        games[1]
    );
    // Its stderr is kept per game, with the arena's note of the failure; game 1 is played by a
    // new process.
    let logs = log_folder(&run);
    let log0 = std::fs::read_to_string(logs.join("game-0.stderr.log")).unwrap();
    let log1 = std::fs::read_to_string(logs.join("game-1.stderr.log")).unwrap();
    assert!(log0.contains("move 3"), "{log0}");
    assert!(
        log0.contains(&format!("[chuhan arena] {termination}: ")),
        "{log0}"
    );
    assert!(log1.contains("started"), "{log1}");
    let before = pids(&log0);
    assert!(
        pids(&log1).iter().any(|p| !before.contains(p)),
        "game 1 was not played by a restarted engine:\n{log0}\n{log1}"
    );
}

#[test]
fn a_crash_is_a_crash_loss() {
    failure_becomes_a_named_loss("--crash-at", "crash");
}

#[test]
fn a_hang_is_a_timeout_loss() {
    failure_becomes_a_named_loss("--hang-at", "timeout");
}

#[test]
fn an_illegal_move_is_an_illegal_move_loss() {
    failure_becomes_a_named_loss("--illegal-at", "illegal-move");
}

#[test]
fn garbage_instead_of_a_move_is_an_illegal_move_loss() {
    failure_becomes_a_named_loss("--garbage-at", "illegal-move");
}

#[test]
fn closed_output_is_a_disconnect_loss() {
    failure_becomes_a_named_loss("--close-at", "disconnect");
}

#[test]
fn bad_engine_files_are_clear_errors_and_write_nothing() {
    let dir = scratch("bad-files");
    let check = |name: &str, text: &str, expect: &[&str]| {
        let file = dir.join(format!("{name}.toml"));
        std::fs::write(&file, text).unwrap();
        let run = dir.join(format!("{name}-run"));
        let (code, out, err) = chuhan(&[
            "match",
            "--player",
            file.to_str().unwrap(),
            "--player",
            "random",
            "--pairs",
            "1",
            "--out",
            run.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{name}: {out}\n{err}");
        for e in expect {
            assert!(err.contains(e), "{name}: expected '{e}' in: {err}");
        }
        assert!(!run.exists(), "{name}: the run folder was created");
    };
    check(
        "unknown-key",
        &format!(
            "[uci]\ncommand = {:?}\ncoordinate = \"a1\"\n",
            misbehave_exe()
        ),
        &["unknown-key.toml", "coordinate", "line 3"],
    );
    check(
        "no-command",
        "[uci]\nargs = [\"uci\"]\n",
        &["no-command.toml", "command"],
    );
    check(
        "missing-program",
        "[uci]\ncommand = \"/nonexistent/engine\"\n",
        &["missing-program.toml", "cannot start '/nonexistent/engine'"],
    );
    check(
        "silent",
        &format!(
            "[uci]\ncommand = {:?}\nargs = [\"--no-uciok\"]\nstartup_timeout_ms = 300\n",
            misbehave_exe()
        ),
        &["silent.toml", "uciok", "300 ms", "startup_timeout_ms"],
    );
}

/// Fairy-Stockfish must be installed: this test never skips (scripts/test.sh installs it).
fn require_fairy() {
    assert!(
        Path::new(FAIRY).exists(),
        "{FAIRY} is missing: run scripts/test.sh, or apt-get install fairy-stockfish"
    );
}

#[test]
fn chuhan_uci_plays_fairy_stockfish_with_legal_verdicts() {
    require_fairy();
    let dir = scratch("fairy");
    let run = dir.join("run");
    let (code, out, err) = chuhan(&[
        "match",
        "--player",
        "configs/engines/chuhan-uci.toml",
        "--player",
        "configs/engines/fairy-stockfish.toml",
        "--pairs",
        "2",
        "--nodes",
        "3000",
        "--seed",
        "11",
        "--concurrency",
        "2",
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let games = rows(&run);
    assert_eq!(games.len(), 4);
    let mut fairy_top_rank = false;
    for row in &games {
        let opening = Position::from_fen(&row["opening"]).unwrap();
        let mut game = Game::new(
            opening,
            GameConfig {
                rules: RuleSet::Asian,
                ..GameConfig::default()
            },
        );
        let moves: Vec<&str> = row["moves"].split_whitespace().collect();
        assert_eq!(moves.len().to_string(), row["plies"]);
        let fairy_red = row["red"].contains("fairy");
        let mut verdict = None;
        for (i, text) in moves.iter().enumerate() {
            assert!(
                verdict.is_none(),
                "game {} went on after a verdict",
                row["game"]
            );
            let mv = game
                .position()
                .clone()
                .parse_uci_move(text)
                .unwrap_or_else(|e| panic!("game {} ply {i}: {text}: {e}", row["game"]));
            let fairy_moved = (i % 2 == 0) == fairy_red;
            if fairy_moved && (mv.from().rank() == 9 || mv.to().rank() == 9) {
                fairy_top_rank = true;
            }
            verdict = game.play(mv).unwrap();
        }
        let termination = row["termination"].as_str();
        let rules_endings = [
            "checkmate",
            "stalemate",
            "perpetual-check",
            "perpetual-chase",
            "repetition",
            "no-attacking-material",
            "move-limit",
        ];
        assert!(
            rules_endings.contains(&termination),
            "game {} ended with {termination}: {row:?}",
            row["game"]
        );
        let v = verdict.unwrap_or_else(|| panic!("game {} has no verdict", row["game"]));
        assert_eq!(v.termination.as_str(), termination);
        assert_eq!(v.result.as_pgn(), row["result"]);
    }
    // Fairy-Stockfish's rank 10 is our rank 9: seeing it used shows the conversion.
    assert!(fairy_top_rank, "Fairy-Stockfish never touched rank 9");
    let fairy_logs = run
        .join("engines")
        .join("configs_engines_fairy-stockfish.toml");
    assert!(fairy_logs.join("game-0.stderr.log").exists());
}
