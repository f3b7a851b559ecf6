//! The conversation fuzzer (issue 31): the real `sente` binary driven over pipes with
//! random, seeded sequences of valid commands (moves taken from the engine's own
//! answers), damaged ones (valid lines with characters and tokens inserted, deleted or
//! replaced, huge numbers, NaN, unicode, NUL) and 2 MB lines, for every game and
//! protocol, checking what a GUI relies on:
//!
//! * UGI+: every `go` gets exactly one `bestmove`; `isready` is answered within
//!   [`READY`], even during a search; a command that got an error left the position
//!   (`query fen`) as it was;
//! * GTP: every command gets exactly one reply, framed `=id`/`?id` and ended by an
//!   empty line; a failed command left the board (`showboard`) as it was;
//! * NBoard: every `ping` its `pong`, every `go` exactly one `===` move;
//! * the Phantom Go platform protocol: only `name`/`move` lines on stdout, one `move`
//!   for each turn;
//! * everywhere: no panic, no failed search thread, no exit before `quit`, a clean
//!   exit after it.
//!
//! The bounded run is part of the test suite. The long run, e.g.
//! `SENTE_FUZZ_SEQUENCES=2000 SENTE_FUZZ_SEED=7 cargo test --release -p sente --test fuzz_conversation`,
//! runs that many sequences per game and protocol (docs/testing.md). A failure names
//! the protocol, game and seed, and lists the lines sent.

use crate::common;
use crate::common::mutate;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use common::Engine;
use mutate::{Rng, input};

/// How long `isready` may take, search or not (generous: the suite shares a loaded
/// machine).
const READY: Duration = Duration::from_secs(10);
/// Commands per sequence.
const STEPS: usize = 25;

