//! Legal-move generation on the 8×8 board.
//!
//! Three generators give the same bitboard of legal moves for `(player, opponent)`:
//!
//! * [`moves_dumb7fill`]: the direction-by-direction flood fill of seed 002 §9.4, the
//!   reference;
//! * [`moves_kogge_stone`]: parallel-prefix fills (three shifts per direction instead
//!   of six), portable;
//! * an AVX2 version that runs four directions per vector instruction, used by
//!   [`moves`] when the build targets a CPU with AVX2.

use super::geometry::{INNER_FILES, shift};

/// Legal moves by Dumb7Fill: for each direction, grow the runs of opponent discs
/// that start next to a player disc, then step once more onto an empty square.
pub fn moves_dumb7fill(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let mut moves = 0;
    for d in 0..8 {
        let mut run = shift(player, d) & opponent;
        for _ in 0..5 {
            run |= shift(run, d) & opponent;
        }
        moves |= shift(run, d) & empty;
    }
    moves
}

/// One direction of the parallel-prefix generator: `s` is the shift, `o` the
/// opponent discs that may be jumped in this direction (edge columns removed for
/// directions with an east-west component).
#[inline(always)]
fn prefix_left(player: u64, o: u64, s: u32) -> u64 {
    let mut run = o & (player << s);
    run |= o & (run << s);
    let pairs = o & (o << s);
    run |= pairs & (run << (2 * s));
    run |= pairs & (run << (2 * s));
    run << s
}

#[inline(always)]
fn prefix_right(player: u64, o: u64, s: u32) -> u64 {
    let mut run = o & (player >> s);
    run |= o & (run >> s);
    let pairs = o & (o >> s);
    run |= pairs & (run >> (2 * s));
    run |= pairs & (run >> (2 * s));
    run >> s
}

/// Legal moves by Kogge-Stone style parallel-prefix fills, portable code.
#[inline]
pub fn moves_kogge_stone(player: u64, opponent: u64) -> u64 {
    let inner = opponent & INNER_FILES;
    let moves = prefix_left(player, inner, 1)
        | prefix_right(player, inner, 1)
        | prefix_left(player, opponent, 8)
        | prefix_right(player, opponent, 8)
        | prefix_left(player, inner, 7)
        | prefix_right(player, inner, 7)
        | prefix_left(player, inner, 9)
        | prefix_right(player, inner, 9);
    moves & !(player | opponent)
}

/// Legal moves with AVX2: lanes hold the shifts 1, 8, 9 and 7, each lane runs
/// the parallel-prefix fill of [`moves_kogge_stone`] in both senses.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline]
pub fn moves_avx2(player: u64, opponent: u64) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY: the cfg above guarantees the CPU the crate is built for has AVX2.
    unsafe {
        let shift1 = _mm256_set_epi64x(7, 9, 8, 1);
        let shift2 = _mm256_set_epi64x(14, 18, 16, 2);
        let inner = INNER_FILES as i64;
        let mask = _mm256_set_epi64x(inner, inner, -1, inner);
        let pp = _mm256_set1_epi64x(player as i64);
        let oo = _mm256_and_si256(_mm256_set1_epi64x(opponent as i64), mask);

        let mut left = _mm256_and_si256(oo, _mm256_sllv_epi64(pp, shift1));
        let mut right = _mm256_and_si256(oo, _mm256_srlv_epi64(pp, shift1));
        left = _mm256_or_si256(left, _mm256_and_si256(oo, _mm256_sllv_epi64(left, shift1)));
        right = _mm256_or_si256(right, _mm256_and_si256(oo, _mm256_srlv_epi64(right, shift1)));
        let pairs_left = _mm256_and_si256(oo, _mm256_sllv_epi64(oo, shift1));
        let pairs_right = _mm256_srlv_epi64(pairs_left, shift1);
        left = _mm256_or_si256(left, _mm256_and_si256(pairs_left, _mm256_sllv_epi64(left, shift2)));
        right = _mm256_or_si256(right, _mm256_and_si256(pairs_right, _mm256_srlv_epi64(right, shift2)));
        left = _mm256_or_si256(left, _mm256_and_si256(pairs_left, _mm256_sllv_epi64(left, shift2)));
        right = _mm256_or_si256(right, _mm256_and_si256(pairs_right, _mm256_srlv_epi64(right, shift2)));
        let all = _mm256_or_si256(_mm256_sllv_epi64(left, shift1), _mm256_srlv_epi64(right, shift1));
        let half = _mm_or_si128(_mm256_castsi256_si128(all), _mm256_extracti128_si256(all, 1));
        let one = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
        (_mm_cvtsi128_si64(one) as u64) & !(player | opponent)
    }
}

/// The legal moves of `player` against `opponent`, by the fastest generator this
/// build can use. Same result as [`moves_dumb7fill`].
#[inline(always)]
pub fn moves(player: u64, opponent: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        moves_avx2(player, opponent)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        moves_kogge_stone(player, opponent)
    }
}

/// Squares next to an opponent disc that are empty: the opponent's frontier
/// seen from the player, used by evaluations as "potential mobility".
#[inline]
pub fn potential_moves(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let o = opponent & INNER_FILES;
    let around = (o << 1) | (o >> 1) | (opponent << 8) | (opponent >> 8) | (o << 7) | (o >> 7) | (o << 9) | (o >> 9);
    around & empty
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLACK: u64 = 0x0000_0008_1000_0000;
    const WHITE: u64 = 0x0000_0010_0800_0000;

    #[test]
    fn start_position_has_four_moves() {
        // d3, c4, f5, e6 for black.
        let expected = (1u64 << 19) | (1u64 << 26) | (1u64 << 37) | (1u64 << 44);
        assert_eq!(moves_dumb7fill(BLACK, WHITE), expected);
        assert_eq!(moves_kogge_stone(BLACK, WHITE), expected);
        assert_eq!(moves(BLACK, WHITE), expected);
    }

    #[test]
    fn long_runs_are_found_in_every_direction() {
        // Player at a1, six opponents along each line from a1: a move at the far end.
        let row = 0x7Eu64; // b1..g1
        assert_eq!(moves_kogge_stone(1, row), 1 << 7);
        assert_eq!(moves_dumb7fill(1, row), 1 << 7);
        let col: u64 = (1..7).map(|r| 1u64 << (r * 8)).sum();
        assert_eq!(moves_kogge_stone(1, col), 1 << 56);
        let diag: u64 = (1..7).map(|r| 1u64 << (r * 9)).sum();
        assert_eq!(moves_kogge_stone(1, diag), 1 << 63);
        assert_eq!(moves(1, diag), 1 << 63);
    }

    #[test]
    fn no_wrap_around_the_edges() {
        // Player at h1, opponent at a2: no move at b2 by wrapping east.
        let player = 1u64 << 7;
        let opponent = 1u64 << 8;
        assert_eq!(moves_kogge_stone(player, opponent), 0);
        assert_eq!(moves(player, opponent), 0);
        assert_eq!(moves_dumb7fill(player, opponent), 0);
    }
}
