//! The report model: every number of the HTML report in one `Serialize`
//! struct, computed here and drawn by [`super::html`] (so `report --format
//! json` writes exactly what the page shows).
//!
//! A [`PuzzleReport`] gathers, for one puzzle: the engines' cross-check
//! (every engine's solution count and the agreed solution), the ALO
//! clause-length histograms of the minimal and maximal encodings (Patti
//! §7.1, Table 1), a relaxation at one `k` with per-cell fixedness and its
//! verified samples (Pelánek §3.2), a `k` sweep with the fit `c·e^{k/λ}`
//! (Pelánek Fig. 8), every human-model rating with its percentile in a
//! [`Reference`] set, and the technique path of `rate --explain`.
//!
//! A [`DatasetReport`] describes a results table (an `analyze` JSONL file,
//! or rows computed from puzzles by [`analyze_puzzles`]): a histogram of
//! every numeric metric, the Spearman matrix between metrics (and the label
//! when one is given), each metric against the label, and the universal
//! Easy/Medium/Hard classes of each metric by equal-count bins (Patti §8.2,
//! [`crate::eval::classify`](fn@crate::eval::classify)).

use super::reference::{Reference, is_parameter_column};
use crate::analyze::{AnalyzeOptions, MetricGroup, analyze};
use crate::cnf::{ClassCuts, ClauseRow, Encoding, clause_row};
use crate::engine::{Disagreement, Engine, Engines};
use crate::eval::{
    ClassMethod, ClassifyOptions, Direction, EvalError, LabelSpec, Ordinal, ResultsTable,
    TableError, TableFormat, classify, label_scores,
};
use crate::grid::Puzzle;
use crate::human::{self, Explanation, Model, RateOptions};
use crate::relax::{self, RelaxError, RelaxOptions, RelaxReport, SweepReport};
use crate::stats::spearman;
use crate::{Count, Status};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::Value;

/// How much work a report does (modest defaults: a puzzle report takes
/// about a second in a release build).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportOptions {
    /// Relaxation for the fixedness heatmap: edges removed (default 45).
    pub k: usize,
    /// Relaxation for the fixedness heatmap: samples (default 200).
    pub samples: usize,
    /// Values of `k` of the sweep (default 0, 10, …, 60).
    pub sweep: Vec<usize>,
    /// Samples per `k` of the sweep (default 100).
    pub sweep_samples: usize,
    /// Solution cap of every relaxed count (default 1000).
    pub cap: u64,
    /// Samples re-checked by the other engines in the heatmap relaxation
    /// (default 3; each costs a SAT and a Dancing Links count up to the cap).
    pub verify: usize,
    /// Runs of every randomised human model (default 5).
    pub runs: usize,
    /// Seed of every randomised computation (default 1).
    pub seed: u64,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            k: 45,
            samples: 200,
            sweep: (0..=60).step_by(10).collect(),
            sweep_samples: 100,
            cap: 1000,
            verify: 3,
            runs: 5,
            seed: 1,
        }
    }
}

impl ReportOptions {
    fn relax(&self, k: usize, samples: usize, engines: Engines, verify: usize) -> RelaxOptions {
        RelaxOptions {
            k,
            samples,
            seed: self.seed,
            cap: self.cap,
            engines,
            verify,
        }
    }

    fn rate(&self) -> RateOptions {
        let mut o = RateOptions {
            seed: self.seed,
            ..RateOptions::default()
        };
        o.set_runs(self.runs);
        o
    }

    /// Refuses options that cannot give a report (no samples, no runs).
    pub fn check(&self) -> Result<(), ReportError> {
        if self.samples == 0 || self.sweep_samples == 0 {
            return Err(ReportError::Relax(RelaxError::NoSamples));
        }
        self.rate().check().map_err(ReportError::Rate)
    }
}

