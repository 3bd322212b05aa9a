//! Rows for a data set: the layer that assembles what the layers below
//! compute into the rows the commands stream and the report draws.
//!
//! [`AnalysisRow`] is every requested metric of a puzzle in one typed row:
//! the metric groups of [`crate::metrics`] (the clause-length distribution of
//! the minimal encoding, Patti §7.1; the relaxation summary, Pelánek §3.2;
//! the human-model ratings of [`crate::human`]) and the difficulty score of
//! [`crate::score`], as `sudolab analyze` streams them. [`RatedRow`] is
//! `rate`'s row, the ratings beside the score. [`fill_order`] predicts the
//! order in which a puzzle's cells are filled, two ways (Pelánek Fig. 6).
//!
//! A row holds the puzzle, its label, the parameters it was computed with
//! (so a results file says how it was made, and a resumed run can refuse to
//! mix parameters) and one flattened block of fields per metric group, under
//! the same names `clauses`, `relax` and `rate` use. A group that cannot be
//! computed for this puzzle (a contradictory puzzle, one with several
//! solutions) leaves its fields out and says why in `errors`; an engine
//! disagreement is never filed in a row: it is returned as an error.

mod fill_order;

use crate::cnf::ClauseCounts;
use crate::engine::Disagreement;
use crate::grid::Puzzle;
use crate::human::{self, RateOptions, RateRow, Ratings};
use crate::limits::OptionError;
pub(crate) use crate::metrics::MetricGroup;
use crate::metrics::{self, MetricOptions};
use crate::relax::{KChoice, RelaxOptions, RelaxSummary};
use crate::score::{self, Score, ScoreError, ScoreOptions, SerateOutcome};
pub use fill_order::{FillOrderError, FillOrderOptions, FillOrderRow, fill_order};
use serde::Serialize;
use std::collections::BTreeMap;

/// What to compute for every puzzle.
#[derive(Debug, Clone)]
pub struct AnalyzeOptions {
    /// The metric groups, in output order.
    pub groups: Vec<MetricGroup>,
    /// Relaxation parameters (for [`MetricGroup::Relax`]).
    pub relax: RelaxOptions,
    /// Seed of the human models (their runs use [`RateOptions`]' defaults).
    pub rate_seed: u64,
    /// Keep the per-cell fixedness map (N² numbers) in relax metrics.
    pub fixedness: bool,
    /// The caller skips input puzzles equivalent to an earlier one (recorded
    /// in the parameters only: it decides which rows exist, not their values).
    pub dedup: bool,
    /// Work units of serate's nesting levels 3–5, for the `serate` column
    /// and the score's SE-equivalent ([`RateOptions::serate_budget`]).
    pub serate_budget: u64,
}

impl Default for AnalyzeOptions {
    /// `sudolab analyze`'s defaults (the Python package's too): the groups
    /// `clauses,relax,score`, 200 relaxation samples removing k = 45 edges
    /// with seed 1 and cap 1000, no fixedness map.
    fn default() -> Self {
        let samples = 200;
        AnalyzeOptions {
            groups: vec![MetricGroup::Clauses, MetricGroup::Relax, MetricGroup::Score],
            relax: RelaxOptions {
                samples,
                verify: crate::relax::RelaxOptions::default_verify(samples),
                ..RelaxOptions::default()
            },
            rate_seed: crate::seed::DEFAULT_SEED,
            fixedness: false,
            dedup: false,
            serate_budget: RateOptions::SERATE_BUDGET,
        }
    }
}

/// The parameters a row was computed with: a resumed run must use the same.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnalyzeParams {
    /// The metric groups, as `--metrics` names them.
    pub metrics: String,
    /// Seed of the relaxation samples when the relax group is requested,
    /// else of the human models.
    pub seed: u64,
    /// Seed of the human models when a rate group is requested with a seed
    /// other than `seed` (absent otherwise: the command line and Python give
    /// both groups one seed, and their rows record it once).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_seed: Option<u64>,
    /// Relaxation: edges removed, or `auto` (each row's `k` is then its
    /// puzzle's onset); null without the relax group.
    pub k: Option<KChoice>,
    /// Relaxation: samples per puzzle (with a `precision`, the most drawn).
    pub samples: Option<usize>,
    /// Relaxation to a precision: samples are drawn until the 95 % interval
    /// of `mean_fixed` is within ± this many cells (absent without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    /// Relaxation: solution cap.
    pub cap: Option<u64>,
    /// Relaxation: the fixedness map is included.
    pub fixedness: bool,
    /// Puzzles equivalent to an earlier input line were skipped.
    pub dedup: bool,
    /// Serate's work budget, when the rows read serate (the rate group's
    /// serate or the score) and it is not the default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serate_budget: Option<u64>,
}