/// Sequences per game and protocol: `SENTE_FUZZ_SEQUENCES`, else `default`.
fn sequences(default: u64) -> u64 {
    std::env::var("SENTE_FUZZ_SEQUENCES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The first seed: `SENTE_FUZZ_SEED`, else a fixed one (the suite is reproducible).
fn first_seed() -> u64 {
    std::env::var("SENTE_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(31)
}

/// An engine with the lines sent to it, for failure reports.
struct Talk {
    engine: Engine,
    sent: Vec<String>,
}

impl Talk {
    fn start(args: &[&str]) -> Talk {
        Talk { engine: Engine::start(args), sent: Vec::new() }
    }

    fn send(&mut self, line: &str) {
        // A line break inside a generated line would make it two commands.
        let line = &line.replace('\n', " ");
        self.sent.push(shown(line));
        self.engine.send(line);
    }

    /// Lines up to and including the first for which `done` holds; each line within
    /// `timeout` of the one before.
    fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = self.engine.recv(timeout);
            let stop = done(&line);
            out.push(line);
            if stop {
                return out;
            }
        }
    }
}

/// A line as a failure report shows it: escaped, long ones cut.
fn shown(line: &str) -> String {
    let start: String = line.chars().take(120).flat_map(char::escape_default).collect();
    if line.len() > 120 { format!("{start}… ({} bytes)", line.len()) } else { start }
}

/// Runs `sequence` on `sente args` for seeds `first..first + count`, then `quit`; a
/// failure reports the seed and what was sent.
fn fuzz(what: &str, args: &[&str], default: u64, sequence: impl Fn(&mut Talk, &mut Rng)) {
    let first = first_seed();
    let count = sequences(default);
    let started = Instant::now();
    for seed in first..first + count {
        let mut rng = Rng::new(seed);
        let mut talk = Talk::start(args);
        let result = catch_unwind(AssertUnwindSafe(|| {
            sequence(&mut talk, &mut rng);
            if rng.chance(25) {
                // The GUI goes away: end of input, sometimes after a cut line.
                if rng.chance(50) {
                    talk.sent.push("(a cut line, then the end of input)".into());
                    talk.engine.send_bytes(b"10 pos");
                } else {
                    talk.sent.push("(the end of input)".into());
                }
                let closed = Instant::now();
                assert!(talk.engine.exited_cleanly(Duration::from_secs(30)), "a failing exit at the end of input");
                assert!(
                    closed.elapsed() < Duration::from_secs(20),
                    "{:?} to exit at the end of input",
                    closed.elapsed()
                );
            } else {
                talk.send("quit");
                assert!(talk.engine.exited_cleanly(Duration::from_secs(30)), "a failing exit after quit");
            }
        }));
        if let Err(e) = result {
            let message = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{what}, seed {seed}: {message}\nsent:\n{}", talk.sent.join("\n"));
        }
    }
    eprintln!("{what}: {count} sequences from seed {first} in {:?}", started.elapsed());
}

/// Checks the engine is alive and no line reports a crash.
fn no_crash_lines(lines: &[String]) {
    for l in lines {
        assert!(!l.contains("panicked") && !l.contains("thread failed"), "a crash reported: {l}");
    }
}

// ---------------------------------------------------------------- UGI+

/// UGI+ lines to damage, for every game.
const UGI_LINES: &[&str] = &[
    "isready",
    "uginewgame",
    "position startpos",
    "go movetime 10",
    "go nodes 300",
    "go depth 1",
    "go p1time 100 p2time 100 p1inc 1 p2inc 1 movestogo 5",
    "stop",
    "query gameover",
    "query p1turn",
    "query result",
    "query legalmoves",
    "query islegal E5",
    "query fen",
    "query view b",
    "query full",
    "perft 2",
    "setoption name BoardSize value 9",
    "setoption name Threads value 2",
    "setoption name Hash value 16",
    "d",
];

/// Whether a damaged line may be sent: not `quit` (it would end the conversation),
/// nothing that would take the machine's memory or cores (`Hash` over 1 GiB, more
/// than 8 threads).
fn ugi_line_allowed(line: &str) -> bool {
    use protocol::ugi::{Command, parse};
    match parse(line) {
        Ok(Command::Quit) => false,
        Ok(Command::SetOption { name, value }) => {
            let number = value.as_deref().and_then(|v| v.parse::<u64>().ok());
            match name.to_ascii_lowercase().as_str() {
                "hash" => number.is_none_or(|n| n <= 1024),
                "threads" => number.is_none_or(|n| n <= 8),
                _ => true,
            }
        }
        _ => true,
    }
}

fn is_bestmove(l: &str) -> bool {
    l.starts_with("bestmove")
}

fn ugi_ask(talk: &mut Talk, question: &str) -> String {
    talk.send(question);
    let lines = talk
        .until(common::REPLY, |l| l == "response" || l.starts_with("response ") || l.starts_with("info string error"));
    lines.last().cloned().unwrap_or_default()
}

/// Sends `isready` and returns the lines up to `readyok`, checking it came within
/// [`READY`].
fn ugi_sync(talk: &mut Talk) -> Vec<String> {
    ugi_sync_after(talk, 0)
}

/// [`ugi_sync`] when `earlier` `isready` lines sent before are still to be answered.
fn ugi_sync_after(talk: &mut Talk, earlier: usize) -> Vec<String> {
    let asked = Instant::now();
    talk.send("isready");
    let mut lines = Vec::new();
    for _ in 0..=earlier {
        lines.extend(talk.until(common::REPLY, |l| l == "readyok"));
    }
    assert!(asked.elapsed() < READY, "isready took {:?}", asked.elapsed());
    lines
}

/// How many `isready` a line holds (0 or 1), for the `readyok` lines to wait for.
fn readies(line: &str) -> usize {
    usize::from(matches!(protocol::ugi::parse(&line.replace('\n', " ")), Ok(protocol::ugi::Command::IsReady)))
}

/// One UGI+ conversation for `game`.
fn ugi_sequence(talk: &mut Talk, rng: &mut Rng, game: &str) {
    talk.send(&format!("setoption name Game value {game}"));
    ugi_sync(talk);
    let mut moves: Vec<String> = Vec::new();
    let mut huge_sent = false;
    for _ in 0..STEPS {
        let fen_before = ugi_ask(talk, "query fen");
        let mut expected_bestmoves = 0;
        let mut earlier_readies = 0;
        let mut lines = Vec::new();
        match rng.below(100) {
            0..35 => {
                let legal = ugi_ask(talk, "query legalmoves");
                let legal: Vec<&str> = legal.strip_prefix("response").unwrap_or("").split_whitespace().collect();
                if legal.is_empty() && rng.chance(50) {
                    // The game is over: `go` still gets its one `bestmove`.
                    talk.send("go movetime 10");
                    expected_bestmoves = 1;
                    lines.extend(talk.until(common::REPLY, is_bestmove));
                } else {
                    if legal.is_empty() || moves.len() > 60 {
                        moves.clear();
                    } else {
                        moves.push(rng.pick(&legal).to_string());
                    }
                    talk.send(&format!("position startpos moves {}", moves.join(" ")));
                }
            }
            35..50 => {
                let go = *rng.pick(&["go movetime 10", "go nodes 300", "go depth 1", "go p1time 200 p2time 200"]);
                talk.send(go);
                expected_bestmoves = 1;
                if rng.chance(40) {
                    // isready during the search: answered at once, the search goes on.
                    lines.extend(ugi_sync(talk));
                }
                if rng.chance(20) {
                    let line = input(rng, UGI_LINES);
                    if ugi_line_allowed(&line) {
                        // Queued behind the search, or refused during it.
                        talk.send(&line);
                        earlier_readies += readies(&line);
                        use protocol::ugi::Command;
                        let parsed = protocol::ugi::parse(&line);
                        expected_bestmoves += usize::from(matches!(parsed, Ok(Command::Go(_))));
                        talk.send("stop");
                        if matches!(parsed, Ok(Command::Go(_) | Command::Perft(_) | Command::Bench(_))) {
                            // The first stop ends the running search and starts the
                            // queued job; this one ends that.
                            talk.send("stop");
                        }
                    }
                }
                if expected_bestmoves == 1 && !lines.iter().any(|l| is_bestmove(l)) {
                    let got = talk.until(common::REPLY, is_bestmove);
                    // Answers to the damaged line's `isready`, read on the way.
                    earlier_readies -= earlier_readies.min(got.iter().filter(|l| *l == "readyok").count());
                    lines.extend(got);
                }
            }
            50..55 => {
                talk.send("go infinite");
                expected_bestmoves = 1;
                std::thread::sleep(Duration::from_millis(rng.below(30) as u64));
                lines.extend(ugi_sync(talk));
                talk.send("stop");
            }
            55..97 => {
                let position = format!("position startpos moves {}", moves.join(" "));
                let fen_line = format!("position fen {}", fen_before.strip_prefix("response ").unwrap_or(""));
                let mut valid: Vec<&str> = UGI_LINES.to_vec();
                valid.push(&position);
                valid.push(&fen_line);
                let line = input(rng, &valid);
                if !ugi_line_allowed(&line) {
                    continue;
                }
                if let Ok(protocol::ugi::Command::Go(_)) = protocol::ugi::parse(&line) {
                    expected_bestmoves = 1;
                }
                talk.send(&line);
                earlier_readies += readies(&line);
                // A search or perft it started ends now.
                talk.send("stop");
            }
            _ if !huge_sent => {
                huge_sent = true;
                talk.send(&format!("position startpos moves {}", "f5 ".repeat(700_000)));
            }
            _ => continue,
        }
        lines.extend(ugi_sync_after(talk, earlier_readies));
        no_crash_lines(&lines);
        let bestmoves = lines.iter().filter(|l| is_bestmove(l)).count();
        assert_eq!(bestmoves, expected_bestmoves, "bestmove lines: {lines:?}");
        if lines.iter().any(|l| l.starts_with("info string error")) {
            let fen_after = ugi_ask(talk, "query fen");
            assert_eq!(fen_after, fen_before, "an error changed the position: {lines:?}");
        }
    }
}

fn ugi_fuzz(game: &str) {
    fuzz(&format!("UGI+ {game}"), &[], 12, |talk, rng| ugi_sequence(talk, rng, game));
}

#[test]
fn ugi_othello() {
    ugi_fuzz("othello");
}

#[test]
fn ugi_go() {
    ugi_fuzz("go");
}

#[test]
fn ugi_phantomgo() {
    ugi_fuzz("phantomgo");
}

#[test]
fn ugi_chaosclock() {
    ugi_fuzz("chaosclock");
}

// ---------------------------------------------------------------- GTP

/// GTP lines to damage (Go and Othello; the engine refuses what its game lacks).
const GTP_LINES: &[&str] = &[
    "protocol_version",
    "1 name",
    "version",
    "known_command play",
    "list_commands",
    "2 boardsize 9",
    "boardsize 7",
    "clear_board",
    "komi 6.5",
    "3 play b E5",
    "play w pass",
    "play black d3",
    "genmove b",
    "4 genmove w",
    "undo",
    "showboard",
    "final_score",
    "final_status_list dead",
    "time_settings 0 0.02 1",
    "time_left b 0.05 0",
    "is_legal b E5",
    "printsgf",
    "kgs-genmove_cleanup b",
    "sente-superko positional",
    "sente-ownership",
    "gogui-analyze_commands",
    "lz-analyze 10",
    "list_games",
    "set_game Othello",
    "set_game Go",
];

/// Whether a damaged GTP line may be sent: not `quit`, no `loadsgf` and no
/// `printsgf FILE` (they read and write files).
fn gtp_line_allowed(line: &str) -> bool {
    protocol::gtp::parse(&line.replace('\n', " "))
        .is_none_or(|c| c.name != "quit" && c.name != "loadsgf" && (c.name != "printsgf" || c.args.is_empty()))
}

/// Sends one GTP line and checks its framing: no reply to a line without a command,
/// else one reply `=id`/`?id` ended by an empty line. Returns whether it succeeded.
fn gtp_command(talk: &mut Talk, line: &str) -> Option<bool> {
    let line = line.replace('\n', " ");
    let parsed = protocol::gtp::parse(&line);
    if parsed.as_ref().is_some_and(|c| c.name.contains("genmove")) {
        // Moves take 20 ms whatever clock a damaged line set.
        gtp_command(talk, "time_settings 0 0.02 1");
    }
    talk.send(&line);
    let cmd = parsed?;
    if cmd.name.ends_with("analyze") && !cmd.name.contains("genmove") {
        // A streaming analysis runs until the next line, then ends its reply.
        std::thread::sleep(Duration::from_millis(20));
        talk.send("");
    }
    let id = cmd.id.map(|i| i.to_string()).unwrap_or_default();
    let first = talk.engine.recv(common::REPLY);
    let framed = |sign: char| {
        first
            .strip_prefix(sign)
            .and_then(|r| r.strip_prefix(id.as_str()))
            .is_some_and(|r| r.is_empty() || r.starts_with(' '))
    };
    assert!(framed('=') || framed('?'), "reply to {} is framed {first:?}", shown(&line));
    let rest = talk.until(common::REPLY, str::is_empty);
    let mut all = vec![first.clone()];
    all.extend(rest);
    no_crash_lines(&all);
    Some(first.starts_with('='))
}

fn gtp_board(talk: &mut Talk) -> String {
    talk.send("showboard");
    let mut lines = vec![talk.engine.recv(common::REPLY)];
    lines.extend(talk.until(common::REPLY, str::is_empty));
    lines.join("\n")
}

/// One GTP conversation for `game` (`Go` or `Othello`).
fn gtp_sequence(talk: &mut Talk, rng: &mut Rng, game: &str) {
    let (letters, size) = if game == "Go" { ("ABCDEFGHJ", 9) } else { ("abcdefgh", 8) };
    for _ in 0..STEPS {
        let board_before = gtp_board(talk);
        let id = if rng.chance(70) { format!("{} ", rng.below(1000)) } else { String::new() };
        let line = match rng.below(100) {
            0..35 => {
                let colour = rng.pick(&["b", "w", "black", "white"]);
                let point = if rng.chance(5) {
                    "pass".to_string()
                } else {
                    let c = letters.as_bytes()[rng.below(size)] as char;
                    format!("{c}{}", 1 + rng.below(size))
                };
                format!("{id}play {colour} {point}")
            }
            35..45 => format!("{id}genmove {}", rng.pick(&["b", "w"])),
            45..50 => format!("{id}undo"),
            50..97 => {
                let line = input(rng, GTP_LINES);
                if !gtp_line_allowed(&line) {
                    continue;
                }
                line
            }
            _ => format!("{id}play b {}", "A".repeat(2_000_000)),
        };
        if gtp_command(talk, &line) == Some(false) {
            assert_eq!(gtp_board(talk), board_before, "{} failed and changed the board", shown(&line));
        }
    }
    // Exactly one reply each: the next command's reply is its own.
    talk.send("999999 name");
    assert_eq!(talk.engine.recv(common::REPLY), "=999999 sente");
}

#[test]
fn gtp_go() {
    fuzz("GTP Go", &["gtp", "--game", "Go"], 12, |talk, rng| gtp_sequence(talk, rng, "Go"));
}

#[test]
fn gtp_othello() {
    fuzz("GTP Othello", &["gtp", "--game", "Othello"], 12, |talk, rng| gtp_sequence(talk, rng, "Othello"));
}

// ---------------------------------------------------------------- NBoard

const NBOARD_LINES: &[&str] = &[
    "nboard 2",
    "set depth 2",
    "set game (;GM[Othello]PC[NBoard]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)",
    "set contempt 0",
    "move f5",
    "move d3/1.00/2.3",
    "hint 2",
    "go",
    "ping 7",
    "learn",
    "analyze",
];

/// Whether a damaged NBoard line may be sent: not `quit`, no search deeper than 4
/// (NBoard has no `stop`: a deep search is the GUI's choice, not a hang).
fn nboard_line_allowed(line: &str) -> bool {
    use protocol::nboard::{Command, parse};
    match parse(line) {
        Ok(Command::Quit) => false,
        Ok(Command::SetDepth(d)) => d <= 4,
        _ => true,
    }
}

fn nboard_sequence(talk: &mut Talk, rng: &mut Rng) {
    talk.send("nboard 2");
    talk.send("set depth 2");
    let mut last_move = String::from("f5");
    for ping in 0..STEPS {
        let mut searches = 0;
        match rng.below(100) {
            0..30 => {
                talk.send("go");
                searches = 1;
            }
            30..45 => talk.send(&format!("move {last_move}")),
            45..50 => talk.send("hint 2"),
            50..97 => {
                let line = input(rng, NBOARD_LINES);
                if !nboard_line_allowed(&line) {
                    continue;
                }
                searches = usize::from(matches!(
                    protocol::nboard::parse(&line.replace('\n', " ")),
                    Ok(protocol::nboard::Command::Go)
                ));
                talk.send(&line);
            }
            _ => talk.send(&format!("set game {}", "(".repeat(3_000_000))),
        }
        talk.send(&format!("ping {ping}"));
        let lines = talk.until(common::REPLY, |l| l == format!("pong {ping}"));
        no_crash_lines(&lines);
        let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("=== ")).collect();
        assert_eq!(moves.len(), searches, "'===' lines: {lines:?}");
        if let Some(m) = moves.first() {
            last_move = m[4..].split('/').next().unwrap_or("f5").to_string();
        }
    }
}

