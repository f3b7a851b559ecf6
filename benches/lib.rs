//! Inputs shared by the benchmarks: positions reached by seeded random play, so that
//! every run measures the same work.
#![deny(missing_docs)]

use bitboards::othello::{Board, OthelloBoard};
use bitboards::rng::splitmix64;

/// `count` 8×8 boards from seeded random games, spread over all game phases.
pub fn othello_boards(count: usize, seed: u64) -> Vec<Board> {
    let mut out = Vec::with_capacity(count);
    let mut state = seed;
    while out.len() < count {
        let mut board = Board::start();
        loop {
            out.push(board);
            let moves = board.legal_squares();
            if moves.is_empty() {
                if !board.pass().can_move() {
                    break;
                }
                board = board.pass();
                continue;
            }
            state = splitmix64(state);
            board = board.play(moves[(state % moves.len() as u64) as usize]).expect("legal");
        }
    }
    out.truncate(count);
    out
}

/// `count` Chaos Clock states from seeded random games (moves picked by a splitmix64
/// stream), every dealt opening and ply mixed; finished states are left out.
pub fn chaosclock_states(count: usize, seed: u64) -> Vec<bitboards::chaosclock::State> {
    let mut out = Vec::with_capacity(count);
    let mut state = seed;
    let mut deal = 0;
    while out.len() < count {
        let mut s = bitboards::chaosclock::random_opening(seed.wrapping_add(deal));
        deal += 1;
        for _ in 0..200 {
            if s.outcome().is_some() || out.len() == count {
                break;
            }
            out.push(s);
            let moves = s.legal_moves();
            state = splitmix64(state);
            let pick = (state % moves.len() as u64) as usize;
            let Ok(next) = s.play(moves[pick]) else { break };
            s = next;
        }
    }
    out
}
