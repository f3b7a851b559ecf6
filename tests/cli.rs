//! The command-line subcommands, run as a user would.

use crate::common;

use common::{refused, run};

#[test]
fn perft_depth_11_prints_the_published_count() {
    let out = run(&["perft", "othello", "11"]);
    assert!(out.contains("perft othello depth 11: 212258800"), "{out}");
    assert!(out.contains("M leaves/s"), "{out}");
}

#[test]
fn perft_on_threads_and_other_sizes() {
    let out = run(&["perft", "othello", "9", "--threads", "2"]);
    assert!(out.contains(": 3005288"), "{out}");
    let out = run(&["perft", "othello", "8", "--size", "6", "--threads", "2"]);
    assert!(out.contains(": 308716"), "{out}");
    let out = run(&["perft", "othello", "6", "--size", "10"]);
    assert!(out.contains(": 8200"), "{out}");
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    assert!(refused(&["perft", "othello", "5", "--size", "7"]).contains("6x6, 8x8 or 10x10"));
    assert!(refused(&["perft", "chess", "3"]).contains("unknown game 'chess'"));
}

#[test]
fn selfplay_finishes_a_game() {
    let out = run(&["selfplay", "--size", "6", "--depth", "3"]);
    assert!(out.contains("  1. black "), "Othello names its players black and white: {out}");
    assert!(
        out.contains("result: black wins") || out.contains("result: white wins") || out.contains("result: draw"),
        "{out}"
    );
    assert!(out.contains("game over"), "{out}");
}

#[test]
fn bench_prints_a_node_signature() {
    let a = run(&["bench", "3"]);
    let b = run(&["bench", "3"]);
    let nodes = |s: &str| s.lines().last().unwrap().split_whitespace().next().unwrap().to_string();
    assert_eq!(nodes(&a), nodes(&b), "the signature is deterministic");
    assert!(a.lines().last().unwrap().ends_with(" nps"), "{a}");
    let two = run(&["bench", "3", "--threads", "2"]);
    assert!(two.contains("positions 7 threads 2"), "{two}");
    assert!(two.lines().last().unwrap().ends_with(" nps"), "{two}");
}

