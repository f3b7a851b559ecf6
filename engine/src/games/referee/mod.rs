//! The true game of a match, held by the arena with our own rules: it checks every
//! move an engine sends, knows when the game is over and who won, and writes the
//! record (SGF for Go, GGF for Othello, a text form for Chaos Clock).
//!
//! Every game is refereed the same way, through [`search::Game`]: a move is read with
//! [`Game::parse_move`], checked with [`Game::check_move`], played with [`Game::play`],
//! and the game ends when [`Game::outcome`] says so. What differs per game —
//! adjudication, how the end is scored and written, the record — is an [`ArenaGame`],
//! each game's in a file of this folder; this file knows no game.

mod chaosclock;
mod go;
pub mod othello;

use bitboards::{Outcome, Player};
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
#[derive(Clone, Debug, PartialEq)]
pub struct RefereeRules {
    /// Board side.
    pub size: usize,
    /// Komi, for the games that have one (Go, Phantom Go).
    pub komi: f64,
    /// End the game after this many moves: Go is then scored as it stands, Chaos
    /// Clock ends with both losing, Othello cannot last that long.
    pub max_moves: usize,
    /// The settings that belong to one game (Othello's `solve_empties`, Phantom Go's
    /// `phantom_rules`): each game reads its own and ignores the rest.
    pub options: GameOptions,
}

impl RefereeRules {
    /// Rules of a board of side `size` and a move cap, no komi and no game's own
    /// setting: every game at its defaults.
    pub fn plain(size: usize, max_moves: usize) -> RefereeRules {
        RefereeRules { size, komi: 0.0, max_moves, options: GameOptions::default() }
    }
}

/// The arena's settings that belong to one game, by name, as its command line gives
/// them (`solve_empties` → `16`), like an engine's options: the arena passes them all
/// on, each game reads the ones it knows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameOptions(Vec<(String, String)>);

impl GameOptions {
    /// These options with `name` set to `value` (replacing an earlier value).
    pub fn with(mut self, name: &str, value: impl ToString) -> GameOptions {
        self.0.retain(|(n, _)| n != name);
        self.0.push((name.to_string(), value.to_string()));
        self
    }

    /// The value of `name`, if it was given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The value of `name` read as a `T`: `Ok(None)` when it was not given, an error
    /// naming it when it does not read.
    pub fn parse<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        self.get(name).map(|v| v.parse().map_err(|_| format!("game option {name}: '{v}' does not read"))).transpose()
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
    /// True if the engines are asked for dead stones at the end (Go).
    const ASKS_DEAD_STONES: bool = false;
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

/// What a game's adjudication keeps from move to move (Othello: its exact solver),
/// made by the game on first use: the referee holds it without knowing what it is.
#[derive(Default)]
pub struct Judge(Option<Box<dyn std::any::Any + Send>>);

impl Judge {
    /// The kept tool of type `T`, made by `make` the first time (or when the one kept
    /// is of another type).
    pub fn get_or_insert_with<T: std::any::Any + Send>(&mut self, make: impl FnOnce() -> T) -> &mut T {
        if !self.0.as_ref().is_some_and(|tool| tool.is::<T>()) {
            self.0 = Some(Box::new(make()));
        }
        match self.0.as_mut().and_then(|tool| tool.downcast_mut::<T>()) {
            Some(tool) => tool,
            None => unreachable!("the tool was just made as a T"),
        }
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
    /// A referee of the same game at the same position and rules, without the
    /// judge's tools.
    fn clone_position(&self) -> Box<dyn Refereed>;
    /// Plays a move of the side to move given as text; returns it in the arena's
    /// canonical text, or why it is not legal.
    fn play(&mut self, text: &str) -> Result<String, String>;
    /// The legal moves other than a pass, as text (for random openings).
    fn legal_moves(&self) -> Vec<String>;
    /// The ending after `moves` moves, if the game is over by its rules, by
    /// adjudication or by the move cap.
    fn ending(&mut self, moves: usize) -> Option<Ending>;
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

/// The referee of one game: its rules, the start, the current position and the
/// judge's tools.
struct Match<G: ArenaGame> {
    rules: RefereeRules,
    start: G,
    position: G,
    judge: Judge,
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
            rules: self.rules.clone(),
            start: self.start.clone(),
            position: self.position.clone(),
            judge: Judge::default(),
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

    fn ending(&mut self, moves: usize) -> Option<Ending> {
        if let Some(outcome) = self.position.outcome() {
            return Some(self.position.final_ending(outcome));
        }
        self.position.adjudicate(&mut self.judge, &self.rules, moves)
    }

    fn dead_vertices(&self) -> Vec<String> {
        self.position.dead_vertices()
    }

    fn score_with_dead(&self, dead: &[String]) -> Option<Ending> {
        self.position.score_with_dead(dead)
    }

    fn has_dead_stones(&self) -> bool {
        G::ASKS_DEAD_STONES
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

/// The referee of a game under `rules` that starts at `game`.
pub fn referee_of<G: ArenaGame>(rules: &RefereeRules, game: G) -> Box<dyn Refereed> {
    Box::new(Match { rules: rules.clone(), start: game.clone(), position: game, judge: Judge::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_options_are_read_by_name() {
        let options = GameOptions::default().with("solve_empties", 14).with("phantom_rules", "ccgc");
        assert_eq!(options.get("phantom_rules"), Some("ccgc"));
        assert_eq!(options.parse::<u32>("solve_empties"), Ok(Some(14)));
        assert_eq!(options.parse::<u32>("komi"), Ok(None));
        let options = options.with("solve_empties", "many");
        assert_eq!(options.get("solve_empties"), Some("many"), "a later value replaces the earlier one");
        let why = options.parse::<u32>("solve_empties").expect_err("not a number");
        assert!(why.contains("solve_empties") && why.contains("many"), "{why}");
    }

    #[test]
    fn the_judge_keeps_its_tool_between_moves() {
        let mut judge = Judge::default();
        *judge.get_or_insert_with(|| 1_u32) += 1;
        assert_eq!(*judge.get_or_insert_with(|| 10_u32), 2, "made once, kept");
        assert_eq!(*judge.get_or_insert_with(|| "other"), "other", "a tool of another type replaces it");
    }
}
