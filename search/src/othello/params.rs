//! The tunable ranges of the Othello searches: where the exact search changes method
//! with the number of empties. Each constant's doc says what was measured to choose it.

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
