//! The results file of `sente chaosclock openings --out F`, which `--resume` goes on
//! from and `sente chaosclock merge` joins: a first line `{"run": …}` naming the run
//! (seed, deals, limits, shard), then one JSON line per deal solved, in deal order
//! (see [`crate::tools::journal`]). The merge joins the files of the shards of a run into
//! the file one unsharded run writes, equal to it but for the times.

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::tools::journal::{read_results_file, write_atomically};
use crate::tools::shard::{Shard, check_complete};

/// The outcomes `openings` counts; a result's `outcome` is an index into them.
pub const OPENING_OUTCOMES: [&str; 5] =
    ["乙 (first player) wins", "甲 (second player) wins", "both win", "both lose", "not proven"];

/// One deal solved, a line of the `--out` results file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DealSolved {
    /// The deal's number in the seed's sequence.
    pub deal: u64,
    /// Its outcome: an index into [`OPENING_OUTCOMES`].
    pub outcome: usize,
    /// The line printed for it.
    pub line: String,
    /// Seconds taken.
    pub secs: f64,
    /// Seconds of the run's wall time since the deal before it was printed (deals
    /// are solved `jobs` at once): their sum is the run's time, over every resumption.
    #[serde(default)]
    pub wall: f64,
}

/// What the first line of a results file holds (inside `{"run": …}`): the run, and
/// which shard of it (`0/1` for a whole run), and the proof limits (`search_nodes`,
/// `max_states`).
pub fn run_header(seed: u64, from: u64, count: u64, search_nodes: u64, max_states: usize, shard: Shard) -> Value {
    json!({
        "command": "chaosclock openings", "seed": seed, "from": from, "count": count,
        "search_nodes": search_nodes, "max_states": max_states, "shard": shard.to_string(),
    })
}

/// One shard's results file, read whole and checked to hold the shard's every deal.
struct ShardResults {
    /// The run's header without its shard.
    run: Value,
    shard: Shard,
    /// The deals' lines as written, in deal order.
    lines: Vec<(DealSolved, String)>,
}

/// Reads a results file without changing it (a line torn by a kill is left out, so
/// the shard reads as unfinished).
fn read(path: &str) -> Result<ShardResults> {
    let (mut run, lines) = read_results_file(path, "chaosclock openings", "chaosclock openings --out")?;
    let field = |name: &str| run[name].as_u64().with_context(|| format!("{path}: the header has no {name}"));
    let (from, count) = (field("from")?, field("count")?);
    let shard_text = run["shard"].as_str().with_context(|| format!("{path}: the header has no shard"))?;
    let shard = Shard::parse(shard_text, &format!("{path}: shard"))?;
    if let Some(map) = run.as_object_mut() {
        map.remove("shard");
    }
    let lines = lines
        .into_iter()
        .map(|(number, line)| {
            let deal: DealSolved =
                serde_json::from_str(&line).with_context(|| format!("{path}: line {number} is not a deal"))?;
            if deal.outcome >= OPENING_OUTCOMES.len() {
                bail!("{path}: line {number}: unknown outcome {}", deal.outcome);
            }
            Ok((deal, line))
        })
        .collect::<Result<Vec<_>>>()?;
    let end = from.checked_add(count).with_context(|| format!("{path}: the deals overflow"))?;
    if !lines.iter().map(|(d, _)| d.deal).eq(shard.items(from..end)) {
        let in_order = lines.iter().map(|(d, _)| d.deal).eq(shard.items(from..end).take(lines.len()));
        bail!(
            "{path} holds {} of shard {shard}'s {} deals{}: finish that shard first (`openings … --resume`)",
            lines.len(),
            shard.count_in(from..end),
            if in_order { "" } else { ", not in its order" }
        );
    }
    Ok(ShardResults { run, shard, lines })
}

/// `sente chaosclock merge`: joins the results files of the shards of one run into
/// `out`, which then holds what one unsharded run's `--out` holds: its header, then
/// every deal's line in deal order (with the times measured in the shards). Every
/// shard must be given, finished, and of the same run. Returns the deals.
pub fn merge(paths: &[String], out: &str) -> Result<Vec<DealSolved>> {
    if std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
        bail!("{out} already holds results: merge writes a new file");
    }
    let files = paths.iter().map(|p| read(p)).collect::<Result<Vec<_>>>()?;
    let Some(first) = files.first() else { bail!("no results files to merge") };
    let runs: Vec<(&Value, Shard)> = files.iter().map(|f| (&f.run, f.shard)).collect();
    check_complete(paths, &runs, "headers")?;
    let mut whole = first.run.clone();
    if let Some(map) = whole.as_object_mut() {
        map.insert("shard".to_string(), Value::String(Shard::WHOLE.to_string()));
    }
    let mut deals: Vec<(DealSolved, String)> = files.into_iter().flat_map(|f| f.lines).collect();
    deals.sort_by_key(|(d, _)| d.deal);
    let mut bytes = json!({ "run": whole }).to_string().into_bytes();
    bytes.push(b'\n');
    for (_, line) in &deals {
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    }
    write_atomically(std::path::Path::new(out), &bytes)?;
    Ok(deals.into_iter().map(|(d, _)| d).collect())
}
