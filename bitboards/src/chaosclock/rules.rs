//! The rules of Chaos Clock on a state packed in one `u64`.

use std::fmt;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use thiserror::Error;

use crate::{Outcome, Player};

/// One of the two players: the shared [`Player`] type, named [`Player::YI`] (乙, owns
/// the even pieces, moves first) and [`Player::JIA`] (甲, owns the odd pieces) here.
pub type Side = Player;

impl Player {
    /// True if `piece` belongs to this side (odd to 甲, even to 乙).
    pub const fn owns_piece(self, piece: u8) -> bool {
        (piece % 2 == 1) == matches!(self, Player::Two)
    }
    /// The side owning `piece`.
    pub const fn of_piece(piece: u8) -> Side {
        if piece % 2 == 1 { Player::JIA } else { Player::YI }
    }
    /// `J` or `Y`.
    pub const fn side_letter(self) -> char {
        match self {
            Player::Two => 'J',
            Player::One => 'Y',
        }
    }
    /// 甲 or 乙.
    pub const fn side_name(self) -> &'static str {
        match self {
            Player::Two => "甲",
            Player::One => "乙",
        }
    }
}

/// A move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Walk piece `n` clockwise `n` points.
    Walk(u8),
    /// Place piece `n` from the hand on point `n`.
    Place(u8),
    /// Do nothing.
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Walk(n) => write!(f, "w{n}"),
            Move::Place(n) => write!(f, "p{n}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Not a piece number.
    #[error("there is no piece {0}: pieces are 1 to 12")]
    NoSuchPiece(u8),
    /// A walk of a piece that is not on the board.
    #[error("piece {0} is not on the board")]
    NotOnBoard(u8),
    /// A walk of a fixed piece.
    #[error("piece {0} stands on its own number and cannot move")]
    Fixed(u8),
    /// A walk of the piece the previous move walked.
    #[error("piece {0} was just walked by the other side")]
    JustWalked(u8),
    /// A walk landing on a fixed piece.
    #[error("piece {piece} would land on point {point}, where piece {point} is fixed")]
    LandsOnFixed {
        /// The walking piece.
        piece: u8,
        /// The landing point.
        point: u8,
    },
    /// A placement of a piece not in the mover's hand.
    #[error("piece {0} is not in {1}'s hand")]
    NotInHand(u8, &'static str),
}

/// A position text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The wrong number of points.
    #[error("expected 12 comma-separated points, got {0}")]
    Points(usize),
    /// A point that is not a piece number.
    #[error("point {point}: '{text}' is not a piece (0 for empty, 1 to 12, '*' marks a fixed piece)")]
    Piece {
        /// The point.
        point: usize,
        /// The text.
        text: String,
    },
    /// A piece on two points.
    #[error("piece {0} stands on two points")]
    Twice(u8),
    /// A piece marked fixed away from its own number.
    #[error("piece {piece} is marked fixed but stands on point {point}, not on {piece}")]
    FixedAway {
        /// The piece.
        piece: u8,
        /// Its point.
        point: usize,
    },
    /// The side to move is missing or wrong.
    #[error("bad side to move '{0}': Y (乙) or J (甲)")]
    Side(String),
    /// No side to move after the points.
    #[error("the side to move is missing after the points: Y (乙) or J (甲)")]
    NoSide,
    /// The walked piece is wrong.
    #[error("bad walked piece '{0}': 0 to 12, and on the board")]
    Walked(String),
    /// A flag that does not exist.
    #[error("bad flag '{0}': x (extra move), p (after a pass), cJ/cY (completed), won:J, won:Y, both-win, both-lose")]
    Flag(String),
    /// Flags, or a flag and the rest of the position, that cannot all be true.
    #[error("contradictory position: {0}")]
    Contradiction(&'static str),
}

// Bit layout of the state word.
const SIDE_BIT: u32 = 48;
const WALKED_SHIFT: u32 = 49;
const EXTRA_BIT: u32 = 53;
const PASSED_BIT: u32 = 54;
const PENDING_SHIFT: u32 = 55;
const OUTCOME_SHIFT: u32 = 57;
/// The twelve points' nibbles.
const BOARD: u64 = (1 << 48) - 1;
/// Every piece on its own point.
const HOME: u64 = 0xCBA9_8765_4321;
/// For a byte of the board (two points): bit n for each piece n on them (bit 0: empty).
const PIECES_OF_BYTE: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = (1 << (x & 0xF)) | (1 << (x >> 4));
        x += 1;
    }
    t
};
/// For a byte of `board ^ HOME`: bit 0 / 1 if its first / second point holds its own
/// piece.
const HOME_OF_BYTE: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = ((x & 0xF == 0) as u16) | ((x >> 4 == 0) as u16) << 1;
        x += 1;
    }
    t
};
/// The most legal moves a position has: six placements, twelve walks, the pass.
pub const MAX_MOVES: usize = 19;

