//! Tactical reading on the bitboard [`Board`]: ladders, local attack/defence of chains
//! with few liberties (capturing races), self-atari with its good exceptions (throw-ins,
//! nakade, snapback) and the vital points of the dead eye shapes.
//!
//! Every read copies the 128-bit board once per node and plays moves with
//! [`Board::try_play`], so suicide and simple ko are exactly the rules' own. Reads are
//! bounded by a node budget; when a budget runs out the read gives up in the defender's
//! favour ("not capturable"), so a capture it reports is always one it read out.
//!
//! * **Ladders** ([`ladder_escapes`], [`ladder_attack`]): the chased chain may extend on
//!   its liberty or capture any attacking chain in atari next to it (the ladder breakers
//!   and the chaser's own weak stones); the chaser ataris on either liberty. A chain that
//!   reaches three liberties has escaped.
//! * **Attack and defence** ([`attack`], [`defend`]), in the style of GNU Go's
//!   `attack`/`defend`: depth-limited alternating search over the chain's liberties,
//!   its second liberties (nets) when it has two, the liberties of adjacent enemy chains
//!   with few liberties (capturing races, counter-ataris), and captures of adjacent
//!   chains in atari. A chain with [`SAFE_LIBERTIES`] liberties is safe.
//! * **Self-atari** ([`is_self_atari`], [`is_bad_self_atari`], [`is_snapback`]).
//! * **Nakade** ([`eye_space`], [`nakade_point`], [`vital_point`]): straight and bent
//!   three, pyramid four, bulky and crossed five, rabbity six.

use bitboards::go::{Board, Color, Point, bits, neighbours};

use super::params::{
    ATTACK_LADDER_NODES, LADDER_NODES, READING_DEPTH, READING_NODES, SAFE_LIBERTIES, THREE_LIBERTY_DEPTH,
};

/// Nodes left to a read.
struct Budget(u32);

impl Budget {
    /// Takes one node; false when none is left.
    fn spend(&mut self) -> bool {
        if self.0 == 0 {
            false
        } else {
            self.0 -= 1;
            true
        }
    }
}

/// The colour of the stone on `p` and its chain with that chain's liberties.
fn chain(board: &Board, p: Point) -> Option<(Color, u128, u128)> {
    let color = board.at(p)?;
    let stones = board.group(p);
    Some((color, stones, board.liberties(stones)))
}

/// The liberties of `color`'s chains next to `stones` that have at most `most` liberties.
fn liberties_of_neighbours(board: &Board, stones: u128, color: Color, most: u32) -> u128 {
    let mut result = 0;
    let mut adjacent = neighbours(stones, board.mask()) & board.stones(color);
    while adjacent != 0 {
        let seed = adjacent & adjacent.wrapping_neg();
        let group = bitboards::go::flood(seed, board.stones(color), board.mask());
        adjacent &= !group;
        let liberties = board.liberties(group);
        if liberties.count_ones() <= most {
            result |= liberties;
        }
    }
    result
}

/// The board with `color` to move (a read may start with either side).
fn with_mover(board: &Board, color: Color) -> Board {
    let mut next = *board;
    next.set_to_move(color);
    next
}

// ---------------------------------------------------------------------------------------
// Ladders
// ---------------------------------------------------------------------------------------

/// Whether the chain on `p`, in atari, escapes a ladder with its owner to move: by
/// extending, or by capturing a chasing chain in atari, it reaches three liberties (or two
/// liberties that no atari can chase down). False if `p` is empty or not in atari.
pub fn ladder_escapes(board: &Board, p: Point) -> bool {
    let Some((color, _, liberties)) = chain(board, p) else { return false };
    if liberties.count_ones() != 1 {
        return liberties.count_ones() > 1;
    }
    ladder_escape(&with_mover(board, color), p, color, &mut Budget(LADDER_NODES))
}

/// The atari that captures the chain on `p` (two liberties) in a ladder, the chain's
/// opponent to move; `None` if neither atari works or `p` has not two liberties.
pub fn ladder_attack(board: &Board, p: Point) -> Option<Point> {
    let (color, _, liberties) = chain(board, p)?;
    if liberties.count_ones() != 2 {
        return None;
    }
    ladder_chase(&with_mover(board, color.other()), p, color, &mut Budget(LADDER_NODES))
}

/// Whether the chain on `p`, just put in atari with its owner to move, is caught in a
/// working ladder (it cannot escape).
pub fn is_ladder_captured(board: &Board, p: Point) -> bool {
    matches!(chain(board, p), Some((_, _, liberties)) if liberties.count_ones() == 1) && !ladder_escapes(board, p)
}

