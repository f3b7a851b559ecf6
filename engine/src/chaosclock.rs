//! Chaos Clock behind the front ends: the UGI+ session, and the `sente chaosclock`
//! subcommands (solve a position, deal and solve openings, play in the terminal).

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bitboards::chaosclock::{Move, Outcome, Record, Side, State, random_opening};
use protocol::ugi::{OptionKind, StartPosition};
use rayon::prelude::*;
use search::chaosclock::player::{self, evaluate};
use search::chaosclock::prove::{Method, ProveLimits, prove};
use search::chaosclock::solver::Solver;
use search::{Limits, Score, StopFlag};

use crate::journal::open_results;
use crate::openings_results::{self, DealSolved, OPENING_OUTCOMES};
use crate::session::{GameSession, PerftJob, Report, SearchJob, SearchOptions, SearchOutcome};
use crate::shard::Shard;

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

impl GameSession for ChaosSession {
    fn game(&self) -> crate::games::GameKind {
        crate::games::GameKind::ChaosClock
    }

    fn uses_hash(&self) -> bool {
        true
    }

    fn options(&self) -> Vec<(&'static str, OptionKind)> {
        vec![("Seed", OptionKind::Spin { default: 1, min: 0, max: i64::MAX })]
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> crate::error::Result<bool> {
        if !name.eq_ignore_ascii_case("seed") {
            return Ok(false);
        }
        let v = value.ok_or("option 'Seed' needs a value")?;
        self.seed = v.parse().map_err(|_| format!("bad seed '{v}': a whole number"))?;
        self.record = Record::new(random_opening(self.seed));
        Ok(true)
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

/// Bytes in GiB, for messages.
pub fn gib(bytes: usize) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

/// `sente chaosclock solve`: proves the outcome of a position.
pub fn solve(position: &str, limits: ProveLimits, out: &mut impl Write) -> Result<()> {
    let state = State::parse(position).map_err(|e| anyhow::anyhow!("bad position '{position}': {e}"))?;
    let start = Instant::now();
    match prove(state, &[], limits) {
        Ok(v) => {
            writeln!(out, "outcome: {}", outcome_text(v.solution.outcome))?;
            match v.solution.best {
                Some(m) => writeln!(out, "best move: {m}")?,
                None => writeln!(out, "best move: none (the game is over)")?,
            }
            writeln!(out, "plies to the end: {}", v.solution.length)?;
            match v.method {
                Method::Search(n) => writeln!(out, "method: proof search, nodes: {n}")?,
                Method::Retrograde(n) => writeln!(out, "method: retrograde analysis, states: {n}")?,
            }
        }
        Err(why) => writeln!(out, "outcome: {why}")?,
    }
    writeln!(out, "time: {:.3} s", start.elapsed().as_secs_f64())?;
    Ok(())
}

/// Deal number `k` of the sequence of `seed` (the same for `openings` and the arena).
pub fn deal(seed: u64, k: u64) -> State {
    random_opening(seed.wrapping_mul(1_000_003).wrapping_add(k))
}

/// Which openings `openings` deals: numbers `from..from + count` of the seed's
/// sequence, those of `shard` only.
#[derive(Clone, Copy, Debug)]
pub struct Deals {
    /// Seed of the sequence.
    pub seed: u64,
    /// First deal.
    pub from: u64,
    /// How many.
    pub count: u64,
    /// How many are solved at once.
    pub jobs: usize,
    /// Solve only the deals `k` this shard holds.
    pub shard: Shard,
}

/// Where `openings` keeps its results, and whether it goes on from them.
pub struct OpeningsFile {
    /// The results file (JSON lines, one per deal solved).
    pub path: PathBuf,
    /// Continue the run whose results are in it.
    pub resume: bool,
}

/// Solves deal `k` of `seed`.
fn solve_deal(seed: u64, k: u64, limits: ProveLimits) -> DealSolved {
    let opening = deal(seed, k);
    let t = Instant::now();
    let r = prove(opening, &[], limits);
    let secs = t.elapsed().as_secs_f64();
    let outcome = match r.as_ref().map(|v| v.solution.outcome) {
        Ok(Outcome::Win(Side::YI)) => 0,
        Ok(Outcome::Win(Side::JIA)) => 1,
        Ok(Outcome::BothWin) => 2,
        Ok(Outcome::BothLose | Outcome::Draw) => 3,
        Err(_) => 4,
    };
    let (best, size) = match &r {
        Ok(v) => (
            v.solution.best.map_or("-".to_string(), |m| m.to_string()),
            match v.method {
                Method::Search(n) => format!("{n} nodes"),
                Method::Retrograde(n) => format!("{n} states"),
            },
        ),
        Err(_) => ("-".to_string(), "too big".to_string()),
    };
    let line = format!("{opening}  {:<24} best {best:<4} {size:>16} {secs:7.2} s", OPENING_OUTCOMES[outcome]);
    DealSolved { deal: k, outcome, line, secs, wall: 0.0 }
}

/// `sente chaosclock openings`: deals openings, solves each and prints the outcomes.
/// With `file`, each deal solved is kept as it is printed, and a resumed run prints
/// the ones kept again and solves the rest. A `shard` solves only its deals (for
/// [`merge`]). `stop` (Ctrl-C, SIGTERM) drops the deals
/// being solved and ends the run, saying how to go on.
pub fn openings(
    deals: Deals,
    both_win_only: bool,
    limits: ProveLimits,
    file: Option<&OpeningsFile>,
    stop: &AtomicBool,
    out: &mut impl Write,
) -> Result<()> {
    let Deals { seed, from, count, jobs, shard } = deals;
    let end = from.saturating_add(count);
    let mut journal = None;
    let mut kept: HashMap<u64, DealSolved> = HashMap::new();
    if let Some(f) = file {
        let header = openings_results::run_header(seed, from, count, limits.search_nodes, limits.max_states, shard);
        let (j, solved) = open_results::<DealSolved>(&f.path, header, f.resume)?;
        kept = solved.into_iter().map(|d| (d.deal, d)).collect();
        journal = Some(j);
    }
    let to_solve: Vec<u64> = shard.items(from..end).filter(|k| !kept.contains_key(k)).collect();
    // The deals are solved on other threads, a batch of `jobs` at once; this one
    // prints them in deal order and can stop at once.
    let (tx, rx) = crossbeam_channel::unbounded::<DealSolved>();
    std::thread::spawn(move || {
        for batch in to_solve.chunks(jobs.max(1)) {
            let solved: Vec<DealSolved> = batch.par_iter().map(|&k| solve_deal(seed, k, limits)).collect();
            for d in solved {
                if tx.send(d).is_err() {
                    return;
                }
            }
        }
    });
    let mut tally = [0u64; 5];
    let mut wall = 0.0;
    let mut last = Instant::now();
    for k in shard.items(from..end) {
        let solved = match kept.remove(&k) {
            Some(d) => d,
            None => loop {
                if stop.load(Ordering::Relaxed) {
                    let how = match file {
                        Some(f) => format!("the same command with --resume continues from {}", f.path.display()),
                        None => format!("--from {k} --count {} continues", end - k),
                    };
                    writeln!(out, "stopped at deal {k} (the deals being solved were dropped): {how}")?;
                    return Ok(());
                }
                match rx.recv_timeout(Duration::from_millis(50)) {
                    Ok(mut d) if d.deal == k => {
                        d.wall = last.elapsed().as_secs_f64();
                        last = Instant::now();
                        if let Some(j) = journal.as_mut() {
                            j.append(&serde_json::to_string(&d)?)?;
                        }
                        break d;
                    }
                    Ok(d) => bail!("deal {} came before deal {k}", d.deal),
                    Err(crossbeam_channel::RecvTimeoutError::Timeout) => {}
                    Err(crossbeam_channel::RecvTimeoutError::Disconnected) => bail!("the solving thread ended"),
                }
            },
        };
        tally[solved.outcome] += 1;
        wall += solved.wall;
        if !both_win_only || solved.outcome == 2 {
            writeln!(out, "{}", solved.line)?;
            out.flush()?;
        }
    }
    let solved = shard.count_in(from..end);
    let which = if shard == Shard::WHOLE { String::new() } else { format!(", shard {shard}") };
    writeln!(
        out,
        "{solved} openings (seed {seed}, from {from}{which}), {:.2} s per opening:",
        wall / solved.max(1) as f64
    )?;
    write_tally(tally, solved, out)
}

/// Prints how many of `count` openings had each outcome; `tally` counts by the index
/// into [`OPENING_OUTCOMES`].
fn write_tally(tally: [u64; 5], count: u64, out: &mut impl Write) -> Result<()> {
    for (name, n) in OPENING_OUTCOMES.iter().zip(tally) {
        writeln!(out, "  {name:<24} {n:>6}  {:>5.1}%", 100.0 * n as f64 / count.max(1) as f64)?;
    }
    Ok(())
}

/// `sente chaosclock merge`: joins the shards' results files into `merged` and prints
/// the tally of the whole run.
pub fn merge(files: &[String], merged: &str, out: &mut impl Write) -> Result<()> {
    let deals = openings_results::merge(files, merged)?;
    let mut tally = [0u64; 5];
    for d in &deals {
        let n = tally.get_mut(d.outcome).with_context(|| format!("deal {}: unknown outcome {}", d.deal, d.outcome))?;
        *n += 1;
    }
    writeln!(out, "{} shards, {} openings written to {merged}:", files.len(), deals.len())?;
    write_tally(tally, deals.len() as u64, out)
}

/// `sente chaosclock play`: a human against the engine in the terminal.
pub fn play(seed: u64, human: Side, think: Duration, input: &mut impl BufRead, out: &mut impl Write) -> Result<()> {
    let mut record = Record::new(random_opening(seed));
    let mut solver = Solver::new();
    writeln!(
        out,
        "Chaos Clock. You play {}. Moves: w<n> walks piece n, p<n> places it, pass. 'help', 'quit'.",
        human.side_name()
    )?;
    let mut drawn = None;
    loop {
        let state = record.state();
        if drawn != Some(record.moves().len()) {
            writeln!(out, "\n{}", state.draw())?;
            drawn = Some(record.moves().len());
        }
        if let Some(o) = state.outcome() {
            writeln!(out, "{}", outcome_text(o))?;
            return Ok(());
        }
        if state.to_move() == human {
            write!(out, "your move> ")?;
            out.flush()?;
            let line = match crate::io::read_line(input) {
                crate::io::Input::Line(line) => line,
                crate::io::Input::TooLong { length, .. } => {
                    writeln!(out, "a line of {length} bytes ignored: longer than {}", crate::io::MAX_LINE)?;
                    continue;
                }
                crate::io::Input::Eof => {
                    writeln!(out, "\nend of input: game abandoned")?;
                    return Ok(());
                }
            };
            let text = line.trim();
            match text {
                "quit" | "exit" => return Ok(()),
                "help" | "?" => {
                    let legal: Vec<String> = state.legal_moves().iter().map(Move::to_string).collect();
                    writeln!(out, "legal moves: {}", legal.join(" "))?;
                    continue;
                }
                "" => continue,
                _ => {}
            }
            match Move::parse(text) {
                Err(e) => writeln!(out, "{e}")?,
                Ok(mv) => {
                    if let Err(e) = record.play(mv) {
                        writeln!(out, "{mv} is not possible: {e}")?;
                    }
                }
            }
        } else {
            let limits = Limits { movetime: Some(think), nodes: Some(5_000_000), ..Limits::default() };
            let d = player::choose_within(&record, &mut solver, &limits, &StopFlag::new())
                .context("the engine found no move")?;
            let note = d.proven.map_or(format!("value {:.0}", evaluate(&state, state.to_move())), |o| {
                format!("proven: {}", outcome_text(o))
            });
            writeln!(out, "{} plays {} ({note})", state.to_move().side_name(), d.best)?;
            record.play(d.best).map_err(|e| anyhow::anyhow!("engine move {}: {e}", d.best))?;
        }
    }
}

/// Reads `yi`/`jia` (or 乙/甲).
pub fn parse_side(text: &str) -> Result<Side> {
    match text.to_ascii_lowercase().as_str() {
        "yi" | "乙" | "even" | "first" => Ok(Side::YI),
        "jia" | "甲" | "odd" | "second" => Ok(Side::JIA),
        other => bail!("bad side '{other}': yi (乙, even, first) or jia (甲, odd, second)"),
    }
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
