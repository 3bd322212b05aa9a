//! Evaluation: how well does each metric agree with an external difficulty
//! label? (`docs/methods.md` §4.)
//!
//! A rating tool earns trust by relating its metrics to independent
//! judgments: website levels, solving times, other raters. This module reads
//! a results table (`table`), picks a label ([`label`]) and reports, for
//! every numeric metric column, the number of complete pairs and four
//! coefficients: Pearson r (Pelánek, Table 3), Spearman ρ (Patti §8),
//! Kendall τ-b and Goodman–Kruskal γ (Chang, hsolve §3.3.1), each with a
//! seeded percentile-bootstrap interval ([`crate::stats`]). For ordinal labels it
//! also builds Chang's contingency table — label level × equal-count metric
//! bin — with its χ² test.
//!
//! [`classify`](mod@classify) implements Patti's universal classification (§8.2) and
//! [`combine`] Pelánek's linear combinations of metrics (RD, SFRD) trained on one
//! half of the data and tested on the other.
//!
//! Undefined statistics (too few pairs, a constant column) are `None` with a
//! `note` saying why; the library never returns NaN and never prints.

pub(crate) mod classify;
pub(crate) mod combine;
pub(crate) mod label;
mod reference;
mod table;

pub use classify::{
    ClassCount, ClassMethod, ClassRange, ClassifyOptions, ClassifyReport, ClassifySummary,
    GroupClass, Preset, PuzzleClass, classify,
};
pub use combine::{Coefficient, FitOptions, FitReport, fit_linear};
pub use label::LabelError;
pub(crate) use label::label_scores;
pub use label::{LabelSpec, Ordinal};
pub use reference::{MetricQuantiles, Reference, ReferenceError};
#[cfg(test)]
pub(crate) use table::Value;
pub use table::Value as TableValue;
pub use table::{ResultsTable, TableError, TableFormat};

use crate::stats::{self, BootstrapOptions, ChiSquare, Interval, StatError};
use serde::Serialize;
use thiserror::Error;

/// Why an evaluation could not be made.
#[derive(Debug, Error)]
pub enum EvalError {
    /// The results table could not be read.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The label could not be read or ordered.
    #[error(transparent)]
    Label(#[from] LabelError),
    /// A statistic the analysis of one metric needs (e.g. its class edges) is
    /// undefined.
    #[error("metric {metric}: {source}")]
    Stat {
        /// Name of the metric (column).
        metric: String,
        /// What the statistic refused.
        #[source]
        source: StatError,
    },
    /// Without `--metrics`, no numeric column other than the label exists.
    #[error("no metric to evaluate: the table has no numeric column besides the label {label}")]
    NoMetrics {
        /// The label column.
        label: String,
    },
    /// A metric column is not numeric or has no value.
    #[error("metric {metric}: {reason}")]
    Metric {
        /// Name of the metric (column).
        metric: String,
        /// Why it cannot be used.
        reason: String,
    },
    /// Invalid options or too little data for the requested analysis.
    #[error("{0}")]
    Options(String),
    /// Least squares has no unique solution: a metric is constant or a linear
    /// combination of the others.
    #[error(
        "metrics {metrics} are linearly dependent (the fit is singular at {at}); drop one of them"
    )]
    Singular {
        /// Every metric of the fit, comma-separated.
        metrics: String,
        /// The metric where elimination found no pivot.
        at: String,
    },
}

/// Options of [`evaluate`].
#[derive(Debug, Clone, Serialize)]
pub struct EvalOptions {
    /// Order of text labels; without it labels must be numbers.
    pub ordinal: Option<Ordinal>,
    /// Bootstrap intervals: resamples (default B = 1000, 0 = off), seed (1) and
    /// coverage (95 %).
    pub bootstrap: BootstrapOptions,
    /// Metric bins of the contingency table; default: one per label level.
    pub contingency_bins: Option<usize>,
    /// A numeric label with at most this many distinct values is treated as
    /// ordinal levels for the contingency table (default 12).
    pub max_levels: usize,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            ordinal: None,
            bootstrap: BootstrapOptions::default(),
            contingency_bins: None,
            max_levels: 12,
        }
    }
}

