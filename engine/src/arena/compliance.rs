//! `sente arena --compliance`: a scripted protocol conversation with one engine, in
//! the spirit of fastchess's `--compliance`. Each check sends a few lines, reads the
//! answer within a time limit, judges it (moves with our own rules), and prints one
//! line: `ok` or `FAIL`, what was sent, what came back and, for a failure, what was
//! expected. A missing answer is a failure, not a hang; an engine that has exited, or
//! that left [`MAX_SILENT`] checks in a row unanswered, gets the rest counted as not
//! run.
//!
//! * UGI+ (every game): `ugi`, the `Game` option, `isready`, `setoption`,
//!   `uginewgame`, `position startpos`, `position startpos moves …`, `position fen …`
//!   (and `query fen` giving it back), `go movetime`, `go depth`, `go nodes`, `go p1time
//!   p2time p1inc p2inc`, `go infinite` with `isready` during it and `stop`, `query
//!   gameover` and `query result` in a game under way and in a finished one (and, in
//!   the finished one, `query legalmoves` answering `response` alone and `go`
//!   answering `bestmove none`), malformed lines, `quit`.
//! * GTP (Go, Othello): `protocol_version`, `name`, `version`, `list_commands` (the
//!   required commands), `known_command`, an unacceptable `boardsize`, `set_game`,
//!   `boardsize`, `clear_board`, `komi`, `time_settings`, a legal, an illegal and a
//!   malformed `play`, `genmove`, numeric ids on success and error replies, an
//!   unknown command, empty and comment lines, `final_score`, `quit`.
//! * NBoard (Othello): `nboard 2` and `ping`, `set depth`, `set game`, `go`, `hint`,
//!   `move`, a malformed line, `quit`.
//! * The Phantom Go platform protocol ([`phantom`]): `name?`, `new black`, `accept`,
//!   `move go`, `refuse`, `taked` and `take` from real captures, an unknown line and
//!   captures the engine cannot have made, `new white`, `end` and `quit`.

mod phantom;

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use bitboards::chaosclock as cc;
use bitboards::go::{self, Color};
use bitboards::othello::{Board, Position};
use bitboards::phantom::{PhantomConfig, PhantomRules, Referee, View};
use bitboards::{Outcome, Player as Side};

use super::players::{EngineSpec, GameSetup, Protocol, UGI_LINES};
use super::process::{Fault, Log, Process};
use crate::games::GameKind;
use crate::games::referee::{ArenaGame, RefereeRules, Refereed};

/// How long an engine may take over an answer that needs no search.
const ANSWER_TIME: Duration = Duration::from_secs(5);
/// How soon a `go infinite` must end after `stop`, and an engine exit after `quit`.
const PROMPT: Duration = Duration::from_secs(1);
/// How long GTP `final_score` may take: a scoring command may search (GNU Go 3.8
/// takes about 14 s on a nearly empty 9×9 board on a loaded 2-core machine).
const SCORE_TIME: Duration = Duration::from_secs(60);
/// How far a search may overrun its own time limit.
const MARGIN: Duration = Duration::from_secs(1);
/// Checks left unanswered in a row after which the rest are not run.
pub const MAX_SILENT: usize = 3;
/// Lines an engine may write that a check does not look at.
const MAX_OTHER_LINES: usize = 1000;
/// A Chaos Clock deal (no piece on its own number), used when the engine's own
/// `startpos` cannot be learned.
const CHAOS_DEAL: &str = "2,3,4,5,6,7,8,9,10,11,12,1 Y 0";
/// The nine-move Othello game in which Black takes every disc (a finished game).
const OTHELLO_WIPEOUT: [&str; 9] = ["e6", "f4", "e3", "f6", "g5", "d6", "e7", "f5", "c5"];
/// The commands every GTP version 2 engine must know.
const GTP_REQUIRED: [&str; 11] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
];
/// A command no engine knows.
const UNKNOWN_COMMAND: &str = "sente-no-such-command";

/// The tally of a compliance run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ComplianceReport {
    /// Checks passed.
    pub passed: usize,
    /// Checks failed.
    pub failed: usize,
    /// Checks not run (the engine had exited or stopped answering).
    pub not_run: usize,
}

impl ComplianceReport {
    /// True when every check ran and passed.
    pub fn all_passed(&self) -> bool {
        self.failed == 0 && self.not_run == 0
    }
}

/// Runs the checks of `spec`'s protocol for `setup`'s game, one line each on `out`,
/// then a summary line; every line sent and received goes to `log` if given.
pub fn run(spec: &EngineSpec, setup: GameSetup, log: Option<Log>, out: &mut dyn Write) -> io::Result<ComplianceReport> {
    let protocol = match spec.protocol {
        Protocol::Ugi => "UGI+",
        Protocol::Gtp => "GTP",
        Protocol::Nboard => "NBoard",
        Protocol::Phantom => "the Phantom Go platform protocol",
    };
    let supported = match spec.protocol {
        Protocol::Ugi => true,
        Protocol::Gtp => setup.kind.gtp_name().is_some(),
        Protocol::Nboard => setup.kind == GameKind::OTHELLO,
        Protocol::Phantom => setup.kind == GameKind::PHANTOM_GO,
    };
    if !supported {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "no compliance checks for {protocol} with {}: UGI+ for every game, GTP for Go and Othello, NBoard for \
                 Othello, the platform protocol for Phantom Go",
                setup.kind.name()
            ),
        ));
    }
    // A platform engine's letter order and capture line come from its options, as in a match.
    let dialect = match spec.protocol {
        Protocol::Phantom => Some(
            super::phantom::PlatformDialect::from_options(&spec.options)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("engine {}: {e}", spec.name)))?,
        ),
        _ => None,
    };
    writeln!(out, "compliance of {} ({protocol}, {}): {}", spec.name, setup.kind.name(), spec.command.join(" "))?;
    let process = Process::start(&spec.name, &spec.command, log, Arc::new(AtomicBool::new(false)));
    let mut checker = match process {
        Ok(process) => Checker::new(process, out),
        Err(fault) => {
            writeln!(out, "FAIL  start — got: {fault}")?;
            writeln!(out, "0 checks passed, 1 failed")?;
            return Ok(ComplianceReport { passed: 0, failed: 1, not_run: 0 });
        }
    };
    match spec.protocol {
        Protocol::Ugi => ugi_checks(&mut checker, spec, setup)?,
        Protocol::Gtp => gtp_checks(&mut checker, spec, setup)?,
        Protocol::Nboard => nboard_checks(&mut checker, spec)?,
        Protocol::Phantom => phantom::phantom_checks(&mut checker, spec, setup, dialect.unwrap_or_default())?,
    }
    checker.finish()
}

