//! The games behind the front ends. Each game shows them one face, a [`GameSpec`]
//! ([`spec`]): its names, board sizes, how to start a session of it for UGI+ (a
//! [`session::GameSession`]) or GTP, and how the arena referees it ([`referee`]).
//! [`GameKind`] is a handle to one; the built-in games are in [`registry`], each
//! game's glue beside it ([`othello`], [`go`], [`phantom`], [`chaosclock`]), and a
//! game written elsewhere (a program using this library, a test) joins them with
//! [`register`]. [`generic`] makes a session of any [`search::Game`] that has a
//! [`search::player::Player`].

pub mod chaosclock;
pub mod generic;
pub mod go;
pub mod options;
pub mod othello;
pub mod phantom;
pub mod referee;
pub mod registry;
pub mod replay;
pub mod session;
pub mod spec;

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::RwLock;

pub use spec::{BoardSizes, GameSpec};

use crate::error::{EngineError, Result};
use referee::{RefereeRules, Refereed};
use session::GameSession;

/// A game `sente` plays: a handle to its [`GameSpec`]. Two handles are equal when
/// their games have the same name.
#[derive(Clone, Copy)]
pub struct GameKind(&'static dyn GameSpec);

/// The games registered beside the built-in ones ([`register`]).
static REGISTERED: RwLock<Vec<GameKind>> = RwLock::new(Vec::new());

/// Adds a game to those every front end, the arena and the tools know by name, and
/// returns its handle; a name (or alias) that is already taken is refused. A program
/// that adds a game calls it once before [`crate::main`].
pub fn register(spec: &'static dyn GameSpec) -> std::result::Result<GameKind, String> {
    let kind = GameKind(spec);
    // The check and the addition under one lock: two registrations of one name at once
    // cannot both pass.
    let mut registered = REGISTERED.write().map_err(|_| "the game table is poisoned".to_string())?;
    let known: Vec<GameKind> = GameKind::BUILT_IN.iter().chain(registered.iter()).copied().collect();
    let names = std::iter::once(spec.name()).chain(spec.aliases().iter().copied());
    for name in names {
        if known.iter().any(|g| g.answers_to(name)) {
            return Err(format!("the game name '{name}' is taken"));
        }
    }
    registered.push(kind);
    Ok(kind)
}

impl GameKind {
    /// Othello (Reversi), 8×8 and the 6×6 and 10×10 variants.
    pub const OTHELLO: GameKind = GameKind(&registry::OthelloSpec);
    /// Go up to 9×9, area scoring.
    pub const GO: GameKind = GameKind(&registry::GoSpec);
    /// Phantom Go (幻影围棋), 9×9, with a referee.
    pub const PHANTOM_GO: GameKind = GameKind(&registry::PhantomSpec);
    /// Chaos Clock (混乱时钟).
    pub const CHAOS_CLOCK: GameKind = GameKind(&registry::ChaosClockSpec);

    /// The built-in games, in the order the front ends list them.
    pub const BUILT_IN: [GameKind; 4] = [GameKind::OTHELLO, GameKind::GO, GameKind::PHANTOM_GO, GameKind::CHAOS_CLOCK];

    /// The handle of the game `spec` describes (registered or not).
    pub const fn from_spec(spec: &'static dyn GameSpec) -> GameKind {
        GameKind(spec)
    }

    /// Every game: the built-in ones, then those [`register`]ed.
    pub fn all() -> Vec<GameKind> {
        let mut all = GameKind::BUILT_IN.to_vec();
        if let Ok(more) = REGISTERED.read() {
            all.extend(more.iter().copied());
        }
        all
    }

    /// Reads a game's name or one of its aliases, case-insensitively: `othello`
    /// (`reversi`), `go` (`igo`, `weiqi`, `baduk`), `phantomgo` (`phantom-go`,
    /// `phantom`), `chaosclock` (`chaos-clock`), and the registered games'.
    pub fn parse(text: &str) -> std::result::Result<GameKind, String> {
        let wanted = text.trim().to_ascii_lowercase();
        GameKind::all()
            .into_iter()
            .find(|g| g.answers_to(&wanted))
            .ok_or_else(|| format!("unknown game '{wanted}': sente plays {}", Self::names().join(", ")))
    }

    /// Whether `name` is this game's name or one of its aliases, in any case.
    fn answers_to(self, name: &str) -> bool {
        self.name().eq_ignore_ascii_case(name) || self.0.aliases().iter().any(|a| a.eq_ignore_ascii_case(name))
    }

    /// The game's description.
    pub fn spec(self) -> &'static dyn GameSpec {
        self.0
    }

    /// The name UGI+ and the CLI use (`othello`, `go`, `phantomgo`, `chaosclock`).
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// The names of every game.
    pub fn names() -> Vec<&'static str> {
        Self::all().iter().map(|g| g.name()).collect()
    }

    /// The names of player one and player two in the game's own terms.
    pub fn player_names(self) -> (&'static str, &'static str) {
        self.0.player_names()
    }

    /// The name GTP's `list_games` gives, for the games GTP plays.
    pub fn gtp_name(self) -> Option<&'static str> {
        self.0.gtp_name()
    }

    /// The board sizes the game is played on.
    pub fn board_sizes(self) -> BoardSizes {
        self.0.board_sizes()
    }

    /// A new session on a board of side `size` (the game's default if `None`).
    pub fn new_session(self, size: Option<usize>) -> Result<Box<dyn GameSession>> {
        self.0.new_session(size)
    }

    /// A new session on the game's default board for GTP, or why GTP does not play
    /// this game (it plays the games with a [`GameSpec::gtp_name`]).
    pub fn new_gtp_session(self) -> Result<Box<dyn GameSession>> {
        if self.gtp_name().is_none() {
            let games = GameKind::gtp_games().join(" and ");
            return Err(EngineError::Refused(format!("GTP plays {games}, not {} (UGI+ plays it)", self.0.title())));
        }
        self.new_session(None)
    }

    /// The referee of a new game at the start of an opening (its moves not yet
    /// played).
    pub fn new_referee(
        self,
        rules: &RefereeRules,
        start: Option<&str>,
    ) -> std::result::Result<Box<dyn Refereed>, String> {
        self.0.new_referee(rules, start)
    }

    /// The names GTP's `list_games` gives.
    pub fn gtp_games() -> Vec<&'static str> {
        Self::all().iter().filter_map(|g| g.gtp_name()).collect()
    }
}

impl PartialEq for GameKind {
    fn eq(&self, other: &GameKind) -> bool {
        self.name() == other.name()
    }
}

impl Eq for GameKind {}

impl Hash for GameKind {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The game a new engine plays.
pub const DEFAULT_GAME: GameKind = GameKind::OTHELLO;

/// The game a GTP controller gets unless it asks for another with `set_game`.
pub const DEFAULT_GTP_GAME: GameKind = GameKind::GO;

/// The game `sente go-accuracy` plays (9×9 Go), and sets up the outside engines it
/// judges for.
pub const GO_ACCURACY_GAME: GameKind = GameKind::GO;

/// The game the NBoard protocol plays.
pub const NBOARD_GAME: GameKind = GameKind::OTHELLO;
