//! `sente othello-accuracy`: the move-quality benchmark. Runs the 8×8 player at a
//! fixed time per move on positions whose every move was solved exactly, and prints
//! the discs its choices lose; with `--make FILE`, writes such positions.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use search::othello::Solver;
use search::othello::accuracy::{ScoredPosition, Tally, benchmark_position, parse_file, score_position};
use search::{Limits, StopFlag};

/// The benchmark's default positions (`engine/data/othello_accuracy.txt`), built in.
pub const DEFAULT_POSITIONS: &str = include_str!("../data/othello_accuracy.txt");

/// Where [`DEFAULT_POSITIONS`] lives in the repository (for messages).
pub const DEFAULT_PATH: &str = "engine/data/othello_accuracy.txt";

/// Options of a benchmark run.
pub struct RunOptions {
    /// Time per move.
    pub movetime: Duration,
    /// Nodes per move instead of a time (reproducible on any machine and load).
    pub nodes: Option<u64>,
    /// Only the first this many positions.
    pub count: Option<usize>,
    /// Search threads.
    pub threads: usize,
    /// Table size in MiB.
    pub hash_mb: usize,
}

fn progress(len: u64) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// Plays every position of `text` (from `name`) and prints the tally to `out`.
pub fn run(name: &str, text: &str, options: &RunOptions, out: &mut impl Write) -> Result<Tally> {
    let mut positions = parse_file(text).map_err(anyhow::Error::msg).with_context(|| name.to_string())?;
    if let Some(n) = options.count {
        positions.truncate(n);
    }
    if positions.is_empty() {
        bail!("{name}: no positions");
    }
    let solver = Solver::new(options.hash_mb, options.threads.max(1));
    let limits = match options.nodes {
        Some(nodes) => Limits { nodes: Some(nodes), ..Limits::default() },
        None => Limits::movetime(options.movetime),
    };
    let bar = progress(positions.len() as u64);
    let mut tally = Tally::default();
    for p in &positions {
        solver.clear();
        let thought = search::othello::think(&solver, &p.position, &limits, &StopFlag::new(), |_| {});
        let loss = thought
            .best_move
            .and_then(|sq| p.loss(sq))
            .with_context(|| format!("the player chose no legal move in {}", p.position))?;
        tally.add(p.empties(), loss);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let per_move = match options.nodes {
        Some(nodes) => format!("{nodes} nodes"),
        None => format!("{} ms", options.movetime.as_millis()),
    };
    writeln!(
        out,
        "{name}: {} positions, {per_move} per move, {} thread{}",
        positions.len(),
        options.threads.max(1),
        if options.threads.max(1) == 1 { "" } else { "s" }
    )?;
    write!(out, "{}", tally.report())?;
    Ok(tally)
}

/// Makes `count` positions of `seed` in `path`, appending to what is there: the
/// positions already in the file are kept and not made again (each is written as
/// soon as it is solved, so a stopped run loses at most the one being solved).
pub fn make(path: &str, count: usize, seed: u64, hash_mb: usize, out: &mut impl Write) -> Result<()> {
    let existing = match std::fs::read_to_string(path) {
        Ok(text) => parse_file(&text).map_err(anyhow::Error::msg).with_context(|| path.to_string())?.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(e).with_context(|| format!("cannot read {path}")),
    };
    if existing >= count {
        writeln!(out, "{path}: already holds {existing} positions")?;
        return Ok(());
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {path}"))?;
    if existing == 0 {
        writeln!(
            file,
            "# sente othello-accuracy positions, seed {seed}: squares a1..h8, side to move, every legal move:exact score"
        )?;
    }
    let solver = Solver::new(hash_mb, 1);
    let bar = progress(count as u64);
    bar.set_position(existing as u64);
    let start = Instant::now();
    for index in existing as u64..count as u64 {
        let position = (0..)
            .find_map(|attempt| benchmark_position(&solver, seed, index, attempt))
            .context("no game reached the position")?;
        bar.set_message(format!("solving {} empties", position.board().empty_count()));
        solver.clear();
        let scored: ScoredPosition = score_position(&solver, position).context("the solver was stopped")?;
        writeln!(file, "{}", scored.to_line())?;
        file.flush()?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    writeln!(out, "{path}: {count} positions ({} made in {:.1} s)", count - existing, start.elapsed().as_secs_f64())?;
    Ok(())
}
