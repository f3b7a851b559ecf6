//! Priors for new tree nodes ("equivalent experience", as in Fuego and Pachi): when a
//! node's children are created, each starts with virtual visits and wins from cheap
//! Go knowledge, so the search tries likely moves first and wastes fewer playouts on
//! hopeless ones. Real playouts soon outweigh them.
//!
//! Every child starts at [`EVEN`] visits with half of them won; each rule that fires
//! adds visits that are all wins (good) or all losses (bad), hand-set in
//! [`super::params`]:
//!
//! | rule | virtual visits |
//! |------|----------------|
//! | captures a chain | [`PRIOR_CAPTURE`] won, [`PRIOR_CAPTURE_PER_STONE`] won per stone (up to [`PRIOR_MAX_STONES`]) |
//! | ... a chain that the last move played or touches | [`PRIOR_CAPTURE_LAST`] won more |
//! | saves an own chain in atari (extends to 2+ liberties, or captures) | [`PRIOR_SAVE`] won, [`PRIOR_SAVE_PER_STONE`] won per stone (up to [`PRIOR_MAX_STONES`]) |
//! | self-atari of 2+ stones that captures nothing, unless [`tactics::is_bad_self_atari`] finds it a nakade or snapback | [`PRIOR_BIG_SELF_ATARI`] lost |
//! | an atari that starts a working ladder ([`tactics::ladder_attack`]) | [`PRIOR_LADDER_ATARI`] won |
//! | a throw-in that sets up a snapback ([`tactics::is_snapback`]) | [`PRIOR_SNAPBACK`] won |
//! | extending an own chain in atari that a ladder captures anyway (instead of the save bonus) | [`PRIOR_LADDER_DEAD_END`] lost |
//! | the vital point of a nakade eye space of either colour ([`tactics::vital_point`]) | [`PRIOR_VITAL_POINT`] won |
//! | matches a MoGo 3×3 pattern, next to the last move | [`PRIOR_PATTERN`] won more |
//! | next to the last move (its 8 neighbours) | [`PRIOR_NEAR_LAST`] won |
//! | first line while more than half the board is empty (unless it captures or saves) | [`PRIOR_FIRST_LINE`] lost |
//!
//! The move model ([`super::move_model::add_model_priors`]) adds
//! [`super::params::MODEL_VISITS_PER_NAT`] visits per nat of a move's strength above or
//! below the mean of its siblings, won or lost, at most
//! [`super::params::MODEL_MAX_VISITS`].
//!
//! The tactical rules read the position once per expansion (ladders, snapbacks, eye
//! spaces on a [`Board`] copy, [`super::tactics`]); the children of the same position
//! share that reading through a per-thread cache.
//!
//! Own true eyes are never children at all (the tree only expands points
//! [`FastBoard::is_playable`] allows); a pass gets no prior.
//!
//! The 3×3 patterns are MoGo's (Gelly, Wang, Munos & Teytaud 2006, "Modification of
//! UCT with patterns in Monte-Carlo Go"), as Pachi lists them, centred on the empty
//! candidate point: `X` and `O` are the two colours (matched both ways round, so a
//! shape point is urgent for either side, except the thin hane, only for `X` to
//! move), `.` empty, `?` anything, `x` anything but `X`, `o` anything but `O`, `#`
//! off the board; every rotation and reflection counts.

use std::cell::RefCell;
use std::sync::OnceLock;

use bitboards::go::{Board, Cell, FastBoard, Point, bits, flood};

use super::params::{
    EVEN, PRIOR_BIG_SELF_ATARI, PRIOR_CAPTURE, PRIOR_CAPTURE_LAST, PRIOR_CAPTURE_PER_STONE, PRIOR_FIRST_LINE,
    PRIOR_LADDER_ATARI, PRIOR_LADDER_DEAD_END, PRIOR_MAX_STONES, PRIOR_NEAR_LAST, PRIOR_PATTERN, PRIOR_SAVE,
    PRIOR_SAVE_PER_STONE, PRIOR_SNAPBACK, PRIOR_VITAL_POINT,
};
use super::tactics;

