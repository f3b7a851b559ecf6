//! The discs a move flips on the 8×8 board.
//!
//! [`flips_reference`] walks square by square (seed 002 §6.3, method 1),
//! [`flips_dumb7fill`] floods from the move square, and [`flips`] computes all
//! eight directions from precomputed rays: the first square of the ray that is not
//! an opponent disc is isolated with a bit trick (lowest set bit for the directions
//! that increase the index, highest for the others); if it holds a player disc, the
//! ray up to it flips. With AVX-512 (VL + CD), or else AVX2, the eight rays are
//! handled in two vectors of four lanes.

use super::geometry::{RAYS, shift};

/// Flips by walking each direction one square at a time. Slow and obviously right.
pub fn flips_reference(player: u64, opponent: u64, sq: u8) -> u64 {
    let mut flips = 0;
    for d in 0..8 {
        let mut line = 0;
        let mut x = shift(1u64 << sq, d);
        while x & opponent != 0 {
            line |= x;
            x = shift(x, d);
        }
        if x & player != 0 {
            flips |= line;
        }
    }
    flips
}

/// Flips by Dumb7Fill from the move square: grow through opponent discs, keep the
/// run if one more step lands on a player disc.
pub fn flips_dumb7fill(player: u64, opponent: u64, sq: u8) -> u64 {
    let start = 1u64 << sq;
    let mut flips = 0;
    for d in 0..8 {
        let mut run = shift(start, d) & opponent;
        for _ in 0..5 {
            run |= shift(run, d) & opponent;
        }
        if shift(run, d) & player != 0 {
            flips |= run;
        }
    }
    flips
}

/// Flips along one ray whose squares have larger indices than the move.
#[inline(always)]
fn ray_up(player: u64, opponent: u64, ray: u64) -> u64 {
    let blockers = !opponent & ray;
    let first = blockers & blockers.wrapping_neg();
    let keep = ((first & player) != 0) as u64;
    first.wrapping_sub(1) & ray & keep.wrapping_neg()
}

/// Flips along one ray whose squares have smaller indices than the move.
#[inline(always)]
fn ray_down(player: u64, opponent: u64, ray: u64) -> u64 {
    let blockers = !opponent & ray;
    // `| 1` keeps the shift in range; bit 0 only counts if it lies on the ray.
    let first = (1u64 << 63) >> (blockers | 1).leading_zeros();
    let keep = ((first & player & ray) != 0) as u64;
    (first.wrapping_neg() << 1) & ray & keep.wrapping_neg()
}

/// Flips from precomputed rays, portable code.
#[inline]
pub fn flips_rays(player: u64, opponent: u64, sq: u8) -> u64 {
    let rays = &RAYS.0[sq as usize];
    ray_up(player, opponent, rays[0])
        | ray_up(player, opponent, rays[1])
        | ray_up(player, opponent, rays[2])
        | ray_up(player, opponent, rays[3])
        | ray_down(player, opponent, rays[4])
        | ray_down(player, opponent, rays[5])
        | ray_down(player, opponent, rays[6])
        | ray_down(player, opponent, rays[7])
}

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512vl",
    target_feature = "avx512cd"
))]
mod simd {
    use super::avx2::{or_lanes, ray_vectors};
    use std::arch::x86_64::*;

