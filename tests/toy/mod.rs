//! A fifth game that costs no line of `engine/src`: tic-tac-toe, defined only here
//! (`game.rs`: its rules, arena hooks and `GameSpec`) and made a program by one
//! registration line (`main.rs`, built by `cargo test` as the example `tictactoe`).
//! It passes the rules' conformance suite, plays over UGI+, is refereed by the arena
//! between two engines, and passes the arena's UGI+ compliance checks.

mod game;

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use game::TicTacToe;
use search::Game;
use sente::games::referee::{ArenaGame, RefereeRules};

use crate::common::{Engine, Scratch};

/// The `tictactoe` example program, built here when the test run did not build it or
/// built it before the last change to the sources (a run of this one test file:
/// `cargo test --test integration toy::`).
fn program() -> &'static str {
    static PROGRAM: OnceLock<String> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test binary's path");
        // target/<profile>/deps/integration-… → target/<profile>/examples/tictactoe
        let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>");
        let path: PathBuf = profile_dir.join("examples").join(format!("tictactoe{}", std::env::consts::EXE_SUFFIX));
        let built = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        if built.is_none_or(|built| newest_source() > built) {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let mut build = Command::new(cargo);
            build.args(["build", "-p", "sente", "--example", "tictactoe"]);
            if profile_dir.ends_with("release") {
                build.arg("--release");
            }
            let status = build.status().expect("run cargo build --example tictactoe");
            assert!(status.success(), "cargo build --example tictactoe failed");
        }
        path.to_str().expect("a UTF-8 path").to_string()
    })
}

/// When the program's sources (the workspace's crates and this folder) last changed.
fn newest_source() -> std::time::SystemTime {
    fn newest(dir: &std::path::Path, now: &mut std::time::SystemTime) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                newest(&path, now);
            } else if let Ok(modified) = entry.metadata().and_then(|m| m.modified()) {
                *now = (*now).max(modified);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut now = std::time::SystemTime::UNIX_EPOCH;
    for dir in ["bitboards/src", "search/src", "search/data", "protocol/src", "engine/src", "tests/toy"] {
        newest(&root.join(dir), &mut now);
    }
    now
}

#[test]
fn the_rules_pass_the_conformance_suite() {
    let checked = search::conformance::check_random_games(&TicTacToe::start(), 300, 9, 17);
    assert!(checked > 1500, "{checked} positions");
    // The text form reads back, and the rules know a line from a full board.
    let rules = RefereeRules::plain(3, 9);
    for text in ["xx./oo./... x", "xox/xoo/oxx x", "xxx/oo./... o"] {
        let position = TicTacToe::from_opening(&rules, Some(text)).expect("a position");
        assert_eq!(position.text(), text);
    }
    let full = TicTacToe::parse("xox/xoo/oxx x").expect("a position");
    assert_eq!(full.outcome(), Some(bitboards::Outcome::Draw));
    let won = TicTacToe::parse("xxx/oo./... o").expect("a position");
    assert_eq!(won.outcome(), Some(bitboards::Outcome::Win(bitboards::Player::One)));
    assert!(TicTacToe::parse("xx/oo./... x").is_err() && TicTacToe::parse("xx./oo./... z").is_err());
}

#[test]
fn it_registers_once_under_its_names() {
    let kind = sente::games::register(&game::TicTacToeSpec).expect("a new game");
    assert_eq!(sente::games::GameKind::parse("Tic-Tac-Toe"), Ok(kind));
    assert!(sente::games::GameKind::names().contains(&"tictactoe"));
    let taken = sente::games::register(&game::TicTacToeSpec).expect_err("the name is taken");
    assert!(taken.contains("'tictactoe' is taken"), "{taken}");
    let session = kind.new_session(None).expect("a session");
    assert_eq!(session.legal_moves().len(), 9);
    assert!(kind.new_session(Some(4)).is_err() && kind.new_gtp_session().is_err());
}

