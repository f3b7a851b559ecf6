//! The UGI+ loop: reads commands, keeps the game state, runs searches on their own
//! thread and answers `isready` and `stop` while they run.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use protocol::ugi::{self, Command, GoCommand, OptionKind, Query};
use search::{Clock, Limits, Outcome, StopFlag};

use crate::error::{EngineError, Result};
use crate::games;
use crate::games::session::{GameSession, SearchOptions};
use crate::io::{FrontEnd, MAX_LINE, Output};

/// Unknown option names remembered, so as to be said once each.
const MAX_UNKNOWN_OPTIONS: usize = 64;

/// The names of the games for which `holds` is true.
fn games_where(holds: impl Fn(games::GameKind) -> bool) -> Vec<&'static str> {
    games::GameKind::all().into_iter().filter(|&g| holds(g)).map(|g| g.name()).collect()
}

/// The games (by name) whose sessions have the game option `name`.
fn games_with_option(name: &str) -> Vec<&'static str> {
    games_where(|g| {
        g.new_session(None).is_ok_and(|s| s.options().iter().any(|(option, _)| option.eq_ignore_ascii_case(name)))
    })
}

/// Shortest gap between two `info` lines during a search (the final one is always
/// printed).
const INFO_INTERVAL: Duration = Duration::from_millis(100);

struct Running {
    stop: StopFlag,
    handle: JoinHandle<()>,
    /// `go infinite`: only `stop` ends it.
    infinite: bool,
    /// Raised by the thread just before it writes its answer (see [`Answer`]).
    answered: Arc<AtomicBool>,
}

/// What a search thread (`go`, `perft`, `bench`) writes its lines through. Its last
/// line, the answer, first marks the search over: a command the client sends once it
/// has read the answer then waits for the thread to end (freeing a search tree can
/// take a while on a loaded machine) and is carried out, never queued behind it
/// while a query after it is answered first.
#[derive(Clone)]
struct Answer {
    out: Output,
    answered: Arc<AtomicBool>,
    /// The unit tests' slow clean-up: the thread sleeps this long after its answer.
    #[cfg(test)]
    linger: Duration,
}

impl Answer {
    fn new(engine: &UgiEngine) -> Answer {
        Answer {
            out: engine.out.clone(),
            answered: Arc::new(AtomicBool::new(false)),
            #[cfg(test)]
            linger: engine.linger,
        }
    }

    /// A line before the answer.
    fn line(&self, line: impl Into<String>) {
        self.out.line(line);
    }

    /// The answer: the search is over from now on.
    fn last(&self, line: impl Into<String>) {
        self.answered.store(true, Ordering::SeqCst);
        self.out.line(line);
        #[cfg(test)]
        std::thread::sleep(self.linger);
    }

    fn running(&self, stop: StopFlag, handle: JoinHandle<()>, infinite: bool) -> Running {
        Running { stop, handle, infinite, answered: self.answered.clone() }
    }
}

/// The UGI+ engine state.
pub struct UgiEngine {
    session: Box<dyn GameSession>,
    options: SearchOptions,
    running: Option<Running>,
    /// Commands that arrived during a search with a limit: run in order once it ends,
    /// so that `stop` and `isready` behind them are answered at once.
    pending: VecDeque<Command>,
    out: Output,
    /// A `BoardSize` the current game does not have but another does: the next game
    /// chosen that has it plays on it (a client sends its options in no fixed order).
    waiting_size: Option<usize>,
    /// The game options (`Komi`, `Book`, `Seed`, …) as last asked for, by lower-case
    /// name: each new session (another game or board size) gets those it has.
    game_options: Vec<(String, Option<String>)>,
    /// `ResultWords full`: `query result` may answer Chaos Clock's `bothwin` and
    /// `bothlose`; by default only ugi.md's `p1win`, `p2win`, `draw` and `none`.
    full_results: bool,
    /// Unknown option names already answered with an `info string` (said once each).
    unknown_options: std::collections::HashSet<String>,
    /// How long a search thread lingers after its answer (the unit tests' slow
    /// clean-up).
    #[cfg(test)]
    linger: Duration,
}

