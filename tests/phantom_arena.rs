//! `sente arena --game phantomgo`: a short match of our two Phantom Go players over the
//! platform protocol; every text record is replayed through the referee, answer by
//! answer, and the SGF record holds the turns with their tries.

use std::path::{Path, PathBuf};
use std::process::Command;

use bitboards::go::{Move, Point};
use bitboards::phantom::{Answer, PhantomConfig, Referee};
use serde_json::Value;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sente-phantom-arena-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn engine(name: &str, player: &str) -> String {
    format!("name={name} cmd='{SENTE} phantom --movetime 10 --player {player}' proto=phantom")
}

/// Replays a text record's tries; checks every answer; returns the tries.
fn replay(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).expect("record");
    let mut r = Referee::new(PhantomConfig::ccgc());
    let mut tries = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [_, color, vertex, answer, ..] = words[..] else { panic!("bad record line '{line}'") };
        assert_eq!(color.chars().next(), Some(r.to_move().stone_letter()), "{line}");
        let mv = if vertex == "pass" { Move::Pass } else { Move::Play(Point::from_gtp(vertex, 9).expect(vertex)) };
        let a = r.try_move(mv).expect("a try the referee answers");
        let expected = match a {
            Answer::Legal { .. } => "accepted",
            Answer::Passed => "pass",
            Answer::Illegal { .. } => "refused",
        };
        assert!(answer.starts_with(expected), "{line}: the referee says {a:?}");
        tries += 1;
    }
    assert!(r.is_over() || text.contains("try cap"), "{}", path.display());
    tries
}

#[test]
fn belief_against_flat_two_games() {
    let out = scratch("match");
    let status = Command::new(SENTE)
        .args(["arena", "--game", "phantomgo", "--rounds", "1", "--st", "2", "--out"])
        .arg(&out)
        .args(["--engine", &engine("belief", "belief"), "--engine", &engine("flat", "flat")])
        .output()
        .expect("run the arena");
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert!(status.status.success(), "{stdout} {}", String::from_utf8_lossy(&status.stderr));
    assert!(stdout.starts_with("Score of belief vs flat: "), "{stdout}");
    let text = std::fs::read_to_string(out.join("results.jsonl")).expect("results.jsonl");
    let rows: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(rows.len(), 2);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["game"].as_u64(), Some(i as u64));
        assert_eq!(row["reason"], "two passes", "{row}");
        let score = row["score"].as_str().expect("a score");
        assert!(score.starts_with("B+") || score.starts_with("W+"), "{score}");
        let result = row["result"].as_str().unwrap();
        assert_eq!(result, if score.starts_with('B') { "1-0" } else { "0-1" });
        let record = out.join(row["record"].as_str().expect("a record"));
        assert_eq!(replay(&record) as u64, row["moves"].as_u64().unwrap());
        let sgf = std::fs::read_to_string(record.with_extension("sgf")).expect("an SGF record");
        assert!(sgf.starts_with("(;FF[4]GM[1]") && sgf.contains("C[tries: "), "{sgf}");
        assert!(sgf.contains(&format!("RE[{score}]")));
    }
    // Colours alternate: belief is black in game 0, white in game 1.
    assert_eq!(rows[0]["first"], "belief");
    assert_eq!(rows[1]["first"], "flat");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn phantom_go_needs_platform_engines() {
    let out = scratch("proto");
    let r = Command::new(SENTE)
        .args(["arena", "--game", "phantomgo", "--rounds", "1", "--out"])
        .arg(&out)
        .args(["--engine", &format!("name=a cmd='{SENTE}' proto=ugi"), "--engine", &engine("b", "flat")])
        .output()
        .expect("run the arena");
    assert!(!r.status.success());
    assert!(String::from_utf8_lossy(&r.stderr).contains("proto=phantom"));
    let _ = std::fs::remove_dir_all(&out);
}
