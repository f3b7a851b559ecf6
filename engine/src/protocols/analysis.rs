//! `sente analysis`: KataGo's JSON analysis engine protocol, so that KaTrain and the
//! other clients of KataGo's analysis engine analyse Go positions (boards up to 9×9)
//! with sente's Monte-Carlo search.
//!
//! Each input line is one JSON query; each answer is one JSON line. A query gives a
//! game (`initialStones`, `moves`, `rules`, `komi`, board size) and the turns to
//! analyse (`analyzeTurns`, by default the last); every turn gets its own response
//! (`turnNumber`), preceded by partial ones (`isDuringSearch: true`) every
//! `reportDuringSearchEvery` seconds when asked. Special actions (`query_version`,
//! `query_models`, `clear_cache`, `terminate`, `terminate_all`) are answered at once,
//! also while a search runs. Bad input gets KataGo's error forms (`{"error": …}`, with
//! `field` and `id` when known) and the engine goes on; settings sente cannot honour
//! get a `{"warning": …}` and the query goes on. docs/go.md describes every field
//! and how each value is computed.
//!
//! Threads: the stdin reader ([`io::spawn_reader`]) feeds the loop here, which parses
//! queries, answers actions and keeps the turns waiting in a priority queue (highest
//! `priority` first, then in arrival order); one worker thread analyses one turn at a
//! time and writes its responses; the writer thread ([`io::spawn_writer`]) prints. At
//! the end of input the turns waiting are analysed before the engine exits, unless
//! `-quit-without-waiting` was given.

use std::collections::{BTreeMap, BinaryHeap};
use std::io::{BufReader, Write};
use std::ops::RangeInclusive;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::Result;
use bitboards::go::{Board, Color, Game, MAX_SIZE, Move, Point, Superko};
use crossbeam_channel::{Receiver, Sender, never, select, unbounded};
use search::go::analysis::{Analyser, AnalysisData, PV_LENGTH, Score, Wanted};
use search::go::mcts::{Mcts, MctsResult, MctsSettings};
use search::go::player::{Progress, search_in_steps};
use search::{Limits, StopFlag};
use serde_json::{Map, Value, json};

use crate::io::{self, Input, Output};

/// `sente analysis`'s command line.
#[derive(clap::Args, Debug)]
pub struct AnalysisArgs {
    /// Search threads of each analysis (threads sharing one MCTS tree).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Search memory in MiB (the MCTS tree's node budget).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// Visits (playouts) of a query that gives no maxVisits.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=MAX_VISITS))]
    visits: u64,
    /// KataGo's own arguments, as KaTrain passes them (`-model FILE -config FILE
    /// -override-config TEXT`, also `-human-model FILE`, `-analysis-threads N`):
    /// accepted and ignored with a note on stderr; `-quit-without-waiting` is
    /// honoured. sente's options go before them.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "KATAGO_ARGS")]
    katago_args: Vec<String>,
}

/// The most visits a query may ask for (KataGo's bound, 2^50).
const MAX_VISITS: u64 = 1 << 50;

/// Seed of every search: with one thread the same query gets the same answer (the
/// settling playouts behind the scores and ownership have their own fixed seed,
/// [`search::go::analysis::SETTLING_SEED`]).
const SEED: u64 = 1;

/// Speaks the protocol on stdin/stdout until the end of input.
pub fn run(args: &AnalysisArgs) -> Result<()> {
    let quit_without_waiting = read_katago_args(&args.katago_args, &mut std::io::stderr().lock())?;
    let defaults = Defaults { visits: args.visits, threads: args.threads.into(), hash_mb: args.hash as usize };
    let input = io::spawn_reader(BufReader::new(std::io::stdin()));
    let (out, writer) = io::spawn_writer(std::io::stdout());
    eprintln!("sente analysis: Started, ready to begin handling requests");
    Server::new(defaults, out).serve(input, quit_without_waiting);
    writer.join().map_err(|_| anyhow::anyhow!("the output thread failed"))?;
    Ok(())
}

/// Reads KataGo's command-line arguments: notes on `note` what is ignored, and returns
/// whether `-quit-without-waiting` was given.
fn read_katago_args(args: &[String], note: &mut dyn Write) -> Result<bool> {
    let mut quit_without_waiting = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "-model" | "-human-model" | "-config" | "-override-config" | "-analysis-threads" => {
                let Some(value) = rest.next() else {
                    writeln!(note, "sente analysis: ignoring KataGo's {arg} (without its value)")?;
                    continue;
                };
                writeln!(
                    note,
                    "sente analysis: ignoring KataGo's {arg} {value}: sente searches without a neural net or config file; each query's fields (and --visits, --threads, --hash) set the search"
                )?;
            }
            "-quit-without-waiting" => quit_without_waiting = true,
            _ if arg.starts_with("--") => writeln!(
                note,
                "sente analysis: ignoring the argument {arg} (sente's own options go before KataGo's arguments)"
            )?,
            _ => writeln!(note, "sente analysis: ignoring the argument {arg}")?,
        }
    }
    Ok(quit_without_waiting)
}

/// What a query gets when it says nothing (from the command line).
#[derive(Clone, Copy, Debug)]
struct Defaults {
    visits: u64,
    threads: usize,
    hash_mb: usize,
}

/// Whose point of view the numbers of a response take (`reportAnalysisWinratesAs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Perspective {
    Black,
    White,
    SideToMove,
}

/// Points (and the pass) the root of a search may not play, for one colour
/// (`avoidMoves`, `allowMoves`).
#[derive(Clone, Copy, Debug, Default)]
struct Avoid {
    points: u128,
    pass: bool,
}

/// How the turns of one query are searched and reported.
#[derive(Clone, Debug)]
struct Settings {
    visits: u64,
    max_time: Option<Duration>,
    report_every: Option<Duration>,
    perspective: Perspective,
    ownership: bool,
    moves_ownership: bool,
    policy: bool,
    pv_length: usize,
    threads: usize,
    hash_mb: usize,
    /// By colour index (black 0, white 1).
    avoid: [Avoid; 2],
}

/// One turn of a query to analyse.
struct Job {
    id: String,
    turn: usize,
    priority: i64,
    /// Order of arrival, the tie-break between equal priorities.
    seq: u64,
    /// The query's game; the position searched is the one before move `turn`.
    line: Arc<GameLine>,
    settings: Arc<Settings>,
    stop: StopFlag,
}

impl PartialEq for Job {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}
impl Eq for Job {}
impl PartialOrd for Job {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Job {
    /// Higher priority first, then earlier arrival (the largest job is popped first).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.priority.cmp(&other.priority).then(other.seq.cmp(&self.seq))
    }
}

/// The turn being analysed.
struct Running {
    id: String,
    turn: usize,
    stop: StopFlag,
}

/// The protocol loop: queries in, jobs to the worker, actions answered at once.
struct Server {
    defaults: Defaults,
    out: Output,
    queue: BinaryHeap<Job>,
    seq: u64,
    running: Option<Running>,
    jobs: Option<Sender<Job>>,
    done: Receiver<()>,
    worker: Option<JoinHandle<()>>,
    /// The rule substitutions already said on stderr (each once; at most
    /// [`MAX_NOTED_RULES`]).
    noted_rules: std::collections::HashSet<String>,
}

/// Rule substitutions said on stderr, each once: a session's handful of rulesets.
const MAX_NOTED_RULES: usize = 64;

