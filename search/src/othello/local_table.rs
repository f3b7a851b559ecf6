//! A small per-thread table for the sorted searches near the leaves
//! ([`LOCAL_MIN_EMPTIES`] to [`LOCAL_MAX_EMPTIES`] empties), where the shared
//! transposition table costs more than it saves.
//!
//! Two move orders often reach the same position a few plies down (moves in
//! different regions commute), and without a table the shallow searches solve it
//! again. This table is direct-mapped, one slot per hash, one block of slots per
//! number of empties, and owned by one thread: no locks, no torn writes, no
//! prefetch. A slot holds the position's 64-bit hash as its key (as the shared
//! table does: a false match needs two positions with the same number of empties
//! and the same 64 bits) and the bounds of the exact score, 16 bytes in all; the
//! shallow searches never prune, so the bounds hold for every search of every
//! selectivity, and the table is never cleared. (The full position as the key, 24
//! bytes a slot, a third of them across two cache lines: FFO #45–#52 one thread,
//! paired runs, the same nodes and 0.944–0.965 of the time with the hash.)

use std::cell::RefCell;

use super::hash::board_hash;
use super::params;

/// Fewest empties whose positions are stored.
pub const LOCAL_MIN_EMPTIES: u32 = params::SORTED_SHALLOW_MIN;

/// Most empties whose positions are stored (the shallow searches' limit).
pub const LOCAL_MAX_EMPTIES: u32 = params::SHALLOW_MAX;

/// log2 of the slots per number of empties. The transpositions it catches are
/// close together in the search: on FFO #45, #46, #48–#50 (one thread, the table
/// then at 6–8 empties), 2^13 slots saved 13% of the nodes, 2^9 almost as many;
/// 2^11 (48 KiB per number of empties, in the core's L2 cache) was the fastest,
/// 7–9% faster than no table, while 2^13 saved no time at all. With the table at
/// 6–11 empties and probed for the children from 8 (`endgame.rs`), 2^10 (24 KiB per
/// number of empties): FFO #45–#52 one thread, paired runs, 1.164 G → 1.174 G nodes
/// and 0.97 of the time of 2^11 (four rounds); 2^9 1.185 G nodes, no faster than
/// 2^10; 2^12 1.156 G nodes, 1.02 of the time of 2^11.
const SLOT_BITS: u32 = 10;

/// One position, known by its 64-bit hash, and the bounds proven for it: 16 bytes,
/// aligned, so that a probe reads one cache line.
#[derive(Clone, Copy, Default)]
#[repr(align(16))]
struct Slot {
    key: u64,
    lower: i8,
    upper: i8,
}

/// Where a position goes in the table: its slot and its key, computed once per node
/// for its probe and its store.
#[derive(Clone, Copy)]
pub struct Place {
    index: usize,
    key: u64,
}

/// The table of one thread (see the module documentation).
pub struct LocalTable {
    slots: Box<[Slot]>,
}

impl LocalTable {
    fn allocate() -> LocalTable {
        let blocks = (LOCAL_MAX_EMPTIES - LOCAL_MIN_EMPTIES + 1) as usize;
        LocalTable { slots: vec![Slot::default(); blocks << SLOT_BITS].into_boxed_slice() }
    }

    /// A table without slots (no allocation), to stand in for one given back; it
    /// must not be probed.
    pub fn placeholder() -> LocalTable {
        LocalTable { slots: Box::default() }
    }

    /// The place of `(p, o)` with `n` empties.
    #[inline(always)]
    pub fn place(p: u64, o: u64, n: u32) -> Place {
        let key = board_hash(p, o);
        Place { index: (((n - LOCAL_MIN_EMPTIES) as usize) << SLOT_BITS) | (key >> (64 - SLOT_BITS)) as usize, key }
    }

    /// The bounds `(lower, upper)` stored for the position at `at`, if any.
    #[inline]
    pub fn probe(&self, at: Place) -> Option<(i32, i32)> {
        let slot = &self.slots[at.index];
        (slot.key == at.key).then_some((slot.lower as i32, slot.upper as i32))
    }

    /// Stores the bounds `(lower, upper)` for the position at `at`, tightening those
    /// already there for the same position and replacing any other.
    #[inline]
    pub fn store(&mut self, at: Place, lower: i32, upper: i32) {
        let slot = &mut self.slots[at.index];
        if slot.key == at.key {
            slot.lower = slot.lower.max(lower as i8);
            slot.upper = slot.upper.min(upper as i8);
        } else {
            *slot = Slot { key: at.key, lower: lower as i8, upper: upper as i8 };
        }
    }
}

thread_local! {
    /// The tables of this thread not held by a searcher, the last given back on top.
    /// A thread holds more than one when a searcher waiting at a parallel split runs
    /// tasks of that split, each with a searcher of its own, on the same thread.
    static SPARE: RefCell<Vec<LocalTable>> = const { RefCell::new(Vec::new()) };
}

/// A table of this thread for a new searcher: the one given back last, or a new one
/// when a searcher of this thread holds every table it has.
pub fn take() -> LocalTable {
    SPARE.with(|spare| spare.borrow_mut().pop()).unwrap_or_else(LocalTable::allocate)
}

/// Gives a table back to this thread for its next searcher.
pub fn give_back(table: LocalTable) {
    SPARE.with(|spare| spare.borrow_mut().push(table));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_tighten_and_other_positions_replace() {
        let mut t = LocalTable::allocate();
        let at = LocalTable::place(1, 2, 7);
        assert_eq!(t.probe(at), None);
        t.store(at, -64, 10);
        t.store(at, -4, 64);
        assert_eq!(t.probe(at), Some((-4, 10)));
        assert_eq!(t.probe(LocalTable::place(2, 1, 7)), None);
        assert_eq!(t.probe(LocalTable::place(1, 2, 8)), None);
        let other = (1u64..).map(|p| LocalTable::place(p << 8, 2, 7)).find(|o| o.index == at.index).unwrap();
        t.store(other, 0, 0);
        assert_eq!(t.probe(at), None);
        assert_eq!(t.probe(other), Some((0, 0)));
        assert_eq!(std::mem::size_of::<Slot>(), 16);
    }
}
