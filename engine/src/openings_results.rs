//! The results file of `sente chaosclock openings --out F` (JSON lines: the run's
//! settings, then one line per deal in deal order, without times so that two runs
//! write the same bytes), and `sente chaosclock merge`, which joins the files of the
//! shards of a run into the file one unsharded run writes.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::shard::Shard;

/// The first line: which run the file belongs to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunHeader {
    /// Seed of the deals.
    pub seed: u64,
    /// First deal of the run.
    pub from: u64,
    /// Deals in the whole run.
    pub count: u64,
    /// Nodes of proof search tried first.
    pub nodes: u64,
    /// The retrograde analysis' limit on states.
    pub max_states: usize,
    /// Which shard (`i/n`; `0/1` for a whole run).
    pub shard: String,
}

/// A later line: one deal and what was proven about it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealResult {
    /// The deal's number in the seed's sequence.
    pub deal: u64,
    /// The dealt position.
    pub position: String,
    /// `yi-wins`, `jia-wins`, `both-win`, `both-lose` or `not-proven`.
    pub outcome: String,
    /// A best move (`-` when none or not proven).
    pub best: String,
    /// The proof's size (`N nodes` of search, `N states` of retrograde analysis), or
    /// `too big`.
    pub proof: String,
}

/// The results file being written by a run.
pub struct ResultsFile {
    file: File,
    path: String,
}

impl ResultsFile {
    /// Starts the file `path` (which must be new or empty) with the run's header.
    pub fn create(path: &str, header: &RunHeader) -> Result<ResultsFile> {
        if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            bail!("{path} already holds results: choose a new --out");
        }
        let mut file = File::create(path).with_context(|| format!("cannot create {path}"))?;
        writeln!(file, "{}", serde_json::to_string(header)?).with_context(|| format!("cannot write {path}"))?;
        Ok(ResultsFile { file, path: path.to_string() })
    }

    /// Appends one deal's result.
    pub fn record(&mut self, result: &DealResult) -> Result<()> {
        let line = serde_json::to_string(result)?;
        writeln!(self.file, "{line}")
            .and_then(|_| self.file.flush())
            .with_context(|| format!("cannot write {}", self.path))
    }
}

/// Reads a results file: its header, shard and deals, checked to be the shard's
/// whole work in deal order.
fn read(path: &str) -> Result<(RunHeader, Shard, Vec<DealResult>)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let Some((_, first)) = lines.next() else { bail!("{path} is empty") };
    let header: RunHeader = serde_json::from_str(first)
        .with_context(|| format!("{path}: line 1 is not the header of a `chaosclock openings --out` file"))?;
    let shard = Shard::parse(&header.shard, &format!("{path}: shard"))?;
    let deals = lines
        .map(|(i, line)| serde_json::from_str(line).with_context(|| format!("{path}: line {} is not a deal", i + 1)))
        .collect::<Result<Vec<DealResult>>>()?;
    let end = header.from.checked_add(header.count).with_context(|| format!("{path}: the deals overflow"))?;
    if !deals.iter().map(|d| d.deal).eq(shard.items(header.from..end)) {
        let in_order = deals.iter().map(|d| d.deal).eq(shard.items(header.from..end).take(deals.len()));
        bail!(
            "{path} holds {} of shard {shard}'s {} deals{}: finish that shard first",
            deals.len(),
            shard.count_in(header.from..end),
            if in_order { "" } else { ", not in its order" }
        );
    }
    Ok((header, shard, deals))
}

/// `sente chaosclock merge`: joins the results files of the shards of one run into
/// `out`, which then holds the very bytes one unsharded run's `--out` holds. Every
/// shard must be given, finished, and of the same run. Returns the deals.
pub fn merge(paths: &[String], out: &str) -> Result<Vec<DealResult>> {
    if std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
        bail!("{out} already holds results: merge writes a new file");
    }
    let files = paths.iter().map(|p| read(p)).collect::<Result<Vec<_>>>()?;
    let Some((first, first_shard, _)) = files.first() else { bail!("no results files to merge") };
    let whole = RunHeader { shard: Shard::WHOLE.to_string(), ..first.clone() };
    let mut by_index: BTreeMap<u64, &str> = BTreeMap::new();
    for ((header, shard, _), path) in files.iter().zip(paths) {
        let same_run = RunHeader { shard: whole.shard.clone(), ..header.clone() } == whole;
        if shard.count != first_shard.count || !same_run {
            bail!("{path} and {} are shards of different runs (their headers differ)", paths[0]);
        }
        if let Some(other) = by_index.insert(shard.index, path) {
            bail!("shard {shard} is given twice: {other} and {path}");
        }
    }
    if let Some(missing) = (0..first_shard.count).find(|i| !by_index.contains_key(i)) {
        bail!("shard {missing}/{} is missing", first_shard.count);
    }
    let mut deals: Vec<DealResult> = files.into_iter().flat_map(|(_, _, deals)| deals).collect();
    deals.sort_by_key(|d| d.deal);
    let mut merged = ResultsFile::create(out, &whole)?;
    for d in &deals {
        merged.record(d)?;
    }
    Ok(deals)
}
