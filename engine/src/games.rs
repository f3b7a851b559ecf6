//! Which games the engine plays: their names, read in one place for every front end
//! (UGI+ `setoption name Game`, GTP `set_game`, `--game` of the subcommands and the
//! arena), and how to start a session of one.

use bitboards::othello::{Board, Board6, Board10};

use crate::chaosclock::ChaosSession;
use crate::go::{GoGtp, GoSession};
use crate::gtp::GtpGame;
use crate::othello::{GenericSearch, OthelloGtp, OthelloSession, SolverSearch};
use crate::session::GameSession;

/// A game `sente` plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Othello (Reversi), 8×8 and the 6×6 and 10×10 variants.
    Othello,
    /// Go up to 9×9, area scoring.
    Go,
    /// Phantom Go (幻影围棋), 9×9, with a referee.
    PhantomGo,
    /// Chaos Clock (混乱时钟).
    ChaosClock,
}

impl GameKind {
    /// Every game, in the order the front ends list them.
    pub const ALL: [GameKind; 4] = [GameKind::Othello, GameKind::Go, GameKind::PhantomGo, GameKind::ChaosClock];

    /// Reads a game's name, case-insensitively: `othello` (`reversi`), `go` (`igo`,
    /// `weiqi`, `baduk`), `phantomgo` (`phantom-go`, `phantom`), `chaosclock`
    /// (`chaos-clock`).
    pub fn parse(text: &str) -> Result<GameKind, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "othello" | "reversi" => Ok(GameKind::Othello),
            "go" | "igo" | "weiqi" | "baduk" => Ok(GameKind::Go),
            "phantomgo" | "phantom-go" | "phantom" => Ok(GameKind::PhantomGo),
            "chaosclock" | "chaos-clock" => Ok(GameKind::ChaosClock),
            other => Err(format!("unknown game '{other}': sente plays {}", Self::names().join(", "))),
        }
    }

    /// The name UGI+ and the CLI use (`othello`, `go`, `phantomgo`, `chaosclock`).
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Othello => "othello",
            GameKind::Go => "go",
            GameKind::PhantomGo => "phantomgo",
            GameKind::ChaosClock => "chaosclock",
        }
    }

    /// The names of every game.
    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|g| g.name()).collect()
    }

    /// The name GTP's `list_games` gives (`Othello`, `Go`), for the games GTP plays.
    pub const fn gtp_name(self) -> Option<&'static str> {
        match self {
            GameKind::Othello => Some("Othello"),
            GameKind::Go => Some("Go"),
            GameKind::PhantomGo | GameKind::ChaosClock => None,
        }
    }
}

/// The game a new engine plays.
pub const DEFAULT_GAME: GameKind = GameKind::Othello;

/// A new session of `game` on a board of side `size` (the game's default if `None`).
pub fn make_session(game: GameKind, size: Option<usize>) -> Result<Box<dyn GameSession>, String> {
    match game {
        GameKind::Othello => match size.unwrap_or(8) {
            8 => Ok(Box::new(OthelloSession::<Board, SolverSearch>::new())),
            6 => Ok(Box::new(OthelloSession::<Board6, GenericSearch>::new())),
            10 => Ok(Box::new(OthelloSession::<Board10, GenericSearch>::new())),
            n => Err(format!("Othello is played on 6x6, 8x8 or 10x10 boards, not {n}x{n}")),
        },
        GameKind::Go => Ok(Box::new(GoSession::new(size)?)),
        GameKind::PhantomGo => match size {
            None | Some(9) => Ok(Box::new(crate::phantom::PhantomSession::new())),
            Some(n) => Err(format!("Phantom Go is played on 9x9, not {n}x{n}")),
        },
        GameKind::ChaosClock => match size {
            None | Some(12) => Ok(Box::new(ChaosSession::new())),
            Some(n) => Err(format!("the Chaos Clock has 12 points, not {n}")),
        },
    }
}

/// The game a GTP controller gets unless it asks for another with `set_game`.
pub const DEFAULT_GTP_GAME: GameKind = GameKind::Go;

/// The games `list_games` names over GTP.
pub fn gtp_games() -> Vec<&'static str> {
    GameKind::ALL.iter().filter_map(|g| g.gtp_name()).collect()
}

/// A GTP game of `game`, or why GTP does not play it.
pub fn make_gtp_game(game: GameKind) -> Result<Box<dyn GtpGame>, String> {
    match game {
        GameKind::Othello => Ok(Box::new(OthelloGtp::default())),
        GameKind::Go => Ok(Box::new(GoGtp::default())),
        GameKind::PhantomGo => {
            Err(format!("GTP plays {}, not Phantom Go (use UGI+ or `sente phantom`)", gtp_games().join(" and ")))
        }
        GameKind::ChaosClock => Err(format!("GTP plays {}, not Chaos Clock", gtp_games().join(" and "))),
    }
}
