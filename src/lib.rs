//! sudolab: why is a Sudoku hard?
pub mod answers;
pub mod bitset;
pub mod cnf;
pub mod dlx;
pub mod engine;
pub mod eval;
pub mod examples;
pub mod graph;
pub mod grid;
pub mod human;
pub mod relax;
pub mod report;
pub mod sat;
pub mod util;

pub use answers::{Count, InstanceAnalysis, Status, SudokuEngine};
pub use engine::{Disagreement, Engine, Engines};
pub use grid::{Geometry, Puzzle, Solution};
