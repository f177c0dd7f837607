//! Ladder files as `chuhan ladder FILE` reads them (`LadderConfig::parse`: TOML, then the
//! validation of players, anchors, budgets and connectivity).
//!
//! Properties: an accepted file validates again; its pairings are distinct pairs of distinct
//! players and connect every player; its run configuration, written as the manifest writes it
//! (TOML), reads back equal.
#![no_main]

use chuhan_arena::jobs::ladder::{disconnected, LadderConfig};
use chuhan_arena::play::results::{RunConfig, RunKind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(ladder) = LadderConfig::parse(text, "fuzz/ladder.toml") else {
        return;
    };
    ladder
        .validate("again")
        .expect("an accepted ladder validates again");
    let n = ladder.players.len();
    let pairings = ladder.pairings();
    for (k, &[a, b]) in pairings.iter().enumerate() {
        assert!(a < b && b < n, "pairing {a}-{b} of {n} players");
        assert!(!pairings[..k].contains(&[a, b]), "pairing {a}-{b} twice");
    }
    assert!(disconnected(n, &pairings).is_none());
    let config = ladder.run_config(RunKind::Ladder);
    let written = toml::to_string(&config).expect("a run configuration writes");
    let read: RunConfig = toml::from_str(&written).expect("a written run configuration reads");
    assert_eq!(read, config, "{written}");
});
