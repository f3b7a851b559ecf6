//! The move-quality benchmark's positions (`sente othello-accuracy`): positions from
//! varied games, each with every legal move's exact score, and the tally of how many
//! discs the player's choices lose against them.
//!
//! **Format.** One position per line: the 64 squares from `a1` (`X` black, `O`
//! white, `-` empty), a space, the side to move (`X` or `O`), then for every legal
//! move `move:score`, the exact final margin (discs, for the side to move) after that
//! move with perfect play by both sides, best first. Blank lines and lines starting
//! with `#` are ignored. Example:
//!
//! ```text
//! --XXXXX--OOOXX-O-OOOOXOOOOOOXOXOOOOXXOXO-OOXOXOO--OXXXX---XXXX-- X g1:+4 a4:-2
//! ```
//!
//! **Positions.** Position `i` of seed `s` comes from its own game: a few random
//! opening moves, then moves drawn from a softmax over shallow-search values, until
//! the number of empties drawn for it (from [`EMPTIES_MIX`]) is reached. Positions
//! where the side to move has fewer than two moves are skipped (the game goes on).

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use bitboards::othello::{Board, Color, Move, Position, squares};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::solver::{SolveLimits, SolveMode, Solver};

/// The empties of the benchmark's positions and how often each is drawn (weights).
/// Solving every move exactly grows steeply with the empties: on one core of this
/// machine a position took about 2 s at 20 empties, 9 s at 22, 12 to 37 s at 23,
/// 47 s at 25 (5 moves) and 177 s at 26 (14 moves), so the mix leans on the cheap end
/// and leaves out 25 and 26 (a file of 500 would take hours).
pub const EMPTIES_MIX: [(u32, u32); 5] = [(20, 8), (21, 6), (22, 4), (23, 2), (24, 1)];

/// One benchmark position with every legal move's exact score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoredPosition {
    /// The position.
    pub position: Position<Board>,
    /// Every legal move (square) with its exact score for the side to move, best first.
    pub scores: Vec<(u8, i32)>,
}

impl ScoredPosition {
    /// Reads one line of the format above.
    pub fn parse_line(line: &str) -> Result<ScoredPosition, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() < 3 {
            return Err("expected the squares, the side to move and move:score pairs".to_string());
        }
        let position = Position::<Board>::parse(&format!("{} {}", words[0], words[1])).map_err(|e| e.to_string())?;
        let mut scores = Vec::new();
        for pair in &words[2..] {
            let (name, score) = pair.split_once(':').ok_or_else(|| format!("'{pair}' is not move:score"))?;
            let sq = match Move::parse(name, 8) {
                Ok(Move::Play(sq)) => sq,
                _ => return Err(format!("'{name}' is not a square")),
            };
            let score: i32 = score.parse().map_err(|_| format!("'{score}' is not a score"))?;
            if score.abs() > 64 {
                return Err(format!("score {score} is beyond ±64"));
            }
            if scores.iter().any(|&(s, _)| s == sq) {
                return Err(format!("{name} is scored twice"));
            }
            scores.push((sq, score));
        }
        let legal = position.board().moves();
        let scored = scores.iter().fold(0u64, |acc, &(sq, _)| acc | 1u64 << sq);
        if scored != legal {
            return Err("the scored moves are not the legal moves".to_string());
        }
        scores.sort_by_key(|&(sq, score)| (-score, sq));
        Ok(ScoredPosition { position, scores })
    }

    /// The line of the format above.
    pub fn to_line(&self) -> String {
        let mut line = self.position.to_string();
        for &(sq, score) in &self.scores {
            let _ = write!(line, " {}:{score:+}", Move::Play(sq).name(8));
        }
        line
    }

    /// The empties of the position.
    pub fn empties(&self) -> u32 {
        self.position.board().empty_count()
    }

    /// The best move's score: the position's exact value.
    pub fn best_score(&self) -> i32 {
        self.scores.iter().map(|&(_, s)| s).max().unwrap_or(0)
    }

    /// Discs lost by playing `sq` instead of a best move (`None`: not a legal move).
    pub fn loss(&self, sq: u8) -> Option<i32> {
        self.scores.iter().find(|&&(s, _)| s == sq).map(|&(_, score)| self.best_score() - score)
    }
}

