//! The Go board on 128-bit bitboards.
//!
//! Point `row × 10 + column` is bit of a `u128`; the tenth column of each row is
//! always empty (a guard), so a shift by one never wraps a stone from one row's end to
//! the next row's start, and a shift by ten moves a row up or down. Groups are flood
//! fills, liberties are the empty neighbours of a group.

use super::coords::{Point, STRIDE, points};
use crate::rng::splitmix64;

/// Black or white: the shared [`Player`] type, named [`Player::BLACK`] and
/// [`Player::WHITE`] here.
pub type Color = crate::Player;

impl crate::Player {
    /// `B` or `W` (the SGF and GTP letters of Go).
    pub const fn stone_letter(self) -> char {
        match self {
            crate::Player::One => 'B',
            crate::Player::Two => 'W',
        }
    }
}

/// Why a stone cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// Off the board.
    OffBoard,
    /// The point holds a stone.
    Occupied,
    /// The point is forbidden by the simple ko rule.
    Ko,
    /// The stone would have no liberty and captures nothing.
    Suicide,
    /// The move repeats an earlier position (superko).
    Superko,
}

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Illegal::OffBoard => "the point is off the board",
            Illegal::Occupied => "the point is occupied",
            Illegal::Ko => "the point is forbidden by ko",
            Illegal::Suicide => "suicide",
            Illegal::Superko => "the move repeats an earlier position (superko)",
        })
    }
}

/// Largest supported board.
pub const MAX_SIZE: usize = 9;

/// Why setup stones cannot make a position ([`Board::with_stones`]): the one rule
/// every reader of setup stones (SGF `AB`/`AW`, the UGI+ position text, the
/// analysis engine's `initialStones`) applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A board side other than 2 to [`MAX_SIZE`].
    Size(usize),
    /// A stone off a board of this side.
    OffBoard(Point, usize),
    /// A point given a black and a white stone.
    BothColours(Point, usize),
    /// A group with no liberty, named by one of its stones: no game reaches it.
    NoLiberties(Point, usize),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            SetupError::Size(size) => write!(f, "a {size}x{size} board: sizes 2x2 to {MAX_SIZE}x{MAX_SIZE}"),
            SetupError::OffBoard(p, size) => {
                write!(f, "a stone at row {} column {} is off the {size}x{size} board", p.row(), p.col())
            }
            SetupError::BothColours(p, size) => write!(f, "{} is given a black and a white stone", p.to_gtp(size)),
            SetupError::NoLiberties(p, size) => {
                write!(f, "the group at {} has no liberties (no game reaches this position)", p.to_gtp(size))
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// Points of a board of side `size`.
pub const fn board_mask(size: usize) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < size {
        let mut c = 0;
        while c < size {
            m |= 1u128 << (r * STRIDE + c);
            c += 1;
        }
        r += 1;
    }
    m
}

/// The neighbours of a set of points, on a board with points `mask`.
#[inline(always)]
pub fn neighbours(x: u128, mask: u128) -> u128 {
    ((x << 1) | (x >> 1) | (x << STRIDE) | (x >> STRIDE)) & mask
}

/// The group of stones of `stones` connected to `seed` (a subset of `stones`).
#[inline]
pub fn flood(seed: u128, stones: u128, mask: u128) -> u128 {
    let mut g = seed;
    loop {
        let next = (g | neighbours(g, mask)) & stones;
        if next == g {
            return g;
        }
        g = next;
    }
}

/// Zobrist key of a stone of `color` on point `p`.
pub fn stone_key(color: Color, p: Point) -> u64 {
    splitmix64(0x60_0000 ^ (color.index() as u64) << 8 ^ p.0 as u64)
}

/// A Go position: stones, the colour to move, the simple-ko point, prisoners and
/// consecutive passes. Copied on every move (the game keeps the history).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    size: u8,
    mask: u128,
    stones: [u128; 2],
    to_move: Color,
    ko: Option<Point>,
    prisoners: [u32; 2],
    passes: u8,
    hash: u64,
}

impl Board {
    /// An empty board of side `size` (2 to 9), black to move.
    pub fn new(size: usize) -> Board {
        assert!((2..=MAX_SIZE).contains(&size), "board sizes 2 to 9");
        Board {
            size: size as u8,
            mask: board_mask(size),
            stones: [0, 0],
            to_move: Color::BLACK,
            ko: None,
            prisoners: [0, 0],
            passes: 0,
            hash: 0,
        }
    }

