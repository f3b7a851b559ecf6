//! Othello on other board sizes (seed 002 §11.5): 6×6 and 10×10 on `u128` words.
//!
//! The same rules as the 8×8 [`super::Board`], written once for any side length
//! `N` from 4 to 10 with the square index row × N + column. The 8×8 board keeps its own
//! specialised code; `SizedBoard<8>` exists to cross-check the two.

use super::rules::{OthelloBoard, Owner};
use crate::rng::splitmix64;

/// An N×N Othello board seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SizedBoard<const N: usize> {
    /// Discs of the side to move.
    pub player: u128,
    /// Discs of the other side.
    pub opponent: u128,
}

/// The 6×6 variant.
pub type Board6 = SizedBoard<6>;
/// The 10×10 variant.
pub type Board10 = SizedBoard<10>;

/// The masks and steps of an N×N board.
struct Geometry {
    full: u128,
    not_first_col: u128,
    not_last_col: u128,
    inner_cols: u128,
}

const fn geometry(n: usize) -> Geometry {
    assert!(n >= 4 && n <= 10, "Othello boards from 4x4 to 10x10");
    let full = if n * n == 128 { u128::MAX } else { (1u128 << (n * n)) - 1 };
    let mut first_col = 0u128;
    let mut r = 0;
    while r < n {
        first_col |= 1u128 << (r * n);
        r += 1;
    }
    let last_col = first_col << (n - 1);
    Geometry {
        full,
        not_first_col: full & !first_col,
        not_last_col: full & !last_col,
        inner_cols: full & !first_col & !last_col,
    }
}

impl<const N: usize> SizedBoard<N> {
    const GEOMETRY: Geometry = geometry(N);

    /// A board from the two sets of discs.
    pub const fn new(player: u128, opponent: u128) -> Self {
        SizedBoard { player, opponent }
    }

    /// One step in direction `d` (same order as the 8×8 board: E, S, SE, SW, W, N,
    /// NW, NE), dropping discs that leave the board.
    #[inline]
    fn shift(bits: u128, d: usize) -> u128 {
        let g = &Self::GEOMETRY;
        match d {
            0 => (bits << 1) & g.not_first_col,
            1 => (bits << N) & g.full,
            2 => (bits << (N + 1)) & g.not_first_col,
            3 => (bits << (N - 1)) & g.not_last_col,
            4 => (bits >> 1) & g.not_last_col,
            5 => bits >> N,
            6 => (bits >> (N + 1)) & g.not_last_col,
            _ => (bits >> (N - 1)) & g.not_first_col,
        }
    }

    /// Empty squares.
    pub fn empties(&self) -> u128 {
        !(self.player | self.opponent) & Self::GEOMETRY.full
    }

    /// Legal moves by Dumb7Fill (the reference).
    pub fn moves_dumb7fill(&self) -> u128 {
        let mut moves = 0;
        for d in 0..8 {
            let mut run = Self::shift(self.player, d) & self.opponent;
            for _ in 0..N.saturating_sub(3) {
                run |= Self::shift(run, d) & self.opponent;
            }
            moves |= Self::shift(run, d);
        }
        moves & self.empties()
    }

    /// Legal moves by parallel-prefix (Kogge-Stone) fills: runs of length 1, 2,
    /// then doubled with pairs and quads of opponent discs.
    pub fn moves(&self) -> u128 {
        let inner = self.opponent & Self::GEOMETRY.inner_cols;
        let steps = [(1, inner), (N, self.opponent), (N + 1, inner), (N - 1, inner)];
        let mut moves = 0;
        for (s, o) in steps {
            moves |= prefix(self.player, o, s, N, true) | prefix(self.player, o, s, N, false);
        }
        moves & self.empties()
    }

    /// Flips by walking each direction square by square (the reference).
    pub fn flips_reference(&self, sq: u8) -> u128 {
        let mut flips = 0;
        for d in 0..8 {
            let mut line = 0;
            let mut x = Self::shift(1u128 << sq, d);
            while x & self.opponent != 0 {
                line |= x;
                x = Self::shift(x, d);
            }
            if x & self.player != 0 {
                flips |= line;
            }
        }
        flips
    }

    /// Flips by Dumb7Fill from the move square.
    pub fn flips_dumb7fill(&self, sq: u8) -> u128 {
        let mut flips = 0;
        for d in 0..8 {
            let mut run = Self::shift(1u128 << sq, d) & self.opponent;
            for _ in 0..N.saturating_sub(3) {
                run |= Self::shift(run, d) & self.opponent;
            }
            if Self::shift(run, d) & self.player != 0 {
                flips |= run;
            }
        }
        flips
    }

    /// Flips from ray masks, with the lowest/highest-blocker trick of the 8×8 board.
    pub fn flips(&self, sq: u8) -> u128 {
        let mut flips = 0;
        for d in 0..8 {
            let ray = ray(N, sq as usize, d);
            let blockers = !self.opponent & ray;
            if blockers == 0 {
                continue;
            }
            let (first, line) = if d < 4 {
                let first = blockers & blockers.wrapping_neg();
                (first, first.wrapping_sub(1) & ray)
            } else {
                let first = 1u128 << (127 - blockers.leading_zeros());
                (first, (first.wrapping_neg() << 1) & ray)
            };
            if first & self.player != 0 {
                flips |= line;
            }
        }
        flips
    }
}

