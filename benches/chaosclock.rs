//! Chaos Clock: successor generation (the inner loop of the retrograde analysis) and
//! the analysis of one small position, one thread.
//!
//! Run with `cargo bench -p benches --bench chaosclock`. The throughputs are states
//! expanded per second and states analysed per second.

use benches::chaosclock_states;
use bitboards::chaosclock::State;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use search::chaosclock::retrograde::Analysis;
use std::hint::black_box;

fn successors(c: &mut Criterion) {
    let states = chaosclock_states(10_000, 1);
    let mut group = c.benchmark_group("chaosclock/successors");
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("canonical", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for s in &states {
                let (children, count) = s.canonical_successors();
                for (_, child) in &children[..count] {
                    sum = sum.wrapping_add(child.key());
                }
            }
            black_box(sum)
        })
    });
    group.finish();
}

fn analysis(c: &mut Criterion) {
    // Ten pieces loose, 5 and 6 fixed: about 300 000 states.
    let root = State::parse("2,1,4,3,5,6,9,12,10,7,8,11 Y 0").expect("valid");
    let states = Analysis::new(root, &[], usize::MAX).expect("small").len();
    let mut group = c.benchmark_group("chaosclock/retrograde");
    group.sample_size(10);
    group.throughput(Throughput::Elements(states as u64));
    group.bench_function("ten_loose", |b| {
        b.iter(|| black_box(Analysis::new(root, &[], usize::MAX).expect("small").outcome()))
    });
    group.finish();
}

criterion_group!(benches, successors, analysis);
criterion_main!(benches);
