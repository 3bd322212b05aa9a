//! The 9×9 counting search on *box vectors*: the representation of the
//! SIMD solver of tdoku (the peer `check` is measured against,
//! `docs/performance.md`, "Uniqueness and solving"; its "dpll triad simd"
//! design), written here in our own structure.
//!
//! A box is a 4×4 matrix of 16-bit digit sets, lane `4r + c`, one vector:
//! its nine cells at `r, c < 3`; at `(r, 3)` the digits that may be
//! *absent* from its minirow `r`; at `(3, c)` those that may be absent from
//! its minicolumn `c` (lane 15 stays empty). Each matrix row and column
//! holds every digit exactly once (a digit is in one cell of a minirow or
//! absent from it), so a digit left in one lane of a row or column is
//! placed there; a cell with one digit is placed; a placed digit leaves
//! its row, column and box. An absence lane needs six digits at least.
//!
//! A band (three boxes side by side, or stacked) keeps, for each of the
//! six ways a digit can take one minirow (minicolumn) in each of its three
//! boxes, the digits that may still do so: one vector of six lanes. A
//! band tells each of its boxes which digits may be in a minirow (those of
//! the ways through it) or absent from it (those of the ways elsewhere);
//! a box tells each of its two bands which ways its cells and absences
//! still allow. When a minirow can hold only three digits, those three are
//! in it (tdoku's triads). Bands are examined from a worklist (a bit each)
//! until none changes: the boxes restricted by one band's examination
//! mark the bands whose ways they narrowed.
//!
//! The search branches, as tdoku's does, in the band with the fewest ways
//! altogether (over those not yet fixed), on a digit with the fewest ways:
//! first its first way alone, then all the others. When every band holds
//! one way per digit the ways fix every cell; that grid is checked (each
//! cell taken once) and counted, so the count never relies on the
//! propagation having caught every contradiction.
//!
//! The lanes are one 256-bit register a box (`std::arch`), on processors
//! with AVX2 and AVX-512 VL, BW and BITALG, found at run time: the digits
//! of each lane are counted by one instruction and the compiler fuses the
//! logic of three inputs. Elsewhere the band boards of [`super::band9`]
//! count instead ([`count`] says so): on AVX2 alone these lanes were
//! slower than them on easy puzzles and the 17-clue list (1.09× and 1.17×
//! the band boards' time) and faster only on hard ones. Plain arrays run
//! the same code in the tests, as the reference of the vectors.
//!
//! Against the band boards, the search alone in one process a run, CPU
//! time, one thread (`docs/performance.md`, "Uniqueness and solving"):
//! 0.71× their time on top1465, 0.73× on the forum's hardest, 0.89× on
//! Kaggle's, 0.97× on QQWing's and 1.02× on the 17-clue list, where the
//! first propagation is most of the work.

#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use std::ops::ControlFlow;

/// All nine digits.
const ALL: u16 = 0x1ff;

/// The six ways, numbered `k`: box `p` of the band takes its minirow
/// (minicolumn) `WAYS[k][p]`.
const WAYS: [[usize; 3]; 6] = super::PERMUTATIONS_OF_3;

/// A byte-shuffle control for 16 lanes (within each 128-bit half).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(crate) struct Ctl32([u8; 32]);

/// A byte-shuffle control for 8 lanes.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub(crate) struct Ctl16([u8; 16]);

/// No source lane: the shuffle writes 0.
const NONE: u8 = 0xff;

/// The control taking lane `i` from lane `src[i]` (of the same half) or 0.
const fn ctl32(src: [u8; 16]) -> Ctl32 {
    let mut c = [0x80u8; 32];
    let mut i = 0;
    while i < 16 {
        if src[i] != NONE {
            assert!(src[i] / 8 == i as u8 / 8);
            c[2 * i] = 2 * (src[i] % 8);
            c[2 * i + 1] = 2 * (src[i] % 8) + 1;
        }
        i += 1;
    }
    Ctl32(c)
}

/// The 8-lane control taking lane `i` from lane `src[i]` or 0.
const fn ctl16(src: [u8; 8]) -> Ctl16 {
    let mut c = [0x80u8; 16];
    let mut i = 0;
    while i < 8 {
        if src[i] != NONE {
            c[2 * i] = 2 * src[i];
            c[2 * i + 1] = 2 * src[i] + 1;
        }
        i += 1;
    }
    Ctl16(c)
}

/// A box: 16 lanes of 16 bits.
pub(crate) trait Wide: Copy {
    type Half: Half;
    fn from_array(a: [u16; 16]) -> Self;
    /// Both halves `h`.
    fn twice(h: Self::Half) -> Self;
    fn lo(self) -> Self::Half;
    fn hi(self) -> Self::Half;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    /// `self & !o`.
    fn minus(self, o: Self) -> Self;
    fn is_empty(self) -> bool;
    fn shuffle(self, c: &Ctl32) -> Self;
    /// The four rows taken from rows `IMM` (two bits a row, `vpermq`).
    fn rows<const IMM: i32>(self) -> Self;
    /// The number of digits in each lane.
    fn counts(self) -> Self;
    /// `0xffff` where the lanes are equal, 0 elsewhere.
    fn equal(self, o: Self) -> Self;
    /// Whether some lane is below `o`'s.
    fn any_below(self, o: Self) -> bool;
}

/// Eight lanes of 16 bits.
pub(crate) trait Half: Copy {
    fn from_array(a: [u16; 8]) -> Self;
    fn to_array(self) -> [u16; 8];
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn minus(self, o: Self) -> Self;
    fn is_empty(self) -> bool;
    fn shuffle(self, c: &Ctl16) -> Self;
}

