//! Small helpers shared across the crate: the bits of a candidate mask.
//! (Seeds and the seeded generator are in [`crate::seed`], statistics such
//! as the median in [`crate::stats`].)

/// The set bits of a mask (the digits of a candidate mask), ascending.
pub(crate) fn bits(mask: u32) -> impl Iterator<Item = u8> {
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
    fn bits_of_a_mask() {
        assert_eq!(bits(0b1010_0110).collect::<Vec<_>>(), vec![1, 2, 5, 7]);
    }
}
