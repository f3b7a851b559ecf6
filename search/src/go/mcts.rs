//! Monte-Carlo tree search for Go: UCT with RAVE over playouts (heavy by default, see
//! [`super::playout`]), on one tree that
//! every search thread shares (tree parallelism).
//!
//! Each iteration walks down the tree by the UCT-RAVE value, expands a node once it
//! has been visited [`EXPAND_AFTER`] times (its children start with the priors of
//! [`super::prior`]), finishes the game with a playout,
//! and updates every node on the way with the result; RAVE ("all moves as first")
//! also credits each child whose move the same colour played later in the iteration.
//! The root's moves are filtered by the game's full rules (superko included); inside
//! the tree each stone played is checked against the boards of the game (superko),
//! and a move that repeats one is marked illegal for good; the playouts keep simple
//! ko alone.
//!
//! The tree lives in an arena of nodes allocated by the first search (or before it, by
//! [`Mcts::prepare`]), sized by the node budget ([`MctsSettings::max_nodes`]) and kept
//! for the next position
//! ([`Mcts::reuse`]); every statistic is an atomic counter, so the threads share it
//! without a lock:
//!
//! * **virtual loss**: a thread counts its visit on every node of its path on the
//!   way down, and the win only on the way back, so until its playout ends the path
//!   looks one loss worse to the other threads and they spread out;
//! * **expansion** is claimed with a compare-and-swap on the node's children word
//!   (unexpanded → being expanded → first child and count); a thread that meets a node
//!   another one is expanding plays out from it; when the arena is full, nodes stop
//!   being expanded and the search goes on from the leaves it has;
//! * **transpositions** (MCTS on a graph, as in Childs, Brodeur & Kocsis 2008): a node
//!   about to be expanded looks its position up in a table
//!   ([`FastBoard::position_key`]: stones, side to move, ko point, passes); when the
//!   same position was expanded before by another order of moves, the node takes that
//!   block of children, so both paths share the children's statistics from then on.
//!   The table lives with the arena and is rebuilt for the subtree kept after a move.
//!
//! With one thread and a fixed seed the search is deterministic. Its numeric tunables
//! are in [`super::params`].

use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, AtomicUsize};
use std::time::Instant;

use bitboards::go::{Board, Cell, Color, FastBoard, Game, Move, Point, Superko, bits};
use bitboards::rng::splitmix64;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;

use super::last_good_reply::LastGoodReply;
use super::move_model::{OWNERSHIP_PLAYOUTS, Ownership, add_model_priors, built_in_model};
use super::params::{
    CLOCK_MOVES_LEFT, EARLY_STOP_CHECK, EXPAND_AFTER, EXPLORATION, FIRST_PLAY_URGENCY, LAST_GOOD_REPLY, PASS_PENALTY,
    RAVE_EQUIVALENCE,
};
/// The default playout count, re-exported where the engine looks for it.
pub use super::params::{DEFAULT_PLAYOUTS, MOVE_MODEL_BY_DEFAULT};
use super::playout::{Policy, area_owners, black_wins, move_cap, playout_with, settling_playout};
use super::prior::{Prior, prior};
use crate::limits::{Limits, StopFlag, TimeBudget};
use crate::tt::{AllocError, try_zeroed_slice};

/// The weight of a node's RAVE (AMAF) mean against its own mean after `visits` visits:
/// √(k / (3·visits + k)), k = [`RAVE_EQUIVALENCE`].
pub(crate) fn rave_weight(visits: f32) -> f32 {
    (RAVE_EQUIVALENCE / (3.0 * visits + RAVE_EQUIVALENCE)).sqrt()
}

/// Cell 0 stands for a pass in the tree (it is off the board).
const PASS: Cell = 0;

/// Mixed into a tree's seed for the root's ownership playouts.
const OWNERSHIP_SEED: u64 = 0x726f_6f74_6f77_6e73;

/// Longest path walked down the tree in one iteration.
const MAX_DEPTH: usize = 400;

/// Children word of a node nobody has expanded yet.
const UNEXPANDED: u64 = 0;
/// Children word of a node a thread is expanding (or that found the arena full).
const EXPANDING: u64 = 1;

/// Bytes of one tree node (for sizing the tree from a memory budget).
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

/// Bytes a node costs with its share of the transposition table (under two bytes) and
/// of the table's log of claimed entries (under a sixteenth of a byte), rounded up.
const NODE_AND_TABLE_BYTES: usize = NODE_BYTES + 3;

/// Node budget of a search with default settings: 64 MiB of nodes and table.
pub const DEFAULT_MAX_NODES: usize = (64 << 20) / NODE_AND_TABLE_BYTES;

/// How a search runs: threads and the size of its tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsSettings {
    /// Search threads sharing the tree (at least 1).
    pub threads: usize,
    /// Most nodes the tree may hold; the arena is allocated for the smaller of this and
    /// what the playout limit can use.
    pub max_nodes: usize,
    /// The playout policy.
    pub policy: Policy,
    /// New nodes start with virtual experience from Go knowledge ([`super::prior`]).
    pub priors: bool,
    /// The priors add the built-in move model's opinion
    /// ([`super::move_model::add_model_priors`]); only with `priors`.
    pub move_model: bool,
    /// The UCB exploration constant of the selection ([`EXPLORATION`] unless a caller
    /// tuned its own, as Phantom Go's belief search).
    pub exploration: f32,
    /// Heavy playouts answer the last move with the search's last good reply
    /// ([`super::last_good_reply`]).
    pub last_good_reply: bool,
}

impl Default for MctsSettings {
    fn default() -> Self {
        MctsSettings {
            threads: 1,
            max_nodes: DEFAULT_MAX_NODES,
            policy: Policy::default(),
            priors: true,
            move_model: MOVE_MODEL_BY_DEFAULT,
            exploration: EXPLORATION,
            last_good_reply: LAST_GOOD_REPLY,
        }
    }
}

impl MctsSettings {
    /// `threads` threads and a tree of at most `hash_mb` MiB.
    pub fn new(threads: usize, hash_mb: usize) -> MctsSettings {
        MctsSettings {
            threads: threads.max(1),
            max_nodes: ((hash_mb.max(1) << 20) / NODE_AND_TABLE_BYTES).max(1024),
            policy: Policy::default(),
            priors: true,
            move_model: MOVE_MODEL_BY_DEFAULT,
            exploration: EXPLORATION,
            last_good_reply: LAST_GOOD_REPLY,
        }
    }
}

/// One tree node: the move that leads to it and its statistics.
#[derive(Default)]
struct Node {
    cell: AtomicU8,
    /// Virtual visits from the prior (set when the node is created).
    prior_visits: AtomicU8,
    /// Virtual wins among them.
    prior_wins: AtomicU8,
    /// Visits, counted on the way down (virtual loss until the result is backed up).
    visits: AtomicU32,
    /// Wins for the player who made this node's move.
    wins: AtomicU32,
    /// RAVE visits (high 32 bits) and wins (low 32 bits) in one word, so that the
    /// back-up credits both with one atomic addition.
    rave: AtomicU64,
    /// [`UNEXPANDED`], [`EXPANDING`], or `first_child << 16 | child_count`.
    children: AtomicU64,
    /// Set once playing this node's move was found to repeat a board of the game
    /// (superko): the selection never takes it again.
    illegal: AtomicBool,
}

impl Node {
    fn cell(&self) -> Cell {
        self.cell.load(Relaxed)
    }

    /// The range of the children, once expanded.
    #[inline]
    fn children(&self) -> Option<std::ops::Range<usize>> {
        let word = self.children.load(Acquire);
        (word > EXPANDING).then(|| {
            let first = (word >> 16) as usize;
            first..first + (word & 0xFFFF) as usize
        })
    }

    fn win_rate(&self) -> f32 {
        let visits = self.visits.load(Relaxed);
        if visits > 0 { self.wins.load(Relaxed) as f32 / visits as f32 } else { 0.0 }
    }

    /// The selection value; the prior's virtual visits and wins count in both the
    /// node's own statistics and its RAVE statistics.
    fn value(&self, parent_log: f32, exploration: f32) -> f32 {
        let prior_visits = u32::from(self.prior_visits.load(Relaxed));
        let prior_wins = u32::from(self.prior_wins.load(Relaxed));
        let rave_word = self.rave.load(Relaxed);
        let rave_visits = (rave_word >> 32) as u32 + prior_visits;
        let rave = if rave_visits > 0 { (rave_word as u32 + prior_wins) as f32 / rave_visits as f32 } else { 0.5 };
        let visits = self.visits.load(Relaxed) + prior_visits;
        if visits == 0 {
            // First-play urgency: trust RAVE, a little above an even game.
            return rave + FIRST_PLAY_URGENCY;
        }
        let n = visits as f32;
        let q = (self.wins.load(Relaxed) + prior_wins) as f32 / n;
        let beta = rave_weight(n);
        (1.0 - beta) * q + beta * rave + exploration * (parent_log / n).sqrt()
    }
}

/// Slots looked at, from the key's own, before a lookup or an insertion gives up.
const PROBES: usize = 8;

