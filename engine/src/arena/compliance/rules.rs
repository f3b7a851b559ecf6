//! Our own rules, to judge the engine's moves: a position of any game, the moves played
//! from it, and the `position` command that gives it.

use bitboards::go::{self, Color};
use bitboards::othello::{Board, Position};
use bitboards::phantom::{PhantomConfig, PhantomRules, Referee, View};
use bitboards::{Outcome, Player as Side};

use super::GameSetup;
use crate::games::GameKind;
use crate::games::referee::{ArenaGame, RefereeRules, Refereed};

/// A position under our rules.
pub(super) enum Rules {
    /// A game the arena referees: its referee, the moves played.
    Played(GameKind, Box<dyn Refereed>),
    /// Phantom Go from the start: our referee, the tries replayed.
    Phantom(Box<Referee>),
    /// A Phantom Go view (`position fen <view>`): one side's knowledge.
    PhantomView(View),
}

impl Clone for Rules {
    fn clone(&self) -> Rules {
        match self {
            Rules::Played(kind, r) => Rules::Played(*kind, r.clone_position()),
            Rules::Phantom(r) => Rules::Phantom(r.clone()),
            Rules::PhantomView(v) => Rules::PhantomView(v.clone()),
        }
    }
}

fn phantom_move(text: &str) -> Result<go::Move, String> {
    go::Move::from_gtp(text, bitboards::phantom::SIZE).map_err(|e| format!("'{text}': {e}"))
}

/// A try that makes sense for `view`'s side: a pass, or a point empty in its view
/// and not refused this turn.
fn sensible_try(view: &View, text: &str) -> Result<(), String> {
    match phantom_move(text)? {
        go::Move::Pass => Ok(()),
        go::Move::Play(p) if view.at(p).is_some() => Err(format!("{text} holds a stone the mover knows of")),
        go::Move::Play(p) if view.refused() & p.bit() != 0 => Err(format!("{text} was refused this turn")),
        go::Move::Play(_) => Ok(()),
    }
}

impl Rules {
    /// The position `start` (our text form; `None`: the standard start).
    pub(super) fn at(setup: &GameSetup, start: Option<&str>) -> Result<Rules, String> {
        if setup.kind.spec().hides_moves() {
            return Ok(match start {
                None => Rules::Phantom(Box::new(Referee::new(
                    PhantomConfig::for_rules(PhantomRules::Ccgc).with_komi(setup.komi),
                ))),
                Some(t) => Rules::PhantomView(View::from_text(t).map_err(|e| e.to_string())?),
            });
        }
        let rules = RefereeRules { komi: setup.komi, ..RefereeRules::plain(setup.size, usize::MAX) };
        Ok(Rules::Played(setup.kind, setup.kind.new_referee(&rules, start)?))
    }

    /// The position `spot` is, under our rules.
    pub(super) fn of(setup: &GameSetup, spot: &Spot) -> Result<Rules, String> {
        let mut rules = Rules::at(setup, spot.start.as_deref())?;
        for m in &spot.moves {
            rules.play(m)?;
        }
        Ok(rules)
    }

    /// Plays a move (Phantom Go: a try, legal or not).
    pub(super) fn play(&mut self, text: &str) -> Result<(), String> {
        match self {
            Rules::Played(_, r) => {
                r.play(text)?;
            }
            Rules::Phantom(r) => {
                r.try_move(phantom_move(text)?).map_err(|e| format!("{e:?}"))?;
            }
            Rules::PhantomView(_) => return Err("a view position takes no tries".into()),
        }
        Ok(())
    }

    /// Whether `text` is a legal move for the side to move (Phantom Go: a sensible try).
    pub(super) fn check(&self, text: &str) -> Result<(), String> {
        match self {
            Rules::Played(_, r) => r.check(text),
            Rules::Phantom(r) => sensible_try(r.view(r.to_move()), text),
            Rules::PhantomView(v) => sensible_try(v, text),
        }
    }

    /// The position's text form (Phantom Go: the mover's view).
    pub(super) fn text(&self) -> String {
        match self {
            Rules::Played(_, r) => r.text(),
            Rules::Phantom(r) => r.view(r.to_move()).to_text(),
            Rules::PhantomView(v) => v.to_text(),
        }
    }