/// Why a report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Two engines disagreed (a bug, with a reproducible case).
    #[error("{0}")]
    Disagreement(#[from] Disagreement),
    /// A relaxation parameter is unusable.
    #[error(transparent)]
    Relax(RelaxError),
    /// A rating parameter is unusable.
    #[error(transparent)]
    Rate(human::RateError),
    /// The results table or its label could not be used.
    #[error(transparent)]
    Eval(#[from] EvalError),
    /// The results table could not be read.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The results table has no row.
    #[error("the results table has no row")]
    NoRows,
    /// A chart could not be drawn.
    #[error(transparent)]
    Plot(#[from] super::plot::PlotError),
    /// A result could not be serialised (a bug in a row type).
    #[error("cannot serialise a result: {0}")]
    Json(#[from] serde_json::Error),
}

/// A relaxation error: a disagreement is a bug and stops the report,
/// anything the puzzle causes becomes a note.
fn relax_note(e: RelaxError) -> Result<String, ReportError> {
    match e {
        RelaxError::Disagreement(d) => Err(ReportError::Disagreement(d)),
        other => Ok(other.to_string()),
    }
}

/// One engine's answer on the puzzle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EngineAnswer {
    /// The engine.
    pub engine: Engine,
    /// Unique, multiple or none.
    pub status: Status,
    /// Solutions found, counting up to 2.
    pub solutions: u64,
}

/// The engines' cross-check on one puzzle and on its relaxations.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EngineCheck {
    /// Every engine's answer (`Engines::all()`).
    pub answers: Vec<EngineAnswer>,
    /// Whether all answers are equal (otherwise the report stops before).
    pub agree: bool,
    /// Relaxed samples of the heatmap relaxation re-analysed by other engines.
    pub relax_verified: usize,
    /// The engines that re-analysed them.
    pub relax_verified_by: Vec<Engine>,
}

/// One rating of one human model (or a structural metric), and where it
/// falls in the reference set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingEntry {
    /// The model (`sisus`, `oracle`, …) or metric group (`relax`, `clauses`).
    pub model: String,
    /// Field name, as in `rate` / `analyze` output.
    pub metric: String,
    /// The value, when numeric.
    pub value: Option<f64>,
    /// The value, when text (a level, a technique).
    pub text: Option<String>,
    /// Which way is harder.
    pub harder: Direction,
    /// Percentile of the value among the reference set (0–100).
    pub percentile: Option<f64>,
}

/// One step of the solving path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PathStep {
    /// 1-based step number.
    pub step: usize,
    /// Technique name.
    pub technique: String,
    /// What the step does.
    pub text: String,
}

/// Everything the report shows about one puzzle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PuzzleReport {
    /// The puzzle as one line.
    pub puzzle: String,
    /// The puzzle's label (input text after the grid, or example name).
    pub label: Option<String>,
    /// Side `N` of the grid.
    pub side: usize,
    /// Cell values, row-major, 0 for blank.
    pub cells: Vec<u8>,
    /// The unique solution, when the engines found one.
    pub solution: Option<Vec<u8>>,
    /// The engines' cross-check.
    pub engines: EngineCheck,
    /// Clause counts of the minimal and maximal encodings (empty for a
    /// contradictory puzzle).
    pub clauses: Vec<ClauseRow>,
    /// The relaxation at `k` with per-cell fixedness.
    pub relax: Option<RelaxReport>,
    /// The `k` sweep and its fit.
    pub sweep: Option<SweepReport>,
    /// Ratings of every model and the structural metrics, with percentiles.
    pub ratings: Vec<RatingEntry>,
    /// The simplest-first technique path.
    pub path: Vec<PathStep>,
    /// How the path ended (`solved`, `needs search: …`, `invalid: …`).
    pub path_status: String,
    /// Things that could not be computed, and why.
    pub notes: Vec<String>,
}

/// Metrics where a lower value means a harder puzzle.
pub const LOWER_IS_HARDER: [&str; 9] = [
    "givens",
    "short_pct",
    "p_unique",
    "mean_fixed",
    "sisus_dependency",
    "solved_by_2",
    "solved_by_3",
    "solved_by_4",
    "mean_length_pct",
];

/// The direction of a metric by name.
pub fn direction_of(metric: &str) -> Direction {
    if LOWER_IS_HARDER.contains(&metric) {
        Direction::LowerIsHarder
    } else {
        Direction::HigherIsHarder
    }
}

fn model_of(metric: &str) -> &'static str {
    let m = metric;
    if m.starts_with("sisus") {
        Model::Sisus.name()
    } else if m.starts_with("oracle") {
        Model::Oracle.name()
    } else if m.starts_with("hsolve") {
        Model::Hsolve.name()
    } else if m.starts_with("nishio") || m.starts_with("solved_by") {
        Model::Nishio.name()
    } else if m.starts_with("weights") || m == "hardest_technique" {
        Model::Weights.name()
    } else {
        Model::Baseline.name()
    }
}

