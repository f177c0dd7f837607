//! The ladder file: [`LadderConfig`] read, checked (players, anchors, budgets, a connected
//! schedule) and turned into the run configuration, and the copy kept in the run folder.

use super::LadderError;
use crate::play::any::GameKind;
use crate::play::limits::LimitSpec;
use crate::play::openings::OpeningSource;
use crate::play::player::resolve_player_for;
use crate::play::results::{as_text, PlayerEntry, RunConfig, RunKind};
use crate::ratings::FirstMove;
use chuhan_engine::{Notation, RuleSet};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// The default ladder (configs/ladder.toml), embedded in the binary.
pub const DEFAULT_LADDER: &str = include_str!("../../../../../configs/ladder.toml");

/// One player of a ladder file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LadderPlayer {
    /// Unique name in tables.
    pub name: String,
    /// Player spec (see `chuhan_arena::config::resolve_engine`).
    pub spec: String,
}

/// A ladder file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LadderConfig {
    /// Name (used in the default results folder name).
    pub name: String,
    /// Run seed.
    #[serde(default = "one")]
    pub seed: u64,
    /// Game pairs per pairing; with `precision`, the game pairs per pairing of the first round.
    pub pairs: u64,
    /// Play in rounds until every neighbour gap's 95% half-width is at most this many Elo (or
    /// a budget runs out): see [`adaptive`].
    #[serde(default)]
    pub precision: Option<f64>,
    /// With `precision`: at most this many games in all.
    #[serde(default)]
    pub max_games: Option<u64>,
    /// With `precision`: a wall-time budget such as `5m` (a run it stops is not reproducible).
    #[serde(default)]
    pub max_time: Option<String>,
    /// Each player meets the next `neighbours` players.
    #[serde(default = "two")]
    pub neighbours: usize,
    /// Players that meet every other player.
    #[serde(default)]
    pub anchors: Vec<String>,
    /// Per-move node cap on top of each player's own budget.
    #[serde(default = "default_max_nodes")]
    pub max_nodes: u64,
    /// Random plies of generated openings.
    #[serde(default = "six")]
    pub opening_plies: u32,
    /// Repetition rules (`asian` or `check-only`).
    #[serde(default, with = "as_text")]
    pub rules: RuleSet,
    /// Judge's move limit (plies without a capture).
    #[serde(default = "move_limit")]
    pub move_limit: u16,
    /// Bootstrap replicates: no longer used (the intervals are honest profile-likelihood and
    /// exact bounds, not a bootstrap); kept so that older ladder files still parse.
    #[serde(default = "bootstrap")]
    pub bootstrap: usize,
    /// Move notation of games.pgn: `iccs` (default), `wxf` or `chinese`.
    #[serde(default = "iccs", with = "as_text")]
    pub pgn_format: Notation,
    /// The game (`xiangqi`, the default, or `chess`); every player must play it.
    #[serde(default)]
    pub game: Option<GameKind>,
    /// Chess960 (`chess960 = true`, chess only): the games start from the 960 start
    /// positions, chosen by the seed, under Chess960's castling rules.
    #[serde(default)]
    pub chess960: bool,
    /// The first-move advantage of the joint fit (Ordo's `-W`): `"auto"` estimates it and
    /// prints it with its 95% interval, a number of Elo fixes it, 0 (the default) ignores
    /// colours.
    #[serde(default, deserialize_with = "first_move_key")]
    pub first_move_advantage: FirstMove,
    /// Players, weakest first.
    pub players: Vec<LadderPlayer>,
}

/// Reads `first_move_advantage = "auto"`, `= 30` or `= "30"`.
fn first_move_key<'de, D: serde::Deserializer<'de>>(d: D) -> Result<FirstMove, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Key {
        Number(f64),
        Text(String),
    }
    match Key::deserialize(d)? {
        Key::Number(w) => format!("{w}").parse(),
        Key::Text(t) => t.parse(),
    }
    .map_err(serde::de::Error::custom)
}

fn one() -> u64 {
    1
}
fn two() -> usize {
    2
}
fn six() -> u32 {
    6
}
fn default_max_nodes() -> u64 {
    2_000_000
}
fn move_limit() -> u16 {
    120
}
fn iccs() -> Notation {
    Notation::Iccs
}
fn is_iccs(n: &Notation) -> bool {
    *n == Notation::Iccs
}
fn bootstrap() -> usize {
    1000
}

impl LadderConfig {
    /// Parses and validates a ladder file; errors name the source and the problem.
    pub fn parse(text: &str, source: &str) -> Result<LadderConfig, LadderError> {
        LadderConfig::parse_for(text, source, None)
    }

