//! The 9×9 counting search on *band boards*: for each digit, its 81
//! candidate cells as three bands of 27 bits (a `u32` per band: row `r`
//! of the band at bits `9r..9r + 9`, column `c` at bit `c` of the row), so
//! every deduction touches one word of one band of one digit. The layout
//! is the one of JCZSolve and fsss2 (band-oriented bitboards with table
//! "shrink" steps), the reason per-band work on small words beats per-cell
//! work; the code here is our own. It counts 9×9 grids where the processor
//! lacks the AVX-512 of the box vectors ([`super::boxes`]), which count
//! faster elsewhere.
//!
//! A digit's band holds it exactly three times, once per row and once per
//! box, so its nine *segments* (a row's three cells in a box) must contain
//! a permutation: one segment per row and per box. A table over the 512
//! occupancy patterns of the segments keeps the cells of the segments some
//! permutation uses (and none, a dead end): pointing and claiming
//! (box–line interaction) within the band, and more. The same table runs
//! down each stack, on the columns a digit occupies in each band. Then: a
//! band whose digit can only be in three columns takes those columns from
//! the digit's other bands; a row, box or column with one cell of a digit
//! places it (hidden single); a cell with one digit left is placed (naked
//! single, a bit-sliced count over the nine digits of a band); and when
//! nothing else applies, tdoku's triads: a segment's three cells hold
//! three digits, so three digits bound to it leave no room for others, and
//! three able to use it must (counted over the digits of a band). After the
//! table a cell alone in its row is alone in its box, so a placement only
//! clears the cell from the other digits and its column from the digit's
//! other bands. Only bands changed since they were last examined are
//! examined again (a bit each); the examination keeps the band's segment
//! occupancy, which the triads and the branching read. A new board is
//! first examined a digit at a time (its three bands together).
//!
//! The search branches as tdoku's solver does (its "band configurations"):
//! in the band whose digits fit the fewest permutations altogether, on the
//! permutations of a digit with the fewest, each child keeping one (they
//! split the solutions between them); once every digit fits one
//! permutation, on the first cell with two candidates (else one with the
//! fewest). The last child is searched on the board itself, the others on
//! copies.
//!
//! Every deduction removes only candidates no solution uses, so the
//! solutions, and every count, are those of the cell-mask search of
//! [`super::sudoku`]; their order is not (which is why ordered solving
//! stays on [`super::board9`]). The tests compare counts with the other
//! searches, Dancing Links and SAT on thousands of grids.

use std::ops::ControlFlow;

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;
/// Column 0 of a band (one cell in each of its rows).
const COLUMN: u32 = 1 | 1 << 9 | 1 << 18;
/// The top-left box of a band.
const BOX: u32 = 0b111 | 0b111 << 9 | 0b111 << 18;

/// Per 9-bit row of a band: bit `k` when the row has a cell in box `k`.
static SEGMENTS: [u8; 512] = segments();

const fn segments() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut row = 0;
    while row < 512 {
        let mut k = 0;
        while k < 3 {
            if row >> (3 * k) & 7 != 0 {
                t[row] |= 1 << k;
            }
            k += 1;
        }
        row += 1;
    }
    t
}

/// The six ways to put one segment in each of three lines and three boxes:
/// line `l` in box `PERMUTATIONS[i][l]`.
const PERMUTATIONS: [[usize; 3]; 6] = super::PERMUTATIONS_OF_3;

/// The segments of permutation `i`, bit `3l + k` (line `l`, box `k`).
const fn permutation_segments(i: usize) -> u32 {
    let p = PERMUTATIONS[i];
    1 << p[0] | 1 << (3 + p[1]) | 1 << (6 + p[2])
}

/// Per occupancy of the nine segments where three lines cross three boxes
/// (bit `3l + k`: line `l` has a cell in box `k`): the permutations
/// (bit `i`) that fit in it.
static PERMS_IN: [u8; 512] = perms_in();

const fn perms_in() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut i = 0;
        while i < 6 {
            let bits = permutation_segments(i);
            if occ as u32 & bits == bits {
                t[occ] |= 1 << i;
            }
            i += 1;
        }
        occ += 1;
    }
    t
}

