//! The UGI+ session of every game but Go and Phantom Go: [`PlayerSession`] holds a
//! position of a game the arena can referee ([`ArenaGame`]: rules, a start and a text
//! form) and plays it with a [`Player`]. A game gives it its player, its start and a
//! table of its own settings; it needs no session code of its own (Othello,
//! Chaos Clock, and the toy game of tests/toy).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use protocol::ugi::{OptionKind, StartPosition};
use search::alphabeta::SearchResult;
use search::player::Player;
use search::{Limits, Outcome, StopFlag};

use crate::error::Result;
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
        PlayerSession { kind, rules, start, position, player, uses_threads, uses_hash, options, settings }
    }

    /// Makes `start` what `position startpos` means, and the position now.
    pub fn set_start(&mut self, start: G) {
        self.position = start.clone();
        self.start = start;
    }

    /// Runs `f` on the player (for its settings); `None` if an earlier search failed
    /// inside it.
    pub fn with_player<R>(&self, f: impl FnOnce(&mut P) -> R) -> Option<R> {
        self.player.lock().ok().map(|mut player| f(&mut player))
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
        self.with_player(|p| p.prepare(options));
    }

    fn new_game(&mut self) {
        self.with_player(|p| p.new_game());
        self.position = self.start.clone();
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<()> {
        let start = match start {
            StartPosition::StartPos => self.start.clone(),
            StartPosition::Fen(text) => {
                G::from_opening(&self.rules, Some(text)).map_err(|e| format!("bad position: {e}"))?
            }
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
        self.position.score_text()
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
