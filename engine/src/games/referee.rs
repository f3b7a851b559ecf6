//! The true game of a match, held by the arena with our own rules: it checks every
//! move an engine sends, knows when the game is over and who won, and writes the
//! record (SGF for Go, GGF for Othello, a text form for Chaos Clock).
//!
//! Every game is refereed the same way, through [`search::Game`]: a move is read with
//! [`Game::parse_move`], checked with [`Game::check_move`], played with [`Game::play`],
//! and the game ends when [`Game::outcome`] says so. What differs per game —
//! adjudication, how the end is scored and written, the record — is an [`ArenaGame`].

use std::sync::atomic::AtomicBool;

use bitboards::chaosclock::{self as cc, Record};
use bitboards::go::{self, Point, Superko};
use bitboards::othello::{Board, Color, OthelloBoard, Position};
use bitboards::{Outcome, Player};
use search::go::endgame::judge;
use search::othello::{SolveLimits, SolveMode, Solver};
use search::{Game, StopFlag};

use serde::{Deserialize, Serialize};

use crate::games::session::PerftJob;

/// A finished game's outcome, why it ended, and the score text (`B+3.5`, `34-30`).
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// The outcome.
    pub outcome: Outcome,
    /// Why the game ended.
    pub reason: String,
    /// The score in the game's own terms, if any.
    pub score: Option<String>,
}

/// Settings of the referee.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RefereeRules {
    /// Board side (Go).
    pub size: usize,
    /// Komi (Go).
    pub komi: f64,
    /// Othello: solve exactly and end the game at this many empties (0: never).
    pub solve_empties: u32,
    /// End the game after this many moves: Go is then scored as it stands, Chaos
    /// Clock ends with both losing, Othello cannot last that long.
    pub max_moves: usize,
    /// Phantom Go: the referee's rule set (CCGC or OpenSpiel).
    pub phantom_rules: bitboards::phantom::PhantomRules,
}

impl RefereeRules {
    /// Rules of a board of side `size` and a move cap, with every game's own setting
    /// at its default (no komi, no exact solving, CCGC Phantom Go): what a game that
    /// has none of these settings fills in.
    pub fn plain(size: usize, max_moves: usize) -> RefereeRules {
        RefereeRules { size, komi: 0.0, solve_empties: 0, max_moves, phantom_rules: Default::default() }
    }
}

/// An opening: a start position (game text form; `None`: the standard start) and
/// moves played from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    /// The start position.
    pub start: Option<String>,
    /// Moves from the start.
    pub moves: Vec<String>,
}