/// A Chaos Clock position: the twelve points, the side to move, the piece the previous
/// move walked, the extra-move, pass and completion flags, and the outcome once over.
/// The hands are implied: a piece not on the board is in its owner's hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct State(u64);

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "State({self})")
    }
}

impl State {
    /// The position with `board[p - 1]` on point `p` (0 for none), 乙 to move.
    pub fn new(board: [u8; 12]) -> Result<State, ParseError> {
        let mut seen = 0u16;
        let mut s = 0u64;
        for (i, &piece) in board.iter().enumerate() {
            if piece > 12 {
                return Err(ParseError::Piece { point: i + 1, text: piece.to_string() });
            }
            if piece != 0 {
                if seen >> piece & 1 == 1 {
                    return Err(ParseError::Twice(piece));
                }
                seen |= 1 << piece;
            }
            s |= (piece as u64) << (4 * i);
        }
        Ok(State(s))
    }

    /// The packed word (a perfect hash of the position).
    pub fn key(&self) -> u64 {
        self.0
    }

    /// The same position with what can no longer affect the rest of the game cleared,
    /// so that positions with the same future are equal: the extra-move flag (no rule
    /// reads it), the piece walked last when the mover could not walk it anyway (fixed,
    /// walked off, or landing on a fixed piece), and the after-pass flag once a side has
    /// completed (a second pass then ends nothing). Its moves lead to the same states as
    /// this one's.
    pub fn canonical(&self) -> State {
        let mut key = self.0 & !(1 << EXTRA_BIT);
        let walked = self.just_walked();
        if walked != 0 && self.point_of(walked).is_none_or(|p| !self.could_walk(p, walked)) {
            key &= !(0xF << WALKED_SHIFT);
        }
        if self.completed().is_some() {
            key &= !(1 << PASSED_BIT);
        }
        State(key)
    }

    /// The loose pieces (on the board away from their numbers) and the fixed ones, as
    /// bit sets (bit n − 1 for piece n). Loose pieces only ever leave their set and
    /// fixed ones never do.
    #[inline]
    pub fn loose_and_fixed(&self) -> (u16, u16) {
        let away = (self.0 ^ HOME) & BOARD;
        let fixed = (0..6).fold(0, |set, k| set | HOME_OF_BYTE[(away >> (8 * k) & 0xFF) as usize] << (2 * k));
        ((self.pieces_on_board() >> 1) & !fixed, fixed)
    }

    /// The state whose [`State::key`] is `key` (for tables that store keys; a word
    /// that no state has as its key gives a meaningless state).
    pub fn from_key(key: u64) -> State {
        State(key)
    }

    /// The piece on point `p` (1..=12), 0 if none.
    #[inline]
    pub fn at(&self, p: u8) -> u8 {
        (self.0 >> (4 * (p as u32 - 1)) & 0xF) as u8
    }

    fn set(&mut self, p: u8, piece: u8) {
        let shift = 4 * (p as u32 - 1);
        self.0 = (self.0 & !(0xF << shift)) | ((piece as u64) << shift);
    }

    /// The point where `piece` stands, if on the board.
    pub fn point_of(&self, piece: u8) -> Option<u8> {
        (1..=12).find(|&p| self.at(p) == piece)
    }

    /// True if `piece` stands on its own number.
    pub fn is_fixed(&self, piece: u8) -> bool {
        self.at(piece) == piece
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        if self.0 >> SIDE_BIT & 1 == 1 { Side::JIA } else { Side::YI }
    }

    fn set_to_move(&mut self, side: Side) {
        self.0 = (self.0 & !(1 << SIDE_BIT)) | ((side == Side::JIA) as u64) << SIDE_BIT;
    }

    /// The piece the previous move walked (0 if it was not a walk).
    pub fn just_walked(&self) -> u8 {
        (self.0 >> WALKED_SHIFT & 0xF) as u8
    }

    /// True while the mover plays an extra move (after capturing by placement).
    pub fn is_extra_move(&self) -> bool {
        self.0 >> EXTRA_BIT & 1 == 1
    }

    /// True if the previous move was a pass.
    pub fn after_pass(&self) -> bool {
        self.0 >> PASSED_BIT & 1 == 1
    }

