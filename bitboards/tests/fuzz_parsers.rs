//! Fuzzing the game-text parsers (issue 31): GGF, SGF, Othello OBF positions and
//! moves, Go position text and komi, Chaos Clock positions and moves, and the Phantom
//! Go view text read damaged and random input without panicking, and what each writer
//! prints reads back to the same value. The long run:
//! `PROPTEST_CASES=100000 cargo test --release -p bitboards --test fuzz_parsers`.

#[path = "../../tests/common/mutate.rs"]
mod mutate;

use bitboards::chaosclock;
use bitboards::go::{self, Color, Move as GoMove, Point, sgf};
use bitboards::othello::{self, ggf};
use bitboards::phantom::View;
use mutate::{Rng, cases, input};
use proptest::prelude::*;

const GGF_GAMES: &[&str] = &[
    "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)",
    "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[f5//1.5]W[d6/-2.00/0.31]B[PA];)",
    "(;GM[Othello]TY[6]BO[6 --------------O*----*O-------------- O]W[c4];)",
    "(;GM[Othello]BO[10 --------------------------------------------O*--------*O-------------------------------------------- *];)",
    "(;GM[Othello]PB[a\\]b]C[x\\\\y]BO[8 ---------------------------O*------*O--------------------------- *];)",
];

const SGF_GAMES: &[&str] = &[
    "(;FF[4]GM[1]CA[UTF-8]AP[sente]SZ[9]KM[7]RU[Chinese]PB[a]PW[b]RE[B+3.5]\n;B[ee];W[cc];B[];W[tt])",
    "(;GM[1]SZ[9]AB[aa][bb]AW[cc]PL[W];W[dd](;B[ee])(;B[ff]))",
    "(;SZ[5]KM[-2.5]GC[a comment \\] with a bracket];B[aa];W[ab]C[hello])",
    "(;FF[4]SZ[19];B[pd];W[dp])",
];

const OTHELLO_POSITIONS: &[&str] = &[
    "---------------------------OX------XO--------------------------- X",
    "---------------------------O*------*O--------------------------- O",
    "-- -- -- -- -- -- -- -- -- -- -- -- -- OX -- -- -- XO -- -- -- -- -- -- -- -- -- -- -- -- -- -- X",
    "XXXXXXXXOOOOOOOOXXXXXXXXOOOOOOOOXXXXXXXXOOOOOOOOXXXXXXXXOOOOOOO- O",
];

const OTHELLO_MOVES: &[&str] = &["f5", "F5", "a1", "h8", "pass", "PA", "j10", "a0"];

const GO_POSITIONS: &[&str] = &[
    "........./........./........./........./....X..../........./........./........./......... w",
    ".XO/XO./... b",
    "XXXXX/X...X/X.O.X/X...X/XXXXX w",
    "OX......./X......../........./........./........./........./........./........./......... b",
];

const KOMIS: &[&str] = &["6.5", "7", "-3.5", "0", "1000", "-1000"];

const CHAOS_POSITIONS: &[&str] = &[
    "2,1,4,3,6,5,8,7,10,9,12,11 R 0",
    "0,0,0,0,0,0,0,0,0,0,0,0 Y 0",
    "12,0,3,0,5,6,7,8,9,10,11,1 Y 5 x",
    "2,1,4,3,6,5,8,7,10,9,12,11 R 0 p",
    "1,2,3,4,5,6,7,8,9,10,11,12 Y 0 cY",
    "3,1,2,4,6,5,8,7,10,9,12,11 R 7 won:R",
];

const CHAOS_MOVES: &[&str] = &["w5", "p12", "pass", "walk3", "place 7", "W12"];

fn phantom_view_text() -> String {
    View::new(Color::BLACK).to_text()
}

fn check_lines(seed: u64, valid: &[&str], mut parse: impl FnMut(&str)) {
    let mut rng = Rng::new(seed);
    for _ in 0..40 {
        let text = input(&mut rng, valid);
        parse(&text);
    }
}

