//! Measures how well a shallow midgame search predicts a deeper one: the standard
//! deviation of (depth-`d` value − depth-`s` value) per depth pair and number of
//! empties, which Multi-ProbCut (`search/src/othello/probcut.rs`) turns into its
//! margins, and a least-squares fit `sigma = a + b·s + c·d + e·empties` over all of
//! them.
//!
//! The positions come from self-play games of this seed: a few random opening moves,
//! then moves drawn from a softmax over two-ply values; every third position with 14
//! to 54 empties is kept. Each is searched to every depth from 1 to DMAX with the
//! full-width (non-selective) search.
//!
//! `cargo run --release -p search --example probcut_sigma -- [POSITIONS] [DMAX] [SEED]`

use std::sync::atomic::AtomicBool;

use bitboards::othello::{Board, squares};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use search::othello::{Solver, ThinkLimits};

/// Empties bands of the report.
const BANDS: [(u32, u32); 5] = [(14, 21), (22, 29), (30, 37), (38, 45), (46, 54)];

fn positions(count: usize, seed: u64, solver: &Solver) -> Vec<Board> {
    let stop = AtomicBool::new(false);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut board = Board::start();
        let random_plies = 2 + rng.next_u64() % 7;
        let mut ply = 0u64;
        loop {
            let legal = board.moves();
            if legal == 0 {
                if board.opponent_moves() == 0 {
                    break;
                }
                board = board.pass();
                continue;
            }
            let sq = if ply < random_plies {
                let list: Vec<u8> = squares(legal).collect();
                list[(rng.next_u64() % list.len() as u64) as usize]
            } else {
                let values = solver.move_values(board, 2, &stop);
                search::othello::train::softmax_pick(&values, 2.0, &mut rng)
            };
            let Some(next) = board.play(sq) else { break };
            board = next;
            ply += 1;
            let n = board.empty_count();
            if (14..=54).contains(&n) && ply.is_multiple_of(3) && board.moves() != 0 && out.len() < count {
                out.push(board);
            }
        }
    }
    out
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: u64| -> Result<u64, String> {
        args.get(i).map_or(Ok(default), |s| s.parse().map_err(|e| format!("argument {i} '{s}': {e}")))
    };
    let count = arg(1, 300)? as usize;
    let dmax = arg(2, 10)? as u32;
    let seed = arg(3, 1)?;
    let solver = Solver::new(16, 1);
    let stop = AtomicBool::new(false);
    let boards = positions(count, seed, &solver);
    // values[i][d]: the depth-d value of position i (d from 1).
    let mut values: Vec<(u32, Vec<i32>)> = Vec::new();
    for (i, &board) in boards.iter().enumerate() {
        solver.clear();
        let n = board.empty_count();
        let mut v = vec![0; dmax as usize + 1];
        for d in 1..=dmax.min(n - 1) {
            let limits = ThinkLimits { depth: Some(d), exact_empties: 0, ..ThinkLimits::default() };
            v[d as usize] = solver.think(board, limits, &stop, |_| {}).score;
        }
        values.push((n, v));
        if (i + 1) % 50 == 0 {
            eprintln!("{} positions searched", i + 1);
        }
    }
    println!("deep shallow empties  count   mean  sigma");
    // Rows of the least-squares fit: (shallow, deep, empties, sigma, weight).
    let mut rows: Vec<[f64; 5]> = Vec::new();
    for d in 3..=dmax {
        for s in (1..d - 1).rev().step_by(2).filter(|&s| d - s <= 6) {
            for &(lo, hi) in &BANDS {
                let diffs: Vec<f64> = values
                    .iter()
                    .filter(|(n, _)| (lo..=hi).contains(n) && d < *n)
                    .map(|(_, v)| f64::from(v[d as usize] - v[s as usize]))
                    .collect();
                if diffs.len() < 20 {
                    continue;
                }
                let len = diffs.len() as f64;
                let mean = diffs.iter().sum::<f64>() / len;
                let sigma = (diffs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / len).sqrt();
                println!("{d:4} {s:7} {lo:3}-{hi:<3} {:6} {mean:6.2} {sigma:6.2}", diffs.len());
                rows.push([f64::from(s), f64::from(d), f64::from(lo + hi) / 2.0, sigma, len]);
            }
        }
    }
    let fit = least_squares(&rows).ok_or("the fit is singular: too few positions")?;
    println!(
        "fit: sigma = {:.3} + {:.3}*shallow + {:.3}*deep + {:.4}*empties  ({} cells)",
        fit[0],
        fit[1],
        fit[2],
        fit[3],
        rows.len()
    );
    Ok(())
}

/// Weighted least squares of sigma on (1, shallow, deep, empties): the normal
/// equations solved by Gaussian elimination.
fn least_squares(rows: &[[f64; 5]]) -> Option<[f64; 4]> {
    let mut a = [[0.0f64; 5]; 4];
    for r in rows {
        let x = [1.0, r[0], r[1], r[2]];
        for i in 0..4 {
            for j in 0..4 {
                a[i][j] += r[4] * x[i] * x[j];
            }
            a[i][4] += r[4] * x[i] * r[3];
        }
    }
    for col in 0..4 {
        let pivot = (col..4).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-9 {
            return None;
        }
        a.swap(col, pivot);
        for row in 0..4 {
            if row != col {
                let f = a[row][col] / a[col][col];
                let pivot_row = a[col];
                for (x, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    Some([a[0][4] / a[0][0], a[1][4] / a[1][1], a[2][4] / a[2][2], a[3][4] / a[3][3]])
}
