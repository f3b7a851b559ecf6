//! The move vocabulary of the Othello searches: scores, moves with their flips and
//! ordering values, move lists, quadrant parity and the fastest-first ordering every
//! search shares. The bottom layer: it imports nothing from the searches.

use bitboards::othello::flips;
use bitboards::othello::geometry::CORNERS;
use bitboards::othello::movegen::{moves, potential_moves};
use bitboards::othello::squares;

use super::stability::{corner_stability, edge_stable};

/// A score beyond any real one.
pub const INF: i32 = 127;

/// Quadrant bit of each square (top-left 1, top-right 2, bottom-left 4, bottom-right 8).
pub const QUADRANT: [u8; 64] = {
    let mut q = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        q[sq] = 1 << ((sq / 32) * 2 + (sq % 8) / 4);
        sq += 1;
    }
    q
};

/// Squares of the quadrants whose bits are set.
pub const QUADRANT_SQUARES: [u64; 16] = {
    let quads = [0x0000_0000_0F0F_0F0F_u64, 0x0000_0000_F0F0_F0F0, 0x0F0F_0F0F_0000_0000, 0xF0F0_F0F0_0000_0000];
    let mut out = [0u64; 16];
    let mut set = 0;
    while set < 16 {
        let mut i = 0;
        while i < 4 {
            if set >> i & 1 == 1 {
                out[set] |= quads[i];
            }
            i += 1;
        }
        set += 1;
    }
    out
};

/// The parity word of a set of empties: bit q set when quadrant q has an odd count.
pub fn parity_of(empties: u64) -> u8 {
    let mut parity = 0;
    for q in 0..4 {
        if (empties & QUADRANT_SQUARES[1 << q]).count_ones() & 1 == 1 {
            parity |= 1 << q;
        }
    }
    parity
}

/// Final score of a finished game for the side to move (empties to the winner).
#[inline]
pub fn final_score(p: u64, o: u64) -> i32 {
    let pc = p.count_ones() as i32;
    let oc = o.count_ones() as i32;
    let diff = pc - oc;
    let empties = 64 - pc - oc;
    if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    }
}

/// The board after `p` plays `sq` flipping `f`, seen by the opponent.
#[inline(always)]
pub fn child(p: u64, o: u64, sq: u8, f: u64) -> (u64, u64) {
    (o ^ f, p ^ f ^ (1u64 << sq))
}

/// Legal moves of `(p, o)` in search order: the table's move, then fastest-first.
pub fn ordered_moves(p: u64, o: u64, parity: u8, n: u32, hash_move: u8) -> MoveList {
    let mut list = MoveList::generate(p, o, moves(p, o));
    let first = list.take(hash_move);
    fast_sort(&mut list, p, o, parity, n);
    if let Some(m) = first {
        list.insert_first(m);
    }
    list
}

/// Sorts `list` (moves of `(p, o)`) fastest-first, by [`ordering_score`].
pub fn fast_sort(list: &mut MoveList, p: u64, o: u64, parity: u8, n: u32) {
    for m in list.iter_mut() {
        let (cp, co) = child(p, o, m.sq, m.flips);
        m.score = ordering_score(cp, co, m.sq, parity, n);
    }
    list.sort();
}

/// The number of `moves`, corners counted twice: the mobility that fastest-first
/// ordering minimises for the opponent.
#[inline(always)]
pub fn weighted_mobility(moves: u64) -> i32 {
    (moves.count_ones() + (moves & CORNERS).count_ones()) as i32
}

/// Fastest-first ordering value of a move leading to `(cp, co)` (the opponent to
/// move): few opponent moves (corners count double), few potential moves, own discs
/// anchored at corners and stable on the edges, odd quadrants. (The edge term: FFO
/// #45–#52 on one thread, 1.81 G → 1.77 G nodes, fewer on 7 of the 8.)
#[inline]
pub fn ordering_score(cp: u64, co: u64, sq: u8, parity: u8, n: u32) -> i32 {
    if cp == 0 {
        return 1 << 29; // wipe-out
    }
    let mobility = weighted_mobility(moves(cp, co));
    let potential = potential_moves(cp, co).count_ones() as i32;
    let mut score = (36 - mobility) * (1 << 15) + (36 - potential) * (1 << 5);
    score += (corner_stability(co) + edge_stable(co, cp).count_ones()) as i32 * (1 << 11);
    if parity & QUADRANT[sq as usize] != 0 {
        score += if n < 12 { 1 << 3 } else { 1 << 2 };
    }
    score
}

/// A move with its flips and ordering value.
#[derive(Clone, Copy, Debug)]
pub struct Move {
    /// The square.
    pub sq: u8,
    /// The discs it flips.
    pub flips: u64,
    /// Ordering value (higher first).
    pub score: i32,
    /// The opponent's moves after it, where the ordering computed them (else 0).
    pub replies: u64,
}

/// Up to `N` moves: by default 40, more than any 8×8 position has; the searches near
/// the leaves use a list as short as their number of empties.
pub struct MoveList<const N: usize = 40> {
    moves: arrayvec::ArrayVec<Move, N>,
}

impl<const N: usize> MoveList<N> {
    /// An empty list.
    pub fn new() -> MoveList<N> {
        MoveList { moves: arrayvec::ArrayVec::new() }
    }
    /// Adds a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves.push(m);
    }
    /// The moves in their current order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves.iter()
    }
    /// The moves as a slice.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }
    /// The moves of `(p, o)` whose squares are set in `legal`, with their flips,
    /// unsorted.
    #[inline]
    pub fn generate(p: u64, o: u64, legal: u64) -> MoveList<N> {
        let mut list = MoveList::new();
        list.add_moves(p, o, legal);
        list
    }
    /// Appends the moves of `(p, o)` whose squares are set in `legal`, with their
    /// flips. (Filling a list in place saves copying it out of [`Self::generate`].)
    #[inline]
    pub fn add_moves(&mut self, p: u64, o: u64, legal: u64) {
        for sq in squares(legal) {
            self.push(Move { sq, flips: flips::flips(p, o, sq), score: 0, replies: 0 });
        }
    }
    /// Removes and returns the move on `sq`, if the list has it.
    #[inline]
    pub fn take(&mut self, sq: u8) -> Option<Move> {
        let i = self.moves.iter().position(|m| m.sq == sq)?;
        Some(self.moves.remove(i))
    }
    /// Puts `m` in front of the others.
    #[inline]
    pub fn insert_first(&mut self, m: Move) {
        self.moves.insert(0, m);
    }
    /// The moves, to set their ordering values.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Move> {
        self.moves.iter_mut()
    }
    /// Sorts by decreasing ordering value (stable, insertion sort: lists are short).
    pub fn sort(&mut self) {
        let m = &mut self.moves;
        for i in 1..m.len() {
            let x = m[i];
            let mut j = i;
            while j > 0 && m[j - 1].score < x.score {
                m[j] = m[j - 1];
                j -= 1;
            }
            m[j] = x;
        }
    }
}

impl<const N: usize> Default for MoveList<N> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quadrants_cover_the_board() {
        assert_eq!(QUADRANT_SQUARES[15], u64::MAX);
        assert_eq!(parity_of(u64::MAX), 0);
        assert_eq!(parity_of(1), 1);
        assert_eq!(parity_of(1 << 63), 8);
    }
}
