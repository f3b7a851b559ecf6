//! `sente go-homework`: the 9×9 Go homework of seed 001.
//!
//! A problem file holds one stone per line, `row col color` (0-based, row 0 at the
//! top; color −1 black, 1 white). White is to play. Three tasks:
//!
//! * **check** (`*_0`, `*_00`): `True` if no group on the board lacks liberties;
//! * **capture** (`*_1`..`*_4`): every white move that captures black stones, with a
//!   picture of the board after each;
//! * **legal** (`*_5`): every point where white may play.
//!
//! The answers go to `DIR/answers.txt` in the format of the official
//! `answer_for_train.txt`; the pictures (SVG) beside it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use bitboards::go::{Board, Color, Point, bits};

/// Which answer a problem gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Task {
    /// The rule check (no group without liberties).
    Check,
    /// White's capturing moves.
    Capture,
    /// White's legal moves.
    Legal,
    /// All three.
    All,
}

/// The task seed 001 gives a file name: `*_0`/`*_00` check, `*_1`..`*_4` capture,
/// `*_5` legal.
pub fn task_for(stem: &str) -> Option<Task> {
    let suffix = stem.rsplit_once('_')?.1;
    match suffix {
        "0" | "00" => Some(Task::Check),
        "1" | "2" | "3" | "4" => Some(Task::Capture),
        "5" => Some(Task::Legal),
        _ => None,
    }
}

/// Reads a problem file: one stone per line.
pub fn parse_board(text: &str, file: &str) -> Result<Board> {
    let mut board = Board::new(9);
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let [row, col, color] = words.as_slice() else {
            bail!("{file}, line {n}: expected 'row col color', got '{}'", line.trim());
        };
        let number = |w: &str, what: &str| -> Result<i64> {
            w.parse::<i64>().with_context(|| format!("{file}, line {n}: {what} '{w}' is not a number"))
        };
        let (r, c) = (number(row, "row")?, number(col, "column")?);
        let p = Point::from_row_col(r, c, 9)
            .map_err(|_| anyhow::anyhow!("{file}, line {n}: point ({r}, {c}) is off the 9x9 board"))?;
        let stone = match number(color, "colour")? {
            -1 => Color::BLACK,
            1 => Color::WHITE,
            other => bail!("{file}, line {n}: colour {other} is neither -1 (black) nor 1 (white)"),
        };
        if board.at(p).is_some() {
            bail!("{file}, line {n}: a second stone on ({r}, {c})");
        }
        board.set(p, Some(stone));
    }
    board.set_to_move(Color::WHITE);
    Ok(board)
}

/// White's capturing moves, row by row, with the board after each and what it took.
pub fn captures(board: &Board) -> Vec<(Point, Board, u128)> {
    board
        .points()
        .filter_map(|p| match board.try_play(Color::WHITE, p) {
            Ok((after, taken)) if taken != 0 => Some((p, after, taken)),
            _ => None,
        })
        .collect()
}

/// White's legal moves, row by row (no history: simple ko cannot arise).
pub fn legal_moves(board: &Board) -> Vec<Point> {
    board.points().filter(|&p| board.try_play(Color::WHITE, p).is_ok()).collect()
}

fn row_col(p: Point) -> String {
    format!("{} {}", p.row(), p.col())
}

