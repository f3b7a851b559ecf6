//! The Chaos Clock player: it plays the solver's move when the solver proves the
//! position within part of the time, and otherwise the best move of a depth-limited
//! max-n search (each side maximises its own value, as the game is not zero-sum) with
//! an evaluation built from seed 003's notes.
//!
//! **Evaluation.** For each side, a progress score in pieces: a fixed piece counts 1, a
//! piece in hand 0.7 (it can be placed whenever its point is free of a fixed piece,
//! which never happens), a piece on the board that can reach point 12 and then walk
//! home, or be captured into the hand, counts by how soon; a piece that cannot move
//! ("stuck") and cannot be freed counts nothing. A side values a position by its own
//! progress, a little by the other's (both-win beats both-lose), and dislikes the
//! other finishing first.
//!
//! The budget's defaults and the evaluation's weights are in [`super::params`].

use std::time::Instant;

use bitboards::chaosclock::{Move, Outcome, Record, Side, State};

use super::params::{
    BEHIND_PENALTY, BOTH_LOSE_VALUE, BOTH_WIN_VALUE, EVAL_BASE, HAND_PIECE, LOSS_VALUE, OTHER_PROGRESS, OWN_PROGRESS,
    PIECE_12_ON_BOARD, REACHING_PIECE, SOLVER_SHARE_DIVISOR, STRANDED_PIECE, WIN_VALUE,
};
pub use super::params::{DEFAULT_DEPTH, DEFAULT_NODES};
use super::solver::{SolveLimits, Solver, ordered_moves};
use crate::{Game, Limits, StopFlag, TimeBudget};

/// Value of outcomes for the side concerned (on the evaluation's scale).
fn outcome_value(o: Outcome, side: Side) -> f32 {
    match o.rank_for(side) {
        3 => WIN_VALUE,
        2 => BOTH_WIN_VALUE,
        1 => BOTH_LOSE_VALUE,
        _ => LOSS_VALUE,
    }
}

/// Progress of `side` towards having all six pieces fixed, in pieces (0 to 6).
pub fn progress(s: &State, side: Side) -> f32 {
    let first = if side == Side::JIA { 1 } else { 2 };
    let hand = s.hand(side);
    let mut total = 0.0;
    for n in (first..=12u8).step_by(2) {
        if s.is_fixed(n) {
            total += 1.0;
        } else if hand >> n & 1 == 1 {
            total += HAND_PIECE;
        } else if let Some(p) = s.point_of(n) {
            // On the board: how many of its own walks to reach point 12 (from where it
            // walks home), if it ever can; blocked by fixed pieces on the way.
            let mut at = p;
            let mut steps = 0;
            let mut reach = None;
            while steps < 12 {
                if at == 12 && n != 12 {
                    reach = Some(steps);
                    break;
                }
                let next = (at - 1 + n) % 12 + 1;
                if s.is_fixed(next) || n == 12 {
                    break;
                }
                at = next;
                steps += 1;
            }
            total += match reach {
                Some(k) => REACHING_PIECE / (1.0 + k as f32),
                // Piece 12, or a piece that can never walk home: it needs capturing.
                None if n == 12 => PIECE_12_ON_BOARD,
                None => STRANDED_PIECE,
            };
        }
    }
    total
}

/// The evaluation of `s` for `side`.
pub fn evaluate(s: &State, side: Side) -> f32 {
    if let Some(o) = s.outcome() {
        return outcome_value(o, side);
    }
    let mine = progress(s, side);
    let theirs = progress(s, side.other());
    // Scaled to stay between the outcome values.
    EVAL_BASE + OWN_PROGRESS * mine + OTHER_PROGRESS * theirs - BEHIND_PENALTY * (theirs - mine).max(0.0)
}

/// What the player decided.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The move.
    pub best: Move,
    /// The proven outcome, when the solver proved the position.
    pub proven: Option<Outcome>,
    /// Depth of the heuristic search (0 when proven).
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// The mover's value of the position (evaluation scale).
    pub value: f32,
}

struct MaxN<'a> {
    nodes: u64,
    deadline: Option<Instant>,
    node_limit: u64,
    stop: &'a StopFlag,
    aborted: bool,
}