impl Server {
    /// A server writing to `out`, with its worker thread started.
    fn new(defaults: Defaults, out: Output) -> Server {
        let (jobs, todo) = unbounded::<Job>();
        let (finished, done) = unbounded();
        let worker_out = out.clone();
        let worker = std::thread::Builder::new()
            .name("analysis".into())
            .spawn(move || {
                for job in todo {
                    // A fault in one analysis costs its answer, not the engine.
                    let analysed = std::panic::catch_unwind(AssertUnwindSafe(|| analyse(&job, &worker_out)));
                    if analysed.is_err() {
                        let message = format!("internal error: the analysis of turn {} failed", job.turn);
                        worker_out.line(json!({"id": job.id, "turnNumber": job.turn, "error": message}).to_string());
                    }
                    if finished.send(()).is_err() {
                        break;
                    }
                }
            })
            .expect("cannot start the analysis thread");
        Server {
            defaults,
            out,
            queue: BinaryHeap::new(),
            seq: 0,
            running: None,
            jobs: Some(jobs),
            done,
            worker: Some(worker),
            noted_rules: std::collections::HashSet::new(),
        }
    }

    /// Serves until input ends and every turn waiting is answered (or, with
    /// `quit_without_waiting`, stopped).
    fn serve(mut self, mut input: Receiver<Input>, quit_without_waiting: bool) {
        let mut open = true;
        loop {
            if self.running.is_none() {
                self.start_next();
            }
            if !open && self.running.is_none() {
                break;
            }
            select! {
                recv(input) -> item => match item {
                    Ok(Input::Line(line)) => self.handle_line(&line),
                    Ok(Input::TooLong { length, .. }) => self.out.line(general_error(&format!(
                        "could not parse input line as json request: a line of {length} bytes is longer than sente reads ({} bytes)",
                        io::MAX_LINE
                    ))),
                    Ok(Input::Eof) | Err(_) => {
                        open = false;
                        input = never();
                        if quit_without_waiting {
                            self.terminate(|_, _| true);
                        }
                    }
                },
                recv(self.done) -> finished => {
                    self.running = None;
                    if finished.is_err() {
                        // The worker is gone; nothing more can be analysed.
                        break;
                    }
                }
            }
        }
        // The worker ends when its channel closes.
        self.jobs = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }

    /// Hands the first job of the queue to the worker.
    fn start_next(&mut self) {
        let (Some(jobs), Some(job)) = (&self.jobs, self.queue.pop()) else { return };
        self.running = Some(Running { id: job.id.clone(), turn: job.turn, stop: job.stop.clone() });
        if jobs.send(job).is_err() {
            self.running = None;
        }
    }

    /// Answers one input line: an action at once, a query by queueing its turns.
    fn handle_line(&mut self, line: &str) {
        let line = line.trim();
        if line.is_empty() {
            return;
        }
        let value: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                return self
                    .out
                    .line(general_error(&format!("{e} - could not parse input line as json request: {line}")));
            }
        };
        let Value::Object(query) = value else {
            return self
                .out
                .line(general_error(&format!("Request line was valid json but was not an object, ignoring: {value}")));
        };
        let Some(id) = query.get("id").and_then(Value::as_str).map(str::to_string) else {
            return self.out.line(general_error("Request must have a string \"id\" field"));
        };
        if let Some(action) = query.get("action").and_then(Value::as_str) {
            let action = action.to_string();
            return self.action(&action, &id, query);
        }
        match parse_query(&query, &self.defaults) {
            Err(e) => self.out.line(field_error(&id, &e.field, &e.message)),
            Ok(parsed) => {
                for (field, message) in &parsed.warnings {
                    self.out.line(json!({"id": id, "field": field, "warning": message}).to_string());
                    // As KataGo does with rules its net cannot play, the query goes on
                    // under the rules named; a client may log warning lines only at
                    // debug level (KaTrain does), so the substitution is said on stderr
                    // too, once a ruleset, where KaTrain's console shows it.
                    if field == "rules"
                        && self.noted_rules.len() < MAX_NOTED_RULES
                        && self.noted_rules.insert(message.clone())
                    {
                        eprintln!(
                            "sente analysis: warning: {message}: sente's search scores by area only (choose chinese rules to be analysed under the rules asked for)"
                        );
                    }
                }
                let settings = Arc::new(parsed.settings);
                for (turn, priority) in parsed.turns {
                    self.seq += 1;
                    let job = Job {
                        id: id.clone(),
                        turn,
                        priority,
                        seq: self.seq,
                        line: parsed.line.clone(),
                        settings: settings.clone(),
                        stop: StopFlag::new(),
                    };
                    self.queue.push(job);
                }
            }
        }
    }

    /// Answers a special action query.
    fn action(&mut self, action: &str, id: &str, mut query: Map<String, Value>) {
        let turns = match query.get("turnNumbers") {
            None => None,
            Some(v) => match turn_list(v) {
                Some(turns) => Some(turns),
                None => {
                    let message = "If provided, must be an array of integers indicating turns to terminate";
                    return self.out.line(field_error(id, "turnNumbers", message));
                }
            },
        };
        let for_turn = move |turn: usize| turns.as_ref().is_none_or(|t| t.contains(&turn));
        match action {
            "query_version" => {
                query.insert("version".into(), env!("CARGO_PKG_VERSION").into());
                query.insert("git_hash".into(), "<omitted>".into());
            }
            // sente runs no neural net; no model is loaded.
            "query_models" => {
                query.insert("models".into(), json!([]));
            }
            // Nothing is cached between queries.
            "clear_cache" => {}
            "terminate" => {
                let Some(target) = query.get("terminateId").and_then(Value::as_str).map(str::to_string) else {
                    let message = "Requests for a terminate action must have a string \"terminateId\" field";
                    return self.out.line(field_error(id, "terminateId", message));
                };
                self.terminate(|job_id, turn| job_id == target && for_turn(turn));
            }
            "terminate_all" => self.terminate(|_, turn| for_turn(turn)),
            _ => {
                let message = "'action' field must be 'query_version' or 'query_models' or 'clear_cache' or \
                               'terminate' or 'terminate_all'";
                return self.out.line(field_error(id, "action", message));
            }
        }
        self.out.line(Value::Object(query).to_string());
    }

    /// Ends the turns for which `which(id, turn)` holds: those waiting get a response
    /// without results now; the running one is stopped and reports what it found.
    fn terminate(&mut self, which: impl Fn(&str, usize) -> bool) {
        let (mut ended, kept): (Vec<Job>, Vec<Job>) =
            std::mem::take(&mut self.queue).into_vec().into_iter().partition(|job| which(&job.id, job.turn));
        self.queue = kept.into();
        ended.sort_by_key(|job| job.seq);
        for job in ended {
            self.out.line(no_results(&job.id, job.turn));
        }
        if let Some(running) = &self.running
            && which(&running.id, running.turn)
        {
            running.stop.stop();
        }
    }
}

/// `{"error": …}` for input that is not a query with an id.
fn general_error(message: &str) -> String {
    json!({ "error": message }).to_string()
}

/// `{"error": …, "field": …, "id": …}` for a field of a query.
fn field_error(id: &str, field: &str, message: &str) -> String {
    json!({"id": id, "field": field, "error": message}).to_string()
}

/// The final response of a turn that was terminated before any search.
fn no_results(id: &str, turn: usize) -> String {
    json!({"id": id, "turnNumber": turn, "isDuringSearch": false, "noResults": true}).to_string()
}

/// A list of turn numbers, or `None` if `value` is not an array of non-negative integers.
fn turn_list(value: &Value) -> Option<Vec<usize>> {
    value.as_array()?.iter().map(|v| v.as_u64().and_then(|n| usize::try_from(n).ok())).collect()
}

// ---------------------------------------------------------------------------------
// Reading a query
// ---------------------------------------------------------------------------------

/// Why a query is refused: the field and KataGo's kind of message.
#[derive(Debug, PartialEq)]
struct FieldError {
    field: String,
    message: String,
}

