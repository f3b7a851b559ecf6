//! Othello's face to the arena: the start, the exact solver's adjudication at the
//! game option `solve_empties`, the GGF record as GGS writes it.

use std::sync::atomic::AtomicBool;

use bitboards::othello::{Board, Color, OthelloBoard, Position};
use bitboards::{Outcome, Player};
use search::StopFlag;
use search::othello::{SolveLimits, SolveMode, Solver};

use super::{ArenaGame, Ending, GameOptions, Judge, MoveStat, RefereeRules, stat_at};
use crate::games::session::PerftJob;

/// The game option (arena `--solve-empties`): the empties at which the arena's
/// referee ends a game with the exact solver; 0 or not given: never.
pub const SOLVE_EMPTIES: &str = "solve_empties";

/// The empties at which `options` have the referee solve (0: never, as when not
/// given), or why their value does not read.
pub fn solve_empties(options: &GameOptions) -> Result<u32, String> {
    Ok(options.parse(SOLVE_EMPTIES)?.unwrap_or(0))
}

impl<B: OthelloBoard> ArenaGame for Position<B> {
    fn from_opening(_rules: &RefereeRules, start: Option<&str>) -> Result<Self, String> {
        match start {
            None => Ok(Position::start()),
            Some(text) => Position::parse(text).map_err(|e| format!("not an Othello position '{text}': {e}")),
        }
    }

    fn text(&self) -> String {
        self.to_string()
    }

    fn draw(&self) -> String {
        Position::draw(self)
    }

    /// Black's disc margin: the final one once the game is over, the discs on the
    /// board before.
    fn margin(&self) -> Option<f64> {
        Some(match self.result() {
            Some(r) => r.black_margin(),
            None => self.count(Color::BLACK) as i32 - self.count(Color::WHITE) as i32,
        } as f64)
    }

    fn perft_job(&self, depth: u32, threads: usize) -> Result<PerftJob, String> {
        let board = self.board();
        Ok(Box::new(move |stop: &StopFlag| {
            search::othello::parallel_perft_until(board, depth, threads, stop.as_atomic())
        }))
    }

    /// The exact solver ends the game at the game option `solve_empties` empties
    /// (on the 8×8 board; never when it is 0 or not given).
    fn adjudicate(&self, judge: &mut Judge, rules: &RefereeRules, _moves: usize) -> Option<Ending> {
        let empties = self.board().empty_count();
        // The value was read when the referee was made.
        let solve_empties = solve_empties(&rules.options).unwrap_or(0);
        if empties > solve_empties || B::SIZE != 8 {
            return None;
        }
        // 16 MiB of table, one thread.
        let solver = judge.get_or_insert_with(|| Solver::new(16, 1));
        let board = (0..64).fold(Board::empty(), |b, sq| b.with_disc(sq, self.board().disc(sq)));
        let s = solver.solve(board, SolveMode::Exact, &AtomicBool::new(false), SolveLimits::default())?;
        let black_margin = if self.side_to_move() == Player::BLACK { s.score } else { -s.score };
        Some(Ending {
            outcome: Outcome::of_margin(black_margin.into()),
            reason: format!("adjudicated by the exact solver at {empties} empties"),
            score: Some(format!("black {black_margin:+} with perfect play")),
        })
    }

    fn final_ending(&self, outcome: Outcome) -> Ending {
        let score = self.result().map(|r| {
            let (b, w) = r.wof_counts();
            format!("{b}-{w}")
        });
        Ending { outcome, reason: "game over".into(), score }
    }

    fn ggf_board(&self) -> String {
        let text = self.to_string();
        let (squares, side) = text.split_once(' ').unwrap_or((&text, "X"));
        let squares: String = squares.chars().map(|c| if c == 'X' { '*' } else { c }).collect();
        format!("{} {squares} {}", B::SIZE, if side == "X" { '*' } else { 'O' })
    }

    /// GGF; GGS writes black's final margin, a game ended otherwise has `RE[?]` and
    /// its outcome in the comment.
    fn record(
        &self,
        start: &Self,
        names: [&str; 2],
        moves: &[String],
        plies: &[MoveStat],
        ending: &Ending,
    ) -> (&'static str, String) {
        let result = self.result().map_or("?".to_string(), |r| format!("{:+}.000", r.black_margin()));
        let mut text = format!(
            "(;GM[Othello]PC[sente arena]PB[{}]PW[{}]RE[{result}]TY[{}]GC[{}: {}]BO[{}]",
            esc(names[0]),
            esc(names[1]),
            B::SIZE,
            ending.outcome.result_text(),
            esc(&ending.reason),
            start.ggf_board()
        );
        let mut black = start.side_to_move() == Player::BLACK;
        for (ply, m) in moves.iter().enumerate() {
            let mut t = if m == "pass" { "PA".to_string() } else { m.to_ascii_uppercase() };
            // GGS's move/eval/time: the engine's eval for the mover (empty when it gave
            // none) and the seconds it took; opening moves have neither.
            if let Some(stat) = stat_at(plies, ply) {
                let eval = stat.score.map_or(String::new(), |e| format!("{e:.2}"));
                t.push_str(&format!("/{eval}/{:.3}", stat.ms as f64 / 1000.0));
            }
            text.push_str(&format!("{}[{t}]", if black { "B" } else { "W" }));
            black = !black;
        }
        text.push_str(";)");
        ("ggf", text)
    }
}

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;
    use crate::games::referee::Refereed;

    /// The referee of an Othello game played to `empties` empties by the first legal
    /// move each time, under `rules`.
    fn othello_referee_at(rules: &RefereeRules, empties: usize) -> (Box<dyn Refereed>, usize) {
        let mut referee = GameKind::OTHELLO.new_referee(rules, None).expect("a referee");
        let mut moves = 0;
        while 60 - moves > empties {
            let legal = referee.legal_moves();
            let mv = legal.first().map_or("pass".to_string(), Clone::clone);
            referee.play(&mv).expect("a legal move");
            moves += usize::from(mv != "pass");
        }
        (referee, moves)
    }

    #[test]
    fn othello_is_adjudicated_by_its_own_option_only() {
        let plain = RefereeRules::plain(8, 200);
        let solving = RefereeRules { options: GameOptions::default().with(SOLVE_EMPTIES, 14), ..plain.clone() };
        let (mut referee, moves) = othello_referee_at(&solving, 15);
        assert_eq!(referee.ending(moves), None, "15 empties: played on");
        let (mut referee, moves) = othello_referee_at(&solving, 14);
        let ending = referee.ending(moves).expect("adjudicated at 14 empties");
        assert!(ending.reason.contains("exact solver at 14 empties"), "{}", ending.reason);
        let (mut referee, moves) = othello_referee_at(&plain, 14);
        assert_eq!(referee.ending(moves), None, "no option: never adjudicated");
        let zero = RefereeRules { options: GameOptions::default().with(SOLVE_EMPTIES, 0), ..plain.clone() };
        let (mut referee, moves) = othello_referee_at(&zero, 14);
        assert_eq!(referee.ending(moves), None, "0: never adjudicated");
        let bad = RefereeRules { options: GameOptions::default().with(SOLVE_EMPTIES, "x"), ..plain };
        let why = GameKind::OTHELLO.new_referee(&bad, None).err().expect("a bad option is refused");
        assert!(why.contains(SOLVE_EMPTIES), "{why}");
    }
}
