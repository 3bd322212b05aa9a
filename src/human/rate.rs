//! One entry point for all human models: [`rate`] a puzzle into a
//! [`RateRow`] with stable field names, for the `sudolab rate` subcommand.
//!
//! A row always names the puzzle. Metrics of models not requested are null.
//! A model that cannot finish leaves its metrics null and writes its reason in
//! `status` under the model's name; a puzzle that is contradictory, has no
//! solution or has several gets a `status.puzzle` entry and no model metric
//! (except `givens`, when the baseline is requested).

use super::baseline::baseline;
use super::hsolve::{HsolveOptions, hsolve};
use super::nishio::{NishioOptions, nishio_heuristic, nishio_random, solved_by_strategies};
use super::oracle::{OracleOptions, oracle};
use super::sisus::{SisusOptions, sisus};
use super::solver::{Solved, solve};
use super::weights::weights;
use crate::grid::Puzzle;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

/// A human model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    Sisus,
    Oracle,
    Hsolve,
    Nishio,
    Weights,
    Baseline,
}

impl Model {
    pub const ALL: [Model; 6] = [
        Model::Sisus,
        Model::Oracle,
        Model::Hsolve,
        Model::Nishio,
        Model::Weights,
        Model::Baseline,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Model::Sisus => "sisus",
            Model::Oracle => "oracle",
            Model::Hsolve => "hsolve",
            Model::Nishio => "nishio",
            Model::Weights => "weights",
            Model::Baseline => "baseline",
        }
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
        "unknown model {0:?} (expected a comma list of sisus, oracle, hsolve, nishio, weights, baseline, or all)"
    )]
    UnknownModel(String),
    #[error("empty model list")]
    Empty,
    /// A randomized model asked to average no run.
    #[error("runs must be at least 1")]
    NoRuns,
    /// A model parameter that is NaN or infinite.
    #[error("oracle parameter {name} = {value} is not a finite number")]
    NotFinite { name: &'static str, value: f64 },
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

/// Parses `sisus,oracle,...` or `all` into a set of models.
pub fn parse_models(list: &str) -> Result<BTreeSet<Model>, RateError> {
    let mut set = BTreeSet::new();
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if item.eq_ignore_ascii_case("all") {
            set.extend(Model::ALL);
        } else {
            set.insert(item.parse()?);
        }
    }
    if set.is_empty() {
        return Err(RateError::Empty);
    }
    Ok(set)
}

/// What to compute and with which parameters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RateOptions {
    pub models: BTreeSet<Model>,
    /// Seed of every randomized model (each derives its own per-run seeds).
    pub seed: u64,
    pub sisus: SisusOptions,
    pub oracle: OracleOptions,
    pub hsolve: HsolveOptions,
    pub nishio: NishioOptions,
    /// The plain DFS baseline gives up after this many backtracks.
    pub backtrack_cap: u64,
}

impl Default for RateOptions {
    fn default() -> Self {
        RateOptions {
            models: Model::ALL.into_iter().collect(),
            seed: 0,
            sisus: SisusOptions::default(),
            oracle: OracleOptions::default(),
            hsolve: HsolveOptions::default(),
            nishio: NishioOptions::default(),
            backtrack_cap: 10_000_000,
        }
    }
}

impl RateOptions {
    /// Options with the models of a comma list and defaults elsewhere.
    pub fn for_models(list: &str) -> Result<RateOptions, RateError> {
        Ok(RateOptions {
            models: parse_models(list)?,
            ..RateOptions::default()
        })
    }

    /// Refuses options no model can run with: zero runs, a parameter that is
    /// not a finite number.
    pub fn check(&self) -> Result<(), RateError> {
        if [
            self.sisus.runs,
            self.oracle.trials,
            self.hsolve.runs,
            self.nishio.runs,
        ]
        .contains(&0)
        {
            return Err(RateError::NoRuns);
        }
        let o = &self.oracle;
        for (name, value) in [
            ("alpha", o.alpha),
            ("beta", o.beta),
            ("G", o.big_g),
            ("delta", o.delta),
            ("sigma", o.sigma),
            ("A", o.a),
            ("B", o.b),
        ] {
            if !value.is_finite() {
                return Err(RateError::NotFinite { name, value });
            }
        }
        Ok(())
    }

    /// Overrides the run count of every randomized model (SiSuS runs, oracle
    /// trials, hsolve runs, Nishio starts).
    pub fn set_runs(&mut self, runs: usize) {
        self.sisus.runs = runs;
        self.oracle.trials = runs;
        self.hsolve.runs = runs;
        self.nishio.runs = runs;
    }
}

/// One puzzle's ratings, with the puzzle they belong to.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct RateRow {
    pub puzzle: String,
    pub label: Option<String>,
    #[serde(flatten)]
    pub ratings: Ratings,
}

