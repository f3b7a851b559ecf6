//! What the referee tells each player, message by message: the record a player could
//! keep of its own game, and what a front end turns into protocol lines (`accept`,
//! `refuse`, `take`, `taked`, `move go`, `move pass` on the competition platform).

use crate::go::{Color, Move, Point};

/// One message from the referee to one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The player's try was accepted (a stone, or its own pass).
    Accepted(Move),
    /// The player's try on this point was refused; it tries again unless
    /// [`Notice::TurnPassed`] follows.
    Refused(Point),
    /// OpenSpiel: after a refused try, what stands on the point.
    Shown {
        /// The point tried.
        point: Point,
        /// Its stone, if any.
        stone: Option<Color>,
    },
    /// The referee turned the player's turn into a pass (CCGC rule 7, or the bound on
    /// illegal tries).
    TurnPassed,
    /// The opponent's move was accepted (a stone somewhere).
    OpponentMoved,
    /// The opponent passed (by choice or forced).
    OpponentPassed,
    /// The player's move captured `count` stones; `points` are told in CCGC (rule 5),
    /// not in OpenSpiel (0 there).
    Took {
        /// How many.
        count: u32,
        /// Where, when told.
        points: u128,
    },
    /// These stones of the player were captured.
    Lost {
        /// The points.
        points: u128,
    },
}
