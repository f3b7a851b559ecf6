//! `sente train-othello`: generates training positions from self-play and fits the
//! pattern evaluation to them (see `search::othello::train`).

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use crossbeam_channel::unbounded;
use indicatif::{ProgressBar, ProgressStyle};
use search::othello::Solver;
use search::othello::train::{self, FitSettings, GameSettings, Record};
use serde::{Deserialize, Serialize};

use crate::shard::Shard;

/// Plays training games on `threads` threads and appends their records to `out`, in
/// game order. Game `i` is seeded from `seed` and `i`, so runs are reproducible.
/// With a `shard`, only that shard's games are played, and `<out>.games` lists them
/// (see [`merge`]); `out` must then be a new or empty file.
pub fn generate(
    games: u64,
    threads: usize,
    seed: u64,
    settings: GameSettings,
    hash_mb: usize,
    out: &str,
    shard: Option<Shard>,
) -> Result<()> {
    let mut index = match shard {
        Some(shard) => {
            if std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
                bail!("{out} already holds data: a shard's --out must be a new file, as merge reads it whole");
            }
            let header = ShardHeader::new(games, seed, &settings, hash_mb, shard);
            let path = index_path(out);
            let mut file = File::create(&path).with_context(|| format!("cannot create {path}"))?;
            writeln!(file, "{}", serde_json::to_string(&header)?).with_context(|| format!("cannot write {path}"))?;
            Some((file, path))
        }
        None => None,
    };
    let mut file =
        OpenOptions::new().create(true).append(true).open(out).with_context(|| format!("cannot open {out}"))?;
    let shard = shard.unwrap_or(Shard::WHOLE);
    let list: Vec<u64> = (0..games).filter(|&k| shard.holds(k)).collect();
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
                if let Some((index, path)) = &mut index {
                    let line =
                        serde_json::to_string(&GameEntry { game: list[written], positions: records.len() as u64 })?;
                    writeln!(index, "{line}").with_context(|| format!("cannot write {path}"))?;
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

/// The file next to a shard's data that lists its games.
fn index_path(data: &str) -> String {
    format!("{data}.games")
}

/// The first line of a shard's `.games` file: the run it belongs to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct ShardHeader {
    /// Which shard (`i/n`).
    shard: String,
    /// Games of the whole run.
    games: u64,
    seed: u64,
    solve_empties: u32,
    children_from: u32,
    label_min: u32,
    /// The table size changes which of equal moves a search picks, so shards share it.
    hash_mb: usize,
}

impl ShardHeader {
    fn new(games: u64, seed: u64, settings: &GameSettings, hash_mb: usize, shard: Shard) -> Self {
        ShardHeader {
            shard: shard.to_string(),
            games,
            seed,
            solve_empties: settings.solve_empties,
            children_from: settings.children_from,
            label_min: settings.label_min,
            hash_mb,
        }
    }
}

/// A later line of a shard's `.games` file: a game and how many records it wrote.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct GameEntry {
    game: u64,
    positions: u64,
}

/// One shard's data, read and checked against its `.games` file.
struct ShardData {
    shard: Shard,
    header: ShardHeader,
    /// Each game's records, in game order.
    games: Vec<(u64, Vec<u8>)>,
}

fn read_shard(path: &str) -> Result<ShardData> {
    let index = index_path(path);
    let text = std::fs::read_to_string(&index)
        .with_context(|| format!("cannot read {index}: merge takes the data files of `gen --shard` runs"))?;
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let Some((_, first)) = lines.next() else { bail!("{index} is empty") };
    let header: ShardHeader =
        serde_json::from_str(first).with_context(|| format!("{index}: line 1 is not a shard's header"))?;
    let shard = Shard::parse(&header.shard, &format!("{index}: shard"))?;
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {path}"))?;
    Record::read_all(&bytes).map_err(anyhow::Error::msg).with_context(|| path.to_string())?;
    let mut games = Vec::new();
    let mut offset = 0usize;
    for (i, line) in lines {
        let entry: GameEntry =
            serde_json::from_str(line).with_context(|| format!("{index}: line {} is not a game entry", i + 1))?;
        let end = usize::try_from(entry.positions)
            .ok()
            .and_then(|n| n.checked_mul(train::RECORD_BYTES))
            .and_then(|n| n.checked_add(offset))
            .filter(|&end| end <= bytes.len())
            .ok_or_else(|| anyhow::anyhow!("{index} lists more records than {path} holds"))?;
        games.push((entry.game, bytes[offset..end].to_vec()));
        offset = end;
    }
    if offset != bytes.len() {
        bail!(
            "{path} holds {} records after the last game {index} lists: was the shard stopped?",
            (bytes.len() - offset) / train::RECORD_BYTES
        );
    }
    let expected: Vec<u64> = (0..header.games).filter(|&k| shard.holds(k)).collect();
    let listed: Vec<u64> = games.iter().map(|(k, _)| *k).collect();
    if listed != expected {
        bail!(
            "{path} holds {} of shard {shard}'s {} games{}: finish that shard first",
            listed.len(),
            expected.len(),
            if expected.starts_with(&listed) { "" } else { ", not in its order" }
        );
    }
    Ok(ShardData { shard, header, games })
}

/// `sente train-othello merge`: joins the data files of the shards of one `gen` run
/// into `out`, game by game, so that `out` holds the very bytes one unsharded run
/// would have written. Every shard must be given, finished, and of the same run.
/// Returns (games, positions).
pub fn merge(paths: &[String], out: &str) -> Result<(u64, u64)> {
    if std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
        bail!("{out} already holds data: merge writes a new file");
    }
    let shards = paths.iter().map(|p| read_shard(p)).collect::<Result<Vec<_>>>()?;
    let Some(first) = shards.first() else { bail!("no data files to merge") };
    let count = first.shard.count;
    let mut by_index: BTreeMap<u64, &str> = BTreeMap::new();
    for (data, path) in shards.iter().zip(paths) {
        let same_run = ShardHeader { shard: first.header.shard.clone(), ..data.header.clone() } == first.header;
        if data.shard.count != count || !same_run {
            bail!("{path} and {} are shards of different runs (their .games headers differ)", paths[0]);
        }
        if let Some(other) = by_index.insert(data.shard.index, path) {
            bail!("shard {} is given twice: {other} and {path}", data.shard);
        }
    }
    if let Some(missing) = (0..count).find(|i| !by_index.contains_key(i)) {
        bail!("shard {missing}/{count} is missing");
    }
    let mut parts: Vec<&(u64, Vec<u8>)> = shards.iter().flat_map(|s| &s.games).collect();
    parts.sort_by_key(|(k, _)| *k);
    let mut bytes = Vec::new();
    for (_, records) in &parts {
        bytes.extend_from_slice(records);
    }
    std::fs::write(out, &bytes).with_context(|| format!("cannot write {out}"))?;
    Ok((parts.len() as u64, (bytes.len() / train::RECORD_BYTES) as u64))
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
