//! A game record: the states played through, which decides the rule that needs the
//! history (a repeated state ends the game, both losing), and undo.

use std::collections::HashSet;

use super::rules::{Move, MoveError, State};
use crate::Outcome;

/// A game from a start position, with its history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    states: Vec<State>,
    moves: Vec<Move>,
    seen: HashSet<State>,
}

impl Record {
    /// A game from `start`.
    pub fn new(start: State) -> Record {
        Record { states: vec![start], moves: Vec::new(), seen: HashSet::from([start]) }
    }

    /// The current state.
    pub fn state(&self) -> State {
        *self.states.last().expect("a record has a start")
    }

    /// Every state of the game so far, the current one last.
    pub fn states(&self) -> &[State] {
        &self.states
    }

    /// The states before the current one, oldest first (what a solver needs to know
    /// for the repetition rule).
    pub fn history(&self) -> &[State] {
        &self.states[..self.states.len() - 1]
    }

    /// The start.
    pub fn start(&self) -> State {
        self.states[0]
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The state after `mv` given this history: a repetition of an earlier state ends
    /// the game with both losing.
    pub fn next_state(&self, mv: Move) -> Result<State, MoveError> {
        let next = self.state().play(mv)?;
        if next.outcome().is_none() && self.seen.contains(&next) {
            return Ok(next.with_outcome(Outcome::BothLose));
        }
        Ok(next)
    }

    /// Plays `mv`.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        let next = self.next_state(mv)?;
        self.states.push(next);
        self.seen.insert(next);
        self.moves.push(mv);
        Ok(())
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        let gone = self.states.pop().expect("one state per move and the start");
        self.seen.remove(&gone);
        Some(mv)
    }

    /// True if `state` occurred in this game.
    pub fn has_seen(&self, state: &State) -> bool {
        self.seen.contains(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chaosclock::{Side, random_opening};

    #[test]
    fn a_repetition_ends_in_both_lose() {
        // Piece 6 alone on point 1. 乙 walks it round the clock (1 → 7 → 1 → 7) while
        // 甲 passes in between; the fifth move recreates the state after the first.
        let start = State::parse("6,0,0,0,0,0,0,0,0,0,0,0 Y 0").unwrap();
        let mut r = Record::new(start);
        r.play(Move::Walk(6)).unwrap(); // 6 on 7, 甲 to move, 6 just walked
        r.play(Move::Pass).unwrap();
        r.play(Move::Walk(6)).unwrap(); // 6 on 1
        r.play(Move::Pass).unwrap();
        assert_eq!(r.state().outcome(), None);
        r.play(Move::Walk(6)).unwrap(); // 6 on 7, 甲 to move, 6 just walked: seen before
        assert_eq!(r.state().outcome(), Some(Outcome::BothLose), "{}", r.state());
        assert_eq!(r.state().to_move(), Side::JIA);
    }

    #[test]
    fn undo_restores_the_state() {
        let mut r = Record::new(random_opening(3));
        let before = r.state();
        let mv = before.legal_moves()[0];
        r.play(mv).unwrap();
        assert_eq!(r.undo(), Some(mv));
        assert_eq!(r.state(), before);
        assert_eq!(r.state().key(), before.key());
        assert_eq!(r.undo(), None);
        assert!(!r.has_seen(&before.play(mv).unwrap()), "undo forgets the state for repetition");
    }
}
