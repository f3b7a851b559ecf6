//! A board built for random playouts: every operation a playout needs is a few array
//! updates. Same rules as [`super::Board`] (simple ko, no suicide), checked against it
//! move by move in the tests.
//!
//! * points live on a grid padded with an off-board border, so neighbours never need
//!   bounds checks;
//! * stones of a chain form a circular list and share a representative; chains merge
//!   by relabelling the smaller one;
//! * each chain counts its **pseudo-liberties** (pairs of a stone and an empty
//!   neighbour), with the sum of their empty cells and of those cells' squares
//!   ([`Pairs`]): removing the pairs a move takes away tells exactly whether a chain
//!   keeps a liberty, and whether a chain has a single liberty (and which) is read
//!   from the three numbers, without finding the liberties;
//! * the stones of each colour are also kept in a `u128` over the padded grid (bit =
//!   cell): the empty points, eyes and points touching an empty point are a few shifts
//!   or one mask of a point's neighbours away; a random playout move is drawn from
//!   such masks, and the final area count is a few more.

use super::board::{Board, Color};
use super::coords::Point;
use crate::arch::select_bit;
use crate::rng::splitmix64;

const PAD: usize = 11;
/// The padded grid (121 cells) rounded up to 128: the bits of a `u128` mask.
const CELLS: usize = 128;
/// Length of the cell arrays: every `u8` indexes them in bounds, so that a cell read
/// from one of them indexes the next without a mask or a bounds check.
const SLOTS: usize = 256;
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const OFF: u8 = 3;

/// The 4 neighbour offsets on the padded grid.
const DIRS: [isize; 4] = [-(PAD as isize), -1, 1, PAD as isize];

/// The four neighbours of each cell as a mask (for the cells of a board: padding
/// cells and cells beyond 120 are never neighbours of one).
static NEIGHBOURS: [u128; SLOTS] = {
    let mut t = [0u128; SLOTS];
    let mut c = PAD;
    while c < CELLS - PAD {
        t[c] = (1 << (c - PAD)) | (1 << (c - 1)) | (1 << (c + 1)) | (1 << (c + PAD));
        c += 1;
    }
    t
};

/// The mask of each cell alone (a table read rather than a shift, so that a mask
/// update is one 16-byte store that the next 16-byte load of it can be forwarded from).
/// Cell 0, which is off the board and stands for "no ko point", has the empty mask.
static BIT: [u128; SLOTS] = {
    let mut t = [0u128; SLOTS];
    let mut c = 1;
    while c < CELLS {
        t[c] = 1 << c;
        c += 1;
    }
    t
};

/// `Pairs::of` each cell, read rather than computed.
static PAIR: [u64; SLOTS] = {
    let mut t = [0u64; SLOTS];
    let mut c = 0;
    while c < CELLS {
        t[c] = Pairs::of(c).0;
        c += 1;
    }
    t
};

/// The four diagonal neighbours of each cell as a mask (padding cells included), for
/// the cells of a board.
static DIAGONALS: [u128; SLOTS] = {
    let mut t = [0u128; SLOTS];
    let mut c = PAD + 1;
    while c < CELLS - PAD - 1 {
        t[c] = (1 << (c - PAD - 1)) | (1 << (c - PAD + 1)) | (1 << (c + PAD - 1)) | (1 << (c + PAD + 1));
        c += 1;
    }
    t
};

/// The four neighbours of the cells of `m` (as a mask; padding cells included).
#[inline(always)]
fn spread(m: u128) -> u128 {
    (m << 1) | (m >> 1) | (m << PAD) | (m >> PAD)
}

/// The cells all four of whose neighbours are in `m`.
#[inline(always)]
fn surrounded(m: u128) -> u128 {
    (m << 1) & (m >> 1) & (m << PAD) & (m >> PAD)
}

/// The four diagonal neighbours of the cells of `m`, one mask per direction (padding
/// cells included).
#[inline(always)]
fn diagonals(m: u128) -> [u128; 4] {
    [m << (PAD - 1), m >> (PAD - 1), m << (PAD + 1), m >> (PAD + 1)]
}

/// `*mask |= bits` as one 16-byte load and one 16-byte store. Two 8-byte stores (what
/// a `u128` update compiles to) cannot be forwarded to the 16-byte load that reads
/// the mask back for the next move's draw, which then waits for them to be written.
#[inline(always)]
fn set_bits(mask: &mut u128, bits: u128) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_or_si128, _mm_storeu_si128};
        let p = mask as *mut u128 as *mut __m128i;
        // SAFETY: SSE2 is part of x86-64; `p` and `bits` are valid 16-byte values.
        unsafe {
            let b = _mm_loadu_si128(&bits as *const u128 as *const __m128i);
            _mm_storeu_si128(p, _mm_or_si128(_mm_loadu_si128(p), b));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        *mask |= bits;
    }
}

/// `*mask &= !bits`, stored as [`set_bits`] stores.
#[inline(always)]
fn clear_bits(mask: &mut u128, bits: u128) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_andnot_si128, _mm_loadu_si128, _mm_storeu_si128};
        let p = mask as *mut u128 as *mut __m128i;
        // SAFETY: as in `set_bits`.
        unsafe {
            let b = _mm_loadu_si128(&bits as *const u128 as *const __m128i);
            _mm_storeu_si128(p, _mm_andnot_si128(b, _mm_loadu_si128(p)));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        *mask &= !bits;
    }
}

/// True for a black or a white stone.
#[inline(always)]
fn is_stone(color: u8) -> bool {
    color.wrapping_sub(1) < 2
}

/// An index into the cell arrays, provably in bounds (free for a cell that is a `u8`).
#[inline(always)]
fn ix(x: usize) -> usize {
    x & (SLOTS - 1)
}

/// A board for playouts on sides up to 9.
#[derive(Clone)]
pub struct FastBoard {
    size: u8,
    color: [u8; SLOTS],
    chain: [u8; SLOTS],
    next: [u8; SLOTS],
    /// The pseudo-liberties of each chain (at its representative), packed as
    /// [`Pairs`]: how many pairs, the sum of their empty cells, the sum of those
    /// cells' squares.
    libs: [Pairs; SLOTS],
    chain_size: [u8; SLOTS],
    ko: u8,
    to_move: u8,
    passes: u8,
    /// The stones of each colour, bit = cell: white at index 0, black at 1
    /// (`colour & 1`).
    stones: [u128; 2],
    /// The cells of the board.
    on_board: u128,
    /// The empty cells but the simple-ko point: the candidates of a random draw, kept
    /// up to date by every move so that a draw reads one mask.
    free: u128,
}

