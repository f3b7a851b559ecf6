//! Chaos Clock in the search crate: the exact solvers (a proof search, and a
//! retrograde analysis of every reachable state, and the two together in `prove`)
//! and the player, with the numeric tunables of both in [`params`].

mod game;
pub mod params;
pub mod player;
pub mod prove;
pub mod retrograde;
pub mod solver;
pub mod state_table;
