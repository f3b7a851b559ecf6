//! Go in the search crate: playouts and Monte-Carlo tree search.

pub mod playout;
