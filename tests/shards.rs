//! `--shard i/n` and `merge` of the long batch commands (`train-othello gen`,
//! `chaosclock openings`): the shards of a run, merged, are what one unsharded run
//! writes (training data byte for byte, openings results but for their times); a
//! merge of shards that do not make up one finished run is refused with the reason,
//! and a stopped shard is finished with `--resume`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

/// Small, quick training games (a few hundred positions in all), seed 1 unless told.
const GEN: &[&str] = &[
    "train-othello",
    "gen",
    "--games",
    "7",
    "--solve-empties",
    "12",
    "--children-from",
    "10",
    "--label-min",
    "8",
    "--hash",
    "4",
];

/// A scratch folder of the test's own, removed when it passes.
fn scratch(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("shards-test-{name}"))
}

/// Runs `sente` with `args`; returns (success, stdout, stderr).
fn sente(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(SENTE).args(args).output().expect("run sente");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// `train-othello gen` with the small settings and `extra` arguments.
fn gen_run(extra: &[&str]) {
    let args: Vec<&str> = GEN.iter().copied().chain(extra.iter().copied()).collect();
    let (ok, _, stderr) = sente(&args);
    assert!(ok, "{args:?}: {stderr}");
}

#[test]
fn sharded_training_data_merges_into_the_bytes_of_one_run() {
    let dir = scratch("gen");
    let whole = dir.join("whole.dat");
    gen_run(&["--out", path(&whole), "--threads", "1"]);
    let bytes = std::fs::read(&whole).expect("the unsharded data");
    assert!(bytes.len() > 18 * 100, "{} bytes", bytes.len());
    // Several threads finish games out of order; the file is still in game order.
    let threaded = dir.join("threaded.dat");
    gen_run(&["--out", path(&threaded), "--threads", "3"]);
    assert!(std::fs::read(&threaded).unwrap() == bytes, "--threads 3 wrote other bytes than --threads 1");

    for n in [1, 3, 8] {
        let shards: Vec<PathBuf> = (0..n).map(|i| dir.join(format!("shard-{i}-of-{n}.dat"))).collect();
        for (i, file) in shards.iter().enumerate() {
            gen_run(&["--out", path(file), "--shard", &format!("{i}/{n}"), "--threads", "2"]);
        }
        // Given in any order.
        let merged = dir.join(format!("merged-{n}.dat"));
        let mut args = vec!["train-othello", "merge", "--out", path(&merged)];
        args.extend(shards.iter().rev().map(|p| path(p)));
        let (ok, stdout, stderr) = sente(&args);
        assert!(ok, "{stderr}");
        assert!(stdout.contains(&format!("{n} shards, 7 games")), "{stdout}");
        assert!(std::fs::read(&merged).unwrap() == bytes, "{n} shards merged differ from one run");
    }
}

#[test]
fn a_merge_that_is_not_one_finished_run_is_refused() {
    let dir = scratch("gen-refused");
    let shard = |i: u64, seed: &str| {
        let file = dir.join(format!("s{i}-seed{seed}.dat"));
        gen_run(&["--out", path(&file), "--shard", &format!("{i}/2"), "--seed", seed]);
        file
    };
    let (a, b, other_seed) = (shard(0, "1"), shard(1, "1"), shard(1, "4"));
    let merge = |files: &[&Path], out: &str| {
        let out = dir.join(out);
        let mut args = vec!["train-othello", "merge", "--out", path(&out)];
        args.extend(files.iter().map(|p| path(p)));
        let (ok, _, stderr) = sente(&args);
        assert!(!ok, "{files:?} merged");
        assert!(!out.exists() || std::fs::metadata(&out).unwrap().len() == 0, "a refused merge wrote data");
        stderr
    };
    assert!(merge(&[&a], "m1").contains("shard 1/2 is missing"));
    assert!(merge(&[&a, &a, &b], "m2").contains("given twice"));
    assert!(merge(&[&a, &other_seed], "m3").contains("different runs"));
    // Not a shard's file: a run without --shard, and data without a progress file.
    let plain = dir.join("plain.dat");
    gen_run(&["--out", path(&plain)]);
    assert!(merge(&[&plain], "m4").contains("gen --shard"));
    let bare = dir.join("bare.dat");
    std::fs::copy(&a, &bare).unwrap();
    assert!(merge(&[&bare], "m4b").contains("gen --shard"));
    // A shard stopped by a kill after writing its last game's records but not its
    // progress line; then one stopped a game earlier. `--resume` finishes it.
    let progress = format!("{}.progress", path(&b));
    let before = std::fs::read_to_string(&progress).unwrap();
    let kept: Vec<&str> = before.lines().collect();
    let end_before: serde_json::Value = serde_json::from_str(kept[kept.len() - 2]).unwrap();
    let end_before = end_before["end"].as_u64().unwrap() as usize;
    std::fs::write(&progress, kept[..kept.len() - 1].join("\n") + "\n").unwrap();
    let data = std::fs::read(&b).unwrap();
    assert!(merge(&[&a, &b], "m5").contains("was the shard stopped?"));
    std::fs::write(&b, &data[..end_before]).unwrap();
    assert!(merge(&[&a, &b], "m6").contains("finish that shard first"));
    gen_run(&["--out", path(&b), "--shard", "1/2", "--seed", "1", "--resume"]);
    assert!(std::fs::read(&b).unwrap() == data && std::fs::read_to_string(&progress).unwrap() == before);
    // A merge never overwrites data, and a shard never appends to it.
    let before = std::fs::read(&plain).unwrap();
    let (ok, _, stderr) = sente(&["train-othello", "merge", "--out", path(&plain), path(&a)]);
    assert!(!ok && stderr.contains("already holds data"), "{stderr}");
    assert!(std::fs::read(&plain).unwrap() == before);
    let (ok, _, stderr) = sente(&GEN.iter().copied().chain(["--out", path(&a), "--shard", "0/2"]).collect::<Vec<_>>());
    assert!(!ok && stderr.contains("--resume"), "{stderr}");
    // A shard resumed as another shard, or with other --games, is refused.
    let (ok, _, stderr) =
        sente(&GEN.iter().copied().chain(["--out", path(&a), "--shard", "1/2", "--resume"]).collect::<Vec<_>>());
    assert!(!ok && stderr.contains("--shard 0/2 of --games 7"), "{stderr}");
    let (ok, _, stderr) =
        sente(&GEN.iter().copied().chain(["--out", path(&plain), "--shard", "2/2"]).collect::<Vec<_>>());
    assert!(!ok && stderr.contains("--shard '2/2'"), "{stderr}");
}

/// `chaosclock openings` with limits too small to prove a deal: quick, and every
/// deal still gets its line.
const OPENINGS: &[&str] =
    &["chaosclock", "openings", "--count", "9", "--from", "4", "--seed", "7", "--nodes", "500", "--max-states", "500"];

/// The text of an `openings` listing or results file without its times (seconds in
/// the printed lines, `secs` and `wall` in the file).
fn untimed(text: &str) -> Vec<String> {
    let seconds = |line: &str| -> String {
        match line.split_once(" s per opening") {
            Some(_) => line.split(')').next().unwrap_or(line).to_string(),
            None => line
                .strip_suffix(" s")
                .map_or(line, |l| l.trim_end_matches(|c: char| c == '.' || c.is_ascii_digit() || c == ' '))
                .to_string(),
        }
    };
    text.lines()
        .map(|l| match serde_json::from_str::<serde_json::Value>(l) {
            Ok(mut v) if v.is_object() => {
                let map = v.as_object_mut().expect("an object");
                map.remove("secs");
                map.remove("wall");
                if let Some(shown) = map.get("line").and_then(|s| s.as_str()).map(seconds) {
                    map.insert("line".into(), shown.into());
                }
                v.to_string()
            }
            _ => seconds(l),
        })
        .collect()
}

#[test]
fn sharded_openings_merge_into_the_results_file_of_one_run() {
    let dir = scratch("openings");
    let run = |extra: &[&str]| {
        let args: Vec<&str> = OPENINGS.iter().copied().chain(extra.iter().copied()).collect();
        let (ok, stdout, stderr) = sente(&args);
        assert!(ok, "{args:?}: {stderr}");
        stdout
    };
    let whole = dir.join("whole.jsonl");
    let listing = run(&["--out", path(&whole)]);
    assert!(listing.contains("9 openings (seed 7, from 4)"), "{listing}");
    let bytes = std::fs::read_to_string(&whole).expect("the unsharded results");
    let deals: Vec<u64> = bytes
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["deal"].as_u64().unwrap())
        .collect();
    assert_eq!(deals, (4..13).collect::<Vec<u64>>());
    let shards: Vec<PathBuf> = (0..4).map(|i| dir.join(format!("shard-{i}.jsonl"))).collect();
    for (i, file) in shards.iter().enumerate() {
        let listing = run(&["--shard", &format!("{i}/4"), "--out", path(file), "--jobs", "1"]);
        assert!(listing.contains(&format!("shard {i}/4")), "{listing}");
    }
    let merged = dir.join("merged.jsonl");
    let mut args = vec!["chaosclock", "merge", "--out", path(&merged)];
    args.extend(shards.iter().rev().map(|p| path(p)));
    let (ok, stdout, stderr) = sente(&args);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("4 shards, 9 openings") && stdout.contains("not proven"), "{stdout}");
    assert_eq!(untimed(&std::fs::read_to_string(&merged).unwrap()), untimed(&bytes));
    // The merged file is one run's: resuming it prints the whole run, solving nothing.
    let resumed = run(&["--out", path(&merged), "--resume"]);
    assert_eq!(untimed(&resumed), untimed(&listing));

    // Refused: a missing shard, a shard of another run, an unfinished shard, a shard
    // without a results file, and an --out that already holds results.
    let merge_fails = |files: &[&Path], out: &str| {
        let out = dir.join(out);
        let mut args = vec!["chaosclock", "merge", "--out", path(&out)];
        args.extend(files.iter().map(|p| path(p)));
        let (ok, _, stderr) = sente(&args);
        assert!(!ok && !out.exists(), "{files:?} merged");
        stderr
    };
    assert!(merge_fails(&[&shards[0], &shards[1], &shards[3]], "m1").contains("shard 2/4 is missing"));
    let other = dir.join("other.jsonl");
    let (ok, _, stderr) = sente(&[
        "chaosclock",
        "openings",
        "--count",
        "9",
        "--from",
        "4",
        "--seed",
        "8",
        "--nodes",
        "500",
        "--max-states",
        "500",
        "--shard",
        "2/4",
        "--out",
        path(&other),
    ]);
    assert!(ok, "{stderr}");
    assert!(merge_fails(&[&shards[0], &shards[1], &other, &shards[3]], "m2").contains("different runs"));
    let text = std::fs::read_to_string(&shards[1]).unwrap();
    let cut = dir.join("cut.jsonl");
    std::fs::write(&cut, text.lines().take(2).collect::<Vec<_>>().join("\n") + "\n").unwrap();
    assert!(merge_fails(&[&shards[0], &cut, &shards[2], &shards[3]], "m3").contains("finish that shard first"));
    // Resumed, the cut shard is finished and the merge goes through.
    run(&["--shard", "1/4", "--out", path(&cut), "--resume"]);
    let (ok, _, stderr) = sente(
        &["chaosclock", "merge", "--out", path(&dir.join("m4")), path(&shards[0]), path(&cut)]
            .into_iter()
            .chain([path(&shards[2]), path(&shards[3])])
            .collect::<Vec<_>>(),
    );
    assert!(ok, "{stderr}");
    let (ok, _, stderr) = sente(&[OPENINGS, &["--shard", "1/4"]].concat());
    assert!(!ok && stderr.contains("--out"), "{stderr}");
    let (ok, _, stderr) = sente(&[OPENINGS, &["--out", path(&whole)]].concat());
    assert!(!ok && stderr.contains("already holds results"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&whole).unwrap(), bytes);
}

