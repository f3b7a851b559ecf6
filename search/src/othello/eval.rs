//! A small hand-made Othello evaluation, for every board size: corners, mobility,
//! potential mobility, and the disc count near the end.

use bitboards::othello::{OthelloBoard, Owner};

/// Heuristic value of `board` for the side to move, in centi-discs.
pub fn evaluate<B: OthelloBoard>(board: &B) -> i32 {
    let n = B::SIZE;
    let corners = [0, n - 1, n * (n - 1), n * n - 1];
    let mut corner = 0;
    for sq in corners {
        match board.disc(sq) {
            Some(Owner::Player) => corner += 1,
            Some(Owner::Opponent) => corner -= 1,
            None => {}
        }
    }
    let mobility = board.mobility() as i32 - board.pass().mobility() as i32;
    let discs = board.player_count() as i32 - board.opponent_count() as i32;
    let empties = board.empty_count() as i32;
    let disc_weight = if empties <= (n * n / 6) as i32 { 100 } else { 0 };
    (600 * corner + 80 * mobility + disc_weight * discs).clamp(-50_000, 50_000)
}

use bitboards::othello::geometry::CORNERS;
use bitboards::othello::movegen::{moves, potential_moves};

use std::sync::OnceLock;

use super::moves::weighted_mobility;
use super::patterns::{Features, PatternEval};
use super::stability::edge_stable;
use super::weights::decode_weights;

/// X squares and the corner each one spoils.
const X_AND_CORNER: [(u64, u64); 4] = [(1 << 9, 1), (1 << 14, 1 << 7), (1 << 49, 1 << 56), (1 << 54, 1 << 63)];

/// The trained weights shipped with the program (see `train.rs` and the README).
static EMBEDDED_WEIGHTS: &[u8] = include_bytes!("../../data/othello-eval.bin");

/// The evaluation in use: the trained patterns, or the hand-made function if no
/// weights could be read.
static PATTERNS: OnceLock<Option<PatternEval>> = OnceLock::new();

/// The bytes of the trained weights built into the program (the weights file's
/// format, `weights.rs`).
pub fn embedded_weights() -> &'static [u8] {
    EMBEDDED_WEIGHTS
}

/// Installs trained weights before the first evaluation (for trying new weights);
/// fails if the evaluation was already used or the weights do not fit this build.
pub fn install_weights(bytes: &[u8]) -> Result<(), String> {
    let weights = decode_weights(bytes)?;
    let eval = PatternEval::from_weights(weights).ok_or("weights of the wrong size")?;
    PATTERNS.set(Some(eval)).map_err(|_| "the evaluation is already in use".to_string())
}

fn patterns() -> Option<&'static PatternEval> {
    PATTERNS.get_or_init(|| decode_weights(EMBEDDED_WEIGHTS).ok().and_then(PatternEval::from_weights)).as_ref()
}

/// True when the trained pattern evaluation is in use.
pub fn is_trained() -> bool {
    patterns().is_some()
}

/// Value of an 8×8 board for the side to move, in discs (−63..=63): the trained
/// pattern evaluation, or [`hand_made_discs`] without weights.
#[inline]
pub fn eval_discs(p: u64, o: u64) -> i32 {
    match patterns() {
        Some(e) => e.eval_discs(p, o),
        None => hand_made_discs(p, o),
    }
}

/// [`eval_discs`] of `(p, o)`, whose pattern [`Features`] are `f` (cheaper: the
/// patterns need not be read from the board).
#[inline]
pub fn eval_discs_from(f: &Features, p: u64, o: u64) -> i32 {
    match patterns() {
        Some(e) => e.eval_discs_from(f, p, o),
        None => hand_made_discs(p, o),
    }
}

/// [`eval_discs`] of the child `(cp, co)` reached from a position whose [`Features`]
/// are `f` by a move on `sq` flipping `flips` (the cheapest way to value a leaf: only
/// the child's view is updated).
#[inline]
pub fn eval_discs_after(f: &Features, sq: u8, flips: u64, cp: u64, co: u64) -> i32 {
    match patterns() {
        Some(e) => e.eval_discs_view(&f.child_view(sq, flips), cp, co),
        None => hand_made_discs(cp, co),
    }
}

/// A hand-made evaluation in discs: mobility, potential mobility, corners, X squares,
/// stable edges, and the disc count near the end.
#[inline]
pub fn hand_made_discs(p: u64, o: u64) -> i32 {
    let empties = (!(p | o)).count_ones() as i32;
    let mp = moves(p, o);
    let mo = moves(o, p);
    let mobility = weighted_mobility(mp) - weighted_mobility(mo);
    let potential = potential_moves(p, o).count_ones() as i32 - potential_moves(o, p).count_ones() as i32;
    let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
    let mut x_squares = 0;
    for (x, corner) in X_AND_CORNER {
        if (p | o) & corner == 0 {
            x_squares += ((p & x) != 0) as i32 - ((o & x) != 0) as i32;
        }
    }
    let stable = edge_stable(p, o).count_ones() as i32 - edge_stable(o, p).count_ones() as i32;
    let discs = p.count_ones() as i32 - o.count_ones() as i32;
    // Sixteenths of a disc.
    let late = (20 - empties).max(0);
    let score = 16 * mobility + 5 * potential + 80 * corners - 40 * x_squares + 20 * stable + late * discs;
    (score / 16).clamp(-63, 63)
}
