//! `sente perft`: counts the move sequences of a given length from the start.

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result, bail};

use crate::games::GameKind;

/// `sente perft`'s command line.
#[derive(clap::Args)]
pub struct PerftArgs {
    /// The game (othello).
    #[arg(value_parser = GameKind::parse)]
    pub game: GameKind,
    /// Depth in plies.
    pub depth: u32,
    /// Threads sharing the work (0 = all cores).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Board side length (Othello: 6, 8 or 10).
    #[arg(long)]
    pub size: Option<usize>,
}

/// Runs `sente perft`.
pub fn main(args: PerftArgs) -> Result<()> {
    let PerftArgs { game, depth, threads, size } = args;
    let session = game.new_session(size).map_err(anyhow::Error::msg)?;
    if depth > 20 {
        bail!("depth {depth} is beyond what perft can count in a lifetime; use 20 or less");
    }
    let start = Instant::now();
    let job = session.perft(depth, threads).map_err(anyhow::Error::msg).context("perft")?;
    let count = job(&search::StopFlag::new()).context("perft was stopped")?;
    let secs = start.elapsed().as_secs_f64();
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "perft {} depth {depth}: {count}", game.name())?;
    writeln!(stdout, "time {secs:.3} s, {:.1} M leaves/s", count as f64 / secs.max(1e-9) / 1e6)?;
    Ok(())
}
