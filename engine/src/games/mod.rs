//! The games behind the front ends: which games the engine plays, with their names read
//! in one place for every front end (UGI+ `setoption name Game`, GTP `set_game`, `--game`
//! of the subcommands and the arena); the faces a game shows the protocol loops
//! ([`session`]); each game's glue ([`othello`], [`go`], [`phantom`], [`chaosclock`]); and
//! [`registry`], which starts a session of one.

pub mod chaosclock;
pub mod go;
pub mod othello;
pub mod phantom;
pub mod registry;
pub mod session;

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

    /// The names of player one and player two in the game's own terms: black and white
    /// (black moves first) in Othello and Go; 乙 (the even pieces, moving first) and 甲
    /// in Chaos Clock.
    pub const fn player_names(self) -> (&'static str, &'static str) {
        match self {
            GameKind::ChaosClock => ("乙", "甲"),
            _ => ("black", "white"),
        }
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

/// The game a GTP controller gets unless it asks for another with `set_game`.
pub const DEFAULT_GTP_GAME: GameKind = GameKind::Go;
