//! A growable map from state keys to 64-bit values for one layer of the retrograde
//! analysis, built by one thread and read by many once built.
//!
//! Open addressing with linear probing keeps a key and its value in one 16-byte slot,
//! so a lookup is one cache miss, and the inserts of a batch ask for the slots of the
//! next keys ahead of time (prefetch), so that several misses are in flight at once.
//! A key's slot is stable once the table stops growing: the analysis uses the slot as
//! the state's index in its layer.

/// How many keys ahead [`StateTable::insert_batch`] prefetches.
const AHEAD: usize = 16;

/// A map from `u64` keys (never `u64::MAX`) to `u64` values (0 when inserted), at most
/// three quarters full.
pub struct StateTable {
    /// (key plus one, value); a key of 0 marks an empty slot.
    slots: Vec<(u64, u64)>,
    len: usize,
}

impl StateTable {
    /// An empty table with room for `keys` keys before it grows.
    pub fn with_capacity(keys: usize) -> StateTable {
        StateTable { slots: vec![(0, 0); (keys + keys / 3).max(16)], len: 0 }
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of slots: every slot index is below it.
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// The key in `slot`, if any.
    pub fn key_at(&self, slot: usize) -> Option<u64> {
        self.slots[slot].0.checked_sub(1)
    }

    /// The value in `slot`.
    pub fn value(&self, slot: usize) -> u64 {
        self.slots[slot].1
    }

    /// Sets the value in `slot`.
    pub fn set(&mut self, slot: usize, value: u64) {
        self.slots[slot].1 = value;
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

    /// The slot of `key`, if present.
    pub fn find(&self, key: u64) -> Option<usize> {
        let mut i = self.home(key);
        loop {
            match self.slots[i].0 {
                0 => return None,
                k if k == key + 1 => return Some(i),
                _ => i = self.next(i),
            }
        }
    }

    /// Inserts `key` (value 0); true if it was not there.
    pub fn insert(&mut self, key: u64) -> bool {
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            self.grow();
        }
        let mut i = self.home(key);
        loop {
            match self.slots[i].0 {
                0 => {
                    self.slots[i].0 = key + 1;
                    self.len += 1;
                    return true;
                }
                k if k == key + 1 => return false,
                _ => i = self.next(i),
            }
        }
    }

    /// Inserts every key of `keys` and appends those that were not there to `new`, in
    /// order.
    pub fn insert_batch(&mut self, keys: &[u64], new: &mut Vec<u64>) {
        for &k in keys.iter().take(AHEAD) {
            self.prefetch(k);
        }
        for (j, &k) in keys.iter().enumerate() {
            if let Some(&next) = keys.get(j + AHEAD) {
                self.prefetch(next);
            }
            if self.insert(k) {
                new.push(k);
            }
        }
    }

    /// Doubles the slots (the values are kept).
    fn grow(&mut self) {
        let size = 2 * self.slots.len();
        let old = std::mem::replace(&mut self.slots, vec![(0, 0); size]);
        for (k, v) in old.into_iter().filter(|&(k, _)| k != 0) {
            let mut i = self.home(k - 1);
            while self.slots[i].0 != 0 {
                i = self.next(i);
            }
            self.slots[i] = (k, v);
        }
    }

    /// Asks the processor to bring `key`'s first slot into the cache.
    pub fn prefetch(&self, key: u64) {
        bitboards::arch::prefetch(&self.slots[self.home(key)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_keep_the_first_of_each_key_in_order_and_values_survive_growth() {
        let mut table = StateTable::with_capacity(4);
        let keys: Vec<u64> = (0..10_000u64).map(|i| (i * 7919) % 3_001).collect();
        let mut new = Vec::new();
        table.insert_batch(&keys[..100], &mut new);
        for k in new.clone() {
            let slot = table.find(k).expect("inserted");
            table.set(slot, k ^ 0xFF);
        }
        table.insert_batch(&keys[100..], &mut new);
        let mut expected = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for &k in &keys {
            if seen.insert(k) {
                expected.push(k);
            }
        }
        assert_eq!(new, expected);
        assert_eq!(table.len(), 3_001);
        for &k in &new[..100] {
            assert_eq!(table.value(table.find(k).expect("kept")), k ^ 0xFF);
        }
        let slots: std::collections::HashSet<usize> = new.iter().map(|&k| table.find(k).expect("in")).collect();
        assert_eq!(slots.len(), 3_001);
        assert!(slots.iter().all(|&s| table.key_at(s).is_some()));
        assert_eq!(table.find(u64::MAX - 1), None);
        assert!(!table.insert(0) && !table.insert(3_000) && table.insert(3_001));
    }
}
