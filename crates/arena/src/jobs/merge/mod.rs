//! Merging shard folders (`--shard i/n` runs of match, ladder and sprt) into the folder a single
//! machine would have written.
//!
//! [`ShardSet::read`] reads every shard's manifest and games.csv and checks that they belong to
//! one run (the same resolved configuration apart from the shard, the same chuhan version and
//! bench signature; a different git commit is only a warning), that no shard is given twice and
//! that every game is the one the run's schedule puts in that shard. Shards still running (or
//! never started) are allowed at this stage, so a driver can ask [`ShardSet::status`] whether
//! the run is done: every shard complete, or, for an SPRT, the LLR recomputed over complete
//! pairs in pair-index order has crossed a bound (the single-machine rule, see
//! [`crate::jobs::sprt`]). [`ShardSet::merged`] then picks the games the merged folder holds
//! and [`write_folder`] writes its manifest.toml (naming its shards) and games.csv sorted by
//! (pair, game). Every other output (summary.csv, ratings, plots, ...) is derived from the
//! merged games by the same functions the single-machine command uses, so the merged folder
//! equals the single-machine one game for game (the `seconds` column and creation times
//! aside).

use crate::jobs::calibrate::settings::StageShards;
use crate::jobs::ladder::{arena_pairings, LADDER_COPY};
use crate::jobs::sprt::{sprt_of, SprtStop};
use crate::play::results::{
    Manifest, ResultsDir, ResultsError, RunConfig, RunKind, GAMES_HEADER, GAMES_PGN,
};
use crate::play::runner::{PlayedGame, StopRule};
use crate::play::schedule::{round_robin, Pairing, Schedule, Shard};
use crate::play::setup::config_differences;
use crate::report::first_score;
use crate::stats::{Sprt, SprtDecision, SprtError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A job whose shard folders wrap the run shards it plays (a calibration stage: the stage's
/// run in a folder of its own, the job's settings beside it). The job implements it and owns
/// the merge of its folders; [`ShardSet::read`] asks it only to unwrap them, so that the merge
/// of runs never calls into a job.
pub trait WrappedShards: Sized {
    /// The run shard folders inside `dirs` and what the job needs to merge them (checked
    /// equal in every shard), or `None` when `dirs` are not this job's shard folders.
    fn unwrap(dirs: &[PathBuf]) -> Result<Option<(Vec<PathBuf>, Self)>, MergeError>;
}

/// Why shard folders cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// No folder was given.
    #[error("give at least one shard folder")]
    NoShards,
    /// A results file could not be read (the error names the file).
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// A folder that was not run with `--shard`.
    #[error("{0} is not a shard: its manifest.toml has no shard (the run was not made with --shard i/n)")]
    NotAShard(PathBuf),
    /// A folder of another run.
    #[error("{dir} is not a shard of the same run as {first}: {what} differ")]
    Foreign {
        /// The folder that does not belong.
        dir: PathBuf,
        /// The first folder given (the reference).
        first: PathBuf,
        /// What differs.
        what: String,
    },
    /// The same shard given twice.
    #[error("shard {shard} is given twice: {first} and {second}")]
    Duplicate {
        /// The shard.
        shard: Shard,
        /// One folder.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// A shard not given.
    #[error("shard {shard} is missing: no folder given holds it (given: {given})")]
    Missing {
        /// The missing shard.
        shard: Shard,
        /// The shards given.
        given: String,
    },
    /// A shard that has not played all its games.
    #[error("{dir}: shard {shard} is unfinished: {have} of its {want} games are in games.csv (first missing: game {first_missing}); finish it with chuhan {kind} --resume {dir}")]
    Unfinished {
        /// The folder.
        dir: PathBuf,
        /// Its shard.
        shard: Shard,
        /// The run's command.
        kind: RunKind,
        /// Games recorded.
        have: u64,
        /// Games in its schedule.
        want: u64,
        /// The first game index it lacks.
        first_missing: u64,
    },
    /// An SPRT whose shards have not yet decided it nor played every pair.
    #[error("the sprt has not decided after the {covered} pairs all shards have played in order, and pair {pair} (shard {shard}, {where_}) is not played yet: merge when chuhan merge --check says decided, or when every shard is finished")]
    Undecided {
        /// Pairs covered in order.
        covered: u64,
        /// The first pair missing.
        pair: u64,
        /// The shard it belongs to.
        shard: Shard,
        /// The shard's folder, or `not given`.
        where_: String,
    },
    /// A row of games.csv that the run's schedule does not allow.
    #[error("{path}:{line}: {reason}")]
    Row {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        reason: String,
    },
    /// Runs of this kind cannot be merged.
    #[error("{dir}: merging '{kind}' runs is not supported (match, sprt, ladder and calibration stage shards are)")]
    Unsupported {
        /// The folder.
        dir: PathBuf,
        /// Its command.
        kind: RunKind,
    },
    /// An SPRT manifest with unusable settings.
    #[error("{dir}: {source}")]
    Sprt {
        /// The folder.
        dir: PathBuf,
        /// The problem.
        source: SprtError,
    },
    /// An I/O problem.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> MergeError + '_ {
    move |source| MergeError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The pairings a run's configuration schedules: the explicit ones (ladders, calibration) or a
/// round robin (match; an sprt's two players make the one pairing test vs base).
pub fn pairings_of(config: &RunConfig) -> Vec<Pairing> {
    if config.pairings.is_empty() {
        round_robin(config.players.len(), config.pairs)
    } else {
        arena_pairings(&config.pairings, config.pairs)
    }
}

/// One shard folder as read.
#[derive(Clone, Debug)]
pub struct ShardRun {
    /// The folder.
    pub dir: PathBuf,
    /// Its shard.
    pub shard: Shard,
    /// Its manifest.
    pub manifest: Manifest,
    /// Games recorded in games.csv (a truncated last line is not counted).
    pub games: u64,
    /// Games its schedule holds.
    pub scheduled: u64,
    /// The first scheduled game it lacks, if any.
    pub first_missing: Option<u64>,
}

impl ShardRun {
    /// Whether every scheduled game is recorded.
    pub fn complete(&self) -> bool {
        self.first_missing.is_none()
    }
}

/// The shards of one run, read and checked.
pub struct ShardSet {
    /// The run's configuration without the shard (what a single-machine run records).
    pub config: RunConfig,
    /// The SPRT of an sprt run.
    pub sprt: Option<Sprt>,
    /// Number of shards of the run.
    pub count: u64,
    /// The folders given, by shard index (`None`: not given).
    pub shards: Vec<Option<ShardRun>>,
    /// Every recorded game of every shard, by game index ([`ShardSet::merged`] takes them).
    pub records: BTreeMap<u64, PlayedGame>,
    /// The whole run's schedule.
    pub schedule: Schedule,
    /// Warnings (a different git commit between shards).
    pub warnings: Vec<String>,
    /// The ladder file copy of a ladder's shards (written to the merged folder too).
    pub ladder_copy: Option<String>,
    /// The settings and stage of a calibration stage's shards.
    pub calibration: Option<StageShards>,
}

/// Where a run of shards stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Status {
    /// The run's command.
    pub kind: RunKind,
    /// Shards of the run.
    pub count: u64,
    /// Shards given.
    pub given: u64,
    /// Shards given and complete.
    pub complete: u64,
    /// Games recorded in all shards.
    pub games: u64,
    /// Games the whole schedule holds.
    pub scheduled: u64,
    /// Complete pairs counted from pair 0 in index order before the first missing pair (or
    /// up to the SPRT's stopping pair).
    pub covered_pairs: u64,
    /// Pairs the whole schedule holds.
    pub total_pairs: u64,
    /// SPRT only: the verdict over the covered pairs, the LLR and the pair it stopped at.
    pub sprt: Option<SprtStatus>,
    /// Whether the merge can be made now: every shard complete, or the SPRT decided.
    pub done: bool,
}

/// The SPRT over the covered pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    /// H0, H1 or continue.
    pub verdict: SprtDecision,
    /// The LLR over the covered pairs (none before any informative pair).
    pub llr: Option<f64>,
    /// Lower and upper LLR bounds.
    pub bounds: (f64, f64),
    /// The pair at which the LLR crossed a bound.
    pub stopped_at: Option<u64>,
    /// Games the shards recorded after the stopping pair (played for nothing).
    pub games_after_stop: u64,
}

/// The games a merged folder holds.
pub struct Merged {
    /// Games by index.
    pub records: BTreeMap<u64, PlayedGame>,
    /// SPRT: the pair at which the verdict came.
    pub stopped_at: Option<u64>,
}

impl ShardSet {
    /// Reads and checks the shard folders `dirs` (any order). Missing and unfinished shards are
    /// allowed here ([`ShardSet::status`] reports them, [`ShardSet::merged`] refuses them).
    pub fn read(dirs: &[PathBuf]) -> Result<ShardSet, MergeError> {
        // A calibration stage's shard folder holds the stage's run in a folder of its own.
        let (dirs, calibration) = match StageShards::unwrap(dirs)? {
            Some((run_dirs, stage)) => (run_dirs, Some(stage)),
            None => (dirs.to_vec(), None),
        };
        let dirs = &dirs[..];
        let first_dir = dirs.first().ok_or(MergeError::NoShards)?;
        let mut manifests = Vec::with_capacity(dirs.len());
        for dir in dirs {
            let manifest = ResultsDir::read_manifest(dir)?;
            let Some(shard) = manifest.config.shard else {
                return Err(MergeError::NotAShard(dir.clone()));
            };
            manifests.push((dir.clone(), shard, manifest));
        }
        let reference = &manifests[0].2;
        let kind = reference.config.command;
        let calibrate = kind == RunKind::Calibrate && calibration.is_some();
        if !calibrate && !matches!(kind, RunKind::Match | RunKind::Sprt | RunKind::Ladder) {
            return Err(MergeError::Unsupported {
                dir: first_dir.clone(),
                kind,
            });
        }
        let mut config = reference.config.clone();
        config.shard = None;
        let count = manifests[0].1.count;
        let mut warnings = Vec::new();
        for (dir, shard, m) in &manifests[1..] {
            let mut what = Vec::new();
            if shard.count != count {
                what.push(format!("shard counts ({} vs {count})", shard.count));
            }
            let mut c = m.config.clone();
            c.shard = None;
            what.extend(
                config_differences(&config, &c)
                    .into_iter()
                    .map(|k| format!("config.{k}")),
            );
            if m.chuhan_version != reference.chuhan_version {
                what.push(format!(
                    "chuhan versions ({} vs {})",
                    m.chuhan_version, reference.chuhan_version
                ));
            }
            if m.bench_signature != reference.bench_signature {
                what.push(format!(
                    "bench signatures ({} vs {})",
                    m.bench_signature, reference.bench_signature
                ));
            }
            if !what.is_empty() {
                return Err(MergeError::Foreign {
                    dir: dir.clone(),
                    first: first_dir.clone(),
                    what: what.join(", "),
                });
            }
            if m.git_commit != reference.git_commit {
                warnings.push(format!(
                    "{} was built from git commit {}, {} from {}: same version and bench signature, so the games are comparable",
                    dir.display(),
                    m.git_commit,
                    first_dir.display(),
                    reference.git_commit
                ));
            }
        }
        let ladder_copy = if kind == RunKind::Ladder {
            read_ladder_copies(&manifests, first_dir)?
        } else {
            None
        };
        let sprt = sprt_settings(&config)
            .map(sprt_of)
            .transpose()
            .map_err(|source| MergeError::Sprt {
                dir: first_dir.clone(),
                source,
            })?;
        let schedule = Schedule::new(pairings_of(&config), config.seed, None);
        let names: Vec<&str> = config.players.iter().map(|p| p.name.as_str()).collect();
        let mut shards: Vec<Option<ShardRun>> = vec![None; count as usize];
        let mut records = BTreeMap::new();
        for (dir, shard, manifest) in manifests {
            if let Some(other) = &shards[shard.index as usize] {
                return Err(MergeError::Duplicate {
                    shard,
                    first: other.dir.clone(),
                    second: dir,
                });
            }
            let games = read_shard_games(&dir, shard, &schedule, &names, &mut records)?;
            shards[shard.index as usize] = Some(ShardRun {
                dir,
                shard,
                manifest,
                games,
                scheduled: 0,
                first_missing: None,
            });
        }
        // One pass over the schedule for every shard's size and first missing game.
        for g in &schedule.games {
            if let Some(run) = shards[(g.pair % count) as usize].as_mut() {
                run.scheduled += 1;
                if run.first_missing.is_none() && !records.contains_key(&g.index) {
                    run.first_missing = Some(g.index);
                }
            }
        }
        Ok(ShardSet {
            config,
            sprt,
            count,
            shards,
            records,
            schedule,
            warnings,
            ladder_copy,
            calibration,
        })
    }

    /// The shard that pair `pair` belongs to.
    pub fn shard_of(&self, pair: u64) -> Shard {
        Shard {
            index: pair % self.count,
            count: self.count,
        }
    }

    /// Where the run stands: shards given and complete, pairs covered in order and, for an
    /// SPRT, the verdict recomputed over them.
    pub fn status(&self) -> Status {
        let given: Vec<&ShardRun> = self.shards.iter().flatten().collect();
        let complete = given.iter().filter(|s| s.complete()).count() as u64;
        let all_complete = complete == self.count;
        let total_pairs = self.schedule.total_pairs;
        let sprt = self.sprt;
        let mut rule = sprt.map(SprtStop::new);
        let mut covered = 0;
        let mut stopped_at = None;
        for pair in 0..total_pairs {
            let (Some(a), Some(b)) = (
                self.records.get(&(2 * pair)),
                self.records.get(&(2 * pair + 1)),
            ) else {
                break;
            };
            covered = pair + 1;
            if let Some(rule) = rule.as_mut() {
                if rule.add_pair(0, first_score(a), first_score(b)) {
                    stopped_at = Some(pair);
                    break;
                }
            }
        }
        let sprt_status = sprt.map(|sprt| {
            let mut penta = crate::stats::Pentanomial::new();
            for pair in 0..covered {
                let (a, b) = (&self.records[&(2 * pair)], &self.records[&(2 * pair + 1)]);
                // The stop rule skipped a pair that does not score; so does this count.
                let _ = penta.add_pair(first_score(a), first_score(b));
            }
            let llr = sprt.llr_pentanomial(&penta);
            SprtStatus {
                verdict: llr.map_or(SprtDecision::Continue, |l| sprt.verdict(l)),
                llr,
                bounds: (sprt.lower_bound(), sprt.upper_bound()),
                stopped_at,
                games_after_stop: stopped_at
                    .map_or(0, |k| self.records.range(2 * k + 2..).count() as u64),
            }
        });
        Status {
            kind: self.config.command,
            count: self.count,
            given: given.len() as u64,
            complete,
            games: self.records.len() as u64,
            scheduled: self.schedule.games.len() as u64,
            covered_pairs: covered,
            total_pairs,
            done: all_complete || stopped_at.is_some(),
            sprt: sprt_status,
        }
    }

    /// The games of the merged folder, taken out of the set: every game when every shard is
    /// complete; for an SPRT that has decided, the games of the pairs up to the stopping pair
    /// (the ones its verdict counts). Errors name the missing or unfinished shard.
    pub fn merged(&mut self) -> Result<Merged, MergeError> {
        let status = self.status();
        if let Some(stopped_at) = status.sprt.and_then(|s| s.stopped_at) {
            let mut records = std::mem::take(&mut self.records);
            // Games after the stopping pair are not counted by the verdict: left out.
            drop(records.split_off(&(2 * stopped_at + 2)));
            return Ok(Merged {
                records,
                stopped_at: Some(stopped_at),
            });
        }
        let given: Vec<String> = self
            .shards
            .iter()
            .flatten()
            .map(|s| s.shard.to_string())
            .collect();
        // An undecided SPRT needs every pair; the check below names the first one missing.
        if self.config.command != RunKind::Sprt {
            for (i, s) in self.shards.iter().enumerate() {
                let shard = Shard {
                    index: i as u64,
                    count: self.count,
                };
                let Some(run) = s else {
                    return Err(MergeError::Missing {
                        shard,
                        given: given.join(", "),
                    });
                };
                if let Some(first_missing) = run.first_missing {
                    return Err(MergeError::Unfinished {
                        dir: run.dir.clone(),
                        shard,
                        kind: self.config.command,
                        have: run.games,
                        want: run.scheduled,
                        first_missing,
                    });
                }
            }
        }
        if self.config.command == RunKind::Sprt && status.covered_pairs < status.total_pairs {
            let pair = status.covered_pairs;
            let shard = self.shard_of(pair);
            let where_ = match &self.shards[shard.index as usize] {
                Some(run) => format!("{} is unfinished", run.dir.display()),
                None => "its folder is not given".to_string(),
            };
            return Err(MergeError::Undecided {
                covered: status.covered_pairs,
                pair,
                shard,
                where_,
            });
        }
        Ok(Merged {
            records: std::mem::take(&mut self.records),
            stopped_at: None,
        })
    }
}

fn sprt_settings(config: &RunConfig) -> Option<&crate::play::results::SprtSettings> {
    (config.command == RunKind::Sprt)
        .then_some(config.sprt.as_ref())
        .flatten()
}

/// The ladder file copies of a ladder's shards: all equal (or all absent).
fn read_ladder_copies(
    manifests: &[(PathBuf, Shard, Manifest)],
    first: &Path,
) -> Result<Option<String>, MergeError> {
    let read = |dir: &Path| std::fs::read_to_string(dir.join(LADDER_COPY)).ok();
    let reference = read(first);
    for (dir, _, _) in &manifests[1..] {
        if read(dir) != reference {
            return Err(MergeError::Foreign {
                dir: dir.clone(),
                first: first.to_path_buf(),
                what: LADDER_COPY.to_string(),
            });
        }
    }
    Ok(reference)
}

/// Reads one shard's games.csv (a truncated last line is ignored: the game is not finished),
/// checks every row against the run's schedule and inserts it into `records`; returns the
/// number of rows.
fn read_shard_games(
    dir: &Path,
    shard: Shard,
    schedule: &Schedule,
    names: &[&str],
    records: &mut BTreeMap<u64, PlayedGame>,
) -> Result<u64, MergeError> {
    let path = dir.join("games.csv");
    let bytes = std::fs::read(&path).map_err(io(&path))?;
    let complete = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(end) => &bytes[..=end],
        None => &bytes[..0],
    };
    let row_err = |line: u64, reason: String| MergeError::Row {
        path: path.clone(),
        line,
        reason,
    };
    let header = complete.split(|&b| b == b'\n').next().unwrap_or(&[]);
    if header != GAMES_HEADER.as_bytes() {
        return Err(row_err(1, format!("expected the header '{GAMES_HEADER}'")));
    }
    let mut reader = csv::ReaderBuilder::new().from_reader(complete);
    let mut rows = 0;
    for (i, row) in reader.deserialize::<PlayedGame>().enumerate() {
        let line = i as u64 + 2;
        let mut row = row.map_err(|e| row_err(line, e.to_string()))?;
        let spec = schedule.games.get(row.game as usize).ok_or_else(|| {
            row_err(
                line,
                format!("game {} is not in the run's schedule", row.game),
            )
        })?;
        if spec.pair % shard.count != shard.index {
            return Err(row_err(
                line,
                format!(
                    "game {} belongs to shard {}/{}, not to this folder's shard {shard}",
                    row.game,
                    spec.pair % shard.count,
                    shard.count
                ),
            ));
        }
        if row.pair != spec.pair
            || row.seed != spec.seed
            || row.red != names[spec.red]
            || row.black != names[spec.black]
        {
            return Err(row_err(
                line,
                format!(
                    "game {} does not match the run's schedule (pair, players or seed differ)",
                    row.game
                ),
            ));
        }
        let partner = row.game ^ 1;
        if let Some(other) = records.get(&partner) {
            if other.opening != row.opening {
                return Err(row_err(
                    line,
                    format!(
                        "game {} has another opening than game {partner} of the same pair",
                        row.game
                    ),
                ));
            }
        }
        row.pairing = spec.pairing;
        if records.insert(row.game, row).is_some() {
            return Err(row_err(line, format!("game {} appears twice", spec.index)));
        }
        rows += 1;
    }
    Ok(rows)
}

