//! The metric registry: every column a metric row can hold, with its
//! meaning, unit, direction, the group that computes it and its role, in
//! one table, the [`Metric`] enum that `metric_table!` declares.
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
use std::str::FromStr;

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
    /// The spread (standard deviation), standard error, interval bound or
    /// median of a randomised metric over its runs or samples: how stable
    /// the metric is, not how hard the puzzle is.
    Spread,
    /// A parameter the row was computed with (`k`, `samples`, `cap`), not a
    /// property of the puzzle.
    Parameter,
    /// How sure a stochastic metric is: its standard error over its runs
    /// (`_se`, [`Metric::standard_error`]) or the confidence of a level
    /// derived from one (`_confidence`, [`Metric::confidence`]); it
    /// describes the model's sampling error, not the puzzle
    /// (`docs/methods.md` §3.10).
    Uncertainty,
}

/// Which statistic of a random metric a column holds: a random metric `X`
/// is one [`Estimate`](crate::Estimate), whose columns are `X` (the mean),
/// `X_sd` and `X_se`, those of the three the registry lists
/// ([`Metric::statistic`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Statistic {
    /// The mean of the runs, or a column of no estimate.
    Mean,
    /// The sample standard deviation of the runs (`_sd`).
    Sd,
    /// The standard error of the mean (`_se`).
    Se,
}

impl Statistic {
    /// The suffix of its column's name after the metric's.
    const fn suffix(self) -> &'static str {
        match self {
            Statistic::Mean => "",
            Statistic::Sd => "_sd",
            Statistic::Se => "_se",
        }
    }
}

/// What the registry says of one metric.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MetricInfo {
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
    /// Metric, spread, parameter or uncertainty.
    pub role: Role,
    /// `score --fast` leaves it out: the relaxation samples and the
    /// randomised SiSuS and hsolve runs, which take most of a score's time
    /// (measured in `docs/score.md`).
    pub costly: bool,
}

/// The oracle's levels (Fletcher et al., cut points in
/// [`crate::human::oracle::OracleOptions`]).
pub(crate) const ORACLE_LEVELS: [&str; 4] = {
    use crate::human::oracle::OracleLevel as L;
    [
        L::Cinch.name(),
        L::Confusing.name(),
        L::Challenging.name(),
        L::Crazy.name(),
    ]
};
/// Xu & Xu Table 3 levels of the technique-weight score.
pub(crate) const WEIGHT_LEVELS: [&str; 4] = {
    use crate::human::weights::WeightLevel as L;
    [
        L::Easy.name(),
        L::Intermediate.name(),
        L::Hard.name(),
        L::Challenging.name(),
    ]
};
/// The score's four-level scale (`crate::score::scale_names(4)`, checked by a test).
pub(crate) const SCORE_LEVELS: [&str; 4] = ["Easy", "Medium", "Hard", "Expert"];

use Direction::{HigherIsHarder as Up, LowerIsHarder as Down};
use Kind::{Bool, List, Number, Text};
use Role::{Metric as M, Parameter as P, Spread as S, Uncertainty as U};

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
const BERTHIER: Source = Source::Rate(Model::Berthier);
const SC: Source = Source::Score;

/// Declares [`Metric`] and its table from one list: each line names the
/// variant, then the column name, source, kind, role, direction, whether
/// it is costly, the unit and the meaning.
macro_rules! metric_table {
    ($($variant:ident = $name:literal, $source:expr, $kind:expr, $role:expr, $direction:expr,
       $costly:literal, $unit:literal, $meaning:literal;)*) => {
        /// A metric column: every value sudolab computes of a puzzle, in the
        /// order an `analyze` row holds them. Its name is parsed once at the
        /// edge ([`str::parse`], serde) and printed by [`fmt::Display`].
        /// Metrics order by name, so a map keyed by metric lists its columns
        /// alphabetically, as every output always has.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Metric {
            $(#[doc = $meaning] $variant,)*
        }

        impl Metric {
            /// Every metric, in the order an `analyze` row holds them.
            pub const ALL: &'static [Metric] = &[$(Metric::$variant,)*];

            /// What the registry says of this metric.
            pub const fn info(self) -> MetricInfo {
                match self {
                    $(Metric::$variant => MetricInfo {
                        name: $name,
                        meaning: $meaning,
                        unit: $unit,
                        direction: $direction,
                        source: $source,
                        kind: $kind,
                        role: $role,
                        costly: $costly,
                    },)*
                }
            }
        }
    };
}

