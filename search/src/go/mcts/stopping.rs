//! How long a search on a clock runs, as Pachi plans its main time: a slice of the
//! time left for each of the own moves still to come ([`clock_budget`]); past the
//! slice the search goes on, up to two slices, while the root is unclear
//! ([`keeps_looking`]); and it stops early once the most visited root move cannot be
//! overtaken in the time left (Leela Zero's "smart pruning").

use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use super::Shared;
use super::tree::Tree;
use crate::go::params::{CLOCK_FINAL_EMPTY_SHARE, CLOCK_MAX_SLICES, CLOCK_MIN_MOVES_LEFT, CLOCK_UNCLEAR_RATIO};
use crate::limits::{Limits, TimeBudget};

/// The own moves still to come on a board of `points` points with `empty` of them
/// empty, as a clock is shared over them: half the empty points beyond the share
/// expected empty at the end, at least [`CLOCK_MIN_MOVES_LEFT`] (Pachi's estimate).
pub fn clock_moves_left(empty: usize, points: usize) -> u32 {
    let expected_final = (points as f64 * CLOCK_FINAL_EMPTY_SHARE) as usize;
    (empty.saturating_sub(expected_final) / 2).max(CLOCK_MIN_MOVES_LEFT as usize) as u32
}

/// The budget of a search by `player` under `limits` with `empty` of `points` points
/// empty: on a clock the soft limit is one slice of the time left
/// ([`clock_moves_left`]) and the hard one [`CLOCK_MAX_SLICES`]; in a byo-yomi period
/// (a number of moves to play in the time left: GTP `time_left` with stones, UGI+
/// `movestogo`), where running over loses, 0.6 of a slice as [`TimeBudget::new`]
/// shares it, and never more ([`in_byo_yomi`]); a move time, a playout limit and
/// analysis as [`TimeBudget::new`] has them.
pub fn clock_budget(limits: &Limits, player: crate::Player, empty: usize, points: usize) -> TimeBudget {
    let moves_left = clock_moves_left(empty, points);
    if in_byo_yomi(limits) {
        return TimeBudget::new(limits, player, moves_left);
    }
    TimeBudget::with_shares(limits, player, moves_left, 1.0, CLOCK_MAX_SLICES)
}

/// True when the clock counts a period of moves (byo-yomi stones, `movestogo`): a
/// search then ends at its soft limit, unclear or not.
fn in_byo_yomi(limits: &Limits) -> bool {
    limits.clock.moves_to_go.is_some()
}

/// True when a search under `limits` goes on past its soft limit while its root is
/// unclear ([`root_is_unclear`]): on a clock ([`stops_when_settled`]), not in
/// byo-yomi.
pub(super) fn extends_when_unclear(limits: &Limits) -> bool {
    stops_when_settled(limits) && !in_byo_yomi(limits)
}

/// True when a search on a clock that has used its slice (`soft`) goes on: the most
/// visited root move (`first` visits, winning `rate` of them) has fewer than
/// [`CLOCK_UNCLEAR_RATIO`] times the visits of the second (`second`), and, when it
/// wins, the time is short of what winning allows: the more sure the win, the closer
/// to the slice and the further from `hard` (Pachi's `uct_search_keep_looking`).
pub(super) fn keeps_looking(
    first: u32,
    second: u32,
    rate: f32,
    elapsed: Duration,
    soft: Duration,
    hard: Duration,
) -> bool {
    if second == 0 || f64::from(first) >= CLOCK_UNCLEAR_RATIO * f64::from(second) {
        return false;
    }
    let sure = (2.0 * (f64::from(rate) - 0.5)).clamp(0.0, 1.0);
    elapsed < soft + hard.saturating_sub(soft).mul_f64(1.0 - sure)
}

/// [`keeps_looking`] for the search's tree now.
pub(super) fn root_is_unclear(shared: &Shared) -> bool {
    let (Some(soft), Some(hard)) = (shared.budget.soft_limit(), shared.budget.hard_limit()) else { return false };
    let (first, second, rate) = root_leaders(shared.tree);
    keeps_looking(first, second, rate, shared.budget.elapsed(), soft, hard)
}

/// True when the root's most visited child leads the second by more visits than the
/// search can still make before its last limit, at its speed so far (`done` playouts):
/// the move played cannot change any more (Leela Zero's "smart pruning"). The last
/// limit is the hard one where an unclear root goes on past the soft one (`extends`),
/// as Pachi's early stop looks to its worst time, and the soft one otherwise (a
/// byo-yomi period, a move time).
pub(super) fn best_is_settled(shared: &Shared, done: u64, extends: bool) -> bool {
    let Some(last) = last_limit(&shared.budget, extends) else { return false };
    let (first, second, _) = root_leaders(shared.tree);
    lead_cannot_be_caught(first - second, done, shared.budget.elapsed(), last)
}