/// One shard as the merged manifest names it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardSource {
    /// `i/n`.
    pub shard: String,
    /// The folder it was read from.
    pub dir: String,
    /// Its git commit.
    pub git_commit: String,
    /// When it was created (seconds since the Unix epoch).
    pub created_unix: u64,
    /// Games it recorded.
    pub games: u64,
}

/// The `[merge]` table of a merged folder's manifest.toml.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergeInfo {
    /// Shards of the run.
    pub shard_count: u64,
    /// SPRT: the pair its verdict came at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped_at_pair: Option<u64>,
    /// Every shard folder merged.
    pub shards: Vec<ShardSource>,
}

/// manifest.toml of a merged folder: the single-machine manifest (the configuration has no
/// shard) plus `[merge]`. Commands that read manifests ignore the extra table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergedManifest {
    /// What a single-machine run would record.
    #[serde(flatten)]
    pub manifest: Manifest,
    /// The shards it was merged from.
    pub merge: MergeInfo,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "run: {}", self.kind)?;
        writeln!(
            f,
            "shards: {} of {} given, {} complete",
            self.given, self.count, self.complete
        )?;
        writeln!(f, "games: {} of {}", self.games, self.scheduled)?;
        writeln!(
            f,
            "pairs in order: {} of {}",
            self.covered_pairs, self.total_pairs
        )?;
        if let Some(s) = &self.sprt {
            writeln!(
                f,
                "llr: {} ({:.2}, {:.2})",
                s.llr.map_or("none".to_string(), |l| format!("{l:.4}")),
                s.bounds.0,
                s.bounds.1
            )?;
            writeln!(f, "verdict: {}", s.verdict.name())?;
            if let Some(k) = s.stopped_at {
                writeln!(f, "stopped at pair: {k}")?;
                writeln!(f, "games after the stop: {}", s.games_after_stop)?;
            }
        }
        write!(f, "done: {}", if self.done { "yes" } else { "no" })
    }
}

