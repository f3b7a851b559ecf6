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
use clap::{CommandFactory, Parser, Subcommand};

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
    /// The 9×9 Go move-quality benchmark judged by KataGo: the Go player at a fixed
    /// number of playouts on positions from its games against GNU Go and Pachi whose
    /// every legal move KataGo valued; prints the winrate and score its moves lose,
    /// by phase, kind and split. With `--make FILE --games DIR…`, makes the positions.
    GoAccuracy(tools::go_accuracy::GoAccuracyArgs),
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
    let args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    let command = ["sente".to_string()].into_iter().chain(subcommand_path(&args)).collect::<Vec<_>>().join(" ");
    let (cli, ignored) = parse_leniently(args);
    for arg in ignored {
        eprintln!("{command}: ignoring the argument '{arg}': not one of its options (it starts all the same)");
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The commands that start a protocol loop on stdin/stdout (a path of subcommand
/// names; the empty path is the bare `sente`). Tools that start an engine append
/// their own flags (cutegames' samples pass `--debug`, KaTrain `-model …`): these
/// commands ignore what they do not know and say so on stderr; every other command
/// (the offline tools: `ffo`, `arena`, `perft`, …, and `phantom play`, a game for a
/// person) keeps clap's strict parsing.
const PROTOCOL_COMMANDS: &[&[&str]] = &[&[], &["ugi"], &["gtp"], &["nboard"], &["analysis"], &["phantom"]];

/// The subcommand path the arguments name: each word (not an option) that names a
/// subcommand of the command reached so far goes one level down.
fn subcommand_path(args: &[String]) -> Vec<String> {
    let mut command = Cli::command();
    let mut path = Vec::new();
    for arg in args.iter().skip(1).filter(|a| !a.starts_with('-')) {
        let Some(sub) = command.find_subcommand(arg).cloned() else { continue };
        path.push(sub.get_name().to_string());
        command = sub;
    }
    path
}

/// Parses the command line; for a protocol command (see [`PROTOCOL_COMMANDS`]),
/// drops each argument clap finds unexpected (an unknown option, and the word right
/// after it when that is then unexpected too: its value) and parses again, returning
/// what it dropped. Any other error (and every error of the other commands) ends the
/// program with clap's message, as [`Parser::parse`] does.
fn parse_leniently(mut args: Vec<String>) -> (Cli, Vec<String>) {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let protocol = PROTOCOL_COMMANDS.iter().any(|p| subcommand_path(&args) == *p);
    let mut ignored = Vec::new();
    // Where the last dropped argument was: a word left there may be its value.
    let mut dropped_at: Option<usize> = None;
    loop {
        let error = match Cli::try_parse_from(&args) {
            Ok(cli) => return (cli, ignored),
            Err(e) => e,
        };
        let unexpected =
            match (error.kind(), error.get(ContextKind::InvalidArg), error.get(ContextKind::InvalidSubcommand)) {
                (ErrorKind::UnknownArgument, Some(ContextValue::String(arg)), _) => Some(arg.clone()),
                (ErrorKind::InvalidSubcommand, _, Some(ContextValue::String(arg))) => Some(arg.clone()),
                _ => None,
            };
        // The argument's place: an unknown option (`--debug`, `--debug=1`, `-d`), or,
        // only right where an option was dropped, a word (its value).
        let place = unexpected.filter(|_| protocol).and_then(|arg| {
            let at = args.iter().skip(1).position(|a| {
                *a == arg || (arg.starts_with('-') && a.starts_with(&arg) && a[arg.len()..].starts_with('='))
            })? + 1;
            (arg.starts_with('-') || dropped_at == Some(at)).then_some(at)
        });
        let Some(at) = place else { error.exit() };
        let arg = args.remove(at);
        // An option may have a value after it; a value has none.
        dropped_at = (arg.starts_with('-') && !arg.contains('=')).then_some(at);
        ignored.push(arg);
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
        Some(Commands::GoAccuracy(args)) => tools::go_accuracy::main(args, arena::start_outside_go_player),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<String> {
        std::iter::once("sente").chain(words.iter().copied()).map(String::from).collect()
    }

    #[test]
    fn protocol_commands_drop_unknown_arguments_and_their_values() {
        let (cli, ignored) = parse_leniently(args(&["--debug"]));
        assert!(cli.command.is_none());
        assert_eq!(ignored, ["--debug"]);
        let (cli, ignored) = parse_leniently(args(&["--debug", "1", "gtp", "--log=x", "--threads", "2", "-v"]));
        let Some(Commands::Gtp(gtp)) = cli.command else { panic!("gtp") };
        assert_eq!(gtp.threads, 2, "a known option after an unknown one is kept");
        assert_eq!(ignored, ["--debug", "1", "--log=x", "-v"]);
        let (_, ignored) = parse_leniently(args(&["phantom", "--movetime", "10", "--debug"]));
        assert_eq!(ignored, ["--debug"]);
        let (_, ignored) = parse_leniently(args(&["analysis", "-model", "m.bin.gz"]));
        assert!(ignored.is_empty(), "KataGo's arguments are analysis's own: {ignored:?}");
    }

    #[test]
    fn subcommand_paths() {
        assert!(subcommand_path(&args(&["--debug"])).is_empty());
        assert_eq!(subcommand_path(&args(&["--debug", "gtp", "--game", "go"])), ["gtp"]);
        assert_eq!(subcommand_path(&args(&["phantom", "--movetime", "5", "play"])), ["phantom", "play"]);
        assert_eq!(subcommand_path(&args(&["ffo", "--debug"])), ["ffo"]);
    }
}
