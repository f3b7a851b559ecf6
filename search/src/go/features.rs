//! Local features of Go moves for the learned move model ([`super::move_model`]), after
//! Rémi Coulom, "Computing Elo Ratings of Move Patterns in the Game of Go" (2007).
//!
//! A candidate move is described by the features that fire for it. Features come in
//! groups; the levels of one group are mutually exclusive (at most one fires per move),
//! and every level has its own feature id. The groups, in id order:
//!
//! | group | levels |
//! |-------|--------|
//! | [`Group::Pass`] | the move is a pass: after a pass, or after a stone (nothing else fires for a pass) |
//! | [`Group::Capture`] | captures the chain the last move played when that chain touches an own chain in atari; any chain touching an own chain in atari; the last move's chain; otherwise by the stones taken: 1, 2, 3–6, 7+ |
//! | [`Group::Extension`] | extends an own chain in atari to two liberties or more: a chain the last move touched (new atari) or another one, and whether a ladder ([`tactics::ladder_attack`]) still catches it |
//! | [`Group::SelfAtari`] | leaves the move's own chain with one liberty: bad, or good ([`tactics::is_bad_self_atari`]: captures, snapback, throw-in, nakade) |
//! | [`Group::Atari`] | takes an opponent chain to one liberty: starting a working ladder; while a ko is on the board; other |
//! | [`Group::Edge`] | line of the move from the nearest edge: 1, 2, 3, 4 or more |
//! | [`Group::DistanceLast`] | distance to the last move, d(dx, dy) = dx + dy + max(dx, dy): 2, 3, …, 16, 17 or more (none after a pass) |
//! | [`Group::DistanceBefore`] | the same to the move before it |
//! | [`Group::Pattern`] | the 3×3 shape around the point: each of the 8 cells empty, own stone, opponent stone or off the board, and for the 4 orthogonal neighbours whether the chain there is in atari; one id per shape up to the 8 symmetries of the square, seen from the side to move |
//!
//! All the reading is done once per position by [`Position::new`] (ladders, self-ataris,
//! captures and extensions become bitboards of the points where they fire); the
//! features of one point are then lookups in those bitboards, the 3×3 ring of the
//! [`FastBoard`] and a table of pattern ids.

use std::sync::OnceLock;

use arrayvec::ArrayVec;
use bitboards::go::{Board, Cell, Color, FastBoard, Move, Point, STRIDE, bits, flood, neighbours};

use super::tactics;

/// A feature's index into a model's gammas.
pub type FeatureId = u32;

/// Most features that fire for one move: one per group but the pass group.
pub const MAX_FEATURES: usize = 8;

/// The features that fire for one move.
pub type Features = ArrayVec<FeatureId, MAX_FEATURES>;

/// A group of mutually exclusive features (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    /// The move is a pass.
    Pass,
    /// The move captures an opponent chain.
    Capture,
    /// The move extends an own chain in atari to two liberties or more.
    Extension,
    /// The move leaves its own chain with one liberty.
    SelfAtari,
    /// The move puts an opponent chain in atari.
    Atari,
    /// The line of the move from the nearest edge.
    Edge,
    /// The distance to the last move.
    DistanceLast,
    /// The distance to the move before the last.
    DistanceBefore,
    /// The 3×3 pattern around the move.
    Pattern,
}

/// Level names of the groups with fixed levels (the distances and patterns are named
/// by [`level_name`]).
const PASS_LEVELS: [&str; 2] = ["after-pass", "after-move"];
const CAPTURE_LEVELS: [&str; 7] =
    ["last-move-threat", "saves-own-chain", "last-move", "size-1", "size-2", "size-3-6", "size-7+"];
const EXTENSION_LEVELS: [&str; 4] = ["new-atari", "new-atari-ladder", "old-atari", "old-atari-ladder"];
const SELF_ATARI_LEVELS: [&str; 2] = ["bad", "good"];
const ATARI_LEVELS: [&str; 3] = ["ladder", "with-ko", "other"];
const EDGE_LEVELS: [&str; 4] = ["line-1", "line-2", "line-3", "line-4+"];
/// Distance levels: d = 2 ..= 16 and 17 or more.
const DISTANCE_LEVELS: u32 = 16;

impl Group {
    /// Every group, in feature id order.
    pub const ALL: [Group; 9] = [
        Group::Pass,
        Group::Capture,
        Group::Extension,
        Group::SelfAtari,
        Group::Atari,
        Group::Edge,
        Group::DistanceLast,
        Group::DistanceBefore,
        Group::Pattern,
    ];

