//! The 9×9 opening book: positions near the start of a game, each with the move
//! KataGo chose after a short search (`scripts/go_book.py` grows it; see docs/go.md,
//! "An opening book from KataGo").
//!
//! A book line is `PATH | MOVE WINRATE SCORE | POLICY`: the moves from the empty board
//! (Black first), KataGo's move there with its winrate and score lead for the side to
//! move, and the raw policy the book grew by (read and checked, not used in play).
//! Every path is replayed under sente's rules when the book is read, so a book that
//! breaks a rule is refused with its line. A position is found up to the 8 symmetries
//! of the square and with the side to move; the move is mapped back onto the board as
//! it stands. The book was valued at komi [`BOOK_KOMI`] with area scoring and serves
//! 9×9 games within [`KOMI_TOLERANCE`] of it.

use std::collections::HashMap;
use std::sync::OnceLock;

use bitboards::go::{Board, Color, Game, Move, Point, Superko};

/// The komi the book was valued at.
pub const BOOK_KOMI: f64 = 7.0;
/// The book serves games whose komi is this close to [`BOOK_KOMI`]: half a point
/// changes only whether a draw is possible, not the opening's moves.
pub const KOMI_TOLERANCE: f64 = 0.5;
/// The book's board side.
pub const BOOK_SIZE: usize = 9;

const CELLS: usize = BOOK_SIZE * BOOK_SIZE;

/// A position up to symmetry: each cell of the canonical image (0 empty, 1 black,
/// 2 white), and the side to move.
type Key = ([u8; CELLS], Color);

/// A book position's move and what the judge said of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookMove {
    /// The move, on the board as asked.
    pub mv: Move,
    /// The judge's winrate for the side to move.
    pub win_rate: f32,
    /// The judge's score lead for the side to move, in points.
    pub score: f32,
}

/// A book entry: the move as a cell of the canonical image, and its values.
#[derive(Clone, Copy, Debug)]
struct Entry {
    cell: usize,
    win_rate: f32,
    score: f32,
}

/// The opening book (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<Key, Entry>,
}

/// The board point that symmetry `s` puts at cell `(row, col)` of its image: bit 2
/// transposes, bit 0 flips the rows, bit 1 the columns.
fn source(s: usize, row: usize, col: usize) -> Point {
    let (mut r, mut c) = if s & 4 != 0 { (col, row) } else { (row, col) };
    if s & 1 != 0 {
        r = BOOK_SIZE - 1 - r;
    }
    if s & 2 != 0 {
        c = BOOK_SIZE - 1 - c;
    }
    Point::new(r, c)
}

/// The image of `board` under symmetry `s`, cell by cell.
fn image(board: &Board, s: usize) -> [u8; CELLS] {
    let mut cells = [0u8; CELLS];
    for (i, cell) in cells.iter_mut().enumerate() {
        *cell = match board.at(source(s, i / BOOK_SIZE, i % BOOK_SIZE)) {
            None => 0,
            Some(c) if c == Color::BLACK => 1,
            Some(_) => 2,
        };
    }
    cells
}