/// Refuses a query for its `field`.
fn refuse<T>(field: &str, message: impl Into<String>) -> Result<T, FieldError> {
    Err(FieldError { field: field.to_string(), message: message.into() })
}

/// A query's game: the position before its first move and its moves, every one
/// checked legal when the query was read. A turn's position is replayed from it when
/// its search starts, so that a query of many turns holds one game, not one a turn.
struct GameLine {
    start: Game,
    moves: Vec<(Color, Move)>,
}

impl GameLine {
    /// The position before move `turn` (0: the start).
    fn at(&self, turn: usize) -> Game {
        let mut game = self.start.clone();
        for &(color, m) in &self.moves[..turn.min(self.moves.len())] {
            // Legal: the query was refused otherwise.
            let _ = game.play(color, m);
        }
        game
    }
}

/// A query read: its game, its turns (number, priority), settings and warnings.
struct Query {
    line: Arc<GameLine>,
    turns: Vec<(usize, i64)>,
    settings: Settings,
    warnings: Vec<(String, String)>,
}

/// The fields of an analysis query KataGo knows; any other gets a warning.
const KNOWN_FIELDS: &[&str] = &[
    "id",
    "action",
    "terminateId",
    "turnNumbers",
    "boardXSize",
    "boardYSize",
    "initialStones",
    "moves",
    "initialPlayer",
    "analyzeTurns",
    "priorities",
    "rules",
    "komi",
    "whiteHandicapBonus",
    "overrideSettings",
    "maxVisits",
    "analysisPVLen",
    "rootFpuReductionMax",
    "rootPolicyTemperature",
    "includeMovesOwnership",
    "includeMovesOwnershipStdev",
    "includeOwnership",
    "includeOwnershipStdev",
    "includePolicy",
    "includePVVisits",
    "includeNoResultValue",
    "reportDuringSearchEvery",
    "firstReportDuringSearchAfter",
    "priority",
    "allowMoves",
    "avoidMoves",
];

/// A field that `read` reads and that lies in `range`, or `None` when absent.
fn ranged_field<T: PartialOrd>(
    q: &Map<String, Value>,
    field: &str,
    range: RangeInclusive<T>,
    read: fn(&Value) -> Option<T>,
    message: &str,
) -> Result<Option<T>, FieldError> {
    match q.get(field).map(|v| read(v).filter(|x| range.contains(x))) {
        None => Ok(None),
        Some(Some(x)) => Ok(Some(x)),
        Some(None) => refuse(field, message),
    }
}

/// An integer field within `min..=max`, or `None` when absent.
fn int_field(
    q: &Map<String, Value>,
    field: &str,
    min: i64,
    max: i64,
    message: &str,
) -> Result<Option<i64>, FieldError> {
    ranged_field(q, field, min..=max, Value::as_i64, message)
}

/// A number field within `min..=max`, or `None` when absent.
fn number_field(
    q: &Map<String, Value>,
    field: &str,
    min: f64,
    max: f64,
    message: &str,
) -> Result<Option<f64>, FieldError> {
    ranged_field(q, field, min..=max, Value::as_f64, message)
}

/// A boolean field, false when absent.
fn bool_field(q: &Map<String, Value>, field: &str) -> Result<bool, FieldError> {
    match q.get(field) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => refuse(field, "Must be a boolean"),
    }
}

/// `B`/`W` (also `black`/`white`, any case).
fn parse_color(text: &str) -> Option<Color> {
    match text.trim().to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::BLACK),
        "w" | "white" => Some(Color::WHITE),
        _ => None,
    }
}

/// A location: a GTP vertex (`D4`), `pass`, or KataGo's `(x,y)` (0-based, from the
/// top left).
fn parse_location(text: &str, size: usize) -> Option<Move> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pss") {
        return Some(Move::Pass);
    }
    if let Some(pair) = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        let (x, y) = pair.split_once(',')?;
        let (x, y): (usize, usize) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
        return (x < size && y < size).then(|| Move::Play(Point::new(y, x)));
    }
    Move::from_gtp(t, size).ok()
}

/// An array of `[player, location]` pairs (`moves`, `initialStones`).
fn parse_moves(value: &Value, field: &str, size: usize, allow_pass: bool) -> Result<Vec<(Color, Move)>, FieldError> {
    let shape = "Must be an array of pairs of the form: [\"b\" or \"w\", GTP board vertex]";
    let Some(items) = value.as_array() else { return refuse(field, shape) };
    let mut moves = Vec::with_capacity(items.len());
    for item in items {
        let Some([player, location]) = item.as_array().map(Vec::as_slice) else { return refuse(field, shape) };
        let (Some(player), Some(location)) = (player.as_str(), location.as_str()) else { return refuse(field, shape) };
        let Some(color) = parse_color(player) else {
            return refuse(field, format!("Could not parse player: {player}"));
        };
        match parse_location(location, size) {
            Some(Move::Pass) if !allow_pass => {
                return refuse(field, format!("Could not parse board location: {location}"));
            }
            Some(m) => moves.push((color, m)),
            None => return refuse(field, format!("Could not parse board location: {location}")),
        }
    }
    Ok(moves)
}

