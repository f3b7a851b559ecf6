//! The 8×8 player's policy: how a protocol's limits (a clock, a move time, a depth,
//! NBoard's levels) become the limits of [`Solver::think`]. UGI+, GTP, NBoard and
//! `sente bench` all search through these functions, so they play the same engine.

use std::time::Duration;

use bitboards::othello::{Board, Position};

use super::params::{MOVE_OVERHEAD, NOMINAL_NODES_PER_SECOND, RESERVE, SOLVE_SHARE};
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

/// The time [`exact_reach`] takes to reach `empties` (the inverse of its table): a
/// rough model of an exact solve's time on one core.
fn solve_time(empties: u32) -> Duration {
    Duration::from_secs_f64(match empties {
        0..=16 => 0.05,
        17..=20 => 0.2,
        21..=22 => 1.0,
        23..=24 => 5.0,
        _ => 30.0,
    })
}

/// How one move spends the clock: aim at `target` (no new iteration after half of
/// it), abort at `hard`, solve exactly from `exact_empties`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockPlan {
    /// The time the move should take on average.
    pub target: Duration,
    /// The time it may never pass.
    pub hard: Duration,
    /// Solve exactly when at most this many empties remain.
    pub exact_empties: u32,
}

/// Plans a move from the clock: `left` on the mover's clock, `increment` after each
/// move, `moves_to_go` moves before the clock is refilled (byo-yomi stones, UGI+
/// `movestogo`), `empties` on the board.
///
/// The rest of the game is planned whole: the mover has about `empties / 2` moves
/// left; a tenth of the time is a reserve never planned for; the exact solve gets the
/// deepest reach ([`exact_reach`]) that fits in 40% of the rest, and the moves before
/// it share evenly what is left after keeping 2.5 times the solve's time (so that
/// the solve still gets it as 40% of the rest when it comes). A move may take up to twice its share, never more than half the clock
/// (90% on the period's last move). With `moves_to_go` shorter than the game, the
/// period's time is shared evenly over its moves.
pub fn plan_clock(left: Duration, increment: Duration, moves_to_go: Option<u32>, empties: u32) -> ClockPlan {
    let available = left.saturating_sub(MOVE_OVERHEAD).max(Duration::from_millis(1));
    let own_moves = empties.div_ceil(2).max(1);
    let period = moves_to_go.filter(|&n| n > 0 && n < own_moves);
    let moves = period.unwrap_or(own_moves);
    let total = available.mul_f64(1.0 - RESERVE) + increment.mul_f64(0.9) * (moves - 1);
    let cap = if moves == 1 { available.mul_f64(0.9) } else { available.mul_f64(0.5) };
    let plan = |target: Duration, hard: Duration| {
        let hard = hard.min(cap).max(Duration::from_millis(1));
        ClockPlan { target: target.min(hard), hard, exact_empties: exact_reach(Some(hard)) }
    };
    if period.is_some() {
        let target = total / moves;
        return plan(target, target * 2);
    }
    let solve_at = exact_reach(Some(total.mul_f64(SOLVE_SHARE))).min(empties);
    if empties <= solve_at || own_moves == 1 {
        // The solve: most of what is left, as every later move is cheap.
        return plan(total.mul_f64(0.5), total.mul_f64(0.8));
    }
    let midgame_moves = (empties - solve_at).div_ceil(2).max(1);
    // The solve's share stays 40% of what will be left when it comes, so the solve
    // does not slip to fewer empties as the midgame spends.
    let pool = total.saturating_sub(solve_time(solve_at).div_f64(SOLVE_SHARE));
    let target = (pool / midgame_moves).max(total / own_moves / 4);
    plan(target, target * 2)
}

