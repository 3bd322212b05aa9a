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

/// Pointing: a digit's places in a box all lie on one line, so the rest of
/// that line loses the digit.
fn pointing(board: &Board, out: &mut Found) {
    let geo = board.geometry();
    let side = geo.side;
    let mut cells = Vec::with_capacity(side);
    for b in 0..side {
        if out.done() {
            return;
        }
        let bunit = 2 * side + b;
        for d in digits(geo.all_digits()) {
            cells.clear();
            cells.extend(
                geo.units[bunit]
                    .iter()
                    .copied()
                    .filter(|&c| board.cands(c) & (1 << d) != 0),
            );
            if cells.len() < 2 {
                continue;
            }
            for kind in 0..2 {
                let line = geo.cell_units[cells[0]][kind];
                if cells.iter().all(|&c| geo.cell_units[c][kind] == line) {
                    let mut a = Application::new(Technique::Pointing);
                    for &c in &geo.units[line] {
                        if geo.cell_units[c][2] != bunit && board.cands(c) & (1 << d) != 0 {
                            a.eliminations.push((c, d));
                        }
                    }
                    if !a.eliminations.is_empty() {
                        a.units = vec![bunit, line];
                        a.cells = cells.clone();
                        a.digits.push(d);
                        out.push(a);
                    }
                }
            }
        }
    }
}

/// Claiming (box-line reduction): a digit's places in a row or column all lie
/// in one box, so the rest of that box loses the digit.
fn claiming(board: &Board, out: &mut Found) {
    let geo = board.geometry();
    let side = geo.side;
    let mut cells = Vec::with_capacity(side);
    for line in 0..2 * side {
        if out.done() {
            return;
        }
        let kind = line / side;
        for d in digits(geo.all_digits()) {
            cells.clear();
            cells.extend(
                geo.units[line]
                    .iter()
                    .copied()
                    .filter(|&c| board.cands(c) & (1 << d) != 0),
            );
            if cells.len() < 2 {
                continue;
            }
            let bunit = geo.cell_units[cells[0]][2];
            if cells.iter().all(|&c| geo.cell_units[c][2] == bunit) {
                let mut a = Application::new(Technique::Claiming);
                for &c in &geo.units[bunit] {
                    if geo.cell_units[c][kind] != line && board.cands(c) & (1 << d) != 0 {
                        a.eliminations.push((c, d));
                    }
                }
                if !a.eliminations.is_empty() {
                    a.units = vec![line, bunit];
                    a.cells = cells.clone();
                    a.digits.push(d);
                    out.push(a);
                }
            }
        }
    }
}