/// One metric's agreement with the label. Field names are stable output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalRow {
    /// Metric (column name).
    pub metric: String,
    /// Rows where both the label and the metric are present.
    pub n: usize,
    /// Pearson r of label and metric; null with fewer than 3 pairs or a constant side.
    pub pearson: Option<f64>,
    /// Spearman ρ (Pearson r of average ranks); null as for Pearson.
    pub spearman: Option<f64>,
    /// Kendall τ-b, `(C − D)/√((n₀ − n₁)(n₀ − n₂))`; null as for Pearson.
    pub kendall_tau_b: Option<f64>,
    /// Goodman–Kruskal γ, `(C − D)/(C + D)` ignoring ties; null as for Pearson.
    pub gk_gamma: Option<f64>,
    /// Lower end of the percentile bootstrap interval of Pearson r; null when the bootstrap is off or fewer than half the
    /// replicates define the coefficient.
    pub pearson_lo: Option<f64>,
    /// Upper end of the bootstrap interval of Pearson r; null as for the lower end.
    pub pearson_hi: Option<f64>,
    /// Lower end of the percentile bootstrap interval of Spearman ρ; null when the bootstrap is off or fewer than half the
    /// replicates define the coefficient.
    pub spearman_lo: Option<f64>,
    /// Upper end of the bootstrap interval of Spearman ρ; null as for the lower end.
    pub spearman_hi: Option<f64>,
    /// Lower end of the percentile bootstrap interval of Kendall τ-b; null when the bootstrap is off or fewer than half the
    /// replicates define the coefficient.
    pub kendall_tau_b_lo: Option<f64>,
    /// Upper end of the bootstrap interval of Kendall τ-b; null as for the lower end.
    pub kendall_tau_b_hi: Option<f64>,
    /// Lower end of the percentile bootstrap interval of Goodman–Kruskal γ; null when the bootstrap is off or fewer than half the
    /// replicates define the coefficient.
    pub gk_gamma_lo: Option<f64>,
    /// Upper end of the bootstrap interval of Goodman–Kruskal γ; null as for the lower end.
    pub gk_gamma_hi: Option<f64>,
    /// Why some value is missing (`null` when all are there).
    pub note: Option<String>,
}

impl EvalRow {
    fn empty(metric: &str, n: usize, note: String) -> EvalRow {
        EvalRow {
            metric: metric.to_string(),
            n,
            pearson: None,
            spearman: None,
            kendall_tau_b: None,
            gk_gamma: None,
            pearson_lo: None,
            pearson_hi: None,
            spearman_lo: None,
            spearman_hi: None,
            kendall_tau_b_lo: None,
            kendall_tau_b_hi: None,
            gk_gamma_lo: None,
            gk_gamma_hi: None,
            note: Some(note),
        }
    }
}

/// Label level × equal-count metric bin counts, with χ² and γ (Chang's
/// 8 × 8 table of website level against metric octile).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContingencyReport {
    /// Metric (column name) binned into the columns.
    pub metric: String,
    /// Row names, easiest level first.
    pub levels: Vec<String>,
    /// Upper edges of the metric bins except the last (see
    /// `stats::equal_count_edges`: a value equal to an edge is in the lower bin).
    pub bin_edges: Vec<f64>,
    /// `counts[level][bin]`.
    pub counts: Vec<Vec<u64>>,
    /// Rows with both a label level and a metric value.
    pub n: usize,
    /// Pearson's χ² of independence (empty rows and columns dropped); null when
    /// the test is undefined (see `note`).
    pub chi2: Option<f64>,
    /// Degrees of freedom, `(rows − 1)(columns − 1)` after dropping empty ones.
    pub df: Option<usize>,
    /// Upper-tail p-value of χ² with `df` degrees of freedom.
    pub p_value: Option<f64>,
    /// γ of the table (ties within a cell or a row/column are not pairs).
    pub gamma: Option<f64>,
    /// Why a value is missing (the first failure); null when all are there.
    pub note: Option<String>,
}

