//! Perft split over threads: the tree is expanded breadth-first until there is
//! enough work, then the subtrees are counted in parallel with rayon. The counts
//! are exactly those of the single-threaded counters.

use bitboards::othello::{Board, OthelloBoard, perft, perft_generic};
use rayon::prelude::*;
use std::any::Any;

/// Counts perft of `board` at `depth` on `threads` threads (0 = all cores).
pub fn parallel_perft<B: OthelloBoard>(board: B, depth: u32, threads: usize) -> u64 {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
    let threads = pool.as_ref().map(|p| p.current_num_threads()).unwrap_or(1);
    let mut finished = 0u64;
    let mut frontier = vec![board];
    let mut remaining = depth;
    // Expand while the work is too coarse to share and the subtrees stay deep.
    while remaining > 2 && frontier.len() < 64 * threads {
        let mut next = Vec::with_capacity(frontier.len() * 10);
        for b in frontier {
            let moves = b.legal_squares();
            if !moves.is_empty() {
                next.extend(moves.into_iter().map(|sq| b.play(sq).expect("legal move")));
            } else if b.pass().can_move() {
                next.push(b.pass());
            } else {
                finished += 1; // a finished game stays one leaf at every depth
            }
        }
        frontier = next;
        remaining -= 1;
    }
    let count = |b: &B| leaf_perft(*b, remaining);
    let subtrees: u64 = match pool {
        Ok(pool) => pool.install(|| frontier.par_iter().map(count).sum()),
        Err(_) => frontier.iter().map(count).sum(),
    };
    finished + subtrees
}

/// The fastest single-threaded perft for the board type: the specialised 8×8 code
/// when `B` is [`Board`], the generic one otherwise.
fn leaf_perft<B: OthelloBoard>(board: B, depth: u32) -> u64 {
    match (&board as &dyn Any).downcast_ref::<Board>() {
        Some(b) => perft(*b, depth),
        None => perft_generic(board, depth),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitboards::othello::{PUBLISHED_PERFT, SizedBoard};

    #[test]
    fn same_counts_as_one_thread() {
        for threads in [1, 2, 3] {
            for depth in 1..=9 {
                assert_eq!(parallel_perft(Board::start(), depth, threads), PUBLISHED_PERFT[depth as usize - 1]);
            }
            let six = SizedBoard::<6>::start();
            assert_eq!(parallel_perft(six, 8, threads), perft_generic(six, 8));
        }
    }
}
