//! The jobs built on [`crate::play`]: ladders, calibration, datagen and tuning.

pub mod calibrate;
pub mod datagen;
pub mod ladder;
pub mod tune;
