//! Go as a [`Game`]: the searches, the conformance suite and the arena see a
//! [`go::Game`] (board, history, superko, komi) through the same trait as every game.

use bitboards::go::{self, Move};

use crate::game::{Game, Outcome, Player};

/// Mixed into the hash when white is to move, so that a pass changes it.
const WHITE_TO_MOVE: u64 = 0x5BD1_E995_3C6E_F372;
/// Mixed into the hash per pass in a row (the game ends after two).
const PASS_KEY: u64 = 0x2545_F491_4F6C_DD1D;

impl Game for go::Game {
    type Move = Move;

    fn to_move(&self) -> Player {
        self.board().to_move()
    }

    /// Every legal point (superko included) and the pass; nothing after two passes.
    fn legal_moves(&self) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        let mut moves: Vec<Move> = go::bits(self.legal_points(self.to_move())).map(Move::Play).collect();
        moves.push(Move::Pass);
        moves
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = self.clone();
        go::Game::play(&mut next, self.to_move(), mv).expect("Game::play takes a legal move");
        next
    }

    /// After two passes: the area count with komi and every stone on the board alive
    /// (Tromp-Taylor). Front ends that judge dead stones first score on their own.
    fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| Outcome::of_margin(self.score(0).margin()))
    }

    /// The stones (as superko sees them), the side to move, the ko point and the
    /// passes in a row.
    fn hash(&self) -> u64 {
        let board = self.board();
        let mut key = board.hash() ^ u64::from(board.passes().min(2)).wrapping_mul(PASS_KEY);
        if board.to_move() == Player::WHITE {
            key ^= WHITE_TO_MOVE;
        }
        if let Some(ko) = board.ko() {
            key ^= bitboards::rng::splitmix64(u64::from(ko.0) ^ 0x6B6F);
        }
        key
    }

    fn move_name(&self, mv: Move) -> String {
        mv.to_gtp(self.board().size())
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        Move::from_gtp(text, self.board().size()).map_err(|e| e.to_string())
    }

    fn check_move(&self, mv: Move) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over".to_string());
        }
        self.check(self.to_move(), mv).map(|_| ()).map_err(|e| e.to_string())
    }

    fn moves_left_estimate(&self) -> u32 {
        (self.board().empty().count_ones() / 3).max(10)
    }
}

#[cfg(test)]
mod tests {
    use bitboards::go::{Board, Superko};

    use super::*;
    use crate::conformance::check_random_games;

    #[test]
    fn go_keeps_the_game_contract() {
        for (size, games, plies, seed) in [(5, 30, 80, 1), (7, 20, 120, 2), (9, 10, 200, 3)] {
            let start = go::Game::new(Board::new(size), 7.5, Superko::Positional);
            assert!(check_random_games(&start, games, plies, seed) > games * 20, "{size}x{size}");
        }
    }

    #[test]
    fn two_passes_end_the_game_and_komi_decides_an_empty_board() {
        let start = go::Game::new(Board::new(5), 0.5, Superko::Positional);
        let over = start.play(Move::Pass).play(Move::Pass);
        assert!(over.legal_moves().is_empty());
        assert_eq!(over.outcome(), Some(Outcome::Win(Player::WHITE)));
    }
}
