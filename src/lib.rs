//! sudolab: why is a Sudoku hard?
pub mod grid;
pub mod human;

pub use grid::{Geometry, Puzzle, Solution};
