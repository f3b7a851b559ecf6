//! The exact solver's front door: principal-variation search at the root and along
//! the principal variation, null-window searches (`endgame.rs`) everywhere else.
//!
//! Three modes: the exact score with a best move and its line; win/loss/draw only (a
//! window of (−1, 1), much cheaper); and every root move with its exact score.
//!
//! The exact mode first deepens a selective midgame search (ProbCut, `probcut.rs`)
//! to a dozen plies short of the end, then runs one selective endgame search: they
//! leave the best moves in the table and give the exact search an aspiration window
//! (FFO #40–#47 on one thread: about half the nodes of solving at once; the
//! selective endgame search saves another quarter of the nodes on #40–#49; see the
//! README).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use bitboards::othello::movegen::moves;
use bitboards::othello::{Board, flips};

use super::context::{Searcher, Shared};
use super::hash::{EXACT, HashEntry, NO_MOVE, board_hash};
use super::moves::{INF, Move, MoveList, QUADRANT, final_score, ordered_moves, parity_of};
use super::parallel::SiblingScores;
use super::params::{
    ASPIRATION_GROWTH, ASPIRATION_WINDOW, ENDCUT_MIN_EMPTIES, EVAL_SORT_MIN_DEPTH, EXACT_WINDOW, LEVELS, MIDGAME_GAP,
    PLAY_ENDGAME_GAP, PLAY_LEVEL, ROOT_SORT_MAX_DEPTH, SHALLOW_MAX, SOLVER_LEVEL,
};
use super::patterns::Features;
use crate::tt::TranspositionTable;

/// What the solver is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveMode {
    /// The exact final margin and a best move.
    Exact,
    /// Only whether the side to move wins, draws or loses.
    WinLossDraw,
    /// The exact margin of every legal move.
    AllMoves,
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Exact margin for the side to move (for [`SolveMode::WinLossDraw`]: −1, 0 or +1,
    /// only the sign is proven; a larger magnitude is exact when reported).
    pub score: i32,
    /// A best move (`None` when the side to move must pass or the game is over).
    pub best_move: Option<u8>,
    /// The principal variation as squares, 64 for a pass.
    pub pv: Vec<u8>,
    /// Every legal move with its exact score ([`SolveMode::AllMoves`] only), best first.
    pub move_scores: Vec<(u8, i32)>,
    /// Nodes searched.
    pub nodes: u64,
}

/// Limits of one solve.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveLimits {
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Give up after this many nodes.
    pub node_limit: Option<u64>,
}

impl Searcher<'_> {
    /// Exact score within `(alpha, beta)`, fail-soft, on a principal-variation node.
    pub fn pvs_endgame(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32, parity: u8) -> i32 {
        if beta == alpha + 1 {
            return self.nws_endgame(p, o, alpha, n, parity);
        }
        if self.poll() {
            return 0;
        }
        self.nodes += 1;
        let legal = moves(p, o);
        if legal == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.pvs_endgame(o, p, -beta, -alpha, n, parity);
        }
        let use_table = n > SHALLOW_MAX;
        let hash = board_hash(p, o);
        let found = if use_table { self.shared.tt.probe::<HashEntry>(hash) } else { None };
        let entry = found.filter(|e| e.depth as u32 >= n && e.selectivity >= self.sel);
        if let Some(e) = entry
            && e.lower == e.upper
        {
            return e.lower as i32;
        }
        let start_nodes = self.nodes;
        let list = ordered_moves(p, o, parity, n, found.map_or(NO_MOVE, |e| e.best));
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        // With more than one thread, the moves after the first are searched in
        // parallel with the window the first leaves; then each goes on as in the
        // sequential search (FFO #55 on two threads: 7.69 G → 7.03 G nodes, against
        // 6.78 G on one).
        let mut siblings = SiblingScores::default();
        for (i, m) in list.iter().enumerate() {
            let (cp, co) = (o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq));
            let cparity = parity ^ QUADRANT[m.sq as usize];
            if i == 1 && self.can_split(n) {
                siblings = SiblingScores::search(self, p, o, alpha, beta, n, n, parity, &list.as_slice()[1..]);
                if self.aborted {
                    return 0;
                }
            }
            let mut score = match siblings.get(i, alpha) {
                Some(score) => score,
                None if i == 0 => -self.pvs_endgame(cp, co, -beta, -alpha, n - 1, cparity),
                None => -self.nws_endgame(cp, co, -alpha - 1, n - 1, cparity),
            };
            if i > 0 && score > alpha && score < beta && !self.aborted {
                score = -self.pvs_endgame(cp, co, -beta, -alpha, n - 1, cparity);
            }
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m.sq;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if use_table {
            let (lower, upper) = if best >= beta {
                (best, 64)
            } else if best > original_alpha {
                (best, best)
            } else {
                (-64, best)
            };
            self.store(hash, found, n as u8, self.sel, lower, upper, best_move, self.nodes - start_nodes);
        }
        best
    }

    /// The principal variation from `(p, o)` read back from the table.
    fn principal_variation(&self, mut p: u64, mut o: u64, first: u8) -> Vec<u8> {
        let mut pv = vec![first];
        let f = flips::flips(p, o, first);
        (p, o) = (o ^ f, p ^ f ^ (1u64 << first));
        while pv.len() < 64 {
            let legal = moves(p, o);
            if legal == 0 {
                if moves(o, p) == 0 {
                    break;
                }
                pv.push(64);
                (p, o) = (o, p);
                continue;
            }
            let sq = match self.shared.tt.probe::<HashEntry>(board_hash(p, o)) {
                Some(e) if e.best < 64 && legal >> e.best & 1 == 1 => e.best,
                // Below the table's reach: the first legal move is as good as any for
                // display, but the line is no longer proven; stop here.
                _ => break,
            };
            pv.push(sq);
            let f = flips::flips(p, o, sq);
            (p, o) = (o ^ f, p ^ f ^ (1u64 << sq));
        }
        pv
    }
}