/// Per occupancy as in [`PERMS_IN`]: the segments some fitting permutation
/// uses; 0 when none fits.
static PERMITTED_SEGMENTS: [u16; 512] = permitted_segments();

const fn permitted_segments() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut i = 0;
        while i < 6 {
            if PERMS_IN[occ] >> i & 1 == 1 {
                t[occ] |= permutation_segments(i) as u16;
            }
            i += 1;
        }
        occ += 1;
    }
    t
}

/// The cells of a segment set (bit `3r + k`) of a band's rows.
const fn segment_cells(segs: u32) -> u32 {
    let mut cells = 0u32;
    let mut s = 0;
    while s < 9 {
        if segs >> s & 1 == 1 {
            cells |= 0b111 << (9 * (s / 3) + 3 * (s % 3));
        }
        s += 1;
    }
    cells
}

/// [`PERMITTED_SEGMENTS`] of a band's rows, as the band's cells.
static PERMITTED: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut occ = 0;
    while occ < 512 {
        t[occ] = segment_cells(PERMITTED_SEGMENTS[occ] as u32);
        occ += 1;
    }
    t
};

/// Per occupancy: how many permutations fit in it.
static PERM_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut occ = 0;
    while occ < 512 {
        t[occ] = PERMS_IN[occ].count_ones() as u8;
        occ += 1;
    }
    t
};

/// The cells of permutation `i`'s segments in a band.
static PERM_CELLS: [u32; 6] = {
    let mut t = [0u32; 6];
    let mut i = 0;
    while i < 6 {
        t[i] = segment_cells(permutation_segments(i));
        i += 1;
    }
    t
};

/// Per occupancy as in [`PERMS_IN`]: the segments every fitting
/// permutation uses (all nine when none fits).
static MUST: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut must = 0x1ffu16;
        let mut i = 0;
        while i < 6 {
            if PERMS_IN[occ] >> i & 1 == 1 {
                must &= permutation_segments(i) as u16;
            }
            i += 1;
        }
        t[occ] = must;
        occ += 1;
    }
    t
};

/// [`segment_cells`] of every segment set.
static SEGMENT_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut segs = 0;
    while segs < 512 {
        t[segs] = segment_cells(segs as u32);
        segs += 1;
    }
    t
};

/// The occupancy of a band's segments (bit `3r + k`: row `r` has a cell in
/// box `k`).
#[inline(always)]
fn occupancy(a: u32) -> usize {
    usize::from(SEGMENTS[(a & 0x1ff) as usize])
        | usize::from(SEGMENTS[(a >> 9 & 0x1ff) as usize]) << 3
        | usize::from(SEGMENTS[(a >> 18 & 0x1ff) as usize]) << 6
}

/// Per set of columns (9 bits) holding a digit in one band: what the
/// digit's other bands keep. Exactly three columns are the band's three
/// placements of the digit, so the other bands lose them; more say nothing.
static OTHER_BANDS_KEEP: [u32; 512] = other_bands_keep();

const fn other_bands_keep() -> [u32; 512] {
    let mut t = [BAND; 512];
    let mut cols = 0u32;
    while cols < 512 {
        if cols.count_ones() == 3 {
            t[cols as usize] = BAND & !(cols * COLUMN);
        }
        cols += 1;
    }
    t
}

/// Per cell of a band (`9r + c`): its peers within the band (row, box and
/// the column's cells in the band), without the cell.
static PEERS: [u32; 27] = peers();

const fn peers() -> [u32; 27] {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, c) = (p / 9, p % 9);
        let row = 0x1ff << (9 * r);
        let boxes = BOX << (3 * (c / 3));
        let column = COLUMN << c;
        t[p] = (row | boxes | column) & !(1 << p);
        p += 1;
    }
    t
}

/// A set of cells when it has exactly one, else 0.
#[inline(always)]
fn single(x: u32) -> u32 {
    x & u32::from(x & x.wrapping_sub(1) == 0).wrapping_neg()
}

/// Per index `3d + b`: the indices of digit `d`'s other two bands.
static OTHER_INDEX: [(u8, u8); 32] = {
    let mut t = [(0u8, 0u8); 32];
    let mut i = 0;
    while i < 27 {
        let (d, b) = (i / 3, i % 3);
        let (b1, b2) = OTHERS[b];
        t[i] = ((3 * d + b1) as u8, (3 * d + b2) as u8);
        i += 1;
    }
    t
};

