//! NBoard over pipes, as the NBoard GUI drives an engine (the session of the
//! protocol's documentation), plus malformed input.

use crate::common;

use bitboards::othello::{Board, Move, Position};
use common::{Engine, REPLY};

const GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

/// The position of `GAME`, by our own rules.
fn game_position() -> Position<Board> {
    ["f5", "f6", "d3", "c5", "e6", "f7", "e7", "f4"]
        .iter()
        .fold(Position::start(), |p, m| p.play(Move::parse(m, 8).unwrap()).unwrap())
}

#[test]
fn the_documented_session() {
    let mut e = Engine::start(&["nboard"]);
    e.send("nboard 2");
    assert_eq!(e.recv(REPLY), "set myname sente");
    e.send(&format!("set game {GAME}"));
    e.send("set depth 6");
    assert_eq!(e.recv(REPLY), "set myname sente6");
    e.send("ping 1");
    assert_eq!(e.recv(REPLY), "pong 1");
    e.send("go");
    let reply = e.until(|l| l.starts_with("=== "));
    assert_eq!(reply[0], "status thinking");
    assert!(reply[1..reply.len() - 1].iter().all(|l| l.starts_with("nodestats ")), "{reply:?}");
    let answer = reply.last().unwrap().strip_prefix("=== ").unwrap();
    let parts: Vec<&str> = answer.split('/').collect();
    assert_eq!(parts.len(), 3, "move/eval/time: {answer}");
    let mv = Move::parse(parts[0], 8).unwrap();
    assert!(game_position().legal_moves().contains(&mv), "{answer} is not legal");
    parts[1].parse::<f64>().unwrap();
    parts[2].parse::<f64>().unwrap();
    assert_eq!(e.recv(REPLY), "status");
    // The engine does not play its own move: the GUI sends it.
    e.send(&format!("move {}/{}/{}", parts[0], parts[1], parts[2]));
    e.send("hint 2");
    let hints = e.until(|l| l == "status");
    let searches: Vec<&String> = hints.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(searches.len(), 2, "{hints:?}");
    let after = game_position().play(mv).unwrap();
    for s in &searches {
        let pv = s.split_whitespace().nth(1).unwrap();
        let first = Move::parse(&pv[..2], 8).unwrap();
        assert!(after.legal_moves().contains(&first), "{s}");
    }
    e.send("learn");
    assert_eq!(e.recv(REPLY), "learned");
    e.send("quit");
    assert!(e.wait_exit(REPLY));
}

#[test]
fn ping_stops_a_search() {
    let mut e = Engine::start(&["nboard"]);
    e.send("nboard 2");
    e.recv(REPLY);
    e.send(&format!("set game {GAME}"));
    e.send("set depth 40");
    e.recv(REPLY);
    e.send("hint 5");
    std::thread::sleep(std::time::Duration::from_millis(300));
    e.send("ping 7");
    let lines = e.until(|l| l == "pong 7");
    let status_before_pong = lines.iter().rposition(|l| l == "status");
    assert!(status_before_pong.is_some(), "the search ends before pong: {lines:?}");
}

#[test]
fn malformed_input_gets_a_status_and_keeps_the_game() {
    let mut e = Engine::start(&[]);
    e.send("nboard 2");
    assert_eq!(e.recv(REPLY), "set myname sente", "the first line selects NBoard");
    e.send(&format!("set game {GAME}"));
    e.send("set depth 4");
    e.recv(REPLY);
    for bad in [
        "set game (;GM[Othello]BO[8 --- *];)",
        "set game not a game",
        "set game (;GM[Othello]B[Z9];)",
        "move A1",
        "move XYZ",
        "set depth x",
        "frobnicate",
    ] {
        e.send(bad);
        let reply = e.recv(REPLY);
        assert!(reply.starts_with("status error:"), "{bad} got {reply}");
    }
    // Still the same game: the engine's move is legal there.
    e.send("go");
    let answer = e.until(|l| l.starts_with("=== ")).pop().unwrap();
    let mv = Move::parse(answer[4..].split('/').next().unwrap(), 8).unwrap();
    assert!(game_position().legal_moves().contains(&mv), "{answer}");
    e.send("ping 2");
    assert_eq!(e.until(|l| l.starts_with("pong")).pop().unwrap(), "pong 2");
}

// --- issue 43: a game without its start, or of another type --------------------------

/// `GAME`'s start and moves with `properties` in front of them (`TY`, `BO`).
fn game_with(properties: &str) -> String {
    format!("(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]{properties}B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)")
}

