//! Naked and hidden singles (Xu & Xu §2.1 c, Table 1; `docs/methods.md` §3),
//! the fast singles scan the simulated solvers use directly, and
//! [`propagate_singles`], the propagation forcing chains branch with.

use super::{Application, Found, Technique};
use crate::human::board::Board;
use crate::util::bits as digits;

/// Every naked or hidden single, as applications (the scan stops once a
/// first-only search has one).
pub(super) fn find(technique: Technique, board: &Board, out: &mut Found) {
    let mut add = |s: Single| {
        out.push(application(technique, s));
        !out.done()
    };
    match technique {
        Technique::NakedSingle => each_naked_single(board, &mut add),
        Technique::HiddenSingle => each_hidden_single(board, &mut add),
        t => unreachable!("{t} is not a single"),
    }
}

fn application(technique: Technique, single: Single) -> Application {
    let mut a = Application::new(technique);
    a.placements.push((single.cell, single.digit));
    a.cells.push(single.cell);
    a.digits.push(single.digit);
    if let Some(u) = single.unit {
        a.units.push(u);
    }
    a
}

/// Possible applications ([`super::possible_count`]):
/// * naked single: empty cells;
/// * hidden single: (unit, digit) pairs whose digit is not yet placed.
pub(super) fn possible_count(technique: Technique, board: &Board) -> usize {
    let geo = board.geometry();
    match technique {
        Technique::NakedSingle => board.empty_count(),
        Technique::HiddenSingle => (0..geo.units.len())
            .map(|u| (geo.all_digits() & !board.placed_in_unit(u)).count_ones() as usize)
            .sum(),
        t => unreachable!("{t} is not a single"),
    }
}

/// A single found by the fast singles scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Single {
    /// Cell to fill (0-based row-major index).
    pub cell: usize,
    /// Digit to place there, `1..=N`.
    pub digit: u8,
    /// `None` for a naked single, the unit for a hidden single.
    pub unit: Option<usize>,
}

/// Appends every naked single (empty cell with one candidate).
pub(crate) fn naked_singles(board: &Board, out: &mut Vec<Single>) {
    each_naked_single(board, &mut |s| {
        out.push(s);
        true
    });
}

/// Appends every hidden single: a (unit, digit) with exactly one place.
pub(crate) fn hidden_singles(board: &Board, out: &mut Vec<Single>) {
    each_hidden_single(board, &mut |s| {
        out.push(s);
        true
    });
}

/// Calls `f` with each naked single, in cell order, while it returns true.
fn each_naked_single(board: &Board, f: &mut impl FnMut(Single) -> bool) {
    for (cell, &c) in board.all_cands().iter().enumerate() {
        if c != 0
            && c & (c - 1) == 0
            && !f(Single {
                cell,
                digit: c.trailing_zeros() as u8,
                unit: None,
            })
        {
            return;
        }
    }
}

/// The cells of the 27 units of a 9×9 grid, in [`crate::grid::Geometry`]'s
/// order (rows, columns, boxes; each unit's cells ascending).
const UNITS9: [[u8; 9]; 27] = {
    let mut units = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut k = 0;
        while k < 9 {
            units[i][k] = (9 * i + k) as u8;
            units[9 + i][k] = (9 * k + i) as u8;
            units[18 + i][k] = (27 * (i / 3) + 3 * (i % 3) + 9 * (k / 3) + k % 3) as u8;
            k += 1;
        }
        i += 1;
    }
    units
};

/// For each unit of a 9×9 grid (in [`UNITS9`]'s order), the digits with
/// exactly one candidate cell in it, counted seen-once and seen-twice: the
/// rows one at a time, the nine columns side by side (one lane each, which
/// the compiler vectorises) and the boxes band by band, each with
/// accumulators that stay in registers.
#[inline]
fn unit_singles9(cands: &[u32; 81]) -> [u32; 27] {
    let mut single = [0u32; 27];
    let (mut col1, mut col2) = ([0u32; 9], [0u32; 9]);
    for r in 0..9 {
        let row: &[u32; 9] = cands[9 * r..9 * r + 9].try_into().expect("nine cells");
        let (mut once, mut twice) = (0u32, 0u32);
        for c in 0..9 {
            twice |= once & row[c];
            once |= row[c];
            col2[c] |= col1[c] & row[c];
            col1[c] |= row[c];
        }
        single[r] = once & !twice;
    }
    for c in 0..9 {
        single[9 + c] = col1[c] & !col2[c];
    }
    for band in 0..3 {
        let (mut box1, mut box2) = ([0u32; 3], [0u32; 3]);
        for r in 3 * band..3 * band + 3 {
            for c in 0..9 {
                let m = cands[9 * r + c];
                box2[c / 3] |= box1[c / 3] & m;
                box1[c / 3] |= m;
            }
        }
        for j in 0..3 {
            single[18 + 3 * band + j] = box1[j] & !box2[j];
        }
    }
    single
}

