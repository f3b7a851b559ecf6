//! Othello behind the [`GameSession`] interface, for every board size: the 8×8
//! board searches with the tuned solver ([`SolverSearch`]), the other sizes with the
//! generic alpha-beta ([`GenericSearch`]).

use std::sync::Arc;
use std::time::Instant;

use bitboards::othello::{Board, Color, Move, OthelloBoard, Position};
use protocol::ugi::OptionKind;
use protocol::ugi::StartPosition;
use search::othello::{Book, OthelloPlayer, Request, Solver, Thought};
use search::{Game, Limits, Outcome, Score, StopFlag, alphabeta};

use crate::error::{EngineError, Result};
use crate::games::options::{self, GameOption};
use crate::games::session::{GameSession, PerftJob, Report, SearchJob, SearchOptions, SearchOutcome};

/// How an Othello session searches a position of board type `B`.
pub trait OthelloSearch<B: OthelloBoard>: Send {
    /// A search of `position`.
    fn job(&mut self, position: Position<B>, limits: Limits, options: &SearchOptions) -> SearchJob;
    /// Forgets what earlier searches learnt.
    fn clear(&mut self) {}
    /// Makes now what the next search with `options` would make first (UGI's
    /// `isready`); the generic alpha-beta makes nothing (no table).
    fn prepare(&mut self, _options: &SearchOptions) {}
    /// True when the search uses `Threads` and `Hash`.
    const USES_THREADS_AND_HASH: bool = false;
    /// Options of this search, announced after `ugi`.
    fn options(&self) -> Vec<(&'static str, OptionKind)> {
        Vec::new()
    }
    /// Sets one of [`Self::options`]; `Ok(false)` if the name is not one of them.
    fn set_option(&mut self, _name: &str, _value: Option<&str>) -> Result<bool> {
        Ok(false)
    }
}

/// The generic alpha-beta of the `search` crate, for any board size.
#[derive(Default)]
pub struct GenericSearch;

impl<B: OthelloBoard> OthelloSearch<B> for GenericSearch {
    fn job(&mut self, root: Position<B>, limits: Limits, _options: &SearchOptions) -> SearchJob {
        Box::new(move |stop: &StopFlag, report: &mut (dyn FnMut(&Report) + Send)| {
            let to_report = |r: &alphabeta::SearchResult<Move>| Report {
                depth: r.depth,
                nodes: r.nodes,
                elapsed: r.elapsed,
                score: r.score,
                pv: r.pv.iter().map(|m| m.name(B::SIZE)).collect(),
                note: None,
            };
            let result = alphabeta::search(&root, &limits, stop, |r| report(&to_report(r)));
            SearchOutcome { best_move: result.best_move.map(|m| m.name(B::SIZE)), report: to_report(&result) }
        })
    }
}

/// The 8×8 player (`search::othello::OthelloPlayer`: the opening book, then the
/// solver's search) with its solver, which keeps its table between moves and is
/// rebuilt when `Hash` or `Threads` change. Options `Book` and `BookFile` choose the
/// book.
#[derive(Default)]
pub struct SolverSearch {
    solver: Option<(Arc<Solver>, SearchOptions)>,
    player: OthelloPlayer,
    /// The book file in use (empty: the built-in book).
    book_file: String,
}

impl SolverSearch {
    fn solver(&mut self, options: &SearchOptions) -> Arc<Solver> {
        match &self.solver {
            Some((solver, made_with)) if made_with == options => solver.clone(),
            _ => {
                // The new table is allocated before the old one goes: when the system
                // refuses its memory (a `Hash` too large for it), the old table stays
                // in use, or with none yet, a smaller one is made. The table's pages
                // are mapped lazily, so the two cost little resident memory together.
                let (solver, made_with) = match Solver::try_new(options.hash_mb, options.threads) {
                    Ok(solver) => (Arc::new(solver), *options),
                    Err(e) => match self.solver.take() {
                        Some((old, made_with)) => {
                            // The key may be a size asked for and refused before: the
                            // table's own size is the one that stays.
                            let kept_mb = old.table().size_bytes() >> 20;
                            eprintln!("sente: hash table: {e}; the table of {kept_mb} MiB stays");
                            // The old size with the threads asked for (a new `Threads`
                            // is not lost with the refused size).
                            let solver = if made_with.threads == options.threads {
                                old
                            } else {
                                Solver::try_new(kept_mb, options.threads).map(Arc::new).unwrap_or(old)
                            };
                            (solver, *options)
                        }
                        None => {
                            let (solver, hash_mb) = smaller_solver(options);
                            eprintln!("sente: hash table: {e}; searching with {hash_mb} MiB");
                            (solver, *options)
                        }
                    },
                };
                // Kept under the options asked for: the refused size is not asked for
                // again at every search, only when the options change.
                self.solver = Some((solver.clone(), made_with));
                solver
            }
        }
    }
}

