//! `sente ffo FILE`: solves every problem of an FFO or Edax OBF file exactly and
//! prints a table against the file's answers, as Edax's `-solve` does. With
//! `--shard i/n` a run solves the problems `k` (in file order, after `--only`) with
//! `k mod n = i`, and `sente ffo merge` joins the shards' `--out` files into the
//! table, and the results file, of one unsharded run.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use search::othello::Solver;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::tools::journal::{open_results, read_results_file, write_atomically};
use crate::tools::shard::{Shard, check_complete};

/// `sente ffo merge`.
#[derive(clap::Subcommand)]
pub enum FfoCommand {
    /// Join the --out files of a sharded run (`ffo FILE --shard i/n --out F`): print
    /// the table one unsharded run prints (exit code 1 if an answer is wrong).
    Merge {
        /// The shards' results files, one per shard, in any order.
        #[arg(required = true)]
        files: Vec<String>,
        /// Also write the results file one unsharded run's --out holds (must be new).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

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
    /// Solve only this shard's problems (with `out`, for [`merge`]).
    pub shard: Option<Shard>,
}

/// One solved problem, a line of the `--out` results file.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Solved {
    /// Its place among the run's problems (in file order, after `--only`), from 0.
    #[serde(default)]
    index: u64,
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

/// The first line of the table.
const TABLE_HEADER: &str = "   #  empties  move  score  expected  result        nodes     time (s)   nodes/s";

/// The last line of the table: the run's sums.
fn total_line(problems: usize, solved: &[Solved], threads: u64) -> String {
    let wrong = solved.iter().filter(|s| !s.correct).count();
    let nodes: u64 = solved.iter().map(|s| s.nodes).sum();
    let secs: f64 = solved.iter().map(|s| s.secs).sum();
    format!(
        "total: {problems} problems, {wrong} wrong, {nodes} nodes, {secs:.3} s, {:.1}M nodes/s, {threads} threads",
        nodes as f64 / secs.max(1e-9) / 1e6
    )
}

/// What the first line of a results file holds (inside `{"run": …}`). A shard's also
/// names the shard, the run's number of problems and the table size (which changes
/// the nodes searched); an unsharded run's header is the same without them.
fn run_header(path: &str, options: &FfoOptions, threads: usize, problems: usize) -> Value {
    let mut header =
        json!({ "command": "ffo", "file": path, "only": options.only, "threads": threads, "eval": options.eval });
    if let (Some(shard), Some(map)) = (options.shard, header.as_object_mut()) {
        map.insert("shard".into(), shard.to_string().into());
        map.insert("problems".into(), problems.into());
        map.insert("hash_mb".into(), options.hash_mb.into());
    }
    header
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
    let problems_in_run = problems.len();
    let threads = match options.threads {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    };
    let shard = options.shard.unwrap_or(Shard::WHOLE);
    if options.shard.is_some() && options.out.is_none() {
        bail!("--shard needs --out: `sente ffo merge` joins the shards' --out files");
    }
    // This run's problems, with their places in the whole run.
    let problems: Vec<(u64, ffo::Problem)> =
        (0u64..).zip(problems).filter(|(k, _)| k % shard.count == shard.index).collect();
    let mut results = match &options.out {
        Some(file) => {
            let header = run_header(path, options, threads, problems_in_run);
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
    writeln!(out, "{TABLE_HEADER}")?;
    let mut wrong = 0;
    let mut solved_all = Vec::with_capacity(problems.len());
    for (i, (index, p)) in problems.iter().enumerate() {
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
                let solved = Solved {
                    index: *index,
                    problem: label.clone(),
                    row,
                    correct: o.is_correct(),
                    nodes: o.nodes,
                    secs,
                };
                if let Some((journal, _)) = results.as_mut() {
                    journal.append(&serde_json::to_string(&solved)?)?;
                }
                solved
            }
        };
        wrong += usize::from(!solved.correct);
        bar.suspend(|| writeln!(out, "{}", solved.row))?;
        solved_all.push(solved);
        bar.inc(1);
        if stop.load(Ordering::Relaxed) && i + 1 < problems.len() {
            bar.finish_and_clear();
            writeln!(out, "stopped after {label}: the same command with --resume continues")?;
            return Ok(wrong);
        }
    }
    bar.finish_and_clear();
    writeln!(out, "{}", total_line(problems.len(), &solved_all, threads as u64))?;
    if let (Some(shard), Some(file)) = (options.shard, &options.out) {
        writeln!(
            out,
            "shard {shard} of {problems_in_run} problems in {}: `sente ffo merge` joins the shards' files into the whole table",
            file.display()
        )?;
    }
    Ok(wrong)
}

/// One shard's results file, read whole and checked to hold the shard's every problem.
struct ShardResults {
    /// The run's header without what differs between its shards.
    run: Value,
    shard: Shard,
    /// The run's number of problems.
    problems: u64,
    /// The problems' lines as written, in order.
    lines: Vec<(Solved, String)>,
}

/// Reads a shard's results file without changing it (a line torn by a kill is left
/// out, so the shard reads as unfinished).
fn read_shard(path: &str) -> Result<ShardResults> {
    let (mut run, lines) = read_results_file(path, "ffo", "sente ffo --out")?;
    let Some(map) = run.as_object_mut() else { bail!("{path}: line 1 is not the header of a `sente ffo --out` file") };
    let Some(shard_text) = map.remove("shard") else {
        bail!("{path} holds a run without --shard: merge takes the --out files of `sente ffo --shard i/n` runs")
    };
    let shard = Shard::parse(shard_text.as_str().unwrap_or_default(), &format!("{path}: shard"))?;
    let problems =
        map.get("problems").and_then(Value::as_u64).with_context(|| format!("{path}: the header has no problems"))?;
    let lines = lines
        .into_iter()
        .map(|(number, line)| {
            let solved: Solved = serde_json::from_str(&line)
                .with_context(|| format!("{path}: line {number} is not a problem solved"))?;
            Ok((solved, line))
        })
        .collect::<Result<Vec<_>>>()?;
    if !lines.iter().map(|(s, _)| s.index).eq(shard.items(0..problems)) {
        let in_order = lines.iter().map(|(s, _)| s.index).eq(shard.items(0..problems).take(lines.len()));
        bail!(
            "{path} holds {} of shard {shard}'s {} problems{}: finish that shard first (the same `sente ffo … --shard {shard} --out {path}` with --resume)",
            lines.len(),
            shard.count_in(0..problems),
            if in_order { "" } else { ", not in its order" }
        );
    }
    Ok(ShardResults { run, shard, problems, lines })
}

/// `sente ffo merge`: checks that `paths` are the finished shards of one run, every
/// one given once, and prints to `out` the table one unsharded run prints (its rows
/// in problem order, with the times and nodes measured in the shards). With
/// `merged`, also writes there the results file one unsharded run's `--out` holds
/// (`sente ffo FILE --out merged --resume` then prints the table, solving nothing).
/// Returns the number of wrong answers.
pub fn merge(paths: &[String], merged: Option<&Path>, out: &mut impl Write) -> Result<usize> {
    if let Some(file) = merged
        && std::fs::metadata(file).is_ok_and(|m| m.len() > 0)
    {
        bail!("{} already holds results: merge writes a new file", file.display());
    }
    let files = paths.iter().map(|p| read_shard(p)).collect::<Result<Vec<_>>>()?;
    let Some(first) = files.first() else { bail!("no results files to merge") };
    let runs: Vec<(&Value, Shard)> = files.iter().map(|f| (&f.run, f.shard)).collect();
    check_complete(paths, &runs, "headers")?;
    let problems = first.problems;
    let threads = first.run["threads"].as_u64().unwrap_or(1);
    let mut whole = first.run.clone();
    if let Some(map) = whole.as_object_mut() {
        map.remove("problems");
        map.remove("hash_mb");
    }
    let mut lines: Vec<(Solved, String)> = files.into_iter().flat_map(|f| f.lines).collect();
    lines.sort_by_key(|(s, _)| s.index);
    if let Some(file) = merged {
        let mut bytes = json!({ "run": whole }).to_string().into_bytes();
        bytes.push(b'\n');
        for (_, line) in &lines {
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        write_atomically(file, &bytes)?;
    }
    writeln!(out, "{TABLE_HEADER}")?;
    for (solved, _) in &lines {
        writeln!(out, "{}", solved.row)?;
    }
    let solved: Vec<Solved> = lines.into_iter().map(|(s, _)| s).collect();
    writeln!(out, "{}", total_line(usize::try_from(problems).unwrap_or(usize::MAX), &solved, threads))?;
    Ok(solved.iter().filter(|s| !s.correct).count())
}

/// `sente ffo`'s command line.
#[derive(clap::Args)]
pub struct FfoArgs {
    #[command(subcommand)]
    pub command: Option<FfoCommand>,
    /// The problem file (e.g. ffo/problems/ffo_40_59.txt).
    #[arg(required = true)]
    pub file: Option<String>,
    /// Solver threads (0: one per core).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    pub hash: usize,
    /// Only these problem numbers (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<u32>,
    /// Evaluation weights to use instead of the built-in ones.
    #[arg(long)]
    pub eval: Option<String>,
    /// Keep each problem's result in this file as it is solved (JSON lines).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Continue the run whose results are in --out (after Ctrl-C, SIGTERM or a kill).
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Solve only the problems k (in file order, after --only) with k mod n = i,
    /// e.g. 0/4; `sente ffo merge` joins the shards' --out files.
    #[arg(long, requires = "out")]
    pub shard: Option<String>,
}

/// Runs `sente ffo` and `sente ffo merge`: an error when an answer is wrong.
pub fn main(args: FfoArgs) -> Result<()> {
    let FfoArgs { command, file, threads, hash, only, eval, out, resume, shard } = args;
    if let Some(FfoCommand::Merge { files, out }) = command {
        let wrong = merge(&files, out.as_deref(), &mut std::io::stdout().lock())?;
        if wrong > 0 {
            bail!("{wrong} wrong answers");
        }
        return Ok(());
    }
    let file = file.context("give the problem file")?;
    let shard = shard.map(|s| Shard::parse(&s, "--shard")).transpose()?;
    if let Some(path) = &eval {
        super::install_eval_file(path)?;
    }
    let options = FfoOptions { threads, hash_mb: hash, only, out, resume, eval, shard };
    let stop = crate::tools::interrupt::stop_flag();
    let wrong = run(&file, &options, &stop, &mut std::io::stdout().lock())?;
    if wrong > 0 {
        bail!("{wrong} wrong answers");
    }
    Ok(())
}
