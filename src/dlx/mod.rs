//! Dancing Links (Knuth, "Dancing Links", 2000): exact cover with primary and
//! secondary columns, and the two reductions sudolab needs.
//!
//! * [`cover`]: the generic engine, [`ExactCover`] — Algorithm X on
//!   array-based dancing links, minimum-remaining-values column choice,
//!   counting with a cap, forcing and forbidding rows without rebuilding.
//! * [`sudoku`]: a puzzle as exact cover with the standard `4·N²` primary
//!   columns (cell, row–digit, column–digit, box–digit); solve, count,
//!   enumerate.
//! * [`relaxed`]: a relaxed instance (Pelánek §3.2, `METHODS.md` §2) as exact
//!   cover with one primary column per cell and secondary columns for the
//!   colour constraints that remain; count, enumerate, and the fixed cells.
//!
//! Both reductions also have a bitset search over cells ([`sudoku::fast`],
//! [`relaxed::fast`]). It works on the same solutions as Dancing Links on
//! the formulation above — a cell's candidate mask is its primary column —
//! and adds only exact deductions (hidden singles, unit colour counting,
//! component decomposition), so every count and fixed-cell set is the same;
//! the tests cross-check it against Dancing Links and brute force. The
//! top-level `solve`/`count`/`solutions`/`analyse` functions of each module
//! use it because it is several times faster; the `dlx_*` functions and
//! the [`sudoku::SudokuDlx`] / [`relaxed::RelaxedDlx`] structures run Dancing
//! Links proper.

pub mod cover;
pub mod relaxed;
pub mod sudoku;

pub use cover::ExactCover;