/// Reads an analysis query into the positions of its turns and how to search them.
fn parse_query(q: &Map<String, Value>, defaults: &Defaults) -> Result<Query, FieldError> {
    let mut warnings: Vec<(String, String)> = Vec::new();
    let mut warn = |field: &str, message: String| warnings.push((field.to_string(), message));

    let size_message =
        format!("Must provide an integer from 2 to {MAX_SIZE}: sente plays Go on boards up to {MAX_SIZE}x{MAX_SIZE}");
    let max = MAX_SIZE as i64;
    let (Some(x), Some(y)) =
        (int_field(q, "boardXSize", 2, max, &size_message)?, int_field(q, "boardYSize", 2, max, &size_message)?)
    else {
        let missing = if q.contains_key("boardXSize") { "boardYSize" } else { "boardXSize" };
        return refuse(missing, size_message);
    };
    if x != y {
        return refuse("boardYSize", "Must equal boardXSize: sente plays Go on square boards only");
    }
    let size = x as usize;

    let stones = match q.get("initialStones") {
        None => Vec::new(),
        Some(v) => parse_moves(v, "initialStones", size, false)?,
    };
    let moves = match q.get("moves") {
        None => return refuse("moves", "Must specify an array of [player,location] pairs"),
        Some(v) => parse_moves(v, "moves", size, true)?,
    };
    let initial_player = match q.get("initialPlayer") {
        None => None,
        Some(v) => match v.as_str().and_then(parse_color) {
            Some(c) => Some(c),
            None => return refuse("initialPlayer", "Must be \"b\" or \"w\""),
        },
    };

    let turns: Vec<usize> = match q.get("analyzeTurns") {
        None => vec![moves.len()],
        Some(v) => {
            let Some(turns) = turn_list(v) else {
                return refuse("analyzeTurns", "Must specify an array of integers indicating turns to analyze");
            };
            if let Some(bad) = turns.iter().find(|&&t| t > moves.len()) {
                return refuse("analyzeTurns", format!("Invalid turn number: {bad}"));
            }
            turns
        }
    };
    let priorities: Option<Vec<i64>> = match q.get("priorities") {
        None => None,
        Some(v) => {
            let Some(list) = v.as_array().and_then(|a| a.iter().map(Value::as_i64).collect::<Option<Vec<i64>>>())
            else {
                return refuse("priorities", "Must specify an array of integers indicating priorities");
            };
            if !q.contains_key("analyzeTurns") {
                return refuse("priorities", "Can only specify when also specifying analyzeTurns");
            }
            if list.len() != turns.len() {
                return refuse("priorities", "Must be of matching length to analyzeTurns");
            }
            Some(list)
        }
    };
    if q.contains_key("priority") && priorities.is_some() {
        return refuse("priority", "Cannot specify both priority and priorities");
    }
    let bound = 1i64 << 62;
    let priority = int_field(q, "priority", -bound, bound, "Must be a number between -2^62 and 2^62")?.unwrap_or(0);

    let rules_message = "Must specify rules string, such as \"chinese\" or \"tromp-taylor\", or a JSON object with detailed rules parameters.";
    let Some(given @ (Value::String(_) | Value::Object(_))) = q.get("rules") else {
        return refuse("rules", rules_message);
    };
    let mut rules = Rules::parse(given).or_else(|e| refuse("rules", e))?;
    if let Some(instead) = rules.make_playable() {
        let given = given.as_str().map_or_else(|| given.to_string(), str::to_string);
        warn("rules", format!("Rules {given} not supported by sente, using {instead} instead"));
    }
    let komi_message = "Must be a integer or half-integer from -400.0 to 400.0";
    let komi = match number_field(q, "komi", -400.0, 400.0, komi_message)? {
        Some(k) if (2.0 * k).fract() != 0.0 => return refuse("komi", komi_message),
        Some(k) => k,
        None => rules.komi,
    };
    match q.get("whiteHandicapBonus") {
        None => {}
        Some(v) => match v.as_str().map(HandicapBonus::parse) {
            Some(Some(bonus)) => rules.handicap_bonus = bonus,
            Some(None) => return refuse("whiteHandicapBonus", "Must be \"0\", \"N\" or \"N-1\""),
            None => return refuse("whiteHandicapBonus", "Must be a string"),
        },
    }

    let mut settings = Settings {
        visits: defaults.visits,
        max_time: None,
        report_every: None,
        perspective: Perspective::Black,
        ownership: false,
        moves_ownership: false,
        policy: false,
        pv_length: PV_LENGTH,
        threads: defaults.threads,
        hash_mb: defaults.hash_mb,
        avoid: [Avoid::default(); 2],
    };
    if let Some(v) = q.get("overrideSettings") {
        let Some(overrides) = v.as_object() else { return refuse("overrideSettings", "Must be an object") };
        let ignored = apply_overrides(overrides, &mut settings)?;
        if !ignored.is_empty() {
            let message =
                format!("sente ignores these settings (its search has nothing they set): {}", ignored.join(","));
            warn("overrideSettings", message);
        }
    }
    if let Some(v) = int_field(q, "maxVisits", 1, MAX_VISITS as i64, "Must be an integer from 1 to 2^50")? {
        settings.visits = v as u64;
    }
    if let Some(n) = int_field(q, "analysisPVLen", 1, 1000, "Must be an integer from 1 to 1000")? {
        settings.pv_length = n as usize;
    }
    for (field, min, max) in [("rootFpuReductionMax", 0.0, 2.0), ("rootPolicyTemperature", 0.01, 100.0)] {
        if number_field(q, field, min, max, &format!("Must be a number from {min:.1} to {max:.1}"))?.is_some() {
            warn(field, format!("sente ignores {field}: its search has no policy network"));
        }
    }
    settings.ownership = bool_field(q, "includeOwnership")?;
    settings.moves_ownership = bool_field(q, "includeMovesOwnership")?;
    settings.policy = bool_field(q, "includePolicy")?;
    for field in ["includeOwnershipStdev", "includeMovesOwnershipStdev", "includePVVisits", "includeNoResultValue"] {
        if bool_field(q, field)? {
            warn(field, format!("sente does not report what {field} asks for; its responses leave it out"));
        }
    }
    let seconds = "Must be number of seconds from 0.001 to 1000000.0";
    if let Some(every) = number_field(q, "reportDuringSearchEvery", 0.001, 1e6, seconds)? {
        settings.report_every = Some(Duration::from_secs_f64(every));
    }
    if number_field(q, "firstReportDuringSearchAfter", 0.001, 1e6, seconds)?.is_some() {
        let message = "sente ignores firstReportDuringSearchAfter: it reports every reportDuringSearchEvery seconds";
        warn("firstReportDuringSearchAfter", message.into());
    }
    let (avoid, deeper) = parse_avoid(q, size)?;
    settings.avoid = avoid;
    if let Some(field) = deeper {
        warn(field, "sente applies it at the root only (as untilDepth 1): its search cannot bar moves deeper".into());
    }
    for field in q.keys().filter(|k| !KNOWN_FIELDS.contains(&k.as_str())) {
        warn(field, "Unexpected or unused field, do you have a typo?".into());
    }

    // The positions: the initial stones, then each move.
    // The one rule for setup stones, as GTP `loadsgf` and the UGI+ position text apply it.
    let placed = stones.iter().filter_map(|&(color, m)| match m {
        Move::Play(p) => Some((color, p)),
        Move::Pass => None,
    });
    let mut board = match Board::with_stones(size, placed) {
        Ok(board) => board,
        Err(e) => return refuse("initialStones", format!("The stones cannot stand: {e}")),
    };
    let handicap = handicap_stones(&board, &moves);
    let first = if handicap > 0 { Color::WHITE } else { Color::BLACK };
    board.set_to_move(initial_player.or(moves.first().map(|m| m.0)).unwrap_or(first));
    let start = Game::new(board, komi + rules.handicap_bonus.points(handicap), rules.superko);
    let mut game = start.clone();
    for (turn, &(color, m)) in moves.iter().enumerate() {
        if let Err(e) = game.play(color, m) {
            return refuse("moves", format!("Illegal move {turn}: {} ({e})", m.to_gtp(size)));
        }
    }
    // Each turn once, in the order of the game (as KataGo queues them), with its priority.
    let chosen: BTreeMap<usize, i64> =
        turns.iter().enumerate().map(|(i, &t)| (t, priorities.as_ref().map_or(priority, |p| p[i]))).collect();
    let line = Arc::new(GameLine { start, moves });
    Ok(Query { line, turns: chosen.into_iter().collect(), settings, warnings })
}

/// Applies the `overrideSettings` sente knows to `settings` and returns the names of
/// the others.
fn apply_overrides(overrides: &Map<String, Value>, settings: &mut Settings) -> Result<Vec<String>, FieldError> {
    let mut ignored = Vec::new();
    for (key, value) in overrides {
        // KataGo reads every value as text: numbers may come as strings.
        let text = value.as_str().map_or_else(|| value.to_string(), str::to_string);
        let number = text.trim().parse::<f64>().ok().filter(|x| x.is_finite());
        let bad = |what: &str| refuse("overrideSettings", format!("Could not set settings: {key}: {what}"));
        match key.as_str() {
            "maxVisits" | "maxPlayouts" => match number.filter(|&v| v >= 1.0 && v <= MAX_VISITS as f64) {
                Some(v) => settings.visits = v as u64,
                None => return bad("must be an integer from 1 to 2^50"),
            },
            "maxTime" => match number.filter(|&t| t > 0.0) {
                Some(t) if t < 1e9 => settings.max_time = Some(Duration::from_secs_f64(t)),
                Some(_) => settings.max_time = None,
                None => return bad("must be a positive number of seconds"),
            },
            "numSearchThreads" | "numSearchThreadsPerAnalysisThread" => {
                match number.filter(|&n| (1.0..=256.0).contains(&n) && n.fract() == 0.0) {
                    Some(n) => settings.threads = n as usize,
                    None => return bad("must be an integer from 1 to 256"),
                }
            }
            "analysisPVLen" => match number.filter(|&n| (1.0..=1000.0).contains(&n) && n.fract() == 0.0) {
                Some(n) => settings.pv_length = n as usize,
                None => return bad("must be an integer from 1 to 1000"),
            },
            "reportAnalysisWinratesAs" => {
                settings.perspective = match text.trim().to_ascii_uppercase().as_str() {
                    "BLACK" | "B" => Perspective::Black,
                    "WHITE" | "W" => Perspective::White,
                    "SIDETOMOVE" => Perspective::SideToMove,
                    _ => return bad("must be BLACK, WHITE or SIDETOMOVE"),
                }
            }
            _ => ignored.push(key.clone()),
        }
    }
    Ok(ignored)
}