/// The transposition table: the key of a position ([`FastBoard::position_key`]) → the
/// children block of the node that was expanded there first. Open addressing with
/// linear probing; an entry is claimed by a compare-and-swap of its key from 0 and
/// then published with its block; entries are never replaced while the tree lives (a
/// full table only stops finding new transpositions), and the table is cleared and
/// rebuilt when the tree is kept for the next move.
///
/// The entries claimed since the last clear are logged (their slots, in claiming
/// order), so that a clear writes only those: a table sized for a large `Hash` costs
/// a move no more than the entries its searches made, and its pages are written
/// only where they are used. When more entries were claimed than the log holds, the
/// clear writes the whole table.
struct Transpositions {
    keys: Box<[AtomicU64]>,
    blocks: Box<[AtomicU64]>,
    /// Slots claimed since the last clear, the first [`Transpositions::logged`] of
    /// them (a slot number past `u32::MAX` is not logged).
    log: Box<[AtomicU32]>,
    /// Entries claimed since the last clear (may pass the log's length).
    logged: AtomicUsize,
}

impl Transpositions {
    /// A table for an arena of `nodes` nodes: one entry per 8 to 16 nodes (an
    /// expansion makes a block of one node per empty point and a pass: 10 to 82 on
    /// 9×9), at most two bytes per node.
    /// `None` when the memory is refused.
    fn for_nodes(nodes: usize) -> Option<Transpositions> {
        let entries = ((nodes / 8).max(64).next_power_of_two() / 2).max(64);
        // SAFETY: zeroed atomics are valid; a zero key is a free entry and zero is
        // `UNEXPANDED`.
        let (keys, blocks) = unsafe { (try_zeroed_slice(entries)?, try_zeroed_slice(entries)?) };
        // A log of an eighth of the entries: a clear past it writes at most eight
        // entries' worth of the table per entry claimed. SAFETY: zeroed atomics.
        let log_len = if entries <= u32::MAX as usize { entries / 8 } else { 0 };
        let log = unsafe { try_zeroed_slice(log_len)? };
        Some(Transpositions { keys, blocks, log, logged: AtomicUsize::new(0) })
    }

    /// A table key: never 0, which marks a free entry.
    fn key(position: u64) -> u64 {
        position.max(1)
    }

    fn slots(&self, key: u64) -> impl Iterator<Item = usize> + use<> {
        let mask = self.keys.len() - 1;
        (0..PROBES).map(move |i| (key as usize).wrapping_add(i) & mask)
    }

    /// The children word stored for `position`, if any is published.
    fn find(&self, position: u64) -> Option<u64> {
        let key = Self::key(position);
        for slot in self.slots(key) {
            match self.keys[slot].load(Acquire) {
                0 => return None,
                k if k == key => {
                    let word = self.blocks[slot].load(Acquire);
                    return (word > EXPANDING).then_some(word);
                }
                _ => {}
            }
        }
        None
    }

    /// Records `word` as the children of `position`, unless the position has an entry
    /// already (another thread's block stays the shared one) or its slots are full.
    fn insert(&self, position: u64, word: u64) {
        let key = Self::key(position);
        for slot in self.slots(key) {
            match self.keys[slot].load(Relaxed) {
                0 => {}
                k if k == key => return,
                _ => continue,
            }
            match self.keys[slot].compare_exchange(0, key, AcqRel, Acquire) {
                Ok(_) => {
                    self.blocks[slot].store(word, Release);
                    let n = self.logged.fetch_add(1, Relaxed);
                    if let Some(entry) = self.log.get(n) {
                        entry.store(slot as u32, Relaxed);
                    }
                    return;
                }
                Err(k) if k == key => return,
                Err(_) => {}
            }
        }
    }

    /// Frees every entry: those in the log, or the whole table when the log
    /// overflowed. Not while a search runs (it needs the table to itself).
    fn clear(&self) {
        let claimed = self.logged.swap(0, Relaxed);
        if claimed <= self.log.len() {
            for entry in &self.log[..claimed] {
                let slot = entry.load(Relaxed) as usize;
                self.keys[slot].store(0, Relaxed);
                self.blocks[slot].store(UNEXPANDED, Relaxed);
            }
        } else {
            self.clear_all();
        }
    }

    /// Writes every entry free (which also makes the whole table resident).
    fn clear_all(&self) {
        for (key, block) in self.keys.iter().zip(self.blocks.iter()) {
            key.store(0, Relaxed);
            block.store(UNEXPANDED, Relaxed);
        }
        self.logged.store(0, Relaxed);
    }

    /// Entries in use (claimed since the last clear).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.keys.iter().filter(|k| k.load(Relaxed) != 0).count()
    }
}

/// The node arena: node 0 is the root, children are handed out in blocks; a block may
/// be the children of several nodes whose moves lead to the same position.
struct Tree {
    nodes: Box<[Node]>,
    used: AtomicUsize,
    table: Transpositions,
}

impl Tree {
    /// An empty arena of `capacity` nodes with its table, or `None` when the memory is
    /// refused. The memory comes zeroed (all-zero nodes are `Node::default()`) and
    /// costs resident memory only as the search writes it, so a large `Hash` costs
    /// only what the searches use.
    fn try_new(capacity: usize) -> Option<Tree> {
        let capacity = capacity.max(1);
        // SAFETY: a node is atomics only; zero is the default of each.
        let nodes = unsafe { try_zeroed_slice::<Node>(capacity)? };
        Some(Tree { nodes, used: AtomicUsize::new(1), table: Transpositions::for_nodes(capacity)? })
    }

    /// Gives `cells` to `node` as its children, with their priors (none if
    /// `priors` is empty); false when the arena is full.
    fn add_children(&self, node: usize, cells: &[Cell], priors: &[Prior]) -> bool {
        let first = self.used.fetch_add(cells.len(), Relaxed);
        if first + cells.len() > self.nodes.len() {
            return false;
        }
        for (i, &cell) in cells.iter().enumerate() {
            let child = &self.nodes[first + i];
            child.cell.store(cell, Relaxed);
            let prior = priors.get(i).copied().unwrap_or_default();
            child.prior_visits.store(prior.visits, Relaxed);
            child.prior_wins.store(prior.wins, Relaxed);
        }
        self.nodes[node].children.store(((first as u64) << 16) | cells.len() as u64, Release);
        true
    }

    fn used(&self) -> usize {
        self.used.load(Relaxed).min(self.nodes.len())
    }

    /// Copies every field of node `from` onto node `to`.
    fn copy_node(&self, from: usize, to: usize) {
        let (a, b) = (&self.nodes[from], &self.nodes[to]);
        b.cell.store(a.cell.load(Relaxed), Relaxed);
        b.prior_visits.store(a.prior_visits.load(Relaxed), Relaxed);
        b.prior_wins.store(a.prior_wins.load(Relaxed), Relaxed);
        b.visits.store(a.visits.load(Relaxed), Relaxed);
        b.wins.store(a.wins.load(Relaxed), Relaxed);
        b.rave.store(a.rave.load(Relaxed), Relaxed);
        b.children.store(a.children.load(Relaxed), Relaxed);
        b.illegal.store(a.illegal.load(Relaxed), Relaxed);
    }

    /// Clears the nodes `range` (back to unused).
    fn clear(&self, range: std::ops::Range<usize>) {
        for n in &self.nodes[range] {
            n.cell.store(0, Relaxed);
            n.prior_visits.store(0, Relaxed);
            n.prior_wins.store(0, Relaxed);
            n.visits.store(0, Relaxed);
            n.wins.store(0, Relaxed);
            n.rave.store(0, Relaxed);
            n.children.store(UNEXPANDED, Relaxed);
            n.illegal.store(false, Relaxed);
        }
    }

    /// Forgets every node but an empty root; clears only the nodes that were used.
    fn reset(&self) {
        self.clear(0..self.used());
        self.used.store(1, Relaxed);
        self.table.clear();
    }

    /// Makes `new_root` the root, keeping its subtree and dropping every other node:
    /// the subtree moves to the front of the arena in place, the rest of what was
    /// used is cleared. The kept blocks (each once, however many parents share it)
    /// are packed in their old order: a block's new start is one plus the sizes of
    /// the kept blocks before it, which all lie between 1 and its old start, so every
    /// node moves down (or not at all) and never over a node still to be moved.
    fn reroot(&self, new_root: usize) {
        // The blocks reachable from the new root, each once (a shared block is the
        // children of several nodes).
        let mut blocks: Vec<(usize, usize)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![new_root];
        while let Some(n) = stack.pop() {
            if let Some(children) = self.nodes[n].children()
                && seen.insert(children.start)
            {
                blocks.push((children.start, children.len()));
                stack.extend(children);
            }
        }
        blocks.sort_unstable();
        let old_used = self.used();
        self.copy_node(new_root, 0);
        let mut next = 1;
        let mut new_first = Vec::with_capacity(blocks.len());
        for &(first, len) in &blocks {
            new_first.push(next);
            for i in 0..len {
                self.copy_node(first + i, next + i);
            }
            next += len;
        }
        for node in &self.nodes[..next] {
            let word = node.children.load(Relaxed);
            let relinked = if word <= EXPANDING {
                // A node left half-expanded (the arena was full) may expand again.
                UNEXPANDED
            } else {
                let first = (word >> 16) as usize;
                match blocks.binary_search_by_key(&first, |b| b.0) {
                    Ok(k) => ((new_first[k] as u64) << 16) | (word & 0xFFFF),
                    Err(_) => UNEXPANDED,
                }
            };
            node.children.store(relinked, Relaxed);
        }
        self.clear(next..old_used.max(next));
        self.used.store(next, Relaxed);
        self.table.clear();
    }

