//! The pattern evaluation: a linear function of disc patterns, trained on positions
//! whose exact scores are known (see `train.rs`).
//!
//! A pattern is a set of squares; its value is looked up in a table indexed by the
//! ternary number of the squares' contents (empty 0, side to move 1, other side 2).
//! Each pattern is applied to several places of the board ("instances") that the
//! board's symmetries map onto each other; instead of moving the pattern, the board is
//! transformed, so every instance reads its squares in the same order and all
//! instances share one table. On top of the patterns: the mobility and potential
//! mobility differences and a bias. Every group of four empties (a "phase") has its own
//! weights.

use bitboards::arch::pext;
use bitboards::othello::movegen::{moves, potential_moves};
use bitboards::othello::{mirror_horizontal, squares, transpose};
use std::sync::OnceLock;

/// A pattern: its squares on the canonical board (bit order gives digit order) and
/// which of the eight board transforms yield its instances.
pub struct Pattern {
    /// Name, for reports.
    pub name: &'static str,
    /// Squares on the canonical board.
    pub mask: u64,
    /// Transforms (bit 0 flip vertically, bit 1 mirror, bit 2 transpose, applied in
    /// that order) giving distinct instances.
    pub transforms: &'static [usize],
}

/// Number of patterns of the evaluation.
pub const PATTERN_COUNT: usize = 11;

/// The patterns of the evaluation. New patterns go at the end: a weights file for
/// the first patterns of this list still loads (see `weights.rs`).
pub const PATTERNS: [Pattern; PATTERN_COUNT] = [
    Pattern { name: "edge+2X", mask: 0x0000_0000_0000_42FF, transforms: &[0, 1, 4, 6] },
    Pattern { name: "corner 3x3", mask: 0x0000_0000_0007_0707, transforms: &[0, 1, 2, 3] },
    Pattern { name: "corner 2x5", mask: 0x0000_0000_0000_1F1F, transforms: &[0, 1, 2, 3, 4, 5, 6, 7] },
    Pattern { name: "row 2", mask: 0x0000_0000_0000_FF00, transforms: &[0, 1, 4, 6] },
    Pattern { name: "row 3", mask: 0x0000_0000_00FF_0000, transforms: &[0, 1, 4, 6] },
    Pattern { name: "row 4", mask: 0x0000_0000_FF00_0000, transforms: &[0, 1, 4, 6] },
    Pattern { name: "diagonal 8", mask: 0x8040_2010_0804_0201, transforms: &[0, 1] },
    Pattern { name: "diagonal 7", mask: 0x0080_4020_1008_0402, transforms: &[0, 1, 4, 5] },
    Pattern { name: "diagonal 6", mask: 0x0000_8040_2010_0804, transforms: &[0, 1, 4, 5] },
    Pattern { name: "diagonal 5", mask: 0x0000_0080_4020_1008, transforms: &[0, 1, 4, 5] },
    Pattern { name: "diagonal 4", mask: 0x0000_0000_8040_2010, transforms: &[0, 1, 4, 5] },
];

/// Number of pattern instances on a board.
pub const INSTANCES: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < PATTERNS.len() {
        n += PATTERNS[i].transforms.len();
        i += 1;
    }
    n
};

/// Lanes of a [`Features`] vector: one per instance, rounded up to whole SIMD
/// registers.
const LANES: usize = INSTANCES.next_multiple_of(16);

/// The pattern indices of every instance of a position (the ternary digits only,
/// without the tables' offsets), read by the side to move and by the other side. A
/// move changes only the instances through its square and its flipped discs, so a
/// child's features are its parent's plus a few vector additions
/// ([`Features::after`]), far cheaper than reading all instances from the board
/// again (Edax and Egaroucid keep theirs the same way). The search passes them down
/// the tree.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub struct Features {
    /// Indices with the side to move's discs as digit 1, the other side's as 2.
    mover: [u16; LANES],
    /// Indices with the colours the other way round (the view after a pass).
    other: [u16; LANES],
}

impl Features {
    /// The features of `(p, o)` (`p` to move), read from the board.
    pub fn new(p: u64, o: u64) -> Features {
        let readers = instance_readers();
        let mut f = Features { mover: [0; LANES], other: [0; LANES] };
        for (k, r) in readers.readers.iter().enumerate() {
            let start = r.start as usize;
            let mine = readers.digits[start + pext(p, r.mask) as usize];
            let theirs = readers.digits[start + pext(o, r.mask) as usize];
            f.mover[k] = mine + 2 * theirs;
            f.other[k] = theirs + 2 * mine;
        }
        f
    }