// ---------------------------------------------------------------------------------
// The checker: sends, reads with deadlines, prints one line per check.

/// Why a check failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cause {
    /// A wrong answer.
    Wrong,
    /// No answer in time.
    Silent,
    /// The engine exited or closed its output.
    Gone,
}

/// A failed check: what came back and what was expected.
struct Miss {
    got: String,
    expected: String,
    cause: Cause,
}

impl Miss {
    fn wrong(got: impl Into<String>, expected: impl Into<String>) -> Miss {
        Miss { got: got.into(), expected: expected.into(), cause: Cause::Wrong }
    }
}

/// The engine under test and the tally.
struct Checker<'a> {
    process: Process,
    out: &'a mut dyn Write,
    /// Lines sent during the current check.
    sent: Vec<String>,
    report: ComplianceReport,
    /// Checks in a row that got no answer.
    silent: usize,
    /// Why the remaining checks are not run.
    gone: Option<String>,
}

/// At most `n` characters of `text`, with `…` when cut.
fn shorten(text: &str, n: usize) -> String {
    if text.chars().count() <= n {
        text.to_string()
    } else {
        let cut: String = text.chars().take(n).collect();
        format!("{cut}…")
    }
}

impl<'a> Checker<'a> {
    fn new(process: Process, out: &'a mut dyn Write) -> Checker<'a> {
        Checker { process, out, sent: Vec::new(), report: ComplianceReport::default(), silent: 0, gone: None }
    }

    /// Runs one check and prints its line; true if it passed.
    fn check(&mut self, name: &str, run: impl FnOnce(&mut Self) -> Result<String, Miss>) -> io::Result<bool> {
        if self.gone.is_some() {
            self.report.not_run += 1;
            return Ok(false);
        }
        self.sent.clear();
        let result = run(self);
        let sent = if self.sent.is_empty() {
            "(nothing)".to_string()
        } else {
            shorten(&self.sent.iter().map(|l| format!("'{l}'")).collect::<Vec<_>>().join(" "), 110)
        };
        match result {
            Ok(got) => {
                self.report.passed += 1;
                self.silent = 0;
                writeln!(self.out, "ok    {name} — sent: {sent} — got: {}", shorten(&got, 160))?;
                Ok(true)
            }
            Err(miss) => {
                self.report.failed += 1;
                writeln!(
                    self.out,
                    "FAIL  {name} — sent: {sent} — got: {} — expected: {}",
                    shorten(&miss.got, 160),
                    miss.expected
                )?;
                match miss.cause {
                    Cause::Wrong => self.silent = 0,
                    Cause::Silent => {
                        self.silent += 1;
                        if self.silent >= MAX_SILENT {
                            self.gone = Some(format!("{MAX_SILENT} checks in a row got no answer"));
                        }
                    }
                    Cause::Gone => self.gone = Some(miss.got),
                }
                Ok(false)
            }
        }
    }

    /// Prints the summary.
    fn finish(self) -> io::Result<ComplianceReport> {
        let r = self.report;
        if let Some(why) = &self.gone
            && r.not_run > 0
        {
            writeln!(self.out, "FAIL  {} checks not run: {why}", r.not_run)?;
        }
        let verdict = if r.all_passed() { "compliant" } else { "NOT compliant" };
        writeln!(self.out, "{} checks passed, {} failed, {} not run: {verdict}", r.passed, r.failed, r.not_run)?;
        Ok(r)
    }

    fn send(&mut self, line: &str) -> Result<(), Miss> {
        self.sent.push(line.to_string());
        self.process.send(line).map_err(|f| fault_miss(&f, Duration::ZERO, &[], "an engine that reads its input"))
    }

    /// Lines until one that `want` accepts, within `limit`: the other non-empty lines
    /// and the value.
    fn until<T>(
        &mut self,
        limit: Duration,
        expected: &str,
        want: impl FnMut(&str) -> Option<T>,
    ) -> Result<(Vec<String>, T), Miss> {
        self.until_lines(limit, expected, true, want)
    }

    /// Like [`Checker::until`], but `want` sees each line as written (only its line
    /// ending removed) when `trim` is false, so that stray spaces can be judged.
    fn until_lines<T>(
        &mut self,
        limit: Duration,
        expected: &str,
        trim: bool,
        mut want: impl FnMut(&str) -> Option<T>,
    ) -> Result<(Vec<String>, T), Miss> {
        let deadline = Instant::now() + limit;
        let mut other: Vec<String> = Vec::new();
        loop {
            let raw = self.process.recv(deadline).map_err(|f| fault_miss(&f, limit, &other, expected))?;
            let line = if trim { raw.trim() } else { raw.as_str() };
            if let Some(v) = want(line) {
                return Ok((other, v));
            }
            if !line.trim().is_empty() {
                if other.len() >= MAX_OTHER_LINES {
                    return Err(Miss::wrong(format!("more than {MAX_OTHER_LINES} other lines"), expected));
                }
                other.push(line.trim().to_string());
            }
        }
    }

    /// UGI+: `isready` answered `readyok`; the lines before it.
    fn ready(&mut self) -> Result<Vec<String>, Miss> {
        self.send("isready")?;
        Ok(self.until(ANSWER_TIME, "readyok", |l| (l == "readyok").then_some(()))?.0)
    }

    /// GTP: sends `command` and reads its reply.
    fn gtp(&mut self, command: &str, limit: Duration) -> Result<GtpReply, Miss> {
        self.send(command)?;
        self.gtp_reply(limit, "a reply '= …' or '? …' and an empty line")
    }

    fn gtp_reply(&mut self, limit: Duration, expected: &str) -> Result<GtpReply, Miss> {
        let deadline = Instant::now() + limit;
        let recv =
            |c: &mut Self, seen: &[String]| c.process.recv(deadline).map_err(|f| fault_miss(&f, limit, seen, expected));
        let first = loop {
            let line = recv(self, &[])?;
            if !line.trim().is_empty() {
                break line.trim().to_string();
            }
        };
        if !(first.starts_with('=') || first.starts_with('?')) {
            return Err(Miss::wrong(format!("'{first}'"), "a reply starting with '=' or '?'"));
        }
        let head_len = 1 + first[1..].chars().take_while(char::is_ascii_digit).count();
        let mut reply = GtpReply {
            success: first.starts_with('='),
            head: first[..head_len].to_string(),
            text: first[head_len..].trim().to_string(),
        };
        let seen = [first.clone()];
        loop {
            let line = recv(self, &seen)?;
            if line.trim().is_empty() {
                return Ok(reply);
            }
            reply.text.push('\n');
            reply.text.push_str(line.trim());
        }
    }

    /// GTP: a command that must succeed; its reply text.
    fn gtp_ok(&mut self, command: &str) -> Result<String, Miss> {
        let reply = self.gtp(command, ANSWER_TIME)?;
        if reply.success { Ok(reply.shown()) } else { Err(Miss::wrong(reply.shown(), "'=' (success)")) }
    }

    /// NBoard: `ping n` answered `pong n`; the lines before it.
    fn ping(&mut self, n: u32, limit: Duration) -> Result<Vec<String>, Miss> {
        self.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        Ok(self.until(limit, &format!("'{want}'"), |l| (l == want).then_some(()))?.0)
    }

    /// `quit` (and, for GTP, its reply): the process must exit within [`PROMPT`].
    fn quit(&mut self) -> Result<String, Miss> {
        self.send("quit")?;
        let start = Instant::now();
        match self.process.wait_exit(PROMPT) {
            Some(status) => Ok(format!("exited after {} ms ({status})", start.elapsed().as_millis())),
            None => Err(Miss {
                got: format!("still running after {} ms", PROMPT.as_millis()),
                expected: format!("exit within {} ms", PROMPT.as_millis()),
                cause: Cause::Wrong,
            }),
        }
    }
}

/// The failure of a read that ended with `fault`.
fn fault_miss(fault: &Fault, limit: Duration, other: &[String], expected: &str) -> Miss {
    let (got, cause) = match fault {
        Fault::Timeout => {
            let secs = limit.as_secs_f64();
            match other.last() {
                None => (format!("nothing in {secs} s"), Cause::Silent),
                Some(l) => (format!("'{}', then nothing in {secs} s", shorten(l, 60)), Cause::Silent),
            }
        }
        Fault::Crash(why) => (format!("the engine is gone ({why})"), Cause::Gone),
        other => (other.to_string(), Cause::Wrong),
    };
    Miss { got, expected: expected.to_string(), cause }
}

/// A GTP reply.
struct GtpReply {
    success: bool,
    /// `=`, `?`, `=7`, …
    head: String,
    text: String,
}

impl GtpReply {
    fn shown(&self) -> String {
        let text = self.text.replace('\n', " ");
        if text.is_empty() { format!("'{}'", self.head) } else { format!("'{} {}'", self.head, shorten(&text, 80)) }
    }
}

// ---------------------------------------------------------------------------------
// Our own rules, to judge the engine's moves.

/// A position under our rules.
enum Rules {
    /// A game the arena referees: its referee, the moves played.
    Played(GameKind, Box<dyn Refereed>),
    /// Phantom Go from the start: our referee, the tries replayed.
    Phantom(Box<Referee>),
    /// A Phantom Go view (`position fen <view>`): one side's knowledge.
    PhantomView(View),
}

impl Clone for Rules {
    fn clone(&self) -> Rules {
        match self {
            Rules::Played(kind, r) => Rules::Played(*kind, r.clone_position()),
            Rules::Phantom(r) => Rules::Phantom(r.clone()),
            Rules::PhantomView(v) => Rules::PhantomView(v.clone()),
        }
    }
}

fn phantom_move(text: &str) -> Result<go::Move, String> {
    go::Move::from_gtp(text, bitboards::phantom::SIZE).map_err(|e| format!("'{text}': {e}"))
}

/// A try that makes sense for `view`'s side: a pass, or a point empty in its view
/// and not refused this turn.
fn sensible_try(view: &View, text: &str) -> Result<(), String> {
    match phantom_move(text)? {
        go::Move::Pass => Ok(()),
        go::Move::Play(p) if view.at(p).is_some() => Err(format!("{text} holds a stone the mover knows of")),
        go::Move::Play(p) if view.refused() & p.bit() != 0 => Err(format!("{text} was refused this turn")),
        go::Move::Play(_) => Ok(()),
    }
}

impl Rules {
    /// The position `start` (our text form; `None`: the standard start).
    fn at(setup: &GameSetup, start: Option<&str>) -> Result<Rules, String> {
        if setup.kind == GameKind::PHANTOM_GO {
            return Ok(match start {
                None => Rules::Phantom(Box::new(Referee::new(
                    PhantomConfig::for_rules(PhantomRules::Ccgc).with_komi(setup.komi),
                ))),
                Some(t) => Rules::PhantomView(View::from_text(t).map_err(|e| e.to_string())?),
            });
        }
        if setup.kind == GameKind::CHAOS_CLOCK && start.is_none() {
            return Err("a Chaos Clock start is a deal".into());
        }
        let rules = RefereeRules {
            size: setup.size,
            komi: setup.komi,
            solve_empties: 0,
            max_moves: usize::MAX,
            phantom_rules: PhantomRules::Ccgc,
        };
        Ok(Rules::Played(setup.kind, setup.kind.new_referee(&rules, start)?))
    }

