//! `sente selfplay`: the engine plays a whole game against itself and shows it.

use std::io::Write;
use std::time::Duration;

use protocol::ugi::StartPosition;
use search::{Limits, Outcome, Player, Score, StopFlag};

use crate::games::GameKind;
use crate::games::session::SearchOptions;

/// The game's outcome in words, with the players' names.
fn outcome_words(outcome: Option<Outcome>, (p1, p2): (&str, &str)) -> String {
    match outcome {
        None => "none".into(),
        Some(Outcome::Win(Player::One)) => format!("{p1} wins"),
        Some(Outcome::Win(Player::Two)) => format!("{p2} wins"),
        Some(Outcome::Draw) => "draw".into(),
        Some(Outcome::BothWin) => "both win".into(),
        Some(Outcome::BothLose) => "both lose".into(),
    }
}

/// Plays one game of `game` with both sides searching under `limits`; returns the
/// text to print, line by line, through `print`.
pub fn play(
    game: GameKind,
    size: Option<usize>,
    limits: Limits,
    options: SearchOptions,
    mut print: impl FnMut(&str),
) -> crate::error::Result<Vec<String>> {
    let mut session = game.new_session(size)?;
    let sides = game.player_names();
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
        let who = if session.p1_to_move() { sides.0 } else { sides.1 };
        print(&format!(
            "{:>3}. {who:<5} {mv:<5} {score:<10} depth {:>2} nodes {:>9} time {:>5} ms",
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
        "result: {} (score for {}: {}), {} moves, {:.1} s of search",
        outcome_words(session.outcome(), sides),
        sides.0,
        session.score(),
        moves.len(),
        total_time.as_secs_f64()
    ));
    Ok(moves)
}

/// `sente selfplay`'s command line.
#[derive(clap::Args)]
pub struct SelfplayArgs {
    /// The game.
    #[arg(long, default_value = "othello", value_parser = GameKind::parse)]
    pub game: GameKind,
    /// Board side length.
    #[arg(long)]
    pub size: Option<usize>,
    /// Search depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Milliseconds per move (default 100 when no depth is given).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Runs `sente selfplay`.
pub fn main(args: SelfplayArgs) -> anyhow::Result<()> {
    let SelfplayArgs { game, size, depth, movetime, threads } = args;
    let limits = match (depth, movetime) {
        (Some(d), None) => Limits::depth(d),
        (None, m) => Limits::movetime(Duration::from_millis(m.unwrap_or(100))),
        (Some(d), Some(m)) => Limits { depth: Some(d), ..Limits::movetime(Duration::from_millis(m)) },
    };
    let options = SearchOptions { threads, ..SearchOptions::default() };
    let mut stdout = std::io::stdout().lock();
    play(game, size, limits, options, |text| {
        let _ = writeln!(stdout, "{}", text.trim_end());
    })
    .map_err(anyhow::Error::msg)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_othello_game_is_legal() {
        let moves = play(GameKind::OTHELLO, Some(6), Limits::depth(2), SearchOptions::default(), |_| {}).unwrap();
        assert!(moves.len() >= 20);
        let mut session = GameKind::OTHELLO.new_session(Some(6)).unwrap();
        session.set_position(&StartPosition::StartPos, &moves).unwrap();
        assert!(session.outcome().is_some());
    }
}
