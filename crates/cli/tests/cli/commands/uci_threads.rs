//! `setoption name Threads` in `chuhan uci` (issue 12): the option is offered, two threads
//! search and stop like one, and values outside 1..=cap are refused with an `info string`.

use crate::fixtures as common;
use chuhan_engine::search::smp::MAX_THREADS;
use common::uci::Uci;

fn legal_after(moves: &[&str], best: &str) -> bool {
    let mut pos = chuhan_engine::Position::startpos();
    for m in moves {
        let mv = pos.parse_uci_move(m).unwrap();
        pos.make(mv);
    }
    pos.parse_uci_move(best).is_ok()
}

#[test]
fn the_threads_option_is_offered_and_two_threads_search() {
    let mut e = Uci::start(&[]);
    e.send("uci");
    let intro = e.until("uciok");
    let offer = format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}");
    assert!(intro.contains(&offer), "{intro:?}");
    e.send("setoption name Threads value 2");
    e.send("isready");
    let ready = e.until("readyok");
    assert_eq!(ready, vec!["readyok"], "Threads 2 was not accepted");

    // Depth, nodes and time limits: info lines, then a legal move.
    for go in ["go depth 6", "go nodes 30000", "go movetime 100"] {
        e.send("position startpos moves h2e2 h9g7");
        e.send(go);
        let out = e.until("bestmove");
        assert!(
            !out.iter().any(|l| l.starts_with("info string")),
            "{go}: {out:?}"
        );
        let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
        assert!(!infos.is_empty(), "{go}: {out:?}");
        if go == "go depth 6" {
            assert!(
                infos.last().unwrap().starts_with("info depth 6 "),
                "{out:?}"
            );
        }
        let best = out.last().unwrap()["bestmove ".len()..].to_string();
        assert!(
            legal_after(&["h2e2", "h9g7"], &best),
            "{go}: bestmove {best}"
        );
    }

    // An infinite search ends on `stop` with a legal move, and the session goes on.
    e.send("position startpos");
    e.send("go infinite");
    e.until("info depth 3 ");
    e.send("stop");
    let best = e.bestmove();
    assert!(legal_after(&[], &best), "bestmove {best} after stop");
    e.send("isready");
    e.until("readyok");
}

#[test]
fn threads_outside_the_range_are_refused_by_name() {
    let mut e = Uci::start(&[]);
    let over = (MAX_THREADS + 1).to_string();
    for value in ["0", over.as_str(), "many"] {
        e.send(&format!("setoption name Threads value {value}"));
        e.send("isready");
        let out = e.until("readyok");
        assert_eq!(
            out,
            vec![
                format!("info string Threads value '{value}' is not 1..{MAX_THREADS}"),
                "readyok".to_string()
            ]
        );
    }
    // The refused values changed nothing: the engine still searches.
    e.send("position startpos");
    e.send("go depth 3");
    let best = e.bestmove();
    assert!(legal_after(&[], &best), "bestmove {best}");
}