/// The exact solver: a transposition table and a thread pool, kept between solves.
pub struct Solver {
    tt: TranspositionTable,
    pool: rayon::ThreadPool,
    threads: usize,
}

impl Solver {
    /// A solver with a `hash_mb` MiB table and `threads` threads.
    pub fn new(hash_mb: usize, threads: usize) -> Solver {
        Self::with_table(TranspositionTable::new(hash_mb), threads)
    }

    /// A solver with a `hash_mb` MiB table and `threads` threads, or an error when the
    /// operating system refuses the table's memory.
    pub fn try_new(hash_mb: usize, threads: usize) -> Result<Solver, crate::tt::AllocError> {
        Ok(Self::with_table(TranspositionTable::try_new(hash_mb)?, threads))
    }

    fn with_table(tt: TranspositionTable, threads: usize) -> Solver {
        let threads = threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("solver-{i}"))
            .build()
            .expect("cannot start the solver's threads");
        Solver { tt, pool, threads }
    }

    /// The table (shared with the midgame search).
    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    /// A null-window probe: a score `s` with `s > alpha` exactly when the true score
    /// of `board` is above `alpha` (fail-soft). `None` if stopped.
    pub fn probe(&self, board: Board, alpha: i32, stop: &AtomicBool) -> Option<i32> {
        self.tt.new_search();
        let shared = Shared::new(&self.tt, stop, self.threads);
        let (p, o) = (board.player, board.opponent);
        let n = board.empty_count();
        let parity = parity_of(board.empties());
        self.pool.install(|| {
            let mut s = Searcher::new(&shared, None);
            let v = s.nws_endgame(p, o, alpha, n, parity);
            (!s.aborted).then_some(v)
        })
    }

    /// The value of every legal move, searched `depth` plies (full window), for
    /// choosing moves with some randomness.
    pub fn move_values(&self, board: Board, depth: u32, stop: &AtomicBool) -> Vec<(u8, i32)> {
        let shared = Shared::new(&self.tt, stop, 1);
        let mut s = Searcher::new(&shared, None);
        let (p, o) = (board.player, board.opponent);
        let n = board.empty_count();
        let parity = parity_of(board.empties());
        let features = Features::new(p, o);
        bitboards::othello::squares(moves(p, o))
            .map(|sq| {
                let f = flips::flips(p, o, sq);
                let (cp, co) = (o ^ f, p ^ f ^ (1u64 << sq));
                let cf = features.after(sq, f);
                let v = -s.pvs_midgame(
                    cp,
                    co,
                    &cf,
                    -64,
                    64,
                    depth.saturating_sub(1),
                    n - 1,
                    parity ^ QUADRANT[sq as usize],
                );
                (sq, v)
            })
            .collect()
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&self) {
        self.tt.clear();
    }

    /// Solves `board` (side to move's view). `None` if stopped or out of limits.
    pub fn solve(&self, board: Board, mode: SolveMode, stop: &AtomicBool, limits: SolveLimits) -> Option<Solution> {
        self.tt.new_search();
        let mut shared = Shared::new(&self.tt, stop, self.threads);
        shared.deadline = limits.deadline;
        shared.node_limit = limits.node_limit.unwrap_or(u64::MAX);
        self.pool.install(|| solve_with(&shared, board, mode))
    }
}

