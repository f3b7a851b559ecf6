//! Search limits (depth, nodes, time, clocks), the stop flag, and time management.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::Player;

/// The longest time a clock or a move may be given: 10⁹ seconds (about 31 years).
/// Longer times are refused rather than overflowing the clock arithmetic.
pub const MAX_SECONDS: f64 = 1e9;

/// `secs` seconds as a [`Duration`], or why it is not a time: negative, not a number,
/// or beyond [`MAX_SECONDS`].
pub fn duration_from_secs(secs: f64) -> Result<Duration, String> {
    if !secs.is_finite() || secs < 0.0 {
        return Err(format!("{secs} is not a number of seconds"));
    }
    if secs > MAX_SECONDS {
        return Err(format!("{secs} seconds is longer than the {MAX_SECONDS:e} a clock may hold"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// The two players' clocks as the protocol sends them (`p1time p2time p1inc p2inc
/// movestogo`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left for player one and player two.
    pub time: [Option<Duration>; 2],
    /// Increment per move for player one and player two.
    pub increment: [Duration; 2],
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// What bounds a search. Everything unset means "until stopped".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth (plies, or iterations for MCTS).
    pub depth: Option<u32>,
    /// Maximum nodes (or playouts).
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Search until `stop`, ignoring the clock.
    pub infinite: bool,
    /// The game clocks.
    pub clock: Clock,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// Search for a fixed time.
    pub fn movetime(time: Duration) -> Limits {
        Limits { movetime: Some(time), ..Limits::default() }
    }

    /// Search until stopped.
    pub fn infinite() -> Limits {
        Limits { infinite: true, ..Limits::default() }
    }
}

/// A flag shared between the protocol loop and a running search: set it to stop.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A new, unset flag.
    pub fn new() -> StopFlag {
        StopFlag::default()
    }
    /// Asks the search to stop as soon as it can. (Sequentially consistent, as is
    /// [`StopFlag::reset`]: a protocol loop that clears the flag and then looks at
    /// another flag cannot miss a stop raised after that other flag was set.)
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    /// True once stop was asked.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    /// The flag itself, for searches that poll an atomic directly.
    pub fn as_atomic(&self) -> &AtomicBool {
        &self.0
    }
    /// Clears the flag before a new search.
    pub fn reset(&self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

/// Time this move may take: a soft limit (do not start another iteration) and a
/// hard one (abort now).
#[derive(Clone, Copy, Debug)]
pub struct TimeBudget {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

/// Time kept back for the protocol round trip and process scheduling.
const OVERHEAD: Duration = Duration::from_millis(15);

/// The most moves a clock's time is shared over: a byo-yomi period's count, and the
/// games' own estimates in [`TimeBudget::new`] (a game that plans its clock itself,
/// as Go does on 19×19, may pass more to [`TimeBudget::with_shares`]).
const MAX_MOVES_LEFT: u32 = 60;

impl TimeBudget {
    /// The budget for a search by `player` under `limits`, starting now; `moves_left`
    /// is the game's estimate of the moves the player still has to make. On a clock
    /// the soft limit is 0.6 of an even slice of the time left and the hard one 3
    /// slices ([`TimeBudget::with_shares`]).
    pub fn new(limits: &Limits, player: Player, moves_left: u32) -> TimeBudget {
        TimeBudget::with_shares(limits, player, moves_left.min(MAX_MOVES_LEFT), 0.6, 3.0)
    }

    /// [`TimeBudget::new`] with the game's own shares of a clock: the soft limit is
    /// `soft_share` of the slice (the time left over `moves_left` moves, plus 0.9 of the
    /// increment), the hard one `hard_ratio` slices, at most 0.4 of the time left (0.9
    /// on the last move). A move time, `infinite` or no limit are as in `new`.
    pub fn with_shares(
        limits: &Limits,
        player: Player,
        moves_left: u32,
        soft_share: f64,
        hard_ratio: f64,
    ) -> TimeBudget {
        let start = Instant::now();
        if limits.infinite {
            return TimeBudget { start, soft: None, hard: None };
        }
        if let Some(t) = limits.movetime {
            let hard = t.saturating_sub(OVERHEAD.min(t / 4)).max(Duration::from_millis(1));
            return TimeBudget { start, soft: Some(hard), hard: Some(hard) };
        }
        let me = player.index();
        let Some(left) = limits.clock.time[me] else {
            return TimeBudget { start, soft: None, hard: None };
        };
        let available = left.saturating_sub(OVERHEAD).max(Duration::from_millis(1));
        let inc = limits.clock.increment[me];
        let moves = limits.clock.moves_to_go.map_or(moves_left, |n| n.min(MAX_MOVES_LEFT)).max(1);
        let target = (available / moves + inc.mul_f64(0.9)).min(available);
        let hard_cap = if moves == 1 { available.mul_f64(0.9) } else { available.mul_f64(0.4) };
        let hard = target.mul_f64(hard_ratio).min(hard_cap).max(target.min(hard_cap));
        TimeBudget { start, soft: Some(target.mul_f64(soft_share).min(hard)), hard: Some(hard) }
    }

    /// When the search started.
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True when no new iteration should begin.
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| self.start.elapsed() >= s)
    }

    /// True when the search must stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// The same budget with its soft limit scaled by `fraction` (the hard limit kept):
    /// the first part of a search that goes on under the whole budget.
    pub fn with_soft_fraction(&self, fraction: f64) -> TimeBudget {
        TimeBudget { soft: self.soft.map(|s| s.mul_f64(fraction)), ..*self }
    }

    /// The hard limit, if any.
    pub fn hard_limit(&self) -> Option<Duration> {
        self.hard
    }

    /// The soft limit (no new iteration after it), if any.
    pub fn soft_limit(&self) -> Option<Duration> {
        self.soft
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_beyond_any_clock_are_refused() {
        assert_eq!(duration_from_secs(1.5), Ok(Duration::from_millis(1500)));
        for bad in [-1.0, f64::NAN, f64::INFINITY, 1e99, 18446744073709551615.0, 1e30] {
            assert!(duration_from_secs(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_budget_is_a_fraction_of_the_time_left() {
        let mut limits = Limits::default();
        limits.clock.time = [Some(Duration::from_secs(60)), Some(Duration::from_secs(1))];
        let b = TimeBudget::new(&limits, Player::One, 30);
        let hard = b.hard_limit().unwrap();
        assert!(hard > Duration::from_secs(1) && hard < Duration::from_secs(24), "{hard:?}");
        let b2 = TimeBudget::new(&limits, Player::Two, 30);
        assert!(b2.hard_limit().unwrap() < Duration::from_millis(400));
    }

    #[test]
    fn movetime_and_infinite() {
        let b = TimeBudget::new(&Limits::movetime(Duration::from_millis(200)), Player::One, 10);
        assert!(b.hard_limit().unwrap() <= Duration::from_millis(200));
        let b = TimeBudget::new(&Limits::infinite(), Player::One, 10);
        assert!(b.hard_limit().is_none() && !b.soft_expired());
        let b = TimeBudget::new(&Limits::depth(3), Player::One, 10);
        assert!(b.hard_limit().is_none());
    }

    #[test]
    fn stop_flag_is_shared() {
        let f = StopFlag::new();
        let g = f.clone();
        g.stop();
        assert!(f.is_stopped());
        f.reset();
        assert!(!g.is_stopped());
    }
}
