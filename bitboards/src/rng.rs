//! A tiny deterministic mixer for compile-time tables (Zobrist keys).
//!
//! Run-time randomness in the project comes from `rand_xoshiro`; this module
//! exists only because `const fn` tables need a generator the compiler can run.

/// SplitMix64: maps any 64-bit value to a well-mixed 64-bit value.
pub const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
