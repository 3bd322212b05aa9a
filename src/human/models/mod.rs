//! The human models as plug-ins: one file per model, owning its options,
//! its row (the fields it fills, with why they are null) and how it rates
//! a puzzle, and [`human_models!`]'s one list that [`crate::human::rate`]
//! loops over. The rows are read by `Metric` one layer up
//! (`crate::metrics`, `rate_rows.rs`).
//!
//! A model rates a puzzle with a unique solution and a seed into its own
//! row of [`Ratings`] (the metric registry, `crate::metrics`, names its
//! columns with the model as their source). The methods are specified in
//! `docs/methods.md` §3: SiSuS §3.1, the oracle §3.2, hsolve §3.3, Nishio
//! §3.4, the technique weights §3.5, the baselines §3.6, the Serate- and
//! Fowler-like ratings §3.7 (the path itself lives in
//! [`crate::se`]), the singles model §3.8, the trial depth §3.9,
//! simulated annealing and harmony search (Pelánek Table 3). The shared
//! machinery (candidate grid, techniques, solver, paths, run seeds) stays
//! beside this module in [`crate::human`]; what the model files share is
//! in `plug_in`, which names no model.
//!
//! Adding a model: its file here (options, row, `HumanModel` and
//! `ModelRow`), its line in the list below, its metrics in the metric
//! registry and its row's reader in `metrics/rate_rows.rs`.

pub(crate) mod annealing;
pub(crate) mod baseline;
pub(crate) mod berthier;
pub(crate) mod harmony;
pub(crate) mod hsolve;
pub(crate) mod nishio;
pub(crate) mod oracle;
mod plug_in;
pub(crate) mod serate;
pub(crate) mod singles;
pub(crate) mod sisus;
pub(crate) mod trial_depth;
pub(crate) mod weights;

use crate::grid::{Contradiction, Puzzle};
use crate::limits::{self, OptionError};
use annealing::AnnealingOptions;
use harmony::HarmonyOptions;
use hsolve::HsolveOptions;
use nishio::NishioOptions;
use oracle::OracleOptions;
pub(crate) use plug_in::GivensOnly;
pub(crate) use plug_in::Rating;
use plug_in::{HumanModel, ModelRow, WhyNull};
use serde::Serialize;
use singles::SinglesOptions;
use sisus::SisusOptions;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

