//! Light (or heavy) playouts per second from the empty 9×9 board on one thread, timed
//! by the process's CPU time as libego's `ego -b` is (so a second process on the
//! other core does not change the figure), with the mean number of moves a playout
//! and the share of playouts Black wins on the board (no komi), to compare like with
//! like.
//!
//! `cargo run --release -p search --example playout_rate -- [PLAYOUTS] [light|heavy] [SEED]`
//!
//! PLAYOUTS defaults to 300 000, the policy to light, the seed to 1.

use bitboards::go::FastBoard;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;
use search::go::playout::{Policy, heavy_playout, light_playout, move_cap};

const USAGE: &str = "usage: playout_rate [PLAYOUTS] [light|heavy] [SEED]";

/// The CPU time this process has used so far, in seconds (user and system).
fn cpu_seconds() -> f64 {
    #[cfg(target_os = "linux")]
    {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: getrusage fills the struct it is given; RUSAGE_SELF is always valid.
        let usage = unsafe {
            libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
            usage.assume_init()
        };
        let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
        seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
    #[cfg(not(target_os = "linux"))]
    {
        use std::sync::OnceLock;
        static START: OnceLock<std::time::Instant> = OnceLock::new();
        START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64()
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let playouts: u64 = match args.first() {
        Some(text) => text.parse().map_err(|_| format!("PLAYOUTS: '{text}' is not a number ({USAGE})"))?,
        None => 300_000,
    };
    let policy = match args.get(1) {
        Some(text) => Policy::parse(text).map_err(|e| format!("{e} ({USAGE})"))?,
        None => Policy::Light,
    };
    let seed: u64 = match args.get(2) {
        Some(text) => text.parse().map_err(|_| format!("SEED: '{text}' is not a number ({USAGE})"))?,
        None => 1,
    };
    let empty = FastBoard::new(9);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut moves, mut black_wins) = (0u64, 0u64);
    let start = cpu_seconds();
    for _ in 0..playouts {
        let mut board = empty.clone();
        let count = |_, _| moves += 1;
        let score = match policy {
            Policy::Light => light_playout(&mut board, &mut rng, move_cap(9), count),
            Policy::Heavy => heavy_playout(&mut board, &mut rng, move_cap(9), count),
        };
        black_wins += u64::from(score > 0);
    }
    let seconds = cpu_seconds() - start;
    println!(
        "{playouts} {policy} playouts in {seconds:.3} s of CPU: {:.1} k playouts/s, {:.1} stones a playout, black wins {:.1} %",
        playouts as f64 / seconds / 1000.0,
        moves as f64 / playouts as f64,
        100.0 * black_wins as f64 / playouts as f64
    );
    Ok(())
}
