//! Go in the search crate: playouts and Monte-Carlo tree search.

pub mod mcts;
pub mod playout;
