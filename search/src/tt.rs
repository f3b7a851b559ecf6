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
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

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
    /// Every page has been written ([`TranspositionTable::touch_pages`] or a clear).
    resident: AtomicBool,
}

// SAFETY: all access to the buckets goes through atomics.
unsafe impl Send for TranspositionTable {}
// SAFETY: as above.
unsafe impl Sync for TranspositionTable {}

/// The operating system refused the memory of a table (or of a search tree).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// The size asked for, in MiB.
    pub mib: usize,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate {} MiB: the system refused the memory", self.mib)
    }
}

impl std::error::Error for AllocError {}

/// Whether a table of `mib` MiB can be had now: asks the operating system for that
/// much memory, as [`TranspositionTable::try_new`] does (committed, so that a Linux
/// kernel refuses what it could never provide, but not touched), and gives it back.
/// For checking a `Hash` setting before it is used; a later allocation may still be
/// refused if memory runs short meanwhile.
pub fn check_memory(mib: usize) -> Result<(), AllocError> {
    let layout = table_layout(mib).ok_or(AllocError { mib })?;
    // (black_box: an allocation only tested and freed may be optimised away.)
    let ptr = std::hint::black_box(TranspositionTable::allocate(layout));
    if ptr.is_null() {
        return Err(AllocError { mib });
    }
    // SAFETY: allocated just now with this layout.
    unsafe { TranspositionTable::free(ptr, layout) };
    Ok(())
}

/// The layout of a table of `mib` MiB (at least one bucket); `None` if it cannot exist.
fn table_layout(mib: usize) -> Option<Layout> {
    let len = mib.max(1).checked_mul(1 << 20)? / std::mem::size_of::<Bucket>();
    Layout::array::<Bucket>(len).ok()
}

/// A zero-filled slice of `len` values from the global allocator, or `None` when the
/// memory is refused. Large blocks come zeroed from the operating system: they cost
/// resident memory only as they are written.
///
/// # Safety
///
/// All-zero bytes must be a valid `T` (integers, atomics, and structs of them).
pub(crate) unsafe fn try_zeroed_slice<T>(len: usize) -> Option<Box<[T]>> {
    let layout = Layout::array::<T>(len).ok()?;
    if layout.size() == 0 {
        // SAFETY: no bytes: nothing to initialise (the caller vouches for zero values).
        return Some((0..len).map(|_| unsafe { std::mem::zeroed() }).collect());
    }
    // SAFETY: the layout has a non-zero size.
    let ptr = unsafe { alloc_zeroed(layout) } as *mut T;
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `len` zeroed values (valid by the caller's promise), allocated by the
    // global allocator with the layout of a `[T]` of length `len`, as `Box` frees it.
    Some(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) })
}

impl TranspositionTable {
    /// A table of (about) `mib` MiB, at least one bucket. Memory is zeroed lazily by
    /// the operating system, so an unused table costs no resident memory. Aborts when
    /// the memory is refused; [`TranspositionTable::try_new`] does not.
    pub fn new(mib: usize) -> TranspositionTable {
        Self::try_new(mib)
            .unwrap_or_else(|_| std::alloc::handle_alloc_error(table_layout(mib).unwrap_or_else(Layout::new::<Bucket>)))
    }

    /// A table of (about) `mib` MiB, as [`TranspositionTable::new`] makes it, or an
    /// error when the operating system refuses the memory.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, AllocError> {
        let layout = table_layout(mib).ok_or(AllocError { mib })?;
        let len = layout.size() / std::mem::size_of::<Bucket>();
        let ptr = Self::allocate(layout) as *mut Bucket;
        let buckets = NonNull::new(ptr).ok_or(AllocError { mib })?;
        Ok(TranspositionTable { buckets, len, generation: AtomicU8::new(1), resident: AtomicBool::new(false) })
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