    /// The group's name in feature names.
    pub const fn name(self) -> &'static str {
        match self {
            Group::Pass => "passing",
            Group::Capture => "capture",
            Group::Extension => "extension",
            Group::SelfAtari => "self-atari",
            Group::Atari => "atari",
            Group::Edge => "edge",
            Group::DistanceLast => "distance-last",
            Group::DistanceBefore => "distance-before",
            Group::Pattern => "pattern",
        }
    }

    /// Levels of a group with a fixed number of them (0 for the patterns).
    const fn fixed_levels(self) -> u32 {
        match self {
            Group::Pass => PASS_LEVELS.len() as u32,
            Group::Capture => CAPTURE_LEVELS.len() as u32,
            Group::Extension => EXTENSION_LEVELS.len() as u32,
            Group::SelfAtari => SELF_ATARI_LEVELS.len() as u32,
            Group::Atari => ATARI_LEVELS.len() as u32,
            Group::Edge => EDGE_LEVELS.len() as u32,
            Group::DistanceLast | Group::DistanceBefore => DISTANCE_LEVELS,
            Group::Pattern => 0,
        }
    }

    /// How many features (levels) the group has.
    pub fn levels(self) -> u32 {
        match self {
            Group::Pattern => patterns().canonical.len() as u32,
            _ => self.fixed_levels(),
        }
    }

    /// The id of the group's first feature; its levels follow it.
    pub const fn first(self) -> FeatureId {
        let mut first = 0;
        let mut i = 0;
        while Group::ALL[i] as u8 != self as u8 {
            first += Group::ALL[i].fixed_levels();
            i += 1;
        }
        first
    }

    /// The id of the group's feature `level`.
    pub const fn feature(self, level: u32) -> FeatureId {
        self.first() + level
    }

    /// The group of a feature id and its level there; `None` past the last feature.
    pub fn of(id: FeatureId) -> Option<(Group, u32)> {
        Group::ALL.into_iter().find(|g| id >= g.first() && id < g.first() + g.levels()).map(|g| (g, id - g.first()))
    }
}

/// The number of features (the length of a model's gammas).
pub fn feature_count() -> usize {
    (Group::Pattern.first() + Group::Pattern.levels()) as usize
}

/// The name of a level of a group, `None` if the group has no such level: a word for
/// the fixed groups, `d2` … `d16`, `d17+` for the distances, and for a pattern its
/// three rows from the top separated by `/` (`*` the move, `.` empty, `X` own stone,
/// `O` opponent stone, `x` and `o` the same in atari, `#` off the board).
pub fn level_name(group: Group, level: u32) -> Option<String> {
    if level >= group.levels() {
        return None;
    }
    let word = |names: &[&str]| names[level as usize].to_string();
    Some(match group {
        Group::Pass => word(&PASS_LEVELS),
        Group::Capture => word(&CAPTURE_LEVELS),
        Group::Extension => word(&EXTENSION_LEVELS),
        Group::SelfAtari => word(&SELF_ATARI_LEVELS),
        Group::Atari => word(&ATARI_LEVELS),
        Group::Edge => word(&EDGE_LEVELS),
        Group::DistanceLast | Group::DistanceBefore if level + 1 == DISTANCE_LEVELS => format!("d{}+", level + 2),
        Group::DistanceLast | Group::DistanceBefore => format!("d{}", level + 2),
        Group::Pattern => pattern_text(patterns().canonical[level as usize]),
    })
}

/// The name of a feature: `group:level` (see [`level_name`]); `None` past the last one.
pub fn feature_name(id: FeatureId) -> Option<String> {
    let (group, level) = Group::of(id)?;
    Some(format!("{}:{}", group.name(), level_name(group, level)?))
}

// ---------------------------------------------------------------------------------------
// 3×3 patterns
// ---------------------------------------------------------------------------------------

/// Offsets (row, column) of the cells of [`FastBoard::ring`], in its order.
const RING_OFFSETS: [(i8, i8); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];
/// Ring positions of the four orthogonal neighbours.
const ORTHOGONAL: [usize; 4] = [1, 3, 4, 6];

/// What a ring cell holds in a shape, seen from the side to move.
const EMPTY: u8 = 0;
const OWN: u8 = 1;
const ENEMY: u8 = 2;
const OFF: u8 = 3;
const OWN_ATARI: u8 = 4;
const ENEMY_ATARI: u8 = 5;

/// Bits of a raw pattern code: 2 per ring cell (colours as [`FastBoard::ring_colors`]
/// from the mover's side: 1 own, 2 opponent), then one atari bit per orthogonal
/// neighbour.
const RAW_BITS: u32 = 20;

/// The pattern ids: raw code → id, and id → its canonical raw code.
struct PatternTable {
    ids: Vec<u16>,
    canonical: Vec<u32>,
}

/// Not a pattern that can occur on a board.
const NO_PATTERN: u16 = u16::MAX;

/// The raw code of a shape (8 ring cells).
fn encode(shape: &[u8; 8]) -> u32 {
    let mut code = 0;
    for (i, &v) in shape.iter().enumerate() {
        let colour = if v >= OWN_ATARI { v - 3 } else { v };
        code |= u32::from(colour) << (2 * i);
    }
    for (k, &i) in ORTHOGONAL.iter().enumerate() {
        if shape[i] >= OWN_ATARI {
            code |= 1 << (16 + k);
        }
    }
    code
}

/// The shape of a raw code.
fn decode(code: u32) -> [u8; 8] {
    let mut shape = [0; 8];
    for (i, v) in shape.iter_mut().enumerate() {
        *v = (code >> (2 * i) & 3) as u8;
    }
    for (k, &i) in ORTHOGONAL.iter().enumerate() {
        if code >> (16 + k) & 1 != 0 {
            shape[i] += 3;
        }
    }
    shape
}

/// The ring position of an offset.
fn ring_index(offset: (i8, i8)) -> usize {
    RING_OFFSETS.iter().position(|&o| o == offset).unwrap_or(0)
}

