//! Playouts: games finished by a fast policy to judge a position.
//!
//! * **light**: uniformly random legal moves that do not fill one's own true eyes
//!   ([`FastBoard::true_eyes`]; false eyes may be filled, to connect), until
//!   both sides pass. The cheapest policy there is, and the standard speed reference
//!   (libego, Pachi's light policy);
//! * **heavy** (the MoGo/Pachi family): around the last move, first capture a chain in
//!   atari (the stone just played, or an enemy chain touching it) or save an own chain
//!   the last move put in atari by extending on its liberty when that leaves it at least
//!   two liberties (or captures); else one of the eight points around the last move that
//!   matches a MoGo 3×3 pattern ([`super::prior::matches_pattern`]) and is playable and
//!   no big self-atari; otherwise a random move as in light playouts but never a
//!   self-atari of more than one stone (unless no other move is left). Given a
//!   search's [`LastGoodReply`] tables, the remembered reply to the last moves comes
//!   after the tactical replies and before the patterns ([`heavy_playout_with`]).

use super::last_good_reply::LastGoodReply;
use super::params::{PLAYOUT_MOVES_PER_POINT, RANDOM_DRAWS};
use super::prior::matches_pattern;
use bitboards::arch::select_bit;
use bitboards::go::{Cell, FastBoard};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::Rng;

/// A uniform integer in `0..n`.
#[inline(always)]
pub fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

/// A uniformly random empty point that `accept` takes, `None` if none does: a random
/// empty point is drawn, and if refused taken out before the next draw.
#[inline(always)]
fn random_point(
    board: &FastBoard,
    rng: &mut Xoshiro256PlusPlus,
    accept: impl Fn(&FastBoard, Cell) -> bool,
) -> Option<Cell> {
    let mut candidates = board.empty_mask();
    while candidates != 0 {
        let cell = select_bit(candidates, below(rng, candidates.count_ones() as usize) as u32) as Cell;
        if accept(board, cell) {
            return Some(cell);
        }
        candidates &= !(1 << cell);
    }
    None
}

/// The usual playout length cap: [`PLAYOUT_MOVES_PER_POINT`] moves per point.
/// Random play with simple ko can cycle forever (triple ko); such playouts are scored
/// as they stand.
pub fn move_cap(size: usize) -> usize {
    PLAYOUT_MOVES_PER_POINT * size * size
}

/// Plays random moves on `board` until two passes (or `max_moves`), calling
/// `on_move(cell, black)` for every stone played. Returns the area difference (black
/// minus white, no komi) of the final board.
#[inline]
pub fn light_playout(
    board: &mut FastBoard,
    rng: &mut Xoshiro256PlusPlus,
    max_moves: usize,
    mut on_move: impl FnMut(Cell, bool),
) -> i32 {
    let mut played = 0;
    while board.passes() < 2 && played < max_moves {
        let black = board.to_move() == bitboards::go::Color::BLACK;
        match board.pick_playable(|n| below(rng, n as usize) as u32) {
            Some(cell) => {
                on_move(cell, black);
                board.play(cell);
            }
            None => board.pass(),
        }
        played += 1;
    }
    board.area_difference()
}

/// Which playout policy finishes the games of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Policy {
    /// Random moves that do not fill own true eyes: the fastest policy (about 3× the
    /// playouts per second of the heavy one).
    Light,
    /// Captures and atari escapes near the last move, MoGo 3×3 patterns around it,
    /// no big self-atari: the default. Since false eyes are filled, it won 72, lost 9
    /// and drew 3 of 84 games against GNU Go level 10 (1 thread, 1 s a move) where
    /// light playouts won 47 (docs/arena.md).
    #[default]
    Heavy,
}

impl Policy {
    /// Every policy, in the order options list them.
    pub const ALL: [Policy; 2] = [Policy::Light, Policy::Heavy];

    /// Reads a [`Policy::name`]: `light` or `heavy`.
    pub fn parse(text: &str) -> Result<Policy, String> {
        let text = text.trim().to_ascii_lowercase();
        Policy::ALL
            .into_iter()
            .find(|p| p.name() == text)
            .ok_or_else(|| format!("unknown playout policy '{text}': light or heavy"))
    }

    /// The name [`Policy::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Light => "light",
            Policy::Heavy => "heavy",
        }
    }
}

