//! Stopping early on a clock: once the most visited root move cannot be overtaken in
//! the time left, the search ends (Leela Zero's "smart pruning").

use std::sync::atomic::Ordering::Relaxed;

use super::Shared;
use super::tree::Tree;
use crate::limits::Limits;

/// True when the root's most visited child leads the second by more visits than the
/// search can still make before its soft limit, at its speed so far (`done` playouts):
/// the move played cannot change any more (Leela Zero's "smart pruning").
pub(super) fn best_is_settled(shared: &Shared, done: u64) -> bool {
    let (Some(soft), elapsed) = (shared.budget.soft_limit(), shared.budget.elapsed()) else { return false };
    lead_cannot_be_caught(root_lead(shared.tree), done, elapsed, soft)
}

/// The visits by which the root's most visited child leads the second.
fn root_lead(tree: &Tree) -> u32 {
    let Some(children) = tree.nodes[0].children() else { return 0 };
    let (mut first, mut second) = (0u32, 0u32);
    for node in &tree.nodes[children] {
        let v = node.visits.load(Relaxed);
        if v > first {
            (first, second) = (v, first);
        } else if v > second {
            second = v;
        }
    }
    first - second
}

/// True when a `lead` of visits is more than the playouts left before the `soft` limit,
/// at the speed of `done` playouts in `elapsed`.
fn lead_cannot_be_caught(lead: u32, done: u64, elapsed: std::time::Duration, soft: std::time::Duration) -> bool {
    if elapsed.is_zero() || done == 0 {
        return false;
    }
    let left = soft.saturating_sub(elapsed).as_secs_f64() * done as f64 / elapsed.as_secs_f64();
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
