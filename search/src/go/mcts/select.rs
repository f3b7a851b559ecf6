//! UCT-RAVE selection: the value of a child (its mean, its RAVE mean and the
//! exploration term) and the choice of the child to walk into.

use std::sync::atomic::Ordering::Relaxed;

use super::Mcts;
use super::tree::{Node, PASS, Tree};
use crate::go::params::{FIRST_PLAY_URGENCY, PASS_PENALTY, RAVE_EQUIVALENCE};

/// The weight of a node's RAVE (AMAF) mean against its own mean after `visits` visits:
/// √(k / (3·visits + k)), k = [`RAVE_EQUIVALENCE`].
pub(crate) fn rave_weight(visits: f32) -> f32 {
    (RAVE_EQUIVALENCE / (3.0 * visits + RAVE_EQUIVALENCE)).sqrt()
}

impl Node {
    /// The selection value; the prior's virtual visits and wins count in both the
    /// node's own statistics and its RAVE statistics.
    fn value(&self, parent_log: f32, exploration: f32) -> f32 {
        let prior_visits = u32::from(self.prior_visits.load(Relaxed));
        let prior_wins = u32::from(self.prior_wins.load(Relaxed));
        let rave_word = self.rave.load(Relaxed);
        let rave_visits = (rave_word >> 32) as u32 + prior_visits;
        let rave = if rave_visits > 0 { (rave_word as u32 + prior_wins) as f32 / rave_visits as f32 } else { 0.5 };
        let visits = self.visits.load(Relaxed) + prior_visits;
        if visits == 0 {
            // First-play urgency: trust RAVE, a little above an even game.
            return rave + FIRST_PLAY_URGENCY;
        }
        let n = visits as f32;
        let q = (self.wins.load(Relaxed) + prior_wins) as f32 / n;
        let beta = rave_weight(n);
        (1.0 - beta) * q + beta * rave + exploration * (parent_log / n).sqrt()
    }
}

impl Mcts {
    pub(super) fn select(tree: &Tree, node: usize, children: std::ops::Range<usize>, exploration: f32) -> usize {
        let log = (tree.nodes[node].visits.load(Relaxed).max(1) as f32).ln();
        let mut best = children.start;
        let mut best_value = f32::MIN;
        for i in children {
            let child = &tree.nodes[i];
            if child.illegal.load(Relaxed) {
                continue;
            }
            let mut v = child.value(log, exploration);
            if child.cell() == PASS {
                // Passing is a last resort while the board still has moves.
                v -= PASS_PENALTY;
            }
            if v > best_value {
                best_value = v;
                best = i;
            }
        }
        best
    }
}