/// Top-level scalar fields of a serialised struct, skipping `skip`.
fn scalar_fields(v: &Value, skip: &[&str]) -> Vec<(String, Option<f64>, Option<String>)> {
    let Value::Object(map) = v else {
        return Vec::new();
    };
    map.iter()
        .filter(|(k, _)| !skip.contains(&k.as_str()) && !k.ends_with("_sd"))
        .filter_map(|(k, v)| match v {
            Value::Number(n) => Some((k.clone(), n.as_f64(), None)),
            Value::Bool(b) => Some((k.clone(), Some(f64::from(u8::from(*b))), None)),
            Value::String(s) => Some((k.clone(), None, Some(s.clone()))),
            Value::Null => Some((k.clone(), None, None)),
            _ => None,
        })
        .collect()
}

/// Computes the whole report of one puzzle.
///
/// # Errors
/// An engine disagreement (a bug) or unusable options; what the puzzle
/// causes (several solutions, a contradiction) becomes a note.
pub fn puzzle_report(
    puzzle: &Puzzle,
    opts: &ReportOptions,
    reference: &Reference,
) -> Result<PuzzleReport, ReportError> {
    opts.check()?;
    let mut notes = Vec::new();
    let answers: Vec<EngineAnswer> = Engine::ALL
        .iter()
        .map(|&engine| {
            let Count { solutions, .. } = engine.implementation().count(puzzle, 2);
            EngineAnswer {
                engine,
                status: Status::from_count(solutions),
                solutions,
            }
        })
        .collect();
    let agree = answers
        .windows(2)
        .all(|w| (w[0].status, w[0].solutions) == (w[1].status, w[1].solutions));
    let solution = Engines::all().solve(puzzle)?;
    let solution = solution
        .filter(|_| answers.first().is_some_and(|a| a.status == Status::Unique))
        .map(|s| s.cells().to_vec());

    let mut clauses = Vec::new();
    for enc in [Encoding::Min, Encoding::Max] {
        match clause_row(puzzle, enc, ClassCuts::patti(puzzle.side())) {
            Ok(row) => clauses.push(row),
            Err(e) => {
                notes.push(format!("clauses ({}): {e}", enc.name()));
                break;
            }
        }
    }

    let heat_opts = opts.relax(opts.k, opts.samples, Engines::all(), opts.verify);
    let relax = match relax::relax(puzzle, &heat_opts) {
        Ok((r, _)) => Some(r),
        Err(e) => {
            notes.push(format!("relaxation: {}", relax_note(e)?));
            None
        }
    };
    let sweep_opts = opts.relax(0, opts.sweep_samples, Engines::default(), 0);
    let sweep = match relax::sweep(puzzle, &opts.sweep, &sweep_opts) {
        Ok(s) => Some(s),
        Err(e) => {
            notes.push(format!("sweep: {}", relax_note(e)?));
            None
        }
    };

    let rated = human::rate(puzzle, &opts.rate());
    for (model, why) in &rated.ratings.status {
        notes.push(format!("{model}: {why}"));
    }
    let mut ratings = Vec::new();
    let mut push = |model: &str, fields: Vec<(String, Option<f64>, Option<String>)>| {
        for (metric, value, text) in fields {
            ratings.push(RatingEntry {
                model: if model.is_empty() {
                    model_of(&metric).to_string()
                } else {
                    model.to_string()
                },
                percentile: value.and_then(|v| reference.percentile(&metric, v)),
                harder: direction_of(&metric),
                metric,
                value,
                text,
            });
        }
    };
    push(
        "",
        scalar_fields(&serde_json::to_value(&rated.ratings)?, &[]),
    );
    if let Some(r) = &relax {
        push(
            "relax",
            scalar_fields(
                &serde_json::to_value(&r.summary)?,
                &["k", "samples", "cap", "capped", "median_solutions"],
            ),
        );
    }
    if let Some(c) = clauses.first() {
        push(
            "clauses",
            scalar_fields(&serde_json::to_value(&c.counts)?, &["variables"]),
        );
    }

    let explanation: Explanation = human::explain(puzzle);
    let path_status = match &explanation.status {
        human::ExplainStatus::Solved => "solved by the techniques alone".to_string(),
        human::ExplainStatus::NeedsSearch => {
            "the techniques get stuck: the rest needs search".to_string()
        }
        human::ExplainStatus::Invalid(why) => format!("not explained: {why}"),
    };
    let path = explanation
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| PathStep {
            step: i + 1,
            technique: s.technique.to_string(),
            text: s.text.clone(),
        })
        .collect();

    Ok(PuzzleReport {
        puzzle: puzzle.to_line(),
        label: puzzle.label.clone(),
        side: puzzle.side(),
        cells: puzzle.cells().to_vec(),
        solution,
        engines: EngineCheck {
            answers,
            agree,
            relax_verified: relax.as_ref().map_or(0, |r| r.verified),
            relax_verified_by: relax
                .as_ref()
                .map_or_else(Vec::new, |r| r.verified_by.clone()),
        },
        clauses,
        relax,
        sweep,
        ratings,
        path,
        path_status,
        notes,
    })
}