metric_table! {
    Variables = "variables", CL, Number, M, Up, false, "variables",
        "variables of the minimal encoding";
    Clauses = "clauses", CL, Number, M, Up, false, "clauses",
        "clauses of the minimal encoding";
    AloLengths = "alo_lengths", CL, List, M, Up, false, "clauses",
        "at-least-one clauses by length (index = length)";
    ShortPct = "short_pct", CL, Number, M, Down, false, "%",
        "share of ALO clauses of the short class";
    MediumPct = "medium_pct", CL, Number, M, Up, false, "%",
        "share of ALO clauses of the medium class";
    LongPct = "long_pct", CL, Number, M, Up, false, "%",
        "share of ALO clauses of the long class";
    MeanLengthPct = "mean_length_pct", CL, List, M, Down, false, "%",
        "mean ALO clause length as a share of N, per clause kind";
    K = "k", RX, Number, P, Up, false, "edges",
        "edges removed per relaxation sample";
    Samples = "samples", RX, Number, P, Up, false, "samples",
        "relaxation samples drawn (with --precision, the samples it needed)";
    Cap = "cap", RX, Number, P, Up, false, "solutions",
        "solution cap of each sample's count (0 = exact)";
    MeanSolutions = "mean_solutions", RX, Number, M, Up, true, "solutions",
        "mean solutions per relaxed sample (a lower bound when capped)";
    MedianSolutions = "median_solutions", RX, Number, M, Up, true, "solutions",
        "median solutions per relaxed sample";
    MeanExtra = "mean_extra", RX, Number, M, Up, true, "solutions",
        "mean solutions other than the original one";
    PUnique = "p_unique", RX, Number, M, Down, true, "share",
        "share of relaxed samples with exactly one solution";
    PUniqueLow = "p_unique_low", RX, Number, S, Down, true, "share",
        "lower end of the 95 % Wilson score interval of p_unique";
    PUniqueHigh = "p_unique_high", RX, Number, S, Down, true, "share",
        "upper end of the 95 % Wilson score interval of p_unique";
    MeanFixed = "mean_fixed", RX, Number, M, Down, true, "cells",
        "mean fixed non-given cells per relaxed sample";
    MeanFixedSe = "mean_fixed_se", RX, Number, U, Down, true, "cells",
        "standard error of mean_fixed: sample standard deviation / sqrt(samples) (null with one sample)";
    MeanFixedLow = "mean_fixed_low", RX, Number, S, Down, true, "cells",
        "lower end of the 95 % Student's t interval of mean_fixed (samples - 1 degrees of freedom), clipped to 0";
    MeanFixedHigh = "mean_fixed_high", RX, Number, S, Down, true, "cells",
        "upper end of the 95 % Student's t interval of mean_fixed, clipped to the empty cells";
    Capped = "capped", RX, Number, M, Up, false, "samples",
        "samples whose count hit the cap";
    Saturated = "saturated", RX, Number, M, Up, false, "samples",
        "samples whose exact count passed 2^64 - 1 (a lower bound; also in capped; absent when 0)";
    PNothing = "p_nothing", RX, Number, M, Up, true, "share",
        "share of relaxed samples that show nothing: capped, or several solutions and no fixed cell";
    SawNothing = "saw_nothing", RX, Bool, M, Up, true, "",
        "p_nothing > 1/2: k relaxes the puzzle past what the method can show (saturation, not a finding)";
    RelaxationOnsetK = "relaxation_onset_k", RX, Number, M, Down, true, "edges",
        "k where P(unique) over 100 nested samples falls to 1/2 (named by relax and report where the row saw nothing, and by relax --k auto; null elsewhere)";
    Givens = "givens", BASE, Number, M, Down, false, "cells",
        "number of givens";
    Candidates = "candidates", BASE, Number, M, Up, false, "candidates",
        "candidates of the empty cells the givens leave (the pencil marks before any step)";
    Backtracks = "backtracks", BASE, Number, M, Up, false, "backtracks",
        "backtracks of a plain depth-first search";
    SisusRefutationSum = "sisus_refutation_sum", SISUS, Number, M, Up, true, "",
        "SiSuS refutation sum, mean over runs";
    SisusRefutationSumSd = "sisus_refutation_sum_sd", SISUS, Number, S, Up, true, "",
        "spread of the refutation sum over runs";
    SisusRefutationSumSe = "sisus_refutation_sum_se", SISUS, Number, U, Up, true, "",
        "standard error of the refutation sum over runs";
    SisusDependency = "sisus_dependency", SISUS, Number, M, Down, true, "possibilities",
        "SiSuS dependency: mean possibilities of the first k steps";
    SisusDependencySd = "sisus_dependency_sd", SISUS, Number, S, Up, true, "possibilities",
        "spread of the dependency over runs";
    SisusDependencySe = "sisus_dependency_se", SISUS, Number, U, Up, true, "possibilities",
        "standard error of the dependency over runs";
    SinglesDependency = "singles_dependency", SINGLES, Number, M, Down, false, "cells",
        "cells a hidden single can fill per step over the first 30 steps, mean over runs";
    SinglesDependencySd = "singles_dependency_sd", SINGLES, Number, S, Up, false, "cells",
        "spread of the hidden-single dependency over runs";
    SinglesDependencySe = "singles_dependency_se", SINGLES, Number, U, Up, false, "cells",
        "standard error of the hidden-single dependency over runs";
    SinglesBoxReach = "singles_box_reach", SINGLES, Number, M, Down, false, "share",
        "share of the empty cells hidden singles in boxes alone fill";
    SinglesHiddenReach = "singles_hidden_reach", SINGLES, Number, M, Down, false, "share",
        "share of the empty cells hidden singles alone fill";
    SinglesNakedReach = "singles_naked_reach", SINGLES, Number, M, Down, false, "share",
        "share of the empty cells naked singles alone fill";
    OracleScore = "oracle_score", ORACLE, Number, M, Up, false, "",
        "oracle model score (1 + tanh(A(s - B)))/2, in [0, 1]";
    OracleScoreSe = "oracle_score_se", ORACLE, Number, U, Up, false, "",
        "standard error of the oracle score over trials (delete-one jackknife)";
    OracleLevel = "oracle_level", ORACLE, Kind::Levels(&ORACLE_LEVELS), M, Up, false, "",
        "oracle level of the score";
    OracleLevelConfidence = "oracle_level_confidence", ORACLE, Number, U, Up, false, "probability",
        "probability that the score of infinitely many trials is in the stated level (normal approximation with oracle_score_se)";
    OracleVisits = "oracle_visits", ORACLE, Number, M, Up, false, "visits",
        "oracle visits per trial, mean";
    OracleVisitsSd = "oracle_visits_sd", ORACLE, Number, S, Up, false, "visits",
        "spread of the oracle visits over trials";
    OracleVisitsSe = "oracle_visits_se", ORACLE, Number, U, Up, false, "visits",
        "standard error of the oracle visits over trials";
    Hsolve = "hsolve", HSOLVE, Number, M, Up, true, "checks",
        "hsolve expected search time, mean over runs";
    HsolveSd = "hsolve_sd", HSOLVE, Number, S, Up, true, "checks",
        "spread of hsolve over runs";
    HsolveSe = "hsolve_se", HSOLVE, Number, U, Up, true, "checks",
        "standard error of hsolve over runs";
    HsolveMedian = "hsolve_median", HSOLVE, Number, S, Up, true, "checks",
        "median of hsolve over runs";
    Nishio2 = "nishio2", NISHIO, Number, M, Up, false, "cycles",
        "Nishio cycles with 2 strategies, mean";
    Nishio2Se = "nishio2_se", NISHIO, Number, U, Up, false, "cycles",
        "standard error of the 2-strategy cycles";
    Nishio3 = "nishio3", NISHIO, Number, M, Up, false, "cycles",
        "Nishio cycles with 3 strategies, mean";
    Nishio3Se = "nishio3_se", NISHIO, Number, U, Up, false, "cycles",
        "standard error of the 3-strategy cycles";
    Nishio4 = "nishio4", NISHIO, Number, M, Up, false, "cycles",
        "Nishio cycles with 4 strategies, mean";
    Nishio4Sd = "nishio4_sd", NISHIO, Number, S, Up, false, "cycles",
        "spread of the 4-strategy cycles";
    Nishio4Se = "nishio4_se", NISHIO, Number, U, Up, false, "cycles",
        "standard error of the 4-strategy cycles";
    Nishio4Median = "nishio4_median", NISHIO, Number, S, Up, false, "cycles",
        "median of the 4-strategy cycles";
    Nishio4Heuristic = "nishio4_heuristic", NISHIO, Number, M, Up, false, "cycles",
        "Nishio cycles with 4 strategies, Patti's heuristic";
    SolvedBy2 = "solved_by_2", NISHIO, Bool, M, Down, false, "",
        "2 Nishio strategies alone solve the puzzle";
    SolvedBy3 = "solved_by_3", NISHIO, Bool, M, Down, false, "",
        "3 Nishio strategies alone solve the puzzle";
    SolvedBy4 = "solved_by_4", NISHIO, Bool, M, Down, false, "",
        "4 Nishio strategies alone solve the puzzle";
    WeightsScore = "weights_score", WEIGHTS, Number, M, Up, false, "weight",
        "Xu & Xu technique-weight score";
    WeightsLevel = "weights_level", WEIGHTS, Kind::Levels(&WEIGHT_LEVELS), M, Up, false, "",
        "Xu & Xu Table 3 level";
    HardestTechnique = "hardest_technique", WEIGHTS, Text, M, Up, false, "",
        "the hardest technique of the simplest-first path";
    HardestWeight = "hardest_weight", WEIGHTS, Number, M, Up, false, "weight",
        "first-use weight of the hardest technique";
    BasicReach = "basic_reach", WEIGHTS, Number, M, Down, false, "share",
        "share of the empty cells singles, pairs and intersections fill before they stall (1: they solve the puzzle)";
    Serate = "serate", SERATE, Number, M, Up, false, "SE",
        "Sudoku Explainer's ER (rating): the highest rating along SE's path, the first hint of the first rule that applies (chains by kind, nesting and length)";
    SerateUses = "serate_uses", SERATE, Text, M, Up, false, "",
        "how many steps of that path used each Sudoku Explainer rule, `rule:count` joined by `;`";
    SerateEp = "serate_ep", SERATE, Number, M, Up, false, "SE",
        "Sudoku Explainer's EP (pearl) on that path: the highest rating up to and including the first step that places a digit";
    SerateEd = "serate_ed", SERATE, Number, M, Up, false, "SE",
        "Sudoku Explainer's ED (diamond) on that path: the rating of the first step";
    Fowler = "fowler", FOWLER, Number, M, Up, false, "SE",
        "Fowler-like: sum of the Sudoku Explainer ratings of every step of that path";
    TrialDepth = "trial_depth", TRIAL, Number, M, Up, false, "levels",
        "deepest nesting of assumptions singles needed: 0 none, 1 single, 2 nested, 3 deeper";
    TrialSteps = "trial_steps", TRIAL, Number, M, Up, false, "steps",
        "largest fewest-step count of a refutation at the trial depth";
    TrialRating = "trial_rating", TRIAL, Number, M, Up, false, "",
        "trial depth and steps in one number: depth + steps/(steps + 8)";
    TrialEliminations = "trial_eliminations", TRIAL, Number, M, Up, false, "candidates",
        "candidates eliminated by assumptions over the solve";
    WRating = "w_rating", BERTHIER, Number, M, Up, false, "length",
        "Berthier's W rating: the longest whip the simplest-first path needs (T&E(1) puzzles)";
    BRating = "b_rating", BERTHIER, Number, M, Up, false, "length",
        "Berthier's B rating: the longest braid the simplest-first path needs (T&E(1) puzzles)";
    Bxb = "bxb", BERTHIER, Number, M, Up, false, "length",
        "Berthier's BxB: the least p such that T&E(B_p, 1) solves the puzzle (T&E(2) puzzles)";
    Bxbb = "bxbb", BERTHIER, Number, M, Up, false, "length",
        "Berthier's BxBB: the least p such that T&E(B_p, 2) solves the puzzle (T&E(3) puzzles)";
    BerthierStatus = "berthier_status", BERTHIER, Text, M, Up, false, "",
        "the T&E depth and, per Berthier rating, rated / out_of_range / above_max / budget";
    SaSteps = "sa_steps", SA, Number, M, Up, true, "moves",
        "simulated annealing moves until a solution (capped runs count as the cap)";
    SaStepsSe = "sa_steps_se", SA, Number, U, Up, true, "moves",
        "standard error of the annealing moves over runs";
    SaSolved = "sa_solved", SA, Number, S, Down, true, "",
        "share of the annealing runs that reached a solution";
    SaSolvedSe = "sa_solved_se", SA, Number, U, Up, true, "",
        "standard error of the share of solved annealing runs";
    HarmonyCost = "harmony_cost", HARMONY, Number, M, Up, true, "digits",
        "harmony search: digits missing from the units of the best harmony after 10,000 steps";
    HarmonyCostSe = "harmony_cost_se", HARMONY, Number, U, Up, true, "digits",
        "standard error of the harmony cost over runs";
    HarmonySteps = "harmony_steps", HARMONY, Number, M, Up, true, "steps",
        "harmony search steps until a solution (unfinished runs count as the cap)";
    HarmonyStepsSe = "harmony_steps_se", HARMONY, Number, U, Up, true, "steps",
        "standard error of the harmony search steps over runs";
    Score = "score", SC, Number, M, Up, false, "",
        "the difficulty score: 0 and 10 are the 1st and 99th percentiles of the fitting puzzles; the hardest known reach about 13";
    ScoreLevel = "score_level", SC, Kind::Levels(&SCORE_LEVELS), M, Up, false, "",
        "the score's level";
    SeEquivalent = "se_equivalent", SC, Number, M, Up, false, "SE",
        "Sudoku Explainer rating equivalent (1.0–11.9): serate's ER where it finishes within its work budget, else placed by the score and the trial depth";
    SeBy = "se_by", SC, Text, M, Up, false, "",
        "what se_equivalent is: serate, placement, or placement (serate over budget)";
    Minutes = "minutes", SC, Number, M, Up, false, "min",
        "expected mean solving time of the time model's population (Cloud Sudoku players, puzzles up to SE 8.2)";
    MinutesLow = "minutes_low", SC, Number, S, Up, false, "min",
        "25 % end of the band of solving times";
    MinutesHigh = "minutes_high", SC, Number, S, Up, false, "min",
        "75 % end of the band of solving times";
    Extrapolated = "extrapolated", SC, Bool, M, Up, false, "",
        "the puzzle is above everything the model was fitted on: score and SE-equivalent are extrapolations";
    MinutesExtrapolated = "minutes_extrapolated", SC, Bool, S, Up, false, "",
        "the score is above every puzzle of the time model's population: minutes is an extrapolation";
}