/// Calls `f` with each hidden single, unit by unit, while it returns true.
fn each_hidden_single(board: &Board, f: &mut impl FnMut(Single) -> bool) {
    if let Ok(cands) = <&[u32; 81]>::try_from(board.all_cands()) {
        let singles = unit_singles9(cands);
        for (u, &single) in singles.iter().enumerate() {
            if single == 0 {
                continue;
            }
            for &c in &UNITS9[u] {
                let c = usize::from(c);
                for d in digits(cands[c] & single) {
                    let s = Single {
                        cell: c,
                        digit: d,
                        unit: Some(u),
                    };
                    if !f(s) {
                        return;
                    }
                }
            }
        }
        return;
    }
    each_hidden_single_any_order(board, f);
}

/// [`each_hidden_single`] for a grid of any order, through the geometry's
/// unit lists.
fn each_hidden_single_any_order(board: &Board, f: &mut impl FnMut(Single) -> bool) {
    let geo = board.geometry();
    for (u, cells) in geo.units.iter().enumerate() {
        let mut once = 0u32;
        let mut twice = 0u32;
        for &c in cells {
            let m = board.cands(c);
            twice |= once & m;
            once |= m;
        }
        let single = once & !twice;
        if single == 0 {
            continue;
        }
        for &c in cells {
            let hit = board.cands(c) & single;
            for d in digits(hit) {
                if !f(Single {
                    cell: c,
                    digit: d,
                    unit: Some(u),
                }) {
                    return;
                }
            }
        }
    }
}

/// Fills naked and hidden singles until none is left or the board shows a
/// contradiction; false on contradiction.
pub(crate) fn propagate_singles(board: &mut Board) -> bool {
    let mut buf = Vec::new();
    loop {
        if board.contradiction() {
            return false;
        }
        buf.clear();
        naked_singles(board, &mut buf);
        hidden_singles(board, &mut buf);
        if buf.is_empty() {
            return true;
        }
        for s in &buf {
            if board.value(s.cell) == 0 {
                if board.cands(s.cell) & (1 << s.digit) == 0 {
                    return false;
                }
                board.place(s.cell, s.digit);
            } else if board.value(s.cell) != s.digit {
                return false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Geometry, Puzzle};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn collect(board: &Board, fast: bool) -> Vec<Single> {
        let mut out = Vec::new();
        let mut push = |s| {
            out.push(s);
            true
        };
        if fast {
            each_hidden_single(board, &mut push);
        } else {
            each_hidden_single_any_order(board, &mut push);
        }
        out
    }

    #[test]
    fn the_9x9_unit_table_matches_the_geometry() {
        let geo = Geometry::of(3);
        for (u, cells) in geo.units.iter().enumerate() {
            let fast: Vec<usize> = UNITS9[u].iter().map(|&c| usize::from(c)).collect();
            assert_eq!(&fast, cells, "unit {u}");
        }
    }

    /// The 9×9 scan lists the same singles in the same order as the scan of
    /// any order, on the boards met while filling an empty grid with random
    /// candidates (right or wrong), down to a dead end.
    #[test]
    fn the_9x9_scan_lists_what_the_any_order_scan_lists() {
        let mut rng = ChaCha8Rng::seed_from_u64(27);
        let mut compared = 0;
        let mut with_singles = 0;
        for _ in 0..300 {
            let mut b = Board::new(&Puzzle::empty(3));
            while !b.is_solved() {
                let fast = collect(&b, true);
                assert_eq!(fast, collect(&b, false), "{b:?}");
                compared += 1;
                with_singles += usize::from(!fast.is_empty());
                let open: Vec<usize> = (0..81).filter(|&c| b.value(c) == 0).collect();
                let cell = open[rng.gen_range(0..open.len())];
                let ds: Vec<u8> = digits(b.cands(cell)).collect();
                if ds.is_empty() {
                    break;
                }
                b.place(cell, ds[rng.gen_range(0..ds.len())]);
            }
        }
        assert!(
            compared > 10_000 && with_singles > 1_000,
            "{compared} {with_singles}"
        );
    }
}
