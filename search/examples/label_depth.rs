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
//! empties MIN to MAX (default 25-48), MIN at least DEEP + 8 (the player's midgame
//! iterations stop 8 plies short of the end); one solver per thread, the positions
//! shared between the threads.

use std::sync::atomic::AtomicBool;

use bitboards::othello::Board;
use search::othello::train::{Record, search_label};
use search::othello::{PLAY_ENDGAME_GAP, Solver};

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
    if min < deep + PLAY_ENDGAME_GAP + 1 || min > max || max > 60 || args.len() > 6 {
        return Err(format!(
            "need DEEP + {} <= MIN <= MAX <= 60 and at most five arguments ({USAGE})",
            PLAY_ENDGAME_GAP + 1
        ));
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
        let rows = search_both(&chosen, shallow, deep);
        let count = rows.len() as f64;
        let mean = |f: &dyn Fn(&(f64, f64, f64)) -> f64| rows.iter().map(f).sum::<f64>() / count;
        println!(
            "{n:7} {:6} {:12.2} {:15.2} {:19.2}",
            rows.len(),
            mean(&|&(file, _, deep_value)| (file - deep_value).abs()),
            mean(&|&(_, shallow_value, deep_value)| (shallow_value - deep_value).abs()),
            mean(&|&(_, shallow_value, deep_value)| deep_value - shallow_value),
        );
    }
    Ok(())
}

/// For each record: its file label and its values by `shallow`- and `deep`-ply
/// searches, in the records' order; one solver (a 16 MiB table) per thread.
fn search_both(records: &[Record], shallow: u32, deep: u32) -> Vec<(f64, f64, f64)> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = records.len().div_ceil(threads).max(1);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let workers: Vec<_> = records
            .chunks(chunk)
            .map(|part| {
                let stop = &stop;
                scope.spawn(move || {
                    let solver = Solver::new(16, 1);
                    part.iter()
                        .map(|r| {
                            let board = Board::new(r.player, r.opponent);
                            solver.clear();
                            let shallow_value = search_label(&solver, board, shallow, stop);
                            solver.clear();
                            let deep_value = search_label(&solver, board, deep, stop);
                            (f64::from(r.score), f64::from(shallow_value), f64::from(deep_value))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a search thread panicked")).collect()
    })
}
