//! The metric registry: every column a metric row can hold, with its
//! meaning, unit, direction, the group that computes it and its role, in
//! one table ([`METRICS`]).
//!
//! Everything that names a metric reads it from here: `analyze` and the
//! score's features (which group to run), `generate --target` (which fields
//! exist, what kind of value they hold, which model computes them, which way
//! a puzzle must move), `eval` and the report (which columns are parameters
//! rather than metrics, which way is harder), and the CLI's help. The
//! methods behind each group are specified in `docs/methods.md`: clause
//! counts §1 (Patti §7.1), relaxation §2 (Pelánek §3.2), the human models
//! §3, the score §6.

use crate::human::Model;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Which way a metric points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// Higher values are harder (e.g. Nishio cycles); the values are binned as they are.
    HigherIsHarder,
    /// Lower values are harder (e.g. `short_pct`, `p_unique`); the values are
    /// negated before binning.
    LowerIsHarder,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::HigherIsHarder => "higher is harder",
            Direction::LowerIsHarder => "lower is harder",
        })
    }
}

/// The metric group that computes a metric (`analyze --metrics` names them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// The clause-length distribution of the minimal encoding (`clauses`).
    Clauses,
    /// The relaxation summary at one `k` (`relax`).
    Relax,
    /// A human model of `rate`.
    Rate(Model),
    /// The difficulty score of [`crate::score`] (`score`).
    Score,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Clauses => f.write_str("clauses"),
            Source::Relax => f.write_str("relax"),
            Source::Rate(m) => write!(f, "rate:{}", m.name()),
            Source::Score => f.write_str("score"),
        }
    }
}

/// What kind of value a metric holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A finite number (a count, a mean, a share, a score).
    Number,
    /// A list of numbers (the ALO clause-length histogram).
    List,
    /// `true` or `false`.
    Bool,
    /// A name (the hardest technique).
    Text,
    /// A level of a four-level scale, easiest first.
    Levels(&'static [&'static str; 4]),
}

/// What a column says about the puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A measurement of the puzzle.
    Metric,
    /// The spread (standard deviation) or median of a randomised metric over
    /// its runs: how stable the metric is, not how hard the puzzle is.
    Spread,
    /// A parameter the row was computed with (`k`, `samples`, `cap`), not a
    /// property of the puzzle.
    Parameter,
}

/// One metric.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Metric {
    /// Column name in every output (JSONL, CSV, the report).
    pub name: &'static str,
    /// What it measures, in a few words.
    pub meaning: &'static str,
    /// Unit of the value (`""` for a plain number).
    pub unit: &'static str,
    /// Which way is harder.
    pub direction: Direction,
    /// The group that computes it.
    pub source: Source,
    /// The kind of value.
    pub kind: Kind,
    /// Metric, spread or parameter.
    pub role: Role,
    /// `score --fast` leaves it out: the relaxation samples and the
    /// randomised SiSuS and hsolve runs, which take most of a score's time
    /// (measured in `docs/score.md`).
    pub costly: bool,
}

/// The number of givens: read off the puzzle itself, so callers that need
/// only this metric need not run the baseline model that reports it.
pub(crate) const GIVENS: &str = "givens";

/// The oracle's levels (Fletcher et al., cut points in
/// [`crate::human::oracle::OracleOptions`]).
pub(crate) const ORACLE_LEVELS: [&str; 4] = ["Cinch", "Confusing", "Challenging", "Crazy"];
/// Xu & Xu Table 3 levels of the technique-weight score.
pub(crate) const WEIGHT_LEVELS: [&str; 4] = ["Easy", "Intermediate", "Hard", "Challenging"];
/// The score's four-level scale (`crate::score::scale_names(4)`, checked by a test).
pub(crate) const SCORE_LEVELS: [&str; 4] = ["Easy", "Medium", "Hard", "Expert"];

use Direction::{HigherIsHarder as Up, LowerIsHarder as Down};
use Kind::{Bool, List, Number, Text};
use Role::{Metric as M, Parameter as P, Spread as S};

const fn m(
    name: &'static str,
    source: Source,
    kind: Kind,
    role: Role,
    direction: Direction,
    unit: &'static str,
    meaning: &'static str,
) -> Metric {
    Metric {
        name,
        meaning,
        unit,
        direction,
        source,
        kind,
        role,
        costly: false,
    }
}

const fn costly(metric: Metric) -> Metric {
    Metric {
        costly: true,
        ..metric
    }
}

