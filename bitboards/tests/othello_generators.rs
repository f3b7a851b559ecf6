//! The fast move generators and flip routines agree with Dumb7Fill on positions
//! reached by random play, on all three board sizes.

use bitboards::othello::{Board, OthelloBoard, SizedBoard, flips, movegen, squares};
use bitboards::rng::splitmix64;
use proptest::prelude::*;

/// Plays `plies` random moves (passing when forced) from the start, calling
/// `check` on every position reached.
fn random_walk<B: OthelloBoard>(seed: u64, plies: usize, mut check: impl FnMut(&B)) {
    let mut board = B::start();
    let mut state = seed;
    for _ in 0..plies {
        check(&board);
        let moves = board.legal_squares();
        if moves.is_empty() {
            if !board.pass().can_move() {
                return;
            }
            board = board.pass();
            continue;
        }
        state = splitmix64(state);
        let sq = moves[(state % moves.len() as u64) as usize];
        board = board.play(sq).expect("generated move is legal");
    }
}

fn check_8x8(board: &Board) {
    let (p, o) = (board.player, board.opponent);
    let reference = movegen::moves_dumb7fill(p, o);
    assert_eq!(movegen::moves_kogge_stone(p, o), reference);
    assert_eq!(movegen::moves(p, o), reference);
    for sq in squares(board.empties()) {
        let expected = flips::flips_dumb7fill(p, o, sq);
        assert_eq!(flips::flips_reference(p, o, sq), expected);
        assert_eq!(flips::flips_rays(p, o, sq), expected);
        assert_eq!(flips::flips(p, o, sq), expected);
        assert_eq!(expected != 0, reference >> sq & 1 == 1, "legal iff it flips");
    }
}

fn check_sized<const N: usize>(board: &SizedBoard<N>) {
    let reference = board.moves_dumb7fill();
    assert_eq!(board.moves(), reference);
    for sq in 0..(N * N) as u8 {
        if board.empties() >> sq & 1 == 1 {
            let expected = board.flips_dumb7fill(sq);
            assert_eq!(board.flips_reference(sq), expected);
            assert_eq!(board.flips(sq), expected);
            assert_eq!(expected != 0, reference >> sq & 1 == 1, "legal iff it flips");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn eight_by_eight_generators_agree(seed: u64, plies in 0usize..64) {
        random_walk::<Board>(seed, plies, check_8x8);
    }

    #[test]
    fn six_by_six_generators_agree(seed: u64, plies in 0usize..36) {
        random_walk::<SizedBoard<6>>(seed, plies, check_sized::<6>);
    }

    #[test]
    fn ten_by_ten_generators_agree(seed: u64, plies in 0usize..100) {
        random_walk::<SizedBoard<10>>(seed, plies, check_sized::<10>);
    }
}

#[test]
fn thousands_of_positions_are_checked() {
    let mut count = [0usize; 3];
    for seed in 0..200 {
        random_walk::<Board>(seed, 64, |b| {
            check_8x8(b);
            count[0] += 1;
        });
        random_walk::<SizedBoard<6>>(seed, 36, |b| {
            check_sized::<6>(b);
            count[1] += 1;
        });
        random_walk::<SizedBoard<10>>(seed, 100, |b| {
            check_sized::<10>(b);
            count[2] += 1;
        });
    }
    assert!(count.iter().all(|&c| c > 5000), "positions checked: {count:?}");
}