/// What the arena needs of a game beyond [`Game`]: how it is set up, ended by
/// something other than its rules, scored, and written down.
pub trait ArenaGame: Game + Send {
    /// The game at `start` (its text form; `None`: the standard start).
    fn from_opening(rules: &RefereeRules, start: Option<&str>) -> Result<Self, String>;
    /// The position's text form, as [`ArenaGame::from_opening`] reads it back.
    fn text(&self) -> String;
    /// A drawing of the position for people (UGI+ `query draw`); the text form unless
    /// the game draws better.
    fn draw(&self) -> String {
        self.text()
    }
    /// Player one's margin now in the game's own counting (GTP `final_score`; `None`
    /// when the game keeps none).
    fn margin(&self) -> Option<f64> {
        None
    }
    /// Player one's score now in the game's own counting (UGI+ `query score`): the
    /// margin unless the game says otherwise, empty when it keeps none.
    fn score_text(&self) -> String {
        self.margin().map_or(String::new(), |m| m.to_string())
    }
    /// The number of move sequences of `depth` moves from here (UGI+ `perft`), ready to
    /// run on another thread with up to `threads` threads, or why not.
    fn perft_job(&self, depth: u32, threads: usize) -> Result<PerftJob, String> {
        let _ = threads;
        let position = self.clone();
        Ok(Box::new(move |stop: &StopFlag| perft(&position, depth, stop)))
    }
    /// An ending before the rules end the game: adjudication or the move cap (unless
    /// the game says otherwise, a draw once `rules.max_moves` moves are played).
    fn adjudicate(&self, _judge: &mut Judge, rules: &RefereeRules, moves: usize) -> Option<Ending> {
        (moves >= rules.max_moves).then(|| Ending {
            outcome: Outcome::Draw,
            reason: format!("move cap ({} moves): a draw", rules.max_moves),
            score: None,
        })
    }
    /// The ending of a game its rules have ended.
    fn final_ending(&self, outcome: Outcome) -> Ending {
        Ending { outcome, reason: "game over".into(), score: None }
    }
    /// Go: the dead stones the arena sees, as sorted GTP vertices.
    fn dead_vertices(&self) -> Vec<String> {
        Vec::new()
    }
    /// Go: the ending when `dead` (GTP vertices) are removed.
    fn score_with_dead(&self, _dead: &[String]) -> Option<Ending> {
        None
    }
    /// The start in GGF `BO` form (Othello; empty otherwise).
    fn ggf_board(&self) -> String {
        String::new()
    }
    /// A finished game's record: (file extension, text). `start` is the game at the
    /// start of the opening.
    fn record(
        &self,
        start: &Self,
        names: [&str; 2],
        moves: &[String],
        plies: &[MoveStat],
        ending: &Ending,
    ) -> (&'static str, String);
}

/// The number of move sequences of `depth` moves from `g`; `None` once stopped.
fn perft<G: Game>(g: &G, depth: u32, stop: &StopFlag) -> Option<u64> {
    if depth == 0 || g.outcome().is_some() {
        return Some(1);
    }
    if stop.is_stopped() {
        return None;
    }
    g.legal_moves().into_iter().try_fold(0, |n, mv| Some(n + perft(&g.play(mv), depth - 1, stop)?))
}

/// What an engine spent and reported on one move it was asked for (cutechess writes
/// the same into each PGN move's comment).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct MoveStat {
    /// Moves played before this one, the opening's included (Phantom Go: tries
    /// before this one, as the text record numbers them from 1).
    pub ply: usize,
    /// The seat that was asked: 0 first, 1 second.
    pub seat: usize,
    /// Wall time from the request to the reply, in milliseconds, as the arena's clock
    /// charged it.
    pub ms: u64,
    /// The engine's score for the side it moved for, in its protocol's unit (UGI+
    /// `score cp` / 100; NBoard's eval in discs), when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// Search depth it reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Nodes or playouts it reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
}

/// The data of the move asked for after `ply` moves (tries, in Phantom Go), if an
/// engine was asked for it (the last one, should there be two).
pub fn stat_at(plies: &[MoveStat], ply: usize) -> Option<&MoveStat> {
    plies.iter().rev().find(|s| s.ply == ply)
}

impl MoveStat {
    /// The move's comment in a record, as cutechess writes it into PGN: score/depth
    /// (when given) and the time, then the nodes: `+0.40/5 0.186s, 8192 nodes`.
    pub fn annotation(&self) -> String {
        let mut text = String::new();
        if let Some(score) = self.score {
            text.push_str(&format!("{score:+.2}"));
            if let Some(depth) = self.depth {
                text.push_str(&format!("/{depth}"));
            }
            text.push(' ');
        } else if let Some(depth) = self.depth {
            text.push_str(&format!("depth {depth} "));
        }
        text.push_str(&format!("{:.3}s", self.ms as f64 / 1000.0));
        if let Some(nodes) = self.nodes {
            text.push_str(&format!(", {nodes} nodes"));
        }
        text
    }
}

/// Tools the referee keeps between moves (the exact solver for Othello adjudication).
#[derive(Default)]
pub struct Judge {
    solver: Option<Box<Solver>>,
}

impl Judge {
    /// A judge with the exact Othello solver (16 MiB of table, one thread).
    pub fn with_solver() -> Judge {
        Judge { solver: Some(Box::new(Solver::new(16, 1))) }
    }
}

