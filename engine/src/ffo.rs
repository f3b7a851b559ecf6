//! `sente ffo FILE`: solves every problem of an FFO or Edax OBF file exactly and
//! prints a table against the file's answers, as Edax's `-solve` does.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use search::othello::Solver;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::journal::open_results;

/// Options of one run.
pub struct FfoOptions {
    /// Solver threads (0: one per core).
    pub threads: usize,
    /// Table size in MiB.
    pub hash_mb: usize,
    /// Only problems with these numbers (all if empty).
    pub only: Vec<u32>,
    /// Keep each problem's row in this results file as it is solved.
    pub out: Option<PathBuf>,
    /// Continue the run whose results are in `out`.
    pub resume: bool,
    /// The evaluation weights file used instead of the built-in ones (for the
    /// results file's header: a run is resumed only with the same weights).
    pub eval: Option<String>,
}

/// One solved problem, a line of the `--out` results file.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Solved {
    /// `#40`, or `line 3` for a problem without a number.
    problem: String,
    /// The row of the table printed for it.
    row: String,
    /// Whether the answer agreed with the file's.
    correct: bool,
    /// Nodes searched.
    nodes: u64,
    /// Seconds taken.
    secs: f64,
}

/// Runs the file and prints the table to `out`. `stop` (Ctrl-C, SIGTERM) drops the
/// problem being solved and ends the run; with `options.out` every solved problem is
/// kept, and `options.resume` goes on from them, printing their rows again. Returns
/// the number of wrong answers among the problems solved.
pub fn run(path: &str, options: &FfoOptions, stop: &AtomicBool, out: &mut impl Write) -> Result<usize> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    let problems = ffo::parse_file(&text).with_context(|| path.to_string())?;
    if problems.is_empty() {
        bail!("{path}: no problems in the file");
    }
    if let Some(missing) = options.only.iter().find(|&&n| !problems.iter().any(|p| p.number == Some(n))) {
        bail!("{path}: no problem #{missing} in the file");
    }
    let problems: Vec<_> = problems
        .into_iter()
        .filter(|p| options.only.is_empty() || p.number.is_some_and(|n| options.only.contains(&n)))
        .collect();
    let threads = match options.threads {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    };
    let mut results = match &options.out {
        Some(file) => {
            let header = json!({ "command": "ffo", "file": path, "only": options.only, "threads": threads, "eval": options.eval });
            let (journal, done) = open_results::<Solved>(file, header, options.resume)?;
            Some((journal, done))
        }
        None => None,
    };
    let done: Vec<Solved> = results.as_ref().map_or(Vec::new(), |(_, d)| d.clone());
    if done.len() > problems.len() {
        bail!("the results file holds {} problems, the run has {}", done.len(), problems.len());
    }
    let solver = Solver::new(options.hash_mb, threads);
    // Touch the whole table before the first clock starts, as Edax allocates its
    // table before solving: otherwise the first problem pays for the page faults.
    solver.clear();
    let bar = ProgressBar::new(problems.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    writeln!(out, "   #  empties  move  score  expected  result        nodes     time (s)   nodes/s")?;
    let (mut wrong, mut nodes, mut secs) = (0, 0u64, 0.0);
    for (i, p) in problems.iter().enumerate() {
        let label = p.number.map_or(format!("line {}", p.line), |n| format!("#{n}"));
        let solved = match done.get(i) {
            Some(s) if s.problem == label => s.clone(),
            Some(s) => bail!("the results file's problem {} is {}, the run's is {label}", i + 1, s.problem),
            None => {
                bar.set_message(format!("solving {label} ({} empties)", p.position.board().empty_count()));
                let Some(o) = ffo::solve(&solver, p, stop) else {
                    bar.finish_and_clear();
                    let how = match &options.out {
                        Some(file) => format!(
                            "the {i} problems solved are in {}; the same command with --resume continues",
                            file.display()
                        ),
                        None => "give --out FILE to keep the problems solved for --resume".to_string(),
                    };
                    writeln!(out, "stopped at {label}: {how}")?;
                    return Ok(wrong);
                };
                solver.clear();
                let expected = p.score.map_or("?".to_string(), |s| format!("{s:+}"));
                let secs = o.time.as_secs_f64();
                let row = format!(
                    "{:>4}  {:>7}  {:>4}  {:>+5}  {:>8}  {:<6} {:>13} {:>12.3} {:>9.1}M",
                    label,
                    p.position.board().empty_count(),
                    o.best_move.name(8),
                    o.score,
                    expected,
                    if o.is_correct() { "OK" } else { "WRONG" },
                    o.nodes,
                    secs,
                    o.nodes as f64 / secs.max(1e-9) / 1e6
                );
                let solved = Solved { problem: label.clone(), row, correct: o.is_correct(), nodes: o.nodes, secs };
                if let Some((journal, _)) = results.as_mut() {
                    journal.append(&serde_json::to_string(&solved)?)?;
                }
                solved
            }
        };
        wrong += usize::from(!solved.correct);
        nodes += solved.nodes;
        secs += solved.secs;
        bar.suspend(|| writeln!(out, "{}", solved.row))?;
        bar.inc(1);
        if stop.load(Ordering::Relaxed) && i + 1 < problems.len() {
            bar.finish_and_clear();
            writeln!(out, "stopped after {label}: the same command with --resume continues")?;
            return Ok(wrong);
        }
    }
    bar.finish_and_clear();
    writeln!(
        out,
        "total: {} problems, {} wrong, {} nodes, {:.3} s, {:.1}M nodes/s, {} threads",
        problems.len(),
        wrong,
        nodes,
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6,
        threads
    )?;
    Ok(wrong)
}
