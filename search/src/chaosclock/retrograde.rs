//! The exact outcome of a Chaos Clock position by retrograde analysis of every state
//! reachable from it.
//!
//! The reachable states of an opening number 10⁷ to 10⁸, few enough to hold in memory.
//! The analysis enumerates them, then computes, as the solver's documentation explains
//! ([`super::solver`]), the states from which each side can force a win (backward from
//! the wins: a state of the prover is won when one move reaches a won state, a state of
//! the defender when every move does), and among the other states those from which a
//! both-win ending can be reached (backward from the both-win endings). Whatever is in
//! neither is both-lose. Play that goes round for ever is, correctly, never counted as
//! anyone's win.
//!
//! The states played before the position are dead ends (the repetition rule: both
//! lose), so the analysis of a position in the middle of a game is exact too.

use std::collections::VecDeque;

use bitboards::chaosclock::{Move, Outcome, Side, State};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// Codes of edges that end the game, above every state index.
const END_JIA: u32 = u32::MAX;
const END_YI: u32 = u32::MAX - 1;
const END_BOTH_WIN: u32 = u32::MAX - 2;
const END_BOTH_LOSE: u32 = u32::MAX - 3;
/// Indices at or above this are endings.
const FIRST_END: u32 = END_BOTH_LOSE;

/// Not won / not reachable.
const NEVER: u16 = u16::MAX;

/// Why an analysis was not done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooBig {
    /// More states are reachable than the limit allows.
    States(usize),
}

/// The reverse of the move graph: the states with a move to state i are
/// `from[starts[i]..starts[i + 1]]`.
struct Predecessors {
    starts: Vec<u64>,
    from: Vec<u32>,
}