/// The other two bands of band `b`.
const OTHERS: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

/// One search state.
#[derive(Clone, Copy)]
struct Board {
    /// Digit `d`'s candidates in band `b` at `3d + b` (the last five
    /// unused: an index masked with 31 needs no bounds check); a placed
    /// cell stays in its digit's band.
    cand: [u32; 32],
    /// The placed cells of each band.
    solved: [u32; 3],
    /// The bands (bit `3d + b`) changed since they were last examined.
    dirty: u32,
    /// The digits (bit `d`) changed since their columns were last examined.
    digits: u32,
    /// The occupancy of each band's segments as last examined (see
    /// [`occupancy`]): the current one when no band has changed since.
    occ: [u16; 32],
}

impl Board {
    /// The board of a grid (`cells[i]` = 0 or a digit 1..=9) with the
    /// givens placed and, with `forbid = (cell, v)`, the candidate `v`
    /// removed from `cell`; `None` when givens clash or the forbidden
    /// value is given there (no solution).
    fn new(cells: &[u8], forbid: Option<(usize, u8)>) -> Option<Board> {
        // The givens of each digit per band, then each digit's bands at
        // once: its givens, and the cells that are neither given nor in a
        // row, box or column of one of its givens.
        let mut given = [0u32; 32];
        for (cell, &v) in cells.iter().enumerate().take(81) {
            if v != 0 {
                given[(3 * (usize::from(v) - 1) + cell / 27) & 31] |= 1 << (cell % 27);
            }
        }
        let mut b = Board {
            cand: [BAND; 32],
            solved: [0; 3],
            dirty: (1 << 27) - 1,
            digits: 0x1ff,
            occ: [0; 32],
        };
        for d in 0..9 {
            for band in 0..3 {
                b.solved[band] |= given[3 * d + band];
            }
        }
        for d in 0..9 {
            let g = [given[3 * d], given[3 * d + 1], given[3 * d + 2]];
            let columns = |a: u32| (a | a >> 9 | a >> 18) & 0x1ff;
            let (c0, c1, c2) = (columns(g[0]), columns(g[1]), columns(g[2]));
            if (c0 & c1) | (c2 & (c0 | c1)) != 0 {
                return None;
            }
            let taken_columns = (c0 | c1 | c2) * COLUMN;
            for (band, &g) in g.iter().enumerate() {
                let (r0, r1, r2) = (g & 0x1ff, g >> 9 & 0x1ff, g >> 18);
                let boxes = [g & BOX, g & BOX << 3, g & BOX << 6];
                if single(r0) != r0
                    || single(r1) != r1
                    || single(r2) != r2
                    || boxes.iter().any(|&x| single(x) != x)
                {
                    return None;
                }
                let rows = (((r0 + 0x1ff) >> 9) * 0x1ff)
                    | (((r1 + 0x1ff) >> 9) * (0x1ff << 9))
                    | (((r2 + 0x1ff) >> 9) * (0x1ff << 18));
                let boxes = (u32::from(boxes[0] != 0) * BOX)
                    | (u32::from(boxes[1] != 0) * (BOX << 3))
                    | (u32::from(boxes[2] != 0) * (BOX << 6));
                b.cand[3 * d + band] =
                    g | (BAND & !b.solved[band] & !rows & !boxes & !taken_columns);
            }
        }
        if let Some((cell, v)) = forbid {
            let (band, p) = (cell / 27, cell % 27);
            let i = 3 * (usize::from(v) - 1) + band;
            if b.solved[band] >> p & 1 == 1 {
                if b.cand[i] >> p & 1 == 1 {
                    return None;
                }
            } else {
                b.cand[i] &= !(1 << p);
            }
        }
        Some(b)
    }

    /// Keeps only `mask` of band `j`, noting whether it changed.
    #[inline(always)]
    fn keep(&mut self, j: usize, mask: u32) {
        let j = j & 31;
        let old = self.cand[j];
        let new = old & mask;
        self.cand[j] = new;
        self.dirty |= u32::from(old != new) << j;
    }

