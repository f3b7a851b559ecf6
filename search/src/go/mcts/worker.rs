//! The search threads: each runs iterations (descend, expand, play out, back up) on
//! the shared tree until a limit is reached.

use std::sync::atomic::Ordering::Relaxed;

use bitboards::go::{Cell, Color};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::stopping::{best_is_settled, extends_when_unclear, root_is_unclear, stops_when_settled};
use super::tree::{EXPANDING, PASS, Tree, UNEXPANDED};
use super::{Mcts, Shared};
use crate::go::last_good_reply::LastGoodReply;
use crate::go::params::{DEFAULT_PLAYOUTS, EARLY_STOP_CHECK, EXPAND_AFTER};
use crate::go::playout::{black_wins, playout_with};

/// Longest path walked down the tree in one iteration.
pub(super) const MAX_DEPTH: usize = 400;

/// What one thread needs for its iterations.
pub(super) struct Worker {
    pub(super) rng: Xoshiro256PlusPlus,
    pub(super) amaf: [u8; 128],
    pub(super) path: [u32; MAX_DEPTH],
    /// The iteration's moves (cell, 0 for a pass; whether Black played it), for the
    /// last good replies.
    pub(super) moves: Vec<(Cell, bool)>,
}

impl Mcts {
    /// One iteration: descend (counting visits), expand, play out, back up.
    fn iterate(&self, tree: &Tree, replies: Option<&LastGoodReply>, w: &mut Worker) {
        let mut board = self.root.clone();
        let mut depth = 0;
        let mut node = 0usize;
        let root_black = board.to_move() == Color::BLACK;
        let amaf = &mut w.amaf;
        amaf.fill(0);
        let moves = &mut w.moves;
        moves.clear();
        let mut visits_before = tree.nodes[0].visits.fetch_add(1, Relaxed);
        // Descend.
        loop {
            w.path[depth] = node as u32;
            depth += 1;
            if board.passes() >= 2 || depth >= MAX_DEPTH {
                break;
            }
            let children = match tree.nodes[node].children() {
                Some(children) => children,
                None => {
                    let claimed = visits_before >= EXPAND_AFTER
                        && tree.nodes[node].children.compare_exchange(UNEXPANDED, EXPANDING, Relaxed, Relaxed).is_ok();
                    // Not visited enough, being expanded by another thread, or no room
                    // left: play out from here.
                    let last = if node == 0 { self.root_last } else { tree.nodes[node].cell() };
                    let before = match depth {
                        1 => self.root_before,
                        2 => self.root_last,
                        _ => tree.nodes[w.path[depth - 2] as usize].cell(),
                    };
                    if !claimed || !self.expand_or_share(tree, node, &board, (last, before)) {
                        break;
                    }
                    match tree.nodes[node].children() {
                        Some(children) => children,
                        None => break,
                    }
                }
            };
            let child = Self::select(tree, node, children, self.settings.exploration);
            visits_before = tree.nodes[child].visits.fetch_add(1, Relaxed);
            let cell = tree.nodes[child].cell();
            let black = board.to_move() == Color::BLACK;
            if replies.is_some() {
                moves.push((cell, black));
            }
            if cell == PASS {
                board.pass();
            } else {
                if amaf[cell as usize] == 0 {
                    amaf[cell as usize] = if black { 1 } else { 2 };
                }
                board.play(cell);
                // Superko: a move that brings back a board of the game is illegal,
                // whatever the path (so a block of children shared by transposition
                // is right for every parent). It is marked so and this iteration is
                // undone.
                if !self.history.is_empty() && self.history.binary_search(&board.stones_key(self.situational)).is_ok() {
                    tree.nodes[child].illegal.store(true, Relaxed);
                    for &id in w.path[..depth].iter().chain([child as u32].iter()) {
                        tree.nodes[id as usize].visits.fetch_sub(1, Relaxed);
                    }
                    return;
                }
            }
            node = child;
        }
        // Play out, after the last two moves of the game and the tree.
        let start = (self.root_before, self.root_last);
        let context = match moves[..] {
            [.., (before, _), (last, _)] => (before, last),
            [(last, _)] => (self.root_last, last),
            [] => start,
        };
        let diff =
            playout_with(self.settings.policy, &mut board, &mut w.rng, self.cap, context, replies, |cell, black| {
                if amaf[cell as usize] == 0 {
                    amaf[cell as usize] = if black { 1 } else { 2 };
                }
                if replies.is_some() {
                    moves.push((cell, black));
                }
            });
        let black_wins = black_wins(diff, self.komi, &mut w.rng);
        if let Some(replies) = replies {
            replies.learn(start, moves, black_wins);
        }
        // Back up. The node at depth d holds a move by the player who moved at d-1.
        for (d, &id) in w.path[..depth].iter().enumerate() {
            let n = &tree.nodes[id as usize];
            // Mover of this node's move: the root's side for d = 1, alternating (passes
            // alternate too).
            let mover_black = if d % 2 == 1 { root_black } else { !root_black };
            if d > 0 && mover_black == black_wins {
                n.wins.fetch_add(1, Relaxed);
            }
            // RAVE: credit the children of this node whose move was later played by the
            // player to move here.
            if let Some(children) = n.children() {
                let to_move_black = if d % 2 == 0 { root_black } else { !root_black };
                let mark = if to_move_black { 1 } else { 2 };
                let credit = (1 << 32) | u64::from(to_move_black == black_wins);
                for child in &tree.nodes[children] {
                    let cell = child.cell();
                    if cell != PASS && amaf[cell as usize] == mark {
                        child.rave.fetch_add(credit, Relaxed);
                    }
                }
            }
        }
    }