/// A point on the padded grid.
pub type Cell = u8;

impl FastBoard {
    /// The padded cell of a point.
    pub const fn cell(p: Point) -> Cell {
        ((p.row() + 1) * PAD + p.col() + 1) as Cell
    }

    /// The point of a padded cell.
    pub const fn point(cell: Cell) -> Point {
        Point::new(cell as usize / PAD - 1, cell as usize % PAD - 1)
    }

    /// An empty board of side `size`, black to move.
    pub fn new(size: usize) -> FastBoard {
        assert!((2..=9).contains(&size));
        let mut b = FastBoard {
            size: size as u8,
            color: [OFF; SLOTS],
            chain: [0; SLOTS],
            next: [0; SLOTS],
            libs: [Pairs(0); SLOTS],
            chain_size: [0; SLOTS],
            ko: 0,
            to_move: BLACK,
            passes: 0,
            stones: [0; 2],
            on_board: 0,
            free: 0,
        };
        for r in 0..size {
            for c in 0..size {
                let cell = Self::cell(Point::new(r, c));
                b.color[cell as usize] = EMPTY;
                b.on_board |= 1 << cell;
            }
        }
        b.free = b.on_board;
        b
    }

    /// A playout board holding the position of `board` (its colour to move and ko).
    pub fn from_board(board: &Board) -> FastBoard {
        let mut f = FastBoard::new(board.size());
        for p in board.points() {
            if let Some(c) = board.at(p) {
                f.put_stone(Self::cell(p), color_code(c));
            }
        }
        f.to_move = color_code(board.to_move());
        f.ko = board.ko().map_or(0, Self::cell);
        clear_bits(&mut f.free, BIT[ix(f.ko as usize)]);
        f
    }