/// An Othello position reached by `plies` random moves from the start.
fn othello_position(seed: u64, plies: usize) -> othello::Position<othello::Board> {
    let mut rng = Rng::new(seed);
    let mut pos = othello::Position::<othello::Board>::start();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play(*rng.pick(&moves)).expect("a generated move is legal");
    }
    pos
}

/// A Go board of side `size` after `plies` random legal moves (and passes).
fn go_board(seed: u64, size: usize, plies: usize) -> go::Board {
    let mut rng = Rng::new(seed);
    let mut board = go::Board::new(size);
    for _ in 0..plies {
        let color = board.to_move();
        let legal: Vec<Point> = go::points(size).filter(|p| board.legal_points(color) & p.bit() != 0).collect();
        if legal.is_empty() || rng.chance(5) {
            board = board.pass(color);
        } else if let Ok((next, _)) = board.try_play(color, *rng.pick(&legal)) {
            board = next;
        }
    }
    board
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    #[test]
    fn ggf_never_panics(seed in any::<u64>()) {
        check_lines(seed, GGF_GAMES, |t| { let _ = ggf::parse(t); });
    }

    #[test]
    fn sgf_never_panics(seed in any::<u64>()) {
        check_lines(seed, SGF_GAMES, |t| { let _ = sgf::parse(t); });
    }

    #[test]
    fn othello_positions_and_moves_never_panic(seed in any::<u64>()) {
        check_lines(seed, OTHELLO_POSITIONS, |t| {
            let _ = othello::Position::<othello::Board>::parse(t);
            let _ = othello::Position::<othello::Board6>::parse(t);
            let _ = othello::Position::<othello::Board10>::parse(t);
        });
        check_lines(seed, OTHELLO_MOVES, |t| {
            for size in [6, 8, 10] {
                let _ = othello::Move::parse(t, size);
            }
        });
    }

    #[test]
    fn go_texts_never_panic(seed in any::<u64>()) {
        check_lines(seed, GO_POSITIONS, |t| { let _ = go::parse_board_text(t); });
        check_lines(seed, KOMIS, |t| {
            if let Ok(k) = go::parse_komi(t) {
                assert!(k.is_finite() && k.abs() <= go::MAX_KOMI, "{t:?} gives komi {k}");
            }
        });
        check_lines(seed, &["off", "positional", "situational"], |t| { let _ = go::Superko::parse(t); });
        check_lines(seed, &["E5", "a1", "J9", "pass"], |t| {
            for size in 2..=9 {
                let _ = Point::from_gtp(t, size);
                let _ = Point::from_sgf(t, size);
            }
        });
    }

    #[test]
    fn chaos_clock_texts_never_panic(seed in any::<u64>()) {
        check_lines(seed, CHAOS_POSITIONS, |t| {
            if let Ok(state) = chaosclock::State::parse(t) {
                // Whatever is accepted can be played from without a panic.
                for mv in state.legal_moves() {
                    let _ = state.play(mv);
                }
            }
        });
        check_lines(seed, CHAOS_MOVES, |t| { let _ = chaosclock::Move::parse(t); });
    }

    #[test]
    fn phantom_view_text_never_panics(seed in any::<u64>()) {
        let valid = phantom_view_text();
        check_lines(seed, &[valid.as_str()], |t| { let _ = View::from_text(t); });
    }

    #[test]
    fn othello_positions_round_trip(seed in any::<u64>(), plies in 0usize..60) {
        let pos = othello_position(seed, plies);
        prop_assert_eq!(othello::Position::<othello::Board>::parse(&pos.to_string()), Ok(pos));
    }

    #[test]
    fn go_position_text_round_trips(seed in any::<u64>(), size in 2usize..=9, plies in 0usize..80) {
        let board = go_board(seed, size, plies);
        let text = go::board_text(&board);
        let read = go::parse_board_text(&text).map(|b| go::board_text(&b));
        prop_assert_eq!(read, Ok(text));
    }

    #[test]
    fn chaos_clock_positions_round_trip(seed in any::<u64>(), plies in 0usize..40) {
        let mut rng = Rng::new(seed);
        let mut state = chaosclock::random_opening(seed);
        for _ in 0..plies {
            let moves = state.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = *rng.pick(&moves);
            prop_assert_eq!(chaosclock::Move::parse(&mv.to_string()), Ok(mv));
            state = state.play(mv).expect("a generated move is legal");
            let text = state.to_string();
            let read = chaosclock::State::parse(&text);
            prop_assert_eq!(read.map(|s| s.to_string()), Ok(text));
        }
    }

    #[test]
    fn phantom_views_round_trip(black in any::<bool>(), own in any::<u128>(), opponent in any::<u128>(), count in 0u32..81) {
        let mask = go::board_mask(9);
        let own = own & mask;
        let view = View::from_stones(if black { Color::BLACK } else { Color::WHITE }, own, opponent & mask & !own, count);
        prop_assert_eq!(View::from_text(&view.to_text()), Ok(view));
    }

    #[test]
    fn ggf_games_round_trip(seed in any::<u64>(), plies in 0usize..60, black_name in "[ -~]{0,16}",
        evals in proptest::collection::vec(proptest::option::of((-6400i32..6400, proptest::option::of(0u32..100_000))), 60)) {
        let pos = othello_position(seed, 0);
        let mut rng = Rng::new(seed);
        let mut at = pos;
        let mut moves = Vec::new();
        for eval in evals.iter().take(plies) {
            let legal = at.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = *rng.pick(&legal);
            moves.push(ggf::GgfMove {
                black: at.side_to_move() == othello::Color::BLACK,
                text: mv.name(8).to_uppercase(),
                eval: eval.map(|(e, _)| f64::from(e) / 100.0),
                time: eval.and_then(|(_, t)| t.map(|t| f64::from(t) / 100.0)),
            });
            at = at.play(mv).expect("legal");
        }
        let board: String = pos.to_string().chars().take(64).collect();
        let text = ggf::write(&[("GM", "Othello".to_string()), ("PB", black_name.clone())], 8, &board, true, &moves);
        let game = ggf::parse(&text);
        prop_assert!(game.is_ok(), "{text}: {game:?}");
        let game = game.expect("checked");
        prop_assert_eq!(game.property("PB"), Some(black_name.as_str()), "{}", text);
        prop_assert_eq!(game.board.as_deref(), Some(board.as_str()));
        prop_assert!(game.black_to_move);
        prop_assert_eq!(game.moves, moves, "{}", text);
    }

    #[test]
    fn sgf_games_round_trip(size in 2usize..=9, komi in proptest::option::of(-2000i32..2000),
        black in proptest::option::of("[ -~]{0,16}"), comment in proptest::option::of("\\PC{0,30}"),
        to_play in proptest::option::of(any::<bool>()),
        setup in proptest::collection::btree_map((0usize..9, 0usize..9), any::<bool>(), 0..10),
        moves in proptest::collection::vec((any::<bool>(), proptest::option::of((0usize..9, 0usize..9))), 0..30)) {
        let color = |b: bool| if b { Color::BLACK } else { Color::WHITE };
        let on_board = |&(r, c): &(usize, usize)| r < size && c < size;
        let game = sgf::SgfGame {
            size,
            komi: komi.map(|k| f64::from(k) / 2.0),
            black,
            comment,
            to_play: to_play.map(color),
            setup: setup.iter().filter(|(p, _)| on_board(p)).map(|(&(r, c), &b)| (color(b), Point::new(r, c))).collect(),
            moves: moves.iter().filter(|(_, p)| p.as_ref().is_none_or(on_board))
                .map(|&(b, p)| (color(b), p.map_or(GoMove::Pass, |(r, c)| GoMove::Play(Point::new(r, c))))).collect(),
            ..Default::default()
        };
        let text = sgf::write(&game);
        let mut read = sgf::parse(&text);
        // The reader lists the setup black stones first, as the writer prints them.
        let mut expected = game.clone();
        expected.setup.sort_by_key(|(c, _)| *c != Color::BLACK);
        if let Ok(g) = read.as_mut() {
            g.setup.sort_by_key(|(c, _)| *c != Color::BLACK);
        }
        prop_assert_eq!(read, Ok(expected), "{}", text);
    }
}
