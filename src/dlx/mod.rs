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
//! [`relaxed::fast`]) that explores the same search tree as Algorithm X on
//! the cell columns and is cross-checked against it in the tests; the
//! top-level functions of each module use it because it is several times
//! faster.

pub mod cover;
pub mod relaxed;
pub mod sudoku;

pub use cover::ExactCover;
