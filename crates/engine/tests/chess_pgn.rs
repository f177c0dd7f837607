//! Chess PGN: random games written and read back, from the start and from other positions.

use chuhan_engine::chess::{read_pgn, write_pgn, GameRecord, Position, START_FEN};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

#[test]
fn random_games_round_trip_through_pgn() {
    let starts = [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/1P4P1/8/3pP3/3Pp3/8/1p4p1/R3K2R b KQkq - 0 1",
    ];
    let mut text = String::new();
    let mut records = Vec::new();
    for g in 0..30u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(900 + g);
        let start = starts[g as usize % starts.len()];
        let mut pos = Position::from_fen(start).unwrap();
        let mut moves = Vec::new();
        for _ in 0..rng.gen_range(0..160) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal.as_slice()[rng.gen_range(0..legal.len())];
            pos.make(mv);
            moves.push(mv);
        }
        let record = GameRecord {
            tags: vec![("Round".into(), g.to_string())],
            start_fen: start.into(),
            moves,
            result: ["1-0", "0-1", "1/2-1/2", "*"][g as usize % 4].into(),
        };
        text.push_str(&write_pgn(&record).unwrap());
        text.push('\n');
        records.push(record);
    }
    let back = read_pgn(&text).unwrap();
    assert_eq!(back.len(), records.len());
    for (a, b) in records.iter().zip(&back) {
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.start_fen, b.start_fen);
        assert_eq!(a.result, b.result);
        assert_eq!(a.tag("Round"), b.tag("Round"));
    }
}
