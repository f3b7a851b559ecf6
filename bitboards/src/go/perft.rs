//! Perft for Go: the number of move sequences of a given length (every legal point
//! and the pass at each ply; a finished game is one leaf), to check the rules.

use super::board::bits;
use super::game::{Game, Move};

/// The move sequences of `depth` plies from `game` (superko included).
pub fn perft(game: &Game, depth: u32) -> u64 {
    fn count(game: &mut Game, depth: u32) -> u64 {
        if depth == 0 || game.is_over() {
            return 1;
        }
        let color = game.board().to_move();
        let mut total = 0;
        let moves: Vec<Move> = bits(game.legal_points(color)).map(Move::Play).chain([Move::Pass]).collect();
        for m in moves {
            game.play(color, m).expect("a legal move");
            total += count(game, depth - 1);
            game.undo().expect("just played");
        }
        total
    }
    count(&mut game.clone(), depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::{Board, Superko};

    #[test]
    fn the_empty_board_counts_every_point_and_the_pass() {
        let game = Game::new(Board::new(3), 7.5, Superko::Positional);
        assert_eq!(perft(&game, 1), 10);
        // After two passes the game is over: one leaf.
        let mut over = game.clone();
        over.play(crate::Player::BLACK, Move::Pass).unwrap();
        over.play(crate::Player::WHITE, Move::Pass).unwrap();
        assert_eq!(perft(&over, 3), 1);
    }
}
