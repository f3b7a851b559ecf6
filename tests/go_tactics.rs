//! The Go tactical suite (`tests/data/go-tactics/`): ladders, capturing races and local
//! fights, snapbacks and nakade, each with a question and its set of correct moves.
//!
//! Every stored answer is first proven here by [`Prover`], a plain exhaustive minimax
//! over the position's local points with the full rules of `bitboards::go::Board`
//! (suicide, simple ko), independent of the code under test; then
//! `search::go::tactics` must agree with it.
//!
//! ## The data format
//!
//! Each file holds positions, each starting with `position <name>`:
//!
//! ```text
//! position ladder-01
//! kind ladder            ladder | race | snapback | nakade
//! question attack C3     attack P: can the chain on P be captured (its opponent to move)?
//!                        defend P: can it be saved (its owner to move)?
//!                        kill P / live P: the eye space around the empty point P
//! area B2-H8 J9          the prover's local points: rectangles and points (default:
//!                        for kill/live, the eye space)
//! safe 3                 the chain is saved when it has this many liberties with the
//!                        attacker to move (default 4; 99 for kill/live)
//! depth 40               plies the prover reads (default 16; for kill/live 8 × space + 10)
//! snapback C2            (optional) this move is a snapback for the side to move
//! chase liberties        (optional, ladders) the attacker plays only on the target's
//!                        liberties; the defender still plays anywhere in the area
//! answer C2 D3           the moves that succeed, or `none`
//! board                  then one line per row, from the top (`X` black, `O` white,
//! .........              `.` empty): the rows of the UGI+ position text
//! ```
//!
//! The side to move follows from the question. The prover's semantics: the attacker
//! wins when the target's stone is captured within `depth` plies; the defender wins when
//! the target has `safe` liberties with the attacker to move, or when the depth runs
//! out. Moves are the empty points of the area, and a pass (a move elsewhere) for either
//! side, except for a chasing attacker. Passes clear the ko ban, so every ko is endless
//! and ends with the depth, in the defender's favour.

use std::collections::HashMap;
use std::path::PathBuf;

use bitboards::go::{Board, Color, Game, Move, Point, Superko, bits, board_mask, flood, neighbours, parse_board_text};
use search::go::mcts::{Mcts, MctsSettings};
use search::go::tactics;
use search::{Limits, StopFlag};

/// What a position asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Question {
    /// Capture the chain on the point, its opponent to move.
    Attack(Point),
    /// Save the chain on the point, its owner to move.
    Defend(Point),
    /// Kill the group around the eye space of the (empty) point.
    Kill(Point),
    /// Live with the group around the eye space of the (empty) point.
    Live(Point),
}

/// One position of the suite.
struct Position {
    name: String,
    kind: String,
    question: Question,
    area: u128,
    safe: u32,
    depth: u32,
    snapback: Option<Point>,
    /// The attacker may only play on the target's liberties (a ladder's chase).
    chase_on_liberties: bool,
    answer: Vec<Point>,
    board: Board,
    /// The chain whose fate is read, its owner, and the side to move.
    target: Point,
    owner: Color,
    to_move: Color,
}

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/go-tactics")
}

fn point(text: &str) -> Point {
    Point::from_gtp(text, 9).unwrap_or_else(|e| panic!("bad point {text}: {e}"))
}

/// Points of an `area` line: `C3` or rectangles `B2-H8`.
fn area_points(words: &[&str]) -> u128 {
    let mut area = 0;
    for word in words {
        if let Some((a, b)) = word.split_once('-') {
            let (a, b) = (point(a), point(b));
            for r in a.row().min(b.row())..=a.row().max(b.row()) {
                for c in a.col().min(b.col())..=a.col().max(b.col()) {
                    area |= Point::new(r, c).bit();
                }
            }
        } else {
            area |= point(word).bit();
        }
    }
    area
}

/// Reads every `*.txt` file of the suite.
fn load() -> Vec<Position> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("the suite's folder")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut positions = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a readable suite file");
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
        while let Some(line) = lines.next() {
            let name =
                line.strip_prefix("position ").unwrap_or_else(|| panic!("{file:?}: expected 'position', got {line}"));
            let mut fields: HashMap<String, Vec<String>> = HashMap::new();
            let mut rows = Vec::new();
            for line in lines.by_ref() {
                let words: Vec<&str> = line.split_whitespace().collect();
                if words[0] == "board" {
                    break;
                }
                fields.insert(words[0].to_string(), words[1..].iter().map(|w| w.to_string()).collect());
            }
            for _ in 0..9 {
                rows.push(lines.next().unwrap_or_else(|| panic!("{name}: short board")).to_string());
            }
            positions.push(parse_position(name, &fields, &rows));
        }
    }
    positions
}

