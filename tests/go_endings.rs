//! How sente ends a Go game, over GTP and UGI+: it passes once the opponent passed
//! and passing wins, never plays inside its own settled territory, captures dead
//! stones before passing in `kgs-genmove_cleanup`, and reports dead stones and seki
//! as GNU Go 3.8 does on the same positions. `query score` and `query result` count
//! the same way (dead stones removed).

use crate::common;

use std::collections::BTreeSet;

use common::{Engine, REPLY, gtp};

const GNUGO: &str = "/usr/games/gnugo";

/// White wall on column E, black wall on column G, column F neutral: white owns
/// A–E (45 points), black G–J (27); white wins by 18 + 7.5.
fn walls() -> Vec<String> {
    let mut commands = vec!["boardsize 9".to_string(), "clear_board".into(), "komi 7.5".into()];
    for row in 1..=9 {
        commands.push(format!("play w E{row}"));
        commands.push(format!("play b G{row}"));
    }
    commands
}

/// [`walls`] with a dead black stone on B5 and a dead white stone on H5.
fn walls_with_invaders() -> Vec<String> {
    let mut commands = walls();
    commands.push("play w H5".into());
    commands.push("play b B5".into());
    commands
}

/// The seki GNU Go also reports: inner black C9 C8 C7 D7 and inner white E9 E8 E7
/// share D9 and D8; white owns the left, black the right.
fn seki() -> Vec<String> {
    let mut commands = vec!["boardsize 9".to_string(), "clear_board".into(), "komi 7.5".into()];
    for v in ["B9", "B8", "B7", "B6", "C6", "D6", "D5", "D4", "D3", "D2", "D1", "E9", "E8", "E7"] {
        commands.push(format!("play w {v}"));
    }
    for v in ["C9", "C8", "C7", "D7", "F9", "F8", "F7", "F6", "E6", "E5", "E4", "E3", "E2", "E1"] {
        commands.push(format!("play b {v}"));
    }
    commands
}

fn setup(e: &mut Engine, commands: &[String]) {
    for c in commands {
        // GNU Go ends an empty success with a space.
        assert_eq!(gtp(e, c).trim_end(), "=", "{c}");
    }
}

fn column(vertex: &str) -> char {
    vertex.chars().next().unwrap_or('?').to_ascii_uppercase()
}

#[test]
fn genmove_passes_once_the_opponent_passed_and_passing_wins() {
    let mut e = Engine::start(&["gtp"]);
    setup(&mut e, &walls());
    assert_eq!(gtp(&mut e, "play b pass"), "=");
    assert_eq!(gtp(&mut e, "genmove w"), "= pass");
    assert_eq!(gtp(&mut e, "final_score"), "= W+25.5");
    // An opponent that passes from the first move: the game ends at once, won.
    assert_eq!(gtp(&mut e, "clear_board"), "=");
    assert_eq!(gtp(&mut e, "play b pass"), "=");
    assert_eq!(gtp(&mut e, "genmove w"), "= pass", "white wins an empty board by komi");
    assert_eq!(gtp(&mut e, "clear_board"), "=");
    assert_eq!(gtp(&mut e, "time_settings 0 1 1"), "=");
    let first = gtp(&mut e, "genmove b");
    assert_ne!(first, "= pass", "black is behind by komi on the empty board");
    assert_eq!(gtp(&mut e, "play w pass"), "=");
    assert_eq!(gtp(&mut e, "genmove b"), "= pass", "one black stone owns the whole board");
}

#[test]
fn genmove_never_plays_inside_settled_own_territory() {
    let mut e = Engine::start(&["gtp"]);
    setup(&mut e, &walls());
    assert_eq!(gtp(&mut e, "time_settings 0 1 1"), "=");
    // Black keeps playing (inside its own area, never passing); white has nothing to
    // gain in A–D, which only black stones could disturb.
    let mut black_moves = ["H5", "J3", "H7", "J8", "H2", "J6", "H9", "J1"].into_iter();
    for _ in 0..4 {
        // The next of black's points that white has not taken.
        assert!(black_moves.any(|v| gtp(&mut e, &format!("play b {v}")) == "="), "black found no move");
        let reply = gtp(&mut e, "genmove w");
        let vertex = reply.strip_prefix("= ").unwrap_or_else(|| panic!("genmove: {reply}"));
        assert!(
            vertex == "pass" || !['A', 'B', 'C', 'D'].contains(&column(vertex)),
            "white played {vertex} inside its own settled territory"
        );
        if vertex == "pass" {
            break;
        }
    }
}

#[test]
fn cleanup_captures_dead_stones_before_passing() {
    let mut e = Engine::start(&["gtp"]);
    setup(&mut e, &walls_with_invaders());
    assert_eq!(gtp(&mut e, "final_status_list dead"), "= B5\nH5");
    // Black passes; white, cleaning up, does not pass before B5 is off the board.
    let b5_captured = |e: &mut Engine| gtp(e, "is_legal w B5") == "= 1";
    let mut white_moves = Vec::new();
    while !b5_captured(&mut e) {
        assert!(white_moves.len() < 10, "B5 still on the board after {white_moves:?}");
        assert_eq!(gtp(&mut e, "play b pass"), "=");
        let reply = gtp(&mut e, "kgs-genmove_cleanup w");
        let vertex = reply.strip_prefix("= ").unwrap_or_else(|| panic!("cleanup: {reply}")).to_string();
        assert_ne!(vertex, "pass", "white passed with the dead B5 on the board: {white_moves:?}");
        white_moves.push(vertex);
    }
}