    /// [`LadderConfig::parse`] for a run of `game` (`--game`, when given): see
    /// [`LadderConfig::set_game`].
    pub fn parse_for(
        text: &str,
        source: &str,
        game: Option<GameKind>,
    ) -> Result<LadderConfig, LadderError> {
        let mut c: LadderConfig = toml::from_str(text).map_err(|e| LadderError::Toml {
            file: source.to_string(),
            error: Box::new(e),
        })?;
        match game {
            Some(g) => c.set_game(g, source)?,
            None => c.validate(source)?,
        }
        Ok(c)
    }

    /// The game played (xiangqi when the file does not say).
    pub fn kind(&self) -> GameKind {
        self.game.unwrap_or_default()
    }

    /// Plays `game` as `--game` asks: a file that names another game is an error naming both;
    /// a file that names none takes it (and its players are checked again).
    pub fn set_game(&mut self, game: GameKind, source: &str) -> Result<(), LadderError> {
        match self.game {
            Some(g) if g != game => Err(LadderError::WrongGame {
                file: source.to_string(),
                asked: game,
                says: g,
            }),
            _ => {
                self.game = Some(game);
                self.validate(source)
            }
        }
    }

    /// Checks players, anchors, numbers and that the schedule is connected.
    pub fn validate(&self, source: &str) -> Result<(), LadderError> {
        let file = || source.to_string();
        if self.players.len() < 2 {
            return Err(LadderError::TooFewPlayers { file: file() });
        }
        let mut seen = std::collections::HashSet::new();
        for (i, p) in self.players.iter().enumerate() {
            if p.name.trim().is_empty() {
                return Err(LadderError::EmptyName {
                    file: file(),
                    index: i + 1,
                });
            }
            if !seen.insert(p.name.as_str()) {
                return Err(LadderError::DuplicateName {
                    file: file(),
                    name: p.name.clone(),
                });
            }
            resolve_player_for(&p.spec, self.kind()).map_err(|error| LadderError::Player {
                file: file(),
                name: p.name.clone(),
                error,
            })?;
        }
        for a in &self.anchors {
            if !self.players.iter().any(|p| &p.name == a) {
                return Err(LadderError::UnknownAnchor {
                    file: file(),
                    anchor: a.clone(),
                });
            }
        }
        if self.pairs == 0 {
            return Err(LadderError::Zero {
                file: file(),
                key: "pairs",
            });
        }
        if self.max_nodes == 0 {
            return Err(LadderError::Zero {
                file: file(),
                key: "max_nodes",
            });
        }
        match self.precision {
            Some(p) if !(p.is_finite() && p > 0.0) => {
                return Err(LadderError::BadPrecision {
                    file: file(),
                    value: p,
                })
            }
            None if self.max_games.is_some() || self.max_time.is_some() => {
                return Err(LadderError::BudgetWithoutPrecision { file: file() })
            }
            _ => {}
        }
        if let Some(m) = self.max_games {
            let least = 2 * self.pairings().len() as u64;
            if m < least {
                return Err(LadderError::MaxGamesTooFew {
                    file: file(),
                    max_games: m,
                    least,
                });
            }
        }
        if let Some(t) = &self.max_time {
            parse_duration(t, &format!("{source}: max_time"))?;
        }
        if self.bootstrap < 100 {
            return Err(LadderError::BootstrapTooSmall { file: file() });
        }
        let pairings = self.pairings();
        if let Some(groups) = disconnected(self.players.len(), &pairings) {
            let names: Vec<String> = groups
                .iter()
                .map(|g| {
                    let n: Vec<&str> = g.iter().map(|&i| self.players[i].name.as_str()).collect();
                    format!("{{{}}}", n.join(", "))
                })
                .collect();
            return Err(LadderError::Disconnected {
                file: file(),
                groups: names.join(" and "),
            });
        }
        Ok(())
    }

    /// Pairings: each player with its next `neighbours`, then anchors with everyone else.
    pub fn pairings(&self) -> Vec<[usize; 2]> {
        let n = self.players.len();
        let mut out: Vec<[usize; 2]> = Vec::new();
        for i in 0..n {
            for j in i + 1..=(i + self.neighbours).min(n - 1) {
                out.push([i, j]);
            }
        }
        for a in &self.anchors {
            let ai = self.players.iter().position(|p| &p.name == a).unwrap_or(0);
            for j in 0..n {
                let pair = [ai.min(j), ai.max(j)];
                if j != ai && !out.contains(&pair) {
                    out.push(pair);
                }
            }
        }
        out
    }