    /// The side that completed all six pieces first, while the other has its last move.
    pub fn completed(&self) -> Option<Side> {
        match self.0 >> PENDING_SHIFT & 3 {
            1 => Some(Side::JIA),
            2 => Some(Side::YI),
            _ => None,
        }
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.0 >> OUTCOME_SHIFT & 7 {
            1 => Some(Outcome::Win(Side::JIA)),
            2 => Some(Outcome::Win(Side::YI)),
            3 => Some(Outcome::BothWin),
            4 => Some(Outcome::BothLose),
            _ => None,
        }
    }

    /// Ends the game with `outcome` (a repetition is decided by the game record, which
    /// calls this).
    pub fn with_outcome(mut self, outcome: Outcome) -> State {
        let code = match outcome {
            Outcome::Win(Side::JIA) => 1,
            Outcome::Win(Side::YI) => 2,
            Outcome::BothWin => 3,
            // Chaos Clock has no draw; a game that cannot finish is both-lose.
            Outcome::BothLose | Outcome::Draw => 4,
        };
        self.0 = (self.0 & !(7 << OUTCOME_SHIFT)) | (code << OUTCOME_SHIFT);
        self
    }

    /// True if `side` has all six pieces on their own numbers.
    pub fn is_complete(&self, side: Side) -> bool {
        // A nibble of `board ^ HOME` is zero where the point holds its own piece; 甲's
        // points are the odd ones (even nibbles), 乙's the even ones.
        let away = (self.0 ^ HOME) & BOARD;
        let points = if side == Side::JIA { 0x0F0F_0F0F_0F0F } else { 0xF0F0_F0F0_F0F0 };
        away & points == 0
    }

    /// The pieces in `side`'s hand, as a bit set (bit n for piece n).
    pub fn hand(&self, side: Side) -> u16 {
        let owned: u16 = if side == Side::JIA { 0b0_1010_1010_1010 } else { 0b1_0101_0101_0100 };
        owned & !self.pieces_on_board()
    }

    /// Bit n for each piece n on the board (bit 0 if a point is empty).
    #[inline]
    fn pieces_on_board(&self) -> u16 {
        (0..6).fold(0, |set, k| set | PIECES_OF_BYTE[(self.0 >> (8 * k) & 0xFF) as usize])
    }

