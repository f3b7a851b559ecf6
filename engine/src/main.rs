//! `sente`: one program that plays, solves and referees Othello, Go, Phantom Go and
//! Chaos Clock through line-based text protocols.
//!
//! With no subcommand it speaks UGI+ on stdin/stdout, as a chess engine speaks UCI.

/// mimalloc: the retrograde analysis makes millions of small per-layer allocations
/// from two threads; with it `sente chaosclock solve` runs about 1.3 times as fast.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod accuracy;
mod analysis;
mod arena;
mod bench;
mod chaosclock;
mod error;
mod ffo;
mod games;
mod go;
mod gtp;
mod homework;
mod interrupt;
mod io;
mod journal;
mod nboard;
mod openings_results;
mod othello;
mod othello_book;
mod phantom;
mod platform;
mod registry;
mod selfplay;
mod session;
mod shard;
mod train;
mod train_shards;
mod ugi;

/// Mutations of valid inputs, shared with the other crates' fuzz tests.
#[cfg(test)]
#[path = "../../tests/common/mutate.rs"]
mod mutate;

use std::io::{BufReader, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use search::Limits;
use search::chaosclock::prove;

use crate::games::GameKind;
use crate::session::SearchOptions;

#[derive(Parser)]
#[command(name = "sente", version, about = "A game-search engine for Othello, Go, Phantom Go and Chaos Clock.")]
struct Cli {
    #[command(subcommand)]
    command: Option<Commands>,
}

#[derive(Subcommand)]
enum Commands {
    /// Speak UGI+ on stdin/stdout (the default without a subcommand).
    Ugi,
    /// Speak GTP v2 on stdin/stdout (Go; Othello with `set_game Othello`).
    Gtp {
        /// The game to start with.
        #[arg(long, default_value = "Go", value_parser = GameKind::parse)]
        game: GameKind,
        /// Search threads (Go: threads sharing one MCTS tree).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Search memory in MiB (Go: the MCTS tree's node budget).
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
        hash: u32,
    },
    /// Speak the NBoard protocol on stdin/stdout (8×8 Othello).
    Nboard,
    /// Speak KataGo's JSON analysis engine protocol on stdin/stdout (Go: KaTrain and
    /// other KataGo analysis clients).
    Analysis(analysis::AnalysisArgs),
    /// Count the move sequences of a given length from the start (perft).
    Perft {
        /// The game (othello).
        #[arg(value_parser = GameKind::parse)]
        game: GameKind,
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
        #[arg(long, default_value = "othello", value_parser = GameKind::parse)]
        game: GameKind,
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
    /// Solve every problem of an FFO or Edax OBF file exactly and compare with its answers.
    /// `--shard i/n` solves a share of them; `sente ffo merge` joins the shards' tables.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Ffo {
        #[command(subcommand)]
        command: Option<ffo::FfoCommand>,
        /// The problem file (e.g. ffo/problems/ffo_40_59.txt).
        #[arg(required = true)]
        file: Option<String>,
        /// Solver threads (0: one per core).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 256)]
        hash: usize,
        /// Only these problem numbers (comma-separated).
        #[arg(long, value_delimiter = ',')]
        only: Vec<u32>,
        /// Evaluation weights to use instead of the built-in ones.
        #[arg(long)]
        eval: Option<String>,
        /// Keep each problem's result in this file as it is solved (JSON lines).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Continue the run whose results are in --out (after Ctrl-C, SIGTERM or a kill).
        #[arg(long, requires = "out")]
        resume: bool,
        /// Solve only the problems k (in file order, after --only) with k mod n = i,
        /// e.g. 0/4; `sente ffo merge` joins the shards' --out files.
        #[arg(long, requires = "out")]
        shard: Option<String>,
    },
    /// The move-quality benchmark: the 8×8 player at a fixed time per move on
    /// positions with every move solved exactly; prints the discs its choices lose.
    /// With `--make FILE`, makes (or completes) such a file instead. Both take
    /// `--shard i/n`; `sente othello-accuracy merge` joins the shards' files.
    #[command(args_conflicts_with_subcommands = true)]
    OthelloAccuracy {
        #[command(subcommand)]
        command: Option<accuracy::AccuracyCommand>,
        /// The positions (default: the built-in engine/data/othello_accuracy.txt).
        file: Option<String>,
        /// Milliseconds per move.
        #[arg(long, default_value_t = 100)]
        movetime: u64,
        /// Nodes per move instead of --movetime: reproducible whatever the machine and its load.
        #[arg(long, conflicts_with_all = ["movetime", "depth"])]
        nodes: Option<u64>,
        /// A fixed search depth per move instead of --movetime (reproducible results).
        #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: Option<u32>,
        /// Keep each position's result in this file as it is played (JSON lines).
        #[arg(long, conflicts_with = "make")]
        out: Option<std::path::PathBuf>,
        /// Continue the run whose results are in --out (after Ctrl-C, SIGTERM or a kill).
        #[arg(long, requires = "out")]
        resume: bool,
        /// Only the first N positions (with --make: the number the file should hold).
        #[arg(long)]
        count: Option<usize>,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Make positions into this file (appending; the ones there are kept).
        #[arg(long, conflicts_with = "file")]
        make: Option<String>,
        /// The seed of the made positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Only the positions k with k mod n = i, e.g. 0/4 (with --out, or with
        /// --make: position k of the seed, k < --count); `merge` joins the shards' files.
        #[arg(long)]
        shard: Option<String>,
    },
    /// Grow the 8×8 opening book in FILE by drop-out expansion (appending: the same
    /// command goes on after a stop). The player uses the built-in book unless told not to
    OthelloBook {
        /// The book file (created, or grown from what it holds).
        file: String,
        /// The number of positions the book should hold.
        #[arg(long, default_value_t = 1000)]
        count: usize,
        /// Plies each move of a book position is searched.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        /// No book position with fewer empties.
        #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=60))]
        min_empties: u32,
    },
    /// The 9×9 Go homework of seed 001: rule check, capturing moves with pictures,
    /// legal moves, for a problem file or every problem of a folder.
    GoHomework {
        /// A problem file (`row col color` lines) or a folder of them.
        input: String,
        /// Where to write answers.txt and the pictures.
        #[arg(long)]
        out: String,
        /// The task for every file, instead of the one its name gives.
        #[arg(long, value_enum)]
        task: Option<homework::Task>,
    },
    /// Phantom Go on the Chinese competition platform's protocol (stdin/stdout), or
    /// `phantom play`: a game in the terminal against a person.
    Phantom {
        #[command(subcommand)]
        command: Option<PhantomCommand>,
        /// Which of the two letters of a point is the row: row-column (the seed's ij
        /// order, the default) or column-row.
        #[arg(long, default_value = "row-column", value_parser = platform::parse_letters, global = true)]
        letters: bitboards::go::LetterOrder,
        /// The player: combined (belief-state search proposes, flat Monte-Carlo decides),
        /// belief (belief-state search), ismcts (information-set MCTS) or flat (flat
        /// Monte-Carlo).
        #[arg(long, default_value_t = search::phantom::PlayerSettings::default().player, value_parser = search::phantom::PhantomPlayer::parse, global = true)]
        player: search::phantom::PhantomPlayer,
        /// Milliseconds for a turn's first try (later tries of the turn get less).
        #[arg(long, default_value_t = 1000, global = true)]
        movetime: u64,
        /// Komi.
        #[arg(long, default_value_t = 7.5, global = true, value_parser = bitboards::go::parse_komi, allow_negative_numbers = true)]
        komi: f64,
        /// The playouts of the belief search (also the combined player's) and of ismcts:
        /// light or heavy.
        #[arg(long, default_value_t = search::phantom::PlayerSettings::default().playouts, value_parser = search::go::playout::Policy::parse, global = true)]
        playouts: search::go::playout::Policy,
    },
    /// Play a match between two engines (UGI+, GTP, NBoard), or merge shards' results.
    Arena(Box<arena::cli::ArenaArgs>),
    /// Chaos Clock (混乱时钟): solve a position, deal and solve openings, or play.
    #[command(subcommand)]
    Chaosclock(ChaosCommand),
    /// Train the Othello evaluation: generate self-play data, or fit weights to it.
    #[command(subcommand)]
    TrainOthello(TrainCommand),
    /// Fixed-depth search over fixed positions: a node-count signature and the speed.
    Bench {
        /// Search depth.
        depth: Option<u32>,
        /// Search threads (the node signature holds for one thread only).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
}

#[derive(Subcommand)]
enum PhantomCommand {
    /// A game against the engine in the terminal: you see your own stones only.
    Play {
        /// Your colour.
        #[arg(long, default_value = "black")]
        color: String,
    },
}

#[derive(Subcommand)]
enum ChaosCommand {
    /// Prove the outcome of a position (e.g. "3,5,1,12,4,2,11,10,6,7,9,8 Y 0").
    Solve {
        /// The position.
        position: String,
        #[command(flatten)]
        limits: ChaosLimits,
    },
    /// Deal random openings, solve each, and print the outcomes.
    Openings {
        /// How many openings.
        #[arg(long, default_value_t = 100)]
        count: u64,
        /// Seed of the deals.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Start at this deal of the seed's sequence (to continue an interrupted run).
        #[arg(long, default_value_t = 0)]
        from: u64,
        /// List only the openings proven both-win (fair openings, seed 003).
        #[arg(long)]
        both_win: bool,
        /// Openings solved at once (each also splits its work over the idle threads).
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        /// Keep each opening's result in this file as it is solved (JSON lines, in deal order).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Continue the run whose results are in --out (after Ctrl-C, SIGTERM or a kill).
        #[arg(long, requires = "out")]
        resume: bool,
        /// Solve only the deals k with k mod n = i, e.g. 0/4 (with --out, for `merge`).
        #[arg(long, requires = "out")]
        shard: Option<String>,
        #[command(flatten)]
        limits: ChaosLimits,
    },
    /// Join the results files of a sharded `openings` run into the file one run writes.
    Merge {
        /// The shards' results files (`openings --shard i/n --out F`).
        #[arg(required = true)]
        files: Vec<String>,
        /// The merged results file (must be new).
        #[arg(long)]
        out: String,
    },
    /// Play against the engine in the terminal.
    Play {
        /// Seed of the deal.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Your side: yi (乙, even, moves first) or jia (甲, odd).
        #[arg(long, default_value = "yi")]
        side: String,
        /// The engine's thinking time per move, in seconds.
        #[arg(long, default_value_t = 2.0)]
        think: f64,
    },
}

/// How hard the Chaos Clock solvers may try.
#[derive(clap::Args)]
struct ChaosLimits {
    /// Nodes of proof search tried first (0: go straight to the retrograde analysis).
    /// Default: 1 000 000 for `solve`; 0 for `openings`, as the search proves no dealt
    /// opening within millions of nodes (their forced wins are 19–23 plies deep).
    #[arg(long)]
    nodes: Option<u64>,
    /// The most states the retrograde analysis may enumerate (about 50 bytes each; 0: no
    /// analysis). Default: 100 000 000, or fewer where the memory available is smaller;
    /// more than the memory available holds is refused.
    #[arg(long)]
    max_states: Option<usize>,
}

impl ChaosLimits {
    /// The limits, with `default_nodes` of proof search unless `--nodes` says otherwise;
    /// an error when `--max-states` asks for more memory than is available.
    fn to_prove_limits(&self, default_nodes: u64) -> Result<prove::ProveLimits> {
        let search_nodes = self.nodes.unwrap_or(default_nodes);
        let fits = prove::states_in_available_memory();
        let max_states = match (self.max_states, fits) {
            (Some(n), Some(fits)) if n > fits => bail!(
                "--max-states {n} may need {:.1} GiB (about {} bytes a state), more than the {:.1} GiB available; \
                 give at most {fits}",
                chaosclock::gib(n.saturating_mul(prove::STATE_BYTES)),
                prove::STATE_BYTES,
                chaosclock::gib(fits.saturating_mul(prove::STATE_BYTES)),
            ),
            (Some(n), _) => n,
            (None, Some(fits)) => DEFAULT_MAX_STATES.min(fits),
            (None, None) => DEFAULT_MAX_STATES,
        };
        Ok(prove::ProveLimits { search_nodes, max_states, deadline: None })
    }
}

/// `--max-states` when not given (and the memory available holds it).
const DEFAULT_MAX_STATES: usize = 100_000_000;

#[derive(Subcommand)]
enum TrainCommand {
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

/// Runs the command; an error is printed as one line (with its causes), never as a
/// backtrace, and a closed output pipe (`sente … | head`) is not an error.
fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        None => run_detected(),
        Some(Commands::Ugi) => run_protocol(Protocol::Ugi, SearchOptions::default()),
        Some(Commands::Gtp { game, threads, hash }) => {
            registry::make_gtp_game(game).map_err(anyhow::Error::msg)?;
            let options = SearchOptions { threads: threads.into(), hash_mb: hash as usize };
            run_protocol(Protocol::Gtp(game), options)
        }
        Some(Commands::Nboard) => run_protocol(Protocol::Nboard, SearchOptions::default()),
        Some(Commands::Analysis(args)) => analysis::run(&args),
        Some(Commands::Perft { game, depth, threads, size }) => perft(game, depth, threads, size),
        Some(Commands::Selfplay { game, size, depth, movetime, threads }) => {
            let limits = match (depth, movetime) {
                (Some(d), None) => Limits::depth(d),
                (None, m) => Limits::movetime(Duration::from_millis(m.unwrap_or(100))),
                (Some(d), Some(m)) => Limits { depth: Some(d), ..Limits::movetime(Duration::from_millis(m)) },
            };
            let options = SearchOptions { threads, ..SearchOptions::default() };
            let mut stdout = std::io::stdout().lock();
            selfplay::play(game, size, limits, options, |text| {
                let _ = writeln!(stdout, "{}", text.trim_end());
            })
            .map_err(anyhow::Error::msg)?;
            Ok(())
        }
        Some(Commands::Ffo { command: Some(ffo::FfoCommand::Merge { files, out }), .. }) => {
            let wrong = ffo::merge(&files, out.as_deref(), &mut std::io::stdout().lock())?;
            if wrong > 0 {
                bail!("{wrong} wrong answers");
            }
            Ok(())
        }
        Some(Commands::Ffo { command: None, file, threads, hash, only, eval, out, resume, shard }) => {
            let file = file.context("give the problem file")?;
            let shard = shard.map(|s| shard::Shard::parse(&s, "--shard")).transpose()?;
            if let Some(path) = &eval {
                let bytes = std::fs::read(path).with_context(|| format!("cannot read {path}"))?;
                search::othello::install_weights(&bytes).map_err(anyhow::Error::msg).with_context(|| path.clone())?;
            }
            let options = ffo::FfoOptions { threads, hash_mb: hash, only, out, resume, eval, shard };
            let stop = interrupt::stop_flag();
            let wrong = ffo::run(&file, &options, &stop, &mut std::io::stdout().lock())?;
            if wrong > 0 {
                bail!("{wrong} wrong answers");
            }
            Ok(())
        }
        Some(Commands::TrainOthello(TrainCommand::Gen {
            games,
            out,
            threads,
            seed,
            solve_empties,
            children_from,
            label_min,
            label_depth,
            hash,
            shard,
            resume,
        })) => {
            let shard = shard.map(|s| shard::Shard::parse(&s, "--shard")).transpose()?;
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
                ..Default::default()
            };
            let run = train::GenRun { games, threads, seed, settings, hash_mb: hash, out, resume, shard };
            train::generate(&run, interrupt::stop_flag())
        }
        Some(Commands::TrainOthello(TrainCommand::Merge { files, out })) => {
            let (games, positions) = train_shards::merge(&files, &out)?;
            println!("{} shards, {games} games, {positions} positions written to {out}", files.len());
            Ok(())
        }
        Some(Commands::TrainOthello(TrainCommand::Fit {
            data,
            out,
            epochs,
            learning_rate,
            phase_spread,
            neighbour_weight,
            l2,
            init,
            min_empties,
        })) => {
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
        Some(Commands::TrainOthello(TrainCommand::Errors { data, weights })) => {
            train::errors(&data, weights.as_deref(), &mut std::io::stdout().lock())
        }
        Some(Commands::OthelloAccuracy { command: Some(accuracy::AccuracyCommand::Merge { files, out }), .. }) => {
            accuracy::merge(&files, out.as_deref(), &mut std::io::stdout().lock())
        }
        Some(Commands::OthelloAccuracy {
            command: None,
            file,
            movetime,
            depth,
            nodes,
            out,
            resume,
            count,
            threads,
            hash,
            make,
            seed,
            shard,
        }) => {
            let mut stdout = std::io::stdout().lock();
            let stop = interrupt::stop_flag();
            let shard = shard.map(|s| shard::Shard::parse(&s, "--shard")).transpose()?;
            if let Some(path) = make {
                let count = count.unwrap_or(500) as u64;
                let run = accuracy::MakeRun { path, count, seed, hash_mb: hash, shard };
                return accuracy::make(&run, &stop, &mut stdout);
            }
            if movetime == 0 {
                bail!("--movetime must be at least 1 ms");
            }
            if nodes == Some(0) {
                bail!("--nodes must be at least 1");
            }
            let options = accuracy::RunOptions {
                movetime: Duration::from_millis(movetime),
                depth,
                nodes,
                out,
                resume,
                count,
                threads,
                hash_mb: hash,
                shard,
            };
            let (name, text) = match file {
                Some(path) => {
                    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {path}"))?;
                    (path, text)
                }
                None => (accuracy::DEFAULT_PATH.to_string(), accuracy::DEFAULT_POSITIONS.to_string()),
            };
            accuracy::run(&name, &text, &options, &stop, &mut stdout).map(|_| ())
        }
        Some(Commands::OthelloBook { file, count, depth, min_empties }) => {
            let stop = interrupt::stop_flag();
            othello_book::make(&file, count, depth, min_empties, &stop, &mut std::io::stdout().lock())
        }
        Some(Commands::GoHomework { input, out, task }) => {
            let (_, errors) = homework::run(
                std::path::Path::new(&input),
                std::path::Path::new(&out),
                task,
                &mut std::io::stdout().lock(),
                &mut std::io::stderr().lock(),
            )?;
            if errors > 0 {
                bail!("{errors} problem files could not be read");
            }
            Ok(())
        }
        Some(Commands::Phantom { command, letters, player, movetime, komi, playouts }) => {
            let settings = search::phantom::PlayerSettings {
                player,
                rules: bitboards::phantom::PhantomRules::Ccgc,
                komi,
                playouts,
            };
            let movetime = Duration::from_millis(movetime.max(1));
            match command {
                None => platform::run(letters, settings, movetime),
                Some(PhantomCommand::Play { color }) => {
                    let human = match color.to_ascii_lowercase().as_str() {
                        "black" | "b" => bitboards::go::Color::BLACK,
                        "white" | "w" => bitboards::go::Color::WHITE,
                        other => bail!("--color '{other}': black or white"),
                    };
                    let stdin = std::io::stdin();
                    platform::play(human, settings, movetime, &mut stdin.lock(), &mut std::io::stdout().lock())
                }
            }
        }
        Some(Commands::Arena(args)) => arena::cli::main(&args, &mut std::io::stdout().lock()),
        Some(Commands::Chaosclock(ChaosCommand::Solve { position, limits })) => {
            chaosclock::solve(&position, limits.to_prove_limits(1_000_000)?, &mut std::io::stdout().lock())
        }
        Some(Commands::Chaosclock(ChaosCommand::Openings {
            count,
            seed,
            from,
            both_win,
            jobs,
            out,
            shard,
            resume,
            limits,
        })) => {
            if jobs == 0 {
                bail!("--jobs must be at least 1");
            }
            let shard = shard.map(|s| shard::Shard::parse(&s, "--shard")).transpose()?.unwrap_or(shard::Shard::WHOLE);
            let deals = chaosclock::Deals { seed, from, count, jobs, shard };
            let file = out.map(|path| chaosclock::OpeningsFile { path, resume });
            let stop = interrupt::stop_flag();
            let limits = limits.to_prove_limits(0)?;
            chaosclock::openings(deals, both_win, limits, file.as_ref(), &stop, &mut std::io::stdout().lock())
        }
        Some(Commands::Chaosclock(ChaosCommand::Merge { files, out })) => {
            chaosclock::merge(&files, &out, &mut std::io::stdout().lock())
        }
        Some(Commands::Chaosclock(ChaosCommand::Play { seed, side, think })) => {
            let human = chaosclock::parse_side(&side)?;
            let think = search::duration_from_secs(think).map_err(|e| anyhow::anyhow!("--think: {e}"))?;
            if think.is_zero() {
                bail!("--think must be a positive number of seconds");
            }
            chaosclock::play(seed, human, think, &mut std::io::stdin().lock(), &mut std::io::stdout().lock())
        }
        Some(Commands::Bench { depth, threads }) => {
            let mut stdout = std::io::stdout().lock();
            // Nothing stops a benchmark on the command line but Ctrl-C.
            for line in bench::run(depth, threads as usize, &search::StopFlag::new()).into_iter().flatten() {
                writeln!(stdout, "{line}")?;
            }
            Ok(())
        }
    }
}

/// The front ends.
enum Protocol {
    Ugi,
    Gtp(GameKind),
    Nboard,
}

/// GTP commands that announce a GTP controller when they come first.
const GTP_OPENERS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "list_commands",
    "known_command",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "list_games",
    "set_game",
    "showboard",
    "time_settings",
    "time_left",
];