impl MaxN<'_> {
    /// Values of `s` for (甲, 乙) searched `depth` plies. The node limit holds exactly
    /// (a node past it is not searched: the search is aborted); the deadline and the
    /// stop flag are looked at every 1024 nodes.
    fn search(&mut self, s: &State, depth: u32, path: &mut Vec<u64>) -> [f32; 2] {
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        if self.aborted {
            return [0.0, 0.0];
        }
        self.nodes += 1;
        if s.outcome().is_some() || depth == 0 {
            return [evaluate(s, Side::JIA), evaluate(s, Side::YI)];
        }
        if self.nodes & 0x3FF == 0 && (self.deadline.is_some_and(|d| Instant::now() >= d) || self.stop.is_stopped()) {
            self.aborted = true;
            return [0.0, 0.0];
        }
        let me = s.to_move();
        let k = usize::from(me == Side::YI);
        let mut best = [f32::MIN, f32::MIN];
        for mv in ordered_moves(s) {
            let child = s.play(mv).expect("legal");
            let v = if child.outcome().is_none() && path.contains(&child.key()) {
                let o = Outcome::BothLose;
                [outcome_value(o, Side::JIA), outcome_value(o, Side::YI)]
            } else {
                path.push(child.key());
                let v = self.search(&child, depth - 1, path);
                path.pop();
                v
            };
            if v[k] > best[k] {
                best = v;
            }
        }
        best
    }
}

/// Chooses a move for the side to move at the end of `record` under a protocol's
/// `limits` (UGI+ `go`): the time from [`TimeBudget`] (a move time, or a clock shared
/// over the moves left), the nodes and depth asked for or [`DEFAULT_NODES`] and
/// [`DEFAULT_DEPTH`]; then as [`choose`].
pub fn choose_within(record: &Record, solver: &mut Solver, limits: &Limits, stop: &StopFlag) -> Option<Decision> {
    let state = record.state();
    let budget = TimeBudget::new(limits, state.to_move(), record.moves_left_estimate());
    let deadline = budget.hard_limit().map(|h| budget.start() + h);
    let states = record.states();
    let history = &states[..states.len() - 1];
    let nodes = limits.nodes.unwrap_or(if limits.infinite { u64::MAX } else { DEFAULT_NODES });
    let depth = limits.depth.unwrap_or(DEFAULT_DEPTH);
    choose(state, history, solver, deadline, nodes, depth, stop)
}

/// Chaos Clock's player for the front ends: [`choose_within`] with a solver whose
/// table is kept from move to move (bounded by `Hash`) and cleared for a new game.
#[derive(Default)]
pub struct ChaosPlayer {
    solver: Solver,
}

impl crate::player::Player<Record> for ChaosPlayer {
    fn new_game(&mut self) {
        self.solver.clear();
    }

    fn uses_hash(&self) -> bool {
        true
    }

    /// The score is the mover's value ×10 in centi-units; the principal variation
    /// is the move alone.
    fn choose(
        &mut self,
        record: &Record,
        limits: &Limits,
        resources: &crate::player::Resources,
        stop: &StopFlag,
        _report: &mut (dyn FnMut(&crate::alphabeta::SearchResult<Move>) + Send),
    ) -> crate::alphabeta::SearchResult<Move> {
        let start = Instant::now();
        self.solver.set_memory_limit(Some(resources.hash_mb.saturating_mul(1 << 20)));
        let decision = choose_within(record, &mut self.solver, limits, stop);
        crate::alphabeta::SearchResult {
            best_move: decision.as_ref().map(|d| d.best),
            score: crate::Score::Centi(decision.as_ref().map_or(0, |d| (d.value * 10.0) as i32)),
            depth: decision.as_ref().map_or(0, |d| d.depth),
            nodes: decision.as_ref().map_or(0, |d| d.nodes),
            elapsed: start.elapsed(),
            pv: decision.map(|d| vec![d.best]).unwrap_or_default(),
        }
    }
}

