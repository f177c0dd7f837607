//! `--game chess` on the commands that are not games: bench (ours and an external engine's),
//! params, judge, notation, engine-check and perft --engine. Stockfish (`/usr/games/stockfish`)
//! is installed by scripts/test.sh, which sets CHUHAN_REQUIRE_STOCKFISH so that a missing one
//! fails instead of skipping.

use crate::fixtures as common;

use chuhan_engine::chess::EvalParams;
use common::{chuhan, stockfish_present, STOCKFISH};
use std::path::{Path, PathBuf};

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

/// `key: value` lines of a report (`key:` alone: an empty value).
fn report(out: &str) -> std::collections::HashMap<String, String> {
    out.lines()
        .filter_map(|l| {
            l.split_once(": ")
                .or_else(|| l.strip_suffix(':').map(|k| (k, "")))
        })
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

/// The chess test engine, built by `cargo test` beside the test binaries.
fn chess_misbehave_exe() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test binary lives in target/<profile>/deps");
    let path = profile_dir.join("examples").join(format!(
        "uci-chess-misbehave{}",
        std::env::consts::EXE_SUFFIX
    ));
    assert!(
        path.is_file(),
        "{} is missing: run the tests with `cargo test`, which builds examples",
        path.display()
    );
    path
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chess-commands-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A chess engine file for `command args...` in `dir`.
fn chess_engine_file(dir: &Path, name: &str, command: &Path, args: &[&str]) -> String {
    let path = dir.join(format!("{name}.toml"));
    let args: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
    std::fs::write(
        &path,
        format!(
            "game = \"chess\"\nname = \"{name}\"\n[uci]\ncommand = {:?}\nargs = [{}]\nstartup_timeout_ms = 3000\n",
            command.display().to_string(),
            args.join(", ")
        ),
    )
    .unwrap();
    path.display().to_string()
}

/// The chess test engine with `flags`.
fn misbehave(dir: &Path, name: &str, flags: &[&str]) -> String {
    chess_engine_file(dir, name, &chess_misbehave_exe(), flags)
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn stockfish_perft_agrees_with_our_chess_rules() {
    if !stockfish_present() {
        return;
    }
    let sf = stockfish_toml();
    let (code, out, err) = chuhan(&[
        "perft", "--game", "chess", "--engine", &sf, "--fen", KIWIPETE, "--depth", "3",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.trim(), "agree: depth 3: 97862 nodes (stockfish)");
    // Every position of the committed suites, standard and Chess960.
    for (suite, flags) in [
        ("chess.epd", &[][..]),
        ("chess960.epd", &["--chess960"][..]),
    ] {
        let path = repo().join("crates/engine/tests/data").join(suite);
        let path = path.to_str().unwrap();
        let mut args = vec![
            "perft",
            "--game",
            "chess",
            "--engine",
            &sf,
            "--suite",
            path,
            "--max-depth",
            "2",
        ];
        args.extend_from_slice(flags);
        let (code, out, err) = chuhan(&args);
        assert_eq!(code, 0, "{suite}: {out}{err}");
        let last = out.lines().last().unwrap();
        let r = report(&last.replace("  ", "\n"));
        assert_eq!(r["failed"], "0", "{suite}: {last}");
        assert_eq!(r["passed"], r["positions"], "{suite}: {last}");
        assert!(
            r["positions"].parse::<u32>().unwrap() >= 60,
            "{suite}: {last}"
        );
    }
}

#[test]
fn planted_chess_bugs_are_walked_down_to_their_position() {
    let dir = scratch("bugs");
    let perft = |engine: &str, fen: &str, depth: &str| {
        let (code, out, err) = chuhan(&[
            "perft", "--game", "chess", "--engine", engine, "--fen", fen, "--depth", depth,
        ]);
        assert_eq!(code, 1, "{out}{err}");
        report(&out)
    };
    // An en-passant capture that becomes possible two plies down is missing there.
    let ep = misbehave(&dir, "ep", &["--bug", "no-en-passant"]);
    let r = perft(
        &ep,
        "rnbqkbnr/ppp1pppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
        "3",
    );
    assert_eq!(r["path"], "f7f5");
    assert_eq!(r["missing"], "e5f6");
    assert_eq!(
        r["position"],
        "rnbqkbnr/ppp1p1pp/8/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
    );
    assert_eq!(r["extra"], "", "an empty extra list: {r:?}");
    // Underpromotions missing at the root.
    let promo = misbehave(&dir, "promo", &["--bug", "no-underpromotion"]);
    let r = perft(&promo, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "3");
    assert_eq!(r["missing"], "b7b8b b7b8n b7b8r");
    assert_eq!(r["path"], "");
    // King steps into check are extra moves, found where the king can first make one.
    let king = misbehave(&dir, "king", &["--bug", "king-into-check"]);
    let r = perft(&king, KIWIPETE, "3");
    assert!(!r["extra"].is_empty() && r["missing"].is_empty(), "{r:?}");
    let mut pos = chuhan_engine::chess::Position::from_fen(KIWIPETE).unwrap();
    for text in r["path"].split_whitespace() {
        let mv = pos.parse_uci(text).unwrap();
        pos.make(mv);
    }
    assert_eq!(pos.to_fen(), r["position"]);
    for text in r["extra"].split(' ') {
        assert!(
            pos.parse_uci(text).is_err(),
            "{text} is extra, so not legal"
        );
        assert!(
            text.starts_with(&pos.king(pos.side_to_move()).to_string()),
            "{text}"
        );
    }
    // The same engine without a bug agrees.
    let good = misbehave(&dir, "good", &[]);
    let (code, out, err) = chuhan(&[
        "perft", "--game", "chess", "--engine", &good, "--fen", KIWIPETE, "--depth", "2",
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn perft_and_engine_check_refuse_an_engine_or_fen_of_the_other_game() {
    let dir = scratch("wrong-game");
    let chess = misbehave(&dir, "good", &[]);
    // A file without `game` is a xiangqi engine: refused for chess, naming it.
    let xiangqi = dir.join("xiangqi.toml");
    std::fs::write(
        &xiangqi,
        format!(
            "[uci]\ncommand = {:?}\n",
            chess_misbehave_exe().display().to_string()
        ),
    )
    .unwrap();
    let xiangqi = xiangqi.to_str().unwrap();
    let (code, _, err) = chuhan(&[
        "perft", "--game", "chess", "--engine", xiangqi, "--fen", START, "--depth", "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("xiangqi.toml")
            && err.contains("plays xiangqi")
            && err.contains("asked for chess"),
        "{err}"
    );
    let (code, _, err) = chuhan(&["engine-check", "--game", "chess", xiangqi]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("plays xiangqi"), "{err}");
    // A chess file without --game chess.
    let (code, _, err) = chuhan(&["perft", "--engine", &chess, "--fen", START, "--depth", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("plays chess") && err.contains("give --game chess"),
        "{err}"
    );
    let (code, _, err) = chuhan(&["engine-check", &chess]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("plays chess") && err.contains("give --game chess"),
        "{err}"
    );
    // A xiangqi FEN for a chess engine.
    let (code, _, err) = chuhan(&[
        "perft",
        "--game",
        "chess",
        "--engine",
        &chess,
        "--fen",
        chuhan_engine::START_FEN,
        "--depth",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("it is a xiangqi FEN: drop --game chess"),
        "{err}"
    );
}

/// `chuhan engine-check --game chess FILE` with a generous time margin (a loaded machine
/// answers late; lateness itself is the xiangqi tests' business): exit code, output, problems.
fn engine_check(file: &str) -> (i32, String, Vec<String>) {
    let (code, out, err) = chuhan(&[
        "engine-check",
        "--game",
        "chess",
        file,
        "--time-margin",
        "3000",
    ]);
    let problems = out
        .lines()
        .filter(|l| l.starts_with("PROBLEM"))
        .map(str::to_string)
        .collect();
    (code, format!("{out}{err}"), problems)
}

fn passed(out: &str, check: &str) -> bool {
    out.lines()
        .any(|l| l.starts_with(&format!("ok      {check}: ")))
}

#[test]
fn bench_of_chuhan_uci_for_chess_is_the_chess_signature() {
    let dir = scratch("bench-uci");
    let chuhan_exe = PathBuf::from(env!("CARGO_BIN_EXE_chuhan"));
    let ours = chess_engine_file(
        &dir,
        "chuhan-chess",
        &chuhan_exe,
        &["uci", "--game", "chess"],
    );
    let signature = chuhan_engine::chess::bench::SIGNATURE.to_string();
    let (code, out, err) = chuhan(&[
        "bench", "--game", "chess", "--engine", &ours, "--expect", &signature,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(report(&out)["nodes"], signature);
    assert_eq!(report(&out)["engine"], "chuhan-chess");
}

#[test]
fn engine_check_passes_stockfish_and_chuhan_uci_under_chess_rules() {
    let dir = scratch("check-good");
    let chuhan_exe = PathBuf::from(env!("CARGO_BIN_EXE_chuhan"));
    let ours = chess_engine_file(
        &dir,
        "chuhan-chess",
        &chuhan_exe,
        &["uci", "--game", "chess"],
    );
    let mut files = vec![ours.clone()];
    if stockfish_present() {
        files.push(stockfish_toml());
    }
    for file in &files {
        let (code, out, problems) = engine_check(file);
        assert_eq!(code, 0, "{out}");
        assert!(problems.is_empty(), "{out}");
        for check in ["uci", "options", "isready", "stop", "movetime"] {
            assert!(passed(&out, check), "{check} passed: {out}");
        }
        assert!(out.contains("problems: 0"), "{out}");
    }
    // Stockfish and `chuhan uci --game chess` both answer `go perft`, with our counts.
    for file in &files {
        let (_, out, _) = engine_check(file);
        assert!(
            out.contains("ok      perft: depth 3 agrees with ours on 2 positions"),
            "{out}"
        );
    }
}

#[test]
fn engine_check_finds_illegal_chess_bestmoves_and_a_perft_bug() {
    let dir = scratch("check-bad");
    let illegal = misbehave(&dir, "illegal", &["--illegal-bestmove"]);
    let (code, out, problems) = engine_check(&illegal);
    assert_eq!(code, 1, "{out}");
    // After `stop`, and both `go movetime` positions (the opening and Kiwipete).
    assert_eq!(problems.len(), 3, "{out}");
    assert!(
        problems[0].starts_with("PROBLEM stop: ")
            && problems[0].contains(&format!("is not legal in {START} (chess rules)")),
        "{out}"
    );
    assert!(
        problems[1..]
            .iter()
            .all(|p| p.starts_with("PROBLEM bestmove: ")),
        "{out}"
    );
    assert!(
        problems[2].ends_with(&format!("{KIWIPETE} (chess rules)")),
        "{out}"
    );
    assert!(passed(&out, "perft"), "{out}");
    let ep = misbehave(&dir, "ep", &["--bug", "no-en-passant"]);
    let (code, out, problems) = engine_check(&ep);
    assert_eq!(code, 1, "{out}");
    assert_eq!(problems.len(), 1, "{out}");
    assert!(
        problems[0].starts_with(&format!(
            "PROBLEM perft: depth 3 of {KIWIPETE}: engine 97766, ours 97862"
        )),
        "{out}"
    );
    assert!(problems[0].contains("missing 'd5c6'"), "{out}");
    let none = misbehave(&dir, "noperft", &["--no-perft"]);
    let (code, out, _) = engine_check(&none);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("skip    perft: not offered"), "{out}");
}
