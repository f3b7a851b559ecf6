//! Go's face to the arena: a start board, scoring at the move cap and at the end with
//! the one dead-stone judgement (or the engines' dead stones), the SGF record.

use bitboards::go::{self, Point, Superko};
use bitboards::{Outcome, Player};
use search::go::endgame::judge;

use super::{ArenaGame, Ending, Judge, MoveStat, RefereeRules, stat_at};

impl ArenaGame for go::Game {
    const ASKS_DEAD_STONES: bool = true;

    /// A start position is a board in our text form (rows from the top, `/` between
    /// them), black to move; the arena's openings are move sequences from the empty
    /// board, the compliance checks' positions are boards.
    fn from_opening(rules: &RefereeRules, start: Option<&str>) -> Result<Self, String> {
        let board = match start {
            Some(text) => go::parse_board_text(text)?,
            None if !(2..=go::MAX_SIZE).contains(&rules.size) => {
                return Err(format!("Go board size {} is not supported (2..{})", rules.size, go::MAX_SIZE));
            }
            None => go::Board::new(rules.size),
        };
        Ok(go::Game::new(board, rules.komi, Superko::Positional))
    }

    fn text(&self) -> String {
        go::board_text(self.board())
    }

    /// At the move cap the game is scored as it stands.
    fn adjudicate(&self, _judge: &mut Judge, rules: &RefereeRules, moves: usize) -> Option<Ending> {
        (moves >= rules.max_moves).then(|| {
            let score = self.score(judge_dead(self));
            Ending {
                outcome: Outcome::of_margin(score.margin()),
                reason: format!("move cap ({} moves): scored as it stands", rules.max_moves),
                score: Some(score.result()),
            }
        })
    }

    /// Two passes: area scoring after the arena's dead stones are removed.
    fn final_ending(&self, _outcome: Outcome) -> Ending {
        let score = self.score(judge_dead(self));
        Ending {
            outcome: Outcome::of_margin(score.margin()),
            reason: "two passes: area scoring".into(),
            score: Some(score.result()),
        }
    }

    fn dead_vertices(&self) -> Vec<String> {
        let size = self.board().size();
        let dead = judge_dead(self);
        let mut v: Vec<String> = go::points(size).filter(|p| dead & p.bit() != 0).map(|p| p.to_gtp(size)).collect();
        v.sort();
        v
    }

    fn score_with_dead(&self, dead: &[String]) -> Option<Ending> {
        let size = self.board().size();
        let mut bits = 0u128;
        for v in dead {
            bits |= Point::from_gtp(v, size).ok()?.bit();
        }
        let score = self.score(bits);
        Some(Ending {
            outcome: Outcome::of_margin(score.margin()),
            reason: "two passes: area scoring".into(),
            score: Some(score.result()),
        })
    }

    fn record(
        &self,
        _start: &Self,
        names: [&str; 2],
        _moves: &[String],
        plies: &[MoveStat],
        ending: &Ending,
    ) -> (&'static str, String) {
        let sgf = go::sgf::SgfGame {
            size: self.board().size(),
            komi: Some(self.komi()),
            rules: Some("Chinese".into()),
            black: Some(names[0].to_string()),
            white: Some(names[1].to_string()),
            result: Some(match ending.outcome {
                Outcome::Draw => "0".to_string(),
                Outcome::Win(Player::One) if ending.score.as_deref().is_none_or(|s| !s.starts_with("B+")) => {
                    "B+R".to_string()
                }
                Outcome::Win(Player::Two) if ending.score.as_deref().is_none_or(|s| !s.starts_with("W+")) => {
                    "W+R".to_string()
                }
                _ => ending.score.clone().unwrap_or_default(),
            }),
            comment: Some(ending.reason.clone()),
            moves: self.moves().to_vec(),
            move_comments: (0..self.moves().len()).map(|ply| stat_at(plies, ply).map(MoveStat::annotation)).collect(),
            ..Default::default()
        };
        ("sgf", go::sgf::write(&sgf))
    }
}

/// The stones the arena judges dead at the end of a Go game: sente's one judgement,
/// as our `final_status_list` gives it (stones in seki are never dead).
fn judge_dead(g: &go::Game) -> u128 {
    judge(g.board()).dead
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_referee_keeps_the_seki_that_final_status_list_keeps() {
        // The seki of tests/gtp_go.rs (GNU Go 3.8 reports it too): the referee and
        // `final_status_list` use one judgement and agree that nothing is dead.
        let board = go::parse_board_text(
            ".OX.OX.../.OX.OX.../.OXXOX.../.OOOXX.../...OX..../...OX..../...OX..../...OX..../...OX....",
        )
        .expect("a board");
        let game = go::Game::new(board, 7.0, Superko::Positional);
        assert!(game.dead_vertices().is_empty(), "{:?}", game.dead_vertices());
        let ending = game.final_ending(Outcome::Draw);
        assert_eq!(ending.reason, "two passes: area scoring");
    }
}