/// Virtual experience of one child: visits and the wins among them (for the player
/// who makes the move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prior {
    /// Virtual visits.
    pub visits: u8,
    /// Virtual wins among them.
    pub wins: u8,
}

impl Prior {
    pub(crate) fn good(&mut self, n: u8) {
        self.visits = self.visits.saturating_add(n);
        self.wins = self.wins.saturating_add(n);
    }

    pub(crate) fn bad(&mut self, n: u8) {
        self.visits = self.visits.saturating_add(n);
    }

    /// The virtual win rate.
    pub fn rate(self) -> f32 {
        if self.visits == 0 { 0.5 } else { f32::from(self.wins) / f32::from(self.visits) }
    }
}

/// One MoGo pattern: 9 cells row by row (the centre is the move), and whether it
/// counts only with `X` the side to move.
struct Pattern(&'static [u8; 9], bool);

/// The hand-set MoGo patterns (see the module documentation).
const PATTERNS: [Pattern; 13] = [
    Pattern(b"XOX...???", false), // hane: enclosing hane
    Pattern(b"XO....?.?", false), // hane: non-cutting hane
    Pattern(b"XO?X..x.?", false), // hane: magari
    Pattern(b"XOO...?.?", true),  // hane: thin hane
    Pattern(b"XO?O.o?o?", false), // cut 1: unprotected cut
    Pattern(b"XO?O.X???", false), // cut 1: peeped cut
    Pattern(b"?X?O.Oooo", false), // cut 2
    Pattern(b"OX?o.O???", false), // cut keima
    Pattern(b"X.?O.?##?", false), // edge: chase
    Pattern(b"OX?X.O###", false), // edge: block side cut
    Pattern(b"?X?x.O###", false), // edge: block side connection
    Pattern(b"?XOx.x###", false), // edge: sagari
    Pattern(b"?OXX.O###", false), // edge: cut
];

/// Cell contents in a pattern code, seen from the side to move.
const EMPTY: u16 = 0;
const OWN: u16 = 1;
const ENEMY: u16 = 2;
const EDGE: u16 = 3;

/// Positions of the ring (see [`FastBoard::ring`]) on the 3×3 grid, as (row, column).
const RING_GRID: [(i8, i8); 8] = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)];

/// The contents a pattern symbol allows, given which code stands for `X`.
fn allowed(symbol: u8, x: u16, o: u16) -> Vec<u16> {
    match symbol {
        b'X' => vec![x],
        b'O' => vec![o],
        b'.' => vec![EMPTY],
        b'#' => vec![EDGE],
        b'x' => vec![EMPTY, o, EDGE],
        b'o' => vec![EMPTY, x, EDGE],
        _ => vec![EMPTY, OWN, ENEMY, EDGE],
    }
}

/// Every ring code (2 bits per ring cell, ring order) that matches some pattern.
fn pattern_table() -> &'static [bool] {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![false; 1 << 16];
        for Pattern(cells, x_to_move_only) in &PATTERNS {
            for (x, o) in [(OWN, ENEMY), (ENEMY, OWN)] {
                if *x_to_move_only && x != OWN {
                    continue;
                }
                for symmetry in 0..8 {
                    // What each ring position allows under this symmetry.
                    let options: Vec<Vec<u16>> = RING_GRID
                        .iter()
                        .map(|&(r, c)| {
                            let (pr, pc) = transform(r - 1, c - 1, symmetry);
                            allowed(cells[((pr + 1) * 3 + pc + 1) as usize], x, o)
                        })
                        .collect();
                    mark_codes(&options, 0, 0, &mut table);
                }
            }
        }
        table
    })
}

/// One of the 8 symmetries of the square applied to an offset from the centre.
fn transform(dr: i8, dc: i8, symmetry: u8) -> (i8, i8) {
    let (r, c) = if symmetry & 4 != 0 { (dc, dr) } else { (dr, dc) };
    let r = if symmetry & 1 != 0 { -r } else { r };
    let c = if symmetry & 2 != 0 { -c } else { c };
    (r, c)
}

