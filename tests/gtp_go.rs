//! Go over GTP as GoGui and Sabaki drive an engine: the setup commands, moves,
//! genmove under a clock, undo, scoring, and malformed commands that must get `?`
//! replies while the engine keeps its game.

use crate::common;

use std::time::{Duration, Instant};

use bitboards::go::{Board, Color, Game, Move, Point, Superko};
use common::{Engine, REPLY, gtp};

#[test]
fn a_gogui_or_sabaki_session() {
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "protocol_version"), "= 2");
    assert_eq!(gtp(&mut e, "name"), "= sente");
    let commands = gtp(&mut e, "list_commands");
    for required in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "final_status_list",
        "time_settings",
        "time_left",
        "kgs-genmove_cleanup",
        "loadsgf",
        "printsgf",
        "gogui-analyze_commands",
    ] {
        assert!(commands.lines().any(|l| l.trim_start_matches("= ") == required), "{required} missing");
    }
    assert_eq!(gtp(&mut e, "known_command genmove"), "= true");
    assert_eq!(gtp(&mut e, "known_command fly"), "= false");
    assert_eq!(gtp(&mut e, "1 boardsize 9"), "=1");
    assert_eq!(gtp(&mut e, "2 clear_board"), "=2");
    assert_eq!(gtp(&mut e, "3 komi 7.5"), "=3");
    // 6 000 s of main time: a genmove that ignored `time_left` would plan minutes (a
    // search: the opening book's moves are immediate).
    assert_eq!(gtp(&mut e, "sente-book false"), "=");
    assert_eq!(gtp(&mut e, "4 time_settings 6000 0 0"), "=4");
    assert_eq!(gtp(&mut e, "5 play B E5"), "=5");
    assert_eq!(gtp(&mut e, "6 time_left white 3 0"), "=6");
    let started = Instant::now();
    let reply = gtp(&mut e, "7 genmove W");
    // With 3 s left the engine plans at most 1.2 s (the budget's arithmetic is tested in
    // search/src/limits.rs); 20 s is far from both, whatever the load.
    assert!(started.elapsed() < Duration::from_secs(20), "genmove took {:?} with 3 s left", started.elapsed());
    let vertex = reply.strip_prefix("=7 ").unwrap();
    let mut game = Game::new(Board::new(9), 7.5, Superko::Positional);
    game.play(Color::BLACK, Move::Play(Point::from_gtp("E5", 9).unwrap())).unwrap();
    let mv = if vertex == "pass" { Move::Pass } else { Move::Play(Point::from_gtp(vertex, 9).unwrap()) };
    assert!(game.check(Color::WHITE, mv).is_ok(), "white played {vertex}");
    assert_eq!(gtp(&mut e, "8 undo"), "=8");
    assert_eq!(gtp(&mut e, "9 undo"), "=9");
    assert_eq!(gtp(&mut e, "10 undo"), "?10 cannot undo");
    assert!(gtp(&mut e, "11 showboard").contains(" 5 . . . . . . . . . 5"));
    assert_eq!(gtp(&mut e, "12 final_score"), "=12 W+7.5");
    // A short game to score: black walls off the left, white the right.
    for (c, v) in [
        ("b", "D1"),
        ("w", "F1"),
        ("b", "D2"),
        ("w", "F2"),
        ("b", "D3"),
        ("w", "F3"),
        ("b", "D4"),
        ("w", "F4"),
        ("b", "D5"),
        ("w", "F5"),
        ("b", "D6"),
        ("w", "F6"),
        ("b", "D7"),
        ("w", "F7"),
        ("b", "D8"),
        ("w", "F8"),
        ("b", "D9"),
        ("w", "F9"),
        ("b", "E5"),
        ("w", "pass"),
        ("b", "pass"),
    ] {
        assert_eq!(gtp(&mut e, &format!("play {c} {v}")), "=", "play {c} {v}");
    }
    // Black: 10 stones + 27 points + 4 (half the 8 neutral points of column E) = 41;
    // white: 9 + 27 + 4 = 40; with komi 7.5 white wins by 6.5.
    assert_eq!(gtp(&mut e, "final_score"), "= W+6.5");
    assert_eq!(gtp(&mut e, "final_status_list dead"), "=");
    let sgf = gtp(&mut e, "printsgf");
    assert!(
        sgf.contains("SZ[9]") && sgf.contains("KM[7.5]") && sgf.contains(";B[dh]") && sgf.contains("RE[W+6.5]"),
        "{sgf}"
    );
    assert_eq!(gtp(&mut e, "quit"), "=");
    assert!(e.wait_exit(REPLY));
}

