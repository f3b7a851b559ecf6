//! A small hand-made Othello evaluation, for every board size: corners, mobility,
//! potential mobility, and the disc count near the end.

use bitboards::othello::{OthelloBoard, Owner};

/// Heuristic value of `board` for the side to move, in centi-discs.
pub fn evaluate<B: OthelloBoard>(board: &B) -> i32 {
    let n = B::SIZE;
    let corners = [0, n - 1, n * (n - 1), n * n - 1];
    let mut corner = 0;
    for sq in corners {
        match board.disc(sq) {
            Some(Owner::Player) => corner += 1,
            Some(Owner::Opponent) => corner -= 1,
            None => {}
        }
    }
    let mobility = board.mobility() as i32 - board.pass().mobility() as i32;
    let discs = board.player_count() as i32 - board.opponent_count() as i32;
    let empties = board.empty_count() as i32;
    let disc_weight = if empties <= (n * n / 6) as i32 {
        100
    } else {
        0
    };
    (600 * corner + 80 * mobility + disc_weight * discs).clamp(-50_000, 50_000)
}
