//! A Go game: the board with its history, the superko rule, undo, the end after two
//! passes, and scoring (area with komi, neutral points shared, Tromp-Taylor, and the
//! territory count of seed 004 beside it).

use thiserror::Error;

use super::board::{Board, Color, Illegal, bits, flood, neighbours};
use super::coords::{CoordError, Point};

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A stone on this point.
    Play(Point),
    /// A pass.
    Pass,
}

impl Move {
    /// Reads a GTP move on a board of side `size`: `pass` (any case) or a vertex
    /// ([`Point::from_gtp`]); surrounding blanks are ignored.
    pub fn from_gtp(text: &str, size: usize) -> Result<Move, CoordError> {
        if text.trim().eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        Point::from_gtp(text, size).map(Move::Play)
    }

    /// The GTP text of the move on a board of side `size`: the vertex (`D4`) or `pass`.
    pub fn to_gtp(self, size: usize) -> String {
        match self {
            Move::Play(p) => p.to_gtp(size),
            Move::Pass => "pass".to_string(),
        }
    }
}

/// Which repetitions are forbidden beyond simple ko.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Superko {
    /// Simple ko only.
    Off,
    /// No board position may repeat (the default).
    #[default]
    Positional,
    /// No board position with the same side to move may repeat.
    Situational,
}

/// Why undo was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum UndoError {
    /// Nothing to undo.
    #[error("no move to undo")]
    NothingToUndo,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    boards: Vec<Board>,
    moves: Vec<(Color, Move)>,
    /// Keys of every position so far (board hash, with the side to move mixed in for
    /// situational superko).
    seen: Vec<u64>,
    superko: Superko,
    komi: f64,
}

const WHITE_TO_MOVE_KEY: u64 = 0x7A3D_9B21_5C8E_F046;

impl Game {
    /// A game from `start` (usually an empty board) with `komi` and `superko`.
    pub fn new(start: Board, komi: f64, superko: Superko) -> Game {
        let mut g = Game { boards: vec![start], moves: Vec::new(), seen: Vec::new(), superko, komi };
        g.seen.push(g.key(&start));
        g
    }

    fn key(&self, b: &Board) -> u64 {
        match self.superko {
            Superko::Situational if b.to_move() == Color::WHITE => b.hash() ^ WHITE_TO_MOVE_KEY,
            _ => b.hash(),
        }
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        self.boards.last().expect("a game has a board")
    }
    /// The starting board.
    pub fn start(&self) -> &Board {
        &self.boards[0]
    }
    /// Every board of the game so far, the start first and the current one last (one
    /// per move, passes included).
    pub fn boards(&self) -> &[Board] {
        &self.boards
    }
    /// The moves played, with their colours.
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }
    /// Komi.
    pub fn komi(&self) -> f64 {
        self.komi
    }
    /// Sets komi.
    pub fn set_komi(&mut self, komi: f64) {
        self.komi = komi;
    }
    /// The superko rule.
    pub fn superko(&self) -> Superko {
        self.superko
    }
    /// True after two passes in a row.
    pub fn is_over(&self) -> bool {
        self.board().passes() >= 2
    }

    /// The position after `color` plays `mv`, or why it is illegal (superko included).
    pub fn check(&self, color: Color, mv: Move) -> Result<Board, Illegal> {
        let board = self.board();
        match mv {
            Move::Pass => Ok(board.pass(color)),
            Move::Play(p) => {
                let mut b = *board;
                b.set_to_move(color);
                let (next, _) = b.try_play(color, p)?;
                if self.superko != Superko::Off && self.seen.contains(&self.key(&next)) {
                    return Err(Illegal::Superko);
                }
                Ok(next)
            }
        }
    }

    /// Plays `mv` for `color` (either colour may play, as GTP allows).
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), Illegal> {
        let next = self.check(color, mv)?;
        self.seen.push(self.key(&next));
        self.boards.push(next);
        self.moves.push((color, mv));
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<(Color, Move), UndoError> {
        let last = self.moves.pop().ok_or(UndoError::NothingToUndo)?;
        self.boards.pop();
        self.seen.pop();
        Ok(last)
    }

    /// Points where `color` may play now (superko included).
    pub fn legal_points(&self, color: Color) -> u128 {
        let mut b = *self.board();
        b.set_to_move(color);
        let candidates = b.legal_points(color);
        if self.superko == Superko::Off {
            return candidates;
        }
        bits(candidates).filter(|&p| self.check(color, Move::Play(p)).is_ok()).fold(0, |acc, p| acc | p.bit())
    }

    /// The score with `dead` stones removed first.
    pub fn score(&self, dead: u128) -> Score {
        score(self.board(), dead, self.komi, self.stones_played())
    }

    /// Stones each colour has put on the board (passes excluded), for the territory
    /// count.
    pub fn stones_played(&self) -> [u32; 2] {
        let mut n = [0, 0];
        for &(c, m) in &self.moves {
            if let Move::Play(_) = m {
                n[c.index()] += 1;
            }
        }
        n
    }
}

