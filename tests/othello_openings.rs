//! Balanced Othello openings: `sente othello-openings` writes openings whose value
//! (by the engine's own full-width search over UGI+, asked afresh) is within the bound,
//! the file is the same however the run was split and whatever its threads, the arena
//! plays it, and a file begun with other settings or a damaged line is refused.

use crate::common;

use std::process::Command;

use common::{Engine, run};

/// The openings of a file: (moves separated by spaces, Black's value written).
fn openings(text: &str) -> Vec<(String, i32)> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (moves, comment) = l.split_once('#').expect("a comment after the moves");
            let chars: Vec<char> = moves.trim().chars().collect();
            let moves: Vec<String> = chars.chunks(2).map(|c| c.iter().collect()).collect();
            let value = comment.split_whitespace().nth(1).expect("a value").parse().expect("a number");
            (moves.join(" "), value)
        })
        .collect()
}

/// Black's value of the position after `moves` by a fresh engine's `go depth`.
fn value_over_ugi(moves: &str, depth: u32) -> i32 {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    e.until(|l| l == "ugiok");
    e.send("setoption name Game value othello");
    e.send(&format!("position startpos moves {moves}"));
    e.send(&format!("go depth {depth}"));
    let lines = e.until(|l| l.starts_with("bestmove"));
    let info = lines.iter().rev().find(|l| l.starts_with(&format!("info depth {depth} "))).expect("the last iteration");
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "cp").expect("a score") + 1;
    let score: i32 = words[at].parse().expect("centidiscs");
    // Black moves after an even number of plies.
    let sign = if moves.split_whitespace().count().is_multiple_of(2) { 1 } else { -1 };
    sign * score / 100
}

fn sente_fails(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_sente")).args(args).output().expect("run sente");
    assert!(!out.status.success(), "sente {args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn balanced_openings_are_within_their_bound_and_the_same_however_made() {
    let dir = common::Scratch::new("openings");
    let whole = dir.join("whole.txt");
    let split = dir.join("split.txt");
    let (whole, split) = (whole.to_str().unwrap(), split.to_str().unwrap());
    let settings = ["--plies", "7", "--depth", "4", "--max-discs", "1", "--seed", "5"];
    let out = run(&[&["othello-openings", whole, "--count", "8"], &settings[..]].concat());
    assert!(out.contains("8 openings (8 added"), "{out}");
    // In two runs, with two threads: the same file.
    run(&[&["othello-openings", split, "--count", "3", "--threads", "2"], &settings[..]].concat());
    let out = run(&[&["othello-openings", split, "--count", "8", "--threads", "2"], &settings[..]].concat());
    assert!(out.contains("8 openings (5 added"), "{out}");
    let text = std::fs::read_to_string(whole).unwrap();
    assert_eq!(text, std::fs::read_to_string(split).unwrap());
    let out = run(&[&["othello-openings", whole, "--count", "8"], &settings[..]].concat());
    assert!(out.contains("already holds 8 openings"), "{out}");
    // Every opening is distinct, 7 plies long, and within one disc by a fresh
    // engine's own search over UGI+, which gives the value written.
    let found = openings(&text);
    assert_eq!(found.len(), 8);
    for (i, (moves, written)) in found.iter().enumerate() {
        assert_eq!(moves.split_whitespace().count(), 7, "{moves}");
        assert!(found[..i].iter().all(|(m, _)| m != moves), "{moves} twice");
        assert!(written.abs() <= 1, "{moves}: {written}");
        assert_eq!(value_over_ugi(moves, 4), *written, "{moves}");
    }
    // The arena plays the file (one pair of games at a fixed node budget).
    let me = env!("CARGO_BIN_EXE_sente");
    let engine = format!("name=a cmd={me} proto=ugi");
    let other = format!("name=b cmd={me} proto=ugi");
    let arena_out = dir.join("arena");
    let out = run(&[
        "arena",
        "--game",
        "othello",
        "--openings",
        whole,
        "--rounds",
        "1",
        "--nodes",
        "2000",
        "--engine",
        &engine,
        "--engine",
        &other,
        "--out",
        arena_out.to_str().unwrap(),
    ]);
    assert!(out.contains("Score of a vs b"), "{out}");
    // Both games start with the file's first opening (their records' first moves).
    let first: String = found[0].0.split_whitespace().map(|m| format!("[{}", m.to_uppercase())).collect();
    for game in ["000000.ggf", "000001.ggf"] {
        let record = std::fs::read_to_string(arena_out.join("games").join(game)).unwrap();
        let played: String = record.split(']').skip_while(|p| !p.starts_with("B[")).take(7).map(|p| &p[1..]).collect();
        assert_eq!(played, first, "{record}");
    }
}

#[test]
fn a_file_of_other_settings_or_a_damaged_line_is_refused() {
    let dir = common::Scratch::new("openings-bad");
    let file = dir.join("o.txt");
    let path = file.to_str().unwrap();
    run(&["othello-openings", path, "--count", "2", "--depth", "2", "--max-discs", "4"]);
    let err = sente_fails(&["othello-openings", path, "--count", "3", "--depth", "3", "--max-discs", "4"]);
    assert!(err.contains("other settings"), "{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    let damaged = text.replacen(" # ", "a1 # ", 1);
    std::fs::write(&file, damaged).unwrap();
    let err = sente_fails(&["othello-openings", path, "--count", "3", "--depth", "2", "--max-discs", "4"]);
    assert!(err.contains("line 2") && err.contains("not an opening of these settings"), "{err}");
}
