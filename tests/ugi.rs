//! UGI+ over pipes: the handshake, searches, `isready` during a search, `stop`, and
//! malformed input that must get an error reply without losing the position.

use crate::common;

use std::time::{Duration, Instant};

use bitboards::othello::{Board, Move, Position};
use common::{Engine, REPLY};

fn is_bestmove(line: &str) -> bool {
    line.starts_with("bestmove ")
}

/// The position after `moves` from the start, by our own rules code.
fn position_after(moves: &[&str]) -> Position<Board> {
    moves.iter().fold(Position::start(), |p, m| p.play(Move::parse(m, 8).unwrap()).unwrap())
}

/// Checks a `bestmove` line names a legal move of `pos`.
fn assert_legal_bestmove(line: &str, pos: &Position<Board>) {
    let text = line.strip_prefix("bestmove ").expect("a bestmove line");
    let mv = Move::parse(text, 8).unwrap_or_else(|e| panic!("bestmove '{text}': {e}"));
    assert!(pos.legal_moves().contains(&mv), "bestmove {text} is not legal in {pos}");
}

#[test]
fn handshake_position_and_fixed_depth_search() {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    let hello = e.until(|l| l == "ugiok");
    assert!(hello[0].starts_with("id name sente"), "{hello:?}");
    assert!(hello[1].starts_with("id author "), "{hello:?}");
    for option in ["Game", "Threads", "Hash"] {
        assert!(hello.iter().any(|l| l.starts_with(&format!("option name {option} type "))), "{hello:?}");
    }
    e.send("setoption name Game value othello");
    assert_eq!(e.ask("isready"), "readyok");
    e.send("uginewgame");
    e.send("position startpos moves f5 d6");
    assert_eq!(e.ask("isready"), "readyok");
    assert_eq!(e.ask("query p1turn"), "response true");
    assert_eq!(e.ask("query gameover"), "response false");
    assert_eq!(e.ask("query result"), "response none");
    assert_eq!(e.ask("query legalmoves"), "response c3 c4 c5 c6 c7");
    assert_eq!(e.ask("query islegal c3"), "response true");
    assert_eq!(e.ask("query islegal a1"), "response false");
    let pos = position_after(&["f5", "d6"]);
    assert_eq!(e.ask("query fen"), format!("response {pos}"));

    e.send("go depth 4");
    let reply = e.until(is_bestmove);
    let infos: Vec<&String> = reply.iter().filter(|l| l.starts_with("info ")).collect();
    assert!(!infos.is_empty(), "{reply:?}");
    let last = infos.last().unwrap();
    for field in [" depth 4 ", " nodes ", " time ", " nps ", " score cp ", " pv "] {
        assert!(last.contains(field), "final info lacks '{field}': {last}");
    }
    assert!(reply.iter().all(|l| l.starts_with("info ") || is_bestmove(l)), "{reply:?}");
    assert_legal_bestmove(reply.last().unwrap(), &pos);
    // Exactly one bestmove: nothing else follows.
    assert!(e.silent_for(Duration::from_millis(300)), "{:?}", e.transcript);
    e.send("quit");
    assert!(e.wait_exit(REPLY));
}

#[test]
fn isready_is_answered_during_an_infinite_search_and_stop_ends_it() {
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    e.send("isready");
    let lines = e.until(|l| l == "readyok");
    assert!(asked.elapsed() < Duration::from_secs(20), "isready took {:?}", asked.elapsed());
    assert!(!lines.iter().any(|l| is_bestmove(l)), "go infinite must not end by itself: {lines:?}");
    assert!(e.silent_for(Duration::from_millis(300)) || !e.transcript.iter().any(|l| is_bestmove(l)));
    e.send("stop");
    let reply = e.until(is_bestmove);
    assert_legal_bestmove(reply.last().unwrap(), &Position::start());
    assert!(e.silent_for(Duration::from_millis(300)), "one bestmove only: {:?}", e.transcript);
    // The engine is ready for more.
    assert_eq!(e.ask("isready"), "readyok");
}

