//! A growable set of state keys for one thread, whose inserts come in batches and are
//! prefetched ahead.
//!
//! The enumeration of a layer inserts every move's state once; in a set of millions
//! each insert is a cache miss. Asking for the slots of the next few keys while
//! inserting the current one keeps several misses in flight instead of one.

/// A set of `u64` keys (never `u64::MAX`): open addressing with linear probing, at most
/// half full.
pub struct KeySet {
    /// Key plus one; 0 marks an empty slot.
    slots: Vec<u64>,
    len: usize,
    shift: u32,
}

/// How many keys ahead [`KeySet::insert_batch`] prefetches.
const AHEAD: usize = 16;

impl KeySet {
    /// An empty set with room for `keys` keys before it grows.
    pub fn with_capacity(keys: usize) -> KeySet {
        let size = (2 * keys).max(16).next_power_of_two();
        KeySet { slots: vec![0; size], len: 0, shift: 64 - size.trailing_zeros() }
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Inserts `key`; true if it was not there.
    pub fn insert(&mut self, key: u64) -> bool {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            match self.slots[i] {
                0 => {
                    self.slots[i] = key + 1;
                    self.len += 1;
                    return true;
                }
                k if k == key + 1 => return false,
                _ => i = (i + 1) & mask,
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

    fn grow(&mut self) {
        let size = 2 * self.slots.len();
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        self.shift = 64 - self.slots.len().trailing_zeros();
        self.len = 0;
        for k in old.into_iter().filter(|&k| k != 0) {
            self.insert(k - 1);
        }
    }

    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.slots[self.home(key)] as *const u64 as *const i8;
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
    fn batches_keep_the_first_of_each_key_in_order() {
        let mut set = KeySet::with_capacity(4);
        let keys: Vec<u64> = (0..10_000u64).map(|i| (i * 7919) % 3_001).collect();
        let mut new = Vec::new();
        set.insert_batch(&keys, &mut new);
        let mut expected = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for &k in &keys {
            if seen.insert(k) {
                expected.push(k);
            }
        }
        assert_eq!(new, expected);
        assert_eq!(set.len(), 3_001);
        assert!(!set.insert(0) && !set.insert(3_000) && set.insert(3_001));
    }
}
