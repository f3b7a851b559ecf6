//! Files of finished work that survive a kill: a results file of one line per
//! finished item, appended one whole line at a time, and record files written whole
//! or not at all. A process killed at any moment leaves at most a torn last line,
//! which [`Journal::open`] cuts off (saying so) so that the item is done again.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// A results file read whole without changing it, as a merge reads a shard's: the
/// `run` object of its header, checked to be `command`'s (`what` names the kind of
/// file in the error), and its later non-empty lines with their line numbers (from 1).
/// A last line torn by a kill is left out, so the shard reads as unfinished.
pub fn read_results_file(path: &str, command: &str, what: &str) -> Result<(Value, Vec<(usize, String)>)> {
    let mut lines = whole_lines(path)?.into_iter();
    let Some((_, first)) = lines.next() else { bail!("{path} is empty") };
    let run = serde_json::from_str::<Value>(&first)
        .ok()
        .and_then(|v| v.get("run").cloned())
        .filter(|run| run["command"] == command)
        .with_context(|| format!("{path}: line 1 is not the header of a `{what}` file"))?;
    Ok((run, lines.collect()))
}

/// The whole lines of `path` with their numbers (from 1), empty ones left out; a last
/// line torn by a kill is left out too (its item is unfinished).
pub fn whole_lines(path: &str) -> Result<Vec<(usize, String)>> {
    let text = fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    Ok(text[..whole]
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect())
}

/// An append-only file of lines, each written whole with one `write` and synced.
pub struct Journal {
    file: File,
    path: PathBuf,
}

/// What [`Journal::open`] read back.
pub struct Recovered {
    /// The complete lines, without their newlines (empty lines left out).
    pub lines: Vec<String>,
    /// Set when an incomplete last line was cut off: a message saying so.
    pub dropped: Option<String>,
}

impl Journal {
    /// Opens (or creates) `path` for appending and reads back its complete lines. A
    /// last line without its newline is what a kill during a write leaves: it is cut
    /// off the file and reported in [`Recovered::dropped`].
    pub fn open(path: &Path) -> Result<(Journal, Recovered)> {
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).with_context(|| format!("cannot read {}", path.display()))?;
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let mut dropped = None;
        if whole < bytes.len() {
            file.set_len(whole as u64).with_context(|| format!("cannot truncate {}", path.display()))?;
            file.sync_data().with_context(|| format!("cannot sync {}", path.display()))?;
            let fragment: String = String::from_utf8_lossy(&bytes[whole..]).chars().take(60).collect();
            dropped = Some(format!(
                "{}: dropped an incomplete last line ({} bytes, cut off by a kill: '{fragment}'); its item is done again",
                path.display(),
                bytes.len() - whole
            ));
        }
        let text = String::from_utf8_lossy(&bytes[..whole]);
        let lines = text.lines().filter(|l| !l.trim().is_empty()).map(str::to_string).collect();
        file.seek(SeekFrom::End(0))?;
        Ok((Journal { file, path: path.to_path_buf() }, Recovered { lines, dropped }))
    }

    /// Appends `line` and its newline with a single write, then syncs the file: after
    /// a kill the line is there whole, or torn (and dropped by the next `open`).
    pub fn append(&mut self, line: &str) -> Result<()> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.file.write_all(&bytes).with_context(|| format!("cannot write {}", self.path.display()))?;
        self.file.sync_data().with_context(|| format!("cannot sync {}", self.path.display()))
    }
}

/// Opens the results file of a batch command's run: a first line `{"run": header}`
/// naming the run, then one JSON line per finished item, which are returned. A file
/// that already holds results is continued only with `resume`, and only if it is
/// the same run; a torn last line is cut off with a message on stderr.
pub fn open_results<T: DeserializeOwned>(path: &Path, header: Value, resume: bool) -> Result<(Journal, Vec<T>)> {
    if !resume && fs::metadata(path).is_ok_and(|m| m.len() > 0) {
        bail!("{} already holds results: add --resume to continue, or choose another --out", path.display());
    }
    let (mut journal, recovered) = Journal::open(path)?;
    if let Some(message) = &recovered.dropped {
        eprintln!("{message}");
    }
    let header = json!({ "run": header });
    let Some((first, rest)) = recovered.lines.split_first() else {
        journal.append(&header.to_string())?;
        return Ok((journal, Vec::new()));
    };
    if serde_json::from_str::<Value>(first).ok().as_ref() != Some(&header) {
        bail!("{} holds the results of another run ({first}), not of {header}: choose another --out", path.display());
    }
    let items = rest
        .iter()
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line)
                .with_context(|| format!("{} line {}: not a result of this run", path.display(), i + 2))
        })
        .collect::<Result<Vec<T>>>()?;
    Ok((journal, items))
}

/// Writes `bytes` to `path` whole or not at all: into a temporary file beside it,
/// synced, then renamed over `path`.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    // A folder is never replaced by a file (its contents would be lost): refused
    // before anything is written.
    if path.is_dir() {
        anyhow::bail!("{} is a folder: give the path of a file to write", path.display());
    }
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".partial");
    let temporary = path.with_file_name(name);
    let mut file = File::create(&temporary).with_context(|| format!("cannot create {}", temporary.display()))?;
    let written = file
        .write_all(bytes)
        .and_then(|_| file.sync_data())
        .with_context(|| format!("cannot write {}", temporary.display()))
        .and_then(|_| {
            fs::rename(&temporary, path)
                .with_context(|| format!("cannot rename {} to {}", temporary.display(), path.display()))
        });
    // Whole or not at all: a failed write leaves no temporary file behind.
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch folder of the test's own, removed when dropped.
    fn scratch(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new().prefix(&format!("sente-journal-{name}-")).tempdir().expect("scratch folder")
    }

    #[test]
    fn lines_come_back_and_a_torn_last_line_is_cut_off() {
        let dir = scratch("torn");
        let path = dir.path().join("results.jsonl");
        let (mut journal, recovered) = Journal::open(&path).expect("open");
        assert!(recovered.lines.is_empty() && recovered.dropped.is_none());
        journal.append("one").expect("append");
        journal.append("two").expect("append");
        drop(journal);
        // What a kill in the middle of the third write leaves.
        let mut file = OpenOptions::new().append(true).open(&path).expect("reopen");
        file.write_all(b"{\"thr").expect("torn write");
        drop(file);
        let (mut journal, recovered) = Journal::open(&path).expect("open again");
        assert_eq!(recovered.lines, ["one", "two"]);
        assert!(recovered.dropped.as_deref().is_some_and(|m| m.contains("incomplete last line")));
        assert_eq!(fs::read_to_string(&path).expect("read"), "one\ntwo\n");
        journal.append("three").expect("append");
        assert_eq!(fs::read_to_string(&path).expect("read"), "one\ntwo\nthree\n");
        let (_, recovered) = Journal::open(&path).expect("open a third time");
        assert_eq!(recovered.lines, ["one", "two", "three"]);
        assert!(recovered.dropped.is_none());
    }

    #[test]
    fn an_atomic_write_replaces_the_file_whole() {
        let tmp = scratch("atomic");
        let dir = tmp.path();
        let path = dir.join("000001.ggf");
        write_atomically(&path, b"first").expect("write");
        write_atomically(&path, b"second").expect("write again");
        assert_eq!(fs::read_to_string(&path).expect("read"), "second");
        let names: Vec<_> = fs::read_dir(dir).expect("list").map(|e| e.expect("entry").file_name()).collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }
}
