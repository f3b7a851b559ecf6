//! The two timers of rule 8, on milliseconds the caller supplies (the server passes the
//! wall clock, the tests a made-up one), so that no rule depends on real time passing.
//!
//! A side's timer runs from its go-ahead (the answer that ended the opponent's turn)
//! until the answer that ends its own turn, over all its refused tries. Its captured
//! stones are removed in its own turn (it is always the side to move after a capture),
//! and its tries are held until it confirms the removal, so the removal is on its
//! timer as rule 8 asks. A recovery (rules 4 and 9) adds a penalty to one side.

use serde::{Deserialize, Serialize};

/// Milliseconds since the Unix epoch (or any fixed origin, in tests).
pub type Millis = u64;

/// The rule-8 penalty of a recovery: 4 minutes.
pub const RECOVERY_PENALTY: Millis = 4 * 60 * 1000;

/// Both sides' timers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// Time each side (black, white) used in finished intervals.
    pub used: [Millis; 2],
    /// Penalties added to each side.
    pub penalty: [Millis; 2],
    /// The running timer: its side's index and when it started.
    pub running: Option<(usize, Millis)>,
}

impl Clocks {
    /// Starts `side`'s timer at `now` (stopping the one that ran).
    pub fn start(&mut self, side: usize, now: Millis) {
        self.stop(now);
        self.running = Some((side, now));
    }

    /// Stops the running timer at `now`, adding its interval to its side.
    pub fn stop(&mut self, now: Millis) {
        if let Some((side, since)) = self.running.take() {
            self.used[side] += now.saturating_sub(since);
        }
    }

    /// Restarts the running timer's interval at `now` without charging the time since
    /// its start (a server restart: the time it was down is nobody's).
    pub fn restart_at(&mut self, now: Millis) {
        if let Some((_, since)) = self.running.as_mut() {
            *since = now;
        }
    }

    /// Adds a penalty to `side`.
    pub fn penalize(&mut self, side: usize, amount: Millis) {
        self.penalty[side] += amount;
    }

    /// Time `side` has used at `now`: finished intervals, the running one, penalties.
    pub fn total(&self, side: usize, now: Millis) -> Millis {
        let running = match self.running {
            Some((s, since)) if s == side => now.saturating_sub(since),
            _ => 0,
        };
        self.used[side] + running + self.penalty[side]
    }

    /// The side whose timer runs.
    pub fn running_side(&self) -> Option<usize> {
        self.running.map(|(s, _)| s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_timer_runs_and_penalties_add() {
        let mut c = Clocks::default();
        c.start(0, 1000);
        assert_eq!(c.total(0, 4000), 3000);
        assert_eq!(c.total(1, 4000), 0);
        c.start(1, 5000);
        assert_eq!(c.total(0, 9000), 4000);
        assert_eq!(c.total(1, 9000), 4000);
        c.penalize(1, RECOVERY_PENALTY);
        assert_eq!(c.total(1, 9000), 4000 + RECOVERY_PENALTY);
        c.restart_at(20_000);
        assert_eq!(c.total(1, 21_000), 1000 + RECOVERY_PENALTY);
        c.stop(22_000);
        assert_eq!(c.total(1, 99_000), 2000 + RECOVERY_PENALTY);
        assert_eq!(c.running_side(), None);
    }
}