fn mark_codes(options: &[Vec<u16>], position: usize, code: u16, table: &mut [bool]) {
    if position == options.len() {
        table[code as usize] = true;
        return;
    }
    for &v in &options[position] {
        mark_codes(options, position + 1, code | (v << (2 * position)), table);
    }
}

/// The ring code of `cell` on `board`, seen from the side to move: the board's
/// colours (1 black, 2 white) become [`OWN`] and [`ENEMY`].
#[inline(always)]
fn ring_code(board: &FastBoard, cell: Cell) -> u16 {
    let raw = board.ring_colors(cell);
    if board.to_move() == bitboards::go::Color::BLACK {
        raw
    } else {
        // Swap 1 and 2 in every 2-bit field (0 and 3 stay).
        let differ = (raw ^ (raw >> 1)) & 0x5555;
        raw ^ (differ | differ << 1)
    }
}

/// True if the empty `cell` matches one of MoGo's 3×3 patterns for the side to move.
#[inline]
pub fn matches_pattern(board: &FastBoard, cell: Cell) -> bool {
    pattern_table()[ring_code(board, cell) as usize]
}

/// The prior of the side to move playing the empty, playable `cell`, after the last
/// move `last` (0 for a pass or none).
pub fn prior(board: &FastBoard, cell: Cell, last: Cell) -> Prior {
    let mut p = Prior { visits: EVEN, wins: EVEN / 2 };
    let me = board.to_move();
    let point = FastBoard::point(cell);
    let facts = with_tactics(board, |facts| {
        let bit = point.bit();
        CellFacts {
            ladder_capture: facts.ladder_captures & bit != 0,
            snapback: facts.snapbacks & bit != 0,
            dead_end: facts.dead_ends & bit != 0,
            vital: facts.vital_points & bit != 0,
            good_self_atari: board.is_big_self_atari(cell) && !tactics::is_bad_self_atari(&facts.board, me, point),
        }
    });
    let mut captures = false;
    let mut saves = 0u32;
    let mut checked = [0 as Cell; 4];
    for (k, q) in FastBoard::neighbours(cell).into_iter().enumerate() {
        let Some(color) = board.at(q) else { continue };
        if board.atari_liberty(q) != Some(cell) {
            continue;
        }
        // Each chain once: its stones may touch `cell` on several sides.
        let chain_seen = checked[..k].iter().any(|&c| board.same_chain(c, q));
        checked[k] = q;
        if chain_seen {
            continue;
        }
        let stones = board.chain_stones(q);
        if color != me {
            captures = true;
            p.good(PRIOR_CAPTURE + PRIOR_CAPTURE_PER_STONE * stones.min(PRIOR_MAX_STONES) as u8);
            if last != 0 && (board.same_chain(q, last) || touches(board, q, last)) {
                p.good(PRIOR_CAPTURE_LAST);
            }
        } else {
            saves += stones;
        }
    }
    if saves > 0 && !captures && facts.dead_end {
        p.bad(PRIOR_LADDER_DEAD_END);
    } else if saves > 0 && (captures || !board.is_big_self_atari(cell)) {
        p.good(PRIOR_SAVE + PRIOR_SAVE_PER_STONE * saves.min(PRIOR_MAX_STONES) as u8);
    }
    if !captures && board.is_big_self_atari(cell) && !facts.good_self_atari {
        p.bad(PRIOR_BIG_SELF_ATARI);
    }
    if facts.ladder_capture {
        p.good(PRIOR_LADDER_ATARI);
    }
    if facts.snapback {
        p.good(PRIOR_SNAPBACK);
    }
    if facts.vital {
        p.good(PRIOR_VITAL_POINT);
    }
    if last != 0 && FastBoard::ring(last).contains(&cell) {
        p.good(PRIOR_NEAR_LAST);
        if matches_pattern(board, cell) {
            p.good(PRIOR_PATTERN);
        }
    }
    let edge = board.size() - 1;
    let first_line = point.row() == 0 || point.col() == 0 || point.row() == edge || point.col() == edge;
    if first_line && !captures && saves == 0 && 2 * board.empty_count() > board.size() * board.size() {
        p.bad(PRIOR_FIRST_LINE);
    }
    p
}

