//! `sente othello-accuracy`: the move-quality benchmark. Runs the 8×8 player at a
//! fixed time per move on positions whose every move was solved exactly, and prints
//! the discs its choices lose; with `--make FILE`, writes such positions.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use search::othello::Solver;
use search::othello::accuracy::{ScoredPosition, Tally, benchmark_position, parse_file, score_position};
use search::{Limits, StopFlag};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::journal::{Journal, open_results};

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
    /// A fixed search depth instead of the time per move (reproducible).
    pub depth: Option<u32>,
    /// Keep each position's result in this file as it is played.
    pub out: Option<PathBuf>,
    /// Continue the run whose results are in `out`.
    pub resume: bool,
    /// Only the first this many positions.
    pub count: Option<usize>,
    /// Search threads.
    pub threads: usize,
    /// Table size in MiB.
    pub hash_mb: usize,
}

/// A progress bar of `len` steps in the style of the batch commands.
pub fn progress(len: u64) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// One position played, a line of the `--out` results file.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Played {
    /// Its number in the file (from 0).
    index: usize,
    /// Its empties.
    empties: u32,
    /// The discs the chosen move loses.
    loss: i32,
}

/// Plays every position of `text` (from `name`) and prints the tally to `out`.
/// `stop` (Ctrl-C, SIGTERM) ends the run after the position being played; with
/// `options.out` every position played is kept, and `options.resume` goes on from
/// them. Returns the tally, or `None` if stopped.
pub fn run(
    name: &str,
    text: &str,
    options: &RunOptions,
    stop: &AtomicBool,
    out: &mut impl Write,
) -> Result<Option<Tally>> {
    let mut positions = parse_file(text).map_err(anyhow::Error::msg).with_context(|| name.to_string())?;
    if let Some(n) = options.count {
        positions.truncate(n);
    }
    if positions.is_empty() {
        bail!("{name}: no positions");
    }
    let limits = match (options.depth, options.nodes) {
        (Some(d), _) => Limits::depth(d),
        (None, Some(nodes)) => Limits { nodes: Some(nodes), ..Limits::default() },
        (None, None) => Limits::movetime(options.movetime),
    };
    let per_move = match (options.depth, options.nodes) {
        (Some(d), _) => format!("depth {d}"),
        (None, Some(nodes)) => format!("{nodes} nodes per move"),
        (None, None) => format!("{} ms per move", options.movetime.as_millis()),
    };
    let mut results = match &options.out {
        Some(file) => {
            let header = json!({
                "command": "othello-accuracy", "positions": name, "count": positions.len(),
                "per_move": per_move, "threads": options.threads.max(1), "hash_mb": options.hash_mb,
            });
            Some(open_results::<Played>(file, header, options.resume)?)
        }
        None => None,
    };
    let mut tally = Tally::default();
    let mut done = 0;
    if let Some((_, played)) = &results {
        for (i, p) in played.iter().enumerate() {
            if p.index != i || i >= positions.len() {
                bail!("the results file's line {} is not position {i} of the run", i + 2);
            }
            tally.add(p.empties, p.loss);
        }
        done = played.len();
    }
    let solver = Solver::new(options.hash_mb, options.threads.max(1));
    let bar = progress(positions.len() as u64);
    bar.set_position(done as u64);
    for (index, p) in positions.iter().enumerate().skip(done) {
        if stop.load(Ordering::Relaxed) {
            bar.finish_and_clear();
            let how = match &options.out {
                Some(file) => format!(
                    "the {index} positions played are in {}; the same command with --resume continues",
                    file.display()
                ),
                None => "give --out FILE to keep the positions played for --resume".to_string(),
            };
            writeln!(out, "stopped at position {index}: {how}")?;
            return Ok(None);
        }
        solver.clear();
        let thought = search::othello::think(&solver, &p.position, &limits, &StopFlag::new(), |_| {});
        let loss = thought
            .best_move
            .and_then(|sq| p.loss(sq))
            .with_context(|| format!("the player chose no legal move in {}", p.position))?;
        tally.add(p.empties(), loss);
        if let Some((journal, _)) = results.as_mut() {
            journal.append(&serde_json::to_string(&Played { index, empties: p.empties(), loss })?)?;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    writeln!(
        out,
        "{name}: {} positions, {per_move}, {} thread{}",
        positions.len(),
        options.threads.max(1),
        if options.threads.max(1) == 1 { "" } else { "s" }
    )?;
    write!(out, "{}", tally.report())?;
    Ok(Some(tally))
}

/// Makes `count` positions of `seed` in `path`, appending to what is there: the
/// positions already in the file are kept and not made again (each is written as
/// soon as it is solved, so a stopped run loses at most the one being solved).
/// A line torn by a kill is cut off first (with a message); `stop` (Ctrl-C, SIGTERM)
/// ends the run after the position being solved.
pub fn make(
    path: &str,
    count: usize,
    seed: u64,
    hash_mb: usize,
    stop: &AtomicBool,
    out: &mut impl Write,
) -> Result<()> {
    let (mut file, recovered) = Journal::open(Path::new(path))?;
    if let Some(message) = &recovered.dropped {
        eprintln!("{message}");
    }
    let existing =
        parse_file(&recovered.lines.join("\n")).map_err(anyhow::Error::msg).with_context(|| path.to_string())?.len();
    if existing >= count {
        writeln!(out, "{path}: already holds {existing} positions")?;
        return Ok(());
    }
    if recovered.lines.is_empty() {
        file.append(&format!(
            "# sente othello-accuracy positions, seed {seed}: squares a1..h8, side to move, every legal move:exact score"
        ))?;
    }
    let solver = Solver::new(hash_mb, 1);
    let bar = progress(count as u64);
    bar.set_position(existing as u64);
    let start = Instant::now();
    for index in existing as u64..count as u64 {
        if stop.load(Ordering::Relaxed) {
            bar.finish_and_clear();
            writeln!(out, "stopped: {path} holds {index} positions; the same command goes on from them")?;
            return Ok(());
        }
        let position = (0..)
            .find_map(|attempt| benchmark_position(&solver, seed, index, attempt))
            .context("no game reached the position")?;
        bar.set_message(format!("solving {} empties", position.board().empty_count()));
        solver.clear();
        let scored: ScoredPosition = score_position(&solver, position).context("the solver was stopped")?;
        file.append(&scored.to_line())?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    writeln!(out, "{path}: {count} positions ({} made in {:.1} s)", count - existing, start.elapsed().as_secs_f64())?;
    Ok(())
}
