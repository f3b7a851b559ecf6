//! Othello: move generators, flip routines, the pattern evaluation and perft.
//!
//! Run with `cargo bench -p benches --bench othello`.

use benches::othello_boards;
use bitboards::othello::{Board, flips, movegen, perft, squares};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use search::othello::patterns::Features;
use search::othello::{eval_discs, eval_discs_after, eval_discs_from};
use std::hint::black_box;

/// A named move generator.
type Generator = (&'static str, fn(u64, u64) -> u64);
/// A named flip routine.
type FlipRoutine = (&'static str, fn(u64, u64, u8) -> u64);
/// A board and its children: each child's move, flipped discs and board.
type WithChildren = (Board, Vec<(u8, u64, Board)>);

fn move_generation(c: &mut Criterion) {
    let boards = othello_boards(4096, 7);
    let mut group = c.benchmark_group("othello/moves");
    group.throughput(Throughput::Elements(boards.len() as u64));
    let generators: [Generator; 3] = [
        ("dumb7fill", movegen::moves_dumb7fill),
        ("kogge_stone", movegen::moves_kogge_stone),
        ("fastest", movegen::moves),
    ];
    for (name, generate) in generators {
        group.bench_function(name, |b| {
            b.iter(|| boards.iter().fold(0u64, |acc, x| acc ^ generate(black_box(x.player), black_box(x.opponent))))
        });
    }
    group.finish();
}

fn flip_computation(c: &mut Criterion) {
    let boards = othello_boards(1024, 11);
    let cases: Vec<(u64, u64, u8)> =
        boards.iter().flat_map(|b| squares(b.moves()).map(move |sq| (b.player, b.opponent, sq))).collect();
    let mut group = c.benchmark_group("othello/flips");
    group.throughput(Throughput::Elements(cases.len() as u64));
    let routines: [FlipRoutine; 4] = [
        ("reference", flips::flips_reference),
        ("dumb7fill", flips::flips_dumb7fill),
        ("rays", flips::flips_rays),
        ("fastest", flips::flips),
    ];
    for (name, flip) in routines {
        group.bench_function(name, |b| {
            b.iter(|| cases.iter().fold(0u64, |acc, &(p, o, sq)| acc ^ flip(black_box(p), black_box(o), sq)))
        });
    }
    group.finish();
}

/// The trained pattern evaluation (every pattern instance, mobility, potential
/// mobility) of every position of random games (all phases).
fn pattern_evaluation(c: &mut Criterion) {
    let boards = othello_boards(4096, 7);
    let mut group = c.benchmark_group("othello/eval");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("patterns", |b| {
        b.iter(|| boards.iter().fold(0i32, |acc, x| acc ^ eval_discs(black_box(x.player), black_box(x.opponent))))
    });
    group.finish();

    // Every child of the same boards, read from the board or updated from the
    // parent's pattern indices (as the search's leaves are evaluated).
    let children: Vec<WithChildren> = boards
        .iter()
        .map(|x| {
            let legal = movegen::moves(x.player, x.opponent);
            let kids = squares(legal)
                .map(|sq| {
                    let f = flips::flips(x.player, x.opponent, sq);
                    (sq, f, x.play_flips(sq, f))
                })
                .collect();
            (*x, kids)
        })
        .collect();
    let count: usize = children.iter().map(|(_, kids)| kids.len()).sum();
    let mut group = c.benchmark_group("othello/eval_children");
    group.throughput(Throughput::Elements(count as u64));
    group.bench_function("from_board", |b| {
        b.iter(|| {
            children.iter().fold(0i32, |acc, (_, kids)| {
                kids.iter().fold(acc, |acc, (_, _, k)| acc ^ eval_discs(black_box(k.player), black_box(k.opponent)))
            })
        })
    });
    group.bench_function("from_parent", |b| {
        b.iter(|| {
            children.iter().fold(0i32, |acc, (parent, kids)| {
                let features = Features::new(black_box(parent.player), black_box(parent.opponent));
                kids.iter()
                    .fold(acc, |acc, &(sq, f, k)| acc ^ eval_discs_from(&features.after(sq, f), k.player, k.opponent))
            })
        })
    });
    group.bench_function("child_view", |b| {
        b.iter(|| {
            children.iter().fold(0i32, |acc, (parent, kids)| {
                let features = Features::new(black_box(parent.player), black_box(parent.opponent));
                kids.iter().fold(acc, |acc, &(sq, f, k)| acc ^ eval_discs_after(&features, sq, f, k.player, k.opponent))
            })
        })
    });
    group.finish();
}

fn perft_9(c: &mut Criterion) {
    let mut group = c.benchmark_group("othello/perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(3_005_288));
    group.bench_function("perft9", |b| b.iter(|| perft(black_box(Board::start()), 9)));
    group.finish();
}

criterion_group!(benches, move_generation, flip_computation, pattern_evaluation, perft_9);
criterion_main!(benches);
