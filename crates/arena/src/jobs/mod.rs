//! The jobs built on [`crate::play`]: ladders, calibration, datagen, tuning, the SPRT stop rule
//! and merging shard folders.

pub mod calibrate;
pub mod datagen;
pub mod ladder;
pub mod merge;
pub mod rate;
pub mod sprt;
pub mod tune;
