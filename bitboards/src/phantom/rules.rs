//! The two Phantom Go rule sets, their settings, and how a finished game is judged.
//!
//! **CCGC** (seed 000, the Chinese computer-game competition): a try onto an occupied
//! point, a suicide, a ko retake or (by default) a positional-superko repetition is
//! illegal and the same side tries again (rules 3, 6); after a capture both players are
//! told the number and the points (rule 5); a side whose tries are all illegal passes
//! (rule 7); two passes end the game, the referee marks the dead stones, the area is
//! counted, neutral points are split and a tie is a win for White (rule 10).
//!
//! **OpenSpiel** (2.x `phantom_go`): komi 7.5, Tromp-Taylor area without removing dead
//! stones, an illegal try shows the mover what stands on that point, the capturer is
//! told only how many stones it took, a positional-superko repetition ends the game as
//! a draw, and the game ends after 324 actions (illegal tries included).

use crate::go::{Color, Score, Superko};

/// Side of the Phantom Go board.
pub const SIZE: usize = 9;

/// Actions after which an OpenSpiel game ends (4 × 81, illegal tries included).
pub const OPEN_SPIEL_MAX_ACTIONS: u32 = 324;

/// Illegal tries per turn after which a CCGC referee turns the turn into a pass: one per
/// point of the board, so a player that never repeats a try never reaches it before
/// it has tried every point.
pub const DEFAULT_ILLEGAL_LIMIT: u32 = 81;

/// Which rule set the referee applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PhantomRules {
    /// The Chinese competition rules of seed 000 (the default).
    #[default]
    Ccgc,
    /// OpenSpiel 2.x `phantom_go`.
    OpenSpiel,
}

/// The referee's settings. Build with [`PhantomConfig::ccgc`] or
/// [`PhantomConfig::open_spiel`] and change fields as needed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhantomConfig {
    /// The rule set.
    pub rules: PhantomRules,
    /// Komi, added to White's area.
    pub komi: f64,
    /// Repetitions refused as illegal tries (CCGC). In OpenSpiel mode a positional
    /// repetition ends the game as a draw instead and this field is not used.
    pub superko: Superko,
    /// Illegal tries in one turn after which the turn becomes a pass (`None`: no bound).
    pub illegal_limit: Option<u32>,
    /// Rule 7: after an illegal try, if the mover has no legal move left at all, the
    /// turn becomes a pass (every try it could make would be refused).
    pub pass_when_stuck: bool,
    /// Tries (legal, illegal and passes) after which the game ends (`None`: no cap).
    pub max_actions: Option<u32>,
}

impl PhantomConfig {
    /// CCGC: komi 7.5, positional superko refused, at most
    /// [`DEFAULT_ILLEGAL_LIMIT`] illegal tries a turn, a stuck side passes, no cap.
    pub fn ccgc() -> PhantomConfig {
        PhantomConfig {
            rules: PhantomRules::Ccgc,
            komi: 7.5,
            superko: Superko::Positional,
            illegal_limit: Some(DEFAULT_ILLEGAL_LIMIT),
            pass_when_stuck: true,
            max_actions: None,
        }
    }

    /// OpenSpiel: komi 7.5, a repetition ends the game as a draw, no bound on illegal
    /// tries a turn, the game ends after [`OPEN_SPIEL_MAX_ACTIONS`] actions.
    pub fn open_spiel() -> PhantomConfig {
        PhantomConfig {
            rules: PhantomRules::OpenSpiel,
            komi: 7.5,
            superko: Superko::Off,
            illegal_limit: None,
            pass_when_stuck: false,
            max_actions: Some(OPEN_SPIEL_MAX_ACTIONS),
        }
    }

    /// The defaults of a rule set.
    pub fn for_rules(rules: PhantomRules) -> PhantomConfig {
        match rules {
            PhantomRules::Ccgc => PhantomConfig::ccgc(),
            PhantomRules::OpenSpiel => PhantomConfig::open_spiel(),
        }
    }

    /// The same settings with another komi.
    pub fn with_komi(self, komi: f64) -> PhantomConfig {
        PhantomConfig { komi, ..self }
    }
}

impl Default for PhantomConfig {
    fn default() -> PhantomConfig {
        PhantomConfig::ccgc()
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Two passes in a row (forced passes included).
    TwoPasses,
    /// Both players agreed to stop when the referee proposed it (CCGC rule 11).
    Agreement,
    /// The action cap was reached (OpenSpiel).
    ActionCap,
    /// A legal move repeated an earlier position (OpenSpiel: a draw).
    Superko,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhantomResult {
    /// The winner; `None` for a draw (OpenSpiel only: a CCGC tie goes to White).
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
    /// The count (CCGC: after removing the dead stones; OpenSpiel: Tromp-Taylor).
    pub score: Score,
}

impl PhantomResult {
    /// Judges `score` under `rules`: by the margin, and on an exact tie White (CCGC
    /// rule 10) or a draw (OpenSpiel); a superko end is always a draw.
    pub fn judge(rules: PhantomRules, reason: EndReason, score: Score) -> PhantomResult {
        let margin = score.margin();
        let winner = if reason == EndReason::Superko {
            None
        } else if margin > 0.0 {
            Some(Color::BLACK)
        } else if margin < 0.0 {
            Some(Color::WHITE)
        } else {
            match rules {
                PhantomRules::Ccgc => Some(Color::WHITE),
                PhantomRules::OpenSpiel => None,
            }
        };
        PhantomResult { winner, reason, score }
    }

    /// The result as text: `B+3.5`, `W+0.5`, `W+0` (a CCGC tie), `0` (a draw).
    pub fn text(&self) -> String {
        let m = self.score.margin().abs();
        let m = if m.fract() == 0.0 { format!("{m:.0}") } else { format!("{m:.1}") };
        match self.winner {
            Some(Color::BLACK) => format!("B+{m}"),
            Some(Color::WHITE) => format!("W+{m}"),
            None => "0".to_string(),
        }
    }
}