/// Writes the merged folder `out` (absent or empty): manifest.toml naming its shards, games.csv
/// sorted by game index (that is by pair, then game), the ladder file copy of a ladder. Returns
/// the folder opened for the command's other outputs.
pub fn write_folder(set: &ShardSet, merged: &Merged, out: &Path) -> Result<ResultsDir, MergeError> {
    ResultsDir::check_new(out)?;
    let given: Vec<&ShardRun> = set.shards.iter().flatten().collect();
    let first = given[0];
    let mut manifest = Manifest::new(set.config.clone());
    // The merged run is the shards' run: their version, signature and git state.
    manifest.chuhan_version = first.manifest.chuhan_version.clone();
    manifest.bench_signature = first.manifest.bench_signature.clone();
    manifest.git_commit = first.manifest.git_commit.clone();
    manifest.git_dirty = first.manifest.git_dirty.clone();
    let merged_manifest = MergedManifest {
        manifest,
        merge: MergeInfo {
            shard_count: set.count,
            stopped_at_pair: merged.stopped_at,
            shards: given
                .iter()
                .map(|s| ShardSource {
                    shard: s.shard.to_string(),
                    dir: s.dir.display().to_string(),
                    git_commit: s.manifest.git_commit.clone(),
                    created_unix: s.manifest.created_unix,
                    games: s.games,
                })
                .collect(),
        },
    };
    std::fs::create_dir_all(out).map_err(io(out))?;
    let mpath = out.join("manifest.toml");
    let text = toml::to_string(&merged_manifest).map_err(|e| ResultsError::Manifest {
        path: mpath.clone(),
        reason: e.to_string(),
    })?;
    std::fs::write(&mpath, text).map_err(io(&mpath))?;
    let gpath = out.join("games.csv");
    let file = std::fs::File::create(&gpath).map_err(io(&gpath))?;
    let mut buffered = std::io::BufWriter::with_capacity(1 << 20, file);
    writeln!(buffered, "{GAMES_HEADER}").map_err(io(&gpath))?;
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(buffered);
    for record in merged.records.values() {
        w.serialize(record)
            .map_err(|e| io(&gpath)(std::io::Error::other(e)))?;
    }
    w.flush().map_err(io(&gpath))?;
    drop(w);
    if let Some(copy) = &set.ladder_copy {
        let path = out.join(LADDER_COPY);
        std::fs::write(&path, copy).map_err(io(&path))?;
    }
    copy_engine_logs(set, merged, out)?;
    write_merged_pgn(set, merged, out)?;
    Ok(ResultsDir::open_written(out)?)
}