#[test]
fn stop_interrupts_a_deep_search_and_time_limits_are_kept() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves f5");
    e.send("go depth 60");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let reply = e.until(is_bestmove);
    assert_legal_bestmove(reply.last().unwrap(), &position_after(&["f5"]));

    let started = Instant::now();
    e.send("go movetime 300");
    e.until(is_bestmove);
    assert!(started.elapsed() < Duration::from_secs(20), "movetime 300 took {:?}", started.elapsed());

    let started = Instant::now();
    e.send("go p1time 2000 p2time 2000 p1inc 0 p2inc 0");
    let reply = e.until(is_bestmove);
    assert!(started.elapsed() < Duration::from_secs(20), "a 2 s clock move took {:?}", started.elapsed());
    assert_legal_bestmove(reply.last().unwrap(), &position_after(&["f5"]));

    e.send("go nodes 5000");
    let reply = e.until(is_bestmove);
    let info = reply.iter().rev().find(|l| l.starts_with("info ")).unwrap();
    let nodes: u64 = info.split_whitespace().skip_while(|w| *w != "nodes").nth(1).unwrap().parse().unwrap();
    // Limits are checked between interior nodes, so a search may overrun by a little.
    assert!(nodes <= 5500, "{info}");
}

#[test]
fn a_forced_pass_and_a_finished_game() {
    let mut e = Engine::start(&[]);
    // White cannot move, black can: white's only move is a pass.
    let fen = format!("XO{} O", "-".repeat(62));
    e.send(&format!("position fen {fen}"));
    assert_eq!(e.ask("query legalmoves"), "response pass");
    e.send("go depth 3");
    assert_eq!(e.until(is_bestmove).last().unwrap(), "bestmove pass");
    e.send(&format!("position fen {fen} moves pass c1"));
    assert_eq!(e.ask("query gameover"), "response true");
    assert_eq!(e.ask("query result"), "response p1win");
    assert_eq!(e.ask("query score"), "response 64");
    e.send("go depth 3");
    let reply = e.until(is_bestmove);
    assert!(reply[0].starts_with("info string error:"), "{reply:?}");
    assert_eq!(reply.last().unwrap(), "bestmove none");
}

#[test]
fn malformed_input_gets_errors_and_keeps_the_position() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves f5 d6 c3");
    let fen = format!("response {}", position_after(&["f5", "d6", "c3"]));
    assert_eq!(e.ask("query fen"), fen);

    // An option the engine does not have is ignored, as UCI engines do, said once.
    e.send("setoption name NoSuchOption value 1");
    assert_eq!(e.recv(REPLY), "info string unknown option 'NoSuchOption' ignored");
    e.send("setoption name nosuchoption value 2");
    assert_eq!(e.ask("query fen"), fen, "said once");
    // Blank lines and `#` comments are ignored quietly, as Stockfish does: the next
    // answer is the next command's.
    for quiet in ["", "   \t", "# a comment"] {
        e.send(quiet);
        assert_eq!(e.ask("query fen"), fen, "after {quiet:?}");
    }

    let long = "x".repeat(2_000_000);
    let bad: Vec<Vec<u8>> = vec![
        b"flibbertigibbet".to_vec(),
        b"position fen XXXX X".to_vec(),
        b"position fen ---------------------------OX------XO--------------------------- Q".to_vec(),
        b"position startpos moves f5 d6 c3 a1".to_vec(),
        b"position startpos moves f5 zz9".to_vec(),
        long.into_bytes(),
        vec![0xff, 0xfe, 0x00, 0x01, 0x9b, b'g', b'o'],
        b"go depth banana".to_vec(),
        b"setoption name Threads value -1".to_vec(),
        b"query weather".to_vec(),
        b"perft".to_vec(),
    ];
    for line in &bad {
        let mut bytes = line.clone();
        bytes.push(b'\n');
        e.send_bytes(&bytes);
        let reply = e.recv(REPLY);
        assert!(
            reply.starts_with("info string error: "),
            "line {:?} got {reply:?}",
            String::from_utf8_lossy(&line[..line.len().min(40)])
        );
        assert!(reply.len() < 300, "error replies stay short: {} bytes", reply.len());
        assert_eq!(
            e.ask("query fen"),
            fen,
            "position kept after {:?}",
            String::from_utf8_lossy(&line[..line.len().min(40)])
        );
    }
    assert_eq!(e.ask("isready"), "readyok");
    e.send("go depth 2");
    let reply = e.until(is_bestmove);
    assert_legal_bestmove(reply.last().unwrap(), &position_after(&["f5", "d6", "c3"]));
}

