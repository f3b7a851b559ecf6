//! The game-agnostic face of a game for the protocol loops: a [`GameSession`] holds
//! the current position of one game and answers everything a front end asks, UGI+ and
//! GTP alike.
//! Searches run on their own thread from a [`SearchJob`], a snapshot of the position,
//! so the loop stays free to answer `isready` and `stop`.

use std::time::Duration;

use protocol::gtp::Command;
use protocol::ugi::{InfoScore, OptionKind, Query, StartPosition};
use search::{Limits, Outcome, Score, StopFlag};

use crate::error::{EngineError, Result};
use crate::games::GameKind;
use crate::io::Output;

/// Engine-wide settings a search needs (`Threads`, `Hash`): what a
/// [`search::player::Player`] may use of the machine.
pub use search::player::Resources as SearchOptions;

/// `mb` MiB for the tables (`Hash`, `sente-hash`) if the system can give that much
/// memory now; otherwise an error that says `options`' size stays. Checked when set,
/// as the tables are allocated only at the next search, where a refusal could not be
/// answered as an error.
pub fn checked_hash(options: &SearchOptions, mb: usize) -> Result<usize> {
    search::tt::check_memory(mb)
        .map(|()| mb)
        .map_err(|e| EngineError::Refused(format!("{e}; the hash table stays {} MiB", options.hash_mb)))
}

/// Progress of a search, in protocol-neutral form.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// Score of the best move for the side to move.
    pub score: Score,
    /// Principal variation, in the game's move notation.
    pub pv: Vec<String>,
    /// A word to the user instead of progress (see [`Report::note`]).
    pub note: Option<String>,
}

impl Report {
    /// A report that only says `text` to the user (UGI: `info string text`), e.g. that
    /// a limit of the `go` command is not one this game's search knows and what it
    /// does instead. A search job sends it before its progress.
    pub fn note(text: impl Into<String>) -> Report {
        Report {
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            score: Score::Centi(0),
            pv: Vec::new(),
            note: Some(text.into()),
        }
    }

    /// The UGI `info` line for this report.
    pub fn info(&self) -> protocol::ugi::Info {
        if let Some(text) = &self.note {
            return protocol::ugi::Info { string: Some(text.clone()), ..Default::default() };
        }
        protocol::ugi::Info {
            depth: Some(self.depth),
            nodes: Some(self.nodes),
            time_ms: Some(self.elapsed.as_millis() as u64),
            score: Some(match self.score {
                Score::Centi(v) => InfoScore::Centi(v),
                Score::Exact(v) => InfoScore::Disc(v),
            }),
            pv: self.pv.clone(),
            ..Default::default()
        }
    }
}

/// What a finished search hands back.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutcome {
    /// The move to play, `None` when there is none.
    pub best_move: Option<String>,
    /// The final state of the search.
    pub report: Report,
}

/// A search ready to run on another thread: call it with the stop flag and a
/// callback for progress reports.
pub type SearchJob = Box<dyn FnOnce(&StopFlag, &mut (dyn FnMut(&Report) + Send)) -> SearchOutcome + Send>;

/// A perft count ready to run on another thread: call it with the stop flag; `None`
/// if it was stopped.
pub type PerftJob = Box<dyn FnOnce(&StopFlag) -> Option<u64> + Send>;

