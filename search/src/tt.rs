//! A lock-free transposition table shared by all search threads.
//!
//! The table is an array of 64-byte buckets (one cache line), each holding four
//! entries of two 64-bit words: `key ^ data` and `data`. A reader accepts an entry only
//! if `stored_key ^ data` equals the position's hash, so a torn write (one word from
//! one writer, the other from another) is detected and ignored, without locks.
//!
//! What `data` means is the game's business ([`Entry`] packs and unpacks it). The
//! table only needs two things from it: a priority (how much work the entry saved) and
//! its generation (which search wrote it).
//!
//! Replacement: an entry with the same key is overwritten; otherwise the victim is the
//! entry of the bucket with the lowest rank, where entries from an older generation
//! rank below every entry of the current generation, and within a generation a lower
//! priority ranks lower. So stale results go first, then the cheapest ones.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a game stores in the table, packed in 64 bits.
pub trait Entry: Copy {
    /// Packs the entry.
    fn pack(self) -> u64;
    /// Unpacks the entry.
    fn unpack(data: u64) -> Self;
    /// How valuable the entry is to keep (e.g. log2 of the nodes it cost).
    fn priority(data: u64) -> u8;
    /// The generation (search number, modulo 256) that stored it.
    fn generation(data: u64) -> u8;
}

const WAYS: usize = 4;

/// Size of a huge page (x86-64 and most Linux systems).
const HUGE_PAGE: usize = 2 << 20;

#[repr(C, align(64))]
struct Bucket {
    words: [AtomicU64; 2 * WAYS],
}

/// The shared table.
pub struct TranspositionTable {
    buckets: NonNull<Bucket>,
    len: usize,
    generation: AtomicU8,
}

// SAFETY: all access to the buckets goes through atomics.
unsafe impl Send for TranspositionTable {}
// SAFETY: as above.
unsafe impl Sync for TranspositionTable {}

impl TranspositionTable {
    /// A table of (about) `mib` MiB, at least one bucket. Memory is zeroed lazily by
    /// the operating system, so an unused table costs no resident memory.
    pub fn new(mib: usize) -> TranspositionTable {
        let len = (mib.max(1) << 20) / std::mem::size_of::<Bucket>();
        let layout = Layout::array::<Bucket>(len).expect("table size fits in memory");
        let ptr = Self::allocate(layout) as *mut Bucket;
        let buckets = NonNull::new(ptr).unwrap_or_else(|| std::alloc::handle_alloc_error(layout));
        TranspositionTable { buckets, len, generation: AtomicU8::new(1) }
    }

    /// Zeroed memory for `layout`. On Linux a large table is mapped directly and
    /// backed by 2 MiB pages where the kernel allows: every probe lands on a random
    /// page, and with 4 KiB pages most of them also miss the TLB (FFO #40–#49 with a
    /// 256 MiB table: 26.9 s before, 24.6 s after, see the README). The pages are
    /// zeroed lazily by the kernel, so an unused table costs no resident memory.
    fn allocate(layout: Layout) -> *mut u8 {
        #[cfg(target_os = "linux")]
        if layout.size() >= HUGE_PAGE {
            // SAFETY: an anonymous private mapping of a non-zero size; the advice
            // changes no data and may fail harmlessly.
            unsafe {
                let ptr = libc::mmap(
                    std::ptr::null_mut(),
                    layout.size(),
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                );
                if ptr == libc::MAP_FAILED {
                    return std::ptr::null_mut();
                }
                libc::madvise(ptr, layout.size(), libc::MADV_HUGEPAGE);
                return ptr as *mut u8;
            }
        }
        // SAFETY: the layout has non-zero size; all-zero bits are valid atomics.
        unsafe { alloc_zeroed(layout) }
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.len * std::mem::size_of::<Bucket>()
    }

    fn bucket(&self, hash: u64) -> &Bucket {
        // Multiply-shift maps the hash onto any table length.
        let index = ((hash as u128 * self.len as u128) >> 64) as usize;
        // SAFETY: index < len and the allocation holds len buckets.
        unsafe { &*self.buckets.as_ptr().add(index) }
    }

