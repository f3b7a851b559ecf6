//! Self-play games for the move model's training ([`super::move_model`]): the
//! engine's MCTS against itself at a fixed number of playouts a move. Apart from the
//! model, which the MCTS uses for its priors, so that the model does not depend on it.

use bitboards::go::{Board, Game, MAX_SIZE, Move, Superko};
use bitboards::rng::splitmix64;

use super::mcts::{Mcts, MctsSettings};
use crate::{Limits, StopFlag};

/// Plays a game on an empty board of side `size` with `komi` by this crate's MCTS, one
/// thread and `playouts` playouts a move, each search seeded from `seed` and the move
/// number (so the same arguments give the same game), until two passes in a row or
/// `2 × size²` moves; returns its moves. With `move_model` the searches' priors use the
/// built-in move model (as the engine's do by default), without it only the hand-set
/// priors.
pub fn self_play_game(size: usize, komi: f64, playouts: u64, seed: u64, move_model: bool) -> Result<Vec<Move>, String> {
    if !(2..=MAX_SIZE).contains(&size) {
        return Err(format!("board size {size}: 2 to {MAX_SIZE}"));
    }
    let mut game = Game::new(Board::new(size), komi, Superko::Positional);
    let settings = MctsSettings { threads: 1, move_model, ..MctsSettings::default() };
    let limits = Limits { nodes: Some(playouts.max(1)), ..Limits::default() };
    let stop = StopFlag::new();
    let mut moves = Vec::new();
    while !game.is_over() && moves.len() < 2 * size * size {
        let color = game.board().to_move();
        let move_seed = splitmix64(seed ^ splitmix64(moves.len() as u64));
        let mut tree = Mcts::new(&game, move_seed).with_settings(settings);
        let best = tree.search(&limits, &stop, color).best;
        game.play(color, best).map_err(|e| format!("the search chose an illegal move {}: {e}", best.to_gtp(size)))?;
        moves.push(best);
    }
    Ok(moves)
}
