//! The protocol front ends: each translates lines into calls on a game's session and
//! back, and none decides a move. UGI+ (native), GTP, NBoard, KataGo's JSON analysis
//! and the Phantom Go platform; without a subcommand the first line says which of
//! the first three is spoken.

pub mod analysis;
pub mod gtp;
pub mod nboard;
pub mod platform;
pub mod ugi;

use std::io::BufReader;

use anyhow::Result;

use crate::games::session::SearchOptions;
use crate::games::{self, GameKind};
use crate::io;

/// The front ends.
pub enum Protocol {
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
pub fn run_detected() -> Result<()> {
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
    let command = text.split_whitespace().find(|w| protocol::gtp::read_id(w).is_none()).unwrap_or("");
    Some(if command == "nboard" {
        Protocol::Nboard
    } else if GTP_OPENERS.contains(&command) {
        Protocol::Gtp(games::DEFAULT_GTP_GAME)
    } else {
        Protocol::Ugi
    })
}

pub fn run_protocol(protocol: Protocol, options: SearchOptions) -> Result<()> {
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
        Protocol::Ugi => io::serve(&mut ugi::UgiEngine::new(out), first, &input),
        Protocol::Gtp(game) => {
            let game = game.new_gtp_session().map_err(anyhow::Error::msg)?;
            io::serve(&mut gtp::GtpEngine::new(game, options, out, hangup), first, &input);
        }
        Protocol::Nboard => io::serve(&mut nboard::NboardEngine::new(out, options, hangup), first, &input),
    }
    writer.join().map_err(|_| anyhow::anyhow!("the output thread failed"))?;
    Ok(())
}
