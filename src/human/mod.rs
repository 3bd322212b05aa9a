//! Human-model raters: how hard is a Sudoku for a person?
//!
//! Every model here simulates a human solver on a shared candidate grid
//! ([`board::Board`]) with a shared catalogue of techniques
//! ([`techniques`]), then turns the simulated effort into a number.

pub mod board;
pub mod solver;
pub mod techniques;

pub use board::Board;
pub use techniques::{Application, Technique};