    /// The position `spot` is, under our rules.
    fn of(setup: &GameSetup, spot: &Spot) -> Result<Rules, String> {
        let mut rules = Rules::at(setup, spot.start.as_deref())?;
        for m in &spot.moves {
            rules.play(m)?;
        }
        Ok(rules)
    }

    /// Plays a move (Phantom Go: a try, legal or not).
    fn play(&mut self, text: &str) -> Result<(), String> {
        match self {
            Rules::Played(_, r) => {
                r.play(text)?;
            }
            Rules::Phantom(r) => {
                r.try_move(phantom_move(text)?).map_err(|e| format!("{e:?}"))?;
            }
            Rules::PhantomView(_) => return Err("a view position takes no tries".into()),
        }
        Ok(())
    }

    /// Whether `text` is a legal move for the side to move (Phantom Go: a sensible try).
    fn check(&self, text: &str) -> Result<(), String> {
        match self {
            Rules::Played(_, r) => r.check(text),
            Rules::Phantom(r) => sensible_try(r.view(r.to_move()), text),
            Rules::PhantomView(v) => sensible_try(v, text),
        }
    }

    /// The position's text form (Phantom Go: the mover's view).
    fn text(&self) -> String {
        match self {
            Rules::Played(_, r) => r.text(),
            Rules::Phantom(r) => r.view(r.to_move()).to_text(),
            Rules::PhantomView(v) => v.to_text(),
        }
    }