    /// Side length.
    pub fn size(&self) -> usize {
        self.size as usize
    }
    /// The colour to move.
    pub fn to_move(&self) -> Color {
        if self.to_move == BLACK { Color::BLACK } else { Color::WHITE }
    }
    /// The empty cells as a mask (bit = cell).
    #[inline(always)]
    pub fn empty_mask(&self) -> u128 {
        self.on_board & !(self.stones[0] | self.stones[1])
    }
    /// The empty cells, in increasing order.
    pub fn empties(&self) -> impl Iterator<Item = Cell> + use<> {
        let mut rest = self.empty_mask();
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let cell = rest.trailing_zeros() as Cell;
                rest &= rest - 1;
                cell
            })
        })
    }
    /// Number of empty cells.
    #[inline(always)]
    pub fn empty_count(&self) -> usize {
        self.empty_mask().count_ones() as usize
    }
    /// Consecutive passes.
    pub fn passes(&self) -> u8 {
        self.passes
    }
    /// The simple-ko cell (0 if none).
    pub fn ko(&self) -> Cell {
        self.ko
    }
    /// What stands on a cell.
    pub fn at(&self, cell: Cell) -> Option<Color> {
        match self.color[ix(cell as usize)] {
            BLACK => Some(Color::BLACK),
            WHITE => Some(Color::WHITE),
            _ => None,
        }
    }

    /// The neighbours of `cell` on the board, as a mask.
    #[inline(always)]
    fn neighbour_mask(&self, cell: usize) -> u128 {
        NEIGHBOURS[ix(cell)] & self.on_board
    }

    /// True if the empty `cell` is eye-shaped for `color`: its four neighbours are
    /// stones of `color` (or the edge), whatever the diagonals hold. The search's root
    /// never tries such points (unless filling one saves an own chain in atari), so a
    /// settled game is not filled in; playouts and the tree below the root skip only
    /// true eyes ([`FastBoard::true_eyes`]).
    #[inline(always)]
    pub fn is_eye(&self, cell: Cell, color: Color) -> bool {
        self.neighbour_mask(cell as usize) & !self.stones[color_code(color) as usize & 1] == 0
    }

    /// The true eyes of `color`: empty points whose four neighbours are its stones (or
    /// the edge) and whose diagonals hold at most one enemy stone, none on the edge or
    /// in a corner (the eye rule of libego, Pachi and Fuego). The other eye-shaped
    /// points are false eyes: filling one connects the chains around it, and
    /// playouts may do so.
    pub fn true_eyes(&self, color: Color) -> u128 {
        self.true_eyes_of(color_code(color) as usize & 1)
    }

    /// [`FastBoard::true_eyes`] of the colour with stones at `self.stones[me]`.
    #[inline(always)]
    fn true_eyes_of(&self, me: usize) -> u128 {
        let (mine, theirs) = (self.stones[me], self.stones[me ^ 1]);
        let off = !self.on_board;
        let eye_shaped = surrounded(mine | off) & self.on_board & !(mine | theirs);
        let [a, b, c, d] = diagonals(theirs);
        let one_enemy = a | b | c | d;
        let two_enemies = (a & b) | ((a | b) & (c | d)) | (c & d);
        let [e, f, g, h] = diagonals(off);
        let on_edge = e | f | g | h;
        eye_shaped & !(two_enemies | (on_edge & one_enemy))
    }

    /// True if the empty `cell` touches stones of the side to move and no enemy stone
    /// (inside its own area).
    #[inline(always)]
    pub fn is_inside_own_area(&self, cell: Cell) -> bool {
        let around = NEIGHBOURS[ix(cell as usize)];
        let me = self.to_move as usize & 1;
        around & self.stones[me] != 0 && around & self.stones[me ^ 1] == 0
    }

    /// The position as a [`Board`]: its stones and its colour to move (not its ko
    /// point, which a `Board` takes only from a move).
    pub fn to_board(&self) -> Board {
        let (black, white) = self.stone_sets();
        let mut board = Board::new(self.size());
        for p in super::bits(black) {
            board.set(p, Some(Color::BLACK));
        }
        for p in super::bits(white) {
            board.set(p, Some(Color::WHITE));
        }
        board.set_to_move(self.to_move());
        board
    }

    /// The stones of each colour as bitboards of the [`super::Board`] layout.
    pub fn stone_sets(&self) -> (u128, u128) {
        let (mut black, mut white) = (0, 0);
        for r in 0..self.size() {
            for c in 0..self.size() {
                let p = Point::new(r, c);
                match self.color[ix(Self::cell(p) as usize)] {
                    BLACK => black |= p.bit(),
                    WHITE => white |= p.bit(),
                    _ => {}
                }
            }
        }
        (black, white)
    }

    /// True if the side to move may play on the empty `cell` without filling one of
    /// its own true eyes: the playout policy's test, one mask in the common case (a
    /// point with an empty neighbour is no eye and is legal unless it is the ko point).
    #[inline(always)]
    pub fn is_playable(&self, cell: Cell) -> bool {
        if self.neighbour_mask(cell as usize) & self.empty_mask() != 0 {
            return cell != self.ko;
        }
        cell != self.ko && self.closed_point_is_playable(cell as usize)
    }

    /// A uniformly random point where the side to move may play without filling one of
    /// its own true eyes (what [`FastBoard::is_playable`] accepts), or `None` if there is
    /// none; `below(n)` must return a uniform integer in `0..n`.
    ///
    /// The candidates are the empty points but the ko point; each drawn one is judged
    /// alone. One with a free neighbour (empty, not the ko point; most of them) is
    /// taken at once: it is legal and no eye. Any other (a closed point) is refused if
    /// it is an own true eye (its diagonals read only then) and otherwise taken only if
    /// it captures or an own neighbouring chain keeps a liberty, checked without a
    /// branch per neighbour. A refused point is taken out before the next draw; after
    /// the first refusal every own true eye is taken out at once (a few masks), so
    /// that the later draws, most of them late in a playout and in passes, skip them.
    /// Rejection sampling: the result is uniform over the playable points, each point
    /// is checked at most once, a pass is known without scanning the board again, and
    /// a move whose first draw is taken pays for no eye mask.
    #[inline]
    pub fn pick_playable(&self, mut below: impl FnMut(u32) -> u32) -> Option<Cell> {
        // A point whose only empty neighbour is the ko point is judged as a closed
        // point, with the same answer.
        let free = self.free;
        let mut candidates = free;
        let n = candidates.count_ones();
        if n == 0 {
            return None;
        }
        let cell = select_bit(candidates, below(n)) as usize;
        if NEIGHBOURS[ix(cell)] & free != 0 || self.closed_point_is_playable(cell) {
            return Some(cell as Cell);
        }
        // Refused once: strike every own true eye at once (a mask), then draw on.
        let me = self.to_move as usize & 1;
        candidates &= !(BIT[ix(cell)] | self.true_eyes_of(me));
        loop {
            let n = candidates.count_ones();
            if n == 0 {
                return None;
            }
            let cell = select_bit(candidates, below(n)) as usize;
            if NEIGHBOURS[ix(cell)] & free != 0 || self.captures_or_keeps_liberty(cell) {
                return Some(cell as Cell);
            }
            candidates &= !BIT[ix(cell)];
        }
    }

    /// [`FastBoard::is_playable`] for an empty point, not the ko point, without an
    /// empty neighbour but perhaps the ko point: no own true eye, and a legal move.
    #[inline(always)]
    fn closed_point_is_playable(&self, cell: usize) -> bool {
        let me = self.to_move as usize & 1;
        let eye_shaped = self.neighbour_mask(cell) & !self.stones[me] == 0;
        !(eye_shaped && self.is_true_eye_shape(cell, me)) && self.captures_or_keeps_liberty(cell)
    }

    /// For an eye-shaped empty `cell` of the colour with stones at `self.stones[me]`:
    /// true if its diagonals make it a true eye (at most one enemy stone, none if the
    /// point is on the edge or in a corner), the rule of [`FastBoard::true_eyes`].
    #[inline(always)]
    fn is_true_eye_shape(&self, cell: usize, me: usize) -> bool {
        let diagonal = DIAGONALS[ix(cell)];
        let enemies = (diagonal & self.stones[me ^ 1]).count_ones();
        let off_board = diagonal & !self.on_board != 0;
        enemies + u32::from(off_board) < 2
    }

    /// True if the side to move may play on the empty `cell` (not ko, not suicide).
    #[inline]
    pub fn is_legal(&self, cell: Cell) -> bool {
        if NEIGHBOURS[ix(cell as usize)] & self.empty_mask() != 0 {
            return cell != self.ko;
        }
        self.is_legal_slow(cell as usize)
    }

    /// [`FastBoard::is_legal`] for a point without an empty neighbour: legal if an own
    /// neighbouring chain has a pseudo-liberty elsewhere, or an enemy one has none
    /// elsewhere (it is captured). See [`FastBoard::captures_or_keeps_liberty`].
    fn is_legal_slow(&self, cell: usize) -> bool {
        cell as u8 != self.ko && self.captures_or_keeps_liberty(cell)
    }

    /// [`FastBoard::is_legal_slow`] but for the ko rule, with no branch at all (playouts
    /// call this mostly on the other side's eyes, where a branch per neighbour would be
    /// mispredicted often). A chain's only liberty is `cell` exactly when each of its
    /// pairs is with `cell`: its [`Pairs`] are their count times the pair of `cell`
    /// (the sums then name no other point), one multiplication a neighbour.
    #[inline(always)]
    fn captures_or_keeps_liberty(&self, cell: usize) -> bool {
        let me = self.to_move;
        let here = PAIR[ix(cell)];
        let mut legal = false;
        for d in DIRS {
            let q = ix((cell as isize + d) as usize);
            let color = self.color[q];
            // A volatile read keeps the four reads apart: the compiler would otherwise
            // fetch them with one AVX-512 gather, which made light playouts 5 % slower
            // on a Zen 4.
            // SAFETY: a reference is valid and aligned for a read.
            let libs = unsafe { std::ptr::read_volatile(&self.libs[ix(self.chain[q] as usize)]) };
            // (A stale entry of an empty or off-board neighbour may overflow: its
            // colour discards it.)
            let only_here = libs.0 == u64::from(libs.count()).wrapping_mul(here);
            legal |= color == EMPTY;
            legal |= (color == me) & !only_here;
            legal |= (color == 3 - me) & only_here;
        }
        legal
    }

    /// The four neighbours of `cell` (off-board ones included; [`FastBoard::at`] says
    /// `None` for them as for empty points).
    #[inline(always)]
    pub fn neighbours(cell: Cell) -> [Cell; 4] {
        DIRS.map(|d| (cell as isize + d) as Cell)
    }

    /// The eight cells around `cell`, row by row: the three on the row before, left,
    /// right, the three on the row after (off-board ones included; see
    /// [`FastBoard::is_on_board`]).
    #[inline(always)]
    pub fn ring(cell: Cell) -> [Cell; 8] {
        let p = PAD as isize;
        [-p - 1, -p, -p + 1, -1, 1, p - 1, p, p + 1].map(|d| (cell as isize + d) as Cell)
    }

    /// What stands on the eight cells of [`FastBoard::ring`] around `cell`, 2 bits per
    /// cell in ring order (cell `i` at bits `2i`): 0 empty, 1 black, 2 white, 3 off the
    /// board. The index of 3×3 pattern tables.
    #[inline(always)]
    pub fn ring_colors(&self, cell: Cell) -> u16 {
        let mut code = 0;
        for (i, q) in Self::ring(cell).into_iter().enumerate() {
            code |= u16::from(self.color[ix(q as usize)]) << (2 * i);
        }
        code
    }

    /// The empty points among the eight cells of [`FastBoard::ring`] around `cell`, as
    /// a mask.
    #[inline(always)]
    pub fn empty_ring(&self, cell: Cell) -> u128 {
        let m = 1u128 << (cell as usize & (CELLS - 1));
        let row = m | (m << 1) | (m >> 1);
        ((row << PAD) | (row >> PAD) | (m << 1) | (m >> 1)) & self.empty_mask()
    }

    /// True if `cell` is a point of the board (not the padding around it).
    #[inline(always)]
    pub fn is_on_board(&self, cell: Cell) -> bool {
        self.color[ix(cell as usize)] != OFF
    }

    /// True if stones stand on `a` and `b` and they belong to one chain.
    #[inline]
    pub fn same_chain(&self, a: Cell, b: Cell) -> bool {
        let (ca, cb) = (self.color[ix(a as usize)], self.color[ix(b as usize)]);
        (ca == BLACK || ca == WHITE) && ca == cb && self.chain[ix(a as usize)] == self.chain[ix(b as usize)]
    }

    /// Stones in the chain standing on `cell` (0 for an empty or off-board cell).
    #[inline]
    pub fn chain_stones(&self, cell: Cell) -> u32 {
        match self.color[ix(cell as usize)] {
            BLACK | WHITE => u32::from(self.chain_size[ix(self.chain[ix(cell as usize)] as usize)]),
            _ => 0,
        }
    }

    /// True if the empty `cell` is the last liberty of a chain of the side to move next
    /// to it and playing there saves it: a legal move after which the chain has two
    /// liberties or more (filling a false eye to connect, not a self-atari).
    pub fn saves_own_chain_in_atari(&self, cell: Cell) -> bool {
        let me = self.to_move;
        let in_atari = Self::neighbours(cell)
            .into_iter()
            .any(|n| self.color[ix(n as usize)] == me && self.atari_liberty(n) == Some(cell));
        if !in_atari || !self.is_legal(cell) {
            return false;
        }
        let mut after = self.clone();
        after.play(cell);
        after.atari_liberty(cell).is_none()
    }

    /// The only liberty of the chain standing on `cell` if it has exactly one (the chain
    /// is in atari): read from the chain's pseudo-liberty pairs, their sum and their
    /// sum of squares, in constant time.
    #[inline]
    pub fn atari_liberty(&self, cell: Cell) -> Option<Cell> {
        if !is_stone(self.color[ix(cell as usize)]) {
            return None;
        }
        let ch = ix(self.chain[ix(cell as usize)] as usize);
        self.libs[ch].single_liberty()
    }

    /// True if the side to move, playing on the empty `cell`, would leave a chain of more
    /// than one stone with a single liberty and capture nothing (a self-atari that
    /// playouts avoid; a lone stone's self-atari, a throw-in, is allowed).
    pub fn is_big_self_atari(&self, cell: Cell) -> bool {
        let me = self.to_move;
        let c = cell as usize;
        // The common cases by masks: two empty neighbours are two liberties, and a
        // stone touching no own stone is alone.
        let around = NEIGHBOURS[ix(c)];
        if (around & self.empty_mask()).count_ones() >= 2 || around & self.stones[me as usize & 1] == 0 {
            return false;
        }
        // Distinct liberties of the new chain other than `cell`, up to 2: the empty
        // neighbours, and each own neighbouring chain's liberties once its pairs with
        // `cell` are taken away (read from its sums, without walking it).
        // (the first one, how many up to 2)
        let mut found = (0u32, 0u8);
        fn add(found: &mut (u32, u8), q: u32) {
            if found.1 == 0 {
                *found = (q, 1);
            } else if found.0 != q {
                found.1 = 2;
            }
        }
        let q = DIRS.map(|d| ix((c as isize + d) as usize));
        let color = q.map(|q| self.color[q]);
        let chain = q.map(|q| self.chain[q]);
        for i in 0..4 {
            match color[i] {
                EMPTY => add(&mut found, q[i] as u32),
                OFF => {}
                x if x == me => {
                    if (0..i).any(|j| color[j] == me && chain[j] == chain[i]) {
                        continue; // this chain was counted
                    }
                    let taken = (0..4).filter(|&j| color[j] == me && chain[j] == chain[i]).count() as u32;
                    let ch = ix(chain[i] as usize);
                    let rest = Pairs(self.libs[ch].0 - u64::from(taken) * Pairs::of(c).0);
                    if rest.count() == 0 {
                        continue; // no liberty but `cell`
                    }
                    match rest.single_liberty() {
                        Some(liberty) => add(&mut found, u32::from(liberty)),
                        None => return false, // two more liberties
                    }
                }
                _ => {
                    if self.atari_liberty(q[i] as u8) == Some(cell) {
                        return false; // captures
                    }
                }
            }
        }
        found.1 < 2
    }

    /// Places a stone of colour `c` on the empty `cell` with no rule check and no
    /// captures (setting up positions; [`FastBoard::play`] captures after it). Returns
    /// the enemy chains it left without pseudo-liberties: one bit per direction of
    /// [`DIRS`], set on the neighbour where such a chain lost its last pair.
    #[inline(always)]
    fn put_stone(&mut self, cell: Cell, c: u8) -> u8 {
        let ci = cell as usize;
        // The own neighbours, read before the stone is added to the mask.
        let own = NEIGHBOURS[ix(ci)] & self.stones[c as usize & 1];
        self.color[ix(ci)] = c;
        set_bits(&mut self.stones[c as usize & 1], BIT[ix(ci)]);
        clear_bits(&mut self.free, BIT[ix(ci)]);
        self.chain[ix(ci)] = cell;
        self.next[ix(ci)] = cell;
        self.chain_size[ix(ci)] = 1;
        // The stone joins the first own neighbour's chain (no relabelling); with none,
        // its own one-stone chain, which changes nothing: no branch.
        let joins = own != 0;
        let first = std::hint::select_unpredictable(joins, own.trailing_zeros() as usize, ci);
        let rep = self.chain[ix(first)];
        // One pass over the neighbours, without a branch: the lone stone's pairs with
        // the empty ones; every neighbouring chain loses its pair with this point (an
        // empty or off-board neighbour takes 0 from whatever its stale chain entry
        // names), an enemy one left with none is marked.
        let here = PAIR[ix(ci)];
        let enemy = 3 - c;
        let (mut libs, mut dead) = (0, 0u8);
        for (i, d) in DIRS.into_iter().enumerate() {
            let q = ix((ci as isize + d) as usize);
            let color = self.color[q];
            let ch = self.chain[q];
            libs += std::hint::select_unpredictable(color == EMPTY, PAIR[q], 0);
            let rest = self.libs[ix(ch as usize)].0.wrapping_sub(u64::from(is_stone(color)) * here);
            self.libs[ix(ch as usize)].0 = rest;
            dead |= (u8::from(color == enemy) & u8::from(rest as u16 == 0)) << i;
        }
        self.libs[ix(ci)] = Pairs(libs);
        let r = ix(rep as usize);
        self.chain[ix(ci)] = rep;
        self.next[ix(ci)] = self.next[r];
        self.next[r] = cell;
        self.chain_size[r] += u8::from(joins);
        self.libs[r].0 += libs & 0u64.wrapping_sub(u64::from(joins));
        // With two or more own neighbours, their chains merge into that one (those
        // already in it are skipped): one branch, taken by 3 moves in 10 of a light
        // playout, and no comparison of chains in the pass above.
        let others = own & own.wrapping_sub(1);
        if others != 0 {
            self.merge_around(ci, rep, others);
        }
        dead
    }

    /// Merges into the chain `rep` of the stone just placed on `ci` the chains of the
    /// own neighbours in `others` (a mask).
    #[inline(never)]
    fn merge_around(&mut self, ci: usize, mut rep: u8, mut others: u128) {
        debug_assert!(others & !NEIGHBOURS[ix(ci)] == 0);
        while others != 0 {
            let q = ix(others.trailing_zeros() as usize);
            others &= others - 1;
            rep = self.merge(rep, self.chain[q]);
        }
    }

    /// Merges the chains with representatives `a` and `b` (relabels the smaller);
    /// returns the representative of the whole.
    fn merge(&mut self, a: u8, b: u8) -> u8 {
        if a == b {
            return a;
        }
        let a_is_bigger = self.chain_size[ix(a as usize)] >= self.chain_size[ix(b as usize)];
        let big = std::hint::select_unpredictable(a_is_bigger, a, b);
        let small = std::hint::select_unpredictable(a_is_bigger, b, a);
        let mut s = small;
        loop {
            self.chain[ix(s as usize)] = big;
            s = self.next[ix(s as usize)];
            if s == small {
                break;
            }
        }
        self.next.swap(big as usize, small as usize);
        self.chain_size[ix(big as usize)] += self.chain_size[ix(small as usize)];
        self.libs[ix(big as usize)].0 += self.libs[ix(small as usize)].0;
        big
    }

    /// Removes the chain `ch`; returns how many stones it had.
    fn capture(&mut self, ch: u8) -> u32 {
        let c = self.color[ix(ch as usize)];
        let capturer = 3 - c;
        let mut s = ch;
        let mut gone = 0u128;
        // One walk over the chain: each stone is emptied and gives its pairs back to
        // the capturer's chains around it (its neighbours of its own colour are stones
        // of the chain; empty and off-board ones name stale chains, which their colour
        // keeps from gaining), without a branch: whether a neighbour is the capturer's
        // is a coin toss.
        loop {
            self.color[ix(s as usize)] = EMPTY;
            gone |= BIT[ix(s as usize)];
            let pair = PAIR[ix(s as usize)];
            for d in DIRS {
                let q = ix((s as isize + d) as usize);
                let qc = ix(self.chain[q] as usize);
                let gain = std::hint::select_unpredictable(self.color[q] == capturer, pair, 0);
                self.libs[qc].0 = self.libs[qc].0.wrapping_add(gain);
            }
            s = self.next[ix(s as usize)];
            if s == ch {
                break;
            }
        }
        clear_bits(&mut self.stones[c as usize & 1], gone);
        set_bits(&mut self.free, gone);
        u32::from(self.chain_size[ix(ch as usize)])
    }

    /// Plays the side to move on `cell`, which must be legal; returns the stones
    /// captured.
    #[inline(always)]
    pub fn play(&mut self, cell: Cell) -> u32 {
        let me = self.to_move;
        let ci = cell as usize;
        // The ko point of the move before is free again (cell 0, no ko, adds nothing).
        set_bits(&mut self.free, BIT[ix(self.ko as usize)]);
        // The enemy chains left without pseudo-liberties, marked without a branch
        // (whether a neighbour is an enemy is a coin toss in a playout); one branch
        // on the whole, to the captures (one move in seven of a light playout).
        let dead = self.put_stone(cell, me);
        self.to_move = 3 - me;
        self.passes = 0;
        if dead == 0 {
            self.ko = 0;
            return 0;
        }
        self.capture_around(ci, dead)
    }

    /// The captures of the stone just played on `ci`: the neighbours named by the
    /// bits of `dead` (one per direction of [`DIRS`]) are removed with their chains,
    /// and the ko point is set. Returns the stones captured.
    #[inline(never)]
    fn capture_around(&mut self, ci: usize, dead: u8) -> u32 {
        let mut captured = 0;
        let mut last_captured = 0u8;
        let mut dead = dead;
        while dead != 0 {
            let q = ix((ci as isize + DIRS[dead.trailing_zeros() as usize & 3]) as usize);
            dead &= dead - 1;
            // One bit a chain: only its last pair with the stone leaves it none, and two
            // dead enemy chains never touch (they would be one chain).
            debug_assert!(is_stone(self.color[q]));
            captured += self.capture(self.chain[q]);
            last_captured = q as u8;
        }
        let own = self.chain[ix(ci)] as usize;
        self.ko = if captured == 1 && self.chain_size[ix(own)] == 1 && self.libs[ix(own)].count() == 1 {
            last_captured
        } else {
            0
        };
        clear_bits(&mut self.free, BIT[ix(self.ko as usize)]);
        captured
    }

    /// The side to move passes.
    pub fn pass(&mut self) {
        self.to_move = 3 - self.to_move;
        set_bits(&mut self.free, BIT[ix(self.ko as usize)]);
        self.ko = 0;
        self.passes = self.passes.saturating_add(1);
    }

    /// A 64-bit key of the stones alone, for superko: boards with the same stones have
    /// the same key whatever the ko point and passes; with `side`, the side to move is
    /// mixed in (situational superko). Computed from the stone masks, as
    /// [`FastBoard::position_key`].
    pub fn stones_key(&self, side: bool) -> u64 {
        self.mixed_key(0x1319_8A2E_0370_7344, if side { u64::from(self.to_move) } else { 0 })
    }

    /// A 64-bit key of the position for the search tree's transposition table: the
    /// stones of each colour, the side to move, the simple-ko point and the passes in a
    /// row (0, 1, or 2 and more, after which the game is over) go through a
    /// multiply-xorshift mixer. Computed from the stone masks when asked, so that the
    /// playouts' hot path keeps no incremental (Zobrist) key up to date.
    pub fn position_key(&self) -> u64 {
        let state = u64::from(self.ko) | u64::from(self.to_move) << 8 | u64::from(self.passes.min(2)) << 16;
        self.mixed_key(0x243F_6A88_85A3_08D3, state)
    }

    /// The stones of each colour and then `state`, folded from `seed` through the
    /// mixer: the keys of [`FastBoard::position_key`] and [`FastBoard::stones_key`].
    #[inline]
    fn mixed_key(&self, seed: u64, state: u64) -> u64 {
        let words = [
            self.stones[0] as u64,
            (self.stones[0] >> 64) as u64,
            self.stones[1] as u64,
            (self.stones[1] >> 64) as u64,
            state,
        ];
        words.iter().fold(seed, |h, &w| splitmix64(h ^ w))
    }

    /// Area score of a board where every empty point is an eye: stones, plus empty
    /// points touching one colour only. Black minus white, before komi.
    pub fn area_difference(&self) -> i32 {
        let [white, black] = self.stones;
        let empty = self.on_board & !(black | white);
        let (near_black, near_white) = (spread(black), spread(white));
        let black_area = black | (empty & near_black & !near_white);
        let white_area = white | (empty & near_white & !near_black);
        black_area.count_ones() as i32 - white_area.count_ones() as i32
    }

    /// The owner of every point once the playout is over (for ownership statistics):
    /// `Some(colour)` for a stone or an empty point touching one colour only.
    pub fn owner(&self, p: Point) -> Option<Color> {
        let cell = Self::cell(p) as usize;
        match self.color[ix(cell)] {
            BLACK => Some(Color::BLACK),
            WHITE => Some(Color::WHITE),
            _ => {
                let around = NEIGHBOURS[ix(cell)];
                let (b, w) = (around & self.stones[BLACK as usize & 1], around & self.stones[WHITE as usize & 1]);
                match (b != 0, w != 0) {
                    (true, false) => Some(Color::BLACK),
                    (false, true) => Some(Color::WHITE),
                    _ => None,
                }
            }
        }
    }
}

