//! `sente selfplay`: the engine plays a whole game against itself and shows it.

use std::time::Duration;

use protocol::ugi::StartPosition;
use search::{Limits, Score, StopFlag};

use crate::games;
use crate::session::{SearchOptions, outcome_word};

/// Plays one game of `game` with both sides searching under `limits`; returns the
/// text to print, line by line, through `print`.
pub fn play(
    game: crate::games::GameKind,
    size: Option<usize>,
    limits: Limits,
    options: SearchOptions,
    mut print: impl FnMut(&str),
) -> Result<Vec<String>, String> {
    let mut session = games::make_session(game, size)?;
    let mut moves: Vec<String> = Vec::new();
    print(&session.draw());
    let mut total_time = Duration::ZERO;
    while session.outcome().is_none() {
        let job = session.search_job(limits, &options);
        let outcome = job(&StopFlag::new(), &mut |_| {});
        let Some(mv) = outcome.best_move else {
            return Err("the search returned no move in an unfinished game".into());
        };
        total_time += outcome.report.elapsed;
        let score = match outcome.report.score {
            Score::Centi(v) => format!("cp {v}"),
            Score::Exact(v) => format!("exact {v:+}"),
        };
        let who = if session.p1_to_move() { "p1" } else { "p2" };
        print(&format!(
            "{:>3}. {who} {mv:<5} {score:<10} depth {:>2} nodes {:>9} time {:>5} ms",
            moves.len() + 1,
            outcome.report.depth,
            outcome.report.nodes,
            outcome.report.elapsed.as_millis()
        ));
        moves.push(mv);
        session.set_position(&StartPosition::StartPos, &moves)?;
    }
    print(&session.draw());
    print(&format!(
        "result {} (score for p1: {}), {} moves, {:.1} s of search",
        outcome_word(session.outcome()),
        session.score(),
        moves.len(),
        total_time.as_secs_f64()
    ));
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_othello_game_is_legal() {
        let moves =
            play(games::GameKind::Othello, Some(6), Limits::depth(2), SearchOptions::default(), |_| {}).unwrap();
        assert!(moves.len() >= 20);
        let mut session = games::make_session(games::GameKind::Othello, Some(6)).unwrap();
        session.set_position(&StartPosition::StartPos, &moves).unwrap();
        assert!(session.outcome().is_some());
    }
}