    /// Hints the CPU to load the bucket of `hash` (call early, probe later).
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        bitboards::arch::prefetch(self.bucket(hash));
    }

    /// The current generation; entries written now carry it.
    pub fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    /// Starts a new generation (call once per search).
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed).wrapping_add(1).max(1);
        self.generation.store(g, Ordering::Relaxed);
    }

    /// The entry stored for `hash`, if any.
    #[inline]
    pub fn probe<E: Entry>(&self, hash: u64) -> Option<E> {
        let b = self.bucket(hash);
        for way in 0..WAYS {
            let key = b.words[2 * way].load(Ordering::Relaxed);
            let data = b.words[2 * way + 1].load(Ordering::Relaxed);
            if key ^ data == hash && data != 0 {
                return Some(E::unpack(data));
            }
        }
        None
    }

    /// Stores `entry` for `hash` (see the module notes for the replacement rule).
    #[inline]
    pub fn store<E: Entry>(&self, hash: u64, entry: E) {
        let data = entry.pack();
        let b = self.bucket(hash);
        let current = self.generation();
        let mut victim = 0;
        let mut victim_rank = u32::MAX;
        for way in 0..WAYS {
            let key = b.words[2 * way].load(Ordering::Relaxed);
            let old = b.words[2 * way + 1].load(Ordering::Relaxed);
            if key ^ old == hash || old == 0 {
                victim = way;
                break;
            }
            let fresh = (E::generation(old) == current) as u32;
            let rank = (fresh << 8) | E::priority(old) as u32;
            if rank < victim_rank {
                victim_rank = rank;
                victim = way;
            }
        }
        b.words[2 * victim].store(hash ^ data, Ordering::Relaxed);
        b.words[2 * victim + 1].store(data, Ordering::Relaxed);
    }

    /// Empties the table (a new game).
    pub fn clear(&self) {
        for i in 0..self.len {
            // SAFETY: i < len.
            let b = unsafe { &*self.buckets.as_ptr().add(i) };
            for w in &b.words {
                w.store(0, Ordering::Relaxed);
            }
        }
    }

    /// Per-mille of the first thousand buckets' entries written in this generation
    /// (the UCI `hashfull` figure).
    pub fn hashfull<E: Entry>(&self) -> u32 {
        let sample = self.len.min(250);
        let current = self.generation();
        let mut used = 0;
        for i in 0..sample {
            // SAFETY: i < len.
            let b = unsafe { &*self.buckets.as_ptr().add(i) };
            for way in 0..WAYS {
                let data = b.words[2 * way + 1].load(Ordering::Relaxed);
                if data != 0 && E::generation(data) == current {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * WAYS).max(1)) as u32
    }
}

impl Drop for TranspositionTable {
    fn drop(&mut self) {
        let layout = Layout::array::<Bucket>(self.len).expect("same layout as in new");
        let ptr = self.buckets.as_ptr() as *mut u8;
        #[cfg(target_os = "linux")]
        if layout.size() >= HUGE_PAGE {
            // SAFETY: mapped in `allocate` with this size.
            unsafe { libc::munmap(ptr as *mut libc::c_void, layout.size()) };
            return;
        }
        // SAFETY: allocated in `new` with this layout.
        unsafe { dealloc(ptr, layout) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Test {
        value: u32,
        priority: u8,
        generation: u8,
    }

    impl Entry for Test {
        fn pack(self) -> u64 {
            (self.value as u64) << 16 | (self.priority as u64) << 8 | self.generation as u64
        }
        fn unpack(d: u64) -> Self {
            Test { value: (d >> 16) as u32, priority: (d >> 8) as u8, generation: d as u8 }
        }
        fn priority(d: u64) -> u8 {
            (d >> 8) as u8
        }
        fn generation(d: u64) -> u8 {
            d as u8
        }
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.size_bytes(), 1 << 20);
        let g = tt.generation();
        let e = Test { value: 7, priority: 3, generation: g };
        tt.store(42, e);
        assert_eq!(tt.probe::<Test>(42), Some(e));
        assert_eq!(tt.probe::<Test>(43), None);
        tt.clear();
        assert_eq!(tt.probe::<Test>(42), None);
    }

    #[test]
    fn replacement_keeps_valuable_current_entries() {
        let tt = TranspositionTable::new(1);
        // Hashes with the same top bits land in the same bucket.
        let same_bucket = |i: u64| i;
        let g = tt.generation();
        for i in 0..4 {
            tt.store(same_bucket(i), Test { value: i as u32, priority: 10 + i as u8, generation: g });
        }
        tt.store(same_bucket(9), Test { value: 9, priority: 50, generation: g });
        assert_eq!(tt.probe::<Test>(0), None, "the cheapest entry went");
        for i in [1, 2, 3, 9] {
            assert!(tt.probe::<Test>(same_bucket(i)).is_some());
        }
        tt.new_search();
        let g2 = tt.generation();
        tt.store(same_bucket(20), Test { value: 20, priority: 0, generation: g2 });
        assert_eq!(tt.probe::<Test>(1), None, "old generation goes before new ones");
    }

    #[test]
    fn concurrent_writers_never_produce_a_wrong_entry() {
        let tt = TranspositionTable::new(1);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        let hash = i % 64;
                        let value = (hash * 1000 + t) as u32;
                        tt.store(hash, Test { value, priority: 1, generation: 1 });
                        if let Some(e) = tt.probe::<Test>(hash) {
                            assert_eq!(e.value / 1000, hash as u32, "entry of another key");
                        }
                    }
                });
            }
        });
    }
}