#[test]
fn malformed_commands_get_errors_and_the_game_survives() {
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "boardsize 9"), "=");
    assert_eq!(gtp(&mut e, "play b c3"), "=");
    for (command, reply) in [
        ("boardsize 19", "? unacceptable size"),
        ("boardsize nine", "? syntax error"),
        ("play b c3", "? illegal move"),
        ("play b z9", "? syntax error"),
        ("play purple d4", "? syntax error"),
        ("play b", "? syntax error"),
        ("komi lots", "? syntax error"),
        ("genmove", "? syntax error"),
        ("frobnicate", "? unknown command"),
        ("42 frobnicate", "?42 unknown command"),
        ("time_left black -1 0", "? syntax error"),
        ("loadsgf /nonexistent/game.sgf", "? cannot load file"),
        ("final_status_list sleepy", "? syntax error"),
    ] {
        let got = gtp(&mut e, command);
        assert!(got.starts_with(reply), "'{command}' got '{got}'");
    }
    e.send_bytes(b"\xff\xfe\x00garbage\n");
    assert_eq!(e.recv(REPLY), "? unknown command");
    assert_eq!(e.recv(REPLY), "");
    // The stone on C3 is still there: playing it again is illegal, D4 is fine.
    assert_eq!(gtp(&mut e, "play b c3"), "? illegal move");
    assert_eq!(gtp(&mut e, "play w d4"), "=");
}