/// Reads `avoidMoves` or `allowMoves` into what the root of each colour may not play;
/// also names the field when an entry asks for more than the root (`untilDepth` > 1).
fn parse_avoid(q: &Map<String, Value>, size: usize) -> Result<([Avoid; 2], Option<&'static str>), FieldError> {
    let mut avoid = [Avoid::default(); 2];
    let (field, allow) = match (q.get("avoidMoves"), q.get("allowMoves")) {
        (None, None) => return Ok((avoid, None)),
        (Some(_), Some(_)) => return refuse("allowMoves", "Cannot specify both allowMoves and avoidMoves"),
        (Some(_), None) => ("avoidMoves", false),
        (None, Some(_)) => ("allowMoves", true),
    };
    let shape = "Must be a list of dicts with subfields 'player', 'moves', 'untilDepth'";
    let Some(entries) = q.get(field).and_then(Value::as_array) else { return refuse(field, shape) };
    if allow && entries.len() > 2 {
        return refuse(field, "Currently allowMoves only allows at most one entry per player");
    }
    let mut deeper = None;
    let mut allowed_for = [false; 2];
    for entry in entries {
        let Some(entry) = entry.as_object() else { return refuse(field, shape) };
        let (Some(player), Some(moves), Some(_)) = (entry.get("player"), entry.get("moves"), entry.get("untilDepth"))
        else {
            return refuse(field, shape);
        };
        let Some(color) = player.as_str().and_then(parse_color) else {
            return refuse("player", "Must be \"b\" or \"w\"");
        };
        let vertices = "Must be an array of GTP board vertices";
        let Some(list) = moves.as_array() else { return refuse("moves", vertices) };
        let mut points = 0u128;
        let mut pass = false;
        for item in list {
            let Some(text) = item.as_str() else { return refuse("moves", vertices) };
            match parse_location(text, size) {
                Some(Move::Play(p)) => points |= p.bit(),
                Some(Move::Pass) => pass = true,
                None => return refuse("moves", format!("Could not parse board location: {text}")),
            }
        }
        let Some(depth) = int_field(entry, "untilDepth", 1, 1_000_000_000, "Must be a positive integer")? else {
            return refuse(field, shape);
        };
        if depth > 1 {
            deeper = Some(field);
        }
        let a = &mut avoid[color.index()];
        if allow {
            if std::mem::replace(&mut allowed_for[color.index()], true) {
                return refuse(field, "Cannot specify allowMoves more than once for the same player");
            }
            *a = Avoid { points: Board::new(size).mask() & !points, pass: !pass };
        } else {
            a.points |= points;
            a.pass |= pass;
        }
    }
    Ok((avoid, deeper))
}

/// The number of handicap stones as KataGo counts them: with no white stone set up,
/// the black stones set up and the black moves that open the game (a white pass
/// between them does not end the run, a white move does); fewer than two is no
/// handicap.
fn handicap_stones(start: &Board, moves: &[(Color, Move)]) -> u32 {
    if start.stones(Color::WHITE) != 0 {
        return 0;
    }
    let mut count = start.stones(Color::BLACK).count_ones();
    for (i, &(color, m)) in moves.iter().enumerate() {
        if color == Color::WHITE {
            let white_again = moves.get(i + 1).is_some_and(|next| next.0 == Color::WHITE);
            if white_again {
                count = start.stones(Color::BLACK).count_ones();
                break;
            }
            if m == Move::Pass {
                continue;
            }
            break;
        }
        if m != Move::Pass {
            count += 1;
        }
    }
    if count <= 1 { 0 } else { count }
}

// ---------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------

/// Points white gets for black's handicap stones (`whiteHandicapBonus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HandicapBonus {
    Zero,
    N,
    NMinusOne,
}

impl HandicapBonus {
    fn parse(text: &str) -> Option<HandicapBonus> {
        match text.trim().to_ascii_uppercase().as_str() {
            "0" => Some(HandicapBonus::Zero),
            "N" => Some(HandicapBonus::N),
            "N-1" => Some(HandicapBonus::NMinusOne),
            _ => None,
        }
    }

    /// The bonus for `stones` handicap stones.
    fn points(self, stones: u32) -> f64 {
        f64::from(match self {
            HandicapBonus::Zero => 0,
            HandicapBonus::N => stones,
            HandicapBonus::NMinusOne => stones.saturating_sub(1),
        })
    }
}

/// A ruleset in KataGo's terms.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rules {
    superko: Superko,
    /// Spight's ko rule (KataGo's `SPIGHT`), which sente does not have.
    spight: bool,
    territory: bool,
    suicide: bool,
    /// KataGo's `tax`: `NONE`, `SEKI` or `ALL`.
    tax: &'static str,
    button: bool,
    handicap_bonus: HandicapBonus,
    /// Komi when the query gives none.
    komi: f64,
}

impl Rules {
    /// The rules of a shorthand (`chinese`, `japanese`, `tromp-taylor`, …; case,
    /// spaces, `-` and `_` do not matter) or a JSON object of fields (`ko`, `scoring`,
    /// `tax`, `suicide`, `hasButton`, `whiteHandicapBonus`, `friendlyPassOk`).
    fn parse(value: &Value) -> Result<Rules, String> {
        let text = value.as_str().map_or_else(|| value.to_string(), str::to_string);
        let fail = || format!("Could not parse rules: {text}");
        let area = |superko, suicide, tax, bonus, komi| Rules {
            superko,
            spight: false,
            territory: false,
            suicide,
            tax,
            button: false,
            handicap_bonus: bonus,
            komi,
        };
        use HandicapBonus::*;
        use Superko::*;
        if let Some(fields) = value.as_object() {
            // KataGo's defaults for a rules object: Tromp-Taylor's.
            let mut rules = area(Positional, true, "NONE", Zero, 7.5);
            let mut tax_given = false;
            for (key, v) in fields {
                let word = v.as_str().map(str::to_ascii_uppercase);
                match (key.as_str(), word.as_deref(), v.as_bool()) {
                    ("ko", Some("SIMPLE"), _) => rules.superko = Off,
                    ("ko", Some("POSITIONAL"), _) => rules.superko = Positional,
                    ("ko", Some("SITUATIONAL"), _) => rules.superko = Situational,
                    ("ko", Some("SPIGHT"), _) => (rules.superko, rules.spight) = (Situational, true),
                    ("scoring" | "score", Some("AREA"), _) => rules.territory = false,
                    ("scoring" | "score", Some("TERRITORY"), _) => rules.territory = true,
                    ("tax", Some(word), _) => {
                        rules.tax = ["NONE", "SEKI", "ALL"].into_iter().find(|&t| t == word).ok_or_else(fail)?;
                        tax_given = true;
                    }
                    ("suicide", _, Some(b)) => rules.suicide = b,
                    ("hasButton", _, Some(b)) => rules.button = b,
                    ("whiteHandicapBonus", Some(w), _) => {
                        rules.handicap_bonus = HandicapBonus::parse(w).ok_or_else(fail)?
                    }
                    ("friendlyPassOk", _, Some(_)) => {}
                    _ => return Err(fail()),
                }
            }
            if !tax_given && rules.territory {
                rules.tax = "SEKI";
            }
            rules.komi = if rules.territory {
                6.5
            } else if rules.button {
                7.0
            } else {
                7.5
            };
            return Ok(rules);
        }
        let name: String = text.to_ascii_lowercase().chars().filter(|c| !matches!(c, ' ' | '-' | '_')).collect();
        let territory = |tax| Rules { territory: true, ..area(Off, false, tax, Zero, 6.5) };
        Ok(match name.as_str() {
            "tromptaylor" => area(Positional, true, "NONE", Zero, 7.5),
            "chinese" => area(Off, false, "NONE", N, 7.5),
            "chineseogs" | "chinesekgs" => area(Positional, false, "NONE", N, 7.5),
            "japanese" | "korean" => territory("SEKI"),
            "stonescoring" | "ancientarea" => area(Off, false, "ALL", Zero, 7.5),
            "ancientterritory" => territory("ALL"),
            "aga" | "bga" | "french" => area(Situational, false, "NONE", NMinusOne, 7.5),
            "agabutton" => Rules { button: true, ..area(Situational, false, "NONE", NMinusOne, 7.0) },
            "nz" | "newzealand" => area(Situational, true, "NONE", Zero, 7.0),
            "goe" | "ing" => area(Positional, true, "NONE", Zero, 7.5),
            _ => return Err(fail()),
        })
    }