fn solve_with(shared: &Shared<'_>, board: Board, mode: SolveMode) -> Option<Solution> {
    let mut s = Searcher::new(shared, None);
    let (p, o) = (board.player, board.opponent);
    let n = board.empty_count();
    let parity = parity_of(board.empties());
    if moves(p, o) == 0 {
        // A pass or the end: solve from the other side.
        if moves(o, p) == 0 {
            return Some(Solution {
                score: final_score(p, o),
                best_move: None,
                pv: Vec::new(),
                move_scores: Vec::new(),
                nodes: 1,
            });
        }
        let mut after = solve_with(shared, board.pass(), mode)?;
        after.score = -after.score;
        after.pv.insert(0, 64);
        after.best_move = None;
        after.move_scores.clear();
        return Some(after);
    }
    let solution = match mode {
        SolveMode::Exact => {
            // Selective midgame iterations first (move ordering, aspiration window),
            // then the exact search: see `iterations`.
            let limits = ThinkLimits { exact_empties: 64, ..ThinkLimits::default() };
            let t = think_with(shared, board, limits, &mut |_| {});
            if !t.exact {
                return None;
            }
            Solution { score: t.score, best_move: t.best_move, pv: t.pv, move_scores: Vec::new(), nodes: 0 }
        }
        SolveMode::WinLossDraw => {
            let (alpha, beta) = (-1, 1);
            let hash_move = shared.tt.probe::<HashEntry>(board_hash(p, o)).map_or(NO_MOVE, |e| e.best);
            let list = ordered_moves(p, o, parity, n, hash_move);
            let mut alpha = alpha;
            let mut best = -INF;
            let mut best_move = list.as_slice()[0].sq;
            for (i, m) in list.iter().enumerate() {
                let (cp, co) = (o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq));
                let cparity = parity ^ QUADRANT[m.sq as usize];
                let mut score = if i == 0 {
                    -s.pvs_endgame(cp, co, -beta, -alpha, n - 1, cparity)
                } else {
                    -s.nws_endgame(cp, co, -alpha - 1, n - 1, cparity)
                };
                if i > 0 && score > alpha && score < beta && !s.aborted {
                    score = -s.pvs_endgame(cp, co, -beta, -alpha, n - 1, cparity);
                }
                if s.aborted {
                    return None;
                }
                if score > best {
                    best = score;
                    best_move = m.sq;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
            let pv = s.principal_variation(p, o, best_move);
            Solution { score: best, best_move: Some(best_move), pv, move_scores: Vec::new(), nodes: 0 }
        }
        SolveMode::AllMoves => {
            let list = ordered_moves(p, o, parity, n, NO_MOVE);
            let mut scores = Vec::new();
            for m in list.iter() {
                let (cp, co) = (o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq));
                let score = -s.pvs_endgame(cp, co, -64, 64, n - 1, parity ^ QUADRANT[m.sq as usize]);
                if s.aborted {
                    return None;
                }
                scores.push((m.sq, score));
            }
            scores.sort_by_key(|&(sq, score)| (-score, sq));
            let (best_move, score) = scores[0];
            let pv = s.principal_variation(p, o, best_move);
            Solution { score, best_move: Some(best_move), pv, move_scores: scores, nodes: 0 }
        }
    };
    s.flush_nodes();
    Some(Solution { nodes: shared.nodes.load(std::sync::atomic::Ordering::Relaxed), ..solution })
}

