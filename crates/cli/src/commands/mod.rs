//! One module per subcommand.

pub mod bench;
pub mod calibrate;
pub mod datagen;
pub mod engine_check;
pub mod external;
pub mod game_input;
pub mod judge;
pub mod ladder;
pub mod matches;
pub mod merge;
pub mod notation;
pub mod params;
pub mod perft;
pub mod perft_engine;
pub mod rate;
pub mod serve;
pub mod setup;
pub mod sprt;
pub mod spsa;
pub mod stats;
pub mod tune;
pub mod uci;
pub mod uci_chess;
pub mod uci_common;
