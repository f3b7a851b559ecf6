//! The numeric tunables of the Othello searches and play, gathered in one place (as
//! Viridithas gathers its search parameters): where the exact search changes method
//! with the number of empties, the midgame search's ordering, ProbCut and parallel
//! splits, the solver's and the player's iteration plan, and the clock's shares. Each
//! constant's doc says what was measured to choose it ("hand-set, not measured" where
//! nothing was). Tables of measurements (ProbCut's error table) and structural numbers
//! stay beside their code.

use std::time::Duration;

// -----------------------------------------------------------------------------------
// Where the exact search changes method (endgame.rs, local_table.rs).
// -----------------------------------------------------------------------------------

/// The largest number of empties searched without the shared table. With the moves
/// sorted from [`SORTED_SHALLOW_MIN`], 8 rather than 7: FFO #45–#52 one thread, 1.24 G
/// → 1.32 G nodes but 2% less time. With the thread's small table
/// (`local_table.rs`) at these nodes, 10 rather than 8: 1.16 G → 1.22 G nodes and 7–10%
/// less time (9: 1.19 G nodes, 6–8% less; 11: 1.27 G nodes, no faster than 10).
/// Once the 5-empty search took its moves from the parent and the isolated squares
/// came first, 11 rather than 10: 1.17 G → 1.21 G nodes, 0.967–0.987 of the time
/// (paired runs); two threads on #49–#52 and #56, the builds in turn: 45.2 and 45.5 s
/// against 46.8 and 51.0 s. 12: 1.28 G nodes, 1.00–1.04 of the time of 11.
pub const SHALLOW_MAX: u32 = 11;

/// Smallest number of empties at which `Searcher::shallow` (endgame.rs) generates the moves
/// and sorts them fastest-first instead of taking the empties in a fixed order. On FFO
/// #45–#52, one thread: from 6 empties 1.65 G → 1.24 G nodes and 6% less time; from 5,
/// 1.13 G nodes but no time saved; from 7, 1.33 G nodes and 4% less time.
pub const SORTED_SHALLOW_MIN: u32 = 6;

/// From this many empties up, the exact search sorts its moves with shallow searches
/// (the evaluation alone below 18 empties). With the evaluation fitted on 1.78 M
/// positions, 14 beats 16: FFO #45–#52 on one thread, 1.81 G → 1.65 G nodes and 4%
/// less time (12: 1.61 G, no faster; 10: slower).
pub const EVAL_SORT_MIN_EMPTIES: u32 = 14;

// -----------------------------------------------------------------------------------
// The midgame search (midgame.rs, probcut.rs, parallel.rs).
// -----------------------------------------------------------------------------------

/// Weight of a disc of the shallow-search score in the ordering value: a quarter of
/// an opponent move ([`ordering_score`](super::moves::ordering_score) counts each
/// reply 2^15). Fastest-first counts for more than the evaluation's small
/// differences: FFO #45–#52 on one thread, 2.28 G nodes with 2^16, 1.95 G with 2^15,
/// 1.87 G with 2^14, 1.81 G with 2^13, 1.91 G with 2^12.
pub(crate) const W_EVAL: i32 = 1 << 13;

/// Weight of a disc of the child's evaluation in the player's midgame ordering
/// (`Searcher::eval_sorted_moves` without a sort depth: no shallow searches): two opponent moves. Measured
/// by `cargo run --release -p search --example selective_depth -- FILE 20 100` on the
/// judged early-midgame positions (36–46 empties), with the root's and the endgame's
/// sorting searches weighted alike in the trial: 2^13 358 M nodes, 2^14 302 M, 2^15
/// 294 M, 2^16 287 M, 2^17 288 M, the chosen moves as good (0.08–0.10 disc a move);
/// as kept (those sorting searches at [`W_EVAL`]), 295 M.
pub(crate) const PLAY_W_EVAL: i32 = 1 << 16;

/// Confidence multiplier `t` of each ProbCut selectivity level (a cut needs the
/// shallow value `t` standard deviations past the bound): under a normal error, about
/// 73%, 87%, 95%, 98% and 99% of the cuts are right. Set from the normal
/// distribution; which level each search uses is measured ([`SOLVER_LEVEL`],
/// [`PLAY_LEVEL`]).
pub const LEVELS: [f32; 5] = [1.1, 1.5, 2.0, 2.6, 3.3];

/// The level of the solver's midgame iterations and selective endgame search (95%).
/// On FFO #40–#49, 87% or 98% alone and two levels (73%+95%, 87%+98%, 95%+99%) were
/// all slower; a second selective endgame search at 98% after the 95% one, or 98%
/// alone, took more nodes on #45–#53 (docs/othello-solver.md).
pub const SOLVER_LEVEL: u8 = 2;

