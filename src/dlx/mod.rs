//! TEMPORARY placeholder until the Dancing Links engine lands (same API).
pub mod sudoku {
    pub use crate::sat::{count, solve_puzzle as solve};
}
pub mod relaxed {
    pub use crate::sat::analyse_relaxed as analyse;
}
