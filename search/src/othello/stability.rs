//! Stable discs: discs no sequence of moves can flip. A lower bound is enough for the
//! solver's stability cutoff (if the opponent already owns `s` stable discs, the side
//! to move cannot score above 64 − 2s).
//!
//! Three sources, combined:
//!
//! * edges: a disc on an edge can only be flipped along that edge, so its stability is
//!   decided exactly by the 8 squares of the edge. [`EDGE_STABLE`] holds the answer for
//!   every pair of edge patterns, computed at compile time by trying every sequence of
//!   moves on the edge (by either side, legal or not elsewhere);
//! * full lines: a disc whose four lines (row, column, two diagonals) are all full can
//!   never be flipped;
//! * contact: an inner disc is stable if, in each of the four directions, its line is
//!   full or it touches a stable disc of its own colour along that line, repeated until
//!   nothing changes.

use bitboards::arch;

/// Discs flipped on an 8-square line when `mover` plays `x` against `other`.
const fn line_flips(mover: u32, other: u32, x: u32) -> u32 {
    let mut flips = 0;
    // Towards higher bits.
    let mut run = 0;
    let mut i = x + 1;
    while i < 8 && other >> i & 1 == 1 {
        run |= 1 << i;
        i += 1;
    }
    if i < 8 && mover >> i & 1 == 1 {
        flips |= run;
    }
    // Towards lower bits.
    run = 0;
    let mut i = x as i32 - 1;
    while i >= 0 && other >> i & 1 == 1 {
        run |= 1 << i;
        i -= 1;
    }
    if i >= 0 && mover >> i & 1 == 1 {
        flips |= run;
    }
    flips
}

/// `EDGE_STABLE[p * 256 + o]`: the discs of `p` on an 8-square edge that no sequence of
/// moves along the edge can flip.
pub static EDGE_STABLE: [u8; 65536] = build_edge_table();

const fn build_edge_table() -> [u8; 65536] {
    let mut table = [0u8; 65536];
    // Positions with more discs are solved first: every move adds a disc.
    let mut discs = 8i32;
    while discs >= 0 {
        let mut p = 0u32;
        while p < 256 {
            let mut o = 0u32;
            while o < 256 {
                if p & o == 0 && (p | o).count_ones() as i32 == discs {
                    let mut stable = p;
                    let mut x = 0;
                    while x < 8 {
                        if (p | o) >> x & 1 == 0 {
                            // p plays x: p's discs are not flipped, but must stay stable.
                            let f = line_flips(p, o, x);
                            let (p2, o2) = (p | f | 1 << x, o & !f);
                            stable &= table[(p2 * 256 + o2) as usize] as u32;
                            // o plays x: flips some of p's discs.
                            let f = line_flips(o, p, x);
                            let (p3, o3) = (p & !f, o | f | 1 << x);
                            stable &= table[(p3 * 256 + o3) as usize] as u32;
                        }
                        x += 1;
                    }
                    table[(p * 256 + o) as usize] = stable as u8;
                }
                o += 1;
            }
            p += 1;
        }
        discs -= 1;
    }
    table
}

const COLUMN_A: u64 = 0x0101_0101_0101_0101;
const COLUMN_H: u64 = 0x8080_8080_8080_8080;

/// The 8 bits of a column (top to bottom) as one byte.
#[inline(always)]
fn column_byte(bits: u64, column_mask: u64) -> u32 {
    if arch::HAS_BMI2 { arch::pext(bits, column_mask) as u32 } else { column_byte_portable(bits, column_mask) }
}

