//! `sente`: one program that plays, solves and referees Othello, Go, Phantom Go and
//! Chaos Clock through line-based text protocols (the library's `main` does the work).

use std::process::ExitCode;

/// mimalloc: the retrograde analysis makes millions of small per-layer allocations
/// from two threads; with it `sente chaosclock solve` runs about 1.3 times as fast.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    sente::main()
}
