//! `sente phantom`: the competition platform's protocol over pipes — a game as black
//! with refusals, `take`, `access take` and `taked`, a game as white, and bad input
//! that gets an error on stderr and leaves the state as it was.

use crate::common;

use std::collections::HashSet;
use std::io::Write;
use std::process::{Command, Stdio};

use common::Engine;

/// The point of a `move XY` line, checked to be two letters A-I.
fn point(line: &str) -> String {
    let xy = line.strip_prefix("move ").unwrap_or_else(|| panic!("not a move: '{line}'"));
    assert_eq!(xy.len(), 2, "'{line}'");
    assert!(xy.bytes().all(|b| (b'A'..=b'I').contains(&b)), "'{line}'");
    xy.to_string()
}

/// Runs `sente phantom ARGS` on a whole script; returns stdout and stderr lines.
fn script(args: &[&str], lines: &[&str]) -> (Vec<String>, Vec<String>) {
    let (out, err, ok) = run_script(args, lines);
    assert!(ok, "sente failed: {err:?}");
    (out, err)
}

/// [`script`], and whether sente exited successfully.
fn run_script(args: &[&str], lines: &[&str]) -> (Vec<String>, Vec<String>, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sente"))
        .arg("phantom")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sente phantom");
    let mut stdin = child.stdin.take().unwrap();
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).lines().map(str::to_string).collect::<Vec<_>>();
    (text(&out.stdout), text(&out.stderr), out.status.success())
}

#[test]
fn a_game_as_black_with_refusals_and_captures() {
    let mut e = Engine::start(&["phantom", "--movetime", "30"]);
    assert_eq!(e.ask("name?"), "name sente");
    // Black answers `new black` at once.
    let mut own: HashSet<String> = HashSet::new();
    let m1 = point(&e.ask("new black"));
    e.send("accept");
    own.insert(m1.clone());
    let m2 = point(&e.ask("move go"));
    assert!(!own.contains(&m2));
    // Refused: another try, never the same point this turn.
    let m3 = point(&e.ask("refuse"));
    assert_ne!(m3, m2);
    let m4 = point(&e.ask("refuse"));
    assert!(m4 != m2 && m4 != m3);
    e.send("accept");
    own.insert(m4.clone());
    // `access take`: accepted, and it captured a stone somewhere not ours.
    let m5 = point(&e.ask("move go"));
    assert!(!own.contains(&m5));
    own.insert(m5.clone());
    let free: Vec<String> =
        ["AA", "IA", "AI", "II", "EE", "BB"].iter().map(|s| s.to_string()).filter(|p| !own.contains(p)).collect();
    e.send(&format!("access take 1 {}", free[0]));
    // `take` after `accept`, two stones as separate words.
    let m6 = point(&e.ask("move go"));
    assert!(!own.contains(&m6));
    e.send("accept");
    own.insert(m6.clone());
    e.send(&format!("take 2 {} {}", free[1], free[2]));
    // Our first stone is taken: it may be tried again later.
    e.send(&format!("taked 1 {m1}"));
    own.remove(&m1);
    // `take` naming our own stone: an error on stderr, nothing on stdout, and the
    // state unchanged (the next try is still not on our stones).
    e.send(&format!("take 1 {m4}"));
    let m7 = point(&e.ask("move pass"));
    assert!(!own.contains(&m7), "{m7} is ours: {own:?}");
    e.send("accept");
    e.send("end");
    e.send("quit");
    assert!(e.silent_for(std::time::Duration::from_millis(300)));
}

#[test]
fn white_waits_and_bad_lines_go_to_stderr() {
    let (out, err) = script(
        &["--movetime", "20"],
        &[
            "bogus words",
            "move go",
            "new white",
            "accept",
            "taked 1 AA",
            "take 1 ZZ",
            "take 2 AB",
            "refuse",
            "move go",
            "refuse",
            "accept",
            "move pass",
            "error",
            "end",
            "quit",
            "name?",
        ],
    );
    // The input is read ahead: its `end` stops the searches (after `move go` and
    // `move pass`) of the game it ends, and no try is sent for that game (so `refuse`
    // and `accept` find none waiting).
    assert!(out.is_empty(), "{out:?}");
    let expect = [
        "unknown command 'bogus'",
        "no game",
        "no try of ours is waiting",
        "stones lost that are not ours",
        "'ZZ' is not a point",
        "2 stones need 4 letters",
        "no try of ours is waiting",
        "the try is not sent: its game ended",
        "no try of ours is waiting",
        "no try of ours is waiting",
        "the try is not sent: its game ended",
        "the platform reported an error",
    ];
    assert_eq!(err.len(), expect.len(), "{err:?}");
    for (line, want) in err.iter().zip(expect) {
        assert!(line.starts_with("sente: ") && line.contains(want), "'{line}' should say '{want}'");
    }
}

#[test]
fn letters_in_either_order() {
    for order in ["row-column", "column-row"] {
        let mut e = Engine::start(&["phantom", "--letters", order, "--movetime", "20", "--player", "flat"]);
        point(&e.ask("new black"));
        e.send("quit");
        assert!(e.exited_cleanly(common::REPLY));
    }
    let (_, err, ok) = run_script(&["--letters", "diagonal"], &[]);
    assert!(!ok && err.iter().any(|l| l.contains("row-column or column-row")), "{err:?}");
}

/// Sends `lines` to `sente phantom --movetime 100000` (tries of 100 s), each after a
/// pause, then `name?`, and returns what it wrote until its name.
fn paused(lines: &[&str]) -> Vec<String> {
    let mut e = Engine::start(&["phantom", "--movetime", "100000"]);
    for line in lines {
        e.send(line);
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    e.send("name?");
    let mut out = e.until(|l| l.starts_with("name "));
    // Anything sent late still shows.
    e.send("name?");
    out.extend(e.until(|l| l.starts_with("name ")));
    out
}

#[test]
fn no_try_is_sent_for_a_game_that_ended_during_its_search() {
    // The reproducer: `end` during the search.
    assert_eq!(paused(&["new white", "move go", "end"]), ["name sente", "name sente"]);
    // A `new` game (without `end`) during the search, as white: the new game waits.
    assert_eq!(paused(&["new white", "move go", "new white"]), ["name sente", "name sente"]);
    // The first try of a game as black, then `end`.
    assert_eq!(paused(&["new black", "end"]), ["name sente", "name sente"]);
    // `quit` during the search: the engine leaves without a try.
    let mut e = Engine::start(&["phantom", "--movetime", "100000"]);
    e.send("new white");
    e.send("move go");
    std::thread::sleep(std::time::Duration::from_millis(300));
    e.send("quit");
    let rest = e.rest(common::REPLY);
    assert!(rest.is_empty(), "{rest:?}");
    assert!(e.exited_cleanly(common::REPLY));
    // The same, all the lines written at once and the input closed.
    let (out, _) = script(&["--movetime", "100000"], &["new white", "move go", "end", "new black", "quit"]);
    assert!(out.is_empty(), "{out:?}");
}