impl AnalyzeOptions {
    /// The metric groups as `--metrics` names them (`clauses,relax,score`).
    pub fn metrics(&self) -> String {
        let names: Vec<String> = self.groups.iter().map(|g| g.to_string()).collect();
        names.join(",")
    }

    /// The parameters every row of this run carries.
    pub fn params(&self) -> AnalyzeParams {
        let relax = self.groups.contains(&MetricGroup::Relax);
        let rate = self
            .groups
            .iter()
            .any(|g| matches!(g, MetricGroup::Rate(_)));
        let seed = if relax {
            self.relax.seed
        } else {
            self.rate_seed
        };
        AnalyzeParams {
            metrics: self.metrics(),
            seed,
            rate_seed: (rate && self.rate_seed != seed).then_some(self.rate_seed),
            k: relax.then_some(self.relax.k_choice()),
            samples: relax.then_some(self.relax.samples),
            precision: self.relax.precision.filter(|_| relax),
            cap: relax.then_some(self.relax.cap),
            fixedness: relax && self.fixedness,
            dedup: self.dedup,
            serate_budget: (self.reads_serate()
                && self.serate_budget != RateOptions::SERATE_BUDGET)
                .then_some(self.serate_budget),
        }
    }

    /// Whether the rows read serate: the score's SE-equivalent, or the rate
    /// group's serate or fowler.
    fn reads_serate(&self) -> bool {
        self.groups.iter().any(|g| match g {
            MetricGroup::Score => true,
            MetricGroup::Rate(models) => {
                models.contains(&human::Model::Serate) || models.contains(&human::Model::Fowler)
            }
            _ => false,
        })
    }

    /// The metric groups' part of these options.
    pub(crate) fn metric_options(&self) -> MetricOptions {
        MetricOptions {
            groups: self.groups.clone(),
            relax: self.relax.clone(),
            rate_seed: self.rate_seed,
            fixedness: self.fixedness,
            sisus_dependency: true,
            backtrack_cap: crate::human::RateOptions::default().backtrack_cap,
            serate_budget: self.serate_budget,
        }
    }

    /// Checks the parameters before any puzzle is read: the relaxation's
    /// ([`RelaxOptions::check`]) when the relax group is asked for, else the
    /// ceiling of `samples` alone.
    pub fn check(&self) -> Result<(), OptionError> {
        if self.groups.contains(&MetricGroup::Relax) {
            self.relax.check()
        } else {
            crate::limits::at_most("samples", self.relax.samples, crate::limits::MAX_SAMPLES)
        }
    }
}

/// Every requested metric of one puzzle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnalysisRow {
    /// The puzzle as one line (stable output column).
    pub puzzle: String,
    /// The puzzle's label from the input line, if any.
    pub label: Option<String>,
    /// How the metrics were computed.
    pub params: AnalyzeParams,
    /// Clause counts and ALO length distribution of the minimal encoding,
    /// flattened; `None` when not requested or the puzzle is refused.
    #[serde(flatten)]
    pub clauses: Option<ClauseCounts>,
    /// Relaxation summary at the requested `k`, flattened; `None` when not
    /// requested or the puzzle cannot be relaxed.
    #[serde(flatten)]
    pub relax: Option<RelaxSummary>,
    /// With a relaxation precision: whether the samples reached it (`false`:
    /// the run stopped at `samples` first, so `mean_fixed`'s interval is
    /// wider than asked). Written only with a precision, as `relax` does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision_reached: Option<bool>,
    /// Human-model ratings, flattened (the `rate` columns); `None` when no model
    /// is requested.
    #[serde(flatten)]
    pub rate: Option<Ratings>,
    /// Difficulty score, its level and SE-equivalent (shipped model, default
    /// options), flattened; `None` when not requested or the puzzle has none.
    #[serde(flatten)]
    pub score: Option<Score>,
    /// Metric group → why it could not be computed for this puzzle.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub errors: BTreeMap<String, String>,
}

