//! `sente arena --compliance`: the scripted protocol checks pass on sente for every
//! game and protocol it speaks, GNU Go's and GRhino's results are what these engines
//! really do, and engines that break the protocols fail with the right checks and a
//! non-zero exit status.

use crate::common;

use std::path::Path;
use std::process::Command;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

/// A scratch folder of the test's own, removed when it passes.
fn scratch(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("compliance-test-{name}"))
}

/// Runs `sente arena --compliance --game game --engine engine`; returns (success,
/// stdout, stderr).
fn compliance(game: &str, engine: &str) -> (bool, String, String) {
    let out = Command::new(SENTE)
        .args(["arena", "--compliance", "--game", game, "--engine", engine])
        .output()
        .expect("run sente arena --compliance");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// The check lines of a run, as (passed, check name).
fn checks(stdout: &str) -> Vec<(bool, String)> {
    stdout
        .lines()
        .filter_map(|l| {
            let (passed, rest) = if let Some(rest) = l.strip_prefix("ok    ") {
                (true, rest)
            } else {
                (false, l.strip_prefix("FAIL  ")?)
            };
            Some((passed, rest.split(" — ").next().unwrap_or(rest).to_string()))
        })
        .collect()
}

/// Asserts that every check passed and that there were `count` of them.
fn assert_compliant(game: &str, engine: &str, count: usize) -> String {
    let (ok, stdout, stderr) = compliance(game, engine);
    assert!(ok, "{game} {engine}: {stdout}\n{stderr}");
    let lines = checks(&stdout);
    assert!(lines.iter().all(|(passed, _)| *passed), "{game} {engine}: {stdout}");
    assert_eq!(lines.len(), count, "{game} {engine}: {stdout}");
    let summary = format!("{count} checks passed, 0 failed, 0 not run: compliant");
    assert_eq!(stdout.lines().last(), Some(summary.as_str()), "{stdout}");
    stdout
}

fn write_script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    std::fs::write(&path, format!("#!/bin/bash\n{body}")).expect("write fake engine");
    format!("bash {}", path.display())
}

#[test]
fn sente_passes_every_check_in_every_game_and_protocol() {
    let ugi = format!("name=sente cmd={SENTE} proto=ugi");
    for game in ["othello", "go", "chaosclock", "phantomgo"] {
        let stdout = assert_compliant(game, &ugi, 19);
        // The moves were judged: the searches' answers are named.
        assert!(stdout.contains("ok    stop ends go infinite at once with a legal bestmove"), "{stdout}");
    }
    let gtp = format!("name=sente cmd='{SENTE} gtp' proto=gtp");
    for game in ["go", "othello"] {
        let stdout = assert_compliant(game, &gtp, 20);
        assert!(stdout.contains("ok    play: an illegal move refused with '?'"), "{stdout}");
    }
    let stdout = assert_compliant("othello", &format!("name=sente cmd='{SENTE} nboard' proto=nboard"), 8);
    assert!(stdout.contains("ok    hint 1 → search lines with a legal move"), "{stdout}");
    // The Phantom Go platform protocol (a short --movetime: the script plays tens of
    // turns to bring about the captures).
    let phantom = format!("name=sente cmd='{SENTE} phantom --movetime 50' proto=phantom");
    let stdout = assert_compliant("phantomgo", &phantom, 10);
    assert!(stdout.contains("ok    refuse answered with another try, not the refused point"), "{stdout}");
    assert!(stdout.contains("got: 'taked "), "a real capture of its stones was told: {stdout}");
    assert!(stdout.contains("got: 'take "), "a real capture by its try was told: {stdout}");
    // --debug-log records the conversation.
    let dir = scratch("log");
    let log = dir.join("log.txt");
    let out = Command::new(SENTE)
        .args(["arena", "--compliance", "--game", "othello", "--engine", &ugi, "--debug-log"])
        .arg(&log)
        .output()
        .expect("run sente arena --compliance");
    assert!(out.status.success());
    let text = std::fs::read_to_string(&log).expect("the log");
    assert!(text.contains("sente > ugi\n") && text.contains("sente < readyok\n"), "{text}");
}

