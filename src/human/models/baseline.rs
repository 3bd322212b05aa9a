//! Baselines of Pelánek's Table 3: the number of givens and the
//! backtracking effort of a plain depth-first search (see
//! [`crate::human::solver::plain_dfs_backtracks`]). Pelánek reports both as weak
//! predictors (Pearson 0.16-0.27 against human solving times).

use super::plug_in::{HumanModel, ModelRow, Rating, WhyNull};
use crate::grid::Puzzle;
use crate::human::solver::plain_dfs_backtracks;

/// Why the plain DFS has no backtrack count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BaselineNull {
    /// The search gave up after this many backtracks.
    #[error("backtrack cap {0} reached")]
    BacktrackCap(u64),
    /// The search found no solution.
    #[error("no solution")]
    NoSolution,
}

/// Candidates of the empty cells from the givens alone: the pencil marks a
/// player starts from, before any step (ours; Pelánek has no such baseline).
pub(crate) fn open_candidates(puzzle: &Puzzle) -> usize {
    puzzle
        .candidates()
        .iter()
        .zip(puzzle.cells())
        .filter(|&(_, &v)| v == 0)
        .map(|(m, _)| m.count_ones() as usize)
        .sum()
}

/// Plain-DFS backtracks (gives up after `cap` backtracks).
fn backtracks(puzzle: &Puzzle, cap: u64) -> Result<u64, BaselineNull> {
    plain_dfs_backtracks(puzzle, cap).map_err(|n| {
        if n >= cap {
            BaselineNull::BacktrackCap(cap)
        } else {
            BaselineNull::NoSolution
        }
    })
}

/// Pelánek's baselines' row: the givens and open candidates of any puzzle,
/// the backtracks of one with a unique solution.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BaselineRow {
    /// Number of givens (Pelánek's baseline).
    pub givens: Option<usize>,
    /// Candidates of the empty cells the givens leave, the pencil marks a
    /// player starts from (ours, beside the baseline).
    pub candidates: Option<usize>,
    /// Backtracks of the plain depth-first search before the first
    /// complete grid; null for an invalid puzzle or past the cap.
    pub backtracks: Option<u64>,
    /// Why the backtracks are null when the search ran.
    pub why_null: Option<BaselineNull>,
}

impl HumanModel for BaselineRow {
    /// The backtrack cap.
    type Options = u64;
    fn rate_any(puzzle: &Puzzle) -> Self {
        BaselineRow {
            givens: Some(puzzle.givens()),
            candidates: Some(open_candidates(puzzle)),
            ..BaselineRow::default()
        }
    }
    fn rate(&mut self, on: &Rating<'_>, backtrack_cap: &u64) {
        match backtracks(on.puzzle, *backtrack_cap) {
            Ok(n) => self.backtracks = Some(n),
            Err(why) => self.why_null = Some(why),
        }
    }
}

impl ModelRow for BaselineRow {
    fn why_null(&self) -> Option<WhyNull> {
        self.why_null.as_ref().map(WhyNull::model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_candidates_count_the_pencil_marks_the_givens_leave() {
        let mut p = Puzzle::empty(3);
        assert_eq!(open_candidates(&p), 729);
        // One given: its cell is no longer open and its 20 peers lose a digit.
        p.set(0, 5);
        assert_eq!(open_candidates(&p), 729 - 9 - 20);
        // A solved grid with one cell emptied: that cell's one digit.
        let grid = crate::grid::parse_puzzle(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        )
        .unwrap();
        let mut q = grid.clone();
        q.set(40, 0);
        assert_eq!(open_candidates(&grid), 0);
        assert_eq!(open_candidates(&q), 1);
    }
}
