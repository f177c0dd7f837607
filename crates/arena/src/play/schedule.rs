//! The schedule: which players meet, in which game pairs (one opening, colours swapped), with
//! which seeds. Everything is a pure function of the run seed and the game index, so results
//! never depend on concurrency or on the order in which games finish.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// SplitMix64: a strong 64-bit mixer, used to derive independent seeds.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of game `index` in a run seeded by `run_seed`.
pub fn game_seed(run_seed: u64, index: u64) -> u64 {
    splitmix64(splitmix64(run_seed) ^ index)
}

/// Two players (indices into the run's player list) and how many game pairs they play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// Plays Red in the first game of each pair.
    pub first: usize,
    /// Plays Red in the second game of each pair.
    pub second: usize,
    /// Game pairs to play.
    pub pairs: u64,
}

/// Every pairing of a round robin among `players` players, `pairs` pairs each.
pub fn round_robin(players: usize, pairs: u64) -> Vec<Pairing> {
    let mut out = Vec::new();
    for first in 0..players {
        for second in first + 1..players {
            out.push(Pairing {
                first,
                second,
                pairs,
            });
        }
    }
    out
}

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Global game index: `2 * pair + game_in_pair`.
    pub index: u64,
    /// Global pair index (also the opening index).
    pub pair: u64,
    /// Which pairing this pair belongs to.
    pub pairing: usize,
    /// Player index playing Red.
    pub red: usize,
    /// Player index playing Black.
    pub black: usize,
    /// The game's seed.
    pub seed: u64,
}

impl GameSpec {
    /// 0 for the first game of a pair, 1 for the colour-swapped second.
    pub fn game_in_pair(&self) -> u64 {
        self.index % 2
    }
}

/// A shard `i/n`: this machine plays pairs whose index is `i` modulo `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, 0-based.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("--shard '{s}': expected i/n with 0 <= i < n, e.g. 0/4");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The whole run's games in index order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The pairings.
    pub pairings: Vec<Pairing>,
    /// Games, two per pair, in index order.
    pub games: Vec<GameSpec>,
    /// Number of pairs (and openings) the schedule uses, shard or not.
    pub total_pairs: u64,
}

impl Schedule {
    /// Lays out pairs round by round (one pair of each pairing that still has pairs left per
    /// round), so an early stop or a shard sees every pairing. Pair `k` uses opening `k`; its
    /// first game gives Red to the pairing's `first`, the second to `second`.
    pub fn new(pairings: Vec<Pairing>, run_seed: u64, shard: Option<Shard>) -> Schedule {
        let mut games = Vec::new();
        let rounds = pairings.iter().map(|p| p.pairs).max().unwrap_or(0);
        let mut pair = 0u64;
        for round in 0..rounds {
            for (pi, p) in pairings.iter().enumerate() {
                if round >= p.pairs {
                    continue;
                }
                let in_shard = shard.map_or(true, |s| pair % s.count == s.index);
                if in_shard {
                    for g in 0..2 {
                        let index = 2 * pair + g;
                        let (red, black) = if g == 0 {
                            (p.first, p.second)
                        } else {
                            (p.second, p.first)
                        };
                        games.push(GameSpec {
                            index,
                            pair,
                            pairing: pi,
                            red,
                            black,
                            seed: game_seed(run_seed, index),
                        });
                    }
                }
                pair += 1;
            }
        }
        Schedule {
            pairings,
            games,
            total_pairs: pair,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_colours_and_seeds_depend_on_index_only() {
        let s = Schedule::new(round_robin(3, 2), 9, None);
        assert_eq!(s.total_pairs, 6);
        assert_eq!(s.games.len(), 12);
        for w in s.games.chunks(2) {
            assert_eq!(w[0].pair, w[1].pair);
            assert_eq!((w[0].red, w[0].black), (w[1].black, w[1].red));
            assert_ne!(w[0].seed, w[1].seed);
        }
        for (i, g) in s.games.iter().enumerate() {
            assert_eq!(g.index, i as u64);
            assert_eq!(g.seed, game_seed(9, i as u64));
        }
        // Round by round: the first three pairs cover the three pairings.
        let firsts: Vec<usize> = s.games.iter().step_by(2).map(|g| g.pairing).collect();
        assert_eq!(firsts, vec![0, 1, 2, 0, 1, 2]);
    }

    #[test]
    fn shards_partition_the_pairs() {
        let all = Schedule::new(round_robin(2, 10), 1, None);
        let mut seen = Vec::new();
        for i in 0..3 {
            let s = Schedule::new(round_robin(2, 10), 1, Some(Shard { index: i, count: 3 }));
            seen.extend(s.games);
        }
        seen.sort_by_key(|g| g.index);
        assert_eq!(seen, all.games);
        assert!("3/3".parse::<Shard>().is_err());
        assert_eq!("1/4".parse::<Shard>(), Ok(Shard { index: 1, count: 4 }));
    }
}
