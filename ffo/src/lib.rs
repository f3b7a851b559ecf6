//! FFO endgame problems: reading them.
//!
//! Two line formats are read, both starting with the position in OBF form (64
//! squares from `a1`, a space, the side to move):
//!
//! * FFO: `<board> <side> ; #40 ; A2 ; +38`: number, best moves (comma-separated, any
//!   of them is right), exact score for the side to move;
//! * Edax OBF: `<board> <side>; G8:+18; H1:+12; …`: every move with its exact score.
//!
//! Blank lines and lines starting with `%` or `#` are comments.
#![deny(missing_docs)]

use bitboards::othello::{Board, Move, Position};
use thiserror::Error;

/// One endgame problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The problem number (`#40`), if the line gives one.
    pub number: Option<u32>,
    /// The position.
    pub position: Position<Board>,
    /// The best moves, if known (any of them is right).
    pub best_moves: Vec<Move>,
    /// The exact score for the side to move, if known.
    pub score: Option<i32>,
    /// Moves with their exact scores (OBF lines).
    pub move_scores: Vec<(Move, i32)>,
    /// Line number in the file (1-based).
    pub line: usize,
}

/// A line that is not a problem.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct ParseError {
    /// Line number (1-based).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn parse_score(text: &str) -> Option<i32> {
    let t = text.trim();
    let t = t.strip_prefix('+').unwrap_or(t);
    t.parse().ok().filter(|s: &i32| s.abs() <= 64)
}

/// Reads one line; `Ok(None)` for blank lines and comments.
pub fn parse_line(text: &str, line: usize) -> Result<Option<Problem>, ParseError> {
    let err = |message: String| ParseError { line, message };
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.starts_with('%') || trimmed.starts_with('#') {
        return Ok(None);
    }
    let mut fields = trimmed.split(';').map(str::trim);
    let board = fields.next().unwrap_or_default();
    let position = Position::<Board>::parse(board).map_err(|e| err(format!("bad position: {e}")))?;
    let mut problem =
        Problem { number: None, position, best_moves: Vec::new(), score: None, move_scores: Vec::new(), line };
    let rest: Vec<&str> = fields.filter(|f| !f.is_empty()).collect();
    if rest.iter().any(|f| f.contains(':')) {
        for field in rest {
            let (mv, score) =
                field.split_once(':').ok_or_else(|| err(format!("expected move:score, got '{field}'")))?;
            let mv = Move::parse(mv, 8).map_err(|e| err(e.to_string()))?;
            let score = parse_score(score).ok_or_else(|| err(format!("bad score '{score}'")))?;
            problem.move_scores.push((mv, score));
        }
        problem.score = problem.move_scores.iter().map(|&(_, s)| s).max();
        let best = problem.score;
        problem.best_moves = problem.move_scores.iter().filter(|&&(_, s)| Some(s) == best).map(|&(m, _)| m).collect();
        return Ok(Some(problem));
    }
    match rest.as_slice() {
        [] => {}
        [number, best, score, ..] => {
            let n = number.trim_start_matches('#');
            problem.number = Some(n.parse().map_err(|_| err(format!("bad problem number '{number}'")))?);
            for mv in best.split(',').map(str::trim).filter(|m| !m.is_empty()) {
                problem.best_moves.push(Move::parse(mv, 8).map_err(|e| err(e.to_string()))?);
            }
            problem.score = Some(parse_score(score).ok_or_else(|| err(format!("bad score '{score}'")))?);
        }
        other => {
            return Err(err(format!("expected '; #n ; moves ; score' after the position, got {other:?}")));
        }
    }
    Ok(Some(problem))
}

/// Reads every problem of a file's text.
pub fn parse_file(text: &str) -> Result<Vec<Problem>, ParseError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(p) = parse_line(line, i + 1)? {
            out.push(p);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ffo_line() {
        let p = parse_line("--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O ; #43 ; G3,C7 ; -12", 1)
            .unwrap()
            .unwrap();
        assert_eq!(p.number, Some(43));
        assert_eq!(p.best_moves, vec![Move::parse("g3", 8).unwrap(), Move::parse("c7", 8).unwrap()]);
        assert_eq!(p.score, Some(-12));
        assert_eq!(p.position.board().empty_count(), 23);
    }

    #[test]
    fn obf_line() {
        let p = parse_line(
            "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O; G3:-12; C7:-12; B8:-14;",
            1,
        )
        .unwrap()
        .unwrap();
        assert_eq!(p.score, Some(-12));
        assert_eq!(p.best_moves.len(), 2);
        assert_eq!(p.move_scores.len(), 3);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_file("% comment\n\nxx O ; #1 ; A1 ; +2\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.to_string().starts_with("line 3: bad position"));
        let board = "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O";
        assert!(parse_line(&format!("{board} ; #x ; A1 ; +2"), 1).is_err());
        assert!(parse_line(&format!("{board} ; #1 ; Z9 ; +2"), 1).is_err());
        assert!(parse_line(&format!("{board} ; #1 ; A1 ; +99"), 1).is_err());
        assert!(parse_line(&format!("{board} ; #1"), 1).is_err());
    }
}

/// The outcome of solving one problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The problem.
    pub problem: Problem,
    /// The solver's score for the side to move.
    pub score: i32,
    /// The solver's best move.
    pub best_move: Move,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: std::time::Duration,
}

impl Solved {
    /// True when the score equals the file's and the move is one of its best moves
    /// (or the file gives no best move).
    pub fn is_correct(&self) -> bool {
        self.problem.score.is_none_or(|s| s == self.score)
            && (self.problem.best_moves.is_empty() || self.problem.best_moves.contains(&self.best_move))
    }
}

/// Solves one problem exactly with `solver`; `None` if `stop` was raised.
pub fn solve(
    solver: &search::othello::Solver,
    problem: &Problem,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<Solved> {
    use search::othello::{SolveLimits, SolveMode};
    let start = std::time::Instant::now();
    let solution = solver.solve(problem.position.board(), SolveMode::Exact, stop, SolveLimits::default())?;
    let to_move = |sq: u8| if sq >= 64 { Move::Pass } else { Move::Play(sq) };
    Some(Solved {
        problem: problem.clone(),
        score: solution.score,
        best_move: solution.best_move.map_or(Move::Pass, to_move),
        pv: solution.pv.iter().map(|&sq| to_move(sq)).collect(),
        nodes: solution.nodes,
        time: start.elapsed(),
    })
}
