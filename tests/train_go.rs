//! `sente train-go`: self-play games at fixed playouts appended to a games file (a
//! second run plays only the games the file lacks, and the same seed gives the same
//! games), and a fit whose model the engine can load and that beats the uniform model
//! on the held-out games.

use std::process::Command;

use crate::common::Scratch;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

fn sente(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(SENTE).args(args).output().expect("run sente");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn games_are_made_resumably_and_fitted() {
    let dir = Scratch::new("train-go");
    let games = dir.path().join("self.games");
    let games = games.to_str().expect("a UTF-8 path");
    let generate =
        |n: &str| sente(&["train-go", "gen", "--games", n, "--playouts", "60", "--seed", "3", "--out", games]);
    let (ok, _, stderr) = generate("3");
    assert!(ok, "{stderr}");
    let first = std::fs::read_to_string(games).expect("the games file");
    assert_eq!(first.lines().count(), 3, "{first}");
    // Each line: the game's number, then its moves (GTP vertices or pass).
    for line in first.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(words[0].parse::<u64>().is_ok() && words.len() > 10, "{line}");
    }
    // Asked for 5, the run plays games 3 and 4 only; the first three stay as they were.
    let (ok, _, stderr) = generate("5");
    assert!(ok && stderr.contains("3 games in") && stderr.contains("2 to play"), "{stderr}");
    let all = std::fs::read_to_string(games).expect("the games file");
    assert!(all.starts_with(&first) && all.lines().count() == 5, "{all}");
    // A run stopped while writing leaves part of a line: the next run drops it and
    // plays that game again.
    let before = std::fs::read_to_string(games).expect("the games file");
    std::fs::write(games, format!("{before}5 E5 D")).expect("a partial line");
    let (ok, _, stderr) = generate("6");
    assert!(ok && stderr.contains("dropping a partly written last line"), "{stderr}");
    let all = std::fs::read_to_string(games).expect("the games file");
    assert!(all.starts_with(&before) && all.lines().count() == 6 && all.ends_with('\n'), "{all}");
    assert!(all.lines().last().is_some_and(|l| l.starts_with("5 ") && l.split_whitespace().count() > 10), "{all}");
    // The same seed in another file gives the same games.
    let again = dir.path().join("again.games");
    let (ok, _, _) = sente(&[
        "train-go",
        "gen",
        "--games",
        "3",
        "--playouts",
        "60",
        "--seed",
        "3",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(ok);
    assert_eq!(std::fs::read_to_string(&again).expect("the games file"), first);

    let model = dir.path().join("model.txt");
    let (ok, stdout, stderr) = sente(&[
        "train-go",
        "fit",
        "--data",
        games,
        "--iterations",
        "5",
        "--holdout-percent",
        "20",
        "--out",
        model.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    // "held out -1.9 (uniform -3.9)": the model beats the uniform model.
    let line = stdout.lines().find(|l| l.contains("held out -")).unwrap_or_else(|| panic!("{stdout}"));
    let numbers: Vec<f64> = line
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter_map(|w| w.parse().ok())
        .filter(|x: &f64| *x < 0.0)
        .collect();
    assert!(numbers.len() >= 2 && numbers[0] > numbers[1], "{line}");
    let text = std::fs::read_to_string(&model).expect("the model");
    assert!(search::go::move_model::MoveModel::load(&text).is_ok(), "{text}");

    // A bad games file is refused with its line.
    std::fs::write(dir.path().join("bad.games"), "0 E5 Z9\n").unwrap();
    let bad = dir.path().join("bad.games");
    let (ok, _, stderr) = sente(&["train-go", "fit", "--data", bad.to_str().unwrap(), "--out", "/dev/null"]);
    assert!(!ok && stderr.contains("line 1") && stderr.contains("Z9"), "{stderr}");
}