    /// The outcome once the game is over.
    fn outcome(&self) -> Option<Outcome> {
        match self {
            Rules::Played(_, r) => r.outcome(),
            Rules::Phantom(r) => r.result(0).map(|res| match res.winner {
                Some(Color::BLACK) => Outcome::Win(Side::One),
                Some(_) => Outcome::Win(Side::Two),
                None => Outcome::Draw,
            }),
            Rules::PhantomView(_) => None,
        }
    }

    /// The moves (Phantom Go: the sensible tries) other than a pass.
    fn moves(&self) -> Vec<String> {
        match self {
            Rules::Played(_, r) => r.legal_moves(),
            Rules::Phantom(r) => {
                let view = r.view(r.to_move());
                go::points(bitboards::phantom::SIZE)
                    .map(|p| p.to_gtp(bitboards::phantom::SIZE))
                    .filter(|t| sensible_try(view, t).is_ok() && t != "pass")
                    .collect()
            }
            Rules::PhantomView(_) => Vec::new(),
        }
    }

    /// A move on the board that is not legal now (Othello, Go), for the illegal `play`.
    fn illegal_example(&self, size: usize) -> Option<String> {
        let candidates: Vec<String> = match self {
            Rules::Played(kind, _) if *kind == GameKind::OTHELLO => {
                (0..64).map(|i| format!("{}{}", char::from(b'a' + (i % 8) as u8), i / 8 + 1)).collect()
            }
            Rules::Played(kind, _) if *kind == GameKind::GO => go::points(size).map(|p| p.to_gtp(size)).collect(),
            _ => Vec::new(),
        };
        candidates.into_iter().find(|c| self.check(c).is_err())
    }
    /// The GGF form of an Othello game from the start with `moves`.
    fn ggf(moves: &[String]) -> String {
        let start: Position<Board> = Position::start();
        let mut ggf = format!("(;GM[Othello]PC[sente arena]PB[?]PW[?]RE[?]TY[8]BO[{}]", start.ggf_board());
        for (i, mv) in moves.iter().enumerate() {
            let text = if mv == "pass" { "PA".to_string() } else { mv.to_ascii_uppercase() };
            ggf.push_str(&format!("{}[{text}]", if i % 2 == 0 { "B" } else { "W" }));
        }
        ggf.push_str(";)");
        ggf
    }
}

/// `plies` moves from `rules` chosen by a fixed rule; Phantom Go's line has the
/// opponent try the first stone's point (refused) before its own try.
fn line_of_play(rules: &Rules, plies: usize) -> Result<Vec<String>, String> {
    let mut r = rules.clone();
    let mut moves = Vec::new();
    for k in 0..plies {
        // Moves that do not end the game while there are any (a short game such as
        // tic-tac-toe would otherwise be over before the script's positions).
        let legal = r.moves();
        let goes_on: Vec<String> = legal
            .iter()
            .filter(|m| {
                let mut after = r.clone();
                after.play(m).is_ok() && after.outcome().is_none()
            })
            .cloned()
            .collect();
        let legal = if goes_on.is_empty() { legal } else { goes_on };
        let Some(m) = legal.get((k * 7 + 3) % legal.len().max(1)).cloned() else { break };
        r.play(&m)?;
        moves.push(m.clone());
        if k == 0 && matches!(r, Rules::Phantom(_)) {
            r.play(&m)?;
            moves.push(m);
        }
    }
    Ok(moves)
}

/// A position as a `position` command gives it.
#[derive(Clone, Debug)]
struct Spot {
    /// Sent as `position startpos` (else `position fen <start>`).
    startpos: bool,
    /// The start in our text form (`None`: the game's standard start).
    start: Option<String>,
    /// Moves from the start.
    moves: Vec<String>,
}

impl Spot {
    fn command(&self) -> String {
        let mut c = match (&self.start, self.startpos) {
            (Some(fen), false) => format!("position fen {fen}"),
            _ => "position startpos".to_string(),
        };
        if !self.moves.is_empty() {
            c.push_str(" moves ");
            c.push_str(&self.moves.join(" "));
        }
        c
    }

