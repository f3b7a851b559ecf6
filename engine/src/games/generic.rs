//! A UGI+ session of any game: [`PlayerSession`] holds a position of a game that the
//! arena can referee ([`ArenaGame`]: rules, a start and a text form) and plays it with
//! a [`Player`]. A game written elsewhere needs no session code of its own: its
//! [`crate::games::GameSpec::new_session`] returns one of these.

use std::sync::{Arc, Mutex};

use protocol::ugi::StartPosition;
use search::player::Player;
use search::{Limits, Outcome, StopFlag};

use crate::error::Result;
use crate::games::GameKind;
use crate::games::referee::{ArenaGame, RefereeRules};
use crate::games::session::{GameSession, PerftJob, Report, SearchJob, SearchOptions, SearchOutcome};

/// A session of game `G` played by `P`.
pub struct PlayerSession<G: ArenaGame, P: Player<G>> {
    kind: GameKind,
    rules: RefereeRules,
    position: G,
    player: Arc<Mutex<P>>,
}

impl<G: ArenaGame, P: Player<G> + 'static> PlayerSession<G, P> {
    /// A session of `kind` at the standard start of a game under `rules` (its board
    /// size), played by `player`.
    pub fn new(kind: GameKind, rules: RefereeRules, player: P) -> Result<PlayerSession<G, P>> {
        let position = G::from_opening(&rules, None)?;
        Ok(PlayerSession { kind, rules, position, player: Arc::new(Mutex::new(player)) })
    }
}

/// The position after `moves` (text) from `start`, naming the first bad move.
fn after_moves<G: ArenaGame>(start: G, moves: &[String]) -> std::result::Result<G, String> {
    let mut position = start;
    for (i, text) in moves.iter().enumerate() {
        let mv = position.parse_move(text).map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        position.check_move(mv).map_err(|e| format!("move {} '{text}' is illegal: {e}", i + 1))?;
        position = position.play(mv);
    }
    Ok(position)
}

/// The number of move sequences of `depth` moves from `g`; `None` once stopped.
fn perft<G: ArenaGame>(g: &G, depth: u32, stop: &StopFlag) -> Option<u64> {
    if depth == 0 || g.outcome().is_some() {
        return Some(1);
    }
    if stop.is_stopped() {
        return None;
    }
    g.legal_moves().into_iter().try_fold(0, |n, mv| Some(n + perft(&g.play(mv), depth - 1, stop)?))
}

impl<G: ArenaGame, P: Player<G> + 'static> GameSession for PlayerSession<G, P> {
    fn game(&self) -> GameKind {
        self.kind
    }

    fn new_game(&mut self) {
        if let Ok(mut player) = self.player.lock() {
            player.new_game();
        }
        if let Ok(start) = G::from_opening(&self.rules, None) {
            self.position = start;
        }
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<()> {
        let start = match start {
            StartPosition::StartPos => G::from_opening(&self.rules, None)?,
            StartPosition::Fen(text) => G::from_opening(&self.rules, Some(text))?,
        };
        self.position = after_moves(start, moves)?;
        Ok(())
    }

    fn p1_to_move(&self) -> bool {
        self.position.to_move() == search::Player::One
    }

    fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    fn legal_moves(&self) -> Vec<String> {
        self.position.legal_moves().into_iter().map(|m| self.position.move_name(m)).collect()
    }

    fn is_legal(&self, mv: &str) -> bool {
        self.position.parse_move(mv).is_ok_and(|m| self.position.check_move(m).is_ok())
    }

    fn fen(&self) -> String {
        self.position.text()
    }

    fn score(&self) -> String {
        String::new()
    }

    fn draw(&self) -> String {
        self.position.text()
    }

    fn perft(&self, depth: u32, _threads: usize) -> Result<PerftJob> {
        let position = self.position.clone();
        Ok(Box::new(move |stop: &StopFlag| perft(&position, depth, stop)))
    }

    fn search_job(&mut self, limits: Limits, _options: &SearchOptions) -> SearchJob {
        let position = self.position.clone();
        let player = Arc::clone(&self.player);
        Box::new(move |stop: &StopFlag, report: &mut (dyn FnMut(&Report) + Send)| {
            let to_report = |r: &search::alphabeta::SearchResult<G::Move>| {
                let mut line = position.clone();
                let mut pv = Vec::new();
                for &mv in &r.pv {
                    pv.push(line.move_name(mv));
                    line = line.play(mv);
                }
                Report { depth: r.depth, nodes: r.nodes, elapsed: r.elapsed, score: r.score, pv, note: None }
            };
            let result = match player.lock() {
                Ok(mut player) => player.choose(&position, &limits, stop, &mut |r| report(&to_report(r))),
                Err(_) => {
                    let note = Report::note("the player failed in an earlier search");
                    return SearchOutcome { best_move: None, report: note };
                }
            };
            let best_move = result.best_move.map(|m| position.move_name(m));
            SearchOutcome { best_move, report: to_report(&result) }
        })
    }
}
