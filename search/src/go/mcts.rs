//! Monte-Carlo tree search for Go: UCT with RAVE over light playouts.
//!
//! Each iteration walks down the tree by the UCT-RAVE value, expands a node once it
//! has been visited [`EXPAND_AFTER`] times, finishes the game with a light playout,
//! and updates every node on the way with the result; RAVE ("all moves as first")
//! also credits each child whose move the same colour played later in the iteration.
//! The root's moves are filtered by the game's full rules (superko included); inside
//! the tree the playout board's simple ko applies.

use std::time::Instant;

use bitboards::go::{Board, Cell, Color, FastBoard, Game, Move, Point, bits};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;

use super::playout::{area_owners, light_playout, move_cap, settling_playout};
use crate::limits::{Limits, StopFlag, TimeBudget};

/// A node is expanded once it has been visited this many times.
pub const EXPAND_AFTER: u32 = 2;

/// RAVE equivalence parameter: the number of visits at which the tree's own
/// statistics weigh as much as RAVE's.
const RAVE_K: f32 = 800.0;

/// UCB exploration constant.
const EXPLORATION: f32 = 0.25;

/// Cell 0 stands for a pass in the tree (it is off the board).
const PASS: Cell = 0;

#[derive(Clone, Copy, Debug, Default)]
struct Node {
    cell: Cell,
    visits: u32,
    /// Wins for the player who made this node's move.
    wins: f32,
    rave_visits: u32,
    rave_wins: f32,
    first_child: u32,
    children: u16,
    expanded: bool,
}

impl Node {
    fn value(&self, parent_log: f32) -> f32 {
        let rave = if self.rave_visits > 0 { self.rave_wins / self.rave_visits as f32 } else { 0.5 };
        if self.visits == 0 {
            // First-play urgency: trust RAVE, a little above an even game.
            return rave + 0.1;
        }
        let n = self.visits as f32;
        let q = self.wins / n;
        let beta = (RAVE_K / (3.0 * n + RAVE_K)).sqrt();
        (1.0 - beta) * q + beta * rave + EXPLORATION * (parent_log / n).sqrt()
    }
}

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
}

/// A search tree for one position.
pub struct Mcts {
    nodes: Vec<Node>,
    root: FastBoard,
    komi: f32,
    rng: Xoshiro256PlusPlus,
    cap: usize,
}

fn to_move(cell: Cell) -> Move {
    if cell == PASS { Move::Pass } else { Move::Play(FastBoard::point(cell)) }
}

impl Mcts {
    /// A tree for the current position of `game`, seeded with `seed`.
    pub fn new(game: &Game, seed: u64) -> Mcts {
        Mcts::with_pass(game, seed, true)
    }

    /// A tree whose root may not pass unless `allow_pass` (or no other move exists).
    pub fn with_pass(game: &Game, seed: u64, allow_pass: bool) -> Mcts {
        Mcts::with_excluded(game, seed, allow_pass, 0)
    }

    /// Like [`Mcts::with_pass`], but the root never tries the points in `excluded`
    /// (e.g. settled own territory); with nothing else left it passes.
    pub fn with_excluded(game: &Game, seed: u64, allow_pass: bool, excluded: u128) -> Mcts {
        let board = game.board();
        let root = FastBoard::from_board(board);
        let mut m = Mcts {
            nodes: vec![Node::default()],
            komi: game.komi() as f32,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            cap: move_cap(board.size()),
            root,
        };
        // The root's children: every move the full rules allow, and a pass.
        let color = board.to_move();
        let legal = game.legal_points(color) & !excluded;
        let mut cells: Vec<Cell> =
            bits(legal).map(FastBoard::cell).filter(|&c| !m.root.is_eye(c, color) || legal.count_ones() <= 1).collect();
        if allow_pass || cells.is_empty() {
            cells.push(PASS);
        }
        m.add_children(0, &cells);
        m
    }

    fn add_children(&mut self, node: usize, cells: &[Cell]) {
        let first = self.nodes.len() as u32;
        self.nodes.extend(cells.iter().map(|&cell| Node { cell, ..Node::default() }));
        let n = &mut self.nodes[node];
        n.first_child = first;
        n.children = cells.len() as u16;
        n.expanded = true;
    }

    /// Children for a node inside the tree: playable points of the playout board, and
    /// a pass.
    fn expand(&mut self, node: usize, board: &FastBoard) {
        let mut cells: Vec<Cell> = board.empties().iter().copied().filter(|&c| board.is_playable(c)).collect();
        cells.push(PASS);
        self.add_children(node, &cells);
    }