/// A chain's pseudo-liberties (pairs of one of its stones and an empty neighbour),
/// three counters in one word so that a move updates them with one addition: the
/// number of pairs (bits 0–15; at most 4 per stone and 4 per liberty, 162 on 9×9),
/// the sum of their empty cells (bits 16–31; at most 162 × 120) and the sum of those
/// cells' squares (bits 32–63). The pairs name a single liberty exactly when
/// `sum² = pairs × squares` (Cauchy–Schwarz), and it is `sum / pairs`: atari and
/// self-atari are read without walking the chain. The fields never borrow from one
/// another: each stays a true count, which is never negative.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pairs(u64);

impl Pairs {
    /// One pair whose empty cell is `cell`.
    #[inline(always)]
    const fn of(cell: usize) -> Pairs {
        Pairs(1 | (cell as u64) << 16 | ((cell * cell) as u64) << 32)
    }

    /// How many pairs.
    #[inline(always)]
    fn count(self) -> u16 {
        self.0 as u16
    }

    /// The one liberty the pairs name, if they all name the same cell.
    #[inline(always)]
    fn single_liberty(self) -> Option<Cell> {
        let (pairs, sum, squares) = (u64::from(self.count()), self.0 >> 16 & 0xFFFF, self.0 >> 32);
        // A single liberty touches at most 4 stones.
        (pairs != 0 && pairs <= 4 && sum * sum == pairs * squares).then(|| (sum / pairs) as Cell)
    }
}