/// The portable lanes: plain arrays (the tests' reference).
#[cfg(test)]
pub(crate) mod plain {
    use super::{Ctl16, Ctl32};

    #[derive(Clone, Copy)]
    pub(crate) struct W(pub [u16; 16]);
    #[derive(Clone, Copy)]
    pub(crate) struct H(pub [u16; 8]);

    fn zip16(a: W, b: W, f: impl Fn(u16, u16) -> u16) -> W {
        W(std::array::from_fn(|i| f(a.0[i], b.0[i])))
    }
    fn zip8(a: H, b: H, f: impl Fn(u16, u16) -> u16) -> H {
        H(std::array::from_fn(|i| f(a.0[i], b.0[i])))
    }
    /// Lane `i` of `src` under control byte `b` (a lane-granular control).
    fn pick(src: &[u16], base: usize, b: u8) -> u16 {
        if b & 0x80 != 0 {
            0
        } else {
            src[base + usize::from(b / 2)]
        }
    }

    impl super::Wide for W {
        type Half = H;
        fn from_array(a: [u16; 16]) -> Self {
            W(a)
        }
        fn twice(h: H) -> Self {
            W(std::array::from_fn(|i| h.0[i % 8]))
        }
        fn lo(self) -> H {
            H(std::array::from_fn(|i| self.0[i]))
        }
        fn hi(self) -> H {
            H(std::array::from_fn(|i| self.0[8 + i]))
        }
        fn and(self, o: Self) -> Self {
            zip16(self, o, |a, b| a & b)
        }
        fn or(self, o: Self) -> Self {
            zip16(self, o, |a, b| a | b)
        }
        fn minus(self, o: Self) -> Self {
            zip16(self, o, |a, b| a & !b)
        }
        fn is_empty(self) -> bool {
            self.0.iter().all(|&x| x == 0)
        }
        fn shuffle(self, c: &Ctl32) -> Self {
            W(std::array::from_fn(|i| pick(&self.0, i & 8, c.0[2 * i])))
        }
        fn rows<const IMM: i32>(self) -> Self {
            W(std::array::from_fn(|i| {
                let row = (IMM as usize >> (2 * (i / 4))) & 3;
                self.0[4 * row + i % 4]
            }))
        }
        fn counts(self) -> Self {
            W(self.0.map(|x| x.count_ones() as u16))
        }
        fn equal(self, o: Self) -> Self {
            zip16(self, o, |a, b| if a == b { 0xffff } else { 0 })
        }
        fn any_below(self, o: Self) -> bool {
            self.0.iter().zip(o.0).any(|(&a, b)| a < b)
        }
    }

    impl super::Half for H {
        fn from_array(a: [u16; 8]) -> Self {
            H(a)
        }
        fn to_array(self) -> [u16; 8] {
            self.0
        }
        fn and(self, o: Self) -> Self {
            zip8(self, o, |a, b| a & b)
        }
        fn or(self, o: Self) -> Self {
            zip8(self, o, |a, b| a | b)
        }
        fn minus(self, o: Self) -> Self {
            zip8(self, o, |a, b| a & !b)
        }
        fn is_empty(self) -> bool {
            self.0.iter().all(|&x| x == 0)
        }
        fn shuffle(self, c: &Ctl16) -> Self {
            H(std::array::from_fn(|i| pick(&self.0, 0, c.0[2 * i])))
        }
    }
}

/// The x86-64 vector lanes: a box in one 256-bit register, a band's ways
/// in one 128-bit register, the digits of each lane counted by one
/// AVX-512 BITALG instruction (`vpopcntw`). Every method is inlined into
/// the search, which is compiled with the features the lanes need and
/// called only when the processor has them.
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use super::{Ctl16, Ctl32};
    use std::arch::x86_64::*;

    #[derive(Clone, Copy)]
    pub(crate) struct W(__m256i);
    #[derive(Clone, Copy)]
    pub(crate) struct H(__m128i);

    // SAFETY (every `unsafe` block below): the intrinsics need AVX2 and
    // AVX-512 VL, BW and BITALG, and these lanes are only built inside
    // functions compiled with those features, which run only after
    // [`super::has_vectors`] found them; loads and stores go through
    // references to arrays of the right size.
    impl super::Wide for W {
        type Half = H;
        #[inline(always)]
        fn from_array(a: [u16; 16]) -> Self {
            unsafe { W(_mm256_loadu_si256(a.as_ptr().cast())) }
        }
        #[inline(always)]
        fn twice(h: H) -> Self {
            unsafe { W(_mm256_broadcastsi128_si256(h.0)) }
        }
        #[inline(always)]
        fn lo(self) -> H {
            unsafe { H(_mm256_castsi256_si128(self.0)) }
        }
        #[inline(always)]
        fn hi(self) -> H {
            unsafe { H(_mm256_extracti128_si256::<1>(self.0)) }
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            unsafe { W(_mm256_and_si256(self.0, o.0)) }
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            unsafe { W(_mm256_or_si256(self.0, o.0)) }
        }
        #[inline(always)]
        fn minus(self, o: Self) -> Self {
            unsafe { W(_mm256_andnot_si256(o.0, self.0)) }
        }
        #[inline(always)]
        fn is_empty(self) -> bool {
            unsafe { _mm256_testz_si256(self.0, self.0) == 1 }
        }
        #[inline(always)]
        fn shuffle(self, c: &Ctl32) -> Self {
            unsafe {
                let ctl = _mm256_load_si256(c.0.as_ptr().cast());
                W(_mm256_shuffle_epi8(self.0, ctl))
            }
        }
        #[inline(always)]
        fn rows<const IMM: i32>(self) -> Self {
            unsafe { W(_mm256_permute4x64_epi64::<IMM>(self.0)) }
        }
        #[inline(always)]
        fn counts(self) -> Self {
            unsafe { W(_mm256_popcnt_epi16(self.0)) }
        }
        #[inline(always)]
        fn equal(self, o: Self) -> Self {
            unsafe { W(_mm256_cmpeq_epi16(self.0, o.0)) }
        }
        #[inline(always)]
        fn any_below(self, o: Self) -> bool {
            unsafe { _mm256_cmplt_epi16_mask(self.0, o.0) != 0 }
        }
    }

    impl super::Half for H {
        #[inline(always)]
        fn from_array(a: [u16; 8]) -> Self {
            unsafe { H(_mm_loadu_si128(a.as_ptr().cast())) }
        }
        #[inline(always)]
        fn to_array(self) -> [u16; 8] {
            let mut a = [0u16; 8];
            unsafe { _mm_storeu_si128(a.as_mut_ptr().cast(), self.0) };
            a
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            unsafe { H(_mm_and_si128(self.0, o.0)) }
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            unsafe { H(_mm_or_si128(self.0, o.0)) }
        }
        #[inline(always)]
        fn minus(self, o: Self) -> Self {
            unsafe { H(_mm_andnot_si128(o.0, self.0)) }
        }
        #[inline(always)]
        fn is_empty(self) -> bool {
            unsafe { _mm_testz_si128(self.0, self.0) == 1 }
        }
        #[inline(always)]
        fn shuffle(self, c: &Ctl16) -> Self {
            unsafe {
                let ctl = _mm_load_si128(c.0.as_ptr().cast());
                H(_mm_shuffle_epi8(self.0, ctl))
            }
        }
    }
}

