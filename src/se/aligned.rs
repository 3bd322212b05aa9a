//! Aligned Pair Exclusion (6.2) and Aligned Triplet Exclusion (7.5), as
//! Sudoku Explainer 1.2.1.3 defines and rates them (classes
//! `AlignedPairExclusion`, `AlignedExclusion` and `AlignedExclusionHint`
//! of `diuf/sudoku/solver/rules/`); our own implementation of that
//! definition.
//!
//! An aligned set is two or three "base" cells. Every combination of one
//! candidate per base cell is tried; a combination is impossible when two
//! base cells that share a unit take the same digit, or when it uses up
//! every candidate of an "excluding" cell that sees all base cells (that
//! cell would be left empty). A candidate of a base cell that no possible
//! combination uses is removed.
//!
//! SE's restrictions, which decide both what is found and which hint comes
//! first (SE applies the first hint its scan emits):
//!
//! * a base cell has two or more candidates, at least one excluding cell
//!   among its peers, and no peer with a single candidate;
//! * the excluding cells are the peers with exactly two candidates (pair)
//!   or with two or three (triplet), and a set needs at least two excluding
//!   cells common to all its base cells;
//! * base cells are listed in row-major order and the first two are taken
//!   as pairs in colexicographic order of that list ((0,1), (0,2), (1,2),
//!   (0,3), …); a triplet's third cell is an excluding cell of the first
//!   or the second that is itself a base cell, in the order of SE's house
//!   cells (box, then row, then column, each in cell order) of the first
//!   cell and then of the second.
//!
//! The pair producer is the last of SE's indirect producers (after the
//! bivalue universal grave); the triplet producer sits among its chaining
//! producers, after the first (cycles and forcing X- and Y-chains) and
//! before Nishio. SE's grids are 9×9; this module works on any size.

use super::SeRule;
use crate::human::board::Board;
use crate::util::bits as digits;
use std::collections::HashSet;
use std::ops::ControlFlow;

/// The size of an aligned set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Degree {
    /// Two base cells (Aligned Pair Exclusion, 6.2).
    Pair,
    /// Three base cells (Aligned Triplet Exclusion, 7.5).
    Triplet,
}

impl Degree {
    /// The number of base cells, which is also the most candidates an
    /// excluding cell may have.
    fn cells(self) -> usize {
        match self {
            Degree::Pair => 2,
            Degree::Triplet => 3,
        }
    }

    /// The rule of SE's table.
    pub(crate) fn rule(self) -> SeRule {
        match self {
            Degree::Pair => SeRule::AlignedPairExclusion,
            Degree::Triplet => SeRule::AlignedTripletExclusion,
        }
    }
}

/// One aligned exclusion: its base cells and what it removes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AlignedExclusion {
    /// The base cells, in SE's order (its first two cells, then the third).
    pub cells: Vec<usize>,
    /// Each base cell that loses candidates, with the mask it loses.
    pub removals: Vec<(usize, u32)>,
}

impl AlignedExclusion {
    /// Removes the candidates from `board`.
    #[cfg(test)]
    pub(crate) fn apply(&self, board: &mut Board) {
        for &(cell, mask) in &self.removals {
            for d in digits(mask) {
                board.eliminate(cell, d);
            }
        }
    }

    /// True when it removes a value of `solution` (cell values,
    /// row-major).
    #[cfg(test)]
    pub(crate) fn contradicts(&self, solution: &[u8]) -> bool {
        self.removals
            .iter()
            .any(|&(cell, mask)| mask & (1 << solution[cell]) != 0)
    }
}

/// The base cells SE considers for `degree` and their excluding cells.
struct Bases {
    /// The base cells, row-major.
    list: Vec<usize>,
    /// Per cell: whether it is a base cell.
    is_base: Vec<bool>,
    /// Per base cell: its excluding cells, ascending.
    sorted: Vec<Vec<usize>>,
    /// Per base cell: its excluding cells in SE's house order.
    house_order: Vec<Vec<usize>>,
}

impl Bases {
    fn new(board: &Board, degree: Degree) -> Bases {
        let geo = board.geometry();
        let max = degree.cells() as u32;
        let count = |c: usize| board.cands(c).count_ones();
        let mut bases = Bases {
            list: Vec::new(),
            is_base: vec![false; geo.cells],
            sorted: vec![Vec::new(); geo.cells],
            house_order: vec![Vec::new(); geo.cells],
        };
        for cell in 0..geo.cells {
            if count(cell) < 2 {
                continue;
            }
            let peers = &geo.peers[cell];
            // SE skips a cell one of whose peers is a naked single.
            if peers.iter().any(|&p| count(p) == 1) {
                continue;
            }
            let excluding: Vec<usize> = peers
                .iter()
                .copied()
                .filter(|&p| (2..=max).contains(&count(p)))
                .collect();
            if excluding.is_empty() {
                continue;
            }
            bases.house_order[cell] = house_order(board, cell)
                .filter(|&p| (2..=max).contains(&count(p)))
                .collect();
            bases.sorted[cell] = excluding;
            bases.is_base[cell] = true;
            bases.list.push(cell);
        }
        bases
    }
}