/// Reads a whole benchmark file; an error names the line.
pub fn parse_file(text: &str) -> Result<Vec<ScoredPosition>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| ScoredPosition::parse_line(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// Random opening moves of a benchmark game: at least this many...
const RANDOM_MIN: u64 = 2;
/// ...and at most this many.
const RANDOM_MAX: u64 = 12;
/// Depth of the searches that choose the later moves.
const CHOICE_DEPTH: u32 = 3;
/// Softmax temperature over their values, in discs.
const TEMPERATURE: f64 = 1.0;

/// The game position `index` of `seed` is taken from, up to the empties drawn for it
/// (`None` when the game ended first or the side to move has fewer than two moves
/// there; the caller then tries the next attempt).
pub fn benchmark_position(solver: &Solver, seed: u64, index: u64, attempt: u64) -> Option<Position<Board>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(
        seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ attempt.wrapping_mul(0xD1B5_4A32_D192_ED03),
    );
    let total: u32 = EMPTIES_MIX.iter().map(|&(_, w)| w).sum();
    let mut draw = (rng.next_u64() % u64::from(total)) as u32;
    let mut empties = EMPTIES_MIX[0].0;
    for &(e, w) in &EMPTIES_MIX {
        if draw < w {
            empties = e;
            break;
        }
        draw -= w;
    }
    let random_plies = RANDOM_MIN + rng.next_u64() % (RANDOM_MAX - RANDOM_MIN + 1);
    let stop = AtomicBool::new(false);
    let mut board = Board::start();
    let mut side = Color::BLACK;
    let mut ply = 0;
    while board.empty_count() > empties {
        let legal = board.moves();
        if legal == 0 {
            if board.opponent_moves() == 0 {
                return None;
            }
            board = board.pass();
            side = side.other();
            continue;
        }
        let sq = if ply < random_plies {
            let list: Vec<u8> = squares(legal).collect();
            list[(rng.next_u64() % list.len() as u64) as usize]
        } else {
            let values = solver.move_values(board, CHOICE_DEPTH, &stop);
            super::train::softmax_pick(&values, TEMPERATURE, &mut rng)
        };
        board = board.play(sq)?;
        side = side.other();
        ply += 1;
    }
    (board.moves().count_ones() >= 2).then(|| Position::new(board, side))
}

/// Scores every legal move of `position` exactly.
pub fn score_position(solver: &Solver, position: Position<Board>) -> Option<ScoredPosition> {
    let stop = AtomicBool::new(false);
    let all = solver.solve(position.board(), SolveMode::AllMoves, &stop, SolveLimits::default())?;
    let mut scores = all.move_scores;
    scores.sort_by_key(|&(sq, score)| (-score, sq));
    Some(ScoredPosition { position, scores })
}

/// Disc losses and best-move counts, per number of empties.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Per empties: (positions, discs lost in all, best moves found).
    pub bands: std::collections::BTreeMap<u32, (u32, u64, u32)>,
}

impl Tally {
    /// Counts a choice that lost `loss` discs in a position with `empties` empties.
    pub fn add(&mut self, empties: u32, loss: i32) {
        let band = self.bands.entry(empties).or_default();
        band.0 += 1;
        band.1 += loss.max(0) as u64;
        band.2 += u32::from(loss == 0);
    }

