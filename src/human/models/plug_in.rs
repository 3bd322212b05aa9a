//! What every human model shares, and nothing that names one: the puzzle
//! being rated ([`Rating`]), the trait a model's row answers to
//! ([`HumanModel`]), and how a row says why its metrics are null
//! ([`ModelRow`]). The values of a row's metrics are read by `Metric` one
//! layer up, in `crate::metrics` (`rate_rows.rs`), which names the columns.
//!
//! A model file takes only this file from its neighbours; `models/mod.rs`
//! lists the models and `crate::human::rate` loops over that list, so the
//! imports run one way: this file ← the model files ← the list ← `rate`.

use crate::grid::{Puzzle, Solution};
use crate::se::{SerateResult, SerateUnfinished, WorkBudget, serate_within};
use std::cell::OnceCell;

/// A puzzle being rated: what every model may read. The puzzle has exactly
/// one solution; the Serate- and Fowler-like ratings read one path, made
/// once for both.
pub(crate) struct Rating<'a> {
    /// The puzzle.
    pub puzzle: &'a Puzzle,
    /// Its unique solution.
    pub solution: &'a Solution,
    /// Seed of every randomized model (each derives its own run seeds).
    pub seed: u64,
    /// Work units of Sudoku Explainer's nesting levels 3–5 on this puzzle.
    serate_budget: u64,
    serate: OnceCell<Result<SerateResult, SerateUnfinished>>,
}

impl<'a> Rating<'a> {
    /// A puzzle with its unique solution, to be rated with `seed` and
    /// serate's work budget.
    pub(crate) fn new(
        puzzle: &'a Puzzle,
        solution: &'a Solution,
        seed: u64,
        serate_budget: u64,
    ) -> Self {
        Rating {
            puzzle,
            solution,
            seed,
            serate_budget,
            serate: OnceCell::new(),
        }
    }

    /// Sudoku Explainer's path and ratings ([`serate_within`], within the
    /// work budget), made on first use.
    pub(crate) fn serate_path(&self) -> &Result<SerateResult, SerateUnfinished> {
        self.serate
            .get_or_init(|| serate_within(self.puzzle, WorkBudget(self.serate_budget)))
    }
}

/// Why a model's metrics are null, rendered at the edge (the `status`
/// column): under the model's name, or under its level's column
/// (`<model>_level`) when only the level is null (defined for 9×9 only).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WhyNull {
    /// Whether the reason is about the model's level alone.
    pub level_only: bool,
    /// The reason as every output writes it.
    pub text: String,
}

impl WhyNull {
    /// A reason for the whole model.
    pub(crate) fn model(reason: &impl std::fmt::Display) -> WhyNull {
        WhyNull {
            level_only: false,
            text: reason.to_string(),
        }
    }
}

/// Why a model that reads the givens alone has no metrics for a
/// pencilmark grid (`docs/methods.md` §0.1): it was not run, since its
/// definition starts from givens, not from candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GivensOnly;

impl std::fmt::Display for GivensOnly {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("defined on givens: not run on a pencilmark grid")
    }
}

/// A model's row: the fields it fills.
pub(crate) trait ModelRow {
    /// Why its metrics are null, when the model ran and could not finish
    /// (columns it could compute stay filled).
    fn why_null(&self) -> Option<WhyNull>;
}

/// A human model as `rate` runs it: its row, rated from its options.
pub(crate) trait HumanModel: ModelRow + Default {
    /// What the model reads from `RateOptions` (`()` for none).
    type Options;

    /// Its runs (trials, random starts), for a randomized model.
    fn runs(_opts: &Self::Options) -> Option<usize> {
        None
    }

    /// Sets its runs (nothing for a deterministic model).
    fn set_runs(_opts: &mut Self::Options, _runs: usize) {}

    /// Whether it starts from a pencilmark grid's candidates
    /// (`docs/methods.md` §0.1): a model working on the candidate board
    /// does; one that reads the givens alone (its own grid of givens, a
    /// search over givens) does not, and is not run on such a grid
    /// ([`GivensOnly`]).
    fn reads_pencilmarks() -> bool {
        true
    }

    /// The row's columns of any puzzle, even one without a unique
    /// solution (the baseline's givens and candidates).
    fn rate_any(_puzzle: &Puzzle) -> Self {
        Self::default()
    }

    /// Rates a puzzle with one solution into the row.
    fn rate(&mut self, on: &Rating<'_>, opts: &Self::Options);
}