#[test]
fn it_is_played_over_ugi() {
    let mut e = Engine::start_program(program(), &["ugi"]);
    e.send("ugi");
    let hello = e.until(|l| l == "ugiok");
    let game = hello.iter().find(|l| l.starts_with("option name Game ")).expect("the Game option");
    assert!(game.contains(" var tictactoe"), "{game}");
    e.send("setoption name Game value tictactoe");
    e.send("isready");
    assert_eq!(e.until(|l| l == "readyok"), ["readyok"]);
    e.send("position startpos moves b2 a1");
    assert_eq!(e.ask("query fen"), "response .../.x./o.. x");
    assert_eq!(e.ask("query legalmoves"), "response b1 c1 a2 c2 a3 b3 c3");
    assert_eq!(e.ask("query gameover"), "response false");
    // X completes the top row.
    e.send("position fen xx./oo./... x");
    e.send("go depth 3");
    let reply = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(reply.last().map(String::as_str), Some("bestmove c3"), "{reply:?}");
    // O must block it: the only move that does not lose.
    e.send("position fen xx./.o./... o");
    e.send("go depth 9");
    let reply = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(reply.last().map(String::as_str), Some("bestmove c3"), "{reply:?}");
    e.send("position fen xxx/oo./... o");
    assert_eq!(e.ask("query gameover"), "response true");
    assert_eq!(e.ask("query result"), "response p1win");
    // A bad move is refused and the position kept.
    e.send("position startpos moves b2 b2");
    let error = e.recv(std::time::Duration::from_secs(10));
    assert!(error.contains("illegal"), "{error}");
    assert_eq!(e.ask("query fen"), "response xxx/oo./... o");
    e.send("quit");
    assert!(e.exited_cleanly(std::time::Duration::from_secs(5)));
}

#[test]
fn the_arena_referees_it_between_two_engines() {
    let out = Scratch::new("toy-arena");
    let engine = |name: &str| format!("name={name} cmd='{} ugi' proto=ugi", program());
    let run = Command::new(program())
        .args(["arena", "--game", "tictactoe", "--rounds", "2", "--nodes", "100000", "--random-plies", "1"])
        .args(["--engine", &engine("a"), "--engine", &engine("b"), "--out"])
        .arg(out.path())
        .output()
        .expect("run the arena");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&run.stderr));
    assert!(stdout.contains("Score of a vs b:"), "{stdout}");
    let text = std::fs::read_to_string(out.path().join("results.jsonl")).expect("results.jsonl");
    let rows: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(rows.len(), 4);
    for r in &rows {
        // Searched to the end from one random move, tic-tac-toe is a draw.
        assert_eq!(r["result"], "1/2-1/2", "{r}");
        let record = out.path().join(r["record"].as_str().expect("a record"));
        let record = std::fs::read_to_string(&record).expect("the record");
        assert!(record.starts_with("# Tic-tac-toe (sente arena)") && record.contains("result 1/2-1/2"), "{record}");
    }
    // The arena's move cap ends a game the rules have not ended.
    let capped = Scratch::new("toy-arena-cap");
    let run = Command::new(program())
        .args(["arena", "--game", "tictactoe", "--rounds", "1", "--nodes", "1000", "--max-moves", "3"])
        .args(["--random-plies", "0", "--engine", &engine("a"), "--engine", &engine("b"), "--out"])
        .arg(capped.path())
        .output()
        .expect("run the arena");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = std::fs::read_to_string(capped.path().join("results.jsonl")).expect("results.jsonl");
    assert!(text.lines().count() == 2 && text.lines().all(|l| l.contains("move cap (3 moves): a draw")), "{text}");
}

#[test]
fn it_passes_the_compliance_checks() {
    let engine = format!("name=toy cmd='{} ugi' proto=ugi", program());
    let out = Command::new(program())
        .args(["arena", "--compliance", "--game", "tictactoe", "--engine", &engine])
        .output()
        .expect("run the compliance checks");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("ok    position startpos, query fen"), "{stdout}");
    assert!(!stdout.contains("FAIL") && stdout.contains(" 0 failed, 0 not run: compliant"), "{stdout}");
}
