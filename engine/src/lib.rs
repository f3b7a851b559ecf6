//! `sente`: one program that plays, solves and referees Othello, Go, Phantom Go and
//! Chaos Clock through line-based text protocols.
//!
//! With no subcommand it speaks UGI+ on stdin/stdout, as a chess engine speaks UCI.
//! The binary (`main.rs`) calls [`main`]; a program that adds a game of its own
//! registers it with [`games::register`] and then calls [`main`] too (see
//! docs/adding-a-game.md).

pub mod arena;
pub mod error;
pub mod games;
pub mod io;
pub mod protocols;
pub mod referee;
pub mod tools;

/// Mutations of valid inputs, shared with the other crates' fuzz tests.
#[cfg(test)]
#[path = "../../tests/common/mutate.rs"]
mod mutate;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use crate::games::session::SearchOptions;
use crate::protocols::Protocol;

#[derive(Parser)]
#[command(name = "sente", version, about = "A game-search engine for Othello, Go, Phantom Go and Chaos Clock.")]
struct Cli {
    #[command(subcommand)]
    command: Option<Commands>,
}

/// The subcommands: each one's arguments and the code it runs are in the file named
/// beside it.
#[derive(Subcommand)]
enum Commands {
    /// Speak UGI+ on stdin/stdout (the default without a subcommand).
    Ugi,
    /// Speak GTP v2 on stdin/stdout (Go; Othello with `set_game Othello`).
    Gtp(protocols::gtp::GtpArgs),
    /// Speak the NBoard protocol on stdin/stdout (8×8 Othello).
    Nboard,
    /// Speak KataGo's JSON analysis engine protocol on stdin/stdout (Go: KaTrain and
    /// other KataGo analysis clients).
    Analysis(protocols::analysis::AnalysisArgs),
    /// Count the move sequences of a given length from the start (perft).
    Perft(tools::perft::PerftArgs),
    /// The engine plays a whole game against itself.
    Selfplay(tools::selfplay::SelfplayArgs),
    /// Solve every problem of an FFO or Edax OBF file exactly and compare with its answers.
    /// `--shard i/n` solves a share of them; `sente ffo merge` joins the shards' tables.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Ffo(tools::ffo::FfoArgs),
    /// The move-quality benchmark: the 8×8 player at a fixed time per move on
    /// positions with every move solved exactly; prints the discs its choices lose.
    /// With `--make FILE`, makes (or completes) such a file instead. Both take
    /// `--shard i/n`; `sente othello-accuracy merge` joins the shards' files.
    #[command(args_conflicts_with_subcommands = true)]
    OthelloAccuracy(tools::accuracy::AccuracyArgs),
    /// Grow the 8×8 opening book in FILE by drop-out expansion (appending: the same
    /// command goes on after a stop). The player uses the built-in book unless told not to
    OthelloBook(tools::othello_book::BookArgs),
    /// Write balanced 8×8 openings to FILE for `sente arena --openings`: random
    /// openings of a few plies, kept when a fixed-depth search values them within a
    /// few discs of even (appending: the same command goes on after a stop)
    OthelloOpenings(tools::othello_openings::OpeningsArgs),
    /// The 9×9 Go homework of seed 001: rule check, capturing moves with pictures,
    /// legal moves, for a problem file or every problem of a folder.
    GoHomework(tools::homework::HomeworkArgs),
    /// Phantom Go on the Chinese competition platform's protocol (stdin/stdout), or
    /// `phantom play`: a game in the terminal against a person.
    Phantom(protocols::platform::PhantomArgs),
    /// Play a match between two engines (UGI+, GTP, NBoard), merge shards' results, or compare two matches pair by pair.
    Arena(Box<arena::cli::ArenaArgs>),
    /// Chaos Clock (混乱时钟): solve a position, deal and solve openings, or play.
    #[command(subcommand)]
    Chaosclock(tools::chaosclock::ChaosCommand),
    /// Train the Othello evaluation: generate self-play data, or fit weights to it.
    #[command(subcommand)]
    TrainOthello(tools::train_othello::TrainCommand),
    /// Train the Go move model: self-play games at fixed playouts, or fit the model to them.
    #[command(subcommand)]
    TrainGo(tools::train_go::TrainGoCommand),
    /// Fixed-depth search over fixed positions: a node-count signature and the speed.
    Bench(tools::bench::BenchArgs),
}

/// Runs the command line's command; an error is printed as one line (with its
/// causes), never as a backtrace, and a closed output pipe (`sente … | head`) is not
/// an error.
pub fn main() -> ExitCode {
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

/// Runs the subcommand the command line names.
fn run(cli: Cli) -> Result<()> {
    match cli.command {
        None => protocols::run_detected(),
        Some(Commands::Ugi) => protocols::run_protocol(Protocol::Ugi, SearchOptions::default()),
        Some(Commands::Gtp(args)) => protocols::gtp::main(args),
        Some(Commands::Nboard) => protocols::run_protocol(Protocol::Nboard, SearchOptions::default()),
        Some(Commands::Analysis(args)) => protocols::analysis::run(&args),
        Some(Commands::Perft(args)) => tools::perft::main(args),
        Some(Commands::Selfplay(args)) => tools::selfplay::main(args),
        Some(Commands::Ffo(args)) => tools::ffo::main(args),
        Some(Commands::OthelloAccuracy(args)) => tools::accuracy::main(args),
        Some(Commands::OthelloBook(args)) => tools::othello_book::main(args),
        Some(Commands::OthelloOpenings(args)) => tools::othello_openings::main(args),
        Some(Commands::GoHomework(args)) => tools::homework::main(args),
        Some(Commands::Phantom(args)) => match &args.command {
            Some(protocols::platform::PhantomCommand::Referee(referee)) => referee::main(
                referee.clone(),
                args.komi,
                args.letters,
                std::time::Duration::from_millis(args.movetime.max(1)),
            ),
            _ => protocols::platform::main(args),
        },
        Some(Commands::Arena(args)) => arena::cli::main(&args, &mut std::io::stdout().lock()),
        Some(Commands::Chaosclock(command)) => tools::chaosclock::main(command),
        Some(Commands::TrainOthello(command)) => tools::train_othello::main(command, arena::teach_command),
        Some(Commands::TrainGo(command)) => tools::train_go::main(command),
        Some(Commands::Bench(args)) => tools::bench::main(args),
    }
}
