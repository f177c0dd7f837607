//! The one resolver from the shared play flags ([`RunArgs`]) to the library's typed settings:
//! limits, openings and game rules for `chuhan match`, `chuhan sprt` and `chuhan tune spsa`,
//! and the whole [`RunConfig`] of match and sprt.

use crate::common::flags::{GameArgs, RunArgs};
use anyhow::bail;
use chuhan_arena::play::any::GameKind;
use chuhan_arena::play::game::{Adjudication, DrawRule, ResignRule};
use chuhan_arena::play::limits::LimitSpec;
use chuhan_arena::play::openings::{is_pgn_book, read_opening_file_in, OpeningSource};
use chuhan_arena::play::player::resolve_player_for;
use chuhan_arena::play::results::ResultsDir;
use chuhan_arena::play::results::{PlayerEntry, RunConfig, RunKind, SprtSettings};
use chuhan_arena::play::setup::{unique_names, DEFAULT_OPENING_PLIES, DEFAULT_SEED};
use chuhan_engine::{GameConfig, RuleSet};

impl RunArgs {
    /// The per-move limit; `default_nodes` replaces the arena's default node budget when no
    /// limit is given.
    pub fn limit(&self, default_nodes: Option<u64>) -> anyhow::Result<LimitSpec> {
        let l = &self.limits;
        let given =
            l.nodes.is_some() || l.depth.is_some() || l.movetime.is_some() || self.tc.is_some();
        let nodes = if given { l.nodes } else { default_nodes };
        Ok(LimitSpec::from_options(
            nodes,
            l.depth,
            l.movetime,
            self.tc.as_deref(),
        )?)
    }

    /// The opening source (a file is read now and fingerprinted), with the number of positions
    /// of a file.
    pub fn opening_source(&self) -> anyhow::Result<(OpeningSource, Option<usize>)> {
        let chess960 = self.game.chess960() == Some(true);
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
                let (list, content_hash) = read_opening_file_in(path, plies, game, chess960)?;
                let source = OpeningSource::File {
                    path: path.clone(),
                    content_hash,
                    plies,
                };
                Ok((source, Some(list.len())))
            }
            None if chess960 => {
                if self.opening_plies.is_some() {
                    bail!("--opening-plies applies to generated openings and PGN books; a Chess960 run without --openings starts from the 960 start positions themselves");
                }
                Ok((OpeningSource::Chess960, None))
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

/// Whether a run of `game` is Chess960 by the command line: an error when `--chess960` (or
/// `--variant chess960`) is given for xiangqi.
pub fn chess960_for(args: &GameArgs, game: GameKind) -> anyhow::Result<bool> {
    let chess960 = args.chess960().unwrap_or(false);
    if chess960 && game != GameKind::Chess {
        bail!("--chess960 (--variant chess960) is a chess variant: give --game chess with it (the run plays {game})");
    }
    if args.variant.is_some() && game != GameKind::Chess {
        bail!("--variant applies to chess: give --game chess with it (the run plays {game})");
    }
    Ok(chess960)
}

/// Refuses to resume a Chess960 run as standard chess or the reverse: checked when the
/// command line says which (`--chess960`, `--variant`, or `--game chess` alone, which means
/// standard chess).
pub fn check_resume_chess960(
    resume: Option<&std::path::Path>,
    args: &GameArgs,
) -> anyhow::Result<()> {
    let Some(dir) = resume else {
        return Ok(());
    };
    let asked = match (args.chess960(), args.kind()) {
        (Some(asked), _) => asked,
        (None, Some(GameKind::Chess)) => false,
        _ => return Ok(()),
    };
    ResultsDir::check_chess960(dir, asked)?;
    Ok(())
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
    let chess960 = chess960_for(&run.game, game)?;
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
    let names = unique_names(players);
    Ok(RunConfig {
        command,
        game,
        chess960,
        seed: run.seed.or(DEFAULT_SEED),
        pairs,
        rules,
        move_limit,
        shard: run.sharding.shard,
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
        pgn_format: run.notation.notation()?,
        first_move_advantage: Default::default(),
    })
}
