//! ProbCut (Buro, 1995) for the midgame search: a shallow search predicts a deep
//! one. If the shallow value is far enough above beta (or below alpha), measured in
//! standard deviations of the deep-minus-shallow error, the node is cut without the
//! deep search.
//!
//! It is forward pruning, so it can be wrong: it only runs in *selective* searches
//! (`Searcher::sel` below [`EXACT`]), whose table entries carry their level and are
//! never taken as bounds by a search of a higher level. The exact solver runs
//! selective midgame iterations first, then one selective *endgame* search (depth =
//! empties, the final score predicted by a shallower search), for the move ordering
//! and the aspiration window of its exact search; the exact search itself never
//! prunes.

use super::context::Searcher;
use super::eval::eval_discs_from;
use super::hash::EXACT;
use super::params::{ENDCUT_MIN_EMPTIES, ENDCUT_SIGMA, LEVELS, PLAY_T_SCALE};
use super::patterns::Features;

/// Fewest plies at which ProbCut is tried.
const MIN_DEPTH: u32 = 3;

/// Depth of the shallow search that predicts a `depth`-ply one: about half, with the
/// same parity (the evaluation's bias alternates with the side to move).
fn shallow_depth(depth: u32) -> u32 {
    (depth / 4) * 2 + (depth & 1)
}

/// Standard deviation, in discs, of (depth-ply value − shallow value): the solver's
/// formula, tuned on FFO node counts.
fn sigma(depth: u32, shallow: u32) -> f32 {
    1.0 + 0.35 * (depth - shallow) as f32
}

/// Bands of empties of [`PLAY_SIGMA`]: 14–21, 22–29, 30–37, 38–45, 46 and more (fewer
/// than 14 counts as the first).
fn play_band(n: u32) -> usize {
    match n {
        0..=21 => 0,
        22..=29 => 1,
        30..=37 => 2,
        38..=45 => 3,
        _ => 4,
    }
}

/// Standard deviation, in hundredths of a disc, of (depth-`d` value − depth
/// [`shallow_depth`]`(d)` value) of the player's selective search (ProbCut at the play
/// level), for d = 3..=13 and the bands of [`play_band`]. Measured on 2 000 positions
/// of self-play games (seeds 201–204, 500 each, 14–54 empties), each searched to every
/// depth up to 13 (or 8 plies short of the end): `cargo run --release -p search
/// --example probcut_sigma -- gen-selective 500 13 SEED` then `probcut_sigma -- table`
/// (about a minute in all on one core), when the player's cuts used the formula. The
/// error grows as the empties fall: on average 1.9 times the formula's at 14–21
/// empties, 1.6 at 22–29, 1.25 at 30–37, 1.0 at 38–45 and 0.73 at 46 and more.
const PLAY_SIGMA: [[u16; 5]; 11] = [
    [451, 425, 283, 245, 174], // 3 from 1
    [432, 408, 277, 215, 151], // 4 from 2
    [415, 300, 240, 194, 145], // 5 from 3
    [540, 459, 343, 271, 189], // 6 from 2
    [523, 360, 309, 242, 180], // 7 from 3
    [443, 351, 292, 218, 171], // 8 from 4
    [411, 324, 301, 216, 159], // 9 from 5
    [467, 409, 309, 263, 198], // 10 from 4
    [443, 360, 318, 240, 178], // 11 from 5
    [445, 376, 302, 250, 176], // 12 from 6
    [355, 322, 253, 222, 165], // 13 from 7
];

/// The deepest search [`PLAY_SIGMA`] has a row for.
const PLAY_SIGMA_DEEPEST: u32 = MIN_DEPTH + PLAY_SIGMA.len() as u32 - 1;