    fn with_moves(&self, moves: Vec<String>) -> Spot {
        Spot { moves, ..self.clone() }
    }
}

// ---------------------------------------------------------------------------------
// UGI+

fn bestmove(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    (words.next() == Some("bestmove")).then(|| words.next().unwrap_or("").to_string())
}

fn response(line: &str) -> Option<String> {
    line.strip_prefix("response").filter(|r| r.is_empty() || r.starts_with(' ')).map(|r| r.trim().to_string())
}

/// Sends `spot` and `go`, then judges the `bestmove`: legal by our rules, and within
/// `limit` (and [`MARGIN`]) when the search has one.
fn ugi_search(
    c: &mut Checker,
    setup: &GameSetup,
    spot: &Spot,
    go: &str,
    limit: Option<Duration>,
) -> Result<String, Miss> {
    let rules = Rules::of(setup, spot).map_err(|e| Miss::wrong(format!("(our script is wrong: {e})"), ""))?;
    c.send(&spot.command())?;
    c.send(go)?;
    let start = Instant::now();
    let wait = limit.unwrap_or(Duration::ZERO) + MARGIN + ANSWER_TIME;
    let (_, best) = c.until(wait, "'bestmove <a legal move>'", bestmove)?;
    let took = start.elapsed();
    if let Some(limit) = limit
        && took > limit + MARGIN
    {
        return Err(Miss::wrong(
            format!("bestmove {best} after {} ms", took.as_millis()),
            format!("an answer within {} ms", (limit + MARGIN).as_millis()),
        ));
    }
    rules.check(&best).map_err(|e| Miss::wrong(format!("'bestmove {best}' ({e})"), "a legal move"))?;
    Ok(format!("'bestmove {best}' in {} ms", took.as_millis()))
}

/// Sends `query what` and judges the answer: exactly `response <want>` (`response`
/// alone when `want` is empty), with no stray spaces.
fn query(c: &mut Checker, what: &str, want: &str) -> Result<String, Miss> {
    query_any(c, what, &[want])
}

/// [`query`] with more than one right answer (the first is named when none came).
fn query_any(c: &mut Checker, what: &str, wants: &[&str]) -> Result<String, Miss> {
    let mut expected: Vec<String> = wants.iter().map(|w| protocol::ugi::response_line(w)).collect();
    expected.dedup();
    let named = expected.iter().map(|e| format!("'{e}'")).collect::<Vec<_>>().join(" or ");
    c.send(&format!("query {what}"))?;
    let (_, got) =
        c.until_lines(ANSWER_TIME, &named, false, |l| response(l.trim()).is_some().then(|| l.to_string()))?;
    if expected.contains(&got) { Ok(format!("'{got}'")) } else { Err(Miss::wrong(format!("'{got}'"), named)) }
}

fn ugi_checks(c: &mut Checker, spec: &EngineSpec, setup: GameSetup) -> io::Result<()> {
    let game = setup.kind.name();
    let mut options: Vec<String> = Vec::new();
    c.check("ugi answers id/option lines and ugiok", |c| {
        c.send("ugi")?;
        let (other, _) = c.until(ANSWER_TIME, "'ugiok'", |l| (l == "ugiok" || l == "uciok").then_some(()))?;
        if let Some(bad) = other.iter().find(|l| !UGI_LINES.iter().any(|p| l.starts_with(p))) {
            return Err(Miss::wrong(format!("'{bad}' before ugiok"), "only id, option and info lines before ugiok"));
        }
        options = other.iter().filter(|l| l.starts_with("option ")).cloned().collect();
        let name = other.iter().find_map(|l| l.strip_prefix("id name ")).unwrap_or("(no id name)").to_string();
        Ok(format!("'{name}', {} options, 'ugiok'", options.len()))
    })?;
    c.check(&format!("the Game option offers {game}"), |_| {
        let Some(line) = options.iter().find(|l| l.starts_with("option name Game ")) else {
            return Ok("no Game option (an engine of one game)".into());
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.windows(2).any(|w| w[0] == "var" && w[1].eq_ignore_ascii_case(game)) {
            Ok(format!("'{}'", shorten(line, 80)))
        } else {
            Err(Miss::wrong(format!("'{line}'"), format!("'var {game}'")))
        }
    })?;
    c.check("isready answers readyok", |c| c.ready().map(|_| "'readyok'".to_string()))?;
    c.check(&format!("setoption selects {game} without an error"), |c| {
        c.send(&format!("setoption name Game value {game}"))?;
        let sizes = setup.kind.board_sizes();
        if sizes.min < sizes.max {
            c.send(&format!("setoption name BoardSize value {}", setup.size))?;
        }
        if setup.kind.spec().default_komi().is_some() {
            c.send(&format!("setoption name Komi value {}", setup.komi))?;
        }
        for (name, value) in &spec.options {
            c.send(&format!("setoption name {name} value {value}"))?;
        }
        for line in &spec.init {
            c.send(line)?;
        }
        let other = c.ready()?;
        match other.iter().find(|l| l.to_ascii_lowercase().contains("error")) {
            Some(e) => Err(Miss::wrong(format!("'{e}'"), "'readyok' and no error")),
            None => Ok("'readyok'".into()),
        }
    })?;
    c.check("uginewgame then isready", |c| {
        c.send("uginewgame")?;
        c.ready().map(|_| "'readyok'".to_string())
    })?;

    // The standard start: ours, or for Chaos Clock the engine's deal.
    let mut deal: Option<String> = None;
    c.check("position startpos, query fen", |c| {
        c.send("position startpos")?;
        c.send("query fen")?;
        let (_, fen) = c.until(ANSWER_TIME, "'response <the position>'", response)?;
        if setup.kind == GameKind::CHAOS_CLOCK {
            let state =
                cc::State::parse(&fen).map_err(|e| Miss::wrong(format!("'{fen}' ({e})"), "a Chaos Clock position"))?;
            deal = Some(state.to_string());
        } else {
            let ours = match Rules::at(&setup, None) {
                // Phantom Go's `query fen` from the start is the referee's full board.
                Ok(Rules::Phantom(referee)) => go::board_text(referee.board()),
                Ok(rules) => rules.text(),
                Err(e) => e,
            };
            if fen != ours {
                return Err(Miss::wrong(format!("'response {fen}'"), format!("'response {ours}'")));
            }
        }
        Ok(format!("'response {fen}'"))
    })?;
    let base = match deal {
        Some(d) => Spot { startpos: true, start: Some(d), moves: Vec::new() },
        None if setup.kind == GameKind::CHAOS_CLOCK => {
            Spot { startpos: false, start: Some(CHAOS_DEAL.into()), moves: Vec::new() }
        }
        None => Spot { startpos: true, start: None, moves: Vec::new() },
    };
    let (line, fen) = match Rules::of(&setup, &base).and_then(|r| {
        let line = line_of_play(&r, 4)?;
        let fen = Rules::of(&setup, &base.with_moves(line_of_play(&r, 5)?))?.text();
        Ok((line, fen))
    }) {
        Ok(v) => v,
        Err(e) => {
            writeln!(c.out, "FAIL  the check's own script: {e}")?;
            c.report.failed += 1;
            return Ok(());
        }
    };
    let played = base.with_moves(line);
    let fen_spot = Spot { startpos: false, start: Some(fen.clone()), moves: Vec::new() };

    // The first search after `readyok` (ugi.md: the set-up belongs before it); the
    // line shows its wall time, what a client with a small buffer sees.
    c.check("the first go movetime 100 after readyok: a legal bestmove in time", |c| {
        ugi_search(c, &setup, &base, "go movetime 100", Some(Duration::from_millis(100)))
    })?;
    c.check("position … moves …, go depth 2: a legal bestmove", |c| {
        ugi_search(c, &setup, &played, "go depth 2", None)
    })?;
    c.check("position fen, query fen gives it back", |c| {
        c.send(&fen_spot.command())?;
        c.send("query fen")?;
        let (_, got) = c.until(ANSWER_TIME, "'response <the position>'", response)?;
        if got == fen {
            Ok(format!("'response {got}'"))
        } else {
            Err(Miss::wrong(format!("'response {got}'"), format!("'response {fen}'")))
        }
    })?;
    c.check("position fen, go nodes 1000: a legal bestmove", |c| {
        ugi_search(c, &setup, &fen_spot, "go nodes 1000", None)
    })?;
    c.check("go p1time p2time p1inc p2inc: a legal bestmove in time", |c| {
        ugi_search(c, &setup, &played, "go p1time 3000 p2time 3000 p1inc 100 p2inc 100", Some(Duration::from_secs(3)))
    })?;

    // go infinite: isready during the search, then stop.
    let mut searching = false;
    c.check("isready during go infinite", |c| {
        c.send(&played.command())?;
        c.send("go infinite")?;
        searching = true;
        std::thread::sleep(Duration::from_millis(300));
        c.send("isready")?;
        let (_, answer) = c.until(ANSWER_TIME, "'readyok' (and no bestmove before stop)", |l| {
            (l == "readyok" || bestmove(l).is_some()).then(|| l.to_string())
        })?;
        if answer != "readyok" {
            return Err(Miss::wrong(format!("'{answer}' before stop"), "'readyok'"));
        }
        Ok("'readyok'".into())
    })?;
    c.check("stop ends go infinite at once with a legal bestmove", |c| {
        let rules = Rules::of(&setup, &played).map_err(|e| Miss::wrong(e, ""))?;
        if !searching {
            c.send(&played.command())?;
            c.send("go infinite")?;
            std::thread::sleep(Duration::from_millis(300));
        }
        c.send("stop")?;
        let start = Instant::now();
        let (_, best) = c.until(PROMPT + ANSWER_TIME, "'bestmove <a legal move>'", bestmove)?;
        let took = start.elapsed();
        if took > PROMPT {
            return Err(Miss::wrong(
                format!("'bestmove {best}' {} ms after stop", took.as_millis()),
                format!("within {} ms", PROMPT.as_millis()),
            ));
        }
        rules.check(&best).map_err(|e| Miss::wrong(format!("'bestmove {best}' ({e})"), "a legal move"))?;
        Ok(format!("'bestmove {best}' {} ms after stop", took.as_millis()))
    })?;

    c.check("query gameover and result in a game under way", |c| {
        c.send(&played.command())?;
        let a = query(c, "gameover", "false")?;
        let b = query(c, "result", "none")?;
        Ok(format!("{a} {b}"))
    })?;
    // A finished game: Othello's full board; two passes where the rules have them;
    // else the fixed line of play to the end.
    let over = if setup.kind == GameKind::OTHELLO {
        Spot { startpos: false, start: Some(format!("{}O X", "X".repeat(63))), moves: Vec::new() }
    } else {
        let passes = base.with_moves(vec!["pass".into(), "pass".into()]);
        match Rules::of(&setup, &base) {
            Ok(r) if Rules::of(&setup, &passes).is_err() => base.with_moves(line_of_play(&r, 1000).unwrap_or_default()),
            _ => passes,
        }
    };
    let over_outcome = Rules::of(&setup, &over).ok().and_then(|r| r.outcome());
    c.check("query gameover and result in a finished game", |c| {
        let Some(outcome) = over_outcome else {
            return Err(Miss::wrong("(our rules do not end the script's game)", ""));
        };
        c.send(&over.command())?;
        let a = query(c, "gameover", "true")?;
        // ugi.md's word (Chaos Clock's both-win and both-lose are `draw`), or the
        // outcome's own word.
        let b = query_any(c, "result", &[Outcome::ugi_word(Some(outcome)), Outcome::ugi_full_word(Some(outcome))])?;
        Ok(format!("{a} {b}"))
    })?;
    c.check("query legalmoves in a finished game answers 'response' alone", |c| {
        c.send(&over.command())?;
        query(c, "legalmoves", "")
    })?;
    c.check("go in a finished game answers bestmove none", |c| {
        c.send(&over.command())?;
        c.send("go movetime 100")?;
        let (_, best) = c.until(ANSWER_TIME, "'bestmove none'", bestmove)?;
        if matches!(best.as_str(), "none" | "(none)") {
            Ok(format!("'bestmove {best}'"))
        } else {
            Err(Miss::wrong(format!("'bestmove {best}'"), "'bestmove none'"))
        }
    })?;
    c.check("malformed lines are survived (isready still answered)", |c| {
        for line in ["position startpos moves zz99", "go sideways", "setoption", "position", "xyzzy \u{1} 12"] {
            c.send(line)?;
        }
        c.ready().map(|_| "'readyok'".to_string())
    })?;
    c.check("quit exits within a second", |c| c.quit())?;
    Ok(())
}

// ---------------------------------------------------------------------------------
// GTP

fn color_word(black: bool) -> &'static str {
    if black { "black" } else { "white" }
}

/// A well-formed GTP score: `B+3.5`, `W+12`, `0`.
fn score_form(text: &str) -> Option<char> {
    if text == "0" {
        return Some('0');
    }
    let (side, margin) = text.split_once('+')?;
    let side = match side {
        "B" | "b" => 'B',
        "W" | "w" => 'W',
        _ => return None,
    };
    margin.parse::<f64>().ok().filter(|m| m.is_finite() && *m >= 0.0).map(|_| side)
}

fn gtp_checks(c: &mut Checker, spec: &EngineSpec, setup: GameSetup) -> io::Result<()> {
    c.check("protocol_version is 2", |c| {
        let r = c.gtp("protocol_version", ANSWER_TIME)?;
        if r.success && r.text == "2" { Ok(r.shown()) } else { Err(Miss::wrong(r.shown(), "'= 2'")) }
    })?;
    c.check("name", |c| {
        let r = c.gtp("name", ANSWER_TIME)?;
        if r.success && !r.text.is_empty() { Ok(r.shown()) } else { Err(Miss::wrong(r.shown(), "'= <a name>'")) }
    })?;
    c.check("version", |c| c.gtp_ok("version"))?;
    let mut commands: Vec<String> = Vec::new();
    c.check("list_commands has the required commands", |c| {
        let r = c.gtp("list_commands", ANSWER_TIME)?;
        commands = r.text.lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect();
        let missing: Vec<&str> = GTP_REQUIRED.iter().copied().filter(|m| !commands.iter().any(|c| c == m)).collect();
        if r.success && missing.is_empty() {
            Ok(format!("{} commands", commands.len()))
        } else {
            Err(Miss::wrong(
                format!("{} commands, without {}", commands.len(), missing.join(" ")),
                GTP_REQUIRED.join(" "),
            ))
        }
    })?;
    let listed = |name: &str| commands.iter().any(|c| c == name);
    c.check("known_command: true for play, false for an unknown one", |c| {
        let yes = c.gtp("known_command play", ANSWER_TIME)?;
        let no = c.gtp(&format!("known_command {UNKNOWN_COMMAND}"), ANSWER_TIME)?;
        if yes.success && yes.text == "true" && no.success && no.text == "false" {
            Ok(format!("{} {}", yes.shown(), no.shown()))
        } else {
            Err(Miss::wrong(format!("{} {}", yes.shown(), no.shown()), "'= true' '= false'"))
        }
    })?;
    c.check("boardsize 99 refused with '?'", |c| {
        let r = c.gtp("boardsize 99", ANSWER_TIME)?;
        if r.success { Err(Miss::wrong(r.shown(), "'? unacceptable size'")) } else { Ok(r.shown()) }
    })?;
    if setup.kind == GameKind::OTHELLO && listed("set_game") {
        c.check("set_game Othello", |c| c.gtp_ok("set_game Othello"))?;
    }
    c.check(&format!("boardsize {}", setup.size), |c| c.gtp_ok(&format!("boardsize {}", setup.size)))?;
    c.check("clear_board", |c| c.gtp_ok("clear_board"))?;
    if setup.kind == GameKind::GO {
        c.check(&format!("komi {}", setup.komi), |c| c.gtp_ok(&format!("komi {}", setup.komi)))?;
    }
    if listed("time_settings") {
        c.check("time_settings 0 1 1 (a second a move)", |c| c.gtp_ok("time_settings 0 1 1"))?;
    }
    for line in &spec.init {
        c.check(&format!("init '{line}'"), |c| c.gtp_ok(line))?;
    }

    let Ok(mut rules) = Rules::at(&setup, None) else {
        writeln!(c.out, "FAIL  the check's own script: no start position")?;
        c.report.failed += 1;
        return Ok(());
    };
    let line = line_of_play(&rules, 2).unwrap_or_default();
    let mut black = true;
    c.check("play: legal moves accepted", |c| {
        let mut shown = Vec::new();
        for mv in &line {
            shown.push(c.gtp_ok(&format!("play {} {mv}", color_word(black)))?);
            rules.play(mv).map_err(|e| Miss::wrong(e, "(our script)"))?;
            black = !black;
        }
        Ok(shown.join(" "))
    })?;
    let illegal = rules.illegal_example(setup.size);
    c.check("play: an illegal move refused with '?'", |c| {
        let Some(mv) = &illegal else { return Err(Miss::wrong("(no illegal move found)", "")) };
        let r = c.gtp(&format!("play {} {mv}", color_word(black)), ANSWER_TIME)?;
        if r.success { Err(Miss::wrong(r.shown(), "'? …' (illegal move)")) } else { Ok(r.shown()) }
    })?;
    c.check("play: a bad colour and a bad vertex refused with '?'", |c| {
        let legal = rules.moves().first().cloned().unwrap_or_else(|| "pass".into());
        let colour = c.gtp(&format!("play purple {legal}"), ANSWER_TIME)?;
        let vertex = c.gtp(&format!("play {} zz", color_word(black)), ANSWER_TIME)?;
        if colour.success || vertex.success {
            Err(Miss::wrong(format!("{} {}", colour.shown(), vertex.shown()), "'? …' '? …'"))
        } else {
            Ok(format!("{} {}", colour.shown(), vertex.shown()))
        }
    })?;
    c.check(&format!("genmove {}: a legal move", color_word(black)), |c| {
        let start = Instant::now();
        let r = c.gtp(&format!("genmove {}", color_word(black)), Duration::from_secs(1) + MARGIN + ANSWER_TIME)?;
        if !r.success {
            return Err(Miss::wrong(r.shown(), "'= <a legal move>'"));
        }
        if r.text.eq_ignore_ascii_case("resign") {
            return Ok(format!("{} in {} ms", r.shown(), start.elapsed().as_millis()));
        }
        rules.check(&r.text).map_err(|e| Miss::wrong(format!("{} ({e})", r.shown()), "a legal move"))?;
        Ok(format!("{} in {} ms", r.shown(), start.elapsed().as_millis()))
    })?;
    c.check("a numeric id is echoed ('7 name' → '=7 …')", |c| {
        let r = c.gtp("7 name", ANSWER_TIME)?;
        if r.head == "=7" { Ok(r.shown()) } else { Err(Miss::wrong(r.shown(), "'=7 <name>'")) }
    })?;
    c.check("an unknown command gets '?'", |c| {
        let r = c.gtp(UNKNOWN_COMMAND, ANSWER_TIME)?;
        if r.success { Err(Miss::wrong(r.shown(), "'? …'")) } else { Ok(r.shown()) }
    })?;
    c.check("an error reply carries the id ('9 …' → '?9 …')", |c| {
        let r = c.gtp(&format!("9 {UNKNOWN_COMMAND}"), ANSWER_TIME)?;
        if r.head == "?9" { Ok(r.shown()) } else { Err(Miss::wrong(r.shown(), "'?9 …'")) }
    })?;
    c.check("empty and comment lines are ignored", |c| {
        c.send("")?;
        c.send("# a comment")?;
        let r = c.gtp("8 protocol_version", ANSWER_TIME)?;
        if r.head == "=8" && r.text == "2" {
            Ok(r.shown())
        } else {
            Err(Miss::wrong(r.shown(), "'=8 2' (the first reply)"))
        }
    })?;
    if listed("final_score") {
        let (name, moves): (&str, Vec<String>) = if setup.kind == GameKind::OTHELLO {
            ("final_score of a finished game", OTHELLO_WIPEOUT.iter().map(|m| m.to_string()).collect())
        } else {
            ("final_score is well formed", Vec::new())
        };
        c.check(name, |c| {
            let mut want = None;
            if !moves.is_empty() {
                let mut r = Rules::at(&setup, None).map_err(|e| Miss::wrong(e, ""))?;
                c.gtp_ok("clear_board")?;
                for (i, mv) in moves.iter().enumerate() {
                    c.gtp_ok(&format!("play {} {mv}", color_word(i % 2 == 0)))?;
                    r.play(mv).map_err(|e| Miss::wrong(e, "(our script)"))?;
                }
                want = match r.outcome() {
                    Some(Outcome::Win(Side::One)) => Some('B'),
                    Some(Outcome::Win(Side::Two)) => Some('W'),
                    Some(_) => Some('0'),
                    None => return Err(Miss::wrong("(our script's game is not over)", "")),
                };
            }
            let r = c.gtp("final_score", SCORE_TIME)?;
            match (r.success, score_form(&r.text), want) {
                (true, Some(side), Some(w)) if side != w => {
                    Err(Miss::wrong(r.shown(), format!("a score that starts with {w} (our rules)")))
                }
                (true, Some(_), _) => Ok(r.shown()),
                _ => Err(Miss::wrong(r.shown(), "'= B+<n>', '= W+<n>' or '= 0'")),
            }
        })?;
    }
    c.check("quit answers and exits within a second", |c| {
        let r = c.gtp("quit", ANSWER_TIME)?;
        if !r.success {
            return Err(Miss::wrong(r.shown(), "'='"));
        }
        let start = Instant::now();
        match c.process.wait_exit(PROMPT) {
            Some(status) => Ok(format!("{}, exited after {} ms ({status})", r.shown(), start.elapsed().as_millis())),
            None => Err(Miss::wrong(
                format!("{}, still running after {} ms", r.shown(), PROMPT.as_millis()),
                format!("exit within {} ms", PROMPT.as_millis()),
            )),
        }
    })?;
    Ok(())
}

// ---------------------------------------------------------------------------------
// NBoard

/// The move of an NBoard `=== move[/eval[/time]]` line.
fn nboard_move(line: &str) -> Option<String> {
    line.strip_prefix("===").map(|rest| rest.trim().split('/').next().unwrap_or("").trim().to_string())
}

fn nboard_checks(c: &mut Checker, spec: &EngineSpec) -> io::Result<()> {
    let setup = GameSetup { kind: GameKind::OTHELLO, size: 8, komi: 0.0 };
    let Ok(start) = Rules::at(&setup, None) else {
        writeln!(c.out, "FAIL  the check's own script: no start position")?;
        c.report.failed += 1;
        return Ok(());
    };
    let line = line_of_play(&start, 3).unwrap_or_default();
    let spot = Spot { startpos: true, start: None, moves: line.clone() };
    let Ok(mut rules) = Rules::of(&setup, &spot) else {
        writeln!(c.out, "FAIL  the check's own script")?;
        c.report.failed += 1;
        return Ok(());
    };
    c.check("nboard 2, ping 1 → pong 1", |c| {
        c.send("nboard 2")?;
        c.ping(1, ANSWER_TIME).map(|_| "'pong 1'".to_string())
    })?;
    c.check("set depth 2, ping 2 → pong 2", |c| {
        c.send("set depth 2")?;
        for (name, value) in &spec.options {
            c.send(&format!("set {name} {value}"))?;
        }
        for line in &spec.init {
            c.send(line)?;
        }
        c.ping(2, ANSWER_TIME).map(|_| "'pong 2'".to_string())
    })?;
    c.check("set game <GGF>, ping 3 → pong 3", |c| {
        c.send(&format!("set game {}", Rules::ggf(&line)))?;
        c.ping(3, ANSWER_TIME).map(|_| "'pong 3'".to_string())
    })?;
    let search = |c: &mut Checker, rules: &Rules| -> Result<String, Miss> {
        c.send("go")?;
        let start = Instant::now();
        let (_, mv) = c.until(ANSWER_TIME + MARGIN, "'=== <a legal move>'", nboard_move)?;
        rules.check(&mv).map_err(|e| Miss::wrong(format!("'=== {mv}' ({e})"), "a legal move"))?;
        Ok(format!("'=== {mv}' in {} ms", start.elapsed().as_millis()))
    };
    c.check("go → === a legal move", |c| search(c, &rules))?;
    c.check("hint 1 → search lines with a legal move, ping 5 → pong 5", |c| {
        c.send("hint 1")?;
        let other = c.ping(5, ANSWER_TIME + MARGIN)?;
        let searches: Vec<&String> = other.iter().filter(|l| l.starts_with("search ")).collect();
        let Some(first) = searches.first() else {
            return Err(Miss::wrong(
                format!("{} other lines, no 'search'", other.len()),
                "'search <move> <eval> 0 <depth>'",
            ));
        };
        let mv = first.split_whitespace().nth(1).unwrap_or("");
        let mv: String = mv.chars().take(2).collect();
        rules.check(&mv).map_err(|e| Miss::wrong(format!("'{first}' ({e})"), "a legal first move"))?;
        Ok(format!("{} search lines, e.g. '{}'", searches.len(), shorten(first, 50)))
    })?;
    let next = rules.moves().first().cloned().unwrap_or_else(|| "pass".into());
    c.check(&format!("move {next}, go → === a legal move"), |c| {
        c.send(&format!("move {next}"))?;
        rules.play(&next).map_err(|e| Miss::wrong(e, "(our script)"))?;
        search(c, &rules)
    })?;
    c.check("a malformed line is survived (ping 7 → pong 7)", |c| {
        c.send("xyzzy 12 \u{1}")?;
        c.ping(7, ANSWER_TIME).map(|_| "'pong 7'".to_string())
    })?;
    c.check("quit exits within a second", |c| c.quit())?;
    Ok(())
}