/// `analyze` rows (clauses, relax at `opts.k` with `opts.samples`, every
/// human model with default runs) for puzzles, as a results table;
/// `on_done` is called after each puzzle (for a progress bar).
pub fn analyze_puzzles(
    puzzles: &[Puzzle],
    opts: &ReportOptions,
    on_done: impl Fn() + Sync,
) -> Result<ResultsTable, ReportError> {
    opts.check()?;
    let aopts = AnalyzeOptions {
        groups: vec![
            MetricGroup::Clauses,
            MetricGroup::Relax,
            MetricGroup::Rate(Model::ALL.into_iter().collect()),
        ],
        relax: opts.relax(opts.k, opts.samples, Engines::default(), 1),
        rate_seed: opts.seed,
        fixedness: false,
        dedup: false,
    };
    let rows: Vec<_> = puzzles
        .par_iter()
        .map(|p| {
            let r = analyze(p, &aopts);
            on_done();
            r
        })
        .collect();
    let mut jsonl = String::new();
    for row in rows {
        jsonl.push_str(&serde_json::to_string(&row?)?);
        jsonl.push('\n');
    }
    Ok(ResultsTable::parse(&jsonl, TableFormat::Jsonl)?)
}

/// Distribution of one metric over a data set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricDistribution {
    /// Column name.
    pub metric: String,
    /// Rows with a value.
    pub n: usize,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Mean.
    pub mean: f64,
    /// Median.
    pub median: f64,
    /// Counts of 20 equal-width bins from `min` to `max`.
    pub bins: Vec<usize>,
}

/// Spearman's ρ between every pair of metrics (and the label).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CorrelationMatrix {
    /// Row and column names; the label, when given, comes last.
    pub names: Vec<String>,
    /// `rho[i][j]`, over the rows where both have a value; `None` when
    /// undefined (a constant column, fewer than 3 pairs).
    pub rho: Vec<Vec<Option<f64>>>,
}

/// One metric against the label.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScatterSeries {
    /// Metric column.
    pub metric: String,
    /// `(metric, label)` pairs.
    pub points: Vec<(f64, f64)>,
    /// Spearman's ρ of the pairs.
    pub rho: Option<f64>,
}

/// The universal classes of one metric (equal-count bins).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricClasses {
    /// Metric column.
    pub metric: String,
    /// Which way is harder.
    pub direction: Direction,
    /// `(class, value range, puzzles)`, easiest first.
    pub classes: Vec<(String, String, usize)>,
    /// Why the classes could not be made (a metric with too few distinct values).
    pub error: Option<String>,
}

/// Everything the report shows about a data set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DatasetReport {
    /// Where the rows come from.
    pub source: String,
    /// Rows of the table.
    pub rows: usize,
    /// The label specification, when given.
    pub label: Option<String>,
    /// Rows with a label value.
    pub labelled: usize,
    /// Every numeric metric's distribution.
    pub metrics: Vec<MetricDistribution>,
    /// Numeric columns left out because they hold a single value.
    pub constant: Vec<String>,
    /// Spearman matrix.
    pub correlation: CorrelationMatrix,
    /// Each metric against the label (empty without a label).
    pub scatter: Vec<ScatterSeries>,
    /// Universal Easy/Medium/Hard classes of every metric.
    pub classes: Vec<MetricClasses>,
}

fn pairs(a: &[Option<f64>], b: &[Option<f64>]) -> (Vec<f64>, Vec<f64>) {
    a.iter()
        .zip(b)
        .filter_map(|(x, y)| Some(((*x)?, (*y)?)))
        .unzip()
}

fn rho(a: &[Option<f64>], b: &[Option<f64>]) -> Option<f64> {
    let (x, y) = pairs(a, b);
    if x.len() < 3 {
        return None;
    }
    spearman(&x, &y).ok().filter(|r| r.is_finite())
}