/// For each of the 8 symmetries of the square (bit 2 transposes, then bit 0 flips the
/// rows and bit 1 the columns), where each cell of a shape with cells at `offsets`
/// takes its content from in the transformed shape. `offsets` must be closed under the
/// symmetries.
fn symmetry_table<const N: usize>(offsets: &[(i8, i8); N]) -> [[usize; N]; 8] {
    let mut table = [[0; N]; 8];
    for (s, row) in table.iter_mut().enumerate() {
        for (i, from) in row.iter_mut().enumerate() {
            let (dr, dc) = offsets[i];
            let (r, c) = if s & 4 != 0 { (dc, dr) } else { (dr, dc) };
            let r = if s & 1 != 0 { -r } else { r };
            let c = if s & 2 != 0 { -c } else { c };
            *from = offsets.iter().position(|&o| o == (r, c)).unwrap_or(0);
        }
    }
    table
}

/// [`symmetry_table`] of the 3×3 ring.
fn symmetries() -> [[usize; 8]; 8] {
    symmetry_table(&RING_OFFSETS)
}

/// The smallest raw code of a shape's 8 symmetric images.
fn canonical_code(shape: &[u8; 8], symmetries: &[[usize; 8]; 8]) -> u32 {
    symmetries.iter().map(|from| encode(&from.map(|j| shape[j]))).min().unwrap_or(0)
}

/// Every shape that can occur on a board (off-board cells form an edge or a corner;
/// only stones can be in atari), calling `f` with each.
fn for_each_shape(mut f: impl FnMut(&[u8; 8])) {
    for vertical in [0i8, -1, 1] {
        for horizontal in [0i8, -1, 1] {
            let off: Vec<bool> = RING_OFFSETS
                .iter()
                .map(|&(r, c)| (vertical != 0 && r == vertical) || (horizontal != 0 && c == horizontal))
                .collect();
            // The contents each cell may take.
            let options: Vec<&[u8]> = (0..8)
                .map(|i| -> &[u8] {
                    if off[i] {
                        &[OFF]
                    } else if ORTHOGONAL.contains(&i) {
                        &[EMPTY, OWN, ENEMY, OWN_ATARI, ENEMY_ATARI]
                    } else {
                        &[EMPTY, OWN, ENEMY]
                    }
                })
                .collect();
            let mut choice = [0usize; 8];
            loop {
                let shape: [u8; 8] = std::array::from_fn(|i| options[i][choice[i]]);
                f(&shape);
                // Next combination (an odometer over the options).
                let mut i = 0;
                while i < 8 {
                    choice[i] += 1;
                    if choice[i] < options[i].len() {
                        break;
                    }
                    choice[i] = 0;
                    i += 1;
                }
                if i == 8 {
                    break;
                }
            }
        }
    }
}

/// The pattern table (about 55,000 shapes read), built on first use.
fn patterns() -> &'static PatternTable {
    static TABLE: OnceLock<PatternTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let symmetries = symmetries();
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for_each_shape(|shape| pairs.push((encode(shape), canonical_code(shape, &symmetries))));
        let mut canonical: Vec<u32> = pairs.iter().map(|&(_, c)| c).collect();
        canonical.sort_unstable();
        canonical.dedup();
        assert!(canonical.len() < usize::from(NO_PATTERN), "pattern ids fit in 16 bits");
        let mut ids = vec![NO_PATTERN; 1 << RAW_BITS];
        for (raw, c) in pairs {
            if let Ok(id) = canonical.binary_search(&c) {
                ids[raw as usize] = id as u16;
            }
        }
        PatternTable { ids, canonical }
    })
}

/// The text of a raw pattern code (see [`level_name`]).
fn pattern_text(code: u32) -> String {
    let shape = decode(code);
    let mut text = String::with_capacity(11);
    for r in -1i8..=1 {
        if r != -1 {
            text.push('/');
        }
        for c in -1i8..=1 {
            text.push(if (r, c) == (0, 0) {
                '*'
            } else {
                match shape[ring_index((r, c))] {
                    EMPTY => '.',
                    OWN => 'X',
                    ENEMY => 'O',
                    OWN_ATARI => 'x',
                    ENEMY_ATARI => 'o',
                    _ => '#',
                }
            });
        }
    }
    text
}

/// Swaps black (1) and white (2) in every 2-bit field of a ring code.
fn swap_colours(raw: u16) -> u16 {
    let differ = (raw ^ (raw >> 1)) & 0x5555;
    raw ^ (differ | differ << 1)
}

// ---------------------------------------------------------------------------------------
// Positions
// ---------------------------------------------------------------------------------------

/// One position read for feature extraction: the board in both layouts, the side to
/// move, the last two moves, and the points where each tactical feature fires (as
/// bitboards of the [`Board`] layout), read once and shared by all candidates.
#[derive(Clone)]
pub struct Position {
    fast: FastBoard,
    board: Board,
    me: Color,
    last: Option<Move>,
    before: Option<Move>,
    /// Stones (of either colour) of chains with one liberty.
    atari_stones: u128,
    /// Points where each capture level fires.
    captures: [u128; CAPTURE_LEVELS.len()],
    /// Points where each extension level fires.
    extensions: [u128; EXTENSION_LEVELS.len()],
    /// Points where each self-atari level fires.
    self_ataris: [u128; SELF_ATARI_LEVELS.len()],
    /// Liberties of opponent chains with two liberties.
    ataris: u128,
    /// Ataris that start a working ladder.
    ladder_ataris: u128,
    /// A simple-ko point is on the board.
    ko: bool,
}