/// What the tactical reading says about one child.
struct CellFacts {
    ladder_capture: bool,
    snapback: bool,
    dead_end: bool,
    vital: bool,
    good_self_atari: bool,
}

/// The tactical reading of one position, for the side to move (bitboards of the
/// [`Board`] layout).
struct Tactics {
    /// The position's [`FastBoard::position_key`].
    key: u64,
    /// The position as a [`Board`], for the reading.
    board: Board,
    /// Ataris that start a working ladder against an opponent chain.
    ladder_captures: u128,
    /// Throw-ins that set up a snapback.
    snapbacks: u128,
    /// The liberties of own chains in atari that a ladder captures even after extending.
    dead_ends: u128,
    /// Vital points of the nakade eye spaces of either colour.
    vital_points: u128,
}

thread_local! {
    /// The last position read on this thread: the children of one node share it.
    static TACTICS: RefCell<Option<Tactics>> = const { RefCell::new(None) };
}

/// Runs `f` on the tactical reading of `fast`, reading the position first unless it is
/// the one read last on this thread.
fn with_tactics<T>(fast: &FastBoard, f: impl FnOnce(&Tactics) -> T) -> T {
    let key = fast.position_key();
    TACTICS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.as_ref().is_none_or(|t| t.key != key) {
            *cache = Some(read_tactics(fast, key));
        }
        f(cache.as_ref().expect("just filled"))
    })
}

