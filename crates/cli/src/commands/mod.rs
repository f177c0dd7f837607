//! One module per subcommand.

pub mod bench;
pub mod calibrate;
pub mod datagen;
pub mod judge;
pub mod ladder;
pub mod matches;
pub mod notation;
pub mod params;
pub mod perft;
pub mod serve;
pub mod setup;
pub mod sprt;
pub mod spsa;
pub mod stats;
pub mod tune;
pub mod uci;
