//! Re-exported from chuhan-stats (`chuhan_stats::ratings`): joint ratings of many players from a
//! schedule of games (ladders), with inverse-Hessian, sandwich and bootstrap error bars, and
//! honest intervals (`honest_intervals`: two-sided only where the games bound both sides).

pub use chuhan_stats::bound::Bound;
pub use chuhan_stats::ratings::{
    bootstrap_intervals, fit_ratings, head_to_head, honest_intervals, honest_intervals_with,
    Bootstrap, BootstrapIntervals, BootstrapSamples, BoundMethod, FirstMove, FirstMoveEstimate,
    FitOptions, HeadToHead, HonestBound, HonestIntervals, Interval, Prior, RatedGame, RatingError,
    RatingFit,
};