/// The squares beyond `sq` in direction `d` on an N×N board.
fn ray(n: usize, sq: usize, d: usize) -> u128 {
    const STEPS: [(i32, i32); 8] = [(0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1)];
    let (dr, dc) = STEPS[d];
    let n = n as i32;
    let (mut r, mut c) = ((sq as i32) / n + dr, (sq as i32) % n + dc);
    let mut out = 0;
    while (0..n).contains(&r) && (0..n).contains(&c) {
        out |= 1u128 << (r * n + c);
        r += dr;
        c += dc;
    }
    out
}

/// One sense of one direction of the parallel-prefix move generator.
#[inline]
fn prefix(player: u128, o: u128, s: usize, n: usize, left: bool) -> u128 {
    let sh = |x: u128, k: usize| if left { x << k } else { x >> k };
    let mut run = o & sh(player, s);
    run |= o & sh(run, s);
    let pairs = o & sh(o, s);
    run |= pairs & sh(run, 2 * s);
    if n > 8 {
        let quads = pairs & sh(pairs, 2 * s);
        run |= quads & sh(run, 4 * s);
    } else if n > 6 {
        run |= pairs & sh(run, 2 * s);
    }
    sh(run, s)
}

fn zobrist_key(n: usize, owner: Owner, sq: usize) -> u64 {
    splitmix64(((n as u64) << 32) ^ (((owner == Owner::Player) as u64) << 16) ^ sq as u64)
}

impl<const N: usize> OthelloBoard for SizedBoard<N> {
    const SIZE: usize = N;

    fn start() -> Self {
        let a = N / 2 - 1;
        let b = N / 2;
        let bit = |r: usize, c: usize| 1u128 << (r * N + c);
        // Top-left and bottom-right of the centre are white; black moves first.
        SizedBoard::new(bit(a, b) | bit(b, a), bit(a, a) | bit(b, b))
    }

    fn empty() -> Self {
        SizedBoard::new(0, 0)
    }

    fn disc(&self, sq: usize) -> Option<Owner> {
        if self.player >> sq & 1 == 1 {
            Some(Owner::Player)
        } else if self.opponent >> sq & 1 == 1 {
            Some(Owner::Opponent)
        } else {
            None
        }
    }

    fn with_disc(self, sq: usize, owner: Option<Owner>) -> Self {
        let bit = 1u128 << sq;
        let (mut p, mut o) = (self.player & !bit, self.opponent & !bit);
        match owner {
            Some(Owner::Player) => p |= bit,
            Some(Owner::Opponent) => o |= bit,
            None => {}
        }
        SizedBoard::new(p, o)
    }

    fn legal_squares(&self) -> Vec<u8> {
        let mut moves = self.moves();
        let mut out = Vec::with_capacity(moves.count_ones() as usize);
        while moves != 0 {
            out.push(moves.trailing_zeros() as u8);
            moves &= moves - 1;
        }
        out
    }

    fn mobility(&self) -> u32 {
        self.moves().count_ones()
    }

    fn play(&self, sq: u8) -> Option<Self> {
        if sq as usize >= N * N || self.empties() >> sq & 1 == 0 {
            return None;
        }
        match self.flips(sq) {
            0 => None,
            f => Some(SizedBoard::new(self.opponent ^ f, self.player ^ f ^ (1u128 << sq))),
        }
    }

    fn pass(&self) -> Self {
        SizedBoard::new(self.opponent, self.player)
    }

    fn player_count(&self) -> u32 {
        self.player.count_ones()
    }

    fn opponent_count(&self) -> u32 {
        self.opponent.count_ones()
    }

    fn zobrist(&self) -> u64 {
        let mut h = 0;
        for sq in 0..N * N {
            if let Some(owner) = self.disc(sq) {
                h ^= zobrist_key(N, owner, sq);
            }
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::Board;

    #[test]
    fn starts_have_four_moves() {
        assert_eq!(Board6::start().mobility(), 4);
        assert_eq!(Board10::start().mobility(), 4);
        assert_eq!(Board6::start().moves(), Board6::start().moves_dumb7fill());
        let eight = SizedBoard::<8>::start();
        let b = Board::start();
        assert_eq!((eight.player as u64, eight.opponent as u64), (b.player, b.opponent));
    }

    #[test]
    fn six_by_six_start_matches_the_seed() {
        // Seed 002 §11.5 (row 1 drawn at the bottom): C3 and D4 black, D3 and C4 white.
        // With a1 at the top-left that is c4 and d3 black, c3 and d4 white.
        let b = Board6::start();
        let sq = |name: &str| match crate::othello::Move::parse(name, 6) {
            Ok(crate::othello::Move::Play(s)) => s as usize,
            _ => unreachable!(),
        };
        assert_eq!(b.disc(sq("c4")), Some(Owner::Player));
        assert_eq!(b.disc(sq("d3")), Some(Owner::Player));
        assert_eq!(b.disc(sq("c3")), Some(Owner::Opponent));
        assert_eq!(b.disc(sq("d4")), Some(Owner::Opponent));
    }

    #[test]
    fn eight_by_eight_generic_code_matches_the_fast_board() {
        let mut x = 99u64;
        for _ in 0..3000 {
            x = splitmix64(x);
            let y = splitmix64(x);
            let (p, o) = (x & !y, y & !x);
            let generic = SizedBoard::<8>::new(p as u128, o as u128);
            let fast = Board::new(p, o);
            assert_eq!(generic.moves() as u64, fast.moves());
            assert_eq!(generic.moves_dumb7fill() as u64, fast.moves());
            for sq in 0..64u8 {
                if fast.empties() >> sq & 1 == 1 {
                    assert_eq!(generic.flips(sq) as u64, fast.flips(sq));
                }
            }
        }
    }
}
