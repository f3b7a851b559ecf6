//! What a search thread carries: the shared context (table, stop flag, limits) and
//! its own counters, plus the chain of cancellation flags of the parallel split
//! points above it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::hash::EXACT;
use super::local_table::{self, LocalTable};
use crate::tt::TranspositionTable;

/// Everything the threads of one search share.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Set from outside to stop the search.
    pub stop: &'a AtomicBool,
    /// Stop when this instant passes.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes (all threads together).
    pub node_limit: u64,
    /// Nodes counted so far by all threads (updated in batches).
    pub nodes: AtomicU64,
    /// Threads allowed to help (1 = no parallel split).
    pub threads: usize,
    /// A search that plays (on time or nodes, not solving): its midgame ProbCut uses
    /// the error measured on the player's own selective searches
    /// (`probcut::play_sigma`) instead of the solver's formula.
    pub play_cuts: bool,
}

impl<'a> Shared<'a> {
    /// A context without limits other than the stop flag.
    pub fn new(tt: &'a TranspositionTable, stop: &'a AtomicBool, threads: usize) -> Shared<'a> {
        Shared {
            tt,
            stop,
            deadline: None,
            node_limit: u64::MAX,
            nodes: AtomicU64::new(0),
            threads: threads.max(1),
            play_cuts: false,
        }
    }
}

/// A cancellation flag of a parallel split point, linked to those above it: a
/// subtree is cancelled when any split point it hangs from is.
pub struct Cancel<'a> {
    flag: &'a AtomicBool,
    parent: Option<&'a Cancel<'a>>,
}

impl<'a> Cancel<'a> {
    /// A split point's flag below `parent`.
    pub fn new(flag: &'a AtomicBool, parent: Option<&'a Cancel<'a>>) -> Cancel<'a> {
        Cancel { flag, parent }
    }

    /// True if this split point or one above was cancelled.
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || self.parent.is_some_and(Cancel::is_set)
    }
}

/// Interior nodes between two checks of the stop conditions.
const POLL_INTERVAL: u32 = 1024;

/// One thread's search state.
pub struct Searcher<'a> {
    /// The shared context.
    pub shared: &'a Shared<'a>,
    /// The split point this thread works under, if any.
    pub cancel: Option<&'a Cancel<'a>>,
    /// Nodes visited by this searcher.
    pub nodes: u64,
    /// Set once the search must unwind: results are meaningless, store nothing.
    pub aborted: bool,
    /// Selectivity of the running search: a ProbCut level of `probcut.rs`, or
    /// [`EXACT`] for a search without forward pruning.
    pub sel: u8,
    /// This thread's table for the searches near the leaves.
    pub local: LocalTable,
    countdown: u32,
    interval: u32,
    reported: u64,
}

impl<'a> Searcher<'a> {
    /// A searcher working under `cancel` (or at the root).
    pub fn new(shared: &'a Shared<'a>, cancel: Option<&'a Cancel<'a>>) -> Searcher<'a> {
        // With a node limit, look more often so as not to overshoot it by much.
        let interval = (shared.node_limit / 64).clamp(1, POLL_INTERVAL as u64) as u32;
        Searcher {
            shared,
            cancel,
            nodes: 0,
            aborted: false,
            sel: EXACT,
            local: local_table::take(),
            // A helper of a split point looks at the limits at its first node: the
            // thread that split polls only at its own nodes, and subtrees small
            // enough to end within one interval would go on past a deadline or a node
            // limit, split after split (2 threads went 50-200 ms past a 280 ms move
            // time, and 50 % past a node limit). One thread polls as before.
            countdown: if cancel.is_some() { 1 } else { interval },
            interval,
            reported: 0,
        }
    }

    /// Checks the stop conditions every so often; true once the search must unwind.
    #[inline(always)]
    pub fn poll(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = self.interval;
            self.check_limits();
        }
        self.aborted
    }

    #[cold]
    fn check_limits(&mut self) {
        let new = self.nodes - self.reported;
        self.reported = self.nodes;
        let total = self.shared.nodes.fetch_add(new, Ordering::Relaxed) + new;
        if self.shared.stop.load(Ordering::Relaxed)
            || total >= self.shared.node_limit
            || self.cancel.is_some_and(Cancel::is_set)
            || self.shared.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    /// Adds the nodes of this searcher not yet reported to the shared count.
    pub fn flush_nodes(&mut self) {
        let new = self.nodes - self.reported;
        self.reported = self.nodes;
        self.shared.nodes.fetch_add(new, Ordering::Relaxed);
    }
}

impl Drop for Searcher<'_> {
    fn drop(&mut self) {
        local_table::give_back(std::mem::replace(&mut self.local, LocalTable::placeholder()));
    }
}
