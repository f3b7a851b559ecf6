//! `sente train-othello`: generates training positions from self-play and fits the
//! pattern evaluation to them (see `search::othello::train`).

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use crossbeam_channel::{RecvTimeoutError, unbounded};
use indicatif::{ProgressBar, ProgressStyle};
use search::othello::Solver;
use search::othello::train::{self, FitSettings, GameSettings, Record};
use serde::{Deserialize, Serialize};

use crate::tools::journal::Journal;
use crate::tools::shard::Shard;

/// What a `gen` run is: the data of two runs can follow each other in one file only
/// if they are the same run, and the shards of one run are merged only if their
/// headers agree but for `shard` and `start`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunHeader {
    /// The seed of the run.
    pub seed: u64,
    /// How its games are played.
    pub settings: String,
    /// Table size per thread in MiB (it can change which of two equal moves a search
    /// picks, so a resumed run and the shards of a run keep it).
    pub hash_mb: usize,
    /// The data file's length when the run began.
    pub start: u64,
    /// A sharded run's shard (`i/n`) and games in the whole run; `None` for a run
    /// without `--shard` (whose `--games` may grow when resumed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardOfRun>,
}

/// Which part of a sharded `gen` run a progress file records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardOfRun {
    /// The shard, `i/n`.
    pub shard: String,
    /// Games of the whole run (the shard plays those `k < games` with `k mod n = i`).
    pub games: u64,
}

/// One line of the progress file: game `game` (its number in the whole run) is in
/// the data file, which it ends at byte `end`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameDone {
    /// The game's number in the run.
    pub game: u64,
    /// Where the data file ends after its records.
    pub end: u64,
}

/// A line of the progress file `<out>.progress`: the header, then one per game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ProgressLine {
    /// The first line: the run.
    Run {
        /// What the run is.
        run: RunHeader,
    },
    /// A later line: a game written.
    Game(GameDone),
}

/// Where the progress of a `gen` run into `out` is kept.
pub fn progress_path(out: &str) -> String {
    format!("{out}.progress")
}

/// The seed of game `i` of a run of `seed`.
fn game_seed(seed: u64, i: u64) -> u64 {
    seed.wrapping_mul(1_000_003).wrapping_add(i)
}

/// A `gen` run: what `sente train-othello gen` was asked for.
pub struct GenRun {
    /// Games of the run.
    pub games: u64,
    /// Games played at once.
    pub threads: usize,
    /// Seed of the run (game `i` uses the seed and `i`).
    pub seed: u64,
    /// How the games are played.
    pub settings: GameSettings,
    /// Table size per thread in MiB.
    pub hash_mb: usize,
    /// The data file, appended to.
    pub out: String,
    /// Continue the run recorded in `<out>.progress`.
    pub resume: bool,
    /// Play only this shard's games (see [`crate::tools::train_shards::merge`]).
    pub shard: Option<Shard>,
}

