//! The protocol-loop rule, over the binary: while a search runs, every front end
//! answers `quit` at once (its input still open), answers the lines that ask whether it
//! is alive (`isready`, `ping`, `name?`), and queues the rest. And the first line of a
//! plain `sente` decides the protocol only when it says something.
//!
//! Each search here would run for a minute or more; the bounds are a small part of
//! that, so that no load on the machine reaches them.

use crate::common;

use std::time::{Duration, Instant};

use bitboards::othello::{Board, Position};
use common::{Engine, REPLY, gtp};

/// Far below the searches' own length (a minute and more), far above any load.
const PROMPT: Duration = Duration::from_secs(20);

/// Waits, with the input left open, until the engine exits; panics after [`PROMPT`].
fn exits_by_itself(e: &mut Engine, what: &str) {
    let asked = Instant::now();
    loop {
        if let Some(status) = e.try_wait() {
            assert!(status.success(), "{what}: {status}");
            return;
        }
        assert!(asked.elapsed() < PROMPT, "{what}: still running {PROMPT:?} after quit: {:#?}", e.transcript);
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn the_platform_protocol_answers_during_a_search() {
    // Tries of 100 s: `name?` is answered at once, `end` stops the search (and no try
    // is sent for the game that ended), `quit` stops the next one and ends the engine.
    let mut e = Engine::start(&["phantom", "--movetime", "100000"]);
    e.send("new white");
    e.send("move go");
    assert!(e.silent_for(Duration::from_millis(200)), "the try came early: {:?}", e.transcript);
    assert_eq!(e.ask("name?"), "name sente");
    e.send("end");
    assert_eq!(e.ask("name?"), "name sente", "no try after end");
    e.send("new black");
    assert!(e.silent_for(Duration::from_millis(500)), "the new game's try came early: {:?}", e.transcript);
    assert_eq!(e.ask("name?"), "name sente");
    e.send("quit");
    exits_by_itself(&mut e, "platform");
    let rest = e.rest(REPLY);
    assert!(rest.is_empty(), "no try after quit: {rest:?}");
}

#[test]
fn the_platform_protocol_still_plays_after_an_end_it_was_not_searching_for() {
    // `end` while nothing runs must not stop the next game's searches.
    let mut e = Engine::start(&["phantom", "--movetime", "50"]);
    e.send("new white");
    e.send("end");
    e.send("new white");
    let reply = e.ask("move go");
    assert!(reply.starts_with("move "), "{reply}");
}

#[test]
fn gtp_quit_during_genmove_ends_the_search_at_once() {
    // A clock of 6 000 s: the move would take minutes. The genmove is answered with what
    // the search has, then the `quit`.
    for game in ["go", "othello"] {
        let mut e = Engine::start(&["gtp", "--game", game]);
        assert_eq!(gtp(&mut e, "time_settings 6000 0 0"), "=");
        if game == "go" {
            // Out of the opening book (whose moves are immediate).
            assert_eq!(gtp(&mut e, "sente-book false"), "=");
        }
        if game == "othello" {
            // Out of the opening book (whose moves are immediate): twelve plies of the
            // last legal move each.
            let mut pos = Position::<Board>::start();
            for ply in 0..12 {
                let mv = *pos.legal_moves().last().expect("a move");
                let color = if ply % 2 == 0 { "black" } else { "white" };
                assert_eq!(gtp(&mut e, &format!("play {color} {}", mv.name(8))), "=");
                pos = pos.play(mv).expect("a legal move");
            }
        }
        e.send("genmove b");
        assert!(e.silent_for(Duration::from_millis(300)), "{game}: the move came at once: {:?}", e.transcript);
        e.send("7 quit");
        let genmove = e.recv(PROMPT);
        assert!(genmove.starts_with("= "), "{game}: {genmove}");
        assert_eq!(e.recv(REPLY), "", "{game}");
        assert_eq!(e.recv(REPLY), "=7", "{game}");
        exits_by_itself(&mut e, game);
    }
}

#[test]
fn nboard_quit_behind_a_waiting_command_ends_the_search() {
    // At depth 60 the search never ends by itself; `hint` waits behind it, and the `quit`
    // behind that must still end the engine.
    let mut e = Engine::start(&["nboard"]);
    e.send("nboard 2");
    e.send("set depth 60");
    e.send("set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)");
    e.send("go");
    e.send("hint 2");
    std::thread::sleep(Duration::from_millis(300));
    e.send("quit");
    exits_by_itself(&mut e, "nboard");
}

#[test]
fn ugi_answers_isready_and_ugi_during_a_search_and_quits_at_once() {
    for game in ["othello", "go", "phantomgo", "chaosclock"] {
        let mut e = Engine::start(&[]);
        e.send(&format!("setoption name Game value {game}"));
        e.send("position startpos");
        e.send("go infinite");
        e.send("isready");
        let lines = e.until(|l| l == "readyok");
        assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{game}: {lines:?}");
        // `ugi` once the search holds the player: the options it lists must not wait
        // for it (a session once asked the player whether it uses Threads, and `ugi`
        // waited until `stop`, which it could no longer read).
        std::thread::sleep(Duration::from_millis(200));
        e.send("ugi");
        let hello = e.until(|l| l == "ugiok");
        assert!(hello.iter().any(|l| l.starts_with("option name Game ")), "{game}: {hello:?}");
        e.send("quit");
        exits_by_itself(&mut e, game);
    }
}

#[test]
fn blank_lines_comments_and_a_byte_order_mark_do_not_choose_the_protocol() {
    // GTP says blank lines and `#` comments are ignored: the GTP command after them
    // chooses GTP.
    let mut e = Engine::start(&[]);
    e.send("");
    e.send("# a comment");
    assert_eq!(gtp(&mut e, "protocol_version"), "= 2");
    // A byte order mark before the first command (a file saved by some editors).
    let mut e = Engine::start(&[]);
    e.send_bytes(b"\xef\xbb\xbfprotocol_version\n");
    assert_eq!(e.recv(REPLY), "= 2");
    assert_eq!(e.recv(REPLY), "");
    // NBoard after a blank line.
    let mut e = Engine::start(&[]);
    e.send("");
    e.send("nboard 2");
    e.send("ping 3");
    assert_eq!(e.until(|l| l.starts_with("pong")).last().map(String::as_str), Some("pong 3"));
    // UGI+ ignores blank lines and comments quietly, as Stockfish does.
    let mut e = Engine::start(&[]);
    e.send_bytes(b"\xef\xbb\xbf\n");
    e.send("");
    e.send("# comment");
    assert_eq!(e.ask("isready"), "readyok", "{:?}", e.transcript);
}

#[test]
fn gtp_and_nboard_answer_every_line_queued_before_quit() {
    // The lines written at once, `quit` last, the input left open: each command before
    // `quit` is answered (each search stopped by the quit still answers its move).
    let mut e = Engine::start(&["gtp"]);
    // Searches, not the opening book's immediate moves.
    e.send_bytes(b"boardsize 9\nsente-book false\ntime_settings 6000 0 0\ngenmove b\ngenmove w\n5 name\n6 quit\n");
    exits_by_itself(&mut e, "gtp");
    let replies: Vec<String> = e.rest(REPLY).into_iter().filter(|l| !l.is_empty()).collect();
    assert_eq!(replies.len(), 7, "{replies:?}");
    assert!(replies[3].starts_with("= ") && replies[4].starts_with("= "), "two moves: {replies:?}");
    assert_eq!(replies[5..], ["=5 sente", "=6"], "{replies:?}");
    let mut e = Engine::start(&["nboard"]);
    let game = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";
    e.send_bytes(format!("nboard 2\nset depth 30\nset game {game}\ngo\nping 3\ngo\nping 4\nquit\n").as_bytes());
    exits_by_itself(&mut e, "nboard");
    let replies: Vec<String> =
        e.rest(REPLY).into_iter().filter(|l| l.starts_with("===") || l.starts_with("pong")).collect();
    assert_eq!(replies.iter().filter(|l| l.starts_with("=== ")).count(), 2, "{replies:?}");
    for pong in ["pong 3", "pong 4"] {
        assert!(replies.iter().any(|l| l == pong), "{replies:?}");
    }
}
