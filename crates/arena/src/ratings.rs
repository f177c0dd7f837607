//! Re-exported from chuhan-stats (`chuhan_stats::ratings`): joint ratings of many players from a
//! schedule of games (ladders), with inverse-Hessian, sandwich and bootstrap error bars.

pub use chuhan_stats::ratings::{
    bootstrap_intervals, fit_ratings, head_to_head, Bootstrap, BootstrapIntervals,
    BootstrapSamples, FitOptions, GameRecord, HeadToHead, Interval, Prior, RatingError, RatingFit,
};
