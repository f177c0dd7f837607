//! The one resolver from the shared play flags ([`RunArgs`]) to the library's typed
//! [`RunConfig`], used by `chuhan match` and `chuhan sprt`.

use crate::args::RunArgs;
use anyhow::bail;
use chuhan_arena::play::game::{Adjudication, DrawRule, ResignRule};
use chuhan_arena::play::limits::LimitSpec;
use chuhan_arena::play::openings::{read_opening_file, OpeningSource};
use chuhan_arena::play::player::resolve_player;
use chuhan_arena::play::results::{PlayerEntry, RunConfig, RunKind, SprtSettings};
use chuhan_arena::play::schedule::Shard;
use chuhan_arena::play::setup::{unique_names, DEFAULT_OPENING_PLIES, DEFAULT_SEED};
use chuhan_engine::GameConfig;

/// Builds the run configuration from the command line (everything validated, nothing written).
pub fn config_from_args(
    command: RunKind,
    players: &[String],
    pairs: u64,
    run: &RunArgs,
    sprt: Option<SprtSettings>,
) -> anyhow::Result<RunConfig> {
    if pairs == 0 {
        bail!("the number of pairs must be at least 1");
    }
    for p in players {
        resolve_player(p)?;
    }
    let limit = LimitSpec::from_options(run.nodes, run.depth, run.movetime, run.tc.as_deref())?;
    let openings = match &run.openings {
        Some(path) => {
            let (_, content_hash) = read_opening_file(path)?;
            OpeningSource::File {
                path: path.clone(),
                content_hash,
            }
        }
        None => {
            let plies = run.opening_plies.unwrap_or(DEFAULT_OPENING_PLIES);
            if plies == 0 {
                bail!("--opening-plies must be at least 1 (every pair needs its own opening)");
            }
            OpeningSource::Generated { plies }
        }
    };
    let rules = run.rules.unwrap_or_default();
    let move_limit = run.move_limit.unwrap_or(GameConfig::default().move_limit);
    if move_limit == 0 {
        bail!("--move-limit must be at least 1");
    }
    let resign = match (run.resign_score, run.resign_plies) {
        (Some(score), Some(plies)) => {
            if score <= 0 || plies == 0 {
                bail!("--resign-score and --resign-plies must be at least 1");
            }
            Some(ResignRule { score, plies })
        }
        _ => None,
    };
    let draw = match (run.draw_score, run.draw_plies) {
        (Some(score), Some(plies)) => {
            if score < 0 || plies == 0 {
                bail!("--draw-score must be 0 or more and --draw-plies at least 1");
            }
            Some(DrawRule {
                score,
                plies,
                after_ply: run.draw_after.unwrap_or(0),
            })
        }
        _ => None,
    };
    if run.ply_cap == Some(0) {
        bail!("--ply-cap must be at least 1");
    }
    let shard = run
        .shard
        .as_deref()
        .map(str::parse::<Shard>)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let names = unique_names(players);
    Ok(RunConfig {
        command,
        seed: run.seed.unwrap_or(DEFAULT_SEED),
        pairs,
        rules,
        move_limit,
        shard,
        players: names
            .into_iter()
            .zip(players)
            .map(|(name, spec)| PlayerEntry {
                name,
                spec: spec.trim().to_string(),
            })
            .collect(),
        limit,
        openings,
        adjudication: Adjudication {
            resign,
            draw,
            ply_cap: run.ply_cap,
        },
        sprt,
        pairings: Vec::new(),
    })
}