    /// Side length.
    pub fn size(&self) -> usize {
        self.size as usize
    }
    /// The board's points as a bitboard.
    pub fn mask(&self) -> u128 {
        self.mask
    }
    /// Stones of `color`.
    pub fn stones(&self, color: Color) -> u128 {
        self.stones[color.index()]
    }
    /// Empty points.
    pub fn empty(&self) -> u128 {
        self.mask & !(self.stones[0] | self.stones[1])
    }
    /// The colour to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    /// Sets the colour to move (GTP lets either colour play).
    pub fn set_to_move(&mut self, color: Color) {
        if color != self.to_move {
            self.to_move = color;
            self.ko = None;
        }
    }
    /// The point the side to move may not play because of simple ko.
    pub fn ko(&self) -> Option<Point> {
        self.ko
    }
    /// Stones captured by `color` so far.
    pub fn prisoners(&self, color: Color) -> u32 {
        self.prisoners[color.index()]
    }
    /// Consecutive passes just played.
    pub fn passes(&self) -> u32 {
        self.passes as u32
    }
    /// Zobrist hash of the stones (not of the side to move).
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// What stands on `p`.
    pub fn at(&self, p: Point) -> Option<Color> {
        if self.stones[0] & p.bit() != 0 {
            Some(Color::BLACK)
        } else if self.stones[1] & p.bit() != 0 {
            Some(Color::WHITE)
        } else {
            None
        }
    }

    /// Puts a stone (or removes one, `None`) without any rule: for setting up
    /// positions (SGF `AB`/`AW`, homework boards).
    pub fn set(&mut self, p: Point, color: Option<Color>) {
        for c in [Color::BLACK, Color::WHITE] {
            if self.stones[c.index()] & p.bit() != 0 {
                self.stones[c.index()] &= !p.bit();
                self.hash ^= stone_key(c, p);
            }
        }
        if let Some(c) = color {
            self.stones[c.index()] |= p.bit();
            self.hash ^= stone_key(c, p);
        }
        self.ko = None;
    }

    /// The group containing the stone on `p` (empty if `p` is empty).
    pub fn group(&self, p: Point) -> u128 {
        match self.at(p) {
            Some(c) => flood(p.bit(), self.stones[c.index()], self.mask),
            None => 0,
        }
    }

    /// The liberties of a group.
    pub fn liberties(&self, group: u128) -> u128 {
        neighbours(group, self.mask) & self.empty()
    }

    /// What playing `color` on `p` would capture, and the ko point it creates; or why
    /// it is illegal. Does not look at the history (superko is the game's business).
    pub fn try_play(&self, color: Color, p: Point) -> Result<(Board, u128), Illegal> {
        if !p.on_board(self.size()) {
            return Err(Illegal::OffBoard);
        }
        if (self.stones[0] | self.stones[1]) & p.bit() != 0 {
            return Err(Illegal::Occupied);
        }
        if color == self.to_move && self.ko == Some(p) {
            return Err(Illegal::Ko);
        }
        let me = color.index();
        let them = color.other().index();
        let mut next = *self;
        next.stones[me] |= p.bit();
        let empty = next.empty();
        let mut captured = 0u128;
        let mut adjacent = neighbours(p.bit(), self.mask) & next.stones[them];
        while adjacent != 0 {
            let q = adjacent & adjacent.wrapping_neg();
            let g = flood(q, next.stones[them], self.mask);
            adjacent &= !g;
            if neighbours(g, self.mask) & empty == 0 {
                captured |= g;
            }
        }
        next.stones[them] &= !captured;
        let own = flood(p.bit(), next.stones[me], self.mask);
        let own_liberties = neighbours(own, self.mask) & next.empty();
        if own_liberties == 0 {
            return Err(Illegal::Suicide);
        }
        next.hash ^= stone_key(color, p);
        let mut rest = captured;
        while rest != 0 {
            let q = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            next.hash ^= stone_key(color.other(), Point(q));
        }
        next.prisoners[me] += captured.count_ones();
        next.ko = if captured.count_ones() == 1 && own == p.bit() && own_liberties == captured {
            Some(Point(captured.trailing_zeros() as u8))
        } else {
            None
        };
        next.to_move = color.other();
        next.passes = 0;
        Ok((next, captured))
    }