    fn select(&self, node: usize) -> usize {
        let n = &self.nodes[node];
        let log = (n.visits.max(1) as f32).ln();
        let mut best = n.first_child as usize;
        let mut best_value = f32::MIN;
        for i in n.first_child as usize..n.first_child as usize + n.children as usize {
            let mut v = self.nodes[i].value(log);
            if self.nodes[i].cell == PASS {
                // Passing is a last resort while the board still has moves.
                v -= 0.3;
            }
            if v > best_value {
                best_value = v;
                best = i;
            }
        }
        best
    }

    /// One iteration: descend, expand, play out, back up.
    fn iterate(&mut self, amaf: &mut [u8; 128]) {
        let mut board = self.root.clone();
        let mut path = [0u32; 400];
        let mut depth = 0;
        let mut node = 0usize;
        let root_black = board.to_move() == Color::BLACK;
        amaf.fill(0);
        // Descend.
        loop {
            path[depth] = node as u32;
            depth += 1;
            if board.passes() >= 2 || depth >= path.len() {
                break;
            }
            if !self.nodes[node].expanded {
                if self.nodes[node].visits >= EXPAND_AFTER {
                    self.expand(node, &board);
                } else {
                    break;
                }
            }
            let child = self.select(node);
            let cell = self.nodes[child].cell;
            let black = board.to_move() == Color::BLACK;
            if cell == PASS {
                board.pass();
            } else {
                if amaf[cell as usize] == 0 {
                    amaf[cell as usize] = if black { 1 } else { 2 };
                }
                board.play(cell);
            }
            node = child;
        }
        // Play out.
        let diff = light_playout(&mut board, &mut self.rng, self.cap, |cell, black| {
            if amaf[cell as usize] == 0 {
                amaf[cell as usize] = if black { 1 } else { 2 };
            }
        });
        let black_wins = diff as f32 - self.komi > 0.0;
        // Back up. The node at depth d holds a move by the player who moved at d-1.
        for (d, &id) in path[..depth].iter().enumerate() {
            let id = id as usize;
            // Mover of this node's move: the root's side for d = 1, alternating (passes
            // alternate too).
            let mover_black = if d % 2 == 1 { root_black } else { !root_black };
            let n = &mut self.nodes[id];
            n.visits += 1;
            if d > 0 && mover_black == black_wins {
                n.wins += 1.0;
            }
            // RAVE: credit the children of this node whose move was later played by the
            // player to move here.
            if n.expanded {
                let to_move_black = if d % 2 == 0 { root_black } else { !root_black };
                let (first, count) = (n.first_child as usize, n.children as usize);
                let mark = if to_move_black { 1 } else { 2 };
                let won = to_move_black == black_wins;
                for c in first..first + count {
                    let cell = self.nodes[c].cell;
                    if cell != PASS && amaf[cell as usize] == mark {
                        let child = &mut self.nodes[c];
                        child.rave_visits += 1;
                        if won {
                            child.rave_wins += 1.0;
                        }
                    }
                }
            }
        }
    }

    /// Runs playouts within `limits` (`nodes` counts playouts) or until `stop`.
    pub fn search(&mut self, limits: &Limits, stop: &StopFlag, to_move: Color) -> MctsResult {
        let player = if to_move == Color::BLACK { crate::Player::One } else { crate::Player::Two };
        let budget = TimeBudget::new(limits, player, 40);
        let start = Instant::now();
        let max_playouts = limits.nodes.unwrap_or(u64::MAX);
        let mut amaf = [0u8; 128];
        let mut playouts = 0u64;
        while playouts < max_playouts {
            self.iterate(&mut amaf);
            playouts += 1;
            if playouts.is_multiple_of(64)
                && (stop.is_stopped() || budget.hard_expired() || (budget.soft_expired() && !limits.infinite))
            {
                break;
            }
            if limits.nodes.is_none()
                && limits.movetime.is_none()
                && !limits.infinite
                && limits.clock.time.iter().all(Option::is_none)
                && playouts >= 10_000
            {
                // No limit given at all: a sensible default.
                break;
            }
        }
        self.result(playouts, start.elapsed())
    }

