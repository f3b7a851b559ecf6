//! Phantom Go over UGI+: the position is the list of tries (an illegal try leaves the
//! same side to move), the Phantom Go queries, and `go` choosing from the mover's view.

use crate::common;

use common::Engine;

fn phantom() -> Engine {
    let mut e = Engine::start(&[]);
    e.send("setoption name Game value phantomgo");
    assert_eq!(e.ask("isready"), "readyok");
    e
}

/// An 81-character board with `X` and `O` at the given GTP vertices.
fn board(black: &[&str], white: &[&str]) -> String {
    let mut cells = vec!['.'; 81];
    for (stones, ch) in [(black, 'X'), (white, 'O')] {
        for v in stones {
            let col = "ABCDEFGHJ".find(&v[..1]).unwrap();
            let row = 9 - v[1..].parse::<usize>().unwrap();
            cells[row * 9 + col] = ch;
        }
    }
    cells.into_iter().collect()
}

#[test]
fn tries_views_and_queries() {
    let mut e = phantom();
    // Black E5; white tries E5 (refused: the same side tries again), then D5.
    e.send("position startpos moves E5 E5 D5");
    assert_eq!(e.ask("query p1turn"), "response true");
    assert_eq!(e.ask("query counts"), "response 1 1");
    assert_eq!(e.ask("query view b"), format!("response {}", board(&["E5"], &[])));
    assert_eq!(e.ask("query view w"), format!("response {}", board(&[], &["D5"])));
    assert_eq!(e.ask("query full"), format!("response {}", board(&["E5"], &["D5"])));
    assert_eq!(e.ask("query lastlegal"), "response w D5");
    assert_eq!(e.ask("query captured"), "response 0");
    assert_eq!(e.ask("query gameover"), "response false");
    assert_eq!(e.ask("query result"), "response none");
    // Black may try D5 (it does not know the white stone), not its own E5.
    assert_eq!(e.ask("query islegal D5"), "response true");
    assert_eq!(e.ask("query islegal E5"), "response false");
    let legal = e.ask("query legalmoves");
    let words: Vec<&str> = legal.split_whitespace().skip(1).collect();
    assert_eq!(words.len(), 81, "80 points and pass: {legal}");
    assert!(words.contains(&"D5") && words.contains(&"pass") && !words.contains(&"E5"));
    assert_eq!(
        e.ask("query fen"),
        "response ........./........./........./........./...OX..../........./........./........./......... b"
    );

    // White to move after a refused try: the refused point is not a candidate.
    e.send("position startpos moves E5 E5");
    assert_eq!(e.ask("query p1turn"), "response false");
    assert_eq!(e.ask("query islegal E5"), "response false");
    e.send("go nodes 600");
    let reply = e.until(|l| l.starts_with("bestmove "));
    let best = reply.last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
    assert_ne!(best, "E5", "{reply:?}");
    assert!(reply.iter().any(|l| l.starts_with("info ")), "{reply:?}");
}

#[test]
fn captures_and_the_end() {
    let mut e = phantom();
    // Black B9, white A9, black A8 takes A9.
    e.send("position startpos moves B9 A9 A8");
    assert_eq!(e.ask("query captured"), "response 1 A9");
    assert_eq!(e.ask("query counts"), "response 2 0");
    assert_eq!(e.ask("query lastlegal"), "response b A8");
    assert_eq!(e.ask("query view w"), format!("response {}", ".".repeat(81)));
    // Two passes end the game: an empty board and komi, white wins.
    e.send("position startpos moves pass pass");
    assert_eq!(e.ask("query gameover"), "response true");
    assert_eq!(e.ask("query result"), "response p2win");
    assert_eq!(e.ask("query legalmoves"), "response");
}

#[test]
fn bad_input_keeps_the_position_and_other_games_refuse_phantom_queries() {
    let mut e = phantom();
    e.send("position startpos moves E5");
    e.send("position startpos moves E5 Z9");
    let err = e.recv(common::REPLY);
    assert!(err.starts_with("info string error: ") && err.contains("Z9"), "{err}");
    assert_eq!(e.ask("query counts"), "response 1 0");
    e.send("position fen X........ b");
    let err = e.recv(common::REPLY);
    assert!(err.contains("not a view position") && err.contains("startpos"), "{err}");
    assert_eq!(e.ask("query counts"), "response 1 0");
    e.send("query view q");
    assert!(e.recv(common::REPLY).starts_with("info string error: "));
    e.send("setoption name PhantomRules value chess");
    assert!(e.recv(common::REPLY).contains("ccgc or openspiel"));
    e.send("setoption name PhantomRules value openspiel");
    e.send("setoption name Playouts value medium");
    assert!(e.recv(common::REPLY).contains("unknown playout policy 'medium': light or heavy"));
    e.send("setoption name Playouts value heavy");
    e.send("setoption name PhantomPlayer value flat");
    assert_eq!(e.ask("isready"), "readyok");
    // OpenSpiel shows the stone on a refused point.
    e.send("position startpos moves E5 E5");
    assert_eq!(e.ask("query view w"), format!("response {}", board(&["E5"], &[])));

    e.send("setoption name Game value go");
    e.send("query view b");
    let err = e.recv(common::REPLY);
    assert!(err.starts_with("info string error: query view is for Phantom Go only"), "{err}");
}

