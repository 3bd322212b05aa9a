//! Ratings that stop once a target is decided, for the target search.
//!
//! Xu & Xu's technique-weight score ([`crate::human::weights`]) is a sum
//! along the simplest-first path, and every term is positive: each empty cell
//! is filled by a single (weight ≥ 1), and eliminations only add. So after
//! any prefix of the path the final score is at least the score so far plus
//! the number of empty cells left. When that bound passes the largest score a
//! target accepts (`weights_level=Hard` accepts at most 98), the puzzle is
//! decided, and the rest of the path (the searches for pairs, wings and
//! chains where singles stall, most of the rating's time on hard puzzles) is
//! skipped. Puzzles below the cap are rated to the end, so their row is the
//! one [`crate::human::rate`] gives (a test checks it on generated puzzles);
//! a cut puzzle carries only the lower bound, which the search uses as a
//! miss and never prints.
//!
//! The search's candidates come with their unique solution, so a model that
//! needs it (the oracle reveals solution values) is run directly, without
//! the rater's search for the solution and for a second one
//! ([`oracle_row`], the same row).

use crate::grid::{Puzzle, Solution};
use crate::human::oracle::{OracleOptions, oracle};
use crate::human::path::follow;
use crate::human::weights::{Tally, WeightLevel};
use crate::human::{OracleRow, RateRow, Technique, WeightsRow};
use std::ops::ControlFlow;

/// A technique-weight rating that may have stopped at a cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Capped {
    /// The path was followed to the end: the score, and the hardest
    /// technique used (by first-use weight; `None` on a full grid).
    Score(u32, Option<Technique>),
    /// The path was cut when its score could no longer stay at or below the
    /// cap: holds a lower bound of the score (above the cap).
    Above(u32),
    /// The techniques get stuck: the puzzle needs search.
    Stuck,
}

/// The technique-weight score of `puzzle`, following the path only while
/// the score can still be at most `cap` (see the module doc).
pub(crate) fn weights_capped(puzzle: &Puzzle, cap: u32) -> Capped {
    // The bound before any step: every empty cell costs at least 1.
    let empty = (puzzle.cells().len() - puzzle.givens()) as u32;
    if empty > cap {
        return Capped::Above(empty);
    }
    let mut tally = Tally::default();
    let mut above = None;
    let end = follow(puzzle, &Technique::ALL, |a, b| {
        tally.add(a.technique);
        let bound = tally.score + b.empty_count() as u32;
        if !b.is_solved() && bound > cap {
            above = Some(bound);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    match above {
        Some(bound) => Capped::Above(bound),
        None if end.is_solved() => Capped::Score(tally.score, tally.hardest),
        None => Capped::Stuck,
    }
}

/// The rating row [`crate::human::rate`] gives a unique 9×9 puzzle with the
/// weights model alone, from a finished [`Capped::Score`] (the basic reach,
/// which the weights model also gives, is computed here).
pub(crate) fn weights_row(puzzle: &Puzzle, score: u32, hardest: Option<Technique>) -> RateRow {
    let mut row = RateRow {
        puzzle: puzzle.to_line(),
        label: puzzle.label.clone(),
        ..RateRow::default()
    };
    row.ratings.weights = WeightsRow {
        basic_reach: Some(crate::human::weights::basic_reach(puzzle)),
        ..WeightsRow::of(score, Some(WeightLevel::of(score)), hardest)
    };
    row
}

/// The rating row [`crate::human::rate`] gives a unique puzzle with the
/// oracle model alone, from its known solution (the rater would first
/// search for it, and for a second one).
pub(crate) fn oracle_row(
    puzzle: &Puzzle,
    solution: &Solution,
    opts: &OracleOptions,
    seed: u64,
) -> RateRow {
    let mut row = RateRow {
        puzzle: puzzle.to_line(),
        label: puzzle.label.clone(),
        ..RateRow::default()
    };
    row.ratings.oracle = OracleRow::of(&oracle(puzzle, solution, opts, seed), opts, puzzle.order());
    row
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::GenerateOptions;
    use crate::human::{Model, RateOptions, rate};

    /// Below the cap the capped rating is the full one, row for row; above
    /// it the bound is a true lower bound of the score.
    #[test]
    fn capped_rating_agrees_with_the_rater() {
        let opts = GenerateOptions::default();
        let rate_opts = RateOptions {
            models: [Model::Weights].into_iter().collect(),
            ..RateOptions::default()
        };
        let (mut below, mut above) = (0, 0);
        for seed in 0..150 {
            let (c, _) = opts.make_one(seed);
            let full = rate(&c.puzzle, &rate_opts);
            let score = full
                .ratings
                .weights
                .score
                .expect("generated puzzles are rated");
            for cap in [72, 86, 98, u32::MAX] {
                match weights_capped(&c.puzzle, cap) {
                    Capped::Score(s, hardest) => {
                        assert!(s <= cap, "seed {seed} cap {cap}");
                        assert_eq!(weights_row(&c.puzzle, s, hardest), full, "seed {seed}");
                        below += 1;
                    }
                    Capped::Above(bound) => {
                        assert!(
                            bound > cap && bound <= score,
                            "seed {seed}: {bound} {score}"
                        );
                        above += 1;
                    }
                    Capped::Stuck => panic!("seed {seed}: stuck but rated {score}"),
                }
            }
        }
        assert!(below > 200 && above > 100, "{below} {above}");
    }

    #[test]
    fn oracle_row_is_the_raters_row() {
        let opts = GenerateOptions::default();
        let rate_opts = RateOptions {
            models: [Model::Oracle].into_iter().collect(),
            seed: 3,
            ..RateOptions::default()
        };
        for seed in 0..40 {
            let (c, _) = opts.make_one(seed);
            let row = oracle_row(&c.puzzle, &c.solution, &rate_opts.oracle, 3);
            assert_eq!(row, rate(&c.puzzle, &rate_opts), "seed {seed}");
        }
    }
}