impl UgiEngine {
    /// An engine playing the default game (Othello 8×8) that writes to `out`.
    pub fn new(out: Output) -> UgiEngine {
        let session = games::DEFAULT_GAME.new_session(None).expect("the default game exists");
        UgiEngine {
            session,
            options: SearchOptions::default(),
            running: None,
            pending: VecDeque::new(),
            out,
            waiting_size: None,
            game_options: Vec::new(),
            full_results: false,
            unknown_options: std::collections::HashSet::new(),
            #[cfg(test)]
            linger: Duration::ZERO,
        }
    }

    /// Lets a search with a limit end by itself and runs the commands queued behind it
    /// (and behind the searches they start): the unit tests' way to end a script.
    #[cfg(test)]
    pub fn drain(&mut self) {
        loop {
            if !self.wait_for_search() || self.pending.is_empty() || !self.run_pending() {
                return;
            }
        }
    }

    /// `quit` or the end of input, as for Stockfish: stops the search in progress (of
    /// any kind: `go`, `perft`, `bench`, `go infinite`), which answers, then runs the
    /// commands queued behind it in order, every search they start stopped at once
    /// (each `go` still answers its `bestmove`, each query its `response`).
    fn close(&mut self) {
        self.stop_search();
        while let Some(command) = self.pending.pop_front() {
            if !self.execute(command) {
                return;
            }
            self.stop_search();
        }
    }

    /// Runs the queued commands once no search runs, until one starts a search again;
    /// false if one of them was `quit`.
    /// During a search that one of them started, the queries, `d` and `ugi` at the
    /// head of the queue are still answered, as they would be had they come then.
    fn run_pending(&mut self) -> bool {
        while let Some(front) = self.pending.front() {
            if !answered_at_once(front) && self.searching() {
                break;
            }
            let Some(command) = self.pending.pop_front() else { break };
            if !self.execute(command) {
                return false;
            }
        }
        true
    }

    /// Waits for a search with a limit to end by itself; stops an infinite one.
    /// Returns false if an infinite search is running (nothing was waited for).
    #[cfg(test)]
    fn wait_for_search(&mut self) -> bool {
        match self.running.take() {
            Some(running) if running.infinite => {
                self.running = Some(running);
                false
            }
            Some(running) => {
                if running.handle.join().is_err() {
                    self.error("the search thread failed");
                }
                true
            }
            None => true,
        }
    }

    fn error(&self, message: &str) {
        self.out.line(ugi::error_line(message));
    }

    fn searching(&mut self) -> bool {
        if self.running.as_ref().is_some_and(|r| r.answered.load(Ordering::SeqCst) || r.handle.is_finished()) {
            self.stop_search();
        }
        self.running.is_some()
    }