    /// One line per band, then `mean disc loss X.XX, best move Y.Y%`.
    pub fn report(&self) -> String {
        let line = |(n, lost, best): (u32, u64, u32)| {
            format!(
                "mean disc loss {:.2}, best move {:.1}%",
                lost as f64 / f64::from(n.max(1)),
                100.0 * f64::from(best) / f64::from(n.max(1))
            )
        };
        let mut out = String::new();
        let mut all = (0, 0, 0);
        for (&empties, &band) in &self.bands {
            let _ = writeln!(out, "{empties} empties: {:>4} positions, {}", band.0, line(band));
            all = (all.0 + band.0, all.1 + band.1, all.2 + band.2);
        }
        let _ = writeln!(out, "{}", line(all));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position of a benchmark game played on to 14 empties (quick to solve), if
    /// the side to move has a choice there.
    fn small_position(solver: &Solver, index: u64) -> Option<Position<Board>> {
        let full = benchmark_position(solver, 7, index, 0)?;
        let mut board = full.board();
        let mut side = full.side_to_move();
        while board.empty_count() > 14 {
            match squares(board.moves()).next() {
                Some(sq) => board = board.play(sq)?,
                None if board.opponent_moves() == 0 => return None,
                None => board = board.pass(),
            }
            side = side.other();
        }
        (board.moves().count_ones() >= 2).then(|| Position::new(board, side))
    }

    #[test]
    fn lines_read_back_and_bad_lines_are_refused() {
        let solver = Solver::new(16, 1);
        let position = (0..10).find_map(|i| small_position(&solver, i)).expect("a position");
        let scored = score_position(&solver, position).expect("solved");
        let line = scored.to_line();
        assert_eq!(ScoredPosition::parse_line(&line), Ok(scored));
        let start = "---------------------------OX------XO--------------------------- X";
        assert!(ScoredPosition::parse_line(&format!("{start} d3:+4 c4:+4 e6:-2 f5:+0")).is_ok());
        for bad in [
            "",
            start,
            "d3:+4 c4:+4 e6:-2 f5:+0",
            &format!("{start} d3:+4 c4:+4 e6:-2"),
            &format!("{start} d3:+4 c4:+4 e6:-2 f5:+0 a1:+0"),
            &format!("{start} d3:+4 c4:+4 e6:-2 f5:+0 d3:+4"),
            &format!("{start} d3:+4 c4:+4 e6:-2 f5:+65"),
            &format!("{start} d3:+4 c4:+4 e6:-2 f5:x"),
            &format!("{start} d3:+4 c4:+4 e6:-2 f5"),
            &format!("{start} d3:+4 c4:+4 e6:-2 pass:0"),
        ] {
            assert!(ScoredPosition::parse_line(bad).is_err(), "{bad}");
        }
        assert!(parse_file(&format!("# comment\n\n{line}\nnonsense")).unwrap_err().starts_with("line 4"));
    }

    #[test]
    fn the_best_move_scores_the_position_exactly() {
        let solver = Solver::new(16, 1);
        let mut checked = 0;
        for index in 0..8 {
            let Some(position) = small_position(&solver, index) else { continue };
            let board = position.board();
            let scored = score_position(&solver, position).expect("solved");
            let stop = AtomicBool::new(false);
            let exact = solver.solve(board, SolveMode::Exact, &stop, SolveLimits::default()).expect("solved");
            assert_eq!(scored.best_score(), exact.score, "{}", scored.to_line());
            // Each move's score is minus the value of the position after it.
            for &(sq, score) in &scored.scores {
                let child = board.play(sq).expect("legal");
                let value = solver.solve(child, SolveMode::Exact, &stop, SolveLimits::default()).expect("solved");
                assert_eq!(score, -value.score);
            }
            checked += 1;
        }
        assert!(checked >= 3, "only {checked} positions checked");
    }

    #[test]
    fn positions_follow_the_mix_and_the_seed() {
        let solver = Solver::new(16, 1);
        let a: Vec<_> = (0..8).filter_map(|i| benchmark_position(&solver, 3, i, 0)).collect();
        let b: Vec<_> = (0..8).filter_map(|i| benchmark_position(&solver, 3, i, 0)).collect();
        assert_eq!(a, b);
        assert!(a.len() >= 5);
        for p in &a {
            assert!(EMPTIES_MIX.iter().any(|&(e, _)| e == p.board().empty_count()));
            assert!(p.board().moves().count_ones() >= 2);
        }
        let distinct: std::collections::HashSet<_> = a.iter().map(|p| p.to_string()).collect();
        assert_eq!(distinct.len(), a.len());
    }

    #[test]
    fn the_tally_adds_up() {
        let text = "\
# two positions by hand: black to move with d3 +4, c4 +4, e6 -2, f5 0
---------------------------OX------XO--------------------------- X d3:+4 c4:+4 e6:-2 f5:+0
---------------------------OX------XO--------------------------- X d3:+4 c4:+4 e6:-2 f5:+0
";
        // The scores are invented: parsing only checks they are the legal moves.
        let positions = parse_file(text).expect("parses");
        assert_eq!(positions.len(), 2);
        let p = &positions[0];
        assert_eq!(p.best_score(), 4);
        let e6 = 5 * 8 + 4;
        assert_eq!(p.loss(e6), Some(6));
        assert_eq!(p.loss(0), None);
        let mut tally = Tally::default();
        tally.add(60, 0);
        tally.add(60, 6);
        tally.add(59, 3);
        let report = tally.report();
        assert!(report.contains("59 empties:    1 positions, mean disc loss 3.00, best move 0.0%"), "{report}");
        assert!(report.contains("60 empties:    2 positions, mean disc loss 3.00, best move 50.0%"), "{report}");
        assert!(report.ends_with("mean disc loss 3.00, best move 33.3%\n"), "{report}");
    }
}