/// The result of [`evaluate`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalReport {
    /// The label as given: a column, or `COLUMN:FIELD`.
    pub label: String,
    /// Rows in the table, and rows with a label value.
    pub rows_total: usize,
    /// Rows with a label value.
    pub rows_labelled: usize,
    /// Label levels (ordinal order or distinct numbers) when the label is ordinal.
    pub levels: Option<Vec<String>>,
    /// Bootstrap settings used for the intervals.
    pub bootstrap: BootstrapOptions,
    /// One row per metric, in the order of `--metrics` or of the table's columns.
    pub rows: Vec<EvalRow>,
    /// One table per metric when the label is ordinal.
    pub contingency: Vec<ContingencyReport>,
}

/// Explain a statistic's failure with the label as x and the metric as y.
fn describe(err: &StatError) -> String {
    match err {
        StatError::Constant { which, value } => {
            let side = if *which == "x" { "label" } else { "metric" };
            format!(
                "{side} is constant (every value is {})",
                table::format_number(*value)
            )
        }
        StatError::TooFew { n, min } => {
            format!("only {n} rows have both label and metric; at least {min} are needed")
        }
        other => other.to_string(),
    }
}

/// The metric columns to evaluate: those given, or every numeric column but
/// the label's and the parameter columns.
fn metric_columns(
    table: &ResultsTable,
    label: &LabelSpec,
    metrics: Option<&[String]>,
) -> Result<Vec<String>, EvalError> {
    match metrics {
        Some(list) => {
            for m in list {
                table.column_index(m)?;
            }
            Ok(list.to_vec())
        }
        None => {
            let (label_col, _) = label.resolve(table);
            let cols: Vec<String> = table
                .numeric_columns()
                .into_iter()
                .filter(|c| c != label_col && !crate::metrics::is_parameter_column(c))
                .collect();
            if cols.is_empty() {
                return Err(EvalError::NoMetrics {
                    label: label.raw.clone(),
                });
            }
            Ok(cols)
        }
    }
}

/// Ordinal levels of the label: the given order, or the distinct numeric
/// values when there are few. Returns names and each row's level index.
fn label_levels(
    scores: &[Option<f64>],
    opts: &EvalOptions,
) -> Option<(Vec<String>, Vec<Option<usize>>)> {
    if let Some(order) = &opts.ordinal {
        let idx = scores.iter().map(|s| s.map(|r| r as usize - 1)).collect();
        return Some((order.levels.clone(), idx));
    }
    let mut distinct: Vec<f64> = scores.iter().flatten().copied().collect();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    if distinct.len() < 2 || distinct.len() > opts.max_levels {
        return None;
    }
    let idx = scores
        .iter()
        .map(|s| s.and_then(|v| distinct.iter().position(|&d| d == v)))
        .collect();
    Some((
        distinct.iter().map(|&d| label::level_name(d)).collect(),
        idx,
    ))
}

