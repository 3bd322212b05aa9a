//! Small helpers shared across the crate: seed mixing and a tiny generator
//! for deterministic randomness, and the bits of a candidate mask. One
//! definition each, so two modules never disagree on what "the same seed"
//! means. (Statistics such as the median live in [`crate::stats`].)

/// The SplitMix64 finaliser (Steele, Lea & Flood, "Fast splittable
/// pseudorandom number generators", 2014): a bijective 64-bit mix.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The golden-ratio increment of SplitMix64.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// One SplitMix64 step: `mix64(z + γ)`.
pub fn splitmix64(z: u64) -> u64 {
    mix64(z.wrapping_add(GOLDEN_GAMMA))
}

/// One step of Marsaglia's xorshift64 generator on `state` (which must not
/// be 0); returns the new state.
pub fn xorshift64(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The set bits of a mask (the digits of a candidate mask), ascending.
pub fn bits(mask: u32) -> impl Iterator<Item = u8> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let d = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(d)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // First outputs of SplitMix64 seeded with 0 (reference implementation).
        let mut s = 0u64;
        let mut next = || {
            let out = splitmix64(s);
            s = s.wrapping_add(GOLDEN_GAMMA);
            out
        };
        assert_eq!(next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(next(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn bits_and_xorshift() {
        assert_eq!(bits(0b1010_0110).collect::<Vec<_>>(), vec![1, 2, 5, 7]);
        let mut x = 1u64;
        let a = xorshift64(&mut x);
        assert_ne!(a, 1);
        assert_eq!(x, a);
    }
}
