//! Linear combinations of metrics (Pelánek, "Evaluation and Discussion" and Table 3: "RD" combines
//! refutation sum and dependency, "SFRD" Serate, Fowler's rating, refutation
//! sum and dependency).
//!
//! Pelánek fits the parameters of a linear model on a training set (one half
//! of the problems) and reports the correlation on the other half. Here the
//! complete rows (label and every metric present) are shuffled with a seeded
//! `SeededRng` and split; ordinary least squares with an intercept
//! ([`crate::stats::least_squares`]) is solved on the training part; Pearson
//! r and Spearman ρ of prediction against label are reported on both parts.
//! This module is `sudolab eval --fit`'s library side. Linearly dependent
//! (or constant) metrics make the system singular, which is an error naming
//! the metric, not a meaningless coefficient.
//!
//! The paper's two combinations have names ([`COMBINATIONS`]) that a metric
//! list may use in place of their metrics: `RD` is `sisus_refutation_sum,
//! sisus_dependency`; `SFRD` is `serate, fowler, sisus_refutation_sum,
//! sisus_dependency`, with our Serate-like and Fowler-like ratings
//! ([`crate::se`]) standing in for Sudoku Explainer's and
//! Fowler's tools.

use super::EvalError;
use super::label::{LabelSpec, Ordinal, label_scores};
use super::table::ResultsTable;
use crate::metrics::Metric;
use crate::seed::SeededRng;
use crate::stats::{self, FitError, least_squares, predict};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::Serialize;

/// Pelánek's named linear combinations (Table 3) and the metric columns
/// each combines.
pub(crate) const COMBINATIONS: [(&str, &[Metric]); 2] = [
    ("RD", &[Metric::SisusRefutationSum, Metric::SisusDependency]),
    (
        "SFRD",
        &[
            Metric::Serate,
            Metric::Fowler,
            Metric::SisusRefutationSum,
            Metric::SisusDependency,
        ],
    ),
];

/// `metrics` with every combination name (`RD`, `SFRD`, any case) replaced
/// by its metrics, in order. A repeated metric stays repeated, so the fit
/// refuses it as singular rather than silently fitting something else.
pub(crate) fn expand_combinations(metrics: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in metrics {
        let parts: Vec<String> = match COMBINATIONS
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(m))
        {
            Some((_, cols)) => cols.iter().map(|c| c.name().to_string()).collect(),
            None => vec![m.clone()],
        };
        out.extend(parts);
    }
    out
}

/// Options of [`fit_linear`].
#[derive(Debug, Clone, Serialize)]
pub struct FitOptions {
    /// Seed of the `SeededRng` that shuffles the rows before the split (default 1).
    pub seed: u64,
    /// Share of the complete rows used for training (default 0.5).
    pub train_fraction: f64,
    /// Order of text labels.
    pub ordinal: Option<Ordinal>,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            seed: 1,
            train_fraction: 0.5,
            ordinal: None,
        }
    }
}

/// One fitted weight.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Coefficient {
    /// Metric name, or `intercept`.
    pub name: String,
    /// Fitted weight (for a metric, per unit of the metric).
    pub value: f64,
}

/// A fitted linear combination and how well it predicts the label.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FitReport {
    /// The label as given: a column, or `COLUMN:FIELD`.
    pub label: String,
    /// The metrics combined, in the order given.
    pub metrics: Vec<String>,
    /// Seed of the shuffle that made the split.
    pub seed: u64,
    /// Intercept first, then one weight per metric.
    pub coefficients: Vec<Coefficient>,
    /// Rows in the training half.
    pub n_train: usize,
    /// Rows in the test half.
    pub n_test: usize,
    /// Rows left out because the label or a metric is missing.
    pub n_incomplete: usize,
    /// Pearson r of prediction against label on the training rows.
    pub train_pearson: Option<f64>,
    /// Spearman ρ of prediction against label on the training rows.
    pub train_spearman: Option<f64>,
    /// Pearson r of prediction against label on the test rows (Pelánek's reported
    /// value).
    pub test_pearson: Option<f64>,
    /// Spearman ρ of prediction against label on the test rows.
    pub test_spearman: Option<f64>,
    /// Why a correlation is missing.
    pub note: Option<String>,
}

