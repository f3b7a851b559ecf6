//! `sente arena`: matches between engines run as child processes, refereed with our
//! own rules, with game pairs over openings, clocks, concurrency, records, resumable
//! JSON-lines results, shards, and the statistics of [`stats`].

pub mod cli;
mod compare;
mod compliance;
mod openings;
pub(crate) mod phantom;
mod players;
mod process;
pub(crate) mod report;
mod results;
mod settings;
mod stats;
mod teacher;

use std::collections::{BTreeMap, HashSet};
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};

pub use crate::games::GameKind;
pub use crate::games::referee::{Ending, MoveStat, Opening, RefereeRules, Refereed, stat_at};
use crate::tools::journal::{Journal, write_atomically};
use crate::tools::shard::Shard;
use bitboards::Outcome;
pub use openings::OpeningSource;
pub use players::{EngineSpec, GameSetup, Protocol, TimeControl};
use players::{MoveRequest, Player, Reply, SearchInfo};
use process::{Fault, Log};
pub use stats::{EloModel, Pentanomial, Sprt, SprtVerdict, Tally};
pub use teacher::{NboardTeacher, start_outside_go_player, teach_command};

/// How dead stones are decided at the end of a Go game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadStones {
    /// The arena's own judgement (settling playouts).
    Arena,
    /// Ask both engines (`final_status_list dead`); use their answer when they agree,
    /// else the arena's, and record the disagreement.
    Ask,
}

/// Everything a match needs.
pub struct MatchConfig {
    /// The two engines: A (whose results the statistics give) and B.
    pub engines: [EngineSpec; 2],
    /// The game and its set-up.
    pub setup: GameSetup,
    /// Referee settings.
    pub rules: RefereeRules,
    /// Openings (random ones dealt as the games ask for them).
    pub openings: openings::Openings,
    /// Where the openings came from (kept in the match's settings).
    pub opening_source: OpeningSource,
    /// Game pairs to play (each opening with both colour assignments).
    pub pairs: u64,
    /// Time control.
    pub control: TimeControl,
    /// Extra time an engine may overrun its clock by before it loses on time.
    pub margin: Duration,
    /// The wait for a move when no clock limits it (fixed nodes).
    pub move_timeout: Duration,
    /// Games played at once.
    pub concurrency: usize,
    /// Where results.jsonl and the game records go.
    pub out: PathBuf,
    /// Continue from the results already in `out`.
    pub resume: bool,
    /// Play only the pairs `k` with `k % n == i`.
    pub shard: (u64, u64),
    /// Stop when this test is decided.
    pub sprt: Option<Sprt>,
    /// Go dead stones.
    pub dead_stones: DeadStones,
    /// Log of all engine I/O.
    pub debug_log: Option<PathBuf>,
    /// Draw a progress bar (on a terminal).
    pub progress: bool,
}

/// One finished game, one line of results.jsonl.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameRecord {
    /// Game number in the schedule (pair × 2, + 1 for the colour-swapped game).
    pub game: u64,
    /// Opening number.
    pub opening: u64,
    /// The engine in the first seat (Othello/Go black, Chaos Clock 乙).
    pub first: String,
    /// The engine in the second seat.
    pub second: String,
    /// `1-0`, `0-1`, `1/2-1/2`, `both-win`, `both-lose`.
    pub result: String,
    /// Engine A's score: 1, ½ or 0.
    pub score_a: f64,
    /// Why the game ended.
    pub reason: String,
    /// The score in the game's terms (`B+3.5`, `34-30`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// Moves played, the opening's included.
    pub moves: usize,
    /// Anything else worth knowing (engines' disagreement on dead stones).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The record file, relative to the output folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
    /// What each engine spent and said on each move it was asked for, in order; the
    /// last may be a request that ended the game unplayed (a resignation, a fault).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plies: Vec<MoveStat>,
}

impl MoveStat {
    /// The data of a move asked for after `ply` moves, from seat `seat`, that took
    /// `used` and of which the engine said `info`.
    pub fn of(ply: usize, seat: usize, used: Duration, info: SearchInfo) -> MoveStat {
        MoveStat {
            ply,
            seat,
            ms: used.as_millis().try_into().unwrap_or(u64::MAX),
            score: info.score,
            depth: info.depth,
            nodes: info.nodes,
        }
    }
}

