//! Go in the search crate: playouts, Monte-Carlo tree search and the end of the game.

pub mod analysis;
pub mod book;
pub mod endgame;
pub mod features;
mod game;
pub mod last_good_reply;
pub mod mcts;
pub mod move_model;
pub mod params;
pub mod player;
pub mod playout;
pub mod prior;
pub mod self_play;
pub mod tactics;