    /// Calls `visit(node, position)` for every expanded node reachable from the root
    /// (each once, whatever the number of its parents), `root` being the root's
    /// position; the positions come from replaying the moves, depth first. A block is
    /// walked into once: its nodes are the same whichever parent leads to it.
    fn for_each_expanded(&self, root: &FastBoard, mut visit: impl FnMut(usize, &FastBoard)) {
        let mut seen_blocks = std::collections::HashSet::new();
        let mut stack = vec![(0usize, root.clone())];
        while let Some((node, board)) = stack.pop() {
            let Some(children) = self.nodes[node].children() else { continue };
            visit(node, &board);
            if !seen_blocks.insert(children.start) {
                continue;
            }
            for child in children.filter(|&c| self.nodes[c].children().is_some()) {
                let mut next = board.clone();
                match self.nodes[child].cell() {
                    PASS => next.pass(),
                    cell => {
                        next.play(cell);
                    }
                }
                stack.push((child, next));
            }
        }
    }

    /// Enters the position of every expanded node below the root into the (empty)
    /// table, `root` being the root's position; the root itself stays out, so that its
    /// children are only ever reached from the root.
    fn index_transpositions(&self, root: &FastBoard) {
        self.for_each_expanded(root, |node, board| {
            if node != 0 {
                self.table.insert(board.position_key(), self.nodes[node].children.load(Relaxed));
            }
        });
    }

