//! Go on 9×9: light and heavy playouts from the empty board (one thread), and whole
//! MCTS searches (priors, each playout policy; heavy is the default) of 20 000
//! playouts on one and two threads sharing the tree.
//!
//! Run with `cargo bench -p benches --bench go`. The throughput is playouts per second.

use bitboards::go::{Board, Color, FastBoard, Game, Superko};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;
use search::go::mcts::{Mcts, MctsSettings};
use search::go::playout::{Policy, heavy_playout, light_playout, move_cap};
use search::{Limits, StopFlag};
use std::hint::black_box;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("go/playouts");
    const BATCH: u64 = 1000;
    group.throughput(Throughput::Elements(BATCH));
    let empty = FastBoard::new(9);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    group.bench_function("light_9x9_empty", |b| {
        b.iter(|| {
            let mut sum = 0;
            for _ in 0..BATCH {
                let mut board = empty.clone();
                sum += light_playout(&mut board, &mut rng, move_cap(9), |_, _| {});
            }
            black_box(sum)
        })
    });
    group.bench_function("heavy_9x9_empty", |b| {
        b.iter(|| {
            let mut sum = 0;
            for _ in 0..BATCH {
                let mut board = empty.clone();
                sum += heavy_playout(&mut board, &mut rng, move_cap(9), |_, _| {});
            }
            black_box(sum)
        })
    });
    group.finish();
}

fn mcts(c: &mut Criterion) {
    let mut group = c.benchmark_group("go/mcts");
    const PLAYOUTS: u64 = 20_000;
    group.throughput(Throughput::Elements(PLAYOUTS));
    group.sample_size(10);
    let game = Game::new(Board::new(9), 7.5, Superko::Positional);
    let limits = Limits { nodes: Some(PLAYOUTS), ..Limits::default() };
    for (policy, threads) in [(Policy::Heavy, 1), (Policy::Heavy, 2), (Policy::Light, 1), (Policy::Light, 2)] {
        let name = policy.name();
        group.bench_function(format!("9x9_empty_{name}_{threads}_threads"), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                let settings = MctsSettings { threads, policy, ..MctsSettings::default() };
                let mut tree = Mcts::new(&game, seed).with_settings(settings);
                black_box(tree.search(&limits, &StopFlag::new(), Color::BLACK).best)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, playouts, mcts);
criterion_main!(benches);