/// The referee's face to the match loop: one game of any kind.
pub trait Refereed: Send {
    /// The player to move.
    fn to_move(&self) -> Player;
    /// `Ok` if the move given as text is legal now, or why not.
    fn check(&self, text: &str) -> Result<(), String>;
    /// The current position's text form.
    fn text(&self) -> String;
    /// The outcome by the rules once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// A referee of the same game at the same position, without the judge's tools.
    fn clone_position(&self) -> Box<dyn Refereed>;
    /// Plays a move of the side to move given as text; returns it in the arena's
    /// canonical text, or why it is not legal.
    fn play(&mut self, text: &str) -> Result<String, String>;
    /// The legal moves other than a pass, as text (for random openings).
    fn legal_moves(&self) -> Vec<String>;
    /// The ending, if the game is over by its rules, by adjudication or by the move cap.
    fn ending(&mut self, rules: &RefereeRules, moves: usize) -> Option<Ending>;
    /// Go: the arena's dead stones as sorted GTP vertices.
    fn dead_vertices(&self) -> Vec<String>;
    /// Go: the score when `dead` (GTP vertices) are removed.
    fn score_with_dead(&self, dead: &[String]) -> Option<Ending>;
    /// True if the game asks the engines for dead stones at the end (Go).
    fn has_dead_stones(&self) -> bool;
    /// The start in GGF `BO` form (Othello; empty otherwise).
    fn ggf_board(&self) -> String;
    /// A finished game's record: (file extension, text).
    fn record(&self, names: [&str; 2], moves: &[String], plies: &[MoveStat], ending: &Ending)
    -> (&'static str, String);
}

/// The referee of one game: the start, the current position and the judge's tools.
struct Match<G: ArenaGame> {
    start: G,
    position: G,
    judge: Judge,
    dead_stones: bool,
}

impl<G: ArenaGame> Refereed for Match<G> {
    fn to_move(&self) -> Player {
        self.position.to_move()
    }

    fn check(&self, text: &str) -> Result<(), String> {
        self.position.check_move(self.position.parse_move(text)?)
    }

    fn text(&self) -> String {
        self.position.text()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    fn clone_position(&self) -> Box<dyn Refereed> {
        Box::new(Match {
            start: self.start.clone(),
            position: self.position.clone(),
            judge: Judge::default(),
            dead_stones: self.dead_stones,
        })
    }

    fn play(&mut self, text: &str) -> Result<String, String> {
        let mv = self.position.parse_move(text)?;
        self.position.check_move(mv)?;
        let name = self.position.move_name(mv);
        self.position = self.position.play(mv);
        Ok(name)
    }

    fn legal_moves(&self) -> Vec<String> {
        let moves = self.position.legal_moves();
        moves.into_iter().map(|m| self.position.move_name(m)).filter(|m| m != "pass").collect()
    }

    fn ending(&mut self, rules: &RefereeRules, moves: usize) -> Option<Ending> {
        if let Some(outcome) = self.position.outcome() {
            return Some(self.position.final_ending(outcome));
        }
        self.position.adjudicate(&mut self.judge, rules, moves)
    }

    fn dead_vertices(&self) -> Vec<String> {
        self.position.dead_vertices()
    }

    fn score_with_dead(&self, dead: &[String]) -> Option<Ending> {
        self.position.score_with_dead(dead)
    }

    fn has_dead_stones(&self) -> bool {
        self.dead_stones
    }

    fn ggf_board(&self) -> String {
        self.start.ggf_board()
    }

    fn record(
        &self,
        names: [&str; 2],
        moves: &[String],
        plies: &[MoveStat],
        ending: &Ending,
    ) -> (&'static str, String) {
        self.position.record(&self.start, names, moves, plies, ending)
    }
}

/// The referee of a game that starts at `game`, with the judge's tools; when
/// `dead_stones` the engines are asked for dead stones at the end (Go).
pub fn referee_of<G: ArenaGame>(game: G, judge: Judge, dead_stones: bool) -> Box<dyn Refereed> {
    Box::new(Match { start: game.clone(), position: game, judge, dead_stones })
}

impl<B: OthelloBoard> ArenaGame for Position<B> {
    fn from_opening(_rules: &RefereeRules, start: Option<&str>) -> Result<Self, String> {
        match start {
            None => Ok(Position::start()),
            Some(text) => Position::parse(text).map_err(|e| format!("not an Othello position '{text}': {e}")),
        }
    }

