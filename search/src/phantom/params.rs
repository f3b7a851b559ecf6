//! The numeric tunables of the Phantom Go players, gathered in one place (as
//! Viridithas gathers its search parameters, and as [`crate::go::params`] does for
//! Go): the sampler of hidden stones ([`super::belief`]), the budget every player
//! shares (`choice.rs`), the belief-state and combined players ([`super::player`]) and
//! the information-set search ([`super::ismcts`]). Each constant's doc says what it
//! sets and what was measured to choose it; "hand-set, not measured" where nothing
//! was. Board sizes, the pass's cell and other structural numbers stay beside their
//! code, and so do the seeds (any value does).
//!
//! The measurements are in docs/phantomgo.md (CCGC rules, komi 7.5).

// ---------------------------------------------------------------------------------
// The sampler of hidden stones (belief.rs).
// ---------------------------------------------------------------------------------

/// Attempts at a sample that explains every refused point before one that leaves some
/// unexplained is returned. Hand-set, not measured.
pub(crate) const ATTEMPTS: usize = 24;

/// Weight of a point on the edge, in thousandths of a point on the third line or
/// above. Fitted with [`SECOND_LINE_WEIGHT`], [`CONTACT_FACTOR`] and [`SHAPE_FACTOR`]
/// (2026-11-26) so that samples match the hidden stones of 1 542 positions of 80 CCGC
/// games between the project's players (`tests/data/phantom/hidden_stones.txt`): in
/// the games 84.5 % of the hidden stones touch another of their colour, 69.1 % one of
/// the viewer's stones and 23.9 % stand on the edge; the earlier weights (edge 0.35,
/// contact ×2, shape ×1.5) drew 71.9 %, 58.4 % and 28.0 %, these 84.2 %, 68.6 % and
/// 23.9 % (`cargo test --release -p search --test phantom_sampler -- --nocapture`).
/// The MO-ISMCTS with these weights against it without them: 11–9 at 200 ms a try
/// (docs/phantomgo.md).
pub(crate) const EDGE_WEIGHT: u32 = 400;

/// Weight of a point on the second line, in thousandths of a point on the third line
/// or above. Fitted with [`EDGE_WEIGHT`] (see there).
pub(crate) const SECOND_LINE_WEIGHT: u32 = 800;

/// A point next to an own stone is this many times likelier to hold a hidden stone.
/// Fitted with [`EDGE_WEIGHT`] (see there).
pub(crate) const CONTACT_FACTOR: u32 = 7;

/// A point next to an opponent stone already drawn becomes this many times likelier.
/// Fitted with [`EDGE_WEIGHT`] (see there).
pub(crate) const SHAPE_FACTOR: u32 = 5;

// ---------------------------------------------------------------------------------
// What every player shares (choice.rs).
// ---------------------------------------------------------------------------------

/// Samples drawn at least, time permitting. Hand-set, not measured.
pub(crate) const MIN_SAMPLES: u32 = 4;

/// How much better the pass must do on the samples than the best candidate to be
/// chosen (by the tree searches, and by the combined player's flat part when the
/// belief search proposes a pass). Hand-set, not measured as a value; the check itself
/// came after the belief search's own pass rule, with half the time, passed twice in
/// the opening of the combined player's first 1 s game (commit 4d885d1,
/// docs/phantomgo.md).
pub(crate) const PASS_MARGIN: f32 = 0.15;

/// A point's (or a child's) mean share of the visits is taken over at least
/// 1/`SCORE_FLOOR_DIVISOR` of the samples (the belief search) or of the playouts (the
/// information-set search), so that a point free on few samples alone does not win by
/// chance. Hand-set, not measured.
pub(crate) const SCORE_FLOOR_DIVISOR: u32 = 5;

