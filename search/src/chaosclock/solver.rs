//! The Chaos Clock solver: the outcome of a position under perfect play, where each
//! side chooses, at its turn, the move whose outcome it prefers (win > both-win >
//! both-lose > lose), and a state repeating one earlier in the game ends it with both
//! losing.
//!
//! **Why the answer is unique.** Each side's preferences are a strict order of the four
//! outcomes, so two moves with the same outcome are the same to the mover and backward
//! induction gives one outcome per position; ties between moves are broken by move
//! order, which changes the move reported, never the outcome.
//!
//! **How the question splits.** Write W(甲) and W(乙) for the states from which that
//! side can *force* a win (a zero-sum question; play that never ends is not a win).
//!
//! 1. A side gets its win exactly when it can force one: at its own turn it takes a
//!    winning move when there is one, and at the other's turn the other, who ranks that
//!    outcome last, avoids it whenever it can. A forcing strategy never needs to repeat
//!    a state (the distance to the win can always go down), so the repetition rule does
//!    not change W, whatever line led to the position.
//! 2. Outside W(甲) ∪ W(乙) neither side has a move into its own W (that would be a
//!    forced win) and each avoids the other's, so the outcome is both-win or both-lose,
//!    which both rank the same way: it is both-win exactly when some path of legal moves
//!    that stays outside W(甲) ∪ W(乙) reaches a both-win ending. Both players want
//!    it, so it does not matter whose moves the path uses; a shortest such path never
//!    repeats a state.
//!
//! So the solver proves membership in W with a zero-sum search per side, and then
//! searches the graph of the remaining states breadth-first for a both-win ending.
//!
//! **Proofs, not guesses.** The zero-sum search is three-valued: *win* (a strategy
//! tree whose every leaf is a win), *no win* (the defender can keep the game from the
//! prover's win for ever: every leaf is an ending that is not the prover's win, or a
//! repetition of a state on the line, closing a cycle the defender can keep going
//! round), or *unknown* (the line reached the search horizon). It deepens the horizon
//! until the answer is known. A win is a fact about the state alone and goes into the
//! table. A "no win" whose cycles all close at or below the state is a fact too (the
//! states of the proof form a trap the prover cannot leave); one that leans on a
//! repetition of a state higher up the line depends on that line and is not kept. The
//! root is reported only once proven, so every verdict is exact; a position not proven
//! within the limits is reported as such.
//!
//! **History.** The states played before the position count for the repetition rule:
//! they are dead ends (both lose) for the whole solve. Facts found with one history
//! stay true with a longer one only for "no win" (more dead ends never help the
//! prover), so the tables keep those and forget the rest when the history changes.

use std::collections::VecDeque;
use std::time::Instant;

use bitboards::chaosclock::{Move, Outcome, Side, State};
use rustc_hash::{FxHashMap, FxHashSet};

use super::params::{MAX_HORIZON, MIN_PROOF_BUDGET, PROOF_BUDGET_DIVISOR};
use crate::StopFlag;

/// What a solve found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The outcome under perfect play.
    pub outcome: Outcome,
    /// A move of the side to move that achieves it (`None` once the game is over).
    pub best: Option<Move>,
    /// Positions searched.
    pub nodes: u64,
    /// Plies to the end along the proof: for a win, the depth of the proof tree found
    /// (at least the most the loser can delay it, which the retrograde analysis gives
    /// exactly); for both-win, the shortest path; 0 for both-lose.
    pub length: u32,
}

/// Limits of a solve.
#[derive(Clone, Debug, Default)]
pub struct SolveLimits {
    /// Give up after this many nodes (never more are searched).
    pub nodes: Option<u64>,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Give up once this flag is raised (`stop` of a protocol).
    pub stop: Option<StopFlag>,
}

/// The answer of the zero-sum search "can the prover force a win?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proof {
    /// Yes, within this many plies.
    Win(u32),
    /// No.
    NoWin,
    /// Not known within the horizon.
    Unknown,
}

/// A table entry of the zero-sum search.
#[derive(Clone, Copy, Debug)]
enum Fact {
    Win(u32),
    NoWin,
    /// Unknown when searched with this horizon.
    UnknownTo(u32),
}

/// No repetition met (for `min_repeat`).
const NONE: usize = usize::MAX;

