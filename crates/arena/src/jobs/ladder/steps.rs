//! Steps too far apart: a neighbour pairing scored above 95% or below 5%
//! (`chuhan_stats::adaptive::wide_steps`), so its gap is measured badly (one-sided after a
//! perfect score). The notes say so and propose an in-between step: for a ladder, the midpoint
//! of the two players' node budgets when both are node-limited; for a calibration, the midpoint
//! on the knob's scale.

use crate::play::player::{resolve_player_for, PlayerSpec};
use crate::play::results::RunConfig;
use crate::ratings::RatedGame;
use chuhan_stats::adaptive::{wide_steps, WideStep, WIDE_STEP_SCORE};

/// Game pairs a neighbour pairing needs before its score is judged.
pub const MIN_PAIRS: u64 = 2;

/// The per-move node budget of each player of a run, when it is node-limited: the in-process
/// engine's level nodes (or none) under the run's node cap. `None` for the test players and
/// external engines, or when the run is not node-limited.
pub fn node_budgets(config: &RunConfig) -> Vec<Option<f64>> {
    let cap = match config.limit {
        crate::play::limits::LimitSpec::Nodes(n) => Some(n),
        _ => None,
    };
    config
        .players
        .iter()
        .map(|p| match resolve_player_for(&p.spec, config.game) {
            Ok(spec @ (PlayerSpec::Engine(_) | PlayerSpec::ChessEngine(_))) => {
                let own = match &spec {
                    PlayerSpec::Engine(c) => c.level.as_ref().and_then(|l| l.nodes),
                    PlayerSpec::ChessEngine(c) => c.level.as_ref().and_then(|l| l.nodes),
                    _ => None,
                };
                match (own, cap) {
                    (Some(a), Some(b)) => Some(a.min(b) as f64),
                    (a, b) => a.or(b).map(|n| n as f64),
                }
            }
            _ => None,
        })
        .collect()
}

/// The notes for the steps of `games` (players `names`, in ladder order) that are too wide.
/// `knob` holds each player's value on the scale the proposal is made on (`None`: no value);
/// `propose` writes a proposed value (on that scale) as the in-between setting to try.
pub fn wide_step_notes(
    games: &[RatedGame],
    names: &[String],
    knob: &[Option<f64>],
    propose: &dyn Fn(f64) -> String,
) -> Vec<String> {
    let order: Vec<usize> = (0..names.len()).collect();
    // The fit has succeeded before this is called; a failure here only loses the warning.
    let steps =
        wide_steps(games, names.len(), &order, MIN_PAIRS, Some(knob), None).unwrap_or_default();
    steps.iter().map(|s| describe(s, names, propose)).collect()
}

fn describe(s: &WideStep, names: &[String], propose: &dyn Fn(f64) -> String) -> String {
    let (from, to) = (&names[s.from], &names[s.to]);
    let side = if s.score > WIDE_STEP_SCORE {
        format!("above {:.0}%", 100.0 * WIDE_STEP_SCORE)
    } else {
        format!("below {:.0}%", 100.0 * (1.0 - WIDE_STEP_SCORE))
    };
    let proposal = match s.proposal {
        Some(v) => format!("add an in-between step, e.g. {}", propose(v)),
        None => "add an in-between player (no value proposed: the two are not both node-limited)"
            .to_string(),
    };
    format!(
        "step {from} -> {to} is too wide: {to} scored {:.1}% against {from} in {} game pairs \
         ({side}), so its gap ({}) is poorly measured; {proposal}",
        100.0 * s.score,
        s.pairs,
        s.bound
    )
}

/// The notes of a ladder run: proposals at the midpoint of the node budgets (see
/// [`node_budgets`]).
pub fn ladder_notes(config: &RunConfig, games: &[RatedGame], names: &[String]) -> Vec<String> {
    let budgets = node_budgets(config);
    wide_step_notes(games, names, &budgets, &|v| {
        format!("nodes={:.0} (the midpoint of their node budgets)", v)
    })
}