/// Computes every requested metric of a puzzle.
///
/// # Errors
/// Only an engine disagreement (a bug, with a reproducible case); anything
/// the puzzle itself causes is recorded in the row's `errors`.
///
/// ```
/// use sudolab::{AnalyzeOptions, MetricGroup, analyze, parse_puzzle};
///
/// let p = parse_puzzle(
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
/// )?;
/// let opts = AnalyzeOptions { groups: vec![MetricGroup::Clauses], ..AnalyzeOptions::default() };
/// let row = analyze(&p, &opts)?;
/// assert!(row.clauses.is_some() && row.relax.is_none() && row.rate.is_none());
/// assert!(row.errors.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn analyze(puzzle: &Puzzle, opts: &AnalyzeOptions) -> Result<AnalysisRow, Disagreement> {
    let values = metrics::compute(puzzle, &opts.metric_options())?;
    let mut row = AnalysisRow {
        puzzle: puzzle.to_line(),
        label: puzzle.label.clone(),
        params: opts.params(),
        clauses: values.clauses,
        relax: values.relax,
        precision_reached: values.precision_reached,
        rate: values.rate,
        score: None,
        errors: values.errors,
    };
    if opts.groups.contains(&MetricGroup::Score) {
        // The rate group's serate (same budget) is the SE-equivalent's.
        let known = opts
            .groups
            .iter()
            .any(|g| matches!(g, MetricGroup::Rate(m) if m.contains(&human::Model::Serate)))
            .then(|| row.rate.as_ref().map(serate_outcome))
            .flatten();
        match score_within(puzzle, opts.serate_budget, known) {
            Ok(s) => row.score = Some(s.score),
            Err(ScoreError::Disagreement(d)) => return Err(d),
            Err(e) => {
                row.errors
                    .insert(MetricGroup::Score.to_string(), e.to_string());
            }
        }
    }
    Ok(row)
}

/// A `rate` row: the human models' ratings with the difficulty score beside
/// them (the score is a model over ratings, so it stands above `human`; this
/// layer puts the two side by side).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatedRow {
    /// The puzzle, its label and every model's ratings, flattened.
    #[serde(flatten)]
    pub rate: RateRow,
    /// The difficulty score with its level and SE-equivalent, flattened;
    /// `None` when not asked for or the puzzle has none (no unique solution,
    /// not 9×9).
    #[serde(flatten)]
    pub score: Option<Score>,
}

impl RatedRow {
    /// Rates a puzzle with the requested models and, when `with_score`, adds its
    /// difficulty score (shipped model, default options; its SE-equivalent reads
    /// serate within `opts`'s work budget, the serate column's when `opts` runs
    /// serate).
    ///
    /// # Errors
    /// Only an engine disagreement; a puzzle without a score has `score: None`.
    pub fn of(
        puzzle: &Puzzle,
        opts: &RateOptions,
        with_score: bool,
    ) -> Result<RatedRow, Disagreement> {
        let rate = human::rate(puzzle, opts);
        let score = if with_score {
            let known = opts
                .models
                .contains(&human::Model::Serate)
                .then(|| serate_outcome(&rate.ratings));
            let scored = score_within(puzzle, opts.serate_budget, known);
            match scored {
                Ok(s) => Some(s.score),
                Err(ScoreError::Disagreement(d)) => return Err(d),
                Err(_) => None,
            }
        } else {
            None
        };
        Ok(RatedRow { rate, score })
    }
}

/// Serate's outcome as a row of ratings that ran it records it (a puzzle
/// without a unique solution has none: serate did not run).
fn serate_outcome(ratings: &Ratings) -> SerateOutcome {
    ratings
        .serate
        .outcome()
        .map_or(SerateOutcome::Unfinished, SerateOutcome::from_rating)
}