    /// The board after `color` passes.
    pub fn pass(&self, color: Color) -> Board {
        let mut next = *self;
        next.to_move = color.other();
        next.ko = None;
        next.passes = self.passes.saturating_add(1);
        next
    }

    /// Points where `color` may play under the simple-ko rule (no superko).
    pub fn legal_points(&self, color: Color) -> u128 {
        let mut legal = 0;
        let mut empty = self.empty();
        while empty != 0 {
            let q = empty.trailing_zeros() as u8;
            empty &= empty - 1;
            if self.try_play(color, Point(q)).is_ok() {
                legal |= 1u128 << q;
            }
        }
        legal
    }

    /// The board of side `size` holding `stones`, black to move, or why no game
    /// reaches it: a size outside 2..=[`MAX_SIZE`], a stone off the board, a point
    /// given both colours, a group without liberties. The one rule for setup stones.
    pub fn with_stones(size: usize, stones: impl IntoIterator<Item = (Color, Point)>) -> Result<Board, SetupError> {
        if !(2..=MAX_SIZE).contains(&size) {
            return Err(SetupError::Size(size));
        }
        let mut board = Board::new(size);
        for (color, p) in stones {
            if !p.on_board(size) {
                return Err(SetupError::OffBoard(p, size));
            }
            if board.at(p).is_some_and(|c| c != color) {
                return Err(SetupError::BothColours(p, size));
            }
            board.set(p, Some(color));
        }
        match board.group_without_liberties() {
            Some(p) => Err(SetupError::NoLiberties(p, size)),
            None => Ok(board),
        }
    }

    /// A stone of a group without liberties, if the board holds one.
    pub fn group_without_liberties(&self) -> Option<Point> {
        let empty = self.empty();
        for c in [0, 1] {
            let mut stones = self.stones[c];
            while stones != 0 {
                let seed = stones & stones.wrapping_neg();
                let g = flood(seed, self.stones[c], self.mask);
                if neighbours(g, self.mask) & empty == 0 {
                    return Some(Point(seed.trailing_zeros() as u8));
                }
                stones &= !g;
            }
        }
        None
    }

    /// True if no group on the board is without liberties (the homework's rule 1).
    pub fn all_groups_have_liberties(&self) -> bool {
        self.group_without_liberties().is_none()
    }

    /// A text drawing: `X` black, `O` white, `.` empty, GTP letters and numbers.
    pub fn draw(&self) -> String {
        let size = self.size();
        let letters: String =
            (0..size).map(|c| format!(" {}", Point::new(0, c).to_gtp(size).chars().next().unwrap_or('?'))).collect();
        let mut out = format!("  {letters}\n");
        for r in 0..size {
            out.push_str(&format!("{:>2}", size - r));
            for c in 0..size {
                let p = Point::new(r, c);
                let ch = match self.at(p) {
                    Some(Color::BLACK) => 'X',
                    Some(Color::WHITE) => 'O',
                    None if self.ko == Some(p) => '#',
                    None => '.',
                };
                out.push(' ');
                out.push(ch);
            }
            out.push_str(&format!(" {}\n", size - r));
        }
        out.push_str(&format!("  {letters}\n"));
        out.push_str(&format!(
            "{} to move; captured by black {}, by white {}\n",
            if self.to_move == Color::BLACK { "black" } else { "white" },
            self.prisoners[0],
            self.prisoners[1]
        ));
        out
    }

    /// Every point, for iteration.
    pub fn points(&self) -> impl Iterator<Item = Point> {
        points(self.size())
    }
}