    /// Flips with AVX-512VL: lanes 0..4 hold the rays that increase the index,
    /// lanes 4..8 the others.
    #[inline]
    pub fn flips_avx512(player: u64, opponent: u64, sq: u8) -> u64 {
        // SAFETY: the cfg on this module guarantees AVX-512F/VL/CD (and so AVX2).
        unsafe {
            let (up, down) = ray_vectors(sq);
            let pp = _mm256_set1_epi64x(player as i64);
            let oo = _mm256_set1_epi64x(opponent as i64);
            let zero = _mm256_setzero_si256();

            let blockers = _mm256_andnot_si256(oo, up);
            let first = _mm256_and_si256(blockers, _mm256_sub_epi64(zero, blockers));
            let keep = _mm256_test_epi64_mask(first, pp);
            let flips_up = _mm256_maskz_and_epi64(keep, _mm256_sub_epi64(first, _mm256_set1_epi64x(1)), up);

            let blockers = _mm256_andnot_si256(oo, down);
            let first = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(blockers));
            let keep = _mm256_test_epi64_mask(first, pp);
            let flips_down = _mm256_maskz_and_epi64(keep, _mm256_slli_epi64(_mm256_sub_epi64(zero, first), 1), down);

            or_lanes(_mm256_or_si256(flips_up, flips_down))
        }
    }
}

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512vl",
    target_feature = "avx512cd"
))]
pub use simd::flips_avx512;

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2 {
    use super::RAYS;
    use std::arch::x86_64::*;

    /// The rays of `sq`: those that increase the index, then the others, four lanes
    /// each (directions 0..4 and 4..8 of [`RAYS`]).
    #[inline(always)]
    pub fn ray_vectors(sq: u8) -> (__m256i, __m256i) {
        // SAFETY: the cfg on this module guarantees AVX2; `RAYS` is 64-byte aligned,
        // so both loads read 32 aligned bytes inside it.
        unsafe {
            let base = RAYS.0[sq as usize & 63].as_ptr();
            (_mm256_load_si256(base as *const __m256i), _mm256_load_si256(base.add(4) as *const __m256i))
        }
    }

    /// The union of the four lanes.
    #[inline(always)]
    pub fn or_lanes(v: __m256i) -> u64 {
        // SAFETY: the cfg on this module guarantees AVX2.
        unsafe {
            let half = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
            _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
        }
    }

    /// Flips with AVX2, for machines without AVX-512: lanes 0..4 hold the rays that
    /// increase the index (lowest blocker by `x & -x`), lanes 4..8 the others. AVX2
    /// has no 64-bit leading-zero count, so for those the blockers are smeared along
    /// each ray (shifts of 1, 2 and 4 steps): the ray squares outside the smear lie
    /// between the move and the first blocker, and the first blocker is the one
    /// blocker the smear moved one step further does not cover.
    #[inline]
    pub fn flips_avx2(player: u64, opponent: u64, sq: u8) -> u64 {
        // SAFETY: the cfg on this module guarantees AVX2.
        unsafe {
            let (up, down) = ray_vectors(sq);
            let pp = _mm256_set1_epi64x(player as i64);
            let oo = _mm256_set1_epi64x(opponent as i64);
            let zero = _mm256_setzero_si256();

            let blockers = _mm256_andnot_si256(oo, up);
            let first = _mm256_and_si256(blockers, _mm256_sub_epi64(zero, blockers));
            let missed = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
            let run = _mm256_and_si256(_mm256_add_epi64(first, _mm256_set1_epi64x(-1)), up);
            let flips_up = _mm256_andnot_si256(missed, run);

            // Directions 4..8 step by -1, -8, -9 and -7.
            let step = _mm256_set_epi64x(7, 9, 8, 1);
            let blockers = _mm256_andnot_si256(oo, down);
            let mut smear = _mm256_or_si256(blockers, _mm256_srlv_epi64(blockers, step));
            smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, _mm256_slli_epi64(step, 1)));
            smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, _mm256_slli_epi64(step, 2)));
            let run = _mm256_andnot_si256(smear, down);
            let first = _mm256_andnot_si256(_mm256_srlv_epi64(smear, step), blockers);
            let missed = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
            let flips_down = _mm256_andnot_si256(missed, run);

            or_lanes(_mm256_or_si256(flips_up, flips_down))
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
pub use avx2::flips_avx2;

/// The discs flipped when `player` plays on the empty square `sq`, by the fastest
/// method this build can use. Zero means the move is illegal.
#[inline(always)]
pub fn flips(player: u64, opponent: u64, sq: u8) -> u64 {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512f",
        target_feature = "avx512vl",
        target_feature = "avx512cd"
    ))]
    {
        flips_avx512(player, opponent, sq)
    }
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        not(all(target_feature = "avx512f", target_feature = "avx512vl", target_feature = "avx512cd"))
    ))]
    {
        flips_avx2(player, opponent, sq)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_rays(player, opponent, sq)
    }
}

/// The four lines through a square (row, column, diagonal, anti-diagonal, the square
/// included) and the square's place in each, counted from the line's lowest square.
#[derive(Clone, Copy)]
struct Lines {
    masks: [u64; 4],
    places: [u8; 4],
}

static LINES: [Lines; 64] = build_lines();