/// Memory a fact takes in the solver's tables, counted generously (key, value, the
/// hash table's control byte and spare room): what [`Solver::set_memory_limit`]
/// divides by.
pub const FACT_BYTES: usize = 48;

/// The solver, with its tables (kept between solves while the history allows).
#[derive(Default)]
pub struct Solver {
    /// Zero-sum facts, per prover (甲, 乙).
    facts: [FxHashMap<u64, Fact>; 2],
    /// Most facts (and states of the both-win search) held at once; `None`: no bound.
    max_facts: Option<usize>,
    /// The states played before the position: dead ends for this solve.
    history: FxHashSet<u64>,
    /// Keys of the states on the current line, for repetitions.
    line: Vec<u64>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stop: Option<StopFlag>,
    aborted: bool,
}

fn index(side: Side) -> usize {
    match side {
        Side::JIA => 0,
        Side::YI => 1,
    }
}

/// Moves in search order: placements (they fix a piece), walks that fix the walker or
/// capture, other walks, the pass last.
pub fn ordered_moves(s: &State) -> Vec<Move> {
    let me = s.to_move();
    let mut moves = s.legal_moves();
    let score = |m: &Move| -> i32 {
        match *m {
            Move::Place(_) => 0,
            Move::Walk(n) => {
                let p = s.point_of(n).unwrap_or(0);
                let q = if n == 12 || p == 0 { 0 } else { (p - 1 + n) % 12 + 1 };
                let fixes = q == n;
                let captures_enemy = q != 0 && s.at(q) != 0 && !me.owns_piece(s.at(q));
                if fixes && me.owns_piece(n) {
                    1
                } else if captures_enemy {
                    2
                } else if me.owns_piece(n) {
                    3
                } else {
                    4
                }
            }
            Move::Pass => 5,
        }
    };
    moves.sort_by_key(score);
    moves
}

impl Solver {
    /// A solver with empty tables.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Bounds the tables to about `bytes` of memory (`None`: no bound). A search whose
    /// tables are full gives up as if out of nodes; the next solve starts with empty
    /// tables.
    pub fn set_memory_limit(&mut self, bytes: Option<usize>) {
        self.max_facts = bytes.map(|b| (b / FACT_BYTES).max(1024));
    }

    /// True when the tables hold as many facts as the memory limit allows (`extra`
    /// more states counted).
    fn tables_full(&self, extra: usize) -> bool {
        self.max_facts.is_some_and(|max| self.table_size() + extra >= max)
    }

    /// Nodes the last solve searched, whether it found a proof or gave up.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Facts in the tables.
    pub fn table_size(&self) -> usize {
        self.facts[0].len() + self.facts[1].len()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.facts[0].clear();
        self.facts[1].clear();
        self.history.clear();
    }

    /// Solves `state`, reached after the states of `history` (oldest first, the
    /// current one excluded). `None` if the limits stopped the search before a proof.
    pub fn solve(&mut self, state: State, history: &[State], limits: SolveLimits) -> Option<Solution> {
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.deadline;
        self.stop = limits.stop;
        self.aborted = false;
        self.set_history(history);
        if self.tables_full(0) {
            self.facts[0].clear();
            self.facts[1].clear();
        }
        if let Some(o) = state.outcome() {
            return Some(Solution { outcome: o, best: None, nodes: 0, length: 0 });
        }
        let me = state.to_move();
        // 1. Can either side force a win? Deepen both searches together, so that a
        //    short win of either is found before a long search of the other.
        let mut answers = [Proof::Unknown; 2];
        for horizon in 1..=MAX_HORIZON {
            for prover in [me, me.other()] {
                if answers[index(prover)] == Proof::Unknown {
                    answers[index(prover)] = self.prove_at(state, prover, horizon);
                }
                if let Proof::Win(length) = answers[index(prover)] {
                    let best = self.winning_line_move(state, prover);
                    return Some(Solution { outcome: Outcome::Win(prover), best, nodes: self.nodes, length });
                }
                if self.aborted {
                    return None;
                }
            }
            if answers.iter().all(|&a| a == Proof::NoWin) {
                break;
            }
        }
        if answers.iter().any(|&a| a != Proof::NoWin) {
            return None;
        }
        // 2. Neither can: both-win if a path outside the W sets reaches one.
        self.both_win_search(state)
    }