const CL: Source = Source::Clauses;
const RX: Source = Source::Relax;
const SISUS: Source = Source::Rate(Model::Sisus);
const ORACLE: Source = Source::Rate(Model::Oracle);
const HSOLVE: Source = Source::Rate(Model::Hsolve);
const NISHIO: Source = Source::Rate(Model::Nishio);
const WEIGHTS: Source = Source::Rate(Model::Weights);
const BASE: Source = Source::Rate(Model::Baseline);
const SINGLES: Source = Source::Rate(Model::Singles);
const SERATE: Source = Source::Rate(Model::Serate);
const FOWLER: Source = Source::Rate(Model::Fowler);
const TRIAL: Source = Source::Rate(Model::Trial);
const SA: Source = Source::Rate(Model::Annealing);
const HARMONY: Source = Source::Rate(Model::Harmony);
const SC: Source = Source::Score;

/// Every metric column, in the order an `analyze` row holds them.
pub const METRICS: [Metric; 65] = [
    m(
        "variables",
        CL,
        Number,
        M,
        Up,
        "variables",
        "variables of the minimal encoding",
    ),
    m(
        "clauses",
        CL,
        Number,
        M,
        Up,
        "clauses",
        "clauses of the minimal encoding",
    ),
    m(
        "alo_lengths",
        CL,
        List,
        M,
        Up,
        "clauses",
        "at-least-one clauses by length (index = length)",
    ),
    m(
        "short_pct",
        CL,
        Number,
        M,
        Down,
        "%",
        "share of ALO clauses of the short class",
    ),
    m(
        "medium_pct",
        CL,
        Number,
        M,
        Up,
        "%",
        "share of ALO clauses of the medium class",
    ),
    m(
        "long_pct",
        CL,
        Number,
        M,
        Up,
        "%",
        "share of ALO clauses of the long class",
    ),
    m(
        "mean_length_pct",
        CL,
        List,
        M,
        Down,
        "%",
        "mean ALO clause length as a share of N, per clause kind",
    ),
    m(
        "k",
        RX,
        Number,
        P,
        Up,
        "edges",
        "edges removed per relaxation sample",
    ),
    m(
        "samples",
        RX,
        Number,
        P,
        Up,
        "samples",
        "relaxation samples drawn",
    ),
    m(
        "cap",
        RX,
        Number,
        P,
        Up,
        "solutions",
        "solution cap of each sample's count (0 = exact)",
    ),
    costly(m(
        "mean_solutions",
        RX,
        Number,
        M,
        Up,
        "solutions",
        "mean solutions per relaxed sample (a lower bound when capped)",
    )),
    costly(m(
        "median_solutions",
        RX,
        Number,
        M,
        Up,
        "solutions",
        "median solutions per relaxed sample",
    )),
    costly(m(
        "mean_extra",
        RX,
        Number,
        M,
        Up,
        "solutions",
        "mean solutions other than the original one",
    )),
    costly(m(
        "p_unique",
        RX,
        Number,
        M,
        Down,
        "share",
        "share of relaxed samples with exactly one solution",
    )),
    costly(m(
        "mean_fixed",
        RX,
        Number,
        M,
        Down,
        "cells",
        "mean fixed non-given cells per relaxed sample",
    )),
    m(
        "capped",
        RX,
        Number,
        M,
        Up,
        "samples",
        "samples whose count hit the cap",
    ),
    m(
        "saturated",
        RX,
        Number,
        M,
        Up,
        "samples",
        "samples whose exact count passed 2^64 - 1 (a lower bound; also in capped; absent when 0)",
    ),
    m(GIVENS, BASE, Number, M, Down, "cells", "number of givens"),
    m(
        "backtracks",
        BASE,
        Number,
        M,
        Up,
        "backtracks",
        "backtracks of a plain depth-first search",
    ),
    costly(m(
        "sisus_refutation_sum",
        SISUS,
        Number,
        M,
        Up,
        "",
        "SiSuS refutation sum, mean over runs",
    )),
    costly(m(
        "sisus_refutation_sum_sd",
        SISUS,
        Number,
        S,
        Up,
        "",
        "spread of the refutation sum over runs",
    )),
    costly(m(
        "sisus_dependency",
        SISUS,
        Number,
        M,
        Down,
        "possibilities",
        "SiSuS dependency: mean possibilities of the first k steps",
    )),
    costly(m(
        "sisus_dependency_sd",
        SISUS,
        Number,
        S,
        Up,
        "possibilities",
        "spread of the dependency over runs",
    )),
    m(
        "singles_dependency",
        SINGLES,
        Number,
        M,
        Down,
        "cells",
        "cells a hidden single can fill per step over the first 30 steps, mean over runs",
    ),
    m(
        "singles_dependency_sd",
        SINGLES,
        Number,
        S,
        Up,
        "cells",
        "spread of the hidden-single dependency over runs",
    ),
    m(
        "singles_box_reach",
        SINGLES,
        Number,
        M,
        Down,
        "share",
        "share of the empty cells hidden singles in boxes alone fill",
    ),
    m(
        "singles_hidden_reach",
        SINGLES,
        Number,
        M,
        Down,
        "share",
        "share of the empty cells hidden singles alone fill",
    ),
    m(
        "oracle_score",
        ORACLE,
        Number,
        M,
        Up,
        "",
        "oracle model score (1 + tanh(A(s - B)))/2, in [0, 1]",
    ),
    m(
        "oracle_level",
        ORACLE,
        Kind::Levels(&ORACLE_LEVELS),
        M,
        Up,
        "",
        "oracle level of the score",
    ),
    m(
        "oracle_visits",
        ORACLE,
        Number,
        M,
        Up,
        "visits",
        "oracle visits per trial, mean",
    ),
    m(
        "oracle_visits_sd",
        ORACLE,
        Number,
        S,
        Up,
        "visits",
        "spread of the oracle visits over trials",
    ),
    costly(m(
        "hsolve",
        HSOLVE,
        Number,
        M,
        Up,
        "checks",
        "hsolve expected search time, mean over runs",
    )),
    costly(m(
        "hsolve_sd",
        HSOLVE,
        Number,
        S,
        Up,
        "checks",
        "spread of hsolve over runs",
    )),
    costly(m(
        "hsolve_median",
        HSOLVE,
        Number,
        S,
        Up,
        "checks",
        "median of hsolve over runs",
    )),
    m(
        "nishio2",
        NISHIO,
        Number,
        M,
        Up,
        "cycles",
        "Nishio cycles with 2 strategies, mean",
    ),
    m(
        "nishio3",
        NISHIO,
        Number,
        M,
        Up,
        "cycles",
        "Nishio cycles with 3 strategies, mean",
    ),
    m(
        "nishio4",
        NISHIO,
        Number,
        M,
        Up,
        "cycles",
        "Nishio cycles with 4 strategies, mean",
    ),
    m(
        "nishio4_sd",
        NISHIO,
        Number,
        S,
        Up,
        "cycles",
        "spread of the 4-strategy cycles",
    ),
    m(
        "nishio4_median",
        NISHIO,
        Number,
        S,
        Up,
        "cycles",
        "median of the 4-strategy cycles",
    ),
    m(
        "nishio4_heuristic",
        NISHIO,
        Number,
        M,
        Up,
        "cycles",
        "Nishio cycles with 4 strategies, Patti's heuristic",
    ),
    m(
        "solved_by_2",
        NISHIO,
        Bool,
        M,
        Down,
        "",
        "2 Nishio strategies alone solve the puzzle",
    ),
    m(
        "solved_by_3",
        NISHIO,
        Bool,
        M,
        Down,
        "",
        "3 Nishio strategies alone solve the puzzle",
    ),
    m(
        "solved_by_4",
        NISHIO,
        Bool,
        M,
        Down,
        "",
        "4 Nishio strategies alone solve the puzzle",
    ),
    m(
        "weights_score",
        WEIGHTS,
        Number,
        M,
        Up,
        "weight",
        "Xu & Xu technique-weight score",
    ),
    m(
        "weights_level",
        WEIGHTS,
        Kind::Levels(&WEIGHT_LEVELS),
        M,
        Up,
        "",
        "Xu & Xu Table 3 level",
    ),
    m(
        "hardest_technique",
        WEIGHTS,
        Text,
        M,
        Up,
        "",
        "the hardest technique of the simplest-first path",
    ),
    m(
        "hardest_weight",
        WEIGHTS,
        Number,
        M,
        Up,
        "weight",
        "first-use weight of the hardest technique",
    ),
    m(
        "serate",
        SERATE,
        Number,
        M,
        Up,
        "SE",
        "Serate-like: highest Sudoku Explainer rating along the lowest-rating-first path",
    ),
    m(
        "fowler",
        FOWLER,
        Number,
        M,
        Up,
        "SE",
        "Fowler-like: sum of the Sudoku Explainer ratings of every step of that path",
    ),
    m(
        "trial_depth",
        TRIAL,
        Number,
        M,
        Up,
        "levels",
        "deepest nesting of assumptions singles needed: 0 none, 1 single, 2 nested, 3 deeper",
    ),
    m(
        "trial_steps",
        TRIAL,
        Number,
        M,
        Up,
        "steps",
        "largest fewest-step count of a refutation at the trial depth",
    ),
    m(
        "trial_rating",
        TRIAL,
        Number,
        M,
        Up,
        "",
        "trial depth and steps in one number: depth + steps/(steps + 8)",
    ),
    m(
        "trial_eliminations",
        TRIAL,
        Number,
        M,
        Up,
        "candidates",
        "candidates eliminated by assumptions over the solve",
    ),
    costly(m(
        "sa_steps",
        SA,
        Number,
        M,
        Up,
        "moves",
        "simulated annealing moves until a solution (capped runs count as the cap)",
    )),
    costly(m(
        "sa_solved",
        SA,
        Number,
        S,
        Down,
        "",
        "share of the annealing runs that reached a solution",
    )),
    costly(m(
        "harmony_cost",
        HARMONY,
        Number,
        M,
        Up,
        "digits",
        "harmony search: digits missing from the units of the best harmony after 10,000 steps",
    )),
    costly(m(
        "harmony_steps",
        HARMONY,
        Number,
        M,
        Up,
        "steps",
        "harmony search steps until a solution (unfinished runs count as the cap)",
    )),
    m(
        "score",
        SC,
        Number,
        M,
        Up,
        "",
        "the difficulty score: 0 and 10 are the 1st and 99th percentiles of the fitting puzzles; the hardest known reach about 11",
    ),
    m(
        "score_level",
        SC,
        Kind::Levels(&SCORE_LEVELS),
        M,
        Up,
        "",
        "the score's level",
    ),
    m(
        "se_equivalent",
        SC,
        Number,
        M,
        Up,
        "SE",
        "Sukaku Explainer rating equivalent (1.0–11.9): by the score, and by the trial depth for forcing-chain puzzles",
    ),
    m(
        "minutes",
        SC,
        Number,
        M,
        Up,
        "min",
        "expected mean solving time of the time model's population (Cloud Sudoku players, puzzles up to SE 8.2)",
    ),
    m(
        "minutes_low",
        SC,
        Number,
        S,
        Up,
        "min",
        "25 % end of the band of solving times",
    ),
    m(
        "minutes_high",
        SC,
        Number,
        S,
        Up,
        "min",
        "75 % end of the band of solving times",
    ),
    m(
        "extrapolated",
        SC,
        Bool,
        M,
        Up,
        "",
        "the puzzle is above everything the model was fitted on: score and SE-equivalent are extrapolations",
    ),
    m(
        "minutes_extrapolated",
        SC,
        Bool,
        S,
        Up,
        "",
        "the score is above every puzzle of the time model's population: minutes is an extrapolation",
    ),
];