    fn text(&self) -> String {
        self.to_string()
    }

    fn draw(&self) -> String {
        Position::draw(self)
    }

    /// Black's disc margin: the final one once the game is over, the discs on the
    /// board before.
    fn margin(&self) -> Option<f64> {
        Some(match self.result() {
            Some(r) => r.black_margin(),
            None => self.count(Color::BLACK) as i32 - self.count(Color::WHITE) as i32,
        } as f64)
    }

    fn perft_job(&self, depth: u32, threads: usize) -> Result<PerftJob, String> {
        let board = self.board();
        Ok(Box::new(move |stop: &StopFlag| {
            search::othello::parallel_perft_until(board, depth, threads, stop.as_atomic())
        }))
    }

    /// The exact solver ends the game at `solve_empties` empties (on the 8×8 board).
    fn adjudicate(&self, judge: &mut Judge, rules: &RefereeRules, _moves: usize) -> Option<Ending> {
        let empties = self.board().empty_count();
        let solver = judge.solver.as_ref()?;
        if empties > rules.solve_empties || B::SIZE != 8 {
            return None;
        }
        let board = (0..64).fold(Board::empty(), |b, sq| b.with_disc(sq, self.board().disc(sq)));
        let s = solver.solve(board, SolveMode::Exact, &AtomicBool::new(false), SolveLimits::default())?;
        let black_margin = if self.side_to_move() == Player::BLACK { s.score } else { -s.score };
        Some(Ending {
            outcome: Outcome::of_margin(black_margin.into()),
            reason: format!("adjudicated by the exact solver at {empties} empties"),
            score: Some(format!("black {black_margin:+} with perfect play")),
        })
    }

    fn final_ending(&self, outcome: Outcome) -> Ending {
        let score = self.result().map(|r| {
            let (b, w) = r.wof_counts();
            format!("{b}-{w}")
        });
        Ending { outcome, reason: "game over".into(), score }
    }

    fn ggf_board(&self) -> String {
        let text = self.to_string();
        let (squares, side) = text.split_once(' ').unwrap_or((&text, "X"));
        let squares: String = squares.chars().map(|c| if c == 'X' { '*' } else { c }).collect();
        format!("{} {squares} {}", B::SIZE, if side == "X" { '*' } else { 'O' })
    }

    /// GGF; GGS writes black's final margin, a game ended otherwise has `RE[?]` and
    /// its outcome in the comment.
    fn record(
        &self,
        start: &Self,
        names: [&str; 2],
        moves: &[String],
        plies: &[MoveStat],
        ending: &Ending,
    ) -> (&'static str, String) {
        let result = self.result().map_or("?".to_string(), |r| format!("{:+}.000", r.black_margin()));
        let mut text = format!(
            "(;GM[Othello]PC[sente arena]PB[{}]PW[{}]RE[{result}]TY[{}]GC[{}: {}]BO[{}]",
            esc(names[0]),
            esc(names[1]),
            B::SIZE,
            ending.outcome.result_text(),
            esc(&ending.reason),
            start.ggf_board()
        );
        let mut black = start.side_to_move() == Player::BLACK;
        for (ply, m) in moves.iter().enumerate() {
            let mut t = if m == "pass" { "PA".to_string() } else { m.to_ascii_uppercase() };
            // GGS's move/eval/time: the engine's eval for the mover (empty when it gave
            // none) and the seconds it took; opening moves have neither.
            if let Some(stat) = stat_at(plies, ply) {
                let eval = stat.score.map_or(String::new(), |e| format!("{e:.2}"));
                t.push_str(&format!("/{eval}/{:.3}", stat.ms as f64 / 1000.0));
            }
            text.push_str(&format!("{}[{t}]", if black { "B" } else { "W" }));
            black = !black;
        }
        text.push_str(";)");
        ("ggf", text)
    }
}

impl ArenaGame for go::Game {
    /// A start position is a board in our text form (rows from the top, `/` between
    /// them), black to move; the arena's openings are move sequences from the empty
    /// board, the compliance checks' positions are boards.
    fn from_opening(rules: &RefereeRules, start: Option<&str>) -> Result<Self, String> {
        let board = match start {
            Some(text) => go::parse_board_text(text)?,
            None if !(2..=go::MAX_SIZE).contains(&rules.size) => {
                return Err(format!("Go board size {} is not supported (2..{})", rules.size, go::MAX_SIZE));
            }
            None => go::Board::new(rules.size),
        };
        Ok(go::Game::new(board, rules.komi, Superko::Positional))
    }