/// The chased side's tries when in atari: captures of adjacent chains in atari, then the
/// extension.
fn escape_moves(board: &Board, stones: u128, color: Color, liberties: u128) -> u128 {
    liberties_of_neighbours(board, stones, color.other(), 1) | liberties
}

/// Owner of the chain on `p` (in atari) to move: true if it escapes.
fn ladder_escape(board: &Board, p: Point, color: Color, budget: &mut Budget) -> bool {
    if !budget.spend() {
        return true;
    }
    let stones = board.group(p);
    let liberties = board.liberties(stones);
    for m in bits(escape_moves(board, stones, color, liberties)) {
        let Ok((next, _)) = board.try_play(color, m) else { continue };
        let count = next.liberties(next.group(p)).count_ones();
        if count >= 3 || (count == 2 && ladder_chase(&next, p, color, budget).is_none()) {
            return true;
        }
    }
    false
}

/// Chaser to move against the chain on `p` (owned by `color`, two liberties): an atari
/// after which the chain cannot escape.
fn ladder_chase(board: &Board, p: Point, color: Color, budget: &mut Budget) -> Option<Point> {
    if !budget.spend() {
        return None;
    }
    let liberties = board.liberties(board.group(p));
    // Try first the atari that leaves the escape point with the fewest liberties.
    let mut tries: Vec<(u32, Point, Board)> = Vec::with_capacity(2);
    for m in bits(liberties) {
        let Ok((next, _)) = board.try_play(color.other(), m) else { continue };
        if next.at(p) != Some(color) {
            return Some(m);
        }
        let left = next.liberties(next.group(p));
        if left.count_ones() != 1 {
            continue;
        }
        let room = neighbours(left, next.mask()) & next.empty();
        tries.push((room.count_ones(), m, next));
    }
    tries.sort_by_key(|t| t.0);
    tries.into_iter().find(|(_, _, next)| !ladder_escape(next, p, color, budget)).map(|(_, m, _)| m)
}

// ---------------------------------------------------------------------------------------
// Attack and defence
// ---------------------------------------------------------------------------------------

/// A move of the opponent of the chain on `p` that captures it against any defence
/// (the opponent to move), read to [`READING_DEPTH`] plies within [`READING_NODES`]
/// nodes; `None` if no capture was read out (or `p` is empty).
pub fn attack(board: &Board, p: Point) -> Option<Point> {
    let color = board.at(p)?;
    let board = with_mover(board, color.other());
    Reader { budget: Budget(READING_NODES) }.attack(&board, p, color, READING_DEPTH)
}

/// A move of the owner of the chain on `p` (its owner to move) after which [`attack`]
/// finds no capture; `None` if no move saves it (or `p` is empty), or if only playing
/// elsewhere does (a seki, or a chain not in danger: see [`is_capturable`]). Only moves
/// that touch the fight are tried (liberties, captures, counter-ataris, making room).
pub fn defend(board: &Board, p: Point) -> Option<Point> {
    let color = board.at(p)?;
    let board = with_mover(board, color);
    Reader { budget: Budget(READING_NODES) }.defend(&board, p, color, READING_DEPTH).flatten()
}

/// Whether the chain on `p` can be captured with its opponent to move.
pub fn is_capturable(board: &Board, p: Point) -> bool {
    attack(board, p).is_some()
}

/// One attack/defence read with its node budget.
struct Reader {
    budget: Budget,
}

