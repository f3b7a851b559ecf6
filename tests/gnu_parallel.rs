//! The batch commands' shards run by a real scheduler, GNU parallel, on this machine
//! (the same commands take `--sshlogin` for several hosts; see docs/cluster.md). Each
//! run's merge must equal the unsharded run of the same seed, byte for byte.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::untimed;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");
const PARALLEL: &str = "/usr/bin/parallel";

/// A scratch folder of the test's own, removed when it passes.
fn scratch(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("parallel-test-{name}"))
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Runs `sente` with `args` in `dir`; panics with its stderr if it fails.
fn sente(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(SENTE).current_dir(dir).args(args).output().expect("run sente");
    assert!(out.status.success(), "sente {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into()
}

/// Runs `command` (a shell command line with `{}` for the shard number) through GNU
/// parallel in `dir`, once for each of shards `0..n`, two jobs at a time.
fn parallel(dir: &Path, command: &str, n: u32) {
    assert!(
        Path::new(PARALLEL).exists(),
        "GNU parallel is needed: apt-get install -y parallel (scripts/test.sh installs it)"
    );
    let shards: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    let out = Command::new(PARALLEL)
        .current_dir(dir)
        .args(["--will-cite", "--halt", "now,fail=1", "--jobs", "2", command, ":::"])
        .args(&shards)
        .output()
        .expect("run GNU parallel");
    assert!(
        out.status.success(),
        "parallel {command}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every file of folder `dir`, name and bytes, sorted by name.
fn files_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let e = e.expect("a folder entry");
            (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).expect("a record"))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn an_arena_match_sharded_through_gnu_parallel_merges_into_the_unsharded_match() {
    let dir = scratch("arena");
    // Fixed nodes, so that every game is the same however it is scheduled.
    let engines =
        format!("--engine 'name=a cmd={SENTE} proto=ugi' --engine 'name=b cmd={SENTE} proto=ugi option.Hash=8'");
    let match_flags = "--game othello --rounds 5 --nodes 300";
    parallel(&dir, &format!("{SENTE} arena {match_flags} {engines} --shard {{}}/3 --out shard-{{}}"), 3);
    let whole = dir.join("whole");
    let shell = format!("{SENTE} arena {match_flags} {engines} --out {}", path(&whole));
    let out = Command::new("sh").current_dir(&dir).args(["-c", &shell]).output().expect("run sh");
    assert!(out.status.success(), "{shell}: {}", String::from_utf8_lossy(&out.stderr));

    let shards: Vec<String> = (0..3).map(|i| format!("shard-{i}/results.jsonl")).collect();
    let mut args = vec!["arena", "merge", "--out", "merged.jsonl"];
    args.extend(shards.iter().map(String::as_str));
    let summary = sente(&dir, &args);
    assert!(summary.contains("Score of a vs b:"), "{summary}");
    let merged = std::fs::read_to_string(dir.join("merged.jsonl")).expect("merged results");
    let unsharded = std::fs::read_to_string(whole.join("results.jsonl")).expect("unsharded results");
    assert_eq!(merged.lines().count(), 10);
    // Byte for byte but for the time each move took, which no two runs share.
    assert_eq!(untimed::results(&merged), untimed::results(&unsharded));
    assert!(summary.contains("Time a move: a ") && summary.contains(" b "), "{summary}");
    // The game records too: each shard holds its games, the same files as one run's.
    let mut records: Vec<(String, String)> =
        (0..3).flat_map(|i| files_of(&dir.join(format!("shard-{i}/games")))).map(untimed_file).collect();
    records.sort();
    let whole_records: Vec<(String, String)> = files_of(&whole.join("games")).into_iter().map(untimed_file).collect();
    assert!(records == whole_records, "the shards' game records differ from one run's");
}

/// A record file's name and text, its moves' times taken out.
fn untimed_file((name, bytes): (String, Vec<u8>)) -> (String, String) {
    (name, untimed::record(&String::from_utf8(bytes).expect("a UTF-8 record")))
}

#[test]
fn times_are_taken_out_of_each_record_form() {
    assert_eq!(untimed::record("B[D3/0.40/0.186]W[E6//12.005]B[PA]"), "B[D3/0.40/T]W[E6//T]B[PA]");
    assert_eq!(untimed::record(";B[ce]C[+0.64/4 0.006s, 300 nodes]"), ";B[ce]C[+0.64/4 Ts, 300 nodes]");
    assert_eq!(
        untimed::record("ply 3 w1 +4.10/2 1.250s, 300 nodes\n# try 12 white 0.010s\n"),
        "ply 3 w1 +4.10/2 Ts, 300 nodes\n# try 12 white Ts\n"
    );
    // Scores and other numbers stay.
    assert_eq!(untimed::record("KM[7.5]RE[B+3.5]B[D3/-1.50/]"), "KM[7.5]RE[B+3.5]B[D3/-1.50/]");
}

#[test]
fn training_data_sharded_through_gnu_parallel_merges_into_one_runs_bytes() {
    let dir = scratch("gen");
    let generate = "train-othello gen --games 8 --seed 5 --solve-empties 12 --children-from 10 --label-min 8 --hash 4";
    parallel(&dir, &format!("{SENTE} {generate} --shard {{}}/4 --out data-{{}}.dat"), 4);
    let mut args = vec!["train-othello", "merge", "--out", "merged.dat"];
    let shards: Vec<String> = (0..4).map(|i| format!("data-{i}.dat")).collect();
    args.extend(shards.iter().map(String::as_str));
    sente(&dir, &args);
    let mut whole: Vec<&str> = generate.split_whitespace().collect();
    whole.extend(["--out", "whole.dat"]);
    sente(&dir, &whole);
    let merged = std::fs::read(dir.join("merged.dat")).expect("merged data");
    assert!(merged.len() > 18 * 100, "{} bytes", merged.len());
    assert!(merged == std::fs::read(dir.join("whole.dat")).expect("unsharded data"), "the merge differs from one run");
}