    /// Places digit `d` at cell `p` of band `b`, which must be a candidate.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, p: usize) {
        let bit = 1u32 << p;
        for e in 0..9 {
            self.keep(3 * e + b, !bit);
        }
        self.keep(3 * d + b, !PEERS[p]);
        self.cand[3 * d + b] |= bit;
        let column = !(COLUMN << (p % 9));
        let (b1, b2) = OTHERS[b];
        self.keep(3 * d + b1, column);
        self.keep(3 * d + b2, column);
        self.solved[b] |= bit;
    }

    /// Restricts digit `d` in band `b` to `cells` within their rows: cells
    /// that must hold `d` (naked and column singles), which the band's next
    /// examination places; false when two of them share a row or a box.
    #[inline(always)]
    fn force(&mut self, d: usize, b: usize, cells: u32) -> bool {
        let (r0, r1, r2) = (cells & 0x1ff, cells >> 9 & 0x1ff, cells >> 18);
        let crowded = single(r0) != r0
            || single(r1) != r1
            || single(r2) != r2
            || single(cells & BOX) != cells & BOX
            || single(cells & BOX << 3) != cells & BOX << 3
            || single(cells & BOX << 6) != cells & BOX << 6;
        if crowded {
            return false;
        }
        // 0x1ff where a row holds one of `cells`, 0 elsewhere.
        let rows = (((r0 + 0x1ff) >> 9) * 0x1ff)
            | (((r1 + 0x1ff) >> 9) * (0x1ff << 9))
            | (((r2 + 0x1ff) >> 9) * (0x1ff << 18));
        self.keep(3 * d + b, !(rows & !cells));
        true
    }

    /// Examines band `i` (`3d + b`): the permutation table, the column
    /// rule, and the placement of the cells alone in their row or box;
    /// false on a contradiction. After the table a cell alone in its row is
    /// alone in its box and the other way round, so placing it only clears
    /// it from the other digits and its column from the digit's other bands.
    #[inline(always)]
    fn update_band(&mut self, i: usize) -> bool {
        let (d, b) = (i / 3, i % 3);
        let a = self.cand[i];
        let occ = occupancy(a);
        let a = a & PERMITTED[occ];
        if a == 0 {
            return false;
        }
        let i = i & 31;
        self.cand[i] = a;
        self.occ[i] = PERMITTED_SEGMENTS[occ] & occ as u16;
        self.digits |= 1 << d;
        let singles = (single(a & 0x1ff) | single(a & 0x1ff << 9) | single(a & 0x1ff << 18))
            & !self.solved[b];
        let placed_columns = (singles | singles >> 9 | singles >> 18) & 0x1ff;
        let keep = OTHER_BANDS_KEEP[((a | a >> 9 | a >> 18) & 0x1ff) as usize]
            & !(placed_columns * COLUMN);
        // Most examinations leave the other bands whole: no stores then.
        if keep != BAND {
            let (j1, j2) = OTHER_INDEX[i];
            self.keep(usize::from(j1), keep);
            self.keep(usize::from(j2), keep);
        }
        if singles != 0 {
            for e in 0..9 {
                self.keep(3 * e + b, !singles);
            }
            self.cand[i] = a;
            self.dirty &= !(1 << i);
            self.solved[b] |= singles;
        }
        true
    }

    /// Examines digit `d`'s three bands together as [`Board::update_band`]
    /// examines one, repeated in registers until the three stop changing,
    /// then places the singles found; false on a contradiction. A new
    /// board's first examination places most of its cells, and there this
    /// is faster than a band at a time (each band's result no longer waits
    /// in memory for the next band's examination to read it); in the
    /// search, where a branch changes one band, it is slower.
    #[inline(always)]
    fn update_digit(&mut self, d: usize) -> bool {
        let base = 3 * d;
        let mut a = [self.cand[base], self.cand[base + 1], self.cand[base + 2]];
        let mut occ = [0u16; 3];
        let mut singles = [0u32; 3];
        loop {
            let mut keep = [BAND; 3];
            for b in 0..3 {
                let o = occupancy(a[b]);
                a[b] &= PERMITTED[o];
                occ[b] = PERMITTED_SEGMENTS[o] & o as u16;
            }
            if a[0] == 0 || a[1] == 0 || a[2] == 0 {
                return false;
            }
            for b in 0..3 {
                let x = a[b];
                let s = (single(x & 0x1ff) | single(x & 0x1ff << 9) | single(x & 0x1ff << 18))
                    & !self.solved[b];
                singles[b] = s;
                let placed = (s | s >> 9 | s >> 18) & 0x1ff;
                let k = OTHER_BANDS_KEEP[((x | x >> 9 | x >> 18) & 0x1ff) as usize]
                    & !(placed * COLUMN);
                let (b1, b2) = OTHERS[b];
                keep[b1] &= k;
                keep[b2] &= k;
            }
            let new = [a[0] & keep[0], a[1] & keep[1], a[2] & keep[2]];
            if new == a {
                break;
            }
            a = new;
        }
        for b in 0..3 {
            self.cand[(base + b) & 31] = a[b];
            self.occ[(base + b) & 31] = occ[b];
            let s = singles[b];
            if s != 0 {
                for e in 0..9 {
                    self.keep(3 * e + b, !s);
                }
                self.cand[(base + b) & 31] = a[b];
                self.solved[b] |= s;
            }
        }
        self.dirty &= !(7 << base);
        self.digits |= 1 << d;
        true
    }

    /// The first examination of a new board: digit by digit (see
    /// [`Board::update_digit`]); false on a contradiction.
    fn settle_digits(&mut self) -> bool {
        while self.dirty != 0 {
            let d = self.dirty.trailing_zeros() as usize / 3;
            self.dirty &= !(7 << (3 * d));
            if !self.update_digit(d) {
                return false;
            }
        }
        true
    }

    /// All deductions to a fixpoint; false on a contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            while self.dirty != 0 {
                let i = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                if !self.update_band(i) {
                    return false;
                }
            }
            if self.is_solved() {
                return true;
            }
            let mut digits = self.digits;
            self.digits = 0;
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                let fold = |a: u32| {
                    let (x, y, z) = (a & 0x1ff, a >> 9 & 0x1ff, a >> 18 & 0x1ff);
                    (x | y | z, (x & y) | (z & (x | y)))
                };
                let (c0, m0) = fold(self.cand[3 * d]);
                let (c1, m1) = fold(self.cand[3 * d + 1]);
                let (c2, m2) = fold(self.cand[3 * d + 2]);
                // The same permutation rule down each stack: its three
                // columns cross the three bands.
                let (mut k0, mut k1, mut k2) = (0u32, 0u32, 0u32);
                for sh in [0, 3, 6] {
                    let occ = (c0 >> sh & 7) | (c1 >> sh & 7) << 3 | (c2 >> sh & 7) << 6;
                    let allowed = u32::from(PERMITTED_SEGMENTS[occ as usize]);
                    if allowed == 0 {
                        return false;
                    }
                    k0 |= (allowed & 7) << sh;
                    k1 |= (allowed >> 3 & 7) << sh;
                    k2 |= (allowed >> 6) << sh;
                }
                self.keep(3 * d, k0 * COLUMN);
                self.keep(3 * d + 1, k1 * COLUMN);
                self.keep(3 * d + 2, k2 * COLUMN);
                let (c0, m0, c1, m1, c2, m2) =
                    (c0 & k0, m0 & k0, c1 & k1, m1 & k1, c2 & k2, m2 & k2);
                let once = c0 | c1 | c2;
                let twice = m0 | m1 | m2 | (c0 & c1) | (c2 & (c0 | c1));
                let alone = (once & !twice) * COLUMN;
                for b in 0..3 {
                    let cells = self.cand[3 * d + b] & alone & !self.solved[b];
                    if cells != 0 && !self.force(d, b, cells) {
                        return false;
                    }
                }
            }
            for b in 0..3 {
                let (mut once, mut twice) = (0u32, 0u32);
                for d in 0..9 {
                    let p = self.cand[3 * d + b];
                    twice |= once & p;
                    once |= p;
                }
                if once != BAND {
                    return false;
                }
                let singles = once & !twice & !self.solved[b];
                if singles != 0 {
                    for d in 0..9 {
                        let cells = singles & self.cand[3 * d + b];
                        if cells != 0 && !self.force(d, b, cells) {
                            return false;
                        }
                    }
                }
            }
            if self.dirty == 0 {
                if !self.triads() {
                    return false;
                }
                if self.dirty == 0 {
                    return true;
                }
            }
        }
    }

    /// Triads (tdoku's name for segments): a segment's three cells hold
    /// three digits, each of which then uses the segment in its band. When
    /// every permutation of three digits uses a segment, the other digits
    /// leave it; when only three digits can use a segment, each must (it
    /// keeps the permutations that do). Four digits bound to one segment,
    /// or fewer than three able to use it, is a dead end. Counted
    /// bit-sliced over the nine digits of a band, all nine segments at
    /// once; false on a contradiction.
    fn triads(&mut self) -> bool {
        for b in 0..3 {
            let mut occs = [0u32; 9];
            let mut musts = [0u32; 9];
            let (mut can1, mut can2, mut can3, mut can4) = (0u32, 0u32, 0u32, 0u32);
            let (mut must1, mut must2, mut must3, mut must4) = (0u32, 0u32, 0u32, 0u32);
            for d in 0..9 {
                let occ = usize::from(self.occ[(3 * d + b) & 31]);
                let (x, m) = (occ as u32, u32::from(MUST[occ]));
                occs[d] = x;
                musts[d] = m;
                can4 |= can3 & x;
                can3 |= can2 & x;
                can2 |= can1 & x;
                can1 |= x;
                must4 |= must3 & m;
                must3 |= must2 & m;
                must2 |= must1 & m;
                must1 |= m;
            }
            if must4 != 0 || can3 != 0x1ff {
                return false;
            }
            let taken = must3;
            let needed = can3 & !can4;
            if taken | needed == 0 {
                continue;
            }
            for d in 0..9 {
                let free = occs[d] & !musts[d];
                let leave = taken & free;
                if leave != 0 {
                    self.keep(3 * d + b, !SEGMENT_CELLS[leave as usize]);
                }
                let mut bound = needed & free;
                while bound != 0 {
                    let s = bound.trailing_zeros();
                    bound &= bound - 1;
                    let (r, k) = (s / 3, s % 3);
                    let segment = 0b111 << (9 * r + 3 * k);
                    let lines = 0x1ff << (9 * r) | BOX << (3 * k);
                    self.keep(3 * d + b, !(lines & !segment));
                }
            }
        }
        true
    }

    fn is_solved(&self) -> bool {
        self.solved == [BAND; 3]
    }

    /// A digit's band to branch on (`3d + b`), as tdoku's solver chooses
    /// one: in the band whose digits fit in the fewest permutations
    /// altogether, a digit with the fewest (two when there is one); `None`
    /// when every digit's band fits in one permutation.
    fn choose_band(&self) -> Option<usize> {
        let mut counts = [[0u8; 9]; 3];
        let mut best = (u32::MAX, 0);
        for (b, counts) in counts.iter_mut().enumerate() {
            let mut total = 0u32;
            for (d, n) in counts.iter_mut().enumerate() {
                *n = PERM_COUNT[usize::from(self.occ[(3 * d + b) & 31])];
                total += u32::from(*n);
            }
            if total > 9 && total < best.0 {
                best = (total, b);
            }
        }
        if best.0 == u32::MAX {
            return None;
        }
        let b = best.1;
        let mut fewest = (u8::MAX, 0);
        for (d, &n) in counts[b].iter().enumerate() {
            if n >= 2 && n < fewest.0 {
                fewest = (n, d);
            }
        }
        Some(3 * fewest.1 + b)
    }

    /// An open cell to branch on (band, cell of the band): the first with
    /// two candidates, else the first with the fewest. Every cell is open
    /// when called on a board that is not solved.
    fn choose(&self) -> (usize, usize) {
        for b in 0..3 {
            let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let p = self.cand[3 * d + b];
                thrice |= twice & p;
                twice |= once & p;
                once |= p;
            }
            let pairs = twice & !thrice & !self.solved[b];
            if pairs != 0 {
                return (b, pairs.trailing_zeros() as usize);
            }
        }
        let mut best = (u32::MAX, 0, 0);
        for b in 0..3 {
            let mut open = BAND & !self.solved[b];
            while open != 0 {
                let p = open.trailing_zeros() as usize;
                open &= open - 1;
                let k = (0..9)
                    .filter(|&d| self.cand[3 * d + b] >> p & 1 == 1)
                    .count() as u32;
                if k < best.0 {
                    best = (k, b, p);
                }
            }
        }
        (best.1, best.2)
    }

    /// The grid, digits 1..=9 (every cell placed).
    fn cells(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut rest = self.cand[3 * d + b];
                while rest != 0 {
                    out[27 * b + rest.trailing_zeros() as usize] = d as u8 + 1;
                    rest &= rest - 1;
                }
            }
        }
        out
    }
}