/// Declares the models from one list: the [`Model`] enum (in the list's
/// order, with each model's name), the [`Ratings`] struct (one row a
/// model) and the dispatch from a model to its row and its options in
/// [`RateOptions`] (a field, or `()` for a model without options).
macro_rules! human_models {
    (@options $o:ident, ()) => { &() };
    (@options $o:ident, $field:ident) => { &$o.$field };
    (@options_mut $o:ident, ()) => { &mut () };
    (@options_mut $o:ident, $field:ident) => { &mut $o.$field };
    ($(
        $(#[$doc:meta])*
        $variant:ident = $name:literal, $row_field:ident: $row:ty, options $opts:tt;
    )*) => {
        /// A human model.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        #[serde(rename_all = "lowercase")]
        pub enum Model {
            $($(#[$doc])* $variant,)*
        }

        /// How many models there are.
        const MODELS: usize = [$($name),*].len();

        impl Model {
            /// Every model; what `all` selects in a model list. The costly
            /// solvers come last, so that [`Model::DEFAULT`] is the list
            /// without them.
            pub const ALL: [Model; MODELS] = [$(Model::$variant),*];

            /// Lowercase name, as on the command line and in `status` keys.
            pub fn name(self) -> &'static str {
                match self {
                    $(Model::$variant => $name,)*
                }
            }

            /// Its runs (trials, random starts) in `opts`, for a randomized
            /// model.
            fn runs(self, opts: &RateOptions) -> Option<usize> {
                match self {
                    $(Model::$variant => <$row>::runs(human_models!(@options opts, $opts)),)*
                }
            }

            /// Sets its runs in `opts` (nothing for a deterministic model).
            fn set_runs(self, opts: &mut RateOptions, runs: usize) {
                match self {
                    $(Model::$variant => <$row>::set_runs(human_models!(@options_mut opts, $opts), runs),)*
                }
            }

            /// Whether the model starts from a pencilmark grid's candidates
            /// (`docs/methods.md` §0.1); the others read givens alone and
            /// are not run on one (their status says so, [`GivensOnly`]).
            pub fn reads_pencilmarks(self) -> bool {
                match self {
                    $(Model::$variant => <$row>::reads_pencilmarks(),)*
                }
            }
        }

        /// The metrics of every model, one row a model (a model not run
        /// leaves its row empty), and why a puzzle without a unique
        /// solution has none. Their columns are the metric registry's of
        /// the human models (`crate::Metric` with a `rate:` source), under
        /// its names and in its order, then `status`: `Ratings` serialises
        /// through the registry and `Ratings::value` (`crate::metrics`), so
        /// a field has no serde name of its own.
        ///
        /// A random metric (a mean over a model's runs) is one
        /// [`crate::Estimate`], whose columns are the metric (the mean), its
        /// `_sd` and its `_se`, those the registry lists (`docs/methods.md`
        /// §3.10); the estimate and all its columns are null when the model
        /// did not run or could not finish.
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct Ratings {
            $(
                #[doc = concat!("The `", $name, "` model's row.")]
                pub $row_field: $row,
            )*
            /// Why the puzzle has no model metric (contradictory, no
            /// solution, several); `None` for a puzzle with one solution.
            pub puzzle: Option<PuzzleFault>,
            /// The requested models that read givens alone, not run because
            /// the puzzle is a pencilmark grid ([`GivensOnly`]).
            pub givens_only: BTreeSet<Model>,
        }

        impl Ratings {
            /// The row of a model.
            fn row(&self, model: Model) -> &dyn ModelRow {
                match model {
                    $(Model::$variant => &self.$row_field,)*
                }
            }

            /// The columns `model` gives any puzzle.
            fn rate_any(&mut self, model: Model, puzzle: &Puzzle) {
                match model {
                    $(Model::$variant => self.$row_field = <$row>::rate_any(puzzle),)*
                }
            }

            /// Rates a puzzle with one solution into `model`'s row.
            fn rate_with(&mut self, model: Model, on: &Rating<'_>, opts: &RateOptions) {
                match model {
                    $(Model::$variant => {
                        self.$row_field.rate(on, human_models!(@options opts, $opts))
                    })*
                }
            }
        }
    };
}

human_models! {
    /// SiSuS, Pelánek's simulated singles solver (`docs/methods.md` §3.1).
    Sisus = "sisus", sisus: sisus::SisusRow, options sisus;
    /// Fletcher et al.'s oracle model (§3.2).
    Oracle = "oracle", oracle: oracle::OracleRow, options oracle;
    /// Chang et al.'s hsolve (§3.3).
    Hsolve = "hsolve", hsolve: hsolve::HsolveRow, options hsolve;
    /// Patti's Nishio human cycles with 2, 3 and 4 strategies (§3.4).
    Nishio = "nishio", nishio: nishio::NishioRow, options nishio;
    /// Xu & Xu's technique-weight rating (§3.5).
    Weights = "weights", weights: weights::WeightsRow, options ();
    /// Pelánek's baselines: givens and plain-DFS backtracks (§3.6).
    Baseline = "baseline", baseline: baseline::BaselineRow, options backtrack_cap;
    /// The singles model: hidden-single dependency and the reach of hidden
    /// singles (§3.8).
    Singles = "singles", singles: singles::SinglesRow, options singles;
    /// Serate-like rating: the highest Sudoku Explainer rating along the
    /// lowest-rating-first path (Pelánek Tables 1 and 3).
    Serate = "serate", serate: serate::SerateRow, options ();
    /// Fowler-like rating: the sum of the ratings along that path (Pelánek
    /// Table 3's "Fowler's" row, our expression).
    Fowler = "fowler", fowler: serate::FowlerRow, options ();
    /// Trial depth: how deeply assumptions must nest before singles refute
    /// them, and the fewest steps at that depth (§3.9).
    Trial = "trial", trial: trial_depth::TrialRow, options ();
    /// Steps of simulated annealing as a solver (Pelánek Table 3); costly.
    Annealing = "annealing", annealing: annealing::AnnealingRow, options annealing;
    /// Harmony search as a solver (Pelánek Table 3); costly.
    Harmony = "harmony", harmony: harmony::HarmonyRow, options harmony;
    /// Berthier's ratings: W (whips), B (braids), BxB and BxBB
    /// (`crate::berthier`); costly on T&E(2) and T&E(3) puzzles.
    Berthier = "berthier", berthier: berthier::BerthierRow, options berthier_budget;
}

impl Model {
    /// The models [`RateOptions::default`] runs: every model but the
    /// costly ones (annealing, harmony search, Berthier's ratings), which
    /// `all` or their names select.
    pub const DEFAULT: [Model; MODELS - 3] = {
        let mut out = [Model::Sisus; MODELS - 3];
        let mut i = 0;
        while i < out.len() {
            out[i] = Model::ALL[i];
            i += 1;
        }
        out
    };

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
        "unknown model {0:?}{hint} (expected a comma list of {names}, default, or all)",
        hint = did_you_mean(.0),
        names = Model::names()
    )]
    /// A name in the list that is no model.
    UnknownModel(String),
    #[error("empty model list")]
    /// The list names no model.
    Empty,
}

