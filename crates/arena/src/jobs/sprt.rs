//! The SPRT of `chuhan sprt` as a stop rule over complete game pairs in pair-index order: the
//! one rule a single-machine run and a merge of shard folders both apply, so both stop at the
//! same pair with the same verdict.

use crate::play::results::SprtSettings;
use crate::play::runner::StopRule;
use crate::stats::{Pentanomial, Sprt, SprtError, Verdict};

/// Stops when the pentanomial LLR crosses a bound.
pub struct SprtStop {
    sprt: Sprt,
    pairs: Pentanomial,
}

impl SprtStop {
    /// A stop rule for `sprt`.
    pub fn new(sprt: Sprt) -> SprtStop {
        SprtStop {
            sprt,
            pairs: Pentanomial::new(),
        }
    }
}

impl StopRule for SprtStop {
    fn add_pair(&mut self, _pairing: usize, first: f64, second: f64) -> bool {
        if self.pairs.add_pair(first, second).is_err() {
            return false;
        }
        self.sprt
            .llr_pentanomial(&self.pairs)
            .is_some_and(|llr| self.sprt.verdict(llr) != Verdict::Continue)
    }
}

/// The SPRT of a run's settings.
pub fn sprt_of(settings: &SprtSettings) -> Result<Sprt, SprtError> {
    Sprt::new(
        settings.elo0,
        settings.elo1,
        settings.alpha,
        settings.beta,
        settings.model,
    )
}

/// `H0`, `H1` or `continue`.
pub fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::AcceptH0 => "H0",
        Verdict::AcceptH1 => "H1",
        Verdict::Continue => "continue",
    }
}