#[test]
fn nboard_othello() {
    fuzz("NBoard", &["nboard"], 12, nboard_sequence);
}

// ---------------------------------------------------------------- Phantom Go platform

const PLATFORM_LINES: &[&str] = &[
    "new black",
    "new white",
    "move go",
    "move pass",
    "accept",
    "refuse",
    "take 1 EE",
    "access take 2 AAAB",
    "taked 1 CC",
    "error",
    "end",
    "name ?",
];

fn platform_sequence(talk: &mut Talk, rng: &mut Rng) {
    let asked_for_tries = &mut 0usize;
    for _ in 0..STEPS {
        let line = match rng.below(100) {
            0..10 => rng.pick(&["new black", "new white"]).to_string(),
            10..40 => "move go".to_string(),
            40..45 => "move pass".to_string(),
            45..60 => rng.pick(&["accept", "refuse"]).to_string(),
            60..67 => {
                let letters = "ABCDEFGHI".as_bytes();
                let point: String = (0..2).map(|_| letters[rng.below(9)] as char).collect();
                format!("{} 1 {point}", rng.pick(&["take", "access take", "taked"]))
            }
            67..98 => {
                let line = input(rng, PLATFORM_LINES);
                if matches!(
                    protocol::phantom::parse(&line.replace('\n', " "), Default::default()),
                    Ok(protocol::phantom::Command::Quit)
                ) {
                    continue;
                }
                line
            }
            _ => format!("take 1 {}", "AB".repeat(1_000_000)),
        };
        talk.send(&line);
        talk.send("name?");
        // `name?` is answered at once, even while a try is searched, so it does not wait
        // for the try: a try may come after it, in a later step. What holds is that
        // every try answers a line that asks for one, at most one try each.
        use protocol::phantom::Command;
        let command = protocol::phantom::parse(&line.replace('\n', " "), Default::default());
        if matches!(command, Ok(Command::New(_) | Command::MoveGo | Command::MovePass | Command::Refuse)) {
            *asked_for_tries += 1;
        }
        let mut lines = talk.until(common::REPLY, |l| l.starts_with("name "));
        if command == Ok(Command::Name) {
            lines.extend(talk.until(common::REPLY, |l| l.starts_with("name ")));
        }
        assert!(
            lines.iter().all(|l| l.starts_with("move ") || l.starts_with("name ")),
            "{} gave {lines:?}",
            shown(&line)
        );
        let moves = lines.iter().filter(|l| l.starts_with("move ")).count();
        assert!(moves <= *asked_for_tries, "{} gave {lines:?}: more tries than lines asking for one", shown(&line));
        *asked_for_tries -= moves;
    }
}

#[test]
fn phantom_platform() {
    fuzz("Phantom Go platform", &["phantom", "--movetime", "10"], 12, platform_sequence);
}
