//! Othello (Reversi) under WOF rules, seed 002.
//!
//! The 8×8 game runs on two `u64` words seen from the side to move ([`Board`]);
//! 6×6 and 10×10 share the rules through [`SizedBoard`]. [`Position`] adds the colour to
//! move, passes, results and the OBF text form; [`Game`] keeps the history for undo
//! and redo.
//!
//! Squares: `a1` top-left, bit index = row × size + column.
//!
//! ```
//! use bitboards::othello::{Board, Move, Position};
//!
//! let start = Position::<Board>::start();
//! let after = start.play(Move::parse("d3", 8).unwrap()).unwrap();
//! assert_eq!(after.to_string(), "-------------------X-------XX------XO--------------------------- O");
//! ```

mod board;
pub mod flips;
mod game;
pub mod geometry;
pub mod ggf;
pub mod movegen;
mod perft;
mod position;
mod rules;
mod sized;
pub mod zobrist;

pub use board::{Board, mirror_horizontal, squares, transpose};
pub use game::{Game, HistoryError};
pub use perft::{PUBLISHED_PERFT, perft, perft_dumb7fill, perft_generic};
pub use position::{GameResult, IllegalMove, Position, PositionParseError, color_name};
pub use rules::{Color, Move, MoveParseError, OthelloBoard, Owner};
pub use sized::{Board6, Board10, SizedBoard};
