//! `sente ffo FILE`: solves every problem of an FFO or Edax OBF file exactly and
//! prints a table against the file's answers, as Edax's `-solve` does.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use search::othello::Solver;

/// Options of one run.
pub struct FfoOptions {
    /// Solver threads (0: one per core).
    pub threads: usize,
    /// Table size in MiB.
    pub hash_mb: usize,
    /// Only problems with these numbers (all if empty).
    pub only: Vec<u32>,
}

/// Runs the file and prints the table to `out`; returns the number of wrong answers.
pub fn run(path: &str, options: &FfoOptions, out: &mut impl Write) -> Result<usize> {
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
    let solver = Solver::new(options.hash_mb, threads);
    // Touch the whole table before the first clock starts, as Edax allocates its
    // table before solving: otherwise the first problem pays for the page faults.
    solver.clear();
    let stop = AtomicBool::new(false);
    let bar = ProgressBar::new(problems.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    writeln!(out, "   #  empties  move  score  expected  result        nodes     time (s)   nodes/s")?;
    let (mut wrong, mut nodes, mut time) = (0, 0u64, Duration::ZERO);
    for p in &problems {
        let label = p.number.map_or(format!("line {}", p.line), |n| format!("#{n}"));
        bar.set_message(format!("solving {label} ({} empties)", p.position.board().empty_count()));
        let o = ffo::solve(&solver, p, &stop).context("the solver was stopped")?;
        solver.clear();
        let ok = o.is_correct();
        wrong += usize::from(!ok);
        nodes += o.nodes;
        time += o.time;
        let expected = p.score.map_or("?".to_string(), |s| format!("{s:+}"));
        let secs = o.time.as_secs_f64();
        bar.suspend(|| {
            writeln!(
                out,
                "{:>4}  {:>7}  {:>4}  {:>+5}  {:>8}  {:<6} {:>13} {:>12.3} {:>9.1}M",
                label,
                p.position.board().empty_count(),
                o.best_move.name(8),
                o.score,
                expected,
                if ok { "OK" } else { "WRONG" },
                o.nodes,
                secs,
                o.nodes as f64 / secs.max(1e-9) / 1e6
            )
        })?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    let secs = time.as_secs_f64();
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