/// The player's ProbCut error in discs for a `depth`-ply search predicted by a
/// `shallow` one with `n` empties: [`PLAY_SIGMA`] up to depth 13, beyond it the
/// least-squares fit over the same measurements (`sigma = 5.895 − 0.355·shallow +
/// 0.181·depth − 0.0853·empties`, from `probcut_sigma table`), at least the 13-ply
/// row's value.
fn play_sigma(depth: u32, shallow: u32, n: u32) -> f32 {
    let band = play_band(n);
    let row = |d: u32| f32::from(PLAY_SIGMA[(d - MIN_DEPTH) as usize][band]) / 100.0;
    if depth <= PLAY_SIGMA_DEEPEST {
        row(depth)
    } else {
        let fit = 5.895 - 0.355 * shallow as f32 + 0.181 * depth as f32 - 0.0853 * n as f32;
        fit.max(row(PLAY_SIGMA_DEEPEST))
    }
}

/// Depth of the shallow search that predicts the exact score with `n` empties: about
/// a third, with the same parity. Shallower than [`shallow_depth`]: the selective
/// endgame search is there to fill the table with good moves cheaply, and on FFO
/// #40–#49 a third did better than a half or a quarter (README).
pub fn endcut_depth(n: u32) -> u32 {
    ((n / 3) & !1) + (n & 1)
}

impl Searcher<'_> {
    /// Tries to decide the null window `(alpha, alpha + 1)` of a `depth`-ply midgame
    /// search (`depth < n`) or of a selective endgame search (`depth == n`, the
    /// exact final score predicted) by a shallow search: `Some(bound)` if it predicts a fail
    /// high (`alpha + 1`) or a fail low (`alpha`); `None` otherwise, and always when
    /// the search is exact.
    #[allow(clippy::too_many_arguments)]
    pub fn probcut(&mut self, p: u64, o: u64, f: &Features, alpha: i32, depth: u32, n: u32, parity: u8) -> Option<i32> {
        let endgame = depth == n;
        if self.sel == EXACT || depth < MIN_DEPTH || depth > n || (endgame && n < ENDCUT_MIN_EMPTIES) {
            return None;
        }
        let shallow = if endgame { endcut_depth(n) } else { shallow_depth(depth) };
        let t = LEVELS[self.sel as usize];
        let margin = if endgame {
            t * ENDCUT_SIGMA
        } else if self.shared.play_cuts {
            t * PLAY_T_SCALE * play_sigma(depth, shallow, n)
        } else {
            t * sigma(depth, shallow)
        };
        let margin = margin.ceil() as i32;
        let beta = alpha + 1;
        // One test only: on the side the static evaluation leans to.
        if eval_discs_from(f, p, o) > alpha {
            let bound = beta + margin;
            if bound < 64 {
                let v = self.pvs_midgame(p, o, f, bound - 1, bound, shallow, n, parity);
                if !self.aborted && v >= bound {
                    return Some(beta);
                }
            }
        } else {
            let bound = alpha - margin;
            if bound > -64 {
                let v = self.pvs_midgame(p, o, f, bound, bound + 1, shallow, n, parity);
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
    use super::super::params::SOLVER_LEVEL;
    use super::*;

    #[test]
    fn shallow_searches_are_shallower_with_the_same_parity() {
        for depth in MIN_DEPTH..=60 {
            let s = shallow_depth(depth);
            assert!(s < depth);
            assert_eq!(s % 2, depth % 2);
        }
        assert!((SOLVER_LEVEL as usize) < LEVELS.len());
        // The measured table covers depths 3 to 13, and beyond it the fit does not fall
        // below the last row.
        assert_eq!(PLAY_SIGMA_DEEPEST, 13);
        for n in 14..=60 {
            for depth in MIN_DEPTH..n.min(40) {
                let s = play_sigma(depth, shallow_depth(depth), n);
                assert!((1.0..8.0).contains(&s), "{depth} {n}: {s}");
            }
        }
        for n in ENDCUT_MIN_EMPTIES..=60 {
            let s = endcut_depth(n);
            assert!(s >= MIN_DEPTH.min(n) && s < n);
            assert_eq!(s % 2, n % 2);
        }
    }
}
