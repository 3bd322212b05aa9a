//! Small helpers shared across the crate: the median of sorted values and
//! the bits of a candidate mask. One definition each, so two modules never
//! disagree on what "the median" means. (Seeds and the seeded generator are
//! in [`crate::seed`].)

/// Median of ascending values (mean of the two middle ones for an even
/// count); `None` when empty.
pub fn median_sorted(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
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
    fn median_and_bits() {
        assert_eq!(median_sorted(&[]), None);
        assert_eq!(median_sorted(&[1.0, 2.0, 10.0]), Some(2.0));
        assert_eq!(median_sorted(&[1.0, 2.0, 3.0, 10.0]), Some(2.5));
        assert_eq!(bits(0b1010_0110).collect::<Vec<_>>(), vec![1, 2, 5, 7]);
    }
}
