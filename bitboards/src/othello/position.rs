//! A board with its side to move: legal moves with passes, results, the OBF text
//! form and an ASCII drawing. Generic over the board size.

use std::fmt;

use thiserror::Error;

use super::rules::{Color, Move, OthelloBoard, Owner};

/// A position: the board seen from the side to move, and which colour that is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position<B: OthelloBoard> {
    board: B,
    side: Color,
}

/// Why a move cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalMove {
    /// The game has ended: nobody can move.
    #[error("the game is over")]
    GameOver,
    /// A pass while a move exists.
    #[error("pass is not allowed: {0} has a legal move")]
    PassWithMoves(String),
    /// A disc put on an occupied square.
    #[error("{0} is occupied")]
    Occupied(String),
    /// A disc that flips nothing.
    #[error("{0} flips no disc")]
    NoFlip(String),
}

/// A position text that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionParseError {
    /// Wrong number of squares.
    #[error("the board has {found} squares, expected {expected} ({size}x{size})")]
    Length {
        /// Squares found.
        found: usize,
        /// Squares expected.
        expected: usize,
        /// Side of the board.
        size: usize,
    },
    /// A character that is not a disc or an empty square.
    #[error("bad character '{ch}' at square {square}: use X or * (black), O (white), - or . (empty)")]
    Character {
        /// The character.
        ch: char,
        /// The square it stands on.
        square: String,
    },
    /// No side to move after the board.
    #[error("missing side to move after the board: add X or O")]
    MissingSide,
    /// A side to move that is not X or O.
    #[error("bad side to move '{0}': use X (black) or O (white)")]
    Side(String),
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Black discs on the board.
    pub black: u32,
    /// White discs on the board.
    pub white: u32,
    /// Empty squares left.
    pub empties: u32,
}

impl GameResult {
    /// The winner, `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self.black.cmp(&self.white) {
            std::cmp::Ordering::Greater => Some(Color::BLACK),
            std::cmp::Ordering::Less => Some(Color::WHITE),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Black's margin with the WOF rule: the empty squares go to the winner.
    pub fn black_margin(&self) -> i32 {
        let diff = self.black as i32 - self.white as i32;
        diff + diff.signum() * self.empties as i32
    }

    /// Final disc counts with the WOF rule, as `(black, white)`.
    pub fn wof_counts(&self) -> (u32, u32) {
        match self.winner() {
            Some(Color::BLACK) => (self.black + self.empties, self.white),
            Some(Color::WHITE) => (self.black, self.white + self.empties),
            None => (self.black, self.white),
        }
    }
}

impl<B: OthelloBoard> Position<B> {
    /// The starting position, black to move.
    pub fn start() -> Self {
        Position { board: B::start(), side: Color::BLACK }
    }

    /// A position from a side-relative board and the colour to move.
    pub fn new(board: B, side: Color) -> Self {
        Position { board, side }
    }

    /// The board, seen from the side to move.
    pub fn board(&self) -> B {
        self.board
    }

    /// The colour to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Side length.
    pub fn size(&self) -> usize {
        B::SIZE
    }

    /// The colour of the disc on `sq`, if any.
    pub fn color_at(&self, sq: usize) -> Option<Color> {
        self.board.disc(sq).map(|owner| match owner {
            Owner::Player => self.side,
            Owner::Opponent => self.side.other(),
        })
    }

    /// Number of discs of `color`.
    pub fn count(&self, color: Color) -> u32 {
        if color == self.side { self.board.player_count() } else { self.board.opponent_count() }
    }

