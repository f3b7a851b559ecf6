//! Replaying a game's record for `sente arena report`: each game reads its own record
//! with its own rules and turns it into frames (the board after every move, the move,
//! what the engine said about it) that the page's script only draws. The arena asks
//! the game ([`crate::games::GameSpec::replay`] and [`crate::games::GameSpec::report_face`]);
//! it knows no game of its own.

pub mod chaosclock;
pub mod go;
pub mod othello;
pub mod phantom;

use bitboards::go::{Board as GoBoard, Color, Point, points};
use serde::Serialize;

use crate::games::referee::MoveStat;

/// How a game's replay looks on the report page: fixed words for what the arena
/// writes around the boards.
#[derive(Clone, Copy, Debug)]
pub struct ReportFace {
    /// The names of the seats (black/white, 乙/甲), as the page's captions give them.
    pub seats: [&'static str; 2],
    /// What a turn is called (`move`; Phantom Go: `try`).
    pub turn: &'static str,
    /// The time plot's x axis (`ply`; Phantom Go: `tries before this one`).
    pub turn_axis: &'static str,
    /// The replay takes the page's whole width (Phantom Go's three boards).
    pub wide: bool,
    /// The replay's hint after the keys: what the colours and marks mean.
    pub hint: &'static str,
    /// Whether the page names the match's openings (Phantom Go has none).
    pub shows_openings: bool,
    /// How random openings are named: `random openings (P plies, seed S)`; Chaos
    /// Clock: `random deals (seed S)`.
    pub random_openings: fn(plies: usize, seed: u64) -> String,
}

impl Default for ReportFace {
    fn default() -> ReportFace {
        ReportFace {
            seats: ["black", "white"],
            turn: "move",
            turn_axis: "ply",
            wide: false,
            hint: "",
            shows_openings: true,
            random_openings: |plies, seed| format!("random openings ({plies} plies, seed {seed})"),
        }
    }
}

/// One game's record as the report hands it to its game.
pub struct ReplayInput<'a> {
    /// The record's text.
    pub text: &'a str,
    /// What the engines said about each turn (time, score, depth, nodes), in the
    /// order they were asked.
    pub plies: &'a [MoveStat],
    /// Whether turn `i` (from 0) was the opening's, not the engines' choice.
    pub opening: &'a dyn Fn(usize) -> bool,
}

/// A replayed game: its frames, a note when the replay stopped early, the board side.
pub struct Replayed {
    /// One frame for the start and one after every move the record gives.
    pub frames: Vec<Frame>,
    /// Why the replay stopped before the record's end.
    pub note: Option<String>,
    /// The side of the board drawn (Chaos Clock: its 12 points).
    pub size: usize,
}

/// One position of a game, and the move that led to it.
#[derive(Serialize, Default)]
pub struct Frame {
    /// The boards: Othello and Go one string of cells from the top-left (`X` black,
    /// `O` white, `-` or `.` empty); Phantom Go three (the referee's, black's view,
    /// white's view); Chaos Clock the piece on each point 1..12, comma-separated.
    b: Vec<String>,
    /// The move that led here (absent at the start).
    #[serde(skip_serializing_if = "String::is_empty")]
    m: String,
    /// The seat that made it: 0 first, 1 second.
    #[serde(skip_serializing_if = "Option::is_none")]
    s: Option<u8>,
    /// The cell (Chaos Clock: the point 1..12) the move landed on.
    #[serde(skip_serializing_if = "Option::is_none")]
    at: Option<usize>,
    /// Marks per board: (cell, kind): `c` captured here, `r` refused this turn, `t`
    /// the points of the last capture the player was told of.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    x: Vec<Vec<(usize, char)>>,
    /// The position in words (counts, captures, side to move).
    t: String,
    /// Pieces drawn (stones, discs, pieces on the dial), for the page's self-test.
    k: usize,
    /// A move of the opening (not chosen by the engines).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    o: bool,
    /// Milliseconds the engine took.
    #[serde(skip_serializing_if = "Option::is_none")]
    ms: Option<u64>,
    /// The engine's score, for the side it moved for.
    #[serde(skip_serializing_if = "Option::is_none")]
    sc: Option<f64>,
    /// Search depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    d: Option<u32>,
    /// Nodes or playouts.
    #[serde(skip_serializing_if = "Option::is_none")]
    n: Option<u64>,
    /// The record's annotation of the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    c: Option<String>,
    /// Chaos Clock: the hands of 乙 and 甲.
    #[serde(skip_serializing_if = "Option::is_none")]
    h: Option<[Vec<u8>; 2]>,
    /// Chaos Clock: the piece just walked (0 none).
    #[serde(skip_serializing_if = "Option::is_none")]
    w: Option<u8>,
}

impl Frame {
    pub(crate) fn with_stat(mut self, stat: Option<&MoveStat>) -> Frame {
        if let Some(p) = stat {
            self.ms = Some(p.ms);
            self.sc = p.score;
            self.d = p.depth;
            self.n = p.nodes;
        }
        self
    }
}

/// A Go board as one string of cells from the top-left.
fn go_cells(board: &GoBoard) -> (String, usize) {
    let size = board.size();
    let mut k = 0;
    let cells = points(size)
        .map(|p| match board.at(p) {
            Some(Color::BLACK) => {
                k += 1;
                'X'
            }
            Some(_) => {
                k += 1;
                'O'
            }
            None => '.',
        })
        .collect();
    (cells, k)
}

/// The cell index of a Go point on a board of side `size`.
fn cell(p: Point, size: usize) -> usize {
    p.row() * size + p.col()
}

/// The frames of a record, and a note when the replay stopped early.
pub(crate) type Frames = (Vec<Frame>, Option<String>);
