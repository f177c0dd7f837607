//! Lazy SMP (`Engine::set_threads`): one thread searches exactly as the plain searcher does;
//! more threads play legal moves under every kind of limit, stop when told, count every
//! thread's nodes and still find mates. No assertion depends on timing.

use chuhan_engine::bench::{self, BENCH_FENS};
use chuhan_engine::search::smp::{MAX_THREADS, POLL_NODES};
use chuhan_engine::search::{is_mate_score, SearchResult, MATE};
use chuhan_engine::{Engine, EngineConfig, Limits, Position, SearchOptions, Searcher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

fn positions() -> Vec<Position> {
    BENCH_FENS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect()
}

fn engine(threads: usize) -> Engine {
    let mut e = Engine::new(EngineConfig::default());
    e.set_threads(threads);
    assert_eq!(e.threads(), threads);
    e
}

fn assert_legal(pos: &Position, r: &SearchResult, what: &str) {
    assert!(
        pos.clone().legal_moves().iter().any(|&m| m == r.best_move),
        "{what}: {} is not legal in {pos:?}",
        r.best_move
    );
}

#[test]
fn one_thread_is_the_plain_search_and_keeps_the_bench_signature() {
    // Through the engine, as `chuhan uci` searches with Threads 1: every position's nodes
    // are the bench's, so the total is the signature taken before threads existed.
    let mut e = engine(1);
    let mut total = 0;
    for pos in positions() {
        e.new_game(0);
        total += e
            .search(&pos, &Limits::depth(bench::BENCH_DEPTH), &mut |_| {})
            .nodes;
    }
    assert_eq!(total, bench::SIGNATURE);
    // And with the same moves and node counts as a bare searcher, also after the engine ran
    // with helpers and went back to one thread (nothing of the helpers is left behind).
    let mut plain = Searcher::new(Default::default(), SearchOptions::default());
    plain.set_network(Some(chuhan_engine::eval::nnue::embedded()));
    let mut e = engine(2);
    e.search(&positions()[1], &Limits::nodes(30_000), &mut |_| {});
    e.set_threads(1);
    for pos in positions().iter().take(5) {
        plain.clear();
        e.new_game(7);
        let a = plain.search(pos, &Limits::depth(7), &[], false, &mut |_| {});
        let b = e.search(pos, &Limits::depth(7), &mut |_| {});
        assert_eq!(
            (a.best_move, a.score, a.nodes),
            (b.best_move, b.score, b.nodes)
        );
        let a = plain.search(pos, &Limits::nodes(20_000), &[], false, &mut |_| {});
        let b = e.search(pos, &Limits::nodes(20_000), &mut |_| {});
        assert_eq!(
            (a.best_move, a.score, a.nodes),
            (b.best_move, b.score, b.nodes)
        );
    }
}

#[test]
fn threads_are_clamped_to_the_cap() {
    let mut e = engine(3);
    e.set_threads(0);
    assert_eq!(e.threads(), 1);
    e.set_threads(MAX_THREADS + 5);
    assert_eq!(e.threads(), MAX_THREADS);
}

#[test]
fn two_threads_play_legal_moves_at_depth_node_and_time_limits() {
    let mut e = engine(2);
    for pos in positions() {
        e.new_game(1);
        let mut depths = Vec::new();
        let r = e.search(&pos, &Limits::depth(6), &mut |i| depths.push(i.depth));
        assert_legal(&pos, &r, "depth 6");
        // The main thread decides and reports every iteration up to the limit.
        assert_eq!(r.depth, 6, "{pos:?}");
        assert_eq!(depths, (1..=6).collect::<Vec<_>>());

        let r = e.search(&pos, &Limits::nodes(40_000), &mut |_| {});
        assert_legal(&pos, &r, "40000 nodes");
        // The limit is on all threads' nodes together: each stops within one poll of the
        // total reaching it, so neither thread searched its own 40,000.
        assert!(
            (40_000..=40_000 + 2 * (POLL_NODES + 2)).contains(&r.nodes),
            "{} nodes for a 40000-node limit on two threads",
            r.nodes
        );

        let r = e.search(
            &pos,
            &Limits::movetime(Duration::from_millis(30)),
            &mut |_| {},
        );
        assert_legal(&pos, &r, "30 ms");
    }
}

#[test]
fn info_nodes_grow_and_the_result_counts_every_thread() {
    let mut e = engine(2);
    let pos = &positions()[3];
    let mut seen = Vec::new();
    let r = e.search(pos, &Limits::depth(8), &mut |i| seen.push(i.nodes));
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert!(r.nodes >= *seen.last().unwrap());
}

#[test]
fn the_stop_flag_ends_every_thread() {
    // An infinite search stopped from its own info callback at depth 4: it returns (the test
    // would hang otherwise) with the move of a completed iteration.
    for threads in [2, 3] {
        let mut e = engine(threads);
        for pos in positions().iter().take(4) {
            let stop = Arc::new(AtomicBool::new(false));
            let limits = Limits {
                stop: Some(stop.clone()),
                ..Limits::default()
            };
            let r = e.search(pos, &limits, &mut |i| {
                if i.depth >= 4 {
                    stop.store(true, Ordering::Relaxed);
                }
            });
            assert_legal(pos, &r, "stopped");
            assert!(r.depth >= 4, "depth {}", r.depth);
            // The engine is usable after it, on the same threads.
            let r = e.search(pos, &Limits::depth(3), &mut |_| {});
            assert_eq!(r.depth, 3);
        }
    }
}

#[test]
fn two_threads_find_the_mates() {
    let mut e = engine(2);
    // Mate in two: b6-b8 shuts rank 8, then a7-a9 (as in tests/search.rs).
    let pos = Position::from_fen("4k4/9/R8/1R7/9/9/9/9/9/3K5 w - - 0 1").unwrap();
    for limits in [Limits::depth(5), Limits::nodes(200_000)] {
        e.new_game(2);
        let r = e.search(&pos, &limits, &mut |_| {});
        assert_eq!(r.score, MATE - 3, "mate in two moves = 3 plies");
        assert_legal(&pos, &r, "mate in two");
        let mut p = pos.clone();
        for &m in &r.pv {
            assert!(p.is_legal(m), "illegal PV move {m}");
            p.make(m);
        }
        assert_eq!(r.pv.len(), 3, "{:?}", r.pv);
        assert!(!p.has_legal_move(), "the PV mates");
    }
    // Being mated: the defender sees it too.
    let mut p = pos.clone();
    let r = e.search(&p, &Limits::depth(5), &mut |_| {});
    p.make(r.best_move);
    let r = e.search(&p, &Limits::depth(6), &mut |_| {});
    assert!(is_mate_score(r.score) && r.score < 0, "score {}", r.score);
}