    /// The legal moves: placements, walks, then the pass. Empty once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let mut moves = Vec::with_capacity(16);
        let hand = self.hand(self.to_move());
        for n in 1..=12u8 {
            if hand >> n & 1 == 1 {
                moves.push(Move::Place(n));
            }
        }
        for p in 1..=12u8 {
            let n = self.at(p);
            if n != 0 && self.walk_target(p, n).is_ok() {
                moves.push(Move::Walk(n));
            }
        }
        moves.push(Move::Pass);
        moves
    }

    /// True if piece `n` standing on `p` could walk, were it not the piece just walked:
    /// it is not fixed and does not land on a fixed piece.
    #[inline]
    fn could_walk(&self, p: u8, n: u8) -> bool {
        n != p
            && (n == 12 || {
                let q = (p - 1 + n) % 12 + 1;
                self.at(q) != q
            })
    }

    /// Where piece `n` standing on `p` lands (`None`: it leaves the board, piece 12).
    fn walk_target(&self, p: u8, n: u8) -> Result<Option<u8>, MoveError> {
        if n == p {
            return Err(MoveError::Fixed(n));
        }
        if n == self.just_walked() {
            return Err(MoveError::JustWalked(n));
        }
        if n == 12 {
            return Ok(None);
        }
        let q = (p - 1 + n) % 12 + 1;
        if self.at(q) == q {
            return Err(MoveError::LandsOnFixed { piece: n, point: q });
        }
        Ok(Some(q))
    }

    /// The position after `mv`, or why it is illegal.
    pub fn play(&self, mv: Move) -> Result<State, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let me = self.to_move();
        let mut next = self.carried();
        let mut captured_enemy = false;
        match mv {
            Move::Pass => next.0 |= 1 << PASSED_BIT,
            Move::Walk(n) => {
                if !(1..=12).contains(&n) {
                    return Err(MoveError::NoSuchPiece(n));
                }
                let p = self.point_of(n).ok_or(MoveError::NotOnBoard(n))?;
                let target = self.walk_target(p, n)?;
                next.set(p, 0);
                if let Some(q) = target {
                    next.set(q, n);
                }
                next.0 |= (n as u64) << WALKED_SHIFT;
            }
            Move::Place(n) => {
                if !(1..=12).contains(&n) {
                    return Err(MoveError::NoSuchPiece(n));
                }
                if self.hand(me) >> n & 1 == 0 {
                    return Err(MoveError::NotInHand(n, me.side_name()));
                }
                let taken = self.at(n);
                captured_enemy = taken != 0 && !me.owns_piece(taken);
                next.set(n, n);
            }
        }
        Ok(self.finish(next, mv, captured_enemy))
    }

    /// What a move keeps of the state before it: the board, the side to move and the
    /// completion flag.
    fn carried(&self) -> State {
        State(self.0 & (BOARD | (1 << SIDE_BIT) | (3 << PENDING_SHIFT)))
    }

    /// Completes the move `mv` of the side to move, whose board change `next` holds:
    /// the end of the game, the completion flag, the extra move or the turn.
    #[inline]
    fn finish(&self, mut next: State, mv: Move, captured_enemy: bool) -> State {
        let me = self.to_move();
        let mut outcome = None;
        let mut pending = self.completed();
        if let Some(first) = pending
            && first != me
        {
            // This was the other side's one last move.
            outcome = Some(if next.is_complete(me) { Outcome::BothWin } else { Outcome::Win(first) });
        } else if mv == Move::Pass && self.after_pass() && pending.is_none() {
            outcome = Some(Outcome::BothLose);
        } else {
            if captured_enemy && next.is_complete(me) {
                outcome = Some(Outcome::Win(me));
            }
            for side in [me, me.other()] {
                if pending.is_none() && next.is_complete(side) {
                    pending = Some(side);
                }
            }
        }
        next.0 = next.0 & !(3 << PENDING_SHIFT)
            | match pending {
                Some(Side::JIA) => 1,
                Some(Side::YI) => 2,
                None => 0,
            } << PENDING_SHIFT;
        if let Some(o) = outcome {
            return next.with_outcome(o);
        }
        if captured_enemy {
            next.0 |= 1 << EXTRA_BIT;
        } else {
            next.set_to_move(me.other());
        }
        next
    }

    /// Every legal move with the state it leads to, in the order of
    /// [`State::legal_moves`], without allocating: the first `n` entries of the array.
    pub fn successors(&self) -> ([(Move, State); MAX_MOVES], usize) {
        self.successors_as::<false>()
    }

    /// [`State::successors`] with every state made [`State::canonical`].
    pub fn canonical_successors(&self) -> ([(Move, State); MAX_MOVES], usize) {
        self.successors_as::<true>()
    }

    #[inline(always)]
    fn successors_as<const CANONICAL: bool>(&self) -> ([(Move, State); MAX_MOVES], usize) {
        let mut out = [(Move::Pass, *self); MAX_MOVES];
        let mut n = 0;
        if self.outcome().is_some() {
            return (out, 0);
        }
        let me = self.to_move();
        let base = self.carried();
        let mut hand = self.hand(me);
        while hand != 0 {
            let piece = hand.trailing_zeros() as u8;
            hand &= hand - 1;
            let taken = self.at(piece);
            let mut next = base;
            next.set(piece, piece);
            let mut child = self.finish(next, Move::Place(piece), taken != 0 && !me.owns_piece(taken));
            if CANONICAL {
                child.0 &= !(1 << EXTRA_BIT);
            }
            out[n] = (Move::Place(piece), child);
            n += 1;
        }
        // One bit (the lowest of its nibble) for each point holding a piece, in order.
        let board = self.0 & BOARD;
        let mut occupied = (board | board >> 1 | board >> 2 | board >> 3) & 0x1111_1111_1111;
        while occupied != 0 {
            let p = (occupied.trailing_zeros() / 4 + 1) as u8;
            occupied &= occupied - 1;
            let piece = self.at(p);
            let Ok(target) = self.walk_target(p, piece) else { continue };
            let mut next = base;
            next.set(p, 0);
            if let Some(q) = target {
                next.set(q, piece);
            }
            // Fixed on arrival, off the board, or blocked by a fixed piece: the mark
            // cannot matter to the next move.
            if !CANONICAL || target.is_some_and(|q| next.could_walk(q, piece)) {
                next.0 |= (piece as u64) << WALKED_SHIFT;
            }
            out[n] = (Move::Walk(piece), self.finish(next, Move::Walk(piece), false));
            n += 1;
        }
        let mut next = base;
        next.0 |= 1 << PASSED_BIT;
        let child = self.finish(next, Move::Pass, false);
        out[n] = (Move::Pass, if CANONICAL { child.canonical() } else { child });
        (out, n + 1)
    }

    /// Reads the text form (see the module documentation).
    pub fn parse(text: &str) -> Result<State, ParseError> {
        let mut words = text.split_whitespace();
        let board_text = words.next().unwrap_or("");
        let fields: Vec<&str> = board_text.split(',').collect();
        if fields.len() != 12 {
            return Err(ParseError::Points(if board_text.is_empty() { 0 } else { fields.len() }));
        }
        let mut board = [0u8; 12];
        for (i, f) in fields.iter().enumerate() {
            let (num, fixed) = match f.trim().strip_suffix('*') {
                Some(n) => (n, true),
                None => (f.trim(), false),
            };
            let piece: u8 = num
                .parse()
                .ok()
                .filter(|&n| n <= 12)
                .ok_or_else(|| ParseError::Piece { point: i + 1, text: f.to_string() })?;
            if fixed && piece as usize != i + 1 {
                return Err(ParseError::FixedAway { piece, point: i + 1 });
            }
            board[i] = piece;
        }
        let mut s = State::new(board)?;
        match words.next() {
            Some("Y" | "y" | "乙") => s.set_to_move(Side::YI),
            Some("J" | "j" | "甲") => s.set_to_move(Side::JIA),
            None => return Err(ParseError::NoSide),
            Some(other) => return Err(ParseError::Side(other.to_string())),
        }
        if let Some(w) = words.next() {
            let n: u8 = w.parse().ok().filter(|&n| n <= 12).ok_or_else(|| ParseError::Walked(w.to_string()))?;
            if n != 0 && (s.point_of(n).is_none() && n != 12) {
                return Err(ParseError::Walked(w.to_string()));
            }
            s.0 |= (n as u64) << WALKED_SHIFT;
        }
        let mut seen: Vec<&str> = Vec::new();
        let mut outcome = None;
        for flag in words {
            if seen.contains(&flag) {
                return Err(ParseError::Contradiction("a flag given twice"));
            }
            seen.push(flag);
            match flag {
                "x" => s.0 |= 1 << EXTRA_BIT,
                "p" => s.0 |= 1 << PASSED_BIT,
                "cJ" | "cY" if s.completed().is_some() => {
                    return Err(ParseError::Contradiction("cJ and cY: only one side completes first"));
                }
                "cJ" => s.0 |= 1 << PENDING_SHIFT,
                "cY" => s.0 |= 2 << PENDING_SHIFT,
                other => match RESULT_FLAGS.iter().find(|(_, f)| *f == other) {
                    Some(_) if outcome.is_some() => return Err(ParseError::Contradiction("two results")),
                    Some(&(o, _)) => outcome = Some(o),
                    None => return Err(ParseError::Flag(other.chars().take(20).collect())),
                },
            }
        }
        s.check_flags(outcome)
    }

    /// The flags read by [`State::parse`] checked against each other and the board;
    /// the completion flag a complete side must carry is added, and a position where
    /// both sides have completed with neither flag is over, both winning (whichever
    /// completed first, the other completed with its last move).
    fn check_flags(mut self, outcome: Option<Outcome>) -> Result<State, ParseError> {
        let contradiction = |why| Err(ParseError::Contradiction(why));
        if self.is_extra_move() && self.after_pass() {
            return contradiction("x and p: the previous move was a capture or a pass, not both");
        }
        if self.just_walked() != 0 && (self.is_extra_move() || self.after_pass()) {
            return contradiction("a walked piece with x or p: the previous move was a walk");
        }
        let complete = [Side::YI, Side::JIA].map(|side| self.is_complete(side));
        if let Some(first) = self.completed()
            && !self.is_complete(first)
        {
            return contradiction("a completion flag for a side whose pieces are not all home");
        }
        match outcome {
            Some(Outcome::Win(side)) if !self.is_complete(side) => {
                return contradiction("a winner whose pieces are not all home");
            }
            Some(Outcome::BothWin) if complete != [true, true] => {
                return contradiction("both win, but not all pieces are home");
            }
            _ => {}
        }
        if self.completed().is_none() {
            match complete {
                [true, true] if outcome.is_none() => return Ok(self.with_outcome(Outcome::BothWin)),
                [true, false] => self.0 |= 2 << PENDING_SHIFT,
                [false, true] => self.0 |= 1 << PENDING_SHIFT,
                _ => {}
            }
        }
        Ok(match outcome {
            Some(o) => self.with_outcome(o),
            None => self,
        })
    }

    /// A drawing of the clock face with the hands and the state of play.
    pub fn draw(&self) -> String {
        let cell = |p: u8| {
            let n = self.at(p);
            match n {
                0 => "  .".to_string(),
                _ if n == p => format!("{n:>2}*"),
                _ => format!("{n:>3}"),
            }
        };
        let hand = |side: Side| {
            let h = self.hand(side);
            let list: Vec<String> = (1..=12u8).filter(|n| h >> n & 1 == 1).map(|n| n.to_string()).collect();
            if list.is_empty() { "-".to_string() } else { list.join(" ") }
        };
        let mut out = String::new();
        out.push_str(&format!("          12:{}\n", cell(12)));
        out.push_str(&format!("   11:{}          1:{}\n", cell(11), cell(1)));
        out.push_str(&format!(" 10:{}              2:{}\n", cell(10), cell(2)));
        out.push_str(&format!("  9:{}              3:{}\n", cell(9), cell(3)));
        out.push_str(&format!(" 8:{}              4:{}\n", cell(8), cell(4)));
        out.push_str(&format!("    7:{}          5:{}\n", cell(7), cell(5)));
        out.push_str(&format!("           6:{}\n", cell(6)));
        out.push_str(&format!("甲 (odd) hand: {}    乙 (even) hand: {}\n", hand(Side::JIA), hand(Side::YI)));
        match self.outcome() {
            Some(Outcome::Win(s)) => out.push_str(&format!("game over: {} wins\n", s.side_name())),
            Some(Outcome::BothWin) => out.push_str("game over: both win\n"),
            Some(Outcome::BothLose | Outcome::Draw) => out.push_str("game over: both lose\n"),
            None => {
                out.push_str(&format!("{} to move", self.to_move().side_name()));
                if self.is_extra_move() {
                    out.push_str(" (extra move)");
                }
                if self.just_walked() != 0 {
                    out.push_str(&format!("; piece {} was just walked", self.just_walked()));
                }
                if let Some(s) = self.completed() {
                    out.push_str(&format!("; {} has completed, this is the last move", s.side_name()));
                }
                out.push('\n');
            }
        }
        out
    }
}

