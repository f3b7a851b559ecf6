//! Sharded `sente train-othello gen` runs: the `<out>.games` file a shard writes beside
//! its data (the run's settings, then each game's number and record count), and
//! `sente train-othello merge`, which joins finished shards into the bytes one
//! unsharded run writes.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;

use anyhow::{Context, Result, bail};
use search::othello::train::{self, GameSettings, Record};
use serde::{Deserialize, Serialize};

use crate::shard::Shard;

/// The `.games` file of a shard being generated.
pub struct ShardIndex {
    file: File,
    path: String,
}

impl ShardIndex {
    /// Starts the `.games` file of shard `shard` of a run into `out`, which must be a
    /// new or empty file (the merge reads a shard's data whole).
    pub fn create(
        out: &str,
        games: u64,
        seed: u64,
        settings: &GameSettings,
        hash_mb: usize,
        shard: Shard,
    ) -> Result<ShardIndex> {
        if std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
            bail!("{out} already holds data: a shard's --out must be a new file, as merge reads it whole");
        }
        let path = index_path(out);
        let mut file = File::create(&path).with_context(|| format!("cannot create {path}"))?;
        let header = ShardHeader::new(games, seed, settings, hash_mb, shard);
        writeln!(file, "{}", serde_json::to_string(&header)?).with_context(|| format!("cannot write {path}"))?;
        Ok(ShardIndex { file, path })
    }

    /// Notes that game `game`'s `positions` records were just appended to the data.
    pub fn record(&mut self, game: u64, positions: u64) -> Result<()> {
        let line = serde_json::to_string(&GameEntry { game, positions })?;
        writeln!(self.file, "{line}").with_context(|| format!("cannot write {}", self.path))
    }
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
    if !games.iter().map(|(k, _)| *k).eq(shard.items(0..header.games)) {
        let in_order = games.iter().map(|(k, _)| *k).eq(shard.items(0..header.games).take(games.len()));
        bail!(
            "{path} holds {} of shard {shard}'s {} games{}: finish that shard first",
            games.len(),
            shard.count_in(0..header.games),
            if in_order { "" } else { ", not in its order" }
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
