//! Ownership estimates from settling playouts.

use bitboards::go::{Board, FastBoard};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;

use crate::go::playout::{area_owners, move_cap, settling_playout};

/// How often each point ends up owned by black, over `playouts` settling playouts
/// from `board` (1.0: always black, 0.0: always white; shared points count half),
/// indexed by point number.
pub fn ownership(board: &Board, playouts: usize, seed: u64) -> Vec<f32> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let start = FastBoard::from_board(board);
    let mut black = vec![0u32; 128];
    let cap = move_cap(board.size());
    for _ in 0..playouts {
        let mut b = start.clone();
        settling_playout(&mut b, &mut rng, cap);
        let (black_area, white_area) = area_owners(&b, board.mask());
        for p in board.points() {
            black[p.0 as usize] += 2 * (black_area & p.bit() != 0) as u32
                + (white_area & p.bit() == 0 && black_area & p.bit() == 0) as u32;
        }
    }
    (0..128).map(|i| black[i] as f32 / (2 * playouts.max(1)) as f32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitboards::go::{Color, Point};

    #[test]
    fn ownership_of_a_settled_board() {
        // A finished game: black walls on columns b-c, white on d, territories on a and
        // e; a lone white stone inside black's area is dead.
        let mut b = Board::new(5);
        for r in 0..5 {
            b.set(Point::new(r, 1), Some(Color::BLACK));
            b.set(Point::new(r, 2), Some(Color::BLACK));
            b.set(Point::new(r, 3), Some(Color::WHITE));
        }
        b.set(Point::new(2, 0), Some(Color::WHITE));
        // White owns its lone stone's point in almost no playout; every other stone
        // keeps its point.
        let own = ownership(&b, 400, 3);
        let other_share =
            |p: Point| if b.at(p) == Some(Color::BLACK) { 1.0 - own[p.0 as usize] } else { own[p.0 as usize] };
        let lost: Vec<Point> = b.points().filter(|&p| b.at(p).is_some() && other_share(p) > 0.8).collect();
        assert_eq!(lost, vec![Point::new(2, 0)]);
    }
}
