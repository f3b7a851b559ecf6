//! The midgame search: depth-limited principal-variation search with the evaluation
//! at the leaves, sharing the transposition table with the exact endgame search it
//! hands over to once the depth reaches the number of empties.
//!
//! Its nodes sort their moves by a shallow search of each (deeper with more plies
//! left) in the solver's searches, which also sort the exact search's moves high in
//! the tree this way; the player's selective searches sort by each child's
//! evaluation and the fastest-first features, with no search, which reaches a given
//! depth with 2.6–2.8 times fewer nodes (two plies from the leaves by the features
//! alone, and one ply from them corners first).

use bitboards::othello::geometry::CORNERS;
use bitboards::othello::movegen::moves;
use bitboards::othello::{flips, squares};

use super::context::Searcher;
use super::eval::{eval_discs_after, eval_discs_from};
use super::hash::{HashEntry, NO_MOVE, board_hash};
use super::moves::{INF, Move, MoveList, QUADRANT, final_score, ordering_score};
use super::parallel::SiblingScores;
use super::params::{EVAL_SORT_MIN_DEPTH, MIDGAME_ETC_MIN_DEPTH, PLAY_W_EVAL, SORT_ALPHA_MARGIN, W_EVAL};
use super::patterns::Features;

/// The X squares (b2, g2, b7, g7) and the C squares (the edge squares next to a
/// corner).
const X_AND_C_SQUARES: u64 = 0x42C3_0000_0000_C342;

