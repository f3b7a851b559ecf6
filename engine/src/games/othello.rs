//! Othello behind the front ends, for every board size: the generic session
//! ([`PlayerSession`], which UGI+ and GTP drive) plays the 8×8 board with
//! [`SolverPlayer`] (the book, then the tuned solver) and the other sizes with the
//! generic alpha-beta ([`AlphaBetaPlayer`]).

use std::sync::Arc;
use std::time::Instant;

use bitboards::othello::{Board, Board6, Board10, Move, Position};
use protocol::ugi::OptionKind;
use search::alphabeta::SearchResult;
use search::othello::{Book, OthelloPlayer, Request, Solver, Thought};
use search::player::{AlphaBetaPlayer, Player, Resources};
use search::{Limits, Score, StopFlag};

use crate::error::{EngineError, Result};
use crate::games::GameKind;
use crate::games::generic::PlayerSession;
use crate::games::options::GameOption;
use crate::games::referee::RefereeRules;
use crate::games::session::GameSession;

/// The session of Othello on a board of side `size` (8, 6 or 10), for UGI+ and (8×8)
/// GTP.
pub fn new_session(size: usize) -> Result<Box<dyn GameSession>> {
    let rules = RefereeRules::plain(size, 0);
    let kind = GameKind::OTHELLO;
    Ok(match size {
        8 => Box::new(PlayerSession::with_start(
            kind,
            rules,
            Position::start(),
            SolverPlayer::default(),
            (),
            BOOK_OPTIONS,
        )),
        6 => Box::new(PlayerSession::<Position<Board6>, _>::new(kind, rules, AlphaBetaPlayer)?),
        10 => Box::new(PlayerSession::<Position<Board10>, _>::new(kind, rules, AlphaBetaPlayer)?),
        n => {
            return Err(EngineError::BoardSize(format!(
                "Othello is played on 6x6, 8x8 or 10x10 boards (6, 8 or 10), not {n}"
            )));
        }
    })
}

/// The 8×8 player (`search::othello::OthelloPlayer`: the opening book, then the
/// solver's search) with its solver, which keeps its table between moves and is
/// rebuilt when `Hash` or `Threads` change. Options `Book` and `BookFile` choose the
/// book.
#[derive(Default)]
pub struct SolverPlayer {
    solver: Option<(Arc<Solver>, Resources)>,
    player: OthelloPlayer,
    /// The book file in use (empty: the built-in book).
    book_file: String,
}

impl SolverPlayer {
    fn solver(&mut self, options: &Resources) -> Arc<Solver> {
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
fn smaller_solver(options: &Resources) -> (Arc<Solver>, usize) {
    let mut hash_mb = options.hash_mb;
    while hash_mb > 1 {
        hash_mb /= 2;
        if let Ok(solver) = Solver::try_new(hash_mb, options.threads) {
            return (Arc::new(solver), hash_mb);
        }
    }
    (Arc::new(Solver::new(1, options.threads)), 1)
}

/// The moves of a principal variation's squares (64 = pass).
fn pv_moves(pv: &[u8]) -> Vec<Move> {
    pv.iter().map(|&sq| if sq >= 64 { Move::Pass } else { Move::Play(sq) }).collect()
}

/// The 8×8 player's settings ([`crate::games::options`]): its opening book.
const BOOK_OPTIONS: &[GameOption<PlayerSession<Position<Board>, SolverPlayer>>] = &[
    GameOption {
        name: "Book",
        gtp: None,
        kind: || OptionKind::Check { default: true },
        get: |s| s.with_player(|p| p.player.use_book.to_string()).unwrap_or_default(),
        set: |s, v| {
            let use_book = match v.to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => return Err("option 'Book' is true or false".into()),
            };
            s.with_player(|p| p.player.use_book = use_book);
            Ok(())
        },
    },
    GameOption {
        name: "BookFile",
        gtp: None,
        kind: || OptionKind::Text { default: String::new() },
        get: |s| s.with_player(|p| p.book_file.clone()).unwrap_or_default(),
        set: |s, v| {
            // Empty: the built-in book. A file that cannot be read keeps the book in use.
            let book = match v.trim() {
                "" => None,
                path => Some(Arc::new(load_book(path).map_err(|e| format!("{e:#}"))?)),
            };
            s.with_player(|p| {
                p.player.book = book;
                p.book_file = v.trim().to_string();
            });
            Ok(())
        },
    },
];

impl Player<Position<Board>> for SolverPlayer {
    fn new_game(&mut self) {
        if let Some((solver, _)) = &self.solver {
            solver.clear();
        }
    }

