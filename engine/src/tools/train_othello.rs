//! `sente train-othello`: the command line of the evaluation's training (`gen`, `merge`,
//! `teach`, `fit`, `errors`), run by [`crate::tools::train`], [`crate::tools::train_shards`]
//! and, for `teach`, the arena's teacher (`crate::arena::teach_command`).

use anyhow::{Result, bail};
use clap::{Args, Subcommand};

use crate::tools::shard::Shard;
use crate::tools::{interrupt, train, train_shards};

#[derive(Subcommand)]
pub enum TrainCommand {
    /// Play self-play games and append their labelled positions to a data file.
    Gen {
        /// Number of games.
        #[arg(long)]
        games: u64,
        /// The data file (appended to; the run's progress is kept beside it in OUT.progress).
        #[arg(long)]
        out: String,
        /// Continue the run recorded in OUT.progress (after Ctrl-C, SIGTERM or a kill).
        #[arg(long)]
        resume: bool,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed of the run (game i uses seed and i).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Solve exactly from this many empties on.
        #[arg(long, default_value_t = 22)]
        solve_empties: u32,
        /// From this many empties down, solve and record every move's position too.
        #[arg(long, default_value_t = 20)]
        children_from: u32,
        /// Record no position with fewer empties than this.
        #[arg(long, default_value_t = 12)]
        label_min: u32,
        /// Label the positions before the exact solve with a selective search of this
        /// many plies (0: with the game's result); at most --solve-empties − 7.
        #[arg(long, default_value_t = 0)]
        label_depth: u32,
        /// Random opening plies of a game, drawn uniformly between MIN and MAX
        /// (`MIN-MAX`, or one number; at most 59, and none past --solve-empties).
        #[arg(long, default_value = "6-20")]
        random_plies: String,
        /// Depth of the searches that choose the moves after the random opening (a
        /// softmax over their values), 1 to 12.
        #[arg(long, default_value_t = 2)]
        move_depth: u32,
        /// Softmax temperature over those values, in discs (lower: closer to the best move).
        #[arg(long, default_value_t = 1.5)]
        temperature: f64,
        /// Table size per thread in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Play only the games k with k mod n = i, e.g. 0/4 (OUT.progress lists them
        /// for `merge`).
        #[arg(long)]
        shard: Option<String>,
    },
    /// Join the data files of a sharded `gen` run into the file one run would write.
    Merge {
        /// The shards' data files (each with its `.progress` file beside it).
        #[arg(required = true)]
        files: Vec<String>,
        /// The merged data file (must be new).
        #[arg(long)]
        out: String,
    },
    /// Relabel a data file's positions with the values an outside Othello engine gives
    /// them over NBoard (a teacher at a fixed depth); writes the records, in order, to
    /// a new file, and continues that file when run again.
    Teach(TeachArgs),
    /// Fit the evaluation's weights to data files.
    Fit {
        /// Data files.
        #[arg(long, required = true)]
        data: Vec<String>,
        /// The weights file to write.
        #[arg(long)]
        out: String,
        /// Passes over the data.
        #[arg(long, default_value_t = 20)]
        epochs: usize,
        /// Adam's step size.
        #[arg(long, default_value_t = 0.01)]
        learning_rate: f32,
        /// A record also trains the phases within this many empties of its own.
        #[arg(long, default_value_t = 0)]
        phase_spread: u32,
        /// A record's weight in a neighbouring phase.
        #[arg(long, default_value_t = 0.5)]
        neighbour_weight: f32,
        /// L2 penalty on the weights.
        #[arg(long, default_value_t = 1e-5)]
        l2: f32,
        /// Start from these weights (a weights file; `builtin`: the program's own)
        /// instead of zeros.
        #[arg(long)]
        init: Option<String>,
        /// Leave out records with fewer empties, and keep the weights of the phases
        /// below the phase of this many empties as --init gave them (needs --init).
        #[arg(long, default_value_t = 0)]
        min_empties: u32,
    },
    /// Print the mean absolute error of weights against data files' labels, per phase.
    Errors {
        /// Data files.
        #[arg(long, required = true)]
        data: Vec<String>,
        /// The weights file (default: the program's own weights).
        #[arg(long)]
        weights: Option<String>,
    },
}

