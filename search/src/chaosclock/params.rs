//! The numeric tunables of the Chaos Clock player and proof search, gathered in one
//! place (as Viridithas gathers its search parameters, and as [`crate::go::params`]
//! and `othello/params.rs` do): the player's budget and evaluation
//! ([`super::player`]), the proof search's horizons and budgets ([`super::solver`])
//! and the clock's share ([`Game`](crate::Game) for a Chaos Clock record). Each
//! constant's doc says what it sets and what was measured to choose it; nothing of the
//! player has been measured yet, so every value here is hand-set (the evaluation after
//! seed 003's strategy notes: docs/chaosclock.md, "Player"). The memory a state or a
//! fact takes ([`super::prove::STATE_BYTES`], [`super::solver::FACT_BYTES`]), the
//! tables' layouts and the move order stay beside their code.

// ---------------------------------------------------------------------------------
// The player's budget (player.rs, game.rs).
// ---------------------------------------------------------------------------------

/// The nodes a move may search when the protocol sets no node budget (and the search
/// is not infinite). Hand-set, not measured.
pub const DEFAULT_NODES: u64 = 2_000_000;

/// The deepest heuristic search when the protocol sets no depth. Hand-set, not
/// measured.
pub const DEFAULT_DEPTH: u32 = 12;

/// The player's proof search gets 1/`SOLVER_SHARE_DIVISOR` of the move's time and of
/// its nodes, the heuristic search the rest. Hand-set, not measured.
pub(crate) const SOLVER_SHARE_DIVISOR: u32 = 3;

/// The moves left that a clock's time is shared over
/// ([`Game::moves_left_estimate`](crate::Game::moves_left_estimate)). Hand-set, not
/// measured.
pub(crate) const CLOCK_MOVES_LEFT: u32 = 20;

// ---------------------------------------------------------------------------------
// The evaluation (player.rs), in the evaluation's units: a side's progress counts
// pieces (0 to 6), and the outcomes stand above and below every position's value.
// Hand-set after seed 003's notes, none measured.
// ---------------------------------------------------------------------------------

/// Value of a won game for the winner. Hand-set, not measured.
pub(crate) const WIN_VALUE: f32 = 100.0;

/// Value of a game both sides win. Hand-set, not measured.
pub(crate) const BOTH_WIN_VALUE: f32 = 60.0;

/// Value of a game both sides lose (or a draw). Hand-set, not measured.
pub(crate) const BOTH_LOSE_VALUE: f32 = 10.0;

/// Value of a lost game for the loser. Hand-set, not measured.
pub(crate) const LOSS_VALUE: f32 = 0.0;

/// Progress of a piece in hand, in pieces (a fixed piece counts 1): it can be placed
/// whenever its point is free of a fixed piece. Hand-set, not measured.
pub(crate) const HAND_PIECE: f32 = 0.7;

/// Progress of a piece on the board that reaches point 12 (and then walks home) in
/// `k` of its own walks: this divided by `1 + k`. Hand-set, not measured.
pub(crate) const REACHING_PIECE: f32 = 0.5;

/// Progress of piece 12 on the board (it needs capturing to get home). Hand-set, not
/// measured.
pub(crate) const PIECE_12_ON_BOARD: f32 = 0.35;

/// Progress of a piece on the board that can never walk home (it needs capturing).
/// Hand-set, not measured.
pub(crate) const STRANDED_PIECE: f32 = 0.2;

/// The value of a position neither side has progressed in: keeps every position's
/// value between [`BOTH_LOSE_VALUE`] and [`BOTH_WIN_VALUE`]. Hand-set, not measured.
pub(crate) const EVAL_BASE: f32 = 20.0;

/// Value of a piece of the side's own progress. Hand-set, not measured.
pub(crate) const OWN_PROGRESS: f32 = 6.0;

/// Value of a piece of the other side's progress (both-win beats both-lose).
/// Hand-set, not measured.
pub(crate) const OTHER_PROGRESS: f32 = 1.5;

/// Value lost per piece the other side's progress is ahead of the side's own (it
/// dislikes the other finishing first). Hand-set, not measured.
pub(crate) const BEHIND_PENALTY: f32 = 3.0;

// ---------------------------------------------------------------------------------
// The proof search (solver.rs).
// ---------------------------------------------------------------------------------

/// Horizon of the zero-sum search, at most (its iterations deepen to it unless a node
/// budget or the deadline stops them first). Hand-set, not measured.
pub(crate) const MAX_HORIZON: u32 = 400;

/// The both-win search proves each state it reaches with 1/`PROOF_BUDGET_DIVISOR` of
/// the nodes left, at least [`MIN_PROOF_BUDGET`]. Hand-set, not measured.
pub(crate) const PROOF_BUDGET_DIVISOR: u64 = 16;

/// The fewest nodes the both-win search proves a state with (see
/// [`PROOF_BUDGET_DIVISOR`]). Hand-set, not measured.
pub(crate) const MIN_PROOF_BUDGET: u64 = 50_000;