    /// Gives back memory from [`TranspositionTable::allocate`].
    ///
    /// # Safety
    ///
    /// `ptr` must come from `allocate(layout)` and not be used after.
    unsafe fn free(ptr: *mut u8, layout: Layout) {
        #[cfg(target_os = "linux")]
        if layout.size() >= HUGE_PAGE {
            // SAFETY: mapped in `allocate` with this size.
            unsafe { libc::munmap(ptr as *mut libc::c_void, layout.size()) };
            return;
        }
        // SAFETY: allocated in `allocate` with this layout.
        unsafe { dealloc(ptr, layout) };
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

    /// Makes every page of the table resident now, keeping its entries: the operating
    /// system zeroes a page when it is first written, and a search that did it would
    /// pay for it (a first search from 40 empties lost over 100 ms of its time to
    /// that). For UGI+ `isready`, as Stockfish clears its table there.
    /// Only the first call walks the table (the arena sends `isready` before every
    /// move).
    pub fn touch_pages(&self) {
        if self.resident.swap(true, Ordering::Relaxed) {
            return;
        }
        const PAGE: usize = 4096;
        let step = (PAGE / std::mem::size_of::<Bucket>()).max(1);
        // The last bucket too: a small table from the allocator need not start on a
        // page, so its last page may hold no bucket a step lands on.
        for i in (0..self.len).step_by(step).chain([self.len - 1]) {
            // SAFETY: i < len.
            let b = unsafe { &*self.buckets.as_ptr().add(i) };
            // A write that changes nothing: the page is faulted in, the entry kept.
            // (Not `fetch_or(0)`: the compiler makes that a load, and a read of an
            // untouched page maps the shared zero page.)
            let word = &b.words[0];
            let value = word.load(Ordering::Relaxed);
            let _ = word.compare_exchange(value, value, Ordering::Relaxed, Ordering::Relaxed);
        }
    }

    /// Empties the table (a new game); every page is written.
    pub fn clear(&self) {
        self.resident.store(true, Ordering::Relaxed);
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
        // SAFETY: allocated in `try_new` with this layout.
        unsafe { Self::free(self.buckets.as_ptr() as *mut u8, layout) };
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
    fn memory_the_system_refuses_is_an_error_not_an_abort() {
        // 4 EiB: more than any address space; and a size no layout can have.
        for mib in [1 << 42, usize::MAX >> 20, usize::MAX] {
            assert_eq!(check_memory(mib), Err(AllocError { mib }));
            assert_eq!(TranspositionTable::try_new(mib).err(), Some(AllocError { mib }));
        }
        assert_eq!(check_memory(4), Ok(()));
        let tt = TranspositionTable::try_new(4).unwrap();
        assert_eq!(tt.size_bytes(), 4 << 20);
        assert_eq!(AllocError { mib: 65536 }.to_string(), "cannot allocate 65536 MiB: the system refused the memory");
    }

    #[test]
    fn touching_the_pages_keeps_the_entries() {
        let tt = TranspositionTable::new(1);
        let stored: Vec<u64> = (1..2000u64).map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15)).collect();
        for (i, &hash) in stored.iter().enumerate() {
            tt.store(hash, Test { value: i as u32, priority: 1, generation: tt.generation() });
        }
        let before: Vec<Option<Test>> = stored.iter().map(|&h| tt.probe(h)).collect();
        assert!(before.iter().filter(|e| e.is_some()).count() > 1000);
        tt.touch_pages();
        let after: Vec<Option<Test>> = stored.iter().map(|&h| tt.probe(h)).collect();
        assert_eq!(before, after);
    }

    /// The pages of `tt` the system holds in memory, out of all of them (`mincore`).
    #[cfg(target_os = "linux")]
    fn resident_pages(tt: &TranspositionTable) -> (usize, usize) {
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
        let pages = tt.size_bytes().div_ceil(page);
        let mut resident = vec![0u8; pages];
        // SAFETY: a mapped table (at least HUGE_PAGE bytes: page-aligned) of that size,
        // and one byte of output per page.
        let rc =
            unsafe { libc::mincore(tt.buckets.as_ptr() as *mut libc::c_void, tt.size_bytes(), resident.as_mut_ptr()) };
        assert_eq!(rc, 0, "mincore");
        (resident.iter().filter(|&&r| r & 1 == 1).count(), pages)
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn touching_the_pages_makes_every_page_resident() {
        let tt = TranspositionTable::new(8);
        let (resident, pages) = resident_pages(&tt);
        assert!(resident < pages, "a new table is not all resident ({resident} of {pages})");
        tt.touch_pages();
        assert_eq!(resident_pages(&tt), (pages, pages));
        // (With the page only read, as `fetch_or(0)` compiled, none was resident.)
    }

    #[test]
    fn zeroed_slices_are_zero_or_refused() {
        // SAFETY: zero is a valid u64 and a valid AtomicU64.
        let small = unsafe { try_zeroed_slice::<u64>(1000) }.unwrap();
        assert!(small.len() == 1000 && small.iter().all(|&v| v == 0));
        let big = unsafe { try_zeroed_slice::<AtomicU64>(1 << 20) }.unwrap();
        assert!(big.iter().step_by(4096).all(|v| v.load(Ordering::Relaxed) == 0));
        assert_eq!(unsafe { try_zeroed_slice::<u64>(0) }.map(|s| s.len()), Some(0));
        assert!(unsafe { try_zeroed_slice::<u64>(usize::MAX / 4) }.is_none());
        // (black_box: an allocation only tested and freed may be optimised away.)
        assert!(std::hint::black_box(unsafe { try_zeroed_slice::<u64>(1 << 59) }).is_none());
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