/// The limits of a search of `root` under a protocol's `limits`, and the budget they
/// were taken from. With a clock (and no move time or depth), the move is planned by
/// [`plan_clock`]: no new iteration after half its target, the iteration cut at its
/// hard limit. With a move time, the whole of it (less the protocol's margin) is
/// spent: iterations go on until the last is cut at the end, whose move is kept if
/// it was already proven better (the time is the move's and cannot be saved for
/// later); the search is exact from [`exact_reach`] of that time (a fixed-depth
/// search is never widened to an exact one). On a clock or a move time, a forced
/// move (the only legal one) is answered after one iteration.
pub fn think_limits(root: &Position<Board>, limits: &Limits) -> (TimeBudget, ThinkLimits) {
    let budget = TimeBudget::new(limits, root.to_move(), root.moves_left_estimate());
    let start = budget.start();
    let at = |d: Option<Duration>| d.map(|d| start + d);
    let me = root.to_move().index();
    let forced = root.board().moves().count_ones() == 1;
    let clock_left = limits.clock.time[me].filter(|_| !limits.infinite && limits.movetime.is_none());
    if let (Some(left), None) = (clock_left, limits.depth) {
        let plan = plan_clock(left, limits.clock.increment[me], limits.clock.moves_to_go, root.board().empty_count());
        let soft = if forced { Duration::ZERO } else { plan.target.mul_f64(0.5) };
        let think = ThinkLimits {
            depth: None,
            soft_deadline: at(Some(soft)),
            hard_deadline: at(Some(plan.hard)),
            node_limit: limits.nodes,
            exact_empties: plan.exact_empties,
            exclude: 0,
            selective: true,
        };
        return (budget, think);
    }
    let hard = budget.hard_limit();
    // A node budget alone is taken as the time it lasts at a nominal speed.
    let reach_time = hard.or(limits.nodes.map(|n| Duration::from_secs_f64(n as f64 / NOMINAL_NODES_PER_SECOND)));
    let soft = match limits.movetime {
        Some(_) if forced && limits.depth.is_none() && !limits.infinite => Some(Duration::ZERO),
        Some(_) => hard,
        None => hard.map(|h| h.mul_f64(0.5)),
    };
    let think = ThinkLimits {
        depth: limits.depth,
        soft_deadline: at(soft),
        hard_deadline: at(hard),
        node_limit: limits.nodes,
        exact_empties: if limits.depth.is_some() { 0 } else { exact_reach(reach_time) },
        exclude: 0,
        selective: limits.depth.is_none(),
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
        assert!(!think.selective);
        assert_eq!(level_limits(20, 0).exact_empties, 26);
        assert!(!level_limits(20, 0).selective);
    }

    #[test]
    fn play_on_time_or_nodes_is_selective() {
        let root = Position::start();
        let (_, timed) = think_limits(&root, &Limits::movetime(Duration::from_millis(100)));
        assert!(timed.selective);
        assert_eq!(timed.exact_empties, exact_reach(Some(Duration::from_millis(100))));
        // A million nodes is taken as 0.1 s at the nominal speed.
        let (_, nodes) = think_limits(&root, &Limits { nodes: Some(1_000_000), ..Limits::default() });
        assert!(nodes.selective);
        assert_eq!(nodes.exact_empties, exact_reach(Some(Duration::from_millis(100))));
        let mut clock = Limits::default();
        clock.clock.time = [Some(Duration::from_secs(60)); 2];
        assert!(think_limits(&root, &clock).1.selective);
    }

    /// Plays the mover's side of a game on a simulated clock: each move spends
    /// `spend(plan)` until the first move planned as an exact solve, and 1 ms after it
    /// (the solve leaves the rest of the game in the table); returns the time left
    /// after each move.
    fn simulate(main: f64, inc: f64, stones: Option<u32>, spend: impl Fn(&ClockPlan) -> Duration) -> Vec<f64> {
        let mut left = Duration::from_secs_f64(main);
        let inc = Duration::from_secs_f64(inc);
        let mut trace = Vec::new();
        let mut solved = false;
        for (i, empties) in (1..=60).rev().step_by(2).enumerate() {
            let to_go = stones.map(|n| n - (i as u32 % n));
            let plan = plan_clock(left, inc, to_go, empties);
            let used = if solved { Duration::from_millis(1) } else { spend(&plan) } + MOVE_OVERHEAD;
            solved |= plan.exact_empties >= empties;
            assert!(used <= left, "flagged at {empties} empties: {plan:?} with {left:?} left");
            assert!(plan.target <= plan.hard);
            left = left - used + inc;
            if to_go == Some(1) {
                // A new byo-yomi period: the clock is refilled.
                left = Duration::from_secs_f64(main);
            }
            trace.push(left.as_secs_f64());
        }
        trace
    }

    #[test]
    fn a_sudden_death_game_lasts_with_a_reserve() {
        for main in [10.0, 60.0, 300.0] {
            // Spending the target on every move: the game ends with the reserve left.
            let trace = simulate(main, 0.0, None, |p| p.target);
            let last = trace[trace.len() - 1];
            assert!(last >= 0.05 * main, "{main}: {trace:?}");
            // After 20 of the 30 moves (the finding: 4 s of 60 left there, the
            // endgame still to play) a tenth of the clock is left.
            assert!(trace[19] >= 0.1 * main, "{main}: {trace:?}");
            // The first move may take at most a tenth of the clock (the old policy's
            // cut was 3 times an even share, up to 40% of the clock).
            let first = plan_clock(Duration::from_secs_f64(main), Duration::ZERO, None, 60);
            assert!(first.hard.as_secs_f64() <= 0.1 * main, "{main}: {first:?}");
            // Spending the hard limit on every move never flags either.
            let trace = simulate(main, 0.0, None, |p| p.hard);
            assert!(trace.iter().all(|&t| t > 0.0));
        }
    }

    #[test]
    fn the_exact_solve_gets_more_time_than_a_midgame_move() {
        let left = Duration::from_secs(30);
        let midgame = plan_clock(left, Duration::ZERO, None, 40);
        let solve = plan_clock(left, Duration::ZERO, None, 22);
        assert!(solve.target > midgame.target * 3, "{midgame:?} {solve:?}");
        assert!(solve.exact_empties >= 22, "{solve:?}");
        assert!(midgame.exact_empties < 40);
        // With little time left the solve comes later.
        let short = plan_clock(Duration::from_secs(2), Duration::ZERO, None, 24);
        assert!(short.exact_empties < 24, "{short:?}");
    }

    #[test]
    fn increments_and_byo_yomi_are_spent_within_the_period() {
        // 5 s + 1 s a move: the increments are used, the clock never runs out.
        let trace = simulate(5.0, 1.0, None, |p| p.hard);
        assert!(trace.iter().all(|&t| t > 0.0));
        let plan = plan_clock(Duration::from_secs(5), Duration::from_secs(1), None, 40);
        assert!(plan.target > Duration::from_millis(5000 / 20), "{plan:?}");
        // Byo-yomi, 10 s for 5 stones: each period's moves fit in its time, even
        // when every move runs to its hard limit.
        let trace = simulate(10.0, 0.0, Some(5), |p| p.hard);
        assert!(trace.iter().all(|&t| t > 0.0));
        for stones in 1..=5 {
            let plan = plan_clock(Duration::from_secs(10), Duration::ZERO, Some(stones), 40);
            assert!(plan.hard <= Duration::from_secs(10).mul_f64(0.9), "{plan:?}");
            assert!(plan.target <= Duration::from_secs(10) / stones, "{plan:?}");
        }
    }

    #[test]
    fn a_clock_is_planned_and_a_move_time_is_not() {
        let mut limits = Limits::default();
        limits.clock.time = [Some(Duration::from_secs(60)), Some(Duration::from_secs(60))];
        let (_, think) = think_limits(&Position::start(), &limits);
        let hard = think.hard_deadline.expect("a deadline") - std::time::Instant::now();
        assert!(hard <= Duration::from_secs(6), "{hard:?}");
        let (_, think) = think_limits(&Position::start(), &Limits::movetime(Duration::from_millis(500)));
        assert_eq!(think.exact_empties, exact_reach(Some(Duration::from_millis(485))));
    }

    #[test]
    fn a_move_time_is_spent_whole_unless_the_move_is_forced() {
        let movetime = Limits::movetime(Duration::from_millis(500));
        let (budget, think) = think_limits(&Position::start(), &movetime);
        // Iterations go on to the end of the time, never stopped at half of it.
        assert_eq!(think.soft_deadline, think.hard_deadline);
        assert_eq!(think.hard_deadline, budget.hard_limit().map(|h| budget.start() + h));
        // Black's only move is C1 (a stone on A1, White's on B1): one iteration.
        let forced = Position::new(Board::new(1, 2), bitboards::othello::Color::One);
        assert_eq!(forced.board().moves(), 4);
        let (budget, think) = think_limits(&forced, &movetime);
        assert_eq!(think.soft_deadline, Some(budget.start()));
        let mut clock = Limits::default();
        clock.clock.time = [Some(Duration::from_secs(60)); 2];
        let (budget, think) = think_limits(&forced, &clock);
        assert_eq!(think.soft_deadline, Some(budget.start()));
        // A fixed depth is searched whole, forced or not, and so is an analysis.
        let (budget, think) = think_limits(&forced, &Limits { depth: Some(4), ..movetime });
        assert_eq!(think.soft_deadline, think.hard_deadline);
        assert!(think.soft_deadline > Some(budget.start()));
        let (budget, think) = think_limits(&forced, &Limits { infinite: true, ..movetime });
        assert!(think.soft_deadline.is_none_or(|d| d > budget.start()), "{think:?}");
    }
}
