//! Flat Monte-Carlo for Phantom Go, as Cazenave described it (2005): for every candidate
//! try, random playouts on boards sampled from the view; the candidate with the best
//! mean result is tried. No tree: the baseline the belief-state search is measured
//! against.
//!
//! Each round draws one board ([`super::Belief::sample`]) and plays one light playout
//! after every candidate that is empty on it (the same board for all candidates, which
//! lowers the variance of their differences). A candidate that holds an opponent stone
//! on a sample gets no playout from it. On request the pass is measured the same way
//! (a playout after passing on every sample): the combined player checks a pass the
//! belief search proposes against the best candidates.

use bitboards::go::{Cell, FastBoard, Move, bits};
use bitboards::phantom::View;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;

use super::belief::Belief;
use super::choice::{Budget, Choice, PlayerSettings};
use crate::go::playout::{black_wins, light_playout, move_cap};

/// Flat Monte-Carlo over `candidates` (points empty in the view and not refused), and
/// the pass if `with_pass`, within `budget`. The moves come back best first, each with
/// its mean result (-1 for a candidate that got no playout).
pub(crate) fn search(
    view: &View,
    settings: &PlayerSettings,
    candidates: u128,
    with_pass: bool,
    budget: &Budget,
    seed: u64,
) -> Choice {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let belief = Belief::new(view);
    let me = view.color();
    // The candidates' cells, then `None` for the pass.
    let mut cells: Vec<Option<Cell>> = bits(candidates).map(|p| Some(FastBoard::cell(p))).collect();
    if with_pass {
        cells.push(None);
    }
    let mut wins = vec![0u32; cells.len()];
    let mut runs = vec![0u32; cells.len()];
    let (mut playouts, mut samples) = (0u64, 0u32);
    let cap = move_cap(bitboards::phantom::SIZE);
    let komi = settings.komi as f32;
    while !budget.done(playouts, samples) {
        let Some(sample) = belief.sample(&mut rng) else { break };
        samples += 1;
        let start = FastBoard::from_board(&sample.board);
        // A sample on which no candidate can be played still counts as one playout,
        // so that a node-limited search ends.
        let before = playouts;
        for (i, &cell) in cells.iter().enumerate() {
            if cell.is_some_and(|c| start.at(c).is_some() || !start.is_legal(c)) {
                continue;
            }
            let mut b = start.clone();
            match cell {
                Some(cell) => {
                    b.play(cell);
                }
                None => b.pass(),
            }
            let diff = light_playout(&mut b, &mut rng, cap, |_, _| {});
            let black_wins = black_wins(diff, komi, &mut rng);
            runs[i] += 1;
            wins[i] += u32::from(black_wins == (me == bitboards::go::Color::BLACK));
            playouts += 1;
        }
        if cells.is_empty() {
            break;
        }
        if playouts == before {
            playouts += 1;
        }
    }
    let mean = |i: usize| if runs[i] == 0 { -1.0 } else { wins[i] as f32 / runs[i] as f32 };
    let mut order: Vec<usize> = (0..cells.len()).collect();
    order.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)).then(runs[b].cmp(&runs[a])));
    let moves: Vec<(Move, f32)> =
        order.iter().map(|&i| (cells[i].map_or(Move::Pass, |c| Move::Play(FastBoard::point(c))), mean(i))).collect();
    let (mv, win_rate) = moves.first().copied().unwrap_or((Move::Pass, 0.0));
    Choice { mv, win_rate: win_rate.max(0.0), samples, playouts, elapsed: budget.elapsed(), moves }
}
