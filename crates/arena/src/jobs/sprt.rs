//! The SPRT of `chuhan sprt` as a stop rule over complete game pairs in pair-index order: the
//! one rule a single-machine run and a merge of shard folders both apply, so both stop at the
//! same pair with the same verdict.

use crate::play::results::{ResultsDir, RunConfig, SprtSettings, GAMES_HEADER};
use crate::play::runner::{PlayedGame, StopRule};
use crate::play::schedule::Shard;
use crate::play::setup::config_differences;
use crate::report::first_score;
use crate::stats::{Pentanomial, Sprt, SprtDecision, SprtError};
use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

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
            .is_some_and(|llr| self.sprt.verdict(llr) != SprtDecision::Continue)
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

/// What a shard's [`JointStop`] saw when it fired.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointDecision {
    /// The pair of the whole run at which the joint LLR crossed a bound.
    pub stopped_at: u64,
    /// The verdict.
    pub verdict: SprtDecision,
    /// Shard folders whose games were read (this one included).
    pub shards: usize,
}

/// How often a [`JointStop`] reads its siblings at least: a check costs a directory listing
/// and the rows written since the last one.
const JOINT_CHECK_INTERVAL: std::time::Duration = std::time::Duration::from_millis(500);

/// The stop rule of one shard of an SPRT: every so often (its own pair counts 1, 2, 4, 8, ...
/// and at least every half second) it reads the games its sibling shards have written into the
/// folders next to its own (a shared run folder: every folder of `parent` holding a shard of
/// the same run), and feeds the complete pairs of the whole run, in pair-index order from pair
/// 0 up to the first one not yet played, to the single-machine rule ([`SprtStop`]). When that
/// crosses a bound the shard stops: the verdict is then fixed, since no later game can change
/// the pairs before it, and `chuhan merge` (which decides) finds the same pair. Only whole
/// lines are read (a sibling may be writing its last one), each file from where the last check
/// left it, so a check costs the new rows only.
pub struct JointStop {
    own: PathBuf,
    config: RunConfig,
    shard: Shard,
    rule: SprtStop,
    scores: HashMap<u64, f64>,
    next_pair: u64,
    total_pairs: u64,
    files: HashMap<PathBuf, Option<SiblingFile>>,
    own_pairs: u64,
    last_check: Instant,
    decision: Arc<Mutex<Option<JointDecision>>>,
}

struct SiblingFile {
    shard: Shard,
    offset: u64,
}

impl JointStop {
    /// The rule for the shard of `config` written to `own`, with the handle that tells what it
    /// saw when it fired.
    pub fn new(
        own: &Path,
        config: &RunConfig,
        sprt: Sprt,
        total_pairs: u64,
    ) -> Option<(JointStop, Arc<Mutex<Option<JointDecision>>>)> {
        let shard = config.shard?;
        let mut config = config.clone();
        config.shard = None;
        let decision = Arc::new(Mutex::new(None));
        Some((
            JointStop {
                own: own.to_path_buf(),
                config,
                shard,
                rule: SprtStop::new(sprt),
                scores: HashMap::new(),
                next_pair: 0,
                total_pairs,
                files: HashMap::new(),
                own_pairs: 0,
                last_check: Instant::now(),
                decision: decision.clone(),
            },
            decision,
        ))
    }

    /// Reads what the shards wrote since the last check and feeds the pairs now complete in
    /// order to the rule; the pair it stopped at, if it did.
    fn check(&mut self) -> Option<u64> {
        let parent = self
            .own
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(parent)
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.join("games.csv").is_file())
                    .collect()
            })
            .unwrap_or_default();
        if !dirs.iter().any(|d| same_folder(d, &self.own)) {
            dirs.push(self.own.clone());
        }
        for dir in dirs {
            if !self.files.contains_key(&dir) {
                let sibling = self.sibling(&dir);
                self.files.insert(dir.clone(), sibling);
            }
            self.read_new_rows(&dir);
        }
        while self.next_pair < self.total_pairs {
            let (Some(&a), Some(&b)) = (
                self.scores.get(&(2 * self.next_pair)),
                self.scores.get(&(2 * self.next_pair + 1)),
            ) else {
                break;
            };
            let pair = self.next_pair;
            self.next_pair += 1;
            if self.rule.add_pair(0, a, b) {
                return Some(pair);
            }
        }
        None
    }

    /// `dir` as a shard of this run (its manifest's configuration equal to ours apart from the
    /// shard, the same shard count), or `None` for anything else: a folder still being
    /// created is looked at again only if it shows up with a manifest later.
    fn sibling(&self, dir: &Path) -> Option<SiblingFile> {
        let manifest = ResultsDir::read_manifest(dir).ok()?;
        let shard = manifest.config.shard?;
        let mut config = manifest.config;
        config.shard = None;
        (shard.count == self.shard.count && config_differences(&config, &self.config).is_empty())
            .then_some(SiblingFile { shard, offset: 0 })
    }

    fn read_new_rows(&mut self, dir: &Path) {
        let Some(Some(file)) = self.files.get(dir) else {
            return;
        };
        let (shard, offset) = (file.shard, file.offset);
        let Ok(mut f) = std::fs::File::open(dir.join("games.csv")) else {
            return;
        };
        let mut bytes = Vec::new();
        if f.seek(SeekFrom::Start(offset)).is_err() || f.read_to_end(&mut bytes).is_err() {
            return;
        }
        // Whole lines only: the last one may be half-written.
        let Some(end) = bytes.iter().rposition(|&b| b == b'\n') else {
            return;
        };
        let chunk = &bytes[..=end];
        let rows: &[u8] = if offset == 0 {
            match chunk.iter().position(|&b| b == b'\n') {
                Some(h) if &chunk[..h] == GAMES_HEADER.as_bytes() => &chunk[h + 1..],
                _ => {
                    // Not a games file of ours: never read again.
                    self.files.insert(dir.to_path_buf(), None);
                    return;
                }
            }
        } else {
            chunk
        };
        if let Some(Some(file)) = self.files.get_mut(dir) {
            file.offset += chunk.len() as u64;
        }
        let header = csv::StringRecord::from(GAMES_HEADER.split(',').collect::<Vec<_>>());
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(rows);
        for record in reader.records().flatten() {
            let Ok(row) = record.deserialize::<PlayedGame>(Some(&header)) else {
                continue;
            };
            // Only the games of the sibling's own shard (the merge checks the rest).
            if row.pair % shard.count == shard.index && row.pair == row.game / 2 {
                self.scores.insert(row.game, first_score(&row));
            }
        }
    }
}

fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

impl StopRule for JointStop {
    fn add_pair(&mut self, _pairing: usize, _first: f64, _second: f64) -> bool {
        self.own_pairs += 1;
        let due =
            self.own_pairs.is_power_of_two() || self.last_check.elapsed() >= JOINT_CHECK_INTERVAL;
        if !due {
            return false;
        }
        self.last_check = Instant::now();
        let Some(stopped_at) = self.check() else {
            return false;
        };
        let llr = self.rule.sprt.llr_pentanomial(&self.rule.pairs);
        let shards = self.files.values().filter(|f| f.is_some()).count();
        *self.decision.lock().unwrap_or_else(|e| e.into_inner()) = Some(JointDecision {
            stopped_at,
            verdict: llr.map_or(SprtDecision::Continue, |l| self.rule.sprt.verdict(l)),
            shards,
        });
        true
    }
}