fn parse_position(name: &str, fields: &HashMap<String, Vec<String>>, rows: &[String]) -> Position {
    let get = |key: &str| fields.get(key).unwrap_or_else(|| panic!("{name}: no '{key}' line"));
    let words = |key: &str| get(key).iter().map(String::as_str).collect::<Vec<_>>();
    let question_words = words("question");
    let at = point(question_words[1]);
    let question = match question_words[0] {
        "attack" => Question::Attack(at),
        "defend" => Question::Defend(at),
        "kill" => Question::Kill(at),
        "live" => Question::Live(at),
        other => panic!("{name}: unknown question {other}"),
    };
    let mut board = parse_board_text(&format!("{} b", rows.join("/"))).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mask = board_mask(9);
    let (target, owner, to_move, default_area, default_safe, default_depth) = match question {
        Question::Attack(p) | Question::Defend(p) => {
            let owner = board.at(p).unwrap_or_else(|| panic!("{name}: no stone on the target"));
            let to_move = if matches!(question, Question::Attack(_)) { owner.other() } else { owner };
            (p, owner, to_move, 0, 4, 16)
        }
        Question::Kill(p) | Question::Live(p) => {
            assert!(board.at(p).is_none(), "{name}: the eye point must be empty");
            let space = flood(p.bit(), board.empty(), mask);
            let wall = neighbours(space, mask) & !space;
            let stone = Point(wall.trailing_zeros() as u8);
            let owner = board.at(stone).expect("a wall stone");
            let chain = board.group(stone);
            assert_eq!(chain & wall, wall, "{name}: the wall must be one chain of one colour");
            assert_eq!(board.liberties(chain) & !space, 0, "{name}: the wall has outside liberties");
            let to_move = if matches!(question, Question::Kill(_)) { owner.other() } else { owner };
            (stone, owner, to_move, space, 99, 8 * space.count_ones() + 10)
        }
    };
    board.set_to_move(to_move);
    let number = |key: &str, default: u32| {
        fields.get(key).map_or(default, |w| w[0].parse().unwrap_or_else(|_| panic!("{name}: bad {key}")))
    };
    let answer = words("answer");
    Position {
        name: name.to_string(),
        kind: words("kind")[0].to_string(),
        question,
        area: fields
            .get("area")
            .map_or(default_area, |w| area_points(&w.iter().map(String::as_str).collect::<Vec<_>>())),
        safe: number("safe", default_safe),
        depth: number("depth", default_depth),
        snapback: fields.get("snapback").map(|w| point(&w[0])),
        chase_on_liberties: fields.get("chase").is_some_and(|w| w[0] == "liberties"),
        answer: if answer == ["none"] { Vec::new() } else { answer.iter().map(|w| point(w)).collect() },
        board,
        target,
        owner,
        to_move,
    }
}

/// The independent prover: exhaustive depth-limited minimax over the area's points.
struct Prover<'a> {
    position: &'a Position,
    memo: HashMap<(u64, Option<Point>, bool), (u32, u32)>,
    nodes: u64,
}

