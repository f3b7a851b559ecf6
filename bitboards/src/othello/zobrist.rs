//! Zobrist hashing of an 8×8 board, byte-sliced.
//!
//! Every square has a random key for "player disc" and one for "opponent disc"; the
//! hash of a board is the XOR of the keys of its discs. The tables below hold, for
//! each of the 8 bytes of a bitboard and each byte value, the XOR of the keys of the
//! squares in that byte, so a hash is 16 table reads instead of up to 64. Built at
//! compile time from the per-square keys.

use crate::rng::splitmix64;

const fn square_key(side: u64, sq: u64) -> u64 {
    splitmix64(0x5E47_E000_0000_0000 ^ (side << 8) ^ sq)
}

const fn build_table(side: u64) -> [[u64; 256]; 8] {
    let mut table = [[0u64; 256]; 8];
    let mut byte = 0;
    while byte < 8 {
        let mut value = 0;
        while value < 256 {
            let mut key = 0;
            let mut bit = 0;
            while bit < 8 {
                if value >> bit & 1 == 1 {
                    key ^= square_key(side, (byte * 8 + bit) as u64);
                }
                bit += 1;
            }
            table[byte][value] = key;
            value += 1;
        }
        byte += 1;
    }
    table
}

static PLAYER: [[u64; 256]; 8] = build_table(0);
static OPPONENT: [[u64; 256]; 8] = build_table(1);

/// The Zobrist key of one disc: `player_side` is true for a disc of the side to move.
pub const fn disc_key(player_side: bool, sq: u8) -> u64 {
    square_key(if player_side { 0 } else { 1 }, sq as u64)
}

/// The Zobrist hash of the board `(player, opponent)`.
#[inline]
pub fn hash(player: u64, opponent: u64) -> u64 {
    let mut h = 0;
    let p = player.to_le_bytes();
    let o = opponent.to_le_bytes();
    for i in 0..8 {
        h ^= PLAYER[i][p[i] as usize] ^ OPPONENT[i][o[i] as usize];
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_the_xor_of_disc_keys() {
        let player = 0x0000_0008_1000_0000u64 | 1;
        let opponent = 0x0000_0010_0800_0000u64 | (1 << 63);
        let mut expected = 0;
        for sq in 0..64u8 {
            if player >> sq & 1 == 1 {
                expected ^= disc_key(true, sq);
            }
            if opponent >> sq & 1 == 1 {
                expected ^= disc_key(false, sq);
            }
        }
        assert_eq!(hash(player, opponent), expected);
        assert_ne!(hash(player, opponent), hash(opponent, player));
    }
}