/// Describes a results table.
///
/// # Errors
/// An empty table, a label that is missing or not numeric (without an
/// ordinal order).
pub fn dataset_report(
    table: &ResultsTable,
    source: &str,
    label: Option<&LabelSpec>,
    ordinal: Option<&Ordinal>,
) -> Result<DatasetReport, ReportError> {
    if table.is_empty() {
        return Err(ReportError::NoRows);
    }
    let scores = match label {
        Some(spec) => Some(label_scores(table, spec, ordinal).map_err(EvalError::from)?),
        None => None,
    };
    let label_column = label.map(|l| l.resolve(table).0.to_string());
    let mut metrics = Vec::new();
    let mut constant = Vec::new();
    let mut columns: Vec<(String, Vec<Option<f64>>)> = Vec::new();
    for col in table.numeric_columns() {
        // Spreads of randomised models describe the model's noise, not the puzzle.
        if is_parameter_column(&col)
            || col.ends_with("_sd")
            || label_column.as_deref() == Some(col.as_str())
        {
            continue;
        }
        let values = table.numeric(&col)?;
        let mut v: Vec<f64> = values.iter().flatten().copied().collect();
        v.sort_by(f64::total_cmp);
        let (Some(&min), Some(&max)) = (v.first(), v.last()) else {
            continue;
        };
        if min == max {
            constant.push(col);
            continue;
        }
        let nbins = 20;
        let mut bins = vec![0; nbins];
        for &x in &v {
            let i = (((x - min) / (max - min)) * nbins as f64).floor() as usize;
            bins[i.min(nbins - 1)] += 1;
        }
        metrics.push(MetricDistribution {
            metric: col.clone(),
            n: v.len(),
            min,
            max,
            mean: v.iter().sum::<f64>() / v.len() as f64,
            median: crate::stats::quantile_sorted(&v, 0.5).unwrap_or(min),
            bins,
        });
        columns.push((col, values));
    }
    let mut names: Vec<String> = columns.iter().map(|(c, _)| c.clone()).collect();
    let mut all: Vec<&[Option<f64>]> = columns.iter().map(|(_, v)| v.as_slice()).collect();
    if let (Some(spec), Some(s)) = (label, &scores) {
        names.push(format!("label: {}", spec.raw));
        all.push(s);
    }
    let matrix: Vec<Vec<Option<f64>>> = all
        .iter()
        .map(|a| all.iter().map(|b| rho(a, b)).collect())
        .collect();
    let scatter = match &scores {
        Some(s) => columns
            .iter()
            .map(|(c, v)| {
                let (x, y) = pairs(v, s);
                ScatterSeries {
                    metric: c.clone(),
                    points: x.into_iter().zip(y).collect(),
                    rho: rho(v, s),
                }
            })
            .collect(),
        None => Vec::new(),
    };
    let classes = columns
        .iter()
        .map(|(c, _)| {
            let direction = direction_of(c);
            let opts = ClassifyOptions {
                method: ClassMethod::EqualCount { bins: 3 },
                direction,
                ..ClassifyOptions::default()
            };
            match classify(table, c, None, &opts) {
                Ok(r) => MetricClasses {
                    metric: c.clone(),
                    direction,
                    classes: r
                        .summary
                        .ranges
                        .iter()
                        .zip(&r.summary.counts)
                        .map(|(range, count)| (range.class.clone(), range.text.clone(), count.n))
                        .collect(),
                    error: None,
                },
                Err(e) => MetricClasses {
                    metric: c.clone(),
                    direction,
                    classes: Vec::new(),
                    error: Some(e.to_string()),
                },
            }
        })
        .collect();
    Ok(DatasetReport {
        source: source.to_string(),
        rows: table.len(),
        label: label.map(|l| l.raw.clone()),
        labelled: scores.as_ref().map_or(0, |s| s.iter().flatten().count()),
        metrics,
        constant,
        correlation: CorrelationMatrix { names, rho: matrix },
        scatter,
        classes,
    })
}

/// A whole report: puzzle sections, or a data-set section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Page title.
    pub title: String,
    /// Where the percentiles come from.
    pub reference: String,
    /// One section per puzzle.
    pub puzzles: Vec<PuzzleReport>,
    /// The data-set section.
    pub dataset: Option<DatasetReport>,
    /// The options the numbers were computed with.
    pub options: ReportOptions,
}
