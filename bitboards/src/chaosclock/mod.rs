//! Chaos Clock (混乱时钟), seed 003.
//!
//! Twelve points on a clock face hold pieces 1..12, dealt so that none stands on its
//! own number. 甲 (Jia) owns the odd pieces, 乙 (Yi) the even ones; 乙 moves first. A
//! move is a **walk** (any piece on the board that is not on its own number, `n` steps
//! clockwise, capturing what it lands on; not onto a piece on its own number; not the
//! piece walked by the move just before; piece 12 walking its 12 steps leaves the
//! board for 乙's hand), a **place** (a piece from one's hand onto its own number,
//! capturing what stands there; capturing an opponent's piece this way gives another
//! move), or a **pass**. Captured odd pieces go to 甲's hand, even ones to 乙's. A piece
//! on its own number is fixed for good.
//!
//! **End.** When a player has all six pieces fixed, the other player has exactly one
//! more move: if that move fixes its last piece too, both win; otherwise the first
//! wins. A player who completes with a placement that captures an opponent's piece
//! wins at once. Two passes in a row: both lose. A state that repeats one earlier in the
//! game ends it with both losing: play that never completes is a loss for both (seed
//! 003: "if neither can bring its pieces home, both lose"), and the repetition is how a
//! finite game record sees it ([`Record`]).
//!
//! **Text.** A position is the piece on each point 1..12 (0 for none), comma-separated,
//! then the side to move (`Y` 乙, `J` 甲), then the piece the previous move walked (0 if
//! it was not a walk), then optional flags: `x` the mover is on an extra move, `p` the
//! previous move was a pass, `cJ`/`cY` that player completed and the other has one
//! move left. Example: `3,5,1,12,4,2,11,10,6,7,9,8 Y 0`. Moves are `w5` (walk piece 5),
//! `p5` (place piece 5) and `pass`.

mod record;
mod rules;

pub use crate::{Outcome, Player};
pub use record::Record;
pub use rules::{Move, MoveError, ParseError, Side, State, random_opening};