#[test]
fn loadsgf_and_the_first_line_selects_gtp() {
    let dir = common::Scratch::new("sgf");
    let file = dir.join("game.sgf");
    std::fs::write(&file, "(;FF[4]GM[1]SZ[7]KM[0.5]AB[dd];W[cc];B[ee];W[])").unwrap();
    // No subcommand: a GTP first line selects GTP (Go).
    let mut e = Engine::start(&[]);
    assert_eq!(gtp(&mut e, "protocol_version"), "= 2");
    // The position before move 2: the setup stone and white C5, black to play.
    assert_eq!(gtp(&mut e, &format!("loadsgf {} 2", file.display())), "= black");
    let board = gtp(&mut e, "showboard");
    assert!(board.contains(" 4 . . . X . . . 4") && board.contains(" 5 . . O . . . . 5"), "{board}");
    assert!(!board.contains(" 3 . . . . X"), "move 2 is not loaded: {board}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Plays `moves` genmoves alternately from the empty board and checks each is legal;
/// the opening book is turned off first, so each is a search.
fn genmoves_are_legal(e: &mut Engine, moves: usize) {
    assert_eq!(gtp(e, "sente-book false"), "=");
    let mut game = Game::new(Board::new(9), 7.5, Superko::Positional);
    for i in 0..moves {
        let color = if i % 2 == 0 { Color::BLACK } else { Color::WHITE };
        let reply = gtp(e, if i % 2 == 0 { "genmove b" } else { "genmove w" });
        let vertex = reply.strip_prefix("= ").unwrap_or_else(|| panic!("genmove replied '{reply}'"));
        let mv = if vertex == "pass" { Move::Pass } else { Move::Play(Point::from_gtp(vertex, 9).unwrap()) };
        game.play(color, mv).unwrap_or_else(|err| panic!("move {i}: {vertex} is illegal: {err}"));
    }
}

#[test]
fn the_tree_kept_between_moves_follows_undo_and_new_games() {
    // The tree is kept after each genmove; undo, another line and a new game must
    // each find their own position, not the kept one.
    let mut e = Engine::start(&["gtp", "--hash", "8"]);
    assert_eq!(gtp(&mut e, "time_settings 0 1 1"), "=");
    genmoves_are_legal(&mut e, 2);
    assert_eq!(gtp(&mut e, "undo"), "=");
    assert_eq!(gtp(&mut e, "undo"), "=");
    // An atari for white to answer: black surrounds a white stone on three sides.
    for m in ["play b D4", "play w E5", "play b E4", "play w pass", "play b D5", "play w pass", "play b E6"] {
        assert_eq!(gtp(&mut e, m), "=", "{m}");
    }
    let reply = gtp(&mut e, "genmove w");
    assert!(reply.starts_with("= "), "{reply}");
    for taken in ["D4", "E5", "E4", "D5", "E6"] {
        assert_ne!(reply, format!("= {taken}"), "{taken} is taken");
    }
    assert_eq!(gtp(&mut e, "clear_board"), "=");
    genmoves_are_legal(&mut e, 2);
}

#[test]
fn threads_and_hash_are_set_over_gtp() {
    // `sente-threads` and `sente-hash` change what the command line set: the tree of the
    // next genmove is at most 8 MiB (the default 64 MiB one would break the bound).
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "sente-threads"), "= 1");
    assert_eq!(gtp(&mut e, "sente-hash"), "= 64");
    assert_eq!(gtp(&mut e, "sente-threads 2"), "=");
    assert_eq!(gtp(&mut e, "sente-hash 8"), "=");
    for bad in ["sente-threads 0", "sente-threads 257", "sente-threads two", "sente-hash 0", "sente-hash 1 2"] {
        assert_eq!(gtp(&mut e, bad), "? syntax error", "{bad}");
    }
    assert_eq!(gtp(&mut e, "sente-threads"), "= 2", "a refused value keeps the old one");
    assert_eq!(gtp(&mut e, "sente-hash"), "= 8");
    assert_eq!(gtp(&mut e, "known_command sente-threads"), "= true");
    assert_eq!(gtp(&mut e, "time_settings 0 1 1"), "=");
    genmoves_are_legal(&mut e, 4);
    let peak = e.peak_resident_mib();
    assert!(peak < 8.0 * 1.1 + 50.0, "peak resident memory {peak:.1} MiB after sente-hash 8");
}

#[test]
fn the_playout_policy_is_set_over_gtp() {
    // `sente-playouts` answers the policy in use (heavy by default) and sets another;
    // a bad name is refused and the policy kept; genmove plays with the one set.
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "sente-playouts"), "= heavy");
    assert_eq!(gtp(&mut e, "sente-playouts light"), "=");
    assert_eq!(gtp(&mut e, "sente-playouts"), "= light");
    let bad = gtp(&mut e, "sente-playouts medium");
    assert!(bad.starts_with("? ") && bad.contains("light or heavy"), "{bad}");
    assert_eq!(gtp(&mut e, "sente-playouts"), "= light", "a refused name keeps the policy");
    assert_eq!(gtp(&mut e, "known_command sente-playouts"), "= true");
    assert_eq!(gtp(&mut e, "time_settings 0 1 1"), "=");
    genmoves_are_legal(&mut e, 2);
}

