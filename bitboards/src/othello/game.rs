//! A game record: the positions played so far, with undo and redo (seed 002 §12.2).
//! Once the game is over the record is frozen (seed 002 §8.4.6): undo and redo are
//! refused.

use thiserror::Error;

use super::position::{GameResult, IllegalMove, Position};
use super::rules::{Move, OthelloBoard};

/// A game from a starting position, with its moves, undo and redo.
#[derive(Clone, Debug)]
pub struct Game<B: OthelloBoard> {
    positions: Vec<Position<B>>,
    moves: Vec<Move>,
    redo: Vec<Move>,
}

/// Why undo or redo was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HistoryError {
    /// The game is over; its record is frozen.
    #[error("the game is over: undo and redo are not allowed")]
    GameOver,
    /// No move to take back.
    #[error("no move to undo")]
    NothingToUndo,
    /// No move to replay.
    #[error("no move to redo")]
    NothingToRedo,
}

impl<B: OthelloBoard> Game<B> {
    /// A new game from `start`.
    pub fn new(start: Position<B>) -> Self {
        Game { positions: vec![start], moves: Vec::new(), redo: Vec::new() }
    }

    /// The current position.
    pub fn position(&self) -> &Position<B> {
        self.positions.last().expect("a game always has its start position")
    }

    /// The starting position.
    pub fn start(&self) -> &Position<B> {
        &self.positions[0]
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays `mv`. A new move clears the redo list unless it is the move undone last.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let next = self.position().play(mv)?;
        self.positions.push(next);
        self.moves.push(mv);
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<Move, HistoryError> {
        if self.position().is_game_over() {
            return Err(HistoryError::GameOver);
        }
        let mv = self.moves.pop().ok_or(HistoryError::NothingToUndo)?;
        self.positions.pop();
        self.redo.push(mv);
        Ok(mv)
    }

    /// Replays the last move taken back.
    pub fn redo(&mut self) -> Result<Move, HistoryError> {
        if self.position().is_game_over() {
            return Err(HistoryError::GameOver);
        }
        let mv = *self.redo.last().ok_or(HistoryError::NothingToRedo)?;
        self.play(mv).expect("a move undone is legal again");
        Ok(mv)
    }

    /// True once neither side can move.
    pub fn is_over(&self) -> bool {
        self.position().is_game_over()
    }

    /// The result of a finished game.
    pub fn result(&self) -> Option<GameResult> {
        self.position().result()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::Board;

    fn sq(name: &str) -> Move {
        Move::parse(name, 8).unwrap()
    }

    #[test]
    fn undo_and_redo() {
        let mut g = Game::new(Position::<Board>::start());
        assert_eq!(g.undo(), Err(HistoryError::NothingToUndo));
        g.play(sq("d3")).unwrap();
        g.play(sq("c3")).unwrap();
        let after_two = *g.position();
        assert_eq!(g.undo(), Ok(sq("c3")));
        assert_eq!(g.undo(), Ok(sq("d3")));
        assert_eq!(g.position(), &Position::start());
        assert_eq!(g.redo(), Ok(sq("d3")));
        assert_eq!(g.redo(), Ok(sq("c3")));
        assert_eq!(g.position(), &after_two);
        assert_eq!(g.redo(), Err(HistoryError::NothingToRedo));
        g.undo().unwrap();
        g.play(sq("e3")).unwrap();
        assert_eq!(g.redo(), Err(HistoryError::NothingToRedo), "a new move clears redo");
        assert!(g.play(sq("a1")).is_err());
        assert_eq!(g.moves().len(), 2);
    }

    #[test]
    fn a_finished_game_is_frozen() {
        // The shortest game: black wipes white out in nine moves.
        let mut g = Game::new(Position::<Board>::start());
        for m in ["e6", "f4", "e3", "f6", "g5", "d6", "e7", "f5", "c5"] {
            g.play(sq(m)).unwrap();
        }
        assert!(g.is_over());
        let r = g.result().unwrap();
        assert_eq!((r.black, r.white), (13, 0));
        assert_eq!(g.undo(), Err(HistoryError::GameOver));
        assert_eq!(g.redo(), Err(HistoryError::GameOver));
        assert!(g.play(Move::Pass).is_err());
    }
}
