//! The seed-001 homework: the seven examples reproduce the official answers, the
//! pictures are written, and bad files are reported with file and line.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The homework's files, carried by the repository (`tests/data/go_homework/`).
fn homework() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/go_homework")
}

fn sente(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sente")).args(args).output().expect("run sente")
}

/// A scratch folder of the test's own (removed when it passes) and a path in it
/// that does not exist yet.
fn temp_dir(name: &str) -> (common::Scratch, PathBuf) {
    let scratch = common::Scratch::new(name);
    let dir = scratch.join("out");
    (scratch, dir)
}

/// Counts the stones drawn in an SVG picture.
fn stones_in(svg: &str) -> (usize, usize) {
    let black = svg.matches(r#"r="17" fill="black""#).count();
    let white = svg.matches(r#"r="17" fill="white""#).count();
    (black, white)
}

#[test]
fn the_seven_examples_reproduce_the_official_answers() {
    let (_scratch, out) = temp_dir("homework");
    let run = sente(&["go-homework", homework().to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let log = String::from_utf8_lossy(&run.stdout);
    assert!(log.contains("skipped") && log.contains("student_extra: a folder"), "{log}");
    let ours = std::fs::read_to_string(out.join("answers.txt")).unwrap();
    let official = std::fs::read_to_string(homework().join("answer_for_train.txt")).unwrap().replace("\r\n", "\n");
    assert_eq!(ours, official);

    // Pictures: the initial board of every problem and one per capturing move.
    for name in ["train_0", "train_00", "train_1", "train_2", "train_3", "train_4", "train_5"] {
        let svg = std::fs::read_to_string(out.join(format!("{name}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        let stones = std::fs::read_to_string(homework().join(format!("{name}.txt"))).unwrap();
        let black = stones.lines().filter(|l| l.trim_end().ends_with("-1")).count();
        let white = stones.lines().filter(|l| !l.trim().is_empty()).count() - black;
        assert_eq!(stones_in(&svg), (black, white), "{name}.svg");
    }
    for (name, r, c, taken) in [
        ("train_1", 4, 3, None),
        ("train_2", 7, 1, None),
        ("train_3", 2, 3, None),
        ("train_3", 4, 6, Some(1)),
        ("train_4", 6, 8, None),
    ] {
        let file = out.join(format!("{name}_capture_{r}_{c}.svg"));
        let svg = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(svg.contains("stroke=\"red\""), "the move and the captures are marked");
        if let Some(n) = taken {
            assert!(svg.contains(&format!("captures {n}")));
        }
    }
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn one_file_a_forced_task_and_the_extra_problems() {
    let (_scratch, out) = temp_dir("homework-extra");
    let extra = homework().join("student_extra");
    // Their names give no task: skipped without --task, answered with it.
    let run = sente(&["go-homework", extra.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&run.stdout).contains("gives no task"));
    let run = sente(&["go-homework", extra.to_str().unwrap(), "--out", out.to_str().unwrap(), "--task", "all"]);
    assert!(run.status.success());
    let answers = std::fs::read_to_string(out.join("answers.txt")).unwrap();
    assert_eq!(answers.matches("rule check: ").count(), 3, "{answers}");
    // A single file with its task forced.
    let file = homework().join("train_2.txt");
    let run = sente(&["go-homework", file.to_str().unwrap(), "--out", out.to_str().unwrap(), "--task", "legal"]);
    assert!(run.status.success());
    let legal = std::fs::read_to_string(out.join("answers.txt")).unwrap();
    assert!(legal.starts_with("train_2\n") && legal.contains("\n7 1\n"), "{legal}");
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn bad_files_are_reported_with_file_and_line() {
    let (_scratch, dir) = temp_dir("homework-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("bad_1.txt", "0 0 -1\n1 2\n", "line 2: expected 'row col color'"),
        ("bad_2.txt", "0 0 -1\n9 9 1\n", "line 2: point (9, 9) is off the 9x9 board"),
        ("bad_3.txt", "4 4 1\n4 4 -1\n", "line 2: a second stone on (4, 4)"),
        ("bad_4.txt", "4 4 0\n", "line 1: colour 0 is neither"),
    ];
    for (name, text, _) in &cases {
        std::fs::write(dir.join(name), text).unwrap();
    }
    std::fs::write(dir.join("good_5.txt"), "0 0 -1\n").unwrap();
    let out = dir.join("out");
    let run = sente(&["go-homework", dir.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!run.status.success(), "errors make the command fail");
    // Errors go to standard error, the answers' summary to standard output.
    let log = String::from_utf8_lossy(&run.stderr);
    assert!(!String::from_utf8_lossy(&run.stdout).contains("error:"), "{run:?}");
    for (name, _, message) in &cases {
        assert!(log.lines().any(|l| l.contains(name) && l.contains(message)), "{name}: {log}");
    }
    // The good file is still answered.
    let answers = std::fs::read_to_string(out.join("answers.txt")).unwrap();
    assert!(answers.starts_with("good_5\n"), "{answers}");
    assert!(Path::new(&out.join("good_5.svg")).exists());
    std::fs::remove_dir_all(&dir).ok();
}
