//! The command-line tests of `chuhan`: one test binary (one link) whose modules are the old
//! per-file test binaries, grouped by what they test. Tests run as parallel threads of one
//! process, so each one keeps its own scratch folder and passes `current_dir` to its child
//! rather than changing the process's.
//!
//! Run one group or one file with a filter, e.g.
//! `cargo test -p chuhan-cli --test cli robustness::resume_old_runs`.

/// Helpers shared by every module (the `chuhan` runners, scratch folders, UCI fixtures).
mod fixtures;

/// The real browser against `chuhan web` (chromium through chromedriver).
mod browser;
/// Runs of one pairing at different seeds agree (a chi-squared homogeneity test).
mod seed_homogeneity;

/// One module per command (and its options): what each `chuhan` command does.
mod commands {
    mod arena_runs;
    mod calibrate;
    mod datagen_engines;
    mod docs;
    mod engine_jobs;
    mod judge;
    mod ladder;
    mod merge;
    mod nnue;
    mod notation;
    mod perft;
    mod pgn;
    mod rate;
    mod spsa;
    mod spsa_options;
    mod stats;
    mod texel;
    mod uci_chess;
    mod uci_conversation;
    mod uci_options;
    mod uci_players;
    mod uci_threads;
    mod web;
}

/// Per-game behaviour: chess, Chess960 and xiangqi's UCCI engines through the arena.
mod games {
    mod calibrate_chess;
    mod chess960_arena;
    mod chess_arena;
    mod chess_commands;
    mod chess_tuning;
    mod ucci_engines;
}

/// Failure modes: closed pipes, full disks, signals, kills and resumes, read-only and shared folders.
mod robustness {
    mod closed_stdout;
    mod full_disk;
    mod git_state;
    mod kill_resume;
    mod nothing_mixed;
    mod one_writer;
    mod read_only;
    mod resume_old_runs;
    mod signals;
}
