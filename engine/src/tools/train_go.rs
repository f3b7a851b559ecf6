//! `sente train-go`: the Go move model's training ([`search::go::move_model`]): `gen`
//! plays self-play games at fixed playouts and appends them to a games file, one game
//! a line (`<game number> <GTP moves…>`, so a stopped run goes on with the same
//! command); `fit` fits the model to the moves of a games file before each game's
//! first pass, holding the last games out to measure it, and writes it.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bitboards::go::Move;
use clap::Subcommand;
use rayon::prelude::*;
use search::go::move_model::{MoveModel, Sample, fit, samples_from_moves};
use search::go::self_play::self_play_game;

/// The board side of the games (9×9) and their komi.
const SIZE: usize = 9;
const KOMI: f64 = 7.0;

#[derive(Subcommand)]
pub enum TrainGoCommand {
    /// Play self-play games and append them to a games file (goes on from the games
    /// already in it).
    Gen {
        /// Games the file should hold when done (game numbers 0 to N−1).
        #[arg(long)]
        games: u64,
        /// Playouts a move.
        #[arg(long, default_value_t = 1000)]
        playouts: u64,
        /// Seed of the run (game i uses seed and i).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Search with the built-in move model in the priors (the engine's default);
        /// without it, with the hand-set priors only (how the built-in model's games
        /// were made).
        #[arg(long)]
        move_model: bool,
        /// The games file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Fit the move model to a games file and write it.
    Fit {
        /// The games file.
        #[arg(long)]
        data: PathBuf,
        /// Rounds of MM.
        #[arg(long, default_value_t = 20)]
        iterations: usize,
        /// The share of the games, the last ones, held out to measure the fit.
        #[arg(long, default_value_t = 10)]
        holdout_percent: usize,
        /// Where to write the model (one feature a line).
        #[arg(long)]
        out: PathBuf,
    },
}

/// Runs the subcommand.
pub fn main(command: TrainGoCommand) -> Result<()> {
    match command {
        TrainGoCommand::Gen { games, playouts, seed, threads, move_model, out } => {
            generate(Generator { games, playouts, seed, threads, move_model }, &out)
        }
        TrainGoCommand::Fit { data, iterations, holdout_percent, out } => {
            fit_file(&data, iterations, holdout_percent, &out)
        }
    }
}

/// The games of a games file, in file order: (number, moves); a bad line is an error
/// naming it.
fn read_games(path: &Path) -> Result<Vec<(u64, Vec<Move>)>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let Some(number) = words.next() else { continue };
        let at = || format!("{} line {}", path.display(), i + 1);
        let number: u64 = number.parse().with_context(|| format!("{}: '{number}' is not a game number", at()))?;
        let moves = words
            .map(|w| Move::from_gtp(w, SIZE).map_err(|e| anyhow::anyhow!("{}: '{w}': {e}", at())))
            .collect::<Result<Vec<_>>>()?;
        games.push((number, moves));
    }
    Ok(games)
}

/// What `gen` plays.
struct Generator {
    games: u64,
    playouts: u64,
    seed: u64,
    threads: usize,
    move_model: bool,
}

/// Cuts a games file back to its last whole line (a run stopped while writing leaves
/// part of one), saying so.
fn drop_partial_line(out: &Path) -> Result<()> {
    let Ok(bytes) = std::fs::read(out) else { return Ok(()) };
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(());
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    eprintln!("{}: dropping a partly written last line ({} bytes)", out.display(), bytes.len() - keep);
    OpenOptions::new().write(true).open(out)?.set_len(keep as u64)?;
    Ok(())
}

fn generate(g: Generator, out: &Path) -> Result<()> {
    drop_partial_line(out)?;
    let done: BTreeSet<u64> =
        if out.exists() { read_games(out)?.into_iter().map(|(n, _)| n).collect() } else { BTreeSet::new() };
    let todo: Vec<u64> = (0..g.games).filter(|n| !done.contains(n)).collect();
    let model = if g.move_model { "with" } else { "without" };
    eprintln!(
        "{} games in {}, {} to play at {} playouts a move, {model} the move model",
        done.len(),
        out.display(),
        todo.len(),
        g.playouts
    );
    let mut file = OpenOptions::new().create(true).append(true).open(out)?;
    let threads = g.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let start = Instant::now();
    // Chunks of a few games per thread, each chunk written with one write, so that a
    // stop loses at most the chunk under way (and a partly written line is dropped by
    // the next run).
    for (k, chunk) in todo.chunks(threads * 2).enumerate() {
        let played: Vec<(u64, Result<Vec<Move>, String>)> = pool.install(|| {
            chunk
                .par_iter()
                .map(|&n| {
                    let seed = g.seed.wrapping_mul(1_000_003).wrapping_add(n);
                    (n, self_play_game(SIZE, KOMI, g.playouts, seed, g.move_model))
                })
                .collect()
        });
        let mut text = String::new();
        for (n, moves) in played {
            let moves = moves.map_err(anyhow::Error::msg)?;
            let words: Vec<String> = moves.iter().map(|m| m.to_gtp(SIZE)).collect();
            writeln!(text, "{n} {}", words.join(" "))?;
        }
        file.write_all(text.as_bytes())?;
        file.flush()?;
        let so_far = ((k + 1) * threads * 2).min(todo.len());
        eprintln!("{so_far}/{} games, {:.0} s", todo.len(), start.elapsed().as_secs_f64());
    }
    Ok(())
}

fn fit_file(data: &Path, iterations: usize, holdout_percent: usize, out: &Path) -> Result<()> {
    let games = read_games(data)?;
    if games.len() < 2 {
        bail!("{}: {} games; at least 2 are needed (one to fit, one to hold out)", data.display(), games.len());
    }
    let held = (games.len() * holdout_percent.min(90) / 100).max(1);
    let samples = |games: &[(u64, Vec<Move>)]| -> Result<Vec<Sample>> {
        let mut all = Vec::new();
        for (n, moves) in games {
            // Up to the first pass: after it self-play games go on filling territory
            // that is settled, which teaches nothing about choosing moves.
            let end = moves.iter().position(|&m| m == Move::Pass).unwrap_or(moves.len());
            all.extend(
                samples_from_moves(SIZE, KOMI, &moves[..end])
                    .map_err(|e| anyhow::anyhow!("{}: game {n}: {e}", data.display()))?,
            );
        }
        Ok(all)
    };
    let (train, test) = games.split_at(games.len() - held);
    let (train, test) = (samples(train)?, samples(test)?);
    let start = Instant::now();
    let model = fit(&train, iterations);
    let seconds = start.elapsed().as_secs_f64();
    let uniform = MoveModel::uniform().mean_log_probability(&test).unwrap_or(f64::NAN);
    let fitted = model.mean_log_probability(&test).unwrap_or(f64::NAN);
    let fitted_train = model.mean_log_probability(&train).unwrap_or(f64::NAN);
    println!(
        "fit to {} moves of {} games in {seconds:.1} s ({iterations} rounds); held out {} moves of {held} games",
        train.len(),
        games.len() - held,
        test.len()
    );
    println!(
        "mean log-probability of the move played: held out {fitted:.3} (uniform {uniform:.3}), fitted moves {fitted_train:.3}"
    );
    model.save_file(out).with_context(|| format!("cannot write {}", out.display()))?;
    Ok(())
}