    /// The features of the child reached by a move on `sq` flipping `flips` (seen
    /// from the child's side to move).
    #[inline]
    pub fn after(&self, sq: u8, flips: u64) -> Features {
        let (placed, flipped) = move_digits(sq, flips);
        let mut child = Features { mover: [0; LANES], other: [0; LANES] };
        // The child's side to move is the parent's other side: the new disc and the
        // flipped ones are the child's opponent's (digit 2 in its view, 1 in the other).
        for i in 0..LANES {
            child.mover[i] = self.other[i].wrapping_add(placed[i].wrapping_mul(2)).wrapping_add(flipped[i]);
            child.other[i] = self.mover[i].wrapping_add(placed[i]).wrapping_sub(flipped[i]);
        }
        child
    }

    /// The pattern indices of the child reached by a move on `sq` flipping `flips`,
    /// seen from the child's side to move only: all that the child's evaluation
    /// reads (half of [`Features::after`]'s work, for the leaves).
    #[inline]
    pub fn child_view(&self, sq: u8, flips: u64) -> View {
        let (placed, flipped) = move_digits(sq, flips);
        let mut view = View([0; LANES]);
        for i in 0..LANES {
            view.0[i] = self.other[i].wrapping_add(placed[i].wrapping_mul(2)).wrapping_add(flipped[i]);
        }
        view
    }

    /// The same position with the other side to move (a pass).
    #[inline]
    pub fn passed(&self) -> Features {
        Features { mover: self.other, other: self.mover }
    }
}

/// Each lane's digits of a move on `sq` flipping `flips`: the placed square's (one
/// disc) and the flipped squares' summed, which [`Features::after`] and
/// [`Features::child_view`] add to or take from the parent's indices.
#[inline]
fn move_digits(sq: u8, flips: u64) -> (&'static [u16; LANES], [u16; LANES]) {
    let table = &instance_readers().square_digits;
    let mut flipped = [0u16; LANES];
    for s in squares(flips) {
        let d = &table[s as usize];
        for i in 0..LANES {
            flipped[i] = flipped[i].wrapping_add(d[i]);
        }
    }
    (&table[sq as usize], flipped)
}

/// The pattern indices of a position seen from its side to move, one lane per
/// instance: what the evaluation reads ([`Features::child_view`]).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub struct View([u16; LANES]);

/// Offset of each pattern's table in a phase's weights, and the phase's size.
pub const OFFSETS: [usize; PATTERN_COUNT + 1] = {
    let mut out = [0usize; PATTERN_COUNT + 1];
    let mut i = 0;
    while i < PATTERNS.len() {
        out[i + 1] = out[i] + 3usize.pow(PATTERNS[i].mask.count_ones());
        i += 1;
    }
    out
};

/// The first lane (instance) of each pattern in [`Features`].
const FIRST_LANES: [usize; PATTERN_COUNT] = {
    let mut out = [0usize; PATTERN_COUNT];
    let mut i = 1;
    while i < PATTERN_COUNT {
        out[i] = out[i - 1] + PATTERNS[i - 1].transforms.len();
        i += 1;
    }
    out
};

/// Pattern weights of one phase.
pub const PATTERN_WEIGHTS: usize = OFFSETS[PATTERN_COUNT];

/// Scalar features after the patterns: mobility difference, potential mobility
/// difference, bias.
pub const SCALARS: usize = 3;

/// Weights per phase.
pub const PHASE_WEIGHTS: usize = PATTERN_WEIGHTS + SCALARS;

/// A phase's weights as the evaluation stores them: the patterns' tables, the
/// scalars, then room for any 16-bit index past the last table's start, so that
/// `table start + index` is always within the phase and the lookups of
/// [`pattern_sum`] need no bounds check (the padding is never read).
const PADDED_PHASE: usize = PHASE_WEIGHTS + (1 << 16);

/// Number of phases (groups of four empties).
pub const PHASES: usize = 15;

/// Weights are stored in units of 1/64 disc.
pub const SCALE: i32 = 64;

