//! Input a GUI, an arena or a hostile user may send, found by trying (issue 31): each
//! case crashed, hung or was accepted wrongly before, and must now get the protocol's
//! error reply (or a clean CLI error) while the engine keeps running and its state.

use crate::common;

use std::process::Command;

use common::{Engine, gtp};

fn sente(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sente")).args(args).output().expect("run sente")
}

#[test]
fn gtp_times_beyond_any_clock_are_refused_and_the_engine_lives() {
    for game in ["Go", "Othello"] {
        let mut e = Engine::start(&["gtp", "--game", game]);
        for bad in ["time_settings 1e99 1 1", "time_settings 0 18446744073709551615 1", "time_left b 1e99 0"] {
            assert_eq!(gtp(&mut e, bad), "? syntax error", "{game}: {bad}");
        }
        assert_eq!(gtp(&mut e, "time_settings 60 5 1"), "=");
        assert_eq!(gtp(&mut e, "name"), "= sente");
    }
}

#[test]
fn gtp_komi_must_be_a_sane_number() {
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "komi 6.5"), "=");
    for bad in ["komi 1e300", "komi -1e9", "komi nan"] {
        assert_eq!(gtp(&mut e, bad), "? syntax error", "{bad}");
    }
    // The komi set before is kept: an empty 9x9 board is white's by 6.5.
    assert_eq!(gtp(&mut e, "final_score"), "= W+6.5");
}