/// The latest a search under `budget` may end: its hard limit if it `extends` past the
/// soft one while its root is unclear, else the soft one.
fn last_limit(budget: &TimeBudget, extends: bool) -> Option<Duration> {
    if extends { budget.hard_limit() } else { budget.soft_limit() }
}

/// The visits of the root's most visited child and of the second, and the first's win
/// rate (zeros before the root has children).
fn root_leaders(tree: &Tree) -> (u32, u32, f32) {
    let Some(children) = tree.nodes[0].children() else { return (0, 0, 0.0) };
    let (mut first, mut second, mut rate) = (0u32, 0u32, 0.0f32);
    for node in &tree.nodes[children] {
        let v = node.visits.load(Relaxed);
        if v > first {
            (first, second, rate) = (v, first, node.win_rate());
        } else if v > second {
            second = v;
        }
    }
    (first, second, rate)
}

/// True when a `lead` of visits is more than the playouts left before the `limit`, at
/// the speed of `done` playouts in `elapsed`.
fn lead_cannot_be_caught(lead: u32, done: u64, elapsed: Duration, limit: Duration) -> bool {
    if elapsed.is_zero() || done == 0 {
        return false;
    }
    let left = limit.saturating_sub(elapsed).as_secs_f64() * done as f64 / elapsed.as_secs_f64();
    f64::from(lead) > left
}

