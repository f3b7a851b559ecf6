//! `sente arena --game phantomgo`: a short match of our two Phantom Go players over the
//! platform protocol; every text record is replayed through the referee, answer by
//! answer, and the SGF record holds the turns with their tries.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use bitboards::go::{Color, Move, Point};
use bitboards::phantom::{Answer, PhantomConfig, PhantomRules, Referee, View};
use serde_json::Value;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

/// A scratch folder of the test's own, removed when it passes.
fn scratch(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("phantom-arena-{name}"))
}

fn engine(name: &str, player: &str) -> String {
    format!("name={name} cmd='{SENTE} phantom --movetime 10 --player {player}' proto=phantom")
}

/// Replays a text record's tries (CCGC rules); checks every answer; returns the tries.
fn replay(path: &Path) -> usize {
    replay_under(path, PhantomConfig::ccgc())
}

/// Replays a text record's tries under `config`.
fn replay_under(path: &Path, config: PhantomConfig) -> usize {
    let text = std::fs::read_to_string(path).expect("record");
    let mut r = Referee::new(config);
    let mut tries = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [_, color, vertex, answer, ..] = words[..] else { panic!("bad record line '{line}'") };
        assert_eq!(color.chars().next(), Some(r.to_move().stone_letter()), "{line}");
        let mv = if vertex == "pass" { Move::Pass } else { Move::Play(Point::from_gtp(vertex, 9).expect(vertex)) };
        let a = r.try_move(mv).expect("a try the referee answers");
        let expected = match a {
            Answer::Legal { .. } => "accepted",
            Answer::Passed => "pass",
            Answer::Illegal { .. } => "refused",
        };
        assert!(answer.starts_with(expected), "{line}: the referee says {a:?}");
        tries += 1;
    }
    assert!(r.is_over() || text.contains("try cap"), "{}", path.display());
    // Each try's time (`# try 3 white 0.012s`), numbered as the tries are; a last
    // request that ended the game unplayed (a fault) may follow.
    let timed: Vec<usize> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# try "))
        .map(|l| l.split_whitespace().next().and_then(|n| n.parse().ok()).expect("a try number"))
        .collect();
    assert!(timed.len() == tries || timed.len() == tries + 1, "{}: {timed:?}", path.display());
    assert!(timed.iter().enumerate().all(|(i, &n)| n == i + 1), "{}: {timed:?}", path.display());
    assert_eq!(text.contains("# Phantom Go (openspiel rules)"), config.rules == PhantomRules::OpenSpiel);
    // The record ends with both sides' views, as the replayed referee has them.
    let views: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("# the views at the end")).skip(1).collect();
    assert_eq!(views.len(), 9, "{}", path.display());
    let [black, white] = [Color::BLACK, Color::WHITE].map(|c| r.view(c).board_text());
    for (row, line) in views.iter().enumerate() {
        let cells = row * 9..(row + 1) * 9;
        assert_eq!(*line, format!("# {}  {}", &black[cells.clone()], &white[cells]), "{}", path.display());
    }
    tries
}