/// The points of a bitboard, lowest first.
pub fn bits(mut x: u128) -> impl Iterator<Item = Point> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let p = Point(x.trailing_zeros() as u8);
            x &= x - 1;
            p
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(r: usize, c: usize) -> Point {
        Point::new(r, c)
    }

    #[test]
    fn capture_in_the_corner_and_ko() {
        let mut b = Board::new(9);
        // White stone at the corner (0,0), black on (0,1): black (1,0) captures.
        b.set(p(0, 0), Some(Color::WHITE));
        b.set(p(0, 1), Some(Color::BLACK));
        let (after, captured) = b.try_play(Color::BLACK, p(1, 0)).unwrap();
        assert_eq!(captured, p(0, 0).bit());
        assert_eq!(after.at(p(0, 0)), None);
        assert_eq!(after.prisoners(Color::BLACK), 1);
    }

    #[test]
    fn simple_ko_is_enforced() {
        // . B W .
        // B W . W
        // . B W .
        let mut b = Board::new(5);
        for (r, c, col) in [
            (0, 1, Color::BLACK),
            (1, 0, Color::BLACK),
            (2, 1, Color::BLACK),
            (0, 2, Color::WHITE),
            (1, 3, Color::WHITE),
            (2, 2, Color::WHITE),
            (1, 1, Color::WHITE),
        ] {
            b.set(p(r, c), Some(col));
        }
        // Black takes the ko at (1,2), capturing (1,1).
        let (after, captured) = b.try_play(Color::BLACK, p(1, 2)).unwrap();
        assert_eq!(captured, p(1, 1).bit());
        assert_eq!(after.ko(), Some(p(1, 1)));
        assert_eq!(after.try_play(Color::WHITE, p(1, 1)), Err(Illegal::Ko));
        // After a move elsewhere the ko may be retaken.
        let (later, _) = after.try_play(Color::WHITE, p(4, 4)).unwrap();
        let (later, _) = later.try_play(Color::BLACK, p(4, 0)).unwrap();
        assert!(later.try_play(Color::WHITE, p(1, 1)).is_ok());
    }

    #[test]
    fn suicide_is_illegal_unless_it_captures() {
        let mut b = Board::new(5);
        b.set(p(0, 1), Some(Color::WHITE));
        b.set(p(1, 0), Some(Color::WHITE));
        assert_eq!(b.try_play(Color::BLACK, p(0, 0)), Err(Illegal::Suicide));
        // A suicide of several stones: black (0,0) would join (1,0) and (1,1) into a
        // group without liberties.
        let mut t = Board::new(5);
        for (r, c) in [(0, 2), (1, 2), (2, 1), (2, 0), (0, 1)] {
            t.set(p(r, c), Some(Color::WHITE));
        }
        t.set(p(1, 1), Some(Color::BLACK));
        t.set(p(1, 0), Some(Color::BLACK));
        assert_eq!(t.try_play(Color::BLACK, p(0, 0)), Err(Illegal::Suicide));
        // But a move without liberties that captures is legal.
        let mut c = Board::new(5);
        c.set(p(0, 1), Some(Color::WHITE));
        c.set(p(1, 0), Some(Color::WHITE));
        c.set(p(0, 2), Some(Color::BLACK));
        c.set(p(1, 1), Some(Color::BLACK));
        c.set(p(2, 0), Some(Color::BLACK));
        // White (0,1) and (1,0) each have one liberty: (0,0). Black (0,0) captures both.
        let (after, captured) = c.try_play(Color::BLACK, p(0, 0)).unwrap();
        assert_eq!(captured.count_ones(), 2);
        assert_eq!(after.liberties(after.group(p(0, 0))).count_ones(), 2);
    }

    #[test]
    fn guard_column_prevents_wrapping() {
        let mut b = Board::new(9);
        b.set(p(0, 8), Some(Color::BLACK));
        // (1,0) is the next bit after (0,8) only through the guard: not a neighbour.
        assert_eq!(b.liberties(b.group(p(0, 8))).count_ones(), 2);
        b.set(p(1, 0), Some(Color::BLACK));
        assert_eq!(b.group(p(0, 8)).count_ones(), 1);
        let small = Board::new(5);
        assert_eq!(small.empty().count_ones(), 25);
        assert_eq!(Board::new(9).empty().count_ones(), 81);
    }

    #[test]
    fn hash_follows_stones() {
        let b = Board::new(9);
        let (a, _) = b.try_play(Color::BLACK, p(4, 4)).unwrap();
        let mut c = Board::new(9);
        c.set(p(4, 4), Some(Color::BLACK));
        assert_eq!(a.hash(), c.hash());
        assert_ne!(a.hash(), b.hash());
    }
}