/// Box lanes: the nine cells.
const fn is_cell(l: usize) -> bool {
    l / 4 < 3 && l % 4 < 3
}

/// A box vector with `cell` in the cell lanes, `absence` in the six
/// absence lanes and `rest` in lane 15.
const fn box_lanes(cell: u16, absence: u16, rest: u16) -> [u16; 16] {
    let mut a = [absence; 16];
    let mut l = 0;
    while l < 16 {
        if is_cell(l) {
            a[l] = cell;
        }
        l += 1;
    }
    a[15] = rest;
    a
}

/// The control rotating the lanes of each row left by `k` among its first
/// `n` lanes (the others taken from nowhere), in rows below `rows`.
const fn rotate_in_rows(k: usize, n: usize, rows: usize) -> Ctl32 {
    let mut src = [NONE; 16];
    let mut l = 0;
    while l < 16 {
        let (r, c) = (l / 4, l % 4);
        if r < rows && c < n {
            src[l] = (4 * r + (c + k) % n) as u8;
        }
        l += 1;
    }
    ctl32(src)
}

/// Each row's four lanes rotated by 1, 2, 3.
const ROW_TURN: [Ctl32; 3] = [
    rotate_in_rows(1, 4, 4),
    rotate_in_rows(2, 4, 4),
    rotate_in_rows(3, 4, 4),
];
/// The first three lanes of every row rotated by 1 and 2.
const TRIPLE_TURN: [Ctl32; 2] = [rotate_in_rows(1, 3, 4), rotate_in_rows(2, 3, 4)];
/// The nine cells rotated within their rows by 1 and 2 (other lanes 0).
const CELL_TURN: [Ctl32; 2] = [rotate_in_rows(1, 3, 3), rotate_in_rows(2, 3, 3)];
/// `vpermq` orders: the four rows rotated by 1, 2, 3.
const ROWS_BY_1: i32 = 0b00_11_10_01;
const ROWS_BY_2: i32 = 0b01_00_11_10;
const ROWS_BY_3: i32 = 0b10_01_00_11;
/// The first three rows rotated by 1 and 2 (row 3 kept).
const TOP_ROWS_BY_1: i32 = 0b11_00_10_01;
const TOP_ROWS_BY_2: i32 = 0b11_01_00_10;

/// The fewest digits of each lane: a cell one, an absence six.
const MINIMUM: [u16; 16] = box_lanes(1, 6, 0);
/// Where a count of one places the digit: the cells (never elsewhere).
const SINGLE_AT: [u16; 16] = box_lanes(1, 0xffff, 0xffff);
/// Where six digits fill an absence lane: its minirow or minicolumn holds
/// the three others.
const SIX_AT: [u16; 16] = box_lanes(0xffff, 6, 0xffff);
/// The minirows' absence lanes.
const ROW_ABSENCES: [u16; 16] = [
    0, 0, 0, 0xffff, 0, 0, 0, 0xffff, 0, 0, 0, 0xffff, 0, 0, 0, 0,
];
/// The cell lanes.
const CELLS: [u16; 16] = box_lanes(0xffff, 0, 0);
/// A box with every digit in every lane.
const FRESH_BOX: [u16; 16] = box_lanes(ALL, ALL, 0);

/// Band `o` (0 rows, 1 stacks), box `p` of it: four controls whose union
/// over the ways (at lanes `k` and `8 + k`) gives the box lanes the band
/// allows, but for the lanes it says nothing about ([`UNTOLD`]).
const fn band_to_box(o: usize, p: usize) -> [Ctl32; 4] {
    let mut src = [[NONE; 16]; 4];
    let mut l = 0;
    while l < 15 {
        let (r, c) = (l / 4, l % 4);
        // The minirow (minicolumn) of the lane, and whether it is a cell.
        let (line, cell, told) = if o == 0 {
            (r, c < 3, r < 3)
        } else {
            (c, r < 3, c < 3)
        };
        if told {
            let mut n = 0;
            let mut k = 0;
            while k < 6 {
                if (WAYS[k][p] == line) == cell {
                    src[n][l] = (8 * (l / 8) + k) as u8;
                    n += 1;
                }
                k += 1;
            }
            // A cell has two ways through it: the other two controls
            // repeat them.
            if cell {
                src[2][l] = src[0][l];
                src[3][l] = src[1][l];
            }
        }
        l += 1;
    }
    [ctl32(src[0]), ctl32(src[1]), ctl32(src[2]), ctl32(src[3])]
}