    /// Drops the facts the new history may invalidate (see the module documentation).
    fn set_history(&mut self, history: &[State]) {
        let new: FxHashSet<u64> = history.iter().map(State::key).collect();
        if new == self.history {
            return;
        }
        let keep_no_wins = self.history.iter().all(|k| new.contains(k));
        for table in &mut self.facts {
            if keep_no_wins {
                table.retain(|_, f| matches!(f, Fact::NoWin));
            } else {
                table.clear();
            }
        }
        self.history = new;
    }

    /// The zero-sum search from `s` alone with this horizon.
    fn prove_at(&mut self, s: State, prover: Side, horizon: u32) -> Proof {
        self.line.clear();
        self.line.push(s.key());
        let (proof, _) = self.prove(s, prover, horizon);
        proof
    }

    /// Proves the outcome for `prover` of the state `s`, which is the last of
    /// `self.line`. Returns the proof and the lowest line index of a state repeated
    /// below (`NONE` if none).
    fn prove(&mut self, s: State, prover: Side, horizon: u32) -> (Proof, usize) {
        let table = index(prover);
        match self.facts[table].get(&s.key()) {
            Some(Fact::Win(n)) => return (Proof::Win(*n), NONE),
            Some(Fact::NoWin) => return (Proof::NoWin, NONE),
            Some(Fact::UnknownTo(h)) if *h >= horizon => return (Proof::Unknown, NONE),
            _ => {}
        }
        if horizon == 0 {
            return (Proof::Unknown, NONE);
        }
        // The node limit holds exactly (a node past it is not searched); the other
        // limits are looked at every 1024 nodes.
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else {
            self.nodes += 1;
            if self.nodes & 0x3FF == 0 && self.over_limits() {
                self.aborted = true;
            }
        }
        if self.aborted {
            return (Proof::Unknown, 0);
        }
        let depth = self.line.len() - 1;
        let attacking = s.to_move() == prover;
        let mut min_repeat = NONE;
        let mut unknown = false;
        // Attacker: the shortest win found; defender: the longest.
        let mut win_length: Option<u32> = None;
        let mut refuted = false;
        for mv in ordered_moves(&s) {
            let child = s.play(mv).expect("ordered_moves gives legal moves");
            let proof = if let Some(o) = child.outcome() {
                if o == Outcome::Win(prover) { Proof::Win(0) } else { Proof::NoWin }
            } else if self.history.contains(&child.key()) {
                Proof::NoWin
            } else if let Some(i) = self.line.iter().position(|&k| k == child.key()) {
                min_repeat = min_repeat.min(i);
                Proof::NoWin
            } else {
                self.line.push(child.key());
                let (p, r) = self.prove(child, prover, horizon - 1);
                self.line.pop();
                min_repeat = min_repeat.min(r);
                p
            };
            match proof {
                Proof::Win(n) if attacking => {
                    win_length = Some(n + 1);
                    break;
                }
                Proof::Win(n) => win_length = Some(win_length.map_or(n + 1, |w| w.max(n + 1))),
                Proof::NoWin if !attacking => {
                    refuted = true;
                    break;
                }
                Proof::NoWin => {}
                Proof::Unknown => unknown = true,
            }
        }
        if self.aborted {
            return (Proof::Unknown, 0);
        }
        let proof = if attacking {
            match win_length {
                Some(n) => Proof::Win(n),
                None if unknown => Proof::Unknown,
                None => Proof::NoWin,
            }
        } else if refuted {
            Proof::NoWin
        } else if unknown {
            Proof::Unknown
        } else {
            Proof::Win(win_length.expect("a position has a move"))
        };
        let independent = min_repeat == NONE || min_repeat >= depth;
        match proof {
            Proof::Win(n) => {
                self.facts[table].insert(s.key(), Fact::Win(n));
            }
            Proof::NoWin if independent => {
                self.facts[table].insert(s.key(), Fact::NoWin);
            }
            Proof::Unknown if independent => {
                self.facts[table].insert(s.key(), Fact::UnknownTo(horizon));
            }
            _ => {}
        }
        (proof, if min_repeat >= depth { NONE } else { min_repeat })
    }