/// `; did you mean "sisus"?` for a name near a model's (Jaro–Winkler
/// similarity above 0.8, as clap hints at a flag), else nothing.
fn did_you_mean(name: &str) -> String {
    let name = name.to_ascii_lowercase();
    Model::ALL
        .into_iter()
        .map(|m| (strsim::jaro_winkler(&name, m.name()), m.name()))
        .filter(|(similarity, _)| *similarity > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, m)| format!("; did you mean {m:?}?"))
        .unwrap_or_default()
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

/// What to compute and with which parameters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RateOptions {
    /// Models to run; default every model.
    pub models: BTreeSet<Model>,
    /// Seed of every randomized model (each derives its own per-run seeds);
    /// [`crate::seed::DEFAULT_SEED`] by default.
    pub seed: u64,
    /// SiSuS parameters (30 runs, dependency over k = 25 steps by default).
    pub sisus: SisusOptions,
    /// Singles-model parameters (30 runs, dependency over 30 steps).
    pub singles: SinglesOptions,
    /// Oracle parameters (trials, α, β, G, δ, σ, A, B, level cuts); defaults
    /// from Fletcher et al. Table 2.
    pub oracle: OracleOptions,
    /// hsolve parameters (20 runs, tiers, whether failed tiers are charged).
    pub hsolve: HsolveOptions,
    /// Nishio parameters (50 random starts, cycle cap).
    pub nishio: NishioOptions,
    /// Simulated annealing parameters (5 runs, 1,000,000 moves at most).
    pub annealing: AnnealingOptions,
    /// Harmony search parameters (5 runs, 10,000 steps).
    pub harmony: HarmonyOptions,
    /// The plain DFS baseline gives up after this many backtracks.
    pub backtrack_cap: u64,
    /// Work units (branch propagations) Sudoku Explainer's nesting levels
    /// 3–5 may use for one puzzle in serate (from 16×16 on, every chain
    /// producer, a branch counted as its candidates against 9×9's); past
    /// it serate is null with the status "over budget".
    /// [`RateOptions::SERATE_BUDGET`] by default.
    pub serate_budget: u64,
    /// Chain-search nodes each of Berthier's ratings may visit for one
    /// puzzle (`crate::berthier::Budget`); past it the rating is null with
    /// `berthier_status` saying `budget`.
    pub berthier_budget: u64,
}

impl Default for RateOptions {
    fn default() -> Self {
        RateOptions {
            models: Model::DEFAULT.into_iter().collect(),
            seed: crate::seed::DEFAULT_SEED,
            sisus: SisusOptions::default(),
            singles: SinglesOptions::default(),
            oracle: OracleOptions::default(),
            hsolve: HsolveOptions::default(),
            nishio: NishioOptions::default(),
            annealing: AnnealingOptions::default(),
            harmony: HarmonyOptions::default(),
            backtrack_cap: 10_000_000,
            serate_budget: Self::SERATE_BUDGET,
            berthier_budget: crate::berthier::Budget::default().nodes,
        }
    }
}

impl RateOptions {
    /// Ceiling of `runs` (`rate --runs`, `report --runs`, Python's `runs=`):
    /// runs of a randomised human model per puzzle.
    pub const MAX_RUNS: usize = crate::limits::MAX_RUNS;

    /// The default work budget of serate's nesting levels 3–5, 20 million
    /// units: about 30 s of one core for the hardest famous puzzles, none
    /// for a puzzle that never needs them (`docs/methods.md` §3.11).
    pub const SERATE_BUDGET: u64 = crate::se::WorkBudget::DEFAULT.0;

    /// Options with the models of a comma list and defaults elsewhere.
    pub fn for_models(list: &str) -> Result<RateOptions, RateError> {
        Ok(RateOptions {
            models: Model::parse_list(list)?,
            ..RateOptions::default()
        })
    }