const BAND_TO_BOX: [[[Ctl32; 4]; 3]; 2] = [
    [band_to_box(0, 0), band_to_box(0, 1), band_to_box(0, 2)],
    [band_to_box(1, 0), band_to_box(1, 1), band_to_box(1, 2)],
];
/// The lanes a band says nothing about: a row band the minicolumns'
/// absences, a stack the minirows'.
const UNTOLD: [[u16; 16]; 2] = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ALL, ALL, ALL, 0],
    [0, 0, 0, ALL, 0, 0, 0, ALL, 0, 0, 0, ALL, 0, 0, 0, 0],
];

/// A band's minirows (lane `4p + e`: box `p`, minirow `e`): the union of
/// the ways through them, two controls.
const fn band_triads() -> [Ctl32; 2] {
    let mut first = [NONE; 16];
    let mut second = [NONE; 16];
    let mut p = 0;
    while p < 3 {
        let mut k = 0;
        while k < 6 {
            let l = 4 * p + WAYS[k][p];
            let s = (8 * (l / 8) + k) as u8;
            if first[l] == NONE {
                first[l] = s;
            } else {
                second[l] = s;
            }
            k += 1;
        }
        p += 1;
    }
    [ctl32(first), ctl32(second)]
}

const TRIADS: [Ctl32; 2] = band_triads();
/// A minirow holds three digits: fewer is a contradiction.
const TRIAD_MINIMUM: [u16; 16] = [3, 3, 3, 0, 3, 3, 3, 0, 3, 3, 3, 0, 0, 0, 0, 0];
/// Where exactly three digits fill the minirow.
const TRIAD_FULL_AT: [u16; 16] = [
    3, 3, 3, 0xffff, 3, 3, 3, 0xffff, 3, 3, 3, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff,
];

/// Controls gathering, for way `k`, lane `4p + WAYS[k][p]` of box `p`'s
/// row: boxes 0 and 1 from the low half, box 2 from the high one.
const fn way_gather(p: usize, base: usize) -> Ctl16 {
    let mut src = [NONE; 8];
    let mut k = 0;
    while k < 6 {
        src[k] = (4 * p + WAYS[k][p] - base) as u8;
        k += 1;
    }
    ctl16(src)
}
const WAY_GATHER: [Ctl16; 3] = [way_gather(0, 0), way_gather(1, 0), way_gather(2, 8)];

/// Box `p` of a row band: way `k` reads the absence lane `(WAYS[k][p], 3)`
/// (low half for minirows 0 and 1, high half for minirow 2).
const fn row_message(p: usize, high: bool) -> Ctl16 {
    let mut src = [NONE; 8];
    let mut k = 0;
    while k < 6 {
        let l = 4 * WAYS[k][p] + 3;
        if (l >= 8) == high {
            src[k] = (l % 8) as u8;
        }
        k += 1;
    }
    ctl16(src)
}
const ROW_MESSAGE: [[Ctl16; 2]; 3] = [
    [row_message(0, false), row_message(0, true)],
    [row_message(1, false), row_message(1, true)],
    [row_message(2, false), row_message(2, true)],
];
/// Box `p` of a stack: way `k` reads lane `(3, WAYS[k][p])` (high half).
const fn stack_message(p: usize) -> Ctl16 {
    let mut src = [NONE; 8];
    let mut k = 0;
    while k < 6 {
        src[k] = (4 + WAYS[k][p]) as u8;
        k += 1;
    }
    ctl16(src)
}
const STACK_MESSAGE: [Ctl16; 3] = [stack_message(0), stack_message(1), stack_message(2)];

/// The search state: nine boxes and six bands (rows 0–2, stacks 3–5),
/// each band's digits a way at lanes 0–5.
#[derive(Clone, Copy)]
struct State<V: Wide> {
    boxes: [V; 9],
    ways: [V::Half; 6],
}

/// A box's lanes seen from each lane's line: for each lane, the union of
/// the other lanes of its matrix row, and of its matrix column.
#[derive(Clone, Copy)]
struct Lines<V> {
    row_others: V,
    col_others: V,
}

#[inline(always)]
fn lines_of<V: Wide>(bx: V) -> Lines<V> {
    Lines {
        row_others: bx
            .shuffle(&ROW_TURN[0])
            .or(bx.shuffle(&ROW_TURN[1]))
            .or(bx.shuffle(&ROW_TURN[2])),
        col_others: bx
            .rows::<ROWS_BY_1>()
            .or(bx.rows::<ROWS_BY_2>())
            .or(bx.rows::<ROWS_BY_3>()),
    }
}

/// The digits placed in `bx`'s cells: alone in their cell, or alone in a
/// line (row or column of the matrix, its absence lane included).
#[inline(always)]
fn placed<V: Wide>(bx: V, counts: V, lines: Lines<V>) -> V {
    let alone = bx.and(counts.equal(V::from_array(SINGLE_AT)));
    let once = bx.minus(lines.row_others.and(lines.col_others));
    alone.or(once.and(V::from_array(CELLS)))
}

