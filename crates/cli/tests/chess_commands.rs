//! `--game chess` on the commands that are not games: bench (ours and an external engine's),
//! params, judge, notation, engine-check and perft --engine. Stockfish (`/usr/games/stockfish`)
//! is installed by scripts/test.sh, which sets CHUHAN_REQUIRE_STOCKFISH so that a missing one
//! fails instead of skipping.

mod common;

use chuhan_engine::chess::EvalParams;
use common::chuhan;
use std::path::{Path, PathBuf};

const STOCKFISH: &str = "/usr/games/stockfish";
const START: &str = chuhan_engine::chess::START_FEN;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn stockfish_toml() -> String {
    repo()
        .join("configs/engines/stockfish.toml")
        .display()
        .to_string()
}

/// Stockfish: installed by scripts/test.sh, which sets CHUHAN_REQUIRE_STOCKFISH so that a
/// missing one fails the run instead of skipping the test.
fn stockfish_present() -> bool {
    if Path::new(STOCKFISH).exists() {
        return true;
    }
    assert!(
        std::env::var_os("CHUHAN_REQUIRE_STOCKFISH").is_none(),
        "{STOCKFISH} is missing and CHUHAN_REQUIRE_STOCKFISH is set: run scripts/test.sh, or apt-get install stockfish"
    );
    eprintln!("skipped: {STOCKFISH} is not installed (apt-get install stockfish)");
    false
}

