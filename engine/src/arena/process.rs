//! An engine as a child process: lines in, lines out, with deadlines, and an optional
//! log of everything said.

use std::fs::File;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::io::{Input, MAX_LINE, read_line};

/// Why an engine's game ended against it (besides losing on the board).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process exited or closed its output.
    Crash(String),
    /// No answer in time.
    Timeout,
    /// An answer the protocol does not allow.
    Protocol(String),
    /// The arena is stopping (Ctrl-C): the game does not count.
    Interrupted,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Crash(why) => write!(f, "crashed ({why})"),
            Fault::Timeout => f.write_str("lost on time"),
            Fault::Protocol(why) => write!(f, "protocol violation: {why}"),
            Fault::Interrupted => f.write_str("interrupted"),
        }
    }
}

/// How long an engine that has written something that is not the protocol may stay
/// silent during set-up before it is judged unable to answer.
pub const HANDSHAKE_QUIET: Duration = Duration::from_secs(3);

/// Lines of an engine's standard error kept for the report of a crash.
const STDERR_TAIL_LINES: usize = 8;
/// Characters kept of each such line.
const STDERR_LINE_CHARS: usize = 200;
/// How long a crashed engine is given to exit and close its standard error before
/// the crash is reported with what has been read.
const CRASH_SETTLE: Duration = Duration::from_millis(1000);
/// How long an engine that died of SIGINT, SIGTERM or SIGHUP waits for the arena's own
/// stop flag before it counts as crashed.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// True if the engine ended on a request to stop (SIGINT, SIGTERM or SIGHUP), which a
/// terminal's Ctrl-C or `timeout` send to the arena's whole process group.
fn was_asked_to_stop(status: std::process::ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt;
    matches!(status.signal(), Some(1 | 2 | 15))
}

/// The last lines an engine wrote to its standard error, and whether it closed it.
#[derive(Default)]
struct StderrTail {
    lines: std::collections::VecDeque<String>,
    closed: bool,
}

/// A shared log of engine I/O.
pub type Log = Arc<Mutex<File>>;

/// A running engine.
pub struct Process {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Input>,
    log: Option<Log>,
    stop: Arc<AtomicBool>,
    stderr: Arc<Mutex<StderrTail>>,
}

