//! The bitset engine: depth-first search over cells whose candidate digits
//! (or colours) are bitmasks, with exact deductions. It explores the same
//! solutions as the exact-cover formulation of [`crate::dlx`] — a cell's
//! candidate mask is its primary column — and only adds deductions that
//! remove options no solution uses (singles; unit colour counting,
//! component decomposition and failed-literal probing for relaxed
//! instances), so every count and fixed-cell set is the same; the tests
//! cross-check it against Dancing Links, SAT and brute force.
//!
//! * [`sudoku`]: solve, count and enumerate puzzles (9×9 grids: counting
//!   on box vectors, `boxes.rs`, where the processor has AVX-512, else on band
//!   boards, `band9.rs`; ordered solving on digit bitboards, `board9.rs`).
//! * [`relaxed`]: count, enumerate and find the fixed cells of relaxed
//!   instances (Pelánek §3.2).

mod band9;
mod board9;
mod boxes;

/// The six permutations of three things, in lexicographic order: the ways
/// a digit takes one line of each of a band's three boxes (the band
/// boards number them by line, the box vectors by box).
const PERMUTATIONS_OF_3: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];
pub(crate) mod relaxed;
pub(crate) mod sudoku;

use crate::answers::{Count, InstanceAnalysis, SudokuEngine};
use crate::graph::RelaxedInstance;
use crate::grid::{Puzzle, Solution};

/// The bitset search engine (the default: the fastest of the three).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Bitset;

impl SudokuEngine for Bitset {
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