/// An FFO table row, total line or results-file line without its times (and a
/// merge's or shard's closing note left as it is).
fn ffo_untimed(line: &str) -> String {
    if let Ok(mut v) = serde_json::from_str::<serde_json::Value>(line)
        && let Some(map) = v.as_object_mut()
    {
        map.remove("secs");
        if let Some(row) = map.get("row").and_then(|r| r.as_str()).map(ffo_untimed) {
            map.insert("row".into(), row.into());
        }
        return v.to_string();
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    if line.starts_with("total:") || (words.len() == 9 && words[0].starts_with('#')) {
        return words[..7].join(" ");
    }
    line.to_string()
}

fn ffo_lines(text: &str) -> Vec<String> {
    text.lines().map(ffo_untimed).collect()
}

/// Easy FFO problems (well under a second each).
const FFO: &[&str] = &["ffo", concat!(env!("CARGO_MANIFEST_DIR"), "/../ffo/problems/ffo_40_59.txt"), "--hash", "16"];

#[test]
fn sharded_ffo_merges_into_the_table_of_one_run() {
    let dir = scratch("ffo");
    let run = |extra: &[&str]| {
        let args: Vec<&str> = FFO.iter().copied().chain(extra.iter().copied()).collect();
        let (ok, stdout, stderr) = sente(&args);
        assert!(ok, "{args:?}: {stderr}");
        stdout
    };
    let only = ["--only", "40,41,42,43,44"];
    let whole = dir.join("whole.jsonl");
    let table = run(&[&only[..], &["--out", path(&whole)]].concat());
    assert!(table.contains("total: 5 problems, 0 wrong"), "{table}");
    let shards: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("shard-{i}.jsonl"))).collect();
    for (i, file) in shards.iter().enumerate() {
        let shown = run(&[&only[..], &["--shard", &format!("{i}/3"), "--out", path(file)]].concat());
        assert!(shown.contains(&format!("shard {i}/3 of 5 problems")), "{shown}");
    }
    let merge = |files: &[&Path], extra: &[&str]| {
        let mut args = vec!["ffo", "merge"];
        args.extend(extra);
        args.extend(files.iter().map(|p| path(p)));
        sente(&args)
    };
    let all: Vec<&Path> = shards.iter().rev().map(|p| p.as_path()).collect();
    let merged = dir.join("merged.jsonl");
    let (ok, stdout, stderr) = merge(&all, &["--out", path(&merged)]);
    assert!(ok, "{stderr}");
    // The rows in problem order, the same moves, scores and nodes; only the times differ.
    assert_eq!(ffo_lines(&stdout), ffo_lines(&table));
    let results = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(ffo_lines(&std::fs::read_to_string(&merged).unwrap()), ffo_lines(&results));
    // The merged file is one run's: resuming it prints the whole table, solving nothing.
    assert_eq!(ffo_lines(&run(&[&only[..], &["--out", path(&merged), "--resume"]].concat())), ffo_lines(&table));
    // A shard with no problems (2 problems in 3 shards) is a shard like any other.
    let small: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("small-{i}.jsonl"))).collect();
    for (i, file) in small.iter().enumerate() {
        run(&["--only", "40,41", "--shard", &format!("{i}/3"), "--out", path(file)]);
    }
    let (ok, stdout, stderr) = merge(&small.iter().map(|p| p.as_path()).collect::<Vec<_>>(), &[]);
    assert!(ok && stdout.contains("total: 2 problems, 0 wrong"), "{stdout}{stderr}");

    // Refused, naming the file: a missing shard, a doubled one, a shard of another
    // run, an unfinished one, a file written without --shard, an --out that holds results.
    let fails = |files: &[&Path]| {
        let (ok, _, stderr) = merge(files, &[]);
        assert!(!ok, "{files:?} merged");
        stderr
    };
    let (a, b, c) = (shards[0].as_path(), shards[1].as_path(), shards[2].as_path());
    assert!(fails(&[a, c]).contains("shard 1/3 is missing"));
    let twice = fails(&[a, b, b, c]);
    assert!(twice.contains("given twice") && twice.contains(path(b)), "{twice}");
    let foreign = dir.join("foreign.jsonl");
    run(&["--only", "40,41,42,43", "--shard", "1/3", "--out", path(&foreign)]);
    let other = fails(&[a, &foreign, c]);
    assert!(other.contains("different runs") && other.contains(path(&foreign)), "{other}");
    let text = std::fs::read_to_string(b).unwrap();
    let cut = dir.join("cut.jsonl");
    std::fs::write(&cut, text.lines().take(2).collect::<Vec<_>>().join("\n") + "\n").unwrap();
    let unfinished = fails(&[a, &cut, c]);
    assert!(unfinished.contains("finish that shard first") && unfinished.contains(path(&cut)), "{unfinished}");
    let plain = fails(&[&whole]);
    assert!(plain.contains("without --shard") && plain.contains(path(&whole)), "{plain}");
    let (ok, _, stderr) = merge(&all, &["--out", path(&whole)]);
    assert!(!ok && stderr.contains("already holds results"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&whole).unwrap(), results);
    // Resumed, the cut shard is finished and the merge goes through.
    run(&[&only[..], &["--shard", "1/3", "--out", path(&cut), "--resume"]].concat());
    let (ok, stdout, stderr) = merge(&[a, &cut, c], &[]);
    assert!(ok, "{stderr}");
    assert_eq!(ffo_lines(&stdout), ffo_lines(&table));
    // A wrong answer in a shard makes the merge fail, as it makes `ffo` fail.
    let wrong = dir.join("wrong.jsonl");
    std::fs::write(&wrong, text.replacen("\"correct\":true", "\"correct\":false", 1)).unwrap();
    let (ok, stdout, stderr) = merge(&[a, &wrong, c], &[]);
    assert!(!ok && stderr.contains("1 wrong answers") && stdout.contains("total: 5 problems, 1 wrong"), "{stderr}");
    // --shard needs --out.
    let (ok, _, stderr) = sente(&[FFO, &only[..], &["--shard", "0/2"]].concat());
    assert!(!ok && stderr.contains("--out"), "{stderr}");
}