    /// One thread's share of a search: iterations until a limit is reached.
    pub(super) fn work(&self, shared: &Shared, mut w: Worker) {
        let limits = shared.limits;
        let max_playouts = limits.nodes.unwrap_or(u64::MAX);
        let no_limit = limits.nodes.is_none()
            && limits.movetime.is_none()
            && !limits.infinite
            && limits.clock.time.iter().all(Option::is_none);
        // A search on a clock may end as soon as the most visited root move cannot be
        // overtaken in the time left: the time saved stays on the clock for later moves.
        // On a main-time clock the time left runs to the hard limit (an unclear root
        // goes on past the slice), so the stop saves time mostly where the tree kept
        // from the last move already leads by many visits.
        let timed = stops_when_settled(limits) && shared.budget.soft_limit().is_some();
        let extends = timed && extends_when_unclear(limits);
        let mut mine = 0u64;
        while !shared.halt.load(Relaxed) {
            if shared.begun.fetch_add(1, Relaxed) >= max_playouts {
                break;
            }
            self.iterate(shared.tree, shared.replies.as_ref(), &mut w);
            let done = shared.done.fetch_add(1, Relaxed) + 1;
            mine += 1;
            // Past the soft limit a search on a clock goes on while its root is unclear.
            if mine.is_multiple_of(64)
                && (shared.stop.is_stopped()
                    || shared.budget.hard_expired()
                    || (shared.budget.soft_expired() && !limits.infinite && !(extends && root_is_unclear(shared))))
            {
                shared.halt.store(true, Relaxed);
            }
            // No limit given at all: a sensible default.
            if no_limit && done >= DEFAULT_PLAYOUTS {
                shared.halt.store(true, Relaxed);
            }
            if timed && mine.is_multiple_of(EARLY_STOP_CHECK) && best_is_settled(shared, done, extends) {
                shared.halt.store(true, Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::mcts::Mcts;
    use crate::limits::{Limits, StopFlag};
    use bitboards::go::{Board, FastBoard, Game, Move, Superko};

    /// Move 70 of a game against Pachi 12.90 (docs/go-move-model.md, seed 4579, game
    /// 28), black to move. Black C1 throws two stones in; White takes them at A1, and
    /// Black's retake at B1 would bring back the board of before C1: legal under simple
    /// ko, a repetition under superko. Black played C1 counting on the retake, and lost.
    fn superko_throw_in(superko: Superko) -> Game {
        let moves = "B9 J6 E5 C4 G5 C6 D7 C7 C8 D6 E6 D8 E7 E3 D4 D3 C3 C2 G3 B8 B3 B2 E2 F2 D2 D1 C5 B4 B5 D5 \
                     A4 E4 C4 B6 B1 E8 C9 D9 A2 E1 G2 F4 F5 G4 H4 F8 H5 A6 G1 E2 F3 F1 G7 G8 H8 F7 H7 H9 H3 A9 \
                     J8 A5 F6 G9 C8 J9 A7 B7 B9 C9";
        let mut game = Game::new(Board::new(9), 7.0, superko);
        for (i, m) in moves.split_whitespace().enumerate() {
            let color = if i % 2 == 0 { Color::BLACK } else { Color::WHITE };
            game.play(color, Move::from_gtp(m, 9).expect("a vertex")).expect("a legal move");
        }
        game
    }

    #[test]
    fn the_tree_knows_superko() {
        let at = |m: &str| {
            FastBoard::cell(match Move::from_gtp(m, 9).expect("a vertex") {
                Move::Play(p) => p,
                Move::Pass => unreachable!(),
            })
        };
        let line = |search: &Mcts| {
            let tree = search.tree.as_ref().expect("a tree");
            let c1 = tree.child_with(0, at("C1"));
            let a1 = c1.and_then(|n| tree.child_with(n, at("A1")));
            let b1 = a1.and_then(|n| tree.child_with(n, at("B1")));
            b1.map(|n| (tree.nodes[n].visits.load(Relaxed), tree.nodes[n].illegal.load(Relaxed)))
        };
        // The root may only throw in (every other point excluded, no pass), so every
        // playout goes through C1 and White's capture at A1; the tree marks the retake
        // illegal exactly when the full rules do.
        let only_c1 = |game: &Game| game.board().empty() & !FastBoard::point(at("C1")).bit();
        let limits = Limits { nodes: Some(5_000), ..Limits::default() };
        for superko in [Superko::Off, Superko::Positional, Superko::Situational] {
            let game = superko_throw_in(superko);
            // What the full rules say of the retake: a repetition under positional
            // superko only (the board comes back with the other side to move).
            let mut rules = game.clone();
            for (color, m) in [(Color::BLACK, "C1"), (Color::WHITE, "A1")] {
                rules.play(color, Move::from_gtp(m, 9).unwrap()).expect("legal");
            }
            let retake_is_legal = rules.check(Color::BLACK, Move::from_gtp("B1", 9).unwrap()).is_ok();
            assert_eq!(retake_is_legal, superko != Superko::Positional);
            let mut search = Mcts::with_excluded(&game, 7, false, only_c1(&game));
            let r = search.search(&limits, &StopFlag::new(), Color::BLACK);
            let (visits, illegal) = line(&search).expect("C1 A1 B1 expanded");
            if retake_is_legal {
                assert!(visits > 0 && !illegal, "{superko:?}: B1 has {visits} visits");
            } else {
                assert!(visits == 0 && illegal, "{superko:?}: B1 has {visits} visits");
            }
            // The principal variation is legal under the full rules.
            let mut replay = game.clone();
            for (i, &m) in r.pv.iter().enumerate() {
                let color = if i % 2 == 0 { Color::BLACK } else { Color::WHITE };
                replay.play(color, m).unwrap_or_else(|e| panic!("{superko:?}: move {i} of {:?}: {e}", r.pv));
            }
        }
    }
}
