//! Search for every game `sente` plays.
//!
//! [`Game`] is the one abstraction the generic searches and the protocol front ends
//! work through; [`Evaluate`] adds a heuristic for alpha-beta. Game-specific tuned
//! parts live beside their game (`othello/`).
//!
//! ```
//! use bitboards::othello::{Board, Position};
//! use search::{Limits, alphabeta};
//!
//! let start = Position::<Board>::start();
//! let result = alphabeta::search(&start, &Limits::depth(3), &Default::default(), |_| {});
//! assert!(start.legal_moves().contains(&result.best_move.unwrap()));
//! ```
#![deny(missing_docs)]

pub mod alphabeta;
pub mod chaosclock;
pub mod conformance;
mod game;
pub mod go;
mod limits;
pub mod othello;
pub mod phantom;
pub mod player;
pub mod tt;

pub use game::{Evaluate, Game, Outcome, Player, Score};
pub use limits::{Clock, Limits, MAX_SECONDS, StopFlag, TimeBudget, duration_from_secs};
