//! Go on boards up to 9×9: a 128-bit bitboard board ([`Board`]), the game with
//! superko, undo and scoring ([`Game`]), every coordinate system ([`Point`]).

mod board;
mod coords;
mod fast;
mod game;
pub mod sgf;

pub use board::{Board, Color, Illegal, MAX_SIZE, bits, board_mask, flood, neighbours, stone_key};
pub use coords::{CoordError, LetterOrder, Point, STRIDE, points};
pub use fast::{Cell, FastBoard};
pub use game::{Game, Move, Score, Superko, UndoError, score};