const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

#[test]
fn a_game_without_its_start_or_of_another_board_type_is_refused_and_the_game_kept() {
    let mut e = Engine::start(&["nboard"]);
    e.send("nboard 2");
    e.recv(REPLY);
    e.send(&format!("set game {GAME}"));
    e.send("set depth 4");
    e.recv(REPLY);
    for (bad, why) in [
        (game_with("TY[8]"), "no BO"),
        (game_with(&format!("TY[10]{START}")), "TY[10]"),
        (game_with(&format!("TY[88]{START}")), "octagon"),
        (game_with(&format!("TY[8a]{START}")), "anti"),
        (game_with(&format!("TY[eight]{START}")), "TY[eight]"),
    ] {
        e.send(&format!("set game {bad}"));
        let reply = e.recv(REPLY);
        assert!(reply.starts_with("status error:") && reply.contains(why), "{bad} got {reply}");
        assert!(reply.ends_with("position unchanged"), "{reply}");
    }
    // Still the game set first: the engine's move is legal there.
    e.send("go");
    let answer = e.until(|l| l.starts_with("=== ")).pop().unwrap();
    let mv = Move::parse(answer[4..].split('/').next().unwrap(), 8).unwrap();
    assert!(game_position().legal_moves().contains(&mv), "{answer}");
    e.send("ping 1");
    assert_eq!(e.until(|l| l.starts_with("pong")).pop().unwrap(), "pong 1");
    // The GGS types of 8x8 games are accepted (a random start, synchro, komi, a
    // colour): each game is set, as a move legal in it (and not in GAME) shows.
    let only_there =
        Position::<Board>::start().legal_moves().into_iter().find(|m| !game_position().legal_moves().contains(m));
    let only_there = only_there.expect("a move of the start that GAME does not allow").name(8);
    for (i, ty) in ["", "TY[8]", "TY[8r]", "TY[s8r20]", "TY[8kr]", "TY[8B]"].into_iter().enumerate() {
        e.send(&format!("set game {GAME}"));
        e.send(&format!("set game (;GM[Othello]PC[NBoard]{ty}{START};)"));
        e.send(&format!("move {only_there}"));
        e.send(&format!("ping {i}"));
        assert_eq!(e.until(|l| l.starts_with("pong")), [format!("pong {i}")], "{ty}");
    }
}

/// The move `sente` (UGI+) plays after `moves` from the start, with a search that the
/// book may answer (not a fixed depth).
fn ugi_move(moves: &str) -> String {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    e.until(|l| l == "ugiok");
    e.send("isready");
    e.until(|l| l == "readyok");
    e.send(&format!("position startpos moves {moves}"));
    e.send("go movetime 2000");
    let best = e.until(|l| l.starts_with("bestmove "));
    e.send("quit");
    best.last().unwrap().split_whitespace().nth(1).unwrap().to_ascii_uppercase()
}

#[test]
fn go_plays_the_opening_books_move_as_ugi_does() {
    // In the opening NBoard's `go` answers from the book (no search: no nodestats), at
    // whatever depth is set, with the move UGI+ plays there.
    for moves in ["f5", "f5 d6", "f5 d6 c3 d3 c4"] {
        let mut e = Engine::start(&["nboard"]);
        e.send("nboard 2");
        assert_eq!(e.recv(REPLY), "set myname sente");
        let ggf_moves: String = moves
            .split_whitespace()
            .enumerate()
            .map(|(i, m)| format!("{}[{}]", if i % 2 == 0 { "B" } else { "W" }, m.to_ascii_uppercase()))
            .collect();
        e.send(&format!(
            "set game (;GM[Othello]PC[t]PB[a]PW[b]RE[?]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]{ggf_moves};)"
        ));
        e.send("set depth 20");
        assert_eq!(e.recv(REPLY), "set myname sente20");
        e.send("go");
        let reply = e.until(|l| l.starts_with("=== "));
        assert_eq!(reply, ["status thinking".to_string(), reply[1].clone()], "a book answer, no search: {reply:?}");
        let answer = reply[1].strip_prefix("=== ").unwrap();
        let mv = answer.split('/').next().unwrap();
        assert_eq!(mv, ugi_move(moves), "after {moves}: NBoard {answer}");
        assert_eq!(e.recv(REPLY), "status");
        e.send("quit");
        assert!(e.wait_exit(REPLY));
    }
}
