//! The exact solver against an independent brute-force solver, on positions from
//! random play and on hand-made cases.

use std::sync::atomic::AtomicBool;

use bitboards::othello::{Board, squares};
use bitboards::rng::splitmix64;
use search::othello::{NULL_WINDOW_SPLIT_MIN_EMPTIES, SolveLimits, SolveMode, Solver};

/// Plain negamax with alpha-beta on the `bitboards` API only: no table, no ordering.
fn brute_force(b: Board, mut alpha: i32, beta: i32) -> i32 {
    let moves = b.moves();
    if moves == 0 {
        if b.opponent_moves() == 0 {
            return b.final_score();
        }
        return -brute_force(b.pass(), -beta, -alpha);
    }
    let mut best = -100;
    for sq in squares(moves) {
        let v = -brute_force(b.play(sq).unwrap(), -beta, -alpha);
        if v > best {
            best = v;
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// A position with `empties` empty squares from seeded random play.
fn random_position(seed: u64, empties: u32) -> Option<Board> {
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
        state = splitmix64(state);
        b = b.play(moves[(state % moves.len() as u64) as usize]).unwrap();
    }
    Some(b)
}

#[test]
fn exact_scores_match_brute_force() {
    let solver = Solver::new(16, 1);
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    for seed in 0..300u64 {
        let empties = 4 + (seed % 9) as u32;
        let Some(b) = random_position(seed, empties) else {
            continue;
        };
        let expected = brute_force(b, -64, 64);
        let got = solver.solve(b, SolveMode::Exact, &stop, SolveLimits::default()).unwrap();
        assert_eq!(got.score, expected, "seed {seed}, {empties} empties: {b:?}");
        if let Some(best) = got.best_move {
            let after = b.play(best).unwrap();
            assert_eq!(-brute_force(after, -64, 64), expected, "best move of seed {seed} is not best");
        }
        let wld = solver.solve(b, SolveMode::WinLossDraw, &stop, SolveLimits::default()).unwrap();
        assert_eq!(wld.score.signum(), expected.signum(), "WLD of seed {seed}");
        checked += 1;
    }
    assert!(checked > 250);
}

#[test]
fn all_moves_mode_matches_brute_force_per_move() {
    let solver = Solver::new(16, 1);
    let stop = AtomicBool::new(false);
    for seed in 1000..1040u64 {
        let Some(b) = random_position(seed, 12) else {
            continue;
        };
        let got = solver.solve(b, SolveMode::AllMoves, &stop, SolveLimits::default()).unwrap();
        let legal = b.moves();
        if legal == 0 {
            continue;
        }
        assert_eq!(got.move_scores.len() as u32, legal.count_ones());
        for &(sq, score) in &got.move_scores {
            let expected = -brute_force(b.play(sq).unwrap(), -64, 64);
            assert_eq!(score, expected, "seed {seed} move {sq}");
        }
        assert_eq!(got.score, got.move_scores[0].1);
    }
}

#[test]
fn deeper_positions_agree_between_one_and_two_threads() {
    let one = Solver::new(32, 1);
    let two = Solver::new(32, 2);
    let stop = AtomicBool::new(false);
    // Deep enough for the null-window nodes below the root to split too.
    for seed in 2000..2006u64 {
        let Some(b) = random_position(seed, NULL_WINDOW_SPLIT_MIN_EMPTIES + 1) else {
            continue;
        };
        let a = one.solve(b, SolveMode::Exact, &stop, SolveLimits::default()).unwrap();
        let c = two.solve(b, SolveMode::Exact, &stop, SolveLimits::default()).unwrap();
        assert_eq!(a.score, c.score, "seed {seed}");
    }
}

#[test]
fn midgame_searches_agree_between_one_and_two_threads() {
    use search::othello::ThinkLimits;
    let one = Solver::new(32, 1);
    let two = Solver::new(32, 2);
    let stop = AtomicBool::new(false);
    // Deep enough for the midgame nodes to split (from 6 plies left).
    let mut checked = 0;
    for seed in 3000..3030u64 {
        let Some(b) = random_position(seed, 30 + (seed % 20) as u32) else {
            continue;
        };
        let limits = ThinkLimits { depth: Some(9), ..ThinkLimits::default() };
        one.clear();
        two.clear();
        let a = one.think(b, limits, &stop, |_| {});
        let c = two.think(b, limits, &stop, |_| {});
        assert_eq!((a.score, a.depth), (c.score, c.depth), "seed {seed}");
        let best = c.best_move.expect("a move");
        assert!(b.moves() >> best & 1 == 1, "seed {seed}: {best} is not legal");
        checked += 1;
    }
    assert!(checked >= 25);
}

#[test]
fn two_threads_stop_at_a_node_limit() {
    // The helpers of a split point look at the limits at their first node: before,
    // subtrees small enough to end within one polling interval went on split after
    // split, and two threads searched up to 50 % past a limit of a million nodes (one
    // thread: 0.5 %). A count, not a time: the same on a loaded machine.
    use search::othello::ThinkLimits;
    let two = Solver::new(32, 2);
    let stop = AtomicBool::new(false);
    let limit = 1_000_000;
    let mut checked = 0;
    for seed in 4000..4012u64 {
        let Some(b) = random_position(seed, 34 + (seed % 12) as u32) else {
            continue;
        };
        let limits = ThinkLimits { node_limit: Some(limit), selective: true, ..ThinkLimits::default() };
        two.clear();
        let t = two.think(b, limits, &stop, |_| {});
        assert!(t.nodes <= limit + limit / 20, "seed {seed}: {} nodes for a limit of {limit}", t.nodes);
        checked += 1;
    }
    assert!(checked >= 10);
}