#[test]
fn end_of_input_lets_a_limited_search_finish() {
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("go depth 5");
    e.close_input();
    let reply = e.until(is_bestmove);
    assert!(reply.iter().any(|l| l.contains(" depth 5 ")), "{reply:?}");
    assert!(e.wait_exit(REPLY));
}

#[test]
fn perft_and_board_drawing_in_the_protocol() {
    let mut e = Engine::start(&[]);
    e.send("perft 6");
    let reply = e.until(|l| l.starts_with("perft "));
    assert_eq!(reply.last().unwrap(), "perft 6 8200");
    e.send("d");
    let drawing = e.until(|l| l.contains("to move"));
    assert!(drawing.iter().any(|l| l.trim() == "4 . . + O X . . ."), "{drawing:?}");
    e.send("setoption name BoardSize value 10");
    assert_eq!(e.ask("query legalmoves"), "response e4 d5 g6 f7");
    e.send("perft 7");
    assert_eq!(e.until(|l| l.starts_with("perft ")).last().unwrap(), "perft 7 55180");
}

#[test]
fn go_over_ugi() {
    use bitboards::go::{Board as GoBoard, Color, Game, Move as GoMove, Point, Superko};
    let mut e = Engine::start(&[]);
    e.send("setoption name Game value go");
    e.send("setoption name BoardSize value 7");
    e.send("setoption name Komi value 0.5");
    e.send("position startpos moves D4 C3");
    assert_eq!(e.ask("query p1turn"), "response true");
    let legal = e.ask("query legalmoves");
    assert_eq!(legal.split_whitespace().count(), 1 + 47 + 1, "{legal}");
    assert!(legal.ends_with(" pass"));
    assert_eq!(e.ask("query islegal D4"), "response false");
    assert_eq!(e.ask("query islegal Z4"), "response false");
    assert_eq!(e.ask("query fen"), "response ......./......./......./...X.../..O..../......./....... b");
    // Area now: one stone each, the rest reaches both: 0 - 0.5.
    assert_eq!(e.ask("query score"), "response -0.5");
    e.send("go nodes 3000");
    let reply = e.until(is_bestmove);
    let text = reply.last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
    let mut game = Game::new(GoBoard::new(7), 0.5, Superko::Positional);
    game.play(Color::BLACK, GoMove::Play(Point::from_gtp("D4", 7).unwrap())).unwrap();
    game.play(Color::WHITE, GoMove::Play(Point::from_gtp("C3", 7).unwrap())).unwrap();
    let mv = if text == "pass" { GoMove::Pass } else { GoMove::Play(Point::from_gtp(&text, 7).unwrap()) };
    assert!(game.check(Color::BLACK, mv).is_ok(), "bestmove {text}");
    assert!(reply.iter().any(|l| l.starts_with("info ") && l.contains(" nodes ")), "{reply:?}");
    // Errors keep the position.
    e.send("position startpos moves D4 D4");
    assert!(e.recv(REPLY).starts_with("info string error: move 2 'D4' is illegal"));
    e.send("setoption name Komi value many");
    assert!(e.recv(REPLY).starts_with("info string error: bad komi"));
    e.send("setoption name Superko value sometimes");
    assert!(e.recv(REPLY).starts_with("info string error: bad superko rule"));
    e.send("setoption name Playouts value medium");
    assert!(e.recv(REPLY).starts_with("info string error: unknown playout policy 'medium': light or heavy"));
    assert_eq!(e.ask("query fen"), "response ......./......./......./...X.../..O..../......./....... b");
    // Light playouts search too, and answer a legal move.
    e.send("setoption name Playouts value light");
    e.send("go nodes 2000");
    let reply = e.until(is_bestmove);
    let text = reply.last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
    let mv = if text == "pass" { GoMove::Pass } else { GoMove::Play(Point::from_gtp(&text, 7).unwrap()) };
    assert!(game.check(Color::BLACK, mv).is_ok(), "heavy playouts: bestmove {text}");
    // Two passes end the game; the result follows the area count.
    e.send("position startpos moves D4 pass pass");
    assert_eq!(e.ask("query gameover"), "response true");
    assert_eq!(e.ask("query result"), "response p1win");
}

