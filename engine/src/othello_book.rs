//! `sente othello-book`: grows the 8×8 opening book (`search::othello::Book`) in a
//! file; reads a book file for the player's `BookFile`.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context, Result};
use search::othello::{Book, Solver};

use crate::journal::Journal;

/// Reads a book file; an error names the file and the line.
pub fn load(path: &str) -> Result<Book> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read the book {path}"))?;
    Book::parse(&text).map_err(anyhow::Error::msg).with_context(|| format!("the book {path}"))
}

/// Grows the book in `path` to `count` positions, each move searched `depth` plies,
/// no position with fewer than `min_empties` empties. The positions already in the
/// file are kept; each new one is written as soon as it is searched, so a stopped
/// run (`stop`: Ctrl-C, SIGTERM) loses at most the one being searched and the same
/// command goes on.
pub fn make(
    path: &str,
    count: usize,
    depth: u32,
    min_empties: u32,
    stop: &AtomicBool,
    out: &mut impl Write,
) -> Result<()> {
    let (mut file, recovered) = Journal::open(Path::new(path))?;
    if let Some(message) = &recovered.dropped {
        eprintln!("{message}");
    }
    let mut book =
        Book::parse(&recovered.lines.join("\n")).map_err(anyhow::Error::msg).with_context(|| path.to_string())?;
    if book.len() >= count {
        writeln!(out, "{path}: already holds {} positions", book.len())?;
        return Ok(());
    }
    if recovered.lines.is_empty() {
        file.append(&format!(
            "# sente othello-book, depth {depth}, from {min_empties} empties: squares a1..h8, side to move, \
             every legal move:value"
        ))?;
    }
    let solver = Solver::new(64, 1);
    let bar = crate::accuracy::progress(count as u64);
    bar.set_position(book.len() as u64);
    let (start, existing) = (Instant::now(), book.len());
    while book.len() < count {
        if stop.load(Ordering::Relaxed) {
            bar.finish_and_clear();
            writeln!(out, "stopped: {path} holds {} positions; the same command goes on from them", book.len())?;
            return Ok(());
        }
        let Some(next) = book.next_to_expand(min_empties) else { break };
        let entry = Book::search_position(&solver, next, depth, stop);
        if stop.load(Ordering::Relaxed) {
            continue;
        }
        file.append(&entry.to_line())?;
        book.insert(entry).map_err(anyhow::Error::msg)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    writeln!(
        out,
        "{path}: {} positions ({} added in {:.1} s)",
        book.len(),
        book.len() - existing,
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}