impl std::fmt::Display for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The tactical replies to the last move (`last`, 0 if it was a pass or none): capture
/// a chain in atari that it played or touches, or save an own chain it put in atari.
/// One of them at random, or `None`.
#[inline]
pub fn tactical_reply(board: &FastBoard, last: Cell, rng: &mut Xoshiro256PlusPlus) -> Option<Cell> {
    if last == 0 || board.at(last).is_none() {
        return None;
    }
    let mut replies = [0 as Cell; 5];
    let mut n = 0;
    let mover = board.to_move();
    if let Some(liberty) = board.atari_liberty(last)
        && board.is_playable(liberty)
    {
        replies[n] = liberty;
        n += 1;
    }
    for q in FastBoard::neighbours(last) {
        let Some(color) = board.at(q) else { continue };
        let Some(liberty) = board.atari_liberty(q) else { continue };
        if replies[..n].contains(&liberty) || !board.is_playable(liberty) {
            continue;
        }
        // An enemy chain in atari is captured; an own one escapes when the extension
        // leaves it two liberties or captures.
        if color != mover || !board.is_big_self_atari(liberty) {
            replies[n] = liberty;
            n += 1;
        }
    }
    (n > 0).then(|| replies[below(rng, n)])
}

/// One of the points around the last move (`last`, 0 for a pass or none) that match a
/// MoGo 3×3 pattern for the side to move, are playable and are no big self-atari; at
/// random, or `None`.
#[inline]
pub fn pattern_reply(board: &FastBoard, last: Cell, rng: &mut Xoshiro256PlusPlus) -> Option<Cell> {
    if last == 0 {
        return None;
    }
    let mut replies = [0 as Cell; 8];
    let mut n = 0;
    let mut around = board.empty_ring(last);
    while around != 0 {
        let q = around.trailing_zeros() as Cell;
        around &= around - 1;
        if matches_pattern(board, q) && board.is_playable(q) && !board.is_big_self_atari(q) {
            replies[n] = q;
            n += 1;
        }
    }
    (n > 0).then(|| replies[below(rng, n)])
}

/// A random playable point that is no self-atari of more than one stone, or any
/// playable point if every one is; `None` if none is playable. Uniform draws first
/// ([`RANDOM_DRAWS`]; most points pass), then a scan that takes refused points out.
#[inline]
fn random_move(board: &FastBoard, rng: &mut Xoshiro256PlusPlus) -> Option<Cell> {
    for _ in 0..RANDOM_DRAWS {
        let cell = board.pick_playable(|n| below(rng, n as usize) as u32)?;
        if !board.is_big_self_atari(cell) {
            return Some(cell);
        }
    }
    random_point(board, rng, |b, cell| b.is_playable(cell) && !b.is_big_self_atari(cell))
        .or_else(|| random_point(board, rng, |b, cell| b.is_playable(cell)))
}

/// Like [`light_playout`] with the heavy policy (see the module documentation).
#[inline]
pub fn heavy_playout(
    board: &mut FastBoard,
    rng: &mut Xoshiro256PlusPlus,
    max_moves: usize,
    on_move: impl FnMut(Cell, bool),
) -> i32 {
    heavy_playout_with(board, rng, max_moves, (0, 0), None, on_move)
}

/// [`heavy_playout`] after the moves `moves_before` (the one before the last, and the
/// last; 0 for a pass or none) that, given a search's [`LastGoodReply`] tables,
/// answers the last move with a remembered reply after the tactical replies and
/// before the patterns: the reply to the last two moves, else to the last one, when
/// it is playable and no big self-atari. (The tactical and pattern replies of the
/// first move do not answer the last of `moves_before`: letting them was measured
/// as no change, 59–58–3 in self-play at 39 ms a move; docs/go-move-model.md.)
#[inline]
pub fn heavy_playout_with(
    board: &mut FastBoard,
    rng: &mut Xoshiro256PlusPlus,
    max_moves: usize,
    moves_before: (Cell, Cell),
    table: Option<&LastGoodReply>,
    mut on_move: impl FnMut(Cell, bool),
) -> i32 {
    let mut played = 0;
    let mut last: Cell = 0;
    let (mut reply_before, mut reply_last) = moves_before;
    while board.passes() < 2 && played < max_moves {
        let black = board.to_move() == bitboards::go::Color::BLACK;
        let choice = tactical_reply(board, last, rng)
            .or_else(|| table.and_then(|t| good_reply(board, t, black, reply_before, reply_last)))
            .or_else(|| pattern_reply(board, last, rng))
            .or_else(|| random_move(board, rng));
        match choice {
            Some(cell) => {
                on_move(cell, black);
                board.play(cell);
                last = cell;
            }
            None => {
                board.pass();
                last = 0;
            }
        }
        (reply_before, reply_last) = (reply_last, last);
        played += 1;
    }
    board.area_difference()
}