/// A solver with the largest table of at most half `options.hash_mb` MiB that the
/// system gives (halving), and the size it got; aborts only when not even 1 MiB is had.
fn smaller_solver(options: &SearchOptions) -> (Arc<Solver>, usize) {
    let mut hash_mb = options.hash_mb;
    while hash_mb > 1 {
        hash_mb /= 2;
        if let Ok(solver) = Solver::try_new(hash_mb, options.threads) {
            return (Arc::new(solver), hash_mb);
        }
    }
    (Arc::new(Solver::new(1, options.threads)), 1)
}

/// Names of a principal variation's squares (64 = pass).
fn pv_names(pv: &[u8]) -> Vec<String> {
    pv.iter().map(|&sq| if sq >= 64 { Move::Pass } else { Move::Play(sq) }.name(8)).collect()
}

/// The 8×8 player's settings ([`crate::games::options`]): its opening book.
const BOOK_OPTIONS: &[GameOption<SolverSearch>] = &[
    GameOption {
        name: "Book",
        gtp: None,
        kind: || OptionKind::Check { default: true },
        get: |s| s.player.use_book.to_string(),
        set: |s, v| {
            s.player.use_book = match v.to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => return Err("option 'Book' is true or false".into()),
            };
            Ok(())
        },
    },
    GameOption {
        name: "BookFile",
        gtp: None,
        kind: || OptionKind::Text { default: String::new() },
        get: |s| s.book_file.clone(),
        set: |s, v| {
            // Empty: the built-in book. A file that cannot be read keeps the book in use.
            s.player.book = match v.trim() {
                "" => None,
                path => Some(Arc::new(load_book(path).map_err(|e| format!("{e:#}"))?)),
            };
            s.book_file = v.trim().to_string();
            Ok(())
        },
    },
];

impl OthelloSearch<Board> for SolverSearch {
    const USES_THREADS_AND_HASH: bool = true;

    fn options(&self) -> Vec<(&'static str, OptionKind)> {
        options::announce(BOOK_OPTIONS)
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<bool> {
        options::set_by_name(BOOK_OPTIONS, self, name, value)
    }

    fn job(&mut self, root: Position<Board>, limits: Limits, options: &SearchOptions) -> SearchJob {
        let solver = self.solver(options);
        let player = self.player.clone();
        Box::new(move |stop: &StopFlag, report: &mut (dyn FnMut(&Report) + Send)| {
            let start = Instant::now();
            let to_report = |t: &Thought| Report {
                depth: t.depth,
                nodes: t.nodes,
                elapsed: start.elapsed(),
                score: if t.exact { Score::Exact(t.score) } else { Score::Centi(100 * t.score) },
                pv: pv_names(&t.pv),
                note: None,
            };
            let choice = player.choose(&solver, &root, Request::Limits(limits), stop, |t| report(&to_report(t)));
            let thought = choice.thought;
            let best = match thought.best_move {
                Some(sq) => Some(Move::Play(sq).name(8)),
                None if !thought.pv.is_empty() => Some("pass".to_string()),
                None => None,
            };
            SearchOutcome { best_move: best, report: to_report(&thought) }
        })
    }

    fn clear(&mut self) {
        if let Some((solver, _)) = &self.solver {
            solver.clear();
        }
    }

    /// Reads the book in use (the built-in one is parsed once, on first use: about a
    /// third of a second), decodes the evaluation's weights, and makes the solver for
    /// `options`: its threads and its table, every page of it resident (so that the
    /// first search does not pay for them).
    fn prepare(&mut self, options: &SearchOptions) {
        if self.player.use_book && self.player.book.is_none() {
            search::othello::built_in_book();
        }
        search::othello::is_trained();
        let solver = self.solver(options);
        // Not a table smaller than asked for (the system refused the size): the
        // memory it was given may be all there is, so its pages stay lazy.
        if options.hash_mb.checked_mul(1 << 20) == Some(solver.table().size_bytes()) {
            solver.table().touch_pages();
        }
    }
}

/// An Othello game on a board of type `B` (8×8, 6×6 or 10×10), searched by `S`.
pub struct OthelloSession<B: OthelloBoard, S: OthelloSearch<B>> {
    position: Position<B>,
    search: S,
}

impl<B: OthelloBoard, S: OthelloSearch<B> + Default> OthelloSession<B, S> {
    /// A session at the starting position.
    pub fn new() -> Self {
        OthelloSession { position: Position::start(), search: S::default() }
    }
}

impl<B: OthelloBoard, S: OthelloSearch<B> + Default> Default for OthelloSession<B, S> {
    fn default() -> Self {
        Self::new()
    }
}

/// Reads a book file (`sente othello-book` makes them); an error names the file and
/// the line.
fn load_book(path: &str) -> anyhow::Result<Book> {
    use anyhow::Context as _;
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read the book {path}"))?;
    Book::parse(&text).map_err(anyhow::Error::msg).with_context(|| format!("the book {path}"))
}

/// Plays `moves` (text) from `start`, naming the first bad one.
pub fn play_moves<B: OthelloBoard>(start: Position<B>, moves: &[String]) -> Result<Position<B>, String> {
    let mut pos = start;
    for (i, text) in moves.iter().enumerate() {
        let mv = Move::parse(text, B::SIZE).map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        pos = pos.play(mv).map_err(|e| format!("move {} '{text}' is illegal: {e}", i + 1))?;
    }
    Ok(pos)
}

impl<B: OthelloBoard, S: OthelloSearch<B>> GameSession for OthelloSession<B, S> {
    fn uses_threads_and_hash(&self) -> bool {
        S::USES_THREADS_AND_HASH
    }

