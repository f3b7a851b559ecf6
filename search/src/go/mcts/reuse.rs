//! Tree reuse: the subtree of the moves played since the last search becomes the new
//! tree, in the same arena.

use std::sync::atomic::Ordering::Relaxed;

use bitboards::go::{FastBoard, Game, Move};

use super::tree::{PASS, UNEXPANDED};
use super::{Mcts, MctsSettings};

impl Mcts {
    /// A tree for `game`, as [`Mcts::with_excluded`] makes it, that keeps what this
    /// tree learned about it: when `game` continues this tree's game (same start and
    /// komi, its moves and then more), the subtree of the moves played since becomes
    /// the new tree, moved to the front of the same arena (tree reuse); otherwise,
    /// or if those moves leave the tree, it starts empty (only the used part of the
    /// arena is cleared). With other `settings` than this tree's, the arena is freed
    /// and the next search allocates a new one. The root's children are those the
    /// full rules allow now, keeping the statistics of the ones the tree had.
    pub fn reuse(mut self, game: &Game, seed: u64, allow_pass: bool, excluded: u128, settings: MctsSettings) -> Mcts {
        let mut next = Mcts::with_excluded(game, seed, allow_pass, excluded).with_settings(settings);
        if next.settings != self.settings {
            return next;
        }
        let Some(tree) = self.tree.take() else { return next };
        let old = self.root_game.moves();
        let continues = game.start() == self.root_game.start()
            && game.komi() == self.root_game.komi()
            && game.moves().len() >= old.len()
            && game.moves()[..old.len()] == *old;
        let mut node = Some(0);
        if continues {
            for &(_, m) in &game.moves()[old.len()..] {
                let cell = match m {
                    Move::Play(p) => FastBoard::cell(p),
                    Move::Pass => PASS,
                };
                node = node.and_then(|n| tree.child_with(n, cell));
            }
        }
        match node {
            Some(root) if continues => {
                tree.reroot(root);
                tree.index_transpositions(&next.root);
            }
            _ => tree.reset(),
        }
        next.tree = Some(tree);
        next.fit_root_children();
        next
    }