/// The engines (first, second) of game `game` of a match of engines `names` (A, B):
/// A is first in the even games, B in the odd ones.
fn seats_of(game: u64, names: &[String; 2]) -> [&str; 2] {
    if game.is_multiple_of(2) { [&names[0], &names[1]] } else { [&names[1], &names[0]] }
}

/// The statistics of a set of results, for engine A against B.
pub struct Summary {
    /// Engine A's games.
    pub tally: Tally,
    /// Complete game pairs.
    pub pairs: Pentanomial,
    /// How many games ended for each reason.
    pub reasons: BTreeMap<String, u64>,
    /// Each engine's moves with a time: how many, their total and longest time (ms).
    pub times: BTreeMap<String, MoveTimes>,
}

/// The time an engine took over the moves of a set of results.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveTimes {
    /// Moves (tries in Phantom Go) with a time.
    pub moves: u64,
    /// Their total, in milliseconds.
    pub total_ms: u64,
    /// The longest, in milliseconds.
    pub max_ms: u64,
}

impl MoveTimes {
    /// The mean time a move, in milliseconds (0 without moves).
    pub fn mean_ms(&self) -> f64 {
        if self.moves == 0 { 0.0 } else { self.total_ms as f64 / self.moves as f64 }
    }
}

impl Summary {
    /// Counts `results`.
    pub fn of(results: &[GameRecord]) -> Summary {
        let mut tally = Tally::default();
        let mut reasons = BTreeMap::new();
        let mut times: BTreeMap<String, MoveTimes> = BTreeMap::new();
        let mut by_pair: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
        for r in results {
            tally.add(r.score_a);
            // Reasons without the engine names and details after a colon.
            let reason = r.reason.split(':').next().unwrap_or(&r.reason).to_string();
            *reasons.entry(reason).or_insert(0) += 1;
            by_pair.entry(r.game / 2).or_default().push(r.score_a);
            for stat in &r.plies {
                let engine = if stat.seat == 0 { &r.first } else { &r.second };
                let t = times.entry(engine.clone()).or_default();
                t.moves += 1;
                t.total_ms = t.total_ms.saturating_add(stat.ms);
                t.max_ms = t.max_ms.max(stat.ms);
            }
        }
        let mut pairs = Pentanomial::default();
        for scores in by_pair.values() {
            if let [a, b] = scores[..] {
                pairs.add(a, b);
            }
        }
        Summary { tally, pairs, reasons, times }
    }

    /// The report printed at the end of a match.
    pub fn report(&self, names: [&str; 2], sprt: Option<&Sprt>) -> String {
        let t = &self.tally;
        let n = t.games();
        let score = if n == 0 { 0.0 } else { (t.wins as f64 + t.draws as f64 / 2.0) / n as f64 };
        let mut out = format!(
            "Score of {} vs {}: {} - {} - {}  [{score:.3}] {n}\n",
            names[0], names[1], t.wins, t.losses, t.draws
        );
        match stats::elo(t) {
            Some(e) => out.push_str(&format!(
                "Elo difference: {e}, LOS: {:.1} %, DrawRatio: {:.1} %\n",
                100.0 * stats::los(t),
                100.0 * t.draws as f64 / n.max(1) as f64
            )),
            None => out.push_str("Elo difference: no games\n"),
        }
        let p = &self.pairs;
        out.push_str(&format!("Pairs (pentanomial 0, 1/2, 1, 3/2, 2): {:?}  ({} pairs)", p.0, p.pairs()));
        if let Some(e) = stats::elo_pairs(p) {
            out.push_str(&format!(", Elo from pairs: {e}"));
        }
        out.push('\n');
        if let Some(sprt) = sprt {
            let llr = self.llr(sprt);
            let (lower, upper) = sprt.bounds();
            let verdict = match sprt.verdict(llr) {
                SprtVerdict::H1 => "H1 accepted",
                SprtVerdict::H0 => "H0 accepted",
                SprtVerdict::Continue => "undecided",
            };
            out.push_str(&format!(
                "SPRT ({:?} elo0={} elo1={} alpha={} beta={}): LLR {llr:.2} ({lower:.2}, {upper:.2}) {verdict}\n",
                sprt.model, sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
            ));
        }
        out.push_str("Time a move:");
        if self.times.is_empty() {
            out.push_str(" no per-move data in these results");
        }
        for name in names {
            if let Some(t) = self.times.get(name) {
                out.push_str(&format!(" {name} {:.1} ms (max {} ms, {} moves);", t.mean_ms(), t.max_ms, t.moves));
            }
        }
        if out.ends_with(';') {
            out.pop();
        }
        out.push('\n');
        for (reason, count) in &self.reasons {
            out.push_str(&format!("  {count:>5}  {reason}\n"));
        }
        out
    }

