//! `sente train-othello`: generates training positions from self-play and fits the
//! pattern evaluation to them (see `search::othello::train`).

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use crossbeam_channel::unbounded;
use indicatif::{ProgressBar, ProgressStyle};
use search::othello::Solver;
use search::othello::train::{self, FitSettings, GameSettings, Record};

use crate::shard::Shard;
use crate::train_shards::ShardIndex;

/// Plays training games on `threads` threads and appends their records to `out`, in
/// game order. Game `i` is seeded from `seed` and `i`, so runs are reproducible.
/// With a `shard`, only that shard's games are played, and `<out>.games` lists them
/// (see [`crate::train_shards::merge`]); `out` must then be a new or empty file.
pub fn generate(
    games: u64,
    threads: usize,
    seed: u64,
    settings: GameSettings,
    hash_mb: usize,
    out: &str,
    shard: Option<Shard>,
) -> Result<()> {
    let mut index = shard.map(|shard| ShardIndex::create(out, games, seed, &settings, hash_mb, shard)).transpose()?;
    let mut file =
        OpenOptions::new().create(true).append(true).open(out).with_context(|| format!("cannot open {out}"))?;
    let shard = shard.unwrap_or(Shard::WHOLE);
    let list: Vec<u64> = shard.items(0..games).collect();
    let next = AtomicUsize::new(0);
    let (tx, rx) = unbounded::<(usize, Vec<Record>)>();
    let bar = ProgressBar::new(list.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {pos}/{len} games {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(500));
    let start = Instant::now();
    let mut positions = 0u64;
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let (next, list) = (&next, &list);
            scope.spawn(move || {
                let solver = Solver::new(hash_mb, 1);
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = list.get(n) else { break };
                    let records =
                        train::training_game(&solver, seed.wrapping_mul(1_000_003).wrapping_add(i), &settings);
                    solver.clear();
                    if tx.send((n, records)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Games finish out of order on several threads; they are written in order.
        let mut waiting = BTreeMap::new();
        let mut written = 0;
        for (n, records) in rx {
            waiting.insert(n, records);
            while let Some(records) = waiting.remove(&written) {
                let mut bytes = Vec::with_capacity(records.len() * train::RECORD_BYTES);
                for r in &records {
                    r.write(&mut bytes);
                }
                file.write_all(&bytes).context("cannot write records")?;
                if let Some(index) = &mut index {
                    index.record(list[written], records.len() as u64)?;
                }
                written += 1;
                positions += records.len() as u64;
                bar.inc(1);
                bar.set_message(format!("{positions} positions"));
            }
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    let which = if shard == Shard::WHOLE { String::new() } else { format!(" (shard {shard} of {games})") };
    println!(
        "{} games{which}, {positions} positions in {:.1} s, appended to {out}",
        list.len(),
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
