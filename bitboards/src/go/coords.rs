//! Points and the coordinate systems that name them.
//!
//! A [`Point`] is `row × 10 + column` with row 0 at the **top** and column 0 at the
//! left (a 10-wide grid: the tenth column is the bitboard's guard). The texts:
//!
//! | system | example (9×9, top-left / bottom-left) | notes |
//! |---|---|---|
//! | GTP vertex | `A9` / `A1` | letters `A`–`T` without `I`, row 1 at the bottom |
//! | homework `row col` | `0 0` / `8 0` | 0-based, row 0 at the top |
//! | Phantom Go logical `ij` | `00` / `80` | row-major from the top |
//! | Phantom Go padded index | `100` / `12` | `v = y·11 + x`, x = column 1.., y = row 1.. from the bottom |
//! | SGF | `aa` / `ai` | column letter then row letter, from the top-left |
//! | Phantom Go platform letters | `AA` / `IA` ([`LetterOrder::RowColumn`]) | two letters `A`–`I`, each a 0-based index from the top-left |
//!
//! The Phantom Go seed writes the padded index `v` and converts it with
//! `tomap(v) = (9 - y, x - 1)` where `(x, y) = (v % 11, v / 11)`: the logical `(i, j)` is
//! (row from the top, column from the left), exactly [`Point::row`] and [`Point::col`].

use thiserror::Error;

/// Width of the bitboard grid (9 columns plus the guard column).
pub const STRIDE: usize = 10;

/// A point of a board of side up to 9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub u8);

/// A coordinate that cannot be read or is off the board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CoordError {
    /// Not in the expected form.
    #[error("'{0}' is not a point")]
    Syntax(String),
    /// Off a board of this size.
    #[error("'{text}' is off the {size}x{size} board")]
    OffBoard {
        /// The text.
        text: String,
        /// The board size.
        size: usize,
    },
}

const GTP_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRST";

/// Which of the Phantom Go platform's two letters names the row.
///
/// The platform writes a point as two capital letters `A`–`I`; each letter is a 0-based
/// index (`A` = 0) counted from the **top-left**, like the seed's logical `(i, j)`. The
/// sources disagree on which letter is the row, so both readings are offered.
///
/// The default is [`LetterOrder::RowColumn`]: the seed (000, "棋盘界面逻辑坐标") names
/// every point row first, `ij` with `i` the row from the top (`00 01 … 08` is the top
/// row), and its `tomap` returns `(i, j) = (9 - y, x - 1)`, row then column. A platform
/// built on that board would spell `ij` as letters in the same order: `i` → first letter,
/// `j` → second. The seed itself says nothing about letters, so
/// [`LetterOrder::ColumnRow`] (the GTP/SGF habit of column first) is one switch away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum LetterOrder {
    /// First letter the column from the left, second the row from the top.
    ColumnRow,
    /// First letter the row from the top, second the column from the left (the seed's
    /// `ij` order; the default).
    #[default]
    RowColumn,
}

