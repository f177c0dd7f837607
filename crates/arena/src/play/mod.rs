//! Playing games: players, limits, openings, one game, the schedule, the runner (which emits
//! events), run setup (configuration to plan) and the results folders.

pub mod any;
pub mod config;
pub mod game;
pub mod limits;
pub mod lock;
pub mod material;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod record;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod setup;
