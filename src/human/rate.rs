//! One entry point for all human models: [`rate`] a puzzle into a
//! [`RateRow`] with stable field names, for the `sudolab rate` subcommand.
//!
//! A row always names the puzzle. Metrics of models not requested are null.
//! A model that cannot finish leaves its metrics null and keeps its reason,
//! typed, in its row (`status` renders it under the model's name); a puzzle
//! that is contradictory, has no solution or has several gets a
//! [`PuzzleFault`] (`status.puzzle`) and no model metric (except `givens`,
//! when the baseline is requested).
//!
//! Every mean over random runs is an [`Estimate`](crate::stats::Estimate) and carries its standard
//! error (`_se`, `sd/√n`; the oracle score's by the delete-one jackknife)
//! and the oracle level the probability that it is the level of infinitely
//! many trials (`oracle_level_confidence`), as `docs/methods.md` §3.10
//! defines them.
//! The default seed is [`crate::seed::DEFAULT_SEED`], every command's.

use super::models::{PuzzleFault, RateOptions, Rating, Ratings};
use super::solver::{Solved, solve};
use crate::grid::Puzzle;
use serde::Serialize;

/// One puzzle's ratings, with the puzzle they belong to.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct RateRow {
    /// The puzzle as one line (`Puzzle::to_line`).
    pub puzzle: String,
    /// The puzzle's label from the input line, if any.
    pub label: Option<String>,
    /// Every model's metrics, flattened into the row.
    #[serde(flatten)]
    pub ratings: Ratings,
}

/// Rates one puzzle with the requested models.
///
/// ```
/// use sudolab::{RateOptions, Technique, WeightLevel, parse_puzzle, rate};
///
/// let p = parse_puzzle(
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
/// )?;
/// let row = rate(&p, &RateOptions::for_model(sudolab::Model::Weights));
/// // Singles alone solve it.
/// assert_eq!(row.ratings.weights.hardest_technique, Some(Technique::NakedSingle));
/// assert!(row.ratings.weights.level.is_some());
/// # let _: Option<WeightLevel> = row.ratings.weights.level;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn rate(puzzle: &Puzzle, opts: &RateOptions) -> RateRow {
    let mut ratings = Ratings::of_any(puzzle, opts);
    let fault = match puzzle.check() {
        Err(c) => Some(PuzzleFault::Contradiction(c)),
        Ok(()) => match solve(puzzle) {
            Solved::Unique(solution) => {
                let on = Rating::new(puzzle, &solution, opts.seed, opts.serate_budget);
                ratings.rate(&on, opts);
                None
            }
            Solved::Multiple => Some(PuzzleFault::NotUnique),
            Solved::None => Some(PuzzleFault::NoSolution),
        },
    };
    ratings.puzzle = fault;
    RateRow {
        puzzle: puzzle.to_line(),
        label: puzzle.label.clone(),
        ratings,
    }
}

#[cfg(test)]
mod tests {
    /// Fletcher et al.'s cut points are for 9×9 puzzles: a 4×4 or 16×16
    /// puzzle gets the oracle's score but no level, and the status says why.
    #[test]
    fn oracle_levels_only_for_nine_by_nine() {
        use super::{RateOptions, rate};
        use crate::human::Model;
        let oracle = RateOptions::for_model(Model::Oracle);
        let small = crate::grid::parse_puzzle("1..2.......1..4.").unwrap();
        let r = rate(&small, &oracle).ratings;
        assert!(r.oracle.score.is_some());
        assert_eq!(r.oracle.level, None);
        assert_eq!(
            r.status()["oracle_level"],
            "levels are defined for 9×9 only"
        );
        let p = crate::grid::parse_puzzle(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        let r = rate(&p, &oracle).ratings;
        assert!(r.oracle.level.is_some());
        assert!(!r.status().contains_key("oracle_level"));
    }
}
