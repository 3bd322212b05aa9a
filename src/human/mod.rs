//! Human-model raters: how hard is a Sudoku for a person?
//!
//! Every model here simulates a human solver on a shared candidate grid
//! ([`board::Board`]) with a shared catalogue of techniques
//! ([`techniques`], each listing every application it finds), and turns the
//! simulated effort into a number:
//!
//! * [`sisus`]: Pelánek's Simple Sudoku Solver (refutation sum, dependency,
//!   fill order);
//! * [`oracle`]: Fletcher, Johnson & Morrison's oracle model (tanh score and
//!   four levels);
//! * [`hsolve`]: Chang, Fan & Sun's expected search time `E(p, v)`;
//! * [`nishio`]: Project Patti's Nishio human cycles with 2/3/4 strategies,
//!   randomized and heuristic, and "solved by strategies alone";
//! * [`weights`]: Xu & Xu's technique weights and levels;
//! * `baseline`: givens and plain-DFS backtracks (Pelánek, Table 3);
//! * `serate` and `fowler`: Serate-like and Fowler-like ratings on Sudoku
//!   Explainer's path ([`crate::se`], Sudoku Explainer's solver in a room
//!   of its own beside these models; Pelánek, Tables 1 and 3);
//! * [`trial_depth`]: how deeply assumptions must nest before singles
//!   refute them (the forum's trial-and-error depth);
//! * [`annealing`], [`harmony`]: simulated annealing and harmony search as
//!   solvers, their steps and final cost (Pelánek, Table 3; costly).
//!
//! Randomized models take a seed and a run count and derive one seed per
//! run (`seeds::run_seed`), so results never depend on threads. A model
//! that cannot finish a puzzle says so with an [`Unfinished`] reason ("needs
//! search", "no finite refutation"); it never makes a number up. Each model
//! is a plug-in under `models/` (one file per model, the shared machinery
//! here beside it); [`rate`] loops over the chosen models' plug-ins into one
//! serializable [`RateRow`], and
//! [`explain`] prints a step-by-step human solving path, [`SeExplanation::of`]
//! Sudoku Explainer's path with its ratings.

pub(crate) mod board;
mod explain;
mod models;
pub(crate) mod path;
mod rate;
mod seeds;
pub(crate) mod solver;
pub(crate) mod techniques;

// The models keep their paths (`human::sisus`, …) for the layers above.
pub(crate) use models::{hsolve, nishio, oracle, singles, sisus, weights};

pub use explain::{
    CellDigit, ExplainStatus, ExplainStep, Explanation, SeExplainStep, SeExplanation,
};
pub use models::annealing::AnnealingOptions;
pub use models::harmony::HarmonyOptions;
pub use models::oracle::ScanUnit;
pub use models::{Model, RateError};
pub use rate::{RateOptions, RateRow, Ratings, rate};
pub use techniques::Technique;

use std::fmt;

/// Why a model could not produce its metric for a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unfinished(pub String);

impl Unfinished {
    /// An [`Unfinished`] with the given reason.
    pub(crate) fn new(reason: impl Into<String>) -> Unfinished {
        Unfinished(reason.into())
    }
}

impl fmt::Display for Unfinished {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unfinished {}