    fn text(&self) -> String {
        go::board_text(self.board())
    }

    /// At the move cap the game is scored as it stands.
    fn adjudicate(&self, _judge: &mut Judge, rules: &RefereeRules, moves: usize) -> Option<Ending> {
        (moves >= rules.max_moves).then(|| {
            let score = self.score(judge_dead(self));
            Ending {
                outcome: Outcome::of_margin(score.margin()),
                reason: format!("move cap ({} moves): scored as it stands", rules.max_moves),
                score: Some(score.result()),
            }
        })
    }

    /// Two passes: area scoring after the arena's dead stones are removed.
    fn final_ending(&self, _outcome: Outcome) -> Ending {
        let score = self.score(judge_dead(self));
        Ending {
            outcome: Outcome::of_margin(score.margin()),
            reason: "two passes: area scoring".into(),
            score: Some(score.result()),
        }
    }

    fn dead_vertices(&self) -> Vec<String> {
        let size = self.board().size();
        let dead = judge_dead(self);
        let mut v: Vec<String> = go::points(size).filter(|p| dead & p.bit() != 0).map(|p| p.to_gtp(size)).collect();
        v.sort();
        v
    }

    fn score_with_dead(&self, dead: &[String]) -> Option<Ending> {
        let size = self.board().size();
        let mut bits = 0u128;
        for v in dead {
            bits |= Point::from_gtp(v, size).ok()?.bit();
        }
        let score = self.score(bits);
        Some(Ending {
            outcome: Outcome::of_margin(score.margin()),
            reason: "two passes: area scoring".into(),
            score: Some(score.result()),
        })
    }

    fn record(
        &self,
        _start: &Self,
        names: [&str; 2],
        _moves: &[String],
        plies: &[MoveStat],
        ending: &Ending,
    ) -> (&'static str, String) {
        let sgf = go::sgf::SgfGame {
            size: self.board().size(),
            komi: Some(self.komi()),
            rules: Some("Chinese".into()),
            black: Some(names[0].to_string()),
            white: Some(names[1].to_string()),
            result: Some(match ending.outcome {
                Outcome::Draw => "0".to_string(),
                Outcome::Win(Player::One) if ending.score.as_deref().is_none_or(|s| !s.starts_with("B+")) => {
                    "B+R".to_string()
                }
                Outcome::Win(Player::Two) if ending.score.as_deref().is_none_or(|s| !s.starts_with("W+")) => {
                    "W+R".to_string()
                }
                _ => ending.score.clone().unwrap_or_default(),
            }),
            comment: Some(ending.reason.clone()),
            moves: self.moves().to_vec(),
            move_comments: (0..self.moves().len()).map(|ply| stat_at(plies, ply).map(MoveStat::annotation)).collect(),
            ..Default::default()
        };
        ("sgf", go::sgf::write(&sgf))
    }
}

impl ArenaGame for Record {
    fn from_opening(_rules: &RefereeRules, start: Option<&str>) -> Result<Self, String> {
        let text = start.ok_or("Chaos Clock openings are positions (deals)")?;
        let state = cc::State::parse(text).map_err(|e| format!("not a Chaos Clock position '{text}': {e}"))?;
        Ok(Record::new(state))
    }

