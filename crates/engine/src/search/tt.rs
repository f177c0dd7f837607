//! Transposition table: fixed size in MB, one entry per slot in buckets of 4, replacement by
//! depth and age. The table is lockless so that the threads of a Lazy SMP search share it
//! without `unsafe`: each slot is a 64-bit data word and a 32-bit check word holding the key's
//! upper half xor-ed with both halves of the data, all read and written with relaxed atomics.
//! A slot torn by two threads writing at once then fails the key check (but for a 2^-32
//! chance) and reads as another position's entry, which the search already tolerates.

use crate::xiangqi::types::Move;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

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

    /// The data word: move, score, evaluation, depth and flags, 16+16+16+8+8 bits.
    fn pack(&self) -> u64 {
        u64::from(self.mv.0)
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth as u8) << 48
            | u64::from(self.flags) << 56
    }

    fn unpack(key: u32, data: u64) -> Entry {
        Entry {
            key,
            mv: Move(data as u16),
            score: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8 as i8,
            flags: (data >> 56) as u8,
        }
    }
}

/// Both halves of a data word xor-ed: what the check word hides the key under.
#[inline]
fn fold(data: u64) -> u32 {
    data as u32 ^ (data >> 32) as u32
}

const BUCKET: usize = 4;

/// Four slots, 48 bytes as the plain entries they replaced (so a size in MB gives the same
/// number of buckets, and one thread searches exactly as it did before the table was shared).
#[derive(Default)]
struct Bucket {
    checks: [AtomicU32; BUCKET],
    data: [AtomicU64; BUCKET],
}

impl Bucket {
    #[inline]
    fn load(&self, i: usize) -> Entry {
        let data = self.data[i].load(Ordering::Relaxed);
        let check = self.checks[i].load(Ordering::Relaxed) ^ fold(data);
        Entry::unpack(check, data)
    }

    #[inline]
    fn save(&self, i: usize, e: &Entry) {
        let data = e.pack();
        self.data[i].store(data, Ordering::Relaxed);
        self.checks[i].store(e.key ^ fold(data), Ordering::Relaxed);
    }
}

/// Largest table in MB (4 GiB). Far above what this engine's searches fill, and small enough
/// that a typo (`tt_mb = 65536`, 48 GiB once rounded) is refused by the callers, which check
/// this before allocating, instead of aborting the process on a failed allocation.
pub const MAX_TT_MB: usize = 4096;

/// A handle on a table: the one [`TranspositionTable::new`] returns owns the table's
/// generations (it clears and ages it); [`TranspositionTable::share`] gives further handles
/// on the same table for helper threads, which probe and store but leave clearing and ageing
/// to the owner.
pub struct TranspositionTable {
    // Two allocations rather than one holding both, so that a probe follows one pointer.
    buckets: Arc<[Bucket]>,
    age: Arc<AtomicU8>,
    mask: usize,
    owner: bool,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (rounded down to a power of two of buckets; at least one,
    /// at most [`MAX_TT_MB`]: callers refuse larger sizes before getting here).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.clamp(1, MAX_TT_MB) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let buckets = if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        };
        TranspositionTable {
            buckets: (0..buckets).map(|_| Bucket::default()).collect(),
            age: Arc::new(AtomicU8::new(0)),
            mask: buckets - 1,
            owner: true,
        }
    }

    /// A helper's handle on the same table: its probes and stores go to this table, its
    /// [`clear`](Self::clear) and [`new_search`](Self::new_search) do nothing.
    pub fn share(&self) -> TranspositionTable {
        TranspositionTable {
            buckets: Arc::clone(&self.buckets),
            age: Arc::clone(&self.age),
            mask: self.mask,
            owner: false,
        }
    }

    /// Whether `other` is a handle on this very table.
    pub fn same_table(&self, other: &TranspositionTable) -> bool {
        Arc::ptr_eq(&self.buckets, &other.buckets)
    }

