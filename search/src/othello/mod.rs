//! Othello in the search crate: the [`Game`]/[`Evaluate`] binding for every board
//! size, its evaluation, and perft split over threads.

pub mod accuracy;
pub mod book;
mod context;
mod endgame;
mod eval;
mod hash;
mod local_table;
mod midgame;
mod moves;
mod parallel;
mod params;
pub mod patterns;
mod perft;
mod play;
mod player;
mod probcut;
mod solver;
mod stability;
pub mod train;
mod weights;

pub use book::Book;
pub use eval::{
    embedded_weights, eval_discs, eval_discs_after, eval_discs_from, evaluate, install_weights, is_trained,
};
pub use moves::final_score;
pub use params::{NULL_WINDOW_SPLIT_MIN_EMPTIES, PLAY_ENDGAME_GAP, SPLIT_MIN_EMPTIES};
pub use perft::{parallel_perft, parallel_perft_until};
pub use play::{ClockPlan, exact_reach, level_limits, plan_clock, think, think_limits};
pub use player::{BUILT_IN_BOOK, Choice, OthelloPlayer, Request, built_in_book};
pub use probcut::endcut_depth;
pub use solver::{Solution, SolveLimits, SolveMode, Solver, ThinkLimits, Thought};
pub use stability::stable_discs;

use bitboards::othello::{Move, OthelloBoard, Position};

use crate::game::{Evaluate, Game, Outcome, Player, Score};

/// Value of a proven win before the margin is added; beyond any heuristic value.
pub const WIN_VALUE: i32 = 100_000;

impl<B: OthelloBoard> Game for Position<B> {
    type Move = Move;

    fn to_move(&self) -> Player {
        self.side_to_move()
    }

    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self)
    }

    fn play(&self, mv: Move) -> Self {
        Position::play(self, mv).expect("search plays legal moves only")
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result().map(|r| match r.winner() {
            Some(c) => Outcome::Win(c),
            None => Outcome::Draw,
        })
    }

    fn hash(&self) -> u64 {
        self.zobrist()
    }

    fn move_name(&self, mv: Move) -> String {
        mv.name(B::SIZE)
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        Move::parse(text, B::SIZE).map_err(|e| e.to_string())
    }

    fn check_move(&self, mv: Move) -> Result<(), String> {
        Position::play(self, mv).map(|_| ()).map_err(|e| e.to_string())
    }

    fn moves_left_estimate(&self) -> u32 {
        self.board().empty_count().div_ceil(2).max(1)
    }
}

impl<B: OthelloBoard> Evaluate for Position<B> {
    fn evaluate(&self) -> i32 {
        evaluate(&self.board())
    }

    fn terminal_value(&self) -> i32 {
        let margin = self.board().final_score();
        margin.signum() * WIN_VALUE + 100 * margin
    }

    fn describe(value: i32) -> Score {
        if value.abs() >= WIN_VALUE {
            Score::Exact((value - value.signum() * WIN_VALUE) / 100)
        } else {
            Score::Centi(value)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Limits, StopFlag, alphabeta};
    use bitboards::othello::Board;

    #[test]
    fn finds_a_wipe_out() {
        // Black to move can play a move that wipes white out: c1 flips b1.
        let p = Position::<Board>::parse(&format!("XO{} X", "-".repeat(62))).unwrap();
        let r = alphabeta::search(&p, &Limits::depth(4), &StopFlag::new(), |_| {});
        assert_eq!(r.best_move, Some(Move::Play(2)));
        assert_eq!(r.score, Score::Exact(64));
    }

    #[test]
    fn conformance_on_every_size() {
        use crate::conformance::check_random_games;
        use bitboards::othello::{Board6, Board10};
        assert!(check_random_games(&Position::<Board>::start(), 50, 80, 1) > 2000);
        assert!(check_random_games(&Position::<Board6>::start(), 50, 40, 2) > 1000);
        assert!(check_random_games(&Position::<Board10>::start(), 20, 120, 3) > 1500);
    }

    #[test]
    fn plays_legal_moves_at_every_depth() {
        let p = Position::<Board>::start();
        for d in 1..=5 {
            let r = alphabeta::search(&p, &Limits::depth(d), &StopFlag::new(), |_| {});
            assert!(p.legal_moves().contains(&r.best_move.unwrap()));
            assert_eq!(r.depth, d);
        }
    }
}