/// The phase of a position with `empties` empty squares.
#[inline]
pub fn phase(empties: u32) -> usize {
    (empties.saturating_sub(1) as usize / 4).min(PHASES - 1)
}

/// Binary digits read as ternary: `TERNARY[b] = Σ bit_i · 3^i`.
static TERNARY: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u32;
        let mut i = 0;
        let mut pow = 1u32;
        while i < 10 {
            if b >> i & 1 == 1 {
                v += pow;
            }
            pow *= 3;
            i += 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};

/// The eight transformed boards: index bit 0 flips vertically, bit 1 mirrors, bit 2
/// transposes (in that order).
#[inline]
fn transforms(p: u64, o: u64) -> [(u64, u64); 8] {
    let f = (p.swap_bytes(), o.swap_bytes());
    let m = (mirror_horizontal(p), mirror_horizontal(o));
    let fm = (mirror_horizontal(f.0), mirror_horizontal(f.1));
    let base = [(p, o), f, m, fm];
    let mut out = [(0, 0); 8];
    for i in 0..4 {
        out[i] = base[i];
        out[i + 4] = (transpose(base[i].0), transpose(base[i].1));
    }
    out
}

/// The table index (within its phase) of every instance of every pattern.
#[inline]
pub fn feature_indices(p: u64, o: u64) -> [u32; INSTANCES] {
    let boards = transforms(p, o);
    let mut out = [0u32; INSTANCES];
    let mut k = 0;
    for (i, pattern) in PATTERNS.iter().enumerate() {
        for &t in pattern.transforms {
            let (tp, to) = boards[t];
            let index =
                TERNARY[pext(tp, pattern.mask) as usize] as u32 + 2 * TERNARY[pext(to, pattern.mask) as usize] as u32;
            out[k] = (OFFSETS[i] as u32) + index;
            k += 1;
        }
    }
    out
}

/// The scalar features: mobility and potential mobility differences, and 1 (bias).
#[inline]
pub fn scalar_features(p: u64, o: u64) -> [i32; SCALARS] {
    let mobility = moves(p, o).count_ones() as i32 - moves(o, p).count_ones() as i32;
    let potential = potential_moves(p, o).count_ones() as i32 - potential_moves(o, p).count_ones() as i32;
    [mobility, potential, 1]
}

/// The digit permutations under which a pattern maps onto itself (its own
/// symmetries, e.g. an edge read backwards), identity first.
fn self_symmetries(pattern: &Pattern) -> Vec<Vec<usize>> {
    let squares: Vec<u32> = (0..64).filter(|&sq| pattern.mask >> sq & 1 == 1).collect();
    let mut out = Vec::new();
    for t in 0..8 {
        // Where does the digit of square squares[i] go when the board is transformed?
        let perm: Option<Vec<usize>> = squares
            .iter()
            .map(|&sq| {
                let (tp, _) = transforms(1u64 << sq, 0)[t];
                (tp & pattern.mask != 0).then(|| (pext(tp, pattern.mask).trailing_zeros()) as usize)
            })
            .collect();
        if let Some(perm) = perm
            && !out.contains(&perm)
        {
            out.push(perm);
        }
    }
    out
}

/// For pattern `i`, the canonical index of every index: the smallest index among
/// its images under the pattern's own symmetries. Weights are trained per canonical
/// index, so a position and its mirror image are valued alike.
pub fn canonical_indices(i: usize) -> Vec<u32> {
    let pattern = &PATTERNS[i];
    let digits = pattern.mask.count_ones() as usize;
    let size = 3usize.pow(digits as u32);
    let symmetries = self_symmetries(pattern);
    let mut out = vec![0u32; size];
    for (index, slot) in out.iter_mut().enumerate() {
        let mut best = index;
        for perm in &symmetries {
            let mut rest = index;
            let mut image = 0;
            for &target in perm.iter().take(digits) {
                image += (rest % 3) * 3usize.pow(target as u32);
                rest /= 3;
            }
            best = best.min(image);
        }
        *slot = best as u32;
    }
    out
}

/// One pattern instance read straight from the untransformed board: the squares
/// it covers, and a table from their bits (as `pext` gathers them, in square order)
/// to the ternary digits of the pattern's own order. Gives the same indices as
/// [`feature_indices`] without transforming the board eight times.
#[derive(Clone, Copy)]
struct InstanceReader {
    /// The instance's squares on the board.
    mask: u64,
    /// Where the pattern's table starts within a phase's weights.
    offset: u32,
    /// Start of this instance's digit table in [`InstanceReaders::digits`].
    start: u32,
}

