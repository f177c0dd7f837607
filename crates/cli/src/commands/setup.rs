//! The one resolver from the shared play flags ([`RunArgs`]) to the library's typed settings:
//! limits, openings and game rules for `chuhan match`, `chuhan sprt` and `chuhan tune spsa`,
//! and the whole [`RunConfig`] of match and sprt.

use crate::args::RunArgs;
use anyhow::bail;
use chuhan_arena::play::game::{Adjudication, DrawRule, ResignRule};
use chuhan_arena::play::limits::LimitSpec;
use chuhan_arena::play::openings::{is_pgn_book, read_opening_file, OpeningSource};
use chuhan_arena::play::player::resolve_player_for;
use chuhan_arena::play::results::{PlayerEntry, RunConfig, RunKind, SprtSettings};
use chuhan_arena::play::schedule::Shard;
use chuhan_arena::play::setup::{unique_names, DEFAULT_OPENING_PLIES, DEFAULT_SEED};
use chuhan_engine::{GameConfig, RuleSet};

impl RunArgs {
    /// The per-move limit; `default_nodes` replaces the arena's default node budget when no
    /// limit is given.
    pub fn limit(&self, default_nodes: Option<u64>) -> anyhow::Result<LimitSpec> {
        let given = self.nodes.is_some()
            || self.depth.is_some()
            || self.movetime.is_some()
            || self.tc.is_some();
        let nodes = if given { self.nodes } else { default_nodes };
        Ok(LimitSpec::from_options(
            nodes,
            self.depth,
            self.movetime,
            self.tc.as_deref(),
        )?)
    }

    /// The opening source (a file is read now and fingerprinted), with the number of positions
    /// of a file.
    pub fn opening_source(&self) -> anyhow::Result<(OpeningSource, Option<usize>)> {
        match &self.openings {
            Some(path) => {
                // PGN books take each record's moves up to --opening-plies; FEN/EPD lines are
                // positions already.
                if self.opening_plies.is_some() && !is_pgn_book(path) {
                    bail!(
                        "--opening-plies applies to generated openings and PGN books (*.pgn), not to the FEN/EPD file {}",
                        path.display()
                    );
                }
                let plies = self.opening_plies;
                if plies == Some(0) {
                    bail!("--opening-plies must be at least 1 (every pair needs its own opening)");
                }
                let game = self.game.kind().unwrap_or_default();
                let (list, content_hash) = read_opening_file(path, plies, game)?;
                let source = OpeningSource::File {
                    path: path.clone(),
                    content_hash,
                    plies,
                };
                Ok((source, Some(list.len())))
            }
            None => {
                let plies = self.opening_plies.unwrap_or(DEFAULT_OPENING_PLIES);
                if plies == 0 {
                    bail!("--opening-plies must be at least 1 (every pair needs its own opening)");
                }
                Ok((OpeningSource::Generated { plies }, None))
            }
        }
    }

    /// Rules, the judge's move limit and the ply cap.
    pub fn game_rules(&self) -> anyhow::Result<(RuleSet, u16, Option<u32>)> {
        let move_limit = self.move_limit.unwrap_or(GameConfig::default().move_limit);
        if move_limit == 0 {
            bail!("--move-limit must be at least 1");
        }
        if self.ply_cap == Some(0) {
            bail!("--ply-cap must be at least 1");
        }
        Ok((self.rules.unwrap_or_default(), move_limit, self.ply_cap))
    }
}

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
    let game = run.game.kind().unwrap_or_default();
    for p in players {
        resolve_player_for(p, game)?;
    }
    let limit = run.limit(None)?;
    let (openings, _) = run.opening_source()?;
    let (rules, move_limit, ply_cap) = run.game_rules()?;
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
    let shard = run
        .shard
        .as_deref()
        .map(str::parse::<Shard>)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let names = unique_names(players);
    Ok(RunConfig {
        command,
        game,
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
            ply_cap,
        },
        sprt,
        pairings: Vec::new(),
        pgn_format: match run.pgn_format.as_deref() {
            Some(name) => name.parse().map_err(anyhow::Error::msg)?,
            None => chuhan_engine::Notation::Iccs,
        },
    })
}
