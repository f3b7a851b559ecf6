//! Proving the outcome of a Chaos Clock position, as `sente chaosclock solve` and
//! `openings` do: the proof search first (quick near the end of a game), then the
//! retrograde analysis of every reachable state, within the memory given.

use std::time::Instant;

use bitboards::chaosclock::State;

use super::retrograde::{Analysis, TooBig};
use super::solver::{Solution, SolveLimits, Solver};

/// How a position was solved, and what it cost.
pub enum Method {
    /// The proof search, with the nodes it searched.
    Search(u64),
    /// The retrograde analysis, with the states it enumerated.
    Retrograde(usize),
}

/// An exact verdict and how it was reached.
pub struct Verdict {
    /// The outcome, best move and proof length.
    pub solution: Solution,
    /// Which solver found it.
    pub method: Method,
}

/// How hard [`prove`] may try.
#[derive(Clone, Copy, Debug)]
pub struct ProveLimits {
    /// Nodes of proof search tried first (0: none).
    pub search_nodes: u64,
    /// The most states the retrograde analysis may enumerate (0: none).
    pub max_states: usize,
    /// Give up on the proof search at this instant.
    pub deadline: Option<Instant>,
}

/// About how many bytes the retrograde analysis takes per state it enumerates.
pub const STATE_BYTES: usize = 50;

/// How many states the memory available now holds (four fifths of Linux's
/// `MemAvailable`), or `None` where that cannot be read.
pub fn states_in_available_memory() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024) / 5 * 4 / STATE_BYTES)
}

/// Proves the outcome of `state` after `history`: the proof search first (quick on
/// positions near the end), then the retrograde analysis of every reachable state.
/// `Err` says why neither could.
pub fn prove(state: State, history: &[State], limits: ProveLimits) -> Result<Verdict, String> {
    if limits.search_nodes > 0 {
        let mut solver = Solver::new();
        let search_limits = SolveLimits { nodes: Some(limits.search_nodes), deadline: limits.deadline, stop: None };
        if let Some(solution) = solver.solve(state, history, search_limits) {
            let nodes = solution.nodes;
            return Ok(Verdict { solution, method: Method::Search(nodes) });
        }
    }
    if limits.max_states == 0 {
        return Err(format!("not proven within {} nodes of search", limits.search_nodes));
    }
    match Analysis::new(state, history, limits.max_states) {
        Ok(a) => {
            let solution =
                Solution { outcome: a.outcome(), best: a.best_move(), nodes: a.len() as u64, length: a.length() };
            Ok(Verdict { solution, method: Method::Retrograde(a.len()) })
        }
        Err(TooBig::States(n)) => Err(format!(
            "not proven within {} nodes of search, and more than {} states are reachable ({n} found)",
            limits.search_nodes, limits.max_states
        )),
    }
}