    /// The child of `node` whose move is `cell`, if the node is expanded and has one.
    fn child_with(&self, node: usize, cell: Cell) -> Option<usize> {
        self.nodes[node].children()?.find(|&i| self.nodes[i].cell() == cell)
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct MctsResult {
    /// The move chosen (the most visited root move).
    pub best: Move,
    /// Estimated chance that the side to move wins with it.
    pub win_rate: f32,
    /// Playouts run.
    pub playouts: u64,
    /// Time spent.
    pub elapsed: std::time::Duration,
    /// The most visited line from the root.
    pub pv: Vec<Move>,
    /// Root moves with their visits and win rates, most visited first.
    pub root_moves: Vec<(Move, u32, f32)>,
    /// Tree nodes in use at the end.
    pub nodes: usize,
}

/// A search tree for one position.
pub struct Mcts {
    tree: Option<Tree>,
    root: FastBoard,
    root_cells: Vec<Cell>,
    /// The move that led to the root (0 for a pass or none).
    root_last: Cell,
    /// The move before it (0: a pass or none).
    root_before: Cell,
    /// The game at the root, to find it again in a later position ([`Mcts::reuse`]).
    root_game: Game,
    /// Superko inside the tree: the keys ([`FastBoard::stones_key`]) of every board of
    /// the game up to the root, sorted; empty under simple ko alone.
    history: Vec<u64>,
    /// Whether the keys include the side to move (situational superko).
    situational: bool,
    komi: f32,
    seed: u64,
    searches: u64,
    cap: usize,
    settings: MctsSettings,
    /// Who owns each point at the end of heavy playouts from the root, measured by the
    /// first search when the move model rates ownership; the priors of every node read it.
    ownership: Option<Ownership>,
    /// The memory refused to the arena of the last search, which was smaller then.
    refused: Option<AllocError>,
}

fn to_move(cell: Cell) -> Move {
    if cell == PASS { Move::Pass } else { Move::Play(FastBoard::point(cell)) }
}

/// The keys ([`FastBoard::stones_key`]) of every board of `game`, sorted, for the
/// tree's superko check; empty when the game's rule is simple ko alone.
fn superko_history(game: &Game) -> Vec<u64> {
    if game.superko() == Superko::Off {
        return Vec::new();
    }
    let situational = game.superko() == Superko::Situational;
    let mut keys: Vec<u64> = game.boards().iter().map(|b| FastBoard::from_board(b).stones_key(situational)).collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// What one thread needs for its iterations.
struct Worker {
    rng: Xoshiro256PlusPlus,
    amaf: [u8; 128],
    path: [u32; MAX_DEPTH],
    /// The iteration's moves (cell, 0 for a pass; whether Black played it), for the
    /// last good replies.
    moves: Vec<(Cell, bool)>,
}

/// A value alone on its cache lines (128 bytes: adjacent-line prefetching pairs lines).
#[repr(align(128))]
struct Padded<T>(T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// True when the root's most visited child leads the second by more visits than the
/// search can still make before its soft limit, at its speed so far (`done` playouts):
/// the move played cannot change any more (Leela Zero's "smart pruning").
fn best_is_settled(shared: &Shared, done: u64) -> bool {
    let (Some(soft), elapsed) = (shared.budget.soft_limit(), shared.budget.elapsed()) else { return false };
    lead_cannot_be_caught(root_lead(shared.tree), done, elapsed, soft)
}

/// The visits by which the root's most visited child leads the second.
fn root_lead(tree: &Tree) -> u32 {
    let Some(children) = tree.nodes[0].children() else { return 0 };
    let (mut first, mut second) = (0u32, 0u32);
    for node in &tree.nodes[children] {
        let v = node.visits.load(Relaxed);
        if v > first {
            (first, second) = (v, first);
        } else if v > second {
            second = v;
        }
    }
    first - second
}

/// True when a `lead` of visits is more than the playouts left before the `soft` limit,
/// at the speed of `done` playouts in `elapsed`.
fn lead_cannot_be_caught(lead: u32, done: u64, elapsed: std::time::Duration, soft: std::time::Duration) -> bool {
    if elapsed.is_zero() || done == 0 {
        return false;
    }
    let left = soft.saturating_sub(elapsed).as_secs_f64() * done as f64 / elapsed.as_secs_f64();
    f64::from(lead) > left
}

/// True when a search under `limits` may end early once its best move is settled: on
/// a clock only; not with a fixed move time (what is not spent is lost, and the kept
/// tree would be smaller for the next move), nor infinite (analysis) or with a playout
/// limit.
fn stops_when_settled(limits: &Limits) -> bool {
    limits.clock.time.iter().any(Option::is_some)
        && limits.movetime.is_none()
        && !limits.infinite
        && limits.nodes.is_none()
}

/// What every thread of one search shares.
struct Shared<'a> {
    tree: &'a Tree,
    limits: &'a Limits,
    stop: &'a StopFlag,
    budget: TimeBudget,
    /// Iterations begun (a thread claims one before running it).
    begun: Padded<AtomicU64>,
    /// Iterations finished (on a cache line of its own too: each iteration writes
    /// both, and the tree's nodes should not share their lines).
    done: Padded<AtomicU64>,
    /// Set by the first thread that sees a limit reached.
    halt: AtomicBool,
    /// What this search's playouts learned from each other, if used.
    replies: Option<LastGoodReply>,
}

impl Mcts {
    /// A tree for the current position of `game`, seeded with `seed`.
    pub fn new(game: &Game, seed: u64) -> Mcts {
        Mcts::with_pass(game, seed, true)
    }

    /// A tree whose root may not pass unless `allow_pass` (or no other move exists).
    pub fn with_pass(game: &Game, seed: u64, allow_pass: bool) -> Mcts {
        Mcts::with_excluded(game, seed, allow_pass, 0)
    }

    /// Like [`Mcts::with_pass`], but the root never tries the points in `excluded`
    /// (e.g. settled own territory); with nothing else left it passes.
    pub fn with_excluded(game: &Game, seed: u64, allow_pass: bool, excluded: u128) -> Mcts {
        let board = game.board();
        let root = FastBoard::from_board(board);
        // The root's children: every move the full rules allow but own eye-shaped points (unless
        // filling one saves an own chain in atari), and a pass.
        let color = board.to_move();
        let legal = game.legal_points(color) & !excluded;
        let mut root_cells: Vec<Cell> = bits(legal)
            .map(FastBoard::cell)
            .filter(|&c| !root.is_eye(c, color) || root.saves_own_chain_in_atari(c) || legal.count_ones() <= 1)
            .collect();
        if allow_pass || root_cells.is_empty() {
            root_cells.push(PASS);
        }
        Mcts {
            tree: None,
            komi: game.komi() as f32,
            seed,
            searches: 0,
            cap: move_cap(board.size()),
            root,
            root_cells,
            root_last: match game.moves().last() {
                Some((_, Move::Play(p))) => FastBoard::cell(*p),
                _ => PASS,
            },
            root_before: match game.moves().iter().rev().nth(1) {
                Some((_, Move::Play(p))) => FastBoard::cell(*p),
                _ => PASS,
            },
            settings: MctsSettings::default(),
            history: superko_history(game),
            situational: game.superko() == Superko::Situational,
            root_game: game.clone(),
            ownership: None,
            refused: None,
        }
    }

    /// Whether the root's only child is the pass: [`Mcts::with_excluded`] gives it the
    /// pass, even one not allowed, when nothing else is left (every other legal point
    /// excluded, or one of the mover's own eyes, which the root skips).
    pub fn root_passes_only(&self) -> bool {
        self.root_cells == [PASS]
    }

    /// The same tree with the root trying exactly `points` (own eyes included) and no
    /// pass: for a client that forbade the pass (KataGo's `avoidMoves`), when the
    /// root's own filter left it only the pass. `points` must be legal and not empty.
    pub fn with_root_points(mut self, points: u128) -> Mcts {
        debug_assert!(points != 0);
        self.root_cells = bits(points).map(FastBoard::cell).collect();
        self
    }

    /// A tree for `game`, as [`Mcts::with_excluded`] makes it, that keeps what this
    /// tree learned about it: when `game` continues this tree's game (same start and
    /// komi, its moves and then more), the subtree of the moves played since becomes
    /// the new tree, moved to the front of the same arena (tree reuse); otherwise,
    /// or if those moves leave the tree, it starts empty (only the used part of the
    /// arena is cleared). With other `settings` than this tree's, the arena is freed
    /// and the next search allocates a new one. The root's children are those the
    /// full rules allow now, keeping the statistics of the ones the tree had.
    pub fn reuse(mut self, game: &Game, seed: u64, allow_pass: bool, excluded: u128, settings: MctsSettings) -> Mcts {
        let mut next = Mcts::with_excluded(game, seed, allow_pass, excluded).with_settings(settings);
        if next.settings != self.settings {
            return next;
        }
        let Some(tree) = self.tree.take() else { return next };
        let old = self.root_game.moves();
        let continues = game.start() == self.root_game.start()
            && game.komi() == self.root_game.komi()
            && game.moves().len() >= old.len()
            && game.moves()[..old.len()] == *old;
        let mut node = Some(0);
        if continues {
            for &(_, m) in &game.moves()[old.len()..] {
                let cell = match m {
                    Move::Play(p) => FastBoard::cell(p),
                    Move::Pass => PASS,
                };
                node = node.and_then(|n| tree.child_with(n, cell));
            }
        }
        match node {
            Some(root) if continues => {
                tree.reroot(root);
                tree.index_transpositions(&next.root);
            }
            _ => tree.reset(),
        }
        next.tree = Some(tree);
        next.fit_root_children();
        next
    }

    /// Gives the root exactly [`Mcts::root_cells`] as children, with the statistics
    /// (and subtrees) of the children it already has for them.
    fn fit_root_children(&mut self) {
        let priors = self.root_priors();
        let Some(tree) = self.tree.as_ref() else { return };
        let old: Vec<usize> = tree.nodes[0].children().map_or(Vec::new(), |c| c.collect());
        // The root's moves are the full rules' (superko included), so none of them is
        // marked illegal, whatever the tree kept from before.
        for &i in &old {
            tree.nodes[i].illegal.store(false, Relaxed);
        }
        let same = old.len() == self.root_cells.len()
            && old.iter().zip(&self.root_cells).all(|(&i, &c)| tree.nodes[i].cell() == c);
        if same {
            return;
        }
        let keep: Vec<Option<usize>> =
            self.root_cells.iter().map(|&c| old.iter().copied().find(|&i| tree.nodes[i].cell() == c)).collect();
        tree.nodes[0].children.store(UNEXPANDED, Relaxed);
        if !tree.add_children(0, &self.root_cells, &priors) {
            // No room for a new block of root children: start afresh.
            tree.reset();
            tree.add_children(0, &self.root_cells, &priors);
            return;
        }
        let Some(block) = tree.nodes[0].children() else { return };
        for (slot, kept) in block.zip(keep) {
            if let Some(from) = kept {
                tree.copy_node(from, slot);
            }
        }
    }

    /// The same tree searched with `settings` (threads, node budget); set it before the
    /// first search.
    pub fn with_settings(mut self, settings: MctsSettings) -> Mcts {
        self.settings = MctsSettings { threads: settings.threads.max(1), ..settings };
        self
    }

    /// The settings searches run with.
    pub fn settings(&self) -> MctsSettings {
        self.settings
    }

    /// The arena for a search limited to `playouts`: each iteration expands at most
    /// one node (once it has been visited [`EXPAND_AFTER`] times) into at most one
    /// child per point and a pass.
    fn capacity(&self, playouts: Option<u64>) -> usize {
        let per_expansion = self.root.size() * self.root.size() + 1;
        let needed = playouts.map_or(usize::MAX, |n| {
            let expansions = (n as usize / EXPAND_AFTER as usize).saturating_add(1);
            expansions.saturating_mul(per_expansion).saturating_add(self.root_cells.len() + 1)
        });
        needed.min(self.settings.max_nodes).max(self.root_cells.len() + 1)
    }

    /// Children for a node inside the tree: playable points of the playout board (never
    /// an own true eye, unless filling it saves an own chain in atari), and a pass; with
    /// their priors after the node's move `last` when `priors`.
    fn expand(&self, tree: &Tree, node: usize, board: &FastBoard, moves: (Cell, Cell)) -> bool {
        let settings = &self.settings;
        let last = moves.0;
        let mut cells = [0 as Cell; 128];
        let mut values = [Prior::default(); 128];
        let mut n = 0;
        for c in board.empties() {
            if board.is_playable(c) || board.saves_own_chain_in_atari(c) {
                cells[n] = c;
                if settings.priors {
                    values[n] = prior(board, c, last);
                }
                n += 1;
            }
        }
        if settings.priors && settings.move_model && n > 0 {
            let ownership = self.ownership.as_ref();
            add_model_priors(built_in_model(), ownership, board, moves, &cells[..n], &mut values[..n]);
        }
        cells[n] = PASS;
        tree.add_children(node, &cells[..=n], &values[..=n])
    }

    /// Gives `node` (at the position `board`) the children block of the same position
    /// reached before by another order of moves, if the table has one; otherwise
    /// expands it ([`Mcts::expand`]) and enters the new block. A shared block keeps the
    /// priors it was made with (after the first path's last two moves).
    fn expand_or_share(&self, tree: &Tree, node: usize, board: &FastBoard, moves: (Cell, Cell)) -> bool {
        let key = board.position_key();
        if let Some(word) = tree.table.find(key) {
            tree.nodes[node].children.store(word, Release);
            return true;
        }
        if !self.expand(tree, node, board, moves) {
            return false;
        }
        tree.table.insert(key, tree.nodes[node].children.load(Relaxed));
        true
    }

    /// The priors of the root's children (a pass gets none).
    fn root_priors(&self) -> Vec<Prior> {
        let mut priors: Vec<Prior> = self
            .root_cells
            .iter()
            .map(|&c| {
                if c == PASS || !self.settings.priors { Prior::default() } else { prior(&self.root, c, self.root_last) }
            })
            .collect();
        if self.settings.priors && self.settings.move_model {
            // The points only: a pass gets no prior.
            let points: Vec<usize> = (0..self.root_cells.len()).filter(|&k| self.root_cells[k] != PASS).collect();
            let cells: Vec<Cell> = points.iter().map(|&k| self.root_cells[k]).collect();
            let mut values: Vec<Prior> = points.iter().map(|&k| priors[k]).collect();
            if !cells.is_empty() {
                let moves = (self.root_last, self.root_before);
                add_model_priors(built_in_model(), self.ownership.as_ref(), &self.root, moves, &cells, &mut values);
            }
            for (&k, v) in points.iter().zip(values) {
                priors[k] = v;
            }
        }
        priors
    }

    fn select(tree: &Tree, node: usize, children: std::ops::Range<usize>, exploration: f32) -> usize {
        let log = (tree.nodes[node].visits.load(Relaxed).max(1) as f32).ln();
        let mut best = children.start;
        let mut best_value = f32::MIN;
        for i in children {
            let child = &tree.nodes[i];
            if child.illegal.load(Relaxed) {
                continue;
            }
            let mut v = child.value(log, exploration);
            if child.cell() == PASS {
                // Passing is a last resort while the board still has moves.
                v -= PASS_PENALTY;
            }
            if v > best_value {
                best_value = v;
                best = i;
            }
        }
        best
    }

    /// One iteration: descend (counting visits), expand, play out, back up.
    fn iterate(&self, tree: &Tree, replies: Option<&LastGoodReply>, w: &mut Worker) {
        let mut board = self.root.clone();
        let mut depth = 0;
        let mut node = 0usize;
        let root_black = board.to_move() == Color::BLACK;
        let amaf = &mut w.amaf;
        amaf.fill(0);
        let moves = &mut w.moves;
        moves.clear();
        let mut visits_before = tree.nodes[0].visits.fetch_add(1, Relaxed);
        // Descend.
        loop {
            w.path[depth] = node as u32;
            depth += 1;
            if board.passes() >= 2 || depth >= MAX_DEPTH {
                break;
            }
            let children = match tree.nodes[node].children() {
                Some(children) => children,
                None => {
                    let claimed = visits_before >= EXPAND_AFTER
                        && tree.nodes[node].children.compare_exchange(UNEXPANDED, EXPANDING, Relaxed, Relaxed).is_ok();
                    // Not visited enough, being expanded by another thread, or no room
                    // left: play out from here.
                    let last = if node == 0 { self.root_last } else { tree.nodes[node].cell() };
                    let before = match depth {
                        1 => self.root_before,
                        2 => self.root_last,
                        _ => tree.nodes[w.path[depth - 2] as usize].cell(),
                    };
                    if !claimed || !self.expand_or_share(tree, node, &board, (last, before)) {
                        break;
                    }
                    match tree.nodes[node].children() {
                        Some(children) => children,
                        None => break,
                    }
                }
            };
            let child = Self::select(tree, node, children, self.settings.exploration);
            visits_before = tree.nodes[child].visits.fetch_add(1, Relaxed);
            let cell = tree.nodes[child].cell();
            let black = board.to_move() == Color::BLACK;
            if replies.is_some() {
                moves.push((cell, black));
            }
            if cell == PASS {
                board.pass();
            } else {
                if amaf[cell as usize] == 0 {
                    amaf[cell as usize] = if black { 1 } else { 2 };
                }
                board.play(cell);
                // Superko: a move that brings back a board of the game is illegal,
                // whatever the path (so a block of children shared by transposition
                // is right for every parent). It is marked so and this iteration is
                // undone.
                if !self.history.is_empty() && self.history.binary_search(&board.stones_key(self.situational)).is_ok() {
                    tree.nodes[child].illegal.store(true, Relaxed);
                    for &id in w.path[..depth].iter().chain([child as u32].iter()) {
                        tree.nodes[id as usize].visits.fetch_sub(1, Relaxed);
                    }
                    return;
                }
            }
            node = child;
        }
        // Play out, after the last two moves of the game and the tree.
        let start = (self.root_before, self.root_last);
        let context = match moves[..] {
            [.., (before, _), (last, _)] => (before, last),
            [(last, _)] => (self.root_last, last),
            [] => start,
        };
        let diff =
            playout_with(self.settings.policy, &mut board, &mut w.rng, self.cap, context, replies, |cell, black| {
                if amaf[cell as usize] == 0 {
                    amaf[cell as usize] = if black { 1 } else { 2 };
                }
                if replies.is_some() {
                    moves.push((cell, black));
                }
            });
        let black_wins = black_wins(diff, self.komi, &mut w.rng);
        if let Some(replies) = replies {
            replies.learn(start, moves, black_wins);
        }
        // Back up. The node at depth d holds a move by the player who moved at d-1.
        for (d, &id) in w.path[..depth].iter().enumerate() {
            let n = &tree.nodes[id as usize];
            // Mover of this node's move: the root's side for d = 1, alternating (passes
            // alternate too).
            let mover_black = if d % 2 == 1 { root_black } else { !root_black };
            if d > 0 && mover_black == black_wins {
                n.wins.fetch_add(1, Relaxed);
            }
            // RAVE: credit the children of this node whose move was later played by the
            // player to move here.
            if let Some(children) = n.children() {
                let to_move_black = if d % 2 == 0 { root_black } else { !root_black };
                let mark = if to_move_black { 1 } else { 2 };
                let credit = (1 << 32) | u64::from(to_move_black == black_wins);
                for child in &tree.nodes[children] {
                    let cell = child.cell();
                    if cell != PASS && amaf[cell as usize] == mark {
                        child.rave.fetch_add(credit, Relaxed);
                    }
                }
            }
        }
    }

    /// One thread's share of a search: iterations until a limit is reached.
    fn work(&self, shared: &Shared, mut w: Worker) {
        let limits = shared.limits;
        let max_playouts = limits.nodes.unwrap_or(u64::MAX);
        let no_limit = limits.nodes.is_none()
            && limits.movetime.is_none()
            && !limits.infinite
            && limits.clock.time.iter().all(Option::is_none);
        // A search on a clock may end as soon as the most visited root move cannot be
        // overtaken in the time left: the time saved stays on the clock for later moves.
        let timed = stops_when_settled(limits) && shared.budget.soft_limit().is_some();
        let mut mine = 0u64;
        while !shared.halt.load(Relaxed) {
            if shared.begun.fetch_add(1, Relaxed) >= max_playouts {
                break;
            }
            self.iterate(shared.tree, shared.replies.as_ref(), &mut w);
            let done = shared.done.fetch_add(1, Relaxed) + 1;
            mine += 1;
            if mine.is_multiple_of(64)
                && (shared.stop.is_stopped()
                    || shared.budget.hard_expired()
                    || (shared.budget.soft_expired() && !limits.infinite))
            {
                shared.halt.store(true, Relaxed);
            }
            // No limit given at all: a sensible default.
            if no_limit && done >= DEFAULT_PLAYOUTS {
                shared.halt.store(true, Relaxed);
            }
            if timed && mine.is_multiple_of(EARLY_STOP_CHECK) && best_is_settled(shared, done) {
                shared.halt.store(true, Relaxed);
            }
        }
    }

    /// Runs playouts within `limits` (`nodes` counts playouts) or until `stop`, on the
    /// settings' threads.
    pub fn search(&mut self, limits: &Limits, stop: &StopFlag, to_move: Color) -> MctsResult {
        let player = if to_move == Color::BLACK { crate::Player::One } else { crate::Player::Two };
        let budget = TimeBudget::new(limits, player, CLOCK_MOVES_LEFT);
        let start = Instant::now();
        let wanted = self.capacity(limits.nodes);
        if self.tree.as_ref().is_some_and(|t| t.nodes.len() < wanted) {
            // A kept tree too small for this search: start again.
            self.tree = None;
        }
        if self.ownership.is_none()
            && self.settings.priors
            && self.settings.move_model
            && built_in_model().uses_ownership()
        {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(splitmix64(self.seed ^ OWNERSHIP_SEED));
            self.ownership = Some(Ownership::measure(&self.root, OWNERSHIP_PLAYOUTS, &mut rng));
        }
        if self.tree.is_none() {
            let tree = self.allocate_tree(wanted);
            // The root's children always fit: the capacity counts them.
            tree.add_children(0, &self.root_cells, &self.root_priors());
            self.tree = Some(tree);
        }
        let Some(tree) = self.tree.as_ref() else { unreachable!("the tree was just made") };
        let shared = Shared {
            tree,
            limits,
            stop,
            budget,
            begun: Padded(AtomicU64::new(0)),
            done: Padded(AtomicU64::new(0)),
            halt: AtomicBool::new(false),
            replies: (self.settings.last_good_reply && self.settings.policy == Policy::Heavy).then(LastGoodReply::new),
        };
        self.searches += 1;
        let worker = |index: u64| Worker {
            rng: Xoshiro256PlusPlus::seed_from_u64(
                self.seed ^ splitmix64(index.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ self.searches),
            ),
            amaf: [0; 128],
            path: [0; MAX_DEPTH],
            moves: Vec::with_capacity(4 * MAX_DEPTH),
        };
        let this = &*self;
        std::thread::scope(|scope| {
            for index in 1..this.settings.threads {
                let (shared, w) = (&shared, worker(index as u64));
                scope.spawn(move || this.work(shared, w));
            }
            this.work(&shared, worker(0));
        });
        self.result(shared.done.load(Relaxed), start.elapsed())
    }

    /// Makes now the arena the next search would make for itself (sized for a search
    /// without a playout limit: [`MctsSettings::max_nodes`], or less when the memory
    /// is refused), with the root's children, and writes its transposition table once
    /// so that the table's pages, which a search reaches at random, are resident
    /// before a search begins (the nodes are written in order, as the tree grows).
    /// A tree with an arena that large already is left as it is. A UGI engine does
    /// this when asked `isready`, so that the first `go` does not pay for it.
    pub fn prepare(&mut self) {
        let wanted = self.capacity(None);
        if self.tree.as_ref().is_some_and(|t| t.nodes.len() >= wanted) {
            return;
        }
        // The old arena goes first: the two need not fit in memory together.
        self.tree = None;
        let tree = self.allocate_tree(wanted);
        tree.table.clear_all();
        tree.add_children(0, &self.root_cells, &self.root_priors());
        self.tree = Some(tree);
    }

    /// The arena's size in nodes and its address; `None` before the first search (or
    /// [`Mcts::prepare`]). The same address after [`Mcts::reuse`] and a search means
    /// the arena was kept, not made again.
    pub fn arena(&self) -> Option<(usize, usize)> {
        self.tree.as_ref().map(|t| (t.nodes.len(), t.nodes.as_ptr() as usize))
    }

    /// An arena of `wanted` nodes, or, when the memory is refused, of half as many and
    /// so on (noted in [`Mcts::refused_memory`]): a smaller tree searches worse but the
    /// search goes on. Aborts only when not even the root's children can be had.
    fn allocate_tree(&mut self, wanted: usize) -> Tree {
        let least = self.root_cells.len() + 1;
        let mut capacity = wanted.max(least);
        self.refused = None;
        loop {
            if let Some(tree) = Tree::try_new(capacity) {
                return tree;
            }
            let mib = (capacity.saturating_mul(NODE_AND_TABLE_BYTES) >> 20).max(1);
            self.refused.get_or_insert(AllocError { mib });
            if capacity <= least {
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<[Node; 128]>());
            }
            capacity = (capacity / 2).max(least);
        }
    }

    /// The memory refused to the tree of the last search, if any: it searched a
    /// smaller arena than its settings asked for.
    pub fn refused_memory(&self) -> Option<AllocError> {
        self.refused
    }

    fn result(&self, playouts: u64, elapsed: std::time::Duration) -> MctsResult {
        let Some(tree) = self.tree.as_ref() else { unreachable!("results come after a search") };
        let children = tree.nodes[0].children().unwrap_or(0..0);
        let mut moves: Vec<(Move, u32, f32)> =
            tree.nodes[children].iter().map(|n| (to_move(n.cell()), n.visits.load(Relaxed), n.win_rate())).collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        let (best, _, win_rate) = moves[0];
        // The principal variation: most visited children.
        let mut pv = Vec::new();
        let mut node = 0;
        while let Some(children) = tree.nodes[node].children() {
            if pv.len() >= 20 {
                break;
            }
            let Some(child) = children.max_by_key(|&i| tree.nodes[i].visits.load(Relaxed)) else { break };
            if tree.nodes[child].visits.load(Relaxed) == 0 {
                break;
            }
            pv.push(to_move(tree.nodes[child].cell()));
            node = child;
        }
        MctsResult { best, win_rate, playouts, elapsed, pv, root_moves: moves, nodes: tree.used() }
    }

    /// The line the tree expects after the root move `first`: `first`, then the most
    /// visited child at each step, at most `max_len` moves (empty if `first` is not a
    /// root move or nothing was searched yet). For analysis output, one line per root
    /// move.
    pub fn line_after(&self, first: Move, max_len: usize) -> Vec<Move> {
        let Some(tree) = self.tree.as_ref() else { return Vec::new() };
        let Some(mut node) =
            tree.nodes[0].children().and_then(|mut c| c.find(|&i| to_move(tree.nodes[i].cell()) == first))
        else {
            return Vec::new();
        };
        let mut line = vec![first];
        while let Some(children) = tree.nodes[node].children() {
            if line.len() >= max_len {
                break;
            }
            let Some(child) = children.max_by_key(|&i| tree.nodes[i].visits.load(Relaxed)) else { break };
            if tree.nodes[child].visits.load(Relaxed) == 0 {
                break;
            }
            line.push(to_move(tree.nodes[child].cell()));
            node = child;
        }
        line
    }
}

/// How often each point ends up owned by black, over `playouts` settling playouts
/// from `board` (1.0: always black, 0.0: always white; shared points count half),
/// indexed by point number.
pub fn ownership(board: &Board, playouts: usize, seed: u64) -> Vec<f32> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let start = FastBoard::from_board(board);
    let mut black = vec![0u32; 128];
    let cap = move_cap(board.size());
    for _ in 0..playouts {
        let mut b = start.clone();
        settling_playout(&mut b, &mut rng, cap);
        let (black_area, white_area) = area_owners(&b, board.mask());
        for p in board.points() {
            black[p.0 as usize] += 2 * (black_area & p.bit() != 0) as u32
                + (white_area & p.bit() == 0 && black_area & p.bit() == 0) as u32;
        }
    }
    (0..128).map(|i| black[i] as f32 / (2 * playouts.max(1)) as f32).collect()
}

/// The point of a GTP-facing move, for tests and callers.
pub fn point_of(m: Move) -> Option<Point> {
    match m {
        Move::Play(p) => Some(p),
        Move::Pass => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_the_system_refuses_is_searched_smaller() {
        // A node budget no memory can hold (32 PiB): the arena is halved until the
        // system gives it; the memory comes zeroed and untouched, and the search runs.
        let game = Game::new(Board::new(5), 0.5, Superko::Positional);
        let settings = MctsSettings { max_nodes: 1 << 50, ..MctsSettings::default() };
        let mut m = Mcts::new(&game, 1).with_settings(settings);
        assert_eq!(m.refused_memory(), None);
        // No limit at all: the default playouts (no time involved).
        let r = m.search(&Limits::default(), &StopFlag::new(), Color::BLACK);
        assert_eq!(r.playouts, 10_000);
        assert!(r.nodes > 1);
        let refused = m.refused_memory().expect("the first arena asked for is refused");
        assert_eq!(refused.mib, ((1usize << 50) * NODE_AND_TABLE_BYTES) >> 20);
        assert!(game.check(Color::BLACK, r.best).is_ok());
    }

    #[test]
    fn a_new_tree_is_all_default_nodes_and_free_entries() {
        let tree = Tree::try_new(5000).unwrap();
        assert_eq!(tree.nodes.len(), 5000);
        assert!(tree.nodes.iter().all(|n| n.cell() == 0 && n.children().is_none() && n.visits.load(Relaxed) == 0));
        assert!(tree.table.keys.iter().all(|k| k.load(Relaxed) == 0));
        assert!(tree.table.blocks.iter().all(|b| b.load(Relaxed) == UNEXPANDED));
        assert_eq!(tree.table.find(12345), None);
    }

    #[test]
    fn a_clear_frees_the_logged_entries_or_the_whole_table() {
        let table = Transpositions::for_nodes(8 * 1024).unwrap();
        assert_eq!((table.keys.len(), table.log.len()), (512, 64));
        // Fewer entries than the log holds: only those are written back.
        for key in 1..=40u64 {
            table.insert(key * 0x9E37_79B9, key << 16 | 3);
        }
        assert_eq!((table.len(), table.logged.load(Relaxed)), (40, 40));
        table.clear();
        assert_eq!((table.len(), table.logged.load(Relaxed)), (0, 0));
        assert!(table.blocks.iter().all(|b| b.load(Relaxed) == UNEXPANDED));
        assert_eq!(table.find(7 * 0x9E37_79B9), None);
        // More than the log holds: the whole table is cleared.
        for key in 1..=200u64 {
            table.insert(key * 0x9E37_79B9, key << 16 | 3);
        }
        assert!(table.logged.load(Relaxed) > table.log.len());
        table.clear();
        assert_eq!((table.len(), table.logged.load(Relaxed)), (0, 0));
        assert!(table.blocks.iter().all(|b| b.load(Relaxed) == UNEXPANDED));
    }

    #[test]
    fn a_prepared_arena_is_the_one_the_searches_use() {
        // `prepare` makes the arena a search without a playout limit would make (the
        // whole node budget), and the searches and moves after it keep that arena.
        let settings = MctsSettings { max_nodes: 200_000, ..MctsSettings::default() };
        let mut game = Game::new(Board::new(9), 7.5, Superko::Positional);
        let mut m = Mcts::new(&game, 5).with_settings(settings);
        assert_eq!(m.arena(), None);
        m.prepare();
        let (nodes, address) = m.arena().expect("an arena");
        assert_eq!(nodes, 200_000);
        m.prepare();
        assert_eq!(m.arena(), Some((nodes, address)), "a second prepare keeps the arena");
        let limits = Limits { nodes: Some(2000), ..Limits::default() };
        let r = m.search(&limits, &StopFlag::new(), Color::BLACK);
        assert_eq!(m.arena(), Some((nodes, address)));
        // The same search as without the preparation.
        let unprepared = search_with(&game, 5, 1, 2000);
        assert_eq!((&r.root_moves, &r.pv), (&unprepared.root_moves, &unprepared.pv));
        for _ in 0..3 {
            let color = game.board().to_move();
            let r = m.search(&limits, &StopFlag::new(), color);
            game.play(color, r.best).unwrap();
            m = m.reuse(&game, 5, true, 0, settings);
            assert_eq!(m.arena(), Some((nodes, address)), "kept across moves");
        }
        // Another position (a new game): the same arena, emptied.
        let other = Game::new(Board::new(9), 6.5, Superko::Positional);
        let mut m = m.reuse(&other, 5, true, 0, settings);
        m.search(&limits, &StopFlag::new(), Color::BLACK);
        assert_eq!(m.arena(), Some((nodes, address)));
    }

    #[test]
    fn captures_a_stone_in_atari() {
        // White stone on C3 in atari (liberty at C4 only) on 5×5; black to move wins it.
        let mut b = Board::new(5);
        for (r, c, col) in [(2, 2, Color::WHITE), (3, 2, Color::BLACK), (2, 1, Color::BLACK), (2, 3, Color::BLACK)] {
            b.set(Point::new(r, c), Some(col));
        }
        let game = Game::new(b, 0.5, Superko::Positional);
        let mut m = Mcts::new(&game, 1);
        let r = m.search(&Limits { nodes: Some(3000), ..Limits::default() }, &StopFlag::new(), Color::BLACK);
        assert_eq!(r.best, Move::Play(Point::new(1, 2)), "{:?}", &r.root_moves[..3]);
        assert!(r.win_rate > 0.6);
    }

    #[test]
    fn a_drawn_game_is_worth_half_to_either_side() {
        // 4x4, settled: Black owns the left half, White the right, each with two true
        // eyes (every empty point is one), so every playout ends 8-8. With komi 0 each
        // is a draw: half a win to the side to move, whichever it is (it was White's
        // win when a draw counted as `diff > komi` false).
        let mut b = Board::new(4);
        for (r, c) in [(0, 1), (1, 0), (1, 1), (2, 1), (3, 0), (3, 1)] {
            b.set(Point::new(r, c), Some(Color::BLACK));
            b.set(Point::new(r, 3 - c), Some(Color::WHITE));
        }
        let search = |to_move: Color, komi: f64| {
            let mut start = b;
            start.set_to_move(to_move);
            let mut m = Mcts::new(&Game::new(start, komi, Superko::Positional), 5);
            m.search(&Limits { nodes: Some(2000), ..Limits::default() }, &StopFlag::new(), to_move)
        };
        for to_move in [Color::BLACK, Color::WHITE] {
            let r = search(to_move, 0.0);
            assert_eq!(r.best, Move::Pass);
            assert!((r.win_rate - 0.5).abs() < 0.1, "{to_move:?} to move: {}", r.win_rate);
        }
        // A half point either way decides it.
        for (komi, black_rate) in [(-0.5, 1.0), (0.5, 0.0)] {
            let r = search(Color::BLACK, komi);
            assert!((r.win_rate - black_rate).abs() < 0.1, "komi {komi}: {}", r.win_rate);
        }
    }

    #[test]
    fn the_root_fills_an_own_eye_that_saves_a_chain_in_atari() {
        // 5×5: black C3's four neighbours are black, so C3 looks like an eye, but it is
        // the last liberty of black D3-E3 (white holds D2, E2, D4, E4): filling it joins
        // them to stones with liberties to spare. White would take them there.
        let mut b = Board::new(5);
        for (r, c) in [(1, 2), (3, 2), (2, 1), (2, 3), (2, 4)] {
            b.set(Point::new(r, c), Some(Color::BLACK));
        }
        for (r, c) in [(1, 3), (1, 4), (3, 3), (3, 4)] {
            b.set(Point::new(r, c), Some(Color::WHITE));
        }
        let game = Game::new(b, 0.5, Superko::Positional);
        let mut m = Mcts::new(&game, 1);
        let r = m.search(&Limits { nodes: Some(5000), ..Limits::default() }, &StopFlag::new(), Color::BLACK);
        assert_eq!(r.best, Move::Play(Point::new(2, 2)), "{:?}", &r.root_moves[..3]);
    }

    /// A 5-stone white chain in atari in the middle of black's wall on 9×9: black's only
    /// good move is to capture it at row 4, column 7.
    fn big_atari() -> Game {
        let mut b = Board::new(9);
        for c in 2..=6 {
            b.set(Point::new(4, c), Some(Color::WHITE));
            b.set(Point::new(3, c), Some(Color::BLACK));
            b.set(Point::new(5, c), Some(Color::BLACK));
        }
        b.set(Point::new(4, 1), Some(Color::BLACK));
        Game::new(b, 7.5, Superko::Positional)
    }

    /// Move 70 of a game against Pachi 12.90 (docs/go-move-model.md, seed 4579, game
    /// 28), black to move. Black C1 throws two stones in; White takes them at A1, and
    /// Black's retake at B1 would bring back the board of before C1: legal under simple
    /// ko, a repetition under superko. Black played C1 counting on the retake, and lost.
    fn superko_throw_in(superko: Superko) -> Game {
        let moves = "B9 J6 E5 C4 G5 C6 D7 C7 C8 D6 E6 D8 E7 E3 D4 D3 C3 C2 G3 B8 B3 B2 E2 F2 D2 D1 C5 B4 B5 D5 \
                     A4 E4 C4 B6 B1 E8 C9 D9 A2 E1 G2 F4 F5 G4 H4 F8 H5 A6 G1 E2 F3 F1 G7 G8 H8 F7 H7 H9 H3 A9 \
                     J8 A5 F6 G9 C8 J9 A7 B7 B9 C9";
        let mut game = Game::new(Board::new(9), 7.0, superko);
        for (i, m) in moves.split_whitespace().enumerate() {
            let color = if i % 2 == 0 { Color::BLACK } else { Color::WHITE };
            game.play(color, Move::from_gtp(m, 9).expect("a vertex")).expect("a legal move");
        }
        game
    }

    #[test]
    fn the_tree_knows_superko() {
        let at = |m: &str| {
            FastBoard::cell(match Move::from_gtp(m, 9).expect("a vertex") {
                Move::Play(p) => p,
                Move::Pass => unreachable!(),
            })
        };
        let line = |search: &Mcts| {
            let tree = search.tree.as_ref().expect("a tree");
            let c1 = tree.child_with(0, at("C1"));
            let a1 = c1.and_then(|n| tree.child_with(n, at("A1")));
            let b1 = a1.and_then(|n| tree.child_with(n, at("B1")));
            b1.map(|n| (tree.nodes[n].visits.load(Relaxed), tree.nodes[n].illegal.load(Relaxed)))
        };
        // The root may only throw in (every other point excluded, no pass), so every
        // playout goes through C1 and White's capture at A1; the tree marks the retake
        // illegal exactly when the full rules do.
        let only_c1 = |game: &Game| game.board().empty() & !FastBoard::point(at("C1")).bit();
        let limits = Limits { nodes: Some(5_000), ..Limits::default() };
        for superko in [Superko::Off, Superko::Positional, Superko::Situational] {
            let game = superko_throw_in(superko);
            // What the full rules say of the retake: a repetition under positional
            // superko only (the board comes back with the other side to move).
            let mut rules = game.clone();
            for (color, m) in [(Color::BLACK, "C1"), (Color::WHITE, "A1")] {
                rules.play(color, Move::from_gtp(m, 9).unwrap()).expect("legal");
            }
            let retake_is_legal = rules.check(Color::BLACK, Move::from_gtp("B1", 9).unwrap()).is_ok();
            assert_eq!(retake_is_legal, superko != Superko::Positional);
            let mut search = Mcts::with_excluded(&game, 7, false, only_c1(&game));
            let r = search.search(&limits, &StopFlag::new(), Color::BLACK);
            let (visits, illegal) = line(&search).expect("C1 A1 B1 expanded");
            if retake_is_legal {
                assert!(visits > 0 && !illegal, "{superko:?}: B1 has {visits} visits");
            } else {
                assert!(visits == 0 && illegal, "{superko:?}: B1 has {visits} visits");
            }
            // The principal variation is legal under the full rules.
            let mut replay = game.clone();
            for (i, &m) in r.pv.iter().enumerate() {
                let color = if i % 2 == 0 { Color::BLACK } else { Color::WHITE };
                replay.play(color, m).unwrap_or_else(|e| panic!("{superko:?}: move {i} of {:?}: {e}", r.pv));
            }
        }
    }

    #[test]
    fn a_search_on_a_clock_stops_once_the_best_move_cannot_change() {
        // Counted, not timed: after the same playouts (one thread, a fixed seed), the big
        // capture leads the second move by more visits (8 663 of 20 000) than a search
        // that has used 80 % of its soft limit could still give the second (5 000); on the
        // empty board no move leads that far (183). The decision only compares visits
        // with the playouts left at the speed so far, so it is the same on a loaded
        // machine.
        let playouts = 20_000;
        let forced = search_with(&big_atari(), 3, 1, playouts);
        assert_eq!(forced.best, Move::Play(Point::new(4, 7)));
        let open = search_with(&Game::new(Board::new(9), 7.5, Superko::Positional), 3, 1, playouts);
        let lead = |r: &MctsResult| {
            let mut visits: Vec<u32> = r.root_moves.iter().map(|m| m.1).collect();
            visits.sort_unstable_by(|a, b| b.cmp(a));
            visits[0] - visits.get(1).copied().unwrap_or(0)
        };
        let (secs, ms) = (std::time::Duration::from_secs, std::time::Duration::from_millis);
        // 80 % of the soft limit spent: 20 000 playouts so far, 5 000 still to come.
        let (elapsed, soft) = (secs(4), secs(5));
        assert!(lead_cannot_be_caught(lead(&forced), playouts, elapsed, soft), "lead {}", lead(&forced));
        assert!(!lead_cannot_be_caught(lead(&open), playouts, elapsed, soft), "lead {}", lead(&open));
        // At the start nothing is settled; once the soft limit is reached any lead is.
        assert!(!lead_cannot_be_caught(lead(&forced), playouts, ms(0), soft));
        assert!(!lead_cannot_be_caught(lead(&forced), 0, ms(10), soft));
        assert!(lead_cannot_be_caught(1, playouts, soft, soft));
        assert!(!lead_cannot_be_caught(0, playouts, soft, soft));
        // Only a search on a clock ends early: a fixed move time, a playout limit and
        // analysis are spent whole.
        let clock = crate::Clock { time: [Some(secs(160)), Some(secs(160))], ..Default::default() };
        let on_clock = Limits { clock, ..Limits::default() };
        assert!(stops_when_settled(&on_clock));
        assert!(!stops_when_settled(&Limits { movetime: Some(secs(1)), ..on_clock }));
        assert!(!stops_when_settled(&Limits { nodes: Some(1000), ..on_clock }));
        assert!(!stops_when_settled(&Limits { infinite: true, ..on_clock }));
        assert!(!stops_when_settled(&Limits::movetime(secs(1))));
        // A fixed move time is spent whole: load can only make the search longer.
        let movetime = ms(300);
        let r = Mcts::new(&big_atari(), 3).search(&Limits::movetime(movetime), &StopFlag::new(), Color::BLACK);
        assert_eq!(r.best, Move::Play(Point::new(4, 7)));
        assert!(r.elapsed > movetime.mul_f64(0.9), "{:?} of a fixed move time", r.elapsed);
    }

    fn search_with(game: &Game, seed: u64, threads: usize, playouts: u64) -> MctsResult {
        let mut m = Mcts::new(game, seed).with_settings(MctsSettings { threads, ..MctsSettings::default() });
        m.search(&Limits { nodes: Some(playouts), ..Limits::default() }, &StopFlag::new(), game.board().to_move())
    }

    #[test]
    fn one_thread_with_a_fixed_seed_is_deterministic() {
        let game = Game::new(Board::new(9), 7.5, Superko::Positional);
        let a = search_with(&game, 5, 1, 3000);
        let b = search_with(&game, 5, 1, 3000);
        assert_eq!(a.root_moves, b.root_moves);
        assert_eq!(a.pv, b.pv);
        let c = search_with(&game, 6, 1, 3000);
        assert_ne!(a.root_moves, c.root_moves, "another seed, another search");
    }

    #[test]
    fn two_threads_find_the_forced_moves_one_thread_finds() {
        let mut small = Board::new(5);
        for (r, c, col) in [(2, 2, Color::WHITE), (3, 2, Color::BLACK), (2, 1, Color::BLACK), (2, 3, Color::BLACK)] {
            small.set(Point::new(r, c), Some(col));
        }
        let cases = [(Game::new(small, 0.5, Superko::Positional), Point::new(1, 2)), (big_atari(), Point::new(4, 7))];
        for (game, answer) in cases {
            let color = game.board().to_move();
            let legal = game.legal_points(color);
            for threads in [1, 2] {
                let r = search_with(&game, 3, threads, 6000);
                assert_eq!(r.best, Move::Play(answer), "{threads} threads: {:?}", &r.root_moves[..3]);
                assert_eq!(r.playouts, 6000, "the playout limit is exact");
                assert!(r.win_rate > 0.6);
                for (m, _, _) in &r.root_moves {
                    assert!(point_of(*m).is_none_or(|p| legal & p.bit() != 0), "{m:?} is illegal");
                }
                let visits: u64 = r.root_moves.iter().map(|m| u64::from(m.1)).sum();
                assert_eq!(visits, 6000, "every playout went through one root move");
            }
        }
    }

    #[test]
    fn the_node_budget_is_respected() {
        let game = Game::new(Board::new(9), 7.5, Superko::Positional);
        let settings = MctsSettings { threads: 2, max_nodes: 3000, ..MctsSettings::default() };
        let mut m = Mcts::new(&game, 1).with_settings(settings);
        let r = m.search(&Limits { nodes: Some(20_000), ..Limits::default() }, &StopFlag::new(), Color::BLACK);
        assert!(r.nodes <= 3000 && r.nodes > 1000, "{} nodes", r.nodes);
        assert_eq!(r.playouts, 20_000);
        assert!(matches!(r.best, Move::Play(_)));
    }

    /// The visits of the children of `node`, by cell.
    fn child_visits(tree: &Tree, node: usize) -> Vec<(Cell, u32)> {
        let mut v: Vec<(Cell, u32)> = tree.nodes[node]
            .children()
            .map_or(Vec::new(), |c| c.map(|i| (tree.nodes[i].cell(), tree.nodes[i].visits.load(Relaxed))).collect());
        v.sort_unstable();
        v
    }

    #[test]
    fn the_subtree_after_two_moves_is_kept_and_the_rest_cleared() {
        let mut game = Game::new(Board::new(9), 7.5, Superko::Positional);
        let settings = MctsSettings::default();
        let mut m = Mcts::new(&game, 2).with_settings(settings);
        let limits = Limits { nodes: Some(4000), ..Limits::default() };
        let r = m.search(&limits, &StopFlag::new(), Color::BLACK);
        let Move::Play(first) = r.best else { panic!("a pass on the empty board") };
        let tree = m.tree.as_ref().unwrap();
        let mine = tree.child_with(0, FastBoard::cell(first)).unwrap();
        let (reply_cell, _) = child_visits(tree, mine).into_iter().max_by_key(|c| c.1).unwrap();
        let reply = tree.child_with(mine, reply_cell).unwrap();
        let kept_visits = tree.nodes[reply].visits.load(Relaxed);
        let kept_children = child_visits(tree, reply);
        let used_before = tree.used();
        assert!(kept_visits > 10 && !kept_children.is_empty(), "{kept_visits} visits");

        game.play(Color::BLACK, Move::Play(first)).unwrap();
        game.play(Color::WHITE, to_move(reply_cell)).unwrap();
        let mut m = m.reuse(&game, 3, true, 0, settings);
        let tree = m.tree.as_ref().unwrap();
        assert_eq!(tree.nodes[0].visits.load(Relaxed), kept_visits);
        assert_eq!(child_visits(tree, 0), kept_children, "the root's children and their statistics");
        let used = tree.used();
        assert!(used < used_before, "{used} of {used_before} nodes kept");
        assert!(tree.nodes[used..used_before].iter().all(|n| n.visits.load(Relaxed) == 0 && n.cell() == 0));
        // Every kept child block lies inside the used part.
        for n in &tree.nodes[..used] {
            if let Some(c) = n.children() {
                assert!(c.end <= used);
            }
        }
        let kept_sum: u32 = kept_children.iter().map(|c| c.1).sum();
        let r = m.search(&limits, &StopFlag::new(), Color::BLACK);
        let sum: u32 = r.root_moves.iter().map(|m| m.1).sum();
        assert_eq!(sum, kept_sum + 4000, "the new playouts add to the kept ones");
    }

    #[test]
    fn another_game_starts_an_empty_tree_and_the_budget_holds_across_moves() {
        let settings = MctsSettings { threads: 2, max_nodes: 3000, ..MctsSettings::default() };
        let limits = Limits { nodes: Some(5000), ..Limits::default() };
        let mut game = Game::new(Board::new(9), 7.5, Superko::Positional);
        let mut m = Mcts::new(&game, 1).with_settings(settings);
        for _ in 0..6 {
            let color = game.board().to_move();
            let r = m.search(&limits, &StopFlag::new(), color);
            assert!(r.nodes <= 3000, "{} nodes", r.nodes);
            game.play(color, r.best).unwrap();
            m = m.reuse(&game, 1, true, 0, settings);
        }
        // A game that does not continue this one: nothing is kept.
        let other = Game::new(Board::new(9), 6.5, Superko::Positional);
        let m = m.reuse(&other, 1, true, 0, settings);
        let tree = m.tree.as_ref().unwrap();
        assert_eq!(tree.nodes[0].visits.load(Relaxed), 0);
        assert_eq!(tree.used(), 1 + m.root_cells.len());
        assert!(tree.nodes[tree.used()..].iter().all(|n| n.visits.load(Relaxed) == 0));
    }

    #[test]
    fn reused_searches_with_one_thread_are_deterministic() {
        let run = || {
            let mut game = Game::new(Board::new(9), 7.5, Superko::Positional);
            let mut m = Mcts::new(&game, 9);
            let mut moves = Vec::new();
            for _ in 0..4 {
                let color = game.board().to_move();
                let r = m.search(&Limits { nodes: Some(1500), ..Limits::default() }, &StopFlag::new(), color);
                moves.push(r.root_moves.clone());
                game.play(color, r.best).unwrap();
                m = m.reuse(&game, 9, true, 0, MctsSettings::default());
            }
            moves
        };
        assert_eq!(run(), run());
    }

    /// Every expanded node reachable from the root with its position.
    fn expanded_positions(tree: &Tree, root: &FastBoard) -> Vec<(usize, FastBoard)> {
        let mut out = Vec::new();
        tree.for_each_expanded(root, |node, board| out.push((node, board.clone())));
        out
    }

    /// Transpositions share one block of children, only between equal positions, and
    /// the table is rebuilt for the subtree kept after a move.
    #[test]
    fn transposed_move_orders_share_their_children() {
        let mut game = Game::new(Board::new(5), 0.5, Superko::Positional);
        let mut m = Mcts::new(&game, 4);
        m.search(&Limits { nodes: Some(20_000), ..Limits::default() }, &StopFlag::new(), Color::BLACK);
        let tree = m.tree.as_ref().unwrap();
        let mut by_block: std::collections::HashMap<usize, Vec<&FastBoard>> = std::collections::HashMap::new();
        let positions = expanded_positions(tree, &m.root);
        for (node, board) in &positions {
            by_block.entry(tree.nodes[*node].children().unwrap().start).or_default().push(board);
        }
        let mut shared = 0;
        for boards in by_block.values() {
            for b in &boards[1..] {
                assert_eq!(
                    (b.stone_sets(), b.to_move(), b.ko()),
                    (boards[0].stone_sets(), boards[0].to_move(), boards[0].ko())
                );
            }
            shared += usize::from(boards.len() > 1);
        }
        assert!(shared > 10, "{shared} blocks shared by transpositions among {}", by_block.len());

        // Keep the subtree after the best move and its most visited reply: every kept
        // position but the root is in the table again, with its block.
        let first = m.result(0, std::time::Duration::ZERO).pv;
        for (i, &mv) in first[..2].iter().enumerate() {
            let color = if i == 0 { Color::BLACK } else { Color::WHITE };
            game.play(color, mv).unwrap();
        }
        let m = m.reuse(&game, 4, true, 0, MctsSettings::default());
        let tree = m.tree.as_ref().unwrap();
        let kept = expanded_positions(tree, &m.root);
        assert!(kept.len() > 10, "{} kept nodes", kept.len());
        let block_of = |node: usize| tree.nodes[node].children.load(Relaxed);
        let position_of_block: std::collections::HashMap<u64, &FastBoard> =
            kept.iter().map(|(node, board)| (block_of(*node), board)).collect();
        for (_, board) in &kept[1..] {
            let block = tree.table.find(board.position_key()).expect("a kept position is in the table");
            let found = position_of_block[&block];
            assert_eq!(
                (found.stone_sets(), found.to_move(), found.ko()),
                (board.stone_sets(), board.to_move(), board.ko())
            );
        }
    }

    #[test]
    fn ownership_of_a_settled_board() {
        // A finished game: black walls on columns b-c, white on d, territories on a and
        // e; a lone white stone inside black's area is dead.
        let mut b = Board::new(5);
        for r in 0..5 {
            b.set(Point::new(r, 1), Some(Color::BLACK));
            b.set(Point::new(r, 2), Some(Color::BLACK));
            b.set(Point::new(r, 3), Some(Color::WHITE));
        }
        b.set(Point::new(2, 0), Some(Color::WHITE));
        // White owns its lone stone's point in almost no playout; every other stone
        // keeps its point.
        let own = ownership(&b, 400, 3);
        let other_share =
            |p: Point| if b.at(p) == Some(Color::BLACK) { 1.0 - own[p.0 as usize] } else { own[p.0 as usize] };
        let lost: Vec<Point> = b.points().filter(|&p| b.at(p).is_some() && other_share(p) > 0.8).collect();
        assert_eq!(lost, vec![Point::new(2, 0)]);
    }
}