    /// Options with one model and defaults elsewhere.
    pub fn for_model(model: Model) -> RateOptions {
        RateOptions {
            models: BTreeSet::from([model]),
            ..RateOptions::default()
        }
    }

    /// Refuses options no model can run with: runs of a randomized model
    /// outside `1..=`[`MAX_RUNS`](RateOptions::MAX_RUNS) (named `runs`,
    /// the flag and keyword that set them all), an oracle parameter that is
    /// not a finite number.
    pub fn check(&self) -> Result<(), OptionError> {
        for runs in Model::ALL.into_iter().filter_map(|m| m.runs(self)) {
            limits::at_least("runs", runs, 1)?;
            limits::at_most("runs", runs, limits::MAX_RUNS)?;
        }
        self.oracle.check()
    }

    /// Overrides the run count of every randomized model (SiSuS runs, oracle
    /// trials, hsolve runs, Nishio starts, annealing and harmony runs).
    pub fn set_runs(&mut self, runs: usize) {
        for m in Model::ALL {
            m.set_runs(self, runs);
        }
    }
}

/// Why a puzzle has no model metric: the `puzzle` entry of `status`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PuzzleFault {
    /// Two givens contradict each other.
    Contradiction(Contradiction),
    /// The puzzle has at least two solutions.
    NotUnique,
    /// The puzzle has no solution.
    NoSolution,
}

impl fmt::Display for PuzzleFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleFault::Contradiction(c) => write!(f, "contradiction: {c}"),
            PuzzleFault::NotUnique => f.write_str("not unique: at least 2 solutions"),
            PuzzleFault::NoSolution => f.write_str("no solution"),
        }
    }
}

impl Ratings {
    /// The columns the models of `opts` give any puzzle, even one without a
    /// unique solution (the baseline's givens and candidates).
    pub(crate) fn of_any(puzzle: &Puzzle, opts: &RateOptions) -> Ratings {
        let mut out = Ratings::default();
        for &m in &opts.models {
            out.rate_any(m, puzzle);
        }
        out
    }

    /// Rates a puzzle with one solution with every model of `opts`; on a
    /// pencilmark grid, the models that read givens alone are left out and
    /// named in [`Ratings::givens_only`].
    pub(crate) fn rate(&mut self, on: &Rating<'_>, opts: &RateOptions) {
        for &m in &opts.models {
            if on.puzzle.has_pencilmarks() && !m.reads_pencilmarks() {
                self.givens_only.insert(m);
            } else {
                self.rate_with(m, on, opts);
            }
        }
    }

    /// Why metrics are null, as every output writes it: model name (or
    /// the metric a reason is about, or `puzzle`) → the reason.
    pub fn status(&self) -> BTreeMap<String, String> {
        let mut out: BTreeMap<String, String> = Model::ALL
            .into_iter()
            .filter_map(|m| {
                let why = match self.givens_only.contains(&m) {
                    true => WhyNull::model(&GivensOnly),
                    false => self.row(m).why_null()?,
                };
                let key = match why.level_only {
                    true => format!("{}_level", m.name()),
                    false => m.name().to_string(),
                };
                Some((key, why.text))
            })
            .collect();
        if let Some(fault) = &self.puzzle {
            out.insert("puzzle".to_string(), fault.to_string());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model's name is its serde name, and parses back to it.
    #[test]
    fn every_model_is_named_once_and_parses_back() {
        for m in Model::ALL {
            assert_eq!(serde_json::to_value(m).unwrap(), m.name());
            assert_eq!(m.name().parse::<Model>(), Ok(m));
        }
        let names: BTreeSet<&str> = Model::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(names.len(), Model::ALL.len());
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

#[cfg(test)]
mod name_tests {
    use super::*;

    /// A mistyped model name gets the nearest model's name; a name near
    /// none gets only the list.
    #[test]
    fn a_mistyped_model_name_says_the_one_meant() {
        let sisu = "sisu".parse::<Model>().unwrap_err().to_string();
        assert!(
            sisu.starts_with(
                "unknown model \"sisu\"; did you mean \"sisus\"? (expected a comma list of sisus, "
            ),
            "{sisu}"
        );
        let berthir = "Berthir".parse::<Model>().unwrap_err().to_string();
        assert!(berthir.contains("did you mean \"berthier\"?"), "{berthir}");
        let far = "zzz".parse::<Model>().unwrap_err().to_string();
        assert!(far.starts_with("unknown model \"zzz\" (expected"), "{far}");
    }
}