/// The smallest of `board`'s 8 images and the symmetry that gives it.
fn canonical(board: &Board) -> ([u8; CELLS], usize) {
    (0..8).map(|s| (image(board, s), s)).min().expect("eight symmetries")
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// The number of positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Reads a book; comments (`#`) and blank lines are passed over. An error names
    /// the line and the problem: a part missing, a move that is not a point or is
    /// illegal where it stands, a number that is not one, a position given twice.
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut book = Book::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            book.add_line(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        }
        Ok(book)
    }

    fn add_line(&mut self, line: &str) -> Result<(), String> {
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        let [path, value, policy] = parts[..] else {
            return Err(format!("expected 'PATH | MOVE WINRATE SCORE | POLICY', got '{line}'"));
        };
        let mut game = Game::new(Board::new(BOOK_SIZE), BOOK_KOMI, Superko::Positional);
        for word in path.split_whitespace() {
            let color = game.board().to_move();
            let mv = read_move(word)?;
            game.play(color, mv).map_err(|e| format!("move '{word}' of the path: {e}"))?;
        }
        let [mv, win_rate, score] = value.split_whitespace().collect::<Vec<_>>()[..] else {
            return Err(format!("expected 'MOVE WINRATE SCORE', got '{value}'"));
        };
        let Move::Play(point) = read_move(mv)? else { return Err("the book move is a pass".into()) };
        game.check(game.board().to_move(), Move::Play(point)).map_err(|e| format!("book move '{mv}': {e}"))?;
        let win_rate = read_number(win_rate)
            .filter(|w| (0.0..=1.0).contains(w))
            .ok_or_else(|| format!("winrate '{win_rate}' is not in 0..1"))?;
        let score = read_number(score).ok_or_else(|| format!("score '{score}' is not a number"))?;
        for word in policy.split_whitespace() {
            let (m, p) = word.split_once(':').ok_or_else(|| format!("policy word '{word}' is not MOVE:P"))?;
            read_move(m)?;
            read_number(p)
                .filter(|p| (0.0..=1.0).contains(p))
                .ok_or_else(|| format!("policy word '{word}': not a probability"))?;
        }
        let board = game.board();
        let (cells, s) = canonical(board);
        let cell =
            (0..CELLS).find(|&i| source(s, i / BOOK_SIZE, i % BOOK_SIZE) == point).expect("every point has a cell");
        let key = (cells, board.to_move());
        if self.entries.insert(key, Entry { cell, win_rate, score }).is_some() {
            return Err("the position is in the book already (or a symmetric image of it)".into());
        }
        Ok(())
    }

    /// The book move of the side to move in `game`, on its board, or `None`: the
    /// position is not in the book, the board is not 9×9, the komi is not within
    /// [`KOMI_TOLERANCE`] of [`BOOK_KOMI`], or the move is illegal here (a ko or superko
    /// the book's line did not have).
    pub fn lookup(&self, game: &Game) -> Option<BookMove> {
        let board = game.board();
        if board.size() != BOOK_SIZE || (game.komi() - BOOK_KOMI).abs() > KOMI_TOLERANCE {
            return None;
        }
        let (cells, s) = canonical(board);
        let entry = self.entries.get(&(cells, board.to_move()))?;
        let mv = Move::Play(source(s, entry.cell / BOOK_SIZE, entry.cell % BOOK_SIZE));
        game.check(board.to_move(), mv).ok()?;
        Some(BookMove { mv, win_rate: entry.win_rate, score: entry.score })
    }
}

fn read_move(word: &str) -> Result<Move, String> {
    Move::from_gtp(word, BOOK_SIZE).map_err(|e| format!("move '{word}': {e}"))
}

fn read_number(word: &str) -> Option<f32> {
    word.parse::<f32>().ok().filter(|x| x.is_finite())
}

