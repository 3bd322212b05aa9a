//! Cell sets of the relaxed search: `W` 64-bit words per set (enough for
//! the cells of the instance's order), with the few operations the search
//! runs in its inner loops, all `#[inline(always)]`, and the colours of a
//! mask (bits `1..=N`).

use super::PLACED;

/// A set of cells, `W` 64-bit words.
pub(super) type Bits<const W: usize> = [u64; W];

#[inline(always)]
pub(super) fn set<const W: usize>(b: &mut Bits<W>, i: usize) {
    b[i >> 6] |= 1 << (i & 63);
}

#[inline(always)]
pub(super) fn clear<const W: usize>(b: &mut Bits<W>, i: usize) {
    b[i >> 6] &= !(1 << (i & 63));
}

#[inline(always)]
pub(super) fn and<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> Bits<W> {
    std::array::from_fn(|i| a[i] & b[i])
}

#[inline(always)]
pub(super) fn is_empty<const W: usize>(b: &Bits<W>) -> bool {
    b.iter().all(|&w| w == 0)
}

#[inline(always)]
pub(super) fn count_ones<const W: usize>(b: &Bits<W>) -> u32 {
    b.iter().map(|w| w.count_ones()).sum()
}

/// Calls `f` with each element of `b`, ascending.
#[inline(always)]
pub(super) fn for_each<const W: usize>(b: &Bits<W>, mut f: impl FnMut(usize)) {
    for (i, &w) in b.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let t = w.trailing_zeros() as usize;
            w &= w - 1;
            f(i * 64 + t);
        }
    }
}

/// Calls `f` with each colour (`1..=N`) of the mask `c`.
#[inline(always)]
pub(super) fn for_each_colour(c: u32, mut f: impl FnMut(usize)) {
    let mut rest = c & !PLACED;
    while rest != 0 {
        f(rest.trailing_zeros() as usize);
        rest &= rest - 1;
    }
}

/// Removes and returns the lowest element of `b`.
#[inline(always)]
pub(super) fn pop<const W: usize>(b: &mut Bits<W>) -> Option<usize> {
    for (i, w) in b.iter_mut().enumerate() {
        if *w != 0 {
            let t = w.trailing_zeros() as usize;
            *w &= *w - 1;
            return Some(i * 64 + t);
        }
    }
    None
}