    fn uses_threads(&self) -> bool {
        true
    }

    /// Reads the book in use (the built-in one is parsed once, on first use: about a
    /// third of a second), decodes the evaluation's weights, and makes the solver for
    /// `resources`: its threads and its table, every page of it resident (so that the
    /// first search does not pay for them).
    fn prepare(&mut self, _root: &Position<Board>, resources: &Resources) {
        if self.player.use_book && self.player.book.is_none() {
            search::othello::built_in_book();
        }
        search::othello::is_trained();
        let solver = self.solver(resources);
        // Not a table smaller than asked for (the system refused the size): the
        // memory it was given may be all there is, so its pages stay lazy.
        if resources.hash_mb.checked_mul(1 << 20) == Some(solver.table().size_bytes()) {
            solver.table().touch_pages();
        }
    }

    /// The scores are in discs (exact once proven, centi-discs before).
    fn choose(
        &mut self,
        root: &Position<Board>,
        limits: &Limits,
        resources: &Resources,
        stop: &StopFlag,
        report: &mut (dyn FnMut(&SearchResult<Move>) + Send),
    ) -> SearchResult<Move> {
        let solver = self.solver(resources);
        let start = Instant::now();
        let result_of = |t: &Thought| SearchResult {
            best_move: match t.best_move {
                Some(sq) => Some(Move::Play(sq)),
                None if !t.pv.is_empty() => Some(Move::Pass),
                None => None,
            },
            score: if t.exact { Score::Exact(t.score) } else { Score::Centi(100 * t.score) },
            depth: t.depth,
            nodes: t.nodes,
            elapsed: start.elapsed(),
            pv: pv_moves(&t.pv),
        };
        let choice = self.player.choose(&solver, root, Request::Limits(*limits), stop, |t| report(&result_of(t)));
        result_of(&choice.thought)
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
pub fn play_moves<B: bitboards::othello::OthelloBoard>(
    start: Position<B>,
    moves: &[String],
) -> Result<Position<B>, String> {
    let mut pos = start;
    for (i, text) in moves.iter().enumerate() {
        let mv = Move::parse(text, B::SIZE).map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        pos = pos.play(mv).map_err(|e| format!("move {} '{text}' is illegal: {e}", i + 1))?;
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::session::SearchOptions;

    #[test]
    fn gtp_passes_for_a_side_without_a_move_and_undoes_every_move() {
        // After these 52 moves black is to move and has none.
        let line = "c4 c3 c2 f4 f6 d6 d7 g7 f3 b2 a2 a1 e6 b4 b3 c1 d1 c5 b1 f5 a3 b5 g4 f2 c6 h4 a6 d3 g2 \
                    e2 e3 e7 h8 g6 f1 a5 f7 a4 g5 h5 b6 g3 h2 h3 h6 c8 c7 f8 e8 h7 d2 g8";
        let mut s = new_session(8).unwrap();
        for (i, mv) in line.split_whitespace().enumerate() {
            s.play_as(i % 2 == 0, mv).unwrap();
        }
        let at_52 = s.fen();
        assert_eq!(s.legal_moves(), ["pass"]);
        let options = SearchOptions::default();
        let limits = Limits { depth: Some(2), ..Limits::default() };
        // White's move: black's forced pass is played first.
        let white = s.genmove(false, limits, &options, &StopFlag::new()).unwrap();
        assert_ne!(white, "pass");
        assert!(s.p1_to_move() || s.legal_moves() == ["pass"], "black to move after white's {white}");
        // Both undone (white's move, black's pass): the position of the 52 moves.
        s.undo().unwrap();
        s.undo().unwrap();
        assert_eq!(s.fen(), at_52);
        // Black's genmove is its forced pass; black may also play it.
        assert_eq!(s.genmove(true, limits, &options, &StopFlag::new()).unwrap(), "pass");
        s.undo().unwrap();
        s.play_as(true, "pass").unwrap();
        assert!(!s.p1_to_move());
        // White may not pass while it has a move; black may not move out of turn.
        assert!(s.play_as(false, "pass").is_err());
        assert!(s.play_as(true, "a7").is_err());
        for _ in 0..53 {
            s.undo().unwrap();
        }
        assert!(s.undo().is_err());
        assert_eq!(s.fen(), Position::<Board>::start().to_string());
    }

    #[test]
    fn gtp_final_score_counts_a_wipeout_and_the_discs_before_the_end() {
        let mut s = new_session(8).unwrap();
        assert_eq!(s.final_score().unwrap(), "0");
        s.play_as(true, "e6").unwrap();
        assert_eq!(s.final_score().unwrap(), "B+3");
        for (i, mv) in ["f4", "e3", "f6", "g5", "d6", "e7", "f5", "c5"].iter().enumerate() {
            s.play_as(i % 2 == 1, mv).unwrap();
        }
        assert!(s.outcome().is_some());
        assert_eq!(s.final_score().unwrap(), "B+64");
        assert_eq!(s.genmove(false, Limits::default(), &SearchOptions::default(), &StopFlag::new()).unwrap(), "pass");
        // A finished game can be taken back.
        s.undo().unwrap();
        assert!(s.outcome().is_none());
    }

    #[test]
    fn isready_makes_the_solver_the_next_search_uses() {
        let mut player = SolverPlayer::default();
        let resources = Resources { threads: 2, hash_mb: 2 };
        assert!(player.solver.is_none());
        player.prepare(&Position::start(), &resources);
        let made = player.solver.as_ref().map(|(solver, _)| solver.clone()).expect("a solver after prepare");
        assert_eq!(made.table().size_bytes(), 2 << 20);
        player.prepare(&Position::start(), &resources);
        // A fixed depth is searched (not played from the book), by the solver made.
        let limits = Limits { depth: Some(3), ..Limits::default() };
        let result = player.choose(&Position::start(), &limits, &resources, &StopFlag::new(), &mut |_| {});
        assert!(result.best_move.is_some() && result.nodes > 0);
        let used = player.solver.as_ref().map(|(solver, _)| solver.clone()).expect("the solver");
        assert!(Arc::ptr_eq(&made, &used), "the prepared solver is the one searched with");
    }

    #[test]
    fn a_table_the_system_refuses_leaves_the_old_one_or_a_smaller_one() {
        let mut search = SolverPlayer::default();
        // 4 EiB: no system gives that much. With no table yet, a smaller one is made
        // (halving until the system gives it; its pages are not touched).
        let huge = Resources { threads: 1, hash_mb: 1 << 42 };
        let smaller = search.solver(&huge);
        assert!(smaller.table().size_bytes() < (1 << 42) << 20);
        // A size the system gives replaces it; a refused one then keeps that table.
        let sane = Resources { threads: 1, hash_mb: 2 };
        let kept = search.solver(&sane);
        assert_eq!(kept.table().size_bytes(), 2 << 20);
        assert!(Arc::ptr_eq(&kept, &search.solver(&huge)));
        assert!(Arc::ptr_eq(&kept, &search.solver(&huge)), "still kept at the next search");
        // A refused size with new threads: the kept size, on the threads asked for.
        let two_threads = Resources { threads: 2, hash_mb: 1 << 42 };
        let rebuilt = search.solver(&two_threads);
        assert!(!Arc::ptr_eq(&kept, &rebuilt));
        assert_eq!(rebuilt.table().size_bytes(), 2 << 20);
        assert!(Arc::ptr_eq(&rebuilt, &search.solver(&two_threads)), "not asked again");
    }
}