#[test]
fn gnu_go_passes_every_gtp_check() {
    // GNU Go 3.8 passes all of them; its final_score on a nearly empty board reads the
    // whole game out and takes seconds (about 14 s on a loaded 2-core machine), which
    // the check allows for.
    let stdout = assert_compliant("go", "name=gnugo cmd='/usr/games/gnugo --mode gtp' proto=gtp", 20);
    assert!(stdout.contains("ok    final_score is well formed"), "{stdout}");
    assert!(stdout.contains("got: '= GNU Go'"), "{stdout}");
}

#[test]
fn grhino_passes_every_gtp_check_for_othello() {
    // GRhino 0.16.1 selects Othello with set_game, refuses an illegal play, and scores
    // the nine-move wipe-out as B+64 (empties to the winner, as our rules).
    let stdout = assert_compliant("othello", "name=grhino cmd=/usr/games/gtp-rhino proto=gtp", 20);
    assert!(stdout.contains("ok    set_game Othello"), "{stdout}");
    assert!(stdout.contains("got: '= B+64'"), "{stdout}");
}

#[test]
fn a_ugi_engine_that_breaks_the_protocol_fails() {
    let dir = scratch("ugi");
    // Answers the handshake, then an illegal move to every go (also at once to `go
    // infinite`), nonsense to every query, and ignores quit.
    let cmd = write_script(
        &dir,
        "liar",
        "while read -r line; do\n  case \"$line\" in\n    ugi) echo 'id name liar'; echo ugiok;;\n    \
         isready) echo readyok;;\n    go*) echo 'bestmove a1';;\n    query*) echo 'response maybe';;\n  esac\ndone\n",
    );
    let (ok, stdout, stderr) = compliance("othello", &format!("name=liar cmd='{cmd}' proto=ugi"));
    assert!(!ok, "{stdout}");
    assert!(stderr.contains("liar is not compliant"), "{stderr}");
    let lines = checks(&stdout);
    let passed = |name: &str| lines.iter().find(|(_, n)| n == name).map(|(p, _)| *p);
    for name in ["ugi answers id/option lines and ugiok", "isready answers readyok", "uginewgame then isready"] {
        assert_eq!(passed(name), Some(true), "{name}: {stdout}");
    }
    for name in [
        "position startpos, query fen",
        "the first go movetime 100 after readyok: a legal bestmove in time",
        "position fen, go nodes 1000: a legal bestmove",
        "isready during go infinite",
        "query gameover and result in a finished game",
        "query legalmoves in a finished game answers 'response' alone",
        "go in a finished game answers bestmove none",
        "quit exits within a second",
    ] {
        assert_eq!(passed(name), Some(false), "{name}: {stdout}");
    }
    assert!(stdout.contains("got: 'bestmove a1' ("), "the illegal move is named: {stdout}");
    assert!(stdout.contains("got: 'bestmove a1' before stop"), "{stdout}");
    assert!(stdout.contains("still running after 1000 ms"), "{stdout}");
    assert!(stdout.lines().last().unwrap_or("").ends_with("NOT compliant"), "{stdout}");
}

#[test]
fn an_empty_response_with_a_trailing_space_fails() {
    // sente itself answered `query legalmoves` in a finished game with `response `, and
    // the check trimmed the line before judging it.
    let dir = scratch("space");
    let cmd = write_script(&dir, "space", &format!("'{SENTE}' | sed -u 's/^response$/response /'\n"));
    let (ok, stdout, _) = compliance("go", &format!("name=space cmd='{cmd}' proto=ugi"));
    assert!(!ok, "{stdout}");
    let failed: Vec<String> = checks(&stdout).into_iter().filter(|(p, _)| !p).map(|(_, n)| n).collect();
    assert_eq!(failed, ["query legalmoves in a finished game answers 'response' alone"], "{stdout}");
    assert!(stdout.contains("got: 'response ' — expected: 'response'"), "{stdout}");
}