    fn stop_search(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.stop();
            if running.handle.join().is_err() {
                self.error("the search thread failed");
            }
        }
    }

    /// Handles one line (or queues it behind the search); false means quit.
    pub fn handle_line(&mut self, line: &str) -> bool {
        // Blank lines and `#` comments are ignored quietly, as Stockfish does.
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            return true;
        }
        let command = match ugi::parse(line) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e.to_string());
                return true;
            }
        };
        // The commands queued behind a search that has ended run first.
        if !self.searching() && !self.run_pending() {
            return false;
        }
        // Commands that change the state wait for a search with a limit in a queue, as
        // if it had run inline, while the commands behind them are read; during `go
        // infinite` they are refused. A query behind a queued command waits with it, so
        // that it reads the state that command makes.
        // A `stop` behind a queued search waits for it and stops it, as in Stockfish
        // (whose `go` waits for the search before it): `go movetime 2000`, `go
        // infinite`, `stop` ends the infinite search, not the first one.
        let at_once = answered_at_once(&command)
            && (self.pending.is_empty()
                || matches!(command, Command::IsReady | Command::Quit)
                || (matches!(command, Command::Stop) && !self.pending.iter().any(starts_a_search)));
        if !at_once && (self.searching() || !self.pending.is_empty()) {
            if !answered_at_once(&command) && self.running.as_ref().is_some_and(|r| r.infinite) {
                self.error(&format!("'{}' ignored during go infinite: send stop first", line.trim()));
            } else {
                self.pending.push_back(command);
            }
            return true;
        }
        self.execute(command)
    }

    /// Carries out one command now; false means quit.
    fn execute(&mut self, command: Command) -> bool {
        match command {
            Command::Ugi => self.identify(),
            Command::IsReady => {
                // The set-up the next search would pay, done before `readyok` (not
                // during a search: `isready` is then answered at once). Commands queued
                // behind a search that has just ended run first: the set-up is for the
                // settings they make.
                if !self.searching() {
                    if !self.run_pending() {
                        return false;
                    }
                    if !self.searching() {
                        self.session.prepare(&self.options);
                    }
                }
                self.out.line("readyok")
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => self.session.new_game(),
            Command::Position { start, moves } => {
                if let Err(e) = self.session.set_position(&start, &moves) {
                    self.error(&format!("{e}; position unchanged"));
                }
            }
            Command::Go(go) => self.go(&go),
            Command::Stop => self.stop_search(),
            // As the end of input: nothing sent before `quit` is lost.
            Command::Quit => {
                self.close();
                return false;
            }
            Command::Query(q) => self.query(&q),
            Command::Perft(depth) => self.perft(depth),
            Command::Bench(depth) => self.bench(depth),
            Command::Display => self.out.lines(&self.session.draw()),
        }
        true
    }

    fn identify(&self) {
        self.out.line(format!("id name sente {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author The sente developers");
        let games: Vec<String> = games::GameKind::names().iter().map(|g| g.to_string()).collect();
        // The current game's sizes (a spin cannot say that Othello's are even).
        let sizes = self.session.game().board_sizes();
        let mut options = vec![
            ("Game", OptionKind::Combo { default: games::DEFAULT_GAME.name().into(), values: games }),
            (
                "BoardSize",
                OptionKind::Spin { default: sizes.default as i64, min: sizes.min as i64, max: sizes.max as i64 },
            ),
        ];
        if self.session.uses_threads_and_hash() {
            options.push(("Threads", OptionKind::Spin { default: 1, min: 1, max: 256 }));
        }
        if self.session.uses_hash() {
            options.push(("Hash", OptionKind::Spin { default: 64, min: 1, max: 65536 }));
        }
        options.push((
            "ResultWords",
            OptionKind::Combo { default: "ugi".into(), values: vec!["ugi".into(), "full".into()] },
        ));
        options.extend(self.session.options());
        for (name, kind) in options {
            self.out.line(ugi::option_line(name, &kind));
        }
        self.out.line("ugiok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        fn need<'a>(name: &str, v: Option<&'a str>) -> Result<&'a str> {
            v.ok_or_else(|| EngineError::Syntax(format!("option '{name}' needs a value")))
        }
        let spin = |v: Option<&str>, min: usize, max: usize| -> Result<usize> {
            let v = need(name, v)?;
            v.parse::<usize>().ok().filter(|n| (min..=max).contains(n)).ok_or_else(|| {
                EngineError::Syntax(format!("option '{name}': '{v}' is not a number from {min} to {max}"))
            })
        };
        let result = match name.to_ascii_lowercase().as_str() {
            "game" => need(name, value)
                .and_then(|v| games::GameKind::parse(v).map_err(EngineError::Refused))
                .and_then(|game| self.choose_game(game)),
            "boardsize" => need(name, value).and_then(|v| self.set_board_size(v)),
            "resultwords" => need(name, value).and_then(|v| {
                self.full_results = match v.to_ascii_lowercase().as_str() {
                    "ugi" => false,
                    "full" => true,
                    other => {
                        return Err(EngineError::Syntax(format!("option 'ResultWords': '{other}' is not ugi or full")));
                    }
                };
                Ok(())
            }),
            "threads" => spin(value, 1, 256).map(|n| {
                self.options.threads = n;
                self.note_unused_option("Threads");
            }),
            "hash" => {
                spin(value, 1, 65536).and_then(|n| crate::games::session::checked_hash(&self.options, n)).map(|n| {
                    self.options.hash_mb = n;
                    self.note_unused_option("Hash");
                })
            }
            _ => match self.session.set_option(name, value) {
                Ok(true) => {
                    self.keep_game_option(name, value);
                    Ok(())
                }
                Ok(false) => {
                    let games = games_with_option(name);
                    if games.is_empty() {
                        // As UCI engines do: an option the engine does not have is
                        // ignored (a client's sample settings send `debug`, `ownbook`),
                        // said once (for the first names: input may invent endless ones).
                        let new = self.unknown_options.len() < MAX_UNKNOWN_OPTIONS
                            && self.unknown_options.insert(name.to_ascii_lowercase());
                        if new {
                            self.out.line(format!("info string unknown option '{name}' ignored"));
                        }
                    } else {
                        self.keep_game_option(name, value);
                        self.out.line(format!(
                            "info string option '{name}' is kept for when {} is chosen",
                            games.join(" or ")
                        ));
                    }
                    Ok(())
                }
                Err(e) => Err(e),
            },
        };
        if let Err(e) = result {
            self.out.line(e.ugi_line());
        }
    }

    /// Remembers a game option as asked for, for the sessions to come.
    fn keep_game_option(&mut self, name: &str, value: Option<&str>) {
        let key = name.to_ascii_lowercase();
        self.game_options.retain(|(n, _)| *n != key);
        self.game_options.push((key, value.map(str::to_string)));
    }

    /// Puts `session` in place and gives it the game options asked for so far that it
    /// has (a value it refuses is said, as when it was set).
    fn install(&mut self, session: Box<dyn GameSession>) {
        self.session = session;
        for (name, value) in &self.game_options {
            if let Err(e) = self.session.set_option(name, value.as_deref()) {
                self.out.line(e.ugi_line());
            }
        }
    }

    /// `Game`: a session of `game` (the same game keeps its session), on the waiting
    /// `BoardSize` if the game has it, else on its default size.
    fn choose_game(&mut self, game: games::GameKind) -> Result<()> {
        if game == self.session.game() {
            return Ok(());
        }
        let session = match self.waiting_size.map(|n| game.new_session(Some(n))) {
            Some(Ok(session)) => {
                self.waiting_size = None;
                session
            }
            _ => game.new_session(None)?,
        };
        self.install(session);
        Ok(())
    }

    /// `BoardSize`: the current game's size now if it has it; a size only another game
    /// has waits for that game (options come in any order); a size no game has is
    /// refused, naming the current game's sizes.
    fn set_board_size(&mut self, value: &str) -> Result<()> {
        let game = self.session.game();
        let sizes = game.board_sizes();
        let n = value.trim().parse::<usize>().map_err(|_| {
            EngineError::BoardSize(format!(
                "option 'BoardSize': '{value}' is not a board size ({} sizes: {})",
                game.name(),
                sizes.text
            ))
        })?;
        let refusal = match game.new_session(Some(n)) {
            Ok(session) => {
                self.waiting_size = None;
                self.install(session);
                return Ok(());
            }
            Err(e) => e,
        };
        let others = games_where(|g| g.new_session(Some(n)).is_ok());
        if others.is_empty() {
            // The current game's refusal names its sizes.
            return Err(EngineError::BoardSize(format!("option 'BoardSize': {refusal}")));
        }
        self.waiting_size = Some(n);
        self.out.line(format!(
            "info string BoardSize {n} is kept for when {} is chosen ({} is played on {})",
            others.join(" or "),
            game.name(),
            sizes.text
        ));
        Ok(())
    }

    /// Says so when `name` (Threads or Hash) is kept for later but the current game's
    /// search does not use it.
    fn note_unused_option(&self, name: &str) {
        let used = if name == "Hash" { self.session.uses_hash() } else { self.session.uses_threads_and_hash() };
        if !used {
            self.out.line(format!("info string {name} is kept, but {} does not use it", self.session.game().name()));
        }
    }

    fn query(&self, q: &Query) {
        let answer = match q {
            Query::GameOver => self.session.outcome().is_some().to_string(),
            Query::P1Turn => self.session.p1_to_move().to_string(),
            Query::Result if self.full_results => Outcome::ugi_full_word(self.session.outcome()).to_string(),
            Query::Result => Outcome::ugi_word(self.session.outcome()).to_string(),
            Query::LegalMoves => self.session.legal_moves().join(" "),
            Query::IsLegal(mv) => self.session.is_legal(mv).to_string(),
            Query::Fen => self.session.fen(),
            Query::Score => self.session.score(),
            Query::View { .. } | Query::Full | Query::Counts | Query::LastLegal | Query::Captured => {
                match self.session.game_query(q) {
                    Ok(answer) => answer,
                    Err(e) => return self.out.line(e.ugi_line()),
                }
            }
        };
        self.out.line(ugi::response_line(&answer));
    }

    /// Counts perft on its own thread, as a search runs: `stop` ends it, `isready`
    /// is answered meanwhile, and the commands that change the state wait for it.
    fn perft(&mut self, depth: u32) {
        let job = match self.session.perft(depth, self.options.threads) {
            Ok(job) => job,
            Err(e) => return self.out.line(e.ugi_line()),
        };
        let stop = StopFlag::new();
        let thread_stop = stop.clone();
        let out = Answer::new(self);
        let answer = out.clone();
        let spawned = std::thread::Builder::new().name("perft".into()).spawn(move || {
            let start = Instant::now();
            match job(&thread_stop) {
                Some(count) => {
                    let ms = start.elapsed().as_millis() as u64;
                    let nps = count as u128 * 1000 / ms.max(1) as u128;
                    out.line(format!("info string perft depth {depth} leaves {count} time {ms} nps {nps}"));
                    out.last(format!("perft {depth} {count}"));
                }
                None => out.last(format!("info string perft depth {depth} stopped")),
            }
        });
        match spawned {
            Ok(handle) => self.running = Some(answer.running(stop, handle, false)),
            Err(e) => self.error(&format!("cannot start perft: {e}")),
        }
    }

    /// Runs `bench` on its own thread, as a search: `stop` ends it, `isready` is
    /// answered meanwhile, later commands wait for it.
    fn bench(&mut self, depth: Option<u32>) {
        let stop = StopFlag::new();
        let thread_stop = stop.clone();
        let out = Answer::new(self);
        let answer = out.clone();
        let spawned = std::thread::Builder::new().name("bench".into()).spawn(move || {
            match crate::tools::bench::run(depth, 1, &thread_stop) {
                Some(mut lines) => {
                    let last = lines.pop();
                    lines.into_iter().for_each(|l| out.line(l));
                    out.last(last.unwrap_or_default());
                }
                None => out.last("info string bench stopped"),
            }
        });
        match spawned {
            Ok(handle) => self.running = Some(answer.running(stop, handle, false)),
            Err(e) => self.error(&format!("cannot start bench: {e}")),
        }
    }

    fn go(&mut self, go: &GoCommand) {
        if self.session.outcome().is_some() {
            self.error("the game is over: there is no move to search");
            self.out.line(ugi::bestmove_line(None));
            return;
        }
        let ms = Duration::from_millis;
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime.map(ms),
            infinite: go.infinite,
            clock: Clock {
                time: [go.p1time.map(ms), go.p2time.map(ms)],
                increment: [ms(go.p1inc.unwrap_or(0)), ms(go.p2inc.unwrap_or(0))],
                moves_to_go: go.movestogo,
            },
        };
        let job = self.session.search_job(limits, &self.options);
        let stop = StopFlag::new();
        let out = Answer::new(self);
        let answer = out.clone();
        let thread_stop = stop.clone();
        let spawned = std::thread::Builder::new().name("search".into()).spawn(move || {
            let mut last_info: Option<(Instant, String)> = None;
            let outcome = job(&thread_stop, &mut |report| {
                if last_info.as_ref().is_none_or(|(t, _)| t.elapsed() >= INFO_INTERVAL) {
                    let line = report.info().to_string();
                    out.line(line.clone());
                    last_info = Some((Instant::now(), line));
                }
            });
            // The final state, unless the last line printed said it already.
            let last = outcome.report.info().to_string();
            if last_info.is_none_or(|(_, printed)| printed != last) {
                out.line(last);
            }
            out.last(ugi::bestmove_line(outcome.best_move.as_deref()));
        });
        match spawned {
            Ok(handle) => self.running = Some(answer.running(stop, handle, go.infinite)),
            Err(e) => {
                self.error(&format!("cannot start the search: {e}"));
                self.out.line(ugi::bestmove_line(None));
            }
        }
    }
}

