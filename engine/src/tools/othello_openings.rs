//! `sente othello-openings`: a file of balanced 8×8 openings for `sente arena
//! --openings`, as XOT's are made: random openings of a few plies, each valued by a
//! fixed-depth search, kept when the value is within a few discs of even. A match
//! on random openings is partly decided by the openings (one that favours a colour by
//! more than the engines' difference is won by that colour in both games of its pair);
//! on balanced ones more pairs are decided by the play.

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bitboards::othello::geometry::square_name;
use bitboards::othello::{Board, squares};
use bitboards::rng::splitmix64;
use rayon::prelude::*;
use search::othello::{Solver, level_limits};

use crate::tools::journal::Journal;

/// Candidates tried per opening asked for before the run gives up (a bound so narrow
/// that almost nothing passes would otherwise run for ever).
const CANDIDATES_PER_OPENING: u64 = 200;

/// Transposition table of each candidate's search, in MB.
const HASH_MB: usize = 64;

/// What makes an openings file: kept in its first line, so that a file is only ever
/// continued with the settings that began it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningSettings {
    /// Random plies of each candidate (passes are never played).
    pub plies: u32,
    /// Plies of the search that values a candidate (exact from twice as many empties,
    /// NBoard's levels: [`level_limits`]).
    pub depth: u32,
    /// The largest value (discs, either colour) an opening may have.
    pub max_discs: u32,
    /// The seed of the candidates: candidate `k` comes from `seed` and `k` alone.
    pub seed: u64,
}

impl OpeningSettings {
    /// The file's first line.
    fn header(&self) -> String {
        format!(
            "# sente othello-openings: {} plies, valued at depth {}, |value| <= {} discs, seed {} \
             (each line: the moves, then candidate number and Black's value)",
            self.plies, self.depth, self.max_discs, self.seed
        )
    }
}

/// Candidate `k`: `plies` random legal moves (no passes) from the start, drawn from
/// `seed` and `k`; `None` when the draw runs into a pass or the end of the game.
pub fn candidate(seed: u64, k: u64, plies: u32) -> Option<(Vec<u8>, Board)> {
    let mut rng = splitmix64(seed ^ splitmix64(k.wrapping_add(0x9E37_79B9)));
    let mut board = Board::start();
    let mut moves = Vec::with_capacity(plies as usize);
    for _ in 0..plies {
        let legal = board.moves();
        if legal == 0 {
            return None;
        }
        rng = splitmix64(rng);
        let pick = squares(legal).nth((rng % u64::from(legal.count_ones())) as usize)?;
        moves.push(pick);
        board = board.play(pick)?;
    }
    (board.moves() != 0).then_some((moves, board))
}

/// The same key for a position and its seven symmetric images.
fn canonical(board: &Board) -> (u64, u64) {
    board.symmetries().iter().map(|b| (b.player, b.opponent)).min().unwrap_or((board.player, board.opponent))
}

/// Black's value of `board` after `plies` moves without a pass, searched `depth`
/// plies from a cleared table (so that the value depends on the position alone).
fn value(solver: &Solver, board: Board, plies: u32, depth: u32, stop: &AtomicBool) -> i32 {
    solver.clear();
    let score = solver.think(board, level_limits(depth, 0), stop, |_| {}).score;
    if plies.is_multiple_of(2) { score } else { -score }
}

/// One line of the file: the moves written together (`f5d6c3…`), then the candidate's
/// number and Black's value.
fn line(moves: &[u8], k: u64, value: i32) -> String {
    let moves: String = moves.iter().map(|&sq| square_name(sq)).collect();
    format!("{moves} # {k} {value:+}")
}

/// Reads back a line [`line`] wrote: its moves replayed, its candidate number.
fn read_line(text: &str, settings: &OpeningSettings) -> Option<(u64, Board)> {
    let (moves, comment) = text.split_once('#')?;
    let k: u64 = comment.split_whitespace().next()?.parse().ok()?;
    let (want, board) = candidate(settings.seed, k, settings.plies)?;
    let got: String = want.iter().map(|&sq| square_name(sq)).collect();
    (got == moves.trim()).then_some((k, board))
}

