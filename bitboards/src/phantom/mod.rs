//! Phantom Go (幻影围棋): 9×9 Go where neither player sees the other's stones and a
//! referee holding the full board answers every try.
//!
//! * [`rules`]: the two rule sets ([`PhantomRules::Ccgc`], the Chinese computer-game
//!   competition's rules of seed 000, and [`PhantomRules::OpenSpiel`], OpenSpiel 2.x
//!   `phantom_go`), their settings ([`PhantomConfig`]) and the result of a game.
//! * [`view`]: what one player knows ([`View`]), as data and as text.
//! * [`notice`]: each message the referee sends one player ([`Notice`]).
//! * [`referee`]: the full board, the answers to tries, both views, the history.
//!
//! The Go rules themselves (liberties, captures, suicide, ko, superko, area counting) are
//! those of [`crate::go`]; this module adds only what is hidden and who is told what.
//!
//! ```
//! use bitboards::go::{Color, Move, Point};
//! use bitboards::phantom::{Answer, PhantomConfig, Referee};
//!
//! let mut r = Referee::new(PhantomConfig::ccgc());
//! assert_eq!(r.try_move(Move::Play(Point::new(4, 4))), Ok(Answer::Legal { captured: 0 }));
//! // White tries the same point: refused, white tries again.
//! assert!(!r.try_move(Move::Play(Point::new(4, 4))).unwrap().is_legal());
//! assert_eq!(r.to_move(), Color::WHITE);
//! // White's view does not show the black stone; black's does.
//! assert_eq!(r.view(Color::WHITE).board_text(), ".".repeat(81));
//! assert_eq!(r.view(Color::BLACK).board_text().chars().nth(40), Some('X'));
//! ```

pub mod notice;
pub mod referee;
pub mod rules;
pub mod view;

pub use notice::Notice;
pub use referee::{Answer, Referee, TryError, TryRecord};
pub use rules::{
    DEFAULT_ILLEGAL_LIMIT, EndReason, OPEN_SPIEL_MAX_ACTIONS, PhantomConfig, PhantomResult, PhantomRules, SIZE,
};
pub use view::{View, ViewError};
