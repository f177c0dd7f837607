//! A conversation with `chuhan uci --game chess`: handshake, positions, searches under each
//! limit, levels, options, bench, and malformed input that must not end the session.

use chuhan_engine::chess::bench::SIGNATURE;
use chuhan_engine::chess::Position;

use crate::fixtures as common;
use common::uci::Uci;

fn legal_in(fen_or_start: &str, moves: &[&str], best: &str) -> bool {
    let mut pos = if fen_or_start == "startpos" {
        Position::startpos()
    } else {
        Position::from_fen(fen_or_start).unwrap()
    };
    for m in moves {
        let mv = pos.parse_uci(m).unwrap();
        pos.make(mv);
    }
    pos.parse_uci(best).is_ok()
}

#[test]
fn handshake_search_and_levels() {
    let mut uci = Uci::start(&["--game", "chess"]);
    uci.send("uci");
    let hello = uci.until("uciok");
    assert!(hello.iter().any(|l| l.starts_with("id name Chuhan-chess")));
    assert!(hello
        .iter()
        .any(|l| l.contains("option name Level type combo")));
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name queen_mg type spin")));
    uci.send("isready");
    uci.until("readyok");

    uci.send("position startpos moves e2e4 e7e5");
    uci.send("go depth 5");
    let best = uci.bestmove();
    assert!(legal_in("startpos", &["e2e4", "e7e5"], &best), "{best}");

    // A node limit is kept and the same search twice gives the same move.
    uci.send("ucinewgame");
    uci.send("position startpos");
    uci.send("go nodes 5000");
    let lines = uci.until("bestmove");
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let nodes: u64 = last_info
        .split_whitespace()
        .skip_while(|w| *w != "nodes")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(nodes <= 5000, "{last_info}");
    let first = lines.last().unwrap().clone();
    uci.send("ucinewgame");
    uci.send("position startpos");
    uci.send("go nodes 5000");
    assert_eq!(uci.until("bestmove").last().unwrap(), &first);

    // Mate in one is played, by a level too.
    let mate = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    uci.send("setoption name Level value easy");
    uci.send(&format!("position fen {mate}"));
    uci.send("go movetime 200");
    assert_eq!(uci.bestmove(), "d1d8");

    // A clock search answers in time with a legal move.
    uci.send("setoption name Level value none");
    uci.send("position startpos moves d2d4");
    uci.send("go wtime 1000 btime 1000 winc 10 binc 10");
    let best = uci.bestmove();
    assert!(legal_in("startpos", &["d2d4"], &best), "{best}");
    uci.send("quit");
    assert!(uci.child.wait().unwrap().success());
}

#[test]
fn an_evaluation_option_changes_the_search() {
    // Setting a parameter takes effect: a queen worth nothing is not worth winning.
    let fen = "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1";
    let mut uci = Uci::start(&["--game", "chess"]);
    uci.send(&format!("position fen {fen}"));
    uci.send("go depth 4");
    assert_eq!(uci.bestmove(), "d2d5");
    for name in ["queen_mg", "queen_eg"] {
        uci.send(&format!("setoption name {name} value -900"));
    }
    uci.send(&format!("position fen {fen}"));
    uci.send("go depth 4");
    assert_ne!(uci.bestmove(), "d2d5");
}

#[test]
fn bad_input_is_named_and_the_session_goes_on() {
    let mut uci = Uci::start(&["--game", "chess"]);
    for (line, expected) in [
        ("position fen 8/8/8 w - - 0 1", "bad FEN"),
        ("position startpos moves e2e5", "move 1 (e2e5)"),
        ("go depth", "go depth needs a number"),
        ("setoption name Hash value 999999", "Hash value"),
        ("setoption name queen_mg value x", "queen_mg value 'x'"),
        ("frobnicate", "unknown command 'frobnicate'"),
    ] {
        uci.send(line);
        let got = uci.until("info string");
        assert!(got.last().unwrap().contains(expected), "{line}: {got:?}");
    }
    // A line that is not UTF-8 costs that line only.
    uci.send_bytes(b"\xff\xfe garbage\n");
    let got = uci.until("info string");
    assert!(got.last().unwrap().contains("not valid UTF-8"), "{got:?}");
    uci.send("isready");
    uci.until("readyok");
    uci.send("position startpos");
    uci.send("go depth 3");
    let best = uci.bestmove();
    assert!(legal_in("startpos", &[], &best));
}

#[test]
fn bench_prints_the_signature() {
    let mut uci = Uci::start(&["--game", "chess"]);
    uci.send("bench");
    let lines = uci.until("Nodes/second");
    let nodes = lines
        .iter()
        .find_map(|l| l.strip_prefix("Nodes searched  : "))
        .unwrap();
    assert_eq!(nodes.parse::<u64>().unwrap(), SIGNATURE);
}

#[test]
fn uci_chess960_reads_chess960_positions_and_castles_as_king_takes_rook() {
    let mut uci = Uci::start(&["--game", "chess"]);
    uci.send("uci");
    let hello = uci.until("uciok");
    assert!(
        hello
            .iter()
            .any(|l| l == "option name UCI_Chess960 type check default false"),
        "{hello:?}"
    );
    // Off: a king on f1 with the K right is no standard position, and e1g1 is castling.
    let swap = "4k3/8/8/8/8/8/8/5KR1 w K - 0 1";
    uci.send(&format!("position fen {swap}"));
    assert!(uci.until("info string").last().unwrap().contains("bad FEN"));
    uci.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1");
    uci.send("d");
    assert_eq!(
        uci.until("info string fen").last().unwrap(),
        "info string fen r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"
    );
    // On: the same castle is e1h1, and Chess960 positions are read.
    uci.send("setoption name UCI_Chess960 value true");
    uci.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1");
    uci.send("d");
    assert_eq!(
        uci.until("info string fen").last().unwrap(),
        "info string fen r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"
    );
    uci.send(&format!("position fen {swap} moves f1g1"));
    uci.send("d");
    assert_eq!(
        uci.until("info string fen").last().unwrap(),
        "info string fen 4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
    );
    // The search's moves are in the same form: bestmove is legal as written.
    uci.send("position fen 4k3/8/8/8/8/8/8/1K5R w K - 0 1");
    uci.send("go depth 3");
    let best = uci.bestmove();
    let pos = Position::from_fen_chess960("4k3/8/8/8/8/8/8/1K5R w K - 0 1").unwrap();
    assert!(pos.parse_uci(&best).is_ok(), "{best}");
    uci.send("setoption name UCI_Chess960 value maybe");
    assert!(uci
        .until("info string")
        .last()
        .unwrap()
        .contains("UCI_Chess960 value 'maybe'"));
    uci.send("quit");
    assert!(uci.child.wait().unwrap().success());
}