/// Without a subcommand: the first line that says something decides the protocol
/// (`nboard …` → NBoard, a GTP command → GTP playing Go, anything else → UGI+) and is
/// then handled by it; the blank and `#` comment lines before it (which GTP says to
/// ignore) are dropped. A byte order mark at the start is dropped by the reader.
fn run_detected() -> Result<()> {
    let hangup = search::StopFlag::new();
    let input = io::spawn_reader_with_hangup(BufReader::new(std::io::stdin()), hangup.clone());
    let (protocol, first) = loop {
        // A first line too long to read is judged by its start, and its protocol
        // answers it with its error reply and goes on, as it does for any later line.
        let item = match input.recv() {
            Ok(item @ (io::Input::Line(_) | io::Input::TooLong { .. })) => item,
            Ok(io::Input::Eof) | Err(_) => return Ok(()),
        };
        let protocol = match &item {
            io::Input::Line(line) => detect_protocol(line),
            io::Input::TooLong { start, .. } => detect_protocol(start).or(Some(Protocol::Ugi)),
            io::Input::Eof => None,
        };
        // Lines before the deciding one say nothing: no front end is shown them.
        if let Some(protocol) = protocol {
            break (protocol, item);
        }
    };
    serve(protocol, Some(first), input, SearchOptions::default(), hangup)
}