/// Correlate every metric column with the label.
pub fn evaluate(
    table: &ResultsTable,
    label: &LabelSpec,
    metrics: Option<&[String]>,
    opts: &EvalOptions,
) -> Result<EvalReport, EvalError> {
    if !(0.0..1.0).contains(&opts.bootstrap.confidence) || opts.bootstrap.confidence <= 0.0 {
        return Err(EvalError::Options(format!(
            "the confidence level must be between 0 and 1 (exclusive), got {}",
            opts.bootstrap.confidence
        )));
    }
    if opts.contingency_bins.is_some_and(|b| b < 2) {
        return Err(EvalError::Options(
            "the contingency table needs at least 2 metric bins".to_string(),
        ));
    }
    let scores = label_scores(table, label, opts.ordinal.as_ref())?;
    let columns = metric_columns(table, label, metrics)?;
    let levels = label_levels(&scores, opts);
    let mut rows = Vec::with_capacity(columns.len());
    let mut contingency = Vec::new();
    for metric in &columns {
        if let Some((line, text)) = table.first_non_numeric(metric) {
            rows.push(EvalRow::empty(
                metric,
                0,
                format!("not a numeric column (line {line} has {text:?})"),
            ));
            continue;
        }
        let values = table.numeric(metric)?;
        let (idx, (xs, ys)): (Vec<usize>, (Vec<f64>, Vec<f64>)) = scores
            .iter()
            .zip(&values)
            .enumerate()
            .filter_map(|(i, (l, m))| Some((i, ((*l)?, (*m)?))))
            .unzip();
        rows.push(evaluate_pairs(metric, &xs, &ys, &opts.bootstrap));
        if let Some((names, level_idx)) = &levels {
            let row_index: Vec<usize> = idx.iter().filter_map(|&i| level_idx[i]).collect();
            contingency.push(contingency_report(
                metric,
                names,
                &row_index,
                &ys,
                opts.contingency_bins.unwrap_or(names.len()),
            ));
        }
    }
    Ok(EvalReport {
        label: label.raw.clone(),
        rows_total: table.len(),
        rows_labelled: scores.iter().filter(|s| s.is_some()).count(),
        levels: levels.map(|(names, _)| names),
        bootstrap: opts.bootstrap,
        rows,
        contingency,
    })
}

/// The four coefficients and their intervals for one metric (`x` = label).
pub(crate) fn evaluate_pairs(
    metric: &str,
    x: &[f64],
    y: &[f64],
    boot: &BootstrapOptions,
) -> EvalRow {
    let point = stats::correlations(x, y);
    let note = point.iter().find_map(|r| r.as_ref().err()).map(describe);
    let value = |i: usize| point[i].as_ref().ok().copied();
    let mut row = EvalRow::empty(metric, x.len(), String::new());
    row.note = note;
    row.pearson = value(0);
    row.spearman = value(1);
    row.kendall_tau_b = value(2);
    row.gk_gamma = value(3);
    if point.iter().any(Result::is_ok) {
        let intervals = stats::bootstrap_correlations(x, y, boot);
        let bounds = |i: usize| -> (Option<f64>, Option<f64>) {
            match (value(i), intervals[i]) {
                (Some(_), Some(Interval { lo, hi })) => (Some(lo), Some(hi)),
                _ => (None, None),
            }
        };
        (row.pearson_lo, row.pearson_hi) = bounds(0);
        (row.spearman_lo, row.spearman_hi) = bounds(1);
        (row.kendall_tau_b_lo, row.kendall_tau_b_hi) = bounds(2);
        (row.gk_gamma_lo, row.gk_gamma_hi) = bounds(3);
    }
    row
}

fn contingency_report(
    metric: &str,
    levels: &[String],
    row_index: &[usize],
    values: &[f64],
    bins: usize,
) -> ContingencyReport {
    let mut report = ContingencyReport {
        metric: metric.to_string(),
        levels: levels.to_vec(),
        bin_edges: Vec::new(),
        counts: Vec::new(),
        n: values.len(),
        chi2: None,
        df: None,
        p_value: None,
        gamma: None,
        note: None,
    };
    let edges = match stats::equal_count_edges(values, bins) {
        Ok(e) => e,
        Err(e) => {
            report.note = Some(e.to_string());
            return report;
        }
    };
    let col_index: Vec<usize> = values.iter().map(|&v| stats::bin_of(v, &edges)).collect();
    report.counts = stats::contingency_counts(row_index, &col_index, levels.len(), bins);
    report.bin_edges = edges;
    match stats::chi_square(&report.counts) {
        Ok(ChiSquare { chi2, df, p_value }) => {
            report.chi2 = Some(chi2);
            report.df = Some(df);
            report.p_value = Some(p_value);
        }
        Err(e) => report.note = Some(e.to_string()),
    }
    match stats::gamma_from_table(&report.counts) {
        Ok(g) => report.gamma = Some(g),
        Err(e) => {
            report.note.get_or_insert_with(|| e.to_string());
        }
    }
    report
}
