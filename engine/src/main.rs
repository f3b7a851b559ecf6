//! `sente`: one program that plays, solves and referees Othello, Go, Phantom Go and
//! Chaos Clock through line-based text protocols.
//!
//! With no subcommand it speaks UGI+ on stdin/stdout, as a chess engine speaks UCI.

mod bench;
mod games;
mod io;
mod othello;
mod selfplay;
mod session;
mod ugi;

use std::io::{BufReader, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use search::Limits;

use crate::session::SearchOptions;

#[derive(Parser)]
#[command(
    name = "sente",
    version,
    about = "A game-search engine for Othello, Go, Phantom Go and Chaos Clock."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Commands>,
}

#[derive(Subcommand)]
enum Commands {
    /// Speak UGI+ on stdin/stdout (the default without a subcommand).
    Ugi,
    /// Count the move sequences of a given length from the start (perft).
    Perft {
        /// The game (othello).
        game: String,
        /// Depth in plies.
        depth: u32,
        /// Threads sharing the work (0 = all cores).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Board side length (Othello: 6, 8 or 10).
        #[arg(long)]
        size: Option<usize>,
    },
    /// The engine plays a whole game against itself.
    Selfplay {
        /// The game.
        #[arg(long, default_value = "othello")]
        game: String,
        /// Board side length.
        #[arg(long)]
        size: Option<usize>,
        /// Search depth per move.
        #[arg(long)]
        depth: Option<u32>,
        /// Milliseconds per move (default 100 when no depth is given).
        #[arg(long)]
        movetime: Option<u64>,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Fixed-depth search over fixed positions: a node-count signature and the speed.
    Bench {
        /// Search depth.
        depth: Option<u32>,
    },
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        None | Some(Commands::Ugi) => run_ugi(),
        Some(Commands::Perft {
            game,
            depth,
            threads,
            size,
        }) => perft(&game, depth, threads, size),
        Some(Commands::Selfplay {
            game,
            size,
            depth,
            movetime,
            threads,
        }) => {
            let limits = match (depth, movetime) {
                (Some(d), None) => Limits::depth(d),
                (None, m) => Limits::movetime(Duration::from_millis(m.unwrap_or(100))),
                (Some(d), Some(m)) => Limits {
                    depth: Some(d),
                    ..Limits::movetime(Duration::from_millis(m))
                },
            };
            let options = SearchOptions {
                threads,
                ..SearchOptions::default()
            };
            let mut stdout = std::io::stdout().lock();
            selfplay::play(&game, size, limits, options, |text| {
                let _ = writeln!(stdout, "{}", text.trim_end());
            })
            .map_err(anyhow::Error::msg)?;
            Ok(())
        }
        Some(Commands::Bench { depth }) => {
            for line in bench::run(depth) {
                println!("{line}");
            }
            Ok(())
        }
    }
}

fn run_ugi() -> Result<()> {
    let input = io::spawn_reader(BufReader::new(std::io::stdin()));
    let (out, writer) = io::spawn_writer(std::io::stdout());
    ugi::UgiEngine::new(out).run(&input);
    writer
        .join()
        .map_err(|_| anyhow::anyhow!("the output thread failed"))?;
    Ok(())
}

fn perft(game: &str, depth: u32, threads: usize, size: Option<usize>) -> Result<()> {
    let session = games::make_session(game, size).map_err(anyhow::Error::msg)?;
    if depth > 20 {
        bail!("depth {depth} is beyond what perft can count in a lifetime; use 20 or less");
    }
    let start = Instant::now();
    let count = session
        .perft(depth, threads)
        .map_err(anyhow::Error::msg)
        .context("perft")?;
    let secs = start.elapsed().as_secs_f64();
    println!("perft {game} depth {depth}: {count}");
    println!(
        "time {secs:.3} s, {:.1} M leaves/s",
        count as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
