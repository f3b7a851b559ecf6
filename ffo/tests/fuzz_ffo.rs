//! Fuzzing the FFO/OBF problem reader (issue 31): damaged and random lines and files
//! never panic, every error names its line, and a problem line written from a
//! generated position, moves and scores reads back to the same problem. The long run:
//! `PROPTEST_CASES=100000 cargo test --release -p ffo --test fuzz_ffo`.

#[path = "../../tests/common/mutate.rs"]
mod mutate;

use bitboards::othello::{Board, Move, Position};
use mutate::{Rng, cases, input};
use proptest::prelude::*;

const LINES: &[&str] = &[
    "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X ; #40 ; A2 ; +38",
    "-XXXX---X-XXOX--XXXXOXX-XOOXOOOOXOOOOOO-XXOOOO--X---O----------- O ; #61 ; H3,G1 ; -14",
    "---------------------------OX------XO--------------------------- X; f5:+0; d6:-2; c4:0;",
    "---------------------------OX------XO--------------------------- X",
    "% a comment",
    "",
];

/// A position after `plies` random moves from the start.
fn position(seed: u64, plies: usize) -> Position<Board> {
    let mut rng = Rng::new(seed);
    let mut pos = Position::<Board>::start();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play(*rng.pick(&moves)).expect("a generated move is legal");
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    #[test]
    fn problem_lines_never_panic(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        for _ in 0..40 {
            // One line of a file: no line break inside.
            let line = input(&mut rng, LINES).replace('\n', " ");
            if let Err(e) = ffo::parse_line(&line, 7) {
                prop_assert_eq!(e.line, 7);
                prop_assert!(!e.to_string().contains('\n'), "{:?}: {}", line, e);
            }
        }
    }

    #[test]
    fn problem_files_never_panic(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let file: Vec<String> = (0..1 + rng.below(8)).map(|_| input(&mut rng, LINES)).collect();
        let text = file.join("\n");
        match ffo::parse_file(&text) {
            Ok(problems) => prop_assert!(problems.iter().all(|p| p.line >= 1 && p.line <= text.lines().count())),
            Err(e) => prop_assert!(e.line >= 1 && e.line <= text.lines().count(), "{e}"),
        }
    }

    #[test]
    fn ffo_problem_lines_round_trip(seed in any::<u64>(), plies in 0usize..50, number in any::<u32>(),
        score in -64i32..=64, best in 1usize..3) {
        let pos = position(seed, plies);
        let moves = pos.legal_moves();
        prop_assume!(!moves.is_empty() && moves[0] != Move::Pass);
        let best: Vec<Move> = moves.iter().copied().take(best).collect();
        let names: Vec<String> = best.iter().map(|m| m.name(8).to_uppercase()).collect();
        let line = format!("{pos} ; #{number} ; {} ; {score:+}", names.join(","));
        let problem = ffo::parse_line(&line, 3).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let problem = problem.ok_or_else(|| TestCaseError::fail("no problem"))?;
        prop_assert_eq!(problem.position, pos);
        prop_assert_eq!(problem.number, Some(number));
        prop_assert_eq!(problem.best_moves, best);
        prop_assert_eq!(problem.score, Some(score));
    }

    #[test]
    fn obf_move_scores_round_trip(seed in any::<u64>(), plies in 0usize..50, scores in proptest::collection::vec(-64i32..=64, 1..20)) {
        let pos = position(seed, plies);
        let scored: Vec<(Move, i32)> = pos.legal_moves().into_iter().zip(scores).collect();
        let fields: Vec<String> = scored.iter().map(|(m, s)| format!("{}:{s:+}", m.name(8))).collect();
        let line = format!("{pos}; {};", fields.join("; "));
        let problem = ffo::parse_line(&line, 1).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let problem = problem.ok_or_else(|| TestCaseError::fail("no problem"))?;
        prop_assert_eq!(problem.position, pos);
        prop_assert_eq!(&problem.move_scores, &scored);
        prop_assert_eq!(problem.score, scored.iter().map(|&(_, s)| s).max());
    }
}
