//! Baselines of Pelánek's Table 3: the number of givens and the
//! backtracking effort of a plain depth-first search (see
//! [`super::solver::plain_dfs_backtracks`]). Pelánek reports both as weak
//! predictors (Pearson 0.16-0.27 against human solving times).

use super::Unfinished;
use super::solver::plain_dfs_backtracks;
use crate::grid::Puzzle;

/// Baseline metrics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BaselineResult {
    pub givens: usize,
    /// Undone assignments of the plain DFS, or why there is no count.
    pub backtracks: Result<u64, Unfinished>,
}

/// Givens and plain-DFS backtracks (gives up after `cap` backtracks).
pub(super) fn baseline(puzzle: &Puzzle, cap: u64) -> BaselineResult {
    BaselineResult {
        givens: puzzle.givens(),
        backtracks: plain_dfs_backtracks(puzzle, cap).map_err(|n| {
            if n >= cap {
                Unfinished::new(format!("backtrack cap {cap} reached"))
            } else {
                Unfinished::new("no solution")
            }
        }),
    }
}
