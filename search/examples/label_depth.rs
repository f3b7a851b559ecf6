//! Measures how much the training labels depend on the depth of the search that made
//! them: for positions of a data file (`sente train-othello gen` output) with a search
//! label, per number of empties, the mean absolute difference between the file's label
//! and a `DEEP`-ply search, between `SHALLOW`-ply and `DEEP`-ply searches run here with
//! the build's weights, and the mean of (deep − shallow): the noise and the bias that a
//! `--label-depth SHALLOW` label carries against a deeper one.
//!
//! `cargo run --release -p search --example label_depth -- DATA SHALLOW DEEP [SAMPLES] [MIN-MAX]`
//!
//! SAMPLES positions per number of empties (default 60, every seventh such record),
//! empties MIN to MAX (default 25-48); one table per thread, searched in parallel.

use std::sync::atomic::AtomicBool;

use bitboards::othello::Board;
use rayon::prelude::*;
use search::othello::Solver;
use search::othello::train::{Record, search_label};

const USAGE: &str = "usage: label_depth DATA SHALLOW DEEP [SAMPLES] [MIN-MAX]";

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("{what}: '{text}' is not a number ({USAGE})"))
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        return Err(USAGE.to_string());
    }
    let path = &args[1];
    let shallow: u32 = number(&args[2], "SHALLOW")?;
    let deep: u32 = number(&args[3], "DEEP")?;
    let samples: usize = args.get(4).map_or(Ok(60), |s| number(s, "SAMPLES"))?;
    let (min, max) = match args.get(5) {
        None => (25, 48),
        Some(range) => {
            let (a, b) = range.split_once('-').ok_or_else(|| format!("MIN-MAX: '{range}' ({USAGE})"))?;
            (number::<u32>(a, "MIN")?, number::<u32>(b, "MAX")?)
        }
    };
    if shallow == 0 || deep <= shallow || deep > 20 {
        return Err(format!("need 0 < SHALLOW < DEEP <= 20 ({USAGE})"));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let records = Record::read_all(&bytes).map_err(|e| format!("{path}: {e}"))?;
    println!("empties  count  |file-deep|  |shallow-deep|  mean(deep-shallow)");
    for n in min..=max {
        let chosen: Vec<Record> =
            records.iter().filter(|r| !r.exact && r.empties() == n).step_by(7).take(samples).copied().collect();
        if chosen.is_empty() {
            continue;
        }
        let rows: Vec<(f64, f64, f64)> = chosen
            .par_iter()
            .map_init(
                || (Solver::new(16, 1), AtomicBool::new(false)),
                |(solver, stop), r| {
                    let board = Board::new(r.player, r.opponent);
                    solver.clear();
                    let a = search_label(solver, board, shallow, stop);
                    solver.clear();
                    let b = search_label(solver, board, deep, stop);
                    (f64::from(r.score), f64::from(a), f64::from(b))
                },
            )
            .collect();
        let count = rows.len() as f64;
        let mean = |f: &dyn Fn(&(f64, f64, f64)) -> f64| rows.iter().map(f).sum::<f64>() / count;
        println!(
            "{n:7} {:6} {:12.2} {:15.2} {:19.2}",
            rows.len(),
            mean(&|&(file, _, b)| (file - b).abs()),
            mean(&|&(_, a, b)| (a - b).abs()),
            mean(&|&(_, a, b)| b - a),
        );
    }
    Ok(())
}