    fn result(&self, playouts: u64, elapsed: std::time::Duration) -> MctsResult {
        let root = &self.nodes[0];
        let children = root.first_child as usize..root.first_child as usize + root.children as usize;
        let mut moves: Vec<(Move, u32, f32)> = children
            .map(|i| {
                let n = &self.nodes[i];
                (to_move(n.cell), n.visits, if n.visits > 0 { n.wins / n.visits as f32 } else { 0.0 })
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        let (best, _, win_rate) = moves[0];
        // The principal variation: most visited children.
        let mut pv = Vec::new();
        let mut node = 0;
        while self.nodes[node].expanded && pv.len() < 20 {
            let n = &self.nodes[node];
            let Some(child) = (n.first_child as usize..n.first_child as usize + n.children as usize)
                .max_by_key(|&i| self.nodes[i].visits)
            else {
                break;
            };
            if self.nodes[child].visits == 0 {
                break;
            }
            pv.push(to_move(self.nodes[child].cell));
            node = child;
        }
        MctsResult { best, win_rate, playouts, elapsed, pv, root_moves: moves }
    }

    /// The line the tree expects after the root move `first`: `first`, then the most
    /// visited child at each step, at most `max_len` moves (empty if `first` is not a
    /// root move). For analysis output, one line per root move.
    pub fn line_after(&self, first: Move, max_len: usize) -> Vec<Move> {
        let children = |node: usize| {
            let n = &self.nodes[node];
            n.first_child as usize..n.first_child as usize + n.children as usize
        };
        let Some(mut node) = children(0).find(|&i| to_move(self.nodes[i].cell) == first) else {
            return Vec::new();
        };
        let mut line = vec![first];
        while self.nodes[node].expanded && line.len() < max_len {
            let Some(child) = children(node).max_by_key(|&i| self.nodes[i].visits) else { break };
            if self.nodes[child].visits == 0 {
                break;
            }
            line.push(to_move(self.nodes[child].cell));
            node = child;
        }
        line
    }
}

/// How often each point ends up owned by black, over `playouts` settling playouts
/// from `board` (1.0: always black, 0.0: always white; shared points count half),
/// indexed by point number.
pub fn ownership(board: &Board, playouts: usize, seed: u64) -> Vec<f32> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let start = FastBoard::from_board(board);
    let mut black = vec![0u32; 128];
    let cap = move_cap(board.size());
    for _ in 0..playouts {
        let mut b = start.clone();
        settling_playout(&mut b, &mut rng, cap);
        let (black_area, white_area) = area_owners(&b, board.mask());
        for p in board.points() {
            black[p.0 as usize] += 2 * (black_area & p.bit() != 0) as u32
                + (white_area & p.bit() == 0 && black_area & p.bit() == 0) as u32;
        }
    }
    (0..128).map(|i| black[i] as f32 / (2 * playouts.max(1)) as f32).collect()
}

/// Stones judged dead: those standing where the other colour owns the point in more
/// than `threshold` of the playouts.
pub fn dead_stones(board: &Board, playouts: usize, threshold: f32, seed: u64) -> u128 {
    let own = ownership(board, playouts, seed);
    let mut dead = 0;
    for p in board.points() {
        let black_share = own[p.0 as usize];
        match board.at(p) {
            Some(Color::BLACK) if 1.0 - black_share > threshold => dead |= p.bit(),
            Some(Color::WHITE) if black_share > threshold => dead |= p.bit(),
            _ => {}
        }
    }
    dead
}

/// The point of a GTP-facing move, for tests and callers.
pub fn point_of(m: Move) -> Option<Point> {
    match m {
        Move::Play(p) => Some(p),
        Move::Pass => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitboards::go::Superko;

    #[test]
    fn captures_a_stone_in_atari() {
        // White stone on C3 in atari (liberty at C4 only) on 5×5; black to move wins it.
        let mut b = Board::new(5);
        for (r, c, col) in [(2, 2, Color::WHITE), (3, 2, Color::BLACK), (2, 1, Color::BLACK), (2, 3, Color::BLACK)] {
            b.set(Point::new(r, c), Some(col));
        }
        let game = Game::new(b, 0.5, Superko::Positional);
        let mut m = Mcts::new(&game, 1);
        let r = m.search(&Limits { nodes: Some(3000), ..Limits::default() }, &StopFlag::new(), Color::BLACK);
        assert_eq!(r.best, Move::Play(Point::new(1, 2)), "{:?}", &r.root_moves[..3]);
        assert!(r.win_rate > 0.6);
    }

    #[test]
    fn ownership_of_a_settled_board() {
        // A finished game: black walls on columns b-c, white on d, territories on a and
        // e; a lone white stone inside black's area is dead.
        let mut b = Board::new(5);
        for r in 0..5 {
            b.set(Point::new(r, 1), Some(Color::BLACK));
            b.set(Point::new(r, 2), Some(Color::BLACK));
            b.set(Point::new(r, 3), Some(Color::WHITE));
        }
        b.set(Point::new(2, 0), Some(Color::WHITE));
        let dead = dead_stones(&b, 400, 0.8, 3);
        assert_eq!(dead, Point::new(2, 0).bit());
    }
}
