//! The 8×8 player's policy: how a protocol's limits (a clock, a move time, a depth,
//! NBoard's levels) become the limits of [`Solver::think`]. UGI+, GTP, NBoard and
//! `sente bench` all search through these functions, so they play the same engine.

use std::time::Duration;

use bitboards::othello::{Board, Position};

use super::solver::{Solver, ThinkLimits, Thought};
use crate::game::Game;
use crate::limits::{Limits, StopFlag, TimeBudget};

/// The largest number of empties the player tries to solve exactly with `time` to
/// spend on the move (all of them without a time limit).
pub fn exact_reach(time: Option<Duration>) -> u32 {
    match time.map(|t| t.as_secs_f64()) {
        None => 64,
        Some(s) if s >= 30.0 => 26,
        Some(s) if s >= 5.0 => 24,
        Some(s) if s >= 1.0 => 22,
        Some(s) if s >= 0.2 => 20,
        Some(_) => 16,
    }
}

/// The limits of a search of `root` under a protocol's `limits`, and the budget they
/// were taken from: no new iteration after half the move's time, the iteration cut at
/// the whole of it, exact from [`exact_reach`] of that time (a fixed-depth search is
/// never widened to an exact one).
pub fn think_limits(root: &Position<Board>, limits: &Limits) -> (TimeBudget, ThinkLimits) {
    let budget = TimeBudget::new(limits, root.to_move(), root.moves_left_estimate());
    let start = budget.start();
    let hard = budget.hard_limit();
    let at = |d: Option<Duration>| d.map(|d| start + d);
    let think = ThinkLimits {
        depth: limits.depth,
        soft_deadline: at(hard.map(|h| h.mul_f64(0.5))),
        hard_deadline: at(hard),
        node_limit: limits.nodes,
        exact_empties: if limits.depth.is_some() { 0 } else { exact_reach(hard) },
        exclude: 0,
    };
    (budget, think)
}

/// NBoard's levels: search `depth` plies, exactly from twice as many empties (at most
/// 26), leaving out the root moves in `exclude` (to list the best moves one by one).
pub fn level_limits(depth: u32, exclude: u64) -> ThinkLimits {
    ThinkLimits { depth: Some(depth), exact_empties: (2 * depth).min(26), exclude, ..ThinkLimits::default() }
}

/// Searches `root` as the player does under `limits`, calling `report` after each
/// iteration. A `go infinite` search returns only once `stop` is set.
pub fn think(
    solver: &Solver,
    root: &Position<Board>,
    limits: &Limits,
    stop: &StopFlag,
    report: impl FnMut(&Thought) + Send,
) -> Thought {
    let (_, think) = think_limits(root, limits);
    let thought = solver.think(root.board(), think, stop.as_atomic(), report);
    if limits.infinite {
        while !stop.is_stopped() {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    thought
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_time_reaches_deeper_endgames() {
        let reach: Vec<u32> =
            [0.1, 0.5, 2.0, 10.0, 60.0].iter().map(|&s| exact_reach(Some(Duration::from_secs_f64(s)))).collect();
        assert!(reach.windows(2).all(|w| w[0] <= w[1]), "{reach:?}");
        assert_eq!(exact_reach(None), 64);
    }

    #[test]
    fn a_fixed_depth_is_never_widened_to_an_exact_search() {
        let (_, think) = think_limits(&Position::start(), &Limits::depth(5));
        assert_eq!((think.depth, think.exact_empties), (Some(5), 0));
        assert_eq!(level_limits(20, 0).exact_empties, 26);
    }
}
