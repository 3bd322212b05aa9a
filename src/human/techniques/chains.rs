//! Forcing chains, the last technique of the catalogue of Xu & Xu (§2.1 c,
//! Table 1; `docs/methods.md` §3).
//!
//! Where the literature varies: a forcing chain starts from a bivalue cell or
//! a digit with two places in a unit, propagates each branch with naked and
//! hidden singles only ([`propagate_singles`]), and concludes what both
//! branches agree on (or the other branch when one reaches a contradiction).

use super::singles::propagate_singles;
use super::{Application, Found, Technique};
use crate::human::board::Board;
use crate::util::bits as digits;

/// Every forcing-chain application.
pub(super) fn find(technique: Technique, board: &Board, out: &mut Found) {
    match technique {
        Technique::ForcingChain => forcing_chains(board, out),
        t => unreachable!("{t} is not a forcing chain"),
    }
}

/// Possible applications ([`super::possible_count`]): chain sources (bivalue
/// cells and digits with two places in a unit).
pub(super) fn possible_count(technique: Technique, board: &Board) -> usize {
    match technique {
        Technique::ForcingChain => chain_sources(board).len(),
        t => unreachable!("{t} is not a forcing chain"),
    }
}

/// A forcing-chain source: two alternatives, one of which must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// A bivalue cell: `cell` is `a` or `b`.
    Cell {
        /// The cell.
        cell: usize,
        /// Its lower candidate.
        a: u8,
        /// Its higher candidate.
        b: u8,
    },
    /// Digit `d` has exactly two places in `unit`.
    Unit {
        /// The unit (geometry index).
        unit: usize,
        /// The digit.
        d: u8,
        /// Its first place.
        a: usize,
        /// Its second place.
        b: usize,
    },
}

impl Source {
    /// The two alternatives as `(cell, digit)` placements, first and second.
    pub(crate) fn alternatives(self) -> [(usize, u8); 2] {
        match self {
            Source::Cell { cell, a, b } => [(cell, a), (cell, b)],
            Source::Unit { d, a, b, .. } => [(a, d), (b, d)],
        }
    }
}

/// The chain sources of `board`, in the order the finder tries them:
/// bivalue cells by cell, then two-place digits by unit and digit.
pub(crate) fn chain_sources(board: &Board) -> Vec<Source> {
    let geo = board.geometry();
    let mut out = Vec::new();
    for cell in 0..geo.cells {
        let c = board.cands(cell);
        if c.count_ones() == 2 {
            out.push(Source::Cell {
                cell,
                a: c.trailing_zeros() as u8,
                b: (31 - c.leading_zeros()) as u8,
            });
        }
    }
    for (u, cells) in geo.units.iter().enumerate() {
        for d in digits(geo.all_digits()) {
            let p = board.places(u, d);
            if p.count_ones() == 2 {
                out.push(Source::Unit {
                    unit: u,
                    d,
                    a: cells[p.trailing_zeros() as usize],
                    b: cells[(31 - p.leading_zeros()) as usize],
                });
            }
        }
    }
    out
}

/// Puts the applications of the chain sources into `out`, in source order.
fn forcing_chains(board: &Board, out: &mut Found) {
    let geo = board.geometry();
    for src in chain_sources(board) {
        if out.done() {
            return;
        }
        let [first, second] = src.alternatives();
        let branch = |(cell, d): (usize, u8)| {
            let mut b = board.clone();
            b.place(cell, d);
            if propagate_singles(&mut b) {
                Some(b)
            } else {
                None
            }
        };
        let mut a = Application::new(Technique::ForcingChain);
        match (branch(first), branch(second)) {
            (None, None) => continue,
            (None, Some(_)) => {
                a.placements.push(second);
                a.note = Some(format!(
                    "{} = {} leads to a contradiction",
                    geo.cell_name(first.0),
                    first.1
                ));
            }
            (Some(_), None) => {
                a.placements.push(first);
                a.note = Some(format!(
                    "{} = {} leads to a contradiction",
                    geo.cell_name(second.0),
                    second.1
                ));
            }
            (Some(b1), Some(b2)) => {
                a.note = Some("both branches agree".into());
                for cell in 0..geo.cells {
                    let orig = board.cands(cell);
                    if orig == 0 {
                        continue;
                    }
                    let set = |b: &Board| {
                        if b.value(cell) != 0 {
                            1u32 << b.value(cell)
                        } else {
                            b.cands(cell)
                        }
                    };
                    let union = set(&b1) | set(&b2);
                    // After propagation a cell with one candidate is filled,
                    // so a one-digit union means both branches placed it.
                    if union.count_ones() == 1 {
                        a.placements.push((cell, union.trailing_zeros() as u8));
                    } else {
                        for d in digits(orig & !union) {
                            a.eliminations.push((cell, d));
                        }
                    }
                }
            }
        }
        if a.placements.is_empty() && a.eliminations.is_empty() {
            continue;
        }
        match src {
            Source::Cell { cell, a: x, b: y } => {
                a.cells.push(cell);
                a.digits = vec![x, y];
            }
            Source::Unit {
                unit,
                d,
                a: p,
                b: q,
            } => {
                a.units.push(unit);
                a.cells = vec![p, q];
                a.digits.push(d);
            }
        }
        out.push(a);
    }
}
