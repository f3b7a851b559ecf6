//! The exact solver on the FFO suite's endgames.
//!
//! From every FFO position with at most 24 empties (#40–#46 and #60; the deeper ones
//! are the benchmark's, `sente ffo`) we walk forward along a principal variation: the
//! file's best move, then at each position a move proven optimal by null-window
//! probes at the known score (every position on the line is worth ± the file's
//! score). Every position reached with 20 to 16 empties is solved exactly on one and
//! on two threads; both must give that score. Hand-made cases cover passes inside the
//! search, wipe-outs and draws.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use bitboards::othello::{Board, Move, squares};
use search::othello::{SolveLimits, SolveMode, Solver};

fn problems(file: &str) -> Vec<ffo::Problem> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("problems").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    ffo::parse_file(&text).unwrap()
}

/// A move of `board` whose child scores exactly `-score` (so the move keeps `score`).
fn optimal_move(solver: &Solver, board: Board, score: i32, stop: &AtomicBool) -> Option<(Board, i32)> {
    if board.moves() == 0 {
        return (board.opponent_moves() != 0).then(|| (board.pass(), -score));
    }
    squares(board.moves()).find_map(|sq| {
        let child = board.play(sq).expect("legal");
        // The child is worth at least -score; it is a best move iff not more.
        let probe = solver.probe(child, -score, stop).expect("not stopped");
        (probe <= -score).then_some((child, -score))
    })
}

#[test]
fn principal_variations_of_the_ffo_problems_solve_to_the_file_scores() {
    let one = Solver::new(64, 1);
    let two = Solver::new(64, 2);
    let stop = AtomicBool::new(false);
    let mut solved = 0;
    let mut all = problems("ffo_40_59.txt");
    all.extend(problems("ffo_60_79.txt"));
    let shallow: Vec<_> = all.into_iter().filter(|p| p.position.board().empty_count() <= 24).collect();
    assert_eq!(shallow.len(), 8, "#40-#46 and #60");
    for p in shallow {
        let number = p.number.unwrap();
        let (mut board, mut score) = (p.position.board(), p.score.unwrap());
        // The file's first best move.
        let Move::Play(sq) = p.best_moves[0] else { panic!("#{number}: a pass as best move") };
        board = board.play(sq).unwrap();
        score = -score;
        while board.empty_count() > 20 {
            (board, score) =
                optimal_move(&two, board, score, &stop).unwrap_or_else(|| panic!("#{number}: no optimal move"));
        }
        // Solve down the line to 16 empties, checking every position.
        while board.empty_count() >= 16 && !board.is_game_over() {
            for solver in [&one, &two] {
                let s = solver.solve(board, SolveMode::Exact, &stop, SolveLimits::default()).unwrap();
                assert_eq!(s.score, score, "#{number} at {} empties: {board:?}", board.empty_count());
            }
            solved += 1;
            (board, score) = optimal_move(&two, board, score, &stop).unwrap();
        }
    }
    assert!(solved >= 35, "{solved} positions solved");
}

/// Brute force for the small cases; also reports whether the tree holds a pass.
fn minimax(b: Board, saw_pass: &mut bool) -> i32 {
    if b.moves() == 0 {
        if b.opponent_moves() == 0 {
            return b.final_score();
        }
        *saw_pass = true;
        return -minimax(b.pass(), saw_pass);
    }
    squares(b.moves()).map(|sq| -minimax(b.play(sq).unwrap(), saw_pass)).max().unwrap()
}

/// Positions with `empties` empty squares from seeded random play.
fn random_positions(empties: u32) -> impl Iterator<Item = Board> {
    (0u64..).filter_map(move |seed| {
        let mut b = Board::start();
        let mut state = seed;
        while b.empty_count() > empties {
            let moves: Vec<u8> = squares(b.moves()).collect();
            if moves.is_empty() {
                if b.opponent_moves() == 0 {
                    return None;
                }
                b = b.pass();
                continue;
            }
            state = bitboards::rng::splitmix64(state);
            b = b.play(moves[(state % moves.len() as u64) as usize]).unwrap();
        }
        Some(b)
    })
}

#[test]
fn passes_wipe_outs_and_draws() {
    let solver = Solver::new(16, 2);
    let stop = AtomicBool::new(false);
    let check = |b: Board, what: &str| {
        let expected = minimax(b, &mut false);
        let s = solver.solve(b, SolveMode::Exact, &stop, SolveLimits::default()).unwrap();
        assert_eq!(s.score, expected, "{what}: {b:?}");
        let all = solver.solve(b, SolveMode::AllMoves, &stop, SolveLimits::default()).unwrap();
        assert_eq!(all.score, expected, "{what} (all moves): {b:?}");
        let wld = solver.solve(b, SolveMode::WinLossDraw, &stop, SolveLimits::default()).unwrap();
        assert_eq!(wld.score.signum(), expected.signum(), "{what} (win/loss/draw): {b:?}");
    };
    // The side to move must pass at the root.
    let root_pass = random_positions(10).find(|b| b.moves() == 0 && b.opponent_moves() != 0).unwrap();
    check(root_pass, "pass at the root");
    // Passes inside the search tree (several positions).
    let inner: Vec<Board> = random_positions(11)
        .filter(|b| {
            b.moves() != 0 && {
                let mut saw = false;
                minimax(*b, &mut saw);
                saw
            }
        })
        .take(5)
        .collect();
    for b in inner {
        check(b, "pass inside the tree");
    }
    // Exact draws.
    let draws: Vec<Board> = random_positions(10).filter(|b| minimax(*b, &mut false) == 0).take(3).collect();
    for b in draws {
        check(b, "draw");
    }
    // Wipe-outs: black takes white's last disc with most of the board empty, and a
    // position where the side to move loses everything.
    let wipe = Board::new(1, 1 << 1); // black a1, white b1: c1 wipes white out.
    assert_eq!(minimax(wipe, &mut false), 64);
    check(wipe, "wipe-out");
    check(wipe.pass(), "the side about to be wiped out must pass");
}