    /// Changes the rules into ones sente plays (area scoring, no suicide, no tax, no
    /// button, no Spight ko) and says which, or `None` when it plays them as they are.
    fn make_playable(&mut self) -> Option<String> {
        let playable = !self.territory && !self.suicide && self.tax == "NONE" && !self.button && !self.spight;
        if playable {
            return None;
        }
        (self.territory, self.suicide, self.tax, self.button, self.spight) = (false, false, "NONE", false, false);
        Some(self.describe())
    }

    /// The rules as KataGo writes them in a `kata-get-rules` object.
    fn describe(&self) -> String {
        let ko = match self.superko {
            Superko::Off => "SIMPLE",
            Superko::Positional => "POSITIONAL",
            Superko::Situational => "SITUATIONAL",
        };
        let bonus = match self.handicap_bonus {
            HandicapBonus::Zero => "0",
            HandicapBonus::N => "N",
            HandicapBonus::NMinusOne => "N-1",
        };
        json!({
            "ko": ko,
            "scoring": if self.territory { "TERRITORY" } else { "AREA" },
            "tax": self.tax,
            "suicide": self.suicide,
            "hasButton": self.button,
            "whiteHandicapBonus": bonus,
        })
        .to_string()
    }
}

// ---------------------------------------------------------------------------------
// Analysing a turn
// ---------------------------------------------------------------------------------

/// Searches one turn and writes its responses: partial ones while it runs when asked,
/// then the final one (without results if it was terminated before any visit).
fn analyse(job: &Job, out: &Output) {
    let s = &job.settings;
    if job.stop.is_stopped() {
        return out.line(no_results(&job.id, job.turn));
    }
    let game = without_end(&job.line.at(job.turn));
    let color = game.board().to_move();
    let avoid = s.avoid[color.index()];
    let settings = MctsSettings::new(s.threads, s.hash_mb);
    // The root plays only what the client allows. When that is nothing (every legal
    // point and the pass avoided), KataGo's search finds no root move and its response
    // lists none: the position is searched as it stands, for `rootInfo`, and no move is
    // shown. The avoided pass is never offered in place of the moves left, even when
    // they are all the mover's own eyes (which the search skips of its own accord).
    let allowed = game.legal_points(color) & !avoid.points;
    let nothing_allowed = allowed == 0 && avoid.pass;
    let mut tree = if nothing_allowed {
        Mcts::new(&game, SEED)
    } else {
        let tree = Mcts::with_excluded(&game, SEED, !avoid.pass, avoid.points);
        if avoid.pass && tree.root_passes_only() { tree.with_root_points(allowed) } else { tree }
    }
    .with_settings(settings);
    let limits = Limits { nodes: Some(s.visits), movetime: s.max_time, ..Limits::default() };
    let mut writer = ResponseWriter::new(job, &game, nothing_allowed);
    let result = match s.report_every {
        None => tree.search(&limits, &job.stop, color),
        Some(interval) => {
            let mut report = |tree: &Mcts, r: &MctsResult, finished: bool| {
                if !finished && let Some(line) = writer.response(tree, r, true) {
                    out.line(line);
                }
            };
            search_in_steps(&mut tree, color, &limits, &job.stop, &mut Progress { interval, report: &mut report })
        }
    };
    if let Some(e) = tree.refused_memory() {
        eprintln!("sente analysis: search tree: {e}; it searched a smaller one");
    }
    out.line(writer.response(&tree, &result, false).unwrap_or_else(|| no_results(&job.id, job.turn)));
}

/// `game`, or when it ended with two passes the same stones with the passes
/// forgotten, so that the position can still be searched (KataGo analyses it too).
fn without_end(game: &Game) -> Game {
    if !game.is_over() {
        return game.clone();
    }
    let old = game.board();
    let mut board = Board::new(old.size());
    for p in old.points() {
        board.set(p, old.at(p));
    }
    board.set_to_move(old.to_move());
    Game::new(board, game.komi(), game.superko())
}

/// Builds the responses of one turn: the turn's [`Analyser`] makes the analysis, this
/// writes it in KataGo's JSON from the side of `reportAnalysisWinratesAs`.
struct ResponseWriter<'a> {
    job: &'a Job,
    analyser: Analyser,
    /// The colour whose view the numbers take.
    reported: Color,
}

