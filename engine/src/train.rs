//! `sente train-othello`: generates training positions from self-play and fits the
//! pattern evaluation to them (see `search::othello::train`).

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use crossbeam_channel::{RecvTimeoutError, unbounded};
use indicatif::{ProgressBar, ProgressStyle};
use search::othello::Solver;
use search::othello::train::{self, FitSettings, GameSettings, Record};
use serde::{Deserialize, Serialize};

use crate::journal::Journal;

/// What a `gen` run is: the data of two runs can follow each other in one file only
/// if they are the same run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct RunHeader {
    /// The seed of the run.
    seed: u64,
    /// How its games are played.
    settings: String,
    /// The data file's length when the run began.
    start: u64,
}

/// One line of the progress file: game `game` is in the data file, which it ends at
/// byte `end`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct GameDone {
    game: u64,
    end: u64,
}

/// A line of the progress file `<out>.progress`: the header, then one per game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum ProgressLine {
    Run { run: RunHeader },
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
}

/// Plays the run's training games and appends their records to its data file, in
/// game order. Game `i` is seeded from the seed and `i`, so runs are reproducible.
/// After each game `<out>.progress` records where the data file ends: with `resume`,
/// a run stopped (`stop`) or killed goes on from the games written, first cutting off
/// the data file any game it holds without its progress line.
pub fn generate(run: &GenRun, stop: Arc<AtomicBool>) -> Result<()> {
    let GenRun { games, threads, seed, settings, hash_mb, ref out, resume } = *run;
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
    let header = RunHeader { seed, settings: format!("{settings:?}"), start: length };
    let mut done = 0u64;
    let mut end = length;
    match recovered.lines.split_first() {
        None => journal.append(&serde_json::to_string(&ProgressLine::Run { run: header.clone() })?)?,
        Some((first, rest)) => {
            let Ok(ProgressLine::Run { run }) = serde_json::from_str(first) else {
                bail!("{progress}: the first line is not a run header");
            };
            if run.seed != seed || run.settings != header.settings {
                bail!(
                    "{progress} records a run of seed {} with {}: resume it with the same settings",
                    run.seed,
                    run.settings
                );
            }
            end = run.start;
            for (i, line) in rest.iter().enumerate() {
                match serde_json::from_str(line) {
                    Ok(ProgressLine::Game(g)) if g.game == i as u64 && g.end >= end => end = g.end,
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
    if done >= games {
        println!("{out} already holds the {done} games of this run (seed {seed})");
        return Ok(());
    }

    let next = Arc::new(AtomicU64::new(done));
    let (tx, rx) = unbounded::<(u64, Vec<Record>)>();
    for _ in 0..threads.max(1) {
        let (tx, next, stop) = (tx.clone(), next.clone(), stop.clone());
        // Not joined: when the run is stopped, the games under way are dropped
        // with the process.
        std::thread::spawn(move || {
            let solver = Solver::new(hash_mb, 1);
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games || stop.load(Ordering::Relaxed) {
                    break;
                }
                let records = train::training_game(&solver, game_seed(seed, i), &settings);
                solver.clear();
                if tx.send((i, records)).is_err() {
                    break;
                }
            }
        });
    }
    drop(tx);
    let bar = ProgressBar::new(games);
    bar.set_style(
        ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {pos}/{len} games {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(done);
    bar.enable_steady_tick(Duration::from_millis(500));
    let start = Instant::now();
    let first = done;
    let mut positions = 0u64;
    // Games come in as they finish; they are written in game order.
    let mut waiting: BTreeMap<u64, Vec<Record>> = BTreeMap::new();
    while done < games {
        if stop.load(Ordering::Relaxed) {
            bar.finish_and_clear();
            println!(
                "stopped: games 0..{done} of seed {seed} are in {out} (the games under way were dropped); \
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
                    bail!("the game threads ended before game {done}");
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
            journal.append(&serde_json::to_string(&ProgressLine::Game(GameDone { game: done, end }))?)?;
            done += 1;
            positions += records.len() as u64;
            bar.inc(1);
            bar.set_message(format!("{positions} positions"));
        }
    }
    bar.finish_and_clear();
    println!(
        "{} games, {positions} positions in {:.1} s, appended to {out} (games 0..{games} of seed {seed}, progress in {progress})",
        games - first,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Fits the evaluation to the records of `data` files and writes the weights to `out`.
pub fn fit(data: &[String], settings: FitSettings, out: &str) -> Result<()> {
    let mut records = Vec::new();
    for path in data {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {path}"))?;
        records.extend(Record::read_all(&bytes).map_err(anyhow::Error::msg).with_context(|| path.clone())?);
    }
    if records.is_empty() {
        bail!("no records to fit");
    }
    println!("fitting {} positions ({} exact)", records.len(), records.iter().filter(|r| r.exact).count());
    let start = Instant::now();
    let epochs = settings.epochs;
    let weights = train::fit(&records, &settings, |r| {
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
