//! A fixed-size map from state keys to 64-bit values that threads fill and read at
//! once: open addressing with linear probing, keys claimed by compare-and-swap.
//!
//! The retrograde analysis keeps every state's value here: one probe (one cache miss,
//! which can be prefetched) per lookup, where a lookup by layer and binary search
//! costs several.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

/// One entry: the key plus one (0: empty) and the value.
struct Slot {
    key: AtomicU64,
    value: AtomicU64,
}

/// A map from `u64` keys (never `u64::MAX`) to `u64` values, for at most the number of
/// keys it was made for.
pub struct StateTable {
    slots: Vec<Slot>,
}

impl StateTable {
    /// A table for up to `keys` keys (at most three quarters full: linear probing then
    /// still finds a key within a cache line or two).
    pub fn new(keys: usize) -> StateTable {
        let size = (keys + keys / 3).max(16);
        let mut slots = Vec::with_capacity(size);
        slots.par_extend((0..size).into_par_iter().map(|_| Slot { key: AtomicU64::new(0), value: AtomicU64::new(0) }));
        StateTable { slots }
    }

    /// The first slot to look at for `key`: the high bits of a multiplicative hash,
    /// scaled to the table's size.
    fn home(&self, key: u64) -> usize {
        let hash = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((hash as u128 * self.slots.len() as u128) >> 64) as usize
    }

    fn next(&self, i: usize) -> usize {
        if i + 1 == self.slots.len() { 0 } else { i + 1 }
    }

    /// Inserts `key` (if absent) and returns its slot.
    pub fn insert(&self, key: u64) -> u32 {
        let mut i = self.home(key);
        loop {
            let slot = &self.slots[i];
            match slot.key.compare_exchange(0, key + 1, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return i as u32,
                Err(k) if k == key + 1 => return i as u32,
                Err(_) => i = self.next(i),
            }
        }
    }

    /// The slot of `key`, if present.
    pub fn find(&self, key: u64) -> Option<u32> {
        let mut i = self.home(key);
        loop {
            match self.slots[i].key.load(Ordering::Relaxed) {
                0 => return None,
                k if k == key + 1 => return Some(i as u32),
                _ => i = self.next(i),
            }
        }
    }

    /// The value in `slot`.
    pub fn value(&self, slot: u32) -> u64 {
        self.slots[slot as usize].value.load(Ordering::Relaxed)
    }

    /// Sets the value in `slot`.
    pub fn set(&self, slot: u32, value: u64) {
        self.slots[slot as usize].value.store(value, Ordering::Relaxed);
    }

    /// Asks the processor to bring `key`'s first slot into the cache.
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.slots[self.home(key)] as *const Slot as *const i8;
            // SAFETY: prefetching a valid address has no side effects.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_inserted_from_two_threads_are_found_once() {
        let table = StateTable::new(10_000);
        let keys: Vec<u64> = (0..10_000u64).map(|i| i.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 5).collect();
        let slots: Vec<u32> = keys.par_iter().map(|&k| table.insert(k)).collect();
        let again: Vec<u32> = keys.par_iter().map(|&k| table.insert(k)).collect();
        assert_eq!(slots, again);
        let distinct: std::collections::HashSet<u32> = slots.iter().copied().collect();
        assert_eq!(distinct.len(), keys.len());
        for (&k, &s) in keys.iter().zip(&slots) {
            table.set(s, k ^ 1);
            assert_eq!(table.find(k), Some(s));
        }
        assert_eq!(table.value(slots[7]), keys[7] ^ 1);
        assert_eq!(table.find(u64::MAX - 1), None);
    }
}
