//! `chuhan perft` as other tools call it: output format and exit codes.

use crate::fixtures as common;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

use common::chuhan;

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhan-perft-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn divide_lists_every_root_move_then_the_total() {
    for threads in ["1", "2"] {
        let (code, out, _) = chuhan(&[
            "perft",
            "--fen",
            START,
            "--depth",
            "3",
            "--divide",
            "--threads",
            threads,
        ]);
        assert_eq!(code, 0);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 45, "44 moves and the total");
        let sum: u64 = lines[..44]
            .iter()
            .map(|l| {
                let (mv, n) = l.split_once(": ").unwrap();
                assert_eq!(mv.len(), 4, "{l}");
                n.parse::<u64>().unwrap()
            })
            .sum();
        assert_eq!(sum, 79_666);
        assert_eq!(lines[44], "total: 79666");
        assert!(out.contains("h2e2: "), "central cannon listed in 0-9 ranks");
    }
}

#[test]
fn suite_pass_fail_and_unusable_input() {
    let good = temp_file(
        "good.epd",
        &format!("# comment\n\n{START} ;D1 44 ;D2 1920\n"),
    );
    let (code, out, _) = chuhan(&["perft", "--suite", good.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("pass line 3: D2 1920"), "{out}");
    assert!(out.contains("positions: 1  passed: 1  failed: 0"), "{out}");

    let wrong = temp_file("wrong.epd", &format!("{START} ;D1 44 ;D2 1921\n"));
    let (code, out, _) = chuhan(&[
        "perft",
        "--suite",
        wrong.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    assert_eq!(code, 1);
    assert!(
        out.contains("FAIL line 1: depth 2 expected 1921 got 1920"),
        "{out}"
    );

    // --max-depth skips the wrong depth.
    let (code, _, _) = chuhan(&[
        "perft",
        "--suite",
        wrong.to_str().unwrap(),
        "--max-depth",
        "1",
    ]);
    assert_eq!(code, 0);

    // A gate that would check nothing fails instead of passing.
    let (code, out, err) = chuhan(&[
        "perft",
        "--suite",
        good.to_str().unwrap(),
        "--max-depth",
        "0",
    ]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("--max-depth must be at least 1"), "{err}");
    let deep = temp_file("deep.epd", &format!("{START} ;D3 79666\n"));
    let (code, out, err) = chuhan(&[
        "perft",
        "--suite",
        deep.to_str().unwrap(),
        "--max-depth",
        "2",
    ]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("deep.epd") && err.contains("no depths at or below --max-depth 2"),
        "{err}"
    );
    for (name, text) in [("empty.epd", ""), ("comments.epd", "# only a comment\n\n")] {
        let empty = temp_file(name, text);
        let (code, out, err) = chuhan(&["perft", "--suite", empty.to_str().unwrap()]);
        assert_eq!(code, 2, "{name}: {out}");
        assert!(
            err.contains(name) && err.contains("the suite has no positions"),
            "{name}: {err}"
        );
    }

    let malformed = temp_file("bad.epd", &format!("{START} ;D1 44\n{START} ;D2 x\n"));
    let (code, _, err) = chuhan(&["perft", "--suite", malformed.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("line 2") && err.contains("'x'"), "{err}");

    let bad_fen = temp_file("badfen.epd", "rnbakabnr/9 w ;D1 3\n");
    let (code, _, err) = chuhan(&["perft", "--suite", bad_fen.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("line 1") && err.contains("bad FEN"), "{err}");

    let (code, _, err) = chuhan(&["perft", "--suite", "/nonexistent/suite.epd"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/suite.epd"), "{err}");
}

#[test]
fn bad_fen_is_exit_2_with_the_reason() {
    let (code, _, err) = chuhan(&[
        "perft",
        "--fen",
        "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "--depth",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("face each other"), "{err}");
}

#[test]
fn chess_perft_counts_divides_and_checks_suites() {
    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (code, out, _) = chuhan(&[
        "perft", "--game", "chess", "--fen", KIWIPETE, "--depth", "3", "--divide",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 49, "48 root moves and the total");
    let sum: u64 = lines[..48]
        .iter()
        .map(|l| l.split_once(": ").unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 97_862);
    assert_eq!(*lines.last().unwrap(), "total: 97862");

    // A chess suite passes under --game chess and is refused (bad FEN) as xiangqi.
    let suite = temp_file(
        "chess.epd",
        &format!("{KIWIPETE} ;D1 48 ;D2 2039\n8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 ;D1 14 ;D2 191\n"),
    );
    let path = suite.to_str().unwrap();
    let (code, out, _) = chuhan(&["perft", "--game", "chess", "--suite", path]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("positions: 2  passed: 2  failed: 0"), "{out}");
    let (code, _, err) = chuhan(&["perft", "--suite", path]);
    assert_eq!(code, 2, "{err}");
    // A wrong count fails with exit 1 naming the line.
    let wrong = temp_file("chess-wrong.epd", &format!("{KIWIPETE} ;D1 48 ;D2 2040\n"));
    let (code, out, _) = chuhan(&[
        "perft",
        "--game",
        "chess",
        "--suite",
        wrong.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(
        out.contains("FAIL line 1: depth 2 expected 2040 got 2039"),
        "{out}"
    );
    // Chess FEN errors are named.
    let (code, _, err) = chuhan(&[
        "perft", "--game", "chess", "--fen", "8/8/8 w", "--depth", "1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("bad FEN"), "{err}");
}

#[test]
fn chess960_perft_reads_chess960_fens_and_writes_castling_as_king_takes_rook() {
    // King on b1, rook on h1: a Chess960 castle that standard chess refuses to set up.
    const FEN: &str = "4k3/8/8/8/8/8/8/1K5R w K - 0 1";
    let divide960 = |fen: &str, depth: &str| {
        chuhan(&[
            "perft",
            "--game",
            "chess",
            "--chess960",
            "--fen",
            fen,
            "--depth",
            depth,
            "--divide",
        ])
    };
    let (code, out, _) = divide960(FEN, "2");
    assert_eq!(code, 0, "{out}");
    assert!(out.lines().any(|l| l.starts_with("b1h1: ")), "{out}");
    // Stockfish 15.1 with UCI_Chess960 counts 18 and 78.
    assert_eq!(out.lines().last(), Some("total: 78"));
    let (code, _, err) = chuhan(&["perft", "--game", "chess", "--fen", FEN, "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("castling right 'K'"), "{err}");
    // Standard positions under --chess960: same counts, castling as the king takes the rook.
    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (code, out, _) = divide960(KIWIPETE, "3");
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l == "e1h1: 2059"), "{out}");
    assert_eq!(out.lines().last(), Some("total: 97862"));
    // A Chess960 suite.
    let suite = temp_file("chess960.epd", &format!("{FEN} ;D1 18 ;D2 78\n"));
    let path = suite.to_str().unwrap();
    let (code, out, _) = chuhan(&["perft", "--game", "chess", "--chess960", "--suite", path]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("passed: 1  failed: 0"), "{out}");
    // --chess960 is a chess flag.
    let (code, _, err) = chuhan(&["perft", "--chess960", "--fen", START, "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--game chess"), "{err}");
}
