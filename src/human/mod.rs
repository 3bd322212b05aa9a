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
//! that cannot finish a puzzle says why in its row, typed (needs search, no
//! finite refutation, over budget); it never makes a number up. Each model
//! is a plug-in under `models/` (one file per model, owning its options,
//! its row and its metrics; the shared machinery here beside it); [`rate`]
//! loops over the chosen models into one serializable [`RateRow`] of
//! per-model rows ([`Ratings`]), and
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

pub use crate::se::SerateUnfinished;
pub use explain::{
    CellDigit, ExplainStatus, ExplainStep, Explanation, SeExplainStep, SeExplanation,
};
pub use models::annealing::{AnnealingOptions, AnnealingRow};
pub use models::baseline::{BaselineNull, BaselineRow};
pub use models::berthier::BerthierRow;
pub use models::harmony::{HarmonyOptions, HarmonyRow};
pub use models::hsolve::{HsolveNull, HsolveRow};
pub use models::nishio::{NishioCount, NishioFailure, NishioNull, NishioRow};
pub use models::oracle::{OracleNull, OracleRow, ScanUnit};
pub use models::serate::{FowlerRow, SerateRow};
pub use models::singles::SinglesRow;
pub use models::sisus::{SisusNull, SisusRow};
pub use models::trial_depth::{TrialDepthError, TrialRow};
pub use models::weights::{WeightsNull, WeightsRow};
pub use models::{Model, PuzzleFault, RateError, RateOptions, Ratings};
pub use rate::{RateRow, rate};
pub use techniques::Technique;