/// Reads the ladders, snapbacks and eye spaces of the position for its side to move.
fn read_tactics(fast: &FastBoard, key: u64) -> Tactics {
    let board = fast.to_board();
    let me = fast.to_move();
    let mask = board.mask();
    let mut facts = Tactics { key, board, ladder_captures: 0, snapbacks: 0, dead_ends: 0, vital_points: 0 };
    for color in [me, me.other()] {
        let mut rest = board.stones(color);
        while rest != 0 {
            let seed = rest & rest.wrapping_neg();
            let chain = flood(seed, board.stones(color), mask);
            rest &= !chain;
            let at = Point(seed.trailing_zeros() as u8);
            let liberties = board.liberties(chain);
            match (color == me, liberties.count_ones()) {
                (true, 1) if !tactics::ladder_escapes(&board, at) => facts.dead_ends |= liberties,
                (false, 2) => {
                    if let Some(m) = tactics::ladder_attack(&board, at) {
                        facts.ladder_captures |= m.bit();
                    }
                    for q in bits(liberties) {
                        if tactics::is_snapback(&board, me, q) {
                            facts.snapbacks |= q.bit();
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let mut empty = board.empty();
    while empty != 0 {
        let seed = empty & empty.wrapping_neg();
        let space = flood(seed, board.empty(), mask);
        empty &= !space;
        if (3..=6).contains(&space.count_ones())
            && let Some(v) = tactics::vital_point(&board, Point(seed.trailing_zeros() as u8))
        {
            facts.vital_points |= v.bit();
        }
    }
    facts
}

/// True if a stone of the chain on `chain` is next to `cell`.
fn touches(board: &FastBoard, chain: Cell, cell: Cell) -> bool {
    FastBoard::neighbours(cell).iter().any(|&q| board.same_chain(chain, q))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::go::features;
    use crate::go::move_model::{
        MODEL_OWNERSHIP_PLAYOUTS, MoveModel, OWNERSHIP_LEVELS, Ownership, add_model_priors, built_in_model,
    };
    use crate::go::playout::pattern_reply;
    use bitboards::go::{Board, Color, Point};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::SeedableRng;

    /// A board from rows of text, top row first: `X` black, `O` white, `.` empty.
    fn board(rows: &[&str], to_move: Color) -> FastBoard {
        let size = rows.len();
        let mut b = Board::new(size);
        for (i, row) in rows.iter().enumerate() {
            for (c, ch) in row.bytes().enumerate() {
                let color = match ch {
                    b'X' => Color::BLACK,
                    b'O' => Color::WHITE,
                    _ => continue,
                };
                b.set(Point::new(size - 1 - i, c), Some(color));
            }
        }
        b.set_to_move(to_move);
        FastBoard::from_board(&b)
    }

    /// The cell of row `r` counted from the top, column `c`.
    fn at(size: usize, r: usize, c: usize) -> Cell {
        FastBoard::cell(Point::new(size - 1 - r, c))
    }

    #[test]
    fn the_built_in_move_model_loads_and_knows_something() {
        let model = MoveModel::load(include_str!("../../data/go-move-model.txt")).expect("the built-in model loads");
        assert_ne!(model, MoveModel::uniform(), "a trained model");
        assert_eq!(built_in_model(), &model);
    }

    #[test]
    fn the_model_term_favours_the_moves_the_model_rates() {
        let b = board(
            &[
                ".........",
                "..X......",
                ".XOX.....",
                ".........",
                ".........",
                ".....XX..",
                "....XOOX.",
                ".....X...",
                ".........",
            ],
            Color::BLACK,
        );
        let cells: Vec<Cell> = b.empties().filter(|&c| b.is_playable(c)).collect();
        let base: Vec<Prior> = cells.iter().map(|&c| prior(&b, c, 0)).collect();
        // The uniform model rates every move alike: nothing changes.
        let mut same = base.clone();
        add_model_priors(&MoveModel::uniform(), None, &b, (0, 0), &cells, &mut same);
        assert_eq!(same, base);
        // A model that rates captures 20 times a quiet move: the two captures gain won
        // visits, the quiet moves lost ones.
        let group = features::Group::Capture;
        let text: String = (0..group.levels())
            .map(|level| {
                let id = group.feature(level);
                format!("{id} {} 20\n", features::feature_name(id).expect("a feature"))
            })
            .collect();
        let model = MoveModel::load(&text).expect("a model");
        let mut rated = base.clone();
        add_model_priors(&model, None, &b, (0, 0), &cells, &mut rated);
        for (k, &c) in cells.iter().enumerate() {
            let capture = c == at(9, 3, 2) || c == at(9, 7, 6);
            let (before, after) = (base[k], rated[k]);
            if capture {
                assert!(after.wins > before.wins && after.rate() > before.rate(), "{before:?} {after:?}");
            } else {
                // Below the mean strength (20 × 2 + the rest, over all): lost visits.
                assert!(after.wins == before.wins && after.visits > before.visits, "{before:?} {after:?}");
            }
        }
    }

    #[test]
    fn the_model_term_reads_the_ownership_when_the_model_rates_it() {
        // Black's wall on the D line, white's on the E line: black's side is black's
        // in most playouts, white's side white's.
        let rows = ["...XO...."; 9];
        let b = board(&rows, Color::BLACK);
        let cells: Vec<Cell> = b.empties().filter(|&c| b.is_playable(c)).collect();
        let base: Vec<Prior> = cells.iter().map(|&c| prior(&b, c, 0)).collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let ownership = Ownership::measure(&b, MODEL_OWNERSHIP_PLAYOUTS, &mut rng);
        // A model whose only opinion is that points the mover owns are bad moves.
        let first = features::feature_count();
        let text: String = (0..OWNERSHIP_LEVELS)
            .map(|level| format!("{} ownership:{level} {}\n", first + level, if level >= 5 { 0.05 } else { 1.0 }))
            .collect();
        let model = MoveModel::load(&text).expect("a model");
        let mut without = base.clone();
        add_model_priors(&model, None, &b, (0, 0), &cells, &mut without);
        assert_eq!(without, base, "no ownership known: every move alike");
        let mut rated = base.clone();
        add_model_priors(&model, Some(&ownership), &b, (0, 0), &cells, &mut rated);
        let own_side = |c: Cell| FastBoard::point(c).col() < 3;
        for (k, &c) in cells.iter().enumerate() {
            let (before, after) = (base[k], rated[k]);
            if own_side(c) && ownership.level(c, Color::BLACK) >= 5 {
                assert!(after.rate() < before.rate(), "{before:?} {after:?}");
            }
        }
        let gains = cells.iter().enumerate().any(|(k, &c)| !own_side(c) && rated[k].rate() > base[k].rate());
        assert!(gains, "the points the mover does not own gain");
    }

    #[test]
    fn a_capture_beats_a_quiet_move_and_more_stones_more() {
        let b = board(
            &[
                ".........",
                "..X......",
                ".XOX.....",
                ".........",
                ".........",
                ".....XX..",
                "....XOOX.",
                ".....X...",
                ".........",
            ],
            Color::BLACK,
        );
        let one = prior(&b, at(9, 3, 2), 0);
        let two = prior(&b, at(9, 7, 6), 0);
        let quiet = prior(&b, at(9, 4, 4), 0);
        assert_eq!(quiet, Prior { visits: EVEN, wins: EVEN / 2 });
        assert!(one.rate() > quiet.rate() && one.visits > quiet.visits, "{one:?}");
        assert!(two.wins > one.wins, "{two:?} against {one:?}");
        // Capturing the stone the last move played is worth more.
        let after_last = prior(&b, at(9, 3, 2), at(9, 2, 2));
        assert!(after_last.wins >= one.wins + 10, "{after_last:?}");
    }

    #[test]
    fn saving_an_own_chain_in_atari_is_good_and_a_dead_end_is_not() {
        // White to move. The white pair in the middle has one liberty left, above it
        // (row 4, column 3); extending there joins the white stone at (4, 2), three
        // liberties and more. The white corner stone's extension to (1, 0) would leave
        // the pair with one liberty.
        let rows = [
            "OX.......",
            ".X.......",
            "...XX....",
            "..XOOX...",
            "..O.X....",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        let b = board(&rows, Color::WHITE);
        let save = prior(&b, at(9, 4, 3), 0);
        assert!(save.rate() > 0.7, "{save:?}");
        // Without the stone at (4, 2) the extension has two liberties and black catches
        // it in a ladder: no save bonus, a penalty instead.
        let mut ladder_rows = rows;
        ladder_rows[4] = "....X....";
        let ladder = board(&ladder_rows, Color::WHITE);
        let dead_end = prior(&ladder, at(9, 4, 3), 0);
        assert!(dead_end.rate() < 0.5, "{dead_end:?}");
        let corner_escape = prior(&b, at(9, 1, 0), 0);
        assert!(corner_escape.rate() < 0.5, "a self-atari of two stones: {corner_escape:?}");
    }

    #[test]
    fn a_big_self_atari_is_penalised_but_a_lone_stone_in_atari_is_not() {
        // Black to move. Black extending its corner stone to (0, 1) makes a pair with
        // one liberty, (0, 2), and captures nothing; a lone black stone at (2, 4)
        // between three white ones is in atari too, but alone (a throw-in).
        let b = board(
            &[
                "X..O.....",
                "OO..O....",
                "...O.O...",
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
            ],
            Color::BLACK,
        );
        let self_atari = prior(&b, at(9, 0, 1), 0);
        assert_eq!(self_atari.wins, EVEN / 2, "{self_atari:?}");
        assert!(self_atari.visits >= EVEN + 30, "{self_atari:?}");
        assert_eq!(prior(&b, at(9, 2, 4), 0), Prior { visits: EVEN, wins: EVEN / 2 });
    }

    #[test]
    fn mogo_patterns_next_to_the_last_move() {
        // Black at (4, 3), white's last move at (4, 4) touching it; black to move.
        let b = board(
            &[
                ".........",
                ".........",
                ".........",
                ".........",
                "...XO....",
                ".........",
                ".........",
                ".........",
                ".........",
            ],
            Color::BLACK,
        );
        let last = at(9, 4, 4);
        // Non-cutting hane "XO. / ... / ?.?": the point diagonal to X, under O.
        assert!(matches_pattern(&b, at(9, 5, 4)), "hane under the white stone");
        assert!(matches_pattern(&b, at(9, 3, 4)), "hane above it (reflected)");
        let hane = prior(&b, at(9, 5, 4), last);
        let near = prior(&b, at(9, 5, 5), last);
        let far = prior(&b, at(9, 7, 7), last);
        assert!(!matches_pattern(&b, at(9, 7, 7)));
        assert!(hane.wins > near.wins && near.wins > far.wins, "{hane:?} {near:?} {far:?}");
        // Heavy playouts answer the last move with a point around it that matches,
        // each of them in turn, the hanes among them; after a pass there is no
        // pattern reply.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let replies: std::collections::BTreeSet<Cell> =
            (0..64).filter_map(|_| pattern_reply(&b, last, &mut rng)).collect();
        let matching: std::collections::BTreeSet<Cell> =
            FastBoard::ring(last).into_iter().filter(|&q| b.at(q).is_none() && matches_pattern(&b, q)).collect();
        assert_eq!(replies, matching);
        // The hanes of either colour: beside and under/over the two stones.
        let hanes = [at(9, 3, 3), at(9, 3, 4), at(9, 5, 3), at(9, 5, 4)].into_iter().collect();
        assert_eq!(replies, hanes);
        assert_eq!(pattern_reply(&b, 0, &mut rng), None);
        // The empty board matches nothing, and a pattern counts only next to the
        // last move.
        let empty = board(&["........."; 9], Color::BLACK);
        assert!(!matches_pattern(&empty, at(9, 4, 4)));
        assert_eq!(prior(&b, at(9, 5, 4), 0).wins, EVEN / 2);
    }

    #[test]
    fn the_thin_hane_counts_for_the_side_to_move_only() {
        // Thin hane "XOO / ... / ?.?" with X the side to move: a white stone beside
        // two black ones, the point under the first black stone. It matches with
        // white to move and, the colours seen from black, no pattern with black.
        let mut rows = vec!["........."; 9];
        rows[3] = "...OXX...";
        assert!(matches_pattern(&board(&rows, Color::WHITE), at(9, 4, 4)));
        assert!(!matches_pattern(&board(&rows, Color::BLACK), at(9, 4, 4)));
    }

    #[test]
    fn an_edge_cut_pattern_matches_on_the_edge_only() {
        // Edge "cut": ?OX / X.O / ### with the move on the first line.
        let b = board(
            &[
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
                "...OX....",
                "..X.O....",
            ],
            Color::BLACK,
        );
        assert!(matches_pattern(&b, at(9, 8, 3)));
    }

    #[test]
    fn first_line_moves_are_penalised_early_only() {
        let early = board(&["........."; 9], Color::BLACK);
        let edge = prior(&early, at(9, 0, 4), 0);
        assert!(edge.rate() < 0.5, "{edge:?}");
        assert_eq!(prior(&early, at(9, 1, 4), 0).rate(), 0.5);
        // A capture on the first line is not penalised: white on (0, 1) has its last
        // liberty in the corner.
        let mut rows = vec![".OX......", ".X......."];
        rows.extend(["........."; 7]);
        let capture = prior(&board(&rows, Color::BLACK), at(9, 0, 0), 0);
        assert_eq!(capture.visits, capture.wins + EVEN / 2, "{capture:?}");
        // A crowded board: no penalty any more.
        let mut rows = vec!["XOXOXOXOX"; 5];
        rows.extend(["........."; 4]);
        let late = board(&rows, Color::BLACK);
        assert_eq!(prior(&late, at(9, 8, 4), 0).rate(), 0.5);
    }
}
