//! Baselines of Pelánek's Table 3: the number of givens and the
//! backtracking effort of a plain depth-first search (see
//! [`crate::human::solver::plain_dfs_backtracks`]). Pelánek reports both as weak
//! predictors (Pearson 0.16-0.27 against human solving times).

use super::{HumanModel, Model, Rating};
use crate::grid::Puzzle;
use crate::human::Unfinished;
use crate::human::rate::Ratings;
use crate::human::solver::plain_dfs_backtracks;

/// Baseline metrics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BaselineResult {
    pub givens: usize,
    /// Undone assignments of the plain DFS, or why there is no count.
    pub backtracks: Result<u64, Unfinished>,
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

/// Pelánek's baselines as a plug-in of [`crate::human::rate`]: the givens
/// and open candidates of any puzzle, the backtracks of one with a unique
/// solution.
pub(crate) struct BaselineModel;

impl HumanModel for BaselineModel {
    fn model(&self) -> Model {
        Model::Baseline
    }
    fn name(&self) -> &'static str {
        "baseline"
    }
    fn rate_any(&self, puzzle: &Puzzle, out: &mut Ratings) {
        out.givens = Some(puzzle.givens());
        out.candidates = Some(open_candidates(puzzle));
    }
    fn rate(&self, on: &Rating<'_>, out: &mut Ratings) -> Result<(), Unfinished> {
        out.backtracks = Some(baseline(on.puzzle, on.opts.backtrack_cap).backtracks?);
        Ok(())
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