fn color_code(c: Color) -> u8 {
    match c {
        Color::BLACK => BLACK,
        Color::WHITE => WHITE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::coords::points;
    use crate::rng::splitmix64;

    /// Random games on both boards: same legal points, same stones after each move.
    #[test]
    fn agrees_with_the_bitboard_rules() {
        for size in [5, 7, 9] {
            let mut state = size as u64;
            for _ in 0..60 {
                let mut slow = Board::new(size);
                let mut fast = FastBoard::new(size);
                for _ in 0..3 * size * size {
                    let color = slow.to_move();
                    let legal = slow.legal_points(color);
                    let own_true_eyes = fast.true_eyes(color);
                    for p in points(size) {
                        let cell = FastBoard::cell(p);
                        let fast_legal = fast.at(cell).is_none() && fast.is_legal(cell);
                        assert_eq!(fast_legal, legal & p.bit() != 0, "legality of {p:?}\n{}", slow.draw());
                        if fast.at(cell).is_none() {
                            // Playable: legal and no own true eye (the whole board's
                            // eye masks against the one-point test).
                            let playable = fast_legal && own_true_eyes >> cell & 1 == 0;
                            assert_eq!(fast.is_playable(cell), playable, "playable {p:?}\n{}", slow.draw());
                        }
                    }
                    assert_eq!(fast.free, fast.empty_mask() & !BIT[ix(fast.ko as usize)], "free points");
                    if !play_random_move(&mut slow, &mut fast, size, &mut state) {
                        continue;
                    }
                    for q in points(size) {
                        assert_eq!(fast.at(FastBoard::cell(q)), slow.at(q));
                    }
                    assert_eq!(fast.ko(), slow.ko().map_or(0, FastBoard::cell));
                    assert_eq!(fast.empty_count() as u32, slow.empty().count_ones());
                    let owners: i32 = points(size)
                        .map(|q| match fast.owner(q) {
                            Some(Color::BLACK) => 1,
                            Some(Color::WHITE) => -1,
                            None => 0,
                        })
                        .sum();
                    assert_eq!(fast.area_difference(), owners);
                    state = splitmix64(state);
                    check_pick(&fast, state);
                }
            }
        }
    }

    /// Plays a random legal move of `slow`'s side to move on both boards (the same
    /// captures on each), or a pass where there is none; false for a pass.
    fn play_random_move(slow: &mut Board, fast: &mut FastBoard, size: usize, state: &mut u64) -> bool {
        let color = slow.to_move();
        let legal = slow.legal_points(color);
        let choices: Vec<Point> = points(size).filter(|p| legal & p.bit() != 0).collect();
        if choices.is_empty() {
            *slow = slow.pass(color);
            fast.pass();
            return false;
        }
        *state = splitmix64(*state);
        let p = choices[(*state % choices.len() as u64) as usize];
        let (next, captured) = slow.try_play(color, p).unwrap();
        assert_eq!(fast.play(FastBoard::cell(p)), captured.count_ones(), "captures at {p:?}");
        *slow = next;
        true
    }

    /// [`FastBoard::pick_playable`] picks a playable point, and passes only when there
    /// is none.
    fn check_pick(fast: &FastBoard, seed: u64) {
        let playable: Vec<Cell> = fast.empties().filter(|&c| fast.is_playable(c)).collect();
        let mut state = seed;
        let picked = fast.pick_playable(|n| {
            state = splitmix64(state);
            (state % u64::from(n)) as u32
        });
        match picked {
            Some(cell) => assert!(playable.contains(&cell), "picked {:?}", FastBoard::point(cell)),
            None => assert!(playable.is_empty(), "{} playable points, none picked", playable.len()),
        }
    }

    /// The picks are uniform over the playable points: on a position with own eyes,
    /// illegal points and points legal only by capturing, each playable point comes
    /// up about equally often, and nothing else does.
    #[test]
    fn picks_are_uniform_over_playable_points() {
        //   0 1 2 3 4
        // 0 . B W . W    (0,0) black's eye; (0,3) suicide for black
        // 1 B B W W W
        // 2 . . . . B
        // 3 . . . B W    (4,4) legal for black only because it captures
        // 4 . . B W .
        let mut board = Board::new(5);
        for (r, c, color) in [
            (0, 1, Color::BLACK),
            (1, 0, Color::BLACK),
            (1, 1, Color::BLACK),
            (2, 4, Color::BLACK),
            (3, 3, Color::BLACK),
            (4, 2, Color::BLACK),
            (0, 2, Color::WHITE),
            (0, 4, Color::WHITE),
            (1, 2, Color::WHITE),
            (1, 3, Color::WHITE),
            (1, 4, Color::WHITE),
            (3, 4, Color::WHITE),
            (4, 3, Color::WHITE),
        ] {
            board.set(Point::new(r, c), Some(color));
        }
        let fast = FastBoard::from_board(&board);
        let at = |r, c| FastBoard::cell(Point::new(r, c));
        assert!(!fast.is_playable(at(0, 0)) && !fast.is_playable(at(0, 3)) && fast.is_playable(at(4, 4)));
        let mut state = 3u64;
        let playable: Vec<Cell> = fast.empties().filter(|&c| fast.is_playable(c)).collect();
        let mut counts = [0u32; CELLS];
        const DRAWS: u32 = 60_000;
        for _ in 0..DRAWS {
            let cell = fast
                .pick_playable(|n| {
                    state = splitmix64(state);
                    (state % u64::from(n)) as u32
                })
                .unwrap();
            counts[cell as usize] += 1;
        }
        let expected = DRAWS / playable.len() as u32;
        for (cell, &count) in counts.iter().enumerate() {
            if playable.contains(&(cell as Cell)) {
                assert!(count.abs_diff(expected) < expected / 10, "{count} vs {expected}");
            } else {
                assert_eq!(count, 0);
            }
        }
    }

    /// Atari, self-atari and 3×3 neighbourhoods against the slow board, on 5×5, 7×7 and
    /// 9×9: a chain is in atari when it has one liberty, and a move is a big self-atari
    /// when it leaves a chain of 2 or more stones with one liberty, capturing nothing.
    #[test]
    fn atari_and_self_atari_agree_with_the_bitboard_rules() {
        let mut state = 11u64;
        for (size, games) in [(5, 20), (7, 20), (9, 40)] {
            for _ in 0..games {
                let mut slow = Board::new(size);
                let mut fast = FastBoard::new(size);
                for _ in 0..2 * size * size {
                    let color = slow.to_move();
                    for p in points(size) {
                        let cell = FastBoard::cell(p);
                        // The 3×3 neighbourhood: colours in ring order, empty points.
                        let (mut colors, mut empty) = (0u16, 0u128);
                        let ring = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];
                        for (i, (dr, dc)) in ring.into_iter().enumerate() {
                            let (r, c) = (p.row() as i32 + dr, p.col() as i32 + dc);
                            let code = if !(0..size as i32).contains(&r) || !(0..size as i32).contains(&c) {
                                3
                            } else {
                                let q = Point::new(r as usize, c as usize);
                                match slow.at(q) {
                                    None => {
                                        empty |= 1 << FastBoard::cell(q);
                                        0
                                    }
                                    Some(Color::BLACK) => 1,
                                    Some(_) => 2,
                                }
                            };
                            colors |= code << (2 * i);
                        }
                        assert_eq!(fast.ring_colors(cell), colors, "around {p:?}");
                        assert_eq!(fast.empty_ring(cell), empty, "around {p:?}");
                        if slow.at(p).is_some() {
                            let libs = slow.liberties(slow.group(p));
                            let expected =
                                (libs.count_ones() == 1).then(|| FastBoard::cell(Point(libs.trailing_zeros() as u8)));
                            assert_eq!(fast.atari_liberty(cell), expected, "atari of {p:?}\n{}", slow.draw());
                        } else if fast.is_legal(cell) {
                            let (next, captured) = slow.try_play(color, p).unwrap();
                            let chain = next.group(p);
                            let expected = captured.count_ones() == 0
                                && chain.count_ones() > 1
                                && next.liberties(chain).count_ones() == 1;
                            assert_eq!(fast.is_big_self_atari(cell), expected, "self-atari at {p:?}\n{}", slow.draw());
                        }
                    }
                    play_random_move(&mut slow, &mut fast, size, &mut state);
                }
            }
        }
    }

    /// Eye-shaped points are true eyes only when the diagonals allow: at most one enemy
    /// stone in the centre, none on the edge or in a corner. False eyes may be filled.
    #[test]
    fn false_eyes_may_be_filled_and_true_eyes_not() {
        let at = |r, c| FastBoard::cell(Point::new(r, c));
        let position = |stones: &[(usize, usize, Color)]| {
            let mut board = Board::new(9);
            for &(r, c, color) in stones {
                board.set(Point::new(r, c), Some(color));
            }
            FastBoard::from_board(&board)
        };
        let (b, w) = (Color::BLACK, Color::WHITE);
        let centre = [(3, 4, b), (4, 3, b), (4, 5, b), (5, 4, b)];
        let one_diagonal = position(&[&centre[..], &[(3, 3, w)]].concat());
        let two_diagonals = position(&[&centre[..], &[(3, 3, w), (5, 5, w)]].concat());
        let bit = |c: Cell| 1u128 << c;
        assert_eq!(one_diagonal.true_eyes(b), bit(at(4, 4)));
        assert!(!one_diagonal.is_playable(at(4, 4)));
        assert_eq!(two_diagonals.true_eyes(b), 0);
        assert!(two_diagonals.is_playable(at(4, 4)));
        assert!(two_diagonals.is_eye(at(4, 4), b), "still eye-shaped");
        let edge = [(0, 3, b), (0, 5, b), (1, 4, b)];
        assert_eq!(position(&edge).true_eyes(b), bit(at(0, 4)));
        let false_edge = position(&[&edge[..], &[(1, 5, w)]].concat());
        assert_eq!(false_edge.true_eyes(b), 0);
        assert!(false_edge.is_playable(at(0, 4)));
        let false_corner = position(&[(0, 1, b), (1, 0, b), (1, 1, w)]);
        assert_eq!(false_corner.true_eyes(b), 0);
        assert!(false_corner.is_playable(at(0, 0)));
        assert_eq!(position(&[(0, 1, b), (1, 0, b)]).true_eyes(b), bit(at(0, 0)));
        // White's view of the same points: never its eyes.
        assert_eq!(two_diagonals.true_eyes(w) & bit(at(4, 4)), 0);
        for seed in 0..20 {
            check_pick(&two_diagonals, seed);
            check_pick(&false_corner, seed);
        }
    }

    /// The key is the same for the same position reached in another order, and
    /// differs with the side to move, the ko point and a pass.
    #[test]
    fn position_keys_follow_stones_side_ko_and_passes() {
        let at = |r, c| FastBoard::cell(Point::new(r, c));
        let line = |moves: &[Cell]| {
            let mut b = FastBoard::new(9);
            for &m in moves {
                if m == 0 {
                    b.pass();
                } else {
                    b.play(m);
                }
            }
            b
        };
        let (a, b, c, d) = (at(2, 2), at(6, 6), at(2, 6), at(6, 2));
        assert_eq!(line(&[a, b, c, d]).position_key(), line(&[c, d, a, b]).position_key());
        assert_eq!(line(&[a, b, c, d]).position_key(), line(&[c, b, a, d]).position_key());
        assert_ne!(line(&[a, b, c]).position_key(), line(&[a, b, c, 0]).position_key(), "side to move");
        assert_ne!(line(&[a, b]).position_key(), line(&[a, b, 0, 0]).position_key(), "passes");
        // A ko: black takes the white stone on (4,4) by playing (4,5), and white may
        // not take back at once. The same stones with white to move and no ko point
        // are another position.
        let mut board = Board::new(9);
        for (r, c, color) in [
            (3, 4, Color::BLACK),
            (4, 3, Color::BLACK),
            (5, 4, Color::BLACK),
            (3, 5, Color::WHITE),
            (4, 6, Color::WHITE),
            (5, 5, Color::WHITE),
            (4, 4, Color::WHITE),
        ] {
            board.set(Point::new(r, c), Some(color));
        }
        let mut ko = FastBoard::from_board(&board);
        assert_eq!(ko.play(at(4, 5)), 1);
        assert_eq!(ko.ko(), at(4, 4));
        board.set(Point::new(4, 4), None);
        board.set(Point::new(4, 5), Some(Color::BLACK));
        board.set_to_move(Color::WHITE);
        let no_ko = FastBoard::from_board(&board);
        assert_eq!(no_ko.stone_sets(), ko.stone_sets());
        assert_eq!((no_ko.ko(), no_ko.to_move()), (0, Color::WHITE));
        assert_ne!(ko.position_key(), no_ko.position_key(), "the ko point");
    }

    #[test]
    fn copies_a_position() {
        let mut b = Board::new(9);
        b.set(Point::new(0, 1), Some(Color::WHITE));
        b.set(Point::new(1, 0), Some(Color::WHITE));
        let f = FastBoard::from_board(&b);
        assert!(!f.is_legal(FastBoard::cell(Point::new(0, 0))), "suicide");
        assert!(f.is_eye(FastBoard::cell(Point::new(0, 0)), Color::WHITE));
        assert_eq!(f.empty_count(), 79);
        assert_eq!(FastBoard::point(FastBoard::cell(Point::new(3, 7))), Point::new(3, 7));
    }
}
