//! Chaos Clock behind the front ends: the UGI+ session (the generic one, with its
//! `Seed` setting), the outcome in words and the deals the openings tool and the arena
//! share (`sente chaosclock` is in
//! `tools::chaosclock`).

use bitboards::chaosclock::{Outcome, Record, Side, State, random_opening};
use protocol::ugi::OptionKind;
use search::chaosclock::player::ChaosPlayer;

use crate::games::GameKind;
use crate::games::generic::PlayerSession;
use crate::games::options::GameOption;
use crate::games::referee::RefereeRules;

/// The outcome in the words of the front ends.
pub fn outcome_text(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(Side::YI) => "乙 (even, first player) wins",
        Outcome::Win(Side::JIA) => "甲 (odd, second player) wins",
        Outcome::BothWin => "both win",
        Outcome::BothLose | Outcome::Draw => "both lose",
    }
}

/// Chaos Clock's own setting: the seed `position startpos` is dealt from.
pub struct ChaosDeal {
    seed: u64,
}

/// Chaos Clock behind UGI+: the generic session with [`ChaosPlayer`] (prove first,
/// then the max-n search).
pub type ChaosSession = PlayerSession<Record, ChaosPlayer, ChaosDeal>;

/// A session on the opening of seed 1. `position startpos` is the opening dealt from
/// the `Seed` option (so that both engines of a match get the same deal).
pub fn new_session() -> ChaosSession {
    let start = Record::new(random_opening(1));
    PlayerSession::with_start(
        GameKind::CHAOS_CLOCK,
        RefereeRules::plain(12, 0),
        start,
        ChaosPlayer::default(),
        ChaosDeal { seed: 1 },
        CHAOS_OPTIONS,
    )
}

/// Chaos Clock's settings ([`crate::games::options`]): the seed of `position
/// startpos`'s deal.
const CHAOS_OPTIONS: &[GameOption<ChaosSession>] = &[GameOption {
    name: "Seed",
    gtp: None,
    kind: || OptionKind::Spin { default: 1, min: 0, max: i64::MAX },
    get: |s| s.settings.seed.to_string(),
    set: |s, v| {
        s.settings.seed = v.parse().map_err(|_| format!("bad seed '{v}': a whole number"))?;
        s.set_start(Record::new(random_opening(s.settings.seed)));
        Ok(())
    },
}];

/// Deal number `k` of the sequence of `seed` (the same for `openings` and the arena).
pub fn deal(seed: u64, k: u64) -> State {
    random_opening(seed.wrapping_mul(1_000_003).wrapping_add(k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::session::{GameSession, SearchOptions};
    use search::{Limits, StopFlag};

    #[test]
    fn go_nodes_and_go_depth_hold_in_the_session() {
        // `go nodes 200` searched 4 115 nodes before the budget was counted exactly: the
        // reported nodes are the solver's and the heuristic search's together.
        let mut s = new_session();
        let options = SearchOptions::default();
        for nodes in [1, 200, 1000, 5000] {
            let job = s.search_job(Limits { nodes: Some(nodes), ..Limits::default() }, &options);
            let outcome = job(&StopFlag::new(), &mut |_| {});
            assert!(outcome.report.nodes <= nodes, "go nodes {nodes}: {} nodes", outcome.report.nodes);
            assert!(outcome.best_move.is_some());
        }
        for depth in [1, 2, 3] {
            let job = s.search_job(Limits { depth: Some(depth), ..Limits::default() }, &options);
            let outcome = job(&StopFlag::new(), &mut |_| {});
            assert!(outcome.report.depth <= depth, "go depth {depth}: depth {}", outcome.report.depth);
        }
    }
}
