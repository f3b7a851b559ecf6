//! The processor-specific instructions the crates use, in one place: bit extraction
//! (BMI2 `pext`) and cache prefetch. Each has a portable version; which one runs is
//! decided at compile time by the target's features (`.cargo/config.toml` builds for
//! the host, `target-cpu=native`).

/// True when [`pext`] is one BMI2 instruction (otherwise a loop over the mask's bits;
/// callers with a cheaper special case test this constant, which folds away).
pub const HAS_BMI2: bool = cfg!(all(target_arch = "x86_64", target_feature = "bmi2"));

/// Gathers the bits of `x` selected by `mask` into the low bits (parallel bit extract).
#[inline(always)]
pub fn pext(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the cfg guarantees BMI2.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        pext_portable(x, mask)
    }
}

/// [`pext`] without BMI2: one step per bit of `mask`.
pub fn pext_portable(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    out
}

/// Deposits the low bits of `x` at the places of the set bits of `mask`, lowest first
/// (parallel bit deposit). `pdep(1 << k, mask)` is the `k`-th set bit of `mask`.
#[inline(always)]
pub fn pdep(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the cfg guarantees BMI2.
        unsafe { std::arch::x86_64::_pdep_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        pdep_portable(x, mask)
    }
}

/// [`pdep`] without BMI2: one step per bit of `mask`.
pub fn pdep_portable(mut x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & 1 != 0 {
            out |= low;
        }
        x >>= 1;
        mask &= mask - 1;
    }
    out
}

/// The place of the `k`-th set bit of `mask` (counting from 0, lowest first); `k` must
/// be below `mask.count_ones()`.
#[inline(always)]
pub fn select_bit(mask: u128, k: u32) -> u32 {
    let low = mask as u64;
    let in_low = low.count_ones();
    let (word, k, base) = if k < in_low { (low, k, 0) } else { ((mask >> 64) as u64, k - in_low, 64) };
    base + pdep(1 << k, word).trailing_zeros()
}

/// Hints the processor to bring the cache line of `value` into the cache (call early,
/// read later). Does nothing where the target has no prefetch instruction.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let p = value as *const T as *const i8;
        // SAFETY: prefetching a valid address has no side effects.
        unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pext_gathers_the_masked_bits() {
        let cases =
            [(0b1011_0110u64, 0b1111_0000u64, 0b1011u64), (u64::MAX, 0x8000_0000_0000_0001, 0b11), (0, u64::MAX, 0)];
        for (x, mask, want) in cases {
            assert_eq!(pext(x, mask), want);
            assert_eq!(pext_portable(x, mask), want);
        }
        let mut state = 7;
        for _ in 0..1000 {
            state = crate::rng::splitmix64(state);
            let x = state;
            state = crate::rng::splitmix64(state);
            assert_eq!(pext(x, state), pext_portable(x, state));
        }
    }

    #[test]
    fn pdep_deposits_and_select_finds_the_kth_bit() {
        let mut state = 9;
        for _ in 0..1000 {
            state = crate::rng::splitmix64(state);
            let x = state;
            state = crate::rng::splitmix64(state);
            let mask = state;
            assert_eq!(pdep(x, mask), pdep_portable(x, mask));
            assert_eq!(pext(pdep(x, mask), mask), x & ((1u128 << mask.count_ones()) - 1) as u64);
            let wide = (u128::from(x) << 64) | u128::from(mask & x.rotate_left(7));
            let places: Vec<u32> = (0..128).filter(|&i| wide >> i & 1 == 1).collect();
            for (k, &place) in places.iter().enumerate() {
                assert_eq!(select_bit(wide, k as u32), place);
            }
        }
    }

    #[test]
    fn prefetch_reads_nothing() {
        let v = [1u64; 8];
        prefetch(&v[3]);
        assert_eq!(v[3], 1);
    }
}
