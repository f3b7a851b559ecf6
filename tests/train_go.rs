//! `sente train-go`: self-play games at fixed playouts appended to a games file (a
//! second run plays only the games the file lacks, and the same seed gives the same
//! games), and a fit whose model the engine can load and that beats the uniform model
//! on the held-out games; SGF records imported into a games file (the records that
//! cannot be used left out by name) and fitted past their opening moves; a teacher's
//! probabilities fitted instead of the moves played.

use std::process::Command;

use crate::common::Scratch;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

fn sente(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(SENTE).args(args).output().expect("run sente");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// `sente train-go gen` of `games` games at `playouts` playouts a move with `seed`,
/// into the games file `out`.
fn generate(games: &str, playouts: &str, seed: &str, out: &std::path::Path) -> (bool, String, String) {
    let out = out.to_str().expect("a UTF-8 path");
    sente(&["train-go", "gen", "--games", games, "--playouts", playouts, "--seed", seed, "--out", out])
}

#[test]
fn games_are_made_resumably_and_fitted() {
    let dir = Scratch::new("train-go");
    let games_path = dir.path().join("self.games");
    let games = games_path.to_str().expect("a UTF-8 path");
    let generate_up_to = |n: &str| generate(n, "60", "3", &games_path);
    let (ok, _, stderr) = generate_up_to("3");
    assert!(ok, "{stderr}");
    let first = std::fs::read_to_string(games).expect("the games file");
    assert_eq!(first.lines().count(), 3, "{first}");
    // Each line: the game's number, then its moves (GTP vertices or pass).
    for line in first.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(words[0].parse::<u64>().is_ok() && words.len() > 10, "{line}");
    }
    // Asked for 5, the run plays games 3 and 4 only; the first three stay as they were.
    let (ok, _, stderr) = generate_up_to("5");
    assert!(ok && stderr.contains("3 games in") && stderr.contains("2 to play"), "{stderr}");
    let all = std::fs::read_to_string(games).expect("the games file");
    assert!(all.starts_with(&first) && all.lines().count() == 5, "{all}");
    // A run stopped while writing leaves part of a line: the next run drops it and
    // plays that game again.
    let before = std::fs::read_to_string(games).expect("the games file");
    std::fs::write(games, format!("{before}5 E5 D")).expect("a partial line");
    let (ok, _, stderr) = generate_up_to("6");
    assert!(ok && stderr.contains("dropping a partly written last line"), "{stderr}");
    let all = std::fs::read_to_string(games).expect("the games file");
    assert!(all.starts_with(&before) && all.lines().count() == 6 && all.ends_with('\n'), "{all}");
    assert!(all.lines().last().is_some_and(|l| l.starts_with("5 ") && l.split_whitespace().count() > 10), "{all}");
    // The same seed in another file gives the same games.
    let again = dir.path().join("again.games");
    let (ok, _, _) = generate("3", "60", "3", &again);
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

/// A teacher file whose teacher names the move played with probability 1 gives the
/// model a games file of the same moves gives; a bad teacher line is refused with its
/// line and word.
#[test]
fn a_teacher_file_is_fitted_to_its_probabilities() {
    let dir = Scratch::new("train-go-teacher");
    let games = dir.path().join("self.games");
    let (ok, _, stderr) = generate("4", "60", "5", &games);
    assert!(ok, "{stderr}");
    let text = std::fs::read_to_string(&games).expect("the games file");
    let teacher_text: String = text
        .lines()
        .map(|line| {
            let mut words = line.split_whitespace();
            let number = words.next().expect("a number");
            let plies: Vec<String> = words.map(|m| format!("{m}|{m}:1.000")).collect();
            format!("{number} {}\n", plies.join(" "))
        })
        .collect();
    let teacher = dir.path().join("self.teacher");
    std::fs::write(&teacher, format!("# a comment\n{teacher_text}")).expect("the teacher file");
    let fit = |flag: &str, path: &std::path::Path, out: &str| {
        let out = dir.path().join(out);
        let (ok, stdout, stderr) = sente(&[
            "train-go",
            "fit",
            flag,
            path.to_str().unwrap(),
            "--iterations",
            "5",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(ok, "{stderr}");
        (stdout, std::fs::read_to_string(&out).expect("the model"))
    };
    let (from_games, games_model) = fit("--data", &games, "games.model");
    let (from_teacher, teacher_model) = fit("--teacher", &teacher, "teacher.model");
    assert_eq!(teacher_model, games_model);
    // The same figures; the teacher's file names its target so.
    assert_eq!(from_teacher.replace("the teacher's moves", "the move played"), from_games);
    assert!(from_teacher.contains("the teacher's moves"), "{from_teacher}");

    // A teacher that prefers other moves than those played gives another model: the
    // fit reads the teacher's probabilities, not the moves.
    let other_text: String = teacher_text
        .lines()
        .map(|line| {
            let mut words = line.split_whitespace();
            let number = words.next().expect("a number");
            let plies: Vec<String> = words
                .map(|w| {
                    let played = w.split('|').next().expect("a move");
                    format!("{played}|{played}:0.200,pass:0.800")
                })
                .collect();
            format!("{number} {}\n", plies.join(" "))
        })
        .collect();
    let other = dir.path().join("other.teacher");
    std::fs::write(&other, other_text).expect("the teacher file");
    let (_, other_model) = fit("--teacher", &other, "other.model");
    assert_ne!(other_model, games_model);
    let gamma = |model: &str, name: &str| -> f64 {
        let line =
            model.lines().find(|l| l.split_whitespace().nth(1) == Some(name)).unwrap_or_else(|| panic!("{name}"));
        line.split_whitespace().nth(2).and_then(|g| g.parse().ok()).expect("a gamma")
    };
    // The pass the teacher likes gets far stronger than in the games' model.
    assert!(gamma(&other_model, "passing:after-move") > 10.0 * gamma(&games_model, "passing:after-move"));

    // Refused, naming the line and the word: a move without its probabilities, a
    // probability above 1, a point off the board.
    for (line, word) in [("0 E5 D5|D5:1", "E5"), ("0 E5|E5:1.5", "1.5"), ("0 E5|Z9:0.5", "Z9")] {
        let bad = dir.path().join("bad.teacher");
        std::fs::write(&bad, format!("# first\n{line}\n")).unwrap();
        let (ok, _, stderr) = sente(&["train-go", "fit", "--teacher", bad.to_str().unwrap(), "--out", "/dev/null"]);
        assert!(!ok && stderr.contains("line 2") && stderr.contains(word), "{line}: {stderr}");
    }
    // --data and --teacher together are refused.
    let (ok, _, _) = sente(&[
        "train-go",
        "fit",
        "--data",
        games.to_str().unwrap(),
        "--teacher",
        teacher.to_str().unwrap(),
        "--out",
        "/dev/null",
    ]);
    assert!(!ok);
}

/// The SGF record of a games-file line's moves (GTP vertices: columns A–J without I,
/// rows from the bottom; SGF: letters from the top left).
fn sgf_of(moves: &[&str]) -> String {
    let mut text = String::from("(;FF[4]GM[1]SZ[9]KM[7]");
    for (i, mv) in moves.iter().enumerate() {
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        let point = if mv.eq_ignore_ascii_case("pass") {
            String::new()
        } else {
            let column = "ABCDEFGHJ".find(mv.as_bytes()[0] as char).expect("a column");
            let row: usize = mv[1..].parse().expect("a row");
            format!("{}{}", (b'a' + column as u8) as char, (b'a' + (9 - row) as u8) as char)
        };
        text.push_str(&format!(";{colour}[{point}]"));
    }
    text + ")"
}

#[test]
fn sgf_records_are_imported_and_fitted_past_their_openings() {
    let dir = Scratch::new("train-go-import");
    let games = dir.path().join("self.games");
    let (ok, _, stderr) = generate("3", "40", "5", &games);
    assert!(ok, "{stderr}");
    let made = std::fs::read_to_string(&games).expect("the games file");
    // Each game as an SGF record in a folder, with two records that cannot be used: a
    // 13×13 game and a game whose colours do not alternate.
    let records = dir.path().join("records");
    std::fs::create_dir_all(&records).unwrap();
    for line in made.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        std::fs::write(records.join(format!("{:0>3}.sgf", words[0])), sgf_of(&words[1..])).unwrap();
    }
    std::fs::write(records.join("100.sgf"), "(;FF[4]GM[1]SZ[13];B[aa];W[bb])").unwrap();
    std::fs::write(records.join("101.sgf"), "(;FF[4]GM[1]SZ[9];B[aa];B[bb])").unwrap();
    std::fs::write(records.join("notes.txt"), "not a record").unwrap();
    let imported = dir.path().join("imported.games");
    let (ok, stdout, stderr) =
        sente(&["train-go", "import", records.to_str().unwrap(), "--out", imported.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("3 games") && stdout.contains("2 records left out"), "{stdout}");
    assert!(stderr.contains("100.sgf") && stderr.contains("13×13") && stderr.contains("101.sgf"), "{stderr}");
    // The same games, numbered in the records' name order (passes as `pass`).
    let back = std::fs::read_to_string(&imported).expect("the imported games");
    assert_eq!(back.to_lowercase(), made.to_lowercase());

    // Fitted past the first 10 plies of each game: 10 fewer moves a game.
    let fit = |skip: &str| {
        let model = dir.path().join("model.txt");
        let (ok, stdout, stderr) = sente(&[
            "train-go",
            "fit",
            "--data",
            imported.to_str().unwrap(),
            "--iterations",
            "3",
            "--skip-plies",
            skip,
            "--out",
            model.to_str().unwrap(),
        ]);
        assert!(ok, "{stderr}");
        let line = stdout.lines().find(|l| l.starts_with("fit to ")).unwrap_or_else(|| panic!("{stdout}"));
        let count = |after: &str| -> usize {
            let at = line.find(after).unwrap_or_else(|| panic!("{line}"));
            line[..at].split_whitespace().last().and_then(|w| w.parse().ok()).unwrap_or_else(|| panic!("{line}"))
        };
        count(" moves of") + count(" moves of 1 games")
    };
    let (all, later) = (fit("0"), fit("10"));
    assert!(all > 60 && later + 30 <= all, "{all} {later}");
    // No SGF file at all is an error.
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (ok, _, stderr) = sente(&["train-go", "import", empty.to_str().unwrap(), "--out", "/dev/null"]);
    assert!(!ok && stderr.contains("no SGF files"), "{stderr}");
}