/// Chooses a move for the side to move in `state` (after `history`), within a
/// deadline and a node budget, or until `stop` is raised. The budget holds exactly:
/// the solver may spend a third of it, the heuristic search the rest, and the nodes
/// of the decision are both searches' (never more than `node_limit`).
pub fn choose(
    state: State,
    history: &[State],
    solver: &mut Solver,
    deadline: Option<Instant>,
    node_limit: u64,
    max_depth: u32,
    stop: &StopFlag,
) -> Option<Decision> {
    let moves = ordered_moves(&state);
    if moves.is_empty() {
        return None;
    }
    // The solver gets a third of the budget.
    let start = Instant::now();
    let solve_deadline = deadline.map(|d| start + (d.saturating_duration_since(start)) / SOLVER_SHARE_DIVISOR);
    let limits = SolveLimits {
        nodes: Some(node_limit / u64::from(SOLVER_SHARE_DIVISOR)),
        deadline: solve_deadline,
        stop: Some(stop.clone()),
    };
    if let Some(sol) = solver.solve(state, history, limits)
        && let Some(best) = sol.best
    {
        let value = outcome_value(sol.outcome, state.to_move());
        return Some(Decision { best, proven: Some(sol.outcome), depth: 0, nodes: sol.nodes, value });
    }
    let solver_nodes = solver.nodes();
    let me = state.to_move();
    let k = usize::from(me == Side::YI);
    let node_limit = node_limit.saturating_sub(solver_nodes);
    let mut search = MaxN { nodes: 0, deadline, node_limit, stop, aborted: false };
    let mut path: Vec<u64> = history.iter().map(State::key).collect();
    path.push(state.key());
    let mut decision = Decision { best: moves[0], proven: None, depth: 0, nodes: 0, value: evaluate(&state, me) };
    for depth in 1..=max_depth {
        let mut best: Option<(Move, f32)> = None;
        for &mv in &moves {
            let child = state.play(mv).expect("legal");
            path.push(child.key());
            let v = search.search(&child, depth - 1, &mut path);
            path.pop();
            if search.aborted {
                break;
            }
            if best.is_none_or(|(_, b)| v[k] > b) {
                best = Some((mv, v[k]));
            }
        }
        if search.aborted {
            break;
        }
        if let Some((mv, v)) = best {
            decision = Decision { best: mv, proven: None, depth, nodes: search.nodes, value: v };
        }
    }
    decision.nodes = solver_nodes + search.nodes;
    Some(decision)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_a_won_position() {
        // 乙 has only 12 left, in hand: placing it wins (nothing on point 12).
        let s = State::parse("1,2,3,4,5,6,7,8,9,10,0,0 Y 0").unwrap();
        let mut solver = Solver::new();
        let d = choose(s, &[], &mut solver, None, 100_000, 4, &StopFlag::new()).unwrap();
        assert_eq!(d.best, Move::Place(12));
        assert!(d.proven.is_some());
    }

    #[test]
    fn the_node_budget_holds_exactly() {
        // The opening of seed 1, a position the solver cannot prove on a small budget:
        // the decision's nodes (solver and heuristic search together) never pass the
        // budget, and a budget too small for one ply still gives a legal move.
        let s = bitboards::chaosclock::random_opening(1);
        for budget in [0, 1, 5, 200, 1000, 4115, 20_000] {
            let mut solver = Solver::new();
            let d = choose(s, &[], &mut solver, None, budget, 12, &StopFlag::new()).unwrap();
            assert!(d.nodes <= budget, "{} nodes for a budget of {budget}", d.nodes);
            assert!(s.legal_moves().contains(&d.best), "{}", d.best);
            if budget >= 200 {
                assert!(d.nodes > budget / 2, "{} nodes of {budget}: the budget is used", d.nodes);
                assert!(d.depth >= 1);
            }
        }
        // The solver alone: its limit holds exactly too.
        for budget in [1, 100, 1025, 5000] {
            let mut solver = Solver::new();
            let limits = SolveLimits { nodes: Some(budget), ..SolveLimits::default() };
            let solved = solver.solve(s, &[], limits);
            assert!(solver.nodes() <= budget, "{} solver nodes of {budget}", solver.nodes());
            assert!(solved.is_none(), "the opening is not proven in {budget} nodes");
        }
    }

    #[test]
    fn progress_counts_fixed_and_held_pieces() {
        let s = State::parse("1,2,3,4,5,6,7,8,9,10,0,0 Y 0").unwrap();
        assert!((progress(&s, Side::JIA) - 5.7).abs() < 1e-4);
        assert!((progress(&s, Side::YI) - 5.7).abs() < 1e-4);
    }
}
