//! Measures how well a shallow midgame search predicts a deeper one: the standard
//! deviation of (depth-`d` value − depth-`s` value) per depth pair and band of
//! empties, which ProbCut (`search/src/othello/probcut.rs`) turns into its margins,
//! and a least-squares fit `sigma = a + b·s + c·d + e·empties` over all of them.
//!
//! The positions come from self-play games of this seed: a few random opening moves,
//! then moves drawn from a softmax over two-ply values; every third position with 14
//! to 54 empties is kept. Each is searched to every depth from 1 to DMAX with the
//! full-width (non-selective) search.
//!
//! `cargo run --release -p search --example probcut_sigma -- gen POSITIONS DMAX SEED > values.txt`
//! prints one line per position (its empties, then its value at depths 1 to DMAX);
//! `gen-selective` does the same with the selective search the player runs (ProbCut at
//! the play level), whose values are the ones its cuts compare;
//! `cargo run --release -p search --example probcut_sigma -- table values.txt …` prints
//! the standard deviations from such files (several seeds' files join), the fit, and
//! the table of the depth pairs ProbCut uses, per band, as Rust.

use std::sync::atomic::AtomicBool;

use bitboards::othello::{Board, squares};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use search::othello::{PLAY_ENDGAME_GAP, Solver, ThinkLimits};

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
    match args.get(1).map(String::as_str) {
        Some(mode @ ("gen" | "gen-selective")) => {
            let arg = |i: usize| -> Result<u64, String> {
                let s = args.get(i).ok_or("gen POSITIONS DMAX SEED")?;
                s.parse().map_err(|e| format!("argument {i} '{s}': {e}"))
            };
            generate(arg(2)? as usize, arg(3)? as u32, arg(4)?, mode == "gen-selective");
            Ok(())
        }
        Some("table") => {
            let mut values = Vec::new();
            for path in &args[2..] {
                let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
                for (i, line) in text.lines().enumerate() {
                    // The empties, then the value at depth 1, 2, …: v[d] is depth d's.
                    let v: Vec<i32> = line
                        .split_whitespace()
                        .map(str::parse)
                        .collect::<Result<_, _>>()
                        .map_err(|e| format!("{path} line {}: {e}", i + 1))?;
                    if v.len() < 2 {
                        return Err(format!("{path} line {}: too few numbers", i + 1));
                    }
                    values.push((v[0] as u32, v));
                }
            }
            table(&values)
        }
        _ => Err("usage: probcut_sigma gen|gen-selective POSITIONS DMAX SEED | probcut_sigma table FILE...".into()),
    }
}

/// Prints each position's empties and its values at depths 1 to `dmax` (below its
/// empties), full-width or `selective`.
fn generate(count: usize, dmax: u32, seed: u64, selective: bool) {
    let solver = Solver::new(16, 1);
    let stop = AtomicBool::new(false);
    let boards = positions(count, seed, &solver);
    for (i, &board) in boards.iter().enumerate() {
        solver.clear();
        let n = board.empty_count();
        let mut line = n.to_string();
        // The player's selective midgame iterations stop `PLAY_ENDGAME_GAP` + 1 plies
        // short of the end: deeper depths would repeat the last.
        let deepest = if selective { n.saturating_sub(PLAY_ENDGAME_GAP + 1) } else { n - 1 };
        for d in 1..=dmax.min(deepest) {
            let limits = ThinkLimits { depth: Some(d), exact_empties: 0, selective, ..ThinkLimits::default() };
            line += &format!(" {}", solver.think(board, limits, &stop, |_| {}).score);
        }
        println!("{line}");
        if (i + 1) % 10 == 0 {
            eprintln!("{} positions searched", i + 1);
        }
    }
}

/// The standard deviation of (depth-`d` − depth-`s` value) over the positions of
/// `values` (empties, then the value at depth 1, 2, …) in the band `lo..=hi` that
/// were searched that deep: `(count, mean, sigma)`.
fn spread(values: &[(u32, Vec<i32>)], d: u32, s: u32, lo: u32, hi: u32) -> (usize, f64, f64) {
    let diffs: Vec<f64> = values
        .iter()
        .filter(|(n, v)| (lo..=hi).contains(n) && v.len() > d as usize)
        .map(|(_, v)| f64::from(v[d as usize] - v[s as usize]))
        .collect();
    let len = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / len.max(1.0);
    let sigma = (diffs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / len.max(1.0)).sqrt();
    (diffs.len(), mean, sigma)
}

fn table(values: &[(u32, Vec<i32>)]) -> Result<(), String> {
    let dmax = values.iter().map(|(_, v)| v.len() as u32 - 1).max().unwrap_or(0);
    println!("{} positions, depths up to {dmax}", values.len());
    println!("deep shallow empties  count   mean  sigma");
    // Rows of the least-squares fit: (shallow, deep, empties, sigma, weight).
    let mut rows: Vec<[f64; 5]> = Vec::new();
    for d in 3..=dmax {
        for s in (1..d - 1).rev().step_by(2).filter(|&s| d - s <= 8) {
            for &(lo, hi) in &BANDS {
                let (count, mean, sigma) = spread(values, d, s, lo, hi);
                if count < 20 {
                    continue;
                }
                println!("{d:4} {s:7} {lo:3}-{hi:<3} {count:6} {mean:6.2} {sigma:6.2}");
                rows.push([f64::from(s), f64::from(d), f64::from(lo + hi) / 2.0, sigma, count as f64]);
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
    // The pairs ProbCut searches (`shallow_depth` in probcut.rs), per band, in
    // hundredths of a disc; 0 where fewer than 20 positions were searched that deep.
    println!("// sigma (1/100 disc) of (depth d - depth shallow_depth(d)), d = 3..={dmax}, per band {BANDS:?}");
    for d in 3..=dmax {
        // The same rule as `shallow_depth` in probcut.rs (private there).
        let s = (d / 4) * 2 + (d & 1);
        let cells: Vec<String> = BANDS
            .iter()
            .map(|&(lo, hi)| {
                let (count, _, sigma) = spread(values, d, s, lo, hi);
                if count < 20 { "0".to_string() } else { format!("{:.0}", sigma * 100.0) }
            })
            .collect();
        println!("    [{}], // {d} from {s}", cells.join(", "));
    }
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