/// Writes balanced openings to `path` until it holds `count` of them. Candidates are
/// valued `threads` at a time (one search thread each) and the kept ones appended in
/// candidate order, so the file is the same whatever the threads and however often
/// the run was stopped: a stopped run (`stop`) keeps what it wrote and the same
/// command goes on after the last kept candidate.
pub fn make(
    path: &str,
    count: usize,
    settings: OpeningSettings,
    threads: usize,
    stop: &AtomicBool,
    out: &mut impl Write,
) -> Result<()> {
    let (mut file, recovered) = Journal::open(Path::new(path))?;
    if let Some(message) = &recovered.dropped {
        eprintln!("{message}");
    }
    let header = settings.header();
    let mut seen = HashSet::new();
    let mut next = 0;
    let mut kept = 0;
    match recovered.lines.split_first() {
        None => file.append(&header)?,
        Some((first, _)) if *first != header => {
            bail!("{path} was begun with other settings ('{first}'); give the same ones or another file")
        }
        Some((_, rest)) => {
            for (i, text) in rest.iter().enumerate() {
                let (k, board) = read_line(text, &settings)
                    .with_context(|| format!("{path} line {}: not an opening of these settings: '{text}'", i + 2))?;
                seen.insert(canonical(&board));
                next = next.max(k + 1);
                kept += 1;
            }
        }
    }
    if kept >= count {
        writeln!(out, "{path}: already holds {kept} openings")?;
        return Ok(());
    }
    let threads = threads.max(1);
    let solvers: Vec<Solver> = (0..threads).map(|_| Solver::new(HASH_MB, 1)).collect();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().context("cannot start the threads")?;
    let give_up = next + CANDIDATES_PER_OPENING * count as u64;
    let bar = crate::tools::accuracy::progress(count as u64);
    bar.set_position(kept as u64);
    let (start, before) = (Instant::now(), kept);
    while kept < count {
        if next >= give_up {
            bar.finish_and_clear();
            bail!(
                "{path}: only {kept} of {count} openings after {next} candidates; a wider --max-discs or other plies \
                 find more"
            );
        }
        // The next batch of distinct new candidates (one per thread).
        let mut batch = Vec::with_capacity(threads);
        while batch.len() < threads && next < give_up {
            if let Some((moves, board)) = candidate(settings.seed, next, settings.plies)
                && seen.insert(canonical(&board))
            {
                batch.push((next, moves, board));
            }
            next += 1;
        }
        let values: Vec<i32> = pool.install(|| {
            batch
                .par_iter()
                .zip(&solvers)
                .map(|((_, _, board), solver)| value(solver, *board, settings.plies, settings.depth, stop))
                .collect()
        });
        if stop.load(Ordering::Relaxed) {
            bar.finish_and_clear();
            writeln!(out, "stopped: {path} holds {kept} openings; the same command goes on from them")?;
            return Ok(());
        }
        for ((k, moves, _), v) in batch.iter().zip(values) {
            if v.unsigned_abs() <= settings.max_discs && kept < count {
                file.append(&line(moves, *k, v))?;
                kept += 1;
                bar.inc(1);
            }
        }
    }
    bar.finish_and_clear();
    writeln!(
        out,
        "{path}: {kept} openings ({} added in {:.1} s, {next} candidates drawn)",
        kept - before,
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// `sente othello-openings`'s command line.
#[derive(clap::Args)]
pub struct OpeningsArgs {
    /// The openings file (created, or completed from what it holds).
    pub file: String,
    /// How many openings the file should hold.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Random plies of each opening.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub plies: u32,
    /// Plies of the search that values each candidate.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// The largest value (in discs, for either colour) an opening may have.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub max_discs: u32,
    /// Seed of the random candidates.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Candidates valued at once (one search thread each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
}

/// Runs `sente othello-openings`.
pub fn main(args: OpeningsArgs) -> Result<()> {
    let stop = crate::tools::interrupt::stop_flag();
    let settings = OpeningSettings { plies: args.plies, depth: args.depth, max_discs: args.max_discs, seed: args.seed };
    make(&args.file, args.count, settings, args.threads as usize, &stop, &mut std::io::stdout().lock())
}