/// The metrics of every model. Field names are stable (CSV/JSON columns).
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct Ratings {
    pub givens: Option<usize>,
    pub backtracks: Option<u64>,
    pub sisus_refutation_sum: Option<f64>,
    pub sisus_refutation_sum_sd: Option<f64>,
    pub sisus_dependency: Option<f64>,
    pub sisus_dependency_sd: Option<f64>,
    pub oracle_score: Option<f64>,
    pub oracle_level: Option<String>,
    pub oracle_visits: Option<f64>,
    pub oracle_visits_sd: Option<f64>,
    pub hsolve: Option<f64>,
    pub hsolve_sd: Option<f64>,
    pub hsolve_median: Option<f64>,
    pub nishio2: Option<f64>,
    pub nishio3: Option<f64>,
    pub nishio4: Option<f64>,
    pub nishio4_sd: Option<f64>,
    pub nishio4_median: Option<f64>,
    pub nishio4_heuristic: Option<f64>,
    pub solved_by_2: Option<bool>,
    pub solved_by_3: Option<bool>,
    pub solved_by_4: Option<bool>,
    pub weights_score: Option<u32>,
    pub weights_level: Option<String>,
    pub hardest_technique: Option<String>,
    /// Model name (or `puzzle`) → why its metrics are null.
    pub status: BTreeMap<String, String>,
}

/// Rates one puzzle with the requested models.
pub fn rate(puzzle: &Puzzle, opts: &RateOptions) -> RateRow {
    let mut row = RateRow {
        puzzle: puzzle.to_line(),
        label: puzzle.label.clone(),
        ..RateRow::default()
    };
    let wants = |m: Model| opts.models.contains(&m);
    if wants(Model::Baseline) {
        row.ratings.givens = Some(puzzle.givens());
    }
    if let Err(c) = puzzle.check() {
        row.ratings
            .status
            .insert("puzzle".into(), format!("contradiction: {c}"));
        return row;
    }
    let solution = match solve(puzzle) {
        Solved::Unique(s) => s,
        Solved::Multiple => {
            row.ratings
                .status
                .insert("puzzle".into(), "not unique: at least 2 solutions".into());
            return row;
        }
        Solved::None => {
            row.ratings
                .status
                .insert("puzzle".into(), "no solution".into());
            return row;
        }
    };
    let seed = opts.seed;
    let fail = |row: &mut RateRow, m: Model, why: String| {
        row.ratings.status.insert(m.name().to_string(), why);
    };
    if wants(Model::Baseline) {
        match baseline(puzzle, opts.backtrack_cap).backtracks {
            Ok(b) => row.ratings.backtracks = Some(b),
            Err(why) => fail(&mut row, Model::Baseline, why.0),
        }
    }
    if wants(Model::Sisus) {
        match sisus(puzzle, &solution, &opts.sisus, seed) {
            Ok(r) => {
                row.ratings.sisus_refutation_sum = Some(r.refutation_sum.mean);
                row.ratings.sisus_refutation_sum_sd = Some(r.refutation_sum.sd);
                row.ratings.sisus_dependency = Some(r.dependency.mean);
                row.ratings.sisus_dependency_sd = Some(r.dependency.sd);
            }
            Err(e) => fail(&mut row, Model::Sisus, e.0),
        }
    }
    if wants(Model::Oracle) {
        let r = oracle(puzzle, &solution, &opts.oracle, seed);
        row.ratings.oracle_score = Some(r.score);
        row.ratings.oracle_level = Some(r.level.to_string());
        row.ratings.oracle_visits = Some(r.visits.mean);
        row.ratings.oracle_visits_sd = Some(r.visits.sd);
    }
    if wants(Model::Hsolve) {
        match hsolve(puzzle, &opts.hsolve, seed) {
            Ok(s) => {
                row.ratings.hsolve = Some(s.mean);
                row.ratings.hsolve_sd = Some(s.sd);
                row.ratings.hsolve_median = Some(s.median);
            }
            Err(e) => fail(&mut row, Model::Hsolve, e.0),
        }
    }
    if wants(Model::Nishio) {
        row.ratings.solved_by_2 = Some(solved_by_strategies(puzzle, 2));
        row.ratings.solved_by_3 = Some(solved_by_strategies(puzzle, 3));
        row.ratings.solved_by_4 = Some(solved_by_strategies(puzzle, 4));
        let mut errors = Vec::new();
        match nishio_random(puzzle, 2, &opts.nishio, seed) {
            Ok(s) => row.ratings.nishio2 = Some(s.mean),
            Err(e) => errors.push(format!("2 strategies: {e}")),
        }
        match nishio_random(puzzle, 3, &opts.nishio, seed) {
            Ok(s) => row.ratings.nishio3 = Some(s.mean),
            Err(e) => errors.push(format!("3 strategies: {e}")),
        }
        match nishio_random(puzzle, 4, &opts.nishio, seed) {
            Ok(s) => {
                row.ratings.nishio4 = Some(s.mean);
                row.ratings.nishio4_sd = Some(s.sd);
                row.ratings.nishio4_median = Some(s.median);
            }
            Err(e) => errors.push(format!("4 strategies: {e}")),
        }
        match nishio_heuristic(puzzle, 4, &opts.nishio) {
            Ok(c) => row.ratings.nishio4_heuristic = Some(c as f64),
            Err(e) => errors.push(format!("heuristic: {e}")),
        }
        if !errors.is_empty() {
            fail(&mut row, Model::Nishio, errors.join("; "));
        }
    }
    if wants(Model::Weights) {
        match weights(puzzle) {
            Ok(w) => {
                row.ratings.weights_score = Some(w.score);
                row.ratings.weights_level = w.level.map(|l| l.to_string());
                row.ratings.hardest_technique = w.hardest.map(|t| t.name().to_string());
                if w.level.is_none() {
                    row.ratings.status.insert(
                        "weights_level".into(),
                        "levels are defined for 9×9 only".into(),
                    );
                }
            }
            Err(e) => fail(&mut row, Model::Weights, e.0),
        }
    }
    row
}