impl Prover<'_> {
    fn new(position: &Position) -> Prover<'_> {
        Prover { position, memo: HashMap::new(), nodes: 0 }
    }

    /// Whether the attacker captures the target, from `board`, with `depth` plies left.
    fn attacker_wins(&mut self, board: &Board, attacker_to_move: bool, depth: u32) -> bool {
        let p = self.position;
        if board.at(p.target) != Some(p.owner) {
            return true;
        }
        if attacker_to_move && board.liberties(board.group(p.target)).count_ones() >= p.safe {
            return false;
        }
        if depth == 0 {
            return false;
        }
        // The value only grows with depth (running out of depth is the defender's win), so
        // one entry per position keeps the deepest loss and the shallowest win seen.
        let key = (board.hash(), board.ko(), attacker_to_move);
        if let Some(&(lost_at, won_at)) = self.memo.get(&key) {
            if depth <= lost_at {
                return false;
            }
            if depth >= won_at {
                return true;
            }
        }
        self.nodes += 1;
        let mover = if attacker_to_move { p.owner.other() } else { p.owner };
        // Liberties of the target first: only the order of the tries, not the result.
        let liberties = board.liberties(board.group(p.target));
        let mut moves = board.empty() & p.area;
        if attacker_to_move && p.chase_on_liberties {
            moves &= liberties;
        }
        let ordered = bits(moves & liberties).chain(bits(moves & !liberties));
        let mut result = !attacker_to_move;
        for m in ordered {
            let Ok((next, _)) = board.try_play(mover, m) else { continue };
            if self.attacker_wins(&next, !attacker_to_move, depth - 1) == attacker_to_move {
                result = attacker_to_move;
                break;
            }
        }
        if result != attacker_to_move && !(attacker_to_move && p.chase_on_liberties) {
            // Either side may also pass (play elsewhere).
            result = self.attacker_wins(&board.pass(mover), !attacker_to_move, depth - 1);
        }
        let entry = self.memo.entry(key).or_insert((0, u32::MAX));
        if result {
            entry.1 = entry.1.min(depth);
        } else {
            entry.0 = entry.0.max(depth);
        }
        result
    }

    /// The moves of the area that answer the question.
    fn solutions(&mut self) -> Vec<Point> {
        let p = self.position;
        let attacking = p.to_move != p.owner;
        let mut good = Vec::new();
        let mut moves = p.board.empty() & p.area;
        if attacking && p.chase_on_liberties {
            moves &= p.board.liberties(p.board.group(p.target));
        }
        for m in bits(moves) {
            let Ok((next, _)) = p.board.try_play(p.to_move, m) else { continue };
            let wins = self.attacker_wins(&next, !attacking, p.depth - 1);
            if wins == attacking {
                good.push(m);
            }
        }
        good
    }

    /// Whether the question is a real one: the side to move would fail by passing.
    fn passing_fails(&mut self) -> bool {
        let p = self.position;
        let attacking = p.to_move != p.owner;
        let after_pass = p.board.pass(p.to_move);
        self.attacker_wins(&after_pass, !attacking, p.depth - 1) != attacking
    }
}

/// Direct check of a snapback by the rules: `color` plays `m`, its chain has one liberty,
/// the opponent takes it there, and `color` retakes at once more stones than it lost.
fn proven_snapback(board: &Board, color: Color, m: Point) -> bool {
    let Ok((next, _)) = board.try_play(color, m) else { return false };
    let liberties = next.liberties(next.group(m));
    if liberties.count_ones() != 1 {
        return false;
    }
    let q = Point(liberties.trailing_zeros() as u8);
    let Ok((after, lost)) = next.try_play(color.other(), q) else { return false };
    let back = after.liberties(after.group(q));
    back.count_ones() == 1
        && after
            .try_play(color, Point(back.trailing_zeros() as u8))
            .is_ok_and(|(_, taken)| taken.count_ones() > lost.count_ones())
}

fn names(points: &[Point]) -> String {
    if points.is_empty() {
        return "none".into();
    }
    points.iter().map(|p| p.to_gtp(9)).collect::<Vec<_>>().join(" ")
}

fn sorted(mut points: Vec<Point>) -> Vec<Point> {
    points.sort();
    points
}

/// The prover's answer for every position (run with `GO_TACTICS_PRINT=1` to see them).
#[test]
fn every_stored_answer_is_proven() {
    let positions = load();
    assert!(positions.len() >= 60, "the suite has {} positions", positions.len());
    let print = std::env::var_os("GO_TACTICS_PRINT").is_some();
    let mut wrong = Vec::new();
    for p in &positions {
        let mut prover = Prover::new(p);
        let proven = sorted(prover.solutions());
        let real = prover.passing_fails();
        if print {
            println!("{} answer {} (nodes {}, passing fails: {real})", p.name, names(&proven), prover.nodes);
        }
        if proven != sorted(p.answer.clone()) {
            wrong.push(format!("{}: stored {}, proven {}", p.name, names(&p.answer), names(&proven)));
        }
        if !real {
            wrong.push(format!("{}: passing would do as well, not a question", p.name));
        }
        if let Some(m) = p.snapback
            && !proven_snapback(&p.board, p.to_move, m)
        {
            wrong.push(format!("{}: {} is not a snapback", p.name, m.to_gtp(9)));
        }
    }
    assert!(wrong.is_empty(), "answers not proven:\n{}", wrong.join("\n"));
}