impl Process {
    /// Starts `command` (program and arguments).
    pub fn start(name: &str, command: &[String], log: Option<Log>, stop: Arc<AtomicBool>) -> Result<Process, Fault> {
        let (program, args) = command.split_first().ok_or_else(|| Fault::Crash("empty command".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Fault::Crash(format!("cannot start '{program}': {e}")))?;
        let stdout = child.stdout.take().ok_or_else(|| Fault::Crash("no stdout".into()))?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            // Bounded lines: an engine that writes a line of megabytes is faulty (the
            // line is dropped as it is read), not a reason to buffer it all.
            let mut reader = BufReader::new(stdout);
            loop {
                let input = read_line(&mut reader);
                if input == Input::Eof || tx.send(input).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(StderrTail::default()));
        if let Some(pipe) = child.stderr.take() {
            let tail = stderr.clone();
            std::thread::spawn(move || keep_tail(pipe, &tail));
        } else if let Ok(mut tail) = stderr.lock() {
            tail.closed = true;
        }
        let stdin = child.stdin.take();
        Ok(Process { name: name.to_string(), child, stdin, lines: rx, log, stop, stderr })
    }

    /// The fault of an engine found dead (`what` happened): its exit status and the
    /// last lines of its standard error, once it has exited and closed it (or
    /// [`CRASH_SETTLE`] has passed).
    fn crash(&mut self, what: String) -> Fault {
        let deadline = Instant::now() + CRASH_SETTLE;
        let mut status = None;
        loop {
            if status.is_none() {
                status = self.child.try_wait().ok().flatten();
            }
            let closed = self.stderr.lock().map_or(true, |t| t.closed);
            if (status.is_some() && closed) || Instant::now() >= deadline {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        if status.is_some_and(was_asked_to_stop) && self.stopping_soon() {
            // Ctrl-C or SIGTERM reached the engine with the arena (its process group):
            // the arena is stopping, the engine did not fail.
            return Fault::Interrupted;
        }
        let why = status.map_or(what, |s| format!("exited: {s}"));
        let tail =
            self.stderr.lock().map(|t| t.lines.iter().cloned().collect::<Vec<_>>().join(" | ")).unwrap_or_default();
        if tail.is_empty() { Fault::Crash(why) } else { Fault::Crash(format!("{why}; stderr: {tail}")) }
    }

    /// True if the arena's stop flag is set now or within [`STOP_GRACE`] (the arena's
    /// own signal handler may run a moment after its engine has died of the signal).
    fn stopping_soon(&self) -> bool {
        let deadline = Instant::now() + STOP_GRACE;
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn log(&self, direction: &str, line: &str) {
        if let Some(log) = &self.log
            && let Ok(mut f) = log.lock()
        {
            let _ = writeln!(f, "{} {direction} {line}", self.name);
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.log(">", line);
        let stdin = self.stdin.as_mut().ok_or_else(|| Fault::Crash("input closed".into()))?;
        match stdin.write_all(format!("{line}\n").as_bytes()).and_then(|_| stdin.flush()) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.crash(format!("cannot write to it: {e}"))),
        }
    }

    /// The next line before `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, Fault> {
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return Err(Fault::Interrupted);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Fault::Timeout);
            }
            match self.lines.recv_timeout(left.min(Duration::from_millis(50))) {
                Ok(Input::Line(line)) => {
                    self.log("<", &line);
                    return Ok(line);
                }
                Ok(Input::TooLong { length, start }) => {
                    let shown: String = start.chars().take(40).collect();
                    self.log("<", &format!("{shown}… ({length} bytes)"));
                    return Err(Fault::Protocol(format!(
                        "a line of {length} bytes ('{shown}…'), longer than the {MAX_LINE} allowed"
                    )));
                }
                Ok(Input::Eof) => return Err(self.crash("output closed".to_string())),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(self.crash("output closed".to_string())),
            }
        }
    }

    /// Lines until one for which `done` gives a value, before `deadline`; more than
    /// `max_other` other non-empty lines is a protocol violation.
    pub fn recv_until<T>(
        &mut self,
        deadline: Instant,
        max_other: usize,
        mut done: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, Fault> {
        let mut other = 0;
        loop {
            let line = self.recv(deadline)?;
            if let Some(v) = done(line.trim()) {
                return Ok(v);
            }
            if !line.trim().is_empty() {
                other += 1;
                if other > max_other {
                    let shown: String = line.chars().take(40).collect();
                    return Err(Fault::Protocol(format!("unexpected output, e.g. '{shown}'")));
                }
            }
        }
    }

    /// The answer to a set-up command (`ugi`, `name?`): lines until one for which
    /// `done` gives a value, before `deadline`; but once the engine has written a line
    /// that starts with none of `protocol` (not the protocol: an unknown-command
    /// message, a usage text) and then nothing for [`HANDSHAKE_QUIET`], it is not going
    /// to answer: a protocol violation at once rather than at the deadline.
    pub fn recv_handshake<T>(
        &mut self,
        deadline: Instant,
        protocol: &[&str],
        mut done: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, Fault> {
        let mut garbage: Option<String> = None;
        loop {
            let wait = match &garbage {
                Some(_) => deadline.min(Instant::now() + HANDSHAKE_QUIET),
                None => deadline,
            };
            let line = match self.recv(wait) {
                Ok(line) => line,
                Err(Fault::Timeout) if Instant::now() < deadline => {
                    let shown = garbage.unwrap_or_default();
                    return Err(Fault::Protocol(format!("no answer in the protocol, only output such as '{shown}'")));
                }
                Err(e) => return Err(e),
            };
            let line = line.trim();
            if let Some(v) = done(line) {
                return Ok(v);
            }
            if line.is_empty() {
                continue;
            }
            if protocol.iter().any(|p| line.starts_with(p)) {
                garbage = None;
            } else {
                garbage = Some(line.chars().take(40).collect());
            }
        }
    }

    /// Waits up to `limit` for the process to exit by itself (its input left open);
    /// its exit status, or `None` while it still runs.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Asks the engine to quit, then ends it.
    pub fn quit(&mut self, command: &str) {
        let _ = self.send(command);
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads an engine's standard error to its end, keeping the last lines in `tail`.
fn keep_tail(pipe: std::process::ChildStderr, tail: &Mutex<StderrTail>) {
    let mut reader = BufReader::new(pipe);
    loop {
        let text = match read_line(&mut reader) {
            Input::Eof => break,
            Input::Line(text) => text,
            Input::TooLong { length, start } => format!("{start}… ({length} bytes)"),
        };
        let line: String = text.trim().chars().take(STDERR_LINE_CHARS).collect();
        if line.is_empty() {
            continue;
        }
        if let Ok(mut t) = tail.lock() {
            t.lines.push_back(line);
            if t.lines.len() > STDERR_TAIL_LINES {
                t.lines.pop_front();
            }
        }
    }
    if let Ok(mut t) = tail.lock() {
        t.closed = true;
    }
}
