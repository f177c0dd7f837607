//! games.csv as `--resume` reads it (`ResultsDir::read_games`): the file is written to a
//! scratch folder and checked against the schedule, openings and players of a real run (the
//! match of `crates/cli/tests/data/runs/match`, whose rows are the seed corpus).
//!
//! Properties: every row accepted is in the schedule, once, with its players, seed and
//! opening; the rows written back as the run writes them (header, then one serialized row
//! each, seconds rounded) read back, and writing those gives the same bytes again.
#![no_main]

use chuhan_arena::play::results::{ResultsDir, GAMES_HEADER};
use chuhan_arena::play::runner::PlayedGame;
use libfuzzer_sys::fuzz_target;

fn write_rows(rows: &[PlayedGame]) -> Vec<u8> {
    let mut out = format!("{GAMES_HEADER}\n").into_bytes();
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(&mut out);
    for row in rows {
        w.serialize(row).expect("a row serializes");
    }
    w.flush().expect("memory");
    drop(w);
    out
}

fuzz_target!(|data: &[u8]| {
    chuhan_fuzz::with_match_run(|run| {
        let games = run.dir.join("games.csv");
        std::fs::write(&games, data).expect("scratch folder");
        let read = |bytes: &[u8]| {
            std::fs::write(&games, bytes).expect("scratch folder");
            ResultsDir::read_games(&run.dir, &run.schedule, &run.openings, &run.names)
        };
        let Ok(rows) = read(data) else { return };
        let mut seen = std::collections::HashSet::new();
        for row in &rows {
            assert!(seen.insert(row.game), "game {} twice", row.game);
            let spec = run
                .schedule
                .games
                .iter()
                .find(|g| g.index == row.game)
                .expect("a scheduled game");
            assert_eq!((row.pair, row.seed), (spec.pair, spec.seed));
            assert_eq!(row.red, run.names[spec.red]);
            assert_eq!(row.black, run.names[spec.black]);
            assert_eq!(row.pairing, spec.pairing);
        }
        let written = write_rows(&rows);
        let again = read(&written).unwrap_or_else(|e| {
            panic!(
                "written rows do not read back: {e}\n{}",
                String::from_utf8_lossy(&written)
            )
        });
        assert_eq!(again.len(), rows.len());
        for (a, b) in again.iter().zip(&rows) {
            let mut b = b.clone();
            // The one normalisation of the writer: seconds to 0.1 ms.
            b.seconds = (b.seconds * 1e4).round() / 1e4;
            if !(a.seconds.is_nan() && b.seconds.is_nan()) {
                assert_eq!(*a, b);
            }
        }
        assert_eq!(write_rows(&again), written, "writing is not a fixed point");
    });
});
