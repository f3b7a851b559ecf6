//! The session of every game but Go and Phantom Go, for UGI+ and (for a game with a
//! GTP name, Othello) GTP alike:
//! [`PlayerSession`] holds a position of a game the arena can referee ([`ArenaGame`]:
//! rules, a start and a text form) and plays it with a [`Player`]. A game gives it its
//! player, its start and a table of its own settings; it needs no session code of its
//! own (Othello, Chaos Clock, and the toy game of tests/toy).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use protocol::ugi::{OptionKind, StartPosition};
use search::alphabeta::SearchResult;
use search::player::Player;
use search::{Limits, Outcome, StopFlag};

use crate::error::{EngineError, Result};
use crate::games::GameKind;
use crate::games::options::{self, GameOption};
use crate::games::referee::{ArenaGame, RefereeRules};
use crate::games::session::{GameSession, PerftJob, Report, SearchJob, SearchOptions, SearchOutcome};

/// A session of game `G` played by `P`, with the game's own settings `S` (none by
/// default), which its option table reads and writes.
pub struct PlayerSession<G: ArenaGame, P: Player<G> + 'static, S: Send + 'static = ()> {
    kind: GameKind,
    /// The rules positions are read under (the board size).
    rules: RefereeRules,
    /// What `position startpos` means.
    start: G,
    position: G,
    /// The positions before each move GTP played, for `undo`.
    history: Vec<G>,
    player: Arc<Mutex<P>>,
    /// What the player said it uses, asked once: the player is locked while it
    /// searches, and `ugi` is answered during a search.
    uses_threads: bool,
    uses_hash: bool,
    options: &'static [GameOption<PlayerSession<G, P, S>>],
    /// The game's own settings (Chaos Clock's deal seed).
    pub settings: S,
}

impl<G: ArenaGame, P: Player<G> + 'static> PlayerSession<G, P> {
    /// A session of `kind` at the standard start of a game under `rules` (its board
    /// size), played by `player`.
    pub fn new(kind: GameKind, rules: RefereeRules, player: P) -> Result<PlayerSession<G, P>> {
        let start = G::from_opening(&rules, None)?;
        Ok(PlayerSession::with_start(kind, rules, start, player, (), &[]))
    }
}

impl<G: ArenaGame, P: Player<G> + 'static, S: Send + 'static> PlayerSession<G, P, S> {
    /// A session of `kind` under `rules` whose `startpos` is `start`, played by
    /// `player`, with the game's settings `settings` and their UGI+ options `options`.
    pub fn with_start(
        kind: GameKind,
        rules: RefereeRules,
        start: G,
        player: P,
        settings: S,
        options: &'static [GameOption<PlayerSession<G, P, S>>],
    ) -> PlayerSession<G, P, S> {
        let position = start.clone();
        let (uses_threads, uses_hash) = (player.uses_threads(), player.uses_hash());
        let player = Arc::new(Mutex::new(player));
        PlayerSession {
            kind,
            rules,
            start,
            position,
            history: Vec::new(),
            player,
            uses_threads,
            uses_hash,
            options,
            settings,
        }
    }

    /// Makes `start` what `position startpos` means, and the position now.
    pub fn set_start(&mut self, start: G) {
        self.position = start.clone();
        self.history.clear();
        self.start = start;
    }

    /// Runs `f` on the player (for its settings); `None` if an earlier search failed
    /// inside it.
    pub fn with_player<R>(&self, f: impl FnOnce(&mut P) -> R) -> Option<R> {
        self.player.lock().ok().map(|mut player| f(&mut player))
    }
}

impl<G: ArenaGame, P: Player<G> + 'static, S: Send + 'static> PlayerSession<G, P, S> {
    /// Plays `mv` (legal), keeping the position before it for `undo`.
    fn play_move(&mut self, mv: G::Move) {
        let next = self.position.play(mv);
        self.history.push(std::mem::replace(&mut self.position, next));
    }

    /// Makes it player one's turn (`p1`) or two's: passes for the side to move when
    /// passing is its only move; an error when it has another.
    fn turn_of(&mut self, p1: bool) -> Result<()> {
        if (self.position.to_move() == search::Player::One) == p1 {
            return Ok(());
        }
        match forced_pass(&self.position) {
            Some(pass) => {
                self.play_move(pass);
                Ok(())
            }
            None => Err(EngineError::IllegalMove("it is the other side's turn: it has a move".into())),
        }
    }
}