    /// True when neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.board.is_game_over()
    }

    /// The legal moves: the squares, or just [`Move::Pass`] when the side to move is
    /// blocked but the game goes on, or nothing once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let squares = self.board.legal_squares();
        if !squares.is_empty() {
            squares.into_iter().map(Move::Play).collect()
        } else if self.board.pass().can_move() {
            vec![Move::Pass]
        } else {
            Vec::new()
        }
    }

    /// The position after `mv`, or why it is illegal.
    pub fn play(&self, mv: Move) -> Result<Self, IllegalMove> {
        match mv {
            Move::Pass => {
                if self.board.can_move() {
                    Err(IllegalMove::PassWithMoves(color_name(self.side).to_string()))
                } else if !self.board.pass().can_move() {
                    Err(IllegalMove::GameOver)
                } else {
                    Ok(Position { board: self.board.pass(), side: self.side.other() })
                }
            }
            Move::Play(sq) => {
                let name = mv.name(B::SIZE);
                if (sq as usize) < B::SIZE * B::SIZE && self.board.disc(sq as usize).is_some() {
                    return Err(IllegalMove::Occupied(name));
                }
                match self.board.play(sq) {
                    Some(board) => Ok(Position { board, side: self.side.other() }),
                    None if self.is_game_over() => Err(IllegalMove::GameOver),
                    None => Err(IllegalMove::NoFlip(name)),
                }
            }
        }
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.is_game_over().then(|| GameResult {
            black: self.count(Color::BLACK),
            white: self.count(Color::WHITE),
            empties: self.board.empty_count(),
        })
    }

    /// A hash of the position including the side to move.
    pub fn zobrist(&self) -> u64 {
        let side_key = match self.side {
            Color::BLACK => 0,
            Color::WHITE => 0xA5F1_52C3_9E0B_7D64,
        };
        self.board.zobrist() ^ side_key
    }

    /// Reads the OBF/Edax form: `SIZE²` squares row by row from `a1` (`X` or `*`
    /// black, `O` white, `-` or `.` empty; white space between squares is ignored),
    /// then the side to move, `X` or `O`.
    pub fn parse(text: &str) -> Result<Self, PositionParseError> {
        let n = B::SIZE * B::SIZE;
        let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        // With 64 characters, "63 squares and a side" (last word one letter) is the
        // likelier mistake than "64 squares and no side".
        let last_word_is_side = text.split_whitespace().count() > 1
            && text.split_whitespace().last().is_some_and(|w| w.chars().count() == 1);
        match chars.len() {
            k if k == n && !last_word_is_side => return Err(PositionParseError::MissingSide),
            k if k != n + 1 => {
                return Err(PositionParseError::Length { found: k.saturating_sub(1), expected: n, size: B::SIZE });
            }
            _ => {}
        }
        let side = match chars[n] {
            'X' | 'x' | '*' | 'B' | 'b' => Color::BLACK,
            'O' | 'o' | 'W' | 'w' => Color::WHITE,
            other => return Err(PositionParseError::Side(other.to_string())),
        };
        let mut board = B::empty();
        for (sq, &ch) in chars[..n].iter().enumerate() {
            let color = match ch {
                'X' | 'x' | '*' => Color::BLACK,
                'O' | 'o' => Color::WHITE,
                '-' | '.' => continue,
                _ => {
                    return Err(PositionParseError::Character { ch, square: Move::Play(sq as u8).name(B::SIZE) });
                }
            };
            let owner = if color == side { Owner::Player } else { Owner::Opponent };
            board = board.with_disc(sq, Some(owner));
        }
        Ok(Position { board, side })
    }

    /// An ASCII drawing: `X` black, `O` white, `.` empty, `+` a legal move.
    pub fn draw(&self) -> String {
        let size = B::SIZE;
        let legal = self.board.legal_squares();
        let letters: Vec<String> = (0..size).map(|c| ((b'a' + c as u8) as char).to_string()).collect();
        let mut out = format!("   {}\n", letters.join(" "));
        for r in 0..size {
            let row: Vec<String> = (0..size)
                .map(|c| {
                    let sq = r * size + c;
                    match self.color_at(sq) {
                        Some(color) => color.disc_letter(),
                        None if legal.contains(&(sq as u8)) => '+',
                        None => '.',
                    }
                    .to_string()
                })
                .collect();
            out.push_str(&format!("{:>2} {}\n", r + 1, row.join(" ")));
        }
        let status = match self.result() {
            Some(r) => match r.winner() {
                Some(w) => format!("game over: {} wins {}-{}", color_name(w), r.black, r.white),
                None => format!("game over: draw {}-{}", r.black, r.white),
            },
            None => format!("{} ({}) to move", color_name(self.side), self.side.disc_letter()),
        };
        out.push_str(&format!(
            "black {} white {} empty {}; {status}\n",
            self.count(Color::BLACK),
            self.count(Color::WHITE),
            self.board.empty_count()
        ));
        out
    }
}

