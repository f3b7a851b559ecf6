//! The NBoard front end (8×8 Othello): the loop that the NBoard GUI, and arenas
//! speaking its protocol, drive. Searches run on their own thread so that `ping` can
//! stop them at once.

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use bitboards::othello::ggf;
use bitboards::othello::{Board, Color, Game, Move, Position};
use protocol::nboard::{self, Command, ParseError};
use search::StopFlag;
use search::othello::{OthelloPlayer, Request, Solver, ThinkLimits, Thought};

use crate::error::{EngineError, Result};
use crate::games::session::SearchOptions;
use crate::io::{FrontEnd, MAX_LINE, Output};

/// The engine's name as NBoard shows it.
const NAME: &str = "sente";

/// Builds the game a GGF text describes: its start (`BO`, or the usual start), then
/// its moves; a move by the side not to move is preceded by the pass it implies.
pub fn game_from_ggf(text: &str) -> Result<Game<Board>> {
    let g = ggf::parse(text).map_err(|e| EngineError::Refused(format!("bad game ({e})")))?;
    // NBoard always gives the start (`BO`) and the type `TY[8]`; GGS types are `8`,
    // `8r` (a random start), `s8r20` (synchro), `8k` (komi), `8a` (anti), `10`…
    let Some(squares) = &g.board else {
        return Err(EngineError::Refused("bad game (no BO[...]: the start position is missing)".into()));
    };
    if let Some(ty) = g.property("TY") {
        let t = ggf::GameType::parse(ty).map_err(|e| EngineError::Refused(format!("bad game ({e})")))?;
        if t.size != g.size {
            let board = if t.size == 88 { "an octagon board".to_string() } else { format!("a {0}x{0} board", t.size) };
            return Err(EngineError::Refused(format!(
                "bad game (TY[{ty}] is a game on {board}, but BO[] is {0}x{0})",
                g.size
            )));
        }
        if t.anti {
            return Err(EngineError::Refused(format!(
                "bad game (TY[{ty}] is anti Othello, where fewer discs win: not played here)"
            )));
        }
    }
    if g.size != 8 {
        return Err(EngineError::BoardSize(format!("only 8x8 games are supported, not {0}x{0}", g.size)));
    }
    let side = if g.black_to_move { 'X' } else { 'O' };
    let start =
        Position::parse(&format!("{squares} {side}")).map_err(|e| EngineError::Refused(format!("bad game ({e})")))?;
    let mut game = Game::new(start);
    for (i, m) in g.moves.iter().enumerate() {
        let mv = Move::parse(nboard::move_text(&m.text), 8)
            .map_err(|e| EngineError::IllegalMove(format!("bad game (move {}: {e})", i + 1)))?;
        play_with_implied_pass(&mut game, mv, Some(m.black))
            .map_err(|e| EngineError::IllegalMove(format!("bad game (move {} {}: {e})", i + 1, m.text)))?;
    }
    Ok(game)
}

/// Plays `mv` for `color` (if given), inserting the pass the other side must make
/// when it is not `color`'s turn.
fn play_with_implied_pass(game: &mut Game<Board>, mv: Move, black: Option<bool>) -> Result<()> {
    let to_move_is_black = game.position().side_to_move() == Color::BLACK;
    if black.is_some_and(|b| b != to_move_is_black) && mv != Move::Pass {
        if game.position().legal_moves() != vec![Move::Pass] {
            return Err(EngineError::IllegalMove("played out of turn".into()));
        }
        game.play(Move::Pass).map_err(|e| EngineError::IllegalMove(e.to_string()))?;
    }
    game.play(mv).map_err(|e| EngineError::IllegalMove(e.to_string()))
}

struct Running {
    stop: StopFlag,
    handle: JoinHandle<()>,
}

/// The NBoard engine state.
pub struct NboardEngine {
    game: Game<Board>,
    depth: u32,
    options: SearchOptions,
    solver: Option<Arc<Solver>>,
    running: Option<Running>,
    out: Output,
    /// Raised by the input thread when `quit` comes or the input ends: a search (or a
    /// wait for one) stops at once.
    hangup: StopFlag,
}

