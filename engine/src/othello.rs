//! Othello behind the [`GameSession`] interface, for every board size.

use bitboards::othello::{Color, Move, OthelloBoard, Position};
use protocol::ugi::StartPosition;
use search::{Game, Limits, Outcome, StopFlag, alphabeta};

use crate::session::{GameSession, Report, SearchJob, SearchOptions, SearchOutcome};

/// An Othello game on a board of type `B` (8×8, 6×6 or 10×10).
pub struct OthelloSession<B: OthelloBoard> {
    position: Position<B>,
}

impl<B: OthelloBoard> OthelloSession<B> {
    /// A session at the starting position.
    pub fn new() -> Self {
        OthelloSession {
            position: Position::start(),
        }
    }
}

impl<B: OthelloBoard> Default for OthelloSession<B> {
    fn default() -> Self {
        Self::new()
    }
}

/// Plays `moves` (text) from `start`, naming the first bad one.
pub fn play_moves<B: OthelloBoard>(
    start: Position<B>,
    moves: &[String],
) -> Result<Position<B>, String> {
    let mut pos = start;
    for (i, text) in moves.iter().enumerate() {
        let mv = Move::parse(text, B::SIZE).map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        pos = pos
            .play(mv)
            .map_err(|e| format!("move {} '{text}' is illegal: {e}", i + 1))?;
    }
    Ok(pos)
}

impl<B: OthelloBoard> GameSession for OthelloSession<B> {
    fn game_name(&self) -> &'static str {
        "othello"
    }

    fn new_game(&mut self) {
        self.position = Position::start();
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<(), String> {
        let start = match start {
            StartPosition::StartPos => Position::start(),
            StartPosition::Fen(text) => {
                Position::parse(text).map_err(|e| format!("bad position: {e}"))?
            }
        };
        self.position = play_moves(start, moves)?;
        Ok(())
    }

    fn p1_to_move(&self) -> bool {
        self.position.side_to_move() == Color::Black
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(&self.position)
    }

    fn legal_moves(&self) -> Vec<String> {
        self.position
            .legal_moves()
            .into_iter()
            .map(|m| m.name(B::SIZE))
            .collect()
    }

    fn is_legal(&self, mv: &str) -> bool {
        Move::parse(mv, B::SIZE).is_ok_and(|m| self.position.play(m).is_ok())
    }

    fn fen(&self) -> String {
        self.position.to_string()
    }

    fn score(&self) -> String {
        match self.position.result() {
            Some(r) => r.black_margin().to_string(),
            None => {
                let diff = self.position.count(Color::Black) as i32
                    - self.position.count(Color::White) as i32;
                diff.to_string()
            }
        }
    }

    fn draw(&self) -> String {
        self.position.draw()
    }

    fn perft(&self, depth: u32, threads: usize) -> Result<u64, String> {
        Ok(search::othello::parallel_perft(
            self.position.board(),
            depth,
            threads,
        ))
    }

    fn search_job(&self, limits: Limits, _options: &SearchOptions) -> SearchJob {
        let root = self.position;
        Box::new(move |stop: &StopFlag, report: &mut dyn FnMut(&Report)| {
            let to_report = |r: &alphabeta::SearchResult<Move>| Report {
                depth: r.depth,
                nodes: r.nodes,
                elapsed: r.elapsed,
                score: r.score,
                pv: r.pv.iter().map(|m| m.name(B::SIZE)).collect(),
            };
            let result = alphabeta::search(&root, &limits, stop, |r| report(&to_report(r)));
            SearchOutcome {
                best_move: result.best_move.map(|m| m.name(B::SIZE)),
                report: to_report(&result),
            }
        })
    }
}
