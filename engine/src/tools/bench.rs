//! `bench`: a fixed-depth search over a fixed list of positions by the search that
//! plays 8×8 Othello (the solver's iterative deepening with the trained evaluation,
//! through [`search::othello::think`], one thread unless asked, the table cleared before each
//! position). The total node count is a signature of the search (any change to it
//! changes the count); the speed is reported beside it.

use std::io::Write;
use std::time::Instant;

use bitboards::othello::{Board, Position};
use search::othello::Solver;
use search::{Limits, StopFlag};

use crate::games::othello::play_moves;

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

/// The table's size in MiB: the UGI+ default.
const BENCH_HASH_MB: usize = 64;

/// Runs the benchmark to `depth` (default 10) on `threads` threads and returns the
/// lines to print, or `None` when `stop` was set before it ended. The node count is
/// a signature on one thread only: with more, it varies from run to run.
pub fn run(depth: Option<u32>, threads: usize, stop: &StopFlag) -> Option<Vec<String>> {
    let threads = threads.max(1);
    let depth = depth.unwrap_or(10);
    let mut nodes = 0;
    let mut lines = Vec::new();
    let positions = positions();
    let solver = Solver::new(BENCH_HASH_MB, threads);
    let mut searching = std::time::Duration::ZERO;
    for pos in &positions {
        solver.clear();
        let start = Instant::now();
        nodes += search::othello::think(&solver, pos, &Limits::depth(depth), stop, |_| {}).nodes;
        searching += start.elapsed();
        if stop.is_stopped() {
            return None;
        }
    }
    let ms = searching.as_millis().max(1) as u64;
    let on = if threads > 1 { format!(" threads {threads}") } else { String::new() };
    lines.push(format!("info string bench depth {depth} positions {}{on}", positions.len()));
    lines.push(format!("{nodes} nodes {} nps", nodes * 1000 / ms));
    Some(lines)
}

/// `sente bench`'s command line.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Search depth.
    pub depth: Option<u32>,
    /// Search threads (the node signature holds for one thread only).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
}

/// Runs `sente bench`.
pub fn main(args: BenchArgs) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    // Nothing stops a benchmark on the command line but Ctrl-C.
    for line in run(args.depth, args.threads as usize, &StopFlag::new()).into_iter().flatten() {
        writeln!(stdout, "{line}")?;
    }
    Ok(())
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
