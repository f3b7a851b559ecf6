//! `sente chaosclock`: solve a position, deal and solve openings (sharded, resumable),
//! join the shards' results, or play against the engine in the terminal.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bitboards::chaosclock::{Move, Outcome, Record, Side, State, random_opening};
use clap::Subcommand;
use rayon::prelude::*;
use search::chaosclock::player::{self, evaluate};
use search::chaosclock::prove::{Method, ProveLimits, STATE_BYTES, prove, states_in_available_memory};
use search::chaosclock::solver::Solver;
use search::{Limits, StopFlag};

use crate::games::chaosclock::{deal, outcome_text};
use crate::tools::interrupt;
use crate::tools::journal::open_results;
use crate::tools::openings_results::{self, DealSolved, OPENING_OUTCOMES};
use crate::tools::shard::Shard;

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

#[derive(Subcommand)]
pub enum ChaosCommand {
    /// Prove the outcome of a position (e.g. "3,5,1,12,4,2,11,10,6,7,9,8 Y 0").
    Solve {
        /// The position.
        position: String,
        #[command(flatten)]
        limits: ChaosLimits,
    },
    /// Deal random openings, solve each, and print the outcomes.
    Openings {
        /// How many openings.
        #[arg(long, default_value_t = 100)]
        count: u64,
        /// Seed of the deals.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Start at this deal of the seed's sequence (to continue an interrupted run).
        #[arg(long, default_value_t = 0)]
        from: u64,
        /// List only the openings proven both-win (fair openings, seed 003).
        #[arg(long)]
        both_win: bool,
        /// Openings solved at once (each also splits its work over the idle threads).
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        /// Keep each opening's result in this file as it is solved (JSON lines, in deal order).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Continue the run whose results are in --out (after Ctrl-C, SIGTERM or a kill).
        #[arg(long, requires = "out")]
        resume: bool,
        /// Solve only the deals k with k mod n = i, e.g. 0/4 (with --out, for `merge`).
        #[arg(long, requires = "out")]
        shard: Option<String>,
        #[command(flatten)]
        limits: ChaosLimits,
    },
    /// Join the results files of a sharded `openings` run into the file one run writes.
    Merge {
        /// The shards' results files (`openings --shard i/n --out F`).
        #[arg(required = true)]
        files: Vec<String>,
        /// The merged results file (must be new).
        #[arg(long)]
        out: String,
    },
    /// Play against the engine in the terminal.
    Play {
        /// Seed of the deal.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Your side: yi (乙, even, moves first) or jia (甲, odd).
        #[arg(long, default_value = "yi")]
        side: String,
        /// The engine's thinking time per move, in seconds.
        #[arg(long, default_value_t = 2.0)]
        think: f64,
    },
}

/// How hard the Chaos Clock solvers may try.
#[derive(clap::Args)]
pub struct ChaosLimits {
    /// Nodes of proof search tried first (0: go straight to the retrograde analysis).
    /// Default: 1 000 000 for `solve`; 0 for `openings`, as the search proves no dealt
    /// opening within millions of nodes (their forced wins are 19–23 plies deep).
    #[arg(long)]
    nodes: Option<u64>,
    /// The most states the retrograde analysis may enumerate (about 50 bytes each; 0: no
    /// analysis). Default: 100 000 000, or fewer where the memory available is smaller;
    /// more than the memory available holds is refused.
    #[arg(long)]
    max_states: Option<usize>,
}

impl ChaosLimits {
    /// The limits, with `default_nodes` of proof search unless `--nodes` says otherwise;
    /// an error when `--max-states` asks for more memory than is available.
    fn to_prove_limits(&self, default_nodes: u64) -> Result<ProveLimits> {
        let search_nodes = self.nodes.unwrap_or(default_nodes);
        let fits = states_in_available_memory();
        let max_states = match (self.max_states, fits) {
            (Some(n), Some(fits)) if n > fits => bail!(
                "--max-states {n} may need {:.1} GiB (about {} bytes a state), more than the {:.1} GiB available; \
                 give at most {fits}",
                gib(n.saturating_mul(STATE_BYTES)),
                STATE_BYTES,
                gib(fits.saturating_mul(STATE_BYTES)),
            ),
            (Some(n), _) => n,
            (None, Some(fits)) => DEFAULT_MAX_STATES.min(fits),
            (None, None) => DEFAULT_MAX_STATES,
        };
        Ok(ProveLimits { search_nodes, max_states, deadline: None })
    }
}

/// `--max-states` when not given (and the memory available holds it).
const DEFAULT_MAX_STATES: usize = 100_000_000;

/// Runs `sente chaosclock`'s subcommands.
pub fn main(command: ChaosCommand) -> Result<()> {
    match command {
        ChaosCommand::Solve { position, limits } => {
            solve(&position, limits.to_prove_limits(1_000_000)?, &mut std::io::stdout().lock())
        }
        ChaosCommand::Openings { count, seed, from, both_win, jobs, out, shard, resume, limits } => {
            if jobs == 0 {
                bail!("--jobs must be at least 1");
            }
            let shard = shard.map(|s| Shard::parse(&s, "--shard")).transpose()?.unwrap_or(Shard::WHOLE);
            let deals = Deals { seed, from, count, jobs, shard };
            let file = out.map(|path| OpeningsFile { path, resume });
            let stop = interrupt::stop_flag();
            let limits = limits.to_prove_limits(0)?;
            openings(deals, both_win, limits, file.as_ref(), &stop, &mut std::io::stdout().lock())
        }
        ChaosCommand::Merge { files, out } => merge(&files, &out, &mut std::io::stdout().lock()),
        ChaosCommand::Play { seed, side, think } => {
            let human = parse_side(&side)?;
            let think = search::duration_from_secs(think).map_err(|e| anyhow::anyhow!("--think: {e}"))?;
            if think.is_zero() {
                bail!("--think must be a positive number of seconds");
            }
            play(seed, human, think, &mut std::io::stdin().lock(), &mut std::io::stdout().lock())
        }
    }
}