/// Both ways of counting a finished game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    /// Area of black: stones plus territory plus half the neutral points.
    pub black_area: f64,
    /// Area of white.
    pub white_area: f64,
    /// Empty points reached by both colours (or neither), shared half and half.
    pub neutral: u32,
    /// Black's territory (目): surrounded empty points minus black stones lost
    /// (captured during play and removed as dead), seed 004's refilled count.
    pub black_territory: i32,
    /// White's territory, likewise.
    pub white_territory: i32,
    /// Stones black put on the board.
    pub black_played: u32,
    /// Stones white put on the board.
    pub white_played: u32,
    /// Komi.
    pub komi: f64,
}

impl Score {
    /// Black's margin by area, komi included (positive: black wins).
    pub fn margin(&self) -> f64 {
        self.black_area - self.white_area - self.komi
    }

    /// The result in SGF/GTP form: `B+3.5`, `W+0.5`, `0`.
    pub fn result(&self) -> String {
        let m = self.margin();
        if m > 0.0 {
            format!("B+{}", trim(m))
        } else if m < 0.0 {
            format!("W+{}", trim(-m))
        } else {
            "0".into()
        }
    }

    /// The same totals from the territory count: 目 + stones played + half the
    /// neutral points (seed 004). Equal to the area count.
    pub fn territory_totals(&self) -> (f64, f64) {
        let half = self.neutral as f64 / 2.0;
        (
            self.black_territory as f64 + self.black_played as f64 + half,
            self.white_territory as f64 + self.white_played as f64 + half,
        )
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.1}");
    s.strip_suffix(".0").map_or(s.clone(), str::to_string)
}

