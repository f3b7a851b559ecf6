//! Fuzzing the protocol parsers (issue 31): UGI+, GTP, NBoard and the Phantom Go
//! platform protocol read damaged and random lines without panicking, their errors
//! fit on one output line, and what the writers print parses back to the same value.
//! `PROPTEST_CASES=100000 cargo test --release -p protocol --test fuzz_protocol` is the
//! long run (docs/testing.md).

#[path = "../../tests/common/mutate.rs"]
mod mutate;

use bitboards::go::{LetterOrder, Move, Point};
use mutate::{Rng, cases, input};
use proptest::prelude::*;
use protocol::{gtp, nboard, phantom, ugi};

/// Lines to damage: one of every UGI+ command form.
const UGI_LINES: &[&str] = &[
    "ugi",
    "uci",
    "isready",
    "setoption name Hash value 64",
    "setoption name Game value go",
    "setoption name BoardSize value 9",
    "uginewgame",
    "position startpos",
    "position startpos moves f5 d6 c3",
    "position fen ---------------------------OX------XO--------------------------- X moves f5",
    "position fen 1,2,3,4,5,6,7,8,9,10,11,12 Y 0 moves 3",
    "go",
    "go infinite",
    "go movetime 100",
    "go depth 5 nodes 1000",
    "go p1time 60000 p2time 60000 p1inc 1000 p2inc 1000 movestogo 40",
    "go wtime 1 btime 2 winc 3 binc 4",
    "stop",
    "quit",
    "query gameover",
    "query p1turn",
    "query result",
    "query legalmoves",
    "query islegal E5",
    "query fen",
    "query view b",
    "query full",
    "perft 5",
    "bench 3",
    "d",
];

const GTP_LINES: &[&str] = &[
    "protocol_version",
    "1 name",
    "2 boardsize 9",
    "clear_board",
    "komi 6.5",
    "12 play black E5",
    "play w pass",
    "genmove b",
    "undo",
    "time_settings 300 30 5",
    "time_left b 60 0",
    "final_score",
    "list_commands",
    "showboard # a comment",
    "quit",
];

const NBOARD_LINES: &[&str] = &[
    "nboard 2",
    "set depth 12",
    "set game (;GM[Othello]PC[NBoard]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)",
    "set contempt 0",
    "move f5",
    "move F5/1.00/2.3",
    "hint 4",
    "go",
    "ping 7",
    "learn",
    "analyze",
    "quit",
];

const PHANTOM_LINES: &[&str] = &[
    "name?",
    "name ?",
    "new black",
    "new white",
    "move go",
    "move pass",
    "accept",
    "refuse",
    "take 2 ABCD",
    "take 2 AB CD",
    "access take 1 EE",
    "taked 3 AAABAC",
    "error",
    "end",
    "quit",
];

const REPLY_LINES: &[&str] = &["name sente", "move EE", "move pass", "move AI"];

fn one_line(error: &impl std::fmt::Display, line: &str) -> Result<(), TestCaseError> {
    let text = error.to_string();
    prop_assert!(!text.contains('\n') && !text.contains('\r'), "{line:?} gives an error over two lines: {text:?}");
    Ok(())
}

fn point() -> impl Strategy<Value = Point> {
    (0usize..9, 0usize..9).prop_map(|(r, c)| Point::new(r, c))
}

