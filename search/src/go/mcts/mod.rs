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

mod expand;
mod ownership;
mod result;
mod reuse;
mod select;
mod stopping;
mod tree;
mod worker;

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

use bitboards::go::{Cell, Color, FastBoard, Game, Move, Superko, bits};
use bitboards::rng::splitmix64;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;

use self::stopping::clock_budget;
use self::tree::{NODE_AND_TABLE_BYTES, Node, PASS, Tree};
use self::worker::{MAX_DEPTH, Worker};
use super::last_good_reply::LastGoodReply;
use super::move_model::{MODEL_OWNERSHIP_PLAYOUTS, Ownership, built_in_model};
/// The default playout count, re-exported where the engine looks for it.
pub use super::params::{DEFAULT_PLAYOUTS, MOVE_MODEL_BY_DEFAULT};
use super::params::{EXPAND_AFTER, EXPLORATION, LAST_GOOD_REPLY};
use super::playout::{Policy, move_cap};
use crate::limits::{Limits, StopFlag, TimeBudget};
use crate::tt::AllocError;

pub use self::ownership::ownership;
pub use self::result::{MctsResult, point_of};
pub(crate) use self::select::rave_weight;
pub use self::stopping::clock_moves_left;
pub use self::tree::NODE_BYTES;

/// Mixed into a tree's seed for the root's ownership playouts.
const OWNERSHIP_SEED: u64 = 0x726f_6f74_6f77_6e73;

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

/// A value alone on its cache lines (128 bytes: adjacent-line prefetching pairs lines).
#[repr(align(128))]
struct Padded<T>(T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
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

    /// The same tree searched with `settings` (threads, node budget); set it before the
    /// first search.
    pub fn with_settings(mut self, settings: MctsSettings) -> Mcts {
        self.settings = MctsSettings { threads: settings.threads.max(1), ..settings };
        self
    }

    /// The time a search for `to_move` under `limits` may take from now: on a clock, a
    /// slice of the time left for each own move still to come on this board
    /// ([`clock_moves_left`]), up to two while the root is unclear (in a search of its
    /// own; [`crate::go::player::search_in_steps`] ends at one).
    pub fn budget(&self, limits: &Limits, to_move: Color) -> TimeBudget {
        let player = if to_move == Color::BLACK { crate::Player::One } else { crate::Player::Two };
        let size = self.root.size();
        clock_budget(limits, player, self.root.empty_count(), size * size)
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

    /// Runs playouts within `limits` (`nodes` counts playouts) or until `stop`, on the
    /// settings' threads.
    pub fn search(&mut self, limits: &Limits, stop: &StopFlag, to_move: Color) -> MctsResult {
        let budget = self.budget(limits, to_move);
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
            self.ownership = Some(Ownership::measure(&self.root, MODEL_OWNERSHIP_PLAYOUTS, &mut rng));
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitboards::go::{Board, Point};

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
    pub(super) fn big_atari() -> Game {
        let mut b = Board::new(9);
        for c in 2..=6 {
            b.set(Point::new(4, c), Some(Color::WHITE));
            b.set(Point::new(3, c), Some(Color::BLACK));
            b.set(Point::new(5, c), Some(Color::BLACK));
        }
        b.set(Point::new(4, 1), Some(Color::BLACK));
        Game::new(b, 7.5, Superko::Positional)
    }

    pub(super) fn search_with(game: &Game, seed: u64, threads: usize, playouts: u64) -> MctsResult {
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
}
