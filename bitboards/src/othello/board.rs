//! The 8×8 board seen from the side to move: two `u64` words.

use super::rules::{OthelloBoard, Owner};
use super::{flips, geometry::CORNERS, movegen, zobrist};

/// An 8×8 Othello board from the point of view of the side to move: `player` holds
/// the discs of the side to move, `opponent` the others. Copy-make: playing a move
/// returns a new board, 16 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
}

impl Board {
    /// A board from the discs of the side to move and of the other side.
    pub const fn new(player: u64, opponent: u64) -> Board {
        Board { player, opponent }
    }

    /// The starting position, black (the first player) to move: d5 and e4 black,
    /// d4 and e5 white.
    pub const fn start() -> Board {
        Board::new(0x0000_0008_1000_0000, 0x0000_0010_0800_0000)
    }

    /// The legal moves of the side to move, as a bitboard.
    #[inline(always)]
    pub fn moves(&self) -> u64 {
        movegen::moves(self.player, self.opponent)
    }

    /// The legal moves of the other side (as if it were to move).
    #[inline(always)]
    pub fn opponent_moves(&self) -> u64 {
        movegen::moves(self.opponent, self.player)
    }

    /// The discs flipped by a move on the empty square `sq`; zero if illegal.
    #[inline(always)]
    pub fn flips(&self, sq: u8) -> u64 {
        flips::flips(self.player, self.opponent, sq)
    }

    /// The board after the side to move plays `sq` flipping `flips`, seen from the
    /// new side to move. `flips` must be `self.flips(sq)` and non-zero.
    #[inline(always)]
    pub fn play_flips(&self, sq: u8, flips: u64) -> Board {
        Board::new(self.opponent ^ flips, self.player ^ flips ^ (1u64 << sq))
    }

    /// The board after the side to move plays `sq`, or `None` if the move is illegal.
    #[inline]
    pub fn play(&self, sq: u8) -> Option<Board> {
        if sq >= 64 || (self.player | self.opponent) >> sq & 1 == 1 {
            return None;
        }
        match self.flips(sq) {
            0 => None,
            f => Some(self.play_flips(sq, f)),
        }
    }

    /// The board after the side to move passes.
    #[inline(always)]
    pub const fn pass(&self) -> Board {
        Board::new(self.opponent, self.player)
    }

    /// Empty squares.
    #[inline(always)]
    pub const fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// Number of empty squares.
    #[inline(always)]
    pub const fn empty_count(&self) -> u32 {
        self.empties().count_ones()
    }

    /// True when neither side can move (the board is full, a colour is wiped out,
    /// or both sides are blocked).
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && self.opponent_moves() == 0
    }

    /// Discs of the side to move minus discs of the other side.
    #[inline(always)]
    pub const fn disc_difference(&self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// The final score of a finished game for the side to move, WOF style: the
    /// empty squares count for the winner (nobody's in a draw).
    #[inline]
    pub const fn final_score(&self) -> i32 {
        let diff = self.disc_difference();
        let empties = self.empty_count() as i32;
        if diff > 0 {
            diff + empties
        } else if diff < 0 {
            diff - empties
        } else {
            0
        }
    }

    /// Corners held by the side to move minus corners held by the other side.
    pub const fn corner_difference(&self) -> i32 {
        (self.player & CORNERS).count_ones() as i32 - (self.opponent & CORNERS).count_ones() as i32
    }

    /// The board's Zobrist hash (side-relative, for transposition tables).
    #[inline]
    pub fn zobrist(&self) -> u64 {
        zobrist::hash(self.player, self.opponent)
    }

    /// The eight symmetric images of the board (identity first).
    pub fn symmetries(&self) -> [Board; 8] {
        let mut out = [*self; 8];
        for (i, b) in out.iter_mut().enumerate() {
            let mut p = self.player;
            let mut o = self.opponent;
            if i & 1 != 0 {
                p = p.swap_bytes();
                o = o.swap_bytes();
            }
            if i & 2 != 0 {
                p = mirror_horizontal(p);
                o = mirror_horizontal(o);
            }
            if i & 4 != 0 {
                p = transpose(p);
                o = transpose(o);
            }
            *b = Board::new(p, o);
        }
        out
    }
}

impl OthelloBoard for Board {
    const SIZE: usize = 8;

    fn start() -> Board {
        Board::start()
    }

    fn empty() -> Board {
        Board::new(0, 0)
    }

    fn disc(&self, sq: usize) -> Option<Owner> {
        if self.player >> sq & 1 == 1 {
            Some(Owner::Player)
        } else if self.opponent >> sq & 1 == 1 {
            Some(Owner::Opponent)
        } else {
            None
        }
    }

    fn with_disc(self, sq: usize, owner: Option<Owner>) -> Board {
        let bit = 1u64 << sq;
        let (mut p, mut o) = (self.player & !bit, self.opponent & !bit);
        match owner {
            Some(Owner::Player) => p |= bit,
            Some(Owner::Opponent) => o |= bit,
            None => {}
        }
        Board::new(p, o)
    }

    fn legal_squares(&self) -> Vec<u8> {
        squares(self.moves()).collect()
    }

    fn mobility(&self) -> u32 {
        self.moves().count_ones()
    }

    fn play(&self, sq: u8) -> Option<Board> {
        Board::play(self, sq)
    }

    fn pass(&self) -> Board {
        Board::pass(self)
    }

    fn player_count(&self) -> u32 {
        self.player.count_ones()
    }

    fn opponent_count(&self) -> u32 {
        self.opponent.count_ones()
    }

    fn zobrist(&self) -> u64 {
        Board::zobrist(self)
    }

    fn is_game_over(&self) -> bool {
        Board::is_game_over(self)
    }
}

/// The squares of a bitboard, lowest first.
#[inline]
pub fn squares(mut bits: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if bits == 0 {
            None
        } else {
            let sq = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(sq)
        }
    })
}

/// Mirrors a bitboard left-right (column a ↔ column h).
pub const fn mirror_horizontal(mut x: u64) -> u64 {
    x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1);
    x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2);
    ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4)
}

/// Transposes a bitboard about the a1–h8 diagonal.
pub const fn transpose(mut x: u64) -> u64 {
    let mut t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_moves_and_play() {
        let b = Board::start();
        assert_eq!(b.moves().count_ones(), 4);
        let after = b.play(19).expect("d3 is legal");
        // White to move: white has d4? no: d4 was flipped, white keeps e5 only.
        assert_eq!(after.player, 1 << 36);
        assert_eq!(after.opponent.count_ones(), 4);
        assert!(b.play(0).is_none());
        assert!(b.play(27).is_none(), "occupied square");
        assert!(b.play(64).is_none());
    }

    #[test]
    fn final_score_gives_empties_to_the_winner() {
        let b = Board::new(0b111, 0b1000);
        assert_eq!(b.final_score(), 3 - 1 + 60);
        assert_eq!(b.pass().final_score(), -62);
        assert_eq!(Board::new(1, 2).final_score(), 0);
    }

    #[test]
    fn symmetries_preserve_mobility() {
        let b = Board::start().play(19).unwrap().play(18).unwrap();
        for s in b.symmetries() {
            assert_eq!(s.moves().count_ones(), b.moves().count_ones());
            assert_eq!(s.player.count_ones(), b.player.count_ones());
        }
        assert_eq!(transpose(transpose(0x1234_5678_9abc_def0)), 0x1234_5678_9abc_def0);
        assert_eq!(transpose(1 << 1), 1 << 8);
        assert_eq!(mirror_horizontal(1), 1 << 7);
    }
}