#[test]
fn the_move_model_is_switched_over_gtp_and_ugi() {
    // One table entry: GTP `sente-movemodel` and UGI+ `MoveModel`. Off, the same seed
    // and playouts give the moves of the hand-set priors; on (the default), others.
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "sente-movemodel"), "= true");
    assert_eq!(gtp(&mut e, "sente-movemodel false"), "=");
    assert_eq!(gtp(&mut e, "sente-movemodel"), "= false");
    assert!(gtp(&mut e, "sente-movemodel maybe").starts_with("? bad MoveModel 'maybe'"));
    assert_eq!(gtp(&mut e, "sente-movemodel"), "= false", "a refused value keeps the setting");
    assert!(gtp(&mut e, "list_commands").contains("sente-movemodel"));
    let mut u = Engine::start(&["ugi"]);
    u.send("ugi");
    let hello = u.until(|l| l == "ugiok");
    assert!(hello.iter().all(|l| !l.contains("MoveModel")), "not an Othello option: {hello:?}");
    u.send("setoption name Game value go");
    u.send("ugi");
    let hello = u.until(|l| l == "ugiok");
    assert!(hello.iter().any(|l| l == "option name MoveModel type check default true"), "{hello:?}");
    u.send("quit");
    let best = |model: &str| {
        let mut u = Engine::start(&["ugi"]);
        u.send("setoption name Game value go");
        u.send(&format!("setoption name MoveModel value {model}"));
        u.send("setoption name Book value false");
        u.send("position startpos moves E5 C3 G5 D7 C6");
        u.send("go nodes 3000");
        u.until(|l| l.starts_with("bestmove")).pop().unwrap_or_default()
    };
    let (on, off) = (best("true"), best("false"));
    assert_eq!(off, best("false"), "deterministic at fixed playouts");
    assert_ne!(on, off, "the model changes the choice here");
}

#[test]
fn the_last_good_replies_are_switched_over_gtp_and_ugi() {
    // GTP `sente-lastgoodreply` and UGI+ `LastGoodReply`; at fixed playouts each
    // setting is deterministic, and the replies change the search's choice here.
    let mut e = Engine::start(&["gtp"]);
    let default = format!("= {}", search::go::params::LAST_GOOD_REPLY);
    assert_eq!(gtp(&mut e, "sente-lastgoodreply"), default);
    assert_eq!(gtp(&mut e, "sente-lastgoodreply true"), "=");
    assert_eq!(gtp(&mut e, "sente-lastgoodreply"), "= true");
    assert!(gtp(&mut e, "sente-lastgoodreply 2").starts_with("? bad LastGoodReply '2'"));
    assert_eq!(gtp(&mut e, "sente-lastgoodreply"), "= true", "a refused value keeps the setting");
    assert!(gtp(&mut e, "list_commands").contains("sente-lastgoodreply"));
    let mut u = Engine::start(&["ugi"]);
    u.send("setoption name Game value go");
    u.send("ugi");
    let hello = u.until(|l| l == "ugiok");
    let line = format!("option name LastGoodReply type check default {}", search::go::params::LAST_GOOD_REPLY);
    assert!(hello.contains(&line), "{hello:?}");
    u.send("quit");
    let search = |on: &str| {
        let mut u = Engine::start(&["ugi"]);
        u.send("setoption name Game value go");
        u.send(&format!("setoption name LastGoodReply value {on}"));
        u.send("setoption name Book value false");
        u.send("position startpos moves E5 C3 G5 D7 C6 F3");
        u.send("go nodes 4000");
        // The search's last report without its times: score, principal variation, move.
        let lines = u.until(|l| l.starts_with("bestmove"));
        (last_report_without_times(&lines), lines.last().cloned().unwrap_or_default())
    };
    let (on, off) = (search("true"), search("false"));
    assert_eq!(on, search("true"), "deterministic at fixed playouts");
    assert_ne!(on, off, "the replies change the search");
}

/// The last `info depth` line of a search's output without its `time` and `nps`
/// fields (empty if there is none): what a search at fixed playouts repeats exactly.
fn last_report_without_times(lines: &[String]) -> String {
    let report = lines.iter().rev().find(|l| l.starts_with("info depth")).cloned().unwrap_or_default();
    let words: Vec<&str> = report.split_whitespace().collect();
    let timed = |i: usize| matches!(words[i], "time" | "nps") || (i > 0 && matches!(words[i - 1], "time" | "nps"));
    (0..words.len()).filter(|&i| !timed(i)).map(|i| words[i]).collect::<Vec<_>>().join(" ")
}

