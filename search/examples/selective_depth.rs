//! Times the player's selective search (ProbCut at the play level, as on a clock) to a
//! fixed depth over the positions of a move-quality file (`sente othello-accuracy`'s
//! format: every legal move with its value), one thread, the table cleared before each
//! position: the nodes and the CPU time it takes to reach the depth, and the mean disc
//! loss of the move it chooses by the file's values. A change to the midgame search's
//! ordering or pruning shows here as time to depth and as loss, without a match.
//!
//! `cargo run --release -p search --example selective_depth -- FILE DEPTH [COUNT]`
//!
//! COUNT positions from the file's start (default all); those too close to the end
//! for midgame iterations of DEPTH plies are skipped (the line printed counts the rest).

use std::sync::atomic::AtomicBool;

use search::othello::accuracy::parse_file;
use search::othello::{Solver, ThinkLimits};

const USAGE: &str = "usage: selective_depth FILE DEPTH [COUNT]";

/// CPU time of this process (the search runs on its own thread), in seconds; wall
/// time where the system has no process clock for us.
fn cpu_seconds() -> f64 {
    #[cfg(target_os = "linux")]
    {
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `t` is a valid timespec for the call to fill.
        unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    }
    #[cfg(not(target_os = "linux"))]
    {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64()
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 || args.len() > 4 {
        return Err(USAGE.to_string());
    }
    let text = std::fs::read_to_string(&args[1]).map_err(|e| format!("{}: {e}", args[1]))?;
    let depth: u32 = args[2].parse().map_err(|_| format!("DEPTH: '{}' ({USAGE})", args[2]))?;
    if !(1..=60).contains(&depth) {
        return Err(format!("DEPTH: {depth} is not 1 to 60 ({USAGE})"));
    }
    let positions = parse_file(&text).map_err(|e| format!("{}: {e}", args[1]))?;
    let count = match args.get(3) {
        Some(c) => c.parse().map_err(|_| format!("COUNT: '{c}' ({USAGE})"))?,
        None => positions.len(),
    };
    let solver = Solver::new(64, 1);
    let stop = AtomicBool::new(false);
    let (mut nodes, mut seconds, mut loss, mut searched) = (0u64, 0.0, 0i64, 0usize);
    for scored in positions.iter().take(count) {
        let board = scored.position.board();
        if depth + search::othello::PLAY_ENDGAME_GAP >= board.empty_count() {
            continue;
        }
        solver.clear();
        let limits = ThinkLimits { depth: Some(depth), exact_empties: 0, selective: true, ..ThinkLimits::default() };
        let start = cpu_seconds();
        let thought = solver.think(board, limits, &stop, |_| {});
        seconds += cpu_seconds() - start;
        nodes += thought.nodes;
        let chosen = thought.best_move.and_then(|sq| scored.loss(sq));
        let Some(move_loss) = chosen else {
            return Err(format!("{}: the file has no value for the move chosen in {}", args[1], scored.to_line()));
        };
        loss += i64::from(move_loss);
        searched += 1;
    }
    println!(
        "depth {depth} positions {searched} nodes {nodes} cpu {seconds:.2} s ({:.1} ms a position) loss {:.3} discs a move",
        seconds * 1e3 / searched.max(1) as f64,
        loss as f64 / searched.max(1) as f64
    );
    Ok(())
}
