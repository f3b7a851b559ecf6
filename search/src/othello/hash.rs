//! What the Othello searches keep in the transposition table, and the board hash.

use crate::tt::Entry;

/// Selectivity of an exact (unpruned) search.
pub const EXACT: u8 = 255;

/// "No move" in an entry.
pub const NO_MOVE: u8 = 64;

/// One table entry: bounds on the score (in discs) of a position searched to `depth`
/// plies with pruning level `selectivity`, the best move found, how many nodes the
/// search cost (log2, the replacement priority) and the generation that stored it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashEntry {
    /// The score is at least this.
    pub lower: i8,
    /// The score is at most this.
    pub upper: i8,
    /// Best move found, or [`NO_MOVE`].
    pub best: u8,
    /// Depth searched (empties for an exact solve).
    pub depth: u8,
    /// [`EXACT`] for searches without forward pruning.
    pub selectivity: u8,
    /// log2 of the nodes searched below.
    pub cost: u8,
    /// The search generation.
    pub generation: u8,
}

impl Entry for HashEntry {
    fn pack(self) -> u64 {
        (self.lower as u8 as u64)
            | (self.upper as u8 as u64) << 8
            | (self.best as u64) << 16
            | (self.depth as u64) << 24
            | (self.selectivity as u64) << 32
            | (self.cost as u64) << 40
            | (self.generation as u64) << 48
            | 1 << 63
    }

    fn unpack(d: u64) -> Self {
        HashEntry {
            lower: d as u8 as i8,
            upper: (d >> 8) as u8 as i8,
            best: (d >> 16) as u8,
            depth: (d >> 24) as u8,
            selectivity: (d >> 32) as u8,
            cost: (d >> 40) as u8,
            generation: (d >> 48) as u8,
        }
    }

    fn priority(d: u64) -> u8 {
        (d >> 40) as u8
    }

    fn generation(d: u64) -> u8 {
        (d >> 48) as u8
    }
}

/// A 64-bit hash of a side-relative board, for the transposition table: two
/// multiplications and a finaliser (cheaper than the byte-sliced Zobrist hash, and
/// the table only needs a well-mixed key).
#[inline(always)]
pub fn board_hash(player: u64, opponent: u64) -> u64 {
    let a = player.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let b = opponent.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    let mut h = a ^ b.rotate_left(29);
    h = (h ^ (h >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 29)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let e = HashEntry { lower: -64, upper: 12, best: 63, depth: 24, selectivity: EXACT, cost: 30, generation: 200 };
        assert_eq!(HashEntry::unpack(e.pack()), e);
        assert_ne!(e.pack(), 0);
    }

    #[test]
    fn hash_separates_colours() {
        assert_ne!(board_hash(1, 2), board_hash(2, 1));
        assert_ne!(board_hash(0, 1), board_hash(1, 0));
    }
}