/// `othello-accuracy --make` of a few positions (about 2 s each).
const MAKE: &[&str] = &["othello-accuracy", "--count", "4", "--seed", "3", "--hash", "16", "--make"];

#[test]
fn sharded_accuracy_positions_merge_into_the_bytes_of_one_run() {
    let dir = scratch("make");
    let make = |file: &Path, extra: &[&str]| {
        let args: Vec<&str> = MAKE.iter().copied().chain([path(file)]).chain(extra.iter().copied()).collect();
        let (ok, stdout, stderr) = sente(&args);
        assert!(ok, "{args:?}: {stderr}");
        stdout
    };
    let whole = dir.join("whole.txt");
    make(&whole, &[]);
    let bytes = std::fs::read(&whole).unwrap();
    let shards: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("shard-{i}.txt"))).collect();
    for (i, file) in shards.iter().enumerate() {
        let shown = make(file, &["--shard", &format!("{i}/3")]);
        assert!(shown.contains(&format!("(shard {i}/3 of 4)")), "{shown}");
    }
    let merge = |files: &[&Path], out: &Path| {
        let mut args = vec!["othello-accuracy", "merge", "--out", path(out)];
        args.extend(files.iter().map(|p| path(p)));
        sente(&args)
    };
    let (a, b, c) = (shards[0].as_path(), shards[1].as_path(), shards[2].as_path());
    let merged = dir.join("merged.txt");
    let (ok, stdout, stderr) = merge(&[c, a, b], &merged);
    assert!(ok && stdout.contains("3 shards, 4 positions"), "{stdout}{stderr}");
    assert!(std::fs::read(&merged).unwrap() == bytes, "the merged positions differ from one run's");

    // Refused, naming the file; a refused merge writes nothing.
    let fails = |files: &[&Path]| {
        let out = dir.join("refused.txt");
        let (ok, _, stderr) = merge(files, &out);
        assert!(!ok && !out.exists(), "{files:?} merged");
        stderr
    };
    assert!(fails(&[a, c]).contains("shard 1/3 is missing"));
    let twice = fails(&[a, a, b, c]);
    assert!(twice.contains("given twice") && twice.contains(path(a)), "{twice}");
    // Another run: the same shard of five positions (its one position is the same).
    let foreign = dir.join("foreign.txt");
    let args: Vec<&str> =
        MAKE.iter().map(|&a| if a == "4" { "5" } else { a }).chain([path(&foreign), "--shard", "2/3"]).collect();
    assert!(sente(&args).0);
    let other = fails(&[a, b, &foreign]);
    assert!(other.contains("different runs") && other.contains(path(&foreign)), "{other}");
    let plain = fails(&[&whole]);
    assert!(plain.contains("--shard i/n") && plain.contains(path(&whole)), "{plain}");
    // A shard stopped after its first position: the same command finishes it.
    let text = std::fs::read_to_string(a).unwrap();
    let cut = dir.join("cut.txt");
    std::fs::write(&cut, text.lines().take(3).collect::<Vec<_>>().join("\n") + "\n").unwrap();
    let unfinished = fails(&[&cut, b, c]);
    assert!(unfinished.contains("finish that shard first") && unfinished.contains(path(&cut)), "{unfinished}");
    make(&cut, &["--shard", "0/3"]);
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), text);
    let (ok, _, stderr) = merge(&[&cut, b, c], &dir.join("again.txt"));
    assert!(ok, "{stderr}");
    assert!(std::fs::read(dir.join("again.txt")).unwrap() == bytes);
    // A file is continued only by its own run: not a shard by another shard or by an
    // unsharded run, and a merge does not overwrite.
    for extra in [&["--shard", "1/3"][..], &[]] {
        let args: Vec<&str> = MAKE.iter().copied().chain([path(a)]).chain(extra.iter().copied()).collect();
        let (ok, _, stderr) = sente(&args);
        assert!(!ok && stderr.contains("another run"), "{extra:?}: {stderr}");
    }
    assert_eq!(std::fs::read_to_string(a).unwrap(), text);
    let (ok, _, stderr) = merge(&[a, b, c], &whole);
    assert!(!ok && stderr.contains("already holds"), "{stderr}");
    assert!(std::fs::read(&whole).unwrap() == bytes);
}

