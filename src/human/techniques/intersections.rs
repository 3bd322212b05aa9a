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

/// The application of `t` for digit `d`, whose places `at` in unit `within`
/// all lie in unit `target`: `d` removed from the cells of `target` outside
/// `within`; `None` when there is nothing to remove.
fn removal(
    board: &Board,
    t: Technique,
    d: u8,
    within: usize,
    at: u32,
    target: usize,
) -> Option<Application> {
    let geo = board.geometry();
    let mut a = Application::new(t);
    for &c in &geo.units[target] {
        if !geo.cell_units[c].contains(&within) && board.cands(c) & (1 << d) != 0 {
            a.eliminations.push((c, d));
        }
    }
    if a.eliminations.is_empty() {
        return None;
    }
    a.units = vec![within, target];
    let cells = &geo.units[within];
    a.cells = digits(at).map(|i| cells[usize::from(i)]).collect();
    a.digits.push(d);
    Some(a)
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
                if let Some(a) = removal(board, Technique::Pointing, d, bunit, at, line) {
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
            if let Some(a) = removal(board, Technique::Claiming, d, line, at, bunit) {
                out.push(a);
            }
        }
    }
}
