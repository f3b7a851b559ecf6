//! Replays the outside fuzzer's cases (issue 77): plain transcripts under
//! `tests/data/fuzz_cases/<surface>/`, made by `scripts/fuzz_cases.py` (seeded, written
//! apart from the engine's own fuzz tests; the command that re-makes them is in its
//! doc and in docs/testing.md). Each case is sent, line by line, to the real binary
//! over pipes, its input then closed, and what holds for every case of its surface is
//! checked:
//!
//! * everywhere: the engine exits by itself within [`LIMIT`] of the end of input (no
//!   hang), with status 0 (no crash, no signal), and no panic on stderr;
//! * UGI+: every `go` that is not refused (`info string error: 'go…`) gets exactly one
//!   `bestmove`, every `isready` one `readyok` and every `query` one `response` (the
//!   refused ones, `info string error: 'isready…`/`'query…`, none);
//!   `query fen`, a line that got an error, `query fen`: the same position twice;
//!   `#! sync`: every `go` sent so far answered within 20 s;
//! * GTP: every command (a line with a name after its optional id) exactly one reply,
//!   `=`/`?` with the command's id, ended by an empty line; `showboard`, a command
//!   answered `?`, `showboard`: the same board; no Go board shown with a group
//!   without liberties (a position no game reaches: `loadsgf`'s setup is checked);
//! * NBoard: every `go` one `===`, every `ping` one `pong`;
//! * the Phantom Go platform: only `move` and `name` lines, one `name` for each
//!   `name?`, no more tries than lines that ask for one; with `strict-end` (tries
//!   longer than the case) no try after `end` until the next `new`;
//! * KataGo's analysis protocol: every line JSON, every query with a string `id` (and
//!   turns to analyse) answered with its id, as a response, an error or a warning;
//! * the arena's files: `sente arena report|merge|compare` on them ends within
//!   [`LIMIT`], with status 0 or a non-zero status and a message, never a signal or a
//!   panic, and leaves no `*.partial` file behind.
//!
//! Cases run a few at a time (`SENTE_FUZZ_THREADS`, default 4); `SENTE_FUZZ_CASE=text`
//! replays only the cases whose path contains it. A failure names each failing case
//! file, what broke and the engine's output.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a case may run after its input ends (generous: the suite shares a loaded
/// machine; a debug build sets Othello up far more slowly).
const LIMIT: Duration = Duration::from_secs(if cfg!(debug_assertions) { 120 } else { 30 });
/// How long `#! sync` waits for the `bestmove`s owed.
const SYNC: Duration = Duration::from_secs(20);

fn case_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/fuzz_cases")
}

fn case_files() -> Vec<PathBuf> {
    let filter = std::env::var("SENTE_FUZZ_CASE").unwrap_or_default();
    let mut files = Vec::new();
    for surface in std::fs::read_dir(case_dir()).expect("tests/data/fuzz_cases") {
        let surface = surface.expect("a folder").path();
        for case in std::fs::read_dir(&surface).expect("a surface's folder") {
            let case = case.expect("a case").path();
            if case.extension().is_some_and(|e| e == "txt") && case.to_string_lossy().contains(&filter) {
                files.push(case);
            }
        }
    }
    files.sort();
    files
}

/// One case file read.
struct Case {
    surface: String,
    args: Vec<String>,
    strict_end: bool,
    /// Lines to send and `#! sleep`/`#! sync` directives, in order.
    body: Vec<String>,
    /// Files to write into the case's folder: (relative path, text).
    files: Vec<(String, String)>,
    /// `#! run ARGS`: a command to run instead of a conversation.
    run: Option<String>,
}

fn read_case(text: &str) -> Case {
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    let rest = header.strip_prefix("# surface: ").expect("'# surface: S game=G args=…'");
    let (surface, rest) = rest.split_once(' ').expect("surface and game");
    let args = rest.split_once("args=").map_or("", |(_, a)| a);
    let mut args: Vec<String> = args.split_whitespace().map(str::to_string).collect();
    let strict_end = args.iter().any(|a| a == "strict-end");
    args.retain(|a| a != "strict-end");
    let mut case =
        Case { surface: surface.to_string(), args, strict_end, body: Vec::new(), files: Vec::new(), run: None };
    let mut file: Option<(String, String)> = None;
    for line in lines {
        if let Some(name) = line.strip_prefix("#! file ") {
            file = Some((name.to_string(), String::new()));
        } else if line == "#! end-file" {
            case.files.push(file.take().expect("a file to end"));
        } else if let Some((_, text)) = file.as_mut() {
            text.push_str(line);
            text.push('\n');
        } else if let Some(run) = line.strip_prefix("#! run ") {
            case.run = Some(run.to_string());
        } else {
            case.body.push(line.to_string());
        }
    }
    case
}