#[test]
fn belief_against_flat_two_games() {
    let out = scratch("match");
    let status = Command::new(SENTE)
        .args(["arena", "--game", "phantomgo", "--rounds", "1", "--st", "2", "--out"])
        .arg(&out)
        .args(["--engine", &engine("belief", "belief"), "--engine", &engine("flat", "flat")])
        .output()
        .expect("run the arena");
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert!(status.status.success(), "{stdout} {}", String::from_utf8_lossy(&status.stderr));
    assert!(stdout.starts_with("Score of belief vs flat: "), "{stdout}");
    let text = std::fs::read_to_string(out.join("results.jsonl")).expect("results.jsonl");
    let rows: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(rows.len(), 2);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["game"].as_u64(), Some(i as u64));
        assert_eq!(row["reason"], "two passes", "{row}");
        let score = row["score"].as_str().expect("a score");
        assert!(score.starts_with("B+") || score.starts_with("W+"), "{score}");
        let result = row["result"].as_str().unwrap();
        assert_eq!(result, if score.starts_with('B') { "1-0" } else { "0-1" });
        let record = out.join(row["record"].as_str().expect("a record"));
        assert_eq!(replay(&record) as u64, row["moves"].as_u64().unwrap());
        let sgf = std::fs::read_to_string(record.with_extension("sgf")).expect("an SGF record");
        assert!(sgf.starts_with("(;FF[4]GM[1]") && sgf.contains("C[tries: "), "{sgf}");
        assert!(sgf.contains(&format!("RE[{score}]")));
    }
    // Colours alternate: belief is black in game 0, white in game 1.
    assert_eq!(rows[0]["first"], "belief");
    assert_eq!(rows[1]["first"], "flat");
    let _ = std::fs::remove_dir_all(&out);
}

fn ugi_engine(name: &str) -> String {
    format!("name={name} cmd='{SENTE}' proto=ugi option.PhantomPlayer=flat")
}

/// Runs an arena match; returns its results rows.
fn arena(out: &Path, args: &[&str], engines: [&str; 2]) -> Vec<Value> {
    let r = Command::new(SENTE)
        .args(["arena", "--game", "phantomgo", "--rounds", "1", "--out"])
        .arg(out)
        .args(args)
        .args(["--engine", engines[0], "--engine", engines[1]])
        .output()
        .expect("run the arena");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = std::fs::read_to_string(out.join("results.jsonl")).expect("results.jsonl");
    text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect()
}

/// The arena's debug log in `out`: its path, and the path as an argument.
fn debug_log(out: &Path) -> (PathBuf, String) {
    let log = out.join("io.log");
    let arg = log.to_str().expect("utf-8 path").to_string();
    (log, arg)
}

/// The views a UGI+ engine was sent, from the arena's debug log; and no tries list.
fn views_sent(log: &Path, name: &str) -> Vec<View> {
    let text = std::fs::read_to_string(log).expect("debug log");
    let mut views = Vec::new();
    for line in text.lines() {
        let Some(sent) = line.strip_prefix(&format!("{name} > ")) else { continue };
        assert!(!sent.contains("moves") && !sent.contains("startpos"), "a tries list sent: {sent}");
        if let Some(view) = sent.strip_prefix("position fen ") {
            views.push(View::from_text(view).expect("a view"));
        }
    }
    views
}

