//! Go on boards up to 9×9: a 128-bit bitboard board ([`Board`]), the game with
//! superko, undo and scoring ([`Game`]), every coordinate system ([`Point`]), and the
//! formats beside the rules: SGF, the UGI+ position text, perft.

mod board;
mod coords;
mod fast;
mod game;
mod perft;
pub mod sgf;
mod text;

pub use board::{Board, Color, Illegal, MAX_SIZE, SetupError, bits, board_mask, flood, neighbours, stone_key};
pub use coords::{CoordError, LetterOrder, Point, STRIDE, points};
pub use fast::{Cell, FastBoard};
pub use game::{Game, Move, Score, Superko, UndoError, score};
pub use perft::perft;
pub use text::{MAX_KOMI, board_text, parse_board_text, parse_komi};