/// The `Hash` option sets the memory the Othello table takes: once a new game has
/// cleared the whole table (every page touched), the process's peak resident memory
/// is at least the setting and at most 10% + 50 MiB above it.
#[cfg(target_os = "linux")]
#[test]
fn hash_sets_the_memory_the_table_takes() {
    const HASH_MIB: f64 = 256.0;
    let mut e = Engine::start(&[]);
    e.send("ugi");
    e.until(|l| l == "ugiok");
    e.send("setoption name Game value othello");
    e.send(&format!("setoption name Hash value {HASH_MIB}"));
    e.send("setoption name Threads value 2");
    e.send("position startpos");
    e.send("go depth 8");
    e.until(is_bestmove);
    e.send("uginewgame");
    e.send("position startpos moves f5 d6 c3 d3 c4");
    assert_eq!(e.ask("isready"), "readyok");
    e.send("go depth 10");
    e.until(is_bestmove);
    let peak = e.peak_resident_mib();
    println!("Hash {HASH_MIB}: peak resident memory {peak:.1} MiB");
    assert!((HASH_MIB..=HASH_MIB * 1.1 + 50.0).contains(&peak), "Hash {HASH_MIB}: peak resident memory {peak:.1} MiB");
    e.send("quit");
    assert!(e.wait_exit(REPLY));
}

/// Sends `script` in one write and closes the input, as a client piping a batch
/// does, and returns every line the engine writes before it exits (cleanly).
fn batch(script: &str) -> Vec<String> {
    let mut e = Engine::start(&[]);
    e.send_bytes(script.as_bytes());
    e.close_input();
    let lines = e.rest(Duration::from_secs(120));
    assert!(e.exited_cleanly(REPLY), "{lines:?}");
    lines
}

fn count(lines: &[String], prefix: &str) -> usize {
    lines.iter().filter(|l| l.starts_with(prefix)).count()
}

#[test]
fn quit_runs_the_commands_queued_before_it_in_every_game() {
    for game in ["othello", "go", "phantomgo", "chaosclock"] {
        let head = format!("setoption name Game value {game}\nposition startpos\n");
        // The reproducer: two searches, then quit at once.
        for tail in ["quit\n", ""] {
            let lines = batch(&format!("{head}go nodes 10\ngo nodes 10\nquery p1turn\n{tail}"));
            assert_eq!(count(&lines, "bestmove "), 2, "{game} {tail:?}: {lines:?}");
            // The query behind the queued second search is answered once that search
            // starts, during it (as isready is): before or after its bestmove.
            assert_eq!(count(&lines, "response true"), 1, "{game} {tail:?}: {lines:?}");
            let first_answer = lines.iter().position(|l| l.starts_with("bestmove "));
            let response = lines.iter().position(|l| l == "response true");
            assert!(first_answer < response, "{game} {tail:?}: {lines:?}");
        }
        // An infinite search when quit comes is stopped and answers; the query queued
        // before quit is answered.
        let lines = batch(&format!("{head}go infinite\nquery p1turn\nquit\n"));
        assert_eq!(count(&lines, "bestmove "), 1, "{game}: {lines:?}");
        assert_eq!(count(&lines, "response "), 1, "{game}: {lines:?}");
        // Many searches queued, each with a query and a change of state behind it:
        // every one answers before the engine leaves.
        let mut script = head.clone();
        for _ in 0..50 {
            script.push_str("go nodes 10\nquery p1turn\nuginewgame\nposition startpos\n");
        }
        script.push_str("quit\n");
        let lines = batch(&script);
        assert_eq!(count(&lines, "bestmove "), 50, "{game}: {lines:?}");
        assert_eq!(count(&lines, "bestmove (none)"), 0, "{game}: {lines:?}");
        assert_eq!(count(&lines, "response true"), 50, "{game}: {lines:?}");
        assert!(lines.iter().all(|l| l.starts_with("info ") || l.starts_with("bestmove ") || l == "response true"));
    }
}
