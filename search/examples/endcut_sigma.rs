//! Measures how well a shallow midgame search predicts the exact endgame score, per
//! number of empties: the standard deviation that the selective endgame search
//! (ProbCut at depth = empties) uses. Reads training records with exact labels
//! (`sente train-othello gen` output); use a file the evaluation was not fitted on.
//!
//! `cargo run --release -p search --example endcut_sigma -- DATA [SAMPLES]`

use std::sync::atomic::AtomicBool;

use bitboards::othello::Board;
use search::othello::train::Record;
use search::othello::{Solver, ThinkLimits};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).ok_or("usage: endcut_sigma DATA [SAMPLES]")?;
    let samples: usize = args.get(2).map_or(Ok(300), |s| s.parse()).map_err(|e| format!("{e}"))?;
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let records = Record::read_all(&bytes)?;
    let solver = Solver::new(64, 1);
    let stop = AtomicBool::new(false);
    println!("empties shallow  count   mean  sigma");
    for n in 12..=22u32 {
        let chosen: Vec<&Record> =
            records.iter().filter(|r| r.exact && r.empties() == n).step_by(7).take(samples).collect();
        for shallow in [2u32, 4, 6, search::othello::endcut_depth(n)] {
            let mut errors = Vec::new();
            for r in &chosen {
                let board = Board { player: r.player, opponent: r.opponent };
                solver.clear();
                let limits = ThinkLimits { depth: Some(shallow), exact_empties: 0, ..ThinkLimits::default() };
                let t = solver.think(board, limits, &stop, |_| {});
                errors.push(r.score as f64 - t.score as f64);
            }
            if errors.is_empty() {
                continue;
            }
            let mean = errors.iter().sum::<f64>() / errors.len() as f64;
            let var = errors.iter().map(|e| (e - mean) * (e - mean)).sum::<f64>() / errors.len() as f64;
            println!("{n:7} {shallow:7} {:6} {mean:6.2} {:6.2}", errors.len(), var.sqrt());
        }
    }
    Ok(())
}