/// Commands that start a search (and end with its answer).
fn starts_a_search(command: &Command) -> bool {
    matches!(command, Command::Go(_) | Command::Perft(_) | Command::Bench(_))
}

/// Commands answered even while a search runs: they read the state or end the search.
fn answered_at_once(command: &Command) -> bool {
    matches!(
        command,
        Command::IsReady | Command::Stop | Command::Quit | Command::Query(_) | Command::Display | Command::Ugi
    )
}

impl FrontEnd for UgiEngine {
    fn line(&mut self, line: &str) -> bool {
        self.handle_line(line)
    }

    fn too_long(&mut self, length: usize, _start: &str) -> bool {
        self.error(&format!("line of {length} bytes ignored: longer than {MAX_LINE}"));
        true
    }

    /// The end of input is a `quit` (see [`UgiEngine::close`]).
    fn end_of_input(&mut self) {
        self.close();
    }

    fn waiting(&self) -> bool {
        !self.pending.is_empty()
    }

    fn poll(&mut self) -> bool {
        self.run_pending()
    }

    fn finish(&mut self) {
        self.stop_search();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::collecting_output;

    fn run_lines(lines: &[&str]) -> Vec<String> {
        let (out, rx) = collecting_output();
        let mut engine = UgiEngine::new(out);
        for l in lines {
            if !engine.handle_line(l) {
                break;
            }
        }
        engine.drain();
        engine.stop_search();
        drop(engine);
        rx.iter().collect()
    }

    #[test]
    fn handshake_lists_options() {
        let out = run_lines(&["ugi"]);
        assert!(out[0].starts_with("id name sente"));
        assert!(out.iter().any(|l| l.starts_with("option name Game type combo default othello")));
        assert_eq!(out.last().unwrap(), "ugiok");
    }

    #[test]
    fn threads_and_hash_are_offered_where_they_act() {
        let othello = run_lines(&["ugi"]);
        assert!(othello.iter().any(|l| l.starts_with("option name Threads ")), "{othello:?}");
        assert!(othello.iter().any(|l| l.starts_with("option name Hash ")), "{othello:?}");
        let go = run_lines(&["setoption name Game value go", "ugi", "setoption name Threads value 2"]);
        assert!(go.iter().any(|l| l.starts_with("option name Threads ")), "{go:?}");
        assert!(go.iter().any(|l| l.starts_with("option name Hash ")), "{go:?}");
        assert_eq!(go.last().unwrap(), "ugiok", "Go's search uses Threads: nothing to say");
        for game in ["phantomgo", "chaosclock"] {
            let out =
                run_lines(&[&format!("setoption name Game value {game}"), "ugi", "setoption name Threads value 2"]);
            assert!(!out.iter().any(|l| l.starts_with("option name Threads ")), "{out:?}");
            // Chaos Clock's proof tables are bounded by Hash; Phantom Go's trees are
            // small by construction (docs/phantomgo.md).
            let hash = out.iter().any(|l| l.starts_with("option name Hash "));
            assert_eq!(hash, game == "chaosclock", "{out:?}");
            assert_eq!(out.last().unwrap(), &format!("info string Threads is kept, but {game} does not use it"));
        }
        let chaos = run_lines(&["setoption name Game value chaosclock", "setoption name Hash value 8"]);
        assert!(chaos.is_empty(), "Chaos Clock uses Hash: nothing to say: {chaos:?}");
        let small = run_lines(&["setoption name BoardSize value 6", "setoption name Hash value 32"]);
        assert_eq!(small, ["info string Hash is kept, but othello does not use it"]);
    }

    /// The next line written, within a minute.
    fn next_line(rx: &crossbeam_channel::Receiver<String>) -> String {
        rx.recv_timeout(Duration::from_secs(60)).expect("a line within a minute")
    }

    #[test]
    fn a_command_sent_after_the_answer_is_not_queued_behind_the_clean_up() {
        let (out, rx) = collecting_output();
        let mut engine = UgiEngine::new(out);
        // The thread is still alive well after it has answered.
        engine.linger = Duration::from_millis(500);
        engine.handle_line("perft 3");
        let lines: Vec<String> = std::iter::repeat_with(|| next_line(&rx)).take(2).collect();
        assert_eq!(lines[1], "perft 3 56", "{lines:?}");
        // A client that has read the answer changes the board and asks about it: the
        // answer is for the new board, not the old one.
        engine.handle_line("setoption name BoardSize value 10");
        engine.handle_line("query legalmoves");
        assert_eq!(next_line(&rx), "response e4 d5 g6 f7");
        engine.handle_line("go depth 1");
        let reply: Vec<String> =
            std::iter::repeat_with(|| next_line(&rx)).take_while(|l| !l.starts_with("bestmove")).collect();
        assert!(!reply.is_empty());
        engine.handle_line("position startpos moves e4");
        engine.handle_line("query p1turn");
        assert_eq!(next_line(&rx), "response false");
        engine.stop_search();
    }

    #[test]
    fn a_query_behind_a_queued_command_reads_the_state_it_makes() {
        let (out, rx) = collecting_output();
        let mut engine = UgiEngine::new(out);
        engine.handle_line("go movetime 300");
        // Queued behind the search, and the query with it (not answered at once with
        // the position before).
        engine.handle_line("position startpos moves f5");
        engine.handle_line("query p1turn");
        engine.handle_line("query fen");
        // The input loop's polls, which run the queue once the search has ended.
        let mut lines = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(60);
        while !lines.last().is_some_and(|l: &String| l.starts_with("response ") && l.len() > 64) {
            assert!(Instant::now() < deadline, "{lines:?}");
            match rx.recv_timeout(Duration::from_millis(10)) {
                Ok(line) => lines.push(line),
                Err(_) => assert!(engine.poll()),
            }
        }
        lines.pop();
        let best = lines.iter().position(|l| l.starts_with("bestmove ")).expect("a bestmove first");
        assert_eq!(lines[best + 1..], ["response false"], "{lines:?}");
        engine.stop_search();
    }

    #[test]
    fn a_query_behind_a_queued_search_is_answered_during_it() {
        let (out, rx) = collecting_output();
        let mut engine = UgiEngine::new(out);
        engine.handle_line("go movetime 200");
        engine.handle_line("position startpos moves f5");
        engine.handle_line("go infinite");
        engine.handle_line("query p1turn");
        // The first search ends, the queue starts the infinite one, and the query
        // behind it is answered during it (not after a `stop` that never comes).
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut lines: Vec<String> = Vec::new();
        while !lines.last().is_some_and(|l| l.starts_with("response ")) {
            assert!(Instant::now() < deadline, "{lines:?}");
            match rx.recv_timeout(Duration::from_millis(10)) {
                Ok(line) => lines.push(line),
                Err(_) => assert!(engine.poll()),
            }
        }
        assert_eq!(lines.last().map(String::as_str), Some("response false"));
        assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{lines:?}");
        engine.handle_line("stop");
        let rest: Vec<String> =
            std::iter::repeat_with(|| next_line(&rx)).take_while(|l| !l.starts_with("bestmove")).collect();
        assert!(rest.iter().all(|l| l.starts_with("info ")), "{rest:?}");
    }

    #[test]
    fn a_stop_behind_a_queued_search_stops_that_search() {
        let (out, rx) = collecting_output();
        let mut engine = UgiEngine::new(out);
        engine.handle_line("go movetime 200");
        engine.handle_line("go infinite");
        // Meant for the infinite search queued before it, not the one running.
        engine.handle_line("stop");
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut lines: Vec<String> = Vec::new();
        while lines.iter().filter(|l| l.starts_with("bestmove ")).count() < 2 {
            assert!(Instant::now() < deadline, "the infinite search was never stopped: {lines:?}");
            match rx.recv_timeout(Duration::from_millis(10)) {
                Ok(line) => lines.push(line),
                Err(_) => assert!(engine.poll()),
            }
        }
        assert!(!engine.searching(), "{lines:?}");
        // With nothing queued a stop ends the running search at once.
        engine.handle_line("go infinite");
        engine.handle_line("stop");
        let rest: Vec<String> =
            std::iter::repeat_with(|| next_line(&rx)).take_while(|l| !l.starts_with("bestmove")).collect();
        assert!(rest.iter().all(|l| l.starts_with("info ")), "{rest:?}");
    }

    #[test]
    fn bad_position_keeps_the_old_one() {
        let out = run_lines(&["position startpos moves d3", "position startpos moves d3 a1", "query fen"]);
        assert!(out[0].starts_with("info string error: move 2 'a1' is illegal"), "{out:?}");
        assert_eq!(out[1], "response -------------------X-------XX------XO--------------------------- O");
    }

    #[test]
    fn options_are_checked() {
        let out = run_lines(&[
            "setoption name Threads value 0",
            "setoption name Hash value lots",
            "setoption name Colour value red",
            "setoption name Game value chess",
            "setoption name BoardSize value 6",
            "query legalmoves",
        ]);
        assert_eq!(out.len(), 5, "{out:?}");
        assert!(out[..2].iter().all(|l| l.starts_with("info string error:")), "{out:?}");
        // An option the engine does not have is ignored, as UCI engines do.
        assert_eq!(out[2], "info string unknown option 'Colour' ignored");
        assert!(out[3].starts_with("info string error:"), "{out:?}");
        assert_eq!(out[4], "response c2 b3 e4 d5");
    }

    #[test]
    fn a_board_size_may_come_before_its_game() {
        let out = run_lines(&[
            "setoption name BoardSize value 7",
            "setoption name Game value go",
            "query fen",
            "setoption name Game value othello",
            "setoption name BoardSize value 11",
            "query fen",
        ]);
        assert_eq!(out[0], "info string BoardSize 7 is kept for when go is chosen (othello is played on 6, 8 or 10)");
        assert_eq!(out[1], "response ......./......./......./......./......./......./....... b");
        assert!(out[2].starts_with("info string error: option 'BoardSize': "), "{out:?}");
        assert!(out[3].starts_with("response ") && out[3].len() > 64, "{out:?}");
        assert_eq!(out.len(), 4, "{out:?}");
    }

    #[test]
    fn game_options_before_their_game_are_kept_and_a_size_is_used_once() {
        let out = run_lines(&[
            "setoption name Komi value 0.5",
            "setoption name Game value go",
            "query score",
            "setoption name BoardSize value 5",
            "query score",
            "setoption name Game value go",
            "query fen",
            "setoption name Game value othello",
            "setoption name BoardSize value 6",
            "setoption name Game value go",
            "query fen",
        ]);
        assert_eq!(out[0], "info string option 'Komi' is kept for when go or phantomgo is chosen");
        // The komi set before the game, kept over a new board size.
        assert_eq!(out[1], "response -0.5");
        assert_eq!(out[2], "response -0.5");
        // Choosing the same game again keeps its session (5x5).
        assert_eq!(out[3], "response ...../...../...../...../..... b");
        // A size the current game took is not carried to the next game.
        assert_eq!(
            out[4],
            "response ........./........./........./........./........./........./........./........./......... b"
        );
        assert_eq!(out.len(), 5, "{out:?}");
    }
}