impl Metric {
    /// Column name in every output (JSONL, CSV, the report).
    pub const fn name(self) -> &'static str {
        self.info().name
    }
    /// What it measures, in a few words.
    pub const fn meaning(self) -> &'static str {
        self.info().meaning
    }
    /// Unit of the value (`""` for a plain number).
    pub const fn unit(self) -> &'static str {
        self.info().unit
    }
    /// Which way is harder.
    pub const fn direction(self) -> Direction {
        self.info().direction
    }
    /// The group that computes it.
    pub const fn source(self) -> Source {
        self.info().source
    }
    /// The kind of value.
    pub const fn kind(self) -> Kind {
        self.info().kind
    }
    /// Metric, spread, parameter or uncertainty.
    pub const fn role(self) -> Role {
        self.info().role
    }
    /// Whether `score --fast` leaves it out.
    pub const fn costly(self) -> bool {
        self.info().costly
    }

    /// The column holding this metric's standard error over its runs, for a
    /// stochastic metric (a mean over random runs of a human model or over
    /// relaxation samples): the column named `X_se` for the metric `X`;
    /// `None` for a deterministic one. `generate --target` reads it to keep
    /// a puzzle only when the target holds with the asked confidence.
    pub fn standard_error(self) -> Option<Metric> {
        let name = self.name();
        Metric::ALL
            .iter()
            .copied()
            .find(|m| m.name().strip_prefix(name) == Some(Statistic::Se.suffix()))
    }

    /// The metric whose [`Estimate`](crate::Estimate) this column holds,
    /// and which statistic of it: `X_sd` is the standard deviation of the
    /// runs of `X`, `X_se` its standard error (for a metric `X` of the same
    /// source), any other column its own value.
    pub(crate) fn statistic(self) -> (Metric, Statistic) {
        for statistic in [Statistic::Sd, Statistic::Se] {
            let of = self.name().strip_suffix(statistic.suffix()).and_then(find);
            if let Some(of) = of.filter(|of| of.source() == self.source()) {
                return (of, statistic);
            }
        }
        (self, Statistic::Mean)
    }

    /// The column saying how sure a level derived from a stochastic metric
    /// is (`oracle_level` → `oracle_level_confidence`); `None` for the
    /// other metrics and for levels of deterministic scores.
    pub const fn confidence(self) -> Option<Metric> {
        match self {
            Metric::OracleLevel => Some(Metric::OracleLevelConfidence),
            _ => None,
        }
    }
}

