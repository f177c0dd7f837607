//! Re-exported from chuhan-stats (`chuhan_stats::curve`): monotone curve fits for difficulty
//! calibration, Elo as a function of a strength knob.

pub use chuhan_stats::curve::{isotonic_regression, CurveError, CurvePoint, IsotonicFit, LogFit};
