//! Sudoku as exact cover (Knuth, "Dancing Links", 2000, §"Applications").
//!
//! The standard reduction: one row per (cell, digit) — `N³` rows — and
//! `4·N²` primary columns, each to be covered exactly once:
//! * cell `(r, c)` holds a digit: column `r·N + c`;
//! * row `r` holds digit `d`: column `N² + r·N + d − 1`;
//! * column `c` holds digit `d`: column `2N² + c·N + d − 1`;
//! * box `b` holds digit `d`: column `3N² + b·N + d − 1`.
//!
//! Row `(cell, d)` has id `cell·N + d − 1` and covers its four columns. The
//! givens are removed up front by forcing their rows
//! ([`ExactCover::force`]); two givens that clash leave a problem with no
//! solution, so a contradictory puzzle simply counts 0. The structure of
//! each order is built once and cloned.
//!
//! [`SudokuDlx`] keeps the structure for reuse across puzzles; [`solve`],
//! [`count`] and [`solutions`] build one for a single puzzle.

use super::cover::ExactCover;
use crate::answers::Count;
use crate::grid::{Geometry, MAX_ORDER, MIN_ORDER, Puzzle, Solution};
use std::ops::ControlFlow;
use std::sync::OnceLock;

fn build(n: usize) -> ExactCover {
    let g = Geometry::of(n);
    let side = g.side;
    let cells = g.cells;
    let mut ec = ExactCover::new(4 * cells, 0);
    for cell in 0..cells {
        let [row, col, bx] = g.cell_units[cell];
        let (col, bx) = (col - side, bx - 2 * side);
        for d in 0..side {
            ec.add_row(&[
                cell,
                cells + row * side + d,
                2 * cells + col * side + d,
                3 * cells + bx * side + d,
            ]);
        }
    }
    ec
}

fn template(n: usize) -> &'static ExactCover {
    static CACHE: [OnceLock<ExactCover>; MAX_ORDER - MIN_ORDER + 1] =
        [const { OnceLock::new() }; MAX_ORDER - MIN_ORDER + 1];
    CACHE[n - MIN_ORDER].get_or_init(|| build(n))
}

/// The exact cover problem of an order-`n` Sudoku, reusable across puzzles.
#[derive(Debug, Clone)]
pub(crate) struct SudokuDlx {
    n: usize,
    cover: ExactCover,
}

impl SudokuDlx {
    /// The problem for the empty grid of order `n` (2..=5).
    ///
    /// # Panics
    /// On an order outside 2..=5.
    pub(crate) fn new(n: usize) -> SudokuDlx {
        assert!(
            (MIN_ORDER..=MAX_ORDER).contains(&n),
            "order {n} outside 2..=5"
        );
        SudokuDlx {
            n,
            cover: template(n).clone(),
        }
    }

    /// Replaces the givens by those of `p` (and, for a pencilmark puzzle,
    /// removes the rows of the candidates it lacks). Returns `false` when two givens
    /// clash (the problem then has no solution) or when `p` has another
    /// order (the problem is then left empty of solutions too).
    pub(crate) fn load(&mut self, p: &Puzzle) -> bool {
        self.cover.reset();
        let side = self.n * self.n;
        if p.order() != self.n {
            // A row that is forbidden cannot be forced: a recorded conflict.
            self.cover.forbid(0);
            self.cover.force(0);
            return false;
        }
        let mut ok = true;
        for (cell, &v) in p.cells().iter().enumerate() {
            if v != 0 {
                ok &= self.cover.force(cell * side + v as usize - 1);
            }
        }
        // A pencilmark puzzle's missing candidates are rows left out; one
        // already covered by a given's columns is gone anyway.
        let marks = p.pencilmarks().unwrap_or(&[]);
        for (cell, &m) in marks.iter().enumerate().filter(|&(c, _)| !p.is_given(c)) {
            for d in (1..=side).filter(|&d| m & 1 << d == 0) {
                self.cover.forbid(cell * side + d - 1);
            }
        }
        ok
    }

    fn decode(&self, rows: &[usize]) -> Option<Solution> {
        let side = self.n * self.n;
        let mut cells = vec![0u8; side * side];
        for &row in rows {
            cells[row / side] = (row % side + 1) as u8;
        }
        Solution::from_cells(self.n, cells)
    }

    /// Counts the solutions of the loaded puzzle, up to `cap` (0 = no cap).
    pub(crate) fn count(&mut self, cap: u64) -> Count {
        self.cover.count(cap)
    }

    /// Up to `cap` solutions (0 = all) of the loaded puzzle.
    pub(crate) fn solutions(&mut self, cap: u64) -> Vec<Solution> {
        let mut out = Vec::new();
        let n = self.n;
        let side = n * n;
        self.cover.search(|rows| {
            let mut cells = vec![0u8; side * side];
            for &row in rows {
                cells[row / side] = (row % side + 1) as u8;
            }
            if let Some(s) = Solution::from_cells(n, cells) {
                out.push(s);
            }
            if cap > 0 && out.len() as u64 >= cap {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        out
    }

    /// One solution of the loaded puzzle, if any.
    pub(crate) fn solve(&mut self) -> Option<Solution> {
        let rows = self.cover.first()?;
        self.decode(&rows)
    }
}

/// One solution by Dancing Links, if any.
pub(crate) fn solve(p: &Puzzle) -> Option<Solution> {
    let mut s = SudokuDlx::new(p.order());
    s.load(p);
    s.solve()
}

/// Solution count by Dancing Links, up to `cap` (0 = no cap); a
/// contradictory puzzle has 0.
pub(crate) fn count(p: &Puzzle, cap: u64) -> Count {
    let mut s = SudokuDlx::new(p.order());
    s.load(p);
    s.count(cap)
}

/// Up to `cap` solutions (0 = all) by Dancing Links.
#[cfg(test)]
pub(crate) fn solutions(p: &Puzzle, cap: u64) -> Vec<Solution> {
    let mut s = SudokuDlx::new(p.order());
    s.load(p);
    s.solutions(cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_4x4_has_288_solutions() {
        let p = Puzzle::empty(2);
        assert_eq!(count(&p, 0), Count::from_found(288, 0));
        let sols = solutions(&p, 0);
        assert_eq!(sols.len(), 288);
        assert!(sols.iter().all(|s| s.solves(&p)));
    }

    #[test]
    fn clashing_givens_count_zero() {
        let mut p = Puzzle::empty(3);
        p.set(0, 4);
        p.set(80, 4);
        p.set(8, 4);
        assert_eq!(count(&p, 0).solutions, 0);
        assert_eq!(solve(&p), None);
    }
}
