//! The data-set section of the report: what a results table (an `analyze`
//! JSONL file, or rows computed from puzzles) says about its metrics. A
//! [`DatasetReport`] holds a histogram of every numeric metric, the Spearman
//! matrix between metrics (and the label when one is given), each metric
//! against the label, and the universal Easy/Medium/Hard classes of each
//! metric by equal-count bins (Patti §8.2,
//! [`crate::eval::classify`](fn@crate::eval::classify)).
//!
//! Plain data with `Serialize` and `Deserialize`: `report --format json`
//! writes it, and the report renderer draws the page from it (or from the
//! same JSON read back) without computing anything.

use crate::eval::{
    ClassMethod, ClassifyOptions, EvalError, LabelSpec, Ordinal, ResultsTable, TableError,
    TableValue as Value, classify, label_scores,
};
use crate::metrics::{Direction, direction_of, is_parameter_column};
use crate::stats::spearman;
use serde::{Deserialize, Serialize};

/// Why a data-set section could not be made.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// The results table or its label could not be used.
    #[error(transparent)]
    Eval(#[from] EvalError),
    /// The results table could not be read.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The results table has no row.
    #[error("the results table has no row")]
    NoRows,
}

/// Distribution of one metric over a data set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorrelationMatrix {
    /// Row and column names; the label, when given, comes last.
    pub names: Vec<String>,
    /// `rho[i][j]`, over the rows where both have a value; `None` when
    /// undefined (a constant column, fewer than 3 pairs).
    pub rho: Vec<Vec<Option<f64>>>,
}

/// One metric against the label.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScatterSeries {
    /// Metric column.
    pub metric: String,
    /// `(metric, label)` pairs.
    pub points: Vec<(f64, f64)>,
    /// Spearman's ρ of the pairs.
    pub rho: Option<f64>,
}

/// The universal classes of one metric (equal-count bins).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// How many relaxed rows saw nothing (`None` when the rows carry no
    /// `saw_nothing` column).
    #[serde(default)]
    pub saturation: Option<SaturationShare>,
}

/// The relaxed rows whose samples were mostly capped or fixed no cell
/// (`saw_nothing`, `docs/methods.md` §2.5): their relaxation columns show
/// saturation at that k, not a finding.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SaturationShare {
    /// Rows with `saw_nothing` true.
    pub saw_nothing: usize,
    /// Rows with a `saw_nothing` value (relaxed rows).
    pub relaxed: usize,
}

impl SaturationShare {
    /// The share of relaxed rows that saw nothing (0 without relaxed rows).
    pub fn share(&self) -> f64 {
        if self.relaxed == 0 {
            0.0
        } else {
            self.saw_nothing as f64 / self.relaxed as f64
        }
    }

    /// Counts the `saw_nothing` column of `table` (JSON booleans are read
    /// as 0 and 1; CSV writes `true` and `false`); `None` without it.
    fn of(table: &ResultsTable) -> Option<SaturationShare> {
        let values = table.values("saw_nothing").ok()?;
        let flags: Vec<bool> = values
            .iter()
            .filter_map(|v| match v {
                Value::Number(x) => Some(*x != 0.0),
                Value::Text(t) => match t.trim().to_ascii_lowercase().as_str() {
                    "true" | "yes" => Some(true),
                    "false" | "no" => Some(false),
                    _ => None,
                },
                Value::Null => None,
            })
            .collect();
        Some(SaturationShare {
            saw_nothing: flags.iter().filter(|&&f| f).count(),
            relaxed: flags.len(),
        })
    }
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
/// ```
/// use sudolab::{ResultsTable, TableFormat, dataset_report};
///
/// let rows = "{\"line\":1,\"a\":1,\"b\":3}\n{\"line\":2,\"a\":2,\"b\":2}\n{\"line\":3,\"a\":4,\"b\":1}\n";
/// let table = ResultsTable::parse(rows, TableFormat::Jsonl)?;
/// let d = dataset_report(&table, "rows.jsonl", None, None)?;
/// // `line` describes the row, not the puzzle.
/// assert_eq!(d.correlation.names, ["a", "b"]);
/// assert_eq!(d.correlation.rho[0][1], Some(-1.0));
/// assert_eq!(d.metrics[0].median, 2.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// An empty table, a label that is missing or not numeric (without an
/// ordinal order).
pub fn dataset_report(
    table: &ResultsTable,
    source: &str,
    label: Option<&LabelSpec>,
    ordinal: Option<&Ordinal>,
) -> Result<DatasetReport, DatasetError> {
    if table.is_empty() {
        return Err(DatasetError::NoRows);
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
        // Spreads and standard errors of randomised models describe the
        // model's noise, not the puzzle.
        if is_parameter_column(&col)
            || col.ends_with("_sd")
            || crate::metrics::registry::find(&col)
                .is_some_and(|m| m.role() == crate::metrics::Role::Uncertainty)
            || label_column.as_deref() == Some(col.as_str())
        {
            continue;
        }
        let values = table.numeric(&col)?;
        match distribution(&col, &values) {
            None => continue,
            Some(None) => constant.push(col),
            Some(Some(d)) => {
                metrics.push(d);
                columns.push((col, values));
            }
        }
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
        .map(|(c, _)| metric_classes(table, c))
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
        saturation: SaturationShare::of(table),
    })
}

/// The histogram and summary of one column's values: `None` without a
/// value, `Some(None)` when every value is the same.
fn distribution(col: &str, values: &[Option<f64>]) -> Option<Option<MetricDistribution>> {
    let mut v: Vec<f64> = values.iter().flatten().copied().collect();
    v.sort_by(f64::total_cmp);
    let (&min, &max) = (v.first()?, v.last()?);
    if min == max {
        return Some(None);
    }
    let nbins = 20;
    let mut bins = vec![0; nbins];
    // Halved, so that the span of values near ±f64::MAX stays finite.
    let span = max / 2.0 - min / 2.0;
    for &x in &v {
        let i = (((x / 2.0 - min / 2.0) / span) * nbins as f64).floor() as usize;
        bins[i.min(nbins - 1)] += 1;
    }
    Some(Some(MetricDistribution {
        metric: col.to_string(),
        n: v.len(),
        min,
        max,
        mean: crate::stats::mean(&v).unwrap_or(min),
        median: crate::stats::quantile_sorted(&v, 0.5).unwrap_or(min),
        bins,
    }))
}

/// Column `c` cut into three equal-count classes in its direction.
fn metric_classes(table: &ResultsTable, c: &str) -> MetricClasses {
    let direction = direction_of(c);
    let opts = ClassifyOptions {
        method: ClassMethod::EqualCount { bins: 3 },
        direction,
        ..ClassifyOptions::default()
    };
    match classify(table, c, None, &opts) {
        Ok(r) => MetricClasses {
            metric: c.to_string(),
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
            metric: c.to_string(),
            direction,
            classes: Vec::new(),
            error: Some(e.to_string()),
        },
    }
}
