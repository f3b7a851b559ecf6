//! The search tree: its nodes (atomic statistics shared by every thread), the arena
//! that hands out their children in blocks, and the transposition table through which
//! positions reached by different move orders share one block.

use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, AtomicUsize};

use bitboards::go::{Cell, FastBoard};

use crate::go::prior::Prior;
use crate::tt::try_zeroed_slice;

/// Cell 0 stands for a pass in the tree (it is off the board).
pub(super) const PASS: Cell = 0;

/// Children word of a node nobody has expanded yet.
pub(super) const UNEXPANDED: u64 = 0;
/// Children word of a node a thread is expanding (or that found the arena full).
pub(super) const EXPANDING: u64 = 1;

/// Bytes of one tree node (for sizing the tree from a memory budget).
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

/// Bytes a node costs with its share of the transposition table (under two bytes) and
/// of the table's log of claimed entries (under a sixteenth of a byte), rounded up.
pub(super) const NODE_AND_TABLE_BYTES: usize = NODE_BYTES + 3;

/// One tree node: the move that leads to it and its statistics.
#[derive(Default)]
pub(super) struct Node {
    pub(super) cell: AtomicU8,
    /// Virtual visits from the prior (set when the node is created).
    pub(super) prior_visits: AtomicU8,
    /// Virtual wins among them.
    pub(super) prior_wins: AtomicU8,
    /// Visits, counted on the way down (virtual loss until the result is backed up).
    pub(super) visits: AtomicU32,
    /// Wins for the player who made this node's move.
    pub(super) wins: AtomicU32,
    /// RAVE visits (high 32 bits) and wins (low 32 bits) in one word, so that the
    /// back-up credits both with one atomic addition.
    pub(super) rave: AtomicU64,
    /// [`UNEXPANDED`], [`EXPANDING`], or `first_child << 16 | child_count`.
    pub(super) children: AtomicU64,
    /// Set once playing this node's move was found to repeat a board of the game
    /// (superko): the selection never takes it again.
    pub(super) illegal: AtomicBool,
}

impl Node {
    pub(super) fn cell(&self) -> Cell {
        self.cell.load(Relaxed)
    }

    /// The range of the children, once expanded.
    #[inline]
    pub(super) fn children(&self) -> Option<std::ops::Range<usize>> {
        let word = self.children.load(Acquire);
        (word > EXPANDING).then(|| {
            let first = (word >> 16) as usize;
            first..first + (word & 0xFFFF) as usize
        })
    }

    pub(super) fn win_rate(&self) -> f32 {
        let visits = self.visits.load(Relaxed);
        if visits > 0 { self.wins.load(Relaxed) as f32 / visits as f32 } else { 0.0 }
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
pub(super) struct Transpositions {
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
    pub(super) fn find(&self, position: u64) -> Option<u64> {
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
    pub(super) fn insert(&self, position: u64, word: u64) {
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
    pub(super) fn clear_all(&self) {
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
pub(super) struct Tree {
    pub(super) nodes: Box<[Node]>,
    used: AtomicUsize,
    pub(super) table: Transpositions,
}

impl Tree {
    /// An empty arena of `capacity` nodes with its table, or `None` when the memory is
    /// refused. The memory comes zeroed (all-zero nodes are `Node::default()`) and
    /// costs resident memory only as the search writes it, so a large `Hash` costs
    /// only what the searches use.
    pub(super) fn try_new(capacity: usize) -> Option<Tree> {
        let capacity = capacity.max(1);
        // SAFETY: a node is atomics only; zero is the default of each.
        let nodes = unsafe { try_zeroed_slice::<Node>(capacity)? };
        Some(Tree { nodes, used: AtomicUsize::new(1), table: Transpositions::for_nodes(capacity)? })
    }

    /// Gives `cells` to `node` as its children, with their priors (none if
    /// `priors` is empty); false when the arena is full.
    pub(super) fn add_children(&self, node: usize, cells: &[Cell], priors: &[Prior]) -> bool {
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

    pub(super) fn used(&self) -> usize {
        self.used.load(Relaxed).min(self.nodes.len())
    }

    /// Copies every field of node `from` onto node `to`.
    pub(super) fn copy_node(&self, from: usize, to: usize) {
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
    pub(super) fn reset(&self) {
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
    pub(super) fn reroot(&self, new_root: usize) {
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
    pub(super) fn index_transpositions(&self, root: &FastBoard) {
        self.for_each_expanded(root, |node, board| {
            if node != 0 {
                self.table.insert(board.position_key(), self.nodes[node].children.load(Relaxed));
            }
        });
    }

    /// The child of `node` whose move is `cell`, if the node is expanded and has one.
    pub(super) fn child_with(&self, node: usize, cell: Cell) -> Option<usize> {
        self.nodes[node].children()?.find(|&i| self.nodes[i].cell() == cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::mcts::{Mcts, MctsSettings};
    use crate::limits::{Limits, StopFlag};
    use bitboards::go::{Board, Color, Game, Superko};

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
}
