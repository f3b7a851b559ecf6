//! The README's UGI+ transcript is what the engine really says.
//!
//! The transcript is the first ```text block after the line of README.md that
//! mentions "UGI+ transcript". Its lines starting `> ` are sent to `sente` one after
//! another; its lines starting `< ` are the answers expected, in order, each read
//! before the next line is sent. Two rules let a line stand for output that varies:
//!
//! * `…` in an expected line stands for any text (a time, a speed);
//! * an expected line starting `info depth` stands for the search's last such line:
//!   the `info depth` lines received before it (the earlier iterations, and a progress
//!   line for the last one, whose number depends on how fast the machine is) are
//!   skipped.
//!
//! After the last line the engine must exit with nothing more to say.

use crate::common;

use std::path::PathBuf;
use std::time::Duration;

use common::{Engine, REPLY};

/// One step of the transcript: a line sent and the lines expected back.
struct Step {
    send: String,
    expect: Vec<String>,
}

/// The transcript's steps, from the README's text.
fn transcript(readme: &str) -> Vec<Step> {
    let mut lines = readme.lines().skip_while(|l| !l.contains("UGI+ transcript"));
    assert!(lines.next().is_some(), "README.md has no line mentioning 'UGI+ transcript'");
    let mut lines = lines.skip_while(|l| l.trim() != "```text");
    assert!(lines.next().is_some(), "no ```text block after the 'UGI+ transcript' line");
    let mut steps: Vec<Step> = Vec::new();
    for line in lines.take_while(|l| l.trim() != "```") {
        if let Some(sent) = line.strip_prefix("> ") {
            steps.push(Step { send: sent.to_string(), expect: Vec::new() });
        } else if let Some(answer) = line.strip_prefix("< ") {
            let step = steps.last_mut().unwrap_or_else(|| panic!("an answer before anything was sent: {line}"));
            step.expect.push(answer.to_string());
        } else {
            panic!("a transcript line must start with '> ' or '< ': {line:?}");
        }
    }
    assert!(!steps.is_empty(), "the transcript is empty");
    steps
}

/// Whether `line` matches `pattern`, in which `…` stands for any text.
fn matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split('…').collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() || !line.ends_with(last) {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Checks the answers to `steps`: `send` sends a line, `recv` returns the next line
/// received. Panics, with `so_far` (the session), at the first line that differs.
fn check(
    steps: &[Step],
    mut send: impl FnMut(&str),
    mut recv: impl FnMut() -> String,
    so_far: impl Fn() -> Vec<String>,
) {
    let is_search_info = |l: &str| l.starts_with("info depth");
    // A line read past the last `info depth` line of a search, not yet compared.
    let mut pending: Option<String> = None;
    for step in steps {
        send(&step.send);
        for expected in &step.expect {
            let line = if is_search_info(expected) {
                // The last of the consecutive `info depth` lines.
                let mut last = pending.take().unwrap_or_else(&mut recv);
                while is_search_info(&last) {
                    let next = recv();
                    if !is_search_info(&next) {
                        pending = Some(next);
                        break;
                    }
                    last = next;
                }
                last
            } else {
                pending.take().unwrap_or_else(&mut recv)
            };
            assert!(
                matches(expected, &line),
                "after '> {}' the README expects '< {expected}', the engine said '< {line}'; \
                 the session so far: {:#?}",
                step.send,
                so_far()
            );
        }
    }
    assert!(pending.is_none(), "the engine said more than the README shows: {pending:?}");
}

#[test]
fn the_pattern_rules() {
    assert!(matches(
        "info depth 4 nodes 290 time … nps … score cp -100",
        "info depth 4 nodes 290 time 7 nps 41428 score cp -100"
    ));
    assert!(!matches("info depth 4 nodes 290 time … nps …", "info depth 4 nodes 291 time 7 nps 1"));
    assert!(matches("bestmove c3", "bestmove c3"));
    assert!(!matches("bestmove c3", "bestmove c3 ponder d3"));
    assert!(matches("a…a", "aa") && !matches("a…a", "a"));

    // Earlier iterations, and a progress line repeating the last one, are skipped.
    let steps =
        transcript("UGI+ transcript\n```text\n> go depth 4\n< info depth 4 nodes 9 …\n< bestmove c3\n> quit\n```\n");
    for received in [
        vec!["info depth 4 nodes 9 time 1", "bestmove c3"],
        vec!["info depth 1 nodes 2 time 1", "info depth 4 nodes 9 time 1", "bestmove c3"],
        vec![
            "info depth 1 nodes 2 time 1",
            "info depth 4 nodes 9 time 101",
            "info depth 4 nodes 9 time 102",
            "bestmove c3",
        ],
    ] {
        let mut lines = received.into_iter().map(String::from);
        check(&steps, |_| {}, || lines.next().expect("a line"), Vec::new);
    }
    for wrong in [
        vec!["info depth 4 nodes 8 time 1", "bestmove c3"],
        vec!["info depth 4 nodes 9 time 1", "info depth 5 nodes 9 time 1", "bestmove c3"],
        vec!["info depth 4 nodes 9 time 1", "bestmove d3"],
        vec!["info depth 4 nodes 9 time 1", "info string x", "bestmove c3"],
    ] {
        let mut lines = wrong.clone().into_iter().map(String::from);
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            check(&steps, |_| {}, || lines.next().unwrap_or_else(|| "(end)".into()), Vec::new)
        }));
        assert!(run.is_err(), "{wrong:?} passed");
    }
}

#[test]
fn the_readme_ugi_transcript_is_what_the_engine_says() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    let readme = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let steps = transcript(&readme);
    assert!(steps.iter().any(|s| !s.expect.is_empty()), "the transcript expects no answer at all");

    let engine = std::cell::RefCell::new(Engine::start(&[]));
    check(
        &steps,
        |line| engine.borrow_mut().send(line),
        || engine.borrow_mut().recv(REPLY),
        || engine.borrow().transcript.clone(),
    );
    let mut engine = engine.into_inner();
    let after = engine.rest(Duration::from_secs(10));
    assert!(after.is_empty(), "the engine said more than the README shows: {after:?}");
}