#[test]
fn a_ugi_engine_plays_a_platform_engine_seeing_only_its_view() {
    let out = scratch("ugi");
    let (log, log_arg) = debug_log(&out);
    let rows = arena(
        &out,
        &["--st", "0.03", "--max-moves", "200", "--debug-log", &log_arg],
        [&ugi_engine("ugi"), &engine("platform", "flat")],
    );
    assert_eq!(rows.len(), 2);
    for row in &rows {
        let reason = row["reason"].as_str().unwrap();
        assert!(reason == "two passes" || reason.starts_with("try cap"), "{row}");
        let record = out.join(row["record"].as_str().expect("a record"));
        assert_eq!(replay(&record) as u64, row["moves"].as_u64().unwrap());
    }
    let views = views_sent(&log, "ugi");
    assert!(views.len() > 20, "{} views", views.len());
    // CCGC: a view never holds an opponent stone; the UGI+ engine played both colours.
    assert!(views.iter().all(|v| v.opponent() == 0));
    assert!(views.iter().any(|v| v.color() == bitboards::go::Color::BLACK));
    assert!(views.iter().any(|v| v.color() == bitboards::go::Color::WHITE));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn openspiel_rules_between_ugi_engines() {
    let out = scratch("openspiel");
    let (log, log_arg) = debug_log(&out);
    let rows = arena(
        &out,
        &["--st", "0.02", "--phantom-rules", "openspiel", "--debug-log", &log_arg],
        [&ugi_engine("one"), &ugi_engine("two")],
    );
    assert_eq!(rows.len(), 2);
    for row in &rows {
        let record = out.join(row["record"].as_str().expect("a record"));
        let tries = replay_under(&record, PhantomConfig::open_spiel());
        assert_eq!(tries as u64, row["moves"].as_u64().unwrap());
        assert!(tries <= 324, "OpenSpiel's action cap: {tries}");
        let reason = row["reason"].as_str().unwrap();
        match reason {
            // Two passes in a row of its actions; the pair may be actions 323 and 324.
            "two passes" => assert_eq!(last_vertices(&record, 2), ["pass", "pass"], "{row}"),
            "OpenSpiel's 324 actions" => assert_eq!(tries, 324),
            _ => assert!(reason.starts_with("superko"), "{row}"),
        }
        let sgf = std::fs::read_to_string(record.with_extension("sgf")).expect("an SGF record");
        assert!(sgf.contains("RU[Phantom Go openspiel]"), "{sgf}");
    }
    let text = std::fs::read_to_string(&log).expect("debug log");
    assert!(text.contains("one > setoption name PhantomRules value openspiel"));
    // OpenSpiel shows what stands on a refused point: some view knows an opponent stone.
    let views = [views_sent(&log, "one"), views_sent(&log, "two")].concat();
    assert!(views.iter().any(|v| v.opponent() != 0), "no refusal ever showed a stone");
    let _ = std::fs::remove_dir_all(&out);
}

/// The vertices of the last `n` tries in a Phantom Go record, in order.
fn last_vertices(record: &Path, n: usize) -> Vec<String> {
    let text = std::fs::read_to_string(record).expect("record");
    let vertices: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
        .collect();
    vertices[vertices.len().saturating_sub(n)..].to_vec()
}

/// A UGI+ engine in a shell script that tries `vertex` every time it is asked.
fn stubborn_engine(dir: &Path, name: &str, vertex: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    let script = format!(
        "#!/bin/bash\nwhile read -r line; do\n  case \"$line\" in\n    ugi|uci) echo 'id name {name}'; echo ugiok;;\n    isready) echo readyok;;\n    go*) echo 'bestmove {vertex}';;\n    quit) exit 0;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).expect("write the stubborn engine");
    format!("name={name} cmd='bash {}' proto=ugi", path.display())
}

/// OpenSpiel's 324th action may be a refused try that leaves the same side to move:
/// the game ends there, and nobody is asked for another try. Black plays A1, White
/// tries A1 (occupied) until the cap.
#[test]
fn openspiel_action_cap_on_a_refused_try_ends_the_game() {
    let out = scratch("cap");
    let rows = arena(
        &out,
        &["--st", "5", "--phantom-rules", "openspiel"],
        [&stubborn_engine(&out, "one", "a1"), &stubborn_engine(&out, "two", "a1")],
    );
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert_eq!(row["reason"], "OpenSpiel's 324 actions", "{row}");
        assert_eq!(row["moves"].as_u64(), Some(324), "{row}");
        let record = out.join(row["record"].as_str().expect("a record"));
        assert_eq!(replay_under(&record, PhantomConfig::open_spiel()), 324);
        // The last turn ended with no answer that ends it: its tries still are in the SGF.
        let sgf = std::fs::read_to_string(record.with_extension("sgf")).expect("an SGF record");
        assert!(sgf.contains(";C[tries of an unfinished turn: A1 refused"), "{sgf}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn engines_and_rules_that_cannot_play_phantom_go_are_refused() {
    let out = scratch("proto");
    let run = |args: &[&str]| {
        let r = Command::new(SENTE).arg("arena").args(args).arg("--out").arg(&out).output().expect("run the arena");
        assert!(!r.status.success(), "{args:?}");
        String::from_utf8_lossy(&r.stderr).to_string()
    };
    let gtp = format!("name=g cmd='{SENTE} gtp' proto=gtp");
    let err = run(&["--game", "phantomgo", "--engine", &gtp, "--engine", &engine("b", "flat")]);
    assert!(err.contains("proto=phantom") && err.contains("proto=ugi"), "{err}");
    let err = run(&["--game", "go", "--engine", &ugi_engine("a"), "--engine", &engine("b", "flat")]);
    assert!(err.contains("only with --game phantomgo"), "{err}");
    let err = run(&[
        "--game",
        "phantomgo",
        "--phantom-rules",
        "openspiel",
        "--engine",
        &ugi_engine("a"),
        "--engine",
        &engine("b", "flat"),
    ]);
    assert!(err.contains("needs UGI+ engines"), "{err}");
    for (option, why) in [("option.letters=diagonal", "option.letters 'diagonal'"), ("option.hash=16", "option.hash")] {
        let platform = format!("{} {option}", engine("b", "flat"));
        let err = run(&["--game", "phantomgo", "--engine", &engine("a", "flat"), "--engine", &platform]);
        assert!(err.contains("engine b: ") && err.contains(why), "{err}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// A platform engine as a shell script: `moves` answer `new black`, `move go` and
/// `move pass` in turn (then passes); after `taked` it sleeps `removal` seconds.
fn scripted(dir: &Path, name: &str, moves: &[&str], removal: f64) -> String {
    let mut cases = String::new();
    for (i, mv) in moves.iter().enumerate() {
        cases.push_str(&format!("      {}) echo 'move {mv}' ;;\n", i + 1));
    }
    let script = format!(
        "n=0\nwhile read -r line; do\n  case \"$line\" in\n    'name?') echo 'name {name}' ;;\n    \
         'new black'|'move go'|'move pass') n=$((n+1))\n      case $n in\n{cases}      *) echo 'move pass' ;;\n      \
         esac ;;\n    taked*) sleep {removal} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    let path = dir.join(format!("{name}.sh"));
    std::fs::write(&path, script).expect("write a script");
    format!("name={name} cmd='sh {}' proto=phantom", path.display())
}

#[test]
fn removing_captured_stones_is_on_the_captured_sides_clock() {
    // Black AB, white AA (the corner, row then column), black BA takes it; the white
    // engine then spends `removal` seconds on its `taked` line.
    for (removal, lost) in [(2.5, true), (0.0, false)] {
        let out = scratch(&format!("clock-{lost}"));
        let capturer = scripted(&out, "capturer", &["AB", "BA"], 0.0);
        let captured = scripted(&out, "captured", &["AA"], removal);
        let rows = arena(&out, &["--tc", "1+0", "--margin-ms", "300"], [&capturer, &captured]);
        // Game 0: the capturer is black.
        let row = &rows[0];
        assert_eq!(row["first"], "capturer");
        assert_eq!(row["result"], "1-0", "{row}");
        let reason = row["reason"].as_str().unwrap();
        if lost {
            assert_eq!(reason, "captured lost on time", "{row}");
        } else {
            assert_eq!(reason, "two passes", "{row}");
        }
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// A platform engine in a shell script: on its first `move go` it waits `delay`
/// seconds and tries E5; after each `refuse` it waits `delay` again and tries A1
/// (row-column `AA`); then it passes (as Black it passes at once).
fn slow_refused(dir: &Path, delay: f64) -> String {
    let script = format!(
        "n=0\nwhile read -r line; do\n  case \"$line\" in\n    'name?') echo 'name slow' ;;\n    'new black') echo 'move pass' ;;\n    \
         'move go'|'move pass') n=$((n+1))\n      if [ $n = 1 ]; then sleep {delay}; echo 'move EE'; \
         else echo 'move pass'; fi ;;\n    refuse) sleep {delay}; echo 'move AA' ;;\n    quit) exit 0 ;;\n  \
         esac\ndone\n"
    );
    let path = dir.join("slow.sh");
    std::fs::write(&path, script).expect("write a script");
    format!("name=slow cmd='sh {}' proto=phantom", path.display())
}

#[test]
fn illegal_tries_run_on_the_movers_clock() {
    // Black takes E5; white waits `delay` before its try onto E5 (refused) and `delay`
    // before its next: each try is within the 1 s + 0.3 s, two of 0.7 s are not.
    for (delay, lost) in [(0.7, true), (0.2, false)] {
        let out = scratch(&format!("tries-clock-{lost}"));
        let black = scripted(&out, "black", &["EE"], 0.0);
        let rows = arena(&out, &["--tc", "1+0", "--margin-ms", "300"], [&black, &slow_refused(&out, delay)]);
        let row = &rows[0];
        assert_eq!(row["first"], "black");
        let reason = row["reason"].as_str().unwrap();
        if lost {
            assert_eq!(reason, "slow lost on time", "{row}");
            assert_eq!(row["result"], "1-0", "{row}");
        } else {
            assert_eq!(reason, "two passes", "{row}");
            let record = out.join(row["record"].as_str().expect("a record"));
            let text = std::fs::read_to_string(&record).expect("record");
            assert!(text.contains("W E5   refused") && text.contains("W A9   accepted"), "{text}");
        }
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn platform_engines_in_the_other_letter_order_and_access_take() {
    // Black (column-row letters, told its captures with `access take`) plays A9, C9
    // and B8 around white's B9 (row-column `AB`) and takes it.
    let out = scratch("dialect");
    let (log, log_arg) = debug_log(&out);
    let capturer = format!(
        "{} option.letters=column-row option.take=access",
        scripted(&out, "capturer", &["AA", "CA", "BB"], 0.0)
    );
    let captured = scripted(&out, "captured", &["AB"], 0.0);
    let rows = arena(&out, &["--st", "5", "--debug-log", &log_arg], [&capturer, &captured]);
    let row = &rows[0];
    assert_eq!(row["first"], "capturer");
    assert_eq!(row["reason"], "two passes", "{row}");
    let record = std::fs::read_to_string(out.join(row["record"].as_str().expect("a record"))).expect("record");
    assert!(record.contains("B B8   accepted, takes B9"), "{record}");
    let io = std::fs::read_to_string(&log).expect("debug log");
    // B9 is row A, column B: `BA` in column-row letters, `AB` in row-column.
    assert!(io.contains("capturer > access take 1 BA"), "{io}");
    assert!(io.contains("captured > taked 1 AB"), "{io}");
    assert!(!io.contains("capturer > take "), "{io}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_try_off_the_board_loses_with_the_line_named() {
    // Game 0: the platform engine is Black and sends `move AJ` (column J of a board
    // of A-I); game 1: the UGI+ engine is Black and answers `bestmove k5`.
    let out = scratch("off-board");
    let platform = scripted(&out, "platform", &["AJ"], 0.0);
    let rows = arena(&out, &["--st", "5"], [&platform, &stubborn_engine(&out, "ugi", "k5")]);
    assert_eq!(rows.len(), 2);
    for (row, (first, why)) in rows.iter().zip([("platform", "not a try"), ("ugi", "'bestmove k5' is not a try")]) {
        assert_eq!(row["first"], first, "{row}");
        assert_eq!(row["result"], "0-1", "{row}");
        assert_eq!(row["moves"].as_u64(), Some(0), "{row}");
        let reason = row["reason"].as_str().expect("a reason");
        assert!(reason.starts_with(&format!("{first} protocol violation: ")) && reason.contains(why), "{row}");
        assert!(reason.contains("off the 9x9 board"), "{row}");
    }
    assert!(rows[0]["reason"].as_str().is_some_and(|r| r.contains("'AJ'")), "{}", rows[0]);
    let _ = std::fs::remove_dir_all(&out);
}
