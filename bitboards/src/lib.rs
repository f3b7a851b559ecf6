//! Board types and rules of every game `sente` plays.
//!
//! This crate knows the rules and nothing else: no search, no I/O, no threads.
//! Each game lives in its own module.
//!
//! ```
//! use bitboards::othello::{Board, perft};
//!
//! let start = Board::start();
//! assert_eq!(start.moves().count_ones(), 4);
//! assert_eq!(perft(start, 5), 1396);
//! ```
#![deny(missing_docs)]

pub mod arch;
pub mod chaosclock;
pub mod go;
pub mod othello;
pub mod phantom;
mod player;
pub mod rng;

pub use player::{Outcome, Player};