impl Ord for Metric {
    fn cmp(&self, other: &Metric) -> std::cmp::Ordering {
        self.name().cmp(other.name())
    }
}

impl PartialOrd for Metric {
    fn partial_cmp(&self, other: &Metric) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Metric {
    type Err = UnknownMetric;

    fn from_str(name: &str) -> Result<Metric, UnknownMetric> {
        metric(name)
    }
}

impl Serialize for Metric {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Metric {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Metric, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
        metric(&name).map_err(serde::de::Error::custom)
    }
}

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
pub(crate) fn metric(name: &str) -> Result<Metric, UnknownMetric> {
    find(name).ok_or_else(|| UnknownMetric {
        name: name.to_string(),
    })
}

/// The metric of this name, if there is one.
pub(crate) fn find(name: &str) -> Option<Metric> {
    Metric::ALL.iter().copied().find(|m| m.name() == name)
}

/// The names of these metrics joined by `sep`.
pub(crate) fn join(metrics: &[Metric], sep: &str) -> String {
    metrics
        .iter()
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(sep)
}

/// Every metric's name, in registry order.
pub(crate) fn known_names() -> Vec<&'static str> {
    Metric::ALL.iter().map(|m| m.name()).collect()
}

/// The direction of a column: the registry's for a metric, higher is harder
/// for a column sudolab does not compute (a label, another tool's rating).
pub(crate) fn direction_of(name: &str) -> Direction {
    find(name).map_or(Direction::HigherIsHarder, Metric::direction)
}