/// The [`InstanceReader`] of every instance, in [`feature_indices`] order.
struct InstanceReaders {
    readers: Vec<InstanceReader>,
    /// `digits[start + b]`: the bits `b` of an instance's squares as ternary digits.
    digits: Vec<u16>,
    /// `square_digits[sq][k]`: the digit value (a power of 3) of square `sq` in
    /// instance `k`, 0 where the instance does not read it.
    square_digits: Vec<[u16; LANES]>,
}

impl InstanceReaders {
    fn new() -> InstanceReaders {
        let mut readers = Vec::with_capacity(INSTANCES);
        let mut digits = Vec::new();
        let mut square_digits = vec![[0u16; LANES]; 64];
        for (i, pattern) in PATTERNS.iter().enumerate() {
            let canonical: Vec<u32> = (0..64).filter(|&sq| pattern.mask >> sq & 1 == 1).collect();
            for &t in pattern.transforms {
                // The board square each canonical square (digit) of this instance reads.
                let mut read_by_digit = vec![0u32; canonical.len()];
                for sq in 0..64u32 {
                    let image = transforms(1u64 << sq, 0)[t].0;
                    if let Some(d) = canonical.iter().position(|&c| image == 1u64 << c) {
                        read_by_digit[d] = sq;
                    }
                }
                let mask = read_by_digit.iter().fold(0u64, |m, &sq| m | 1u64 << sq);
                let instance = readers.len();
                for (d, &sq) in read_by_digit.iter().enumerate() {
                    square_digits[sq as usize][instance] = 3u16.pow(d as u32);
                }
                // Bit j of the gathered bits is the j-th lowest square of the mask.
                let order: Vec<u32> = (0..64).filter(|&sq| mask >> sq & 1 == 1).collect();
                let power: Vec<u16> = order
                    .iter()
                    .map(|sq| 3u16.pow(read_by_digit.iter().position(|r| r == sq).unwrap_or(0) as u32))
                    .collect();
                let start = digits.len() as u32;
                for bits in 0..1usize << order.len() {
                    digits.push((0..order.len()).filter(|&j| bits >> j & 1 == 1).map(|j| power[j]).sum());
                }
                readers.push(InstanceReader { mask, offset: OFFSETS[i] as u32, start });
            }
        }
        InstanceReaders { readers, digits, square_digits }
    }

    /// The same indices as [`feature_indices`]`(p, o)`.
    #[cfg(test)]
    fn indices(&self, p: u64, o: u64) -> impl Iterator<Item = usize> + '_ {
        self.indices_of(&self.readers, p, o)
    }

    /// The indices of the instances `readers` (some of [`Self::readers`]) of `(p, o)`.
    #[inline]
    fn indices_of<'a>(&'a self, readers: &'a [InstanceReader], p: u64, o: u64) -> impl Iterator<Item = usize> + 'a {
        readers.iter().map(move |r| {
            let start = r.start as usize;
            let mine = self.digits[start + pext(p, r.mask) as usize] as usize;
            let theirs = self.digits[start + pext(o, r.mask) as usize] as usize;
            r.offset as usize + mine + 2 * theirs
        })
    }
}

/// The instance readers (the same for every set of weights), built on first use.
fn instance_readers() -> &'static InstanceReaders {
    static READERS: OnceLock<InstanceReaders> = OnceLock::new();
    READERS.get_or_init(InstanceReaders::new)
}

/// Trained weights for every phase.
pub struct PatternEval {
    /// Each phase's weights, [`PADDED_PHASE`] values apart.
    tables: Vec<i16>,
    /// Per phase, whether each pattern has a weight that is not zero there (a
    /// pattern trained only for some phases costs nothing in the others).
    used: Vec<[bool; PATTERN_COUNT]>,
    /// Per phase, the readers of the used patterns (for a board read whole).
    active: Vec<Vec<InstanceReader>>,
}