/// games.pgn of the merged run, in games.csv's order: each game's record copied from its
/// shard's games.pgn (with the per-move comments only the playing run knew), or written from
/// its games.csv row when the shard has none (a shard from before games.pgn, or a record lost
/// to a crash and not yet rebuilt). The copy is by `Round` tag and result, without replaying
/// the moves: each shard checked its own records against its rows when it was resumed, and
/// replaying a million games would turn a merge of seconds into minutes.
fn write_merged_pgn(set: &ShardSet, merged: &Merged, out: &Path) -> Result<(), MergeError> {
    use crate::play::pgn::{pgn_record, round_of, split_records, PgnContext};
    let mut texts = Vec::new();
    for run in set.shards.iter().flatten() {
        let path = run.dir.join(GAMES_PGN);
        match std::fs::read(&path) {
            Ok(bytes) => texts.push(String::from_utf8_lossy(&bytes).into_owned()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(&path)(e)),
        }
    }
    let mut stored: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    for text in &texts {
        for record in split_records(text) {
            if let Some(round) = record.lines().find_map(|l| {
                l.strip_prefix("[Round \"")
                    .and_then(|r| r.strip_suffix("\"]"))
            }) {
                stored.insert(round, record);
            }
        }
    }
    let ctx = PgnContext::for_run(&ResultsDir::read_manifest(out)?);
    let path = out.join(GAMES_PGN);
    let file = std::fs::File::create(&path).map_err(io(&path))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    for row in merged.records.values() {
        match stored.get(round_of(row).as_str()) {
            Some(text) if text.trim_end().ends_with(row.result.as_pgn()) => {
                w.write_all(text.trim_end().as_bytes()).map_err(io(&path))?;
                w.write_all(b"\n\n").map_err(io(&path))?;
            }
            _ => {
                let record = pgn_record(row, &ctx).map_err(ResultsError::from)?;
                w.write_all(record.as_bytes()).map_err(io(&path))?;
            }
        }
    }
    w.flush().map_err(io(&path))?;
    Ok(())
}