fn order() -> impl Strategy<Value = LetterOrder> {
    prop_oneof![Just(LetterOrder::RowColumn), Just(LetterOrder::ColumnRow)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    #[test]
    fn ugi_lines_never_panic(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        for _ in 0..50 {
            let line = input(&mut rng, UGI_LINES);
            if let Err(e) = ugi::parse(&line) {
                one_line(&e, &line)?;
            }
        }
    }

    #[test]
    fn gtp_lines_never_panic_and_keep_the_id(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        for _ in 0..50 {
            let line = input(&mut rng, GTP_LINES);
            if let Some(c) = gtp::parse(&line) {
                prop_assert!(!c.name.is_empty(), "{line:?}");
                prop_assert!(c.args.iter().all(|a| !a.is_empty() && !a.contains('#')), "{line:?}: {c:?}");
            }
        }
    }

    #[test]
    fn nboard_lines_never_panic(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        for _ in 0..50 {
            let line = input(&mut rng, NBOARD_LINES);
            if let Err(e) = nboard::parse(&line) {
                one_line(&e, &line)?;
            }
        }
    }

    #[test]
    fn phantom_platform_lines_never_panic(seed in any::<u64>(), order in order()) {
        let mut rng = Rng::new(seed);
        for _ in 0..50 {
            let line = input(&mut rng, PHANTOM_LINES);
            if let Err(e) = phantom::parse(&line, order) {
                one_line(&e, &line)?;
            }
            let reply = input(&mut rng, REPLY_LINES);
            if let Err(e) = phantom::parse_reply(&reply, order) {
                one_line(&e, &reply)?;
            }
        }
    }

    #[test]
    fn ugi_go_limits_round_trip(
        p1time in proptest::option::of(any::<u64>()),
        p2time in proptest::option::of(any::<u64>()),
        movestogo in proptest::option::of(any::<u32>()),
        depth in proptest::option::of(any::<u32>()),
        nodes in proptest::option::of(any::<u64>()),
        movetime in proptest::option::of(any::<u64>()),
        infinite in any::<bool>(),
    ) {
        let go = ugi::GoCommand { p1time, p2time, movestogo, depth, nodes, movetime, infinite, ..Default::default() };
        let mut line = String::from("go");
        for (key, value) in [("p1time", p1time), ("p2time", p2time), ("movestogo", movestogo.map(u64::from)),
            ("depth", depth.map(u64::from)), ("nodes", nodes), ("movetime", movetime)] {
            if let Some(v) = value {
                line.push_str(&format!(" {key} {v}"));
            }
        }
        if infinite {
            line.push_str(" infinite");
        }
        prop_assert_eq!(ugi::parse(&line), Ok(ugi::Command::Go(go)));
    }

    #[test]
    fn ugi_position_moves_round_trip(moves in proptest::collection::vec("[a-hA-H][1-8]|pass|[1-9]|1[0-2]", 0..30)) {
        let line = format!("position startpos moves {}", moves.join(" "));
        prop_assert_eq!(ugi::parse(&line), Ok(ugi::Command::Position { start: ugi::StartPosition::StartPos, moves }));
    }

    #[test]
    fn gtp_commands_round_trip(id in proptest::option::of("[1-9][0-9]{0,40}"), name in "[a-z_]{1,20}",
        args in proptest::collection::vec("[!-\"$-~]{1,12}", 0..5)) {
        // Ids of any length, beyond 64 bits too.
        let line = match &id {
            Some(i) => format!("{i} {name} {}", args.join(" ")),
            None => format!("{name} {}", args.join(" ")),
        };
        prop_assert_eq!(gtp::parse(&line), Some(gtp::Command { id, name, args }));
    }

    #[test]
    fn phantom_moves_and_captures_round_trip(order in order(), mv in proptest::option::of(point()),
        captured in proptest::collection::btree_set((0usize..9, 0usize..9), 0..12)) {
        let mv = mv.map_or(Move::Pass, Move::Play);
        prop_assert_eq!(phantom::parse_reply(&phantom::move_line(mv, order), order), Ok(phantom::Reply::Move(mv)));
        let points: Vec<Point> = captured.iter().map(|&(r, c)| Point::new(r, c)).collect();
        for kind in ["take", "access take", "taked"] {
            let line = phantom::capture_line(kind, &points, order);
            let expected = match kind {
                "take" => phantom::Command::Take(points.clone()),
                "access take" => phantom::Command::AccessTake(points.clone()),
                _ => phantom::Command::Taked(points.clone()),
            };
            prop_assert_eq!(phantom::parse(&line, order), Ok(expected), "{}", line);
        }
    }

    #[test]
    fn phantom_names_round_trip(name in "\\PC{1,30}") {
        let line = phantom::name_line(&name);
        let expected: String = name.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        prop_assume!(!expected.trim().is_empty());
        prop_assert_eq!(phantom::parse_reply(&line, LetterOrder::RowColumn), Ok(phantom::Reply::Name(expected.trim().to_string())));
    }
}
