//! Go: light playouts on an empty 9×9 board, one thread.
//!
//! Run with `cargo bench -p benches --bench go`. The throughput is playouts per second.

use bitboards::go::FastBoard;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;
use search::go::playout::{light_playout, move_cap};
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
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
