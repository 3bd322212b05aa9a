//! Small helpers shared across the crate: the bits of a candidate mask, a
//! count with its noun. (Seeds and the seeded generator are in [`crate::seed`], statistics such
//! as the median in [`crate::stats`].)

/// `n` and the noun, singular for one: `1 step`, `2 steps`.
pub(crate) fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

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
    fn a_count_names_its_noun_in_the_singular_for_one() {
        assert_eq!(counted(0, "step"), "0 steps");
        assert_eq!(counted(1, "step"), "1 step");
        assert_eq!(counted(139, "step"), "139 steps");
    }

    #[test]
    fn bits_of_a_mask() {
        assert_eq!(bits(0b1010_0110).collect::<Vec<_>>(), vec![1, 2, 5, 7]);
    }
}

/// `v` as the shortest text that reads back as `v`, in scientific notation
/// outside 1e-4 ≤ |v| < 1e15 (so 1e200 is `1e200`, not 201 digits).
///
/// ```
/// assert_eq!(sudolab::readable_number(3.48), "3.48");
/// assert_eq!(sudolab::readable_number(1e200), "1e200");
/// ```
pub fn readable_number(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 || !v.is_finite() || (1e-4..1e15).contains(&a) {
        v.to_string()
    } else {
        format!("{v:e}")
    }
}

/// `v` rounded to 4 decimals for a reader (a cut point, a bin edge), as
/// [`readable_number`] writes it: `15.833333333333334` reads `15.8333`, and
/// a number that needs no rounding keeps its text.
///
/// ```
/// assert_eq!(sudolab::rounded_number(15.833333333333334), "15.8333");
/// assert_eq!(sudolab::rounded_number(22.6), "22.6");
/// assert_eq!(sudolab::rounded_number(1e200), "1e200");
/// ```
pub fn rounded_number(v: f64) -> String {
    if v.is_finite() && v.abs() < 1e15 {
        let r = (v * 1e4).round() / 1e4;
        if r != 0.0 || v == 0.0 {
            return readable_number(r);
        }
    }
    readable_number(v)
}

#[cfg(test)]
mod readable_tests {
    use super::*;

    #[test]
    fn huge_and_tiny_numbers_read_in_scientific_notation() {
        assert_eq!(readable_number(3.48), "3.48");
        assert_eq!(readable_number(-12.0), "-12");
        assert_eq!(readable_number(0.0), "0");
        assert_eq!(readable_number(1e200), "1e200");
        assert_eq!(readable_number(-1.5e308), "-1.5e308");
        assert_eq!(readable_number(2.5e-7), "2.5e-7");
        assert_eq!(readable_number(f64::INFINITY), "inf");
        for v in [1e200, 1.234567e-300, 6.02e23, 0.1] {
            assert_eq!(readable_number(v).parse::<f64>().unwrap(), v);
        }
    }
}