impl Reader {
    /// Attacker to move against `color`'s chain on `p`: a capturing move.
    fn attack(&mut self, board: &Board, p: Point, color: Color, depth: u32) -> Option<Point> {
        let attacker = color.other();
        let stones = board.group(p);
        let liberties = board.liberties(stones);
        let count = liberties.count_ones();
        if count == 1 {
            let m = Point(liberties.trailing_zeros() as u8);
            return board.try_play(attacker, m).is_ok().then_some(m);
        }
        if count >= SAFE_LIBERTIES || (count == 3 && depth < THREE_LIBERTY_DEPTH) || depth == 0 {
            return None;
        }
        if !self.budget.spend() {
            return None;
        }
        if count == 2
            && let Some(m) = ladder_chase(board, p, color, &mut Budget(ATTACK_LADDER_NODES))
        {
            return Some(m);
        }
        let mut candidates = liberties;
        if count == 2 {
            // Nets and approach moves: the liberties' own empty neighbours.
            candidates |= neighbours(liberties, board.mask()) & board.empty();
        }
        // Saving the attacker's own chains next to the target that are in atari.
        candidates |= liberties_of_neighbours(board, stones, attacker, 1);
        let mut tries: Vec<(u32, Point, Board)> = Vec::new();
        for m in bits(candidates) {
            let Ok((next, _)) = board.try_play(attacker, m) else { continue };
            if next.at(p) != Some(color) {
                return Some(m);
            }
            let left = next.liberties(next.group(p)).count_ones();
            let own = next.liberties(next.group(m)).count_ones();
            tries.push((left * 8 + 4u32.saturating_sub(own), m, next));
        }
        tries.sort_by_key(|t| t.0);
        for (_, m, next) in tries {
            if self.defend(&next, p, color, depth - 1).is_none() {
                return Some(m);
            }
            if self.budget.0 == 0 {
                return None;
            }
        }
        None
    }

    /// Defender to move with `color`'s chain on `p`: a move after which the attack fails
    /// (`Some(None)`: playing elsewhere does), or `None` if nothing saves it.
    fn defend(&mut self, board: &Board, p: Point, color: Color, depth: u32) -> Option<Option<Point>> {
        let stones = board.group(p);
        let liberties = board.liberties(stones);
        let count = liberties.count_ones();
        // The moves that touch the fight: own liberties, captures and ataris of the
        // adjacent enemy chains, and races against enemy chains short of liberties.
        let mut candidates = liberties | liberties_of_neighbours(board, stones, color.other(), count.max(2) + 1);
        if count >= 2 {
            // Making room: the liberties' empty neighbours.
            candidates |= neighbours(liberties, board.mask()) & board.empty();
        }
        let mut tries: Vec<(u32, Point, Board)> = Vec::new();
        for m in bits(candidates) {
            let Ok((next, captured)) = board.try_play(color, m) else { continue };
            let now = next.liberties(next.group(p)).count_ones();
            if now <= 1 && captured == 0 {
                continue; // self-atari of the chain: the attacker just takes it
            }
            let key = if captured != 0 { 0 } else { 16u32.saturating_sub(now) };
            tries.push((key, m, next));
        }
        tries.sort_by_key(|t| t.0);
        if depth == 0 || self.budget.0 == 0 {
            return Some(tries.first().map(|t| t.1));
        }
        for (_, m, next) in tries {
            if self.attack(&next, p, color, depth - 1).is_none() {
                return Some(Some(m));
            }
        }
        // Playing elsewhere: in a seki, whoever moves first in the fight loses.
        if self.attack(&board.pass(color), p, color, depth - 1).is_none() {
            return Some(None);
        }
        None
    }
}

// ---------------------------------------------------------------------------------------
// Self-atari and snapback
// ---------------------------------------------------------------------------------------

/// Whether `color` playing `p` is legal and leaves its own chain with exactly one liberty.
pub fn is_self_atari(board: &Board, color: Color, p: Point) -> bool {
    match with_mover(board, color).try_play(color, p) {
        Ok((next, _)) => next.liberties(next.group(p)).count_ones() == 1,
        Err(_) => false,
    }
}

/// Whether `color` playing `p` sets up a snapback: the move is a self-atari, and if the
/// opponent captures it, `color` at once recaptures more stones than it lost.
pub fn is_snapback(board: &Board, color: Color, p: Point) -> bool {
    let Ok((next, _)) = with_mover(board, color).try_play(color, p) else { return false };
    let own = next.group(p);
    let liberties = next.liberties(own);
    if liberties.count_ones() != 1 {
        return false;
    }
    let q = Point(liberties.trailing_zeros() as u8);
    let Ok((after, taken)) = next.try_play(color.other(), q) else { return false };
    recapture(&after, color, q) > taken.count_ones()
}

/// Stones `color` takes at once by capturing the chain on `q` (0 if it cannot).
fn recapture(board: &Board, color: Color, q: Point) -> u32 {
    let stones = board.group(q);
    let liberties = board.liberties(stones);
    if liberties.count_ones() != 1 {
        return 0;
    }
    let r = Point(liberties.trailing_zeros() as u8);
    match board.try_play(color, r) {
        Ok((_, captured)) => captured.count_ones(),
        Err(_) => 0,
    }
}