/// Limits of [`Solver::think`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ThinkLimits {
    /// Deepest iteration (plies); the search is exact once it reaches the empties.
    pub depth: Option<u32>,
    /// Do not start another iteration after this instant.
    pub soft_deadline: Option<Instant>,
    /// Abort the running iteration at this instant.
    pub hard_deadline: Option<Instant>,
    /// Abort after this many nodes.
    pub node_limit: Option<u64>,
    /// Solve exactly (instead of searching to depth) when at most this many empties
    /// remain, even beyond `depth`.
    pub exact_empties: u32,
    /// Root moves not to consider (a bitboard), to list the best moves one by one.
    pub exclude: u64,
    /// Search selectively (ProbCut) when playing on time: midgame iterations at
    /// [`PLAY_LEVEL`], then selective endgame searches of rising confidence before
    /// the exact one. Off for the fixed-depth searches whose values must be those of
    /// a full-width search (`go depth`, NBoard's levels, `sente bench`); on for the
    /// training labels of `train::search_label`.
    pub selective: bool,
}

/// The result of an iteration of [`Solver::think`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move to play (`None`: pass, or game over when `pv` is empty).
    pub best_move: Option<u8>,
    /// Score in discs for the side to move (exact when `exact`).
    pub score: i32,
    /// Depth of the iteration (the empties when exact).
    pub depth: u32,
    /// True when the score is proven.
    pub exact: bool,
    /// Principal variation (squares, 64 = pass).
    pub pv: Vec<u8>,
    /// Nodes searched so far.
    pub nodes: u64,
}

impl Solver {
    /// Iterative deepening with aspiration windows from `board`, reporting after each
    /// iteration, solving exactly once few enough empties remain. Always returns a
    /// move when one exists, even if stopped at once.
    pub fn think(
        &self,
        board: Board,
        limits: ThinkLimits,
        stop: &AtomicBool,
        mut report: impl FnMut(&Thought) + Send,
    ) -> Thought {
        self.tt.new_search();
        let mut shared = Shared::new(&self.tt, stop, self.threads);
        shared.deadline = limits.hard_deadline;
        shared.node_limit = limits.node_limit.unwrap_or(u64::MAX);
        shared.play_cuts = limits.selective && board.empty_count() > limits.exact_empties;
        self.pool.install(|| think_with(&shared, board, limits, &mut report))
    }
}

