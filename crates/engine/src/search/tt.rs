//! Transposition table: fixed size in MB, one entry per slot in buckets of 4, replacement by
//! depth and age.

use crate::xiangqi::types::Move;

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Exact score (PV node).
    Exact,
    /// Score is a lower bound (fail high).
    Lower,
    /// Score is an upper bound (fail low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    key: u32,
    /// Best or refutation move.
    pub mv: Move,
    /// Score (mate scores relative to this node).
    pub score: i16,
    /// Static evaluation.
    pub eval: i16,
    /// Depth searched.
    pub depth: i8,
    flags: u8,
}

impl Entry {
    /// The bound type.
    pub fn bound(&self) -> Bound {
        match self.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        }
    }
    fn age(&self) -> u8 {
        self.flags >> 2
    }
    fn is_empty(&self) -> bool {
        self.flags & 3 == 0
    }
}

const BUCKET: usize = 4;

/// Largest table in MB (4 GiB). Far above what this engine's searches fill, and small enough
/// that a typo (`tt_mb = 65536`, 48 GiB once rounded) is refused by the callers, which check
/// this before allocating, instead of aborting the process on a failed allocation.
pub const MAX_TT_MB: usize = 4096;

/// The table.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (rounded down to a power of two of buckets; at least one,
    /// at most [`MAX_TT_MB`]: callers refuse larger sizes before getting here).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.clamp(1, MAX_TT_MB) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Entry>() / BUCKET).max(1);
        let buckets = if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        };
        TranspositionTable {
            entries: vec![Entry::default(); buckets * BUCKET],
            mask: buckets - 1,
            age: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = Entry::default());
        self.age = 0;
    }

    /// Starts a new search (older entries become preferred victims).
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 0x3f;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) * BUCKET
    }

    /// Looks up a position.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        let check = (key >> 32) as u32;
        self.entries[b..b + BUCKET]
            .iter()
            .find(|e| !e.is_empty() && e.key == check)
            .copied()
    }

    /// Stores a result.
    #[inline]
    pub fn store(&mut self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let check = (key >> 32) as u32;
        let age = self.age;
        let bucket = &mut self.entries[b..b + BUCKET];
        let slot = match bucket.iter().position(|e| e.is_empty() || e.key == check) {
            Some(i) => i,
            None => {
                // Replace the shallowest entry, preferring stale ones.
                let mut best = 0;
                let mut best_value = i32::MAX;
                for (i, e) in bucket.iter().enumerate() {
                    let stale = if e.age() != age { 0 } else { 256 };
                    let value = e.depth as i32 + stale;
                    if value < best_value {
                        best_value = value;
                        best = i;
                    }
                }
                best
            }
        };
        let e = &mut bucket[slot];
        // Keep a deeper entry for the same position unless the new one is exact.
        if e.key == check && !e.is_empty() && bound != Bound::Exact && depth < e.depth as i32 - 2 {
            return;
        }
        let keep_move = mv.is_none() && e.key == check;
        *e = Entry {
            key: check,
            mv: if keep_move { e.mv } else { mv },
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-1, 127) as i8,
            flags: (match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            }) | (age << 2),
        };
    }
}
