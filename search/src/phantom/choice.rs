//! What every Phantom Go player shares: which algorithm it is ([`PhantomPlayer`]), the
//! settings it is given ([`PlayerSettings`]), the budget it spends ([`Budget`]) and the
//! try it returns ([`Choice`], ranked by [`ranked_choice`] for the tree searches).
//! The public items are re-exported by [`crate::phantom`].
//!
//! The players ([`super::player`]'s belief and combined searches, [`super::flat`],
//! [`super::ismcts`]) all import this module and it imports none of them.

use std::time::{Duration, Instant};

use bitboards::go::Move;
use bitboards::phantom::PhantomRules;

use super::params::{MIN_SAMPLES, PASS_MARGIN};
use crate::go::playout::Policy;
use crate::limits::{StopFlag, TimeBudget};

/// The players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PhantomPlayer {
    /// The belief-state search proposes [`super::player::FINALISTS`] candidates, flat
    /// Monte-Carlo chooses among them.
    #[default]
    Combined,
    /// Belief-state search: the Go MCTS on sampled boards, visits summed.
    Belief,
    /// Flat Monte-Carlo on sampled boards (the baseline).
    Flat,
    /// Information-set MCTS: one tree per side, a sampled board per iteration.
    Ismcts,
}

impl PhantomPlayer {
    /// Every player, the default first.
    pub const ALL: [PhantomPlayer; 4] =
        [PhantomPlayer::Combined, PhantomPlayer::Belief, PhantomPlayer::Ismcts, PhantomPlayer::Flat];

    /// Reads a player's [`PhantomPlayer::name`].
    pub fn parse(text: &str) -> Result<PhantomPlayer, String> {
        let text = text.trim().to_ascii_lowercase();
        PhantomPlayer::ALL.into_iter().find(|p| p.name() == text).ok_or_else(|| {
            let names: Vec<&str> = PhantomPlayer::ALL.iter().map(|p| p.name()).collect();
            format!("unknown Phantom Go player '{text}': {}", names.join(", "))
        })
    }
    /// The name [`PhantomPlayer::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            PhantomPlayer::Combined => "combined",
            PhantomPlayer::Belief => "belief",
            PhantomPlayer::Flat => "flat",
            PhantomPlayer::Ismcts => "ismcts",
        }
    }
}

impl std::fmt::Display for PhantomPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a player is told besides its view: the game's settings and which player it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerSettings {
    /// The algorithm.
    pub player: PhantomPlayer,
    /// The rule set (what the view can hold).
    pub rules: PhantomRules,
    /// Komi.
    pub komi: f64,
    /// The playouts of the belief and information-set searches (flat Monte-Carlo, the
    /// baseline, always plays light ones).
    pub playouts: Policy,
}

impl Default for PlayerSettings {
    fn default() -> Self {
        PlayerSettings {
            player: PhantomPlayer::Combined,
            rules: PhantomRules::Ccgc,
            komi: 7.5,
            playouts: Policy::Light,
        }
    }
}

/// The try chosen and what the search saw.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The try (a point, or a pass).
    pub mv: Move,
    /// Estimated chance of winning after it.
    pub win_rate: f32,
    /// Boards sampled.
    pub samples: u32,
    /// Playouts run.
    pub playouts: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// The candidates with their scores (belief: mean share of the visits; flat: mean),
    /// best first; the combined player's: the finalists with their flat means, best
    /// first, then the other candidates with their belief scores.
    pub moves: Vec<(Move, f32)>,
}

/// When a search stops: playouts (from `nodes`, for reproducible searches), time, or the
/// stop flag.
pub(crate) struct Budget<'a> {
    /// The time limits.
    pub(crate) time: TimeBudget,
    /// The playouts allowed (`u64::MAX`: no limit).
    pub(crate) nodes: u64,
    /// True when a time limit is set (then at least [`MIN_SAMPLES`] samples are drawn
    /// before the soft limit stops the search).
    pub(crate) timed: bool,
    /// The stop flag.
    pub(crate) stop: &'a StopFlag,
    /// When the search began.
    pub(crate) start: Instant,
}

impl<'a> Budget<'a> {
    /// The first `fraction` of this budget (its soft time limit and its playouts
    /// scaled, the hard limit kept), for a search that goes on under the whole of it.
    pub(crate) fn part(&self, fraction: f64) -> Budget<'a> {
        // No node limit (u64::MAX) stays out of reach scaled.
        let nodes = ((self.nodes as f64 * fraction) as u64).max(1);
        Budget { time: self.time.with_soft_fraction(fraction), nodes, ..*self }
    }

    /// What is left of this budget once `playouts` of it were run.
    pub(crate) fn after(&self, playouts: u64) -> Budget<'a> {
        Budget { nodes: self.nodes.saturating_sub(playouts).max(1), ..*self }
    }

    /// True when no more samples should be drawn (`samples` drawn, `playouts` run).
    pub(crate) fn done(&self, playouts: u64, samples: u32) -> bool {
        if playouts >= self.nodes || self.stop.is_stopped() || self.time.hard_expired() {
            return true;
        }
        self.timed && samples >= MIN_SAMPLES && self.time.soft_expired()
    }
    /// Time since the search began.
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// The choice of a tree search from its candidates' (move, score, win rate) and the
/// pass's (score, win rate) if it was searched: best score first, ties by the win rate
/// on the samples, then by the point's number. The pass comes first only when every
/// candidate is clearly worse on the samples ([`PASS_MARGIN`]; filling the own eye
/// space of a living group) or there is no candidate: a pass hands the opponent free
/// moves it will use on stones the samples do not show.
pub(crate) fn ranked_choice(
    mut moves: Vec<(Move, f32, f32)>,
    pass: Option<(f32, f32)>,
    samples: u32,
    playouts: u64,
    budget: &Budget,
) -> Choice {
    moves.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.2.total_cmp(&a.2)));
    let best_rate = moves.first().map(|m| m.2);
    match pass {
        Some((score, rate)) if best_rate.is_none_or(|best| rate >= best + PASS_MARGIN) => {
            moves.insert(0, (Move::Pass, score, rate))
        }
        None if moves.is_empty() => moves.push((Move::Pass, 0.0, 0.0)),
        _ => {}
    }
    let (mv, _, win_rate) = moves[0];
    Choice {
        mv,
        win_rate,
        samples,
        playouts,
        elapsed: budget.elapsed(),
        moves: moves.into_iter().map(|(m, s, _)| (m, s)).collect(),
    }
}
