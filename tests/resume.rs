//! Nothing is lost: the arena and the long batch commands killed (SIGKILL) or stopped
//! (SIGTERM) at several moments and started again with `--resume` end with exactly
//! what one uninterrupted run of the same seed writes.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-resume-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn sente(args: &[String]) -> Command {
    let mut command = Command::new(SENTE);
    command.args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    command
}

/// Runs `sente args` to its end.
fn finish(args: &[String]) -> Output {
    sente(args).output().expect("run sente")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Starts `sente args`, waits until `ready` holds (or the run ends by itself: then
/// false), and kills it with `signal` (KILL or TERM); returns whether it was
/// signalled, and its output.
fn interrupt_when(args: &[String], signal: &str, ready: impl Fn() -> bool) -> (bool, Output) {
    let mut child: Child = sente(args).spawn().expect("start sente");
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut signalled = false;
    while Instant::now() < deadline {
        if child.try_wait().expect("poll").is_some() {
            break;
        }
        if ready() {
            let status = Command::new("kill").args([format!("-{signal}"), child.id().to_string()]).status();
            assert!(status.expect("kill").success());
            signalled = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    (signalled, child.wait_with_output().expect("wait for sente"))
}

/// Complete lines of a file (0 if it does not exist).
fn lines(path: &Path) -> usize {
    std::fs::read(path).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
}

/// Appends the first half of `line` to `path`: what a kill during its write leaves.
fn tear(path: &Path, line: &str) {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new().append(true).open(path).expect("open for a torn write");
    file.write_all(&line.as_bytes()[..line.len() / 2]).expect("torn write");
}

// --- the arena ------------------------------------------------------------------

fn arena_args(out: &Path, concurrency: u32, resume: bool) -> Vec<String> {
    let mut args: Vec<String> =
        ["arena", "--rounds", "5", "--nodes", "2000", "--seed", "7"].iter().map(|s| s.to_string()).collect();
    args.extend(["--concurrency".into(), concurrency.to_string()]);
    args.extend(["--engine".into(), format!("name=a cmd={SENTE}")]);
    args.extend(["--engine".into(), format!("name=b cmd={SENTE} option.Hash=8")]);
    args.extend(["--out".into(), out.display().to_string()]);
    if resume {
        args.push("--resume".into());
    }
    args
}

/// The results by game number (each game once), and every record file's text.
fn arena_outcome(out: &Path) -> (Vec<Value>, Vec<(String, String)>) {
    let text = std::fs::read_to_string(out.join("results.jsonl")).expect("results");
    let mut rows: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("a whole JSON line")).collect();
    rows.sort_by_key(|r| r["game"].as_u64());
    let games: Vec<u64> = rows.iter().map(|r| r["game"].as_u64().expect("game")).collect();
    assert_eq!(games, (0..10).collect::<Vec<_>>(), "every game exactly once");
    let mut records: Vec<(String, String)> = std::fs::read_dir(out.join("games"))
        .expect("records")
        .map(|e| {
            let path = e.expect("entry").path();
            (path.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    records.sort();
    (rows, records)
}

#[test]
fn an_arena_match_killed_and_resumed_equals_one_run() {
    let dir = scratch("arena");
    let whole = dir.join("whole");
    let run = finish(&arena_args(&whole, 1, false));
    assert!(run.status.success(), "{}", text(&run.stderr));
    let expected = arena_outcome(&whole);

    let cut = dir.join("cut");
    let results = cut.join("results.jsonl");
    // Killed before the first game ends.
    let (killed, _) = interrupt_when(&arena_args(&cut, 1, false), "KILL", || cut.join("games").exists());
    assert!(killed);
    assert_eq!(lines(&results), 0);
    // Resumed, and killed mid-match, two games at a time.
    let (killed, _) = interrupt_when(&arena_args(&cut, 2, true), "KILL", || lines(&results) >= 3);
    assert!(killed);
    let done = lines(&results);
    assert!((3..10).contains(&done), "{done}");
    // A kill during a write: half of a game's line.
    let half = serde_json::to_string(&expected.0[9]).unwrap();
    tear(&results, &half);
    // Stopped with SIGTERM: it stops cleanly and says how to resume.
    let (stopped, output) = interrupt_when(&arena_args(&cut, 1, true), "TERM", || lines(&results) > done);
    assert!(stopped);
    let stderr = text(&output.stderr);
    assert!(stderr.contains("dropped an incomplete last line"), "{stderr}");
    assert!(output.status.success(), "{stderr}");
    let stdout = text(&output.stdout);
    assert!(stdout.contains("interrupted") && stdout.contains("--resume"), "{stdout}");
    // Resumed to the end.
    let run = finish(&arena_args(&cut, 1, true));
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(arena_outcome(&cut), expected);
    // Nothing left half-written beside the records.
    assert!(
        std::fs::read_dir(cut.join("games")).unwrap().all(|e| !e
            .unwrap()
            .path()
            .to_string_lossy()
            .ends_with(".partial"))
    );
}