/// The side's remembered reply to `before` then `last` ([`LastGoodReply::replies`]),
/// the first one that is playable and no big self-atari.
#[inline]
fn good_reply(board: &FastBoard, table: &LastGoodReply, black: bool, before: Cell, last: Cell) -> Option<Cell> {
    table.replies(black, before, last).into_iter().find(|&cell| {
        cell != 0 && board.at(cell).is_none() && board.is_playable(cell) && !board.is_big_self_atari(cell)
    })
}

/// A playout with `policy`.
#[inline]
pub fn playout(
    policy: Policy,
    board: &mut FastBoard,
    rng: &mut Xoshiro256PlusPlus,
    max_moves: usize,
    on_move: impl FnMut(Cell, bool),
) -> i32 {
    playout_with(policy, board, rng, max_moves, (0, 0), None, on_move)
}

/// [`playout`] with a search's remembered replies for the heavy policy
/// ([`heavy_playout_with`]; light playouts ignore them).
#[inline]
pub fn playout_with(
    policy: Policy,
    board: &mut FastBoard,
    rng: &mut Xoshiro256PlusPlus,
    max_moves: usize,
    moves_before: (Cell, Cell),
    replies: Option<&LastGoodReply>,
    on_move: impl FnMut(Cell, bool),
) -> i32 {
    match policy {
        Policy::Light => light_playout(board, rng, max_moves, on_move),
        Policy::Heavy => heavy_playout_with(board, rng, max_moves, moves_before, replies, on_move),
    }
}

/// Whether Black wins a playout that ended `diff` points ahead (Black's area minus
/// White's) with `komi`. A draw (possible with an integer komi) is half a win for
/// each side, as Pachi scores a jigo: `rng` decides it, so that it counts half on
/// average and not, as `diff > komi` would have it, as White's win.
#[inline]
pub fn black_wins(diff: i32, komi: f32, rng: &mut Xoshiro256PlusPlus) -> bool {
    let margin = diff as f32 - komi;
    if margin == 0.0 { rng.next_u64() >> 63 == 1 } else { margin > 0.0 }
}

/// Random play for judging a finished game: like [`light_playout`], but nobody plays
/// inside their own area (an empty point touching own stones and no enemy stone), so
/// territories survive and only contact points (dead stones, neutral points) are
/// played out.
pub fn settling_playout(board: &mut FastBoard, rng: &mut Xoshiro256PlusPlus, max_moves: usize) {
    let mut played = 0;
    while board.passes() < 2 && played < max_moves {
        match random_point(board, rng, |b, cell| !b.is_inside_own_area(cell) && b.is_playable(cell)) {
            Some(cell) => {
                board.play(cell);
            }
            None => board.pass(),
        }
        played += 1;
    }
}