/// True when a search under `limits` may end early once its best move is settled: on
/// a clock only; not with a fixed move time (what is not spent is lost, and the kept
/// tree would be smaller for the next move), nor infinite (analysis) or with a playout
/// limit.
pub(super) fn stops_when_settled(limits: &Limits) -> bool {
    limits.clock.time.iter().any(Option::is_some)
        && limits.movetime.is_none()
        && !limits.infinite
        && limits.nodes.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::mcts::tests::{big_atari, search_with};
    use crate::go::mcts::{Mcts, MctsResult};
    use crate::limits::StopFlag;
    use bitboards::go::{Board, Color, Game, Move, Point, Superko};
    use std::time::Duration;

    #[test]
    fn a_clock_is_shared_as_pachi_shares_it() {
        // Own moves left: half the empty points beyond a fifth of the board, at least 30
        // (on 9×9, 30 or 32).
        assert_eq!(clock_moves_left(81, 81), 32);
        assert_eq!(clock_moves_left(40, 81), 30);
        assert_eq!(clock_moves_left(361, 361), 144);
        // On a clock one slice (30 s over 32 moves) is the soft limit, two the hard one;
        // a move time is spent whole, as before.
        let secs = Duration::from_secs;
        let clock = crate::Clock { time: [Some(secs(30)), Some(secs(30))], ..Default::default() };
        let budget = clock_budget(&Limits { clock, ..Limits::default() }, crate::Player::Two, 81, 81);
        let (soft, hard) = (budget.soft_limit().expect("soft"), budget.hard_limit().expect("hard"));
        assert!(soft > Duration::from_millis(900) && soft < Duration::from_millis(940), "{soft:?}");
        assert!(hard > soft.mul_f64(1.99) && hard < soft.mul_f64(2.01), "{hard:?}");
        let fixed = clock_budget(&Limits::movetime(secs(1)), crate::Player::One, 81, 81);
        assert_eq!(fixed.soft_limit(), fixed.hard_limit());
        // In byo-yomi (a stone to play in 10 s) the soft limit stays 0.6 of the period.
        let period = crate::Clock { time: [Some(secs(10)); 2], moves_to_go: Some(1), ..Default::default() };
        let limits = Limits { clock: period, ..Limits::default() };
        assert!(in_byo_yomi(&limits));
        let in_period = clock_budget(&limits, crate::Player::One, 81, 81);
        let soft = in_period.soft_limit().expect("soft");
        assert!(soft < secs(6), "{soft:?}");
        // The early stop looks to the last limit the search may reach: the slice in a
        // period, two slices on main time.
        assert!(!extends_when_unclear(&limits));
        assert_eq!(last_limit(&in_period, false), Some(soft));
        assert_eq!(last_limit(&budget, true), Some(hard));
        // On 19×19 the time is shared over the estimate's 144 moves (30 s: 208 ms a
        // slice), not over at most 60 as a game's estimate is in `TimeBudget::new`.
        let big = clock_budget(&Limits { clock, ..Limits::default() }, crate::Player::One, 361, 361);
        let slice = big.soft_limit().expect("soft");
        assert!(slice > Duration::from_millis(200) && slice < Duration::from_millis(215), "{slice:?}");
    }

    #[test]
    fn an_unclear_root_goes_on_past_its_slice() {
        let ms = Duration::from_millis;
        let (soft, hard) = (ms(1000), ms(2000));
        // Two moves within 2.5 times each other's visits: on, up to the hard limit.
        assert!(keeps_looking(1000, 500, 0.5, ms(1500), soft, hard));
        assert!(!keeps_looking(1000, 500, 0.5, ms(2000), soft, hard));
        // A clear lead ends the search at its slice; so does a root with one move.
        assert!(!keeps_looking(1000, 399, 0.5, ms(1000), soft, hard));
        assert!(!keeps_looking(1000, 0, 0.5, ms(1000), soft, hard));
        // Winning, the extension shrinks: at a 0.75 win rate it ends half way, sure
        // wins at the slice; a losing root gets it all.
        assert!(keeps_looking(1000, 900, 0.75, ms(1400), soft, hard));
        assert!(!keeps_looking(1000, 900, 0.75, ms(1500), soft, hard));
        assert!(!keeps_looking(1000, 900, 1.0, ms(1000), soft, hard));
        assert!(keeps_looking(1000, 900, 0.1, ms(1990), soft, hard));
    }

    #[test]
    fn a_search_on_a_clock_stops_once_the_best_move_cannot_change() {
        // Counted, not timed: after the same playouts (one thread, a fixed seed), the big
        // capture leads the second move by more visits (8 663 of 20 000) than a search
        // that has used 80 % of its soft limit could still give the second (5 000); on the
        // empty board no move leads that far (183). The decision only compares visits
        // with the playouts left at the speed so far, so it is the same on a loaded
        // machine.
        let playouts = 20_000;
        let forced = search_with(&big_atari(), 3, 1, playouts);
        assert_eq!(forced.best, Move::Play(Point::new(4, 7)));
        let open = search_with(&Game::new(Board::new(9), 7.5, Superko::Positional), 3, 1, playouts);
        let lead = |r: &MctsResult| {
            let mut visits: Vec<u32> = r.root_moves.iter().map(|m| m.1).collect();
            visits.sort_unstable_by(|a, b| b.cmp(a));
            visits[0] - visits.get(1).copied().unwrap_or(0)
        };
        let (secs, ms) = (std::time::Duration::from_secs, std::time::Duration::from_millis);
        // 80 % of the soft limit spent: 20 000 playouts so far, 5 000 still to come.
        let (elapsed, soft) = (secs(4), secs(5));
        assert!(lead_cannot_be_caught(lead(&forced), playouts, elapsed, soft), "lead {}", lead(&forced));
        assert!(!lead_cannot_be_caught(lead(&open), playouts, elapsed, soft), "lead {}", lead(&open));
        // At the start nothing is settled; once the soft limit is reached any lead is.
        assert!(!lead_cannot_be_caught(lead(&forced), playouts, ms(0), soft));
        assert!(!lead_cannot_be_caught(lead(&forced), 0, ms(10), soft));
        assert!(lead_cannot_be_caught(1, playouts, soft, soft));
        assert!(!lead_cannot_be_caught(0, playouts, soft, soft));
        // Only a search on a clock ends early: a fixed move time, a playout limit and
        // analysis are spent whole.
        let clock = crate::Clock { time: [Some(secs(160)), Some(secs(160))], ..Default::default() };
        let on_clock = Limits { clock, ..Limits::default() };
        assert!(stops_when_settled(&on_clock));
        assert!(!stops_when_settled(&Limits { movetime: Some(secs(1)), ..on_clock }));
        assert!(!stops_when_settled(&Limits { nodes: Some(1000), ..on_clock }));
        assert!(!stops_when_settled(&Limits { infinite: true, ..on_clock }));
        assert!(!stops_when_settled(&Limits::movetime(secs(1))));
        // A fixed move time is spent whole: load can only make the search longer.
        let movetime = ms(300);
        let r = Mcts::new(&big_atari(), 3).search(&Limits::movetime(movetime), &StopFlag::new(), Color::BLACK);
        assert_eq!(r.best, Move::Play(Point::new(4, 7)));
        assert!(r.elapsed > movetime.mul_f64(0.9), "{:?} of a fixed move time", r.elapsed);
    }
}
