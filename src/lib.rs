//! sudolab: why is a Sudoku hard?
pub mod dlx;
pub mod engine;
pub mod graph;
pub mod grid;

pub use engine::{Count, Engine, InstanceAnalysis, Status};
pub use grid::{Geometry, Puzzle, Solution};
