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

mod gtp;
mod nboard;
mod phantom;
mod rules;
mod ugi;

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use self::gtp::gtp_checks;
use self::nboard::nboard_checks;
use self::ugi::ugi_checks;
use super::players::{EngineSpec, GameSetup, Protocol, UGI_LINES};
use super::process::{Fault, Log, Process};

/// How long an engine may take over an answer that needs no search.
const ANSWER_TIME: Duration = Duration::from_secs(5);
/// How soon a `go infinite` must end after `stop`, and an engine exit after `quit`.
const PROMPT: Duration = Duration::from_secs(1);
/// How far a search may overrun its own time limit.
const MARGIN: Duration = Duration::from_secs(1);
/// Checks left unanswered in a row after which the rest are not run.
pub const MAX_SILENT: usize = 3;
/// Lines an engine may write that a check does not look at.
const MAX_OTHER_LINES: usize = 1000;

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
        Protocol::Nboard => setup.kind.spec().speaks_nboard(),
        Protocol::Phantom => setup.kind.spec().hides_moves(),
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