impl Point {
    /// The point at `row` (from the top) and `col` (from the left).
    pub const fn new(row: usize, col: usize) -> Point {
        Point((row * STRIDE + col) as u8)
    }
    /// Row from the top.
    pub const fn row(self) -> usize {
        self.0 as usize / STRIDE
    }
    /// Column from the left.
    pub const fn col(self) -> usize {
        self.0 as usize % STRIDE
    }
    /// The point's bit in a board bitboard.
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }
    /// True if the point lies on a board of side `size`.
    pub const fn on_board(self, size: usize) -> bool {
        self.row() < size && self.col() < size
    }

    /// Reads a GTP vertex (`D4`, `j9`; case-insensitive, no `I`).
    pub fn from_gtp(text: &str, size: usize) -> Result<Point, CoordError> {
        let t = text.trim();
        let syntax = || CoordError::Syntax(t.to_string());
        let mut chars = t.chars();
        let letter = chars.next().ok_or_else(syntax)?.to_ascii_uppercase();
        let col = GTP_LETTERS.iter().position(|&c| c as char == letter).ok_or_else(syntax)?;
        let number: usize = chars.as_str().parse().map_err(|_| syntax())?;
        if number == 0 || number > size || col >= size {
            return Err(CoordError::OffBoard { text: t.to_string(), size });
        }
        Ok(Point::new(size - number, col))
    }

    /// The GTP vertex of the point (`D4`).
    pub fn to_gtp(self, size: usize) -> String {
        format!("{}{}", GTP_LETTERS[self.col()] as char, size - self.row())
    }

    /// Reads homework coordinates `row col` (two integers, 0-based from the top).
    pub fn from_row_col(row: i64, col: i64, size: usize) -> Result<Point, CoordError> {
        if row < 0 || col < 0 || row as usize >= size || col as usize >= size {
            return Err(CoordError::OffBoard { text: format!("{row} {col}"), size });
        }
        Ok(Point::new(row as usize, col as usize))
    }

    /// Reads a Phantom Go logical coordinate `ij` (`00`..`88`).
    pub fn from_ij(text: &str, size: usize) -> Result<Point, CoordError> {
        let b = text.trim().as_bytes();
        if b.len() != 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
            return Err(CoordError::Syntax(text.to_string()));
        }
        let (i, j) = ((b[0] - b'0') as i64, (b[1] - b'0') as i64);
        Point::from_row_col(i, j, size).map_err(|_| CoordError::OffBoard { text: text.to_string(), size })
    }

    /// The Phantom Go logical coordinate `ij`.
    pub fn to_ij(self) -> String {
        format!("{}{}", self.row(), self.col())
    }

    /// Reads the Phantom Go padded index `v = y·11 + x` (x, y from 1, y from the bottom).
    pub fn from_padded(v: usize, size: usize) -> Result<Point, CoordError> {
        let (y, x) = (v / 11, v % 11);
        if x == 0 || y == 0 || x > size || y > size {
            return Err(CoordError::OffBoard { text: v.to_string(), size });
        }
        Ok(Point::new(size - y, x - 1))
    }

    /// The Phantom Go padded index of the point.
    pub fn to_padded(self, size: usize) -> usize {
        (size - self.row()) * 11 + self.col() + 1
    }

    /// The seed's logical coordinate `(i, j)`: row from the top, column from the left.
    pub const fn ij(self) -> (usize, usize) {
        (self.row(), self.col())
    }

    /// The point at logical `(i, j)` (row from the top, column from the left), checked.
    pub fn from_ij_pair(i: usize, j: usize, size: usize) -> Result<Point, CoordError> {
        if i >= size || j >= size {
            return Err(CoordError::OffBoard { text: format!("({i}, {j})"), size });
        }
        Ok(Point::new(i, j))
    }

    /// Reads the Phantom Go platform's two letters (`A`–`I` on 9×9, case-insensitive),
    /// the row letter placed as `order` says.
    pub fn from_letters(text: &str, order: LetterOrder, size: usize) -> Result<Point, CoordError> {
        let t = text.trim();
        let b = t.as_bytes();
        if b.len() != 2 || !b[0].is_ascii_alphabetic() || !b[1].is_ascii_alphabetic() {
            return Err(CoordError::Syntax(t.to_string()));
        }
        let first = (b[0].to_ascii_uppercase() - b'A') as usize;
        let second = (b[1].to_ascii_uppercase() - b'A') as usize;
        let (row, col) = match order {
            LetterOrder::RowColumn => (first, second),
            LetterOrder::ColumnRow => (second, first),
        };
        if row >= size || col >= size {
            return Err(CoordError::OffBoard { text: t.to_string(), size });
        }
        Ok(Point::new(row, col))
    }

    /// The platform's two letters for the point (`EA`: row `E`, column `A` in
    /// [`LetterOrder::RowColumn`]).
    pub fn to_letters(self, order: LetterOrder) -> String {
        let letter = |n: usize| (b'A' + n as u8) as char;
        let (first, second) = match order {
            LetterOrder::RowColumn => (self.row(), self.col()),
            LetterOrder::ColumnRow => (self.col(), self.row()),
        };
        format!("{}{}", letter(first), letter(second))
    }

    /// Reads an SGF point (`aa`..`ii`).
    pub fn from_sgf(text: &str, size: usize) -> Result<Point, CoordError> {
        let b = text.as_bytes();
        if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
            return Err(CoordError::Syntax(text.to_string()));
        }
        let (col, row) = ((b[0] - b'a') as i64, (b[1] - b'a') as i64);
        Point::from_row_col(row, col, size).map_err(|_| CoordError::OffBoard { text: text.to_string(), size })
    }

    /// The SGF point.
    pub fn to_sgf(self) -> String {
        format!("{}{}", (b'a' + self.col() as u8) as char, (b'a' + self.row() as u8) as char)
    }
}