/// The pass of the side to move when it is its only move (Othello's forced pass).
fn forced_pass<G: ArenaGame>(position: &G) -> Option<G::Move> {
    match position.legal_moves()[..] {
        [only] if position.move_name(only) == "pass" => Some(only),
        _ => None,
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

/// `result` in the protocol-neutral form, its moves named from `position`.
fn report_of<G: ArenaGame>(position: &G, result: &SearchResult<G::Move>) -> Report {
    let mut line = position.clone();
    let mut pv = Vec::new();
    for &mv in &result.pv {
        pv.push(line.move_name(mv));
        line = line.play(mv);
    }
    Report { depth: result.depth, nodes: result.nodes, elapsed: result.elapsed, score: result.score, pv, note: None }
}

impl<G: ArenaGame, P: Player<G> + 'static, S: Send + 'static> GameSession for PlayerSession<G, P, S> {
    fn game(&self) -> GameKind {
        self.kind
    }

    fn options(&self) -> Vec<(&'static str, OptionKind)> {
        options::announce(self.options)
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<bool> {
        options::set_by_name(self.options, self, name, value)
    }

    fn uses_threads_and_hash(&self) -> bool {
        self.uses_threads
    }

    fn uses_hash(&self) -> bool {
        self.uses_hash
    }

    fn prepare(&mut self, options: &SearchOptions) {
        self.with_player(|p| p.prepare(&self.position, options));
    }

    fn new_game(&mut self) {
        self.with_player(|p| p.new_game());
        self.position = self.start.clone();
        self.history.clear();
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<()> {
        let start = match start {
            StartPosition::StartPos => self.start.clone(),
            StartPosition::Fen(text) => {
                G::from_opening(&self.rules, Some(text)).map_err(|e| format!("bad position: {e}"))?
            }
        };
        self.position = after_moves(start, moves)?;
        self.history.clear();
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
        self.position.score_text()
    }

    /// The board of the session's one size.
    fn set_board_size(&mut self, size: usize) -> Result<()> {
        if size == self.rules.size {
            Ok(())
        } else {
            let (n, title) = (self.rules.size, self.kind.spec().title());
            Err(EngineError::BoardSize(format!("{size}x{size}: GTP plays {title} on {n}x{n}")))
        }
    }

    /// Plays a forced pass of the side to move first when it is the other side's
    /// turn (as Quarry and GRhino speak Othello); a pass is played by either side
    /// while it is the only move.
    fn play_as(&mut self, p1: bool, text: &str) -> Result<()> {
        let mv = self.position.parse_move(text).map_err(EngineError::Syntax)?;
        if forced_pass(&self.position) != Some(mv) {
            self.turn_of(p1)?;
        }
        self.position.check_move(mv).map_err(EngineError::IllegalMove)?;
        self.play_move(mv);
        Ok(())
    }

    /// `pass` when the game is over, when the other side is to move and has a move,
    /// and when passing is the only move (then played).
    fn genmove(&mut self, p1: bool, limits: Limits, options: &SearchOptions, stop: &StopFlag) -> Result<String> {
        if self.position.outcome().is_some() || self.turn_of(p1).is_err() {
            return Ok("pass".into());
        }
        if let Some(pass) = forced_pass(&self.position) {
            self.play_move(pass);
            return Ok("pass".into());
        }
        let position = self.position.clone();
        let result = match self.player.lock() {
            Ok(mut player) => player.choose(&position, &limits, options, stop, &mut |_| {}),
            Err(_) => return Err("the player failed in an earlier search".into()),
        };
        let mv = result.best_move.ok_or("no move found")?;
        self.position.check_move(mv).map_err(|e| format!("internal error: chose an illegal move ({e})"))?;
        self.play_move(mv);
        Ok(position.move_name(mv).to_ascii_uppercase())
    }

    fn undo(&mut self) -> Result<()> {
        self.position = self.history.pop().ok_or(EngineError::CannotUndo)?;
        Ok(())
    }

    fn final_score(&mut self) -> Result<String> {
        let margin = self.position.margin().ok_or_else(|| self.not_over_gtp())?;
        Ok(match margin {
            m if m > 0.0 => format!("B+{m}"),
            m if m < 0.0 => format!("W+{}", -m),
            _ => "0".into(),
        })
    }

    fn draw(&self) -> String {
        self.position.draw()
    }

    fn perft(&self, depth: u32, threads: usize) -> Result<PerftJob> {
        Ok(self.position.perft_job(depth, threads)?)
    }

    fn search_job(&mut self, limits: Limits, options: &SearchOptions) -> SearchJob {
        let position = self.position.clone();
        let player = Arc::clone(&self.player);
        let resources = *options;
        Box::new(move |stop: &StopFlag, report: &mut (dyn FnMut(&Report) + Send)| {
            let result = match player.lock() {
                Ok(mut player) => {
                    player.choose(&position, &limits, &resources, stop, &mut |r| report(&report_of(&position, r)))
                }
                Err(_) => {
                    let note = Report::note("the player failed in an earlier search");
                    return SearchOutcome { best_move: None, report: note };
                }
            };
            // UGI: after `go infinite` the best move waits for `stop`, however soon
            // the search ended.
            while limits.infinite && !stop.is_stopped() {
                std::thread::sleep(Duration::from_millis(2));
            }
            let best_move = result.best_move.map(|m| position.move_name(m));
            SearchOutcome { best_move, report: report_of(&position, &result) }
        })
    }
}