/// What the engine wrote: each stdout line with the number of lines sent before it
/// arrived.
type Output = Arc<Mutex<Vec<(String, usize)>>>;

fn spawn_reader(stream: impl Read + Send + 'static, out: Output, sent: Arc<AtomicUsize>) {
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stream);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).trim_end_matches('\n').to_string();
                    out.lock().expect("lock").push((line, sent.load(Ordering::SeqCst)));
                }
            }
        }
    });
}

/// Waits for `child` to exit within `limit`; kills it and returns `None` if it does not.
fn wait(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn status_problem(status: Option<std::process::ExitStatus>, what: &str) -> Option<String> {
    use std::os::unix::process::ExitStatusExt;
    match status {
        None => Some(format!("hang: no exit within {LIMIT:?}{what}")),
        Some(s) if s.signal().is_some() => Some(format!("killed by signal {}", s.signal().unwrap_or(0))),
        _ => None,
    }
}

/// Runs one case; the problems found (none: it passed) and the engine's output.
fn run_case(path: &Path) -> (Vec<String>, String) {
    let text = std::fs::read_to_string(path).expect("a case file");
    let case = read_case(&text);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let folder = dir.path().to_str().expect("a UTF-8 path").to_string();
    let sub = |s: &str| s.replace("{dir}", &folder);
    for (name, text) in &case.files {
        let file = dir.path().join(name);
        std::fs::create_dir_all(file.parent().expect("a folder")).expect("make the folder");
        std::fs::write(&file, text).expect("write a case's file");
    }
    let sente = env!("CARGO_BIN_EXE_sente");
    if let Some(run) = &case.run {
        let args: Vec<String> = shlex::split(run).expect("a command line").iter().map(|a| sub(a)).collect();
        let mut child = Command::new(sente)
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start sente");
        let err: Output = Arc::default();
        spawn_reader(child.stderr.take().expect("stderr"), err.clone(), Arc::default());
        let status = wait(&mut child, LIMIT);
        std::thread::sleep(Duration::from_millis(20));
        let stderr: String = err.lock().expect("lock").iter().map(|(l, _)| format!("{l}\n")).collect();
        let mut problems: Vec<String> = status_problem(status, "").into_iter().collect();
        if status.is_some_and(|s| s.code().is_some_and(|c| c != 0)) && stderr.trim().is_empty() {
            problems.push("a non-zero exit without a message".to_string());
        }
        if stderr.contains("panicked") {
            problems.push("a panic".to_string());
        }
        problems.extend(partial_files(dir.path()).into_iter().map(|f| format!("{f} left behind")));
        return (problems, stderr);
    }

    let args: Vec<String> = case.args.iter().map(|a| sub(a)).collect();
    let mut child = Command::new(sente)
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sente");
    let out: Output = Arc::default();
    let err: Output = Arc::default();
    let count = Arc::new(AtomicUsize::new(0));
    spawn_reader(child.stdout.take().expect("stdout"), out.clone(), count.clone());
    spawn_reader(child.stderr.take().expect("stderr"), err.clone(), Arc::default());
    let mut stdin = child.stdin.take();
    let mut sent: Vec<String> = Vec::new();
    let mut problems = Vec::new();
    for line in &case.body {
        if line == "#! sync" {
            let deadline = Instant::now() + SYNC;
            while Instant::now() < deadline && !ugi_synced(&sent, &out.lock().expect("lock")) {
                std::thread::sleep(Duration::from_millis(10));
            }
            if !ugi_synced(&sent, &out.lock().expect("lock")) {
                problems.push(format!("hang: a go without its bestmove {SYNC:?} after the line that ends it"));
            }
            continue;
        }
        if let Some(ms) = line.strip_prefix("#! sleep ") {
            std::thread::sleep(Duration::from_millis(ms.parse().expect("milliseconds")));
            continue;
        }
        // The engine may have exited (after `quit`): what it did not read is not sent.
        if let Some(input) = stdin.as_mut()
            && input.write_all(format!("{}\n", sub(line)).as_bytes()).and_then(|()| input.flush()).is_err()
        {
            stdin = None;
        }
        sent.push(line.clone());
        count.store(sent.len(), Ordering::SeqCst);
    }
    drop(stdin);
    let status = wait(&mut child, LIMIT);
    // The readers end with the process's pipes; let them catch up.
    std::thread::sleep(Duration::from_millis(50));
    let out = out.lock().expect("lock").clone();
    let stderr: String = err.lock().expect("lock").iter().map(|(l, _)| format!("{l}\n")).collect();
    problems.extend(status_problem(status, " of the end of input"));
    if let Some(s) = status
        && !s.success()
        && s.code().is_some()
    {
        problems.push(format!("{s}"));
    }
    if stderr.contains("panicked") {
        problems.push("a panic".to_string());
    }
    if status.is_some() {
        problems.extend(match case.surface.as_str() {
            "ugi" => check_ugi(&sent, &out),
            "gtp" => check_gtp(&sent, &out),
            "nboard" => check_nboard(&sent, &out),
            "phantom" => check_phantom(&sent, &out, case.strict_end),
            "analysis" => check_analysis(&sent, &out),
            other => panic!("unknown surface {other}"),
        });
    }
    let shown: String = out.iter().map(|(l, _)| format!("{l}\n")).collect();
    (problems, format!("{shown}--- stderr\n{stderr}"))
}

/// The files and folders named `*.partial` under `dir` (a write not finished).
fn partial_files(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.to_string_lossy().ends_with(".partial") {
            found.push(path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default());
        }
        if path.is_dir() {
            found.extend(partial_files(&path));
        }
    }
    found
}