impl Position {
    /// Reads `board` with its side to move, after the last move `last` and the move
    /// before it `before` (`None` where the game has none).
    pub fn new(board: &Board, last: Option<Move>, before: Option<Move>) -> Position {
        Position::read(FastBoard::from_board(board), *board, last, before)
    }

    /// [`Position::new`] for a playout board (the tree's boards).
    pub fn from_fast(fast: &FastBoard, last: Option<Move>, before: Option<Move>) -> Position {
        Position::read(fast.clone(), fast.to_board(), last, before)
    }

    fn read(fast: FastBoard, board: Board, last: Option<Move>, before: Option<Move>) -> Position {
        let me = board.to_move();
        let mut position = Position {
            ko: fast.ko() != 0 || board.ko().is_some(),
            fast,
            board,
            me,
            last,
            before,
            atari_stones: 0,
            captures: [0; CAPTURE_LEVELS.len()],
            extensions: [0; EXTENSION_LEVELS.len()],
            self_ataris: [0; SELF_ATARI_LEVELS.len()],
            ataris: 0,
            ladder_ataris: 0,
        };
        position.read_chains();
        position.read_self_ataris();
        position
    }

    /// The chains of both colours: ataris, captures, extensions and ladders.
    fn read_chains(&mut self) {
        let board = &self.board;
        let mask = board.mask();
        let me = self.me;
        let last_stone = match self.last {
            Some(Move::Play(q)) if board.at(q).is_some() => q.bit(),
            _ => 0,
        };
        // Every chain once, with its liberties.
        let mut chains: Vec<(Color, u128, u128)> = Vec::new();
        for color in [me, me.other()] {
            let mut rest = board.stones(color);
            while rest != 0 {
                let chain = flood(rest & rest.wrapping_neg(), board.stones(color), mask);
                rest &= !chain;
                chains.push((color, chain, board.liberties(chain)));
            }
        }
        for &(_, chain, liberties) in &chains {
            if liberties.count_ones() == 1 {
                self.atari_stones |= chain;
            }
        }
        let own_in_atari = self.atari_stones & board.stones(me);
        for &(color, chain, liberties) in &chains {
            let seed = Point(chain.trailing_zeros() as u8);
            match (color == me, liberties.count_ones()) {
                (false, 1) => {
                    let saves = neighbours(chain, mask) & own_in_atari != 0;
                    let of_last = chain & last_stone != 0;
                    let level = match (of_last, saves, chain.count_ones()) {
                        (true, true, _) => 0,
                        (false, true, _) => 1,
                        (true, false, _) => 2,
                        (_, _, 1) => 3,
                        (_, _, 2) => 4,
                        (_, _, 3..=6) => 5,
                        _ => 6,
                    };
                    self.captures[level] |= liberties;
                }
                (false, 2) => {
                    self.ataris |= liberties;
                    if let Some(m) = tactics::ladder_attack(board, seed) {
                        self.ladder_ataris |= m.bit();
                    }
                }
                (true, 1) => {
                    let liberty = Point(liberties.trailing_zeros() as u8);
                    let Ok((next, _)) = board.try_play(me, liberty) else { continue };
                    let left = next.liberties(next.group(liberty)).count_ones();
                    if left < 2 {
                        continue;
                    }
                    let new_atari = neighbours(chain, mask) & last_stone != 0;
                    let ladder = left == 2 && tactics::ladder_attack(&next, liberty).is_some();
                    let level = 2 * usize::from(!new_atari) + usize::from(ladder);
                    self.extensions[level] |= liberties;
                }
                _ => {}
            }
        }
        // One level per point: the first that fires.
        keep_first(&mut self.captures);
        keep_first(&mut self.extensions);
    }

    /// The self-ataris of the side to move: only points with fewer than two empty
    /// neighbours can be one.
    fn read_self_ataris(&mut self) {
        let board = &self.board;
        let mask = board.mask();
        let empty = board.empty();
        let shifted = [(empty >> 1) & mask, (empty << 1) & mask, empty >> STRIDE, (empty << STRIDE) & mask];
        let mut two = 0;
        for i in 0..4 {
            for j in i + 1..4 {
                two |= shifted[i] & shifted[j];
            }
        }
        for p in bits(empty & !two) {
            if tactics::is_self_atari(board, self.me, p) {
                let level = usize::from(!tactics::is_bad_self_atari(board, self.me, p));
                self.self_ataris[level] |= p.bit();
            }
        }
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.me
    }

    /// The position as a bitboard [`Board`].
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The candidate moves: every point where the side to move may play without
    /// filling one of its own true eyes ([`FastBoard::is_playable`]: simple ko, no
    /// suicide), in point order, then a pass.
    pub fn candidates(&self) -> Vec<Move> {
        let mut moves: Vec<Move> = self
            .fast
            .empties()
            .filter(|&c| self.fast.is_playable(c))
            .map(|c| Move::Play(FastBoard::point(c)))
            .collect();
        // Cells are numbered row by row like points: this is point order.
        moves.push(Move::Pass);
        moves
    }