/// Stones `color` would lose to a snapback after capturing with `q`: the opponent
/// recaptures at once more stones than `color`'s capture took (0 if there is none).
pub fn snapback_loss(board: &Board, color: Color, q: Point) -> u32 {
    let Ok((after, taken)) = with_mover(board, color).try_play(color, q) else { return 0 };
    if taken == 0 {
        return 0;
    }
    let lost = recapture(&after, color.other(), q);
    if lost > taken.count_ones() { lost } else { 0 }
}

/// Whether `color` playing `p` is a self-atari not worth playing. A self-atari is good
/// (not bad) when it captures, sets up a snapback, throws in a single stone into a point
/// surrounded by the opponent (destroying an eye) or leaves the capturer in atari, or
/// fills an opponent's eye space so that the capture leaves a nakade shape of three to
/// six points. Not a self-atari at all: false.
pub fn is_bad_self_atari(board: &Board, color: Color, p: Point) -> bool {
    let board = with_mover(board, color);
    let Ok((next, captured)) = board.try_play(color, p) else { return false };
    let own = next.group(p);
    let liberties = next.liberties(own);
    if liberties.count_ones() != 1 || captured != 0 {
        return false;
    }
    let q = Point(liberties.trailing_zeros() as u8);
    let Ok((after, taken)) = next.try_play(color.other(), q) else { return false };
    if recapture(&after, color, q) > taken.count_ones() {
        return false; // snapback
    }
    let mask = board.mask();
    if own.count_ones() == 1 {
        let around = neighbours(p.bit(), mask);
        if around & board.stones(color.other()) == around {
            return false; // throw-in into the opponent's eye
        }
        if after.liberties(after.group(q)).count_ones() == 1 {
            return false; // the capturer is left in atari
        }
    }
    // Nakade: the captured stones leave a dead eye space inside the opponent's wall.
    let wall = neighbours(taken, mask) & !taken;
    if wall & after.stones(color.other()) == wall && nakade_point(taken, mask).is_some() {
        return false;
    }
    true
}

// ---------------------------------------------------------------------------------------
// Nakade
// ---------------------------------------------------------------------------------------

/// The eye space of the empty point `p`: the empty points connected to it, if all the
/// stones around them are of one colour (returned with it). `None` if `p` is not empty
/// or the space touches both colours or no stone at all.
pub fn eye_space(board: &Board, p: Point) -> Option<(u128, Color)> {
    if board.at(p).is_some() {
        return None;
    }
    let mask = board.mask();
    let space = bitboards::go::flood(p.bit(), board.empty(), mask);
    let wall = neighbours(space, mask) & !space;
    [Color::BLACK, Color::WHITE].into_iter().find(|&c| wall != 0 && wall & board.stones(c) == wall).map(|c| (space, c))
}

/// The vital point of an eye space (a set of points on a board with points `mask`) whose
/// shape dies if the opponent takes that point first: straight or bent three, pyramid
/// four, bulky five, crossed five, rabbity six. `None` for any other shape (smaller
/// spaces are one eye; other shapes are alive, or dead whoever moves, like the square
/// four).
pub fn nakade_point(space: u128, mask: u128) -> Option<Point> {
    let size = space.count_ones();
    if !(3..=6).contains(&size) {
        return None;
    }
    // Degrees of the points inside the space, and the number of adjacencies.
    let mut best: Option<(u32, Point)> = None;
    let mut degree_sum = 0;
    let mut ties = 0;
    for q in bits(space) {
        let degree = (neighbours(q.bit(), mask) & space).count_ones();
        degree_sum += degree;
        match best {
            Some((d, _)) if d > degree => {}
            Some((d, _)) if d == degree => ties += 1,
            _ => {
                best = Some((degree, q));
                ties = 0;
            }
        }
    }
    let (degree, point) = best?;
    let edges = degree_sum / 2;
    if ties != 0 || edges + 1 < size {
        return None; // not connected, or no single vital point
    }
    let dead_shape = match (size, degree, edges) {
        (3, 2, 2) => true, // straight or bent three
        (4, 3, 3) => true, // pyramid four
        (5, 4, 4) => true, // crossed five
        (5, 3, 5) => true, // bulky five: a square and one point
        (6, 4, 6) => true, // rabbity six: a cross and the point between two arms
        _ => false,
    };
    dead_shape.then_some(point)
}