    /// After proving `prover` wins from `state`: the mover's best move. For the winner,
    /// a move to a state won in fewer plies; for the loser, the move that delays the
    /// loss longest.
    fn winning_line_move(&mut self, state: State, prover: Side) -> Option<Move> {
        let attacking = state.to_move() == prover;
        let mut best: Option<(Move, u32)> = None;
        for mv in ordered_moves(&state) {
            let child = state.play(mv).expect("legal");
            let length = match child.outcome() {
                Some(o) if o == Outcome::Win(prover) => Some(0),
                Some(_) => None,
                None => match self.facts[index(prover)].get(&child.key()) {
                    Some(Fact::Win(n)) if !self.history.contains(&child.key()) => Some(*n),
                    _ => None,
                },
            };
            let Some(n) = length else { continue };
            let better = match best {
                None => true,
                Some((_, b)) if attacking => n < b,
                Some((_, b)) => n > b,
            };
            if better {
                best = Some((mv, n));
            }
        }
        best.map(|(m, _)| m).or_else(|| ordered_moves(&state).first().copied())
    }

    /// The zero-sum answer for a state, deepening the horizon until known (or until
    /// this search has spent `budget` nodes).
    fn prove_deepening(&mut self, s: State, prover: Side, budget: u64) -> Proof {
        let start = self.nodes;
        for horizon in 1..=MAX_HORIZON {
            let p = self.prove_at(s, prover, horizon);
            if p != Proof::Unknown || self.aborted || self.nodes - start >= budget {
                return p;
            }
        }
        Proof::Unknown
    }

    /// Outside the W sets: a breadth-first search for a both-win ending through states
    /// proven to be in neither.
    fn both_win_search(&mut self, root: State) -> Option<Solution> {
        // Each state reached, and the first move from the root on the way.
        let mut first_move: FxHashMap<u64, (Option<Move>, u32)> = FxHashMap::default();
        first_move.insert(root.key(), (None, 0));
        let mut queue = VecDeque::from([root]);
        let mut complete = true;
        let mut fallback: Option<Move> = None;
        while let Some(s) = queue.pop_front() {
            if self.tables_full(first_move.len()) {
                self.aborted = true;
                return None;
            }
            let (via, length) = first_move[&s.key()];
            for mv in ordered_moves(&s) {
                let child = s.play(mv).expect("legal");
                let first = via.or(Some(mv));
                match child.outcome() {
                    Some(Outcome::BothWin) => {
                        return Some(Solution {
                            outcome: Outcome::BothWin,
                            best: first,
                            nodes: self.nodes,
                            length: length + 1,
                        });
                    }
                    Some(_) => {
                        if s == root && fallback.is_none() && child.outcome() == Some(Outcome::BothLose) {
                            fallback = Some(mv);
                        }
                        continue;
                    }
                    None => {}
                }
                if self.history.contains(&child.key()) {
                    if s == root && fallback.is_none() {
                        fallback = Some(mv);
                    }
                    continue;
                }
                if first_move.contains_key(&child.key()) {
                    continue;
                }
                let budget = (self.node_limit.saturating_sub(self.nodes) / PROOF_BUDGET_DIVISOR).max(MIN_PROOF_BUDGET);
                let mut in_neither = true;
                for prover in [Side::YI, Side::JIA] {
                    match self.prove_deepening(child, prover, budget) {
                        Proof::NoWin => {}
                        Proof::Win(_) => {
                            in_neither = false;
                            break;
                        }
                        Proof::Unknown => {
                            in_neither = false;
                            complete = false;
                            break;
                        }
                    }
                }
                if self.aborted {
                    return None;
                }
                if in_neither {
                    if s == root {
                        fallback = fallback.or(Some(mv));
                    }
                    first_move.insert(child.key(), (first, length + 1));
                    queue.push_back(child);
                }
            }
        }
        // No both-win ending can be reached: both lose, if every state was decided.
        complete.then(|| Solution {
            outcome: Outcome::BothLose,
            best: fallback.or_else(|| ordered_moves(&root).last().copied()),
            nodes: self.nodes,
            length: 0,
        })
    }

    fn over_limits(&self) -> bool {
        self.nodes >= self.node_limit
            || self.tables_full(0)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.stop.as_ref().is_some_and(StopFlag::is_stopped)
    }
}
