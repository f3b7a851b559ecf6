//! The arena's files as a user edits, copies and damages them: `arena report`,
//! `arena merge`, `arena compare` and `--resume` read `results.jsonl` and `match.json`
//! through one reader and refuse the same bad rows, naming the file, the line and the
//! problem; a match of 10^9 rounds starts at once; `report --out` on a folder leaves
//! nothing behind.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");
/// Engines that cannot start: each game ends at once, by a fault.
const GHOST_A: &str = "name=a cmd=/no/such/engine-a";
const GHOST_B: &str = "name=b cmd=/no/such/engine-b";

fn scratch(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("arena-files-{name}"))
}

/// Runs `sente arena` with `args`, killed after `limit`; returns (success, stdout,
/// stderr), or `None` if it was still running at the limit.
fn arena_within(args: &[&str], limit: Duration) -> Option<(bool, String, String)> {
    let mut child = Command::new(SENTE)
        .arg("arena")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sente arena");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    Some((
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    ))
}

fn arena(args: &[&str]) -> (bool, String, String) {
    arena_within(args, Duration::from_secs(60)).expect("sente arena ends within a minute")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// A match of the two ghosts, 2 rounds (4 games), into `out`.
fn ghost_match(out: &Path) {
    let args = ["--rounds", "2", "--seed", "7", "--st", "0.05", "--engine", GHOST_A, "--engine", GHOST_B];
    let (ok, stdout, stderr) = arena(&[&args[..], &["--out", path(out)]].concat());
    assert!(ok, "{stdout}{stderr}");
}

/// `row` with `field` set to `value`, as a line.
fn edited(row: &str, field: &str, value: Value) -> String {
    let mut v: Value = serde_json::from_str(row).expect("a JSON line");
    v[field] = value;
    v.to_string()
}

/// Copies the match folder `from` into `to` with `lines` as its results, and its
/// settings if `settings`.
fn variant(from: &Path, to: &Path, lines: &[String], settings: bool) {
    std::fs::create_dir_all(to).expect("mkdir");
    std::fs::write(to.join("results.jsonl"), lines.join("\n") + "\n").expect("results");
    if settings {
        std::fs::copy(from.join("match.json"), to.join("match.json")).expect("match.json");
    }
}

#[test]
fn report_merge_compare_and_resume_refuse_the_same_bad_rows() {
    let dir = scratch("rows");
    let good = dir.join("good");
    ghost_match(&good);
    let lines: Vec<String> =
        std::fs::read_to_string(good.join("results.jsonl")).expect("results").lines().map(String::from).collect();
    assert_eq!(lines.len(), 4);
    let with_row = |i: usize, row: String| {
        let mut l = lines.clone();
        l[i] = row;
        l
    };
    let appended = |row: String| {
        let mut l = lines.clone();
        l.push(row);
        l
    };
    let score = |i: usize, v: f64| with_row(i, edited(&lines[i], "score_a", serde_json::json!(v)));
    let cases: Vec<(&str, Vec<String>, &str)> = vec![
        ("duplicated", appended(lines[0].clone()), "line 5: game 0 again (it is on line 1 already)"),
        (
            "renumbered",
            with_row(0, edited(&lines[0], "game", 2.into())),
            "line 3: game 2 again (it is on line 1 already)",
        ),
        ("third-engine", with_row(2, edited(&lines[2], "first", "c".into())), "line 3: game 2 is c against b"),
        ("score-minus-7", score(1, -7.0), "line 2: game 1: score_a -7 is not"),
        ("score-1e308", score(3, 1e308), "line 4: game 3: score_a 100000000"),
        ("score-half-of-a-win", score(0, 0.5), "line 1: game 0: score_a 0.5 is not"),
        ("two-openings", with_row(1, edited(&lines[1], "opening", 5.into())), "line 2: game 1 was played on opening 5"),
    ];
    for (name, rows, message) in &cases {
        for settings in [false, true] {
            let bad = dir.join(format!("{name}-{settings}"));
            variant(&good, &bad, rows, settings);
            let results = bad.join("results.jsonl");
            let at = format!("{}", results.display());
            let check = |what: &str, (ok, stdout, stderr): (bool, String, String)| {
                assert!(
                    !ok && stderr.contains(&at) && stderr.contains(message),
                    "{what} of {name} (match.json: {settings}): {stdout}{stderr}"
                );
            };
            check("report", arena(&["report", path(&bad)]));
            assert!(!bad.join("report.html").exists(), "{name}: no page of a refused file");
            check("merge", arena(&["merge", path(&results)]));
            check("compare", arena(&["compare", path(&bad), path(&good)]));
            check("compare", arena(&["compare", path(&good), path(&bad)]));
            let resume = ["--rounds", "2", "--seed", "7", "--st", "0.05", "--resume", "--out", path(&bad)];
            check("resume", arena(&[&resume[..], &["--engine", GHOST_A, "--engine", GHOST_B]].concat()));
        }
    }
    // The untouched folder still reads.
    let (ok, stdout, stderr) = arena(&["report", path(&good)]);
    assert!(ok, "{stdout}{stderr}");
}

#[test]
fn match_settings_that_cannot_be_a_match_are_refused_at_once() {
    let dir = scratch("settings");
    let good = dir.join("good");
    ghost_match(&good);
    let settings: Value =
        serde_json::from_str(&std::fs::read_to_string(good.join("match.json")).expect("match.json")).expect("JSON");
    let lines: Vec<String> =
        std::fs::read_to_string(good.join("results.jsonl")).expect("results").lines().map(String::from).collect();
    let mut third = settings.clone();
    third["engines"].as_array_mut().expect("engines").push(settings["engines"][0].clone());
    let cases = [
        ("rounds-max", serde_json::json!(u64::MAX), "rounds 18446744073709551615: a match has at most"),
        ("rounds-2-pow-63", serde_json::json!(1u64 << 63), "a match has at most"),
    ];
    let mut folders = Vec::new();
    for (name, rounds, message) in cases {
        let mut s = settings.clone();
        s["rounds"] = rounds;
        folders.push((name, s, message));
    }
    folders.push(("three-engines", third, "3 engines, not two"));
    for (name, s, message) in folders {
        let bad = dir.join(name);
        variant(&good, &bad, &lines, false);
        std::fs::write(bad.join("match.json"), s.to_string()).expect("match.json");
        let results = bad.join("results.jsonl");
        for args in
            [vec!["report", path(&bad)], vec!["merge", path(&results)], vec!["compare", path(&bad), path(&good)]]
        {
            let Some((ok, stdout, stderr)) = arena_within(&args, Duration::from_secs(20)) else {
                panic!("{name}: {args:?} still running after 20 s");
            };
            assert!(
                !ok && stderr.contains("match.json") && stderr.contains(message),
                "{name} {args:?}: {stdout}{stderr}"
            );
        }
    }
}

/// A child process killed when dropped (a failed test leaves none running).
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
            self.0.kill().ok();
            self.0.wait().ok();
        }
    }
}

