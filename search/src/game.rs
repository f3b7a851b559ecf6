//! The game abstraction shared by the searches and the protocol front ends.

use std::fmt::Debug;

pub use bitboards::{Outcome, Player};

/// A position of a two-player game with perfect information, as the searches and
/// front ends see it. Positions are values: [`Game::play`] returns the next one.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move, cheap to copy.
    type Move: Copy + Eq + Debug + Send + Sync + 'static;

    /// The player to move.
    fn to_move(&self) -> Player;
    /// The legal moves (a forced pass is a move); empty once the game is over.
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// The position after `mv`, which must be legal.
    fn play(&self, mv: Self::Move) -> Self;
    /// The outcome once the game is over, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// A 64-bit hash of the position (for transposition tables and repetition).
    fn hash(&self) -> u64;
    /// The text of a move in the game's notation.
    fn move_name(&self, mv: Self::Move) -> String;
    /// Reads a move in the game's notation; the move need not be legal.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;
    /// `Ok` if `mv` is legal now, or why not (games override it to name the rule).
    fn check_move(&self, mv: Self::Move) -> Result<(), String> {
        if self.outcome().is_some() {
            Err("the game is over".to_string())
        } else if self.legal_moves().contains(&mv) {
            Ok(())
        } else {
            Err(format!("{} is not a legal move", self.move_name(mv)))
        }
    }
    /// A guess of how many moves the side to move still has to make (time management).
    fn moves_left_estimate(&self) -> u32 {
        30
    }
}

/// A score as the protocols report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// A heuristic value in centi-units (centi-discs in Othello).
    Centi(i32),
    /// A proven final margin (discs in Othello), from the side to move.
    Exact(i32),
}

/// A zero-sum game with a heuristic evaluation, for alpha-beta.
pub trait Evaluate: Game {
    /// Heuristic value for the side to move; larger is better.
    fn evaluate(&self) -> i32;
    /// Exact value of a finished game for the side to move; must lie outside the
    /// heuristic range so that proven results dominate.
    fn terminal_value(&self) -> i32;
    /// Turns a search value into a reportable score.
    fn describe(value: i32) -> Score {
        Score::Centi(value)
    }
}
