//! Which games the engine plays, and how to start a session of one.

use bitboards::othello::{Board, Board6, Board10};

use crate::othello::OthelloSession;
use crate::session::GameSession;

/// The games `setoption name Game value …` accepts.
pub const GAMES: &[&str] = &["othello"];

/// The game a new engine plays.
pub const DEFAULT_GAME: &str = "othello";

/// A new session of `game` on a board of side `size` (the game's default if `None`).
pub fn make_session(game: &str, size: Option<usize>) -> Result<Box<dyn GameSession>, String> {
    match game {
        "othello" | "reversi" => match size.unwrap_or(8) {
            8 => Ok(Box::new(OthelloSession::<Board>::new())),
            6 => Ok(Box::new(OthelloSession::<Board6>::new())),
            10 => Ok(Box::new(OthelloSession::<Board10>::new())),
            n => Err(format!(
                "Othello is played on 6x6, 8x8 or 10x10 boards, not {n}x{n}"
            )),
        },
        other => Err(format!(
            "unknown game '{other}': sente plays {}",
            GAMES.join(", ")
        )),
    }
}
