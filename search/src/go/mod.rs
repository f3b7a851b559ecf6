//! Go in the search crate: playouts and Monte-Carlo tree search.

mod game;
pub mod mcts;
pub mod playout;