    /// The SPRT's log-likelihood ratio: from the game pairs once there are any.
    fn llr(&self, sprt: &Sprt) -> f64 {
        if self.pairs.pairs() > 0 { sprt.llr_pairs(&self.pairs) } else { sprt.llr(&self.tally) }
    }
}

/// The games a match's shard plays, in order: computed from their place in the
/// schedule, never listed, so a match of 10^9 rounds starts at once in constant memory.
#[derive(Clone, Copy, Debug)]
struct Schedule {
    /// Game pairs of the whole match.
    pairs: u64,
    /// The shard played.
    shard: Shard,
}

impl Schedule {
    /// The `k`-th game (from 0) of the shard: both games of each of its pairs in turn.
    fn game(self, k: u64) -> Option<u64> {
        let pair = (k / 2).checked_mul(self.shard.count)?.checked_add(self.shard.index)?;
        (pair < self.pairs).then(|| 2 * pair + k % 2)
    }

    /// The shard's games.
    fn len(self) -> u64 {
        self.shard.count_in(0..self.pairs).saturating_mul(2)
    }
}

/// What a game came to: a result, or nothing (interrupted).
enum GameEnd {
    Finished(Box<GameRecord>),
    Interrupted,
}

/// Runs a match; returns the summary text.
pub fn run(config: &MatchConfig, stop: Arc<AtomicBool>) -> Result<String> {
    fs::create_dir_all(config.out.join("games"))
        .with_context(|| format!("cannot create {}", config.out.join("games").display()))?;
    let results_path = config.out.join("results.jsonl");
    if !config.resume && results_path.exists() && fs::metadata(&results_path)?.len() > 0 {
        bail!("{} already holds results: add --resume to continue, or choose another --out", results_path.display());
    }
    // Each finished game is one whole line; a line torn by a kill is cut off here and
    // its game played again.
    let (mut results_file, recovered) = Journal::open(&results_path)?;
    if let Some(message) = &recovered.dropped {
        eprintln!("{message}");
    }
    // The lines again, read and checked as every reader of a match's files does
    // (against the settings it was started with, else this command's), the torn
    // one gone.
    let expected = results::Expected {
        names: Some([config.engines[0].name.clone(), config.engines[1].name.clone()]),
        schedule: Some((config.pairs, Shard { index: config.shard.0, count: config.shard.1 })),
        openings: match &config.opening_source {
            OpeningSource::File(_) => config.openings.file_openings().map(|list| list.len() as u64),
            OpeningSource::Random { .. } => None,
        },
    };
    let rows = results::read_expecting(&results_path, false, expected.clone())?.rows;
    // The results already there must be this match's: the same settings (if the
    // folder keeps them), and games of its schedule.
    let settings = settings::MatchSettings::of(config);
    let settings_path = config.out.join(settings::FILE);
    if !rows.is_empty() {
        match settings::read(&settings_path)? {
            Some(old) => {
                if let Some((option, was, now)) = old.difference(&settings, true) {
                    bail!(
                        "{}: the match in {} was started with {option} {was}, not {now}: --resume with the \
                         settings it was started with, or choose another --out",
                        settings_path.display(),
                        results_path.display()
                    );
                }
            }
            None => eprintln!(
                "{}: no match settings (a match started before they were kept): the results are checked \
                 against this command's schedule, and its settings kept from now on",
                settings_path.display()
            ),
        }
        // And against this command's schedule (its rounds may differ).
        results::check_rows(&rows, &expected, &results_path)?;
    }
    settings::write(&settings_path, &settings)?;
    let mut results: Vec<GameRecord> = rows.into_iter().map(|(_, r)| r).collect();
    let done: HashSet<u64> = results.iter().map(|r| r.game).collect();
    let schedule = Schedule { pairs: config.pairs, shard: Shard { index: config.shard.0, count: config.shard.1 } };
    let log: Option<Log> = match &config.debug_log {
        Some(path) => {
            Some(Arc::new(Mutex::new(File::create(path).with_context(|| format!("cannot create {}", path.display()))?)))
        }
        None => None,
    };

    let bar = if config.progress {
        ProgressBar::new(schedule.len().saturating_sub(done.len() as u64))
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise} < {eta_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let names = [config.engines[0].name.as_str(), config.engines[1].name.as_str()];
    let next = AtomicU64::new(0);
    let decided = Arc::new(AtomicBool::new(false));
    let (tx, rx) = crossbeam_channel::unbounded::<GameEnd>();
    let mut interrupted = false;
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let (done, next, stop, decided, log) = (&done, &next, stop.clone(), decided.clone(), log.clone());
            scope.spawn(move || {
                loop {
                    if stop.load(Ordering::Relaxed) || decided.load(Ordering::Relaxed) {
                        break;
                    }
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = schedule.game(k) else { break };
                    if done.contains(&game) {
                        continue;
                    }
                    let end = play_game(config, game, log.clone(), stop.clone());
                    if tx.send(end).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for end in rx {
            match end {
                GameEnd::Interrupted => interrupted = true,
                GameEnd::Finished(record) => {
                    results_file.append(&serde_json::to_string(&record)?)?;
                    results.push(*record);
                    let summary = Summary::of(&results);
                    let t = summary.tally;
                    bar.set_message(format!("{} vs {}: +{} ={} -{}", names[0], names[1], t.wins, t.draws, t.losses));
                    bar.inc(1);
                    if let Some(sprt) = &config.sprt
                        && sprt.verdict(summary.llr(sprt)) != SprtVerdict::Continue
                    {
                        decided.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    let mut report = Summary::of(&results).report(names, config.sprt.as_ref());
    if interrupted || stop.load(Ordering::Relaxed) {
        report.push_str(&format!(
            "interrupted: the games finished are in {}; the same command with --resume continues\n",
            results_path.display()
        ));
    }
    if decided.load(Ordering::Relaxed) {
        report.push_str("stopped: the SPRT is decided\n");
    }
    Ok(report)
}

/// Plays game number `game` of the schedule.
fn play_game(config: &MatchConfig, game: u64, log: Option<Log>, stop: Arc<AtomicBool>) -> GameEnd {
    if config.setup.kind.spec().hides_moves() {
        return phantom::play_game(config, game, log, stop);
    }
    let pair = game / 2;
    let (opening_index, opening) = match config.openings.of_pair(pair) {
        Ok(opening) => opening,
        Err(e) => {
            eprintln!("game {game}: {e}");
            return GameEnd::Interrupted;
        }
    };
    // Seat s is played by engine `who[s]` (0: A).
    let who = if game.is_multiple_of(2) { [0, 1] } else { [1, 0] };
    let names = [config.engines[who[0]].name.as_str(), config.engines[who[1]].name.as_str()];
    let mut referee = match config.setup.kind.new_referee(&config.rules, opening.start.as_deref()) {
        Ok(r) => r,
        Err(e) => unreachable_opening(&e),
    };
    let mut moves = Vec::new();
    let mut seats = Vec::new();
    for m in &opening.moves {
        let seat = referee.to_move().index();
        match referee.play(m) {
            Ok(text) => {
                moves.push(text);
                seats.push(seat);
            }
            Err(e) => unreachable_opening(&e),
        }
    }
    let finish =
        |referee: &dyn Refereed, moves: &[String], ending: Ending, note: Option<String>, plies: Vec<MoveStat>| {
            let score_first = ending.outcome.points_for(bitboards::Player::One);
            let score_a = if who[0] == 0 { score_first } else { 1.0 - score_first };
            let (ext, text) = referee.record(names, moves, &plies, &ending);
            let file = format!("games/{game:06}.{ext}");
            // Whole or not at all; its results line is written after it.
            let record = write_atomically(&config.out.join(&file), text.as_bytes()).ok().map(|_| file);
            GameEnd::Finished(Box::new(GameRecord {
                game,
                opening: opening_index,
                first: names[0].to_string(),
                second: names[1].to_string(),
                result: ending.outcome.result_text().to_string(),
                score_a,
                reason: ending.reason,
                score: ending.score,
                moves: moves.len(),
                note,
                record,
                plies,
            }))
        };
    let fault_ending = |seat: usize, fault: &Fault| Ending {
        outcome: Outcome::loss_of(bitboards::Player::from_index(seat)),
        reason: format!("{} {fault}", names[seat]),
        score: None,
    };

    let mut players = Vec::new();
    for seat in 0..2 {
        match Player::start(&config.engines[who[seat]], config.setup, config.control, log.clone(), stop.clone()) {
            Ok(p) => players.push(p),
            Err(Fault::Interrupted) => return GameEnd::Interrupted,
            Err(fault) => {
                let mut ending = fault_ending(seat, &fault);
                ending.reason = format!("{} could not start: {fault}", names[seat]);
                return finish(referee.as_ref(), &moves, ending, None, Vec::new());
            }
        }
    }
    let mut clocks = match config.control {
        TimeControl::Clock { base, .. } => [base, base],
        _ => [Duration::ZERO; 2],
    };
    let ggf_board = referee.ggf_board();
    let mut plies = Vec::new();
    let ending = loop {
        if stop.load(Ordering::Relaxed) {
            return GameEnd::Interrupted;
        }
        if let Some(ending) = referee.ending(moves.len()) {
            break ending;
        }
        let seat = referee.to_move().index();
        let allowed = match config.control {
            TimeControl::Clock { .. } => clocks[seat] + config.margin,
            TimeControl::PerMove(t) => t + config.margin,
            TimeControl::Nodes(_) => config.move_timeout,
        };
        // Whatever the engine wrote since its last answer (a `bestmove` written twice)
        // is dropped before it is asked again, off its clock.
        match players[seat].sync(Instant::now() + allowed) {
            Ok(()) => {}
            Err(Fault::Interrupted) => return GameEnd::Interrupted,
            Err(fault) => break fault_ending(seat, &fault),
        }
        let started = Instant::now();
        let request = MoveRequest {
            start: opening.start.as_deref(),
            ggf_board: &ggf_board,
            moves: &moves,
            seats: &seats,
            seat,
            control: config.control,
            clocks,
            deadline: started + allowed,
        };
        let reply = players[seat].genmove(&request);
        let used = started.elapsed();
        // Every request is timed, the one a fault or a resignation ends too.
        if !matches!(reply, Err(Fault::Interrupted)) {
            plies.push(MoveStat::of(moves.len(), seat, used, players[seat].search_info()));
        }
        let text = match reply {
            Err(Fault::Interrupted) => return GameEnd::Interrupted,
            Err(fault) => break fault_ending(seat, &fault),
            Ok(Reply::Resign) => {
                break Ending {
                    outcome: Outcome::loss_of(bitboards::Player::from_index(seat)),
                    reason: format!("{} resigned", names[seat]),
                    score: None,
                };
            }
            Ok(Reply::Move(text)) => text,
        };
        if used > allowed {
            break fault_ending(seat, &Fault::Timeout);
        }
        if let TimeControl::Clock { increment, .. } = config.control {
            clocks[seat] = clocks[seat].saturating_sub(used) + increment;
        }
        match referee.play(&text) {
            Ok(canonical) => {
                moves.push(canonical);
                seats.push(seat);
            }
            Err(why) => {
                let shown: String = text.chars().take(20).collect();
                break Ending {
                    outcome: Outcome::loss_of(bitboards::Player::from_index(seat)),
                    reason: format!("{} played an illegal move '{shown}': {why}", names[seat]),
                    score: None,
                };
            }
        }
    };
    let mut ending = ending;
    let mut note = None;
    if config.dead_stones == DeadStones::Ask && referee.has_dead_stones() && ending.reason.starts_with("two passes") {
        let theirs: Vec<Option<Vec<String>>> = players.iter_mut().map(Player::dead_stones).collect();
        let ours = referee.dead_vertices();
        match (&theirs[0], &theirs[1]) {
            (Some(a), Some(b)) if a == b => {
                if let Some(e) = referee.score_with_dead(a) {
                    if *a != ours {
                        note = Some(format!("engines agree on dead stones {a:?}; the arena saw {ours:?}"));
                    }
                    ending = e;
                }
            }
            (a, b) => {
                let say = |v: &Option<Vec<String>>| v.as_ref().map_or("no answer".to_string(), |v| format!("{v:?}"));
                note = Some(format!(
                    "dead stones: {} {}, {} {}; the arena's {ours:?} used",
                    names[0],
                    say(a),
                    names[1],
                    say(b)
                ));
            }
        }
    }
    for p in players {
        p.quit();
    }
    finish(referee.as_ref(), &moves, ending, note, plies)
}

/// Openings are checked when they are read; one that fails here is a bug.
fn unreachable_opening(e: &str) -> ! {
    panic!("an opening checked at load time failed: {e}")
}

/// `sente arena merge`: adds result files together (shards of one match) and returns
/// the merged results, sorted by game number. A game given twice (in one file or
/// two: a file given twice, or the results of two matches), or with its engines in
/// the wrong seats, is an error naming the file and line. A match's
/// `results.jsonl` whose folder keeps the match's settings is checked against them:
/// its games are its shard's, within the match's rounds, and the files' matches are
/// one (their settings agree but for the shard, each shard given once).
pub fn merge(paths: &[PathBuf]) -> Result<Vec<GameRecord>> {
    let mut by_game: BTreeMap<u64, (GameRecord, usize, PathBuf)> = BTreeMap::new();
    // The engines A and B, and where they were read from.
    let mut engines: Option<([String; 2], String)> = None;
    let mut match_settings: Option<(settings::MatchSettings, PathBuf)> = None;
    let mut shard_files: BTreeMap<u64, PathBuf> = BTreeMap::new();
    for path in paths {
        // Each file read and checked (against its settings, if beside it) as every
        // reader of a match's files does; then the files against each other.
        let file = results::read(path, false)?;
        let rows = file.rows;
        if let Some(settings_path) = settings::beside(path)
            && let Some(s) = file.settings
        {
            match &match_settings {
                Some((first, from)) => {
                    if let Some((option, was, now)) = first.difference(&s, false) {
                        bail!(
                            "{} and {} are not the settings of one match: {option} {was} and {now}",
                            from.display(),
                            settings_path.display()
                        );
                    }
                    if first.rounds != s.rounds {
                        bail!(
                            "{} and {} are not the settings of one match: --rounds {} and {}",
                            from.display(),
                            settings_path.display(),
                            first.rounds,
                            s.rounds
                        );
                    }
                }
                None => match_settings = Some((s.clone(), settings_path.clone())),
            }
            let shard = s.shard(&settings_path)?;
            if let Some((first, from)) = &match_settings
                && first.shard(from)?.count != shard.count
            {
                bail!("{}: shard {shard}, but {} is a shard {}", settings_path.display(), from.display(), first.shard);
            }
            if let Some(other) = shard_files.insert(shard.index, path.clone()) {
                bail!("shard {shard} is given twice: {} and {}", other.display(), path.display());
            }
            let names = s.names(&settings_path)?;
            if engines.is_none() {
                engines = Some((names, settings_path.display().to_string()));
            }
        }
        for (line, r) in rows {
            let at = format!("{} line {line}", path.display());
            let (names, from) = engines.get_or_insert_with(|| {
                let seats = [r.first.clone(), r.second.clone()];
                let names = if r.game.is_multiple_of(2) { seats } else { [seats[1].clone(), seats[0].clone()] };
                (names, at.clone())
            });
            let [first, second] = seats_of(r.game, names);
            if r.first != first || r.second != second {
                bail!(
                    "{at}: game {} is {} against {}, but the match's game {} is {first} (first) against {second} \
                     (as {from} gives its engines): results of different matches?",
                    r.game,
                    r.first,
                    r.second,
                    r.game
                );
            }
            if let Some((_, other_line, other)) = by_game.get(&r.game) {
                bail!(
                    "{at}: game {} is given twice (also {} line {other_line}): a file given twice, or the results \
                     of different matches?",
                    r.game,
                    other.display()
                );
            }
            by_game.insert(r.game, (r, line, path.clone()));
        }
    }
    Ok(by_game.into_values().map(|(r, _, _)| r).collect())
}

/// Writes results as JSON lines, whole or not at all.
pub fn write_results(path: &Path, results: &[GameRecord]) -> Result<()> {
    let mut text = String::new();
    for r in results {
        text.push_str(&serde_json::to_string(r)?);
        text.push('\n');
    }
    write_atomically(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: u64, plies: Vec<MoveStat>) -> GameRecord {
        GameRecord {
            game,
            opening: 0,
            first: if game.is_multiple_of(2) { "a" } else { "b" }.into(),
            second: if game.is_multiple_of(2) { "b" } else { "a" }.into(),
            result: "1-0".into(),
            score_a: 1.0,
            reason: "game over".into(),
            score: None,
            moves: 4,
            note: None,
            record: None,
            plies,
        }
    }

    fn stat(ply: usize, seat: usize, ms: u64) -> MoveStat {
        MoveStat { ply, seat, ms, ..MoveStat::default() }
    }

    #[test]
    fn the_schedule_is_each_pair_of_the_shard_twice_computed_not_listed() {
        let whole = Schedule { pairs: 3, shard: Shard::WHOLE };
        assert_eq!(
            (0..8).map(|k| whole.game(k)).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4, 5].map(Some).into_iter().chain([None, None]).collect::<Vec<_>>()
        );
        assert_eq!(whole.len(), 6);
        let shard = Schedule { pairs: 5, shard: Shard { index: 1, count: 2 } };
        assert_eq!((0..5).map(|k| shard.game(k)).collect::<Vec<_>>(), [Some(2), Some(3), Some(6), Some(7), None]);
        assert_eq!(shard.len(), 4);
        let huge = Schedule { pairs: 1_000_000_000, shard: Shard::WHOLE };
        assert_eq!(
            (huge.len(), huge.game(1_999_999_999), huge.game(2_000_000_000)),
            (2_000_000_000, Some(1_999_999_999), None)
        );
        assert_eq!(Schedule { pairs: 1, shard: Shard::WHOLE }.game(u64::MAX), None);
    }

    #[test]
    fn a_moves_annotation_is_cutechess_like() {
        let full = MoveStat { ply: 3, seat: 1, ms: 186, score: Some(4.75), depth: Some(5), nodes: Some(965_675) };
        assert_eq!(full.annotation(), "+4.75/5 0.186s, 965675 nodes");
        assert_eq!(stat(0, 0, 1234).annotation(), "1.234s");
        assert_eq!(MoveStat { depth: Some(7), ..stat(0, 0, 5) }.annotation(), "depth 7 0.005s");
        assert_eq!(MoveStat { score: Some(-0.4), ..stat(0, 0, 5) }.annotation(), "-0.40 0.005s");
    }

    #[test]
    fn the_summary_gives_each_engines_time_a_move_by_seat() {
        // Game 0: a first, b second; game 1: b first, a second.
        let results = [
            row(0, vec![stat(0, 0, 100), stat(1, 1, 10), stat(2, 0, 300)]),
            row(1, vec![stat(0, 0, 30), stat(1, 1, 200)]),
            row(2, vec![]),
        ];
        let summary = Summary::of(&results);
        assert_eq!(summary.times["a"], MoveTimes { moves: 3, total_ms: 600, max_ms: 300 });
        assert_eq!(summary.times["b"], MoveTimes { moves: 2, total_ms: 40, max_ms: 30 });
        let report = summary.report(["a", "b"], None);
        assert!(report.contains("Time a move: a 200.0 ms (max 300 ms, 3 moves); b 20.0 ms (max 30 ms, 2 moves)\n"));
        let none = Summary::of(&[row(0, vec![])]).report(["a", "b"], None);
        assert!(none.contains("Time a move: no per-move data in these results\n"), "{none}");
    }

    #[test]
    fn results_without_per_move_data_are_still_read() {
        let line =
            r#"{"game":0,"opening":0,"first":"a","second":"b","result":"1-0","score_a":1.0,"reason":"x","moves":4}"#;
        let r: GameRecord = serde_json::from_str(line).expect("an older results line");
        assert!(r.plies.is_empty());
        assert!(!serde_json::to_string(&r).expect("JSON").contains("plies"));
    }
}