    fn options(&self) -> Vec<(&'static str, OptionKind)> {
        self.search.options()
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<bool> {
        self.search.set_option(name, value)
    }

    fn game(&self) -> crate::games::GameKind {
        crate::games::GameKind::OTHELLO
    }

    fn prepare(&mut self, options: &SearchOptions) {
        self.search.prepare(options);
    }

    fn new_game(&mut self) {
        self.position = Position::start();
        self.search.clear();
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<()> {
        let start = match start {
            StartPosition::StartPos => Position::start(),
            StartPosition::Fen(text) => Position::parse(text).map_err(|e| format!("bad position: {e}"))?,
        };
        self.position = play_moves(start, moves)?;
        Ok(())
    }

    fn p1_to_move(&self) -> bool {
        self.position.side_to_move() == Color::BLACK
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(&self.position)
    }

    fn legal_moves(&self) -> Vec<String> {
        self.position.legal_moves().into_iter().map(|m| m.name(B::SIZE)).collect()
    }

    fn is_legal(&self, mv: &str) -> bool {
        Move::parse(mv, B::SIZE).is_ok_and(|m| self.position.play(m).is_ok())
    }

    fn fen(&self) -> String {
        self.position.to_string()
    }

    fn score(&self) -> String {
        match self.position.result() {
            Some(r) => r.black_margin().to_string(),
            None => {
                let diff = self.position.count(Color::BLACK) as i32 - self.position.count(Color::WHITE) as i32;
                diff.to_string()
            }
        }
    }

    fn draw(&self) -> String {
        self.position.draw()
    }

    fn perft(&self, depth: u32, threads: usize) -> Result<PerftJob> {
        let board = self.position.board();
        Ok(Box::new(move |stop: &StopFlag| {
            search::othello::parallel_perft_until(board, depth, threads, stop.as_atomic())
        }))
    }

    fn search_job(&mut self, limits: Limits, options: &SearchOptions) -> SearchJob {
        self.search.job(self.position, limits, options)
    }
}

/// 8×8 Othello over GTP, as Quarry and GRhino speak it: vertices `a1`..`h8` with
/// `a1` top-left, `pass`, and a pass inserted when a colour plays while the other
/// side has no move.
#[derive(Default)]
pub struct OthelloGtp {
    game: Option<bitboards::othello::Game<Board>>,
    search: SolverSearch,
}

impl OthelloGtp {
    fn game(&mut self) -> &mut bitboards::othello::Game<Board> {
        self.game.get_or_insert_with(|| bitboards::othello::Game::new(Position::start()))
    }

    /// Makes it `black`'s turn, passing for the other side if it has no move.
    fn turn_of(&mut self, black: bool) -> Result<()> {
        let game = self.game();
        let to_move = game.position().side_to_move() == Color::BLACK;
        if to_move != black {
            if game.position().legal_moves() == vec![Move::Pass] {
                game.play(Move::Pass).map_err(|e| e.to_string())?;
            } else {
                return Err(EngineError::IllegalMove("it is the other side's turn: it has a move".into()));
            }
        }
        Ok(())
    }
}

impl crate::games::session::GtpGame for OthelloGtp {
    fn set_board_size(&mut self, size: usize) -> Result<()> {
        if size == 8 { Ok(()) } else { Err(EngineError::BoardSize(format!("{size}x{size}: GTP Othello is 8x8"))) }
    }

    fn clear(&mut self) {
        self.game = None;
        self.search.clear();
    }

    fn set_komi(&mut self, _komi: f64) {}

    fn play(&mut self, black: bool, vertex: &str) -> Result<()> {
        let mv = Move::parse(vertex, 8).map_err(|e| EngineError::Syntax(e.to_string()))?;
        if mv == Move::Pass && self.game().position().legal_moves() == vec![Move::Pass] {
            return self.game().play(Move::Pass).map_err(|e| EngineError::IllegalMove(e.to_string()));
        }
        self.turn_of(black)?;
        self.game().play(mv).map_err(|e| EngineError::IllegalMove(e.to_string()))
    }

    fn genmove(&mut self, black: bool, limits: Limits, options: &SearchOptions, stop: &StopFlag) -> Result<String> {
        if self.game().is_over() {
            return Ok("pass".into());
        }
        if self.turn_of(black).is_err() {
            // The other side is to move and has a move: the requested colour passes.
            return Ok("pass".into());
        }
        let position = *self.game().position();
        if position.legal_moves() == vec![Move::Pass] {
            self.game().play(Move::Pass).map_err(|e| e.to_string())?;
            return Ok("pass".into());
        }
        let job = self.search.job(position, limits, options);
        let outcome = job(stop, &mut |_| {});
        let text = outcome.best_move.ok_or("no move found")?;
        let mv = Move::parse(&text, 8).map_err(|e| e.to_string())?;
        self.game().play(mv).map_err(|e| e.to_string())?;
        Ok(text.to_ascii_uppercase())
    }

    fn undo(&mut self) -> Result<()> {
        self.game().undo().map(|_| ()).map_err(|_| EngineError::CannotUndo)
    }

    fn showboard(&self) -> String {
        self.game.as_ref().map_or_else(|| Position::<Board>::start().draw(), |g| g.position().draw())
    }

    fn final_score(&mut self) -> Result<String> {
        let p = *self.game().position();
        let margin = match p.result() {
            Some(r) => r.black_margin(),
            None => p.count(Color::BLACK) as i32 - p.count(Color::WHITE) as i32,
        };
        Ok(match margin {
            0 => "0".into(),
            m if m > 0 => format!("B+{m}"),
            m => format!("W+{}", -m),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isready_makes_the_solver_the_next_search_uses() {
        let mut s = OthelloSession::<Board, SolverSearch>::new();
        let options = SearchOptions { threads: 2, hash_mb: 2 };
        assert!(s.search.solver.is_none());
        s.prepare(&options);
        let made = s.search.solver.as_ref().map(|(solver, _)| solver.clone()).expect("a solver after prepare");
        assert_eq!(made.table().size_bytes(), 2 << 20);
        s.prepare(&options);
        // A fixed depth is searched (not played from the book), by the solver made.
        let job = s.search_job(Limits { depth: Some(3), ..Limits::default() }, &options);
        let outcome = job(&StopFlag::new(), &mut |_| {});
        assert!(outcome.best_move.is_some() && outcome.report.nodes > 0);
        let used = s.search.solver.as_ref().map(|(solver, _)| solver.clone()).expect("the solver");
        assert!(Arc::ptr_eq(&made, &used), "the prepared solver is the one searched with");
    }

    #[test]
    fn a_table_the_system_refuses_leaves_the_old_one_or_a_smaller_one() {
        let mut search = SolverSearch::default();
        // 4 EiB: no system gives that much. With no table yet, a smaller one is made
        // (halving until the system gives it; its pages are not touched).
        let huge = SearchOptions { threads: 1, hash_mb: 1 << 42 };
        let smaller = search.solver(&huge);
        assert!(smaller.table().size_bytes() < (1 << 42) << 20);
        // A size the system gives replaces it; a refused one then keeps that table.
        let sane = SearchOptions { threads: 1, hash_mb: 2 };
        let kept = search.solver(&sane);
        assert_eq!(kept.table().size_bytes(), 2 << 20);
        assert!(Arc::ptr_eq(&kept, &search.solver(&huge)));
        assert!(Arc::ptr_eq(&kept, &search.solver(&huge)), "still kept at the next search");
        // A refused size with new threads: the kept size, on the threads asked for.
        let two_threads = SearchOptions { threads: 2, hash_mb: 1 << 42 };
        let rebuilt = search.solver(&two_threads);
        assert!(!Arc::ptr_eq(&kept, &rebuilt));
        assert_eq!(rebuilt.table().size_bytes(), 2 << 20);
        assert!(Arc::ptr_eq(&rebuilt, &search.solver(&two_threads)), "not asked again");
    }
}