/// The player's confidence multipliers are [`LEVELS`] times this: at [`PLAY_LEVEL`] a
/// cut needs the shallow value 0.75 of the measured error past the bound. Measured by
/// play once the player sorted without shallow searches (docs/othello-play.md,
/// "ProbCut's margins after the new ordering"): against NTest at depth 18 on the 100
/// balanced openings at `--st 0.34`, 0.5 scored 87–85–28 (50.5 %) where 2/3 scored
/// 70–99–31 (42.8 %), +0.155 ± 0.062 a pair; 0.4 scored 33.3 % over the first 66
/// games. (Before that ordering, 2/3 did best on the move-quality benchmark.)
pub(crate) const PLAY_T_SCALE: f32 = 0.5;

/// Standard deviation, in discs, of (exact final score − shallow value) with `n`
/// empties and the shallow depth of [`endcut_depth`](super::probcut::endcut_depth)`(n)`.
/// Measured on positions with exact labels that the evaluation of the time was not
/// fitted on (`cargo run --release -p search --example endcut_sigma -- gen3.dat`):
/// 4.8–7.2 discs at 12–19 and 22 empties, no trend in `n` (9.2 at 20–21, on fewer
/// positions). The value sits low in that range: with it, the 95% level did better on
/// FFO #40–#49 than 87% or 98%; with the evaluation refitted on more data, 4.5 and 6.5
/// did worse on #45–#52.
pub(crate) const ENDCUT_SIGMA: f32 = 5.5;

/// Fewest empties at which the selective endgame search tries a cut. On FFO #40–#49,
/// cuts from 10, 15 or 18 empties were all slower (docs/othello-solver.md).
pub const ENDCUT_MIN_EMPTIES: u32 = 12;

/// Fewest empties at which a principal-variation node of the endgame (and the root)
/// searches its moves after the first in parallel
/// ([`SiblingScores`](super::parallel::SiblingScores)). It was the threshold of every
/// node before the null-window nodes got their own ([`NULL_WINDOW_SPLIT_MIN_EMPTIES`]);
/// lower, the threads spent more time on moves a sibling's cut made useless (`sente ffo
/// ffo/problems/ffo_40_59.txt --only 51,52 --threads 2`: 12 → 18.5 s, 15 → 17.7 s, 18 →
/// 16.8 s, 21 → 17.2 s, 24 → 21.4 s).
pub const SPLIT_MIN_EMPTIES: u32 = 18;

/// Fewest empties at which a null-window node splits after its first move
/// ([`Searcher::split_null_window`](super::context::Searcher::split_null_window)).
/// Higher than [`SPLIT_MIN_EMPTIES`]: there the second move usually cuts and the
/// helper's work is lost, and once the principal-variation nodes split, the threads
/// have enough to do without the small null-window nodes. `sente ffo
/// ffo/problems/ffo_40_59.txt --threads 2`, the two thresholds in turn, twice each (a
/// Zen 5 host, 2026-11-24): 22 took 14.74 G nodes, 171.5 and 169.0 s; 18 took
/// 14.92–14.94 G nodes, 171.7 and 172.2 s (#57: 1.35 G → 1.26 G nodes).
pub const NULL_WINDOW_SPLIT_MIN_EMPTIES: u32 = 22;

/// Fewest plies a midgame principal-variation node must have left to search its
/// moves after the first in parallel (null-window nodes: one more). Hand-set, not
/// measured.
pub const MIDGAME_SPLIT_MIN_DEPTH: u32 = 6;

// -----------------------------------------------------------------------------------
// The exact search's move ordering and cutoffs (endgame.rs).
// -----------------------------------------------------------------------------------

/// Near the leaves, a move leaving the opponent at most this many moves (corners
/// count double) is searched before the other moves are valued (after Egaroucid).
/// FFO #45–#52 one thread, paired runs: 1 is 5–6% faster than sorting every move
/// first (0.3% more nodes); 2 is 3–4% slower than 1 (9% more nodes). The same at 11
/// to 13 empties, where the ordering values cost more, saved nothing.
pub(crate) const QUICK_REPLIES: u32 = 1;

/// Smallest number of empties at which children are looked up in the table before
/// searching (enhanced transposition cutoff): the first whose children are in the
/// table (it was 12 when the table started at 11; 10 or 14 were no better).
pub(crate) const ETC_MIN: u32 = SHALLOW_MAX + 2;

/// Fewest plies at which the midgame search tries the enhanced transposition cutoff.
/// Against the search without it (commit fbad252): `sente bench` nodes unchanged
/// (1 878 975), `bench 12` 4.7% fewer nodes, FFO #40–#53 0.6% fewer nodes and 3% less
/// time; no other depth measured.
pub(crate) const MIDGAME_ETC_MIN_DEPTH: u32 = 4;

