//! Squares, directions and ray masks of the 8×8 board.
//!
//! Bit index = row × 8 + column, with `a1` = 0 top-left, `h1` = 7, `a8` = 56 and
//! `h8` = 63 (the Othello/FFO/NBoard convention). Shifting left by 1 moves a disc one
//! column east, shifting left by 8 moves it one row down (south).

/// Every square except those of column `a`.
pub const NOT_A_FILE: u64 = 0xFEFE_FEFE_FEFE_FEFE;
/// Every square except those of column `h`.
pub const NOT_H_FILE: u64 = 0x7F7F_7F7F_7F7F_7F7F;
/// Columns `b`..`g`: the discs that can be flipped along a row or a diagonal.
pub const INNER_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;
/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// One of the eight compass directions, as a step on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Direction {
    /// Row step (−1 north, +1 south).
    pub dr: i8,
    /// Column step (−1 west, +1 east).
    pub dc: i8,
}

/// The eight directions. The first four increase the bit index (E, S, SE, SW),
/// the last four decrease it (W, N, NW, NE); the ray code relies on this order.
pub const DIRECTIONS: [Direction; 8] = [
    Direction { dr: 0, dc: 1 },
    Direction { dr: 1, dc: 0 },
    Direction { dr: 1, dc: 1 },
    Direction { dr: 1, dc: -1 },
    Direction { dr: 0, dc: -1 },
    Direction { dr: -1, dc: 0 },
    Direction { dr: -1, dc: -1 },
    Direction { dr: -1, dc: 1 },
];

/// Shifts a set of discs one step in direction `d`, dropping those that leave the board.
#[inline(always)]
pub const fn shift(bits: u64, d: usize) -> u64 {
    match d {
        0 => (bits << 1) & NOT_A_FILE,
        1 => bits << 8,
        2 => (bits << 9) & NOT_A_FILE,
        3 => (bits << 7) & NOT_H_FILE,
        4 => (bits >> 1) & NOT_H_FILE,
        5 => bits >> 8,
        6 => (bits >> 9) & NOT_H_FILE,
        _ => (bits >> 7) & NOT_A_FILE,
    }
}

/// Ray masks of every square, aligned so that each square's eight rays fill one
/// 64-byte line (and each half loads as one 256-bit vector).
#[repr(C, align(64))]
pub struct Rays(pub [[u64; 8]; 64]);

/// `RAYS.0[sq][d]`: the squares strictly beyond `sq` in direction `d`, up to the edge.
pub static RAYS: Rays = Rays(build_rays());

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let mut r = (sq / 8) as i32 + DIRECTIONS[d].dr as i32;
            let mut c = (sq % 8) as i32 + DIRECTIONS[d].dc as i32;
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                rays[sq][d] |= 1u64 << (r * 8 + c);
                r += DIRECTIONS[d].dr as i32;
                c += DIRECTIONS[d].dc as i32;
            }
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// `NEIGHBOURS[sq]`: the up to eight squares touching `sq`.
pub static NEIGHBOURS: [u64; 64] = build_neighbours();

const fn build_neighbours() -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            out[sq] |= shift(1u64 << sq, d);
            d += 1;
        }
        sq += 1;
    }
    out
}

/// The squares of `set` none of whose neighbours is in `set` (for the endgame
/// search: an isolated empty square is a region of one, where the last move of a
/// region usually gains).
#[inline(always)]
pub const fn isolated(set: u64) -> u64 {
    let mut near = (set & NOT_H_FILE) << 1 | (set & NOT_A_FILE) >> 1;
    let row = near | set;
    near |= row << 8 | row >> 8;
    set & !near
}

/// The name of a square, `a1`..`h8`.
pub fn square_name(sq: u8) -> String {
    debug_assert!(sq < 64);
    let col = (b'a' + sq % 8) as char;
    format!("{col}{}", sq / 8 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isolated_squares_have_no_neighbour_in_the_set() {
        let mut x = 0x0123_4567_89ab_cdefu64;
        for _ in 0..2000 {
            x = crate::rng::splitmix64(x);
            let set = x & crate::rng::splitmix64(x ^ 7);
            let expected = (0..64u8)
                .filter(|&sq| set >> sq & 1 == 1 && NEIGHBOURS[sq as usize] & set == 0)
                .fold(0u64, |acc, sq| acc | 1 << sq);
            assert_eq!(isolated(set), expected, "{set:#018x}");
        }
        assert_eq!(isolated(1 | 1 << 63), 1 | 1 << 63);
        assert_eq!(isolated(1 << 7 | 1 << 8), 1 << 7 | 1 << 8);
        assert_eq!(isolated(1 | 1 << 9), 0);
    }

    #[test]
    fn rays_match_shifts() {
        for sq in 0..64 {
            for d in 0..8 {
                let mut expected = 0;
                let mut x = shift(1u64 << sq, d);
                while x != 0 {
                    expected |= x;
                    x = shift(x, d);
                }
                assert_eq!(RAYS.0[sq][d], expected, "square {sq} direction {d}");
            }
        }
    }

    #[test]
    fn first_four_directions_increase_the_index() {
        for sq in 0..64 {
            for d in 0..4 {
                assert!(RAYS.0[sq][d] & (2u64 << sq).wrapping_sub(1) == 0);
            }
            for d in 4..8 {
                assert!(RAYS.0[sq][d] >> sq == 0);
            }
        }
    }

    #[test]
    fn names() {
        assert_eq!(square_name(0), "a1");
        assert_eq!(square_name(7), "h1");
        assert_eq!(square_name(56), "a8");
        assert_eq!(square_name(63), "h8");
    }
}
