//! `sente othello-accuracy`: the move-quality benchmark. Runs the 8×8 player at a
//! fixed time per move on positions whose every move was solved exactly, and prints
//! the discs its choices lose; with `--make FILE`, writes such positions. Both take
//! `--shard i/n` (the positions `k` with `k mod n = i`), and `merge` joins the
//! shards' files into what one unsharded run writes (and prints).

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
use serde_json::{Value, json};

use crate::tools::journal::{Journal, open_results, whole_lines, write_atomically};
use crate::tools::shard::{Shard, check_complete};

/// The benchmark's default positions (`engine/data/othello_accuracy.txt`), built in.
pub const DEFAULT_POSITIONS: &str = include_str!("../../data/othello_accuracy.txt");

/// Where [`DEFAULT_POSITIONS`] lives in the repository (for messages).
pub const DEFAULT_PATH: &str = "engine/data/othello_accuracy.txt";

/// `sente othello-accuracy merge`.
#[derive(clap::Subcommand)]
pub enum AccuracyCommand {
    /// Join the files of a sharded run: the positions files of `--make F --shard i/n`
    /// into the file one unsharded `--make` writes (--out), or the results files of
    /// `--out F --shard i/n` into the tally one unsharded run prints.
    Merge {
        /// The shards' files, one per shard, in any order.
        #[arg(required = true)]
        files: Vec<String>,
        /// The merged file, which must be new: the positions file (needed for `--make`
        /// shards), or the results file one unsharded run's --out holds.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

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
    /// Play only this shard's positions (with `out`, for [`merge`]).
    pub shard: Option<Shard>,
    /// The evaluation weights file in use instead of the built-in ones (named in the
    /// `out` file's header, so that a run is resumed only with the same weights).
    pub eval: Option<String>,
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
    if options.shard.is_some() && options.out.is_none() {
        bail!("--shard needs --out: `sente othello-accuracy merge` joins the shards' --out files");
    }
    let shard = options.shard.unwrap_or(Shard::WHOLE);
    // This run's positions, by their numbers in the file.
    let mine: Vec<usize> = (0..positions.len()).filter(|&k| k as u64 % shard.count == shard.index).collect();
    let mut results = match &options.out {
        Some(file) => {
            let mut header = json!({
                "command": "othello-accuracy", "positions": name, "count": positions.len(),
                "per_move": per_move, "threads": options.threads.max(1), "hash_mb": options.hash_mb,
            });
            if let (Some(shard), Some(map)) = (options.shard, header.as_object_mut()) {
                map.insert("shard".into(), shard.to_string().into());
            }
            if let (Some(eval), Some(map)) = (&options.eval, header.as_object_mut()) {
                map.insert("eval".into(), eval.clone().into());
            }
            Some(open_results::<Played>(file, header, options.resume)?)
        }
        None => None,
    };
    let mut tally = Tally::default();
    let mut done = 0;
    if let Some((_, played)) = &results {
        for (i, p) in played.iter().enumerate() {
            if mine.get(i) != Some(&p.index) {
                bail!("the results file's line {} is not position {} of the run", i + 2, mine.get(i).unwrap_or(&i));
            }
            tally.add(p.empties, p.loss);
        }
        done = played.len();
    }
    let solver = Solver::new(options.hash_mb, options.threads.max(1));
    let bar = progress(mine.len() as u64);
    bar.set_position(done as u64);
    for (played, &index) in mine.iter().enumerate().skip(done) {
        let p = &positions[index];
        if stop.load(Ordering::Relaxed) {
            bar.finish_and_clear();
            let how = match &options.out {
                Some(file) => format!(
                    "the {played} positions played are in {}; the same command with --resume continues",
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
    let of_shard = match options.shard {
        Some(shard) => format!("shard {shard}, {} of ", mine.len()),
        None => String::new(),
    };
    writeln!(out, "{name}: {of_shard}{}", run_line(positions.len(), &per_move, options.threads.max(1)))?;
    write!(out, "{}", tally.report())?;
    Ok(Some(tally))
}

/// What the first line of the tally says after the file's name.
fn run_line(positions: usize, per_move: &str, threads: usize) -> String {
    format!("{positions} positions, {per_move}, {threads} thread{}", if threads == 1 { "" } else { "s" })
}

/// A `--make` run: which positions, into which file.
pub struct MakeRun {
    /// The positions file.
    pub path: String,
    /// Positions of the whole run.
    pub count: u64,
    /// Their seed.
    pub seed: u64,
    /// Table size in MiB (the table's contents can change which moves the games
    /// that lead to a position choose, so it is part of a shard's run).
    pub hash_mb: usize,
    /// Make only this shard's positions.
    pub shard: Option<Shard>,
}

/// The first line of a positions file of `seed`.
fn positions_header(seed: u64) -> String {
    format!(
        "# sente othello-accuracy positions, seed {seed}: squares a1..h8, side to move, every legal move:exact score"
    )
}

/// The comment lines a file of `run` starts with: [`positions_header`], and for a
/// shard a second line `# run {…}` naming the run and the shard, for the merge.
fn header_lines(run: &MakeRun) -> Vec<String> {
    let mut lines = vec![positions_header(run.seed)];
    if let Some(shard) = run.shard {
        lines.push(format!("# run {}", shard_run(run.seed, run.count, run.hash_mb, shard)));
    }
    lines
}

/// What the `# run` line of a shard's positions file holds.
fn shard_run(seed: u64, count: u64, hash_mb: usize, shard: Shard) -> Value {
    json!({ "command": "othello-accuracy --make", "seed": seed, "count": count, "hash_mb": hash_mb, "shard": shard.to_string() })
}

/// Makes the positions of `run` in its file, appending to what is there: the
/// positions already in the file are kept and not made again (each is written as
/// soon as it is solved, so a stopped run loses at most the one being solved).
/// Position `k` depends on the seed and `k` alone (its game is played and it is
/// solved from an empty table), so a shard makes the positions `k` of the run with
/// `k mod n = i`, in order, and [`merge`] interleaves the shards' files into the
/// file of one unsharded run. A file of another seed or shard is refused. A line torn
/// by a kill is cut off first (with a message); `stop` (Ctrl-C, SIGTERM) ends the run
/// after the position being solved.
pub fn make(run: &MakeRun, stop: &AtomicBool, out: &mut impl Write) -> Result<()> {
    let path = &run.path;
    let (mut file, recovered) = Journal::open(Path::new(path))?;
    if let Some(message) = &recovered.dropped {
        eprintln!("{message}");
    }
    let header = header_lines(run);
    let comments: Vec<&String> = recovered.lines.iter().take_while(|l| l.trim_start().starts_with('#')).collect();
    let other_run =
        !recovered.lines.is_empty() && !comments.iter().map(|l| l.as_str()).eq(header.iter().map(String::as_str));
    let refuse = || {
        anyhow::anyhow!(
            "{path} holds positions of another run ('{}'), not of '{}': choose another file",
            comments.iter().map(|l| l.as_str()).collect::<Vec<_>>().join(" / "),
            header.join(" / ")
        )
    };
    // A shard's file is its run's alone; a file by hand that already holds the
    // positions asked for is left alone, but no positions are added under another header.
    if other_run && (run.shard.is_some() || comments.iter().any(|l| l.starts_with("# run "))) {
        return Err(refuse());
    }
    let existing =
        parse_file(&recovered.lines.join("\n")).map_err(anyhow::Error::msg).with_context(|| path.to_string())?.len()
            as u64;
    let shard = run.shard.unwrap_or(Shard::WHOLE);
    let wanted = shard.count_in(0..run.count);
    let of_shard = match run.shard {
        Some(shard) => format!(" (shard {shard} of {})", run.count),
        None => String::new(),
    };
    if existing >= wanted {
        writeln!(out, "{path}: already holds {existing} positions{of_shard}")?;
        return Ok(());
    }
    if other_run {
        return Err(refuse());
    }
    if recovered.lines.is_empty() {
        for line in &header {
            file.append(line)?;
        }
    }
    let solver = Solver::new(run.hash_mb, 1);
    let bar = progress(wanted);
    bar.set_position(existing);
    let start = Instant::now();
    for (made, index) in (existing..).zip(shard.items(0..run.count).skip(existing as usize)) {
        if stop.load(Ordering::Relaxed) {
            bar.finish_and_clear();
            writeln!(out, "stopped: {path} holds {made} positions{of_shard}; the same command goes on from them")?;
            return Ok(());
        }
        solver.clear();
        let position = (0..)
            .find_map(|attempt| benchmark_position(&solver, run.seed, index, attempt))
            .context("no game reached the position")?;
        bar.set_message(format!("solving {} empties", position.board().empty_count()));
        solver.clear();
        let scored: ScoredPosition = score_position(&solver, position).context("the solver was stopped")?;
        file.append(&scored.to_line())?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    writeln!(
        out,
        "{path}: {wanted} positions{of_shard} ({} made in {:.1} s)",
        wanted - existing,
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// `sente othello-accuracy merge`: tells the shards' files apart by their first
/// line (`#`: positions of `--make`; `{"run": …}`: results of a benchmark run) and
/// merges them with [`merge_made`] or [`merge_results`].
pub fn merge(paths: &[String], merged: Option<&Path>, out: &mut impl Write) -> Result<()> {
    if let Some(file) = merged
        && std::fs::metadata(file).is_ok_and(|m| m.len() > 0)
    {
        bail!("{} already holds data: merge writes a new file", file.display());
    }
    let Some(first) = paths.first() else { bail!("no files to merge") };
    let text = std::fs::read_to_string(first).with_context(|| format!("cannot read {first}"))?;
    if text.trim_start().starts_with('#') {
        let Some(merged) = merged else {
            bail!("{first} is a positions file of `--make`: give --out FILE for the merged positions")
        };
        let (count, shards) = merge_made(paths, merged)?;
        writeln!(out, "{shards} shards, {count} positions written to {}", merged.display())?;
        Ok(())
    } else {
        merge_results(paths, merged, out)
    }
}

/// Joins the positions files of the shards of one `--make … --shard i/n` run into
/// `merged`, which then holds byte for byte what one unsharded `--make` of the same
/// seed and count writes. Every shard must be given once, finished, and of the same
/// run (seed, count, `--hash`). Returns (positions, shards).
pub fn merge_made(paths: &[String], merged: &Path) -> Result<(u64, usize)> {
    let mut shards = Vec::new();
    let mut runs = Vec::new();
    let mut seed_count = (0, 0);
    for path in paths {
        let lines = whole_lines(path)?;
        let not_shard = || format!("{path} is not the positions file of a `--make … --shard i/n` run");
        let (comments, positions) = lines.split_at(lines.iter().take_while(|(_, l)| l.starts_with('#')).count());
        let [(_, header), (_, run_line)] = comments else { bail!(not_shard()) };
        let mut run = run_line
            .strip_prefix("# run ")
            .and_then(|j| serde_json::from_str::<Value>(j).ok())
            .filter(|run| run["command"] == "othello-accuracy --make")
            .with_context(not_shard)?;
        let (Some(seed), Some(count)) = (run["seed"].as_u64(), run["count"].as_u64()) else { bail!(not_shard()) };
        if *header != positions_header(seed) {
            bail!("{path}: line 1 is not the header of seed {seed}'s positions");
        }
        let shard = run
            .as_object_mut()
            .and_then(|map| map.remove("shard"))
            .and_then(|s| s.as_str().map(str::to_string))
            .with_context(not_shard)?;
        let shard = Shard::parse(&shard, &format!("{path}: shard"))?;
        for (number, line) in positions {
            ScoredPosition::parse_line(line)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("{path}: line {number}"))?;
        }
        let wanted = shard.count_in(0..count);
        let held = positions.len() as u64;
        if held != wanted {
            bail!(
                "{path} holds {held} of shard {shard}'s {wanted} positions: {}",
                if held < wanted { "finish that shard first (the same `--make` command goes on)" } else { "too many" }
            );
        }
        seed_count = (seed, count);
        runs.push((run, shard));
        shards.push(positions.iter().map(|(_, l)| l.clone()).collect::<Vec<_>>());
    }
    let by_index = check_complete(paths, &runs, "headers")?;
    let (seed, count) = seed_count;
    let n = runs.first().map_or(1, |(_, s)| s.count);
    let mut bytes = positions_header(seed).into_bytes();
    bytes.push(b'\n');
    for k in 0..count {
        let line = by_index
            .get(&(k % n))
            .and_then(|&file| shards[file].get(usize::try_from(k / n).ok()?))
            .with_context(|| format!("position {k} is in no shard"))?;
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    }
    write_atomically(merged, &bytes)?;
    Ok((count, paths.len()))
}

/// Joins the results files of the shards of one benchmark run (`--out F --shard
/// i/n`) and prints the tally one unsharded run prints; with `merged`, writes there
/// the results file of one unsharded run (`--out merged --resume` then prints the
/// tally, playing nothing). Every shard must be given once, finished, and of the
/// same run.
pub fn merge_results(paths: &[String], merged: Option<&Path>, out: &mut impl Write) -> Result<()> {
    let mut runs = Vec::new();
    let mut played = Vec::new();
    for path in paths {
        let lines = whole_lines(path)?;
        let not_shard = || format!("{path} is not the --out file of an `othello-accuracy --shard i/n` run");
        let Some(((_, first), rest)) = lines.split_first() else { bail!("{path} is empty") };
        let mut run = serde_json::from_str::<Value>(first)
            .ok()
            .and_then(|v| v.get("run").cloned())
            .filter(|run| run["command"] == "othello-accuracy")
            .with_context(not_shard)?;
        let count = run["count"].as_u64().with_context(not_shard)?;
        let shard = run
            .as_object_mut()
            .and_then(|map| map.remove("shard"))
            .and_then(|s| s.as_str().map(str::to_string))
            .with_context(not_shard)?;
        let shard = Shard::parse(&shard, &format!("{path}: shard"))?;
        let items = rest
            .iter()
            .map(|(number, line)| {
                let p: Played = serde_json::from_str(line)
                    .with_context(|| format!("{path}: line {number} is not a position played"))?;
                Ok((p, line.clone()))
            })
            .collect::<Result<Vec<_>>>()?;
        if !items.iter().map(|(p, _)| p.index as u64).eq(shard.items(0..count)) {
            let in_order = items.iter().map(|(p, _)| p.index as u64).eq(shard.items(0..count).take(items.len()));
            bail!(
                "{path} holds {} of shard {shard}'s {} positions{}: finish that shard first (the same command with --resume)",
                items.len(),
                shard.count_in(0..count),
                if in_order { "" } else { ", not in its order" }
            );
        }
        runs.push((run, shard));
        played.extend(items);
    }
    check_complete(paths, &runs, "headers")?;
    let Some((run, _)) = runs.first() else { bail!("no files to merge") };
    played.sort_by_key(|(p, _)| p.index);
    if let Some(file) = merged {
        let mut bytes = json!({ "run": run }).to_string().into_bytes();
        bytes.push(b'\n');
        for (_, line) in &played {
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        write_atomically(file, &bytes)?;
    }
    let mut tally = Tally::default();
    for (p, _) in &played {
        tally.add(p.empties, p.loss);
    }
    let threads = run["threads"].as_u64().and_then(|t| usize::try_from(t).ok()).unwrap_or(1);
    writeln!(
        out,
        "{}: {}",
        run["positions"].as_str().unwrap_or("?"),
        run_line(played.len(), run["per_move"].as_str().unwrap_or("?"), threads)
    )?;
    write!(out, "{}", tally.report())?;
    Ok(())
}

/// `sente othello-accuracy`'s command line.
#[derive(clap::Args)]
pub struct AccuracyArgs {
    #[command(subcommand)]
    pub command: Option<AccuracyCommand>,
    /// The positions (default: the built-in engine/data/othello_accuracy.txt).
    pub file: Option<String>,
    /// Milliseconds per move.
    #[arg(long, default_value_t = 100)]
    pub movetime: u64,
    /// Nodes per move instead of --movetime: reproducible whatever the machine and its load.
    #[arg(long, conflicts_with_all = ["movetime", "depth"])]
    pub nodes: Option<u64>,
    /// A fixed search depth per move instead of --movetime (reproducible results).
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Keep each position's result in this file as it is played (JSON lines).
    #[arg(long, conflicts_with = "make")]
    pub out: Option<std::path::PathBuf>,
    /// Continue the run whose results are in --out (after Ctrl-C, SIGTERM or a kill).
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Only the first N positions (with --make: the number the file should hold).
    #[arg(long)]
    pub count: Option<usize>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Make positions into this file (appending; the ones there are kept).
    #[arg(long, conflicts_with = "file")]
    pub make: Option<String>,
    /// The seed of the made positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only the positions k with k mod n = i, e.g. 0/4 (with --out, or with
    /// --make: position k of the seed, k < --count); `merge` joins the shards' files.
    #[arg(long)]
    pub shard: Option<String>,
    /// An evaluation weights file (as `train-othello fit` writes) to search with
    /// instead of the built-in weights (not with --make, whose games it would change).
    #[arg(long, conflicts_with = "make")]
    pub eval: Option<String>,
}

/// Runs `sente othello-accuracy` (a run, `--make`, or `merge`).
pub fn main(args: AccuracyArgs) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    if let Some(AccuracyCommand::Merge { files, out }) = &args.command {
        return merge(files, out.as_deref(), &mut stdout);
    }
    let stop = crate::tools::interrupt::stop_flag();
    let shard = args.shard.map(|s| Shard::parse(&s, "--shard")).transpose()?;
    if let Some(path) = &args.eval {
        super::install_eval_file(path)?;
    }
    if let Some(path) = args.make {
        let count = args.count.unwrap_or(500) as u64;
        let made = MakeRun { path, count, seed: args.seed, hash_mb: args.hash, shard };
        return make(&made, &stop, &mut stdout);
    }
    if args.movetime == 0 {
        bail!("--movetime must be at least 1 ms");
    }
    if args.nodes == Some(0) {
        bail!("--nodes must be at least 1");
    }
    let options = RunOptions {
        movetime: Duration::from_millis(args.movetime),
        depth: args.depth,
        nodes: args.nodes,
        out: args.out,
        resume: args.resume,
        count: args.count,
        threads: args.threads,
        hash_mb: args.hash,
        shard,
        eval: args.eval,
    };
    let (name, text) = match args.file {
        Some(path) => {
            let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {path}"))?;
            (path, text)
        }
        None => (DEFAULT_PATH.to_string(), DEFAULT_POSITIONS.to_string()),
    };
    run(&name, &text, &options, &stop, &mut stdout).map(|_| ())
}