/// The result flags of the position text, the one table [`State::parse`] reads and
/// [`State`]'s `Display` writes.
const RESULT_FLAGS: [(Outcome, &str); 4] = [
    (Outcome::Win(Player::JIA), "won:J"),
    (Outcome::Win(Player::YI), "won:Y"),
    (Outcome::BothWin, "both-win"),
    (Outcome::BothLose, "both-lose"),
];

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let points: Vec<String> = (1..=12u8).map(|p| self.at(p).to_string()).collect();
        write!(f, "{} {} {}", points.join(","), self.to_move().side_letter(), self.just_walked())?;
        if self.is_extra_move() {
            f.write_str(" x")?;
        }
        if self.after_pass() {
            f.write_str(" p")?;
        }
        if let Some(s) = self.completed() {
            write!(f, " c{}", s.side_letter())?;
        }
        // A draw, which Chaos Clock cannot reach, is written as both-lose.
        let outcome = self.outcome().map(|o| if o == Outcome::Draw { Outcome::BothLose } else { o });
        if let Some((_, flag)) = RESULT_FLAGS.iter().find(|(o, _)| Some(*o) == outcome) {
            write!(f, " {flag}")?;
        }
        Ok(())
    }
}

impl Move {
    /// Reads `w5`, `p5`, `pass` (also `walk 5`-style without the space: `walk5`,
    /// `place5`).
    pub fn parse(text: &str) -> Result<Move, String> {
        let t = text.trim().to_ascii_lowercase();
        if t == "pass" {
            return Ok(Move::Pass);
        }
        let (kind, number) = if let Some(n) = t.strip_prefix("walk") {
            ('w', n)
        } else if let Some(n) = t.strip_prefix("place") {
            ('p', n)
        } else if let Some(n) = t.strip_prefix('w') {
            ('w', n)
        } else if let Some(n) = t.strip_prefix('p') {
            ('p', n)
        } else {
            return Err(format!("'{text}' is not a move: w<n> (walk), p<n> (place) or pass"));
        };
        let n: u8 = number
            .trim()
            .parse()
            .ok()
            .filter(|n| (1..=12).contains(n))
            .ok_or_else(|| format!("'{text}': the piece must be 1 to 12"))?;
        Ok(if kind == 'w' { Move::Walk(n) } else { Move::Place(n) })
    }
}