fn think_with(
    shared: &Shared<'_>,
    board: Board,
    limits: ThinkLimits,
    report: &mut (dyn FnMut(&Thought) + Send),
) -> Thought {
    let (p, o) = (board.player, board.opponent);
    let n = board.empty_count();
    if moves(p, o) == 0 {
        let over = moves(o, p) == 0;
        return Thought {
            best_move: None,
            score: if over { final_score(p, o) } else { 0 },
            depth: 0,
            exact: over,
            pv: if over { Vec::new() } else { vec![64] },
            nodes: 0,
        };
    }
    let parity = parity_of(board.empties());
    let mut s = Searcher::new(shared, None);
    let Some(first) =
        ordered_moves(p, o, parity, n, NO_MOVE).iter().map(|m| m.sq).find(|&sq| limits.exclude >> sq & 1 == 0)
    else {
        // Every move excluded: nothing to report.
        return Thought { best_move: None, score: -INF, depth: 0, exact: false, pv: Vec::new(), nodes: 0 };
    };
    let mut result = Thought { best_move: Some(first), score: 0, depth: 0, exact: false, pv: vec![first], nodes: 0 };
    let exact_allowed = n <= limits.exact_empties;
    let target = if exact_allowed { n } else { limits.depth.unwrap_or(64).clamp(1, n) };
    for (depth_now, sel) in iterations(n, target, exact_allowed, limits.selective) {
        s.sel = sel;
        // Aspiration: a window around the last score; when the score falls outside,
        // the side it fell on is closed at the bound just proven and the other side
        // opens four times wider. The exact search's window is wider: the selective
        // search before it is often 2 to 3 discs off, and a failed window costs a
        // second exact search (FFO #57: 5.27 G nodes with ±3, 4.55 G with ±5).
        let mut window = match result.depth {
            0..=2 => 64,
            _ if depth_now >= n && sel == EXACT => EXACT_WINDOW,
            _ => ASPIRATION_WINDOW,
        };
        let mut alpha = (result.score - window).max(-64);
        let mut beta = (result.score + window).min(64);
        // Which side the last window failed on: a failure on the other side means the
        // selective search is unstable (table entries of other depths disagree), and
        // the window then opens fully, which cannot fail.
        let mut failed = 0;
        // A move this iteration has already proven better than the last iteration's
        // best, kept if the clock cuts the iteration short (see `proven_better`).
        let mut better: Option<(i32, u8)> = None;
        let (score, best) = loop {
            let (score, best) = root_search(&mut s, p, o, alpha, beta, depth_now, n, parity, limits.exclude);
            if s.aborted {
                if failed >= 0 && proven_better(score, best, alpha) {
                    better = Some((score, best));
                }
                break (score, best);
            }
            window = (window * ASPIRATION_GROWTH).min(128);
            if score <= alpha && alpha > -64 {
                (alpha, beta) = if failed > 0 { (-64, 64) } else { ((score - window).max(-64), (score + 1).min(64)) };
                failed = -1;
                better = None;
            } else if score >= beta && beta < 64 {
                (alpha, beta) = if failed < 0 { (-64, 64) } else { ((score - 1).max(-64), (score + window).min(64)) };
                failed = 1;
                better = Some((score, best));
            } else {
                break (score, best);
            }
        };
        if s.aborted {
            if let Some((score, best)) = better {
                // The deeper iteration's choice, its score a bound; the depth stays
                // that of the last whole iteration.
                s.flush_nodes();
                result = Thought {
                    best_move: Some(best),
                    score,
                    depth: result.depth,
                    exact: false,
                    pv: s.principal_variation(p, o, best),
                    nodes: shared.nodes.load(std::sync::atomic::Ordering::Relaxed),
                };
                report(&result);
            }
            break;
        }
        s.flush_nodes();
        result = Thought {
            best_move: Some(best),
            score,
            depth: depth_now,
            exact: depth_now >= n && sel == EXACT,
            pv: s.principal_variation(p, o, best),
            nodes: shared.nodes.load(std::sync::atomic::Ordering::Relaxed),
        };
        report(&result);
        if result.exact || limits.soft_deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    s.flush_nodes();
    result.nodes = shared.nodes.load(std::sync::atomic::Ordering::Relaxed);
    result
}

/// Whether a root search that the clock (or a stop) cut short has still proven its
/// `best` move: it returned a score above the window's `alpha`, which only a move
/// searched to the end can give. The root searches the last iteration's best move
/// first, so a later move above `alpha` has beaten it at the new depth, and the
/// first one above `alpha` is its deeper score. (After a failed-low window the first
/// move is not the last iteration's best, so such a search proves nothing.)
fn proven_better(score: i32, best: u8, alpha: i32) -> bool {
    best != NO_MOVE && score > alpha
}

/// The iterations of [`Solver::think`] as (depth, selectivity). Towards a solve:
/// selective midgame searches ([`SOLVER_LEVEL`]) one ply deeper each time up to
/// [`MIDGAME_GAP`] plies short of the end, one selective endgame search (from
/// [`ENDCUT_MIN_EMPTIES`] empties), then the exact search. When playing
/// `selective`ly without a solve: midgame searches at [`PLAY_LEVEL`] up to
/// [`PLAY_ENDGAME_GAP`] plies short of the end, then endgame searches at every
/// selectivity level in turn and the exact one (the clock stops the plan where it
/// gets). Otherwise exact midgame searches one ply deeper each time.
fn iterations(n: u32, target: u32, solve: bool, selective: bool) -> Vec<(u32, u8)> {
    if !solve && selective {
        let mut plan: Vec<(u32, u8)> =
            (1..=target.min(n.saturating_sub(PLAY_ENDGAME_GAP + 1)).max(1)).map(|d| (d, PLAY_LEVEL)).collect();
        if target >= n {
            if n >= ENDCUT_MIN_EMPTIES {
                plan.extend((0..LEVELS.len() as u8).map(|level| (n, level)));
            }
            plan.push((n, EXACT));
        }
        return plan;
    }
    if !solve {
        return (1..=target).map(|d| (d, EXACT)).collect();
    }
    let mut plan: Vec<(u32, u8)> = (1..n.saturating_sub(MIDGAME_GAP)).map(|d| (d, SOLVER_LEVEL)).collect();
    if n >= ENDCUT_MIN_EMPTIES {
        plan.push((n, SOLVER_LEVEL));
    }
    plan.push((n, EXACT));
    plan
}

/// One root iteration: PVS over the root moves at `depth` (exact if `depth >= n`).
#[allow(clippy::too_many_arguments)]
fn root_search(
    s: &mut Searcher<'_>,
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    depth: u32,
    n: u32,
    parity: u8,
    exclude: u64,
) -> (i32, u8) {
    let hash_move = s.shared.tt.probe::<HashEntry>(board_hash(p, o)).map_or(NO_MOVE, |e| e.best);
    let f = Features::new(p, o);
    let list = if depth >= EVAL_SORT_MIN_DEPTH {
        let list = MoveList::generate(p, o, moves(p, o));
        s.eval_sorted_moves(
            p,
            o,
            &f,
            list,
            parity,
            n,
            Some(((depth - EVAL_SORT_MIN_DEPTH) / 2).min(ROOT_SORT_MAX_DEPTH)),
            alpha,
            hash_move,
        )
    } else {
        ordered_moves(p, o, parity, n, hash_move)
    };
    let list: Vec<Move> = list.iter().filter(|m| exclude >> m.sq & 1 == 0).copied().collect();
    let mut best = -INF;
    let mut best_move = NO_MOVE;
    // With more than one thread the moves after the first are searched in parallel,
    // as at the principal-variation nodes below.
    let mut siblings = SiblingScores::default();
    for (i, m) in list.iter().enumerate() {
        let (cp, co) = (o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq));
        let cf = f.after(m.sq, m.flips);
        let cparity = parity ^ QUADRANT[m.sq as usize];
        let split = if depth >= n { s.can_split(n) } else { s.can_split_midgame(depth, false) };
        if i == 1 && split {
            siblings = SiblingScores::search(s, p, o, alpha, beta, depth, n, parity, &list[1..]);
            if s.aborted {
                break;
            }
        }
        let mut score = match siblings.get(i, alpha) {
            Some(score) => score,
            None if i == 0 => -s.pvs_midgame(cp, co, &cf, -beta, -alpha, depth - 1, n - 1, cparity),
            None => -s.pvs_midgame(cp, co, &cf, -alpha - 1, -alpha, depth - 1, n - 1, cparity),
        };
        // The null window's result (a lower bound when above `alpha`), if it finished.
        let null_window = (!s.aborted).then_some(score);
        if i > 0 && score > alpha && score < beta && !s.aborted {
            score = -s.pvs_midgame(cp, co, &cf, -beta, -alpha, depth - 1, n - 1, cparity);
        }
        if s.aborted {
            // A move that failed high on its null window has beaten every move before
            // it, even if the cut came during its re-search: it is the best so far,
            // its score the bound the null window proved.
            if i > 0
                && let Some(bound) = null_window.filter(|&v| v > alpha && v > best)
            {
                best = bound;
                best_move = m.sq;
            }
            break;
        }
        if score > best {
            best = score;
            best_move = m.sq;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    // Remember the root's move (not its bounds) for the next iteration's ordering.
    if !s.aborted {
        s.store(board_hash(p, o), None, depth.min(n) as u8, EXACT, -64, 64, best_move, 1 << 20);
    }
    (best, best_move)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_selective_plan_deepens_then_raises_the_endgame_confidence() {
        let plan = iterations(24, 24, false, true);
        let midgame: Vec<u32> = plan.iter().filter(|&&(d, _)| d < 24).map(|&(d, _)| d).collect();
        assert_eq!(midgame, (1..=24 - PLAY_ENDGAME_GAP - 1).collect::<Vec<_>>());
        assert!(plan.iter().filter(|&&(d, _)| d < 24).all(|&(_, sel)| sel == PLAY_LEVEL));
        let endgame: Vec<u8> = plan.iter().filter(|&&(d, _)| d == 24).map(|&(_, sel)| sel).collect();
        assert_eq!(endgame, [0, 1, 2, 3, 4, EXACT]);
        // Not selective: exact midgame iterations only; a solve: the solver's plan.
        assert!(iterations(24, 10, false, false).iter().all(|&(_, sel)| sel == EXACT));
        assert_eq!(iterations(24, 24, true, true), iterations(24, 24, true, false));
    }

    /// The board after `plies` pseudo-random moves from the start (passes played).
    fn random_board(seed: u64, plies: u32) -> Board {
        let mut board = Board::start();
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for _ in 0..plies {
            let legal = board.moves();
            if legal == 0 {
                board = board.pass();
                continue;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let pick = (state % legal.count_ones() as u64) as usize;
            let sq = bitboards::othello::squares(legal).nth(pick).expect("a legal move");
            board = board.play(sq).expect("a legal move");
        }
        board
    }

    /// The player's ordering: every legal move once, the table's move first, then
    /// by falling value of the child's evaluation and the ordering features.
    #[test]
    fn the_players_ordering_takes_the_table_move_then_the_values() {
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        let shared = Shared::new(&tt, &stop, 1);
        let mut s = Searcher::new(&shared, None);
        for seed in 0..200 {
            let board = random_board(seed, 10 + (seed % 40) as u32);
            let (p, o) = (board.player, board.opponent);
            let legal = moves(p, o);
            if legal.count_ones() < 2 {
                continue;
            }
            let f = Features::new(p, o);
            let hash_move = bitboards::othello::squares(legal).last().expect("a legal move");
            let list = MoveList::generate(p, o, legal);
            let n = board.empty_count();
            let sorted = s.eval_sorted_moves(p, o, &f, list, parity_of(!(p | o)), n, None, 0, hash_move);
            let squares: Vec<u8> = sorted.iter().map(|m| m.sq).collect();
            assert_eq!(squares[0], hash_move, "seed {seed}");
            assert_eq!(squares.iter().fold(0u64, |b, &sq| b | 1 << sq), legal, "seed {seed}");
            assert_eq!(squares.len(), legal.count_ones() as usize, "seed {seed}");
            // The rest by falling value: each child's evaluation and the ordering
            // features, recomputed here.
            let rest = &sorted.as_slice()[1..];
            let key = |m: &Move| {
                let (cp, co) = (o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq));
                if cp == 0 {
                    return 1 << 29;
                }
                let value = super::super::eval::eval_discs_from(&f.after(m.sq, m.flips), cp, co);
                super::super::moves::ordering_score(cp, co, m.sq, parity_of(!(p | o)), n)
                    + super::super::params::PLAY_W_EVAL * (64 - value)
            };
            assert!(rest.windows(2).all(|w| key(&w[0]) >= key(&w[1])), "seed {seed}");
        }
    }

    /// An iteration cut short (here by a node budget, as by the clock) still plays
    /// the move it has proven better than the last whole iteration's: the move it
    /// plays instead is worth more at the new depth, which each move searched alone
    /// (the others excluded) confirms. Each search starts from an empty table on one
    /// thread, so the node counts repeat exactly.
    #[test]
    fn a_move_proven_better_before_the_cut_is_played() {
        let stop = AtomicBool::new(false);
        let search = |board: Board, depth: u32, nodes: Option<u64>| {
            let limits = ThinkLimits { depth: Some(depth), node_limit: nodes, ..ThinkLimits::default() };
            Solver::new(4, 1).think(board, limits, &stop, |_| {})
        };
        // The value of `sq` alone at `depth` plies.
        let value_of = |board: Board, sq: u8, depth: u32| {
            let limits =
                ThinkLimits { depth: Some(depth), exclude: board.moves() & !(1 << sq), ..ThinkLimits::default() };
            let t = Solver::new(4, 1).think(board, limits, &stop, |_| {});
            assert_eq!(t.best_move, Some(sq));
            t.score
        };
        let mut adopted = 0;
        for seed in 0..30 {
            let board = random_board(seed, 20);
            if board.moves().count_ones() < 3 {
                continue;
            }
            let depth = 5;
            let shallow = search(board, depth, None);
            let deep = search(board, depth + 1, None);
            assert_eq!((shallow.depth, deep.depth), (depth, depth + 1));
            for step in 1..20 {
                let limit = shallow.nodes + (deep.nodes - shallow.nodes) * step / 20;
                let cut = search(board, depth + 1, Some(limit));
                if cut.depth == depth + 1 {
                    assert_eq!(cut.best_move, deep.best_move);
                    continue;
                }
                assert_eq!(cut.depth, depth, "seed {seed}, {limit} nodes");
                if let (Some(played), Some(before)) = (cut.best_move, shallow.best_move)
                    && played != before
                {
                    adopted += 1;
                    let (v_played, v_before) = (value_of(board, played, depth + 1), value_of(board, before, depth + 1));
                    assert!(
                        v_played >= v_before,
                        "seed {seed}, {limit} nodes: {played} ({v_played}) < {before} ({v_before})"
                    );
                }
            }
        }
        assert!(adopted > 0, "no cut iteration played the move it had proven");
    }
}