impl PatternEval {
    /// Weights from a flat vector of `PHASES × PHASE_WEIGHTS` values (1/64 disc), one
    /// per index (symmetric indices already hold equal values).
    pub fn from_weights(weights: Vec<i16>) -> Option<PatternEval> {
        if weights.len() != PHASES * PHASE_WEIGHTS {
            return None;
        }
        let mut tables = vec![0i16; PHASES * PADDED_PHASE];
        for (ph, w) in weights.chunks(PHASE_WEIGHTS).enumerate() {
            tables[ph * PADDED_PHASE..][..PHASE_WEIGHTS].copy_from_slice(w);
        }
        let used: Vec<[bool; PATTERN_COUNT]> = weights
            .chunks(PHASE_WEIGHTS)
            .map(|w| std::array::from_fn(|i| w[OFFSETS[i]..OFFSETS[i + 1]].iter().any(|&x| x != 0)))
            .collect();
        let readers = instance_readers();
        let active = used
            .iter()
            .map(|used| {
                let used_offsets: Vec<u32> =
                    (0..PATTERN_COUNT).filter(|&i| used[i]).map(|i| OFFSETS[i] as u32).collect();
                readers.readers.iter().filter(|r| used_offsets.contains(&r.offset)).copied().collect()
            })
            .collect();
        Some(PatternEval { tables, used, active })
    }

    /// [`Self::eval_fine`] of `(p, o)`, whose [`Features`] are `f`.
    #[inline]
    pub fn eval_fine_from(&self, f: &Features, p: u64, o: u64) -> i32 {
        self.eval_fine_view(&View(f.mover), p, o)
    }

    /// [`Self::eval_fine`] of `(p, o)`, whose indices from the side to move are `view`.
    #[inline]
    pub fn eval_fine_view(&self, view: &View, p: u64, o: u64) -> i32 {
        let (ph, t) = self.phase_table(p, o);
        let used = &self.used[ph];
        let lanes = &view.0;
        // One call per pattern, its table's offset and its lanes constants.
        macro_rules! sum_of_patterns {
            ($($i:literal)*) => {
                0 $(+ if used[$i] {
                    pattern_sum::<{ OFFSETS[$i] }, { FIRST_LANES[$i] }, { PATTERNS[$i].transforms.len() }>(t, lanes)
                } else {
                    0
                })*
            };
        }
        const _: () = assert!(PATTERN_COUNT == 11, "sum_of_patterns! lists every pattern");
        scalar_part(t, p, o) + sum_of_patterns!(0 1 2 3 4 5 6 7 8 9 10)
    }

    /// The phase of `(p, o)` and its weights.
    #[inline]
    fn phase_table(&self, p: u64, o: u64) -> (usize, &[i16; PADDED_PHASE]) {
        let ph = phase((!(p | o)).count_ones());
        let table = self.tables[ph * PADDED_PHASE..].first_chunk::<PADDED_PHASE>().expect("a phase's weights");
        (ph, table)
    }

    /// [`Self::eval_discs`] of `(p, o)`, whose [`Features`] are `f`.
    #[inline]
    pub fn eval_discs_from(&self, f: &Features, p: u64, o: u64) -> i32 {
        fine_to_discs(self.eval_fine_from(f, p, o))
    }

    /// [`Self::eval_discs`] of `(p, o)`, whose indices from the side to move are `view`.
    #[inline]
    pub fn eval_discs_view(&self, view: &View, p: u64, o: u64) -> i32 {
        fine_to_discs(self.eval_fine_view(view, p, o))
    }

    /// The flat weights (`PHASES × PHASE_WEIGHTS` values).
    pub fn weights(&self) -> Vec<i16> {
        self.tables.chunks(PADDED_PHASE).flat_map(|t| t[..PHASE_WEIGHTS].iter().copied()).collect()
    }

    /// The value of `(p, o)` for the side to move in 1/64 disc.
    #[inline]
    pub fn eval_fine(&self, p: u64, o: u64) -> i32 {
        let (ph, t) = self.phase_table(p, o);
        let mut sum = scalar_part(t, p, o);
        for idx in instance_readers().indices_of(&self.active[ph], p, o) {
            sum += t[idx] as i32;
        }
        sum
    }

    /// The value of `(p, o)` in discs, rounded, within −63..=63.
    #[inline]
    pub fn eval_discs(&self, p: u64, o: u64) -> i32 {
        fine_to_discs(self.eval_fine(p, o))
    }
}

