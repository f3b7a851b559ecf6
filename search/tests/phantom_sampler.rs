//! The Phantom Go sampler against the hidden stones of real games: boards drawn from a
//! player's view must place the opponent's stones in the shapes its stones really had
//! (tests/data/phantom/hidden_stones.txt: 1 542 positions of the project's own games).

use bitboards::go::{Color, Point, bits, board_mask, neighbours};
use bitboards::phantom::View;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;
use search::phantom::Belief;

const POSITIONS: &str = include_str!("../../tests/data/phantom/hidden_stones.txt");

/// A mask of the file (bit r*9+c) as a set of points.
fn points(hex: &str) -> u128 {
    let bits81 = u128::from_str_radix(hex, 16).expect("a hexadecimal mask");
    (0..81).filter(|i| bits81 >> i & 1 != 0).fold(0, |m, i| m | Point::new(i / 9, i % 9).bit())
}

/// Shares of `them`: next to another of their stones, next to one of `own`, on the edge.
fn shape(own: u128, them: u128) -> [f64; 3] {
    let mask = board_mask(9);
    let n = f64::from(them.count_ones());
    let share = |keep: &dyn Fn(Point) -> bool| bits(them).filter(|&p| keep(p)).count() as f64 / n;
    [
        share(&|p| neighbours(p.bit(), mask) & them != 0),
        share(&|p| neighbours(p.bit(), mask) & own != 0),
        share(&|p| p.row() == 0 || p.row() == 8 || p.col() == 0 || p.col() == 8),
    ]
}

#[test]
fn samples_have_the_shape_of_real_hidden_stones() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let (mut truth, mut sampled, mut n) = ([0f64; 3], [0f64; 3], 0);
    for line in POSITIONS.lines().filter(|l| !l.starts_with('#')) {
        let [side, own, hidden, count] = line.split_whitespace().collect::<Vec<_>>()[..] else {
            panic!("bad line '{line}'")
        };
        let color = if side == "b" { Color::BLACK } else { Color::WHITE };
        let (own, hidden) = (points(own), points(hidden));
        let count: u32 = count.parse().expect("a count");
        assert_eq!(hidden.count_ones(), count, "{line}");
        if count < 4 {
            continue;
        }
        let belief = Belief::new(&View::from_stones(color, own, 0, count));
        for (t, x) in truth.iter_mut().zip(shape(own, hidden)) {
            *t += x;
        }
        for _ in 0..8 {
            let board = belief.sample(&mut rng).expect("a sample").board;
            for (s, x) in sampled.iter_mut().zip(shape(own, board.stones(color.other()))) {
                *s += x / 8.0;
            }
        }
        n += 1;
    }
    assert!(n > 1000, "{n} positions");
    for (i, name) in ["next to their own colour", "in contact with the viewer's", "on the edge"].iter().enumerate() {
        let (t, s) = (truth[i] / n as f64, sampled[i] / n as f64);
        println!("hidden stones {name}: {:.1} % in the games, {:.1} % on the samples", 100.0 * t, 100.0 * s);
        assert!((t - s).abs() < 0.03, "hidden stones {name}: {t:.3} in the games, {s:.3} on the samples");
    }
}