/// Plays the run's training games and appends their records to its data file, in
/// game order. Game `i` is seeded from the seed and `i`, so runs are reproducible.
/// After each game `<out>.progress` records where the data file ends: with `resume`,
/// a run stopped (`stop`) or killed goes on from the games written, first cutting off
/// the data file any game it holds without its progress line. A shard plays only its
/// games, in game order, each progress line naming the game's number in the run.
pub fn generate(run: &GenRun, stop: Arc<AtomicBool>) -> Result<()> {
    let GenRun { games, threads, seed, settings, hash_mb, ref out, resume, shard } = *run;
    let progress = progress_path(out);
    let had_progress = std::fs::metadata(&progress).is_ok_and(|m| m.len() > 0);
    if had_progress && !resume {
        bail!(
            "{progress} records a run into {out}: add --resume to continue it, or delete {progress} to append a new run"
        );
    }
    let mut data =
        OpenOptions::new().create(true).append(true).open(out).with_context(|| format!("cannot open {out}"))?;
    let length = data.metadata().with_context(|| format!("cannot read {out}"))?.len();
    let (mut journal, recovered) = Journal::open(Path::new(&progress))?;
    if let Some(message) = &recovered.dropped {
        eprintln!("{message}");
    }
    let shard_of_run = shard.map(|s| ShardOfRun { shard: s.to_string(), games });
    let header = RunHeader { seed, settings: format!("{settings:?}"), hash_mb, start: length, shard: shard_of_run };
    let shard = shard.unwrap_or(Shard::WHOLE);
    // This run's games, in the order they are written.
    let list: Vec<u64> = shard.items(0..games).collect();
    let mut done = 0usize;
    let mut end = length;
    match recovered.lines.split_first() {
        None => journal.append(&serde_json::to_string(&ProgressLine::Run { run: header.clone() })?)?,
        Some((first, rest)) => {
            let Ok(ProgressLine::Run { run }) = serde_json::from_str(first) else {
                bail!("{progress}: the first line is not a run header");
            };
            if run.seed != seed || run.settings != header.settings || run.hash_mb != hash_mb {
                bail!(
                    "{progress} records a run of seed {} with {} and --hash {}: resume it with the same settings",
                    run.seed,
                    run.settings,
                    run.hash_mb
                );
            }
            if run.shard != header.shard {
                let describe = |s: &Option<ShardOfRun>| {
                    s.as_ref()
                        .map_or("no --shard".to_string(), |s| format!("--shard {} of --games {}", s.shard, s.games))
                };
                bail!(
                    "{progress} records a run with {}: resume it with the same (not {})",
                    describe(&run.shard),
                    describe(&header.shard)
                );
            }
            end = run.start;
            // Every game this shard plays, however many --games (an unsharded run
            // may grow).
            let mut numbers = shard.items(0..u64::MAX);
            for (i, line) in rest.iter().enumerate() {
                match serde_json::from_str(line) {
                    Ok(ProgressLine::Game(g)) if Some(g.game) == numbers.next() && g.end >= end => end = g.end,
                    _ => bail!("{progress} line {}: not the next game of the run", i + 2),
                }
                done += 1;
            }
            if length < end {
                bail!("{out} holds {length} bytes, but {progress} says the run wrote {end}: was it changed?");
            }
            if length > end {
                data.set_len(end).with_context(|| format!("cannot truncate {out}"))?;
                data.sync_data()?;
                eprintln!("{out}: dropped {} bytes of a game cut off by a kill; it is played again", length - end);
            }
        }
    }
    if done >= list.len() {
        println!("{out} already holds the {done} games of this run (seed {seed})");
        return Ok(());
    }

    let list = Arc::new(list);
    let next = Arc::new(AtomicUsize::new(done));
    // Sent with the game's place in `list`.
    let (tx, rx) = unbounded::<(usize, Vec<Record>)>();
    for _ in 0..threads.max(1) {
        let (tx, next, stop, list) = (tx.clone(), next.clone(), stop.clone(), list.clone());
        // Not joined: when the run is stopped, the games under way are dropped
        // with the process.
        std::thread::spawn(move || {
            let solver = Solver::new(hash_mb, 1);
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                let Some(&i) = list.get(n) else { break };
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let records = train::training_game(&solver, game_seed(seed, i), &settings);
                solver.clear();
                if tx.send((n, records)).is_err() {
                    break;
                }
            }
        });
    }
    drop(tx);
    let bar = ProgressBar::new(list.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {pos}/{len} games {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(done as u64);
    bar.enable_steady_tick(Duration::from_millis(500));
    let start = Instant::now();
    let first = done;
    let which = if shard == Shard::WHOLE { String::new() } else { format!(" of shard {shard} of {games}") };
    let mut positions = 0u64;
    // Games come in as they finish; they are written in game order.
    let mut waiting: BTreeMap<usize, Vec<Record>> = BTreeMap::new();
    while done < list.len() {
        if stop.load(Ordering::Relaxed) {
            bar.finish_and_clear();
            println!(
                "stopped: {done} games{which} of seed {seed} are in {out} (the games under way were dropped); \
                 the same command with --resume continues"
            );
            return Ok(());
        }
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok((i, records)) => {
                waiting.insert(i, records);
            }
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => {
                if !stop.load(Ordering::Relaxed) {
                    bail!("the game threads ended before game {}", list[done]);
                }
                continue;
            }
        }
        while let Some(records) = waiting.remove(&done) {
            let mut bytes = Vec::with_capacity(records.len() * train::RECORD_BYTES);
            for r in &records {
                r.write(&mut bytes);
            }
            // The game's records first, then the line saying they are there.
            data.write_all(&bytes).and_then(|_| data.sync_data()).with_context(|| format!("cannot write {out}"))?;
            end += bytes.len() as u64;
            journal.append(&serde_json::to_string(&ProgressLine::Game(GameDone { game: list[done], end }))?)?;
            done += 1;
            positions += records.len() as u64;
            bar.inc(1);
            bar.set_message(format!("{positions} positions"));
        }
    }
    bar.finish_and_clear();
    println!(
        "{} games{which}, {positions} positions in {:.1} s, appended to {out} (seed {seed}, progress in {progress})",
        list.len() - first,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The records of the `data` files, in order.
fn read_records(data: &[String]) -> Result<Vec<Record>> {
    let mut records = Vec::new();
    for path in data {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {path}"))?;
        records.extend(Record::read_all(&bytes).map_err(anyhow::Error::msg).with_context(|| path.clone())?);
    }
    if records.is_empty() {
        bail!("no records in {}", data.join(", "));
    }
    Ok(records)
}

/// The quantised weights of a weights file, or the program's own for `None` or
/// `builtin`.
fn read_weights(path: Option<&str>) -> Result<Vec<i16>> {
    let bytes = match path {
        None | Some("builtin") => search::othello::embedded_weights().to_vec(),
        Some(path) => std::fs::read(path).with_context(|| format!("cannot read {path}"))?,
    };
    let name = path.unwrap_or("builtin");
    let weights = train::decode_weights(&bytes).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    if search::othello::patterns::PatternEval::from_weights(weights.clone()).is_none() {
        bail!("{name}: weights of the wrong size for this build");
    }
    Ok(weights)
}

/// Prints the mean absolute error of `weights` (a file; the program's own when
/// `None`) against the labels of the `data` files: one line per phase with records,
/// then the whole.
pub fn errors(data: &[String], weights: Option<&str>, out: &mut impl Write) -> Result<()> {
    let records = read_records(data)?;
    let weights = read_weights(weights)?;
    let by_phase = train::phase_errors(&records, &weights);
    for (phase, (n, mae)) in by_phase.iter().enumerate().filter(|(_, (n, _))| *n > 0) {
        writeln!(out, "empties {:>2}-{:>2}: {n:>8} positions, MAE {mae:.2}", 4 * phase + 1, 4 * phase + 4)?;
    }
    let total: f64 = by_phase.iter().map(|&(n, m)| n as f64 * m).sum();
    writeln!(out, "all: {} positions, MAE {:.2}", records.len(), total / records.len() as f64)?;
    Ok(())
}

/// Fits the evaluation to the records of `data` files (from the weights of `init`
/// when given) and writes the weights to `out`.
pub fn fit(data: &[String], settings: FitSettings, init: Option<&str>, out: &str) -> Result<()> {
    let records = read_records(data)?;
    if settings.min_empties > 0 && init.is_none() {
        bail!("--min-empties keeps the weights of the earlier phases: give them with --init (a file or builtin)");
    }
    let init = init.map(|path| read_weights(Some(path))).transpose()?;
    let used = records.iter().filter(|r| r.empties() >= settings.min_empties).count();
    if used == 0 {
        bail!("no record has {} empties or more", settings.min_empties);
    }
    println!("fitting {} positions ({} exact)", records.len(), records.iter().filter(|r| r.exact).count());
    let start = Instant::now();
    let epochs = settings.epochs;
    let weights = train::fit_from(&records, &settings, init.as_deref(), |r| {
        println!(
            "epoch {:>3}: train MAE {:.3} discs, validation MAE {:.3} discs ({:.0} s)",
            r.epoch,
            r.train_mae,
            r.validation_mae,
            start.elapsed().as_secs_f64()
        );
        if r.epoch == epochs {
            for (phase, (n, mae)) in r.validation_by_phase.iter().enumerate() {
                println!("  empties {:>2}-{:>2}: {n:>7} positions, MAE {mae:.2}", 4 * phase + 1, 4 * phase + 4);
            }
        }
    });
    let bytes = train::encode_weights(&weights);
    std::fs::write(out, &bytes).with_context(|| format!("cannot write {out}"))?;
    println!("wrote {out} ({} bytes)", bytes.len());
    Ok(())
}