impl Predecessors {
    fn of(&self, i: usize) -> &[u32] {
        &self.from[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

/// The analysis of every state reachable from a root.
pub struct Analysis {
    states: Vec<State>,
    index: FxHashMap<u64, u32>,
    /// The moves of state i lead to `edges[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<u64>,
    edges: Vec<u32>,
    /// Plies within which 甲 / 乙 forces a win from each state (`NEVER`: it cannot).
    win_in: [Vec<u16>; 2],
    /// Plies to the nearest both-win ending through states neither side wins.
    both_win_in: Vec<u16>,
}

fn side_index(s: Side) -> usize {
    match s {
        Side::Jia => 0,
        Side::Yi => 1,
    }
}

fn end_code(o: Outcome) -> u32 {
    match o {
        Outcome::Win(Side::Jia) => END_JIA,
        Outcome::Win(Side::Yi) => END_YI,
        Outcome::BothWin => END_BOTH_WIN,
        Outcome::BothLose => END_BOTH_LOSE,
    }
}

impl Analysis {
    /// Analyses every state reachable from `root` after `history` (whose states end the
    /// game as repetitions), unless more than `max_states` are reachable.
    pub fn new(root: State, history: &[State], max_states: usize) -> Result<Analysis, TooBig> {
        let blocked: FxHashSet<u64> = history.iter().map(State::key).collect();
        let mut analysis = Analysis::enumerate(root, &blocked, max_states)?;
        let predecessors = analysis.predecessors();
        for side in [Side::Jia, Side::Yi] {
            analysis.win_in[side_index(side)] = analysis.forced_wins(side, &predecessors);
        }
        analysis.both_win_in = analysis.both_win_distances(&predecessors);
        Ok(analysis)
    }

    /// States reachable from the root (the root included).
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Never true: the root is always there.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Breadth-first enumeration, one layer at a time: the moves of a layer are made in
    /// parallel, the new states numbered in order.
    fn enumerate(root: State, blocked: &FxHashSet<u64>, max_states: usize) -> Result<Analysis, TooBig> {
        let mut states = vec![root];
        let mut index = FxHashMap::default();
        index.insert(root.key(), 0u32);
        let mut offsets = vec![0u64];
        let mut edges: Vec<u32> = Vec::new();
        let mut layer_start = 0;
        while layer_start < states.len() {
            let layer_end = states.len();
            let children: Vec<Vec<State>> = states[layer_start..layer_end]
                .par_iter()
                .map(|s| s.legal_moves().into_iter().map(|m| s.play(m).expect("legal")).collect())
                .collect();
            for list in children {
                for child in list {
                    let code = if let Some(o) = child.outcome() {
                        end_code(o)
                    } else if blocked.contains(&child.key()) {
                        END_BOTH_LOSE
                    } else {
                        let next = states.len() as u32;
                        *index.entry(child.key()).or_insert_with(|| {
                            states.push(child);
                            next
                        })
                    };
                    edges.push(code);
                }
                offsets.push(edges.len() as u64);
                if states.len() > max_states || states.len() as u64 >= FIRST_END as u64 {
                    return Err(TooBig::States(states.len()));
                }
            }
            layer_start = layer_end;
        }
        Ok(Analysis { states, index, offsets, edges, win_in: [Vec::new(), Vec::new()], both_win_in: Vec::new() })
    }

    fn moves_of(&self, i: usize) -> &[u32] {
        &self.edges[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// For each state, the states with a move to it (once per such move).
    fn predecessors(&self) -> Predecessors {
        let n = self.states.len();
        let mut starts = vec![0u64; n + 1];
        for &e in &self.edges {
            if e < FIRST_END {
                starts[e as usize + 1] += 1;
            }
        }
        for i in 0..n {
            starts[i + 1] += starts[i];
        }
        let mut fill = starts.clone();
        let mut from = vec![0u32; starts[n] as usize];
        for i in 0..n {
            for &e in self.moves_of(i) {
                if e < FIRST_END {
                    from[fill[e as usize] as usize] = i as u32;
                    fill[e as usize] += 1;
                }
            }
        }
        Predecessors { starts, from }
    }

    /// The plies within which `prover` forces a win from each state (`NEVER` if it
    /// cannot), computed backward from the wins in order of distance.
    fn forced_wins(&self, prover: Side, predecessors: &Predecessors) -> Vec<u16> {
        let n = self.states.len();
        let win_end = end_code(Outcome::Win(prover));
        let mut win_in = vec![NEVER; n];
        // For the defender's states: moves not yet known to lose.
        let mut open = vec![0u16; n];
        let mut queue = VecDeque::new();
        for i in 0..n {
            let moves = self.moves_of(i);
            if self.states[i].to_move() == prover {
                if moves.contains(&win_end) {
                    win_in[i] = 1;
                    queue.push_back(i as u32);
                }
            } else {
                let safe = moves.iter().filter(|&&e| e != win_end).count();
                if safe == 0 {
                    win_in[i] = 1;
                    queue.push_back(i as u32);
                }
                open[i] = safe as u16;
            }
        }
        while let Some(w) = queue.pop_front() {
            let w = w as usize;
            let next = win_in[w].saturating_add(1);
            for &p in predecessors.of(w) {
                let p = p as usize;
                if win_in[p] != NEVER {
                    continue;
                }
                if self.states[p].to_move() == prover {
                    win_in[p] = next;
                    queue.push_back(p as u32);
                } else {
                    open[p] -= 1;
                    if open[p] == 0 {
                        win_in[p] = next;
                        queue.push_back(p as u32);
                    }
                }
            }
        }
        win_in
    }

    /// Plies to the nearest both-win ending along moves between states neither side
    /// can force a win from (`NEVER` if none).
    fn both_win_distances(&self, predecessors: &Predecessors) -> Vec<u16> {
        let n = self.states.len();
        let neither = |i: usize| self.win_in[0][i] == NEVER && self.win_in[1][i] == NEVER;
        let mut dist = vec![NEVER; n];
        let mut queue = VecDeque::new();
        for (i, d) in dist.iter_mut().enumerate() {
            if neither(i) && self.moves_of(i).contains(&END_BOTH_WIN) {
                *d = 1;
                queue.push_back(i as u32);
            }
        }
        while let Some(w) = queue.pop_front() {
            let w = w as usize;
            for &p in predecessors.of(w) {
                let p = p as usize;
                if dist[p] == NEVER && neither(p) {
                    dist[p] = dist[w].saturating_add(1);
                    queue.push_back(p as u32);
                }
            }
        }
        dist
    }

    fn outcome_at(&self, i: usize) -> Outcome {
        if self.win_in[0][i] != NEVER {
            Outcome::Win(Side::Jia)
        } else if self.win_in[1][i] != NEVER {
            Outcome::Win(Side::Yi)
        } else if self.both_win_in[i] != NEVER {
            Outcome::BothWin
        } else {
            Outcome::BothLose
        }
    }

    /// The outcome of a state reached from the root without repeating one (`None` if
    /// it is not among them). Exact for the root; for a later state, exact when the
    /// game got there without passing through any state it can reach again.
    pub fn outcome_of(&self, s: &State) -> Option<Outcome> {
        self.index.get(&s.key()).map(|&i| self.outcome_at(i as usize))
    }

    /// The outcome of the root.
    pub fn outcome(&self) -> Outcome {
        self.outcome_at(0)
    }

    /// Plies to the end along the proof: for a win, the most the loser can delay it;
    /// for both-win, the shortest path; 0 for both-lose.
    pub fn length(&self) -> u32 {
        match self.outcome() {
            Outcome::Win(s) => self.win_in[side_index(s)][0] as u32,
            Outcome::BothWin => self.both_win_in[0] as u32,
            Outcome::BothLose => 0,
        }
    }

    /// A move of the root's side to move that achieves the root's outcome: the
    /// quickest win, the slowest loss, the shortest way to both-win, or a move that
    /// does not hand the other side a win.
    pub fn best_move(&self) -> Option<Move> {
        let root = self.states[0];
        let moves = root.legal_moves();
        let me = root.to_move();
        let outcome = self.outcome();
        // How good each move is (smaller is better), if it achieves the outcome.
        let cost = |e: u32| -> Option<u32> {
            match outcome {
                Outcome::Win(w) => {
                    let at = |e: u32| -> Option<u16> {
                        if e == end_code(Outcome::Win(w)) {
                            Some(0)
                        } else if e < FIRST_END && self.win_in[side_index(w)][e as usize] != NEVER {
                            Some(self.win_in[side_index(w)][e as usize])
                        } else {
                            None
                        }
                    };
                    let d = at(e)? as u32;
                    Some(if w == me { d } else { u32::MAX - d })
                }
                Outcome::BothWin => match e {
                    END_BOTH_WIN => Some(0),
                    e if e < FIRST_END && self.outcome_at(e as usize) == Outcome::BothWin => {
                        Some(self.both_win_in[e as usize] as u32)
                    }
                    _ => None,
                },
                Outcome::BothLose => match e {
                    END_BOTH_LOSE => Some(1),
                    e if e < FIRST_END && self.outcome_at(e as usize) == Outcome::BothLose => Some(0),
                    _ => None,
                },
            }
        };
        let edges = self.moves_of(0);
        moves.iter().zip(edges).filter_map(|(&m, &e)| cost(e).map(|c| (c, m))).min_by_key(|&(c, _)| c).map(|(_, m)| m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_won_position_is_won() {
        // 乙 places 12 and completes; 甲 cannot complete on its one move (it needs two).
        let s = State::parse("1,2,3,4,5,6,7,8,0,10,0,0 Y 0").expect("valid");
        let a = Analysis::new(s, &[], 1 << 20).expect("small");
        assert_eq!(a.outcome(), Outcome::Win(Side::Yi));
        assert_eq!(a.best_move(), Some(Move::Place(12)));
        assert_eq!(a.length(), 2);
    }
}
