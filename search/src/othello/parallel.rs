//! Parallel search: Young Brothers Wait. At a node deep enough above the leaves, the
//! first move is searched alone (it usually decides the node); if it does not cut
//! off, the remaining moves are handed out in order, one at a time, to the thread
//! that split and to the helpers rayon's work stealing brings in. (Halving the list,
//! as a parallel iterator does, sent helpers to the last moves, the least likely to
//! matter: FFO #51–#52 on two threads took 1.48 G nodes that way, 1.16 G in order,
//! against 1.05 G on one thread.) A move that cuts off raises the split point's flag,
//! which cancels its siblings and everything below them. Cancelled subtrees store
//! nothing in the table, so the result is exactly that of the sequential search.
//!
//! The solver's principal-variation nodes (and the root) hand out the moves after the
//! first the same way ([`SiblingScores`]), then take the scores in order as the
//! sequential search would: there every move must be refuted, so the helpers' work
//! is never wasted, unlike after a null-window node's first move, where the second
//! usually cuts.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

use super::context::{Cancel, Searcher};
use super::moves::{INF, Move, QUADRANT};
use super::params::{MIDGAME_SPLIT_MIN_DEPTH, NULL_WINDOW_SPLIT_MIN_EMPTIES, SPLIT_MIN_EMPTIES};
use super::patterns::Features;

impl Searcher<'_> {
    /// Whether a principal-variation node with `n` empties may hand its moves after
    /// the first to other threads.
    #[inline]
    pub fn can_split(&self, n: u32) -> bool {
        self.shared.threads > 1 && n >= SPLIT_MIN_EMPTIES
    }

    /// Whether a midgame node searched `depth` plies may hand its moves after the
    /// first to other threads: at a principal-variation node from
    /// [`MIDGAME_SPLIT_MIN_DEPTH`], at a null-window node from one ply more.
    #[inline]
    pub fn can_split_midgame(&self, depth: u32, null_window: bool) -> bool {
        self.shared.threads > 1 && depth >= MIDGAME_SPLIT_MIN_DEPTH + u32::from(null_window)
    }

    /// Whether a null-window node with `n` empties may hand its remaining moves to
    /// other threads.
    #[inline]
    pub fn can_split_null_window(&self, n: u32) -> bool {
        self.shared.threads > 1 && n >= NULL_WINDOW_SPLIT_MIN_EMPTIES
    }

    /// Searches `rest` (the moves after the first) in parallel with a null window at
    /// `alpha`, `depth` plies deep (the endgame when `depth >= n`); returns the best
    /// score and its move. Sets `self.aborted` if the search
    /// was stopped from outside.
    #[allow(clippy::too_many_arguments)]
    pub fn split_null_window(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        depth: u32,
        n: u32,
        parity: u8,
        rest: &[Move],
    ) -> (i32, u8) {
        let scores = self.null_window_scores(p, o, alpha, alpha + 1, depth, n, parity, rest);
        let best = rest.iter().zip(scores).filter_map(|(m, s)| s.map(|s| pack(s, m.sq))).max();
        unpack(best.unwrap_or(pack(-INF, 64)))
    }

    /// The null-window scores at `alpha` of the moves `rest` of `(p, o)` searched
    /// `depth` plies (exactly to the end when `depth >= n`), in their order, searched by this thread and the helpers that join in. A score of at
    /// least `cut` ends the node: the moves still being searched are cancelled (their
    /// subtrees store nothing in the table) and, with those not started, come back as
    /// `None`. If the search was stopped from outside, `self.aborted` is set.
    ///
    /// [`Self::split_null_window`] uses it at null-window nodes, where the work after the
    /// first move is speculative (the second move usually cuts); the solver's
    /// principal-variation nodes use it for the moves after the first, which must all
    /// be refuted (or found better), so none of that work is wasted.
    #[allow(clippy::too_many_arguments)]
    fn null_window_scores(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        cut: i32,
        depth: u32,
        n: u32,
        parity: u8,
        rest: &[Move],
    ) -> Vec<Option<i32>> {
        let flag = AtomicBool::new(false);
        let cancel = Cancel::new(&flag, self.cancel);
        let scores: Vec<AtomicI32> = rest.iter().map(|_| AtomicI32::new(NOT_SEARCHED)).collect();
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
                let cparity = parity ^ QUADRANT[m.sq as usize];
                let score = if depth >= n {
                    -s.nws_endgame(cp, co, -alpha - 1, n - 1, cparity)
                } else {
                    -s.pvs_midgame(cp, co, &Features::new(cp, co), -alpha - 1, -alpha, depth - 1, n - 1, cparity)
                };
                s.flush_nodes();
                if s.aborted {
                    incomplete.store(true, Ordering::Relaxed);
                    return;
                }
                scores[i].store(score, Ordering::Relaxed);
                if score >= cut {
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
        if !flag.load(Ordering::Relaxed) && incomplete.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        scores.iter().map(|v| Some(v.load(Ordering::Relaxed)).filter(|&v| v != NOT_SEARCHED)).collect()
    }
}

/// The scores of the moves after the first at a principal-variation node, searched in
/// parallel ([`Searcher::null_window_scores`]) with the window of the time; empty
/// until then.
#[derive(Default)]
pub struct SiblingScores {
    scores: Vec<Option<i32>>,
    alpha: i32,
}

impl SiblingScores {
    /// Searches the moves `rest` of `(p, o)` (all but the first) at `alpha`, `depth`
    /// plies deep (the endgame when `depth >= n`).
    #[allow(clippy::too_many_arguments)]
    pub fn search(
        s: &mut Searcher<'_>,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        depth: u32,
        n: u32,
        parity: u8,
        rest: &[Move],
    ) -> Self {
        SiblingScores { scores: s.null_window_scores(p, o, alpha, beta, depth, n, parity, rest), alpha }
    }

    /// The score of move `i` of the node (the first is 0) where it stands for the one
    /// the sequential search would find with the window now at `alpha`: a fail-low
    /// (an upper bound not above the alpha searched, so not above `alpha`), or any
    /// score if the window has not moved since. (A fail-high is only a lower bound:
    /// once alpha has risen, the move must be searched again.)
    pub fn get(&self, i: usize, alpha: i32) -> Option<i32> {
        let score = self.scores.get(i.checked_sub(1)?).copied().flatten()?;
        (score <= self.alpha || alpha == self.alpha).then_some(score)
    }
}

/// The score of a move [`Searcher::null_window_scores`] did not search.
const NOT_SEARCHED: i32 = i32::MIN;

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
    fn sibling_scores_stand_where_the_sequential_search_would_find_them() {
        let siblings = SiblingScores { scores: vec![Some(-2), None, Some(4)], alpha: 0 };
        // The first move is never among them; a cancelled one must be searched.
        assert_eq!(siblings.get(0, 0), None);
        assert_eq!(siblings.get(2, 0), None);
        // At the same alpha every score stands; once alpha moved, only fail-lows.
        assert_eq!(siblings.get(1, 0), Some(-2));
        assert_eq!(siblings.get(3, 0), Some(4));
        assert_eq!(siblings.get(1, 2), Some(-2));
        assert_eq!(siblings.get(3, 2), None);
        // A fail-high is a lower bound, never a fail-low at a higher alpha.
        assert_eq!(siblings.get(3, 6), None);
        assert_eq!(SiblingScores::default().get(1, 0), None);
    }

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