/// Scores `board` after removing `dead` stones: area counting, neutral points
/// (reached by both colours, or by none) shared. `played` is the stones each colour
/// has put on the board during the game (for the territory count).
pub fn score(board: &Board, dead: u128, komi: f64, played: [u32; 2]) -> Score {
    let mask = board.mask();
    let black = board.stones(Color::BLACK) & !dead;
    let white = board.stones(Color::WHITE) & !dead;
    let empty = mask & !(black | white);
    let (mut black_terr, mut white_terr, mut neutral) = (0u32, 0u32, 0u32);
    let mut rest = empty;
    while rest != 0 {
        let region = flood(rest & rest.wrapping_neg(), empty, mask);
        rest &= !region;
        let border = neighbours(region, mask);
        let n = region.count_ones();
        match (border & black != 0, border & white != 0) {
            (true, false) => black_terr += n,
            (false, true) => white_terr += n,
            _ => neutral += n,
        }
    }
    let half = neutral as f64 / 2.0;
    let lost = |c: Color| (board.prisoners(c.other()) + (board.stones(c) & dead).count_ones()) as i32;
    Score {
        black_area: (black.count_ones() + black_terr) as f64 + half,
        white_area: (white.count_ones() + white_terr) as f64 + half,
        neutral,
        black_territory: black_terr as i32 - lost(Color::BLACK),
        white_territory: white_terr as i32 - lost(Color::WHITE),
        black_played: played[0],
        white_played: played[1],
        komi,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_moves_read_back() {
        for size in [2, 9] {
            for p in super::super::points(size) {
                assert_eq!(Move::from_gtp(&Move::Play(p).to_gtp(size), size), Ok(Move::Play(p)));
            }
        }
        assert_eq!(Move::Pass.to_gtp(9), "pass");
        for pass in ["pass", "PASS", " Pass "] {
            assert_eq!(Move::from_gtp(pass, 9), Ok(Move::Pass));
        }
        assert_eq!(Move::from_gtp("d4", 9), Ok(Move::Play(Point::new(5, 3))));
        assert!(matches!(Move::from_gtp("I5", 9), Err(CoordError::Syntax(_))));
        assert!(matches!(Move::from_gtp("K5", 9), Err(CoordError::OffBoard { .. })));
    }

    /// The ko shape on a 5×5 board, white to take nothing yet; black to capture at (1,2).
    fn ko_game(superko: Superko) -> Game {
        let mut g = Game::new(Board::new(5), 7.5, superko);
        let moves = [
            (Color::BLACK, (0, 1)),
            (Color::WHITE, (0, 2)),
            (Color::BLACK, (1, 0)),
            (Color::WHITE, (1, 3)),
            (Color::BLACK, (2, 1)),
            (Color::WHITE, (2, 2)),
            (Color::BLACK, (4, 4)),
            (Color::WHITE, (1, 1)),
        ];
        for (c, (r, col)) in moves {
            g.play(c, Move::Play(Point::new(r, col))).unwrap();
        }
        g
    }

    #[test]
    fn superko_forbids_a_repetition_that_simple_ko_allows() {
        for superko in [Superko::Off, Superko::Positional, Superko::Situational] {
            let mut g = ko_game(superko);
            // Black takes the ko; white may not retake at once (simple ko).
            g.play(Color::BLACK, Move::Play(Point::new(1, 2))).unwrap();
            assert_eq!(g.check(Color::WHITE, Move::Play(Point::new(1, 1))), Err(Illegal::Ko));
            // Two passes clear the simple ko; retaking now recreates the board of
            // before black's capture, with white to move again after the retake.
            g.play(Color::WHITE, Move::Pass).unwrap();
            g.play(Color::BLACK, Move::Pass).unwrap();
            let retake = g.check(Color::WHITE, Move::Play(Point::new(1, 1)));
            match superko {
                Superko::Off => assert!(retake.is_ok()),
                // The board after the retake equals the one after white's move 8, with
                // black to move in both: forbidden under both superko rules.
                _ => assert_eq!(retake, Err(Illegal::Superko)),
            }
        }
    }

    #[test]
    fn two_passes_end_the_game_and_undo_works() {
        let mut g = Game::new(Board::new(5), 0.5, Superko::Positional);
        g.play(Color::BLACK, Move::Pass).unwrap();
        assert!(!g.is_over());
        g.play(Color::WHITE, Move::Pass).unwrap();
        assert!(g.is_over());
        g.undo().unwrap();
        assert!(!g.is_over());
        g.undo().unwrap();
        assert_eq!(g.undo(), Err(UndoError::NothingToUndo));
    }

    #[test]
    fn area_and_territory_counts_agree() {
        // Black owns the left two columns, white the right two, middle column neutral.
        let mut g = Game::new(Board::new(5), 0.5, Superko::Positional);
        for r in 0..5 {
            g.play(Color::BLACK, Move::Play(Point::new(r, 1))).unwrap();
            g.play(Color::WHITE, Move::Play(Point::new(r, 3))).unwrap();
        }
        let s = g.score(0);
        assert_eq!(s.neutral, 5);
        assert_eq!(s.black_area, 10.0 + 2.5);
        assert_eq!(s.white_area, 10.0 + 2.5);
        assert_eq!(s.margin(), -0.5);
        assert_eq!(s.result(), "W+0.5");
        assert_eq!(s.territory_totals(), (s.black_area, s.white_area));
        // A dead white stone in black's area counts for black.
        let mut b = *g.board();
        b.set(Point::new(2, 0), Some(Color::WHITE));
        let dead = Point::new(2, 0).bit();
        let s2 = score(&b, dead, 0.5, [5, 6]);
        assert_eq!(s2.black_area, 12.5);
        assert_eq!(s2.white_territory, 5 - 1, "a dead stone is refilled into its owner's territory");
    }
}
