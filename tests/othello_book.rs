//! The Othello opening book: `sente othello-book` grows a file and goes on from it,
//! the player plays the built-in book over UGI+ unless told not to, and a corrupt book
//! file is refused with its line while the engine keeps its book.

use crate::common;

use std::time::{Duration, Instant};

use common::{Engine, run};

fn is_bestmove(l: &str) -> bool {
    l.starts_with("bestmove")
}

fn othello() -> Engine {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    e.until(|l| l == "ugiok");
    e.send("setoption name Game value othello");
    e
}

#[test]
fn the_book_is_grown_in_a_file_and_goes_on_from_it() {
    let dir = common::Scratch::new("book");
    let file = dir.join("book.txt");
    let path = file.to_str().unwrap();
    let out = run(&["othello-book", path, "--count", "6", "--depth", "3"]);
    assert!(out.contains("6 positions (6 added"), "{out}");
    let out = run(&["othello-book", path, "--count", "9", "--depth", "3"]);
    assert!(out.contains("9 positions (3 added"), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 9);
    // The start position first, with its four moves.
    assert!(
        text.lines().nth(1).unwrap().starts_with("---------------------------OX------XO--------------------------- X ")
    );
    let out = run(&["othello-book", path, "--count", "9"]);
    assert!(out.contains("already holds 9 positions"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_player_answers_from_the_built_in_book_unless_told_not_to() {
    let mut e = othello();
    e.send("position startpos moves f5");
    let start = Instant::now();
    // A minute to think: a book move does not take it (half of it is a margin no load
    // reaches).
    e.send("go movetime 60000");
    let lines = e.until(is_bestmove);
    assert!(start.elapsed() < Duration::from_secs(30), "a book move is immediate: {lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 0 ")), "{lines:?}");
    let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    assert!(["d6", "f6", "f4"].contains(&mv.as_str()), "a legal reply to f5: {mv}");
    // Fixed depth: a search, not the book.
    e.send("go depth 4");
    let lines = e.until(is_bestmove);
    assert!(lines.iter().any(|l| l.starts_with("info depth 4 ")), "{lines:?}");
    // Book off: a search.
    e.send("setoption name Book value false");
    e.send("go movetime 200");
    let lines = e.until(is_bestmove);
    assert!(lines.iter().all(|l| !l.starts_with("info depth 0 ")), "{lines:?}");
    e.send("setoption name Book value maybe");
    assert!(e.recv(Duration::from_secs(5)).contains("error"), "a bad value is refused");
}

#[test]
fn a_corrupt_book_file_is_refused_with_its_line_and_the_book_kept() {
    let dir = common::Scratch::new("bad-book");
    let file = dir.join("bad.txt");
    std::fs::write(
        &file,
        "# a comment\n---------------------------OX------XO--------------------------- X d3:+0 c4:+0\n",
    )
    .unwrap();
    let mut e = othello();
    e.send(&format!("setoption name BookFile value {}", file.display()));
    let reply = e.recv(Duration::from_secs(5));
    assert!(reply.starts_with("info string error") && reply.contains("line 2"), "{reply}");
    e.send(&format!("setoption name BookFile value {}", dir.join("missing.txt").display()));
    assert!(e.recv(Duration::from_secs(5)).contains("cannot read the book"));
    // The built-in book is still played.
    e.send("position startpos moves f5");
    e.send("go movetime 3000");
    let lines = e.until(is_bestmove);
    assert!(lines.iter().any(|l| l.starts_with("info depth 0 ")), "{lines:?}");
    // A good file is taken: a one-line book of the start position.
    let good = dir.join("good.txt");
    std::fs::write(
        &good,
        "---------------------------OX------XO--------------------------- X d3:+1 c4:+0 f5:+0 e6:+0\n",
    )
    .unwrap();
    e.send(&format!("setoption name BookFile value {}", good.display()));
    e.send("position startpos");
    e.send("go movetime 3000");
    let lines = e.until(is_bestmove);
    assert_eq!(lines.last().unwrap(), "bestmove d3", "{lines:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
