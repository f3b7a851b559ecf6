//! Chaos Clock from every entry point: the UGI+ session, `sente chaosclock solve`, and
//! `sente chaosclock play`, with good input and bad.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use bitboards::chaosclock::{Move, Record, State};
use common::{Engine, run};

const OPENING: &str = "3,5,1,12,4,2,11,10,6,7,9,8 Y 0";

fn record_after(start: &str, moves: &[&str]) -> Record {
    let mut r = Record::new(State::parse(start).expect("valid"));
    for m in moves {
        r.play(Move::parse(m).expect("a move")).expect("legal");
    }
    r
}

#[test]
fn a_session_over_ugi_plays_legal_moves_and_refuses_bad_input() {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    e.until(|l| l == "ugiok");
    e.send("setoption name Game value chaosclock");
    assert_eq!(e.ask("isready"), "readyok");

    // Find two legal moves from the opening with the rules library, and play them.
    let r0 = record_after(OPENING, &[]);
    let m1 = r0.state().legal_moves()[0].to_string();
    let r1 = record_after(OPENING, &[&m1]);
    let m2 = r1.state().legal_moves()[0].to_string();
    let r2 = record_after(OPENING, &[&m1, &m2]);
    e.send(&format!("position fen {OPENING} moves {m1} {m2}"));
    let fen = format!("response {}", r2.state());
    assert_eq!(e.ask("query fen"), fen);

    e.send("go nodes 20000");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let best = lines.last().expect("a line").trim_start_matches("bestmove ").to_string();
    let mv = Move::parse(&best).unwrap_or_else(|err| panic!("bestmove '{best}': {err}"));
    assert!(r2.state().legal_moves().contains(&mv), "{best} is not legal in {}", r2.state());

    // Bad positions and moves: an error each, and the position stays.
    let bad = [
        "position fen 3,3,1,12,4,2,11,10,6,7,9,8 Y 0".to_string(),
        "position fen 0,3*,0,0,0,0,0,0,0,0,0,0 Y 0".to_string(),
        "position fen 1,2,3 Y 0".to_string(),
        "position fen 3,5,1,12,4,2,11,10,6,7,9,8 Q 0".to_string(),
        format!("position fen {OPENING} moves w13"),
        format!("position fen {OPENING} moves p3"),
        format!("position fen {OPENING} moves {m1} {m1} {m1}"),
        "position fen".to_string(),
    ];
    for line in &bad {
        let reply = e.ask(line);
        assert!(reply.starts_with("info string error: "), "{line:?} got {reply:?}");
        assert_eq!(e.ask("query fen"), fen, "position kept after {line:?}");
    }
    assert_eq!(e.ask("isready"), "readyok");
}

#[test]
fn the_opening_dealt_by_the_seed_option_is_the_same_for_everyone() {
    let fen = |seed: &str| {
        let mut e = Engine::start(&[]);
        e.send("setoption name Game value chaosclock");
        e.send(&format!("setoption name Seed value {seed}"));
        e.send("position startpos");
        e.ask("query fen")
    };
    let a = fen("7");
    assert_eq!(a, fen("7"));
    assert_ne!(a, fen("8"));
    let s = State::parse(a.trim_start_matches("response ")).expect("a position");
    assert!(s.outcome().is_none());
}

#[test]
fn solve_proves_a_small_position_and_refuses_a_bad_one() {
    // 乙 places 12 and completes; 甲 cannot complete on its one move.
    let out = run(&["chaosclock", "solve", "1,2,3,4,5,6,7,8,0,10,0,0 Y 0"]);
    assert!(out.contains("outcome: 乙 (even, first player) wins"), "{out}");
    assert!(out.contains("best move: p12"), "{out}");
    let out = run(&["chaosclock", "solve", "1,2,3,4,5,6,7,8,0,10,0,0 Y 0", "--nodes", "0"]);
    assert!(out.contains("method: retrograde analysis"), "{out}");
    assert!(out.contains("best move: p12"), "{out}");

    for bad in ["1,1,3,4,5,6,7,8,0,10,0,0 Y 0", "0,3*,0,0,0,0,0,0,0,0,0,0 Y 0", "hello"] {
        let out = Command::new(env!("CARGO_BIN_EXE_sente")).args(["chaosclock", "solve", bad]).output().expect("run");
        assert!(!out.status.success(), "{bad} accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("bad position") && err.lines().count() <= 2, "{bad}: {err}");
    }
}

#[test]
fn openings_are_listed_in_deal_order_however_many_are_solved_at_once() {
    // Limits too small to prove a dealt opening: every line says so, and the tally adds up.
    let args = ["chaosclock", "openings", "--count", "5", "--seed", "7", "--nodes", "1000", "--max-states", "1000"];
    let one_at_a_time = run(&[&args[..], &["--jobs", "1"]].concat());
    let two_at_once = run(&[&args[..], &["--jobs", "2"]].concat());
    let deals = |out: &str| -> Vec<String> {
        out.lines().filter(|l| l.contains("too big")).map(|l| l.split("  ").next().unwrap_or("").to_string()).collect()
    };
    assert_eq!(deals(&one_at_a_time).len(), 5, "{one_at_a_time}");
    assert_eq!(deals(&one_at_a_time), deals(&two_at_once));
    for deal in deals(&two_at_once) {
        State::parse(&deal).unwrap_or_else(|e| panic!("{deal}: {e}"));
    }
    assert!(two_at_once.contains("5 openings (seed 7, from 0)"), "{two_at_once}");
    assert!(two_at_once.lines().any(|l| l.starts_with("  not proven") && l.contains(" 5 ")), "{two_at_once}");

    let out = Command::new(env!("CARGO_BIN_EXE_sente"))
        .args(["chaosclock", "openings", "--count", "1", "--jobs", "0"])
        .output()
        .expect("run");
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("--jobs"));
}

/// A `--max-states` more than the memory holds is refused before anything is
/// enumerated, instead of running the machine out of memory.
#[cfg(target_os = "linux")]
#[test]
fn max_states_beyond_the_memory_available_is_refused() {
    for command in ["solve", "openings"] {
        let mut args = vec!["chaosclock", command];
        if command == "solve" {
            args.push("3,5,1,12,4,2,11,10,6,7,9,8 Y 0");
        } else {
            args.extend(["--count", "1"]);
        }
        args.extend(["--max-states", "1000000000000000"]);
        let out = Command::new(env!("CARGO_BIN_EXE_sente")).args(&args).output().expect("run");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{command}: {err}");
        assert!(err.contains("--max-states 1000000000000000") && err.contains("GiB available"), "{command}: {err}");
        assert!(out.stdout.is_empty(), "{command}: nothing was started");
    }
}

#[test]
fn a_human_game_in_the_terminal_explains_bad_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sente"))
        .args(["chaosclock", "play", "--seed", "3", "--side", "yi", "--think", "0.2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sente");
    let opening = bitboards::chaosclock::random_opening(3);
    let legal = opening.legal_moves()[0].to_string();
    let input = format!("help\nbanana\nw13\np2\n{legal}\nquit\n");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("finish");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("legal moves:"), "{text}");
    assert!(text.contains("'banana' is not a move"), "{text}");
    assert!(text.contains("p2 is not possible"), "{text}");
    assert!(text.contains("甲 plays"), "the engine answered: {text}");
}