    /// Forgets everything (the owner's handle only).
    pub fn clear(&mut self) {
        if !self.owner {
            return;
        }
        match Arc::get_mut(&mut self.buckets) {
            // Alone on the table (one thread): plain stores, which compile to a memset.
            Some(buckets) => buckets.iter_mut().for_each(|b| *b = Bucket::default()),
            None => {
                for b in self.buckets.iter() {
                    for i in 0..BUCKET {
                        b.save(i, &Entry::default());
                    }
                }
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search, older entries becoming preferred victims (the owner's handle
    /// only).
    pub fn new_search(&self) {
        if self.owner {
            let age = self.age.load(Ordering::Relaxed);
            self.age.store((age + 1) & 0x3f, Ordering::Relaxed);
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[key as usize & self.mask]
    }

    /// Looks up a position.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        let check = (key >> 32) as u32;
        // The first non-empty slot of this key, unpacked only once found.
        (0..BUCKET).find_map(|i| {
            let data = b.data[i].load(Ordering::Relaxed);
            (data >> 56 & 3 != 0 && b.checks[i].load(Ordering::Relaxed) ^ fold(data) == check)
                .then(|| Entry::unpack(check, data))
        })
    }

    /// Stores a result.
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let check = (key >> 32) as u32;
        let age = self.age.load(Ordering::Relaxed);
        let bucket: [Entry; BUCKET] = std::array::from_fn(|i| b.load(i));
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
        let e = &bucket[slot];
        // Keep a deeper entry for the same position unless the new one is exact.
        if e.key == check && !e.is_empty() && bound != Bound::Exact && depth < e.depth as i32 - 2 {
            return;
        }
        let keep_move = mv.is_none() && e.key == check;
        let new = Entry {
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
        b.save(slot, &new);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_is_as_large_as_four_plain_entries() {
        // The bucket count of a size in MB, hence one thread's search, depends on it.
        assert_eq!(std::mem::size_of::<Bucket>(), 4 * 12);
    }

    #[test]
    fn entries_pack_and_unpack_every_field() {
        let e = Entry {
            key: 0xdead_beef,
            mv: Move(0x3fff),
            score: -29_999,
            eval: 1234,
            depth: -1,
            flags: 0xfd,
        };
        let b = Bucket::default();
        b.save(2, &e);
        let back = b.load(2);
        assert_eq!(
            (back.key, back.mv, back.score, back.eval, back.depth, back.flags),
            (e.key, e.mv, e.score, e.eval, e.depth, e.flags)
        );
        assert!(b.load(0).is_empty());
    }

    #[test]
    fn a_torn_slot_fails_the_key_check() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_0000_0007u64;
        tt.store(key, Move(77), 50, 40, 5, Bound::Exact);
        assert_eq!(tt.probe(key).map(|e| e.mv), Some(Move(77)));
        // Another position's data word over this check word, as two racing writers leave it.
        let other = Entry {
            key: 0x0bad_cafe,
            mv: Move(99),
            score: 10,
            eval: 0,
            depth: 9,
            flags: 1,
        };
        tt.bucket(key).data[0].store(other.pack(), Ordering::Relaxed);
        assert!(tt.probe(key).is_none());
    }

    #[test]
    fn shared_handles_see_each_other_and_only_the_owner_clears() {
        let mut owner = TranspositionTable::new(1);
        let mut helper = owner.share();
        assert!(owner.same_table(&helper));
        assert!(!owner.same_table(&TranspositionTable::new(1)));
        helper.store(42 << 32 | 5, Move(300), -7, 3, 4, Bound::Lower);
        let e = owner.probe(42 << 32 | 5).expect("the helper's store");
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound()),
            (Move(300), -7, 4, Bound::Lower)
        );
        helper.clear();
        assert!(owner.probe(42 << 32 | 5).is_some());
        helper.new_search();
        assert_eq!(owner.age.load(Ordering::Relaxed), 0);
        owner.new_search();
        assert_eq!(owner.age.load(Ordering::Relaxed), 1);
        owner.clear();
        assert!(helper.probe(42 << 32 | 5).is_none());
    }

    #[test]
    fn threads_storing_at_once_leave_only_whole_entries() {
        // Every thread stores entries whose score is a function of the key: whatever races
        // happen, a probe that answers must answer a consistent entry.
        let tt = TranspositionTable::new(1);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let h = tt.share();
                s.spawn(move || {
                    for i in 0..20_000u64 {
                        let key = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ t;
                        let score = (key >> 40) as i32 & 0x3fff;
                        h.store(
                            key,
                            Move(key as u16 & 0x3fff),
                            score,
                            -score,
                            3,
                            Bound::Exact,
                        );
                        if let Some(e) = h.probe(key ^ 1) {
                            assert_eq!(i32::from(e.score), ((key ^ 1) >> 40) as i32 & 0x3fff);
                            assert_eq!(e.eval, -e.score);
                        }
                    }
                });
            }
        });
    }
}
