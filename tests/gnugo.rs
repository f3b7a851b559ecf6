//! Our Go rules against GNU Go 3.8 over GTP: random games on 9×9, 7×7 and 5×5 with
//! simple ko and with positional superko. After every move both programs must agree
//! on the legality of every point (GTP `is_legal`) and on the stones on the board
//! (`list_stones`, so on every capture); at the end, when only single-point eyes are
//! left and no dead stones remain, our area count must equal GNU Go's `final_score`.

use crate::common;

use std::collections::BTreeSet;

use bitboards::go::{Board, Color, Game, Move, Point, Superko, bits};
use bitboards::rng::splitmix64;
use common::{Engine, REPLY};

const GNUGO: &str = "/usr/games/gnugo";

/// Sends commands in one batch and reads their replies (text after `= `).
fn batch(g: &mut Engine, commands: &[String]) -> Vec<String> {
    let mut text = String::new();
    for c in commands {
        text.push_str(c);
        text.push('\n');
    }
    g.send_bytes(text.as_bytes());
    let mut replies = Vec::with_capacity(commands.len());
    for c in commands {
        let first = g.recv(REPLY);
        assert!(first.starts_with('='), "GNU Go refused '{c}': {first}");
        let mut reply = first[1..].trim().to_string();
        loop {
            let l = g.recv(REPLY);
            if l.is_empty() {
                break;
            }
            reply.push('\n');
            reply.push_str(&l);
        }
        replies.push(reply);
    }
    replies
}

fn color_word(c: Color) -> &'static str {
    if c == Color::BLACK { "black" } else { "white" }
}

/// True if `p` is empty and every neighbour is a stone of `c` (or off the board).
fn own_eye(b: &Board, p: Point, c: Color) -> bool {
    let size = b.size();
    let (r, col) = (p.row() as i32, p.col() as i32);
    b.at(p).is_none()
        && [(r - 1, col), (r + 1, col), (r, col - 1), (r, col + 1)].iter().all(|&(rr, cc)| {
            rr < 0
                || cc < 0
                || rr >= size as i32
                || cc >= size as i32
                || b.at(Point::new(rr as usize, cc as usize)) == Some(c)
        })
}

fn play_and_compare(size: usize, superko: Superko, seed: u64) -> Option<f64> {
    assert!(std::path::Path::new(GNUGO).exists(), "GNU Go is needed: apt-get install -y gnugo (.ci/run installs it)");
    let ko_flag = if superko == Superko::Positional { "--positional-superko" } else { "--simple-ko" };
    let mut g = Engine::start_program(GNUGO, &["--mode", "gtp", "--chinese-rules", ko_flag]);
    batch(&mut g, &[format!("boardsize {size}"), "clear_board".into(), "komi 7.5".into()]);
    let mut game = Game::new(Board::new(size), 7.5, superko);
    let mut state = seed;
    let mut passes = 0;
    let mut moves = 0;
    // Random play ends when, after two passes, the side to move still has nothing
    // to play (two passes clear a ko, so a capture it blocked comes back).
    loop {
        if moves > 3 * size * size {
            return None; // a cycle: nothing to score
        }
        let color = game.board().to_move();
        // Legality of every empty point.
        let empty: Vec<Point> = bits(game.board().empty()).collect();
        let queries: Vec<String> =
            empty.iter().map(|p| format!("is_legal {} {}", color_word(color), p.to_gtp(size))).collect();
        let answers = batch(&mut g, &queries);
        let ours = game.legal_points(color);
        for (p, a) in empty.iter().zip(&answers) {
            let theirs = a == "1";
            assert_eq!(
                ours & p.bit() != 0,
                theirs,
                "legality of {} for {color:?} (seed {seed})\n{}",
                p.to_gtp(size),
                game.board().draw()
            );
        }
        // A random legal move that does not fill one's own eye, else a pass.
        let choices: Vec<Point> = bits(ours).filter(|&p| !own_eye(game.board(), p, color)).collect();
        if choices.is_empty() && passes >= 2 {
            break;
        }
        let mv = if choices.is_empty() {
            Move::Pass
        } else {
            state = splitmix64(state);
            Move::Play(choices[(state % choices.len() as u64) as usize])
        };
        let vertex = match mv {
            Move::Play(p) => p.to_gtp(size),
            Move::Pass => "pass".into(),
        };
        game.play(color, mv).unwrap();
        batch(&mut g, &[format!("play {} {vertex}", color_word(color))]);
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
        moves += 1;
        // The same stones on both boards (captures included).
        let lists = batch(&mut g, &["list_stones black".into(), "list_stones white".into()]);
        for (c, list) in [(Color::BLACK, &lists[0]), (Color::WHITE, &lists[1])] {
            let theirs: BTreeSet<String> = list.split_whitespace().map(str::to_string).collect();
            let ours: BTreeSet<String> = bits(game.board().stones(c)).map(|p| p.to_gtp(size)).collect();
            assert_eq!(ours, theirs, "{c:?} stones after move {moves} (seed {seed})");
        }
    }
    // Compare scores only where no dead stones remain: a group left in atari (say
    // behind a ko when both passed) is dead to GNU Go, alive to a plain area count.
    let board = game.board();
    let in_atari = bits(board.stones(Color::BLACK) | board.stones(Color::WHITE))
        .any(|p| board.liberties(board.group(p)).count_ones() < 2);
    if in_atari {
        batch(&mut g, &["quit".into()]);
        return None;
    }
    let score = game.score(0);
    let theirs = batch(&mut g, &["final_score".into()]).pop().unwrap();
    let expected = score.result();
    let normalise = |s: &str| s.trim_end_matches(".0").to_string();
    assert_eq!(normalise(&theirs), normalise(&expected), "final score (seed {seed})\n{}", game.board().draw());
    batch(&mut g, &["quit".into()]);
    Some(score.margin())
}

#[test]
fn random_games_on_9x9_agree_with_gnu_go() {
    let mut scored = 0;
    // About half the games cannot be scored (simple-ko games that cycle, superko games
    // that leave a group in atari); every move of every game is still compared.
    for seed in 0..360 {
        let superko = if seed % 2 == 0 { Superko::Off } else { Superko::Positional };
        if play_and_compare(9, superko, seed).is_some() {
            scored += 1;
        }
    }
    assert!(scored >= 150, "{scored} games scored");
}

#[test]
fn random_games_on_small_boards_agree_with_gnu_go() {
    let mut scored = 0;
    for seed in 1000..1200 {
        let size = if seed % 2 == 0 { 5 } else { 7 };
        let superko = if seed % 4 < 2 { Superko::Off } else { Superko::Positional };
        if play_and_compare(size, superko, seed).is_some() {
            scored += 1;
        }
    }
    assert!(scored >= 150, "{scored} games scored");
}