/// UCB exploration constant of Phantom Go's searches (the information-set search and
/// the Go trees of the belief search on sampled boards): the Go search's hand-set value
/// before it was measured (0.25), kept when the Go search's changed
/// ([`crate::go::params::EXPLORATION`]); not measured for Phantom Go, whose players
/// were tuned and measured with it.
pub(crate) const PHANTOM_EXPLORATION: f32 = 0.25;

// ---------------------------------------------------------------------------------
// The belief-state and combined players (player.rs).
// ---------------------------------------------------------------------------------

/// Playouts of the Go MCTS on each sampled board: this many per candidate, within
/// [[`MIN_PER_SAMPLE`], [`MAX_PER_SAMPLE`]] (enough for the tree to tell the moves
/// apart). Against it at 150 ms a try (belief player, seed 35, 20 games each), two
/// scratch builds lost: heavy playouts with a third of the playouts a sample 0–20,
/// light playouts with twice the playouts a sample (half the samples) 3–17
/// (docs/phantomgo.md).
pub(crate) const PLAYOUTS_PER_CANDIDATE: u64 = 12;

/// The fewest playouts on a sampled board. See [`PLAYOUTS_PER_CANDIDATE`]; hand-set,
/// measured only with it.
pub(crate) const MIN_PER_SAMPLE: u64 = 256;

/// The most playouts on a sampled board. See [`PLAYOUTS_PER_CANDIDATE`]; hand-set,
/// measured only with it.
pub(crate) const MAX_PER_SAMPLE: u64 = 1024;

/// The belief search's best candidates among which the combined player's flat
/// Monte-Carlo decides (five candidates instead of sixty: about twelve times the
/// playouts each). Hand-set; the combined player with it beat flat Monte-Carlo 12–3 at
/// 1 s a try and 25–7 at 500 ms (commit e658371, docs/phantomgo.md); no other count
/// measured.
pub const FINALISTS: usize = 5;

/// The share of the combined player's time (or playouts) that goes to the belief
/// search; flat Monte-Carlo on the finalists gets the rest. Hand-set, measured only
/// with [`FINALISTS`].
pub(crate) const BELIEF_SHARE: f64 = 0.5;

/// Playouts a search without any limit (of playouts, time or a clock) runs. Hand-set,
/// not measured.
pub const DEFAULT_PLAYOUTS: u64 = 20_000;

/// The moves left that a clock's time is shared over: the try's candidates divided by
/// this, at least [`MIN_MOVES_LEFT`]. Hand-set, not measured.
pub(crate) const CANDIDATES_PER_MOVE_LEFT: u32 = 3;

/// The fewest moves left that a clock's time is shared over (see
/// [`CANDIDATES_PER_MOVE_LEFT`]). Hand-set, not measured.
pub(crate) const MIN_MOVES_LEFT: u32 = 10;

// ---------------------------------------------------------------------------------
// The information-set search (ismcts.rs).
// ---------------------------------------------------------------------------------

/// Nodes the trees may hold in all (28 bytes each): beyond, iterations go on through
/// the trees as they stand. Set for memory, not strength: reserved at the start and
/// capped at 500 000 instead of 800 000, a 5 s search's peak fell from 59 MiB (the
/// vectors doubling) to 30 MB (commit 6a8ac86, docs/phantomgo.md).
pub const MAX_NODES: usize = 500_000;

/// Visits a node gets before its children are made. More than the Go MCTS's
/// [`crate::go::params::EXPAND_AFTER`] (2): an expansion here adds a child for every
/// point but the view's own stones (up to 81 nodes), whatever the sampled board lets
/// be played. Hand-set, not measured.
pub(crate) const EXPAND_AFTER: u32 = 8;

/// Samples kept for reuse; until the pool is full, every other iteration draws a new
/// one (after the first [`FRESH_SAMPLES_FIRST`], which all do). Hand-set, not
/// measured.
pub(crate) const POOL: usize = 2048;

/// The first iterations of a search each draw a new sample (see [`POOL`]). Hand-set,
/// not measured.
pub(crate) const FRESH_SAMPLES_FIRST: usize = 64;
