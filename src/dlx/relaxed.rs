//! A relaxed Sudoku (Pelánek, "Difficulty Rating of Sudoku Puzzles", §3.2)
//! as exact cover, exactly as `docs/methods.md` §2.7 formulates it.
//!
//! A relaxation removes edges from the Sudoku graph; what remains is an
//! `N`-colouring problem: every cell takes one colour, the two ends of each
//! remaining edge differ, the givens keep their value. As exact cover
//! (Knuth, "Dancing Links", 2000, with secondary columns):
//! * one **primary** column per cell: the cell gets exactly one colour;
//! * one **secondary** column (at most once) per digit of each *intact* unit
//!   (a row, column or box that lost none of its edges): the `N` cells of the
//!   unit are pairwise adjacent, so a digit is used at most once in it;
//! * one secondary column per digit of every remaining edge that lies in no
//!   intact unit: its two ends do not both take that digit;
//! * one row per (cell, allowed colour) ([`RelaxedInstance::allowed`]; a
//!   given only has its value), covering the cell's column and, for its
//!   digit, the secondary columns of the intact units and of the remaining
//!   edges the cell belongs to.
//!
//! A removed edge has no column: its ends may share a digit.
//!
//! The **fixed cells** are the non-given cells with the same value in every
//! solution (the backbone restricted to cells). When the enumeration ends
//! below the cap they are read off it (the per-cell OR of the values seen);
//! otherwise a filtering search follows: for each cell that has shown a
//! single value so far, look for one solution avoiding that value (the row
//! is forbidden with [`ExactCover::forbid`]); every solution found prunes the
//! candidates; a cell with no such solution is fixed.
//!
//! [`RelaxedDlx`] keeps the structure of one instance for several searches;
//! [`count`], [`analyze`] and [`solutions`] build one for a single question.

use super::cover::ExactCover;
use crate::answers::{Count, InstanceAnalysis};
use crate::graph::RelaxedInstance;

/// The exact cover problem of one relaxed instance, reusable across searches.
#[derive(Debug, Clone)]
pub(crate) struct RelaxedDlx {
    side: usize,
    cover: ExactCover,
    /// Per row: its cell and value.
    row_cell: Vec<usize>,
    row_value: Vec<u8>,
    /// Per cell and value `d`: row id at `cell·N + d − 1`, or `usize::MAX`.
    row_of: Vec<usize>,
    given: Vec<bool>,
}

impl RelaxedDlx {
    /// Builds the exact cover problem of `r`.
    pub(crate) fn new(r: &RelaxedInstance) -> RelaxedDlx {
        let g = r.geometry();
        let side = g.side;
        let cells = g.cells;
        // Secondary columns of intact units.
        let mut unit_col = vec![usize::MAX; g.units.len()];
        let mut next = 0usize;
        for (u, col) in unit_col.iter_mut().enumerate() {
            if r.is_intact(u) {
                *col = next;
                next += side;
            }
        }
        // Secondary columns of remaining edges in no intact unit.
        let mut cell_edges: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for (a, b) in r.edges() {
            let in_intact = g.cell_units[a]
                .iter()
                .zip(&g.cell_units[b])
                .any(|(&ua, &ub)| ua == ub && r.is_intact(ua));
            if !in_intact {
                cell_edges[a].push(next);
                cell_edges[b].push(next);
                next += side;
            }
        }
        let mut cover = ExactCover::new(cells, next);
        let allowed = r.allowed();
        let mut row_cell = Vec::new();
        let mut row_value = Vec::new();
        let mut row_of = vec![usize::MAX; cells * side];
        let mut columns = Vec::with_capacity(1 + 3 + g.peers[0].len());
        for cell in 0..cells {
            for d in 1..=side {
                if allowed[cell] & (1 << d) == 0 {
                    continue;
                }
                columns.clear();
                columns.push(cell);
                for &u in &g.cell_units[cell] {
                    if unit_col[u] != usize::MAX {
                        columns.push(cells + unit_col[u] + d - 1);
                    }
                }
                for &e in &cell_edges[cell] {
                    columns.push(cells + e + d - 1);
                }
                let row = cover.add_row(&columns);
                row_cell.push(cell);
                row_value.push(d as u8);
                row_of[cell * side + d - 1] = row;
            }
        }
        RelaxedDlx {
            side,
            cover,
            row_cell,
            row_value,
            row_of,
            given: r.puzzle().cells().iter().map(|&v| v != 0).collect(),
        }
    }

    /// The underlying exact cover problem.
    #[cfg(test)]
    pub(crate) fn cover(&mut self) -> &mut ExactCover {
        &mut self.cover
    }