/// Searches the subtree of `b`, which it uses as scratch.
fn recurse<F>(b: &mut Board, visit: &mut F) -> ControlFlow<()>
where
    F: FnMut(&[u8; 81]) -> ControlFlow<()>,
{
    if !b.propagate() {
        return ControlFlow::Continue(());
    }
    if b.is_solved() {
        return visit(&b.cells());
    }
    if let Some(i) = b.choose_band() {
        let mut perms = PERMS_IN[usize::from(b.occ[i & 31])];
        while perms != 0 {
            let k = perms.trailing_zeros() as usize;
            perms &= perms - 1;
            if perms == 0 {
                b.keep(i, PERM_CELLS[k]);
                return recurse(b, visit);
            }
            let mut child = *b;
            child.keep(i, PERM_CELLS[k]);
            recurse(&mut child, visit)?;
        }
        return ControlFlow::Continue(());
    }
    let (band, p) = b.choose();
    let mut digits = 0u16;
    for d in 0..9 {
        digits |= ((b.cand[3 * d + band] >> p & 1) as u16) << d;
    }
    while digits != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        if digits == 0 {
            b.place(d, band, p);
            return recurse(b, visit);
        }
        let mut child = *b;
        child.place(d, band, p);
        recurse(&mut child, visit)?;
    }
    ControlFlow::Continue(())
}

