//! The UGI+ loop: reads commands, keeps the game state, runs searches on their own
//! thread and answers `isready` and `stop` while they run.

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;
use protocol::ugi::{self, Command, GoCommand, OptionKind, Query};
use search::{Clock, Limits, StopFlag};

use crate::games;
use crate::io::{Input, MAX_LINE, Output};
use crate::session::{GameSession, SearchOptions, outcome_word};

/// Shortest gap between two `info` lines during a search (the final one is always
/// printed).
const INFO_INTERVAL: Duration = Duration::from_millis(100);

struct Running {
    stop: StopFlag,
    handle: JoinHandle<()>,
    /// `go infinite`: only `stop` ends it.
    infinite: bool,
}

/// The UGI+ engine state.
pub struct UgiEngine {
    session: Box<dyn GameSession>,
    options: SearchOptions,
    running: Option<Running>,
    out: Output,
}

impl UgiEngine {
    /// An engine playing the default game (Othello 8×8) that writes to `out`.
    pub fn new(out: Output) -> UgiEngine {
        let session = games::make_session(games::DEFAULT_GAME, None).expect("the default game exists");
        UgiEngine { session, options: SearchOptions::default(), running: None, out }
    }

    /// Runs until `quit` or the end of input. At the end of input a search with a
    /// limit is allowed to finish (so that piped scripts get their answer); `quit`
    /// and `go infinite` searches are stopped.
    pub fn run(mut self, input: &Receiver<Input>) {
        for item in input.iter() {
            let line = match item {
                Input::Line(line) => line,
                Input::TooLong(n) => {
                    self.error(&format!("line of {n} bytes ignored: longer than {MAX_LINE}"));
                    continue;
                }
                Input::Eof => {
                    self.wait_for_search();
                    break;
                }
            };
            if !self.handle_line(&line) {
                break;
            }
        }
        self.stop_search();
    }

    /// Waits for a search with a limit to end by itself; stops an infinite one.
    /// Returns false if an infinite search is running (nothing was waited for).
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
        if self.running.as_ref().is_some_and(|r| r.handle.is_finished()) {
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

    /// Handles one line; false means quit.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let command = match ugi::parse(line) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e.to_string());
                return true;
            }
        };
        let read_only = matches!(
            command,
            Command::IsReady | Command::Stop | Command::Quit | Command::Query(_) | Command::Display | Command::Ugi
        );
        // Other commands wait for a search with a limit, as if it had run inline;
        // during `go infinite` they are refused.
        if !read_only && self.searching() && !self.wait_for_search() {
            self.error(&format!("'{}' ignored during go infinite: send stop first", line.trim()));
            return true;
        }
        match command {
            Command::Ugi => self.identify(),
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => self.session.new_game(),
            Command::Position { start, moves } => {
                if let Err(e) = self.session.set_position(&start, &moves) {
                    self.error(&format!("{e}; position unchanged"));
                }
            }
            Command::Go(go) => self.go(&go),
            Command::Stop => self.stop_search(),
            Command::Quit => return false,
            Command::Query(q) => self.query(&q),
            Command::Perft(depth) => self.perft(depth),
            Command::Bench(depth) => {
                for l in crate::bench::run(depth) {
                    self.out.line(l);
                }
            }
            Command::Display => self.out.lines(&self.session.draw()),
        }
        true
    }

    fn identify(&self) {
        self.out.line(format!("id name sente {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author The sente developers");
        let games: Vec<String> = games::GameKind::names().iter().map(|g| g.to_string()).collect();
        let mut options = vec![
            ("Game", OptionKind::Combo { default: games::DEFAULT_GAME.name().into(), values: games }),
            ("BoardSize", OptionKind::Spin { default: 8, min: 2, max: 10 }),
            ("Threads", OptionKind::Spin { default: 1, min: 1, max: 256 }),
            ("Hash", OptionKind::Spin { default: 64, min: 1, max: 65536 }),
        ];
        options.extend(self.session.options());
        for (name, kind) in options {
            self.out.line(ugi::option_line(name, &kind));
        }
        self.out.line("ugiok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        fn need<'a>(name: &str, v: Option<&'a str>) -> Result<&'a str, String> {
            v.ok_or_else(|| format!("option '{name}' needs a value"))
        }
        let spin = |v: Option<&str>, min: usize, max: usize| -> Result<usize, String> {
            let v = need(name, v)?;
            v.parse::<usize>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| format!("option '{name}': '{v}' is not a number from {min} to {max}"))
        };
        let result = match name.to_ascii_lowercase().as_str() {
            "game" => need(name, value)
                .and_then(games::GameKind::parse)
                .and_then(|game| games::make_session(game, None))
                .map(|s| self.session = s),
            "boardsize" => spin(value, 2, 10)
                .and_then(|n| games::make_session(self.session.game(), Some(n)).map(|s| self.session = s)),
            "threads" => spin(value, 1, 256).map(|n| self.options.threads = n),
            "hash" => spin(value, 1, 65536).map(|n| self.options.hash_mb = n),
            _ => match self.session.set_option(name, value) {
                Ok(true) => Ok(()),
                Ok(false) => Err(format!("unknown option '{name}'")),
                Err(e) => Err(e),
            },
        };
        if let Err(e) = result {
            self.error(&e);
        }
    }

    fn query(&self, q: &Query) {
        let answer = match q {
            Query::GameOver => self.session.outcome().is_some().to_string(),
            Query::P1Turn => self.session.p1_to_move().to_string(),
            Query::Result => outcome_word(self.session.outcome()).to_string(),
            Query::LegalMoves => self.session.legal_moves().join(" "),
            Query::IsLegal(mv) => self.session.is_legal(mv).to_string(),
            Query::Fen => self.session.fen(),
            Query::Score => self.session.score(),
            Query::View { .. } | Query::Full | Query::Counts | Query::LastLegal | Query::Captured => {
                match self.session.game_query(q) {
                    Ok(answer) => answer,
                    Err(e) => return self.error(&e),
                }
            }
        };
        self.out.line(ugi::response_line(&answer));
    }

    fn perft(&self, depth: u32) {
        let start = Instant::now();
        match self.session.perft(depth, self.options.threads) {
            Ok(count) => {
                let ms = start.elapsed().as_millis() as u64;
                let nps = count as u128 * 1000 / ms.max(1) as u128;
                self.out.line(format!("info string perft depth {depth} leaves {count} time {ms} nps {nps}"));
                self.out.line(format!("perft {depth} {count}"));
            }
            Err(e) => self.error(&e),
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
        let out = self.out.clone();
        let thread_stop = stop.clone();
        let spawned = std::thread::Builder::new().name("search".into()).spawn(move || {
            let mut last_info: Option<Instant> = None;
            let outcome = job(&thread_stop, &mut |report| {
                if last_info.is_none_or(|t| t.elapsed() >= INFO_INTERVAL) {
                    last_info = Some(Instant::now());
                    out.line(report.info().to_string());
                }
            });
            out.line(outcome.report.info().to_string());
            out.line(ugi::bestmove_line(outcome.best_move.as_deref()));
        });
        match spawned {
            Ok(handle) => self.running = Some(Running { stop, handle, infinite: go.infinite }),
            Err(e) => {
                self.error(&format!("cannot start the search: {e}"));
                self.out.line(ugi::bestmove_line(None));
            }
        }
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
        assert!(out[..4].iter().all(|l| l.starts_with("info string error:")));
        assert_eq!(out[4], "response c2 b3 e4 d5");
    }
}
