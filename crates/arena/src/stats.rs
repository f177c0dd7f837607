//! Re-exported from chuhan-stats (`chuhan_stats::{wdl, elo, sprt}`): trinomial and pentanomial
//! counts, Elo with a 95% interval, LOS, normalised Elo, and the generalised SPRT as computed by
//! fishtest's `LLRcalc`.

pub use chuhan_stats::bound::Bound;
pub use chuhan_stats::elo::{
    elo_from_score, games_for_ci, normal_cdf, score_from_elo, Estimate, NELO_PER_NT, Z95,
    ZERO_COUNT,
};
pub use chuhan_stats::homogeneity::{
    homogeneity, homogeneity_of_games, Homogeneity, HomogeneityError,
};
pub use chuhan_stats::interval::{IntervalMethod, MatchInterval};
pub use chuhan_stats::sprt::{solve_secular, Sprt, SprtDecision, SprtError, SprtModel};
pub use chuhan_stats::wdl::{InvalidScore, Outcome, Pentanomial, Trinomial};
