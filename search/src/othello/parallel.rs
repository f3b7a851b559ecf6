//! Parallel search: Young Brothers Wait. At a node deep enough above the leaves, the
//! first move is searched alone (it usually decides the node); if it does not cut
//! off, the remaining moves are handed out in order, one at a time, to the thread
//! that split and to the helpers rayon's work stealing brings in. (Halving the list,
//! as a parallel iterator does, sent helpers to the last moves, the least likely to
//! matter: FFO #51–#52 on two threads took 1.48 G nodes that way, 1.16 G in order,
//! against 1.05 G on one thread.) A move that cuts off raises the split point's flag,
//! which cancels its siblings and everything below them. Cancelled subtrees store
//! nothing in the table, so the result is exactly that of the sequential search.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

use super::context::{Cancel, Searcher};
use super::endgame::{INF, Move, QUADRANT};

/// Fewest empties at which an endgame node may split. Lower, the threads spend more
/// time on moves a sibling's cut makes useless (`sente ffo ../shared/ffo/ffo_40_59.txt
/// --only 51,52 --threads 2`: 12 → 18.5 s, 15 → 17.7 s, 18 → 16.8 s, 21 → 17.2 s,
/// 24 → 21.4 s).
pub const SPLIT_MIN_EMPTIES: u32 = 18;

impl Searcher<'_> {
    /// Whether a node with `n` empties may hand its remaining moves to other threads.
    #[inline]
    pub fn can_split(&self, n: u32) -> bool {
        self.shared.threads > 1 && n >= SPLIT_MIN_EMPTIES
    }

    /// Searches `rest` (the moves after the first) in parallel with a null window at
    /// `alpha`; returns the best score and its move. Sets `self.aborted` if the search
    /// was stopped from outside.
    pub fn split_endgame(&mut self, p: u64, o: u64, alpha: i32, n: u32, parity: u8, rest: &[Move]) -> (i32, u8) {
        let beta = alpha + 1;
        let flag = AtomicBool::new(false);
        let cancel = Cancel::new(&flag, self.cancel);
        // Best score and move packed in one atomic: score in the high bits.
        let best = AtomicI32::new(pack(-INF, 64));
        let incomplete = AtomicBool::new(false);
        let shared = self.shared;
        let sel = self.sel;
        // The moves are handed out in order, one at a time, to whichever thread asks
        // next: a helper takes the next move after the ones being searched, never
        // the last ones (the least likely to matter), as halving the list would.
        let next = AtomicUsize::new(0);
        let work = || {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= rest.len() || flag.load(Ordering::Relaxed) {
                    return;
                }
                let m = &rest[i];
                let mut s = Searcher::new(shared, Some(&cancel));
                s.sel = sel;
                let (cp, co) = (o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq));
                let score = -s.nws_endgame(cp, co, -beta, n - 1, parity ^ QUADRANT[m.sq as usize]);
                s.flush_nodes();
                if s.aborted {
                    incomplete.store(true, Ordering::Relaxed);
                    return;
                }
                best.fetch_max(pack(score, m.sq), Ordering::Relaxed);
                if score >= beta {
                    flag.store(true, Ordering::Relaxed);
                }
            }
        };
        let helpers = (shared.threads - 1).min(rest.len().saturating_sub(1));
        rayon::scope(|scope| {
            for _ in 0..helpers {
                scope.spawn(|_| work());
            }
            work();
        });
        let (score, sq) = unpack(best.load(Ordering::Relaxed));
        let cut = flag.load(Ordering::Relaxed);
        if !cut && incomplete.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        (score, sq)
    }
}

/// Packs a score and a move so that comparing packed values compares scores.
fn pack(score: i32, sq: u8) -> i32 {
    score * 128 + sq as i32
}

fn unpack(v: i32) -> (i32, u8) {
    let score = v.div_euclid(128);
    (score, v.rem_euclid(128) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_orders_by_score() {
        for s in [-INF, -64, -1, 0, 2, 64] {
            for sq in [0u8, 5, 63, 64] {
                assert_eq!(unpack(pack(s, sq)), (s, sq));
            }
        }
        assert!(pack(2, 0) > pack(0, 63));
        assert!(pack(-2, 63) < pack(0, 0));
    }
}