    /// The run configuration the arena plays and records.
    pub fn run_config(&self, command: RunKind) -> RunConfig {
        RunConfig {
            command,
            game: self.kind(),
            chess960: self.chess960,
            seed: self.seed,
            pairs: self.pairs,
            rules: self.rules,
            move_limit: self.move_limit,
            shard: None,
            players: self
                .players
                .iter()
                .map(|p| PlayerEntry {
                    name: p.name.clone(),
                    spec: p.spec.clone(),
                })
                .collect(),
            limit: LimitSpec::Nodes(self.max_nodes),
            openings: if self.chess960 {
                OpeningSource::Chess960
            } else {
                OpeningSource::Generated {
                    plies: self.opening_plies,
                }
            },
            adjudication: Default::default(),
            sprt: None,
            pairings: self.pairings(),
            pgn_format: self.pgn_format,
            first_move_advantage: self.first_move_advantage,
        }
    }
}

/// Components of the pairing graph when it is not connected.
pub fn disconnected(n: usize, pairings: &[[usize; 2]]) -> Option<Vec<Vec<usize>>> {
    let mut comp: Vec<usize> = (0..n).collect();
    fn find(c: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while c[r] != r {
            r = c[r];
        }
        c[x] = r;
        r
    }
    for &[a, b] in pairings {
        let (ra, rb) = (find(&mut comp, a), find(&mut comp, b));
        comp[ra] = rb;
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..n {
        let r = find(&mut comp, i);
        groups.entry(r).or_default().push(i);
    }
    (groups.len() > 1).then(|| groups.into_values().collect())
}

/// File in the run folder that keeps the ladder's analysis settings.
pub const LADDER_COPY: &str = "ladder.toml";

/// Loads the ladder config: a file, or the embedded default.
pub fn load_config(path: Option<&Path>) -> Result<(LadderConfig, String), LadderError> {
    load_config_for(path, None)
}

/// [`load_config`] for a run of `game` (`--game`, when given).
pub fn load_config_for(
    path: Option<&Path>,
    game: Option<GameKind>,
) -> Result<(LadderConfig, String), LadderError> {
    match path {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|source| LadderError::ReadConfig {
                path: p.to_path_buf(),
                source,
            })?;
            Ok((
                LadderConfig::parse_for(&text, &p.display().to_string(), game)?,
                text,
            ))
        }
        None => Ok((
            LadderConfig::parse_for(DEFAULT_LADDER, "configs/ladder.toml (built in)", game)?,
            DEFAULT_LADDER.to_string(),
        )),
    }
}

/// The ladder file as written back into the run folder.
#[derive(serde::Serialize)]
pub(super) struct LadderCopy {
    name: String,
    seed: u64,
    pairs: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    precision: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_games: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_time: Option<String>,
    neighbours: usize,
    anchors: Vec<String>,
    max_nodes: u64,
    opening_plies: u32,
    #[serde(with = "as_text")]
    rules: RuleSet,
    move_limit: u16,
    bootstrap: usize,
    #[serde(skip_serializing_if = "is_iccs", with = "as_text")]
    pgn_format: Notation,
    #[serde(skip_serializing_if = "FirstMove::ignores_colours", with = "as_text")]
    first_move_advantage: FirstMove,
    players: Vec<PlayerCopy>,
}

#[derive(serde::Serialize)]
struct PlayerCopy {
    name: String,
    spec: String,
}

impl From<&LadderConfig> for LadderCopy {
    fn from(c: &LadderConfig) -> Self {
        LadderCopy {
            name: c.name.clone(),
            seed: c.seed,
            pairs: c.pairs,
            precision: c.precision,
            max_games: c.max_games,
            max_time: c.max_time.clone(),
            neighbours: c.neighbours,
            anchors: c.anchors.clone(),
            max_nodes: c.max_nodes,
            opening_plies: c.opening_plies,
            rules: c.rules,
            move_limit: c.move_limit,
            bootstrap: c.bootstrap,
            pgn_format: c.pgn_format,
            first_move_advantage: c.first_move_advantage,
            players: c
                .players
                .iter()
                .map(|p| PlayerCopy {
                    name: p.name.clone(),
                    spec: p.spec.clone(),
                })
                .collect(),
        }
    }
}

/// Parses a duration: a number with an optional unit `s` (default), `m` or `h`, e.g. `90`,
/// `90s`, `5m`, `1.5h`.
pub fn parse_duration(text: &str, what: &str) -> Result<Duration, LadderError> {
    let t = text.trim();
    let (number, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => (&t[..i], &t[i..]),
        None => (t, "s"),
    };
    let scale = match unit {
        "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => {
            return Err(LadderError::DurationUnit {
                what: what.to_string(),
                text: text.to_string(),
                unit: unit.to_string(),
            })
        }
    };
    let value: f64 = number
        .trim()
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v > 0.0)
        .ok_or_else(|| LadderError::DurationValue {
            what: what.to_string(),
            text: text.to_string(),
        })?;
    Ok(Duration::from_secs_f64(value * scale))
}