/// What `placed` removes from a box: its digits from their row, column
/// and box (absence lanes of their minirow and minicolumn included), and
/// every other digit from their cells.
#[inline(always)]
fn removed_by<V: Wide>(placed: V) -> V {
    let in_row = placed
        .or(placed.shuffle(&ROW_TURN[0]))
        .or(placed.shuffle(&ROW_TURN[1]))
        .or(placed.shuffle(&ROW_TURN[2]));
    let in_col = placed
        .or(placed.rows::<ROWS_BY_1>())
        .or(placed.rows::<ROWS_BY_2>())
        .or(placed.rows::<ROWS_BY_3>());
    let in_box = in_col
        .shuffle(&CELL_TURN[0])
        .or(in_col.shuffle(&CELL_TURN[1]));
    let zero = V::from_array([0; 16]);
    let filled = V::from_array([0xffff; 16]).minus(placed.equal(zero));
    in_row.or(in_col).or(in_box).or(filled).minus(placed)
}

/// Restricts box `b` to `allowed` and settles it; tells its two bands and
/// marks in `dirty` those it narrows. False on a contradiction.
#[inline(always)]
fn restrict<V: Wide>(st: &mut State<V>, b: usize, allowed: V, dirty: &mut u32) -> bool {
    let mut bx = st.boxes[b];
    let mut gone = bx.minus(allowed);
    if gone.is_empty() {
        return true;
    }
    let minimum = V::from_array(MINIMUM);
    let (lines, counts) = loop {
        bx = bx.minus(gone);
        let counts = bx.counts();
        if counts.any_below(minimum) {
            return false;
        }
        let lines = lines_of(bx);
        gone = removed_by(placed(bx, counts, lines));
        if gone.and(bx).is_empty() {
            break (lines, counts);
        }
    };
    st.boxes[b] = bx;
    tell_bands(st, b, bx, lines, counts, dirty);
    true
}

/// Narrows box `b`'s two bands to the ways its lanes allow: a way through
/// a minirow needs the digit in one of its cells and able to be absent
/// from the two other minirows (the same down the minicolumns).
#[inline(always)]
fn tell_bands<V: Wide>(
    st: &mut State<V>,
    b: usize,
    bx: V,
    lines: Lines<V>,
    counts: V,
    dirty: &mut u32,
) {
    // At an absence lane the other lanes of its line are its cells.
    let (row_cells, col_cells) = (lines.row_others, lines.col_others);
    let absent_elsewhere_h = bx
        .rows::<TOP_ROWS_BY_1>()
        .and(bx.rows::<TOP_ROWS_BY_2>())
        .and(V::from_array(ROW_ABSENCES));
    let absent_elsewhere_v = bx.shuffle(&TRIPLE_TURN[0]).and(bx.shuffle(&TRIPLE_TURN[1]));
    // An absence lane of six digits: its line holds the three others.
    let six = bx.and(counts.equal(V::from_array(SIX_AT)));
    let allowed = row_cells
        .and(absent_elsewhere_h)
        .or(col_cells.and(absent_elsewhere_v))
        .minus(six);
    let (i, j) = (b / 3, b % 3);
    let (lo, hi) = (allowed.lo(), allowed.hi());
    let row_ways = lo
        .shuffle(&ROW_MESSAGE[j][0])
        .or(hi.shuffle(&ROW_MESSAGE[j][1]));
    narrow(st, i, row_ways, dirty);
    narrow(st, 3 + j, hi.shuffle(&STACK_MESSAGE[i]), dirty);
}

/// Keeps only `allowed` of band `band`'s ways, marking it when it changes.
#[inline(always)]
fn narrow<V: Wide>(st: &mut State<V>, band: usize, allowed: V::Half, dirty: &mut u32) {
    let w = st.ways[band];
    if !w.minus(allowed).is_empty() {
        st.ways[band] = w.and(allowed);
        *dirty |= 1 << band;
    }
}

/// Examines band `band`: a minirow able to hold
/// only three digits holds them, and its three boxes are restricted to
/// what its ways allow. False on a contradiction.
#[inline(always)]
fn examine<V: Wide>(st: &mut State<V>, band: usize, dirty: &mut u32) -> bool {
    let mut w = st.ways[band];
    let both = V::twice(w);
    let triads = both.shuffle(&TRIADS[0]).or(both.shuffle(&TRIADS[1]));
    let counts = triads.counts();
    if counts.any_below(V::from_array(TRIAD_MINIMUM)) {
        return false;
    }
    let full = triads.and(counts.equal(V::from_array(TRIAD_FULL_AT)));
    if !full.is_empty() {
        let elsewhere = full.shuffle(&CELL_TURN[0]).or(full.shuffle(&CELL_TURN[1]));
        let (lo, hi) = (elsewhere.lo(), elsewhere.hi());
        let wrong = lo
            .shuffle(&WAY_GATHER[0])
            .or(lo.shuffle(&WAY_GATHER[1]))
            .or(hi.shuffle(&WAY_GATHER[2]));
        w = w.minus(wrong);
        st.ways[band] = w;
    }
    let (o, line) = (band / 3, band % 3);
    for (p, c) in BAND_TO_BOX[o].iter().enumerate() {
        let b = if o == 0 { 3 * line + p } else { 3 * p + line };
        let both = V::twice(st.ways[band]);
        let allowed = both
            .shuffle(&c[0])
            .or(both.shuffle(&c[1]))
            .or(both.shuffle(&c[2]))
            .or(both.shuffle(&c[3]))
            .or(V::from_array(UNTOLD[o]));
        if !restrict(st, b, allowed, dirty) {
            return false;
        }
    }
    true
}