impl NboardEngine {
    /// A new engine writing to `out`, at the start position, depth 12; `hangup` (raised
    /// by the input thread at `quit` or the end of input) stops any search at once.
    pub fn new(out: Output, options: SearchOptions, hangup: StopFlag) -> NboardEngine {
        NboardEngine {
            game: Game::new(Position::start()),
            depth: 12,
            options,
            solver: None,
            running: None,
            out,
            hangup,
        }
    }

    /// Waits for a running search to end by itself, or stops it as soon as `quit` has
    /// come (the commands between wait behind it, as they would have run after it).
    fn wait_for_search(&mut self) {
        if let Some(r) = self.running.take() {
            while !r.handle.is_finished() {
                if self.hangup.is_stopped() {
                    r.stop.stop();
                }
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            let _ = r.handle.join();
        }
    }

    fn status(&self, text: &str) {
        self.out.line(format!("status {text}"));
    }

    fn solver(&mut self) -> Arc<Solver> {
        let options = self.options;
        self.solver.get_or_insert_with(|| Arc::new(Solver::new(options.hash_mb, options.threads))).clone()
    }

    fn finish_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.stop();
            let _ = r.handle.join();
        }
    }

    /// Handles one line; false means quit.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let command = match nboard::parse(line) {
            Ok(c) => c,
            Err(ParseError::Empty) => return true,
            Err(e) => {
                self.status(&format!("error: {e}"));
                return true;
            }
        };
        // Anything but ping and quit waits for a running search (the GUI sends ping
        // first); ping and quit stop it.
        if !matches!(command, Command::Ping(_) | Command::Quit) {
            self.wait_for_search();
        }
        match command {
            Command::Nboard(_) => {
                // The built-in opening book is read now, not on the first `go`, and so
                // are the evaluation's weights and the solver with its table's pages.
                search::othello::built_in_book();
                search::othello::is_trained();
                self.solver().table().touch_pages();
                self.out.line(format!("set myname {NAME}"));
            }
            Command::SetDepth(d) => {
                self.depth = d.clamp(1, 60);
                self.out.line(format!("set myname {NAME}{}", self.depth));
            }
            Command::SetGame(text) => match game_from_ggf(&text) {
                Ok(game) => self.game = game,
                Err(e) => self.out.line(format!("{}; position unchanged", e.nboard_line())),
            },
            Command::SetContempt(_) => self.status("contempt is not used by this engine: draws count as 0"),
            Command::Move(arg) => {
                let text = nboard::move_text(&arg);
                let result = Move::parse(text, 8)
                    .map_err(|e| EngineError::IllegalMove(e.to_string()))
                    .and_then(|mv| play_with_implied_pass(&mut self.game, mv, None))
                    .map_err(|e| EngineError::IllegalMove(format!("move {text}: {e}")));
                if let Err(e) = result {
                    self.out.line(format!("{}; position unchanged", e.nboard_line()));
                }
            }
            Command::Go => self.search(1, true),
            Command::Hint(n) => self.search(n.max(1), false),
            Command::Ping(n) => {
                self.finish_search();
                self.out.line(format!("pong {n}"));
            }
            Command::Learn => self.out.line("learned"),
            Command::Analyze => self.analyze(),
            Command::Quit => return false,
        }
        true
    }

    fn limits(&self, exclude: u64) -> ThinkLimits {
        search::othello::level_limits(self.depth, exclude)
    }

    /// `go` (one move, answered with `===`) or `hint n` (the best `n` moves, answered
    /// with `search` lines), on the search thread.
    fn search(&mut self, count: u32, is_go: bool) {
        let position = *self.game.position();
        if position.is_game_over() {
            self.status("error: the game is over");
            return;
        }
        let solver = self.solver();
        let limits = self.limits(0);
        let (player, depth) = (OthelloPlayer::default(), self.depth);
        let out = self.out.clone();
        let stop = StopFlag::new();
        let thread_stop = stop.clone();
        let spawned = std::thread::Builder::new().name("nboard-search".into()).spawn(move || {
            out.line("status thinking");
            let start = Instant::now();
            if position.legal_moves() == vec![Move::Pass] {
                if is_go {
                    out.line(nboard::best_move_line("PA", 0.0, 0.0));
                } else {
                    out.line(nboard::search_line(&["PA".into()], 0.0, "0"));
                }
                out.line("status");
                return;
            }
            if is_go {
                // The player UGI+ and GTP play (the opening book's move where the
                // position is in it), at NBoard's level.
                let nodestats = |t: &Thought| {
                    if t.nodes > 0 {
                        out.line(format!("nodestats {} {:.2}", t.nodes, start.elapsed().as_secs_f64()));
                    }
                };
                let choice = player.choose(&solver, &position, Request::Level(depth), &thread_stop, nodestats);
                if let Some(sq) = choice.thought.best_move {
                    let mv = Move::Play(sq).name(8).to_ascii_uppercase();
                    out.line(nboard::best_move_line(&mv, choice.thought.score as f64, start.elapsed().as_secs_f64()));
                }
                out.line("status");
                return;
            }
            let mut exclude = 0u64;
            for _ in 0..count {
                let lim = ThinkLimits { exclude, ..limits };
                let t = solver.think(position.board(), lim, thread_stop.as_atomic(), |t: &Thought| {
                    out.line(format!("nodestats {} {:.2}", t.nodes, start.elapsed().as_secs_f64()));
                });
                let Some(sq) = t.best_move else { break };
                let pv: Vec<String> =
                    t.pv.iter()
                        .map(|&s| if s >= 64 { "PA".into() } else { Move::Play(s).name(8).to_ascii_uppercase() })
                        .collect();
                let depth = if t.exact { format!("{}@100%", t.depth) } else { t.depth.to_string() };
                out.line(nboard::search_line(&pv, t.score as f64, &depth));
                exclude |= 1u64 << sq;
                if thread_stop.is_stopped() {
                    break;
                }
            }
            out.line("status");
        });
        match spawned {
            Ok(handle) => self.running = Some(Running { stop, handle }),
            Err(e) => self.status(&format!("error: cannot start the search: {e}")),
        }
    }

    /// `analyze`: the value of every position of the game, from the last back to the
    /// first, as `analysis <ply> <eval>` (eval for the side to move).
    fn analyze(&mut self) {
        let solver = self.solver();
        let stop = self.hangup.clone();
        let mut positions: Vec<Position<Board>> = vec![*self.game.start()];
        for &mv in self.game.moves() {
            let next = positions[positions.len() - 1].play(mv).expect("a played move is legal");
            positions.push(next);
        }
        self.status("analyzing");
        for (ply, pos) in positions.iter().enumerate().rev() {
            let value = match pos.result() {
                Some(_) => pos.board().final_score(),
                None => solver.think(pos.board(), self.limits(0), stop.as_atomic(), |_| {}).score,
            };
            // `quit` or the end of input stopped it: the value of a stopped search is
            // not the position's, and the rest is not wanted.
            if stop.is_stopped() {
                break;
            }
            self.out.line(format!("analysis {ply} {value}"));
        }
        self.status("");
    }
}

impl FrontEnd for NboardEngine {
    fn line(&mut self, line: &str) -> bool {
        self.handle_line(line)
    }

    fn too_long(&mut self, length: usize, _start: &str) -> bool {
        self.status(&format!("error: line of {length} bytes ignored (longer than {MAX_LINE})"));
        true
    }

    fn finish(&mut self) {
        self.finish_search();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ggf_games_with_implied_passes() {
        let g = game_from_ggf(
            "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)",
        )
        .unwrap();
        assert_eq!(g.moves().len(), 2);
        let e = game_from_ggf(
            "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]W[F5];)",
        )
        .unwrap_err();
        assert!(e.to_string().contains("out of turn"), "{e}");
        assert!(game_from_ggf("(;GM[Othello]BO[6 ------------------------------------ *];)").is_err());
        assert!(game_from_ggf("(;GM[Othello]B[Z9];)").is_err());
    }
}