/// The built-in book (`search/data/go-book.txt`), read once.
pub fn built_in_book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| Book::parse(include_str!("../../data/go-book.txt")).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[&str], komi: f64) -> Game {
        let mut g = Game::new(Board::new(BOOK_SIZE), komi, Superko::Positional);
        for m in moves {
            let color = g.board().to_move();
            g.play(color, Move::from_gtp(m, BOOK_SIZE).unwrap()).unwrap();
        }
        g
    }

    fn gtp(m: Move) -> String {
        m.to_gtp(BOOK_SIZE)
    }

    #[test]
    fn a_position_is_found_in_every_orientation() {
        let book = Book::parse("# a comment\nC3 | G7 0.55 +1.5 | G7:0.400 C7:0.100\n").unwrap();
        assert_eq!(book.len(), 1);
        let found = book.lookup(&game(&["C3"], 7.0)).unwrap();
        assert_eq!((gtp(found.mv), found.win_rate, found.score), ("G7".into(), 0.55, 1.5));
        // The same stone in the other corners: the answer is the opposite corner.
        for (stone, answer) in [("G3", "C7"), ("C7", "G3"), ("G7", "C3")] {
            assert_eq!(gtp(book.lookup(&game(&[stone], 7.0)).unwrap().mv), answer);
        }
        // A transposition: C3 then G7 from the other path.
        let book = Book::parse("C3 G7 | E5 0.5 +0.0 |\n").unwrap();
        assert_eq!(gtp(book.lookup(&game(&["G3", "C7"], 7.0)).unwrap().mv), "E5");
        // Off-centre answers follow the symmetry: after C3 D7, the book says D3; after
        // the image under the vertical flip, C7 D3, it says D7.
        let book = Book::parse("C3 D7 | D3 0.5 +0.0 |\n").unwrap();
        assert_eq!(gtp(book.lookup(&game(&["C7", "D3"], 7.0)).unwrap().mv), "D7");
        // Colours matter: the same stones with the colours swapped are not in the book.
        assert!(book.lookup(&game(&["D7", "C3"], 7.0)).is_none());
    }

    #[test]
    fn the_side_to_move_the_komi_and_the_size_must_match() {
        let book = Book::parse(" | E5 0.4 -0.3 | E5:0.5\n").unwrap();
        assert_eq!(gtp(book.lookup(&game(&[], 7.5)).unwrap().mv), "E5");
        assert!(book.lookup(&game(&[], 6.0)).is_none());
        let mut white = game(&[], 7.0);
        white.play(Color::BLACK, Move::Pass).unwrap();
        assert!(book.lookup(&white).is_none(), "White to move on the empty board is another position");
        let small = Game::new(Board::new(7), 7.0, Superko::Positional);
        assert!(book.lookup(&small).is_none());
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        for (text, says) in [
            ("E5 | E5 0.5 +0 |", "line 1: book move 'E5'"),
            ("\nE5 E5 | D4 0.5 +0 |", "line 2: move 'E5' of the path"),
            ("E5 | D4 1.5 +0 |", "winrate '1.5'"),
            ("E5 | D4 0.5 x |", "score 'x'"),
            ("E5 | D4 0.5 |", "MOVE WINRATE SCORE"),
            ("E5 | D4 0.5 +0", "PATH | MOVE"),
            ("E5 | Z9 0.5 +0 |", "move 'Z9'"),
            ("E5 | pass 0.5 +0 |", "a pass"),
            ("E5 | D4 0.5 +0 | D4", "policy word 'D4'"),
            ("C3 | D4 0.5 +0 |\nG3 | F4 0.5 +0 |", "line 2: the position is in the book already"),
        ] {
            let e = Book::parse(text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }

    #[test]
    fn a_position_off_the_book_gives_nothing() {
        let book = Book::parse("C3 | D4 0.5 +0 |\n").unwrap();
        let mut g = game(&["C3"], 7.0);
        assert!(book.lookup(&g).is_some());
        g.play(Color::WHITE, Move::Play(Point::from_gtp("D4", BOOK_SIZE).unwrap())).unwrap();
        assert!(book.lookup(&g).is_none());
    }

    #[test]
    fn every_line_of_the_built_in_book_is_found_in_all_eight_orientations() {
        // Each path turned by each symmetry of the square finds its line, and the move
        // comes back turned the same way.
        let text = include_str!("../../data/go-book.txt");
        let book = built_in_book();
        for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            let (path, rest) = line.split_once('|').unwrap();
            let best = Point::from_gtp(rest.split_whitespace().next().unwrap(), BOOK_SIZE).unwrap();
            for s in 0..8 {
                let turn = |p: Point| source(s, p.row(), p.col());
                let mut g = Game::new(Board::new(BOOK_SIZE), BOOK_KOMI, Superko::Positional);
                for word in path.split_whitespace() {
                    let p = Point::from_gtp(word, BOOK_SIZE).unwrap();
                    let color = g.board().to_move();
                    g.play(color, Move::Play(turn(p))).unwrap();
                }
                let found = book.lookup(&g).unwrap_or_else(|| panic!("{line}: not found turned by {s}"));
                // A position that is its own image under some symmetry may answer with
                // any of the equal moves: the move must be the turned one or leave the
                // same position as it.
                let want = Move::Play(turn(best));
                if found.mv != want {
                    let (mut a, mut b) = (g.clone(), g.clone());
                    let color = g.board().to_move();
                    a.play(color, found.mv).unwrap();
                    b.play(color, want).unwrap();
                    assert_eq!(canonical(a.board()).0, canonical(b.board()).0, "{line}: turned by {s}");
                }
            }
        }
    }

    #[test]
    fn the_built_in_book_is_read_whole() {
        let text = include_str!("../../data/go-book.txt");
        let book = Book::parse(text).unwrap();
        let lines = text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).count();
        assert_eq!(book.len(), lines);
        assert_eq!(built_in_book().len(), lines);
        // The empty board is in it, and its move is a point near the centre.
        let first = book.lookup(&game(&[], 7.0)).unwrap();
        let Move::Play(p) = first.mv else { panic!("a pass") };
        assert!((2..=6).contains(&p.row()) && (2..=6).contains(&p.col()), "{}", gtp(first.mv));
    }
}