    /// The features of `mv` for the side to move: a pass gets its pass feature only;
    /// a point gets one feature of each group that fires there. A point that is off the
    /// board or occupied gets none.
    pub fn features(&self, mv: Move) -> Features {
        let mut features = Features::new();
        let p = match mv {
            Move::Pass => {
                let after_pass = matches!(self.last, Some(Move::Pass));
                features.push(Group::Pass.feature(u32::from(!after_pass)));
                return features;
            }
            Move::Play(p) => p,
        };
        let size = self.board.size();
        if !p.on_board(size) || self.board.at(p).is_some() {
            return features;
        }
        let bit = p.bit();
        let mut level_of = |group: Group, masks: &[u128]| {
            if let Some(level) = masks.iter().position(|m| m & bit != 0) {
                features.push(group.feature(level as u32));
            }
        };
        level_of(Group::Capture, &self.captures);
        level_of(Group::Extension, &self.extensions);
        level_of(Group::SelfAtari, &self.self_ataris);
        if self.ataris & bit != 0 {
            let level = if self.ladder_ataris & bit != 0 {
                0
            } else if self.ko {
                1
            } else {
                2
            };
            features.push(Group::Atari.feature(level));
        }
        let line = p.row().min(p.col()).min(size - 1 - p.row()).min(size - 1 - p.col());
        features.push(Group::Edge.feature(line.min(3) as u32));
        if let Some(Move::Play(q)) = self.last {
            features.push(Group::DistanceLast.feature(distance_level(p, q)));
        }
        if let Some(Move::Play(q)) = self.before {
            features.push(Group::DistanceBefore.feature(distance_level(p, q)));
        }
        if let Some(id) = self.pattern(FastBoard::cell(p)) {
            features.push(Group::Pattern.feature(id));
        }
        features
    }

    /// The pattern id of the empty `cell`.
    fn pattern(&self, cell: Cell) -> Option<u32> {
        let raw = self.fast.ring_colors(cell);
        let mut code = u32::from(if self.me == Color::BLACK { raw } else { swap_colours(raw) });
        let ring = FastBoard::ring(cell);
        for (k, &i) in ORTHOGONAL.iter().enumerate() {
            let v = raw >> (2 * i) & 3;
            if (v == 1 || v == 2) && FastBoard::point(ring[i]).bit() & self.atari_stones != 0 {
                code |= 1 << (16 + k);
            }
        }
        let id = patterns().ids[code as usize];
        (id != NO_PATTERN).then_some(u32::from(id))
    }
}

/// Offsets (row, column) of the cells of a spatial pattern ([`Position::spatial_code`]):
/// the 3×3 ring in [`RING_OFFSETS`]' order, then the four points two steps away in a
/// straight line (all points at Coulom's distance 4 or less, the centre left out).
const SPATIAL_OFFSETS: [(i8, i8); 12] =
    [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1), (-2, 0), (0, -2), (0, 2), (2, 0)];

/// [`symmetry_table`] of the spatial pattern, built on first use.
fn spatial_symmetries() -> &'static [[usize; 12]; 8] {
    static TABLE: OnceLock<[[usize; 12]; 8]> = OnceLock::new();
    TABLE.get_or_init(|| symmetry_table(&SPATIAL_OFFSETS))
}

impl Position {
    /// The spatial pattern around the empty point `p`: the 12 points within Coulom's
    /// distance 4 ([`SPATIAL_OFFSETS`]), each empty (0), the mover's stone (1), the
    /// opponent's (2) or off the board (3), 2 bits a cell; the smallest code of the 8
    /// symmetric images, so all images of a shape share it. Colours are seen from the
    /// side to move, as in the 3×3 patterns. A larger neighbourhood than the 3×3
    /// pattern, without its atari marks; the move model knows the shapes its training
    /// data played often ([`super::move_model`]).
    pub fn spatial_code(&self, p: Point) -> u32 {
        let size = self.board.size() as isize;
        let cells: [u32; 12] = SPATIAL_OFFSETS.map(|(dr, dc)| {
            let (r, c) = (p.row() as isize + dr as isize, p.col() as isize + dc as isize);
            if r < 0 || c < 0 || r >= size || c >= size {
                return u32::from(OFF);
            }
            match self.board.at(Point::new(r as usize, c as usize)) {
                None => u32::from(EMPTY),
                Some(colour) if colour == self.me => u32::from(OWN),
                Some(_) => u32::from(ENEMY),
            }
        });
        spatial_symmetries()
            .iter()
            .map(|from| from.iter().enumerate().fold(0, |code, (i, &j)| code | cells[j] << (2 * i)))
            .min()
            .unwrap_or(0)
    }
}

/// Clears from each mask the points of the masks before it.
fn keep_first(masks: &mut [u128]) {
    let mut taken = 0;
    for m in masks.iter_mut() {
        *m &= !taken;
        taken |= *m;
    }
}

/// Coulom's distance d(dx, dy) = dx + dy + max(dx, dy) between two points.
pub fn distance(a: Point, b: Point) -> u32 {
    let dx = a.col().abs_diff(b.col()) as u32;
    let dy = a.row().abs_diff(b.row()) as u32;
    dx + dy + dx.max(dy)
}