/// Fit the label on the metrics over a seeded random training part and test
/// on the rest. A metric list may name a combination of `COMBINATIONS`.
pub fn fit_linear(
    table: &ResultsTable,
    label: &LabelSpec,
    metrics: &[String],
    opts: &FitOptions,
) -> Result<FitReport, EvalError> {
    let metrics = &expand_combinations(metrics)[..];
    if metrics.is_empty() {
        return Err(EvalError::Options(
            "give at least one metric to combine".to_string(),
        ));
    }
    if !(opts.train_fraction > 0.0 && opts.train_fraction < 1.0) {
        return Err(EvalError::Options(format!(
            "the training fraction must be between 0 and 1 (exclusive), got {}",
            opts.train_fraction
        )));
    }
    let scores = label_scores(table, label, opts.ordinal.as_ref())?;
    let mut columns = Vec::with_capacity(metrics.len());
    for m in metrics {
        if let Some((line, text)) = table.first_non_numeric(m) {
            return Err(EvalError::Metric {
                metric: m.clone(),
                reason: format!("not a numeric column (line {line} has {text:?})"),
            });
        }
        columns.push(table.numeric(m)?);
    }
    let mut rows: Vec<(Vec<f64>, f64)> = (0..table.len())
        .filter_map(|i| {
            let y = scores[i]?;
            let x: Option<Vec<f64>> = columns.iter().map(|c| c[i]).collect();
            Some((x?, y))
        })
        .collect();
    let n_incomplete = table.len() - rows.len();
    let p = metrics.len();
    let need = p + 1 + stats::MIN_PAIRS;
    if rows.len() < need {
        return Err(EvalError::Options(format!(
            "only {} rows have the label and all {p} metrics; a fit with a test half needs at least {need}",
            rows.len()
        )));
    }
    let mut rng = SeededRng::seed_from_u64(opts.seed);
    rows.shuffle(&mut rng);
    let n_train = ((rows.len() as f64 * opts.train_fraction).round() as usize)
        .clamp(p + 1, rows.len() - stats::MIN_PAIRS);
    let (train, test) = rows.split_at(n_train);
    let xs: Vec<Vec<f64>> = train.iter().map(|(x, _)| x.clone()).collect();
    let ys: Vec<f64> = train.iter().map(|(_, y)| *y).collect();
    let coef = least_squares(&xs, &ys).map_err(|e| match e {
        FitError::Singular { index } => EvalError::Singular {
            metrics: metrics.join(", "),
            at: metrics.get(index).cloned().unwrap_or_default(),
        },
        other => EvalError::Options(other.to_string()),
    })?;

    let mut notes = Vec::new();
    let mut correlate = |part: &[(Vec<f64>, f64)], name: &str| {
        let pred: Vec<f64> = part.iter().map(|(x, _)| predict(&coef, x)).collect();
        let truth: Vec<f64> = part.iter().map(|(_, y)| *y).collect();
        let mut get = |r: Result<f64, stats::StatError>| match r {
            Ok(v) => Some(v),
            Err(e) => {
                notes.push(format!("{name}: {e}"));
                None
            }
        };
        let pr = get(stats::pearson(&pred, &truth));
        let sp = get(stats::spearman(&pred, &truth));
        (pr, sp)
    };
    let (train_pearson, train_spearman) = correlate(train, "train");
    let (test_pearson, test_spearman) = correlate(test, "test");
    notes.dedup();

    let mut coefficients = vec![Coefficient {
        name: "intercept".to_string(),
        value: coef[0],
    }];
    coefficients.extend(metrics.iter().zip(&coef[1..]).map(|(m, &v)| Coefficient {
        name: m.clone(),
        value: v,
    }));
    Ok(FitReport {
        label: label.raw.clone(),
        metrics: metrics.to_vec(),
        seed: opts.seed,
        coefficients,
        n_train: train.len(),
        n_test: test.len(),
        n_incomplete,
        train_pearson,
        train_spearman,
        test_pearson,
        test_spearman,
        note: if notes.is_empty() {
            None
        } else {
            Some(notes.join("; "))
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|x| x.to_string()).collect()
    }

    fn columns(xs: &[Metric]) -> Vec<String> {
        xs.iter().map(|x| x.name().to_string()).collect()
    }

    #[test]
    fn combinations_expand_to_the_papers_metrics() {
        use Metric::*;
        assert_eq!(
            expand_combinations(&names(&["RD"])),
            columns(&[SisusRefutationSum, SisusDependency])
        );
        assert_eq!(
            expand_combinations(&names(&["sfrd", "givens"])),
            columns(&[Serate, Fowler, SisusRefutationSum, SisusDependency, Givens])
        );
        assert_eq!(
            expand_combinations(&names(&["oracle_score"])),
            columns(&[OracleScore])
        );
    }
}
