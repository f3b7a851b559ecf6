//! The command-line subcommands, run as a user would.

mod common;

use common::run;

#[test]
fn perft_depth_11_prints_the_published_count() {
    let out = run(&["perft", "othello", "11"]);
    assert!(out.contains("perft othello depth 11: 212258800"), "{out}");
    assert!(out.contains("M leaves/s"), "{out}");
}

#[test]
fn perft_on_threads_and_other_sizes() {
    let out = run(&["perft", "othello", "9", "--threads", "2"]);
    assert!(out.contains(": 3005288"), "{out}");
    let out = run(&["perft", "othello", "8", "--size", "6", "--threads", "2"]);
    assert!(out.contains(": 308716"), "{out}");
    let out = run(&["perft", "othello", "6", "--size", "10"]);
    assert!(out.contains(": 8200"), "{out}");
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sente"))
        .args(["perft", "othello", "5", "--size", "7"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("6x6, 8x8 or 10x10"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sente")).args(["perft", "chess", "3"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown game 'chess'"));
}

#[test]
fn selfplay_finishes_a_game() {
    let out = run(&["selfplay", "--size", "6", "--depth", "3"]);
    assert!(out.contains("  1. black "), "Othello names its players black and white: {out}");
    assert!(
        out.contains("result: black wins") || out.contains("result: white wins") || out.contains("result: draw"),
        "{out}"
    );
    assert!(out.contains("game over"), "{out}");
}

#[test]
fn bench_prints_a_node_signature() {
    let a = run(&["bench", "3"]);
    let b = run(&["bench", "3"]);
    let nodes = |s: &str| s.lines().last().unwrap().split_whitespace().next().unwrap().to_string();
    assert_eq!(nodes(&a), nodes(&b), "the signature is deterministic");
    assert!(a.lines().last().unwrap().ends_with(" nps"), "{a}");
}