/// The weights of one pattern's instances: the pattern's table starts at `OFFSET`
/// of the phase, its instances are lanes `FIRST..FIRST + COUNT`. With the three
/// constant, each instance costs one load of its index and one of its weight (no
/// bounds check: an index is below 2^16, and the phase has that much room past
/// every table's start).
#[inline(always)]
fn pattern_sum<const OFFSET: usize, const FIRST: usize, const COUNT: usize>(
    t: &[i16; PADDED_PHASE],
    lanes: &[u16; LANES],
) -> i32 {
    let mut sum = 0;
    for &index in &lanes[FIRST..FIRST + COUNT] {
        sum += t[OFFSET + index as usize] as i32;
    }
    sum
}

/// The scalar features' share of the value of `(p, o)`, with a phase's weights `w`.
#[inline]
fn scalar_part(w: &[i16; PADDED_PHASE], p: u64, o: u64) -> i32 {
    let scalars = scalar_features(p, o);
    scalars.iter().enumerate().map(|(j, x)| w[PATTERN_WEIGHTS + j] as i32 * x).sum()
}

/// A value in 1/64 disc as discs, rounded, within −63..=63.
#[inline]
fn fine_to_discs(fine: i32) -> i32 {
    ((fine + fine.signum() * SCALE / 2) / SCALE).clamp(-63, 63)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitboards::othello::Board;
    use bitboards::rng::splitmix64;

    /// The squares of the original board that an instance reads.
    fn instance_squares(mask: u64, t: usize) -> u64 {
        let mut out = 0;
        for sq in 0..64 {
            let (tp, _) = transforms(1u64 << sq, 0)[t];
            if tp & mask != 0 {
                out |= 1u64 << sq;
            }
        }
        out
    }

    #[test]
    fn instances_are_distinct_and_cover_what_they_should() {
        let mut all = Vec::new();
        for pattern in &PATTERNS {
            let sets: Vec<u64> = pattern.transforms.iter().map(|&t| instance_squares(pattern.mask, t)).collect();
            for (i, a) in sets.iter().enumerate() {
                assert_eq!(a.count_ones(), pattern.mask.count_ones());
                assert!(sets[i + 1..].iter().all(|b| b != a), "{}: duplicate instance", pattern.name);
            }
            all.extend(sets);
        }
        assert_eq!(all.len(), INSTANCES);
        assert_eq!(INSTANCES, 46);
        // The edges with their X squares: row 1, row 8, column a, column h.
        let edge: Vec<u64> = PATTERNS[0].transforms.iter().map(|&t| instance_squares(PATTERNS[0].mask, t)).collect();
        assert!(edge.contains(&0x0000_0000_0000_42FF));
        assert!(edge.contains(&0xFF42_0000_0000_0000));
        assert!(edge.contains(&(0x0101_0101_0101_0101 | 0x0002_0000_0000_0200)));
        assert!(edge.contains(&(0x8080_8080_8080_8080 | 0x0040_0000_0000_4000)));
    }

    #[test]
    fn own_symmetries() {
        let count = |i: usize| self_symmetries(&PATTERNS[i]).len();
        assert_eq!(count(0), 2, "an edge reads the same backwards");
        assert_eq!(count(1), 2, "a 3x3 corner is symmetric about its diagonal");
        assert_eq!(count(2), 1, "a 2x5 corner has no symmetry");
        assert_eq!(count(3), 2);
        assert_eq!(count(6), 2);
        let canon = canonical_indices(3);
        // Row 2 with one disc on a2 (digit 0) and one with the disc on h2 (digit 7).
        assert_eq!(canon[1], canon[3usize.pow(7)]);
        assert_eq!(canon[1], 1);
    }

    /// With weights equal across symmetric indices, the evaluation is the same for
    /// all eight images of a board.
    #[test]
    fn evaluation_is_symmetric() {
        let mut weights = vec![0i16; PHASES * PHASE_WEIGHTS];
        let mut state = 3u64;
        for phase in 0..PHASES {
            for (i, _) in PATTERNS.iter().enumerate() {
                let canon = canonical_indices(i);
                for (index, &c) in canon.iter().enumerate() {
                    let v = (splitmix64(c as u64 ^ (i as u64) << 20 ^ (phase as u64) << 40) % 200) as i16 - 100;
                    weights[phase * PHASE_WEIGHTS + OFFSETS[i] + index] = v;
                }
            }
            for j in 0..SCALARS {
                state = splitmix64(state);
                weights[phase * PHASE_WEIGHTS + PATTERN_WEIGHTS + j] = (state % 100) as i16;
            }
        }
        let eval = PatternEval::from_weights(weights).unwrap();
        let mut b = Board::start();
        for sq in [19u8, 18, 17, 25, 37, 20, 29, 12] {
            if let Some(next) = b.play(sq) {
                b = next;
            }
            let v = eval.eval_fine(b.player, b.opponent);
            for s in b.symmetries() {
                assert_eq!(eval.eval_fine(s.player, s.opponent), v);
            }
        }
    }

    /// Features updated move by move (and pass by pass) through random games equal
    /// the features read from the board, and evaluate alike.
    #[test]
    fn features_follow_the_moves() {
        let weights: Vec<i16> =
            (0..PHASES * PHASE_WEIGHTS).map(|i| (splitmix64(i as u64) % 301) as i16 - 150).collect();
        // The second evaluation has one pattern zero everywhere (not read).
        let mut partial = weights.clone();
        for ph in 0..PHASES {
            partial[ph * PHASE_WEIGHTS + OFFSETS[2]..ph * PHASE_WEIGHTS + OFFSETS[3]].fill(0);
        }
        let weights_partial = partial.clone();
        let eval = PatternEval::from_weights(weights).unwrap();
        let partial = PatternEval::from_weights(partial).unwrap();
        assert!(partial.active.iter().all(|a| a.len() == INSTANCES - 8));
        assert!(partial.used.iter().all(|u| u.iter().filter(|&&x| !x).count() == 1 && !u[2]));
        assert!(partial.weights() == weights_partial);
        let same = |a: &Features, b: &Features| a.mover == b.mover && a.other == b.other;
        let mut state = 5u64;
        let mut checked = 0;
        for _ in 0..40 {
            let mut b = Board::start();
            let mut f = Features::new(b.player, b.opponent);
            loop {
                let legal = moves(b.player, b.opponent);
                if legal == 0 {
                    if moves(b.opponent, b.player) == 0 {
                        break;
                    }
                    b = Board { player: b.opponent, opponent: b.player };
                    f = f.passed();
                    assert!(same(&f, &Features::new(b.player, b.opponent)));
                    continue;
                }
                state = splitmix64(state);
                let sq = squares(legal).nth((state % legal.count_ones() as u64) as usize).unwrap();
                let flips = bitboards::othello::flips::flips(b.player, b.opponent, sq);
                let child = b.play_flips(sq, flips);
                let fc = f.after(sq, flips);
                assert!(same(&fc, &Features::new(child.player, child.opponent)));
                assert!(f.child_view(sq, flips).0 == fc.mover);
                for e in [&eval, &partial] {
                    let value = e.eval_fine(child.player, child.opponent);
                    assert_eq!(e.eval_fine_from(&fc, child.player, child.opponent), value);
                    assert_eq!(e.eval_fine_view(&f.child_view(sq, flips), child.player, child.opponent), value);
                }
                (b, f) = (child, fc);
                checked += 1;
            }
        }
        assert!(checked > 2000);
    }

    /// The instance readers give the indices of the transformed boards.
    #[test]
    fn instance_readers_match_the_transforms() {
        let readers = InstanceReaders::new();
        let mut state = 11u64;
        for _ in 0..2000 {
            state = splitmix64(state);
            let a = state;
            state = splitmix64(state);
            let (p, o) = (a & state, !a & (state | state.rotate_left(7)));
            let slow: Vec<usize> = feature_indices(p, o).iter().map(|&i| i as usize).collect();
            let fast: Vec<usize> = readers.indices(p, o).collect();
            assert_eq!(fast, slow);
        }
    }

    #[test]
    fn ternary_indices() {
        // Row 2 with the side to move on a2 and the other side on b2: 1 + 2·3 = 7.
        let p = 1u64 << 8;
        let o = 1u64 << 9;
        let f = feature_indices(p, o);
        let row2 = PATTERNS[..3].iter().map(|x| x.transforms.len()).sum::<usize>();
        assert_eq!(f[row2] as usize - OFFSETS[3], 7);
        assert_eq!(TERNARY[0b11], 4);
    }
}