#[test]
fn a_gtp_engine_that_breaks_the_protocol_fails() {
    let dir = scratch("gtp");
    // Says yes to everything, with no id, and plays off the board.
    let cmd = write_script(&dir, "yes", "while read -r line; do printf '= Z9\\n\\n'; done\n");
    let (ok, stdout, _) = compliance("go", &format!("name=yes cmd='{cmd}' proto=gtp"));
    assert!(!ok, "{stdout}");
    let lines = checks(&stdout);
    let passed = |name: &str| lines.iter().find(|(_, n)| n == name).map(|(p, _)| *p);
    assert_eq!(passed("protocol_version is 2"), Some(false), "{stdout}");
    assert_eq!(passed("list_commands has the required commands"), Some(false), "{stdout}");
    assert_eq!(passed("play: an illegal move refused with '?'"), Some(false), "{stdout}");
    assert_eq!(passed("genmove black: a legal move"), Some(false), "{stdout}");
    assert_eq!(passed("a numeric id is echoed ('7 name' → '=7 …')"), Some(false), "{stdout}");
    assert_eq!(passed("an unknown command gets '?'"), Some(false), "{stdout}");
    assert_eq!(passed("quit answers and exits within a second"), Some(false), "{stdout}");
    assert_eq!(passed("boardsize 99 refused with '?'"), Some(false), "{stdout}");
    assert_eq!(passed("an error reply carries the id ('9 …' → '?9 …')"), Some(false), "{stdout}");
    assert_eq!(passed("play: legal moves accepted"), Some(true), "{stdout}");
}

/// A platform engine in bash: tries the points AA, AB, … in turn; `on_refuse` is its
/// answer to `refuse`, `on_new_black` to `new black`.
fn platform_script(on_refuse: &str, on_new_black: &str) -> String {
    format!(
        "i=0\nnext() {{ l=ABCDEFGHI; last=\"${{l:$((i / 9)):1}}${{l:$((i % 9)):1}}\"; i=$((i + 1)); echo \"move $last\"; }}\n\
         while read -r line; do\n  case \"$line\" in\n    'name?') echo 'name bash';;\n    \
         'new black') {on_new_black};;\n    'move go'|'move pass') next;;\n    refuse) {on_refuse};;\n    \
         quit) exit 0;;\n  esac\ndone\n"
    )
}

#[test]
fn a_phantom_engine_that_breaks_the_protocol_fails() {
    let dir = scratch("phantom");
    // The honest version of the script passes the checks up to the captures.
    let cmd = write_script(&dir, "honest", &platform_script("next", "next"));
    let (_, stdout, _) = compliance("phantomgo", &format!("name=honest cmd='{cmd}' proto=phantom"));
    let lines = checks(&stdout);
    let passed = |lines: &[(bool, String)], name: &str| lines.iter().find(|(_, n)| n == name).map(|(p, _)| *p);
    for name in [
        "name? answered 'name <a name>'",
        "new black answered at once with a try",
        "accept answered with nothing (name? answered next)",
        "move go answered with a try",
        "refuse answered with another try, not the refused point",
        "an unknown line and captures it cannot have made are survived (name? answered)",
        "end and quit: exits within a second with status 0",
    ] {
        assert_eq!(passed(&lines, name), Some(true), "{name}: {stdout}");
    }
    // Answers refuse with the refused point again.
    let cmd = write_script(&dir, "stubborn", &platform_script("echo \"move $last\"", "next"));
    let (ok, stdout, stderr) = compliance("phantomgo", &format!("name=stubborn cmd='{cmd}' proto=phantom"));
    assert!(!ok, "{stdout}");
    assert!(stderr.contains("stubborn is not compliant"), "{stderr}");
    let lines = checks(&stdout);
    assert_eq!(passed(&lines, "move go answered with a try"), Some(true), "{stdout}");
    assert_eq!(passed(&lines, "refuse answered with another try, not the refused point"), Some(false), "{stdout}");
    assert!(stdout.contains("got: 'move AB' again — expected: a try on another point"), "{stdout}");
    // Never answers new black (nor anything after it).
    let cmd = write_script(&dir, "mute", &platform_script("next", "while read -r line; do :; done"));
    let (ok, stdout, _) = compliance("phantomgo", &format!("name=mute cmd='{cmd}' proto=phantom"));
    assert!(!ok, "{stdout}");
    let lines = checks(&stdout);
    assert_eq!(passed(&lines, "name? answered 'name <a name>'"), Some(true), "{stdout}");
    assert_eq!(passed(&lines, "new black answered at once with a try"), Some(false), "{stdout}");
    assert!(
        stdout.contains("FAIL  new black answered at once with a try — sent: 'new black' — got: nothing in 6 s"),
        "{stdout}"
    );
    assert!(stdout.lines().last().unwrap_or("").ends_with("not run: NOT compliant"), "{stdout}");
}