/// The areas of black and white on a playout board: their stones and the empty
/// regions that touch only their stones.
pub fn area_owners(board: &FastBoard, mask: u128) -> (u128, u128) {
    let (black, white) = board.stone_sets();
    let empty = mask & !(black | white);
    let (mut black_area, mut white_area) = (black, white);
    let mut rest = empty;
    while rest != 0 {
        let region = bitboards::go::flood(rest & rest.wrapping_neg(), empty, mask);
        rest &= !region;
        let border = bitboards::go::neighbours(region, mask);
        match (border & black != 0, border & white != 0) {
            (true, false) => black_area |= region,
            (false, true) => white_area |= region,
            _ => {}
        }
    }
    (black_area, white_area)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitboards::go::{Board, Color, Point};
    use rand_xoshiro::rand_core::SeedableRng;

    #[test]
    fn a_draw_is_a_coin_toss_and_half_a_point_decides() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let black = (0..4000).filter(|_| black_wins(7, 7.0, &mut rng)).count();
        assert!((1800..2200).contains(&black), "{black} of 4000 draws went to Black");
        assert!((0..100).all(|_| black_wins(8, 7.0, &mut rng) && !black_wins(6, 7.0, &mut rng)));
        assert!((0..100).all(|_| !black_wins(7, 7.5, &mut rng) && black_wins(-7, -7.5, &mut rng)));
    }

    #[test]
    fn playouts_end_with_only_eyes_left() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for size in [5, 9] {
            for _ in 0..200 {
                let mut b = FastBoard::new(size);
                let mut played = 0;
                let diff = light_playout(&mut b, &mut rng, move_cap(size), |_, _| played += 1);
                // Two passes end a playout, unless a cycle (triple ko) runs into the cap.
                assert!(b.passes() == 2 || played > size * size, "{played} moves");
                assert!(diff.abs() <= (size * size) as i32);
                // The board is full but for eyes and the odd seki or ko point.
                assert!(b.empty_count() <= size * size / 2, "{} empty points left", b.empty_count());
            }
        }
    }

    #[test]
    fn heavy_playouts_end_and_answer_ataris() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        for _ in 0..200 {
            let mut b = FastBoard::new(9);
            let diff = heavy_playout(&mut b, &mut rng, move_cap(9), |_, _| {});
            assert!(diff.abs() <= 81);
            assert!(b.empty_count() <= 40, "{} empty points left", b.empty_count());
        }
        // A white stone at (2, 2) with one liberty left, (1, 2); white's last move was
        // that stone: black captures.
        let mut board = Board::new(5);
        for (r, c, col) in [(2, 2, Color::WHITE), (3, 2, Color::BLACK), (2, 1, Color::BLACK), (2, 3, Color::BLACK)] {
            board.set(Point::new(r, c), Some(col));
        }
        let b = FastBoard::from_board(&board);
        let capture = FastBoard::cell(Point::new(1, 2));
        for _ in 0..10 {
            assert_eq!(tactical_reply(&b, FastBoard::cell(Point::new(2, 2)), &mut rng), Some(capture));
        }
        // White to move: its stone escapes by extending on (1, 2) (three liberties).
        board.set_to_move(Color::WHITE);
        let b = FastBoard::from_board(&board);
        assert_eq!(tactical_reply(&b, FastBoard::cell(Point::new(2, 1)), &mut rng), Some(capture));
        assert_eq!(tactical_reply(&b, 0, &mut rng), None, "after a pass: no reply");
    }

    /// The first move of a heavy playout with last good replies: the remembered reply
    /// to the two moves before it if it can be played, else the one to the last move,
    /// else the policy's own move; without a table, the plain heavy playout.
    #[test]
    fn heavy_playouts_play_the_last_good_reply() {
        let cell = |r, c| FastBoard::cell(Point::new(r, c));
        // Black played (4, 4) on an empty board; White to move.
        let mut board = Board::new(9);
        board.set(Point::new(4, 4), Some(Color::BLACK));
        board.set_to_move(Color::WHITE);
        let (before, last) = (cell(2, 6), cell(4, 4));
        let first_move = |board: &Board, table: &LastGoodReply, seed: u64| {
            let mut b = FastBoard::from_board(board);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut first = None;
            heavy_playout_with(&mut b, &mut rng, move_cap(9), (before, last), Some(table), |c, black| {
                first.get_or_insert((c, black));
            });
            first
        };
        // In games White won, White's (2, 6) and Black's (4, 4) were answered by
        // (3, 4), and later Black's (4, 4) after another White move by (5, 5).
        let table = LastGoodReply::new();
        table.learn((0, 0), &[(before, false), (last, true), (cell(3, 4), false)], false);
        assert_eq!(table.replies(false, before, last), [cell(3, 4), cell(3, 4)]);
        table.learn((0, 0), &[(cell(0, 8), false), (last, true), (cell(5, 5), false)], false);
        assert_eq!(table.replies(false, before, last), [cell(3, 4), cell(5, 5)]);
        for seed in 0..10 {
            assert_eq!(first_move(&board, &table, seed), Some((cell(3, 4), false)));
        }
        // The two-move reply taken: the one-move reply is played.
        board.set(Point::new(3, 4), Some(Color::BLACK));
        for seed in 0..10 {
            assert_eq!(first_move(&board, &table, seed), Some((cell(5, 5), false)));
        }
        // Both taken: the policy's own moves, which differ from seed to seed.
        board.set(Point::new(5, 5), Some(Color::BLACK));
        let firsts: std::collections::HashSet<_> =
            (0..10).filter_map(|seed| first_move(&board, &table, seed)).collect();
        assert!(firsts.len() > 1, "{firsts:?}");
        // Without the table, the same playout as `heavy_playout`.
        let mut a = FastBoard::from_board(&board);
        let mut b = a.clone();
        let (mut ra, mut rb) = (Xoshiro256PlusPlus::seed_from_u64(5), Xoshiro256PlusPlus::seed_from_u64(5));
        let (mut ma, mut mb) = (Vec::new(), Vec::new());
        heavy_playout(&mut a, &mut ra, move_cap(9), |c, _| ma.push(c));
        heavy_playout_with(&mut b, &mut rb, move_cap(9), (before, last), None, |c, _| mb.push(c));
        assert_eq!(ma, mb);
    }

    #[test]
    fn a_dead_lost_position_is_lost() {
        // Black owns almost the whole 5×5 board with two eyes: black wins every playout.
        let mut board = Board::new(5);
        for p in bitboards::go::points(5) {
            if p != Point::new(0, 0) && p != Point::new(4, 4) {
                board.set(p, Some(Color::BLACK));
            }
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        for _ in 0..20 {
            let mut b = FastBoard::from_board(&board);
            assert_eq!(light_playout(&mut b, &mut rng, 1000, |_, _| {}), 25);
        }
    }
}