/// Examines the bands marked in `dirty` until none is. False on a
/// contradiction.
#[inline(always)]
fn propagate<V: Wide>(st: &mut State<V>, mut dirty: u32) -> bool {
    while dirty != 0 {
        let band = (31 - dirty.leading_zeros()) as usize;
        dirty &= !(1 << band);
        if !examine(st, band, &mut dirty) {
            return false;
        }
    }
    true
}

/// The band and digit to branch on: in the band of fewest ways over those
/// with a digit of two or more, a digit of fewest ways (two, three, else
/// any with several). `None` when every digit has one way in every band.
#[inline(always)]
fn choose<V: Wide>(st: &State<V>) -> Option<(usize, usize)> {
    let mut best = (u32::MAX, 0);
    for (band, w) in st.ways.iter().enumerate() {
        let a = w.to_array();
        let total: u32 = a[..6].iter().map(|x| x.count_ones()).sum();
        if total > 9 && total < best.0 {
            best = (total, band);
        }
    }
    if best.0 == u32::MAX {
        return None;
    }
    let a = st.ways[best.1].to_array();
    // Bit-sliced counts of each digit's ways: 1, 2 and 4.
    let (mut ones, mut twos, mut fours) = (0u16, 0u16, 0u16);
    for &x in &a[..6] {
        let carry = ones & x;
        ones ^= x;
        fours |= twos & carry;
        twos ^= carry;
    }
    let exactly_two = twos & !ones & !fours;
    let exactly_three = twos & ones & !fours;
    let several = twos | fours;
    let pick = [exactly_two, exactly_three, several]
        .into_iter()
        .find(|&m| m != 0)?;
    Some((best.1, pick.trailing_zeros() as usize))
}

/// The grid the ways fix when every digit has one way in every band, if
/// no two digits take one cell.
fn grid_of<V: Wide>(st: &State<V>) -> Option<[u8; 81]> {
    let mut way_of = [[0usize; 9]; 6];
    for (band, w) in st.ways.iter().enumerate() {
        let a = w.to_array();
        // At most nine ways (see `choose`), so each digit has one.
        if a[0] | a[1] | a[2] | a[3] | a[4] | a[5] != ALL {
            return None;
        }
        for (k, &digits) in a[..6].iter().enumerate() {
            let mut d = digits;
            while d != 0 {
                way_of[band][d.trailing_zeros() as usize] = k;
                d &= d - 1;
            }
        }
    }
    let mut grid = [0u8; 81];
    for i in 0..3 {
        for j in 0..3 {
            for d in 0..9 {
                let r = 3 * i + WAYS[way_of[i][d]][j];
                let c = 3 * j + WAYS[way_of[3 + j][d]][i];
                if grid[9 * r + c] != 0 {
                    return None;
                }
                grid[9 * r + c] = d as u8 + 1;
            }
        }
    }
    Some(grid)
}

/// One node of the search: a leaf's grid is visited; otherwise the chosen
/// digit's first way is searched on a copy, its other ways on `st`.
/// `again` searches a child (the same function, compiled for the lanes).
#[inline(always)]
fn node<V, F, R>(st: &mut State<V>, visit: &mut F, again: R) -> ControlFlow<()>
where
    V: Wide,
    F: FnMut(&[u8; 81]) -> ControlFlow<()>,
    R: Fn(&mut State<V>, &mut F) -> ControlFlow<()>,
{
    let Some((band, d)) = choose(st) else {
        return match grid_of(st) {
            Some(g) => visit(&g),
            None => ControlFlow::Continue(()),
        };
    };
    let bit = 1u16 << d;
    let a = st.ways[band].to_array();
    let first = a.iter().position(|&x| x & bit != 0).unwrap_or(0);
    let mut only_first = a;
    let mut but_first = a;
    for k in 0..6 {
        if k == first {
            but_first[k] &= !bit;
        } else {
            only_first[k] &= !bit;
        }
    }
    let mut child = *st;
    child.ways[band] = V::Half::from_array(only_first);
    if propagate(&mut child, 1 << band) {
        again(&mut child, visit)?;
    }
    st.ways[band] = V::Half::from_array(but_first);
    if propagate(st, 1 << band) {
        return again(st, visit);
    }
    ControlFlow::Continue(())
}

/// For a given at lane `4r + c` of its box (index `3r + c`): the lanes it
/// clears its digit from (every cell, the absence lanes of its minirow and
/// minicolumn), all ones there.
const GIVEN_CLEARS: [[u16; 16]; 9] = given_clears();

const fn given_clears() -> [[u16; 16]; 9] {
    let mut t = [[0u16; 16]; 9];
    let mut e = 0;
    while e < 9 {
        let (er, ec) = (e / 3, e % 3);
        let mut l = 0;
        while l < 16 {
            if is_cell(l) || l == 4 * er + 3 || l == 12 + ec {
                t[e][l] = 0xffff;
            }
            l += 1;
        }
        e += 1;
    }
    t
}

/// For a given in box `p` of a band, in its minirow (minicolumn) `line`:
/// the ways it rules out (those through another line of that box), all
/// ones there.
const WAY_CLEARS: [[[u16; 8]; 3]; 3] = way_clears();

const fn way_clears() -> [[[u16; 8]; 3]; 3] {
    let mut t = [[[0u16; 8]; 3]; 3];
    let mut p = 0;
    while p < 3 {
        let mut line = 0;
        while line < 3 {
            let mut k = 0;
            while k < 6 {
                if WAYS[k][p] != line {
                    t[p][line][k] = 0xffff;
                }
                k += 1;
            }
            line += 1;
        }
        p += 1;
    }
    t
}