/// A metric name that is not in the registry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown metric {name:?} (known: {})", known_names().join(", "))]
pub struct UnknownMetric {
    /// The name given.
    pub name: String,
}

/// The metric of this name.
///
/// # Errors
/// [`UnknownMetric`], whose message lists every known name.
pub fn metric(name: &str) -> Result<&'static Metric, UnknownMetric> {
    find(name).ok_or_else(|| UnknownMetric {
        name: name.to_string(),
    })
}

/// The metric of this name, if there is one.
pub fn find(name: &str) -> Option<&'static Metric> {
    METRICS.iter().find(|m| m.name == name)
}

/// Every metric's name, in registry order.
pub(crate) fn known_names() -> Vec<&'static str> {
    METRICS.iter().map(|m| m.name).collect()
}

/// The direction of a column: the registry's for a metric, higher is harder
/// for a column sudolab does not compute (a label, another tool's rating).
pub fn direction_of(name: &str) -> Direction {
    find(name).map_or(Direction::HigherIsHarder, |m| m.direction)
}

/// Columns that describe how a row was made, not the puzzle: the input
/// `line`, the run's `params.*` (as `analyze` writes them), `seed`, and the
/// metrics of [`Role::Parameter`] (the relaxation's `k`, `samples`, `cap`).
pub fn is_parameter_column(name: &str) -> bool {
    matches!(name, "line" | "seed")
        || name.starts_with("params.")
        || find(name).is_some_and(|m| m.role == Role::Parameter)
}

/// The metrics a source computes, in registry order.
pub fn of_source(source: Source) -> impl Iterator<Item = &'static Metric> {
    METRICS.iter().filter(move |m| m.source == source)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_unknown_names_list_the_known_ones() {
        let mut names: Vec<&str> = METRICS.iter().map(|m| m.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), METRICS.len());
        let e = metric("speed").unwrap_err().to_string();
        assert!(e.starts_with("unknown metric \"speed\" (known: variables, clauses,"));
        assert!(e.contains("sisus_dependency") && e.contains("se_equivalent"));
        assert_eq!(
            metric("givens").unwrap().direction,
            Direction::LowerIsHarder
        );
    }

    #[test]
    fn parameters_are_not_metrics() {
        for p in ["line", "seed", "k", "samples", "cap", "params.k"] {
            assert!(is_parameter_column(p), "{p}");
        }
        for m in ["mean_fixed", "capped", "givens", "score"] {
            assert!(!is_parameter_column(m), "{m}");
        }
    }

    #[test]
    fn every_rate_model_has_metrics() {
        for model in Model::ALL {
            assert!(of_source(Source::Rate(model)).count() >= 1, "{model}");
        }
    }
}