    /// The outcome once the game is over.
    pub(super) fn outcome(&self) -> Option<Outcome> {
        match self {
            Rules::Played(_, r) => r.outcome(),
            Rules::Phantom(r) => r.result(0).map(|res| match res.winner {
                Some(Color::BLACK) => Outcome::Win(Side::One),
                Some(_) => Outcome::Win(Side::Two),
                None => Outcome::Draw,
            }),
            Rules::PhantomView(_) => None,
        }
    }

    /// The moves (Phantom Go: the sensible tries) other than a pass.
    pub(super) fn moves(&self) -> Vec<String> {
        match self {
            Rules::Played(_, r) => r.legal_moves(),
            Rules::Phantom(r) => {
                let view = r.view(r.to_move());
                go::points(bitboards::phantom::SIZE)
                    .map(|p| p.to_gtp(bitboards::phantom::SIZE))
                    .filter(|t| sensible_try(view, t).is_ok() && t != "pass")
                    .collect()
            }
            Rules::PhantomView(_) => Vec::new(),
        }
    }

    /// A move on the board that is not legal now (Othello, Go), for the illegal `play`.
    pub(super) fn illegal_example(&self, size: usize) -> Option<String> {
        let candidates: Vec<String> = match self {
            Rules::Played(kind, _) => kind.spec().board_points(size),
            _ => Vec::new(),
        };
        candidates.into_iter().find(|c| self.check(c).is_err())
    }
    /// The GGF form of an Othello game from the start with `moves`.
    pub(super) fn ggf(moves: &[String]) -> String {
        let start: Position<Board> = Position::start();
        let mut ggf = format!("(;GM[Othello]PC[sente arena]PB[?]PW[?]RE[?]TY[8]BO[{}]", start.ggf_board());
        for (i, mv) in moves.iter().enumerate() {
            let text = if mv == "pass" { "PA".to_string() } else { mv.to_ascii_uppercase() };
            ggf.push_str(&format!("{}[{text}]", if i % 2 == 0 { "B" } else { "W" }));
        }
        ggf.push_str(";)");
        ggf
    }
}

/// `plies` moves from `rules` chosen by a fixed rule; Phantom Go's line has the
/// opponent try the first stone's point (refused) before its own try.
pub(super) fn line_of_play(rules: &Rules, plies: usize) -> Result<Vec<String>, String> {
    let mut r = rules.clone();
    let mut moves = Vec::new();
    for k in 0..plies {
        // Moves that do not end the game while there are any (a short game such as
        // tic-tac-toe would otherwise be over before the script's positions).
        let legal = r.moves();
        let goes_on: Vec<String> = legal
            .iter()
            .filter(|m| {
                let mut after = r.clone();
                after.play(m).is_ok() && after.outcome().is_none()
            })
            .cloned()
            .collect();
        let legal = if goes_on.is_empty() { legal } else { goes_on };
        let Some(m) = legal.get((k * 7 + 3) % legal.len().max(1)).cloned() else { break };
        r.play(&m)?;
        moves.push(m.clone());
        if k == 0 && matches!(r, Rules::Phantom(_)) {
            r.play(&m)?;
            moves.push(m);
        }
    }
    Ok(moves)
}

/// A position as a `position` command gives it.
#[derive(Clone, Debug)]
pub(super) struct Spot {
    /// Sent as `position startpos` (else `position fen <start>`).
    pub(super) startpos: bool,
    /// The start in our text form (`None`: the game's standard start).
    pub(super) start: Option<String>,
    /// Moves from the start.
    pub(super) moves: Vec<String>,
}

impl Spot {
    pub(super) fn command(&self) -> String {
        let mut c = match (&self.start, self.startpos) {
            (Some(fen), false) => format!("position fen {fen}"),
            _ => "position startpos".to_string(),
        };
        if !self.moves.is_empty() {
            c.push_str(" moves ");
            c.push_str(&self.moves.join(" "));
        }
        c
    }

    pub(super) fn with_moves(&self, moves: Vec<String>) -> Spot {
        Spot { moves, ..self.clone() }
    }
}