/// `final_status_list` of GNU Go 3.8 on the same position, as a set of vertices.
fn gnugo_status(commands: &[String], status: &str) -> BTreeSet<String> {
    assert!(std::path::Path::new(GNUGO).exists(), "GNU Go is needed: apt-get install -y gnugo");
    let mut g = Engine::start_program(GNUGO, &["--mode", "gtp", "--chinese-rules"]);
    setup(&mut g, commands);
    vertices(&gtp(&mut g, &format!("final_status_list {status}")))
}

fn vertices(reply: &str) -> BTreeSet<String> {
    reply.trim_start_matches('=').split_whitespace().map(|v| v.to_ascii_uppercase()).collect()
}

#[test]
fn dead_stones_and_seki_agree_with_gnu_go() {
    for (name, position) in [("invaders", walls_with_invaders()), ("seki", seki()), ("walls", walls())] {
        let mut e = Engine::start(&["gtp"]);
        setup(&mut e, &position);
        for status in ["dead", "alive", "seki"] {
            let ours = vertices(&gtp(&mut e, &format!("final_status_list {status}")));
            assert_eq!(ours, gnugo_status(&position, status), "{name}: final_status_list {status}");
        }
    }
    // One group per line.
    let mut e = Engine::start(&["gtp"]);
    setup(&mut e, &seki());
    assert_eq!(gtp(&mut e, "final_status_list seki"), "= C9 C8 C7 D7\nE9 E8 E7");
    assert_eq!(gtp(&mut e, "final_score"), "= B+5.5");
}

/// The walls as a UGI+ position text (rows from the top), black to move.
const WALLS_FEN: &str = "....O.X../....O.X../....O.X../....O.X../....O.X../....O.X../....O.X../....O.X../....O.X.. b";
/// The same with the dead stones B5 (black) and H5 (white).
const INVADERS_FEN: &str =
    "....O.X../....O.X../....O.X../....O.X../.X..O.XO./....O.X../....O.X../....O.X../....O.X.. b";

fn bestmove(e: &mut Engine, go: &str) -> String {
    e.send(go);
    let lines = e.until(|l| l.starts_with("bestmove "));
    lines.last().and_then(|l| l.strip_prefix("bestmove ")).unwrap_or_default().to_string()
}

#[test]
fn ugi_endings_pass_score_and_result() {
    let mut e = Engine::start(&[]);
    e.send("setoption name Game value go");
    e.send("setoption name Komi value 7.5");
    // Score and result count the same way: dead stones removed first.
    e.send(&format!("position fen {INVADERS_FEN}"));
    assert_eq!(e.ask("query score"), "response -25.5");
    e.send(&format!("position fen {INVADERS_FEN} moves pass pass"));
    assert_eq!(e.ask("query gameover"), "response true");
    assert_eq!(e.ask("query score"), "response -25.5");
    assert_eq!(e.ask("query result"), "response p2win");
    // Black passed and white wins by passing: white passes.
    e.send(&format!("position fen {WALLS_FEN} moves pass"));
    assert_eq!(bestmove(&mut e, "go nodes 3000"), "pass");
    // Black plays on: white never answers inside A–D.
    for moves in ["H5", "H5 F5 J3"] {
        e.send(&format!("position fen {WALLS_FEN} moves {moves}"));
        let mv = bestmove(&mut e, "go nodes 3000");
        assert!(mv == "pass" || !['A', 'B', 'C', 'D'].contains(&column(&mv)), "white played {mv} after {moves}");
    }
    // A lost position still gets a move (UGI+ has no resignation), not a pass into
    // a lost count and not an own eye.
    e.send(&format!("position fen {WALLS_FEN} moves H5 pass"));
    let mv = bestmove(&mut e, "go nodes 3000");
    assert_ne!(mv, "pass", "black is behind: passing loses");
    // A hopeless position (below GTP's resignation threshold after enough playouts)
    // answers the opponent's pass with a pass: the game ends at its true count instead
    // of black filling its own area.
    // White owns seven columns with eyes; black's one column has the J file as its
    // eye; black could still play in white's three-point eye or in its own area.
    let hopeless = "OOOOOOOX./O.OOO.OX./OOOOOOOX./OOOOOOOX./O...O.OX./OOOOOOOX./OOOOOOOX./O.OOO.OX./OOOOOOOX. w";
    e.send(&format!("position fen {hopeless} moves pass"));
    assert_eq!(bestmove(&mut e, "go nodes 20000"), "pass", "black is hopeless and white passed");
    assert_eq!(e.ask("isready"), "readyok");
    e.send("quit");
    assert!(e.wait_exit(REPLY));
}
