//! ProbCut (Buro, 1995) for the midgame search: a shallow search predicts a deep
//! one. If the shallow value is far enough above beta (or below alpha), measured in
//! standard deviations of the deep-minus-shallow error, the node is cut without the
//! deep search.
//!
//! It is forward pruning, so it can be wrong: it only runs in *selective* searches
//! (`Searcher::sel` below [`EXACT`]), whose table entries carry their level and are
//! never taken as bounds by a search of a higher level. The exact solver runs
//! selective midgame iterations first, for the move ordering and the aspiration
//! window of its exact search; the exact search itself never prunes.

use super::context::Searcher;
use super::eval::eval_discs;
use super::hash::EXACT;

/// Confidence multiplier `t` of each selectivity level (a cut needs the shallow
/// value `t` standard deviations past the bound): under a normal error, about 73%,
/// 87%, 95%, 98% and 99% of the cuts are right.
pub const LEVELS: [f32; 5] = [1.1, 1.5, 2.0, 2.6, 3.3];

/// The level of the solver's midgame iterations (95%).
pub const SOLVER_LEVEL: u8 = 2;

/// Fewest plies at which ProbCut is tried.
const MIN_DEPTH: u32 = 3;

/// Depth of the shallow search that predicts a `depth`-ply one: about half, with the
/// same parity (the evaluation's bias alternates with the side to move).
fn shallow_depth(depth: u32) -> u32 {
    (depth / 4) * 2 + (depth & 1)
}

/// Standard deviation, in discs, of (depth-ply value − shallow value).
fn sigma(depth: u32, shallow: u32) -> f32 {
    1.0 + 0.35 * (depth - shallow) as f32
}

impl Searcher<'_> {
    /// Tries to decide the null window `(alpha, alpha + 1)` of a `depth`-ply midgame
    /// search (`depth < n`) by a shallow search: `Some(bound)` if it predicts a fail
    /// high (`alpha + 1`) or a fail low (`alpha`); `None` otherwise, and always when
    /// the search is exact.
    pub fn probcut(&mut self, p: u64, o: u64, alpha: i32, depth: u32, n: u32, parity: u8) -> Option<i32> {
        if self.sel == EXACT || depth < MIN_DEPTH || depth >= n {
            return None;
        }
        let shallow = shallow_depth(depth);
        let margin = (LEVELS[self.sel as usize] * sigma(depth, shallow)).ceil() as i32;
        let beta = alpha + 1;
        // One test only: on the side the static evaluation leans to.
        if eval_discs(p, o) > alpha {
            let bound = beta + margin;
            if bound < 64 {
                let v = self.pvs_midgame(p, o, bound - 1, bound, shallow, n, parity);
                if !self.aborted && v >= bound {
                    return Some(beta);
                }
            }
        } else {
            let bound = alpha - margin;
            if bound > -64 {
                let v = self.pvs_midgame(p, o, bound, bound + 1, shallow, n, parity);
                if !self.aborted && v <= bound {
                    return Some(alpha);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_searches_are_shallower_with_the_same_parity() {
        for depth in MIN_DEPTH..=60 {
            let s = shallow_depth(depth);
            assert!(s < depth);
            assert_eq!(s % 2, depth % 2);
        }
        assert!((SOLVER_LEVEL as usize) < LEVELS.len());
    }
}
