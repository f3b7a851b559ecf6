//! `sente train-othello merge`: joins the data files of the shards of one
//! `gen --shard` run into the bytes one unsharded run writes. A shard's games are
//! read from its `<out>.progress` file (the one `--resume` uses; see
//! [`crate::tools::train`]): its header names the run and the shard, and each game's line
//! its number in the run and where its records end in the data file.

use anyhow::{Context, Result, bail};
use search::othello::train::{self, Record};

use crate::tools::shard::{Shard, check_complete};
use crate::tools::train::{GameDone, ProgressLine, RunHeader, progress_path};

/// One shard's data, read and checked against its progress file.
struct ShardData {
    shard: Shard,
    /// Games of the whole run.
    games: u64,
    header: RunHeader,
    /// Each game's records, in game order.
    parts: Vec<(u64, Vec<u8>)>,
}

fn read_shard(path: &str) -> Result<ShardData> {
    let progress = progress_path(path);
    let text = std::fs::read_to_string(&progress)
        .with_context(|| format!("cannot read {progress}: merge takes the data files of `gen --shard` runs"))?;
    // Only whole lines: a line torn by a kill is a game not finished.
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    let mut lines = text[..whole].lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let Some((_, first)) = lines.next() else { bail!("{progress} is empty") };
    let Ok(ProgressLine::Run { run: header }) = serde_json::from_str(first) else {
        bail!("{progress}: line 1 is not a run's header")
    };
    let Some(of_run) = &header.shard else {
        bail!("{progress} records a run without --shard: merge takes the data files of `gen --shard` runs")
    };
    let shard = Shard::parse(&of_run.shard, &format!("{progress}: shard"))?;
    let games = of_run.games;
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {path}"))?;
    let mut parts = Vec::new();
    let mut offset = header.start;
    for (i, line) in lines {
        let Ok(ProgressLine::Game(GameDone { game, end })) = serde_json::from_str(line) else {
            bail!("{progress}: line {} is not a game's line", i + 1)
        };
        let records = usize::try_from(offset)
            .ok()
            .zip(usize::try_from(end).ok())
            .and_then(|(from, to)| bytes.get(from..to))
            .ok_or_else(|| anyhow::anyhow!("{progress} lists more data than {path} holds"))?;
        Record::read_all(records).map_err(anyhow::Error::msg).with_context(|| format!("{path}: game {game}"))?;
        parts.push((game, records.to_vec()));
        offset = end;
    }
    if offset < bytes.len() as u64 {
        bail!(
            "{path} holds {} bytes after the last game {progress} lists: was the shard stopped? \
             (`gen … --resume` finishes it)",
            bytes.len() as u64 - offset
        );
    }
    if !parts.iter().map(|(k, _)| *k).eq(shard.items(0..games)) {
        let in_order = parts.iter().map(|(k, _)| *k).eq(shard.items(0..games).take(parts.len()));
        bail!(
            "{path} holds {} of shard {shard}'s {} games{}: finish that shard first (`gen … --resume`)",
            parts.len(),
            shard.count_in(0..games),
            if in_order { "" } else { ", not in its order" }
        );
    }
    Ok(ShardData { shard, games, header, parts })
}

/// `sente train-othello merge`: joins the data files of the shards of one `gen` run
/// into `out`, game by game, so that `out` holds the very bytes one unsharded run
/// would have written. Every shard must be given, finished, and of the same run
/// (seed, settings, `--hash`, `--games`).
/// Returns (games, positions).
pub fn merge(paths: &[String], out: &str) -> Result<(u64, u64)> {
    if std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
        bail!("{out} already holds data: merge writes a new file");
    }
    let shards = paths.iter().map(|p| read_shard(p)).collect::<Result<Vec<_>>>()?;
    if shards.is_empty() {
        bail!("no data files to merge");
    }
    // The run, without what differs between its shards.
    let runs: Vec<((RunHeader, u64), Shard)> = shards
        .iter()
        .map(|data| ((RunHeader { start: 0, shard: None, ..data.header.clone() }, data.games), data.shard))
        .collect();
    check_complete(paths, &runs, ".progress headers")?;
    let mut parts: Vec<&(u64, Vec<u8>)> = shards.iter().flat_map(|s| &s.parts).collect();
    parts.sort_by_key(|(k, _)| *k);
    let mut bytes = Vec::new();
    for (_, records) in &parts {
        bytes.extend_from_slice(records);
    }
    std::fs::write(out, &bytes).with_context(|| format!("cannot write {out}"))?;
    Ok((parts.len() as u64, (bytes.len() / train::RECORD_BYTES) as u64))
}
