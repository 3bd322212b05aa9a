//! Dancing Links (Knuth, "Dancing Links", 2000): exact cover with primary and
//! secondary columns, and the two reductions sudolab needs. This is the
//! engine Fletcher, Johnson & Morrison use to check uniqueness ("Uniqueness
//! and Complexity", Algorithm 2), and what `--engine dlx` runs.
//!
//! * [`cover`]: the generic engine, [`ExactCover`] — Algorithm X on
//!   array-based dancing links, minimum-remaining-values column choice,
//!   counting with a cap, forcing and forbidding rows without rebuilding.
//! * [`sudoku`]: a puzzle as exact cover with the standard `4·N²` primary
//!   columns (cell, row–digit, column–digit, box–digit); solve, count,
//!   enumerate.
//! * [`relaxed`]: a relaxed instance (Pelánek §3.2) as
//!   exact cover with one primary column per cell and secondary columns for
//!   the colour constraints that remain; count, enumerate, and the fixed
//!   cells.
//!
//! The bitset search of [`crate::bitset`] explores the same solutions
//! faster; the tests cross-check the two (and SAT) on thousands of instances.

pub(crate) mod cover;
pub(crate) mod relaxed;
pub(crate) mod sudoku;
#[cfg(test)]
pub(crate) use cover::ExactCover;

use crate::answers::{Count, InstanceAnalysis, SudokuEngine};
use crate::graph::RelaxedInstance;
use crate::grid::{Puzzle, Solution};

/// The Dancing Links engine.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Dlx;

impl SudokuEngine for Dlx {
    fn solve(&self, p: &Puzzle) -> Option<Solution> {
        sudoku::solve(p)
    }
    fn count(&self, p: &Puzzle, cap: u64) -> Count {
        sudoku::count(p, cap)
    }
    fn analyze_relaxed(&self, r: &RelaxedInstance, cap: u64) -> InstanceAnalysis {
        relaxed::analyze(r, cap)
    }
}