const fn build_lines() -> [Lines; 64] {
    let mut out = [Lines { masks: [0; 4], places: [0; 4] }; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < 4 {
            let mask = RAYS.0[sq][k] | RAYS.0[sq][k + 4] | 1u64 << sq;
            out[sq].masks[k] = mask;
            out[sq].places[k] = (mask & ((1u64 << sq) - 1)).count_ones() as u8;
            k += 1;
        }
        sq += 1;
    }
    out
}

/// `LINE_FLIPS[place][bits]`: discs flipped on a line by a move at `place` when the
/// mover's discs on the line are `bits` and every other square is the opponent's
/// (squares beyond a short line's end read as not the mover's, so they flip nothing).
static LINE_FLIPS: [[u8; 256]; 8] = build_line_flips();

const fn build_line_flips() -> [[u8; 256]; 8] {
    let mut out = [[0u8; 256]; 8];
    let mut place = 0;
    while place < 8 {
        let mut bits = 0;
        while bits < 256 {
            let mut count = 0;
            // Towards the high end.
            let mut j = place + 1;
            while j < 8 && bits >> j & 1 == 0 {
                j += 1;
            }
            if j < 8 {
                count += j - place - 1;
            }
            // Towards the low end.
            let mut j = place as i32 - 1;
            while j >= 0 && bits >> j & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                count += place - j as usize - 1;
            }
            out[place][bits] = count as u8;
            bits += 1;
        }
        place += 1;
    }
    out
}

/// The number of discs `player` flips by playing `sq` when `sq` is the board's last
/// empty square (every other square is the player's or the opponent's). With BMI2,
/// each of the four lines is one bit extraction and one table read.
#[inline(always)]
pub fn last_flip_count(player: u64, sq: u8) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        let lines = &LINES[sq as usize & 63];
        let mut count = 0;
        for k in 0..4 {
            let bits = crate::arch::pext(player, lines.masks[k]);
            count += LINE_FLIPS[lines.places[k] as usize & 7][bits as usize & 255] as u32;
        }
        count
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        flips(player, !(player | 1u64 << sq), sq).count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLACK: u64 = 0x0000_0008_1000_0000;
    const WHITE: u64 = 0x0000_0010_0800_0000;

    #[test]
    fn opening_move_flips_one_disc() {
        // Black d3 (19) flips d4 (27).
        for f in [flips_reference, flips_dumb7fill, flips_rays, flips] {
            assert_eq!(f(BLACK, WHITE, 19), 1 << 27);
            assert_eq!(f(BLACK, WHITE, 0), 0);
        }
    }

    #[test]
    fn rays_agree_with_reference_on_dense_patterns() {
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..20000 {
            x = crate::rng::splitmix64(x);
            let y = crate::rng::splitmix64(x ^ 0x55);
            let player = x & !y;
            let opponent = y & !x;
            let empty = !(player | opponent);
            for sq in 0..64u8 {
                if empty >> sq & 1 == 1 {
                    let expected = flips_reference(player, opponent, sq);
                    assert_eq!(flips_rays(player, opponent, sq), expected);
                    assert_eq!(flips(player, opponent, sq), expected);
                    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
                    assert_eq!(flips_avx2(player, opponent, sq), expected);
                    assert_eq!(flips_dumb7fill(player, opponent, sq), expected);
                }
            }
        }
    }

    /// [`last_flip_count`] from the line tables without BMI2, so that the tables are
    /// tested on any machine.
    fn last_flip_count_portable(player: u64, sq: u8) -> u32 {
        let lines = &LINES[sq as usize];
        let mut count = 0;
        for k in 0..4 {
            let mut bits = 0;
            for (i, s) in crate::othello::squares(lines.masks[k]).enumerate() {
                bits |= ((player >> s & 1) as usize) << i;
            }
            count += LINE_FLIPS[lines.places[k] as usize][bits] as u32;
        }
        count
    }

    #[test]
    fn last_flip_counts_agree_with_flips() {
        let mut x = 0x0bad_cafe_1234_5678u64;
        for _ in 0..20000 {
            x = crate::rng::splitmix64(x);
            let sq = (x >> 58) as u8;
            let player = crate::rng::splitmix64(x) & !(1u64 << sq);
            let expected = flips_reference(player, !(player | 1u64 << sq), sq).count_ones();
            assert_eq!(last_flip_count(player, sq), expected, "player {player:#x} square {sq}");
            assert_eq!(last_flip_count_portable(player, sq), expected, "player {player:#x} square {sq}");
        }
    }
}
