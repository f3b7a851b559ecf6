//! What every Othello board size shares: the [`OthelloBoard`] trait, colours, moves
//! and their text form.

use std::fmt::Debug;
use std::hash::Hash;

use thiserror::Error;

use crate::Player;

/// Which side a disc belongs to, seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    /// A disc of the side to move.
    Player,
    /// A disc of the other side.
    Opponent,
}

/// The rules of one board size. Implemented by the 8×8 [`super::Board`] and by
/// [`super::SizedBoard`] for 6×6 and 10×10. Boards are seen from the side to move and
/// copied on every move.
pub trait OthelloBoard: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// Side length of the board.
    const SIZE: usize;
    /// The starting position (black to move).
    fn start() -> Self;
    /// A board with no discs.
    fn empty() -> Self;
    /// Who holds square `sq` (row × SIZE + column).
    fn disc(&self, sq: usize) -> Option<Owner>;
    /// The same board with square `sq` set to `owner`.
    fn with_disc(self, sq: usize, owner: Option<Owner>) -> Self;
    /// The legal moves of the side to move, in increasing square order.
    fn legal_squares(&self) -> Vec<u8>;
    /// Number of legal moves of the side to move.
    fn mobility(&self) -> u32;
    /// The board after the side to move plays `sq`, `None` if that is illegal.
    fn play(&self, sq: u8) -> Option<Self>;
    /// The board after the side to move passes.
    fn pass(&self) -> Self;
    /// Discs of the side to move.
    fn player_count(&self) -> u32;
    /// Discs of the other side.
    fn opponent_count(&self) -> u32;
    /// A 64-bit hash of the discs, side-relative.
    fn zobrist(&self) -> u64;

    /// True when the side to move has a legal move.
    fn can_move(&self) -> bool {
        self.mobility() > 0
    }
    /// True when neither side can move.
    fn is_game_over(&self) -> bool {
        !self.can_move() && !self.pass().can_move()
    }
    /// Number of empty squares.
    fn empty_count(&self) -> u32 {
        (Self::SIZE * Self::SIZE) as u32 - self.player_count() - self.opponent_count()
    }
    /// WOF final score for the side to move (empties go to the winner).
    fn final_score(&self) -> i32 {
        let diff = self.player_count() as i32 - self.opponent_count() as i32;
        let empties = self.empty_count() as i32;
        match diff.signum() {
            1 => diff + empties,
            -1 => diff - empties,
            _ => 0,
        }
    }
}

/// Black (plays first, `X`) or white (`O`): the shared [`Player`] type, named
/// [`Player::BLACK`] and [`Player::WHITE`] here.
pub type Color = Player;

impl Player {
    /// `X` for black, `O` for white (the OBF letters of Othello).
    pub const fn disc_letter(self) -> char {
        match self {
            Player::One => 'X',
            Player::Two => 'O',
        }
    }
}

/// A move: a square (row × size + column) or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Put a disc on this square.
    Play(u8),
    /// Pass (only legal without any other move, and before the game ends).
    Pass,
}

/// A move or square written wrongly.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveParseError {
    /// Not of the form letter + number.
    #[error("'{0}' is not a move: expected a square such as d3, or pass")]
    Syntax(String),
    /// A square outside the board.
    #[error("'{text}' is off the {size}x{size} board")]
    OffBoard {
        /// The text received.
        text: String,
        /// The board's side length.
        size: usize,
    },
}

impl Move {
    /// Reads `a1`.. (`a1` top-left, letters for columns, numbers for rows) or a pass
    /// (`pass`, `PA`, `PS`, `@@`), case-insensitively.
    pub fn parse(text: &str, size: usize) -> Result<Move, MoveParseError> {
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        if matches!(lower.as_str(), "pass" | "pa" | "ps" | "@@" | "--") {
            return Ok(Move::Pass);
        }
        let syntax = || MoveParseError::Syntax(t.to_string());
        let mut chars = lower.chars();
        let col = chars.next().ok_or_else(syntax)?;
        if !col.is_ascii_lowercase() {
            return Err(syntax());
        }
        let row: usize = chars.as_str().parse().map_err(|_| syntax())?;
        let col = (col as u8 - b'a') as usize;
        if row == 0 || row > size || col >= size {
            return Err(MoveParseError::OffBoard { text: t.to_string(), size });
        }
        Ok(Move::Play(((row - 1) * size + col) as u8))
    }

    /// The move's text on a board of side `size`: `d3`, `j10`, `pass`.
    pub fn name(self, size: usize) -> String {
        match self {
            Move::Pass => "pass".to_string(),
            Move::Play(sq) => {
                let sq = sq as usize;
                format!("{}{}", (b'a' + (sq % size) as u8) as char, sq / size + 1)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_text_round_trip() {
        for size in [6, 8, 10] {
            for sq in 0..(size * size) as u8 {
                let m = Move::Play(sq);
                assert_eq!(Move::parse(&m.name(size), size), Ok(m));
            }
        }
        assert_eq!(Move::parse("D3", 8), Ok(Move::Play(19)));
        assert_eq!(Move::parse("j10", 10), Ok(Move::Play(99)));
        for pass in ["pass", "PA", "ps", "@@"] {
            assert_eq!(Move::parse(pass, 8), Ok(Move::Pass));
        }
        assert!(matches!(Move::parse("i1", 8), Err(MoveParseError::OffBoard { .. })));
        assert!(matches!(Move::parse("a9", 8), Err(MoveParseError::OffBoard { .. })));
        assert!(matches!(Move::parse("a0", 8), Err(MoveParseError::OffBoard { .. })));
        assert!(matches!(Move::parse("", 8), Err(MoveParseError::Syntax(_))));
        assert!(matches!(Move::parse("3d", 8), Err(MoveParseError::Syntax(_))));
        assert!(matches!(Move::parse("é3", 8), Err(MoveParseError::Syntax(_))));
    }
}