#[test]
fn a_match_of_a_billion_rounds_starts_at_once_and_its_folder_reads() {
    let dir = scratch("billion");
    let out = dir.join("out");
    let mut running = Running(
        Command::new(SENTE)
            .args([
                "arena",
                "--rounds",
                "1000000000",
                "--st",
                "0.05",
                "--engine",
                GHOST_A,
                "--engine",
                GHOST_B,
                "--out",
            ])
            .arg(&out)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("run sente arena"),
    );
    let child = &mut running.0;
    // Games are played (each ends at once: the ghosts cannot start) within seconds.
    let start = Instant::now();
    let played = || std::fs::read_to_string(out.join("results.jsonl")).map_or(0, |t| t.lines().count());
    while played() < 4 && start.elapsed() < Duration::from_secs(30) {
        assert!(child.try_wait().expect("wait").is_none(), "the match ended early");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(played() >= 4, "no games in 30 s");
    // Constant memory: the schedule and the openings are not listed up front.
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
    let peak_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0);
    assert!(peak_kib < 200 * 1024, "peak resident memory {peak_kib} KiB");
    // SIGTERM stops it as Ctrl-C does: the games finished are kept.
    Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill");
    let status = child.wait().expect("wait");
    assert!(status.success(), "{status:?}");
    // Its match.json and results read at once.
    let Some((ok, stdout, stderr)) = arena_within(&["report", path(&out)], Duration::from_secs(20)) else {
        panic!("report still running after 20 s");
    };
    assert!(ok, "{stdout}{stderr}");
    let page = std::fs::read_to_string(out.join("report.html")).expect("page");
    assert!(page.contains(" of 2000000000 games"), "the page says how many games are scheduled");
}

#[test]
fn report_out_on_a_folder_is_refused_and_leaves_nothing_behind() {
    let dir = scratch("report-out");
    let good = dir.join("good");
    ghost_match(&good);
    let folder = dir.join("pages");
    std::fs::create_dir_all(&folder).expect("mkdir");
    std::fs::write(folder.join("keep.txt"), "mine").expect("write");
    let (ok, stdout, stderr) = arena(&["report", path(&good), "--out", path(&folder)]);
    assert!(!ok && stderr.contains(&format!("{} is a folder", folder.display())), "{stdout}{stderr}");
    assert!(!dir.join("pages.partial").exists(), "a temporary file left behind");
    assert_eq!(std::fs::read_to_string(folder.join("keep.txt")).expect("kept"), "mine");
    assert_eq!(std::fs::read_dir(&dir).expect("list").count(), 2, "only good/ and pages/");
    // A file path is written, and written again over the old page.
    let page = dir.join("page.html");
    for _ in 0..2 {
        let (ok, stdout, stderr) = arena(&["report", path(&good), "--out", path(&page)]);
        assert!(ok && page.is_file(), "{stdout}{stderr}");
    }
    assert!(!dir.join("page.html.partial").exists());
}