/// `black` or `white`.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::BLACK => "black",
        Color::WHITE => "white",
    }
}

impl<B: OthelloBoard> fmt::Display for Position<B> {
    /// The OBF form: squares from `a1`, a space, the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for sq in 0..B::SIZE * B::SIZE {
            let ch = match self.color_at(sq) {
                Some(c) => c.disc_letter(),
                None => '-',
            };
            write!(f, "{ch}")?;
        }
        write!(f, " {}", self.side.disc_letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::othello::{Board, Board6, Board10};

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn start_text_round_trip() {
        let p = Position::<Board>::start();
        assert_eq!(p.to_string(), START);
        assert_eq!(Position::<Board>::parse(START), Ok(p));
        let dotted = START.replace('-', ".").replace('X', "*");
        assert_eq!(Position::<Board>::parse(&dotted), Ok(p));
        let six = Position::<Board6>::start();
        assert_eq!(Position::<Board6>::parse(&six.to_string()), Ok(six));
        let ten = Position::<Board10>::start();
        assert_eq!(Position::<Board10>::parse(&ten.to_string()), Ok(ten));
    }

    #[test]
    fn bad_texts_are_explained() {
        type P = Position<Board>;
        assert!(matches!(P::parse("---"), Err(PositionParseError::Length { found: 2, .. })));
        assert_eq!(P::parse(&START[..65]), Err(PositionParseError::MissingSide));
        assert!(matches!(P::parse(&START.replace(" X", " Z")), Err(PositionParseError::Side(_))));
        let bad = format!("Z{}", &START[1..]);
        assert_eq!(P::parse(&bad), Err(PositionParseError::Character { ch: 'Z', square: "a1".into() }));
        let long = format!("-{START}");
        assert!(matches!(P::parse(&long), Err(PositionParseError::Length { found: 65, .. })));
        let short = &START[1..];
        assert!(matches!(P::parse(short), Err(PositionParseError::Length { found: 63, .. })));
    }

    #[test]
    fn passes_and_game_over() {
        // White has no move, black does: white must pass.
        let p = Position::<Board>::parse(&format!("XO{} O", "-".repeat(62))).unwrap();
        assert_eq!(p.legal_moves(), vec![Move::Pass]);
        assert!(p.play(Move::Play(2)).is_err());
        let after = p.play(Move::Pass).unwrap();
        assert_eq!(after.side_to_move(), Color::BLACK);
        assert_eq!(after.play(Move::Pass), Err(IllegalMove::PassWithMoves("black".into())));
        let done = after.play(Move::Play(2)).unwrap();
        assert!(done.is_game_over());
        assert!(done.legal_moves().is_empty());
        let r = done.result().unwrap();
        assert_eq!((r.black, r.white, r.empties), (3, 0, 61));
        assert_eq!(r.black_margin(), 64);
        assert_eq!(r.wof_counts(), (64, 0));
        assert_eq!(done.play(Move::Pass), Err(IllegalMove::GameOver));
    }

    #[test]
    fn illegal_moves_say_why() {
        let p = Position::<Board>::start();
        assert_eq!(p.play(Move::Play(27)), Err(IllegalMove::Occupied("d4".into())));
        assert_eq!(p.play(Move::Play(0)), Err(IllegalMove::NoFlip("a1".into())));
        assert!(p.play(Move::Pass).is_err());
    }

    #[test]
    fn drawing_marks_legal_moves() {
        let d = Position::<Board>::start().draw();
        assert!(d.contains(" 3 . . . + . . . .\n"));
        assert!(d.contains(" 4 . . + O X . . .\n"));
        assert!(!d.lines().any(|l| l.ends_with(' ')));
        assert!(d.contains("black (X) to move"));
    }
}
