//! Information-set MCTS for Phantom Go (multiple-observer ISMCTS, Cowling, Powley and
//! Whitehouse 2012): one tree per side over what that side knows — its own moves —
//! each iteration on a fresh determinization.
//!
//! Every iteration takes a board sampled from the view ([`Belief::sample`]; a pool of
//! samples is drawn as the search goes and reused) and plays down the trees: the side
//! to move chooses, in its own tree, among the children whose move is playable on
//! that board (neither side sees the other's moves, so the other's choices do not
//! branch its tree); a playout ([`PlayerSettings::playouts`], light by default)
//! finishes the game and both trees' paths are updated. A node gets its children once
//! it has been visited [`EXPAND_AFTER`] times: one for every point but the view's own
//! stones (which points are free differs from sample to sample and, in the
//! opponent's tree, with our moves). A child's exploration term counts the iterations
//! in which it was *available* (its move playable on the iteration's board), not its
//! parent's visits, so a move that is often blocked by a sampled opponent stone is
//! judged on the boards where it can be played. AMAF (RAVE) statistics share the
//! playouts between moves, as in the Go MCTS; a child not yet visited is judged by
//! them alone.
//!
//! Unlike one MCTS per sample ([`super::player`]'s visit-sharing search), the trees
//! grow with the time given: the statistics of every sample refine the same trees, and
//! a move is chosen for what it does over the whole belief, not for what it does
//! when the opponent's stones are known.
//!
//! At the root the candidates are [`super::try_candidates`] and the pass; deeper,
//! every point the playout policy may play. The tree stops growing at [`MAX_NODES`];
//! iterations continue through the tree as it stands.

use bitboards::go::{Cell, Color, FastBoard, Move, bits, board_mask};
use bitboards::phantom::{SIZE, View};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;

use super::belief::{Belief, Sample};
use super::choice::{Budget, Choice, PlayerSettings, ranked_choice};
pub use super::params::MAX_NODES;
use super::params::{EXPAND_AFTER, FRESH_SAMPLES_FIRST, PHANTOM_EXPLORATION, POOL, SCORE_FLOOR_DIVISOR};
use crate::go::mcts::rave_weight;
use crate::go::playout::{black_wins, move_cap, playout};

/// The cell that stands for a pass (cell 0 is off the board).
const PASS_CELL: Cell = 0;

/// A node: the move that led to it and its statistics, from the point of view of the
/// player who made that move; its children are `children` consecutive nodes from
/// `first_child`.
struct Node {
    cell: Cell,
    mover: Color,
    children: u8,
    first_child: u32,
    visits: u32,
    wins: f32,
    avail: u32,
    rave_visits: u32,
    rave_wins: f32,
}

impl Node {
    fn new(cell: Cell, mover: Color) -> Node {
        Node {
            cell,
            mover,
            children: 0,
            first_child: 0,
            visits: 0,
            wins: 0.0,
            avail: 0,
            rave_visits: 0,
            rave_wins: 0.0,
        }
    }

    fn mean(&self) -> f32 {
        if self.visits == 0 { 0.5 } else { self.wins / self.visits as f32 }
    }

    /// The UCB-RAVE value used to choose among available children (a child never
    /// visited is judged by its AMAF mean alone).
    fn value(&self) -> f32 {
        let q = self.mean();
        let blended = if self.rave_visits == 0 {
            q
        } else {
            let beta = rave_weight(self.visits as f32);
            (1.0 - beta) * q + beta * self.rave_wins / self.rave_visits as f32
        };
        let explore = PHANTOM_EXPLORATION * ((self.avail.max(1) as f32).ln() / self.visits.max(1) as f32).sqrt();
        blended + explore
    }

    fn child_range(&self) -> std::ops::Range<usize> {
        self.first_child as usize..self.first_child as usize + self.children as usize
    }
}

/// The cells where the side to move on `b` may play: the playout policy's points, and
/// an own eye whose filling saves an own chain in atari.
fn playable_cells(b: &FastBoard) -> u128 {
    let mut out = 0;
    for cell in b.empties() {
        if b.is_playable(cell) || b.saves_own_chain_in_atari(cell) {
            out |= 1 << cell;
        }
    }
    out
}