impl<'a> ResponseWriter<'a> {
    /// The writer of `game`'s analysis; with `no_moves` (the client allowed the side to
    /// move nothing) `moveInfos` is empty.
    fn new(job: &'a Job, game: &Game, no_moves: bool) -> ResponseWriter<'a> {
        let s = &job.settings;
        let reported = match s.perspective {
            Perspective::Black => Color::BLACK,
            Perspective::White => Color::WHITE,
            Perspective::SideToMove => game.board().to_move(),
        };
        let wanted = Wanted {
            scores: true,
            ownership: s.ownership,
            moves_ownership: s.moves_ownership,
            pv_length: s.pv_length,
            max_moves: if no_moves { 0 } else { usize::MAX },
        };
        ResponseWriter { job, analyser: Analyser::new(game, wanted), reported }
    }

    /// The response for the search so far; `None` while no move has a visit.
    fn response(&mut self, tree: &Mcts, r: &MctsResult, during_search: bool) -> Option<String> {
        let data = self.analyser.data(tree, r)?;
        let mut response = json_response(&data, self.reported, self.analyser.game().board().size());
        let map = response.as_object_mut()?;
        map.insert("id".into(), json!(self.job.id));
        map.insert("turnNumber".into(), json!(self.job.turn));
        map.insert("isDuringSearch".into(), json!(during_search));
        if self.job.settings.policy {
            map.insert("policy".into(), json!(self.policy()));
        }
        Some(response.to_string())
    }

    /// KataGo's `policy` array: each point's prior row by row from the top left (−1
    /// where the side to move may not play), then the pass's.
    fn policy(&self) -> Vec<f64> {
        let (board, priors) = (self.analyser.game().board(), self.analyser.priors());
        let mut policy: Vec<f64> =
            board.points().map(|p| priors.get(&Move::Play(p)).map_or(-1.0, |&v| round(v))).collect();
        policy.push(round(priors.get(&Move::Pass).copied().unwrap_or(0.0)));
        policy
    }
}

/// The analysis `data` (of a board of side `size`) in KataGo's JSON, from `reported`'s
/// side: `moveInfos`, `rootInfo` and `ownership` when it was wanted.
fn json_response(data: &AnalysisData, reported: Color, size: usize) -> Value {
    let flipped = reported != data.to_move;
    // A win rate and a number counted for the side to move, for the reported colour.
    let win = |w: f64| if flipped { 1.0 - w } else { w };
    let view = |x: f64| if flipped { -x } else { x };
    let ownership = |own: &[f64]| own.iter().map(|&v| round(view(v))).collect::<Vec<f64>>();
    let score = |s: Option<Score>| s.unwrap_or(Score { lead: 0.0, stdev: 0.0 });
    let infos: Vec<Value> = data
        .moves
        .iter()
        .map(|m| {
            let s = score(m.score);
            let lead = round(view(s.lead));
            let mut info = json!({
                "move": m.mv.to_gtp(size),
                "visits": m.visits,
                "winrate": round(win(m.win_rate)),
                "lcb": round(win(m.lcb)),
                "utility": round(2.0 * win(m.win_rate) - 1.0),
                "utilityLcb": round(2.0 * win(m.lcb) - 1.0),
                "scoreLead": lead,
                "scoreMean": lead,
                "scoreSelfplay": lead,
                "scoreStdev": round(s.stdev),
                "prior": round(m.prior),
                "order": m.order,
                "pv": m.pv.iter().map(|m| m.to_gtp(size)).collect::<Vec<String>>(),
            });
            if let (Some(own), Some(map)) = (&m.ownership, info.as_object_mut()) {
                map.insert("ownership".into(), json!(ownership(own)));
            }
            info
        })
        .collect();
    let s = score(data.score);
    let lead = round(view(s.lead));
    let mut response = json!({
        "moveInfos": infos,
        "rootInfo": {
            "currentPlayer": if data.to_move == Color::BLACK { "B" } else { "W" },
            "visits": data.visits,
            "winrate": round(win(data.win_rate)),
            "utility": round(2.0 * win(data.win_rate) - 1.0),
            "scoreLead": lead,
            "scoreSelfplay": lead,
            "scoreStdev": round(s.stdev),
        },
    });
    if let (Some(own), Some(map)) = (&data.ownership, response.as_object_mut()) {
        map.insert("ownership".into(), json!(ownership(own)));
    }
    response
}

/// `x` to 6 decimals (the responses need no more).
fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::go::analysis_lines;
    use crate::games::session::GameSession;
    use std::collections::HashMap;

    fn query(text: &str) -> Result<Query, FieldError> {
        let Ok(Value::Object(q)) = serde_json::from_str::<Value>(text) else { panic!("not an object: {text}") };
        parse_query(&q, &Defaults { visits: 100, threads: 1, hash_mb: 16 })
    }

