//! Expansion: a node's children with their priors, or the children block of the same
//! position reached by another move order (transpositions).

use std::sync::atomic::Ordering::{Relaxed, Release};

use bitboards::go::{Cell, FastBoard};

use super::Mcts;
use super::tree::{PASS, Tree};
use crate::go::move_model::{add_model_priors, built_in_model};
use crate::go::prior::{Prior, prior};

impl Mcts {
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
    pub(super) fn expand_or_share(&self, tree: &Tree, node: usize, board: &FastBoard, moves: (Cell, Cell)) -> bool {
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
    pub(super) fn root_priors(&self) -> Vec<Prior> {
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
}
