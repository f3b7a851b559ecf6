//! Which games the engine plays, and how to start a session of one.

use bitboards::othello::{Board, Board6, Board10};

use crate::chaosclock::ChaosSession;
use crate::go::{GoGtp, GoSession};
use crate::gtp::GtpGame;
use crate::othello::{GenericSearch, OthelloGtp, OthelloSession, SolverSearch};
use crate::session::GameSession;

/// The games `setoption name Game value …` accepts.
pub const GAMES: &[&str] = &["othello", "go", "chaosclock"];

/// The game a new engine plays.
pub const DEFAULT_GAME: &str = "othello";

/// A new session of `game` on a board of side `size` (the game's default if `None`).
pub fn make_session(game: &str, size: Option<usize>) -> Result<Box<dyn GameSession>, String> {
    match game {
        "othello" | "reversi" => match size.unwrap_or(8) {
            8 => Ok(Box::new(OthelloSession::<Board, SolverSearch>::new())),
            6 => Ok(Box::new(OthelloSession::<Board6, GenericSearch>::new())),
            10 => Ok(Box::new(OthelloSession::<Board10, GenericSearch>::new())),
            n => Err(format!("Othello is played on 6x6, 8x8 or 10x10 boards, not {n}x{n}")),
        },
        "go" => Ok(Box::new(GoSession::new(size)?)),
        "chaosclock" | "chaos-clock" => match size {
            None | Some(12) => Ok(Box::new(ChaosSession::new())),
            Some(n) => Err(format!("the Chaos Clock has 12 points, not {n}")),
        },
        other => Err(format!("unknown game '{other}': sente plays {}", GAMES.join(", "))),
    }
}

/// The game a GTP controller gets unless it asks for another with `set_game`.
pub const DEFAULT_GTP_GAME: &str = "Go";

/// The games `list_games` names over GTP.
pub const GTP_GAMES: &[&str] = &["Go", "Othello"];

/// A GTP game by its `set_game` name (case-insensitive).
pub fn make_gtp_game(name: &str) -> Option<Box<dyn GtpGame>> {
    match name.to_ascii_lowercase().as_str() {
        "othello" | "reversi" => Some(Box::new(OthelloGtp::default())),
        "go" | "igo" | "weiqi" | "baduk" => Some(Box::new(GoGtp::default())),
        _ => None,
    }
}
