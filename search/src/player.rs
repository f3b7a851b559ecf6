//! [`Player`]: what chooses a move of a game, the one face every game's player shows
//! the front ends; [`AlphaBetaPlayer`] is the player of any [`Evaluate`] game (the
//! generic iterative-deepening search of [`crate::alphabeta`]).

use crate::alphabeta::{self, SearchResult};
use crate::game::{Evaluate, Game};
use crate::limits::{Limits, StopFlag};

/// Chooses moves of a game `G` within limits, reporting progress as it goes.
pub trait Player<G: Game>: Send {
    /// Forgets what it learned in the previous game (tables, history).
    fn new_game(&mut self) {}
    /// The move to play at `game` within `limits`, stopping early when `stop` is
    /// raised; `report` is called with the progress (after each iteration of a
    /// deepening search). The result's `best_move` is `None` only when the game is
    /// over.
    fn choose(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &StopFlag,
        report: &mut dyn FnMut(&SearchResult<G::Move>),
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
        stop: &StopFlag,
        report: &mut dyn FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        alphabeta::search(game, limits, stop, report)
    }
}
