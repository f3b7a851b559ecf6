//! Reading a search's result out of the tree: the best move, the root's moves and
//! the principal variation.

use std::sync::atomic::Ordering::Relaxed;

use bitboards::go::{Cell, FastBoard, Move, Point};

use super::Mcts;
use super::tree::PASS;

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

pub(super) fn to_move(cell: Cell) -> Move {
    if cell == PASS { Move::Pass } else { Move::Play(FastBoard::point(cell)) }
}

impl Mcts {
    pub(super) fn result(&self, playouts: u64, elapsed: std::time::Duration) -> MctsResult {
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

/// The point of a GTP-facing move, for tests and callers.
pub fn point_of(m: Move) -> Option<Point> {
    match m {
        Move::Play(p) => Some(p),
        Move::Pass => None,
    }
}
