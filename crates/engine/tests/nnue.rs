//! The network evaluation (stage 0 of docs/nnue.md): the search's incremental accumulators,
//! determinism, threads. Every static evaluation of a search with a network asserts in debug
//! builds (which the tests are) that its accumulators equal a refresh from the board, so each
//! search below checks every node it evaluates.

use chuhan_engine::eval::nnue::{random_network, Network};
use chuhan_engine::{Engine, EngineConfig, Limits, Position, SearchOptions, Searcher};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

const FENS: [&str; 4] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    // Thin material: null moves are verified here.
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
];

fn searcher(net: Option<Arc<Network>>) -> Searcher {
    let mut s = Searcher::new(Default::default(), SearchOptions::default());
    s.set_network(net);
    s
}

/// Without debug assertions the accumulator check is compiled out: refuse to pass unchecked.
#[cfg(not(debug_assertions))]
compile_error!("tests/nnue.rs checks the accumulators by debug assertions: build it with them");

#[test]
fn searches_keep_the_accumulators_exact_and_use_the_network() {
    let net = Arc::new(random_network(16, 7));
    for fen in FENS {
        let pos = Position::from_fen(fen).unwrap();
        let mut with = searcher(Some(net.clone()));
        let mut without = searcher(None);
        assert_eq!(with.evaluate(&pos), net.evaluate_position(&pos), "{fen}");
        let a = with.search(&pos, &Limits::nodes(20_000), &[], false, &mut |_| {});
        let b = without.search(&pos, &Limits::nodes(20_000), &[], false, &mut |_| {});
        assert!(a.depth >= 3, "{fen}: depth {}", a.depth);
        // The network's scores are not the handcrafted evaluation's.
        assert_ne!((a.score, a.pv.clone()), (b.score, b.pv.clone()), "{fen}");
    }
}

#[test]
fn random_games_searched_with_a_network_stay_exact() {
    let net = Arc::new(random_network(8, 3));
    let mut s = searcher(Some(net));
    for game in 0..4u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(500 + game);
        let mut pos = Position::startpos();
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            s.search(&pos, &Limits::depth(3), &[], false, &mut |_| {});
            pos.make(moves.as_slice()[rng.gen_range(0..moves.len())]);
        }
    }
}

#[test]
fn a_node_limited_search_with_a_network_is_deterministic() {
    let net = Arc::new(random_network(16, 11));
    let pos = Position::from_fen(FENS[1]).unwrap();
    let run = || {
        searcher(Some(net.clone())).search(&pos, &Limits::nodes(30_000), &[], false, &mut |_| {})
    };
    let (a, b) = (run(), run());
    assert_eq!(
        (a.best_move, a.score, a.nodes, a.pv),
        (b.best_move, b.score, b.nodes, b.pv)
    );
}

#[test]
fn helper_threads_search_with_the_network() {
    let net = Arc::new(random_network(16, 5));
    let mut engine = Engine::new(EngineConfig {
        network: Some(net.clone()),
        ..EngineConfig::default()
    });
    engine.set_threads(2);
    assert_eq!(
        engine.searcher_mut().network().map(|n| n.hidden()),
        Some(16)
    );
    let pos = Position::from_fen(FENS[0]).unwrap();
    let r = engine.search(&pos, &Limits::nodes(40_000), &mut |_| {});
    assert!(!r.best_move.is_none());
}

#[test]
fn a_residual_network_is_added_to_the_handcrafted_evaluation() {
    let plain = random_network(8, 13);
    let residual = Arc::new(plain.clone().with_residual(true));
    let handcrafted = searcher(None);
    let mut with = searcher(Some(residual.clone()));
    for fen in FENS {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(
            with.evaluate(&pos),
            handcrafted.evaluate(&pos) + plain.evaluate_position(&pos),
            "{fen}"
        );
        // The search's incremental sum agrees (debug assertion at every node).
        with.search(&pos, &Limits::nodes(5_000), &[], false, &mut |_| {});
    }
}