fn first_token(line: &str, gtp: bool) -> &str {
    let mut tokens = line.split_whitespace();
    let first = tokens.next().unwrap_or("");
    if gtp && is_id(first) { tokens.next().unwrap_or("") } else { first }
}

fn is_id(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit())
}

/// The lines sent up to and including the first `quit` (the engine reads no further).
fn until_quit(sent: &[String], gtp: bool) -> &[String] {
    match sent.iter().position(|l| first_token(l, gtp) == "quit") {
        Some(i) => &sent[..=i],
        None => sent,
    }
}

fn count(lines: &[String], f: impl Fn(&str) -> bool) -> usize {
    lines.iter().filter(|l| f(l)).count()
}

fn ugi_synced(sent: &[String], out: &[(String, usize)]) -> bool {
    let gos = count(until_quit(sent, false), |l| first_token(l, false) == "go");
    let done = out.iter().filter(|(l, _)| l.starts_with("bestmove") || l.starts_with("info string error: 'go")).count();
    done >= gos
}

fn check_ugi(sent: &[String], out: &[(String, usize)]) -> Vec<String> {
    let sent = until_quit(sent, false);
    let lines: Vec<String> = out.iter().map(|(l, _)| l.clone()).collect();
    let mut p = Vec::new();
    let gos = count(sent, |l| first_token(l, false) == "go");
    let refused = count(&lines, |l| l.starts_with("info string error: 'go"));
    let best = count(&lines, |l| l.starts_with("bestmove"));
    if gos - refused.min(gos) != best {
        p.push(format!("{gos} go ({refused} refused), {best} bestmove"));
    }
    let ready = count(sent, |l| first_token(l, false) == "isready")
        - count(&lines, |l| l.starts_with("info string error: 'isready"))
            .min(count(sent, |l| first_token(l, false) == "isready"));
    let ok = count(&lines, |l| l == "readyok");
    if ready != ok {
        p.push(format!("{ready} isready, {ok} readyok"));
    }
    // A refused query (`info string error: 'query…`) gets no response; the pairs of
    // `query fen` are checked when none was refused.
    let queries: Vec<usize> = (0..sent.len()).filter(|&i| first_token(&sent[i], false) == "query").collect();
    let refused = count(&lines, |l| l.starts_with("info string error: 'query"));
    let responses: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("response")).collect();
    if queries.len() != responses.len() + refused {
        p.push(format!("{} query ({refused} refused), {} response", queries.len(), responses.len()));
        return p;
    }
    if refused > 0 {
        return p;
    }
    for k in 1..queries.len() {
        let (a, b) = (queries[k - 1], queries[k]);
        if b == a + 2 && sent[a] == "query fen" && sent[b] == "query fen" {
            let between = &lines[responses[k - 1] + 1..responses[k]];
            if between.iter().any(|l| l.starts_with("info string error"))
                && lines[responses[k - 1]] != lines[responses[k]]
            {
                p.push(format!(
                    "{:?} got an error and changed the position: {} -> {}",
                    sent[a + 1],
                    lines[responses[k - 1]],
                    lines[responses[k]]
                ));
            }
        }
    }
    p
}

