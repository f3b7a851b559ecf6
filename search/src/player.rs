//! [`Player`]: what chooses a move of a game, the one face every game's player shows
//! the front ends; [`AlphaBetaPlayer`] is the player of any [`Evaluate`] game (the
//! generic iterative-deepening search of [`crate::alphabeta`]).

use crate::alphabeta::{self, SearchResult};
use crate::game::{Evaluate, Game};
use crate::limits::{Limits, StopFlag};

/// The machine a player may use: the engine-wide `Threads` and `Hash` settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resources {
    /// Search threads.
    pub threads: usize,
    /// Memory for the search's tables, in MiB.
    pub hash_mb: usize,
}

impl Default for Resources {
    fn default() -> Self {
        Resources { threads: 1, hash_mb: 64 }
    }
}

/// Chooses moves of a game `G` within limits, reporting progress as it goes.
pub trait Player<G: Game>: Send {
    /// Forgets what it learned in the previous game (tables, history).
    fn new_game(&mut self) {}
    /// True when the player searches with more than one thread if given them (the
    /// front ends then offer `Threads`).
    fn uses_threads(&self) -> bool {
        false
    }
    /// True when the player's memory is bounded by [`Resources::hash_mb`] (the front
    /// ends then offer `Hash`).
    fn uses_hash(&self) -> bool {
        self.uses_threads()
    }
    /// Makes now what the next [`Player::choose`] at `game` with `resources` would
    /// make first (its tables, its book, its tree), so that the first move does not
    /// pay for it. Choosing calls it too, so a player must make nothing twice.
    fn prepare(&mut self, game: &G, resources: &Resources) {
        let _ = (game, resources);
    }
    /// The move to play at `game` within `limits`, stopping early when `stop` is
    /// raised; `report` is called with the progress (after each iteration of a
    /// deepening search). The result's `best_move` is `None` only when the game is
    /// over.
    fn choose(
        &mut self,
        game: &G,
        limits: &Limits,
        resources: &Resources,
        stop: &StopFlag,
        report: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
    ) -> SearchResult<G::Move>;
}

/// The player of any game with an evaluation: iterative-deepening alpha-beta.
#[derive(Clone, Copy, Debug, Default)]
pub struct AlphaBetaPlayer;

impl<G: Evaluate> Player<G> for AlphaBetaPlayer {
    fn choose(
        &mut self,
        game: &G,
        limits: &Limits,
        _resources: &Resources,
        stop: &StopFlag,
        report: &mut (dyn FnMut(&SearchResult<G::Move>) + Send),
    ) -> SearchResult<G::Move> {
        alphabeta::search(game, limits, stop, report)
    }
}