/// The benchmark on the first positions of the built-in file, at a fixed depth (the
/// same choices on every run).
const BENCHMARK: &[&str] = &["othello-accuracy", "--depth", "6", "--count", "12", "--hash", "16"];

#[test]
fn sharded_accuracy_results_merge_into_the_tally_of_one_run() {
    let dir = scratch("accuracy");
    let run = |extra: &[&str]| {
        let args: Vec<&str> = BENCHMARK.iter().copied().chain(extra.iter().copied()).collect();
        let (ok, stdout, stderr) = sente(&args);
        assert!(ok, "{args:?}: {stderr}");
        stdout
    };
    let whole = dir.join("whole.jsonl");
    let tally = run(&["--out", path(&whole)]);
    assert!(tally.contains("12 positions, depth 6, 1 thread") && tally.contains("mean disc loss"), "{tally}");
    let shards: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("shard-{i}.jsonl"))).collect();
    for (i, file) in shards.iter().enumerate() {
        let shown = run(&["--shard", &format!("{i}/3"), "--out", path(file)]);
        assert!(shown.contains(&format!("shard {i}/3, 4 of 12 positions")), "{shown}");
    }
    let merge = |files: &[&Path], extra: &[&str]| {
        let mut args = vec!["othello-accuracy", "merge"];
        args.extend(extra);
        args.extend(files.iter().map(|p| path(p)));
        sente(&args)
    };
    let (a, b, c) = (shards[0].as_path(), shards[1].as_path(), shards[2].as_path());
    let merged = dir.join("merged.jsonl");
    let (ok, stdout, stderr) = merge(&[b, c, a], &["--out", path(&merged)]);
    assert!(ok, "{stderr}");
    assert_eq!(stdout, tally);
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), std::fs::read_to_string(&whole).unwrap());
    assert_eq!(run(&["--out", path(&merged), "--resume"]), tally);

    let fails = |files: &[&Path]| {
        let (ok, _, stderr) = merge(files, &[]);
        assert!(!ok, "{files:?} merged");
        stderr
    };
    assert!(fails(&[a, b]).contains("shard 2/3 is missing"));
    assert!(fails(&[a, b, b, c]).contains("given twice"));
    let foreign = dir.join("foreign.jsonl");
    let args: Vec<&str> = BENCHMARK
        .iter()
        .map(|&a| if a == "6" { "5" } else { a })
        .chain(["--shard", "1/3", "--out", path(&foreign)])
        .collect();
    assert!(sente(&args).0);
    let other = fails(&[a, &foreign, c]);
    assert!(other.contains("different runs") && other.contains(path(&foreign)), "{other}");
    let text = std::fs::read_to_string(c).unwrap();
    let cut = dir.join("cut.jsonl");
    std::fs::write(&cut, text.lines().take(3).collect::<Vec<_>>().join("\n") + "\n").unwrap();
    let unfinished = fails(&[a, b, &cut]);
    assert!(unfinished.contains("finish that shard first") && unfinished.contains(path(&cut)), "{unfinished}");
    let plain = fails(&[&whole]);
    assert!(plain.contains("--shard i/n") && plain.contains(path(&whole)), "{plain}");
    run(&["--shard", "2/3", "--out", path(&cut), "--resume"]);
    let (ok, stdout, stderr) = merge(&[a, b, &cut], &[]);
    assert!(ok && stdout == tally, "{stdout}{stderr}");
}