/// [`column_byte`] without BMI2: a multiplication gathers the column into the top byte.
fn column_byte_portable(bits: u64, column_mask: u64) -> u32 {
    let col = (bits >> column_mask.trailing_zeros()) & COLUMN_A;
    (col.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// A byte spread back onto a column.
#[inline(always)]
fn column_bits(byte: u32, column_mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the cfg guarantees BMI2.
        unsafe { std::arch::x86_64::_pdep_u64(byte as u64, column_mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        column_bits_portable(byte, column_mask)
    }
}

/// [`column_bits`] without BMI2.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
fn column_bits_portable(byte: u32, column_mask: u64) -> u64 {
    let col = (0..8).fold(0u64, |acc, r| acc | ((byte as u64 >> r & 1) << (8 * r)));
    col << column_mask.trailing_zeros()
}

/// Stable discs of `p` on the four edges.
#[inline]
pub fn edge_stable(p: u64, o: u64) -> u64 {
    let edge = |pb: u32, ob: u32| EDGE_STABLE[(pb * 256 + ob) as usize] as u32;
    let top = edge(p as u32 & 0xFF, o as u32 & 0xFF) as u64;
    let bottom = (edge((p >> 56) as u32, (o >> 56) as u32) as u64) << 56;
    let left = column_bits(edge(column_byte(p, COLUMN_A), column_byte(o, COLUMN_A)), COLUMN_A);
    let right = column_bits(edge(column_byte(p, COLUMN_H), column_byte(o, COLUMN_H)), COLUMN_H);
    top | bottom | left | right
}

/// Squares of `discs` whose whole line in one diagonal direction is full: `shift`
/// steps to the next square of the line (7 or 9), `ends_up[k]` are the squares with
/// no square `shift << k` further up the line (the last rows or the last columns),
/// `ends_down[k]` the same downwards. Each pass doubles the span checked: 1, 2, 4
/// squares each way.
#[inline(always)]
fn full_diagonals(discs: u64, shift: u32, ends_up: [u64; 3], ends_down: [u64; 3]) -> u64 {
    let mut up = discs;
    let mut down = discs;
    for k in 0..3 {
        up &= (up >> (shift << k)) | ends_up[k];
        down &= (down << (shift << k)) | ends_down[k];
    }
    up & down
}

/// Squares whose row, column and diagonals are full: `[row, column, a1-h8 diagonal,
/// h1-a8 diagonal]`.
#[inline]
pub fn full_lines(discs: u64) -> [u64; 4] {
    let mut h = discs;
    h &= h >> 1;
    h &= h >> 2;
    h &= h >> 4;
    let rows = (h & COLUMN_A).wrapping_mul(0xFF);
    let mut v = discs;
    v &= v >> 8;
    v &= v >> 16;
    v &= v >> 32;
    let columns = (v & 0xFF).wrapping_mul(COLUMN_A);
    // +9 is one row down and one column right: the lines end at row 8 or column h
    // going up in bits, at row 1 or column a going down.
    let d9 = full_diagonals(
        discs,
        9,
        [0xFF80_8080_8080_8080, 0xFFFF_C0C0_C0C0_C0C0, 0xFFFF_FFFF_F0F0_F0F0],
        [0x0101_0101_0101_01FF, 0x0303_0303_0303_FFFF, 0x0F0F_0F0F_FFFF_FFFF],
    );
    // +7 is one row down and one column left.
    let d7 = full_diagonals(
        discs,
        7,
        [0xFF01_0101_0101_0101, 0xFFFF_0303_0303_0303, 0xFFFF_FFFF_0F0F_0F0F],
        [0x8080_8080_8080_80FF, 0xC0C0_C0C0_C0C0_FFFF, 0xF0F0_F0F0_FFFF_FFFF],
    );
    [rows, columns, d9, d7]
}

/// A lower bound of `p`'s stable discs.
#[inline]
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let discs = p | o;
    let inner = p & 0x007E_7E7E_7E7E_7E00;
    let full = full_lines(discs);
    let mut stable = edge_stable(p, o) | (inner & full[0] & full[1] & full[2] & full[3]);
    if stable == 0 {
        return 0;
    }
    loop {
        let h = (stable >> 1) | (stable << 1) | full[0];
        let v = (stable >> 8) | (stable << 8) | full[1];
        let d9 = (stable >> 9) | (stable << 9) | full[2];
        let d7 = (stable >> 7) | (stable << 7) | full[3];
        let next = stable | (h & v & d9 & d7 & inner);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// Number of `p`'s discs next to a corner it holds, on the edges (cheap, for move
/// ordering).
#[inline]
pub fn corner_stability(p: u64) -> u32 {
    let stable = (((0x0100_0000_0000_0001 & p) << 1)
        | ((0x8000_0000_0000_0080 & p) >> 1)
        | ((0x0000_0000_0000_0081 & p) << 8)
        | ((0x8100_0000_0000_0000 & p) >> 8)
        | 0x8100_0000_0000_0081)
        & p;
    stable.count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitboards::othello::{Board, flips, squares};
    use bitboards::rng::splitmix64;

    #[test]
    fn edge_table_basics() {
        // A full edge is stable.
        let stable = |p: usize, o: usize| EDGE_STABLE[p * 256 + o];
        assert_eq!(stable(0xFF, 0), 0xFF);
        assert_eq!(stable(0x0F, 0xF0), 0x0F);
        // A corner is always stable; a lone inner disc is not.
        assert_eq!(stable(0x01, 0), 0x01);
        assert_eq!(stable(0x08, 0), 0);
        // Discs attached to the corner are stable.
        assert_eq!(stable(0x07, 0x10), 0x07);
    }

    /// Squares on a full line, square by square.
    fn full_lines_by_squares(discs: u64) -> [u64; 4] {
        let mut out = [0u64; 4];
        for sq in 0..64i32 {
            for (k, (dr, dc)) in [(0, 1), (1, 0), (1, 1), (1, -1)].into_iter().enumerate() {
                let full = [-1, 1].iter().all(|&sign| {
                    let (mut r, mut c) = (sq / 8, sq % 8);
                    while (0..8).contains(&r) && (0..8).contains(&c) {
                        if discs >> (r * 8 + c) & 1 == 0 {
                            return false;
                        }
                        r += sign * dr;
                        c += sign * dc;
                    }
                    true
                });
                if full {
                    out[k] |= 1 << sq;
                }
            }
        }
        out
    }

    #[test]
    fn full_lines_match_a_square_by_square_check() {
        let mut x = 7u64;
        for _ in 0..3000 {
            // Dense random boards, so that many lines are full.
            x = splitmix64(x);
            let a = x;
            x = splitmix64(x);
            let b = x;
            x = splitmix64(x);
            let discs = a | b | x;
            assert_eq!(full_lines(discs), full_lines_by_squares(discs), "{discs:#018x}");
        }
        assert_eq!(full_lines(u64::MAX), [u64::MAX; 4]);
        assert_eq!(full_lines(0), [0; 4]);
    }

    #[test]
    fn columns_round_trip() {
        let mut x = 1u64;
        for _ in 0..1000 {
            x = splitmix64(x);
            for mask in [COLUMN_A, COLUMN_H] {
                let byte = column_byte(x, mask);
                assert_eq!(byte, column_byte_portable(x, mask));
                let shift = mask.trailing_zeros();
                for r in 0..8 {
                    assert_eq!(byte >> r & 1, (x >> (8 * r + shift) & 1) as u32, "row {r}");
                }
                assert_eq!(column_bits(byte, mask), x & mask);
                assert_eq!(column_bits_portable(byte, mask), x & mask);
            }
        }
    }

    /// No random sequence of moves ever flips a disc called stable.
    #[test]
    fn stable_discs_never_flip() {
        let mut state = 5u64;
        for _ in 0..400 {
            // A random position from random play.
            let mut b = Board::start();
            let plies = (splitmix64(state) % 58) as usize;
            for _ in 0..plies {
                state = splitmix64(state);
                let moves = b.moves();
                if moves == 0 {
                    b = b.pass();
                    if b.moves() == 0 {
                        break;
                    }
                    continue;
                }
                let list: Vec<u8> = squares(moves).collect();
                b = b.play(list[(state % list.len() as u64) as usize]).unwrap();
            }
            let stable_p = stable_discs(b.player, b.opponent);
            let stable_o = stable_discs(b.opponent, b.player);
            assert_eq!(stable_p & !b.player, 0);
            // Play out several random games; the stable discs keep their colour.
            for _ in 0..10 {
                let (mut p, mut o) = (b.player, b.opponent);
                let mut mover_is_p = true;
                loop {
                    let (m, n) = if mover_is_p { (p, o) } else { (o, p) };
                    let moves = bitboards::othello::movegen::moves(m, n);
                    if moves == 0 {
                        if bitboards::othello::movegen::moves(n, m) == 0 {
                            break;
                        }
                        mover_is_p = !mover_is_p;
                        continue;
                    }
                    state = splitmix64(state);
                    let list: Vec<u8> = squares(moves).collect();
                    let sq = list[(state % list.len() as u64) as usize];
                    let f = flips::flips(m, n, sq);
                    if mover_is_p {
                        p |= f | 1 << sq;
                        o &= !f;
                    } else {
                        o |= f | 1 << sq;
                        p &= !f;
                    }
                    assert_eq!(stable_p & !p, 0, "a stable disc of p flipped");
                    assert_eq!(stable_o & !o, 0, "a stable disc of o flipped");
                    mover_is_p = !mover_is_p;
                }
            }
        }
    }
}