/// Columns that describe how a row was made, not the puzzle: the input
/// `line`, the run's `params.*` (as `analyze` writes them), `seed`, and the
/// metrics of [`Role::Parameter`] (the relaxation's `k`, `samples`, `cap`).
pub(crate) fn is_parameter_column(name: &str) -> bool {
    matches!(name, "line" | "seed")
        || name.starts_with("params.")
        || find(name).is_some_and(|m| m.role() == Role::Parameter)
}

/// The metrics a source computes, in registry order.
#[cfg(test)]
pub(crate) fn of_source(source: Source) -> impl Iterator<Item = Metric> {
    Metric::ALL
        .iter()
        .copied()
        .filter(move |m| m.source() == source)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_unknown_names_list_the_known_ones() {
        let mut names: Vec<&str> = Metric::ALL.iter().map(|m| m.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Metric::ALL.len());
        let e = metric("speed").unwrap_err().to_string();
        assert!(e.starts_with("unknown metric \"speed\" (known: variables, clauses,"));
        assert!(e.contains("sisus_dependency") && e.contains("se_equivalent"));
        assert_eq!(
            metric("givens").unwrap().direction(),
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

    /// Every `_se` and `_confidence` column belongs to one metric of its
    /// source and is an uncertainty; every randomised mean has one.
    #[test]
    fn uncertainty_columns_name_their_metric() {
        let mut linked = Vec::new();
        for &m in Metric::ALL {
            for u in [m.standard_error(), m.confidence()].into_iter().flatten() {
                assert_eq!(u.role(), Role::Uncertainty, "{u}");
                assert_eq!(u.source(), m.source(), "{u}");
                assert!(u.name().starts_with(m.name()), "{u} of {m}");
                linked.push(u);
            }
        }
        let uncertain: Vec<Metric> = Metric::ALL
            .iter()
            .copied()
            .filter(|m| m.role() == Role::Uncertainty)
            .collect();
        assert_eq!(linked, uncertain);
        for m in ["oracle_score", "hsolve", "nishio4", "sisus_refutation_sum"] {
            assert!(metric(m).unwrap().standard_error().is_some(), "{m}");
        }
        for m in ["weights_score", "givens", "trial_rating", "score"] {
            assert_eq!(metric(m).unwrap().standard_error(), None, "{m}");
        }
        assert_eq!(Metric::Hsolve.standard_error(), Some(Metric::HsolveSe));
        assert_eq!(
            Metric::MeanFixed.standard_error(),
            Some(Metric::MeanFixedSe)
        );
        assert_eq!(Metric::HsolveSe.standard_error(), None);
    }

    /// `X_sd` and `X_se` are statistics of `X`; a median, an interval end,
    /// a confidence and a column named like another source's are not.
    #[test]
    fn sd_and_se_columns_are_statistics_of_their_metric() {
        use Statistic::{Mean, Sd, Se};
        let cases = [
            (Metric::Hsolve, Metric::Hsolve, Mean),
            (Metric::HsolveSd, Metric::Hsolve, Sd),
            (Metric::HsolveSe, Metric::Hsolve, Se),
            (Metric::Nishio2Se, Metric::Nishio2, Se),
            (Metric::OracleScoreSe, Metric::OracleScore, Se),
            (Metric::MeanFixedSe, Metric::MeanFixed, Se),
            (Metric::HsolveMedian, Metric::HsolveMedian, Mean),
            (Metric::PUniqueLow, Metric::PUniqueLow, Mean),
            (
                Metric::OracleLevelConfidence,
                Metric::OracleLevelConfidence,
                Mean,
            ),
            (Metric::SeEquivalent, Metric::SeEquivalent, Mean),
        ];
        for (column, of, statistic) in cases {
            assert_eq!(column.statistic(), (of, statistic), "{column}");
        }
        let sd_columns = Metric::ALL.iter().filter(|m| m.statistic().1 == Sd).count();
        assert_eq!(sd_columns, 6);
    }

    #[test]
    fn every_rate_model_has_metrics() {
        for model in Model::ALL {
            assert!(of_source(Source::Rate(model)).count() >= 1, "{model}");
        }
    }
}