    /// Gives the root exactly [`Mcts::root_cells`] as children, with the statistics
    /// (and subtrees) of the children it already has for them.
    fn fit_root_children(&mut self) {
        let priors = self.root_priors();
        let Some(tree) = self.tree.as_ref() else { return };
        let old: Vec<usize> = tree.nodes[0].children().map_or(Vec::new(), |c| c.collect());
        // The root's moves are the full rules' (superko included), so none of them is
        // marked illegal, whatever the tree kept from before.
        for &i in &old {
            tree.nodes[i].illegal.store(false, Relaxed);
        }
        let same = old.len() == self.root_cells.len()
            && old.iter().zip(&self.root_cells).all(|(&i, &c)| tree.nodes[i].cell() == c);
        if same {
            return;
        }
        let keep: Vec<Option<usize>> =
            self.root_cells.iter().map(|&c| old.iter().copied().find(|&i| tree.nodes[i].cell() == c)).collect();
        tree.nodes[0].children.store(UNEXPANDED, Relaxed);
        if !tree.add_children(0, &self.root_cells, &priors) {
            // No room for a new block of root children: start afresh.
            tree.reset();
            tree.add_children(0, &self.root_cells, &priors);
            return;
        }
        let Some(block) = tree.nodes[0].children() else { return };
        for (slot, kept) in block.zip(keep) {
            if let Some(from) = kept {
                tree.copy_node(from, slot);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::mcts::result::to_move;
    use crate::go::mcts::tree::Tree;
    use crate::limits::{Limits, StopFlag};
    use bitboards::go::{Board, Cell, Color, Superko};

    /// The visits of the children of `node`, by cell.
    fn child_visits(tree: &Tree, node: usize) -> Vec<(Cell, u32)> {
        let mut v: Vec<(Cell, u32)> = tree.nodes[node]
            .children()
            .map_or(Vec::new(), |c| c.map(|i| (tree.nodes[i].cell(), tree.nodes[i].visits.load(Relaxed))).collect());
        v.sort_unstable();
        v
    }

    #[test]
    fn the_subtree_after_two_moves_is_kept_and_the_rest_cleared() {
        let mut game = Game::new(Board::new(9), 7.5, Superko::Positional);
        let settings = MctsSettings::default();
        let mut m = Mcts::new(&game, 2).with_settings(settings);
        let limits = Limits { nodes: Some(4000), ..Limits::default() };
        let r = m.search(&limits, &StopFlag::new(), Color::BLACK);
        let Move::Play(first) = r.best else { panic!("a pass on the empty board") };
        let tree = m.tree.as_ref().unwrap();
        let mine = tree.child_with(0, FastBoard::cell(first)).unwrap();
        let (reply_cell, _) = child_visits(tree, mine).into_iter().max_by_key(|c| c.1).unwrap();
        let reply = tree.child_with(mine, reply_cell).unwrap();
        let kept_visits = tree.nodes[reply].visits.load(Relaxed);
        let kept_children = child_visits(tree, reply);
        let used_before = tree.used();
        assert!(kept_visits > 10 && !kept_children.is_empty(), "{kept_visits} visits");

        game.play(Color::BLACK, Move::Play(first)).unwrap();
        game.play(Color::WHITE, to_move(reply_cell)).unwrap();
        let mut m = m.reuse(&game, 3, true, 0, settings);
        let tree = m.tree.as_ref().unwrap();
        assert_eq!(tree.nodes[0].visits.load(Relaxed), kept_visits);
        assert_eq!(child_visits(tree, 0), kept_children, "the root's children and their statistics");
        let used = tree.used();
        assert!(used < used_before, "{used} of {used_before} nodes kept");
        assert!(tree.nodes[used..used_before].iter().all(|n| n.visits.load(Relaxed) == 0 && n.cell() == 0));
        // Every kept child block lies inside the used part.
        for n in &tree.nodes[..used] {
            if let Some(c) = n.children() {
                assert!(c.end <= used);
            }
        }
        let kept_sum: u32 = kept_children.iter().map(|c| c.1).sum();
        let r = m.search(&limits, &StopFlag::new(), Color::BLACK);
        let sum: u32 = r.root_moves.iter().map(|m| m.1).sum();
        assert_eq!(sum, kept_sum + 4000, "the new playouts add to the kept ones");
    }

    #[test]
    fn another_game_starts_an_empty_tree_and_the_budget_holds_across_moves() {
        let settings = MctsSettings { threads: 2, max_nodes: 3000, ..MctsSettings::default() };
        let limits = Limits { nodes: Some(5000), ..Limits::default() };
        let mut game = Game::new(Board::new(9), 7.5, Superko::Positional);
        let mut m = Mcts::new(&game, 1).with_settings(settings);
        for _ in 0..6 {
            let color = game.board().to_move();
            let r = m.search(&limits, &StopFlag::new(), color);
            assert!(r.nodes <= 3000, "{} nodes", r.nodes);
            game.play(color, r.best).unwrap();
            m = m.reuse(&game, 1, true, 0, settings);
        }
        // A game that does not continue this one: nothing is kept.
        let other = Game::new(Board::new(9), 6.5, Superko::Positional);
        let m = m.reuse(&other, 1, true, 0, settings);
        let tree = m.tree.as_ref().unwrap();
        assert_eq!(tree.nodes[0].visits.load(Relaxed), 0);
        assert_eq!(tree.used(), 1 + m.root_cells.len());
        assert!(tree.nodes[tree.used()..].iter().all(|n| n.visits.load(Relaxed) == 0));
    }

    #[test]
    fn reused_searches_with_one_thread_are_deterministic() {
        let run = || {
            let mut game = Game::new(Board::new(9), 7.5, Superko::Positional);
            let mut m = Mcts::new(&game, 9);
            let mut moves = Vec::new();
            for _ in 0..4 {
                let color = game.board().to_move();
                let r = m.search(&Limits { nodes: Some(1500), ..Limits::default() }, &StopFlag::new(), color);
                moves.push(r.root_moves.clone());
                game.play(color, r.best).unwrap();
                m = m.reuse(&game, 9, true, 0, MctsSettings::default());
            }
            moves
        };
        assert_eq!(run(), run());
    }
}
