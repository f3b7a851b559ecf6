//! The opening book: positions near the start of the 8×8 game, each with the value
//! of every legal move found by a search, grown by drop-out expansion and played by
//! minimax over the book.
//!
//! **File.** The format of the move-quality benchmark (`accuracy.rs`): one position per
//! line, the 64 squares from `a1` (`X` black, `O` white, `-` empty), the side to move,
//! then every legal move as `move:value`, the value being the disc margin for the side
//! to move after that move, as a `depth`-ply search found it. Lines starting with `#`
//! are comments. A line is refused (with its number) unless its moves are exactly the
//! position's legal moves, each valued within ±64, and a position may appear only once
//! (up to the board's eight symmetries).
//!
//! **Values.** A move whose position is in the book takes the book's value of that
//! position (minimax over the book, the leaves' searched values below it); other
//! moves keep their searched value. The book move is the best by that value.
//!
//! **Growth** (Lazard's drop-out expansion). Each book position has a *drop-out*: the
//! discs given away on the way to it from the start, summed over both sides' moves
//! (a best move costs nothing, another move costs its value's distance from the
//! best). The next position added is the child outside the book with the smallest
//! drop-out: the main lines first, then the deviations a player may meet, in order of
//! how little they cost.

use std::sync::atomic::AtomicBool;

use bitboards::othello::{Board, Color, Position, squares};
use rustc_hash::FxHashMap;

use super::accuracy::{ScoredPosition, parse_file};
use super::solver::Solver;
use crate::game::Game;

/// An opening book (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: Vec<ScoredPosition>,
    /// Canonical board (the least of the eight symmetric images) → entry.
    index: FxHashMap<(u64, u64), usize>,
    /// Each entry's value by minimax over the book.
    values: Vec<i32>,
}

/// The least of a board's eight symmetric images: one key for all of them.
fn canonical(board: &Board) -> (u64, u64) {
    board.symmetries().iter().map(|b| (b.player, b.opponent)).min().unwrap_or((board.player, board.opponent))
}

/// Image of the squares `bits` under symmetry `i` of [`Board::symmetries`].
fn transform(bits: u64, i: usize) -> u64 {
    Board { player: bits, opponent: 0 }.symmetries()[i].player
}