/// The vital point of the eye space around the empty point `p` (see [`eye_space`] and
/// [`nakade_point`]): where either side should play first, to kill or to live.
pub fn vital_point(board: &Board, p: Point) -> Option<Point> {
    let (space, _) = eye_space(board, p)?;
    nakade_point(space, board.mask())
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

    /// White C3 with black B3, C4 and D2: black C2 starts a ladder that runs to the
    /// upper right; a white stone on its path (F6) breaks it.
    #[test]
    fn ladder_works_and_breaks() {
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
        assert!(ladder_attack(&b, at("C3")).is_some());
        let mut after = b.try_play(Color::BLACK, at("C2")).expect("legal").0;
        assert!(is_ladder_captured(&after, at("C3")));
        after.set(at("F6"), Some(Color::WHITE));
        assert!(ladder_escapes(&after, at("C3")));
    }

    /// White C5 in atari; black D5 next to it has one liberty: capturing it escapes.
    #[test]
    fn ladder_escape_by_capturing_a_chaser() {
        let b = board(
            &[
                ".........",
                ".........",
                ".........",
                "..XO.....",
                ".XOX.....",
                "...O.....",
                ".........",
                ".........",
                ".........",
            ],
            "w",
        );
        assert_eq!(b.liberties(b.group(at("C5"))).count_ones(), 1);
        assert_eq!(b.liberties(b.group(at("D5"))).count_ones(), 1);
        assert!(ladder_escapes(&b, at("C5")));
    }

    #[test]
    fn self_atari_and_snapback() {
        // Black C1 is taken by white D1, and black retakes seven stones on C1.
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
        assert!(is_self_atari(&snap, Color::BLACK, at("C1")));
        assert!(is_snapback(&snap, Color::BLACK, at("C1")));
        assert!(!is_bad_self_atari(&snap, Color::BLACK, at("C1")));
        // White taking the throw-in on D1 loses more than it takes.
        let after = snap.try_play(Color::BLACK, at("C1")).expect("legal").0;
        assert_eq!(snapback_loss(&after, Color::WHITE, at("D1")), 6);
        // Black B1 makes a pair in atari that white takes on C1: a plain bad self-atari.
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
        assert!(is_bad_self_atari(&bad, Color::BLACK, at("B1")));
        assert!(!is_self_atari(&bad, Color::BLACK, at("G5")));
    }

    #[test]
    fn nakade_self_atari_is_good() {
        // Black C2 puts three black stones in atari inside white's four-point space; white
        // takes them on F2 and is left with a straight three, a nakade: a good self-atari.
        let b = board(
            &[
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
                "XXXXXXXX.",
                "XOOOOOOX.",
                "XO.XX.OX.",
                "XOOOOOOX.",
            ],
            "b",
        );
        assert!(is_self_atari(&b, Color::BLACK, at("C2")));
        assert!(!is_bad_self_atari(&b, Color::BLACK, at("C2")));
        // After the capture the vital point of the straight three is its middle.
        let filled = b.try_play(Color::BLACK, at("C2")).expect("legal").0;
        let taken = filled.try_play(Color::WHITE, at("F2")).expect("legal").0;
        assert_eq!(vital_point(&taken, at("C2")), Some(at("D2")));
    }

    #[test]
    fn nakade_shapes() {
        let mask = bitboards::go::board_mask(9);
        let set = |ps: &[(usize, usize)]| ps.iter().fold(0u128, |m, &(r, c)| m | Point::new(r, c).bit());
        assert_eq!(nakade_point(set(&[(0, 0), (0, 1), (0, 2)]), mask), Some(Point::new(0, 1)));
        assert_eq!(nakade_point(set(&[(0, 0), (0, 1), (1, 1)]), mask), Some(Point::new(0, 1)));
        assert_eq!(nakade_point(set(&[(0, 0), (0, 1), (0, 2), (1, 1)]), mask), Some(Point::new(0, 1)));
        assert_eq!(nakade_point(set(&[(0, 0), (0, 1), (1, 0), (1, 1)]), mask), None);
        assert_eq!(nakade_point(set(&[(0, 0), (0, 1), (0, 2), (0, 3)]), mask), None);
        assert_eq!(nakade_point(set(&[(1, 1), (0, 1), (1, 0), (1, 2), (2, 1)]), mask), Some(Point::new(1, 1)));
        assert_eq!(nakade_point(set(&[(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]), mask), Some(Point::new(1, 1)));
        assert_eq!(nakade_point(set(&[(0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 2)]), mask), Some(Point::new(1, 1)));
        // A cross with one long arm is not rabbity six.
        assert_eq!(nakade_point(set(&[(0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (3, 1)]), mask), None);
    }
}