/// The state of the grid `cells` (0 empty, 1..=9 a given) before any
/// propagation: each given fixed in its box and narrowing its two bands.
#[inline(always)]
fn initial<V: Wide>(cells: &[u8]) -> State<V> {
    let mut boxes = [FRESH_BOX; 9];
    let mut ways = [[ALL, ALL, ALL, ALL, ALL, ALL, 0, 0]; 6];
    for (cell, &v) in cells.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let bit = 1u16 << (v - 1);
        let (r, c) = (cell / 9, cell % 9);
        let (er, ec) = (r % 3, c % 3);
        let bx = &mut boxes[3 * (r / 3) + c / 3];
        let clears = &GIVEN_CLEARS[3 * er + ec];
        for l in 0..16 {
            bx[l] &= !(bit & clears[l]);
        }
        bx[4 * er + ec] = bit;
        let (row_ways, stack_ways) = (&WAY_CLEARS[c / 3][er], &WAY_CLEARS[r / 3][ec]);
        for k in 0..8 {
            ways[r / 3][k] &= !(bit & row_ways[k]);
            ways[3 + c / 3][k] &= !(bit & stack_ways[k]);
        }
    }
    State {
        boxes: boxes.map(V::from_array),
        ways: ways.map(V::Half::from_array),
    }
}

/// The search from the grid `cells`: the first propagation, then the
/// nodes (`again`, compiled for the lanes).
#[inline(always)]
fn search_from<V, F, R>(cells: &[u8], visit: &mut F, again: R)
where
    V: Wide,
    F: FnMut(&[u8; 81]) -> ControlFlow<()>,
    R: Fn(&mut State<V>, &mut F) -> ControlFlow<()>,
{
    let mut st = initial::<V>(cells);
    if propagate(&mut st, 0x3f) {
        let _ = again(&mut st, visit);
    }
}

/// The search on the plain lanes (the tests' reference for the vectors).
#[cfg(test)]
fn search_plain<F>(cells: &[u8], visit: &mut F)
where
    F: FnMut(&[u8; 81]) -> ControlFlow<()>,
{
    fn again<F>(st: &mut State<plain::W>, visit: &mut F) -> ControlFlow<()>
    where
        F: FnMut(&[u8; 81]) -> ControlFlow<()>,
    {
        node(st, visit, again)
    }
    search_from(cells, visit, again);
}

/// The search on the vector lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,avx512f,avx512vl,avx512bw,avx512bitalg")]
fn search_vectors<F>(cells: &[u8], visit: &mut F)
where
    F: FnMut(&[u8; 81]) -> ControlFlow<()>,
{
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,avx512f,avx512vl,avx512bw,avx512bitalg")]
    fn again<F>(st: &mut State<x86::W>, visit: &mut F) -> ControlFlow<()>
    where
        F: FnMut(&[u8; 81]) -> ControlFlow<()>,
    {
        // The closure has the function's features: the call is safe.
        node(st, visit, |s, v| again(s, v))
    }
    search_from(cells, visit, |s, v| again(s, v));
}

/// Whether this processor has the vector lanes' features (AVX2 and
/// AVX-512 F, VL, BW and BITALG), found once.
fn has_vectors() -> bool {
    static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAS.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("popcnt")
                && is_x86_feature_detected!("bmi1")
                && is_x86_feature_detected!("bmi2")
                && is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("avx512bw")
                && is_x86_feature_detected!("avx512bitalg")
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    })
}

