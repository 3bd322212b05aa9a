//! Intersection removal: pointing and claiming (box-line reduction), from
//! the catalogue of Xu & Xu (§2.1 c, Table 1; `docs/methods.md` §3).
//!
//! Where the literature varies: pointing and claiming need at least two
//! places in the intersection.

use super::{Application, Found, Technique};
use crate::human::board::Board;
use crate::util::bits as digits;

/// Every pointing or claiming application.
pub(super) fn find(technique: Technique, board: &Board, out: &mut Found) {
    match technique {
        Technique::Pointing => pointing(board, out),
        Technique::Claiming => claiming(board, out),
        t => unreachable!("{t} is not an intersection removal"),
    }
}

/// Possible applications ([`super::possible_count`]): for pointing and
/// claiming alike, (box, line, digit) with the digit a candidate in the
/// box-line intersection.
pub(super) fn possible_count(technique: Technique, board: &Board) -> usize {
    let geo = board.geometry();
    match technique {
        Technique::Pointing | Technique::Claiming => {
            let side = geo.side;
            let mut count = 0;
            for b in 0..side {
                let bunit = 2 * side + b;
                for line in 0..2 * side {
                    let inter: u32 = geo.units[bunit]
                        .iter()
                        .filter(|&&c| geo.cell_units[c][(line / side).min(1)] == line)
                        .fold(0, |m, &c| m | board.cands(c));
                    count += inter.count_ones() as usize;
                }
            }
            count
        }
        t => unreachable!("{t} is not an intersection removal"),
    }
}

/// The cells of `unit` at the places `mask`.
fn at_places(board: &Board, unit: usize, mask: u32) -> Vec<usize> {
    let cells = &board.geometry().units[unit];
    digits(mask).map(|i| cells[usize::from(i)]).collect()
}

/// Pointing: a digit's places in a box all lie on one line, so the rest of
/// that line loses the digit.
fn pointing(board: &Board, out: &mut Found) {
    let geo = board.geometry();
    let (n, side) = (geo.n, geo.side);
    // A box lists its cells row by row: place `i` is on the box's row
    // `i / n` and column `i % n`.
    let row = |r: usize| ((1u32 << n) - 1) << (r * n);
    let col = |c: usize| (0..n).fold(0u32, |m, r| m | 1 << (r * n + c));
    let mut places = vec![0u32; side + 1];
    for b in 0..side {
        if out.done() {
            return;
        }
        let bunit = 2 * side + b;
        board.unit_places(bunit, &mut places);
        for d in digits(geo.all_digits()) {
            let at = places[d as usize];
            if at & at.wrapping_sub(1) == 0 {
                continue;
            }
            let first = at.trailing_zeros() as usize;
            let lines = [row(first / n), col(first % n)];
            for (kind, line_places) in lines.into_iter().enumerate() {
                if at & !line_places != 0 {
                    continue;
                }
                let line = geo.cell_units[geo.units[bunit][first]][kind];
                let mut a = Application::new(Technique::Pointing);
                for &c in &geo.units[line] {
                    if geo.cell_units[c][2] != bunit && board.cands(c) & (1 << d) != 0 {
                        a.eliminations.push((c, d));
                    }
                }
                if !a.eliminations.is_empty() {
                    a.units = vec![bunit, line];
                    a.cells = at_places(board, bunit, at);
                    a.digits.push(d);
                    out.push(a);
                }
            }
        }
    }
}

/// Claiming (box-line reduction): a digit's places in a row or column all lie
/// in one box, so the rest of that box loses the digit.
fn claiming(board: &Board, out: &mut Found) {
    let geo = board.geometry();
    let (n, side) = (geo.n, geo.side);
    // A line lists its cells in order: places `n·k .. n·k + n` are in one box.
    let segment = |k: usize| ((1u32 << n) - 1) << (k * n);
    let mut places = vec![0u32; side + 1];
    for line in 0..2 * side {
        if out.done() {
            return;
        }
        let kind = line / side;
        board.unit_places(line, &mut places);
        for d in digits(geo.all_digits()) {
            let at = places[d as usize];
            if at & at.wrapping_sub(1) == 0 {
                continue;
            }
            let first = at.trailing_zeros() as usize;
            if at & !segment(first / n) != 0 {
                continue;
            }
            let bunit = geo.cell_units[geo.units[line][first]][2];
            let mut a = Application::new(Technique::Claiming);
            for &c in &geo.units[bunit] {
                if geo.cell_units[c][kind] != line && board.cands(c) & (1 << d) != 0 {
                    a.eliminations.push((c, d));
                }
            }
            if !a.eliminations.is_empty() {
                a.units = vec![line, bunit];
                a.cells = at_places(board, line, at);
                a.digits.push(d);
                out.push(a);
            }
        }
    }
}