/// The position after `sq`, with the pass made when the opponent has no move (`None`
/// when the game is then over), and whether the mover is to move again.
fn after(position: &Position<Board>, sq: u8) -> Option<(Position<Board>, bool)> {
    let board = position.board().play(sq)?;
    let next = Position::new(board, position.to_move().other());
    if board.moves() != 0 {
        return Some((next, false));
    }
    if board.opponent_moves() != 0 {
        return Some((Position::new(board.pass(), position.to_move()), true));
    }
    None
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// Reads a book file; an error names the line and the problem.
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut book = Book::new();
        let lines: Vec<usize> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map(|(i, _)| i + 1)
            .collect();
        for (entry, line) in parse_file(text)?.into_iter().zip(lines) {
            book.insert(entry).map_err(|e| format!("line {line}: {e}"))?;
        }
        Ok(book)
    }

    /// Adds a position with its moves' values (refused if it is there already).
    pub fn insert(&mut self, entry: ScoredPosition) -> Result<(), String> {
        let key = canonical(&entry.position.board());
        if self.index.contains_key(&key) {
            return Err(format!("{} is in the book already (or a symmetric image of it)", entry.position));
        }
        self.index.insert(key, self.entries.len());
        self.entries.push(entry);
        self.values = self.minimax();
        Ok(())
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's lines, in the order they were added.
    pub fn lines(&self) -> impl Iterator<Item = String> + '_ {
        self.entries.iter().map(ScoredPosition::to_line)
    }

    /// The entry of `position` (or of a symmetric image of it).
    fn find(&self, board: &Board) -> Option<usize> {
        self.index.get(&canonical(board)).copied()
    }

    /// The value of move `sq` of entry `i`: the book's value of the position after it
    /// if that is in the book, else the searched value.
    fn move_value(&self, i: usize, sq: u8, searched: i32, values: &[i32]) -> i32 {
        let entry = &self.entries[i];
        match after(&entry.position, sq) {
            Some((next, again)) => match self.find(&next.board()) {
                Some(j) if j != i && values[j] != i32::MIN => {
                    if again {
                        values[j]
                    } else {
                        -values[j]
                    }
                }
                _ => searched,
            },
            None => searched,
        }
    }

    /// Every entry's value by minimax over the book, children (fewer empties) first.
    fn minimax(&self) -> Vec<i32> {
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_by_key(|&i| self.entries[i].empties());
        let mut values = vec![i32::MIN; self.entries.len()];
        for i in order {
            let best = self.entries[i].scores.iter().map(|&(sq, v)| self.move_value(i, sq, v, &values)).max();
            values[i] = best.unwrap_or(0);
        }
        values
    }

    /// The book move of `board` (mapped onto its orientation) and its value, or
    /// `None` when the position is not in the book.
    pub fn best_move(&self, board: &Board) -> Option<(u8, i32)> {
        let i = self.find(board)?;
        let stored = self.entries[i].position.board();
        let stored = &stored;
        let image = board.symmetries().iter().position(|b| b == stored)?;
        let (sq, value) = self.entries[i]
            .scores
            .iter()
            .map(|&(sq, v)| (sq, self.move_value(i, sq, v, &self.values)))
            .max_by_key(|&(sq, v)| (v, std::cmp::Reverse(sq)))?;
        let target = 1u64 << sq;
        let mine = squares(board.moves()).find(|&s| transform(1u64 << s, image) == target)?;
        Some((mine, value))
    }

    /// The position outside the book to add next: the child of a book position with
    /// the smallest drop-out, among positions with at least `min_empties` empties
    /// (the start position when the book is empty).
    pub fn next_to_expand(&self, min_empties: u32) -> Option<Position<Board>> {
        if self.entries.is_empty() {
            return Some(Position::new(Board::start(), Color::BLACK));
        }
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.entries[i].empties()));
        let mut drop_out = vec![i32::MAX; self.entries.len()];
        if let Some(root) = self.find(&Board::start()) {
            drop_out[root] = 0;
        }
        let mut best: Option<(i32, Position<Board>)> = None;
        for i in order {
            if drop_out[i] == i32::MAX {
                continue;
            }
            let entry = &self.entries[i];
            for &(sq, searched) in &entry.scores {
                let cost = drop_out[i] + (self.values[i] - self.move_value(i, sq, searched, &self.values)).max(0);
                let Some((next, _)) = after(&entry.position, sq) else { continue };
                match self.find(&next.board()) {
                    Some(j) => drop_out[j] = drop_out[j].min(cost),
                    None if next.board().empty_count() >= min_empties
                        && best.as_ref().is_none_or(|(c, _)| cost < *c) =>
                    {
                        best = Some((cost, next));
                    }
                    None => {}
                }
            }
        }
        best.map(|(_, p)| p)
    }

    /// Searches every legal move of `position` `depth` plies: the book line for it.
    pub fn search_position(
        solver: &Solver,
        position: Position<Board>,
        depth: u32,
        stop: &AtomicBool,
    ) -> ScoredPosition {
        let mut scores = solver.move_values(position.board(), depth, stop);
        scores.sort_by_key(|&(sq, v)| (-v, sq));
        ScoredPosition { position, scores }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grown(count: usize) -> Book {
        let solver = Solver::new(16, 1);
        let stop = AtomicBool::new(false);
        let mut book = Book::new();
        while book.len() < count {
            let next = book.next_to_expand(40).expect("a position to add");
            book.insert(Book::search_position(&solver, next, 4, &stop)).expect("new");
        }
        book
    }

    #[test]
    fn a_grown_book_reads_back_and_plays_its_best_move_in_every_orientation() {
        let book = grown(12);
        let text: String = book.lines().map(|l| l + "\n").collect();
        let read = Book::parse(&format!("# a book\n{text}")).expect("reads back");
        assert_eq!(read.len(), 12);
        assert_eq!(read.values, book.values);
        // The start's four moves are symmetric: one entry holds the position after
        // any of them, and each orientation gets its own (legal) move back.
        for first in squares(Board::start().moves()) {
            let board = Board::start().play(first).expect("legal");
            let (sq, value) = read.best_move(&board).expect("in the book");
            assert!(board.moves() >> sq & 1 == 1);
            assert_eq!(value, read.best_move(&Board::start().play(19).expect("d3")).expect("in").1);
        }
        let (sq, _) = read.best_move(&Board::start()).expect("the start");
        assert!(Board::start().moves() >> sq & 1 == 1);
        assert_eq!(read.best_move(&Board { player: 1, opponent: 2 }), None);
    }

    #[test]
    fn the_main_line_grows_first_and_values_come_from_the_book() {
        let book = grown(6);
        // The second position is the start's best child.
        let (first, _) = book.best_move(&Board::start()).expect("the start");
        let after_first = Board::start().play(first).expect("legal");
        assert!(book.find(&after_first).is_some());
        // The start's value is minus the value of the position after its book move.
        let start = book.find(&Board::start()).expect("in");
        let child = book.find(&after_first).expect("in");
        assert_eq!(book.values[start], -book.values[child]);
    }

    #[test]
    fn corrupt_books_are_refused_with_the_line() {
        let book = grown(2);
        let lines: Vec<String> = book.lines().collect();
        // A position twice.
        let err = Book::parse(&format!("{}\n\n{}\n", lines[0], lines[0])).unwrap_err();
        assert!(err.starts_with("line 3:") && err.contains("already"), "{err}");
        // A move missing, a value out of range, garbage.
        let cut = lines[1].rsplit_once(' ').expect("moves").0;
        assert!(Book::parse(&format!("{}\n{cut}\n", lines[0])).unwrap_err().starts_with("line 2:"));
        let wild = lines[0].replacen(':', ":9", 1);
        assert!(Book::parse(&wild).unwrap_err().starts_with("line 1:"));
        assert!(Book::parse("\u{0}\u{0}\u{0}").unwrap_err().starts_with("line 1:"));
    }
}