#[test]
fn othello_accuracy_runs_the_built_in_file_and_a_given_one() {
    // The first three built-in positions, 10 ms a move.
    let out = run(&["othello-accuracy", "--movetime", "10", "--count", "3"]);
    assert!(out.contains("engine/data/othello_accuracy.txt: 3 positions, 10 ms per move"), "{out}");
    assert!(out.lines().last().unwrap().starts_with("mean disc loss "), "{out}");
    // A file by hand: the start position twice, with invented scores.
    let dir = common::Scratch::new("accuracy");
    let file = dir.join("two.txt");
    let start = "---------------------------OX------XO--------------------------- X d3:+0 c4:+0 f5:+0 e6:+0";
    std::fs::write(&file, format!("# by hand\n{start}\n{start}\n")).unwrap();
    let path = file.to_str().unwrap();
    let out = run(&["othello-accuracy", path, "--movetime", "5"]);
    assert!(out.contains("60 empties:    2 positions, mean disc loss 0.00, best move 100.0%"), "{out}");
    assert!(out.ends_with("mean disc loss 0.00, best move 100.0%\n"), "{out}");
    // --make keeps what the file holds: two positions asked, two there, nothing solved.
    let out = run(&["othello-accuracy", "--make", path, "--count", "2"]);
    assert!(out.contains("already holds 2 positions"), "{out}");
    // A bad line is refused with its number.
    std::fs::write(&file, format!("{start}\n{start} a1:+0\n")).unwrap();
    let stderr = refused(&["othello-accuracy", path, "--movetime", "5"]);
    assert!(stderr.contains("line 2"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn go_accuracy_judges_an_outside_engine_over_gtp_and_ugi() {
    // GNU Go (installed by .ci/run) plays the first three labelled positions: each is
    // a new game (clear_board) with its moves replayed over GTP, which GNU Go checks
    // by its own rules, and its reply must be one of the moves KataGo labelled.
    let gnugo = "/usr/games/gnugo";
    assert!(std::path::Path::new(gnugo).exists(), "GNU Go is needed: apt-get install -y gnugo (.ci/run installs it)");
    let dir = common::Scratch::new("go-accuracy-engine");
    let out_file = dir.join("gnugo.jsonl");
    let engine = format!("name=gnugo cmd='{gnugo} --mode gtp --level 1 --chinese-rules' proto=gtp");
    let args = ["go-accuracy", "--count", "3", "--engine", &engine, "--out", out_file.to_str().unwrap()];
    let out = run(&args);
    assert!(out.contains("3 labelled positions played by gnugo ("), "{out}");
    assert!(out.contains("the limit of its command line"), "{out}");
    assert!(out.contains("mean time a move: "), "{out}");
    let results = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(results.lines().count(), 4, "the run's line and one per position: {results}");
    assert!(results.lines().next().unwrap().contains("\"engine\":\"gnugo ("), "{results}");
    // The same run resumed has nothing left to play and prints the same tally.
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    assert_eq!(run(&resumed).lines().nth(3), out.lines().nth(3));
    // sente itself over UGI+, given the run's playouts as `go nodes`.
    let me = format!("name=me cmd='{} ugi' proto=ugi", env!("CARGO_BIN_EXE_sente"));
    let out = run(&["go-accuracy", "--count", "2", "--playouts", "64", "--engine", &me]);
    assert!(out.contains("2 labelled positions played by me (") && out.contains("64 nodes a move"), "{out}");
    // An engine that speaks neither is refused before anything runs.
    assert!(refused(&["go-accuracy", "--count", "1", "--engine", "name=x cmd=x proto=nboard"]).contains("GTP or UGI+"));
}

#[test]
fn othello_accuracy_searches_with_a_given_weights_file() {
    use search::othello::train::{decode_weights, encode_weights};
    let dir = common::Scratch::new("accuracy-eval");
    let same = dir.join("same.bin");
    let negated = dir.join("negated.bin");
    let broken = dir.join("broken.bin");
    let weights = decode_weights(search::othello::embedded_weights()).unwrap();
    std::fs::write(&same, encode_weights(&weights)).unwrap();
    let flipped: Vec<i16> = weights.iter().map(|w| w.saturating_neg()).collect();
    std::fs::write(&negated, encode_weights(&flipped)).unwrap();
    std::fs::write(&broken, b"not weights").unwrap();
    let args = ["othello-accuracy", "--depth", "4", "--count", "12"];
    let built_in = run(&args);
    let tally = |out: &str| out.lines().last().unwrap().to_string();
    // The built-in weights read from a file play the same moves.
    let with_same = run(&[&args[..], &["--eval", same.to_str().unwrap()]].concat());
    assert_eq!(tally(&with_same), tally(&built_in));
    // Weights that value every position the other way round choose worse moves.
    let with_negated = run(&[&args[..], &["--eval", negated.to_str().unwrap()]].concat());
    let loss =
        |out: &str| -> f64 { tally(out).split_whitespace().nth(3).unwrap().trim_end_matches(',').parse().unwrap() };
    assert!(loss(&with_negated) > loss(&built_in) + 1.0, "{with_negated}\n{built_in}");
    // The standard error of a run that must fail.
    let refused = |extra: &[&str]| refused(&[&args[..], extra].concat());
    // A run kept with --out is resumed only with the same weights.
    let kept = dir.join("kept.jsonl");
    run(&[&args[..], &["--eval", same.to_str().unwrap(), "--out", kept.to_str().unwrap()]].concat());
    let err = refused(&["--out", kept.to_str().unwrap(), "--resume"]);
    assert!(err.contains("another run"), "{err}");
    // A file that is not a weights file is refused, naming it.
    let err = refused(&["--eval", broken.to_str().unwrap()]);
    assert!(err.contains("broken.bin"), "{err}");
}

#[test]
fn othello_accuracy_at_fixed_nodes_is_reproducible() {
    let a = run(&["othello-accuracy", "--nodes", "200000", "--count", "12"]);
    assert!(a.contains("12 positions, 200000 nodes per move, 1 thread"), "{a}");
    let b = run(&["othello-accuracy", "--nodes", "200000", "--count", "12"]);
    assert_eq!(a, b, "a node budget gives the same moves on every run");
}

/// Runs `sente ARGS` with `input` on stdin; returns success, stdout and stderr.
fn converse(args: &[&str], input: &str) -> (bool, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sente"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sente");
    // An engine that ended before reading closes the pipe: the assertions on its exit
    // and its output then say what it printed, rather than a bare broken pipe here.
    match child.stdin.take().unwrap().write_all(input.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("writing to sente: {e}"),
        _ => {}
    }
    let out = child.wait_with_output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn protocol_commands_start_with_arguments_they_do_not_know() {
    // As cutegames' sample settings and other tools start engines: flags of their own
    // appended (or put first), with or without a value.
    let ugi = ("query p1turn\nquit\n", "response true");
    let gtp = ("1 name\nquit\n", "=1 sente");
    let cases: &[(&[&str], (&str, &str))] = &[
        (&["--debug"], ugi),
        (&["--debug", "3"], ugi),
        (&["--debug=3", "-x"], ugi),
        (&["ugi", "--debug"], ugi),
        (&["gtp", "--debug"], gtp),
        (&["--debug", "gtp", "--game", "go", "--log", "file"], gtp),
        (&["nboard", "--debug"], ("nboard 2\nping 7\nquit\n", "pong 7")),
        (&["phantom", "--movetime", "10", "--debug"], ("name?\nquit\n", "name sente")),
        (&["analysis", "--debug"], (r#"{"id":"v","action":"query_version"}"#, r#""id":"v""#)),
    ];
    for (args, (input, reply)) in cases {
        let (ok, out, err) = converse(args, input);
        assert!(ok, "sente {args:?}: {err}");
        assert!(out.contains(reply), "sente {args:?} gave {out:?}; stderr {err}");
        let unknown = args.iter().find(|a| a.starts_with("--debug")).unwrap();
        assert!(
            err.contains(&format!("ignoring the argument {unknown}")) || err.contains(&format!("'{unknown}'")),
            "{err}"
        );
    }
    // A known option's bad value, a misspelt subcommand, and the offline tools (and
    // `phantom play`, a game for a person) stay strict.
    for args in [
        &["gtp", "--threads", "0"][..],
        &["fo"],
        &["ffo", "--debug"],
        &["perft", "othello", "3", "--debug"],
        &["arena", "--debug"],
        &["phantom", "play", "--debug"],
    ] {
        let (ok, _, err) = converse(args, "quit\n");
        assert!(!ok && err.starts_with("error: "), "sente {args:?}: {err}");
    }
}
