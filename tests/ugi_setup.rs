//! ugi.md's set-up rule and the `go` limits (issue 47): the set-up a search needs
//! (Go's tree of `Hash`, Othello's solver and book) is done when `isready` is asked,
//! before `readyok`, not inside the first `go`; `go depth` and `go nodes` are honoured
//! or answered with an `info string`, never silently replaced. Nothing here is timed:
//! the set-up is seen in the process (its resident memory, its threads), the limits
//! in the `info` lines.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// How long any expected line may take, generous for a loaded machine.
const REPLY: Duration = Duration::from_secs(60);

/// A `sente` process over its pipes, with its process id (for `/proc`).
struct Sente {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

impl Sente {
    fn start() -> Sente {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sente"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start sente");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take().expect("stdin");
        Sente { child, stdin, lines, transcript: Vec::new() }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush()).expect("write to sente");
    }

    /// Lines up to and including the first for which `done` holds.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = self.lines.recv_timeout(REPLY).unwrap_or_else(|e| panic!("{e}; so far {:#?}", self.transcript));
            self.transcript.push(line.clone());
            out.push(line.clone());
            if done(&line) {
                return out;
            }
        }
    }

    /// Sends `line` and returns the next line.
    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.until(|_| true).remove(0)
    }

    /// The lines of a `go` up to its `bestmove`.
    fn go(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.until(|l| l.starts_with("bestmove "))
    }

    /// Resident memory now, in MiB (`VmRSS`).
    #[cfg(target_os = "linux")]
    fn resident_mib(&self) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).expect("status");
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS");
        let kib: f64 = line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("VmRSS in kB");
        kib / 1024.0
    }

    /// Waits until the process has `count` threads whose name starts with `prefix` (a
    /// thread names itself once it runs) and returns the number it had then, or the
    /// last number seen after [`REPLY`].
    #[cfg(target_os = "linux")]
    fn wait_for_threads(&self, prefix: &str, count: usize) -> usize {
        let deadline = std::time::Instant::now() + REPLY;
        loop {
            let n = self.threads_named(prefix);
            if n == count || std::time::Instant::now() > deadline {
                return n;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Threads of the process whose name starts with `prefix`.
    #[cfg(target_os = "linux")]
    fn threads_named(&self, prefix: &str) -> usize {
        let tasks = std::fs::read_dir(format!("/proc/{}/task", self.child.id())).expect("tasks");
        tasks
            .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
            .filter(|name| name.starts_with(prefix))
            .count()
    }
}

impl Drop for Sente {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

/// The number after `word` in `line`.
fn field(line: &str, word: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|w| *w == word)?;
    words.next()?.parse().ok()
}

/// The last `info` line with a `nodes` field.
fn final_info(lines: &[String]) -> &str {
    let progress = |l: &&String| l.starts_with("info ") && !l.starts_with("info string") && field(l, "nodes").is_some();
    lines.iter().rev().find(progress).expect("an info line")
}

/// Go's tree of `Hash` is made at `isready`: its transposition table (32 MiB of a
/// 1024 MiB `Hash`) is written then, so the process holds it before `readyok`; the
/// searches of the next moves keep that tree (a new one would free the written
/// table), and another `isready` makes nothing new.
#[cfg(target_os = "linux")]
#[test]
fn go_makes_its_tree_at_isready_and_the_searches_keep_it() {
    let mut e = Sente::start();
    e.send("setoption name Game value go");
    e.send("setoption name Hash value 1024");
    // Searches, not the opening book's immediate moves.
    e.send("setoption name Book value false");
    // A reply: the options above are done.
    assert_eq!(e.ask("query p1turn"), "response true");
    let before = e.resident_mib();
    assert_eq!(e.ask("isready"), "readyok");
    let ready = e.resident_mib();
    assert!(ready >= before + 24.0, "resident {before:.1} MiB before isready, {ready:.1} MiB after");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..2 {
        e.send(
            &format!("position startpos moves {}", moves.join(" "))
                .replace(" moves ", if moves.is_empty() { "" } else { " moves " }),
        );
        let lines = e.go("go nodes 2000");
        assert_eq!(field(final_info(&lines), "nodes"), Some(2000), "{lines:?}");
        let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).expect("a move");
        moves.push(best.to_string());
    }
    let searched = e.resident_mib();
    assert!(searched >= ready - 8.0, "resident {ready:.1} MiB after isready, {searched:.1} MiB after two moves");
    assert_eq!(e.ask("isready"), "readyok");
    let again = e.resident_mib();
    assert!(again <= searched + 8.0, "resident {searched:.1} MiB, {again:.1} MiB after a second isready");
}

/// Othello's solver (its table and its threads) is made at `isready`, and the book is
/// read then: the solver's threads are there before the first `go`.
#[cfg(target_os = "linux")]
#[test]
fn othello_makes_its_solver_at_isready() {
    let mut e = Sente::start();
    e.send("setoption name Game value othello");
    e.send("setoption name Threads value 3");
    assert_eq!(e.ask("query p1turn"), "response true");
    assert_eq!(e.threads_named("solver-"), 0, "no solver before isready");
    assert_eq!(e.ask("isready"), "readyok");
    assert_eq!(e.wait_for_threads("solver-", 3), 3, "the solver's three threads after isready");
    e.send("position startpos moves f5 d6 c3 d3 c4");
    let lines = e.go("go depth 4");
    assert_eq!(field(final_info(&lines), "depth"), Some(4), "{lines:?}");
    assert_eq!(e.threads_named("solver-"), 3, "the same solver searched");
}

/// `go depth N` in Go and Phantom Go: Monte-Carlo search has no depth, so one `info
/// string` says so and what is searched instead (the other limits given, or the
/// playouts of `go` without a limit), and a move follows.
#[test]
fn go_depth_in_the_monte_carlo_games_is_answered_with_an_info_string() {
    let mut e = Sente::start();
    e.send("setoption name Game value go");
    e.send("setoption name BoardSize value 7");
    assert_eq!(e.ask("isready"), "readyok");
    e.send("position startpos");
    let lines = e.go("go depth 2");
    let notes: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string")).collect();
    assert_eq!(notes.len(), 1, "{lines:?}");
    assert!(notes[0].starts_with("info string go depth 2 is not a limit Go knows"), "{lines:?}");
    assert!(notes[0].contains("it runs 10000 playouts instead"), "{lines:?}");
    assert_eq!(field(final_info(&lines), "nodes"), Some(10_000), "{lines:?}");
    assert!(lines.last().is_some_and(|l| l != "bestmove none"), "{lines:?}");
    let lines = e.go("go depth 2 nodes 300");
    assert!(lines[0].ends_with("it searches within the other limits given"), "{lines:?}");
    assert_eq!(field(final_info(&lines), "nodes"), Some(300), "{lines:?}");

    let mut e = Sente::start();
    e.send("setoption name Game value phantomgo");
    assert_eq!(e.ask("isready"), "readyok");
    e.send("position startpos");
    let lines = e.go("go depth 3 nodes 400");
    assert!(lines[0].starts_with("info string go depth 3 is not a limit Phantom Go knows"), "{lines:?}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("info string")).count(), 1, "{lines:?}");
    assert_eq!(field(final_info(&lines), "nodes"), Some(400), "{lines:?}");
    assert!(lines.last().is_some_and(|l| l != "bestmove none"), "{lines:?}");
}

/// `go nodes N` in Chaos Clock searches at most N nodes (solver and heuristic search
/// together); `go nodes 200` searched 4 115 before.
#[test]
fn go_nodes_holds_in_chaos_clock() {
    let mut e = Sente::start();
    e.send("setoption name Game value chaosclock");
    assert_eq!(e.ask("isready"), "readyok");
    e.send("position startpos");
    for n in [1, 200, 1000, 20_000] {
        let lines = e.go(&format!("go nodes {n}"));
        let nodes = field(final_info(&lines), "nodes").expect("nodes");
        assert!(nodes <= n, "go nodes {n}: {nodes} nodes; {lines:?}");
        assert!(!lines.iter().any(|l| l.starts_with("info string")), "{lines:?}");
        assert!(lines.last().is_some_and(|l| l != "bestmove none"), "{lines:?}");
    }
    let lines = e.go("go depth 2");
    assert!(field(final_info(&lines), "depth").is_some_and(|d| d <= 2), "{lines:?}");
}