    /// The row placing `value` in `cell`, if that colour is allowed.
    pub(crate) fn row(&self, cell: usize, value: u8) -> Option<usize> {
        let d = value as usize;
        if d == 0 || d > self.side || cell >= self.given.len() {
            return None;
        }
        let row = self.row_of[cell * self.side + d - 1];
        (row != usize::MAX).then_some(row)
    }

    #[cfg(test)]
    fn fill(&self, rows: &[usize], cells: &mut [u8]) {
        for &row in rows {
            cells[self.row_cell[row]] = self.row_value[row];
        }
    }

    /// Number of proper colourings, up to `cap` (0 = no cap).
    #[cfg(test)]
    pub(crate) fn count(&mut self, cap: u64) -> Count {
        self.cover.count(cap)
    }

    /// Up to `cap` colourings (0 = all), one value per cell.
    #[cfg(test)]
    pub(crate) fn solutions(&mut self, cap: u64) -> Vec<Vec<u8>> {
        let cells = self.given.len();
        self.cover
            .solutions(cap)
            .iter()
            .map(|rows| {
                let mut out = vec![0u8; cells];
                self.fill(rows, &mut out);
                out
            })
            .collect()
    }

    /// Count (capped) and fixed non-given cells; see the module doc.
    pub(crate) fn analyze(&mut self, cap: u64) -> InstanceAnalysis {
        let cells = self.given.len();
        let mut seen = vec![0u32; cells];
        let mut found = 0u64;
        let (row_cell, row_value) = (&self.row_cell, &self.row_value);
        self.cover.search(|rows| {
            for &row in rows {
                seen[row_cell[row]] |= 1 << row_value[row];
            }
            crate::answers::tally(&mut found, cap)
        });
        let count = Count::from_found(found, cap);
        if found == 0 {
            return InstanceAnalysis {
                count,
                fixed: Vec::new(),
            };
        }
        if count.capped {
            for cell in 0..cells {
                if self.given[cell] || seen[cell].count_ones() != 1 {
                    continue;
                }
                let value = seen[cell].trailing_zeros() as u8;
                let Some(row) = self.row(cell, value) else {
                    continue;
                };
                let mark = self.cover.mark();
                self.cover.forbid(row);
                let other = self.cover.first();
                self.cover.rollback(mark);
                if let Some(rows) = other {
                    for &row in &rows {
                        seen[self.row_cell[row]] |= 1 << self.row_value[row];
                    }
                }
            }
        }
        let fixed = (0..cells)
            .filter(|&c| !self.given[c] && seen[c].count_ones() == 1)
            .collect();
        InstanceAnalysis { count, fixed }
    }
}

/// Solution count by Dancing Links, up to `cap` (0 = no cap).
#[cfg(test)]
pub(crate) fn count(r: &RelaxedInstance, cap: u64) -> Count {
    RelaxedDlx::new(r).count(cap)
}

/// Count and fixed cells by Dancing Links.
pub(crate) fn analyze(r: &RelaxedInstance, cap: u64) -> InstanceAnalysis {
    RelaxedDlx::new(r).analyze(cap)
}

/// Up to `cap` colourings (0 = all) by Dancing Links.
#[cfg(test)]
pub(crate) fn solutions(r: &RelaxedInstance, cap: u64) -> Vec<Vec<u8>> {
    RelaxedDlx::new(r).solutions(cap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Puzzle;

    #[test]
    fn unrelaxed_empty_4x4_is_sudoku() {
        let r = RelaxedInstance::unrelaxed(&Puzzle::empty(2));
        assert_eq!(count(&r, 0).solutions, 288);
        let mut d = RelaxedDlx::new(&r);
        // 16 cells, 12 intact units × 4 digits, no edge columns.
        assert_eq!(d.cover().primary(), 16);
        assert_eq!(d.cover().secondary(), 48);
    }

    #[test]
    fn removed_edge_frees_a_digit() {
        let r = RelaxedInstance::new(&Puzzle::empty(2), &[(0, 1)]).unwrap();
        let mut d = RelaxedDlx::new(&r);
        // Row 1 and box 1 broken: 10 intact units. Of the 10 other edges of
        // row 1 and box 1, four lie in an intact unit ((2,3) in box 2,
        // (4,5) in row 2, (0,4) and (1,5) in columns 1 and 2): 6 edge
        // columns per digit.
        assert_eq!(d.cover().secondary(), 4 * (10 + 6));
        assert!(solutions(&r, 0).iter().all(|s| r.is_solution(s)));
    }
}