/// Copies external engines' per-game stderr logs (`engines/<player>/game-<index>.stderr.log`)
/// of the merged games: game indices are unique across shards, so nothing collides.
fn copy_engine_logs(set: &ShardSet, merged: &Merged, out: &Path) -> Result<(), MergeError> {
    for run in set.shards.iter().flatten() {
        let engines = run.dir.join("engines");
        let Ok(players) = std::fs::read_dir(&engines) else {
            continue;
        };
        for player in players {
            let player = player.map_err(io(&engines))?;
            let from = player.path();
            if !from.is_dir() {
                continue;
            }
            let to = out.join("engines").join(player.file_name());
            std::fs::create_dir_all(&to).map_err(io(&to))?;
            for log in std::fs::read_dir(&from).map_err(io(&from))? {
                let log = log.map_err(io(&from))?;
                let name = log.file_name();
                let keep = name
                    .to_str()
                    .and_then(|n| n.strip_prefix("game-"))
                    .and_then(|n| n.split('.').next())
                    .and_then(|n| n.parse::<u64>().ok())
                    .map_or(true, |g| merged.records.contains_key(&g));
                if keep {
                    let target = to.join(&name);
                    std::fs::copy(log.path(), &target).map_err(io(&target))?;
                }
            }
        }
    }
    Ok(())
}
