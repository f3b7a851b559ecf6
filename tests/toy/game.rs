//! Tic-tac-toe, the toy game that proves a game needs no code in `engine/src`: its
//! rules ([`search::Game`], [`search::Evaluate`]), what the arena needs of it
//! ([`ArenaGame`]) and its [`GameSpec`], all here. Its player is the generic
//! alpha-beta one ([`AlphaBetaPlayer`]) and its UGI+ session the generic one
//! ([`PlayerSession`]). `toy/main.rs` makes it a program with one registration line.
//!
//! The board's points are `a1`..`c3` (column letter, row number from the bottom); the
//! text form is the three rows from the top, `/` between them, then the side to move:
//! `x.o/.x./... o`. X moves first.

use bitboards::{Outcome, Player};
use search::player::AlphaBetaPlayer;
use search::{Evaluate, Game};
use sente::error::Result;
use sente::games::generic::PlayerSession;
use sente::games::referee::{ArenaGame, Ending, MoveStat, RefereeRules, Refereed, referee_of};
use sente::games::session::GameSession;
use sente::games::{BoardSizes, GameKind, GameSpec};

/// The eight lines of three points.
const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

/// A tic-tac-toe position: the points of each side (bit `row * 3 + column`, row 0 at
/// the bottom) and who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    x: u16,
    o: u16,
    x_to_move: bool,
}

impl TicTacToe {
    /// The empty board, X to move.
    pub fn start() -> TicTacToe {
        TicTacToe { x: 0, o: 0, x_to_move: true }
    }

    /// Reads the text form (`x.o/.x./... o`).
    pub fn parse(text: &str) -> std::result::Result<TicTacToe, String> {
        let (board, side) = text.trim().split_once(' ').ok_or("a board, a space and the side to move")?;
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 3 || rows.iter().any(|r| r.chars().count() != 3) {
            return Err(format!("'{board}' is not three rows of three points"));
        }
        let mut position = TicTacToe { x: 0, o: 0, x_to_move: side == "x" };
        if side != "x" && side != "o" {
            return Err(format!("the side to move is x or o, not '{side}'"));
        }
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let bit = 1 << ((2 - r) * 3 + c);
                match ch {
                    'x' => position.x |= bit,
                    'o' => position.o |= bit,
                    '.' => {}
                    other => return Err(format!("'{other}' is not x, o or .")),
                }
            }
        }
        Ok(position)
    }

    fn won(stones: u16) -> bool {
        LINES.iter().any(|&line| line & !stones == 0)
    }
}

impl Game for TicTacToe {
    type Move = u8;

    fn to_move(&self) -> Player {
        if self.x_to_move { Player::One } else { Player::Two }
    }

    fn legal_moves(&self) -> Vec<u8> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        (0..9).filter(|&p| (self.x | self.o) & (1 << p) == 0).collect()
    }

    fn play(&self, mv: u8) -> TicTacToe {
        let mut next = *self;
        if self.x_to_move {
            next.x |= 1 << mv;
        } else {
            next.o |= 1 << mv;
        }
        next.x_to_move = !self.x_to_move;
        next
    }

    fn outcome(&self) -> Option<Outcome> {
        if Self::won(self.x) {
            Some(Outcome::Win(Player::One))
        } else if Self::won(self.o) {
            Some(Outcome::Win(Player::Two))
        } else if self.x | self.o == 0o777 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        (self.x as u64) | ((self.o as u64) << 9) | ((self.x_to_move as u64) << 18)
    }

    fn move_name(&self, mv: u8) -> String {
        format!("{}{}", char::from(b'a' + mv % 3), mv / 3 + 1)
    }

    fn parse_move(&self, text: &str) -> std::result::Result<u8, String> {
        match text.trim().as_bytes() {
            [c @ b'a'..=b'c', r @ b'1'..=b'3'] => Ok((r - b'1') * 3 + (c - b'a')),
            _ => Err(format!("'{text}' is not a point a1..c3")),
        }
    }

    fn moves_left_estimate(&self) -> u32 {
        (9 - (self.x | self.o).count_ones()).div_ceil(2)
    }
}

impl Evaluate for TicTacToe {
    /// No knowledge: every unfinished position is even.
    fn evaluate(&self) -> i32 {
        0
    }

    /// A finished game: the side to move has lost (its opponent made the line) or
    /// drawn.
    fn terminal_value(&self) -> i32 {
        match self.outcome() {
            Some(Outcome::Win(p)) if p == self.to_move() => 1000,
            Some(Outcome::Win(_)) => -1000,
            _ => 0,
        }
    }
}

impl ArenaGame for TicTacToe {
    fn from_opening(_rules: &RefereeRules, start: Option<&str>) -> std::result::Result<TicTacToe, String> {
        start.map_or(Ok(TicTacToe::start()), TicTacToe::parse)
    }

    fn text(&self) -> String {
        let point = |bit: u16| {
            if self.x & bit != 0 {
                'x'
            } else if self.o & bit != 0 {
                'o'
            } else {
                '.'
            }
        };
        let rows: Vec<String> = (0..3).rev().map(|r| (0..3).map(|c| point(1 << (r * 3 + c))).collect()).collect();
        format!("{} {}", rows.join("/"), if self.x_to_move { 'x' } else { 'o' })
    }

    fn record(
        &self,
        start: &TicTacToe,
        names: [&str; 2],
        moves: &[String],
        _plies: &[MoveStat],
        ending: &Ending,
    ) -> (&'static str, String) {
        let text = format!(
            "# Tic-tac-toe (sente arena)\nstart {}\nx {}\no {}\nmoves {}\nresult {}\nfinal {}\n",
            start.text(),
            names[0],
            names[1],
            moves.join(" "),
            ending.outcome.result_text(),
            self.text()
        );
        ("txt", text)
    }
}

/// Tic-tac-toe's face to the engine.
pub struct TicTacToeSpec;

impl GameSpec for TicTacToeSpec {
    fn name(&self) -> &'static str {
        "tictactoe"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["tic-tac-toe", "noughts-and-crosses"]
    }

    fn title(&self) -> &'static str {
        "Tic-tac-toe"
    }

    fn player_names(&self) -> (&'static str, &'static str) {
        ("x", "o")
    }

    fn board_sizes(&self) -> BoardSizes {
        BoardSizes { default: 3, min: 3, max: 3, text: "3 only" }
    }

    fn new_session(&self, size: Option<usize>) -> Result<Box<dyn GameSession>> {
        if size.is_some_and(|n| n != 3) {
            return Err(sente::error::EngineError::BoardSize("tic-tac-toe is played on 3x3 only (3)".into()));
        }
        let rules = RefereeRules::plain(3, 9);
        let kind = GameKind::from_spec(&TicTacToeSpec);
        Ok(Box::new(PlayerSession::<TicTacToe, AlphaBetaPlayer>::new(kind, rules, AlphaBetaPlayer)?))
    }

    fn new_referee(&self, rules: &RefereeRules, start: Option<&str>) -> std::result::Result<Box<dyn Refereed>, String> {
        Ok(referee_of(rules, TicTacToe::from_opening(rules, start)?))
    }

    fn max_moves(&self, _size: usize) -> usize {
        9
    }
}