/// The peers of `cell` in SE's house order: its box, row and column, each
/// in cell order, each cell once.
fn house_order(board: &Board, cell: usize) -> impl Iterator<Item = usize> + '_ {
    let geo = board.geometry();
    let [row, col, bx] = geo.cell_units[cell];
    let in_box = move |c: usize| geo.cell_units[c][2] == bx;
    let in_row = move |c: usize| geo.cell_units[c][0] == row;
    let box_cells = geo.units[bx].iter().copied();
    let row_cells = geo.units[row].iter().copied().filter(move |&c| !in_box(c));
    let col_cells = geo.units[col]
        .iter()
        .copied()
        .filter(move |&c| !in_box(c) && !in_row(c));
    box_cells
        .chain(row_cells)
        .chain(col_cells)
        .filter(move |&c| c != cell)
}

/// The elements of both ascending lists, ascending.
fn intersect(a: &[usize], b: &[usize], out: &mut Vec<usize>) {
    out.clear();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
}

/// Whether two cells share a unit.
fn see(board: &Board, a: usize, b: usize) -> bool {
    let units = &board.geometry().cell_units;
    units[a].iter().zip(&units[b]).any(|(x, y)| x == y)
}

/// The exclusion of the base `cells` (two or three) with the common
/// excluding cells `excluding`, if it removes something.
fn exclusion(board: &Board, cells: &[usize], excluding: &[usize]) -> Option<AlignedExclusion> {
    // Each excluding cell forbids the combinations that cover its
    // candidates.
    let locks: Vec<u32> = excluding.iter().map(|&e| board.cands(e)).collect();
    let mut cands = [0u32; 3];
    for (slot, &c) in cands.iter_mut().zip(cells) {
        *slot = board.cands(c);
    }
    // A pair gets a third position with one dummy choice (bit 0, never a
    // digit), which no rule forbids.
    let third = cells.len() == 3;
    if !third {
        cands[2] = 1;
    }
    let see01 = see(board, cells[0], cells[1]);
    let (see02, see12) = if third {
        (
            see(board, cells[0], cells[2]),
            see(board, cells[1], cells[2]),
        )
    } else {
        (false, false)
    };
    let mut allowed = [0u32; 3];
    'combos: for d0 in digits(cands[0]) {
        for d1 in digits(cands[1]) {
            if d0 == d1 && see01 {
                continue;
            }
            for d2 in digits(cands[2]) {
                if third && ((d2 == d0 && see02) || (d2 == d1 && see12)) {
                    continue;
                }
                let used = (1u32 << d0) | (1 << d1) | (1 << d2);
                if locks.iter().any(|&m| m & !used == 0) {
                    continue;
                }
                allowed[0] |= 1 << d0;
                allowed[1] |= 1 << d1;
                allowed[2] |= 1 << d2;
                if allowed == cands {
                    break 'combos;
                }
            }
        }
    }
    let removals: Vec<(usize, u32)> = cells
        .iter()
        .zip(cands.iter().zip(&allowed))
        .map(|(&c, (&have, &keep))| (c, have & !keep))
        .filter(|&(_, removed)| removed != 0)
        .collect();
    (!removals.is_empty()).then(|| AlignedExclusion {
        cells: cells.to_vec(),
        removals,
    })
}

/// Hands the aligned exclusions of `degree` on `board` to `visit` in SE's
/// order until it breaks. A triplet met again in another order (SE meets
/// each up to three times) is skipped: it concludes the same.
fn scan(board: &Board, degree: Degree, mut visit: impl FnMut(AlignedExclusion) -> ControlFlow<()>) {
    let bases = Bases::new(board, degree);
    let n = bases.list.len();
    if n < degree.cells() {
        return;
    }
    let mut common = Vec::new();
    let mut common3 = Vec::new();
    let mut seen_triplets = HashSet::new();
    let mut tail = Vec::new();
    for j in 1..n {
        for i in 0..j {
            let (c0, c1) = (bases.list[i], bases.list[j]);
            intersect(&bases.sorted[c0], &bases.sorted[c1], &mut common);
            // Every set needs two excluding cells common to all its cells.
            if common.len() < 2 {
                continue;
            }
            if degree == Degree::Pair {
                if let Some(x) = exclusion(board, &[c0, c1], &common)
                    && visit(x).is_break()
                {
                    return;
                }
                continue;
            }
            tail.clear();
            for &t in bases.house_order[c0].iter().chain(&bases.house_order[c1]) {
                if bases.is_base[t] && t != c0 && t != c1 && !tail.contains(&t) {
                    tail.push(t);
                }
            }
            for &c2 in &tail {
                intersect(&common, &bases.sorted[c2], &mut common3);
                if common3.len() < 2 {
                    continue;
                }
                let mut key = [c0, c1, c2];
                key.sort_unstable();
                if !seen_triplets.insert(key) {
                    continue;
                }
                if let Some(x) = exclusion(board, &[c0, c1, c2], &common3)
                    && visit(x).is_break()
                {
                    return;
                }
            }
        }
    }
}

/// SE's first aligned exclusion of `degree` on `board` (the hint its
/// solver applies).
pub(crate) fn first(board: &Board, degree: Degree) -> Option<AlignedExclusion> {
    let mut found = None;
    scan(board, degree, |x| {
        found = Some(x);
        ControlFlow::Break(())
    });
    found
}

/// Every aligned exclusion of `degree` on `board`, in SE's order (each
/// set of base cells once).
#[cfg(test)]
pub(crate) fn all(board: &Board, degree: Degree) -> Vec<AlignedExclusion> {
    let mut out = Vec::new();
    scan(board, degree, |x| {
        out.push(x);
        ControlFlow::Continue(())
    });
    out
}
