//! The human models as plug-ins: one [`HumanModel`] per model, one file per
//! model, and the [`registry`] that [`crate::human::rate`] loops over.
//!
//! A model is a name, the options it reads from [`RateOptions`] (its run
//! count, for a randomized one), and how it rates a puzzle with a unique
//! solution and a seed into its own columns of [`Ratings`] (the metric
//! registry, `crate::metrics`, names those columns with the model as their
//! source). The methods are specified in `docs/methods.md` §3: SiSuS §3.1,
//! the oracle §3.2, hsolve §3.3, Nishio §3.4, the technique weights §3.5,
//! the baselines §3.6, the Serate- and Fowler-like ratings §3.7 (the path
//! itself lives in [`crate::se`]), the singles model §3.8, the
//! trial depth §3.9, simulated annealing and harmony search (Pelánek
//! Table 3). The shared machinery (candidate grid, techniques, solver,
//! paths, run seeds) stays beside this module in [`crate::human`].
//!
//! Adding a model: a variant of [`Model`] (in [`Model::ALL`]), its file
//! here with its `HumanModel`, its line in [`registry`], and its metrics in
//! the metric registry.

pub(crate) mod annealing;
pub(crate) mod baseline;
pub(crate) mod berthier;
pub(crate) mod harmony;
pub(crate) mod hsolve;
pub(crate) mod nishio;
pub(crate) mod oracle;
mod serate;
pub(crate) mod singles;
pub(crate) mod sisus;
pub(crate) mod trial_depth;
pub(crate) mod weights;

use super::Unfinished;
use super::rate::{RateOptions, Ratings};
use crate::grid::{Puzzle, Solution};
use crate::se::SerateResult;
use serde::Serialize;
use std::cell::OnceCell;
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// A human model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// SiSuS, Pelánek's simulated singles solver (`docs/methods.md` §3.1).
    Sisus,
    /// Fletcher et al.'s oracle model (§3.2).
    Oracle,
    /// Chang et al.'s hsolve (§3.3).
    Hsolve,
    /// Patti's Nishio human cycles with 2, 3 and 4 strategies (§3.4).
    Nishio,
    /// Xu & Xu's technique-weight rating (§3.5).
    Weights,
    /// Pelánek's baselines: givens and plain-DFS backtracks (§3.6).
    Baseline,
    /// The singles model: hidden-single dependency and the reach of hidden
    /// singles (§3.8).
    Singles,
    /// Serate-like rating: the highest Sudoku Explainer rating along the
    /// lowest-rating-first path (Pelánek Tables 1 and 3).
    Serate,
    /// Fowler-like rating: the sum of the ratings along that path (Pelánek
    /// Table 3's "Fowler's" row, our expression).
    Fowler,
    /// Trial depth: how deeply assumptions must nest before singles refute
    /// them, and the fewest steps at that depth (§3.9).
    Trial,
    /// Steps of simulated annealing as a solver (Pelánek Table 3); costly.
    Annealing,
    /// Harmony search as a solver (Pelánek Table 3); costly.
    Harmony,
    /// Berthier's ratings: W (whips), B (braids), BxB and BxBB
    /// (`crate::berthier`); costly on T&E(2) and T&E(3) puzzles.
    Berthier,
}

impl Model {
    /// Every model; what `all` selects in a model list. The costly solvers
    /// come last, so that [`Model::DEFAULT`] is the list without them.
    pub const ALL: [Model; 13] = [
        Model::Sisus,
        Model::Oracle,
        Model::Hsolve,
        Model::Nishio,
        Model::Weights,
        Model::Baseline,
        Model::Singles,
        Model::Serate,
        Model::Fowler,
        Model::Trial,
        Model::Annealing,
        Model::Harmony,
        Model::Berthier,
    ];

    /// The models [`RateOptions::default`] runs: every model but the
    /// costly ones (annealing, harmony search, Berthier's ratings), which
    /// `all` or their names select.
    pub const DEFAULT: [Model; 10] = {
        let mut out = [Model::Sisus; 10];
        let mut i = 0;
        while i < out.len() {
            out[i] = Model::ALL[i];
            i += 1;
        }
        out
    };

    /// Lowercase name, as on the command line and in `status` keys.
    pub fn name(self) -> &'static str {
        registry(self).name()
    }

    /// Every model's name in [`Model::ALL`]'s order, comma separated, as
    /// messages and `--help` list them.
    ///
    /// ```
    /// assert!(sudolab::Model::names().starts_with(sudolab::Model::ALL[0].name()));
    /// ```
    pub fn names() -> String {
        Model::ALL.map(Model::name).join(", ")
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A model list that could not be parsed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RateError {
    #[error(
        "unknown model {0:?} (expected a comma list of {names}, default, or all)",
        names = Model::names()
    )]
    /// A name in the list that is no model.
    UnknownModel(String),
    #[error("empty model list")]
    /// The list names no model.
    Empty,
}

impl FromStr for Model {
    type Err = RateError;
    fn from_str(s: &str) -> Result<Model, RateError> {
        let t = s.trim().to_ascii_lowercase();
        Model::ALL
            .into_iter()
            .find(|m| m.name() == t)
            .ok_or_else(|| RateError::UnknownModel(s.trim().to_string()))
    }
}