#[test]
fn the_search_seed_is_set_over_gtp_and_ugi() {
    // GTP `sente-searchseed` and UGI+ `SearchSeed`: the seed of the next search. Each
    // GTP search takes the next one; at fixed playouts a seed gives the same search
    // every time, and another seed another search (KataGo's `searchRandSeed`).
    let mut e = Engine::start(&["gtp"]);
    let default = search::go::player::GoPlayer::new().search_seed();
    assert_eq!(gtp(&mut e, "sente-searchseed"), format!("= {default}"));
    assert_eq!(gtp(&mut e, "sente-searchseed 7"), "=");
    assert_eq!(gtp(&mut e, "sente-searchseed"), "= 7");
    assert!(gtp(&mut e, "sente-searchseed -1").starts_with("? bad SearchSeed '-1'"));
    assert!(gtp(&mut e, "sente-searchseed seven").starts_with("? bad SearchSeed 'seven'"));
    assert_eq!(gtp(&mut e, "sente-searchseed"), "= 7", "a refused value keeps the setting");
    assert!(gtp(&mut e, "list_commands").contains("sente-searchseed"));
    assert_eq!(gtp(&mut e, "sente-playouts light"), "=");
    assert!(gtp(&mut e, "genmove b").starts_with('='));
    assert_eq!(gtp(&mut e, "sente-searchseed"), "= 8", "the search took 7");
    let mut u = Engine::start(&["ugi"]);
    u.send("setoption name Game value go");
    u.send("ugi");
    let hello = u.until(|l| l == "ugiok");
    let line = format!("option name SearchSeed type spin default {default} min 0 max {}", i64::MAX);
    assert!(hello.contains(&line), "{hello:?}");
    u.send("quit");
    let search = |seed: u64| {
        let mut u = Engine::start(&["ugi"]);
        u.send("setoption name Game value go");
        u.send(&format!("setoption name SearchSeed value {seed}"));
        u.send("position startpos moves E5 C3 G5 D7 C6 F3");
        u.send("go nodes 3000");
        last_report_without_times(&u.until(|l| l.starts_with("bestmove")))
    };
    let five = search(5);
    assert!(five.contains("score cp"), "{five}");
    assert_eq!(five, search(5), "one seed, one search");
    assert_ne!(five, search(6), "another seed, another search");
}

#[test]
fn threads_and_hash_come_from_the_command_line() {
    // Two threads on a tree of at most 8 MiB: legal moves, and the memory stays within
    // the budget. (The tree's memory comes zeroed from the system and is resident only
    // as the search writes it (issue 43), so a default 64 MiB tree would pass the bound
    // too after short searches: the sizes are checked as the engine reports them.)
    let mut e = Engine::start(&["gtp", "--threads", "2", "--hash", "8"]);
    assert_eq!(gtp(&mut e, "time_settings 0 1 1"), "=");
    genmoves_are_legal(&mut e, 4);
    let peak = e.peak_resident_mib();
    assert!(peak < 8.0 * 1.1 + 50.0, "peak resident memory {peak:.1} MiB with --hash 8");
    assert_eq!(gtp(&mut e, "sente-hash"), "= 8");
    assert_eq!(gtp(&mut e, "sente-threads"), "= 2");
    let mut default = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut default, "sente-hash"), "= 64");
    assert_eq!(gtp(&mut default, "sente-threads"), "= 1");
    for bad in [["--threads", "0"], ["--hash", "0"], ["--threads", "many"]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sente")).arg("gtp").args(bad).output().unwrap();
        assert!(!out.status.success(), "sente gtp {bad:?} was accepted");
    }
}

/// A directory of its own for a test's files.
fn test_dir(name: &str) -> common::Scratch {
    common::Scratch::new(name)
}

