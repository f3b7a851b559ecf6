//! Drives a `sente` process over its pipes, as a GUI or an arena does.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long any single expected reply may take, generous for a loaded machine.
pub const REPLY: Duration = Duration::from_secs(30);

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything received so far, for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts `sente` with `args`.
    pub fn start(args: &[&str]) -> Engine {
        Engine::start_program(env!("CARGO_BIN_EXE_sente"), args)
    }

    /// Starts any program with `args` (another engine, for differential tests).
    pub fn start_program(program: &str, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines: rx, transcript: Vec::new() }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to sente");
        stdin.flush().expect("flush");
    }

    /// Closes the engine's input (EOF).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or a panic after `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> String {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.clone());
                line
            }
            Err(RecvTimeoutError::Timeout) => panic!("no reply within {timeout:?}; so far: {:#?}", self.transcript),
            Err(RecvTimeoutError::Disconnected) => {
                panic!("sente closed its output; so far: {:#?}", self.transcript)
            }
        }
    }

    /// Lines up to and including the first one for which `done` holds.
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + REPLY;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.recv(left.max(Duration::from_millis(1)));
            let stop = done(&line);
            out.push(line);
            if stop {
                return out;
            }
        }
    }

    /// Every line still to come, until the engine closes its output; a panic if that
    /// takes longer than `timeout`.
    pub fn rest(&mut self, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left.max(Duration::from_millis(1))) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    out.push(line);
                }
                Err(RecvTimeoutError::Disconnected) => return out,
                Err(RecvTimeoutError::Timeout) => {
                    panic!("output still open after {timeout:?}; so far: {:#?}", self.transcript)
                }
            }
        }
    }

    /// Sends `line` and returns the next line received.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.recv(REPLY)
    }

    /// True if nothing arrives within `wait`.
    pub fn silent_for(&mut self, wait: Duration) -> bool {
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.transcript.push(line);
                false
            }
            Err(_) => true,
        }
    }

    /// The process's peak resident memory so far in MiB (`VmHWM` of
    /// `/proc/PID/status`; Linux only).
    pub fn peak_resident_mib(&self) -> f64 {
        let path = format!("/proc/{}/status", self.child.id());
        let status = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("VmHWM line");
        let kib: f64 = line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("VmHWM in kB");
        kib / 1024.0
    }

    /// The exit status if the process has exited (its input left as it is).
    pub fn try_wait(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Waits for the process to exit and returns its exit status success.
    pub fn wait_exit(mut self, timeout: Duration) -> bool {
        self.exited_cleanly(timeout)
    }

    /// Closes the input, waits for the process to exit and returns its exit status
    /// success (the engine stays borrowed, for its transcript).
    pub fn exited_cleanly(&mut self, timeout: Duration) -> bool {
        self.stdin = None;
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("sente did not exit within {timeout:?}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends a GTP command and returns the reply, its lines joined, without the empty
/// line that ends it.
pub fn gtp(e: &mut Engine, command: &str) -> String {
    e.send(command);
    let mut lines = vec![e.recv(REPLY)];
    loop {
        let l = e.recv(REPLY);
        if l.is_empty() {
            break;
        }
        lines.push(l);
    }
    lines.join("\n")
}

/// Runs `sente` with `args` to completion and returns its standard output.
pub fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_sente")).args(args).output().expect("run sente");
    assert!(out.status.success(), "sente {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8 output")
}
/// Runs `sente` with `args`, which must fail, and returns its standard error.
pub fn refused(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_sente")).args(args).output().expect("run sente");
    assert!(!out.status.success(), "sente {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}
pub mod mutate;
pub mod untimed;

/// A scratch folder of one test's own: unique (tests run in threads of one process,
/// and processes run side by side), removed when the test ends; kept, and named on
/// stderr, when the test fails, to look into.
pub struct Scratch(Option<tempfile::TempDir>);

impl Scratch {
    /// A new empty folder named `sente-<name>-<random>` in the system's temporary
    /// folder.
    pub fn new(name: &str) -> Scratch {
        let dir = tempfile::Builder::new().prefix(&format!("sente-{name}-")).tempdir().expect("a scratch folder");
        Scratch(Some(dir))
    }

    /// The folder.
    pub fn path(&self) -> &std::path::Path {
        self.0.as_ref().expect("the folder until dropped").path()
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;

    fn deref(&self) -> &std::path::Path {
        self.path()
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        self.path()
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.path().as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking()
            && let Some(dir) = self.0.take()
        {
            eprintln!("the failed test's files are kept in {}", dir.keep().display());
        }
    }
}