    fn text(&self) -> String {
        self.state().to_string()
    }

    fn draw(&self) -> String {
        self.state().draw()
    }

    /// Player one's (乙's) progress minus 甲's, in pieces.
    fn score_text(&self) -> String {
        use search::chaosclock::player::progress;
        let s = self.state();
        format!("{:.1}", progress(&s, cc::Side::YI) - progress(&s, cc::Side::JIA))
    }

    /// Perft for checking the rules: 8 moves deep at most.
    fn perft_job(&self, depth: u32, _threads: usize) -> Result<PerftJob, String> {
        fn count(r: &mut Record, depth: u32) -> u64 {
            if depth == 0 || r.state().outcome().is_some() {
                return 1;
            }
            let mut n = 0;
            for mv in r.state().legal_moves() {
                if r.play(mv).is_ok() {
                    n += count(r, depth - 1);
                    r.undo();
                }
            }
            n
        }
        if depth > 8 {
            return Err("Chaos Clock perft is for checking the rules: depth 8 at most".into());
        }
        let mut record = self.clone();
        Ok(Box::new(move |_: &StopFlag| Some(count(&mut record, depth))))
    }

    /// At the move cap both lose.
    fn adjudicate(&self, _judge: &mut Judge, rules: &RefereeRules, moves: usize) -> Option<Ending> {
        (moves >= rules.max_moves).then(|| Ending {
            outcome: Outcome::BothLose,
            reason: format!("move cap ({} moves): both lose", rules.max_moves),
            score: None,
        })
    }

    fn final_ending(&self, outcome: Outcome) -> Ending {
        let reason = if self.moves().len() >= 2 && outcome == Outcome::BothLose {
            "both lose (two passes or a repeated position)"
        } else {
            "game over"
        };
        Ending { outcome, reason: reason.into(), score: None }
    }

    fn record(
        &self,
        _start: &Self,
        names: [&str; 2],
        moves: &[String],
        plies: &[MoveStat],
        ending: &Ending,
    ) -> (&'static str, String) {
        let mut text = format!(
            "# Chaos Clock game (sente arena)\nstart {}\n乙 (first) {}\n甲 (second) {}\nmoves {}\nresult {}\nreason {}\n",
            self.start(),
            names[0],
            names[1],
            moves.join(" "),
            ending.outcome.result_text(),
            ending.reason
        );
        text.push_str(&format!("final {}\n", self.state()));
        // One line per move an engine was asked for: its number, the move, what it
        // spent and said (`ply 3 w2 +4.75/5 0.186s, 965675 nodes`).
        for stat in plies {
            let mv = moves.get(stat.ply).map_or("(none)", String::as_str);
            text.push_str(&format!("ply {} {mv} {}\n", stat.ply + 1, stat.annotation()));
        }
        ("txt", text)
    }
}

/// The stones the arena judges dead at the end of a Go game: sente's one judgement,
/// as our `final_status_list` gives it (stones in seki are never dead).
fn judge_dead(g: &go::Game) -> u128 {
    judge(g.board()).dead
}

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_referee_keeps_the_seki_that_final_status_list_keeps() {
        // The seki of tests/gtp_go.rs (GNU Go 3.8 reports it too): the referee and
        // `final_status_list` use one judgement and agree that nothing is dead.
        let board = go::parse_board_text(
            ".OX.OX.../.OX.OX.../.OXXOX.../.OOOXX.../...OX..../...OX..../...OX..../...OX..../...OX....",
        )
        .expect("a board");
        let game = go::Game::new(board, 7.0, Superko::Positional);
        assert!(game.dead_vertices().is_empty(), "{:?}", game.dead_vertices());
        let ending = game.final_ending(Outcome::Draw);
        assert_eq!(ending.reason, "two passes: area scoring");
    }
}