#[test]
fn loadsgf_reads_deeply_nested_files_and_the_engine_lives() {
    // GNU Go loads both shapes; a recursive reader overflowed its stack on them.
    let dir = test_dir("deep-sgf");
    let nested = dir.join("nested.sgf");
    std::fs::write(&nested, format!("{};GM[1]SZ[9]{}", "(".repeat(50_000), ")".repeat(50_000))).unwrap();
    let chain = dir.join("chain.sgf");
    let mut text = String::from("(;GM[1]SZ[9]");
    for i in 0..60_000 {
        text.push_str(if i % 2 == 0 { "(;B[]" } else { "(;W[]" });
    }
    text.push_str(&")".repeat(60_001));
    std::fs::write(&chain, text).unwrap();
    // The same chain with moves that soon repeat: read, then refused move by move.
    let illegal = dir.join("illegal.sgf");
    let mut text = String::from("(;GM[1]SZ[9]");
    for i in 0..60_000 {
        text.push_str(if i % 2 == 0 { "(;B[aa]" } else { "(;W[bb]" });
    }
    text.push_str(&")".repeat(60_001));
    std::fs::write(&illegal, text).unwrap();

    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "boardsize 7"), "=");
    assert_eq!(gtp(&mut e, &format!("loadsgf {}", nested.display())), "= black");
    assert!(gtp(&mut e, "showboard").contains(" 9 . . . . . . . . . 9"), "a 9x9 board is loaded");
    assert_eq!(gtp(&mut e, &format!("loadsgf {}", chain.display())), "= black");
    assert_eq!(gtp(&mut e, "play b e5"), "=");
    let refused = gtp(&mut e, &format!("loadsgf {}", illegal.display()));
    assert!(refused.starts_with("? cannot load file: move 3 is illegal"), "{refused}");
    // The game before the refused file is kept.
    assert_eq!(gtp(&mut e, "play b e5"), "? illegal move");
    assert_eq!(gtp(&mut e, "name"), "= sente");
    e.send("quit");
    assert!(e.wait_exit(REPLY));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn loadsgf_refuses_a_komi_the_komi_command_refuses() {
    let dir = test_dir("sgf-komi");
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "komi 5.5"), "=");
    assert_eq!(gtp(&mut e, "play b c3"), "=");
    for komi in ["NaN", "1e999", "-inf", "1001"] {
        assert_eq!(gtp(&mut e, &format!("komi {komi}")), "? syntax error", "komi {komi}");
        let file = dir.join(format!("komi-{komi}.sgf"));
        std::fs::write(&file, format!("(;GM[1]SZ[9]KM[{komi}];B[ee])")).unwrap();
        let reply = gtp(&mut e, &format!("loadsgf {}", file.display()));
        assert!(
            reply.starts_with("? cannot load file:")
                && reply.contains(&format!("KM[{komi}]"))
                && reply.contains("komi"),
            "KM[{komi}] got '{reply}'"
        );
    }
    // Nothing changed: the komi and the stone on C3 are kept.
    assert_eq!(gtp(&mut e, "play b c3"), "? illegal move");
    assert!(gtp(&mut e, "printsgf").contains("KM[5.5]"));
    std::fs::write(dir.join("sane.sgf"), "(;GM[1]SZ[9]KM[0.5];B[ee])").unwrap();
    assert_eq!(gtp(&mut e, &format!("loadsgf {}", dir.join("sane.sgf").display())), "= white");
    assert!(gtp(&mut e, "printsgf").contains("KM[0.5]"));
    std::fs::remove_dir_all(&dir).ok();
}

