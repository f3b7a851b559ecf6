//! Perft: the number of move sequences of a given length, the standard check of a
//! move generator.
//!
//! Counting follows the published Othello tables: a forced pass is one ply, and a
//! finished game counts as one leaf at every deeper ply. [`perft`] is the fast 8×8
//! counter (bulk counting of the last ply with a popcount); [`perft_generic`] works
//! on any [`OthelloBoard`] and [`perft_dumb7fill`] uses only the reference generators,
//! to cross-check the fast code.

use super::board::{Board, squares};
use super::flips::flips_dumb7fill;
use super::movegen::moves_dumb7fill;
use super::rules::OthelloBoard;

/// Perft of an 8×8 board with the fastest generators.
pub fn perft(board: Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let moves = board.moves();
            if moves == 0 { 1 } else { moves.count_ones() as u64 }
        }
        _ => perft_deep(board, depth),
    }
}

/// Depth ≥ 2: recurse, counting the last two plies without making the last move.
fn perft_deep(board: Board, depth: u32) -> u64 {
    let moves = board.moves();
    if moves == 0 {
        let passed = board.pass();
        if passed.moves() == 0 {
            return 1;
        }
        return perft(passed, depth - 1);
    }
    let mut total = 0;
    if depth == 2 {
        for sq in squares(moves) {
            let child = board.play_flips(sq, board.flips(sq));
            let m = child.moves();
            // A child without moves is one node at the next ply: either its pass
            // or its finished game.
            total += if m == 0 { 1 } else { m.count_ones() as u64 };
        }
    } else {
        for sq in squares(moves) {
            total += perft_deep(board.play_flips(sq, board.flips(sq)), depth - 1);
        }
    }
    total
}

/// Perft of an 8×8 board with the Dumb7Fill generators only (slow reference).
pub fn perft_dumb7fill(board: Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = moves_dumb7fill(board.player, board.opponent);
    if moves == 0 {
        if moves_dumb7fill(board.opponent, board.player) == 0 {
            return 1;
        }
        return perft_dumb7fill(board.pass(), depth - 1);
    }
    squares(moves)
        .map(|sq| {
            let flips = flips_dumb7fill(board.player, board.opponent, sq);
            perft_dumb7fill(board.play_flips(sq, flips), depth - 1)
        })
        .sum()
}

/// Perft on any board size.
pub fn perft_generic<B: OthelloBoard>(board: B, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.legal_squares();
    if moves.is_empty() {
        if !board.pass().can_move() {
            return 1;
        }
        return perft_generic(board.pass(), depth - 1);
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.into_iter().map(|sq| perft_generic(board.play(sq).expect("generated moves are legal"), depth - 1)).sum()
}

/// The published perft counts from the 8×8 start, depths 1 to 13.
pub const PUBLISHED_PERFT: [u64; 13] =
    [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800, 1939886636, 18429641748];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_published_counts() {
        for depth in 1..=6 {
            let expected = PUBLISHED_PERFT[depth as usize - 1];
            assert_eq!(perft(Board::start(), depth), expected, "depth {depth}");
            assert_eq!(perft_dumb7fill(Board::start(), depth), expected);
            assert_eq!(perft_generic(Board::start(), depth), expected);
        }
    }

    #[test]
    fn finished_games_stay_leaves_and_passes_count_as_plies() {
        // Black to move, black has a1-b1 pattern, white none after the move.
        let game_over = Board::new(0xFF, 0);
        for d in 0..5 {
            assert_eq!(perft(game_over, d), 1);
            assert_eq!(perft_dumb7fill(game_over, d), 1);
        }
        // Side to move blocked, opponent can move: pass is one ply.
        let blocked = Board::new(2, 1); // player b1, opponent a1: nobody can move.
        assert_eq!(perft(blocked, 3), 1);
        // Player c1, opponent a1 b1: the player is stuck, the opponent can play d1.
        let must_pass = Board::new(1 << 2, 1 | (1 << 1));
        assert_eq!(must_pass.moves(), 0);
        assert_ne!(must_pass.opponent_moves(), 0);
        assert_eq!(perft(must_pass, 1), 1);
        assert_eq!(perft(must_pass, 2), must_pass.pass().moves().count_ones() as u64);
        assert_eq!(perft(must_pass, 4), perft_dumb7fill(must_pass, 4));
    }
}