#[test]
fn arena_times_and_komi_that_make_no_sense_are_cli_errors() {
    let a = format!("name=a cmd='{}'", env!("CARGO_BIN_EXE_sente"));
    let b = format!("name=b cmd='{}'", env!("CARGO_BIN_EXE_sente"));
    let scratch = common::Scratch::new("bad-arena");
    let out_dir = scratch.join("out");
    let out = out_dir.to_str().expect("utf-8 path");
    for (flags, says) in [
        (vec!["--st", "1e30"], "--st"),
        (vec!["--tc", "1e30+0"], "--tc"),
        (vec!["--st", "-1"], "--st"),
        (vec!["--game", "go", "--komi", "nan", "--st", "0.1"], "komi"),
    ] {
        let mut args = vec!["arena", "--engine", &a, "--engine", &b, "--rounds", "1", "--out", out];
        args.extend(flags.iter().copied());
        let run = sente(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(if says == "komi" { 2 } else { 1 }), "{flags:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{flags:?}: {stderr}");
        assert!(stderr.contains(says), "{flags:?}: {stderr}");
        assert!(!stderr.contains("unexpected argument"), "{flags:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&out_dir);
}

#[test]
fn ugi_go_refuses_moves_after_two_passes() {
    let mut e = Engine::start(&[]);
    e.send("setoption name Game value go");
    e.send("position startpos moves E5");
    e.send("position startpos moves pass pass E5");
    let error = e.recv(common::REPLY);
    assert!(error.starts_with("info string error: move 3 'E5'"), "{error}");
    // The position before the bad command is kept.
    assert_eq!(e.ask("query gameover"), "response false");
    assert_eq!(e.ask("query p1turn"), "response false");
}

#[test]
fn every_ugi_go_prints_its_last_info_line_once() {
    for game in ["othello", "go", "phantomgo", "chaosclock"] {
        let mut e = Engine::start(&[]);
        e.send(&format!("setoption name Game value {game}"));
        e.send("position startpos");
        e.send(if matches!(game, "go" | "phantomgo") { "go nodes 200" } else { "go depth 1" });
        let lines = e.until(|l| l.starts_with("bestmove"));
        let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info ")).collect();
        assert!(!infos.is_empty(), "{game}: {lines:?}");
        assert!(infos.windows(2).all(|w| w[0] != w[1]), "{game}: an info line twice: {lines:?}");
    }
}

#[test]
fn chaos_clock_go_infinite_stops_when_told() {
    let mut e = Engine::start(&[]);
    e.send("setoption name Game value chaosclock");
    e.send("position startpos");
    e.send("go infinite");
    assert!(e.silent_for(std::time::Duration::from_millis(300)), "go infinite answered before stop");
    let asked = std::time::Instant::now();
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(asked.elapsed() < std::time::Duration::from_secs(20), "stop took {:?}: {lines:?}", asked.elapsed());
    assert_eq!(e.ask("isready"), "readyok");
}

#[test]
fn stop_and_isready_are_answered_behind_a_queued_command() {
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("go movetime 100000");
    e.send("ucinewgame");
    e.send("position startpos moves f5");
    let asked = std::time::Instant::now();
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(e.ask("isready"), "readyok");
    assert!(asked.elapsed() < std::time::Duration::from_secs(20), "took {:?}: {lines:?}", asked.elapsed());
    // The queued commands ran once the search ended, in order.
    assert_eq!(e.ask("query p1turn"), "response false");
}

#[test]
fn ffo_runs_that_solve_nothing_fail_and_threads_zero_means_every_core() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../ffo/problems/ffo_40_59.txt");
    let missing = sente(&["ffo", file, "--only", "999"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no problem #999"), "{missing:?}");
    let scratch = common::Scratch::new("empty-ffo");
    let empty_path = scratch.join("empty.txt");
    std::fs::write(&empty_path, "").expect("write a file");
    let empty = sente(&["ffo", empty_path.to_str().expect("utf-8 path")]);
    let _ = std::fs::remove_file(&empty_path);
    assert!(!empty.status.success());
    assert!(String::from_utf8_lossy(&empty.stderr).contains("no problems"), "{empty:?}");
    let all = sente(&["ffo", file, "--only", "40", "--threads", "0", "--hash", "16"]);
    assert!(all.status.success(), "{all:?}");
    let total = String::from_utf8_lossy(&all.stdout).lines().last().unwrap_or("").to_string();
    assert!(total.starts_with("total: 1 problems, 0 wrong") && !total.ends_with(" 0 threads"), "{total}");
}

#[test]
fn a_long_perft_can_be_stopped_and_isready_is_answered_meanwhile() {
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("perft 30");
    assert_eq!(e.ask("isready"), "readyok");
    let asked = std::time::Instant::now();
    e.send("stop");
    assert_eq!(e.recv(common::REPLY), "info string perft depth 30 stopped");
    assert!(asked.elapsed() < std::time::Duration::from_secs(20), "stop took {:?}", asked.elapsed());
    e.send("perft 5");
    let lines = e.until(|l| l.starts_with("perft "));
    assert_eq!(lines.last().map(String::as_str), Some("perft 5 1396"), "{lines:?}");
    e.send("setoption name Game value go");
    e.send("setoption name BoardSize value 3");
    e.send("perft 1");
    let lines = e.until(|l| l.starts_with("perft "));
    assert_eq!(lines.last().map(String::as_str), Some("perft 1 10"), "{lines:?}");
}

#[test]
fn an_arena_engine_that_answers_its_set_up_with_garbage_is_judged_quickly() {
    let program = env!("CARGO_BIN_EXE_sente");
    let garbage = "cmd='sh -c \"while read -r l; do echo what is $l; done\"'";
    for (game, proto, good) in [
        ("othello", "ugi", format!("name=good cmd='{program}' proto=ugi")),
        ("go", "gtp", format!("name=good cmd='{program}' proto=ugi")),
        ("phantomgo", "phantom", format!("name=good cmd='{program} phantom --movetime 10' proto=phantom")),
    ] {
        let scratch = common::Scratch::new(&format!("garbage-{game}"));
        let out = scratch.join("out");
        let started = std::time::Instant::now();
        let bad = format!("name=bad {garbage} proto={proto}");
        let out_arg = out.to_str().expect("utf-8 path");
        let r = sente(&[
            "arena", "--game", game, "--rounds", "1", "--st", "0.05", "--out", out_arg, "--engine", &bad, "--engine",
            &good,
        ]);
        let took = started.elapsed();
        assert!(r.status.success(), "{game}: {}", String::from_utf8_lossy(&r.stderr));
        let results = std::fs::read_to_string(out.join("results.jsonl")).expect("results");
        assert_eq!(results.lines().count(), 2, "{results}");
        for line in results.lines() {
            assert!(line.contains("bad could not start: protocol violation: no answer in the protocol"), "{line}");
            assert!(line.contains("\"score_a\":0.0"), "{line}");
        }
        // Two games, each judged about 3 s after the garbage, not after 30 s.
        assert!(took < std::time::Duration::from_secs(45), "{game}: {took:?}");
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn the_end_of_input_during_a_search_ends_the_engine_promptly() {
    use std::time::{Duration, Instant};
    for game in ["othello", "go", "phantomgo", "chaosclock"] {
        let mut e = Engine::start(&[]);
        e.send(&format!("setoption name Game value {game}"));
        e.send("position startpos");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        let closed = Instant::now();
        assert!(e.wait_exit(Duration::from_secs(30)), "{game}: a failing exit");
        assert!(closed.elapsed() < Duration::from_secs(20), "{game}: {:?} to exit", closed.elapsed());
    }
    // A search with a limit (100 s), with commands queued behind it, then the end of
    // input: as `quit`, the search stops and answers, the queued search too.
    for game in ["othello", "go", "phantomgo", "chaosclock"] {
        let mut e = Engine::start(&[]);
        e.send(&format!("setoption name Game value {game}"));
        e.send("position startpos");
        e.send("go movetime 100000");
        e.send("position startpos");
        e.send("go movetime 100000");
        std::thread::sleep(Duration::from_millis(200));
        let closed = Instant::now();
        assert!(e.exited_cleanly(Duration::from_secs(30)), "{game}: a failing exit");
        assert!(closed.elapsed() < Duration::from_secs(20), "{game}: {:?} to exit", closed.elapsed());
        let said = e.rest(Duration::from_millis(100));
        let answers = said.iter().filter(|l| l.starts_with("bestmove")).count();
        assert_eq!(answers, 2, "{game}: every go answers once: {said:?}");
    }
    // perft and bench on their own thread, then the end of input.
    for long in ["perft 30", "bench 40"] {
        let mut e = Engine::start(&[]);
        e.send(long);
        std::thread::sleep(Duration::from_millis(200));
        let closed = Instant::now();
        assert!(e.wait_exit(Duration::from_secs(30)), "{long}: a failing exit");
        assert!(closed.elapsed() < Duration::from_secs(20), "{long}: {:?} to exit", closed.elapsed());
    }
    // NBoard at depth 60: `quit`, or the end of input, stops the search.
    for end in ["quit", "eof"] {
        let mut e = Engine::start(&["nboard"]);
        e.send("nboard 2");
        e.send("set depth 60");
        e.send("set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)");
        e.send("go");
        std::thread::sleep(Duration::from_millis(300));
        if end == "quit" {
            e.send("quit");
        }
        let closed = Instant::now();
        assert!(e.wait_exit(Duration::from_secs(30)), "NBoard {end}: a failing exit");
        assert!(closed.elapsed() < Duration::from_secs(20), "NBoard {end}: {:?} to exit", closed.elapsed());
    }
    // GTP (Go and Othello): a genmove with 10 minutes on the clock; the input ends.
    for game in ["go", "othello"] {
        let mut e = Engine::start(&["gtp", "--game", game]);
        if game == "go" {
            // A search, not the opening book's immediate move.
            e.send("sente-book false");
        }
        e.send("time_settings 600 0 0");
        e.send("genmove b");
        std::thread::sleep(Duration::from_millis(300));
        let closed = Instant::now();
        assert!(e.wait_exit(Duration::from_secs(30)), "GTP {game}: a failing exit");
        assert!(closed.elapsed() < Duration::from_secs(20), "GTP {game}: {:?} to exit", closed.elapsed());
    }
    // The platform protocol: black's first try may take 100 s; the input ends.
    let mut e = Engine::start(&["phantom", "--movetime", "100000"]);
    e.send("new black");
    assert!(e.silent_for(Duration::from_millis(200)), "the try came early");
    let closed = Instant::now();
    assert!(e.wait_exit(Duration::from_secs(30)), "a failing exit");
    assert!(closed.elapsed() < Duration::from_secs(20), "{:?} to exit", closed.elapsed());
}

#[test]
fn chaos_clock_positions_carry_the_end_of_the_game_and_refuse_contradictions() {
    let mut e = Engine::start(&[]);
    e.send("setoption name Game value chaosclock");
    // Chaos Clock's own result words (ugi.md's, the default, make both of these `draw`).
    e.send("setoption name ResultWords value full");
    // Every piece home: both sides have completed, so both win, as the solver says.
    e.send("position fen 1,2,3,4,5,6,7,8,9,10,11,12 Y 0");
    assert_eq!(e.ask("query result"), "response bothwin");
    e.send("go depth 1");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().map(String::as_str), Some("bestmove none"), "{lines:?}");
    let solved = sente(&["chaosclock", "solve", "1,2,3,4,5,6,7,8,9,10,11,12 Y 0"]);
    let solved = String::from_utf8_lossy(&solved.stdout).to_string();
    assert!(solved.starts_with("outcome: both win"), "{solved}");
    // One side complete without its flag: the flag is implied (the other has one move).
    e.send("position fen 1,4,3,2,5,6,7,8,9,10,11,12 Y 0");
    assert_eq!(e.ask("query fen"), "response 1,4,3,2,5,6,7,8,9,10,11,12 Y 0 cJ");
    // Two passes end the game (both lose), and the position says so and reads back.
    e.send("position startpos moves pass");
    let one = e.ask("query fen");
    e.send("position startpos moves pass pass");
    let two = e.ask("query fen");
    assert_ne!(one, two, "the game over is not in the position text");
    assert_eq!(e.ask("query result"), "response bothlose");
    let two = two.trim_start_matches("response ").to_string();
    e.send(&format!("position fen {two}"));
    assert_eq!(e.ask("query result"), "response bothlose");
    assert_eq!(e.ask("query fen"), format!("response {two}"));
    // Contradictions are refused and the position stays.
    for bad in [
        "3,5,1,12,4,2,11,10,6,7,9,8",           // no side to move
        "3,5,1,12,4,2,11,10,6,7,9,8 Y 0 cJ cY", // both completed first
        "3,5,1,12,4,2,11,10,6,7,9,8 Y 0 x p",   // a pass and a capture before
        "3,5,1,12,4,2,11,10,6,7,9,8 Y 0 cJ",    // 甲 has not completed
        "3,5,1,12,4,2,11,10,6,7,9,8 Y 5 p",     // a walk and a pass before
        "3,5,1,12,4,2,11,10,6,7,9,8 Y 0 p p",   // a flag twice
        "3,5,1,12,4,2,11,10,6,7,9,8 Y 0 won:J", // 甲 won without its pieces home
    ] {
        e.send(&format!("position fen {bad}"));
        let err = e.recv(common::REPLY);
        assert!(err.starts_with("info string error: bad position"), "{bad}: {err}");
        assert_eq!(e.ask("query fen"), format!("response {two}"), "{bad}");
        let solved = sente(&["chaosclock", "solve", bad]);
        assert!(!solved.status.success(), "solve accepted '{bad}'");
    }
}

#[test]
fn a_gtp_line_too_long_to_read_gets_its_id_in_the_reply() {
    // Found by the conversation fuzzer (seed 31): the reply was `? line of …`, without
    // the id a GUI waits for.
    let mut e = Engine::start(&["gtp"]);
    let long = format!("847 play b {}", "A".repeat(2_000_000));
    assert_eq!(gtp(&mut e, &long), "?847 line of 2000011 bytes is longer than 1048576");
    // During a streaming analysis, the long line ends it first, as any line does.
    e.send("5 lz-analyze 10");
    assert_eq!(e.recv(common::REPLY), "=5");
    e.send(&format!("6 {}", "x".repeat(2_000_000)));
    let analysis = e.until(str::is_empty);
    assert!(analysis.iter().all(|l| !l.starts_with('?')), "{analysis:?}");
    assert_eq!(e.until(str::is_empty)[0], "?6 line of 2000002 bytes is longer than 1048576");
    assert_eq!(gtp(&mut e, "7 name"), "=7 sente");
}

#[test]
fn a_long_bench_can_be_stopped_and_isready_is_answered_meanwhile() {
    // Found while writing the conversation fuzzer: `bench 30` ran on the main loop, so
    // `isready`, `stop` and `quit` waited for it (hours).
    let mut e = Engine::start(&[]);
    e.send("bench 30");
    let asked = std::time::Instant::now();
    assert_eq!(e.ask("isready"), "readyok");
    e.send("stop");
    assert_eq!(e.recv(common::REPLY), "info string bench stopped");
    assert!(asked.elapsed() < std::time::Duration::from_secs(20), "took {:?}", asked.elapsed());
    e.send("bench 1");
    let lines = e.until(|l| l.ends_with(" nps"));
    assert_eq!(lines[0], "info string bench depth 1 positions 7", "{lines:?}");
}

#[test]
fn chaos_clock_go_infinite_stays_within_hash() {
    // The proof search's tables grow with every state it proves; under `go infinite`
    // (no node limit) they are bounded by Hash.
    let mut e = Engine::start(&[]);
    e.send("setoption name Game value chaosclock");
    e.send("setoption name Hash value 8");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(std::time::Duration::from_secs(6));
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")), "{lines:?}");
    let peak = e.peak_resident_mib();
    assert!(peak < 8.0 * 1.1 + 50.0, "peak resident memory {peak:.1} MiB with Hash 8");
}

#[test]
fn a_first_line_too_long_is_answered_by_the_protocol_it_starts_like() {
    // Plain `sente` detects its protocol from the first line; one over the limit made
    // it exit 0 without a word.
    let mut e = Engine::start(&[]);
    e.send(&"x".repeat(2_000_000));
    assert_eq!(e.recv(common::REPLY), "info string error: line of 2000000 bytes ignored: longer than 1048576");
    assert_eq!(e.ask("isready"), "readyok");
    assert!(e.wait_exit(std::time::Duration::from_secs(10)), "a failing exit");
    // A GTP command: GTP's failure reply, with the id, and GTP goes on.
    let mut e = Engine::start(&[]);
    e.send(&format!("3 play b {}", "A".repeat(2_000_000)));
    assert_eq!(e.until(str::is_empty), ["?3 line of 2000009 bytes is longer than 1048576", ""]);
    assert_eq!(common::gtp(&mut e, "4 protocol_version"), "=4 2");
    // NBoard: a status line.
    let mut e = Engine::start(&[]);
    e.send(&format!("nboard {}", "2".repeat(2_000_000)));
    assert_eq!(e.recv(common::REPLY), "status error: line of 2000007 bytes ignored (longer than 1048576)");
}

/// A shell engine for `sente arena` that answers `ugi` with a line of three million
/// bytes (and the rest of UGI+ well enough to play).
fn huge_line_engine() -> String {
    "name=huge cmd='sh -c \"while read -r l; do case \\$l in ugi) head -c 3000000 /dev/zero | tr \\\\\\\\000 x; echo; \
     echo ugiok;; isready) echo readyok;; esac; done\"' proto=ugi"
        .to_string()
}

#[test]
fn an_arena_engine_that_writes_a_line_of_megabytes_is_faulty() {
    // The arena read engine output with an unbounded read_until: a line of any length
    // was buffered whole.
    let program = env!("CARGO_BIN_EXE_sente");
    let scratch = common::Scratch::new("huge-line");
    let out = scratch.join("out");
    let good = format!("name=good cmd='{program}' proto=ugi");
    let out_arg = out.to_str().expect("utf-8 path");
    let r = sente(&[
        "arena",
        "--game",
        "othello",
        "--rounds",
        "1",
        "--st",
        "0.05",
        "--out",
        out_arg,
        "--engine",
        &huge_line_engine(),
        "--engine",
        &good,
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let results = std::fs::read_to_string(out.join("results.jsonl")).expect("results");
    assert_eq!(results.lines().count(), 2, "{results}");
    for line in results.lines() {
        assert!(
            line.contains("huge could not start: protocol violation: a line of 3000000 bytes ('xxxx")
                && line.contains("longer than the 1048576 allowed"),
            "{line}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
    // The compliance check says the same.
    let r = sente(&["arena", "--compliance", "--game", "othello", "--engine", &huge_line_engine()]);
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(!r.status.success(), "{stdout}");
    assert!(stdout.contains("FAIL  ugi answers id/option lines and ugiok"), "{stdout}");
    assert!(stdout.contains("protocol violation: a line of 3000000 bytes"), "{stdout}");
}

#[test]
fn a_crashed_arena_engine_s_huge_stderr_line_is_cut_and_measured() {
    // Its standard error was read with an unbounded read_until too.
    let program = env!("CARGO_BIN_EXE_sente");
    let scratch = common::Scratch::new("huge-stderr");
    let out = scratch.join("out");
    let crash =
        "name=crash cmd='sh -c \"head -c 3000000 /dev/zero | tr \\\\\\\\000 y >&2; echo >&2; exit 3\"' proto=ugi";
    let good = format!("name=good cmd='{program}' proto=ugi");
    let out_arg = out.to_str().expect("utf-8 path");
    let r = sente(&[
        "arena", "--game", "othello", "--rounds", "1", "--st", "0.05", "--out", out_arg, "--engine", crash, "--engine",
        &good,
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let results = std::fs::read_to_string(out.join("results.jsonl")).expect("results");
    for line in results.lines() {
        assert!(line.contains("yyyy… (3000000 bytes)"), "{line}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// Runs `sente args` with `input` on its standard input; its standard output.
fn sente_with_input(args: &[&str], input: &[u8]) -> String {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_sente"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sente");
    let mut stdin = child.stdin.take().expect("stdin");
    let bytes = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&bytes);
    });
    let out = child.wait_with_output().expect("run sente");
    let _ = writer.join();
    assert!(out.status.success(), "sente {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_terminal_games_read_a_person_s_lines_bounded() {
    // `chaosclock play` and `phantom play` read the person's input with an unbounded
    // read_line.
    let mut input = "x".repeat(3_000_000).into_bytes();
    input.extend_from_slice(b"\nquit\n");
    let out = sente_with_input(&["chaosclock", "play"], &input);
    assert!(out.contains("a line of 3000000 bytes ignored: longer than 1048576"), "{}", &out[..out.len().min(2000)]);
    let out = sente_with_input(&["phantom", "play"], &input);
    assert!(out.contains("a line of 3000000 bytes ignored: longer than 1048576"), "{}", &out[..out.len().min(2000)]);
}

#[test]
fn board_sizes_are_announced_and_refused_by_the_current_game() {
    // `ugi` announced min 2 max 10 for every game and `setoption name BoardSize` said
    // "from 2 to 10", refusing the Chaos Clock's one size, 12.
    for (game, announced, refusal) in [
        ("othello", "default 8 min 6 max 10", "Othello is played on 6x6, 8x8 or 10x10 boards (6, 8 or 10), not 0"),
        ("go", "default 9 min 2 max 9", "Go is played on 2x2 to 9x9 boards (2 to 9), not 0"),
        ("phantomgo", "default 9 min 9 max 9", "Phantom Go is played on 9x9 only (9), not 0"),
        ("chaosclock", "default 12 min 12 max 12", "the Chaos Clock has 12 points (size 12 only), not 0"),
    ] {
        let mut e = Engine::start(&[]);
        e.send(&format!("setoption name Game value {game}"));
        e.send("ugi");
        let lines = e.until(|l| l == "ugiok");
        let line = format!("option name BoardSize type spin {announced}");
        assert!(lines.contains(&line), "{game}: {lines:?}");
        e.send("setoption name BoardSize value 0");
        assert_eq!(e.recv(common::REPLY), format!("info string error: option 'BoardSize': {refusal}"), "{game}");
        // Every announced end is accepted.
        for size in announced.split_whitespace().skip(1).step_by(2) {
            e.send(&format!("setoption name BoardSize value {size}"));
            assert_eq!(e.ask("isready"), "readyok", "{game} {size}: {:?}", e.transcript);
        }
    }
    let mut e = Engine::start(&[]);
    e.send("setoption name Game value go");
    e.send("setoption name BoardSize value many");
    assert_eq!(
        e.recv(common::REPLY),
        "info string error: option 'BoardSize': 'many' is not a board size (go sizes: 2 to 9)"
    );
}

#[test]
fn legal_moves_in_a_finished_game_are_response_alone() {
    // The empty list was written `response ` with a trailing space.
    for (game, finished) in [
        ("othello", format!("position fen {}O X", "X".repeat(63))),
        ("go", "position startpos moves pass pass".to_string()),
        ("phantomgo", "position startpos moves pass pass".to_string()),
        ("chaosclock", "position startpos moves pass pass".to_string()),
    ] {
        let mut e = Engine::start(&[]);
        e.send(&format!("setoption name Game value {game}"));
        e.send(&finished);
        assert_eq!(e.ask("query gameover"), "response true", "{game}");
        assert_eq!(e.ask("query legalmoves"), "response", "{game}");
    }
}

#[test]
fn quit_during_go_infinite_exits_promptly() {
    use std::time::{Duration, Instant};
    for game in ["othello", "go", "phantomgo", "chaosclock"] {
        let mut e = Engine::start(&[]);
        e.send(&format!("setoption name Game value {game}"));
        e.send("position startpos");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let asked = Instant::now();
        e.send("quit");
        // Its input stays open: quit alone must end it.
        let deadline = asked + Duration::from_secs(30);
        let exited = loop {
            if let Some(status) = e.try_wait() {
                break status;
            }
            assert!(Instant::now() < deadline, "{game}: still running 30 s after quit");
            std::thread::sleep(Duration::from_millis(10));
        };
        assert!(exited.success(), "{game}: {exited}");
        assert!(asked.elapsed() < Duration::from_secs(20), "{game}: {:?} to exit after quit", asked.elapsed());
    }
}

/// Whether this machine refuses one allocation of 64 GiB outright: Linux's default
/// (heuristic) overcommit does when RAM and swap together are smaller. Elsewhere it may
/// be given (lazily), and a `Hash` of 65536 MiB is then simply used.
fn refuses_64_gib() -> bool {
    let read = |path: &str| std::fs::read_to_string(path).unwrap_or_default();
    if read("/proc/sys/vm/overcommit_memory").trim() != "0" {
        return false;
    }
    let meminfo = read("/proc/meminfo");
    let kib = |name: &str| -> Option<u64> {
        meminfo.lines().find(|l| l.starts_with(name))?.split_whitespace().nth(1)?.parse().ok()
    };
    matches!((kib("MemTotal:"), kib("SwapTotal:")), (Some(ram), Some(swap)) if ram + swap < 64 << 20)
}

#[test]
fn hash_at_its_maximum_is_refused_or_used_and_the_engine_plays_on() {
    // Issue 43: the table was allocated at the next search and its refusal aborted the
    // engine. A refusal is now an error when Hash is set, the old table is kept, and
    // the engine plays; where the system gives 64 GiB the table is used (its pages
    // only as the search writes them).
    let must_refuse = refuses_64_gib();
    let refusal = "cannot allocate 65536 MiB: the system refused the memory; the hash table stays 64 MiB";
    for (game, go) in [("othello", "go depth 2"), ("go", "go movetime 300")] {
        let mut e = Engine::start(&[]);
        e.send(&format!("setoption name Game value {game}"));
        e.send("setoption name Hash value 65536");
        e.send("isready");
        let lines = e.until(|l| l == "readyok");
        let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string error")).collect();
        match errors.as_slice() {
            [] => assert!(!must_refuse, "{game}: Hash 65536 accepted on a machine that refuses it: {lines:?}"),
            [error] => assert_eq!(error.as_str(), format!("info string error: {refusal}"), "{game}"),
            _ => panic!("{game}: {lines:?}"),
        }
        e.send("position startpos");
        e.send(go);
        let lines = e.until(|l| l.starts_with("bestmove"));
        let best = lines.last().map(String::as_str).unwrap_or("");
        assert!(best.len() > "bestmove ".len() && best != "bestmove none", "{game}: {lines:?}");
        assert_eq!(e.ask("isready"), "readyok", "{game}");
    }
    for game in ["Go", "Othello"] {
        let mut e = Engine::start(&["gtp", "--game", game]);
        assert_eq!(gtp(&mut e, "time_settings 0 1 1"), "=");
        let reply = gtp(&mut e, "sente-hash 65536");
        let size = if reply == "=" {
            assert!(!must_refuse, "{game}: sente-hash 65536 accepted on a machine that refuses it");
            "= 65536"
        } else {
            assert_eq!(reply, format!("? {refusal}"), "{game}");
            "= 64"
        };
        assert_eq!(gtp(&mut e, "sente-hash"), size, "{game}");
        let mv = gtp(&mut e, "genmove b");
        assert!(mv.starts_with("= ") && mv.len() > 2, "{game}: genmove b got '{mv}'");
        assert_eq!(gtp(&mut e, "name"), "= sente");
    }
    // From the command line, the Go tree is allocated at the search; one the system
    // refuses would be made smaller, and the engine plays.
    let mut e = Engine::start(&["gtp", "--game", "Go", "--hash", "65536"]);
    assert_eq!(gtp(&mut e, "time_settings 0 1 1"), "=");
    let mv = gtp(&mut e, "genmove b");
    assert!(mv.starts_with("= ") && mv.len() > 2, "genmove b got '{mv}'");
    e.send("quit");
    assert!(e.wait_exit(common::REPLY));
}
