//! `bench`: a fixed-depth search over a fixed list of positions. The total node
//! count is a signature of the search (any change to it changes the count); the
//! speed is reported beside it.

use std::time::Instant;

use bitboards::othello::{Board, Position};
use search::{Limits, StopFlag, alphabeta};

use crate::othello::play_moves;

/// Othello games (move sequences from the start) stopped in the early and middle
/// game (the tiger opening, and prefixes of one self-play game), and FFO #40 for the
/// endgame.
pub const OPENINGS: &[&str] = &[
    "",
    "f5 d6 c3 d3 c4 f4 c5 b3 c2",
    "d3 c3 c4 e3 f2 b5 f3 f4 c5 d2 g4 h4",
    "d3 c3 c4 e3 f2 b5 f3 f4 c5 d2 g4 h4 a5 g3 d1 e2 f6 e6 h5 g5",
    "d3 c3 c4 e3 f2 b5 f3 f4 c5 d2 g4 h4 a5 g3 d1 e2 f6 e6 h5 g5 h3 c1 b1 e1 f1 h2 h6 h7",
    "d3 c3 c4 e3 f2 b5 f3 f4 c5 d2 g4 h4 a5 g3 d1 e2 f6 e6 h5 g5 h3 c1 b1 e1 f1 h2 h6 h7 c6 f5 d6 c2 b3 e7 f8 d8",
];

/// FFO position #40 (20 empties).
pub const FFO_40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";

/// The benchmark positions.
pub fn positions() -> Vec<Position<Board>> {
    let mut out: Vec<Position<Board>> = OPENINGS
        .iter()
        .map(|line| {
            let moves: Vec<String> = line.split_whitespace().map(String::from).collect();
            play_moves(Position::start(), &moves).expect("bench openings are legal")
        })
        .collect();
    out.push(Position::parse(FFO_40).expect("FFO #40 parses"));
    out
}

/// Runs the benchmark to `depth` (default 7) and returns the lines to print.
pub fn run(depth: Option<u32>) -> Vec<String> {
    let depth = depth.unwrap_or(7);
    let start = Instant::now();
    let mut nodes = 0;
    let mut lines = Vec::new();
    let positions = positions();
    for pos in &positions {
        let r = alphabeta::search(pos, &Limits::depth(depth), &StopFlag::new(), |_| {});
        nodes += r.nodes;
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    lines.push(format!("info string bench depth {depth} positions {}", positions.len()));
    lines.push(format!("{nodes} nodes {} nps", nodes * 1000 / ms));
    lines
}

#[cfg(test)]
mod tests {
    #[test]
    fn positions_are_legal_and_distinct() {
        let p = super::positions();
        assert_eq!(p.len(), super::OPENINGS.len() + 1);
        for (i, a) in p.iter().enumerate() {
            assert!(!a.is_game_over());
            assert!(p[i + 1..].iter().all(|b| b != a));
        }
    }
}
