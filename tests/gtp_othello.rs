//! Othello over GTP as Quarry drives it, and our rules against GRhino's GTP engine.

use crate::common;

use bitboards::othello::{Board, Move, Position};
use bitboards::rng::splitmix64;
use common::{Engine, REPLY, gtp};

#[test]
fn a_quarry_session() {
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "1 protocol_version"), "=1 2");
    assert_eq!(gtp(&mut e, "2 name"), "=2 sente");
    assert!(gtp(&mut e, "3 version").starts_with("=3 "));
    let commands = gtp(&mut e, "4 list_commands");
    for c in ["genmove", "play", "undo", "set_game", "list_games", "final_score"] {
        assert!(commands.lines().any(|l| l.trim_start_matches("=4 ") == c), "{c} missing");
    }
    assert!(gtp(&mut e, "5 list_games").contains("Othello"));
    assert_eq!(gtp(&mut e, "6 set_game Othello"), "=6");
    assert_eq!(gtp(&mut e, "7 boardsize 8"), "=7");
    assert_eq!(gtp(&mut e, "8 boardsize 9"), "?8 unacceptable size");
    assert_eq!(gtp(&mut e, "9 clear_board"), "=9");
    assert_eq!(gtp(&mut e, "10 play black d3"), "=10");
    let reply = gtp(&mut e, "11 genmove white");
    let mv = reply.strip_prefix("=11 ").unwrap();
    let after_d3 = Position::<Board>::start().play(Move::parse("d3", 8).unwrap()).unwrap();
    assert!(after_d3.legal_moves().contains(&Move::parse(mv, 8).unwrap()), "{mv}");
    assert_eq!(gtp(&mut e, "12 play black a1"), "?12 illegal move");
    assert_eq!(gtp(&mut e, "13 play purple d3"), "?13 syntax error");
    assert_eq!(gtp(&mut e, "14 undo"), "=14");
    assert_eq!(gtp(&mut e, "15 undo"), "=15");
    assert_eq!(gtp(&mut e, "16 undo"), "?16 cannot undo");
    assert!(gtp(&mut e, "17 showboard").contains(" 4 . . + O X . . ."));
    assert_eq!(gtp(&mut e, "18 final_score"), "=18 0");
    assert_eq!(gtp(&mut e, "19 frobnicate"), "?19 unknown command");
    assert_eq!(gtp(&mut e, "20 time_left white 10 0"), "=20");
    assert_eq!(gtp(&mut e, "21 quit"), "=21");
    assert!(e.wait_exit(REPLY));
}

/// Plays games where every move is chosen by our rules (randomly) or by GRhino, and
/// checks that GRhino accepts ours and that its moves are legal by ours.
#[test]
fn our_rules_agree_with_grhino() {
    let rhino = "/usr/games/gtp-rhino";
    assert!(
        std::path::Path::new(rhino).exists(),
        "GRhino's GTP engine is needed: apt-get install -y grhino (.ci/run installs it)"
    );
    let mut state = 11u64;
    for game in 0..6 {
        let mut g = Engine::start_program(rhino, &[]);
        assert_eq!(gtp(&mut g, "set_game Othello"), "=");
        assert_eq!(gtp(&mut g, "clear_board"), "=");
        let mut pos = Position::<Board>::start();
        let mut black = true;
        while !pos.is_game_over() {
            let color = if black { "black" } else { "white" };
            let legal = pos.legal_moves();
            let mv = if (game + pos.board().empty_count() as usize).is_multiple_of(3) {
                let reply = gtp(&mut g, &format!("genmove {color}"));
                let text = reply.strip_prefix("= ").unwrap_or_else(|| panic!("genmove: {reply}"));
                let mv = Move::parse(text, 8).unwrap();
                assert!(legal.contains(&mv), "GRhino played {text} in {pos}");
                mv
            } else {
                state = splitmix64(state);
                let mv = legal[(state % legal.len() as u64) as usize];
                if mv != Move::Pass {
                    let reply = gtp(&mut g, &format!("play {color} {}", mv.name(8)));
                    assert_eq!(reply, "=", "GRhino refused {} in {pos}", mv.name(8));
                }
                mv
            };
            pos = pos.play(mv).unwrap();
            black = !black;
        }
        let r = pos.result().unwrap();
        let expected = match r.black_margin() {
            0 => "0".to_string(),
            m if m > 0 => format!("B+{m}"),
            m => format!("W+{}", -m),
        };
        assert_eq!(gtp(&mut g, "final_score"), format!("= {expected}"), "final score of game {game}");
    }
}
