//! The Chaos Clock solver against a brute-force search written here: plain backward
//! induction over every line (no table, no move ordering tricks), where a line that
//! repeats a state ends in both-lose, as in a game record. On positions with few pieces
//! off their points the whole tree is small enough, and the two must agree on the
//! outcome, and the solver's move must achieve it. The retrograde analysis is held to
//! the same standard, and to agreement with the proof search on larger positions.

use bitboards::chaosclock::{Move, Outcome, Side, State};
use bitboards::rng::splitmix64;
use search::chaosclock::retrograde::Analysis;
use search::chaosclock::solver::{SolveLimits, Solver};

/// The outcome of `s` reached along `path` (the states before it), or `None` past
/// `budget` nodes.
fn brute_force(s: State, path: &mut Vec<State>, budget: &mut u64) -> Option<Outcome> {
    if let Some(o) = s.outcome() {
        return Some(o);
    }
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let me = s.to_move();
    let mut best: Option<Outcome> = None;
    path.push(s);
    for mv in s.legal_moves() {
        let child = s.play(mv).expect("legal");
        let value = if child.outcome().is_none() && path.contains(&child) {
            Some(Outcome::BothLose)
        } else {
            brute_force(child, path, budget)
        };
        let Some(v) = value else {
            path.pop();
            return None;
        };
        if best.is_none_or(|b| v.rank_for(me) > b.rank_for(me)) {
            best = Some(v);
        }
    }
    path.pop();
    best
}

/// A position with the pieces of `loose` (a bit set) off their points, each either in
/// its owner's hand or on another loose piece's point; every other piece home.
fn small_position(seed: u64, loose_count: usize) -> State {
    let mut rng = seed;
    let mut next = || {
        rng = splitmix64(rng);
        rng
    };
    let mut pieces: Vec<u8> = (1..=12).collect();
    for i in (1..12).rev() {
        pieces.swap(i, next() as usize % (i + 1));
    }
    let loose = &pieces[..loose_count];
    let mut points: [u8; 12] = std::array::from_fn(|i| i as u8 + 1);
    for &n in loose {
        points[n as usize - 1] = 0;
    }
    for &n in loose {
        if next() % 3 == 0 {
            continue; // in hand
        }
        let free: Vec<u8> = loose.iter().copied().filter(|&p| p != n && points[p as usize - 1] == 0).collect();
        if !free.is_empty() {
            points[free[next() as usize % free.len()] as usize - 1] = n;
        }
    }
    let board: Vec<String> = points.iter().map(u8::to_string).collect();
    let side = if next() % 2 == 0 { "Y" } else { "J" };
    let on_board: Vec<u8> = loose.iter().copied().filter(|n| points.contains(n)).chain([0]).collect();
    let walked = on_board[next() as usize % on_board.len()];
    State::parse(&format!("{} {side} {walked}", board.join(","))).expect("a valid position")
}

/// The brute-force outcome after `best` is played from `s`.
fn outcome_after(s: State, best: Move) -> Outcome {
    let child = s.play(best).expect("the move is legal");
    let mut budget = u64::MAX;
    if child.outcome().is_none() && child == s {
        Outcome::BothLose
    } else {
        brute_force(child, &mut vec![s], &mut budget).expect("no budget")
    }
}

fn check_position(s: State, solver: &mut Solver) -> bool {
    if s.is_complete(Side::JIA) || s.is_complete(Side::YI) {
        return false;
    }
    let mut budget = 3_000_000;
    let Some(expected) = brute_force(s, &mut Vec::new(), &mut budget) else {
        return false;
    };
    solver.clear();
    let solution = solver.solve(s, &[], SolveLimits::default()).unwrap_or_else(|| panic!("{s}: not proven"));
    assert_eq!(solution.outcome, expected, "{s}");
    // The move the solver gives achieves the outcome.
    let best = solution.best.expect("the game is not over");
    let after = outcome_after(s, best);
    assert_eq!(after, expected, "{s}: {best} leads to {after:?}");

    let analysis = Analysis::new(s, &[], 1 << 24).expect("a small position");
    assert_eq!(analysis.outcome(), expected, "retrograde: {s}");
    let best = analysis.best_move().expect("the game is not over");
    let after = outcome_after(s, best);
    assert_eq!(after, expected, "retrograde: {s}: {best} leads to {after:?}");
    true
}