impl Model {
    /// Parses `sisus,oracle,...`, `all` (every model) or `default` (the models
    /// of [`Model::DEFAULT`]) into a set of models.
    pub fn parse_list(list: &str) -> Result<BTreeSet<Model>, RateError> {
        let mut set = BTreeSet::new();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if item.eq_ignore_ascii_case("all") {
                set.extend(Model::ALL);
            } else if item.eq_ignore_ascii_case("default") {
                set.extend(Model::DEFAULT);
            } else {
                set.insert(item.parse()?);
            }
        }
        if set.is_empty() {
            return Err(RateError::Empty);
        }
        Ok(set)
    }
}

/// A puzzle being rated: what every model may read. The puzzle has exactly
/// one solution; the Serate- and Fowler-like ratings read one path, made
/// once for both.
pub(crate) struct Rating<'a> {
    /// The puzzle.
    pub puzzle: &'a Puzzle,
    /// Its unique solution.
    pub solution: &'a Solution,
    /// Every model's options and the seed.
    pub opts: &'a RateOptions,
    serate: OnceCell<Result<SerateResult, Unfinished>>,
}

impl<'a> Rating<'a> {
    /// A puzzle with its unique solution, to be rated with `opts`.
    pub(crate) fn new(puzzle: &'a Puzzle, solution: &'a Solution, opts: &'a RateOptions) -> Self {
        Rating {
            puzzle,
            solution,
            opts,
            serate: OnceCell::new(),
        }
    }

    /// Seed of every randomized model (each derives its own run seeds).
    pub(crate) fn seed(&self) -> u64 {
        self.opts.seed
    }

    /// Sudoku Explainer's path and ratings
    /// ([`crate::se::serate_within`], within the options' work
    /// budget), made on first use.
    pub(crate) fn serate_path(&self) -> &Result<SerateResult, Unfinished> {
        self.serate.get_or_init(|| {
            crate::se::serate_within(self.puzzle, crate::se::WorkBudget(self.opts.serate_budget))
        })
    }
}

/// A human model as `rate` runs it.
pub(crate) trait HumanModel: Sync {
    /// The model this plug-in rates with.
    fn model(&self) -> Model;

    /// Lowercase name, as on the command line and in `status` keys.
    fn name(&self) -> &'static str;

    /// Its runs (trials, random starts) in `opts`, for a randomized model.
    fn runs(&self, _opts: &RateOptions) -> Option<usize> {
        None
    }

    /// Sets its runs in `opts` (nothing for a deterministic model).
    fn set_runs(&self, _opts: &mut RateOptions, _runs: usize) {}

    /// The columns it gives any puzzle, even one without a unique
    /// solution (the baseline's givens and candidates).
    fn rate_any(&self, _puzzle: &Puzzle, _out: &mut Ratings) {}

    /// Rates a puzzle with one solution into its columns of `out`; an
    /// [`Unfinished`] is the model's `status` (columns it could compute
    /// stay filled).
    fn rate(&self, on: &Rating<'_>, out: &mut Ratings) -> Result<(), Unfinished>;
}

/// Every model's plug-in, in [`Model::ALL`]'s order.
const REGISTRY: [&dyn HumanModel; 13] = [
    &sisus::SisusModel,
    &oracle::OracleModel,
    &hsolve::HsolveModel,
    &nishio::NishioModel,
    &weights::WeightsModel,
    &baseline::BaselineModel,
    &singles::SinglesModel,
    &serate::SerateModel,
    &serate::FowlerModel,
    &trial_depth::TrialModel,
    &annealing::AnnealingModel,
    &harmony::HarmonyModel,
    &berthier::BerthierModel,
];

/// The plug-in of a model.
pub(crate) fn registry(model: Model) -> &'static dyn HumanModel {
    let plug_in = REGISTRY[model as usize];
    debug_assert_eq!(plug_in.model(), model);
    plug_in
}

/// Every model's plug-in, in [`Model::ALL`]'s order.
pub(crate) fn plug_ins() -> impl Iterator<Item = &'static dyn HumanModel> {
    REGISTRY.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_holds_every_model_once_in_order() {
        let models: Vec<Model> = plug_ins().map(|p| p.model()).collect();
        assert_eq!(models, Model::ALL.to_vec());
        let names: Vec<&str> = Model::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(
            names,
            [
                "sisus",
                "oracle",
                "hsolve",
                "nishio",
                "weights",
                "baseline",
                "singles",
                "serate",
                "fowler",
                "trial",
                "annealing",
                "harmony",
                "berthier"
            ]
        );
        for m in Model::ALL {
            assert_eq!(m.name().parse::<Model>(), Ok(m));
        }
    }

    #[test]
    fn the_default_models_are_all_but_the_costly_solvers() {
        let costly = [Model::Annealing, Model::Harmony, Model::Berthier];
        let rest: Vec<Model> = Model::ALL
            .into_iter()
            .filter(|m| !costly.contains(m))
            .collect();
        assert_eq!(Model::DEFAULT.to_vec(), rest);
    }
}
