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
    fn prefetch_reads_nothing() {
        let v = [1u64; 8];
        prefetch(&v[3]);
        assert_eq!(v[3], 1);
    }
}