/// The distance level of two points: d = 2 (or less) is level 0, …, 17 or more the
/// last level.
fn distance_level(a: Point, b: Point) -> u32 {
    distance(a, b).clamp(2, DISTANCE_LEVELS + 1) - 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitboards::go::parse_board_text;

    fn board(rows: &[&str], side: &str) -> Board {
        parse_board_text(&format!("{} {side}", rows.join("/"))).expect("a valid test board")
    }

    fn at(text: &str) -> Point {
        Point::from_gtp(text, 9).expect("a valid test point")
    }

    fn play(text: &str) -> Option<Move> {
        Some(Move::Play(at(text)))
    }

    /// The level of `group` that fires for `mv`, if any.
    fn level(position: &Position, mv: Move, group: Group) -> Option<u32> {
        position.features(mv).into_iter().find_map(|id| Group::of(id).filter(|(g, _)| *g == group).map(|(_, l)| l))
    }

    /// A 9×9 board with stones at offsets (row, column) from E5, black to move
    /// unless `white`.
    fn shape(stones: &[((i8, i8), Color)], white: bool) -> Board {
        let mut b = Board::new(9);
        for &((dr, dc), c) in stones {
            b.set(Point::new((4 + dr) as usize, (4 + dc) as usize), Some(c));
        }
        b.set_to_move(if white { Color::WHITE } else { Color::BLACK });
        b
    }

    fn pattern_of(b: &Board, p: Point) -> Option<u32> {
        level(&Position::new(b, None, None), Move::Play(p), Group::Pattern)
    }

    #[test]
    fn the_pattern_id_is_the_same_under_the_eight_symmetries_and_colour_swap() {
        let (b, w) = (Color::BLACK, Color::WHITE);
        // A black stone in atari (white on three sides) north of E5, a white one to
        // the east, a black one in the south-west corner of the ring.
        let stones = [((-1, 0), b), ((-2, 0), w), ((-1, -1), w), ((-1, 1), w), ((0, 1), w), ((1, -1), b)];
        let centre = Point::new(4, 4);
        let reference = pattern_of(&shape(&stones, false), centre).expect("a pattern fires");
        let symmetric = |s: usize| -> Vec<((i8, i8), Color)> {
            stones
                .iter()
                .map(|&((r, c), colour)| {
                    let (r, c) = if s & 4 != 0 { (c, r) } else { (r, c) };
                    let r = if s & 1 != 0 { -r } else { r };
                    let c = if s & 2 != 0 { -c } else { c };
                    ((r, c), colour)
                })
                .collect()
        };
        for s in 0..8 {
            let image = symmetric(s);
            assert_eq!(pattern_of(&shape(&image, false), centre), Some(reference), "symmetry {s}");
            // The colours swapped, white to move: the same shape from the mover's side.
            let swapped: Vec<_> = image.iter().map(|&(o, c)| (o, c.other())).collect();
            assert_eq!(pattern_of(&shape(&swapped, true), centre), Some(reference), "swapped {s}");
        }
        // The same stones with the other side to move is another pattern, and so is
        // the shape without the atari (the north stone gets a liberty back).
        assert_ne!(pattern_of(&shape(&stones, true), centre), Some(reference));
        let freed: Vec<_> = stones.iter().copied().filter(|&(o, _)| o != (-2, 0)).collect();
        assert_ne!(pattern_of(&shape(&freed, false), centre), Some(reference));
        // Its name draws it from the mover's side, in one of its orientations.
        let name = feature_name(Group::Pattern.feature(reference)).expect("a name");
        assert!(name.starts_with("pattern:") && name.contains('x') && name.contains('*'), "{name}");
        // An edge shape: the empty board's first line, in all four edges, one id;
        // a corner another, the centre a third.
        let empty = Board::new(9);
        let edge = pattern_of(&empty, at("E1"));
        for p in ["A5", "E9", "J5"] {
            assert_eq!(pattern_of(&empty, at(p)), edge);
        }
        let corner = pattern_of(&empty, at("A1"));
        assert_eq!(pattern_of(&empty, at("J9")), corner);
        assert_ne!(corner, edge);
        let open = pattern_of(&empty, at("E5")).expect("a pattern fires");
        assert_ne!(Some(open), edge);
        assert_eq!(feature_name(Group::Pattern.feature(open)).as_deref(), Some("pattern:.../.*./..."));
    }

    #[test]
    fn the_spatial_code_is_the_same_under_the_eight_symmetries_and_colour_swap() {
        let (b, w) = (Color::BLACK, Color::WHITE);
        // Stones on the ring and two steps away, asymmetric in every direction.
        let stones = [((-2, 0), w), ((-1, 1), b), ((0, 2), b), ((1, 0), w), ((0, -1), w), ((2, 0), b)];
        let centre = Point::new(4, 4);
        let code = |board: &Board| Position::new(board, None, None).spatial_code(centre);
        let reference = code(&shape(&stones, false));
        for s in 0..8 {
            let image: Vec<_> = stones
                .iter()
                .map(|&((r, c), colour)| {
                    let (r, c) = if s & 4 != 0 { (c, r) } else { (r, c) };
                    let (r, c) = (if s & 1 != 0 { -r } else { r }, if s & 2 != 0 { -c } else { c });
                    ((r, c), colour)
                })
                .collect();
            assert_eq!(code(&shape(&image, false)), reference, "symmetry {s}");
            let swapped: Vec<_> = image.iter().map(|&(o, c)| (o, c.other())).collect();
            assert_eq!(code(&shape(&swapped, true)), reference, "swapped {s}");
        }
        // The other side to move, or one stone two steps away moved, is another shape;
        // a stone three steps away is outside the pattern.
        assert_ne!(code(&shape(&stones, true)), reference);
        let moved: Vec<_> = stones.iter().map(|&(o, c)| if o == (2, 0) { ((0, -2), c) } else { (o, c) }).collect();
        assert_ne!(code(&shape(&moved, false)), reference);
        let far: Vec<_> = stones.iter().copied().chain([((3, 0), w), ((-1, -2), b)]).collect();
        assert_eq!(code(&shape(&far, false)), reference);
        // Off-board cells: on the empty board the four edges' midpoints share a code,
        // the first and second lines differ, and the centre's code is 0 (all empty).
        let empty = Position::new(&Board::new(9), None, None);
        let edge = empty.spatial_code(at("E1"));
        for p in ["A5", "E9", "J5"] {
            assert_eq!(empty.spatial_code(at(p)), edge);
        }
        assert_ne!(empty.spatial_code(at("E2")), edge);
        assert_ne!(empty.spatial_code(at("E2")), 0);
        assert_eq!(empty.spatial_code(at("E5")), 0);
        assert!(empty.spatial_code(at("A1")) < 1 << 24);
    }

    #[test]
    fn pattern_ids_are_dense_and_distinct() {
        let table = patterns();
        let count = table.canonical.len();
        // Centre shapes alone give over 5^4 · 3^4 / 8 ≈ 6,300 classes; edges and corners more.
        assert!((6_000..20_000).contains(&count), "{count} patterns");
        let mut seen = vec![false; count];
        for &id in &table.ids {
            if id != NO_PATTERN {
                seen[usize::from(id)] = true;
            }
        }
        assert!(seen.iter().all(|&s| s), "every id is reached from some raw code");
        // Every canonical code is its own canonical form.
        let sym = symmetries();
        assert!(table.canonical.iter().all(|&c| canonical_code(&decode(c), &sym) == c));
        // Names are unique over all features.
        let names: std::collections::HashSet<String> = (0..feature_count() as u32).filter_map(feature_name).collect();
        assert_eq!(names.len(), feature_count());
        assert_eq!(Group::of(feature_count() as u32), None);
        assert_eq!(Group::of(Group::Edge.feature(2)), Some((Group::Edge, 2)));
    }

    #[test]
    fn captures_by_kind_and_size() {
        // Black to move. White E5, the last move, is alone in atari (liberty F5);
        // white G2-G3 has two liberties, G4 and G1.
        let b = board(
            &[
                ".........",
                ".........",
                ".........",
                "....X....",
                "...XO....",
                "....X....",
                ".....XOX.",
                ".....XOX.",
                ".........",
            ],
            "b",
        );
        let position = Position::new(&b, play("E5"), None);
        assert_eq!(level(&position, Move::Play(at("F5")), Group::Capture), Some(2), "the last move's stone");
        assert_eq!(level(&position, Move::Play(at("G1")), Group::Capture), None, "G2-G3 has two liberties");
        assert_eq!(level(&position, Move::Play(at("A1")), Group::Capture), None);
        // After another last move, the size level: one stone.
        let quiet = Position::new(&b, play("A9"), None);
        assert_eq!(level(&quiet, Move::Play(at("F5")), Group::Capture), Some(3));
        // With G4 black, G2-G3 is in atari at G1: a two-stone capture.
        let mut two = b;
        two.set(at("G4"), Some(Color::BLACK));
        let position = Position::new(&two, play("A9"), None);
        assert_eq!(level(&position, Move::Play(at("G1")), Group::Capture), Some(4));
        assert_eq!(level(&position, Move::Play(at("G1")), Group::Atari), None);
    }

    #[test]
    fn capturing_the_stone_that_ataris_an_own_chain() {
        // White's last move D5 put black D4 in atari (liberty D3) and is in atari itself
        // (liberty D6, between black C5 and E5). Black to move.
        let b = board(
            &[
                ".........",
                ".........",
                ".........",
                ".........",
                "..XOX....",
                "..OXO....",
                ".........",
                ".........",
                ".........",
            ],
            "b",
        );
        let position = Position::new(&b, play("D5"), None);
        assert_eq!(level(&position, Move::Play(at("D6")), Group::Capture), Some(0));
        // Extending D4 to D3 gives it three liberties: a new atari, no ladder.
        assert_eq!(level(&position, Move::Play(at("D3")), Group::Extension), Some(0));
        // White C4 and E4 have two liberties each: C3, B4, E3, F4 are ataris.
        for p in ["C3", "B4", "E3", "F4"] {
            assert!(level(&position, Move::Play(at(p)), Group::Atari).is_some(), "{p}");
        }
        // Had the last move been elsewhere, D6 still saves an own chain.
        let position = Position::new(&b, play("J9"), None);
        assert_eq!(level(&position, Move::Play(at("D6")), Group::Capture), Some(1));
        assert_eq!(level(&position, Move::Play(at("D3")), Group::Extension), Some(2));
    }

    #[test]
    fn extension_and_ladder() {
        // Black's last move C2 put white C3 in atari (black B3, C4, C2, D2 around it):
        // extending on D3 leaves two liberties, and the ladder of the tactics tests
        // catches it.
        let rows = [
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "..X......",
            ".XO......",
            "..XX.....",
            ".........",
        ];
        let b = board(&rows, "w");
        let position = Position::new(&b, play("C2"), None);
        assert_eq!(level(&position, Move::Play(at("D3")), Group::Extension), Some(1), "new atari, ladder");
        // A white stone on the ladder's path: the extension escapes.
        let mut broken = b;
        broken.set(at("F6"), Some(Color::WHITE));
        broken.set_to_move(Color::WHITE);
        let position = Position::new(&broken, play("C2"), None);
        assert_eq!(level(&position, Move::Play(at("D3")), Group::Extension), Some(0), "new atari, escapes");
        // The same atari not made by the last move: an old atari.
        let position = Position::new(&broken, play("J9"), None);
        assert_eq!(level(&position, Move::Play(at("D3")), Group::Extension), Some(2));
        assert_eq!(level(&position, Move::Play(at("E5")), Group::Extension), None);
    }

    #[test]
    fn atari_with_a_working_ladder() {
        // The ladder of the tactics tests: black C2 against white C3 works; D3 is a
        // plain atari.
        let rows = [
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "..X......",
            ".XO......",
            "...X.....",
            ".........",
        ];
        let b = board(&rows, "b");
        let position = Position::new(&b, play("C3"), None);
        let works = tactics::ladder_attack(&b, at("C3")).expect("the ladder works");
        let other = if works == at("C2") { at("D3") } else { at("C2") };
        assert_eq!(level(&position, Move::Play(works), Group::Atari), Some(0));
        assert_eq!(level(&position, Move::Play(other), Group::Atari), Some(2));
        assert_eq!(level(&position, Move::Play(at("E5")), Group::Atari), None);
    }

    #[test]
    fn bad_and_good_self_ataris() {
        // The snapback of the tactics tests: black C1 is a good self-atari.
        let snap = board(
            &[
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
                "XXXXXX...",
                "XOOOX....",
                "XO..OX...",
            ],
            "b",
        );
        let position = Position::new(&snap, None, None);
        assert_eq!(level(&position, Move::Play(at("C1")), Group::SelfAtari), Some(1));
        assert_eq!(level(&position, Move::Play(at("G5")), Group::SelfAtari), None);
        // Black B1 makes a pair in atari that white takes: bad.
        let bad = board(
            &[
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
                "...O.O...",
                "OO..O....",
                "X..O.....",
            ],
            "b",
        );
        let position = Position::new(&bad, None, None);
        assert_eq!(level(&position, Move::Play(at("B1")), Group::SelfAtari), Some(0));
        assert_eq!(level(&position, Move::Play(at("C1")), Group::SelfAtari), None, "C1 has two empty neighbours");
    }

    #[test]
    fn edge_distance_and_pass_features() {
        let b = Board::new(9);
        let position = Position::new(&b, play("E5"), play("C3"));
        let f = position.features(Move::Play(at("E7")));
        assert!(f.contains(&Group::Edge.feature(2)), "E7 is on the third line");
        // d(0, 2) = 0 + 2 + 2 = 4: level 2; to C3: dx 2, dy 4: 2 + 4 + 4 = 10: level 8.
        assert!(f.contains(&Group::DistanceLast.feature(2)));
        assert!(f.contains(&Group::DistanceBefore.feature(8)));
        assert_eq!(distance(at("A1"), at("J9")), 24);
        assert_eq!(distance_level(at("A1"), at("J9")), DISTANCE_LEVELS - 1);
        assert_eq!(distance_level(at("E5"), at("E6")), 0);
        assert_eq!(level(&position, Move::Play(at("A1")), Group::Edge), Some(0));
        assert_eq!(level(&position, Move::Play(at("D5")), Group::Edge), Some(3));
        // A pass: only its own feature; after a pass the other level.
        assert_eq!(position.features(Move::Pass).as_slice(), &[Group::Pass.feature(1)]);
        let after_pass = Position::new(&b, Some(Move::Pass), None);
        assert_eq!(after_pass.features(Move::Pass).as_slice(), &[Group::Pass.feature(0)]);
        assert!(
            after_pass
                .features(Move::Play(at("E5")))
                .iter()
                .all(|&id| Group::of(id).is_some_and(|(g, _)| g != Group::DistanceLast))
        );
        // An occupied point has no features; the candidates are the 81 points and a pass.
        let mut one = b;
        one.set(at("E5"), Some(Color::BLACK));
        assert!(Position::new(&one, None, None).features(Move::Play(at("E5"))).is_empty());
        assert_eq!(Position::new(&b, None, None).candidates().len(), 82);
    }

    #[test]
    fn a_playout_board_reads_like_the_bitboard() {
        let b = board(
            &[
                ".........",
                "..X......",
                ".XOX.....",
                ".........",
                "...OX....",
                "...XO....",
                ".....XOX.",
                "......X..",
                ".........",
            ],
            "w",
        );
        let last = play("G2");
        let slow = Position::new(&b, last, play("D4"));
        let fast = Position::from_fast(&FastBoard::from_board(&b), last, play("D4"));
        assert_eq!(slow.candidates(), fast.candidates());
        for mv in slow.candidates() {
            assert_eq!(slow.features(mv), fast.features(mv), "{mv:?}");
        }
    }
}
