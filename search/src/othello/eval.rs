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
    let disc_weight = if empties <= (n * n / 6) as i32 { 100 } else { 0 };
    (600 * corner + 80 * mobility + disc_weight * discs).clamp(-50_000, 50_000)
}

use bitboards::othello::geometry::CORNERS;
use bitboards::othello::movegen::{moves, potential_moves};

use super::stability::edge_stable;

/// X squares and the corner each one spoils.
const X_AND_CORNER: [(u64, u64); 4] = [(1 << 9, 1), (1 << 14, 1 << 7), (1 << 49, 1 << 56), (1 << 54, 1 << 63)];

/// Heuristic value of an 8×8 board for the side to move, in discs (−63..=63).
#[inline]
pub fn eval_discs(p: u64, o: u64) -> i32 {
    let empties = (!(p | o)).count_ones() as i32;
    let mp = moves(p, o);
    let mo = moves(o, p);
    let mobility =
        (mp.count_ones() + (mp & CORNERS).count_ones()) as i32 - (mo.count_ones() + (mo & CORNERS).count_ones()) as i32;
    let potential = potential_moves(p, o).count_ones() as i32 - potential_moves(o, p).count_ones() as i32;
    let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
    let mut x_squares = 0;
    for (x, corner) in X_AND_CORNER {
        if (p | o) & corner == 0 {
            x_squares += ((p & x) != 0) as i32 - ((o & x) != 0) as i32;
        }
    }
    let stable = edge_stable(p, o).count_ones() as i32 - edge_stable(o, p).count_ones() as i32;
    let discs = p.count_ones() as i32 - o.count_ones() as i32;
    // Sixteenths of a disc.
    let late = (20 - empties).max(0);
    let score = 16 * mobility + 5 * potential + 80 * corners - 40 * x_squares + 20 * stable + late * discs;
    (score / 16).clamp(-63, 63)
}
