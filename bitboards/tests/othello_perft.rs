//! Perft counts: the published 8×8 table, and the 6×6 and 10×10 starts derived
//! here and cross-checked between independent generators.

use bitboards::othello::{Board, OthelloBoard, PUBLISHED_PERFT, SizedBoard, perft, perft_dumb7fill, perft_generic};

#[test]
fn published_counts_depth_1_to_11() {
    for depth in 1..=11u32 {
        assert_eq!(perft(Board::start(), depth), PUBLISHED_PERFT[depth as usize - 1], "depth {depth}");
    }
}

#[test]
fn dumb7fill_reference_agrees_to_depth_8() {
    for depth in 1..=8u32 {
        assert_eq!(perft_dumb7fill(Board::start(), depth), PUBLISHED_PERFT[depth as usize - 1]);
    }
}

/// Perft of a sized board with only its Dumb7Fill move and flip generators.
fn perft_sized_dumb7fill<const N: usize>(board: SizedBoard<N>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves_dumb7fill();
    if moves == 0 {
        if board.pass().moves_dumb7fill() == 0 {
            return 1;
        }
        return perft_sized_dumb7fill(board.pass(), depth - 1);
    }
    (0..(N * N) as u8)
        .filter(|&sq| moves >> sq & 1 == 1)
        .map(|sq| {
            let f = board.flips_dumb7fill(sq);
            let child = SizedBoard::<N>::new(board.opponent ^ f, board.player ^ f ^ (1u128 << sq));
            perft_sized_dumb7fill(child, depth - 1)
        })
        .sum()
}

/// 6×6 perft from the start, derived with the fast generic generator and checked
/// against Dumb7Fill below.
const PERFT_6X6: [u64; 10] = [4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912, 14976792];

#[test]
fn six_by_six_start() {
    let start = SizedBoard::<6>::start();
    assert_eq!(start.mobility(), 4);
    for depth in 1..=9u32 {
        let fast = perft_generic(start, depth);
        assert_eq!(fast, perft_sized_dumb7fill(start, depth), "depth {depth}");
        assert_eq!(fast, PERFT_6X6[depth as usize - 1], "depth {depth}");
    }
}

/// 10×10 perft from the start, derived like the 6×6 table.
const PERFT_10X10: [u64; 8] = [4, 12, 56, 244, 1396, 8200, 55180, 392268];

#[test]
fn ten_by_ten_start() {
    let start = SizedBoard::<10>::start();
    assert_eq!(start.mobility(), 4);
    for depth in 1..=8u32 {
        let fast = perft_generic(start, depth);
        assert_eq!(fast, perft_sized_dumb7fill(start, depth), "depth {depth}");
        assert_eq!(fast, PERFT_10X10[depth as usize - 1], "depth {depth}");
    }
    // Until the edges come into play the counts equal the 8×8 ones.
    assert_eq!(PERFT_10X10[..6], PUBLISHED_PERFT[..6]);
    assert_ne!(PERFT_10X10[6], PUBLISHED_PERFT[6]);
}
