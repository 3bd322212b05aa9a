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
pub struct Single {
    /// Cell to fill (0-based row-major index).
    pub cell: usize,
    /// Digit to place there, `1..=N`.
    pub digit: u8,
    /// `None` for a naked single, the unit for a hidden single.
    pub unit: Option<usize>,
}

/// Appends every naked single (empty cell with one candidate).
pub fn naked_singles(board: &Board, out: &mut Vec<Single>) {
    each_naked_single(board, &mut |s| {
        out.push(s);
        true
    });
}

/// Appends every hidden single: a (unit, digit) with exactly one place.
pub fn hidden_singles(board: &Board, out: &mut Vec<Single>) {
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

/// Calls `f` with each hidden single, unit by unit, while it returns true.
fn each_hidden_single(board: &Board, f: &mut impl FnMut(Single) -> bool) {
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
pub fn propagate_singles(board: &mut Board) -> bool {
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