/// Calls `visit` with every solution of the 9×9 grid `cells` (0 = empty,
/// 1..=9 a given) whose value at `forbid.0` is not `forbid.1`, in an order
/// of its own, until it breaks.
pub(super) fn search<F>(cells: &[u8], forbid: Option<(usize, u8)>, mut visit: F)
where
    F: FnMut(&[u8; 81]) -> ControlFlow<()>,
{
    debug_assert_eq!(cells.len(), 81);
    if let Some(mut b) = Board::new(cells, forbid) {
        if !b.settle_digits() {
            return;
        }
        let _ = recurse(&mut b, &mut visit);
    }
}

/// The number of solutions of the 9×9 grid `cells`, up to `cap` (0 = no
/// cap).
pub(super) fn count(cells: &[u8], cap: u64) -> u64 {
    let mut found = 0u64;
    search(cells, None, |_| crate::answers::tally(&mut found, cap));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit of row `r`, column `c` in a band.
    fn cell(r: u32, c: u32) -> u32 {
        1 << (9 * r + c)
    }

    #[test]
    fn a_full_band_permits_everything() {
        assert_eq!(occupancy(BAND), 0x1ff);
        assert_eq!(PERMITTED[0x1ff], BAND);
        // 247 of the 512 occupancies hold one of the six permutations
        // (counted by enumeration outside this crate).
        assert_eq!((0..512).filter(|&o| PERMITTED[o] != 0).count(), 247);
    }

    #[test]
    fn a_band_branches_into_its_permutations() {
        assert_eq!(PERM_COUNT[0x1ff], 6);
        assert_eq!(PERM_CELLS.iter().fold(0, |acc, c| acc | c), BAND);
        // The diagonal segments fit the identity alone.
        let diagonal = 0b111 | 0b111 << 12 | 0b111 << 24;
        assert_eq!(PERM_CELLS[0], diagonal);
        assert_eq!(PERM_COUNT[occupancy(diagonal)], 1);
        assert_eq!(PERMITTED[occupancy(diagonal | 1 << 3)], diagonal);
    }

    #[test]
    fn a_box_confined_to_one_row_takes_the_row_pointing() {
        // Box 0 keeps only row 1's segment: row 1 loses its other boxes.
        let a = BAND & !BOX | cell(1, 0) | cell(1, 2);
        let kept = a & PERMITTED[occupancy(a)];
        let row1_elsewhere = (3..9).fold(0, |acc, c| acc | cell(1, c));
        assert_eq!(kept, a & !row1_elsewhere);
    }

    #[test]
    fn a_row_confined_to_one_box_takes_the_box_claiming() {
        // Row 2 keeps only its cells in box 2: rows 0 and 1 lose box 2.
        let row2 = 0x1ff << 18;
        let a = BAND & !row2 | cell(2, 7);
        let kept = a & PERMITTED[occupancy(a)];
        assert_eq!(kept, a & !(BOX << 6) | cell(2, 7));
        assert_eq!(kept & BOX << 6, cell(2, 7));
    }

    #[test]
    fn two_boxes_in_one_row_is_a_dead_end() {
        // Boxes 0 and 1 both keep only row 0.
        let a = BAND & !(BOX | BOX << 3) | cell(0, 0) | cell(0, 4);
        assert_eq!(PERMITTED[occupancy(a)], 0);
    }

    #[test]
    fn three_columns_are_taken_from_the_other_bands() {
        let cols = 1 | 1 << 4 | 1 << 8;
        assert_eq!(
            OTHER_BANDS_KEEP[cols],
            BAND & !(COLUMN | COLUMN << 4 | COLUMN << 8)
        );
        assert_eq!(OTHER_BANDS_KEEP[cols | 2], BAND);
    }

    #[test]
    fn peers_in_a_band_are_row_box_and_column() {
        // The band's centre: row 1, column 4.
        let p = 9 + 4;
        // Eight in the row, six more in the box (the column's two are in
        // the box).
        assert_eq!(PEERS[p].count_ones(), 8 + 6);
        assert_eq!(PEERS[p] & (1 << p), 0);
        assert_eq!(
            PEERS[p] & (cell(0, 4) | cell(2, 3)),
            cell(0, 4) | cell(2, 3)
        );
        assert_eq!(PEERS[p] & (cell(0, 1) | cell(2, 8)), 0);
    }

    #[test]
    fn settling_a_digit_at_a_time_reaches_the_band_at_a_time_fixpoint() {
        // Grids emptied from a full one (every other cell, then sparser):
        // the first examination digit by digit and band by band end, after
        // the whole propagation, on the same candidates (the deductions
        // only remove candidates, so their fixpoint is one).
        let full: Vec<u8> = (0..81)
            .map(|i| {
                let (r, c) = (i / 9, i % 9);
                ((3 * (r % 3) + r / 3 + c) % 9 + 1) as u8
            })
            .collect();
        for step in [2, 3, 4, 5, 7] {
            let grid: Vec<u8> = (0..81)
                .map(|i| if i % step == 0 { full[i] } else { 0 })
                .collect();
            let mut by_bands = Board::new(&grid, None).unwrap();
            let mut by_digits = by_bands;
            assert!(by_digits.settle_digits());
            let (a, b) = (by_bands.propagate(), by_digits.propagate());
            assert_eq!(a, b, "step {step}");
            assert_eq!(by_bands.cand, by_digits.cand, "step {step}");
            assert_eq!(by_bands.solved, by_digits.solved, "step {step}");
        }
    }

    #[test]
    fn the_empty_grid_is_capped_and_a_full_grid_counts_once() {
        assert_eq!(count(&[0; 81], 50), 50);
        let full: Vec<u8> = (0..81)
            .map(|i| {
                let (r, c) = (i / 9, i % 9);
                ((3 * (r % 3) + r / 3 + c) % 9 + 1) as u8
            })
            .collect();
        assert_eq!(count(&full, 0), 1);
        let mut clash = full.clone();
        clash[1] = clash[0];
        assert_eq!(count(&clash, 0), 0);
        // Forbidding the given value leaves nothing; forbidding it in an
        // emptied cell leaves nothing either, the rest is forced.
        let mut one_open = full.clone();
        one_open[40] = 0;
        let mut n = 0;
        search(&one_open, Some((40, full[40])), |_| {
            n += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(n, 0);
        let mut got = None;
        search(&one_open, None, |g| {
            got = Some(*g);
            ControlFlow::Break(())
        });
        assert_eq!(got.map(|g| g.to_vec()), Some(full));
    }
}