/// Calls `visit` with every solution of the 9×9 grid `cells` (0 = empty,
/// 1..=9 a given), in an order of its own, until it breaks; false
/// (nothing visited) when the processor lacks the vector lanes.
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut, unused_variables))]
fn search<F>(cells: &[u8], mut visit: F) -> bool
where
    F: FnMut(&[u8; 81]) -> ControlFlow<()>,
{
    debug_assert_eq!(cells.len(), 81);
    if !has_vectors() {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the processor has the features (`has_vectors`).
    unsafe {
        search_vectors(cells, &mut visit)
    };
    true
}

/// The number of solutions of the 9×9 grid `cells` (0 = empty, 1..=9 a
/// given), up to `cap` (0 = no cap); `None` when the processor lacks the
/// vector lanes (the band boards count there).
pub(super) fn count(cells: &[u8], cap: u64) -> Option<u64> {
    let mut found = 0u64;
    search(cells, |_| crate::answers::tally(&mut found, cap)).then_some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64, for seeded samples.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    fn grid(line: &str) -> Vec<u8> {
        line.bytes()
            .take(81)
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect()
    }

    /// A search calling `visit` with solutions until it breaks.
    type Engine = fn(&[u8], &mut dyn FnMut(&[u8; 81]) -> ControlFlow<()>);

    /// Up to two solutions of `cells`, and the first when it is the only one.
    fn first_two(cells: &[u8], engine: Engine) -> (u64, Vec<u8>) {
        let mut n = 0;
        let mut first = Vec::new();
        engine(cells, &mut |g| {
            n += 1;
            if n == 1 {
                first = g.to_vec();
            }
            if n >= 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        (n, if n == 1 { first } else { Vec::new() })
    }

    fn by_band9(cells: &[u8], f: &mut dyn FnMut(&[u8; 81]) -> ControlFlow<()>) {
        super::super::band9::search(cells, None, f);
    }
    fn by_plain(cells: &[u8], f: &mut dyn FnMut(&[u8; 81]) -> ControlFlow<()>) {
        search_plain(cells, &mut |g: &[u8; 81]| f(g));
    }
    fn by_vectors(cells: &[u8], f: &mut dyn FnMut(&[u8; 81]) -> ControlFlow<()>) {
        assert!(search(cells, f));
    }

    /// The lanes this processor runs, the plain ones first.
    fn engines() -> Vec<(&'static str, Engine)> {
        let mut out: Vec<(&'static str, Engine)> = vec![("plain", by_plain)];
        if has_vectors() {
            out.push(("vectors", by_vectors));
        }
        out
    }

    /// The puzzle, some givens removed, and a wrong given added.
    fn variants(cells: &[u8], rng: &mut Rng) -> Vec<Vec<u8>> {
        let mut out = vec![cells.to_vec()];
        let givens: Vec<usize> = (0..81).filter(|&c| cells[c] != 0).collect();
        let mut fewer = cells.to_vec();
        for _ in 0..1 + rng.below(6) {
            fewer[givens[rng.below(givens.len())]] = 0;
        }
        out.push(fewer);
        let empty: Vec<usize> = (0..81).filter(|&c| cells[c] == 0).collect();
        let mut wrong = cells.to_vec();
        wrong[empty[rng.below(empty.len())]] = 1 + rng.below(9) as u8;
        out.push(wrong);
        out
    }

    /// How many solutions `cells` has (0, 1 or 2 for several), after every
    /// lane's search found the band boards' count and only solution.
    fn agree(cells: &[u8]) -> u64 {
        let want = first_two(cells, by_band9);
        for (name, engine) in engines() {
            assert_eq!(first_two(cells, engine), want, "{name}: {cells:?}");
        }
        want.0
    }

    /// The plain lanes, and the vectors where this processor has them,
    /// count as the band boards do, and
    /// finds the same only solution, on the fixtures' puzzles and their
    /// variants (unique, several solutions, none).
    #[test]
    fn boxes_count_as_the_band_boards_do() {
        if !has_vectors() {
            eprintln!(
                "note: this processor lacks AVX-512 VL, BW or BITALG: the box vectors are checked on plain arrays only"
            );
        }
        let mut rng = Rng(0xb0c5);
        let mut seen = [0usize; 3];
        for name in ["unique.txt", "serg.txt"] {
            let text = std::fs::read_to_string(format!(
                "{}/tests/fixtures/{name}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap();
            for line in text
                .lines()
                .filter(|l| l.len() >= 81 && !l.starts_with('#'))
            {
                for v in variants(&grid(line), &mut rng) {
                    seen[agree(&v) as usize] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&n| n >= 100), "{seen:?}");
    }

    /// Counts past two: the grids of a few givens, with the caps of
    /// `count`.
    #[test]
    fn boxes_count_many_solutions_as_the_band_boards_do() {
        let mut rng = Rng(0x5eed);
        let text = std::fs::read_to_string(format!(
            "{}/tests/fixtures/unique.txt",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        for line in text
            .lines()
            .filter(|l| l.len() >= 81 && !l.starts_with('#'))
            .take(40)
        {
            let mut cells = grid(line);
            for _ in 0..2 + rng.below(5) {
                cells[rng.below(81)] = 0;
            }
            for cap in [0, 1, 7, 1000] {
                let want = super::super::band9::count(&cells, cap);
                let mut plain = 0u64;
                search_plain(&cells, &mut |_: &[u8; 81]| {
                    crate::answers::tally(&mut plain, cap)
                });
                assert_eq!(plain, want, "plain, cap {cap}: {cells:?}");
                if let Some(n) = count(&cells, cap) {
                    assert_eq!(n, want, "cap {cap}: {cells:?}");
                }
            }
        }
    }

    /// The whole benchmark lists (`SUDOLAB_BOXES_LISTS`, files of
    /// 81-character lines, `:`-separated), with their variants.
    #[test]
    #[ignore]
    fn boxes_count_as_the_band_boards_do_on_the_lists() {
        let mut rng = Rng(0x1465);
        let lists = std::env::var("SUDOLAB_BOXES_LISTS").unwrap_or_default();
        assert!(
            !lists.is_empty(),
            "SUDOLAB_BOXES_LISTS names no list: set it to files of puzzles, `:`-separated"
        );
        let mut seen = [0usize; 3];
        for path in lists.split(':').filter(|p| !p.is_empty()) {
            let text = std::fs::read_to_string(path).unwrap();
            for line in text
                .lines()
                .filter(|l| l.len() >= 81 && !l.starts_with('#'))
            {
                for v in variants(&grid(line), &mut rng) {
                    seen[agree(&v) as usize] += 1;
                }
            }
        }
        eprintln!("{seen:?}");
    }

    /// Times the search alone, one process a run:
    /// `SUDOLAB_BOXES_ENGINE=boxes|band9 SUDOLAB_BOXES_FILE=FILE
    /// [SUDOLAB_BOXES_CAP=N]` (cap 2 by default).
    #[test]
    #[ignore]
    fn boxes_bench() {
        let engine = std::env::var("SUDOLAB_BOXES_ENGINE").unwrap_or_default();
        let path = std::env::var("SUDOLAB_BOXES_FILE")
            .expect("SUDOLAB_BOXES_FILE names no file: set it to a file of puzzles");
        let cap: u64 = std::env::var("SUDOLAB_BOXES_CAP").map_or(2, |c| {
            c.parse().expect("SUDOLAB_BOXES_CAP is a whole number")
        });
        let text = std::fs::read_to_string(path).unwrap();
        let grids: Vec<Vec<u8>> = text
            .lines()
            .filter(|l| l.len() >= 81 && !l.starts_with('#'))
            .map(grid)
            .collect();
        let mut total = 0;
        for g in &grids {
            total += match engine.as_str() {
                "band9" => super::super::band9::count(g, cap),
                _ => count(g, cap).expect("this processor lacks the vector lanes"),
            };
        }
        eprintln!("{engine}: {} puzzles, {total} solutions", grids.len());
    }
}