impl Searcher<'_> {
    /// Value of `(p, o)` searched `depth` plies within `(alpha, beta)`, fail-soft;
    /// `f` holds the position's pattern indices (`Features::new(p, o)`).
    #[allow(clippy::too_many_arguments)]
    pub fn pvs_midgame(
        &mut self,
        p: u64,
        o: u64,
        f: &Features,
        mut alpha: i32,
        beta: i32,
        depth: u32,
        n: u32,
        parity: u8,
    ) -> i32 {
        if depth >= n {
            return if beta == alpha + 1 {
                self.nws_endgame(p, o, alpha, n, parity)
            } else {
                self.pvs_endgame(p, o, alpha, beta, n, parity)
            };
        }
        if depth == 0 {
            self.nodes += 1;
            return eval_discs_from(f, p, o);
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
            return -self.pvs_midgame(o, p, &f.passed(), -beta, -alpha, depth, n, parity);
        }
        if depth == 1 {
            return self.best_child_eval(p, o, f, legal, beta);
        }
        let hash = board_hash(p, o);
        let found = self.shared.tt.probe::<HashEntry>(hash);
        let entry = found.filter(|e| e.depth as u32 >= depth && e.selectivity >= self.sel);
        if let Some(e) = entry {
            if e.lower as i32 >= beta {
                return e.lower as i32;
            }
            if e.upper as i32 <= alpha {
                return e.upper as i32;
            }
            if e.lower == e.upper {
                return e.lower as i32;
            }
        }
        // From MIDGAME_ETC_MIN_DEPTH up the moves (their flips computed once) serve the
        // transposition cutoff first, then the sorting.
        let mut generated = None;
        if depth >= MIDGAME_ETC_MIN_DEPTH {
            let list = MoveList::generate(p, o, legal);
            if let Some(bound) = self.transposition_cutoff(p, o, &list, beta, depth) {
                return bound;
            }
            generated = Some(list);
        }
        if beta == alpha + 1 {
            if let Some(bound) = self.probcut(p, o, f, alpha, depth, n, parity) {
                return bound;
            }
            if self.aborted {
                return 0;
            }
        }
        let start_nodes = self.nodes;
        let hash_move = found.map_or(NO_MOVE, |e| e.best);
        let list = if depth >= EVAL_SORT_MIN_DEPTH {
            let list = generated.unwrap_or_else(|| MoveList::generate(p, o, legal));
            let sort_depth = (!self.shared.play_cuts).then(|| depth.saturating_sub(EVAL_SORT_MIN_DEPTH) / 2);
            self.eval_sorted_moves(p, o, f, list, parity, n, sort_depth, alpha, hash_move)
        } else {
            self.quick_sorted_moves(p, o, f, parity, n, hash_move)
        };
        if (EVAL_SORT_MIN_DEPTH..MIDGAME_ETC_MIN_DEPTH).contains(&depth) {
            // The children probe the table first thing: start loading their buckets
            // (deeper, the transposition cutoff has).
            for m in list.iter() {
                self.shared.tt.prefetch(board_hash(o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq)));
            }
        }
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        // With more than one thread, the moves after the first are searched in
        // parallel (`parallel.rs`): at a null-window node all of them at once, the
        // best taken; at a principal-variation node with the window the first leaves,
        // then each goes on as in the sequential search.
        let null_window = beta == alpha + 1;
        let mut siblings = SiblingScores::default();
        for (i, m) in list.iter().enumerate() {
            if i == 1 && self.can_split_midgame(depth, null_window) {
                if null_window {
                    let (score, sq) = self.split_null_window(p, o, alpha, depth, n, parity, &list.as_slice()[1..]);
                    if self.aborted {
                        return 0;
                    }
                    if score > best {
                        best = score;
                        best_move = sq;
                    }
                    break;
                }
                siblings = SiblingScores::search(self, p, o, alpha, beta, depth, n, parity, &list.as_slice()[1..]);
                if self.aborted {
                    return 0;
                }
            }
            let (cp, co) = (o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq));
            let cf = f.after(m.sq, m.flips);
            let cparity = parity ^ QUADRANT[m.sq as usize];
            let mut score = match siblings.get(i, alpha) {
                Some(score) => score,
                None if i == 0 || null_window => {
                    -self.pvs_midgame(cp, co, &cf, -beta, -alpha, depth - 1, n - 1, cparity)
                }
                None => -self.pvs_midgame(cp, co, &cf, -alpha - 1, -alpha, depth - 1, n - 1, cparity),
            };
            if i > 0 && beta > alpha + 1 && score > alpha && score < beta && !self.aborted {
                score = -self.pvs_midgame(cp, co, &cf, -beta, -alpha, depth - 1, n - 1, cparity);
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
        let (lower, upper) = if best >= beta {
            (best, 64)
        } else if best > original_alpha {
            (best, best)
        } else {
            (-64, best)
        };
        self.store(hash, found, depth as u8, self.sel, lower, upper, best_move, self.nodes - start_nodes);
        best
    }

    /// Enhanced transposition cutoff: a child whose table entry (searched at least
    /// `depth - 1` plies, at this selectivity or above) proves it bad enough for the
    /// opponent settles the node with a value of at least `beta`.
    fn transposition_cutoff(&self, p: u64, o: u64, list: &MoveList, beta: i32, depth: u32) -> Option<i32> {
        let tt = &self.shared.tt;
        let mut hashes = arrayvec::ArrayVec::<u64, 40>::new();
        for m in list.iter() {
            let h = board_hash(o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq));
            tt.prefetch(h);
            hashes.push(h);
        }
        hashes.iter().find_map(|&h| {
            tt.probe::<HashEntry>(h)
                .filter(|e| e.depth as u32 + 1 >= depth && e.selectivity >= self.sel && -(e.upper as i32) >= beta)
                .map(|e| -(e.upper as i32))
        })
    }

    /// A one-ply search: the best of the children's evaluations (fail-soft, stopping
    /// at the first that reaches `beta`). Each child is evaluated once; sorting them
    /// by evaluation first would cost an evaluation of each.
    fn best_child_eval(&mut self, p: u64, o: u64, f: &Features, legal: u64, beta: i32) -> i32 {
        let mut best = -INF;
        // The player's search tries the corners first and the X and C squares last, so
        // that a fail high comes sooner; the solver's keeps the squares' order (its node
        // counts are the benchmarks').
        let (first, middle, last) = if self.shared.play_cuts {
            (legal & CORNERS, legal & !(CORNERS | X_AND_C_SQUARES), legal & X_AND_C_SQUARES)
        } else {
            (legal, 0, 0)
        };
        for sq in squares(first).chain(squares(middle)).chain(squares(last)) {
            let flipped = flips::flips(p, o, sq);
            self.nodes += 1;
            let (cp, co) = (o ^ flipped, p ^ flipped ^ (1u64 << sq));
            let score = -eval_discs_after(f, sq, flipped, cp, co);
            if score > best {
                best = score;
                if best >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Moves sorted by the table's move, then the ordering features and (except in the
    /// player's selective search, where it costs more than the better order saves)
    /// the evaluation of the position after each move.
    fn quick_sorted_moves(&mut self, p: u64, o: u64, f: &Features, parity: u8, n: u32, hash_move: u8) -> MoveList {
        let mut list = MoveList::new();
        for sq in squares(moves(p, o)) {
            let flipped = flips::flips(p, o, sq);
            let (cp, co) = (o ^ flipped, p ^ flipped ^ (1u64 << sq));
            let score = if sq == hash_move {
                1 << 30
            } else if self.shared.play_cuts {
                ordering_score(cp, co, sq, parity, n)
            } else {
                let value = eval_discs_after(f, sq, flipped, cp, co);
                ordering_score(cp, co, sq, parity, n) + W_EVAL * (64 - value)
            };
            list.push(Move { sq, flips: flipped, score, replies: 0 });
        }
        list.sort();
        list
    }

    /// The moves of `list` (all of `(p, o)`'s) sorted for the midgame search, the
    /// table's move first: by a shallow search of `sort_depth` plies after each move,
    /// or with `None` (the nodes of the player's selective search) by each child's
    /// evaluation (weighted [`PLAY_W_EVAL`]) and the ordering features.
    #[allow(clippy::too_many_arguments)]
    pub fn eval_sorted_moves(
        &mut self,
        p: u64,
        o: u64,
        f: &Features,
        mut list: MoveList,
        parity: u8,
        n: u32,
        sort_depth: Option<u32>,
        alpha: i32,
        hash_move: u8,
    ) -> MoveList {
        let first = list.take(hash_move);
        match sort_depth {
            Some(depth) => self.search_sort(&mut list, p, o, f, parity, n, depth, alpha, W_EVAL),
            // The children's evaluations, as NTest and Edax sort their midgame nodes: for
            // the player's selective search shallow searches cost more than they save.
            None => self.search_sort(&mut list, p, o, f, parity, n, 0, alpha, PLAY_W_EVAL),
        }
        if let Some(m) = first {
            list.insert_first(m);
        }
        list
    }

    /// Sorts `list` (moves of `(p, o)`) by a shallow search of `sort_depth` plies
    /// after each move (0: the child's evaluation), `weight` a disc of it, then the
    /// ordering features. The exact search sorts this way from
    /// [`EVAL_SORT_MIN_EMPTIES`](super::params::EVAL_SORT_MIN_EMPTIES) up.
    #[allow(clippy::too_many_arguments)]
    pub fn search_sort(
        &mut self,
        list: &mut MoveList,
        p: u64,
        o: u64,
        f: &Features,
        parity: u8,
        n: u32,
        sort_depth: u32,
        alpha: i32,
        weight: i32,
    ) {
        let sort_alpha = (alpha - SORT_ALPHA_MARGIN).max(-64);
        for m in list.iter_mut() {
            let (cp, co) = (o ^ m.flips, p ^ m.flips ^ (1u64 << m.sq));
            m.score = if cp == 0 {
                1 << 29
            } else {
                let value = if sort_depth == 0 {
                    self.nodes += 1;
                    eval_discs_after(f, m.sq, m.flips, cp, co)
                } else {
                    let cparity = parity ^ QUADRANT[m.sq as usize];
                    let cf = f.after(m.sq, m.flips);
                    self.pvs_midgame(cp, co, &cf, -64, -sort_alpha, sort_depth, n - 1, cparity)
                };
                ordering_score(cp, co, m.sq, parity, n) + weight * (64 - value)
            };
        }
        list.sort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x_and_c_squares_are_the_squares_next_to_a_corner() {
        let mut next_to_a_corner = 0u64;
        for corner in squares(CORNERS) {
            let (row, col) = (corner as i32 / 8, corner as i32 % 8);
            for sq in 0..64 {
                let (r, c) = (sq / 8, sq % 8);
                if sq != corner as i32 && (r - row).abs() <= 1 && (c - col).abs() <= 1 {
                    next_to_a_corner |= 1 << sq;
                }
            }
        }
        assert_eq!(X_AND_C_SQUARES, next_to_a_corner);
        assert_eq!(X_AND_C_SQUARES.count_ones(), 12);
    }
}