#[test]
fn an_engine_that_exits_or_stays_silent_is_not_waited_for() {
    // Exits at once: the first check fails, the rest are not run.
    let (ok, stdout, _) = compliance("go", "name=gone cmd=true proto=ugi");
    assert!(!ok, "{stdout}");
    assert!(stdout.contains("FAIL  ugi answers id/option lines and ugiok"), "{stdout}");
    assert!(stdout.contains("the engine is gone"), "{stdout}");
    assert!(stdout.contains("0 checks passed, 1 failed, 18 not run: NOT compliant"), "{stdout}");
    // Never answers: three checks time out, then the rest are given up.
    let dir = scratch("silent");
    let cmd = write_script(&dir, "silent", "while read -r line; do :; done\n");
    let start = std::time::Instant::now();
    let (ok, stdout, _) = compliance("othello", &format!("name=silent cmd='{cmd}' proto=nboard"));
    assert!(!ok, "{stdout}");
    assert!(stdout.contains("got: nothing in 5 s"), "{stdout}");
    assert!(stdout.contains("0 checks passed, 3 failed, 5 not run"), "{stdout}");
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
}

#[test]
fn compliance_arguments_are_checked() {
    let sente = format!("name=sente cmd={SENTE}");
    let out = Command::new(SENTE)
        .args(["arena", "--compliance", "--engine", &sente, "--engine", &sente])
        .output()
        .expect("run sente arena");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("exactly one --engine"));
    let (ok, _, stderr) = compliance("go", &format!("name=sente cmd='{SENTE} nboard' proto=nboard"));
    assert!(!ok && stderr.contains("no compliance checks for NBoard with go"), "{stderr}");
    let (ok, _, stderr) = compliance("go", &format!("name=sente cmd='{SENTE} phantom' proto=phantom"));
    assert!(!ok && stderr.contains("no compliance checks for the Phantom Go platform protocol with go"), "{stderr}");
    let odd = format!("name=sente cmd='{SENTE} phantom' proto=phantom option.letters=diagonal");
    let (ok, stdout, stderr) = compliance("phantomgo", &odd);
    assert!(!ok && stderr.contains("engine sente: option.letters 'diagonal'"), "{stderr}");
    assert!(stdout.is_empty(), "no check runs: {stdout}");
}

#[test]
fn the_platform_checks_speak_the_engines_dialect() {
    // Column-row letters and `access take`, as a match would speak them to this engine.
    // The letter order is a symmetry of the board (a compliant engine plays the same
    // game mirrored), so what this pins is the capturer's line; the order's reading is
    // tested with the arena's dialect test in tests/phantom_arena.rs.
    let engine = format!(
        "name=sente cmd='{SENTE} phantom --movetime 50 --letters column-row' proto=phantom option.letters=column-row \
         option.take=access"
    );
    let stdout = assert_compliant("phantomgo", &engine, 10);
    assert!(stdout.contains("got: 'access take "), "a real capture by its try, told with access take: {stdout}");
    assert!(!stdout.contains("got: 'take "), "{stdout}");
    assert!(stdout.contains("got: 'taked "), "{stdout}");
}