/// `key: value` lines of a report.
fn report(out: &str) -> std::collections::HashMap<String, String> {
    out.lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn chess_bench_prints_its_signature_and_checks_it() {
    let signature = chuhan_engine::chess::bench::SIGNATURE.to_string();
    let (code, out, err) = chuhan(&["bench", "--game", "chess", "--expect", &signature]);
    assert_eq!(code, 0, "{out}{err}");
    let r = report(&out);
    assert_eq!(
        r["depth"],
        chuhan_engine::chess::bench::BENCH_DEPTH.to_string()
    );
    assert_eq!(r["nodes"], signature);
    assert_eq!(r["signature"], "ok");
    // One stderr line per chess bench position, each naming its FEN.
    for fen in chuhan_engine::chess::bench::BENCH_FENS {
        assert!(err.contains(fen), "{fen} missing from {err}");
    }
    // Another depth is another count, and --expect turns it into exit 1.
    let (code, out, _) = chuhan(&[
        "bench", "--game", "chess", "--depth", "3", "--expect", &signature,
    ]);
    assert_eq!(code, 1, "{out}");
    let nodes = chuhan_engine::chess::bench::run(3).nodes;
    assert_eq!(report(&out)["nodes"], nodes.to_string());
    assert!(
        out.contains(&format!("signature: FAIL expected {signature} got {nodes}")),
        "{out}"
    );
    let (code, _, err) = chuhan(&["bench", "--game", "chess", "--depth", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--depth"), "{err}");
}

#[test]
fn bench_of_stockfish_reads_its_node_count() {
    if !stockfish_present() {
        return;
    }
    let sf = stockfish_toml();
    // Stockfish's own count, read here from its output.
    let out = std::process::Command::new(STOCKFISH)
        .arg("bench")
        .arg("16")
        .arg("1")
        .arg("5")
        .output()
        .expect("stockfish runs");
    let text =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    let theirs = text
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched  : "))
        .expect("stockfish prints its node count")
        .trim()
        .to_string();
    let (code, out, err) = chuhan(&[
        "bench",
        "--game",
        "chess",
        "--engine",
        &sf,
        "--bench-args",
        "16 1 5",
        "--expect",
        &theirs,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(report(&out)["nodes"], theirs);
    assert_eq!(report(&out)["signature"], "ok");
    let wrong = (theirs.parse::<u64>().unwrap() + 1).to_string();
    let (code, out, _) = chuhan(&[
        "bench",
        "--game",
        "chess",
        "--engine",
        &sf,
        "--bench-args",
        "16 1 5",
        "--expect",
        &wrong,
    ]);
    assert_eq!(code, 1, "{out}");
    // Without --game chess, a chess engine file is the wrong game: exit 2 naming it.
    let (code, _, err) = chuhan(&["bench", "--engine", &sf, "--bench-args", "16 1 5"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("stockfish.toml")
            && err.contains("plays chess")
            && err.contains("--game chess"),
        "{err}"
    );
}

#[test]
fn chess_params_list_the_evaluation_table() {
    let (code, out, err) = chuhan(&["params", "--game", "chess"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "name,default,min,max,step,group");
    assert_eq!(lines.len(), EvalParams::NAMES.len() + 1);
    let defaults = EvalParams::default();
    for (line, name) in lines[1..].iter().zip(EvalParams::NAMES) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), 6, "{line}");
        assert_eq!(cells[0], *name);
        let default: i32 = cells[1].parse().unwrap();
        assert_eq!(Some(default), defaults.get(name), "{line}");
        let (min, max): (i32, i32) = (cells[2].parse().unwrap(), cells[3].parse().unwrap());
        assert!(min < default && default < max, "{line}");
        assert!(cells[4].parse::<i32>().unwrap() >= 1, "{line}");
        assert!(["material", "eval"].contains(&cells[5]), "{line}");
    }
    // The ranges are the ones tune spsa gives the same names: its parameter file reads them.
    // Xiangqi's table is unchanged (and not the chess one).
    let (code, out, _) = chuhan(&["params"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.lines().count(),
        chuhan_engine::params::table().len() + 1
    );
    assert!(!out.contains("\nknight_mg,"), "xiangqi lists its own table");
}

/// `chuhan judge --game chess --json` and the object it prints.
fn judge(fen: &str, moves: &str) -> serde_json::Value {
    let (code, out, err) = chuhan(&[
        "judge", "--game", "chess", "--json", "--fen", fen, "--moves", moves,
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

#[test]
fn judge_finds_every_chess_ending() {
    use serde_json::json;
    // Fool's mate, in SAN.
    assert_eq!(
        judge(START, "f3 e5 g4 Qh4#"),
        json!({"result": "0-1", "reason": "checkmate", "ply": 4})
    );
    // The same in UCI, and a mix.
    assert_eq!(
        judge(START, "f2f3 e7e5 g2g4 d8h4"),
        json!({"result": "0-1", "reason": "checkmate", "ply": 4})
    );
    assert_eq!(
        judge(START, "f3 e7e5 g2g4 Qh4"),
        json!({"result": "0-1", "reason": "checkmate", "ply": 4})
    );
    // Stalemate: a draw.
    assert_eq!(
        judge("7k/8/6K1/8/8/8/5Q2/8 w - - 0 1", "Qf7"),
        json!({"result": "1/2-1/2", "reason": "stalemate", "ply": 1})
    );
    // Threefold: the start position for the third time after eight plies, not before.
    let shuffle = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8";
    assert_eq!(
        judge(START, shuffle),
        json!({"result": "1/2-1/2", "reason": "repetition", "ply": 8})
    );
    let seven: Vec<&str> = shuffle.split(' ').take(7).collect();
    assert_eq!(
        judge(START, &seven.join(" ")),
        json!({"result": "*", "reason": null, "ply": 7})
    );
    // Fifty moves: the hundredth ply without a capture or pawn move.
    assert_eq!(
        judge("8/8/8/4k3/8/8/8/R3K3 w - - 99 80", "Ra2"),
        json!({"result": "1/2-1/2", "reason": "fifty-moves", "ply": 1})
    );
    assert_eq!(
        judge("8/8/8/4k3/8/8/8/R3K3 w - - 98 80", "Ra2"),
        json!({"result": "*", "reason": null, "ply": 1})
    );
    // Insufficient material: the king takes the last rook (a lone knight is already too little).
    assert_eq!(
        judge("8/8/8/4k3/8/8/3n4/4K3 w - - 0 1", ""),
        json!({"result": "1/2-1/2", "reason": "insufficient-material", "ply": 0})
    );
    assert_eq!(
        judge("8/8/8/4k3/8/8/3r4/4K3 w - - 0 1", "Kxd2"),
        json!({"result": "1/2-1/2", "reason": "insufficient-material", "ply": 1})
    );
    // A position that is already over is judged before any move.
    assert_eq!(
        judge("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", ""),
        json!({"result": "1/2-1/2", "reason": "stalemate", "ply": 0})
    );
}

#[test]
fn judge_prints_the_same_human_line_for_chess() {
    let (code, out, err) = chuhan(&[
        "judge",
        "--game",
        "chess",
        "--fen",
        START,
        "--moves",
        "f3 e5 g4 Qh4# Kf2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "0-1 checkmate after 4 plies (Black wins)");
    assert!(err.contains("1 later move(s) not played"), "{err}");
    let (code, out, _) = chuhan(&["judge", "--game", "chess", "--fen", START, "--moves", "e4"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "* game goes on after 1 ply");
}

#[test]
fn judge_names_bad_chess_input() {
    let judge_err = |fen: &str, moves: &str, extra: &[&str]| {
        let mut args = vec!["judge", "--game", "chess", "--fen", fen, "--moves", moves];
        args.extend_from_slice(extra);
        let (code, out, err) = chuhan(&args);
        assert_eq!(code, 2, "{moves}: {out}{err}");
        assert!(out.is_empty(), "{out}");
        err
    };
    let err = judge_err(START, "e4 e5 e4e5", &[]);
    assert!(
        err.contains("move 3 'e4e5' is illegal") && err.contains("4p3/4P3"),
        "{err}"
    );
    let err = judge_err(START, "e4 Zz9", &[]);
    assert!(
        err.contains("move 2 'Zz9' is not a chess move in UCI") && err.contains("SAN"),
        "{err}"
    );
    // A SAN that two pieces fit is named ambiguous.
    let err = judge_err("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rd1", &[]);
    assert!(
        err.contains("move 1 'Rd1'") && err.contains("ambiguous"),
        "{err}"
    );
    // After the verdict the later moves are not played, but their text is still checked.
    let err = judge_err(START, "f3 e5 g4 Qh4# h9h8", &[]);
    assert!(err.contains("move 5 'h9h8' is not a chess move"), "{err}");
    // The other game's FEN is named as such.
    let err = judge_err(chuhan_engine::START_FEN, "", &[]);
    assert!(
        err.contains("bad FEN") && err.contains("it is a xiangqi FEN: drop --game chess"),
        "{err}"
    );
    let err = judge_err("8/8/8 w - - 0 1", "", &[]);
    assert!(err.contains("bad FEN '8/8/8 w - - 0 1'"), "{err}");
    // Xiangqi's rule options are refused, not ignored.
    let err = judge_err(START, "e4", &["--rules", "asian"]);
    assert!(err.contains("--rules"), "{err}");
    let err = judge_err(START, "e4", &["--move-limit", "40"]);
    assert!(err.contains("--move-limit"), "{err}");
    // And a chess FEN without --game chess says what to add.
    let (code, _, err) = chuhan(&["judge", "--fen", START]);
    assert_eq!(code, 2);
    assert!(
        err.contains("it is a chess FEN: give --game chess"),
        "{err}"
    );
}

/// `chuhan notation --game chess` output lines.
fn notation(fen: Option<&str>, moves: &str, format: Option<&str>) -> Vec<String> {
    let mut args = vec!["notation", "--game", "chess", "--moves", moves];
    if let Some(f) = fen {
        args.extend(["--fen", f]);
    }
    if let Some(f) = format {
        args.extend(["--format", f]);
    }
    let (code, out, err) = chuhan(&args);
    assert_eq!(code, 0, "{moves}: {err}");
    out.lines().map(str::to_string).collect()
}

#[test]
fn notation_converts_uci_and_san_both_ways() {
    let uci = "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1 g8f6 d2d4 e5d4";
    let san = "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Nf6 d4 exd4";
    assert_eq!(notation(None, uci, None).join(" "), san);
    assert_eq!(notation(None, uci, Some("san")).join(" "), san);
    assert_eq!(notation(None, san, Some("uci")).join(" "), uci);
    assert_eq!(notation(None, san, Some("UCI")).join(" "), uci);
    // Promotion with check, underpromotion, en passant, disambiguation, mate.
    assert_eq!(
        notation(Some("7k/P7/8/8/8/8/8/K7 w - - 0 1"), "a7a8q", None),
        ["a8=Q+"]
    );
    assert_eq!(
        notation(Some("7k/P7/8/8/8/8/8/K7 w - - 0 1"), "a8=N", Some("uci")),
        ["a7a8n"]
    );
    assert_eq!(
        notation(Some("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"), "e5d6", None),
        ["exd6"]
    );
    assert_eq!(
        notation(
            Some("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"),
            "exd6",
            Some("uci")
        ),
        ["e5d6"]
    );
    assert_eq!(
        notation(Some("4k3/8/8/8/8/8/4K3/R6R w - - 0 1"), "a1d1", None),
        ["Rad1"]
    );
    assert_eq!(
        notation(None, "f2f3 e7e5 g2g4 d8h4", None).join(" "),
        "f3 e5 g4 Qh4#"
    );
    // Castling on both wings, both ways.
    let fen = "4k2r/8/8/8/8/8/8/R3K3 w Qk - 0 1";
    assert_eq!(notation(Some(fen), "e1c1 e8g8", None), ["O-O-O", "O-O"]);
    assert_eq!(
        notation(Some(fen), "O-O-O 0-0", Some("uci")),
        ["e1c1", "e8g8"]
    );
}

#[test]
fn notation_names_bad_chess_input() {
    let err_of = |args: &[&str]| {
        let mut all = vec!["notation", "--game", "chess"];
        all.extend_from_slice(args);
        let (code, out, err) = chuhan(&all);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{out}");
        err
    };
    let err = err_of(&["--moves", "e4 e4"]);
    assert!(err.contains("move 2 'e4' is not a legal move"), "{err}");
    let err = err_of(&["--moves", "e4 h9h8"]);
    assert!(
        err.contains("move 2 'h9h8' is not a chess move in UCI"),
        "{err}"
    );
    let err = err_of(&["--moves", "e4", "--format", "wxf"]);
    assert!(
        err.contains("--format") && err.contains("'wxf'") && err.contains("san or uci"),
        "{err}"
    );
    let err = err_of(&["--moves", "h2e2", "--fen", chuhan_engine::START_FEN]);
    assert!(
        err.contains("it is a xiangqi FEN: drop --game chess"),
        "{err}"
    );
    // Xiangqi keeps its notations, and a chess notation there is named.
    let (code, _, err) = chuhan(&["notation", "--moves", "h2e2", "--format", "san"]);
    assert_eq!(code, 2);
    assert!(err.contains("--format") && err.contains("'san'"), "{err}");
    let (code, out, _) = chuhan(&["notation", "--moves", "h2e2"]);
    assert_eq!((code, out.trim()), (0, "H2-E2"));
}

#[test]
fn every_command_says_what_game_does() {
    for command in [
        "bench",
        "engine-check",
        "perft",
        "judge",
        "notation",
        "params",
    ] {
        let (code, out, err) = chuhan(&[command, "--help"]);
        assert_eq!(code, 0, "{command}: {err}");
        assert!(out.contains("--game <GAME>"), "{command}: {out}");
        assert!(out.contains("chess"), "{command}: {out}");
    }
}
