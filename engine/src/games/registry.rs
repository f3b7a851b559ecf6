//! How to start a session of each game: the one place that knows every game's
//! front-end types (the UGI+ [`GameSession`] and the GTP [`GtpGame`]).

use bitboards::othello::{Board, Board6, Board10};

use crate::error::{EngineError, Result};
use crate::games::GameKind;
use crate::games::chaosclock::ChaosSession;
use crate::games::go::{GoGtp, GoSession};
use crate::games::othello::{GenericSearch, OthelloGtp, OthelloSession, SolverSearch};
use crate::games::session::{GameSession, GtpGame};

/// A new session of `game` on a board of side `size` (the game's default if `None`).
pub fn make_session(game: GameKind, size: Option<usize>) -> Result<Box<dyn GameSession>> {
    match game {
        GameKind::Othello => match size.unwrap_or(8) {
            8 => Ok(Box::new(OthelloSession::<Board, SolverSearch>::new())),
            6 => Ok(Box::new(OthelloSession::<Board6, GenericSearch>::new())),
            10 => Ok(Box::new(OthelloSession::<Board10, GenericSearch>::new())),
            n => Err(EngineError::BoardSize(format!(
                "Othello is played on 6x6, 8x8 or 10x10 boards (6, 8 or 10), not {n}"
            ))),
        },
        GameKind::Go => Ok(Box::new(GoSession::new(size)?)),
        GameKind::PhantomGo => match size {
            None | Some(9) => Ok(Box::new(crate::games::phantom::PhantomSession::new())),
            Some(n) => Err(EngineError::BoardSize(format!("Phantom Go is played on 9x9 only (9), not {n}"))),
        },
        GameKind::ChaosClock => match size {
            None | Some(12) => Ok(Box::new(ChaosSession::new())),
            Some(n) => Err(EngineError::BoardSize(format!("the Chaos Clock has 12 points (size 12 only), not {n}"))),
        },
    }
}

/// The board sizes a game is played on, as UGI+ `setoption name BoardSize` takes
/// them and `ugi` announces them (a spin from `min` to `max`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSizes {
    /// The size of a new session.
    pub default: usize,
    /// The smallest size.
    pub min: usize,
    /// The largest size.
    pub max: usize,
    /// The sizes in words, e.g. `6, 8 or 10`.
    pub text: &'static str,
}

/// The board sizes `game` is played on ([`make_session`] takes them and refuses the
/// others with a message naming them; Othello takes only the even sizes 6, 8, 10).
pub fn board_sizes(game: GameKind) -> BoardSizes {
    match game {
        GameKind::Othello => BoardSizes { default: 8, min: 6, max: 10, text: "6, 8 or 10" },
        GameKind::Go => BoardSizes { default: 9, min: 2, max: bitboards::go::MAX_SIZE, text: "2 to 9" },
        GameKind::PhantomGo => BoardSizes { default: 9, min: 9, max: 9, text: "9 only" },
        // The clock's 12 points.
        GameKind::ChaosClock => BoardSizes { default: 12, min: 12, max: 12, text: "12 only" },
    }
}

/// The games `list_games` names over GTP.
pub fn gtp_games() -> Vec<&'static str> {
    GameKind::ALL.iter().filter_map(|g| g.gtp_name()).collect()
}

/// A GTP game of `game`, or why GTP does not play it.
pub fn make_gtp_game(game: GameKind) -> Result<Box<dyn GtpGame>> {
    match game {
        GameKind::Othello => Ok(Box::new(OthelloGtp::default())),
        GameKind::Go => Ok(Box::new(GoGtp::default())),
        GameKind::PhantomGo => {
            Err(format!("GTP plays {}, not Phantom Go (use UGI+ or `sente phantom`)", gtp_games().join(" and ")).into())
        }
        GameKind::ChaosClock => Err(format!("GTP plays {}, not Chaos Clock", gtp_games().join(" and ")).into()),
    }
}
