//! The 8×8 Othello player: the move UGI+, GTP and NBoard all play. It takes the
//! opening book's move where the position is in it, and otherwise searches with the
//! solver under the protocol's limits ([`think`](super::think): a clock, a move time,
//! nodes or a depth) or at NBoard's level ([`level_limits`](super::level_limits)).

use std::sync::{Arc, OnceLock};

use bitboards::othello::{Board, Position};

use super::book::Book;
use super::play::{level_limits, think};
use super::solver::{Solver, Thought};
use crate::limits::{Limits, StopFlag};

/// The book built into the program (`search/data/othello-book.txt`), grown by
/// `sente othello-book`.
pub const BUILT_IN_BOOK: &str = include_str!("../../data/othello-book.txt");

/// The built-in book, read once (about a third of a second; empty if it could not
/// be read: a test checks it can).
pub fn built_in_book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| Book::parse(BUILT_IN_BOOK).unwrap_or_default())
}

/// What the player is asked for.
#[derive(Clone, Copy, Debug)]
pub enum Request {
    /// A protocol's limits (UGI+ `go`, GTP `genmove`): the book's move unless the
    /// search is to a fixed depth or infinite (an analysis), else [`think`].
    Limits(Limits),
    /// NBoard's level: the book's move at any level, else a search of this many
    /// plies (exact from twice as many empties).
    Level(u32),
}

/// The player's settings: which opening book it plays, if any.
#[derive(Clone, Debug)]
pub struct OthelloPlayer {
    /// Whether the opening book is played (UGI+ option `Book`).
    pub use_book: bool,
    /// A book read from a file (`BookFile`); `None`: the built-in one.
    pub book: Option<Arc<Book>>,
}

impl Default for OthelloPlayer {
    fn default() -> Self {
        OthelloPlayer { use_book: true, book: None }
    }
}

/// A chosen move and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The search's result, or the book's move (depth 0, no nodes, the book's value
    /// in discs as its score); `best_move` is `None` for a pass, or at the end of
    /// the game when `pv` is empty.
    pub thought: Thought,
    /// True when the move came from the opening book.
    pub from_book: bool,
}

impl OthelloPlayer {
    /// The book in use (none when the book is off).
    pub fn book(&self) -> Option<&Book> {
        self.use_book.then(|| self.book.as_deref().unwrap_or_else(|| built_in_book()))
    }

    /// The book's move for `board`, with its value in discs for the side to move.
    pub fn book_move(&self, board: &Board) -> Option<(u8, i32)> {
        self.book()?.best_move(board)
    }

    /// Chooses a move in `root` as `request` asks, with `solver`; `report` is called
    /// after each search iteration (once with the book's move).
    pub fn choose(
        &self,
        solver: &Solver,
        root: &Position<Board>,
        request: Request,
        stop: &StopFlag,
        mut report: impl FnMut(&Thought) + Send,
    ) -> Choice {
        let book_allowed = match request {
            Request::Limits(limits) => limits.depth.is_none() && !limits.infinite,
            Request::Level(_) => true,
        };
        if book_allowed && let Some((sq, value)) = self.book_move(&root.board()) {
            let thought = Thought { best_move: Some(sq), score: value, depth: 0, exact: false, pv: vec![sq], nodes: 0 };
            report(&thought);
            return Choice { thought, from_book: true };
        }
        let thought = match request {
            Request::Limits(limits) => think(solver, root, &limits, stop, report),
            Request::Level(depth) => solver.think(root.board(), level_limits(depth, 0), stop.as_atomic(), report),
        };
        Choice { thought, from_book: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_book_reads_and_holds_the_start() {
        let book = Book::parse(BUILT_IN_BOOK).expect("the built-in book reads");
        assert!(book.len() >= 500, "{} positions", book.len());
        assert_eq!(built_in_book().len(), book.len());
        let start = Board::start();
        let (sq, _) = book.best_move(&start).expect("the start is in the book");
        assert!(start.moves() >> sq & 1 == 1);
    }

    #[test]
    fn the_book_is_played_unless_a_depth_or_an_analysis_is_asked_for() {
        let solver = Solver::new(2, 1);
        let stop = StopFlag::new();
        let start = Position::start();
        let player = OthelloPlayer::default();
        let movetime = Limits::movetime(std::time::Duration::from_millis(50));
        for request in [Request::Limits(movetime), Request::Level(4)] {
            let choice = player.choose(&solver, &start, request, &stop, |_| {});
            assert!(choice.from_book && choice.thought.nodes == 0, "{request:?}");
            assert_eq!(choice.thought.best_move.map(|sq| (sq, choice.thought.score)), player.book_move(&start.board()));
        }
        let depth = player.choose(&solver, &start, Request::Limits(Limits::depth(3)), &stop, |_| {});
        assert!(!depth.from_book && depth.thought.nodes > 0 && depth.thought.depth == 3);
        // An analysis (`go infinite`) searches until stopped: here stopped at once.
        let stopped = StopFlag::new();
        stopped.stop();
        let analysis = player.choose(&solver, &start, Request::Limits(Limits::infinite()), &stopped, |_| {});
        assert!(!analysis.from_book);
        let off = OthelloPlayer { use_book: false, ..OthelloPlayer::default() };
        let searched = off.choose(&solver, &start, Request::Level(3), &stop, |_| {});
        assert!(!searched.from_book && searched.thought.depth == 3);
    }
}