/// Fewest plies at which a midgame node (and the root) sorts its moves by the
/// evaluation or by shallow searches `(depth - EVAL_SORT_MIN_DEPTH) / 2` plies deep
/// (below, by the quick ordering alone). Hand-set, not measured.
pub(crate) const EVAL_SORT_MIN_DEPTH: u32 = 3;

/// How far below alpha, in discs, the window of the midgame ordering's shallow
/// searches reaches (their values are told apart down to alpha minus this). Hand-set,
/// not measured.
pub(crate) const SORT_ALPHA_MARGIN: i32 = 8;

/// Smallest number of empties at which a sorted shallow search looks its children up
/// in the thread's small table before valuing them (the enhanced transposition
/// cutoff of [`ETC_MIN`] on `local_table.rs`, after Egaroucid): a child proven bad
/// enough for the opponent settles the node, and one proven no better than alpha is
/// not searched. FFO #45–#52 one thread, paired runs: 1.209 G → 1.164 G nodes, 0.969
/// of the time (four rounds); from 7 empties 1.150 G nodes, 1.01 of the time of 8;
/// from 9 and 10, 1.172 G and 1.187 G nodes.
pub(crate) const LOCAL_ETC_MIN: u32 = 8;

// -----------------------------------------------------------------------------------
// The solver's and the player's iterations (solver.rs).
// -----------------------------------------------------------------------------------

/// How many plies short of the end the midgame iterations stop before a solve
/// (measured on FFO #40–#49: 10 to 14 all do well, 12 best; 8, 16 or 20 slower).
pub(crate) const MIDGAME_GAP: u32 = 12;

/// The selectivity of the player's midgame iterations (see
/// [`ThinkLimits::selective`](super::ThinkLimits::selective)): 87%. On the
/// move-quality benchmark at a million nodes a move (`sente othello-accuracy --nodes
/// 1000000`, with [`PLAY_ENDGAME_GAP`] 8): mean disc loss 0.49 at 73%, 0.46 at 87%,
/// 0.44 at 95% (0.76 without ProbCut).
pub(crate) const PLAY_LEVEL: u8 = 1;

/// How many plies short of the end the player's selective midgame iterations stop
/// and its selective endgame searches begin. Same benchmark, [`PLAY_LEVEL`] 87%: mean
/// disc loss 0.40, 0.40, 0.35, 0.46, 0.46 and 0.53 with gaps of 5, 6, 7, 8, 10 and 12
/// plies (a standard error of about 0.08 each).
pub const PLAY_ENDGAME_GAP: u32 = 7;

/// Half-width of the exact search's first aspiration window around the selective
/// endgame search's score. ±1 took 0.4% fewer nodes and 0.985–1.013 of the time
/// (noise); ±2 or ±3 were within 2% of the nodes (docs/othello-solver.md).
pub(crate) const EXACT_WINDOW: i32 = 5;

/// Half-width, in discs, of an iteration's first aspiration window around the last
/// iteration's score (the first iterations, to depth 2, search the full window; the
/// exact search has its own, [`EXACT_WINDOW`]). Hand-set, not measured.
pub(crate) const ASPIRATION_WINDOW: i32 = 3;

/// A failed aspiration window opens this many times wider on the side it failed on
/// (up to the full window). Hand-set, not measured.
pub(crate) const ASPIRATION_GROWTH: i32 = 4;

/// Deepest search sorting the root moves: deeper ones cost more than they save once
/// the table holds the previous iterations' moves (FFO #40–#49: 2 to 8 all do well;
/// uncapped, the exact iteration's sorting alone took seconds).
pub(crate) const ROOT_SORT_MAX_DEPTH: u32 = 6;

// -----------------------------------------------------------------------------------
// The clock (play.rs).
// -----------------------------------------------------------------------------------

/// The speed at which a node budget (`go nodes`) is taken as a time by
/// [`think_limits`](super::think_limits), to choose how deep to solve: about what one
/// thread searches on this project's machines at 20–24 empties. An estimate, not
/// tuned.
pub(crate) const NOMINAL_NODES_PER_SECOND: f64 = 10e6;

/// Share of the clock kept back, never planned for: slack for the searches that
/// overrun and the protocol's round trips. Hand-set, not measured.
pub(crate) const RESERVE: f64 = 0.1;

/// At most this share of the time left goes to the exact solve. Hand-set, not
/// measured.
pub(crate) const SOLVE_SHARE: f64 = 0.4;

/// Time kept back on each move for the protocol round trip. Hand-set, not measured.
pub(crate) const MOVE_OVERHEAD: Duration = Duration::from_millis(20);
