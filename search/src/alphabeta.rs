//! Iterative-deepening negamax alpha-beta over any [`Evaluate`] game.
//!
//! The generic search: no transposition table, the previous iteration's best move
//! searched first at the root. It obeys depth, node, time and stop limits, and returns
//! the best move of the deepest iteration (or of the part of an interrupted iteration
//! that was searched, which always includes the previous best move first).

use std::time::Duration;

use crate::game::{Evaluate, Score};
use crate::limits::{Limits, StopFlag, TimeBudget};

/// What a search found, also what it reports after each iteration.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play, `None` if the game is over.
    pub best_move: Option<M>,
    /// The value of the best move for the side to move.
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// The principal variation, starting with the best move.
    pub pv: Vec<M>,
}

/// Deepest iteration when no depth is given.
const MAX_DEPTH: u32 = 128;

struct Searcher<'a> {
    nodes: u64,
    node_limit: u64,
    budget: TimeBudget,
    stop: &'a StopFlag,
    aborted: bool,
    /// Set when a heuristic leaf was evaluated during the iteration.
    heuristic_leaf: bool,
}

impl Searcher<'_> {
    fn should_abort(&mut self) -> bool {
        if !self.aborted
            && (self.nodes >= self.node_limit
                || (self.nodes & 1023 == 0 && (self.stop.is_stopped() || self.budget.hard_expired())))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Negamax with alpha-beta; fills `pv` with the best line from `pos`.
    fn negamax<G: Evaluate>(&mut self, pos: &G, depth: u32, mut alpha: i32, beta: i32, pv: &mut Vec<G::Move>) -> i32 {
        pv.clear();
        if self.should_abort() {
            return 0;
        }
        self.nodes += 1;
        if pos.outcome().is_some() {
            return pos.terminal_value();
        }
        if depth == 0 {
            self.heuristic_leaf = true;
            return pos.evaluate();
        }
        let mut best = i32::MIN + 1;
        let mut line = Vec::new();
        for mv in pos.legal_moves() {
            let value = -self.negamax(&pos.play(mv), depth - 1, -beta, -alpha, &mut line);
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                pv.clear();
                pv.push(mv);
                pv.extend_from_slice(&line);
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Searches `root` within `limits`, calling `report` after each completed iteration.
pub fn search<G: Evaluate>(
    root: &G,
    limits: &Limits,
    stop: &StopFlag,
    mut report: impl FnMut(&SearchResult<G::Move>),
) -> SearchResult<G::Move> {
    let budget = TimeBudget::new(limits, root.to_move(), root.moves_left_estimate());
    let mut searcher = Searcher {
        nodes: 0,
        node_limit: limits.nodes.unwrap_or(u64::MAX),
        budget,
        stop,
        aborted: false,
        heuristic_leaf: false,
    };
    let mut moves = root.legal_moves();
    let mut result = SearchResult {
        best_move: moves.first().copied(),
        score: G::describe(0),
        depth: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
        pv: moves.first().copied().into_iter().collect(),
    };
    let timed = limits.movetime.is_some() || limits.clock.time.iter().any(Option::is_some);
    if moves.is_empty() || (moves.len() == 1 && timed && !limits.infinite) {
        result.elapsed = budget.elapsed();
        return result;
    }
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let mut line = Vec::new();
    for depth in 1..=max_depth {
        searcher.heuristic_leaf = false;
        let mut alpha = i32::MIN + 1;
        let mut best: Option<(G::Move, Vec<G::Move>)> = None;
        for i in 0..moves.len() {
            let mv = moves[i];
            let value = -searcher.negamax(&root.play(mv), depth - 1, i32::MIN + 1, -alpha, &mut line);
            if searcher.aborted {
                break;
            }
            if best.is_none() || value > alpha {
                alpha = value;
                let mut pv = vec![mv];
                pv.extend_from_slice(&line);
                best = Some((mv, pv));
                moves[..=i].rotate_right(1);
                debug_assert!(moves[0] == mv);
            }
        }
        if let Some((mv, pv)) = best {
            result.best_move = Some(mv);
            result.pv = pv;
            result.score = G::describe(alpha);
        }
        result.nodes = searcher.nodes;
        result.elapsed = searcher.budget.elapsed();
        if searcher.aborted {
            break;
        }
        result.depth = depth;
        report(&result);
        let solved = !searcher.heuristic_leaf;
        if solved || searcher.budget.soft_expired() || stop.is_stopped() {
            break;
        }
    }
    // `go infinite` must not return before `stop`, even when the tree is exhausted.
    if limits.infinite {
        while !stop.is_stopped() {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    result.nodes = searcher.nodes;
    result.elapsed = searcher.budget.elapsed();
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Outcome;
    use crate::game::{Game, Player};

    /// Take-away: remove 1..=3 stones; who takes the last stone wins.
    #[derive(Clone, Debug)]
    struct Nim {
        stones: u32,
        player: Player,
    }

    impl Game for Nim {
        type Move = u32;
        fn to_move(&self) -> Player {
            self.player
        }
        fn legal_moves(&self) -> Vec<u32> {
            (1..=self.stones.min(3)).collect()
        }
        fn play(&self, mv: u32) -> Self {
            Nim { stones: self.stones - mv, player: self.player.other() }
        }
        fn outcome(&self) -> Option<Outcome> {
            (self.stones == 0).then_some(Outcome::Win(self.player.other()))
        }
        fn hash(&self) -> u64 {
            self.stones as u64
        }
        fn move_name(&self, mv: u32) -> String {
            mv.to_string()
        }
        fn parse_move(&self, text: &str) -> Result<u32, String> {
            text.parse().map_err(|_| format!("bad move {text}"))
        }
    }

    impl Evaluate for Nim {
        fn evaluate(&self) -> i32 {
            0
        }
        fn terminal_value(&self) -> i32 {
            -1000
        }
    }

    #[test]
    fn finds_the_winning_take() {
        for stones in [5, 6, 7, 9, 10, 11] {
            let root = Nim { stones, player: Player::One };
            let r = search(&root, &Limits::default(), &StopFlag::new(), |_| {});
            assert_eq!(r.best_move, Some(stones % 4), "{stones} stones");
            assert_eq!(r.score, Score::Centi(1000));
        }
    }

    #[test]
    fn respects_depth_and_nodes() {
        let root = Nim { stones: 40, player: Player::One };
        let r = search(&root, &Limits::depth(3), &StopFlag::new(), |_| {});
        assert_eq!(r.depth, 3);
        let limits = Limits { nodes: Some(500), ..Limits::default() };
        let r = search(&root, &limits, &StopFlag::new(), |_| {});
        assert!(r.nodes <= 500 && r.best_move.is_some());
    }

    #[test]
    fn a_stopped_search_still_has_a_move() {
        let stop = StopFlag::new();
        stop.stop();
        let root = Nim { stones: 40, player: Player::One };
        let r = search(&root, &Limits::infinite(), &stop, |_| {});
        assert!(r.best_move.is_some());
    }
}