/// What `sente train-othello teach` is asked for (run by the arena's teacher,
/// `crate::arena::teach_command`: the engines are the arena's).
#[derive(Args)]
pub struct TeachArgs {
    /// The data file to relabel.
    #[arg(long)]
    pub data: String,
    /// The relabelled data file (continued if it exists).
    #[arg(long)]
    pub out: String,
    /// The teacher, as the arena's --engine takes it, speaking NBoard, e.g.
    /// "name=ntest cmd='./ntest x' proto=nboard option.depth=12".
    #[arg(long)]
    pub engine: String,
    /// Relabel positions with at least this many empties (exact labels are kept).
    #[arg(long, default_value_t = 21)]
    pub min_empties: u32,
    /// Relabel positions with at most this many empties.
    #[arg(long, default_value_t = 60)]
    pub max_empties: u32,
    /// Teacher processes run at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Relabel at most this many positions in this run.
    #[arg(long)]
    pub limit: Option<u64>,
}

/// Runs `sente train-othello`'s subcommands.
/// `teach` runs the `teach` subcommand (the arena's, which this module does not import).
pub fn main(command: TrainCommand, teach: impl FnOnce(TeachArgs) -> Result<()>) -> Result<()> {
    match command {
        TrainCommand::Gen {
            games,
            out,
            threads,
            seed,
            solve_empties,
            children_from,
            label_min,
            label_depth,
            random_plies,
            move_depth,
            temperature,
            hash,
            shard,
            resume,
        } => {
            let (random_min, random_max) = parse_range(&random_plies, "--random-plies")?;
            if !(1..=12).contains(&move_depth) {
                bail!("--move-depth {move_depth}: from 1 to 12");
            }
            if !(temperature.is_finite() && temperature > 0.0) {
                bail!("--temperature {temperature}: a positive number of discs");
            }
            let shard = shard.map(|s| Shard::parse(&s, "--shard")).transpose()?;
            if label_depth > 0 && label_depth + 7 > solve_empties {
                bail!(
                    "--label-depth {label_depth} does not fit --solve-empties {solve_empties}: the selective search \
                     stops 8 plies short of the end, so at most {}",
                    solve_empties.saturating_sub(7)
                );
            }
            let settings = search::othello::train::GameSettings {
                solve_empties,
                children_from,
                label_min,
                label_depth,
                random_min,
                random_max,
                search_depth: move_depth,
                temperature,
                ..Default::default()
            };
            let run = train::GenRun { games, threads, seed, settings, hash_mb: hash, out, resume, shard };
            train::generate(&run, interrupt::stop_flag())
        }
        TrainCommand::Merge { files, out } => {
            let (games, positions) = train_shards::merge(&files, &out)?;
            println!("{} shards, {games} games, {positions} positions written to {out}", files.len());
            Ok(())
        }
        TrainCommand::Teach(args) => teach(args),
        TrainCommand::Fit {
            data,
            out,
            epochs,
            learning_rate,
            phase_spread,
            neighbour_weight,
            l2,
            init,
            min_empties,
        } => {
            let settings = search::othello::train::FitSettings {
                epochs,
                learning_rate,
                phase_spread,
                neighbour_weight,
                l2,
                min_empties,
                ..Default::default()
            };
            train::fit(&data, settings, init.as_deref(), &out)
        }
        TrainCommand::Errors { data, weights } => {
            train::errors(&data, weights.as_deref(), &mut std::io::stdout().lock())
        }
    }
}

/// Reads `MIN-MAX` or a single number (both ends), at most 59.
fn parse_range(text: &str, flag: &str) -> Result<(u32, u32)> {
    let bad = || anyhow::anyhow!("{flag} '{text}': MIN-MAX (MIN at most MAX) or one number of plies, at most 59");
    let (min, max) = match text.split_once('-') {
        Some((a, b)) => (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?),
        None => {
            let n = text.trim().parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if min > max || max > 59 {
        return Err(bad());
    }
    Ok((min, max))
}

#[cfg(test)]
mod tests {
    use super::parse_range;

    #[test]
    fn random_plies_are_a_range_or_one_number() {
        assert_eq!(parse_range("6-20", "--random-plies").unwrap(), (6, 20));
        assert_eq!(parse_range("8", "--random-plies").unwrap(), (8, 8));
        for bad in ["", "9-4", "x", "3-", "1-60"] {
            let e = parse_range(bad, "--random-plies").unwrap_err().to_string();
            assert!(e.contains("--random-plies"), "{e}");
        }
    }
}