/// The seki GNU Go 3.8 reports (`final_status_list seki`: C9 C8 C7 D7 E9 E8 E7),
/// set up from an SGF: sente's one judgement of dead stones keeps it, as the arena's
/// referee does (its unit test on this board).
#[test]
fn a_seki_is_not_judged_dead() {
    let dir = test_dir("seki");
    let file = dir.join("seki.sgf");
    // Column B and row 6 white's wall, C9-C7 + D7 black's inner group; E9-E7 white's
    // inner group, column F and row 6 black's wall; D9 and D8 the shared liberties.
    let sgf = "(;FF[4]GM[1]SZ[9]KM[7]\
               AB[ca][cb][cc][dc][fa][fb][fc][ed][fd][ee][ef][eg][eh][ei]\
               AW[ba][bb][bc][bd][cd][dd][ea][eb][ec][de][df][dg][dh][di])";
    std::fs::write(&file, sgf).unwrap();
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, &format!("loadsgf {}", file.display())), "= black");
    let board = gtp(&mut e, "showboard");
    assert!(board.contains(" 9 . O X . O X . . . 9"), "{board}");
    assert_eq!(gtp(&mut e, "final_status_list dead"), "=");
    let mut seki: Vec<String> =
        gtp(&mut e, "final_status_list seki").trim_start_matches('=').split_whitespace().map(String::from).collect();
    seki.sort();
    assert_eq!(seki, ["C7", "C8", "C9", "D7", "E7", "E8", "E9"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_command_id_of_any_length_is_the_id() {
    // GNU Go reads the whole run of digits as the id (`sscanf("%d")`), never as the
    // command's name; sente echoes it whole (GNU Go's int overflows).
    let mut e = Engine::start(&["gtp"]);
    let huge = "123456789012345678901234567890";
    assert_eq!(gtp(&mut e, &format!("{huge} name")), format!("={huge} sente"));
    assert_eq!(gtp(&mut e, "18446744073709551616 boardsize 9"), "=18446744073709551616");
    assert_eq!(gtp(&mut e, "007 protocol_version"), "=7 2");
    // `quit` with such an id ends the engine, its input left open.
    assert_eq!(gtp(&mut e, &format!("{huge}{huge} quit")), format!("={huge}{huge}"));
    let deadline = Instant::now() + REPLY;
    while e.try_wait().is_none() {
        assert!(Instant::now() < deadline, "sente did not quit: {:?}", e.transcript);
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Setup stones no game reaches are refused by `loadsgf` as the analysis engine and
/// the UGI+ position text refuse them (one rule, in the Go board), and so is a
/// rectangular board, as a board larger than 9x9 is: a `?` reply, the game kept.
#[test]
fn loadsgf_refuses_setup_stones_no_game_reaches() {
    let dir = test_dir("sgf-setup");
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "play b c3"), "=");
    let cases = [
        // A black stone on A9 with no liberty: GNU Go's `final_score` then read W+88.5.
        ("(;GM[1]FF[4]SZ[9]AB[aa]AW[ab][ba])", "A9 has no liberties"),
        // A 3x3 board full of white stones.
        ("(;GM[1]FF[4]SZ[3]AW[aa:cc])", "no liberties"),
        // A white group in the corner, its last liberty filled by black.
        ("(;GM[1]SZ[9]AW[aa][ab]AB[ba][bb][ac])", "A9 has no liberties"),
        ("(;GM[1]FF[4]SZ[9]AB[ee]AW[ee])", "E5 is given a black and a white stone"),
        ("(;GM[1]FF[4]SZ[9:7])", "rectangular"),
        ("(;GM[1]FF[4]SZ[7:9];B[aa])", "rectangular"),
        ("(;GM[1]FF[4]SZ[19])", "19x19"),
    ];
    for (i, (sgf, problem)) in cases.iter().enumerate() {
        let file = dir.join(format!("bad-{i}.sgf"));
        std::fs::write(&file, sgf).unwrap();
        let reply = gtp(&mut e, &format!("loadsgf {}", file.display()));
        assert!(reply.starts_with("? cannot load file: ") && reply.contains(problem), "{sgf} got '{reply}'");
        // The game is kept: still 9x9 with the stone on C3.
        assert!(gtp(&mut e, "printsgf").contains("SZ[9]"), "{sgf}");
        assert_eq!(gtp(&mut e, "is_legal w c3"), "= 0", "{sgf}");
        assert_eq!(gtp(&mut e, "final_status_list dead"), "=", "{sgf}");
    }
    // A square `SZ[9:9]` is a 9x9 board; a capture-free setup with liberties loads.
    let file = dir.join("good.sgf");
    std::fs::write(&file, "(;GM[1]FF[4]SZ[9:9]AB[ba]AW[ab][bb])").unwrap();
    assert_eq!(gtp(&mut e, &format!("loadsgf {}", file.display())), "= black");
    assert!(gtp(&mut e, "printsgf").contains("SZ[9]KM[7.5]RU[Chinese]AB[ba]AW[ab][bb]"));
    assert!(e.wait_exit(REPLY));
}

/// The three readers of a drawn Go position refuse the same stones: GTP `loadsgf`,
/// UGI+ `position fen` and the analysis engine's `initialStones`.
#[test]
fn every_reader_of_setup_stones_refuses_a_group_without_liberties() {
    let dir = test_dir("setup-readers");
    let file = dir.join("a9.sgf");
    std::fs::write(&file, "(;GM[1]FF[4]SZ[9]AB[aa]AW[ab][ba])").unwrap();
    let mut e = Engine::start(&["gtp"]);
    assert!(gtp(&mut e, &format!("loadsgf {}", file.display())).contains("the group at A9 has no liberties"));
    assert!(e.wait_exit(REPLY));

    let mut e = Engine::start(&[]);
    e.send("setoption name Game value go");
    let fen = "XO......./O......../........./........./........./........./........./........./......... b";
    e.send(&format!("position fen {fen}"));
    e.send("query fen");
    let lines = e.until(|l| l.starts_with("response") || l.starts_with("error"));
    assert!(lines.iter().any(|l| l.contains("the group at A9 has no liberties")), "{lines:?}");
    e.send("quit");
    assert!(e.wait_exit(REPLY));

    let mut e = Engine::start(&["analysis"]);
    e.send(
        r#"{"id":"a9","initialStones":[["B","A9"],["W","A8"],["W","B9"]],"moves":[],"rules":"tromp-taylor","komi":7.5,"boardXSize":9,"boardYSize":9,"maxVisits":10}"#,
    );
    let reply = e.recv(REPLY);
    assert!(
        reply.contains(r#""field":"initialStones""#) && reply.contains("the group at A9 has no liberties"),
        "{reply}"
    );
    e.close_input();
    assert!(e.wait_exit(REPLY));
}

#[test]
fn the_opening_book_answers_at_its_komi_and_is_switched_over_gtp_and_ugi() {
    // With the book on (off by default), the built-in book's move for the empty board
    // (KataGo's choice at komi 7) is played without a search; at a komi far from the
    // book's, or with the book off, the engine searches.
    let empty = Game::new(Board::new(9), 7.0, Superko::Positional);
    let book_move = search::go::book::built_in_book().lookup(&empty).expect("the empty board is in the book").mv;
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "sente-book"), format!("= {}", search::go::params::BOOK_BY_DEFAULT));
    assert!(gtp(&mut e, "list_commands").contains("sente-book"));
    assert_eq!(gtp(&mut e, "sente-book true"), "=");
    assert!(gtp(&mut e, "sente-book perhaps").starts_with("? bad Book 'perhaps'"));
    assert_eq!(gtp(&mut e, "sente-book"), "= true", "a refused value keeps the setting");
    gtp(&mut e, "boardsize 9");
    gtp(&mut e, "komi 7");
    // A clock of 6 000 s: a search would plan minutes; the book's move comes at once.
    gtp(&mut e, "time_settings 6000 0 0");
    let started = Instant::now();
    assert_eq!(gtp(&mut e, "genmove b"), format!("= {}", book_move.to_gtp(9)));
    assert!(started.elapsed() < Duration::from_secs(20), "genmove took {:?}", started.elapsed());
    let search = |komi: &str, book: &str| {
        let mut u = Engine::start(&["ugi"]);
        u.send("setoption name Game value go");
        u.send(&format!("setoption name Komi value {komi}"));
        u.send(&format!("setoption name Book value {book}"));
        u.send("position startpos");
        u.send("go nodes 2000");
        let lines = u.until(|l| l.starts_with("bestmove"));
        let report = lines.iter().rev().find(|l| l.starts_with("info")).cloned().unwrap_or_default();
        let nodes = report.split_whitespace().skip_while(|w| *w != "nodes").nth(1).unwrap_or("").to_string();
        (nodes, lines.last().cloned().unwrap_or_default())
    };
    let (nodes, best) = search("7", "true");
    assert_eq!((nodes.as_str(), best), ("0", format!("bestmove {}", book_move.to_gtp(9))));
    // 7.5, the default, is within the book's half point.
    assert_eq!(search("7.5", "true").0, "0");
    assert_ne!(search("5.5", "true").0, "0", "komi 5.5 is not the book's");
    assert_ne!(search("7", "false").0, "0", "the book is off");
}