/// Draws a board as SVG: stones, the move just played (red ring) and the stones it
/// captured (red crosses on the empty points), with the homework's row/column numbers.
pub fn svg(board: &Board, title: &str, played: Option<Point>, captured: u128) -> String {
    let size = board.size();
    let cell = 40.0;
    let margin = 50.0;
    let side = margin * 2.0 + cell * (size as f64 - 1.0);
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">
<rect width="100%" height="100%" fill="#dcb35c"/>
<text x="{cx}" y="16" font-family="sans-serif" font-size="14" text-anchor="middle">{title}</text>
"##,
        w = side,
        h = side + 10.0,
        cx = side / 2.0
    );
    let at = |i: usize| margin + cell * i as f64;
    for i in 0..size {
        let _ =
            writeln!(s, r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="black"/>"#, at(0), at(i), at(size - 1), at(i));
        let _ =
            writeln!(s, r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="black"/>"#, at(i), at(0), at(i), at(size - 1));
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-family="sans-serif" font-size="12" text-anchor="middle">{i}</text>"#,
            at(i),
            at(0) - 14.0
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-family="sans-serif" font-size="12" text-anchor="end">{i}</text>"#,
            at(0) - 14.0,
            at(i) + 4.0
        );
    }
    for p in board.points() {
        let (x, y) = (at(p.col()), at(p.row()));
        if let Some(c) = board.at(p) {
            let (fill, stroke) = if c == Color::BLACK { ("black", "black") } else { ("white", "black") };
            let _ = writeln!(s, r#"<circle cx="{x}" cy="{y}" r="17" fill="{fill}" stroke="{stroke}"/>"#);
        }
    }
    for p in bits(captured) {
        let (x, y) = (at(p.col()), at(p.row()));
        let _ = writeln!(
            s,
            r#"<path d="M{} {} L{} {} M{} {} L{} {}" stroke="red" stroke-width="3"/>"#,
            x - 10.0,
            y - 10.0,
            x + 10.0,
            y + 10.0,
            x - 10.0,
            y + 10.0,
            x + 10.0,
            y - 10.0
        );
    }
    if let Some(p) = played {
        let _ = writeln!(
            s,
            r#"<circle cx="{}" cy="{}" r="8" fill="none" stroke="red" stroke-width="3"/>"#,
            at(p.col()),
            at(p.row())
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The answer block of one problem, and the pictures it wants (file name, SVG).
pub fn solve(name: &str, board: &Board, task: Task) -> (String, Vec<(String, String)>) {
    let mut pictures = vec![(format!("{name}.svg"), svg(board, &format!("{name}: white to play"), None, 0))];
    let mut lines = vec![name.to_string()];
    if matches!(task, Task::Check | Task::All) {
        let ok = if board.all_groups_have_liberties() { "True" } else { "False" };
        lines.push(if task == Task::All { format!("rule check: {ok}") } else { ok.to_string() });
    }
    if matches!(task, Task::Capture | Task::All) {
        let caps = captures(board);
        for (p, after, taken) in &caps {
            let file = format!("{name}_capture_{}_{}.svg", p.row(), p.col());
            let title = format!("{name}: white {} captures {}", row_col(*p), taken.count_ones());
            pictures.push((file, svg(after, &title, Some(*p), *taken)));
        }
        let moves: Vec<String> = caps.iter().map(|(p, _, _)| row_col(*p)).collect();
        if task == Task::All {
            lines.push(format!("capturing moves: {}", moves.join(", ")));
        } else {
            lines.extend(moves);
        }
    }
    if matches!(task, Task::Legal | Task::All) {
        let moves: Vec<String> = legal_moves(board).into_iter().map(row_col).collect();
        if task == Task::All {
            lines.push(format!("legal moves: {}", moves.join(", ")));
        } else {
            lines.extend(moves);
        }
    }
    (lines.join("\n"), pictures)
}

/// Sort key of a problem name: prefix, then the suffix's number, then its length
/// (so `train_0` < `train_00` < `train_1` < `train_10`).
fn natural_key(stem: &str) -> (String, u64, usize) {
    match stem.rsplit_once('_') {
        Some((prefix, suffix)) if suffix.chars().all(|c| c.is_ascii_digit()) && !suffix.is_empty() => {
            (prefix.to_string(), suffix.parse().unwrap_or(u64::MAX), suffix.len())
        }
        _ => (stem.to_string(), u64::MAX, 0),
    }
}

/// Runs the homework on a file or a directory, writing progress to `log` and the
/// files that could not be read to `error_log`; returns (problems answered, errors).
pub fn run(
    input: &Path,
    out_dir: &Path,
    task: Option<Task>,
    log: &mut impl std::io::Write,
    error_log: &mut impl std::io::Write,
) -> Result<(usize, usize)> {
    let mut files: Vec<PathBuf> = Vec::new();
    if input.is_dir() {
        for entry in std::fs::read_dir(input).with_context(|| format!("cannot read {}", input.display()))? {
            let path = entry?.path();
            if path.is_dir() {
                writeln!(log, "skipped {}: a folder", path.display())?;
            } else {
                files.push(path);
            }
        }
    } else if input.is_file() {
        files.push(input.to_path_buf());
    } else {
        bail!("{} is neither a file nor a folder", input.display());
    }
    let mut problems: Vec<(String, PathBuf, Task)> = Vec::new();
    for path in files {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if path.extension().is_none_or(|e| e != "txt") {
            writeln!(log, "skipped {}: not a .txt board file", path.display())?;
            continue;
        }
        match task.or_else(|| task_for(&stem)) {
            Some(t) => problems.push((stem, path, t)),
            None => writeln!(log, "skipped {}: the name gives no task (use --task)", path.display())?,
        }
    }
    problems.sort_by_key(|(stem, _, _)| natural_key(stem));
    std::fs::create_dir_all(out_dir).with_context(|| format!("cannot create {}", out_dir.display()))?;
    let mut blocks = Vec::new();
    let mut errors = 0;
    for (stem, path, t) in &problems {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                writeln!(error_log, "error: cannot read {}: {e}", path.display())?;
                errors += 1;
                continue;
            }
        };
        let board = match parse_board(&text, &path.display().to_string()) {
            Ok(b) => b,
            Err(e) => {
                writeln!(error_log, "error: {e}")?;
                errors += 1;
                continue;
            }
        };
        let (block, pictures) = solve(stem, &board, *t);
        for (file, svg) in pictures {
            std::fs::write(out_dir.join(&file), svg).with_context(|| format!("cannot write {file}"))?;
        }
        blocks.push(block);
    }
    let answers = out_dir.join("answers.txt");
    let mut text = blocks.join("\n\n");
    if !text.is_empty() {
        text.push('\n');
    }
    std::fs::write(&answers, text).with_context(|| format!("cannot write {}", answers.display()))?;
    writeln!(log, "{} problems answered in {}", blocks.len(), answers.display())?;
    Ok((blocks.len(), errors))
}

/// `sente go-homework`'s command line.
#[derive(clap::Args)]
pub struct HomeworkArgs {
    /// A problem file (`row col color` lines) or a folder of them.
    pub input: String,
    /// Where to write answers.txt and the pictures.
    #[arg(long)]
    pub out: String,
    /// The task for every file, instead of the one its name gives.
    #[arg(long, value_enum)]
    pub task: Option<Task>,
}

/// Runs `sente go-homework`: an error when a problem file cannot be read.
pub fn main(args: HomeworkArgs) -> Result<()> {
    let (_, errors) = run(
        Path::new(&args.input),
        Path::new(&args.out),
        args.task,
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    )?;
    if errors > 0 {
        bail!("{errors} problem files could not be read");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_from_names() {
        assert_eq!(task_for("train_0"), Some(Task::Check));
        assert_eq!(task_for("test_00"), Some(Task::Check));
        assert_eq!(task_for("train_3"), Some(Task::Capture));
        assert_eq!(task_for("test_5"), Some(Task::Legal));
        assert_eq!(task_for("train_6"), None);
        assert_eq!(task_for("answer_for_train"), None);
        let mut names = vec!["train_5", "train_00", "train_1", "train_0", "train_10", "train_2"];
        names.sort_by_key(|s| natural_key(s));
        assert_eq!(names, ["train_0", "train_00", "train_1", "train_2", "train_5", "train_10"]);
    }

    #[test]
    fn bad_files_name_the_line() {
        let e = |t: &str| parse_board(t, "f.txt").unwrap_err().to_string();
        assert_eq!(e("1 2 -1\n3 4"), "f.txt, line 2: expected 'row col color', got '3 4'");
        assert!(e("9 0 1").contains("line 1: point (9, 0) is off"));
        assert!(e("0 0 1\n0 0 -1").contains("line 2: a second stone on (0, 0)"));
        assert!(e("0 0 2").contains("line 1: colour 2"));
        assert!(e("a 0 1").contains("line 1: row 'a' is not a number"));
    }

    mod fuzz {
        //! Homework boards from damaged files (issue 31): never a panic, always the
        //! file and line in the error; a board written as `row col colour` lines
        //! reads back stone for stone.
        use super::*;
        use crate::mutate::{Rng, cases, input};
        use proptest::prelude::*;

        const FILES: &[&str] = &["0 0 -1\n4 4 1\n8 8 -1", "3 3 1", "", "2 5 -1\n\n2 6 1\n"];

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(cases(64)))]

            #[test]
            fn damaged_boards_never_panic(seed in any::<u64>()) {
                let mut rng = Rng::new(seed);
                for _ in 0..40 {
                    let text = input(&mut rng, FILES);
                    if let Err(e) = parse_board(&text, "b.txt") {
                        prop_assert!(e.to_string().starts_with("b.txt, line "), "{text:?}: {e}");
                    }
                }
            }

            #[test]
            fn boards_round_trip(stones in proptest::collection::btree_map((0i64..9, 0i64..9), any::<bool>(), 0..40)) {
                let text: String = stones.iter().map(|(&(r, c), &b)| format!("{r} {c} {}\n", if b { -1 } else { 1 })).collect();
                let board = parse_board(&text, "b.txt").map_err(|e| TestCaseError::fail(e.to_string()))?;
                for p in board.points() {
                    let read = board.at(p);
                    let written = stones.iter().find(|&(&(r, c), _)| Point::from_row_col(r, c, 9) == Ok(p));
                    prop_assert_eq!(read, written.map(|(_, &b)| if b { Color::BLACK } else { Color::WHITE }));
                }
            }
        }
    }
}
