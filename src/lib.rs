//! sudolab: why is a Sudoku hard?
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

pub use engine::{Count, Engine, InstanceAnalysis, Status};
pub use grid::{Geometry, Puzzle, Solution};
