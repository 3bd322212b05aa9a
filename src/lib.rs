//! sudolab: why is a Sudoku hard?
pub mod grid;

pub use grid::{Geometry, Puzzle, Solution};
