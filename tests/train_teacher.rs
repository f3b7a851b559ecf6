//! `sente train-othello teach`: training positions relabelled by an engine over NBoard.
//! The teacher here is `sente nboard` at a depth that solves the positions of few
//! empties, so its labels must equal the exact labels `gen` wrote (with NTest as the
//! teacher the same check was run by hand: docs/othello-solver.md).

use std::path::Path;
use std::process::Command;

use crate::common;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

/// Runs `sente` with `args`; returns (success, stdout, stderr).
fn sente(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(SENTE).args(args).output().expect("run sente");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// The records of a data file: (position bytes, score, exact).
fn records(path: &Path) -> Vec<([u8; 16], i8, bool)> {
    let bytes = std::fs::read(path).expect("a data file");
    assert_eq!(bytes.len() % 18, 0, "{} is whole records", path.display());
    bytes.chunks(18).map(|c| (c[..16].try_into().expect("16 bytes"), c[16] as i8, c[17] == 1)).collect()
}

fn empties(position: &[u8; 16]) -> u32 {
    let word = |k: usize| u64::from_le_bytes(position[k..k + 8].try_into().expect("8 bytes"));
    (!(word(0) | word(8))).count_ones()
}

/// A small data file made by `gen` (exact labels from 14 empties), and the same
/// records with every `exact` flag off, so that the teacher values them too.
fn data(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let made = dir.join("made.dat");
    let (ok, _, err) = sente(&[
        "train-othello",
        "gen",
        "--games",
        "2",
        "--seed",
        "3",
        "--solve-empties",
        "14",
        "--children-from",
        "12",
        "--label-min",
        "8",
        "--label-depth",
        "6",
        "--hash",
        "8",
        "--out",
        made.to_str().expect("a path"),
    ]);
    assert!(ok, "{err}");
    let mut bytes = std::fs::read(&made).expect("gen's data");
    for flag in bytes.iter_mut().skip(17).step_by(18) {
        *flag = 0;
    }
    let unflagged = dir.join("unflagged.dat");
    std::fs::write(&unflagged, bytes).expect("write");
    (made, unflagged)
}

fn teach(data: &Path, out: &Path, extra: &[&str]) -> (bool, String, String) {
    let teacher = format!("name=self cmd='{SENTE} nboard' proto=nboard option.depth=20");
    let mut args = vec!["train-othello", "teach", "--data", data.to_str().expect("path")];
    args.extend(["--out", out.to_str().expect("path"), "--engine", &teacher, "--max-empties", "14"]);
    if !extra.contains(&"--min-empties") {
        args.extend(["--min-empties", "0"]);
    }
    args.extend(extra);
    sente(&args)
}

#[test]
fn a_teacher_that_solves_gives_the_exact_labels_and_leaves_the_rest() {
    let dir = common::Scratch::new("teach-exact");
    let (made, unflagged) = data(&dir);
    let out = dir.join("taught.dat");
    let (ok, stdout, err) = teach(&unflagged, &out, &["--threads", "2"]);
    assert!(ok, "{err}");
    let (before, after) = (records(&made), records(&out));
    assert_eq!(before.len(), after.len());
    let mut valued = 0;
    for (i, (b, a)) in before.iter().zip(&after).enumerate() {
        assert_eq!(a.0, b.0, "record {i}: the same position, in the same place");
        assert!(!a.2, "record {i}: the output's labels are not exact");
        if empties(&b.0) <= 14 {
            assert!(b.2, "gen solved record {i} ({} empties)", empties(&b.0));
            assert_eq!(a.1, b.1, "record {i}: the teacher's value is the exact one");
            valued += 1;
        } else {
            assert_eq!(a.1, b.1, "record {i} is outside --max-empties and keeps its label");
        }
    }
    assert!(valued >= 40, "{valued} positions valued");
    assert!(stdout.contains(&format!("({valued} valued by the teacher")), "{stdout}");
    // Positions gen had solved keep their exact label without asking the teacher.
    let again = dir.join("again.dat");
    let (ok, stdout, err) = teach(&made, &again, &[]);
    assert!(ok, "{err}");
    assert!(stdout.contains("(0 valued"), "{stdout}");
    assert_eq!(std::fs::read(&again).expect("out"), std::fs::read(&made).expect("in"));
}

#[test]
fn a_stopped_run_is_continued_by_the_same_command() {
    let dir = common::Scratch::new("teach-resume");
    let (_, unflagged) = data(&dir);
    let whole = dir.join("whole.dat");
    assert!(teach(&unflagged, &whole, &[]).0);

    let parts = dir.join("parts.dat");
    let (ok, stdout, err) = teach(&unflagged, &parts, &["--limit", "7"]);
    assert!(ok, "{err}");
    assert!(stdout.contains("(7 valued") && stdout.contains("the same command continues"), "{stdout}");
    let first = records(&parts).len();
    assert!(first > 0 && first < records(&whole).len(), "{first} records after the first part");
    // A write torn by a kill: part of a record at the end is cut off and redone.
    let mut torn = std::fs::read(&parts).expect("out");
    torn.extend_from_slice(&[5u8; 11]);
    std::fs::write(&parts, torn).expect("write");
    let (ok, stdout, err) = teach(&unflagged, &parts, &["--threads", "3"]);
    assert!(ok, "{err}");
    assert!(!stdout.contains("continues"), "{stdout}");
    assert_eq!(std::fs::read(&parts).expect("out"), std::fs::read(&whole).expect("whole"));
}

#[test]
fn bad_runs_are_refused_with_the_reason() {
    let dir = common::Scratch::new("teach-bad");
    let (made, unflagged) = data(&dir);
    // An output that holds other positions is not continued.
    let other = dir.join("other.dat");
    let mut bytes = std::fs::read(&made).expect("in");
    bytes.copy_within(18..36, 0);
    std::fs::write(&other, &bytes).expect("write");
    let (ok, _, err) = teach(&unflagged, &other, &[]);
    assert!(!ok && err.contains("not a relabelling"), "{err}");
    assert_eq!(std::fs::read(&other).expect("kept"), bytes, "the file is left as it was");
    // The teacher must speak NBoard; the empties' range must be one.
    let ugi = format!("name=u cmd='{SENTE}' proto=ugi");
    let out = dir.join("out.dat");
    let args = ["train-othello", "teach", "--data", unflagged.to_str().expect("path"), "--out"];
    let (ok, _, err) = sente(&[&args[..], &[out.to_str().expect("path"), "--engine", &ugi]].concat());
    assert!(!ok && err.contains("must speak NBoard"), "{err}");
    let (ok, _, err) = teach(&unflagged, &out, &["--min-empties", "20"]);
    assert!(!ok && err.contains("--min-empties 20 is above --max-empties 14"), "{err}");
    // A data file that is not whole records.
    let broken = dir.join("broken.dat");
    std::fs::write(&broken, [1u8; 20]).expect("write");
    let (ok, _, err) = teach(&broken, &out, &[]);
    assert!(!ok && err.contains("not a whole number"), "{err}");
}