fn check_gtp(sent: &[String], out: &[(String, usize)]) -> Vec<String> {
    // Empty lines, comments and a line with an id alone are not commands (GNU Go).
    let commands: Vec<&String> = until_quit(sent, true)
        .iter()
        .filter(|l| !first_token(l, true).is_empty() && !l.trim_start().starts_with('#'))
        .collect();
    let mut blocks: Vec<Vec<String>> = Vec::new();
    let mut current = Vec::new();
    for (l, _) in out {
        if l.is_empty() {
            blocks.push(std::mem::take(&mut current));
        } else {
            current.push(l.clone());
        }
    }
    let mut p = Vec::new();
    if !current.is_empty() {
        p.push(format!("a reply not ended by an empty line: {current:?}"));
    }
    if blocks.len() != commands.len() {
        p.push(format!("{} commands, {} replies", commands.len(), blocks.len()));
        return p;
    }
    for (command, block) in commands.iter().zip(&blocks) {
        let first = block.first().map_or("", String::as_str);
        let Some(rest) = first.strip_prefix('=').or_else(|| first.strip_prefix('?')) else {
            p.push(format!("{command:?} answered {first:?}"));
            continue;
        };
        let reply_id: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let framed = rest[reply_id.len()..].is_empty() || rest[reply_id.len()..].starts_with(' ');
        let id = command.split_whitespace().next().filter(|t| is_id(t));
        let same = |a: &str, b: &str| a.trim_start_matches('0') == b.trim_start_matches('0') && !b.is_empty();
        let ok = framed
            && match id {
                None => reply_id.is_empty(),
                Some(id) if id.parse::<u64>().is_ok() => same(id, &reply_id),
                // An id beyond 64 bits: its own id back, or an error (issue 77, item 6).
                Some(id) => first.starts_with('?') || same(id, &reply_id),
            };
        if !ok {
            p.push(format!("{command:?} answered {first:?}"));
        }
    }
    // A Go board with a group without liberties is one no game reaches.
    for (k, (command, block)) in commands.iter().zip(&blocks).enumerate() {
        if first_token(command, true) == "showboard"
            && let Some(point) = without_liberties(&go_board(block))
        {
            p.push(format!("command {}, showboard: a group without liberties at {point}", k + 1));
            break;
        }
    }
    for k in 2..commands.len() {
        if first_token(commands[k - 2], true) == "showboard"
            && first_token(commands[k], true) == "showboard"
            && blocks[k - 1].first().is_some_and(|l| l.starts_with('?'))
        {
            let board = |b: &[String]| -> Vec<String> {
                b.iter().map(|l| l.trim_start_matches(|c: char| c == '=' || c.is_ascii_digit()).to_string()).collect()
            };
            if board(&blocks[k - 2]) != board(&blocks[k]) {
                p.push(format!("{:?} failed and changed the board", commands[k - 1]));
            }
        }
    }
    p
}

/// The Go board of a `showboard` reply (rows `N . X O … N`; empty if none).
fn go_board(block: &[String]) -> Vec<Vec<u8>> {
    let mut rows = Vec::new();
    for line in block {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.len() >= 3
            && is_id(t[0])
            && t[t.len() - 1] == t[0]
            && t[1..t.len() - 1].iter().all(|c| matches!(*c, "X" | "O" | "." | "+"))
        {
            rows.push(t[1..t.len() - 1].iter().map(|c| c.as_bytes()[0]).collect());
        }
    }
    rows
}

/// A point of a group without a liberty, if the board has one.
fn without_liberties(rows: &[Vec<u8>]) -> Option<String> {
    let h = rows.len();
    let mut seen = std::collections::HashSet::new();
    for y in 0..h {
        for x in 0..rows[y].len() {
            let colour = rows[y][x];
            if !matches!(colour, b'X' | b'O') || seen.contains(&(y, x)) {
                continue;
            }
            let mut group = std::collections::HashSet::from([(y, x)]);
            let mut stack = vec![(y, x)];
            let mut free = false;
            while let Some((cy, cx)) = stack.pop() {
                let near = [(cy + 1, cx), (cy.wrapping_sub(1), cx), (cy, cx + 1), (cy, cx.wrapping_sub(1))];
                for (ny, nx) in near {
                    let Some(&c) = rows.get(ny).and_then(|r| r.get(nx)) else { continue };
                    if c == b'.' || c == b'+' {
                        free = true;
                    } else if c == colour && group.insert((ny, nx)) {
                        stack.push((ny, nx));
                    }
                }
            }
            seen.extend(group);
            if !free {
                return Some(format!("{}{}", b"ABCDEFGHJKLMNOPQRST"[x] as char, h - y));
            }
        }
    }
    None
}

