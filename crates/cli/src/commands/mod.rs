//! One module per subcommand, each with its flags (`<Command>Args`) beside its code. A command
//! module never uses another command's module: what several share is in [`crate::common`].

pub mod bench;
pub mod calibrate;
pub mod datagen;
pub mod engine_check;
pub mod judge;
pub mod ladder;
pub mod matches;
pub mod merge;
pub mod notation;
pub mod params;
pub mod perft;
pub mod rate;
pub mod serve;
pub mod sprt;
pub mod stats;
pub mod tune;
pub mod uci;
pub mod uci_chess;