/// The search (see the module documentation) over the root `candidates` (points of
/// the view), within `budget`.
pub(crate) fn search(view: &View, settings: &PlayerSettings, candidates: u128, budget: &Budget, seed: u64) -> Choice {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let belief = Belief::new(view);
    let me = view.color();
    // The cells a node's children stand for: every point but the view's own stones.
    // Which of them is free differs from sample to sample, and in the opponent's tree
    // with the moves we chose on the way; each iteration's availability test sorts
    // them out.
    let child_cells: Vec<Cell> = bits(board_mask(SIZE) & !view.own()).map(FastBoard::cell).collect();
    let root_cells: u128 = bits(candidates).fold(0, |m, p| m | 1 << FastBoard::cell(p));
    let komi = settings.komi as f32;
    let cap = move_cap(SIZE);
    // One tree per player, indexed by colour: each holds that player's own moves only
    // (neither side sees the other's). Ours starts with the pass (node 1) and every
    // candidate; the opponent's grows like any other node.
    // Room for the cap from the start: growing a vector by doubling would hold twice
    // the nodes' memory for a moment (pages are touched only as nodes are made).
    let mut trees: [Vec<Node>; 2] = [Color::BLACK, Color::WHITE].map(|c| {
        let mut tree = Vec::with_capacity(MAX_NODES / 2);
        tree.push(Node::new(PASS_CELL, c));
        tree
    });
    {
        let ours = &mut trees[me.index()];
        ours.push(Node::new(PASS_CELL, me));
        for p in bits(candidates) {
            ours.push(Node::new(FastBoard::cell(p), me));
        }
        ours[0].first_child = 1;
        ours[0].children = (ours.len() - 1) as u8;
    }
    let mut pool: Vec<Sample> = Vec::new();
    let (mut playouts, mut samples) = (0u64, 0u32);
    // The nodes visited this iteration: (moves played before it, tree, node).
    let mut path: Vec<(usize, usize, u32)> = Vec::new();
    let mut sequence: Vec<(Cell, Color)> = Vec::new();
    while !budget.done(playouts, samples) {
        let fresh = pool.len() < POOL && (pool.len() < FRESH_SAMPLES_FIRST || playouts % 2 == 0);
        if fresh {
            match belief.sample(&mut rng) {
                Some(s) => {
                    pool.push(s);
                    samples += 1;
                }
                None if pool.is_empty() => break,
                None => {}
            }
        }
        let sample = if fresh { &pool[pool.len() - 1] } else { &pool[super::below(&mut rng, pool.len())] };
        let mut board = FastBoard::from_board(&sample.board);
        path.clear();
        sequence.clear();
        path.push((0, 0, 0));
        path.push((0, 1, 0));
        // Down the trees: the side to move chooses in its own tree.
        let mut current = [0usize; 2];
        while board.passes() < 2 {
            let mover = board.to_move();
            let t = mover.index();
            let tree = &mut trees[t];
            let node = current[t];
            if tree[node].children == 0 {
                if tree[node].visits < EXPAND_AFTER || tree.len() + 82 > MAX_NODES / 2 {
                    break;
                }
                let first = tree.len();
                for &cell in &child_cells {
                    tree.push(Node::new(cell, mover));
                }
                tree[node].first_child = first as u32;
                tree[node].children = (tree.len() - first) as u8;
            }
            let at_root = mover == me && node == 0;
            let mut playable = playable_cells(&board);
            if at_root {
                playable &= root_cells;
            }
            let mut best: Option<(f32, usize)> = None;
            for c in tree[node].child_range() {
                let child = &mut tree[c];
                let available = if child.cell == PASS_CELL { at_root } else { playable >> child.cell & 1 != 0 };
                if available {
                    child.avail += 1;
                    let v = child.value();
                    if best.is_none_or(|(b, _)| v > b) {
                        best = Some((v, c));
                    }
                }
            }
            let Some((_, id)) = best else { break };
            let cell = tree[id].cell;
            if cell == PASS_CELL {
                board.pass();
            } else {
                board.play(cell);
            }
            sequence.push((cell, mover));
            path.push((sequence.len(), t, id as u32));
            current[t] = id;
            if tree[id].visits == 0 {
                break;
            }
        }
        let diff = playout(settings.playouts, &mut board, &mut rng, cap, |cell, black| {
            sequence.push((cell, if black { Color::BLACK } else { Color::WHITE }));
        });
        playouts += 1;
        let black_wins = black_wins(diff, komi, &mut rng);
        let score = |c: Color| if (c == Color::BLACK) == black_wins { 1.0 } else { 0.0 };
        // AMAF: the first colour to play each cell from each node's move on, built
        // backwards (a later write is an earlier move).
        let mut first = [None::<Color>; 128];
        let mut next = sequence.len();
        for &(played, t, id) in path.iter().rev() {
            while next > played {
                next -= 1;
                let (cell, color) = sequence[next];
                first[cell as usize] = Some(color);
            }
            let tree = &mut trees[t];
            let n = &mut tree[id as usize];
            n.visits += 1;
            n.wins += score(n.mover);
            for c in tree[id as usize].child_range() {
                let child = &mut tree[c];
                if child.cell != PASS_CELL && first[child.cell as usize] == Some(child.mover) {
                    child.rave_visits += 1;
                    child.rave_wins += score(child.mover);
                }
            }
        }
    }
    choose_at_root(&trees[me.index()], samples, playouts, budget)
}