/// One game's state as the protocol loops (UGI+, GTP) drive it.
pub trait GameSession: Send {
    /// The game this session plays.
    fn game(&self) -> GameKind;
    /// Game-specific options, announced after `ugi`.
    fn options(&self) -> Vec<(&'static str, OptionKind)> {
        Vec::new()
    }
    /// Sets a game-specific option; `Ok(false)` if the name is not one of ours.
    fn set_option(&mut self, _name: &str, _value: Option<&str>) -> Result<bool> {
        Ok(false)
    }
    /// True when the search uses the engine-wide `Threads` and `Hash` settings (they
    /// are announced after `ugi` only then).
    fn uses_threads_and_hash(&self) -> bool {
        false
    }
    /// True when the search's memory is bounded by the engine-wide `Hash` (announced
    /// after `ugi` only then); every game whose search uses `Threads` uses it too.
    fn uses_hash(&self) -> bool {
        self.uses_threads_and_hash()
    }
    /// Does now the set-up the next search would otherwise pay for (its tables or tree
    /// for `options`, the opening book), so that `isready` is answered once it is done:
    /// ugi.md and UCI want expensive work before `readyok`, not inside the first `go`.
    fn prepare(&mut self, options: &SearchOptions) {
        let _ = options;
    }
    /// Forgets everything about the previous game (tables, history).
    fn new_game(&mut self);
    /// Sets the position; on error the previous position is kept.
    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<()>;
    /// True when player one is to move.
    fn p1_to_move(&self) -> bool;
    /// The outcome once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The legal moves in the game's notation.
    fn legal_moves(&self) -> Vec<String>;
    /// Whether `mv` is legal now.
    fn is_legal(&self, mv: &str) -> bool;
    /// The position's text form.
    fn fen(&self) -> String;
    /// Player one's current score in the game's counting.
    fn score(&self) -> String;
    /// A drawing of the position.
    fn draw(&self) -> String;
    /// Perft of the current position, ready to run on another thread.
    fn perft(&self, depth: u32, threads: usize) -> Result<PerftJob>;
    /// A search of the current position.
    fn search_job(&mut self, limits: Limits, options: &SearchOptions) -> SearchJob;
    /// GTP `boardsize n`: a board of side `size` (Go: an empty one; a game played on
    /// one size only takes that size and keeps its position), or why not (the board
    /// stays).
    fn set_board_size(&mut self, size: usize) -> Result<()> {
        Err(EngineError::BoardSize(format!("{size}x{size}: GTP plays {} on its one size", self.game().spec().title())))
    }
    /// GTP `komi k`; a game without komi ignores it.
    fn set_komi(&mut self, komi: f64) {
        let _ = komi;
    }
    /// GTP `play color vertex`: plays `mv` for player one (`p1`) or two.
    fn play_as(&mut self, p1: bool, mv: &str) -> Result<()> {
        let _ = (p1, mv);
        Err(self.not_over_gtp())
    }
    /// GTP `genmove color`: chooses, plays and names the move of player one (`p1`)
    /// or two; the search ends early when `stop` is raised (input ended).
    fn genmove(&mut self, p1: bool, limits: Limits, options: &SearchOptions, stop: &StopFlag) -> Result<String> {
        let _ = (p1, limits, options, stop);
        Err(self.not_over_gtp())
    }
    /// GTP `undo`: takes back the last move played.
    fn undo(&mut self) -> Result<()> {
        Err(EngineError::CannotUndo)
    }
    /// GTP `final_score`: `B+m`, `W+m` or `0`.
    fn final_score(&mut self) -> Result<String> {
        Err(self.not_over_gtp())
    }
    /// The refusal of a GTP command by a game GTP does not play.
    fn not_over_gtp(&self) -> EngineError {
        EngineError::Refused(format!("GTP does not play {}", self.game().spec().title()))
    }
    /// GTP commands of this game only; `None` if `cmd` is not one of them. A search
    /// among them stops when `stop` is raised (`quit` or the end of input).
    fn gtp_extra(&mut self, cmd: &Command, out: &Output, stop: &StopFlag) -> Option<Result<String>> {
        let _ = (cmd, out, stop);
        None
    }
    /// Names of the commands [`GameSession::gtp_extra`] handles.
    fn gtp_extra_commands(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// Starts a GTP command that streams analysis until the next command arrives
    /// (`lz-analyze`, `kata-analyze`); `None` if `cmd` is not one. The loop writes
    /// the `=` line, runs the job on its own thread, stops it when the next line
    /// arrives and then ends the reply with the empty line.
    fn gtp_analysis(&mut self, cmd: &Command) -> Option<Result<AnalysisJob>> {
        let _ = cmd;
        None
    }
    /// GTP commands that write their whole reply themselves while they run
    /// (`lz-genmove_analyze`): true if `cmd` was one and its reply, `=` line to empty
    /// line (or a `?` reply), was written to `out`. `limits(black)` gives the search
    /// limits of a colour from the clock; the search stops when `stop` is raised
    /// (`quit` or the end of input).
    fn gtp_streamed_reply(
        &mut self,
        cmd: &Command,
        limits: &dyn Fn(bool) -> Limits,
        out: &Output,
        stop: &StopFlag,
    ) -> bool {
        let _ = (cmd, limits, out, stop);
        false
    }
    /// Answers a query only some games know (Phantom Go's `view`, `full`, `counts`,
    /// `lastlegal`, `captured`); the others say it is not theirs.
    fn game_query(&self, query: &Query) -> Result<String> {
        let word = match query {
            Query::View { .. } => "view",
            Query::Full => "full",
            Query::Counts => "counts",
            Query::LastLegal => "lastlegal",
            Query::Captured => "captured",
            _ => "this",
        };
        Err(format!("query {word} is for Phantom Go only (setoption name Game value phantomgo)").into())
    }
}

/// An analysis running on its own thread: call it with the stop flag and the output
/// for its lines; it returns once stopped.
pub type AnalysisJob = Box<dyn FnOnce(&StopFlag, &Output) + Send>;
