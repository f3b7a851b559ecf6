//! sente driven by a client that follows cutegames' `ugi.md` to the letter and knows no
//! rules: it asks the engines (`query gameover`, `query p1turn`, `query result`), sends
//! options in no fixed order (unknown ones among them, a board size before its game),
//! and accepts only what ugi.md allows: `id`/`option` lines before `ugiok`, `readyok`
//! after `isready`, `response` to each query, `bestmove` after `info` lines, and the
//! results `p1win`, `p2win`, `draw` and `none`. Two sente processes play a short match
//! of two games, colours swapped, in every game a UGI client can play (Phantom Go hides
//! what a rule-less client would need).

use crate::common;

use common::{Engine, REPLY};

/// What ugi.md lets an engine write before `ugiok`.
fn identification(line: &str) -> bool {
    line.starts_with("id ") || line.starts_with("option ")
}

/// Starts an engine and sets it up as ugi.md's example does, with `options` in the
/// order given.
fn start(options: &[(&str, &str)]) -> Engine {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    let lines = e.until(|l| l == "ugiok");
    assert!(lines[..lines.len() - 1].iter().all(|l| identification(l)), "before ugiok: {lines:?}");
    for (name, value) in options {
        e.send(&format!("setoption name {name} value {value}"));
    }
    e.send("isready");
    let lines = e.until(|l| l == "readyok");
    // UCI lets an engine say things in `info string` lines; nothing else may come.
    assert!(lines[..lines.len() - 1].iter().all(|l| l.starts_with("info string ")), "before readyok: {lines:?}");
    assert!(!lines.iter().any(|l| l.contains("error")), "an option was refused: {lines:?}");
    e.send("uginewgame");
    e
}

/// `query what`, answered by a `response` line (info lines may come before it).
fn query(e: &mut Engine, what: &str) -> String {
    e.send(&format!("query {what}"));
    let lines = e.until(|l| l.starts_with("response"));
    let last = lines.last().map(String::as_str).unwrap_or_default();
    assert!(lines[..lines.len() - 1].iter().all(|l| l.starts_with("info ")), "{what}: {lines:?}");
    last.strip_prefix("response").unwrap_or_default().trim().to_string()
}

/// A yes/no answer, as ugi.md writes them.
fn truth(answer: &str) -> bool {
    match answer {
        "true" => true,
        "false" => false,
        other => panic!("'{other}' is not true or false"),
    }
}

/// Plays two games between two engines set up with `options`, each move asked for with
/// the next of `gos`; returns each game's result word and its moves.
fn match_of_two(options: &[(&str, &str)], gos: &[&str]) -> Vec<(String, Vec<String>)> {
    let mut engines = [start(options), start(options)];
    let mut games = Vec::new();
    for game in 0..2 {
        let first = game % 2;
        let mut moves: Vec<String> = Vec::new();
        let result = loop {
            assert!(moves.len() < 600, "game {game} did not end: {moves:?}");
            let position = if moves.is_empty() {
                "position startpos".to_string()
            } else {
                format!("position startpos moves {}", moves.join(" "))
            };
            let mut over = Vec::new();
            for e in engines.iter_mut() {
                e.send(&position);
                over.push(truth(&query(e, "gameover")));
            }
            assert_eq!(over[0], over[1], "the engines disagree on the end after {moves:?}");
            if over[0] {
                let words = [query(&mut engines[0], "result"), query(&mut engines[1], "result")];
                assert_eq!(words[0], words[1], "after {moves:?}");
                assert!(["p1win", "p2win", "draw"].contains(&words[0].as_str()), "not a ugi.md result: {words:?}");
                break words[0].clone();
            }
            assert_eq!(query(&mut engines[0], "result"), "none");
            let p1 = truth(&query(&mut engines[0], "p1turn"));
            let mover = if p1 { first } else { 1 - first };
            let e = &mut engines[mover];
            e.send(gos[moves.len() % gos.len()]);
            let lines = e.until(|l| l.starts_with("bestmove"));
            assert!(lines[..lines.len() - 1].iter().all(|l| l.starts_with("info ")), "{lines:?}");
            let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or_default().to_string();
            assert!(!best.is_empty() && best != "none", "a live game's bestmove: {lines:?}");
            moves.push(best);
        };
        games.push((result, moves));
    }
    for mut e in engines {
        e.send("quit");
        assert!(e.exited_cleanly(REPLY), "a failing exit");
    }
    games
}

#[test]
fn an_othello_match_through_a_ugi_md_client() {
    let options = [("ownbook", "true"), ("Game", "othello"), ("debug", "false"), ("Hash", "16")];
    let games = match_of_two(&options, &["go nodes 2000", "go depth 3", "go movetime 20"]);
    for (result, moves) in &games {
        assert!(moves.len() > 20, "{result}: {moves:?}");
    }
}

#[test]
fn a_go_match_on_a_size_set_before_its_game() {
    // cutegames sends the board size before the game: the game is still 7x7.
    let options = [("BoardSize", "7"), ("Game", "go"), ("debug", "true"), ("Threads", "1"), ("Hash", "16")];
    let mut e = start(&options);
    assert_eq!(query(&mut e, "fen"), "......./......./......./......./......./......./....... b");
    let games = match_of_two(&options, &["go nodes 300", "go movetime 20"]);
    for (_, moves) in &games {
        // Every vertex is on the 7x7 board (columns A-G, rows 1-7).
        for mv in moves.iter().filter(|m| *m != "pass") {
            let (column, row) = mv.split_at(1);
            assert!("ABCDEFG".contains(column) && (1..=7).contains(&row.parse::<u32>().unwrap_or(0)), "{mv}");
        }
    }
}

#[test]
fn a_chaos_clock_match_is_scored_in_ugi_md_words() {
    let options = [("debug", "true"), ("Game", "chaosclock")];
    let games = match_of_two(&options, &["go nodes 200", "go movetime 20"]);
    assert_eq!(games.len(), 2);
    // A finished game that both sides lose is a draw to a ugi.md client; a client
    // that asks for them gets Chaos Clock's own words.
    let mut e = start(&options);
    e.send("position startpos moves pass pass");
    assert_eq!(query(&mut e, "gameover"), "true");
    assert_eq!(query(&mut e, "result"), "draw");
    e.send("setoption name ResultWords value full");
    assert_eq!(query(&mut e, "result"), "bothlose");
}