/// The try: the candidate chosen most often where it was available (counted over at
/// least a fifth of the iterations, so that a point free on a few boards only does not
/// win by chance), or the pass when it wins clearly more often than that candidate even
/// with its win rate lowered by `1/√visits` (two standard errors at most: a pass won a
/// few times by chance in a short search is no reason to stop playing).
fn choose_at_root(nodes: &[Node], samples: u32, playouts: u64, budget: &Budget) -> Choice {
    let floor = (playouts / u64::from(SCORE_FLOOR_DIVISOR)).max(1) as f32;
    let share = |n: &Node| n.visits as f32 / (n.avail as f32).max(floor);
    let moves: Vec<(Move, f32, f32)> = nodes[0]
        .child_range()
        .map(|c| &nodes[c])
        .filter(|n| n.cell != PASS_CELL)
        .map(|n| (Move::Play(FastBoard::point(n.cell)), share(n), n.mean()))
        .collect();
    let pass = &nodes[1];
    let sure_pass = (pass.visits > 0).then(|| (share(pass), pass.mean() - 1.0 / (pass.visits as f32).sqrt()));
    ranked_choice(moves, sure_pass, samples, playouts, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{Limits, StopFlag};
    use crate::phantom::{PhantomPlayer, choose};
    use bitboards::go::Point;

    fn settings() -> PlayerSettings {
        PlayerSettings { player: PhantomPlayer::Ismcts, ..PlayerSettings::default() }
    }

    fn limits(n: u64) -> Limits {
        Limits { nodes: Some(n), ..Limits::default() }
    }

    fn stones(points: &[(usize, usize)]) -> u128 {
        points.iter().fold(0, |m, &(r, c)| m | Point::new(r, c).bit())
    }

    #[test]
    fn it_captures_a_big_known_group_in_atari() {
        // Five white stones on the middle row, every liberty but the one at (4, 7)
        // filled by black; the view knows them (as OpenSpiel shows refused points).
        let white = stones(&[(4, 2), (4, 3), (4, 4), (4, 5), (4, 6)]);
        let mut black = stones(&[(4, 1)]);
        for c in 2..=6 {
            black |= stones(&[(3, c), (5, c)]);
        }
        let view = View::from_stones(Color::BLACK, black, white, 5);
        let c = choose(&view, &settings(), &limits(20_000), &StopFlag::new(), 7);
        assert_eq!(c.mv, Move::Play(Point::new(4, 7)), "{:?}", &c.moves[..4]);
        assert!(c.win_rate > 0.8, "{}", c.win_rate);
    }

    #[test]
    fn the_same_seed_and_node_limit_give_the_same_choice() {
        let view = View::from_stones(Color::WHITE, stones(&[(2, 2)]), 0, 2);
        let a = choose(&view, &settings(), &limits(5_000), &StopFlag::new(), 3);
        let b = choose(&view, &settings(), &limits(5_000), &StopFlag::new(), 3);
        assert_eq!(a, Choice { elapsed: a.elapsed, ..b });
        assert!(a.playouts >= 5_000 && a.samples > 0);
    }
}