    fn field_of(text: &str) -> String {
        match query(text) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e.field,
        }
    }

    #[test]
    fn locations_are_gtp_vertices_pass_or_x_y_pairs() {
        assert_eq!(parse_location("D4", 9), Some(Move::Play(Point::new(5, 3))));
        assert_eq!(parse_location("j9", 9), Some(Move::Play(Point::new(0, 8))));
        assert_eq!(parse_location("PASS", 9), Some(Move::Pass));
        assert_eq!(parse_location("(3,5)", 9), Some(Move::Play(Point::new(5, 3))));
        for bad in ["Q16", "I5", "(9,0)", "(1)", "", "E"] {
            assert_eq!(parse_location(bad, 9), None, "{bad}");
        }
    }

    #[test]
    fn rules_shorthands_and_objects() {
        let chinese = Rules::parse(&json!("chinese")).unwrap();
        assert_eq!((chinese.superko, chinese.handicap_bonus, chinese.komi), (Superko::Off, HandicapBonus::N, 7.5));
        assert_eq!(Rules::parse(&json!("Chinese_OGS")).unwrap().superko, Superko::Positional);
        let mut japanese = Rules::parse(&json!("japanese")).unwrap();
        assert_eq!(japanese.komi, 6.5);
        assert!(japanese.make_playable().is_some_and(|r| r.contains("\"AREA\"")));
        assert!(Rules::parse(&json!("new zealand")).unwrap().suicide);
        let object = json!({"ko": "SITUATIONAL", "scoring": "AREA", "suicide": false, "tax": "NONE"});
        let mut rules = Rules::parse(&object).unwrap();
        assert_eq!(rules.superko, Superko::Situational);
        assert_eq!(rules.make_playable(), None);
        assert!(Rules::parse(&json!("go-moku")).is_err());
        assert!(Rules::parse(&json!({"ko": "SIMPLE", "komi": 7})).is_err());
    }

    #[test]
    fn handicap_stones_count_as_katago_counts_them() {
        let mut board = Board::new(9);
        board.set(Point::new(2, 2), Some(Color::BLACK));
        board.set(Point::new(6, 6), Some(Color::BLACK));
        assert_eq!(handicap_stones(&board, &[]), 2);
        let e5 = Move::Play(Point::new(4, 4));
        assert_eq!(handicap_stones(&board, &[(Color::BLACK, e5)]), 3);
        assert_eq!(handicap_stones(&Board::new(9), &[(Color::BLACK, e5)]), 0, "one black move is no handicap");
        board.set(Point::new(0, 0), Some(Color::WHITE));
        assert_eq!(handicap_stones(&board, &[]), 0, "a white stone set up: no handicap");
    }

    #[test]
    fn a_query_gives_one_position_per_turn() {
        let q = query(
            r#"{"id":"a","moves":[["B","E5"],["W","C3"]],"rules":"chinese","komi":6.5,"boardXSize":9,"boardYSize":9,"analyzeTurns":[2,0],"priorities":[5,7]}"#,
        )
        .unwrap();
        let turns: Vec<(usize, i64, usize)> =
            q.turns.iter().map(|&(t, p)| (t, p, q.line.at(t).moves().len())).collect();
        assert_eq!(turns, vec![(0, 7, 0), (2, 5, 2)], "in the order of the game");
        assert_eq!(q.line.at(0).komi(), 6.5);
        assert!(q.warnings.is_empty(), "{:?}", q.warnings);
        // Handicap under chinese rules: white gets N points.
        let q = query(r#"{"id":"h","initialStones":[["B","C3"],["B","G7"]],"moves":[],"rules":"chinese","komi":0.5,"boardXSize":9,"boardYSize":9}"#).unwrap();
        assert_eq!(q.line.at(0).komi(), 2.5);
        assert_eq!(q.line.at(0).board().to_move(), Color::WHITE, "white moves first after handicap stones");
    }

    #[test]
    fn bad_fields_are_named() {
        let ok = r#""id":"x","moves":[],"rules":"chinese""#;
        assert_eq!(field_of(&format!("{{{ok},\"boardXSize\":19,\"boardYSize\":19}}")), "boardXSize");
        assert_eq!(field_of(&format!("{{{ok},\"boardXSize\":9}}")), "boardYSize");
        assert_eq!(field_of(&format!("{{{ok},\"boardXSize\":9,\"boardYSize\":7}}")), "boardYSize");
        let sized = r#""id":"x","boardXSize":9,"boardYSize":9"#;
        assert_eq!(field_of(&format!("{{{sized},\"rules\":\"chinese\"}}")), "moves");
        assert_eq!(field_of(&format!("{{{sized},\"moves\":[]}}")), "rules");
        assert_eq!(field_of(&format!("{{{sized},\"moves\":[[\"B\",\"Z9\"]],\"rules\":\"chinese\"}}")), "moves");
        let illegal = format!("{{{sized},\"moves\":[[\"B\",\"E5\"],[\"W\",\"E5\"]],\"rules\":\"chinese\"}}");
        match query(&illegal) {
            Err(e) => assert!(e.message.starts_with("Illegal move 1: E5"), "{e:?}"),
            Ok(_) => panic!("accepted {illegal}"),
        }
        let valid = r#""id":"x","boardXSize":9,"boardYSize":9,"moves":[],"rules":"chinese""#;
        for (extra, field) in [
            (r#""komi":7.3"#, "komi"),
            (r#""maxVisits":0"#, "maxVisits"),
            (r#""analyzeTurns":[1]"#, "analyzeTurns"),
            (r#""includePolicy":"yes""#, "includePolicy"),
            (r#""overrideSettings":{"maxTime":"soon"}"#, "overrideSettings"),
            (r#""avoidMoves":[{"player":"B","moves":["E5"]}]"#, "avoidMoves"),
        ] {
            assert_eq!(field_of(&format!("{{{valid},{extra}}}")), field, "{extra}");
        }
    }

    #[test]
    fn warnings_for_what_sente_cannot_honour() {
        let q = query(
            r#"{"id":"w","moves":[],"rules":"japanese","boardXSize":9,"boardYSize":9,"includePVVisits":true,"overrideSettings":{"wideRootNoise":0.04,"reportAnalysisWinratesAs":"SIDETOMOVE","maxTime":8},"typo":1}"#,
        )
        .unwrap();
        let fields: Vec<&str> = q.warnings.iter().map(|w| w.0.as_str()).collect();
        assert_eq!(fields, ["rules", "overrideSettings", "includePVVisits", "typo"], "{:?}", q.warnings);
        assert_eq!(q.settings.perspective, Perspective::SideToMove);
        assert_eq!(q.settings.max_time, Some(Duration::from_secs(8)));
        assert_eq!(q.line.at(0).komi(), 6.5, "japanese rules' komi");
    }

    #[test]
    fn katago_arguments_are_noted_and_ignored() {
        let args: Vec<String> =
            ["-model", "m.bin.gz", "-config", "a.cfg", "-quit-without-waiting"].map(String::from).to_vec();
        let mut note = Vec::new();
        assert!(read_katago_args(&args, &mut note).unwrap());
        assert_eq!(String::from_utf8(note).unwrap().lines().count(), 2);
        // Nothing stops the engine from starting: a flag without its value, or one of
        // sente's options after KataGo's, is noted and ignored too.
        for args in [&["-model"][..], &["--visits", "5"], &["--debug"]] {
            let mut note = Vec::new();
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            assert!(!read_katago_args(&args, &mut note).unwrap());
            let note = String::from_utf8(note).unwrap();
            assert!(note.lines().count() == args.len() && note.contains(&args[0]), "{note}");
        }
    }

    /// One move of an analysis line: its fields before `pv`, by name, and its pv.
    type LineMove = (HashMap<String, String>, Vec<String>);

    /// The moves of a `kata-analyze` line, each with its fields up to `pv` and its pv,
    /// and the ownership at its end.
    fn kata_line(line: &str) -> (Vec<LineMove>, Vec<f64>) {
        let (infos, own) = line.split_once(" ownership ").unwrap_or((line, ""));
        let moves = infos
            .split("info ")
            .skip(1)
            .map(|chunk| {
                let (fields, pv) = chunk.split_once(" pv ").unwrap_or_else(|| panic!("no pv: {chunk}"));
                let tokens: Vec<&str> = fields.split_whitespace().collect();
                let fields = tokens.chunks(2).map(|f| (f[0].to_string(), f[1].to_string())).collect();
                (fields, pv.split_whitespace().map(str::to_string).collect())
            })
            .collect();
        (moves, own.split_whitespace().map(|v| v.parse().unwrap()).collect())
    }

    #[test]
    fn kata_analyze_and_the_json_engine_report_the_same_analysis() {
        // One position, one search (one thread, the same seed and playouts) through
        // both front ends: the same moves, visits, win rates, priors, principal
        // variations, score leads and ownership, to the precision each prints.
        let moves = [(true, "E5"), (false, "C5"), (true, "D3"), (false, "F4"), (true, "G6")];
        let mut gtp = crate::games::go::GoSession::default();
        gtp.set_board_size(9).unwrap();
        gtp.set_komi(7.0);
        for (black, vertex) in moves {
            gtp.play_as(black, vertex).unwrap();
        }
        let playouts = 300;
        let lines = analysis_lines(&mut gtp, "kata-analyze ownership true", SEED, playouts).unwrap();
        let (kata, kata_ownership) = kata_line(lines.last().expect("a kata-analyze line"));

        let moves: Vec<Value> = moves.iter().map(|&(b, v)| json!([if b { "B" } else { "W" }, v])).collect();
        let text = json!({"id": "same", "moves": moves, "rules": "chinese", "komi": 7, "boardXSize": 9,
            "boardYSize": 9, "maxVisits": playouts, "includeOwnership": true,
            "overrideSettings": {"reportAnalysisWinratesAs": "SIDETOMOVE"}});
        let Value::Object(text) = text else { unreachable!() };
        let q = parse_query(&text, &Defaults { visits: 1, threads: 1, hash_mb: 64 }).unwrap();
        let job = Job {
            id: "same".into(),
            turn: q.turns[0].0,
            priority: 0,
            seq: 0,
            line: q.line,
            settings: Arc::new(q.settings),
            stop: StopFlag::new(),
        };
        let (out, responses) = crate::io::collecting_output();
        analyse(&job, &out);
        let response: Value = serde_json::from_str(&responses.try_recv().unwrap()).unwrap();
        let infos = response["moveInfos"].as_array().unwrap();

        let names = |moves: Vec<&str>| moves.join(" ");
        assert_eq!(
            names(kata.iter().map(|(fields, _)| fields["move"].as_str()).collect()),
            names(infos.iter().map(|info| info["move"].as_str().unwrap()).collect()),
            "the same moves"
        );
        assert!(kata.len() > 3, "{kata:?}");
        let close = |a: f64, b: f64, printed: f64| (a - b).abs() <= printed / 2.0 + 1e-9;
        for ((fields, pv), info) in kata.iter().zip(infos) {
            let number = |name: &str| fields[name].parse::<f64>().unwrap();
            let them = info.to_string();
            assert_eq!(fields["move"], info["move"].as_str().unwrap(), "{them}");
            assert_eq!(number("visits"), info["visits"].as_f64().unwrap(), "{them}");
            assert_eq!(number("order"), info["order"].as_f64().unwrap(), "{them}");
            for (name, printed) in [("winrate", 1e-6), ("lcb", 1e-6), ("prior", 1e-6), ("scoreLead", 1e-3)] {
                assert!(close(number(name), info[name].as_f64().unwrap(), printed), "{name}: {fields:?} {them}");
            }
            let json_pv: Vec<&str> = info["pv"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
            assert_eq!(pv, &json_pv, "{them}");
        }
        let json_ownership = response["ownership"].as_array().unwrap();
        assert_eq!(kata_ownership.len(), 81);
        assert_eq!(json_ownership.len(), 81);
        for (k, j) in kata_ownership.iter().zip(json_ownership) {
            assert!(close(*k, j.as_f64().unwrap(), 1e-3), "ownership {k} against {j}");
        }
        // lz-analyze lists the same search, in its integer format.
        let lines = analysis_lines(&mut gtp, "lz-analyze", SEED, playouts).unwrap();
        let (lz, _) = kata_line(lines.last().expect("an lz-analyze line"));
        assert_eq!(lz.len(), kata.len());
        for ((lz, _), (kata, _)) in lz.iter().zip(&kata) {
            assert_eq!((&lz["move"], &lz["visits"]), (&kata["move"], &kata["visits"]));
            let winrate = kata["winrate"].parse::<f64>().unwrap();
            assert_eq!(lz["winrate"].parse::<f64>().unwrap(), (winrate * 10000.0).round(), "{lz:?} {kata:?}");
        }
    }
}