/// A uniformly random opening from `seed`: a random permutation of the pieces,
/// redrawn until no piece stands on its own number (a derangement).
pub fn random_opening(seed: u64) -> State {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    loop {
        let mut pieces: [u8; 12] = std::array::from_fn(|i| i as u8 + 1);
        for i in (1..12).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            pieces.swap(i, j);
        }
        if pieces.iter().enumerate().all(|(i, &n)| n as usize != i + 1) {
            return State::new(pieces).expect("a permutation is a valid board");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(text: &str) -> State {
        State::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn walking_onto_a_fixed_piece_is_refused() {
        // Piece 1 on point 2 would land on point 3, where 3 is fixed.
        let s = state("0,1,3*,0,0,0,0,0,0,0,0,0 Y 0");
        assert_eq!(s.play(Move::Walk(1)), Err(MoveError::LandsOnFixed { piece: 1, point: 3 }));
        assert!(!s.legal_moves().contains(&Move::Walk(1)));
        // A fixed piece cannot walk.
        assert_eq!(s.play(Move::Walk(3)), Err(MoveError::Fixed(3)));
    }

    #[test]
    fn twelve_walks_to_yis_hand() {
        let s = state("12,0,0,0,0,0,0,0,0,0,0,0 J 0");
        let after = s.play(Move::Walk(12)).unwrap();
        assert_eq!(after.point_of(12), None);
        assert_eq!(after.hand(Side::YI) >> 12 & 1, 1, "12 goes to 乙 even when 甲 walks it");
        assert_eq!(after.to_move(), Side::YI);
        let placed = after.play(Move::Place(12)).unwrap();
        assert!(placed.is_fixed(12));
    }

    #[test]
    fn the_piece_just_walked_cannot_walk_back() {
        let s = state("0,5,0,0,0,0,0,0,0,0,0,0 Y 0");
        let after = s.play(Move::Walk(5)).unwrap(); // 5 from point 2 to 7
        assert_eq!(after.at(7), 5);
        assert_eq!(after.play(Move::Walk(5)), Err(MoveError::JustWalked(5)));
        // After another move the restriction is gone.
        let later = after.play(Move::Pass).unwrap();
        assert_eq!(later.just_walked(), 0);
        assert!(later.play(Move::Walk(5)).is_ok());
    }

    #[test]
    fn capture_by_placement_gives_extra_moves_that_chain() {
        // 乙 holds 2 and 4 in hand; odd pieces stand on points 2 and 4.
        let s = state("0,1,0,3,0,0,0,0,0,0,0,0 Y 0");
        let a = s.play(Move::Place(2)).unwrap();
        assert_eq!(a.to_move(), Side::YI, "capturing 甲's 1 gives another move");
        assert!(a.is_extra_move());
        assert_eq!(a.hand(Side::JIA) >> 1 & 1, 1, "odd pieces go to 甲");
        let b = a.play(Move::Place(4)).unwrap();
        assert_eq!(b.to_move(), Side::YI, "and again");
        let c = b.play(Move::Place(6)).unwrap();
        assert_eq!(c.to_move(), Side::JIA, "a placement without capture ends the turn");
        // Capturing one's own piece gives nothing extra.
        let own = state("0,4,0,0,0,0,0,0,0,0,0,0 Y 0").play(Move::Place(2)).unwrap();
        assert_eq!(own.to_move(), Side::JIA);
        assert_eq!(own.hand(Side::YI) >> 4 & 1, 1, "even pieces go to 乙");
    }

    #[test]
    fn captures_go_to_the_owner_of_the_piece() {
        // 乙 walks 2 from point 1 to point 3, capturing 甲's 7.
        let s = state("2,0,7,0,0,0,0,0,0,0,0,0 Y 0");
        let after = s.play(Move::Walk(2)).unwrap();
        assert_eq!(after.at(3), 2);
        assert_eq!(after.hand(Side::JIA) >> 7 & 1, 1);
        assert_eq!(after.to_move(), Side::JIA, "a walk never gives an extra move");
    }

    #[test]
    fn both_win_only_when_the_opponent_completes_on_its_very_next_move() {
        // 乙 completes with p12 (no capture): 甲 has one move; it completes with p11.
        let s = state("1,2,3,4,5,6,7,8,9,10,0,0 Y 0");
        let yi_done = s.play(Move::Place(12)).unwrap();
        assert_eq!(yi_done.completed(), Some(Side::YI));
        assert_eq!(yi_done.outcome(), None);
        assert_eq!(yi_done.play(Move::Place(11)).unwrap().outcome(), Some(Outcome::BothWin));
        // If 甲's last move does not complete it, 乙 wins.
        assert_eq!(yi_done.play(Move::Pass).unwrap().outcome(), Some(Outcome::Win(Side::YI)));
        // 甲 still needs two pieces: no both-win possible.
        let far = state("1,2,3,4,5,6,7,8,0,10,0,0 Y 0").play(Move::Place(12)).unwrap();
        assert_eq!(far.play(Move::Place(11)).unwrap().outcome(), Some(Outcome::Win(Side::YI)));
    }

    #[test]
    fn a_win_by_capturing_placement_stays_a_win() {
        // 乙's last piece 12 goes home capturing 甲's 11 standing on point 12.
        let s = state("1,2,3,4,5,6,7,8,9,10,0,11 Y 0");
        let after = s.play(Move::Place(12)).unwrap();
        assert_eq!(after.outcome(), Some(Outcome::Win(Side::YI)));
    }

    #[test]
    fn two_passes_end_in_both_lose() {
        let s = random_opening(5);
        let one = s.play(Move::Pass).unwrap();
        assert_eq!(one.outcome(), None);
        assert_eq!(one.play(Move::Pass).unwrap().outcome(), Some(Outcome::BothLose));
        assert_eq!(one.play(Move::Pass).unwrap().play(Move::Pass), Err(MoveError::GameOver));
    }

    #[test]
    fn random_openings_are_derangements_and_vary() {
        let mut seen = std::collections::HashSet::new();
        for seed in 0..500 {
            let s = random_opening(seed);
            for p in 1..=12u8 {
                assert_ne!(s.at(p), p);
                assert_ne!(s.at(p), 0);
            }
            seen.insert(s.key());
        }
        assert!(seen.len() > 490);
    }

    #[test]
    fn text_round_trip_and_bad_positions() {
        let s = random_opening(9);
        assert_eq!(State::parse(&s.to_string()), Ok(s));
        for text in [
            "1*,2,0,0,0,0,0,0,0,0,0,5 J 5",
            "1*,2,0,0,0,0,0,0,0,0,0,5 J 0 x",
            "1,2,3,4,5,6,7,8,9,10,0,12 J 0 p cY",
            "1,2,3,4,5,6,7,8,9,10,11,12 J 0 cY",
            "1,2,3,4,5,6,7,8,9,10,11,12 Y 0 cY both-win",
            "3,5,1,12,4,2,11,10,6,7,9,8 J 0 p both-lose",
        ] {
            let t = state(text);
            assert_eq!(t.to_string(), text.replace("1*", "1"));
            assert_eq!(State::parse(&t.to_string()), Ok(t));
        }
        // The completion flag is implied; every piece home with no flag is over.
        assert_eq!(state("1,2,3,4,5,6,7,8,9,10,0,12 J 0").to_string(), "1,2,3,4,5,6,7,8,9,10,0,12 J 0 cY");
        assert_eq!(state("1,2,3,4,5,6,7,8,9,10,11,12 Y 0").outcome(), Some(Outcome::BothWin));
        for contradiction in [
            "0,0,0,0,0,0,0,0,0,0,0,0 Y 0 x p",
            "5,0,0,0,0,0,0,0,0,0,0,0 Y 5 p",
            "5,0,0,0,0,0,0,0,0,0,0,0 Y 5 x",
            "1,2,3,4,5,6,7,8,9,10,11,12 Y 0 cJ cY",
            "0,0,0,0,0,0,0,0,0,0,0,0 Y 0 cJ",
            "0,0,0,0,0,0,0,0,0,0,0,0 Y 0 p p",
            "0,0,0,0,0,0,0,0,0,0,0,0 Y 0 won:Y",
            "1,0,3,0,5,0,7,0,9,0,11,0 Y 0 cJ both-win",
            "0,0,0,0,0,0,0,0,0,0,0,0 Y 0 both-lose both-lose",
        ] {
            assert!(matches!(State::parse(contradiction), Err(ParseError::Contradiction(_))), "{contradiction}");
        }
        assert_eq!(State::parse("0,0,0,0,0,0,0,0,0,0,0,0"), Err(ParseError::NoSide));
        assert_eq!(State::parse("1,1,0,0,0,0,0,0,0,0,0,0 Y"), Err(ParseError::Twice(1)));
        assert_eq!(State::parse("0,3*,0,0,0,0,0,0,0,0,0,0 Y"), Err(ParseError::FixedAway { piece: 3, point: 2 }));
        assert!(matches!(State::parse("1,2,3"), Err(ParseError::Points(3))));
        assert!(matches!(State::parse("13,0,0,0,0,0,0,0,0,0,0,0"), Err(ParseError::Piece { point: 1, .. })));
        assert!(matches!(State::parse("0,0,0,0,0,0,0,0,0,0,0,0 Q"), Err(ParseError::Side(_))));
        assert!(matches!(State::parse("0,0,0,0,0,0,0,0,0,0,0,0 Y 5"), Err(ParseError::Walked(_))));
        assert!(matches!(State::parse("0,0,0,0,0,0,0,0,0,0,0,0 Y 0 z"), Err(ParseError::Flag(_))));
        assert_eq!(Move::parse("w5"), Ok(Move::Walk(5)));
        assert_eq!(Move::parse("P12"), Ok(Move::Place(12)));
        assert_eq!(Move::parse("pass"), Ok(Move::Pass));
        assert!(Move::parse("w13").is_err() && Move::parse("x3").is_err() && Move::parse("").is_err());
        // Illegal moves say why.
        let s = random_opening(9);
        assert!(matches!(s.play(Move::Place(2)), Err(MoveError::NotInHand(2, _))));
        assert_eq!(s.play(Move::Walk(0)), Err(MoveError::NoSuchPiece(0)));
    }
}