/// `search::go::tactics` agrees with the proven answers.
#[test]
fn tactics_agree_with_the_suite() {
    let mut wrong = Vec::new();
    for p in load() {
        let ok = |m: Option<Point>| match m {
            Some(m) => p.answer.contains(&m),
            None => p.answer.is_empty(),
        };
        let mut say = |what: &str, got: Option<Point>| {
            wrong.push(format!(
                "{}: {what} gave {}, answer {}",
                p.name,
                names(&got.into_iter().collect::<Vec<_>>()),
                names(&p.answer)
            ))
        };
        match p.question {
            Question::Attack(t) => {
                let got = tactics::attack(&p.board, t);
                if !ok(got) {
                    say("attack", got);
                }
                if p.kind == "ladder" {
                    let ladder = tactics::ladder_attack(&p.board, t);
                    if !ok(ladder) {
                        say("ladder_attack", ladder);
                    }
                }
            }
            Question::Defend(t) => {
                let got = tactics::defend(&p.board, t);
                if !ok(got) {
                    say("defend", got);
                }
                if p.kind == "ladder" && tactics::ladder_escapes(&p.board, t) == p.answer.is_empty() {
                    say("ladder_escapes", None);
                }
            }
            Question::Kill(e) | Question::Live(e) => {
                let got = tactics::vital_point(&p.board, e);
                if !ok(got) {
                    say("vital_point", got);
                }
            }
        }
        if let Some(m) = p.snapback {
            if !tactics::is_snapback(&p.board, p.to_move, m) {
                say("is_snapback", Some(m));
            }
            if tactics::is_bad_self_atari(&p.board, p.to_move, m) {
                say("is_bad_self_atari", Some(m));
            }
        }
    }
    assert!(wrong.is_empty(), "tactics disagree:\n{}", wrong.join("\n"));
}

/// The share of the suite the MCTS player solves at a fixed playout budget
/// (`GO_TACTICS_PLAYOUTS`, default 3000; `GO_TACTICS_SEEDS` searches per position,
/// default 1): its move must be in the answer set (positions whose answer is `none` are
/// left out). Each search runs twice: over the whole board, and with the root's moves
/// limited to the local ones (the prover's area, or the points within two of the target
/// chain where the area is the whole board). Run with `--ignored --nocapture`.
#[test]
#[ignore]
fn player_share_at_a_fixed_budget() {
    let playouts: u64 = std::env::var("GO_TACTICS_PLAYOUTS").ok().and_then(|v| v.parse().ok()).unwrap_or(3000);
    let mut solved = [0; 2];
    let mut asked = 0;
    let mut by_kind: HashMap<String, (u32, u32, u32)> = HashMap::new();
    let (mut spent, mut run) = (0.0, 0u64);
    let seeds: u64 = std::env::var("GO_TACTICS_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    for p in load() {
        if p.answer.is_empty() {
            continue;
        }
        // The local moves: the area, or near the target chain where the area is the board.
        let mask = board_mask(9);
        let local = if p.area == mask {
            let mut near = p.board.group(p.target);
            for _ in 0..2 {
                near |= neighbours(near, mask);
            }
            near & p.board.empty()
        } else {
            p.area & p.board.empty()
        };
        for seed in 1..=seeds {
            let game = Game::new(p.board, 7.0, Superko::Positional);
            let settings = MctsSettings { threads: 1, ..MctsSettings::default() };
            let limits = Limits { nodes: Some(playouts), ..Limits::default() };
            let mut moves = Vec::new();
            for excluded in [0, mask & !local] {
                let mut tree = Mcts::with_excluded(&game, seed, excluded == 0, excluded).with_settings(settings);
                let result = tree.search(&limits, &StopFlag::new(), p.to_move);
                spent += result.elapsed.as_secs_f64();
                run += result.playouts;
                moves.push(result.best);
            }
            let good: Vec<bool> = moves.iter().map(|m| matches!(m, Move::Play(m) if p.answer.contains(m))).collect();
            println!(
                "{:<24} whole board {:<6} {:<5} local {:<6} {:<5} answer {}",
                p.name,
                if good[0] { "solved" } else { "missed" },
                moves[0].to_gtp(9),
                if good[1] { "solved" } else { "missed" },
                moves[1].to_gtp(9),
                names(&p.answer)
            );
            asked += 1;
            let entry = by_kind.entry(p.kind.clone()).or_default();
            entry.2 += 1;
            for (k, &g) in good.iter().enumerate() {
                if g {
                    solved[k] += 1;
                    if k == 0 {
                        entry.0 += 1;
                    } else {
                        entry.1 += 1;
                    }
                }
            }
        }
    }
    let mut kinds: Vec<_> = by_kind.into_iter().collect();
    kinds.sort();
    for (kind, (whole, local, n)) in kinds {
        println!("{kind}: whole board {whole}/{n}, local {local}/{n}");
    }
    println!(
        "solved {} (whole board) and {} (local moves only) of {asked} at {playouts} playouts ({:.0} playouts/s)",
        solved[0],
        solved[1],
        run as f64 / spent
    );
}