#[test]
fn go_sees_only_the_movers_view() {
    // Two games whose full boards differ but whose black views are equal: the same
    // search from a fresh engine gives the same try.
    let mut answers = Vec::new();
    for tries in ["C7 G3 G7 C3", "C7 E5 G7 D4"] {
        let mut e = phantom();
        e.send(&format!("position startpos moves {tries}"));
        assert_eq!(e.ask("query view b"), format!("response {}", board(&["C7", "G7"], &[])));
        e.send("go nodes 1500");
        let reply = e.until(|l| l.starts_with("bestmove "));
        answers.push(reply.last().unwrap().clone());
    }
    assert_eq!(answers[0], answers[1]);
}

#[test]
fn a_view_position_is_one_sides_knowledge_only() {
    // Black's view after C7 (black), G3 (white), G7 (black) and a refused try on E5.
    let empty = ".".repeat(81);
    let mut refused = vec!['.'; 81];
    refused[4 * 9 + 4] = 'x';
    let refused: String = refused.into_iter().collect();
    let view = format!("{} B 1 0 0 {refused} {empty} {empty}", board(&["C7", "G7"], &[]));
    let mut e = phantom();
    e.send(&format!("position fen {view}"));
    assert_eq!(e.ask("query fen"), format!("response {view}"), "the view round-trips");
    assert_eq!(e.ask("query p1turn"), "response true");
    assert_eq!(e.ask("query gameover"), "response false");
    assert_eq!(e.ask("query counts"), "response 2 1");
    assert_eq!(e.ask("query view b"), format!("response {}", board(&["C7", "G7"], &[])));
    for hidden in ["query view w", "query full", "query lastlegal"] {
        e.send(hidden);
        let err = e.recv(common::REPLY);
        assert!(err.starts_with("info string error:"), "{hidden}: {err}");
    }
    // The refused point and our own stones are not sensible tries; go picks another.
    assert_eq!(e.ask("query islegal E5"), "response false");
    assert_eq!(e.ask("query islegal C7"), "response false");
    e.send("go nodes 500");
    let best = e.until(|l| l.starts_with("bestmove ")).last().unwrap().clone();
    assert!(!["bestmove E5", "bestmove C7", "bestmove G7"].contains(&best.as_str()), "{best}");
    // Tries after a view, a broken view, or an impossible one: errors, the view kept.
    for bad in [
        format!("position fen {view} moves D4"),
        format!("position fen {} B 1 0 0", board(&["C7"], &[])),
        format!("position fen {} W 90 0 0 {empty} {empty} {empty}", board(&["C7"], &[])),
        format!("position fen {} B 1 0 0 {refused} {empty} {empty}", board(&["C7", "E5"], &[])),
    ] {
        e.send(&bad);
        let err = e.recv(common::REPLY);
        assert!(err.starts_with("info string error:"), "{bad}: {err}");
        assert_eq!(e.ask("query fen"), format!("response {view}"), "{bad}");
    }
    // A tries list replaces the view.
    e.send("position startpos moves E5");
    assert_eq!(e.ask("query lastlegal"), "response b E5");
}

/// Peak resident memory (MiB) of `e` after a 5 s search from a few moves in.
fn peak_after_a_long_search(e: &mut Engine) -> f64 {
    e.send("position startpos moves E5 D5 E4");
    e.send("go movetime 5000");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")), "{lines:?}");
    e.peak_resident_mib()
}

#[test]
fn a_long_search_keeps_its_memory_small() {
    // One sampled board's tree at a time (at most 1 024 playouts): five seconds of
    // search need no more memory than one. Hash is not used, and says so.
    let mut e = phantom();
    assert_eq!(e.ask("setoption name Hash value 1"), "info string Hash is kept, but phantomgo does not use it");
    let peak = peak_after_a_long_search(&mut e);
    assert!(peak < 40.0, "peak resident memory {peak:.1} MiB after a 5 s Phantom Go search");
}

#[test]
fn the_information_set_trees_keep_their_memory_bounded() {
    // The ISMCTS player keeps one tree per side, capped at MAX_NODES nodes in all
    // (28 bytes each, about 13 MiB): a 5 s search, which can reach the cap, stays
    // small.
    let mut e = phantom();
    e.send("setoption name PhantomPlayer value ismcts");
    let peak = peak_after_a_long_search(&mut e);
    assert!(peak < 40.0, "peak resident memory {peak:.1} MiB after a 5 s ISMCTS search");
}
