//! Nothing is lost: the arena and the long batch commands killed (SIGKILL) or stopped
//! (SIGTERM) at several moments and started again with `--resume` end with exactly
//! what one uninterrupted run of the same seed writes.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::untimed;
use serde_json::Value;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

/// A scratch folder of the test's own, removed when it passes.
fn scratch(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("resume-test-{name}"))
}

fn sente(args: &[String]) -> Command {
    let mut command = Command::new(SENTE);
    command.args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    command
}

/// Runs `sente args` to its end.
fn finish(args: &[String]) -> Output {
    sente(args).output().expect("run sente")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Starts `sente args`, waits until `ready` holds (or the run ends by itself: then
/// false), and kills it with `signal` (KILL or TERM); returns whether it was
/// signalled, and its output.
fn interrupt_when(args: &[String], signal: &str, ready: impl Fn() -> bool) -> (bool, Output) {
    interrupt_group_when(args, signal, false, ready)
}

/// [`interrupt_when`], the signal sent to sente's whole process group (its engines
/// too, as a terminal's Ctrl-C or `timeout` do) when `group`.
fn interrupt_group_when(args: &[String], signal: &str, group: bool, ready: impl Fn() -> bool) -> (bool, Output) {
    use std::os::unix::process::CommandExt;
    let mut command = sente(args);
    if group {
        command.process_group(0);
    }
    let mut child: Child = command.spawn().expect("start sente");
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut signalled = false;
    while Instant::now() < deadline {
        if child.try_wait().expect("poll").is_some() {
            break;
        }
        if ready() {
            let target = if group { format!("-{}", child.id()) } else { child.id().to_string() };
            let status = Command::new("kill").args([format!("-{signal}"), "--".into(), target]).status();
            assert!(status.expect("kill").success());
            signalled = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    (signalled, child.wait_with_output().expect("wait for sente"))
}

/// Complete lines of a file (0 if it does not exist).
fn lines(path: &Path) -> usize {
    std::fs::read(path).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
}

/// Appends the first half of `line` to `path`: what a kill during its write leaves.
fn tear(path: &Path, line: &str) {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new().append(true).open(path).expect("open for a torn write");
    file.write_all(&line.as_bytes()[..line.len() / 2]).expect("torn write");
}

// --- the arena ------------------------------------------------------------------

fn arena_args(out: &Path, concurrency: u32, resume: bool) -> Vec<String> {
    let mut args: Vec<String> =
        ["arena", "--rounds", "5", "--nodes", "2000", "--seed", "7"].iter().map(|s| s.to_string()).collect();
    args.extend(["--concurrency".into(), concurrency.to_string()]);
    args.extend(["--engine".into(), format!("name=a cmd={SENTE}")]);
    args.extend(["--engine".into(), format!("name=b cmd={SENTE} option.Hash=8")]);
    args.extend(["--out".into(), out.display().to_string()]);
    if resume {
        args.push("--resume".into());
    }
    args
}

/// The results by game number (each game once), and every record file's text.
fn arena_outcome(out: &Path) -> (Vec<Value>, Vec<(String, String)>) {
    let text = std::fs::read_to_string(out.join("results.jsonl")).expect("results");
    // Everything but the time each move took, which no two runs share.
    let mut rows: Vec<Value> = untimed::results(&text);
    rows.sort_by_key(|r| r["game"].as_u64());
    let games: Vec<u64> = rows.iter().map(|r| r["game"].as_u64().expect("game")).collect();
    assert_eq!(games, (0..10).collect::<Vec<_>>(), "every game exactly once");
    let mut records: Vec<(String, String)> = std::fs::read_dir(out.join("games"))
        .expect("records")
        .map(|e| {
            let path = e.expect("entry").path();
            let text = untimed::record(&std::fs::read_to_string(&path).unwrap());
            (path.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect();
    records.sort();
    (rows, records)
}

/// The outcome of one uninterrupted match in `dir/whole`.
fn one_arena_run(dir: &Path) -> (Vec<Value>, Vec<(String, String)>) {
    let whole = dir.join("whole");
    let run = finish(&arena_args(&whole, 1, false));
    assert!(run.status.success(), "{}", text(&run.stderr));
    arena_outcome(&whole)
}

#[test]
fn an_arena_match_killed_and_resumed_equals_one_run() {
    let dir = scratch("arena");
    let expected = one_arena_run(&dir);

    let cut = dir.join("cut");
    let results = cut.join("results.jsonl");
    // Killed before the first game ends.
    let (killed, _) = interrupt_when(&arena_args(&cut, 1, false), "KILL", || cut.join("games").exists());
    assert!(killed);
    assert_eq!(lines(&results), 0);
    // Resumed, and killed mid-match, two games at a time.
    let (killed, _) = interrupt_when(&arena_args(&cut, 2, true), "KILL", || lines(&results) >= 3);
    assert!(killed);
    let done = lines(&results);
    assert!((3..10).contains(&done), "{done}");
    // A kill during a write: half of a game's line.
    let half = serde_json::to_string(&expected.0[9]).unwrap();
    tear(&results, &half);
    // Stopped with SIGTERM: it stops cleanly and says how to resume.
    let (stopped, output) = interrupt_when(&arena_args(&cut, 1, true), "TERM", || lines(&results) > done);
    assert!(stopped);
    let stderr = text(&output.stderr);
    assert!(stderr.contains("dropped an incomplete last line"), "{stderr}");
    assert!(output.status.success(), "{stderr}");
    let stdout = text(&output.stdout);
    assert!(stdout.contains("interrupted") && stdout.contains("--resume"), "{stdout}");
    // Resumed to the end.
    let run = finish(&arena_args(&cut, 1, true));
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(arena_outcome(&cut), expected);
    // Nothing left half-written beside the records.
    assert!(
        std::fs::read_dir(cut.join("games")).unwrap().all(|e| !e
            .unwrap()
            .path()
            .to_string_lossy()
            .ends_with(".partial"))
    );
}

#[test]
fn an_arena_match_stopped_with_its_engines_records_no_crash() {
    // Ctrl-C in a terminal (or `timeout`) signals the engines with the arena: the
    // games they were playing are interrupted, not lost by the side that died first.
    let dir = scratch("group");
    let expected = one_arena_run(&dir);
    let cut = dir.join("cut");
    let results = cut.join("results.jsonl");
    for signal in ["INT", "TERM"] {
        let resume = signal == "TERM";
        let before = lines(&results);
        let (stopped, output) =
            interrupt_group_when(&arena_args(&cut, 2, resume), signal, true, || lines(&results) >= before + 2);
        assert!(stopped);
        assert!(output.status.success(), "{}", text(&output.stderr));
        let rows = std::fs::read_to_string(&results).expect("results");
        assert!(!rows.contains("crashed"), "{rows}");
    }
    let run = finish(&arena_args(&cut, 2, true));
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(arena_outcome(&cut).0, expected.0);
}

// --- the batch commands ---------------------------------------------------------

/// Kills and resumes a batch command run by `args(resume)` whose finished items
/// `done()` counts: SIGKILL once it has `started()` (before the first item ends),
/// SIGKILL after two items, `tear(items)` (a write cut off by a kill), SIGTERM after
/// one more item (it must say how to resume), then resumed to the end. Returns the
/// last run's standard output.
fn kill_and_resume(
    args: &dyn Fn(bool) -> Vec<String>,
    started: &dyn Fn() -> bool,
    done: &dyn Fn() -> usize,
    tear: &dyn Fn(usize),
    total: usize,
) -> String {
    let (killed, _) = interrupt_when(&args(false), "KILL", started);
    assert!(killed, "the first run ended before it could be killed");
    assert_eq!(done(), 0, "killed before its first item ended");
    let (killed, _) = interrupt_when(&args(true), "KILL", || done() >= 2);
    assert!(killed, "the second run ended before it could be killed");
    let items = done();
    assert!((2..total - 1).contains(&items), "{items} of {total}");
    tear(items);
    let (stopped, output) = interrupt_when(&args(true), "TERM", || done() > items);
    assert!(stopped, "the third run ended before it could be stopped");
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.contains("stopped") && stdout.contains("--resume"), "{stdout}");
    assert!(stderr.contains("dropped"), "the torn write is reported: {stderr}");
    assert!(done() < total, "stopped before the end");
    let run = finish(&args(true));
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(done(), total);
    text(&run.stdout)
}

/// Items in a results file with a header line.
fn items(path: &Path) -> usize {
    lines(path).saturating_sub(1)
}

/// The lines of a results file with the timing fields left out, and `shown` (the
/// printed text kept in `field`) passed through `untimed`.
fn untimed_results(path: &Path, field: &str, untimed: &dyn Fn(&str) -> String) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("results");
    text.lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).expect("a whole JSON line");
            if let Some(map) = v.as_object_mut() {
                map.remove("secs");
                map.remove("wall");
                if let Some(shown) = map.get(field).and_then(Value::as_str) {
                    let shown = untimed(shown);
                    map.insert(field.to_string(), Value::String(shown));
                }
            }
            v.to_string()
        })
        .collect()
}

/// A half of line `index` of `reference`, appended to `path`.
fn tear_like(path: &Path, reference: &Path, index: usize) {
    let text = std::fs::read_to_string(reference).expect("reference results");
    tear(path, text.lines().nth(index).expect("a line to tear"));
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

#[test]
fn train_othello_gen_killed_and_resumed_writes_the_same_data() {
    let dir = scratch("gen");
    let args = |out: &Path, resume: bool, threads: &str| {
        let mut a = strings(&["train-othello", "gen", "--games", "16", "--seed", "3", "--solve-empties", "18"]);
        a.extend(strings(&["--children-from", "16", "--label-min", "10", "--hash", "8", "--threads", threads]));
        a.extend(["--out".to_string(), out.display().to_string()]);
        if resume {
            a.push("--resume".into());
        }
        a
    };
    // Both data files already hold an earlier run's records, which stay.
    let earlier = vec![7u8; 36];
    let whole = dir.join("whole.dat");
    std::fs::write(&whole, &earlier).unwrap();
    let run = finish(&args(&whole, false, "1"));
    assert!(run.status.success(), "{}", text(&run.stderr));
    let progress = |data: &Path| PathBuf::from(format!("{}.progress", data.display()));

    let cut = dir.join("cut.dat");
    std::fs::write(&cut, &earlier).unwrap();
    let reference = std::fs::read(&whole).unwrap();
    let tear_game = |games: usize| {
        // A kill between a game's records and its progress line, and one in the
        // middle of the progress line.
        use std::io::Write;
        let now = std::fs::metadata(&cut).unwrap().len() as usize;
        let mut file = std::fs::OpenOptions::new().append(true).open(&cut).unwrap();
        file.write_all(&reference[now..now + 27]).unwrap();
        tear_like(&progress(&cut), &progress(&whole), games + 1);
    };
    let threads = std::cell::Cell::new("1");
    let runs = std::cell::Cell::new(0);
    let cut_args = |resume: bool| {
        // The second run plays two games at once.
        runs.set(runs.get() + 1);
        threads.set(if runs.get() == 2 { "2" } else { "1" });
        args(&cut, resume, threads.get())
    };
    kill_and_resume(&cut_args, &|| progress(&cut).exists(), &|| items(&progress(&cut)), &tear_game, 16);
    assert_eq!(std::fs::read(&cut).unwrap(), reference, "the same records, in the same order");
    assert_eq!(
        std::fs::read_to_string(progress(&cut)).unwrap().replace("cut.dat", ""),
        std::fs::read_to_string(progress(&whole)).unwrap().replace("whole.dat", "")
    );
    // Without --resume a recorded run is not appended to again.
    let run = finish(&args(&cut, false, "1"));
    assert!(!run.status.success() && text(&run.stderr).contains("--resume"));
}

/// An FFO table row or total line without its times.
fn ffo_untimed(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    if line.starts_with("total:") {
        return words[..7].join(" ");
    }
    if words.len() == 9 && words[0].starts_with('#') {
        return words[..7].join(" ");
    }
    line.to_string()
}

#[test]
fn ffo_killed_and_resumed_prints_the_same_table() {
    let dir = scratch("ffo");
    let problems = concat!(env!("CARGO_MANIFEST_DIR"), "/../ffo/problems/ffo_40_59.txt");
    let args = |out: &Path, resume: bool| {
        let mut a = strings(&["ffo", problems, "--only", "40,41,42,43,44", "--hash", "16"]);
        a.extend(["--out".to_string(), out.display().to_string()]);
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let whole = dir.join("whole.jsonl");
    let run = finish(&args(&whole, false));
    assert!(run.status.success(), "{}", text(&run.stderr));
    let cut = dir.join("cut.jsonl");
    let stdout = kill_and_resume(
        &|resume| args(&cut, resume),
        &|| cut.exists(),
        &|| items(&cut),
        &|n| tear_like(&cut, &whole, n + 1),
        5,
    );
    let table = |text: &str| text.lines().map(ffo_untimed).collect::<Vec<_>>();
    assert_eq!(table(&stdout), table(&text(&run.stdout)));
    assert_eq!(untimed_results(&cut, "row", &ffo_untimed), untimed_results(&whole, "row", &ffo_untimed));
}

/// A line of `chaosclock openings` without its times.
fn openings_untimed(line: &str) -> String {
    match line.split_once(" s per opening") {
        Some(_) => line.split(')').next().unwrap_or(line).to_string(),
        None => line
            .strip_suffix(" s")
            .map_or(line, |l| l.trim_end_matches(|c: char| c == '.' || c.is_ascii_digit() || c == ' '))
            .to_string(),
    }
}

#[test]
fn chaosclock_openings_killed_and_resumed_prints_the_same_deals() {
    let dir = scratch("openings");
    let args = |out: &Path, resume: bool| {
        let mut a = strings(&["chaosclock", "openings", "--count", "8", "--seed", "2", "--nodes", "100000"]);
        a.extend(strings(&["--max-states", "1", "--out", &out.display().to_string()]));
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let whole = dir.join("whole.jsonl");
    let run = finish(&args(&whole, false));
    assert!(run.status.success(), "{}", text(&run.stderr));
    let cut = dir.join("cut.jsonl");
    let stdout = kill_and_resume(
        &|resume| args(&cut, resume),
        &|| cut.exists(),
        &|| items(&cut),
        &|n| tear_like(&cut, &whole, n + 1),
        8,
    );
    let table = |text: &str| text.lines().map(openings_untimed).collect::<Vec<_>>();
    assert_eq!(table(&stdout), table(&text(&run.stdout)));
    assert_eq!(untimed_results(&cut, "line", &openings_untimed), untimed_results(&whole, "line", &openings_untimed));
}

#[test]
fn othello_accuracy_killed_and_resumed_prints_the_same_tally() {
    let dir = scratch("accuracy");
    let args = |out: &Path, resume: bool| {
        let mut a = strings(&["othello-accuracy", "--depth", "9", "--count", "20"]);
        a.extend(["--out".to_string(), out.display().to_string()]);
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let whole = dir.join("whole.jsonl");
    let run = finish(&args(&whole, false));
    assert!(run.status.success(), "{}", text(&run.stderr));
    let cut = dir.join("cut.jsonl");
    let stdout = kill_and_resume(
        &|resume| args(&cut, resume),
        &|| cut.exists(),
        &|| items(&cut),
        &|n| tear_like(&cut, &whole, n + 1),
        20,
    );
    assert_eq!(stdout, text(&run.stdout));
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), std::fs::read_to_string(&whole).unwrap());
}

#[test]
fn othello_accuracy_make_killed_and_stopped_goes_on_to_the_same_file() {
    let dir = scratch("make");
    let args = |file: &Path| {
        strings(&[
            "othello-accuracy",
            "--make",
            &file.display().to_string(),
            "--count",
            "4",
            "--seed",
            "3",
            "--hash",
            "16",
        ])
    };
    let whole = dir.join("whole.txt");
    let run = finish(&args(&whole));
    assert!(run.status.success(), "{}", text(&run.stderr));
    let cut = dir.join("cut.txt");
    // Killed after its first position, then a kill during a write.
    let (killed, _) = interrupt_when(&args(&cut), "KILL", || lines(&cut) >= 2);
    assert!(killed);
    let made = lines(&cut);
    assert!(made < 4, "{made}");
    tear_like(&cut, &whole, made);
    // Stopped with SIGTERM: it finishes the position under way and says so.
    let (stopped, output) = interrupt_when(&args(&cut), "TERM", || lines(&cut) > made);
    assert!(stopped);
    assert!(text(&output.stderr).contains("dropped an incomplete last line"), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(output.status.success() && stdout.contains("stopped"), "{stdout}");
    let run = finish(&args(&cut));
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), std::fs::read_to_string(&whole).unwrap());
}