/// Every point of a board of side `size`, row by row from the top-left.
pub fn points(size: usize) -> impl Iterator<Item = Point> {
    (0..size).flat_map(move |r| (0..size).map(move |c| Point::new(r, c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_on_every_size() {
        for size in 2..=9 {
            for p in points(size) {
                assert_eq!(Point::from_gtp(&p.to_gtp(size), size), Ok(p));
                assert_eq!(Point::from_gtp(&p.to_gtp(size).to_lowercase(), size), Ok(p));
                assert_eq!(Point::from_padded(p.to_padded(size), size), Ok(p));
                assert_eq!(Point::from_sgf(&p.to_sgf(), size), Ok(p));
                assert_eq!(Point::from_ij(&p.to_ij(), size), Ok(p));
                assert_eq!(Point::from_row_col(p.row() as i64, p.col() as i64, size), Ok(p));
            }
        }
    }

    #[test]
    fn the_seed_conventions() {
        // Seed 000: the padded index 100 is the top-left point (i, j) = (0, 0), 12 the
        // bottom-left (8, 0), 108 the top-right (0, 8).
        assert_eq!(Point::from_padded(100, 9), Ok(Point::new(0, 0)));
        assert_eq!(Point::from_padded(12, 9), Ok(Point::new(8, 0)));
        assert_eq!(Point::from_padded(108, 9), Ok(Point::new(0, 8)));
        assert_eq!(Point::from_padded(60, 9).map(Point::to_ij), Ok("44".to_string()));
        // GTP: A1 bottom-left, J9 top-right, no I.
        assert_eq!(Point::from_gtp("A1", 9), Ok(Point::new(8, 0)));
        assert_eq!(Point::from_gtp("J9", 9), Ok(Point::new(0, 8)));
        assert!(Point::from_gtp("I5", 9).is_err());
        assert!(matches!(Point::from_gtp("K5", 9), Err(CoordError::OffBoard { .. })));
        assert!(matches!(Point::from_gtp("A10", 9), Err(CoordError::OffBoard { .. })));
        assert!(matches!(Point::from_gtp("", 9), Err(CoordError::Syntax(_))));
        assert_eq!(Point::new(3, 2).to_sgf(), "cd");
        assert!(Point::from_padded(11, 9).is_err());
        assert!(Point::from_row_col(9, 0, 9).is_err());
        assert!(Point::from_row_col(-1, 0, 9).is_err());
    }

    /// Every one of the 81 points in every system, both ways, against values written
    /// out independently of the conversion code (the seed's formulas, the GTP letters).
    #[test]
    fn every_point_every_system_both_ways_on_9x9() {
        let gtp_columns = ["A", "B", "C", "D", "E", "F", "G", "H", "J"];
        let abc = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I'];
        let mut seen = std::collections::HashSet::new();
        for i in 0..9 {
            for j in 0..9 {
                let p = Point::new(i, j);
                assert!(seen.insert(p));
                // The seed's logical (i, j), as a pair and as the text `ij`.
                assert_eq!(p.ij(), (i, j));
                assert_eq!(Point::from_ij_pair(i, j, 9), Ok(p));
                let ij = format!("{i}{j}");
                assert_eq!(p.to_ij(), ij);
                assert_eq!(Point::from_ij(&ij, 9), Ok(p));
                // The padded index: x = j + 1, y = 9 - i, v = 11y + x, and the seed's
                // tomap (9 - v/11, v%11 - 1) gives (i, j) back.
                let v = (9 - i) * 11 + j + 1;
                assert!((12..=108).contains(&v));
                assert_eq!((9 - v / 11, v % 11 - 1), (i, j));
                assert_eq!(p.to_padded(9), v);
                assert_eq!(Point::from_padded(v, 9), Ok(p));
                // GTP: column letter without I, row 1 at the bottom.
                let gtp = format!("{}{}", gtp_columns[j], 9 - i);
                assert_eq!(p.to_gtp(9), gtp);
                assert_eq!(Point::from_gtp(&gtp, 9), Ok(p));
                // The platform's letters, both orders, both cases.
                let rc = format!("{}{}", abc[i], abc[j]);
                let cr = format!("{}{}", abc[j], abc[i]);
                assert_eq!(p.to_letters(LetterOrder::RowColumn), rc);
                assert_eq!(p.to_letters(LetterOrder::ColumnRow), cr);
                assert_eq!(Point::from_letters(&rc, LetterOrder::RowColumn, 9), Ok(p));
                assert_eq!(Point::from_letters(&cr, LetterOrder::ColumnRow, 9), Ok(p));
                assert_eq!(Point::from_letters(&rc.to_lowercase(), LetterOrder::RowColumn, 9), Ok(p));
                // Across systems: GTP -> letters -> padded -> ij -> GTP.
                let q = Point::from_gtp(&gtp, 9).unwrap();
                let q = Point::from_letters(&q.to_letters(LetterOrder::ColumnRow), LetterOrder::ColumnRow, 9).unwrap();
                let q = Point::from_padded(q.to_padded(9), 9).unwrap();
                let q = Point::from_ij(&q.to_ij(), 9).unwrap();
                assert_eq!(q.to_gtp(9), gtp);
            }
        }
        assert_eq!(seen.len(), 81);
        // The corners named in the seed's two tables and in GTP.
        assert_eq!(Point::from_padded(100, 9).map(|p| p.to_gtp(9)), Ok("A9".into()));
        assert_eq!(Point::from_padded(20, 9).map(|p| p.to_gtp(9)), Ok("J1".into()));
        assert_eq!(Point::from_gtp("A1", 9).map(|p| p.to_letters(LetterOrder::RowColumn)), Ok("IA".into()));
        assert_eq!(Point::from_gtp("A1", 9).map(|p| p.to_letters(LetterOrder::ColumnRow)), Ok("AI".into()));
        assert_eq!(LetterOrder::default(), LetterOrder::RowColumn);
    }

    #[test]
    fn bad_letters_are_errors() {
        for order in [LetterOrder::RowColumn, LetterOrder::ColumnRow] {
            assert!(matches!(Point::from_letters("AJ", order, 9), Err(CoordError::OffBoard { .. })));
            assert!(matches!(Point::from_letters("ZA", order, 9), Err(CoordError::OffBoard { .. })));
            assert!(matches!(Point::from_letters("A", order, 9), Err(CoordError::Syntax(_))));
            assert!(matches!(Point::from_letters("ABC", order, 9), Err(CoordError::Syntax(_))));
            assert!(matches!(Point::from_letters("A1", order, 9), Err(CoordError::Syntax(_))));
            assert!(matches!(Point::from_letters("É", order, 9), Err(CoordError::Syntax(_))));
            assert!(matches!(Point::from_letters("", order, 9), Err(CoordError::Syntax(_))));
        }
        assert!(Point::from_ij_pair(9, 0, 9).is_err());
        assert!(Point::from_ij_pair(0, 9, 9).is_err());
    }
}
