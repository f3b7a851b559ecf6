//! Chaos Clock behind the front ends: the UGI+ session, the outcome in words and the
//! deals the openings tool and the arena share (`sente chaosclock` is in
//! `tools::chaosclock`).

use std::time::{Duration, Instant};

use anyhow::Result;
use bitboards::chaosclock::{Move, Outcome, Record, Side, State, random_opening};
use protocol::ugi::{OptionKind, StartPosition};
use search::chaosclock::player;
use search::chaosclock::solver::Solver;
use search::{Limits, Score, StopFlag};

use crate::games::options::{self, GameOption};
use crate::games::session::{GameSession, PerftJob, Report, SearchJob, SearchOptions, SearchOutcome};

/// The outcome in the words of the front ends.
pub fn outcome_text(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(Side::YI) => "乙 (even, first player) wins",
        Outcome::Win(Side::JIA) => "甲 (odd, second player) wins",
        Outcome::BothWin => "both win",
        Outcome::BothLose | Outcome::Draw => "both lose",
    }
}

/// Plays `moves` (text) from `start`, naming the first bad one.
pub fn play_moves(start: State, moves: &[String]) -> Result<Record, String> {
    let mut record = Record::new(start);
    for (i, text) in moves.iter().enumerate() {
        let mv = Move::parse(text).map_err(|e| format!("move {}: {e}", i + 1))?;
        record.play(mv).map_err(|e| format!("move {} '{text}' is illegal: {e}", i + 1))?;
    }
    Ok(record)
}

/// Chaos Clock behind UGI+. `position startpos` is the opening dealt from the `Seed`
/// option (so that both engines of a match get the same deal).
pub struct ChaosSession {
    record: Record,
    seed: u64,
    solver: Solver,
}

impl ChaosSession {
    /// A session on the opening of seed 1.
    pub fn new() -> ChaosSession {
        ChaosSession { record: Record::new(random_opening(1)), seed: 1, solver: Solver::new() }
    }
}

impl Default for ChaosSession {
    fn default() -> Self {
        Self::new()
    }
}

/// Chaos Clock's settings ([`crate::games::options`]): the seed of `position
/// startpos`'s deal.
const CHAOS_OPTIONS: &[GameOption<ChaosSession>] = &[GameOption {
    name: "Seed",
    gtp: None,
    kind: || OptionKind::Spin { default: 1, min: 0, max: i64::MAX },
    get: |s| s.seed.to_string(),
    set: |s, v| {
        s.seed = v.parse().map_err(|_| format!("bad seed '{v}': a whole number"))?;
        s.record = Record::new(random_opening(s.seed));
        Ok(())
    },
}];

impl GameSession for ChaosSession {
    fn game(&self) -> crate::games::GameKind {
        crate::games::GameKind::CHAOS_CLOCK
    }

    fn uses_hash(&self) -> bool {
        true
    }

    fn options(&self) -> Vec<(&'static str, OptionKind)> {
        options::announce(CHAOS_OPTIONS)
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> crate::error::Result<bool> {
        options::set_by_name(CHAOS_OPTIONS, self, name, value)
    }

    fn new_game(&mut self) {
        self.record = Record::new(random_opening(self.seed));
        self.solver.clear();
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> crate::error::Result<()> {
        let start = match start {
            StartPosition::StartPos => random_opening(self.seed),
            StartPosition::Fen(text) => State::parse(text).map_err(|e| format!("bad position: {e}"))?,
        };
        self.record = play_moves(start, moves)?;
        Ok(())
    }

    fn p1_to_move(&self) -> bool {
        self.record.state().to_move() == Side::YI
    }

    fn outcome(&self) -> Option<search::Outcome> {
        self.record.state().outcome()
    }

    fn legal_moves(&self) -> Vec<String> {
        self.record.state().legal_moves().iter().map(Move::to_string).collect()
    }

    fn is_legal(&self, mv: &str) -> bool {
        Move::parse(mv).is_ok_and(|m| self.record.next_state(m).is_ok())
    }

    fn fen(&self) -> String {
        self.record.state().to_string()
    }

    fn score(&self) -> String {
        // Player one's (乙's) progress minus 甲's, in pieces.
        let s = self.record.state();
        format!("{:.1}", player::progress(&s, Side::YI) - player::progress(&s, Side::JIA))
    }

    fn draw(&self) -> String {
        self.record.state().draw()
    }

    fn perft(&self, depth: u32, _threads: usize) -> crate::error::Result<PerftJob> {
        fn count(r: &mut Record, depth: u32) -> u64 {
            if depth == 0 || r.state().outcome().is_some() {
                return 1;
            }
            let mut n = 0;
            for mv in r.state().legal_moves() {
                r.play(mv).expect("a legal move");
                n += count(r, depth - 1);
                r.undo();
            }
            n
        }
        if depth > 8 {
            return Err("Chaos Clock perft is for checking the rules: depth 8 at most".into());
        }
        let mut record = self.record.clone();
        Ok(Box::new(move |_: &StopFlag| Some(count(&mut record, depth))))
    }

    fn search_job(&mut self, limits: Limits, options: &SearchOptions) -> SearchJob {
        let record = self.record.clone();
        let mut solver = std::mem::take(&mut self.solver);
        solver.set_memory_limit(Some(options.hash_mb.saturating_mul(1 << 20)));
        Box::new(move |stop: &StopFlag, report: &mut (dyn FnMut(&Report) + Send)| {
            let start = Instant::now();
            let decision = player::choose_within(&record, &mut solver, &limits, stop);
            if limits.infinite {
                while !stop.is_stopped() {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            let final_report = Report {
                depth: decision.as_ref().map_or(0, |d| d.depth),
                nodes: decision.as_ref().map_or(0, |d| d.nodes),
                elapsed: start.elapsed(),
                score: Score::Centi(decision.as_ref().map_or(0, |d| (d.value * 10.0) as i32)),
                pv: decision.as_ref().map(|d| vec![d.best.to_string()]).unwrap_or_default(),
                note: None,
            };
            report(&final_report);
            SearchOutcome { best_move: decision.map(|d| d.best.to_string()), report: final_report }
        })
    }
}

/// Deal number `k` of the sequence of `seed` (the same for `openings` and the arena).
pub fn deal(seed: u64, k: u64) -> State {
    random_opening(seed.wrapping_mul(1_000_003).wrapping_add(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_nodes_and_go_depth_hold_in_the_session() {
        // `go nodes 200` searched 4 115 nodes before the budget was counted exactly: the
        // reported nodes are the solver's and the heuristic search's together.
        let mut s = ChaosSession::new();
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