/// The protocol a first line speaks, or None for a line that says nothing (blank, or a
/// `#` comment).
fn detect_protocol(line: &str) -> Option<Protocol> {
    let text = line.trim();
    if text.is_empty() || text.starts_with('#') {
        return None;
    }
    let command = text.split_whitespace().find(|w| w.parse::<u64>().is_err()).unwrap_or("");
    Some(if command == "nboard" {
        Protocol::Nboard
    } else if GTP_OPENERS.contains(&command) {
        Protocol::Gtp(games::DEFAULT_GTP_GAME)
    } else {
        Protocol::Ugi
    })
}

fn run_protocol(protocol: Protocol, options: SearchOptions) -> Result<()> {
    let hangup = search::StopFlag::new();
    let input = io::spawn_reader_with_hangup(BufReader::new(std::io::stdin()), hangup.clone());
    serve(protocol, None, input, options, hangup)
}

/// Serves `protocol` (GTP and NBoard search with `options`; UGI+ sets its own), first
/// on the line already read (`first`), then on `input`; `hangup` is raised when input
/// ends or `quit` comes.
fn serve(
    protocol: Protocol,
    first: Option<io::Input>,
    input: crossbeam_channel::Receiver<io::Input>,
    options: SearchOptions,
    hangup: search::StopFlag,
) -> Result<()> {
    let (out, writer) = io::spawn_writer(std::io::stdout());
    match protocol {
        Protocol::Ugi => {
            let mut engine = ugi::UgiEngine::new(out);
            if first.is_none_or(|item| engine.handle_input(item)) {
                engine.run(&input);
            }
        }
        Protocol::Gtp(game) => {
            let game = registry::make_gtp_game(game).map_err(anyhow::Error::msg)?;
            let mut engine = gtp::GtpEngine::new(game, options, out, hangup);
            if first.is_none_or(|item| engine.handle_input(item)) {
                engine.run(&input);
            }
        }
        Protocol::Nboard => {
            let mut engine = nboard::NboardEngine::new(out, options, hangup);
            if first.is_none_or(|item| engine.handle_input(item)) {
                engine.run(&input);
            }
        }
    }
    writer.join().map_err(|_| anyhow::anyhow!("the output thread failed"))?;
    Ok(())
}

fn perft(game: GameKind, depth: u32, threads: usize, size: Option<usize>) -> Result<()> {
    let session = registry::make_session(game, size).map_err(anyhow::Error::msg)?;
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