/// The score with the shipped model and default options, serate's nesting
/// levels within `serate_budget` (its outcome `known` when the caller has it).
fn score_within(
    puzzle: &Puzzle,
    serate_budget: u64,
    known: Option<SerateOutcome>,
) -> Result<score::Scored, ScoreError> {
    let shipped = ScoreOptions::shipped();
    if known.is_some() || serate_budget == shipped.serate_budget {
        score::score_knowing(puzzle, shipped, known)
    } else {
        let own = ScoreOptions {
            serate_budget,
            ..shipped.clone()
        };
        score::score_knowing(puzzle, &own, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn options(metrics: &str, samples: usize) -> AnalyzeOptions {
        AnalyzeOptions {
            groups: MetricGroup::parse_list(metrics).unwrap(),
            relax: RelaxOptions {
                samples,
                ..RelaxOptions::default()
            },
            rate_seed: 1,
            fixedness: false,
            dedup: false,
            serate_budget: RateOptions::SERATE_BUDGET,
        }
    }

    #[test]
    fn row_flattens_each_group_and_names_errors() {
        let opts = options("clauses,relax,rate:baseline", 4);
        let p = crate::grid::parse_puzzle(EXAMPLE).unwrap();
        let row = analyze(&p, &opts).unwrap();
        let v = serde_json::to_value(&row).unwrap();
        // 30 givens: 51 empty cells, so 51 cell ALO clauses and 51 per unit kind.
        let alo: u64 = row.clauses.as_ref().unwrap().alo_lengths.iter().sum();
        assert_eq!(alo, 4 * 51);
        assert_eq!(v["variables"], 729);
        assert_eq!(v["samples"], 4);
        assert_eq!(v["givens"], 30);
        assert!(v.get("fixedness").is_none());
        assert!(v.get("errors").is_none());
        assert_eq!(v["params"]["metrics"], "clauses,relax,rate:baseline");
        assert_eq!(v["params"]["k"], 45);

        // Two 5s in the first row: every group says why it has no value.
        let bad = crate::grid::parse_puzzle(
            "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        let row = analyze(&bad, &opts).unwrap();
        assert!(row.clauses.is_none() && row.relax.is_none());
        assert_eq!(
            row.errors.keys().collect::<Vec<_>>(),
            vec!["clauses", "relax"]
        );
        let rate = row.rate.unwrap();
        assert!(matches!(
            rate.puzzle,
            Some(human::PuzzleFault::Contradiction(_))
        ));
        assert!(rate.status()["puzzle"].contains("contradiction"));
    }

    /// A library user may give the relaxation and the human models
    /// different seeds: the row records each, and the ratings are the ones
    /// of the models' seed.
    #[test]
    fn params_record_the_relaxation_and_rating_seeds_apart() {
        let p = crate::grid::parse_puzzle(EXAMPLE).unwrap();
        let mut opts = options("relax,rate:hsolve", 2);
        opts.relax.seed = 3;
        opts.rate_seed = 5;
        let row = analyze(&p, &opts).unwrap();
        assert_eq!((row.params.seed, row.params.rate_seed), (3, Some(5)));
        let v = serde_json::to_value(&row.params).unwrap();
        assert_eq!(
            (v["seed"].as_u64(), v["rate_seed"].as_u64()),
            (Some(3), Some(5))
        );
        let hsolve = RateOptions {
            seed: 5,
            ..RateOptions::for_model(human::Model::Hsolve)
        };
        assert_eq!(row.rate, Some(human::rate(&p, &hsolve).ratings));

        // Without the relax group the models' seed is the run's seed.
        let mut rate_only = options("rate:hsolve", 2);
        rate_only.relax.seed = 3;
        rate_only.rate_seed = 5;
        assert_eq!(
            (rate_only.params().seed, rate_only.params().rate_seed),
            (5, None)
        );
        // One seed for both groups is recorded once, as in every CLI row.
        let mut same = options("relax,rate:hsolve", 2);
        (same.relax.seed, same.rate_seed) = (4, 4);
        let v = serde_json::to_value(same.params()).unwrap();
        assert_eq!(v["seed"], 4);
        assert!(v.get("rate_seed").is_none());
        // Without a rate group the models' seed is not a parameter.
        let mut relax_only = options("relax", 2);
        relax_only.rate_seed = 9;
        assert_eq!(relax_only.params().rate_seed, None);
    }

    #[test]
    fn every_column_of_a_full_row_is_in_the_metric_registry() {
        let opts = options("clauses,relax,rate-all,score", 2);
        let p = crate::grid::parse_puzzle(EXAMPLE).unwrap();
        let v = serde_json::to_value(analyze(&p, &opts).unwrap()).unwrap();
        let columns: Vec<&str> = v
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .filter(|k| !matches!(*k, "puzzle" | "label" | "params" | "status"))
            .collect();
        use crate::metrics::Metric;
        let registry: Vec<&str> = Metric::ALL
            .iter()
            // `saturated` is written only when a count passed 2^64 - 1.
            .filter(|m| !matches!(m, Metric::MeanLengthPct | Metric::Saturated))
            .map(|m| m.name())
            .collect();
        assert_eq!(columns, registry);
    }
}
