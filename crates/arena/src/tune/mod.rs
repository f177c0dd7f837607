//! Tuners for the engine's parameter table ([`chuhan_engine::params`]).
//!
//! - [`spsa`]: fishtest-compatible SPSA (`chuhan tune spsa`): simultaneous perturbation of the
//!   chosen parameters, measured by game pairs between `theta + c_k delta` and
//!   `theta - c_k delta`. See docs/tuning.md for the formulas.
//!
//! Whatever a tuner finds is only a candidate: accept it after an SPRT against the start values.

pub mod spsa;
