//! Chaos Clock as a [`Game`]: a [`Record`] (the state and the history that decides
//! the repetition rule) seen through the trait every game shares.

use bitboards::chaosclock::{Move, Record};

use super::params::CLOCK_MOVES_LEFT;
use crate::game::{Game, Outcome, Player};

impl Game for Record {
    type Move = Move;

    fn to_move(&self) -> Player {
        self.state().to_move()
    }

    fn legal_moves(&self) -> Vec<Move> {
        if self.state().outcome().is_some() {
            return Vec::new();
        }
        self.state().legal_moves()
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = self.clone();
        Record::play(&mut next, mv).expect("Game::play takes a legal move");
        next
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state().outcome()
    }

    /// The packed state (it holds the side to move, the last walked piece and the
    /// outcome), mixed so that nearby keys spread over a table.
    fn hash(&self) -> u64 {
        bitboards::rng::splitmix64(self.state().key())
    }

    fn move_name(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        Move::parse(text)
    }

    fn check_move(&self, mv: Move) -> Result<(), String> {
        self.next_state(mv).map(|_| ()).map_err(|e| e.to_string())
    }

    fn moves_left_estimate(&self) -> u32 {
        CLOCK_MOVES_LEFT
    }
}

#[cfg(test)]
mod tests {
    use bitboards::chaosclock::random_opening;

    use super::*;
    use crate::conformance::check_random_games;

    #[test]
    fn chaos_clock_keeps_the_game_contract() {
        for seed in 0..20 {
            let start = Record::new(random_opening(seed));
            assert!(check_random_games(&start, 5, 200, seed) >= 5, "opening {seed}");
        }
    }
}
