//! The fixed-capacity move list that every game's generator fills (no allocation). Each game
//! names its own list, `MoveList<its Move, its MAX_MOVES>`, as `xiangqi::movegen::MoveList` and
//! `chess::movegen::MoveList`.

/// A move type a [`MoveList`] can hold: `NONE` fills the unused slots.
pub trait ListedMove: Copy + PartialEq + std::fmt::Debug {
    /// The null move.
    const NONE: Self;
}

/// A fixed-capacity list of up to `N` moves.
#[derive(Clone)]
pub struct MoveList<M: ListedMove, const N: usize> {
    // The xiangqi generator's legal filter compacts the list in place.
    pub(crate) moves: [M; N],
    pub(crate) len: usize,
}

impl<M: ListedMove, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        MoveList::new()
    }
}

impl<M: ListedMove, const N: usize> std::fmt::Debug for MoveList<M, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<M: ListedMove, const N: usize> MoveList<M, N> {
    /// An empty list.
    #[inline]
    pub const fn new() -> Self {
        MoveList {
            moves: [M::NONE; N],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, mv: M) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[M] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }

    /// Iterates over the moves.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }

    /// Whether the list holds `mv`.
    #[inline]
    pub fn contains(&self, mv: M) -> bool {
        self.as_slice().contains(&mv)
    }

    /// Keeps only the moves for which `keep` returns true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(M) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }
}

impl<'a, M: ListedMove, const N: usize> IntoIterator for &'a MoveList<M, N> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
