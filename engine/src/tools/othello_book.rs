//! `sente othello-book`: grows the 8×8 opening book (`search::othello::Book`) in a
//! file (the player reads one for its `BookFile` option: `games::othello`).

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context, Result};
use search::othello::{Book, Solver};

use crate::tools::journal::Journal;

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
    let bar = crate::tools::accuracy::progress(count as u64);
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

/// `sente othello-book`'s command line.
#[derive(clap::Args)]
pub struct BookArgs {
    /// The book file (created, or grown from what it holds).
    pub file: String,
    /// The number of positions the book should hold.
    #[arg(long, default_value_t = 1000)]
    pub count: usize,
    /// Plies each move of a book position is searched.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// No book position with fewer empties.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub min_empties: u32,
}

/// Runs `sente othello-book`.
pub fn main(args: BookArgs) -> Result<()> {
    let stop = crate::tools::interrupt::stop_flag();
    make(&args.file, args.count, args.depth, args.min_empties, &stop, &mut std::io::stdout().lock())
}