/// The lines of `train-othello errors` for phases of fewer than `empties` empties.
fn error_lines_below(text: &str, empties: u32) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("empties") && l[8..10].trim().parse::<u32>().is_ok_and(|lo| lo < empties))
        .map(str::to_string)
        .collect()
}

#[test]
fn search_labelled_data_refits_the_later_phases_only() {
    let dir = scratch("label");
    let data = dir.join("searched.dat");
    gen_run(&["--out", path(&data), "--label-depth", "4"]);
    // The built-in weights against the data: one line per phase with records, then all.
    let (ok, before, stderr) = sente(&["train-othello", "errors", "--data", path(&data)]);
    assert!(ok, "{stderr}");
    assert!(before.lines().filter(|l| l.starts_with("empties")).count() >= 10, "{before}");
    assert!(before.lines().last().is_some_and(|l| l.starts_with("all: ") && l.contains("MAE")), "{before}");
    // Refit from the built-in weights, from 29 empties on: the phases below keep
    // their weights, so their errors are unchanged; the refitted ones fit better.
    let weights = dir.join("refit.bin");
    let fit = ["train-othello", "fit", "--data", path(&data), "--init", "builtin", "--min-empties", "29"];
    let (ok, out, stderr) = sente(&[&fit[..], &["--epochs", "3", "--out", path(&weights)]].concat());
    assert!(ok, "{stderr}");
    assert!(out.contains("wrote"), "{out}");
    let (ok, after, stderr) = sente(&["train-othello", "errors", "--data", path(&data), "--weights", path(&weights)]);
    assert!(ok, "{stderr}");
    assert_eq!(error_lines_below(&after, 29), error_lines_below(&before, 29));
    assert!(!error_lines_below(&before, 29).is_empty(), "{before}");
    let mae = |text: &str, lo: u32| -> f64 {
        let line = text.lines().find(|l| l.starts_with(&format!("empties {lo:>2}-"))).expect("the phase's line");
        line.rsplit(' ').next().and_then(|x| x.parse().ok()).expect("a MAE")
    };
    assert!(mae(&after, 49) < mae(&before, 49), "before:\n{before}\nafter:\n{after}");
    // Bad weights files are refused by name; nothing is written.
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, b"not weights").unwrap();
    let (ok, _, stderr) = sente(&["train-othello", "errors", "--data", path(&data), "--weights", path(&bad)]);
    assert!(!ok && stderr.contains("bad.bin"), "{stderr}");
    // A label deeper than the selective search reaches before the solve is refused.
    let deep = dir.join("deep.dat");
    let args: Vec<&str> = GEN.iter().copied().chain(["--out", path(&deep), "--label-depth", "6"]).collect();
    let (ok, _, stderr) = sente(&args);
    assert!(!ok && stderr.contains("at most 5") && !deep.exists(), "{stderr}");
    // --min-empties without the weights it keeps is refused.
    let (ok, _, stderr) = sente(&[&fit[..4], &["--min-empties", "29", "--out", path(&dir.join("x.bin"))]].concat());
    assert!(!ok && stderr.contains("keeps the weights of the earlier phases"), "{stderr}");
    let never = dir.join("never.bin");
    let (ok, _, stderr) = sente(&[&fit[..3], &[path(&data), "--init", path(&bad), "--out", path(&never)]].concat());
    assert!(!ok && stderr.contains("bad.bin") && !never.exists(), "{stderr}");
}
