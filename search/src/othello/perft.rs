//! Perft split over threads: the tree is expanded breadth-first until there is
//! enough work, then the subtrees are counted in parallel with rayon. The counts
//! are exactly those of the single-threaded counters.

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};

use bitboards::othello::{Board, OthelloBoard, perft, perft_generic};
use rayon::prelude::*;

/// Subtrees of at most this many plies are counted without looking at the stop flag
/// (a fraction of a second each); deeper ones look at it before each child.
const STOP_CHECK_DEPTH: u32 = 8;

/// Counts perft of `board` at `depth` on `threads` threads (0 = all cores).
pub fn parallel_perft<B: OthelloBoard>(board: B, depth: u32, threads: usize) -> u64 {
    parallel_perft_until(board, depth, threads, &AtomicBool::new(false)).expect("never stopped")
}

/// [`parallel_perft`] that gives up, returning `None`, soon after `stop` is raised.
pub fn parallel_perft_until<B: OthelloBoard>(board: B, depth: u32, threads: usize, stop: &AtomicBool) -> Option<u64> {
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
    let count = |b: &B| stoppable_perft(*b, remaining, stop);
    let subtrees: Option<u64> = match pool {
        Ok(pool) => pool.install(|| frontier.par_iter().map(count).sum()),
        Err(_) => frontier.iter().map(count).sum(),
    };
    Some(finished + subtrees?)
}

/// Perft of `board` at `depth`, looking at `stop` at every node deeper than
/// [`STOP_CHECK_DEPTH`]; `None` once stopped. A forced pass is one ply and a finished
/// game one leaf, as in the counters it calls.
fn stoppable_perft<B: OthelloBoard>(board: B, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= STOP_CHECK_DEPTH {
        return Some(leaf_perft(board, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let moves = board.legal_squares();
    if !moves.is_empty() {
        moves.into_iter().map(|sq| stoppable_perft(board.play(sq).expect("legal move"), depth - 1, stop)).sum()
    } else if board.pass().can_move() {
        stoppable_perft(board.pass(), depth - 1, stop)
    } else {
        Some(1)
    }
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
    fn a_raised_stop_flag_ends_a_deep_count() {
        let stop = AtomicBool::new(true);
        assert_eq!(parallel_perft_until(Board::start(), 30, 2, &stop), None);
        // Shallow enough to be counted without looking at the flag.
        assert_eq!(parallel_perft_until(Board::start(), 6, 1, &stop), Some(PUBLISHED_PERFT[5]));
        assert_eq!(parallel_perft_until(Board::start(), 11, 2, &AtomicBool::new(false)), Some(PUBLISHED_PERFT[10]));
    }

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