fn check_nboard(sent: &[String], out: &[(String, usize)]) -> Vec<String> {
    let sent = until_quit(sent, false);
    let lines: Vec<String> = out.iter().map(|(l, _)| l.clone()).collect();
    let mut p = Vec::new();
    let gos = count(sent, |l| first_token(l, false) == "go");
    let moves = count(&lines, |l| l.starts_with("==="));
    if gos != moves {
        p.push(format!("{gos} go, {moves} ==="));
    }
    let pings = count(sent, |l| first_token(l, false) == "ping");
    let pongs = count(&lines, |l| l.starts_with("pong"));
    if pings != pongs {
        p.push(format!("{pings} ping, {pongs} pong"));
    }
    p
}

fn asks_for_a_try(line: &str) -> bool {
    let t: Vec<&str> = line.split_whitespace().collect();
    matches!(t.as_slice(), ["new", "black"] | ["move", "go"] | ["move", "pass"] | ["refuse"])
}

fn check_phantom(sent: &[String], out: &[(String, usize)], strict_end: bool) -> Vec<String> {
    let sent = until_quit(sent, false);
    let mut p = Vec::new();
    for (l, _) in out {
        if !l.starts_with("move ") && !l.starts_with("name ") {
            p.push(format!("an unexpected line {l:?}"));
        }
    }
    let asks = count(sent, asks_for_a_try);
    let moves = out.iter().filter(|(l, _)| l.starts_with("move ")).count();
    if moves > asks {
        p.push(format!("{moves} tries for {asks} lines asking for one"));
    }
    let names = count(sent, |l| {
        let t: Vec<&str> = l.split_whitespace().collect();
        t == ["name?"] || t == ["name", "?"]
    });
    let answered = out.iter().filter(|(l, _)| l.starts_with("name ")).count();
    if names != answered {
        p.push(format!("{names} name?, {answered} name"));
    }
    if strict_end {
        // Every search is longer than the case: a try after `end` (and before the next
        // `new`) is one for the game that ended.
        for (l, at) in out {
            let last = sent[..(*at).min(sent.len())]
                .iter()
                .rev()
                .find(|s| matches!(first_token(s, false), "new" | "end"))
                .map(|s| first_token(s, false));
            if l.starts_with("move ") && last == Some("end") {
                p.push(format!("{l:?} after end"));
            }
        }
    }
    p
}

fn check_analysis(sent: &[String], out: &[(String, usize)]) -> Vec<String> {
    use serde_json::Value;
    let mut p = Vec::new();
    let mut ids = std::collections::HashSet::new();
    for (l, _) in out {
        match serde_json::from_str::<Value>(l) {
            Ok(Value::Object(o)) => {
                if let Some(id) = o.get("id") {
                    ids.insert(id.to_string());
                }
            }
            _ => p.push(format!("not a JSON object: {l:?}")),
        }
    }
    for l in sent {
        let Ok(Value::Object(q)) = serde_json::from_str::<Value>(l) else { continue };
        let Some(id @ Value::String(_)) = q.get("id") else { continue };
        let no_turns = q.get("analyzeTurns").and_then(Value::as_array).is_some_and(Vec::is_empty);
        if !no_turns && !ids.contains(&id.to_string()) {
            p.push(format!("no answer for id {id}"));
        }
    }
    p
}

#[test]
fn every_case_of_the_outside_fuzzer_holds() {
    let files = case_files();
    assert!(!files.is_empty() || std::env::var("SENTE_FUZZ_CASE").is_ok(), "no cases under {:?}", case_dir());
    let threads: usize = std::env::var("SENTE_FUZZ_THREADS").ok().and_then(|v| v.parse().ok()).unwrap_or(4);
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(file) = files.get(i) else { break };
                    let (problems, output) = run_case(file);
                    if !problems.is_empty() {
                        let name = file.strip_prefix(case_dir()).unwrap_or(file).display().to_string();
                        let tail: Vec<&str> = output.lines().rev().take(15).collect();
                        let tail: Vec<&str> = tail.into_iter().rev().collect();
                        failures.lock().expect("lock").push(format!(
                            "{name}: {}\n    output's end:\n      {}",
                            problems.join("; "),
                            tail.join("\n      ")
                        ));
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().expect("lock");
    failures.sort();
    eprintln!("{} fuzz cases replayed in {:.1} s", files.len(), started.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), files.len(), failures.join("\n"));
}
