use bitboards::go::FastBoard;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;
use search::go::playout::light_playout;
fn main() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let empty = FastBoard::new(9);
    let n: usize = std::env::args().nth(1).map_or(200_000, |s| s.parse().unwrap());
    let t = std::time::Instant::now();
    let mut moves = 0u64;
    let mut sum = 0i64;
    for _ in 0..n {
        let mut b = empty.clone();
        sum += light_playout(&mut b, &mut rng, search::go::playout::move_cap(9), |_, _| moves += 1) as i64;
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{:.0} playouts/s, {:.1} moves/playout, mean {:.2}",
        n as f64 / s,
        moves as f64 / n as f64,
        sum as f64 / n as f64
    );
}