#[test]
fn agrees_with_brute_force_on_positions_with_few_loose_pieces() {
    let mut solver = Solver::new();
    let mut outcomes = std::collections::HashMap::new();
    let mut checked = 0;
    for (loose, count) in [(2, 200), (3, 300), (4, 300), (5, 300), (6, 300)] {
        for seed in 0..count {
            let s = small_position(seed * 7 + loose as u64, loose);
            if check_position(s, &mut solver) {
                checked += 1;
                let key = format!("{:?}", solver.solve(s, &[], SolveLimits::default()).map(|x| x.outcome));
                *outcomes.entry(key).or_insert(0) += 1;
            }
        }
    }
    eprintln!("{checked} checked: {outcomes:?}");
    assert!(checked >= 500, "only {checked} positions were small enough");
    // The positions exercise every outcome, so the agreement means something.
    assert!(outcomes.len() >= 4, "{outcomes:?}");
}

#[test]
fn the_history_counts_for_repetition() {
    // A history holding one of the position's successors makes that move a
    // repetition (both lose); solver and brute force must agree with it, and it must
    // change the outcome somewhere.
    let mut solver = Solver::new();
    let (mut compared, mut changed) = (0, 0);
    for seed in 0..200 {
        let s = small_position(seed * 13 + 5, 3);
        if s.is_complete(Side::JIA) || s.is_complete(Side::YI) {
            continue;
        }
        let Some(plain) = brute_force(s, &mut Vec::new(), &mut 3_000_000) else { continue };
        for mv in s.legal_moves() {
            let child = s.play(mv).expect("legal");
            if child.outcome().is_some() {
                continue;
            }
            let history = vec![child];
            let Some(expected) = brute_force(s, &mut history.clone(), &mut 3_000_000) else { continue };
            let got = solver.solve(s, &history, SolveLimits::default()).unwrap_or_else(|| panic!("{s}: not proven"));
            assert_eq!(got.outcome, expected, "{s} after {child}");
            let analysis = Analysis::new(s, &history, 1 << 24).expect("a small position");
            assert_eq!(analysis.outcome(), expected, "retrograde: {s} after {child}");
            compared += 1;
            changed += usize::from(expected != plain);
        }
    }
    eprintln!("{compared} compared, {changed} changed");
    assert!(compared >= 100 && changed > 0, "{compared} compared, {changed} changed by the history");
}

#[test]
fn retrograde_agrees_with_the_proof_search_on_larger_positions() {
    // Too big for the brute force, small enough for both solvers.
    let mut solver = Solver::new();
    let mut outcomes = std::collections::HashMap::new();
    for seed in 0..120 {
        let s = small_position(seed * 31 + 3, 7 + (seed % 2) as usize);
        if s.is_complete(Side::JIA) || s.is_complete(Side::YI) {
            continue;
        }
        solver.clear();
        let limits = SolveLimits { nodes: Some(2_000_000), ..SolveLimits::default() };
        let Some(proof) = solver.solve(s, &[], limits) else { continue };
        let analysis = Analysis::new(s, &[], 1 << 24).expect("a small position");
        assert_eq!(analysis.outcome(), proof.outcome, "{s}");
        if let Outcome::Win(_) = proof.outcome {
            // The analysis gives the loser's longest delay exactly; the proof search's
            // proof tree (built with table entries of several horizons) is never shorter.
            assert!(analysis.length() <= proof.length, "{s}: {} > {}", analysis.length(), proof.length);
        }
        *outcomes.entry(format!("{:?}", proof.outcome)).or_insert(0) += 1;
    }
    let compared: usize = outcomes.values().sum();
    assert!(compared >= 40 && outcomes.len() >= 3, "{outcomes:?}");
}

#[test]
fn limits_give_up_instead_of_guessing() {
    let deal = bitboards::chaosclock::random_opening(11);
    let mut solver = Solver::new();
    let limits = SolveLimits { nodes: Some(1000), ..SolveLimits::default() };
    if let Some(s) = solver.solve(deal, &[], limits) {
        // Proven that quickly: then it must be a forced win found within the budget.
        assert!(matches!(s.outcome, Outcome::Win(_)), "{s:?}");
    }
}
