//! Reference distributions for the puzzle report: for every numeric metric
//! of an `analyze` results file, its 101 quantiles (0 %, 1 %, …, 100 %), so a
//! single puzzle's rating can be placed as a percentile of a reference set.
//!
//! Only aggregate statistics are kept, never a puzzle: the embedded
//! reference ([`Reference::embedded`], `src/eval/reference.json`) is made
//! from a sample of the SE-rated puzzles of the shared data sets
//! (`se-ratings-sukakuexplainer`, whose puzzles come partly from sets that
//! may not be redistributed) with the command in `docs/guide.md`
//! (`examples/report_reference.rs`).

use crate::eval::ResultsTable;
use crate::metrics::is_parameter_column;
use crate::stats::quantile_sorted;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The embedded reference, made by `examples/report_reference.rs`.
pub(crate) const EMBEDDED_JSON: &str = include_str!("reference.json");

/// Number of quantiles kept per metric (0 %, 1 %, …, 100 %).
pub(crate) const QUANTILES: usize = 101;

/// Quantiles of every metric of a reference set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// Where the numbers come from (data set, sample, command).
    pub source: String,
    /// Puzzles (rows) of the reference set.
    pub puzzles: usize,
    /// The relaxation's `k` when every row of the set relaxed at the same
    /// one: the relaxation metrics (`mean_fixed`, `p_unique`, …) of a
    /// puzzle relaxed at another `k` (`report --k auto`) are not placed
    /// among them. `None` in a reference without relaxation rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relax_k: Option<usize>,
    /// Metric (results column) → its 101 quantiles, ascending, and the
    /// number of rows that have a value.
    pub metrics: BTreeMap<String, MetricQuantiles>,
}

/// The distribution of one metric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricQuantiles {
    /// Rows with a value.
    pub n: usize,
    /// `q[i]` = quantile `i/100` (linear interpolation, "type 7").
    pub q: Vec<f64>,
}

/// A reference that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReferenceError {
    /// The JSON is not a reference.
    #[error("not a reference file: {0}")]
    Json(#[from] serde_json::Error),
    /// A metric without 101 ascending finite quantiles.
    #[error("reference metric {0:?}: expected 101 ascending finite quantiles")]
    BadQuantiles(String),
    /// The results file has no numeric metric column.
    #[error("the results file has no numeric metric column to use as a reference")]
    NoMetrics,
}

impl Reference {
    /// The reference embedded in sudolab.
    pub fn embedded() -> Result<Reference, ReferenceError> {
        Reference::from_json(EMBEDDED_JSON)
    }

    /// Reads and checks a reference JSON document.
    pub fn from_json(text: &str) -> Result<Reference, ReferenceError> {
        let r: Reference = serde_json::from_str(text)?;
        for (name, m) in &r.metrics {
            let ok = m.q.len() == QUANTILES
                && m.q.iter().all(|v| v.is_finite())
                && m.q.windows(2).all(|w| w[0] <= w[1]);
            if !ok {
                return Err(ReferenceError::BadQuantiles(name.clone()));
            }
        }
        Ok(r)
    }

    /// The quantiles of every numeric metric column of a results table
    /// (parameter columns skipped).
    pub fn from_table(table: &ResultsTable, source: &str) -> Result<Reference, ReferenceError> {
        let mut metrics = BTreeMap::new();
        for col in table.numeric_columns() {
            if is_parameter_column(&col) {
                continue;
            }
            let Ok(values) = table.numeric(&col) else {
                continue;
            };
            let mut v: Vec<f64> = values.into_iter().flatten().collect();
            if v.is_empty() {
                continue;
            }
            v.sort_by(f64::total_cmp);
            let mut q: Vec<f64> = (0..QUANTILES)
                .filter_map(|i| quantile_sorted(&v, i as f64 / 100.0))
                .collect();
            // Interpolating between two equal values may round one ulp
            // below them; the quantiles must ascend ([`Reference::from_json`]).
            for i in 1..q.len() {
                q[i] = q[i].max(q[i - 1]);
            }
            metrics.insert(col, MetricQuantiles { n: v.len(), q });
        }
        if metrics.is_empty() {
            return Err(ReferenceError::NoMetrics);
        }
        let ks: BTreeSet<u64> = table
            .numeric("k")
            .unwrap_or_default()
            .into_iter()
            .flatten()
            .map(|k| k as u64)
            .collect();
        let relax_k = match ks.into_iter().collect::<Vec<_>>().as_slice() {
            [k] => Some(*k as usize),
            _ => None,
        };
        Ok(Reference {
            source: source.to_string(),
            puzzles: table.len(),
            relax_k,
            metrics,
        })
    }

    /// Percentile (0–100) of `value` among the reference values of
    /// `metric`; `None` when the reference lacks the metric.
    pub fn percentile(&self, metric: &str, value: f64) -> Option<f64> {
        self.metrics.get(metric).map(|m| percentile_of(&m.q, value))
    }
}

/// Position of `value` on ascending quantiles `q` (index `i` = percentile
/// `100·i/(len−1)`): linear between neighbouring quantiles, the middle of a
/// run of equal quantiles (a value shared by many puzzles sits in the middle
/// of their range), clamped to 0 and 100.
pub(crate) fn percentile_of(q: &[f64], value: f64) -> f64 {
    let Some(last) = q.len().checked_sub(1).filter(|&l| l > 0) else {
        return 50.0;
    };
    let scale = 100.0 / last as f64;
    let below = q.partition_point(|&x| x < value);
    let upto = q.partition_point(|&x| x <= value);
    if upto > below {
        return scale * (below + upto - 1) as f64 / 2.0;
    }
    if below == 0 {
        return 0.0;
    }
    if below > last {
        return 100.0;
    }
    let (a, b) = (q[below - 1], q[below]);
    scale * ((below - 1) as f64 + (value - a) / (b - a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::TableFormat;
    use crate::metrics::Metric;

    #[test]
    fn percentiles_interpolate_and_handle_ties() {
        let q: Vec<f64> = (0..=100).map(f64::from).collect();
        assert_eq!(percentile_of(&q, 42.5), 42.5);
        assert_eq!(percentile_of(&q, -3.0), 0.0);
        assert_eq!(percentile_of(&q, 1000.0), 100.0);
        let flat = vec![1.0; 101];
        assert_eq!(percentile_of(&flat, 1.0), 50.0);
        assert_eq!(percentile_of(&flat, 0.0), 0.0);
    }

    #[test]
    fn reference_from_results_and_embedded() {
        let h = Metric::Hsolve.name();
        let rows: String = (1..=11)
            .map(|i| {
                format!("{{\"line\":{i},\"params\":{{\"seed\":1}},\"{h}\":{i},\"label\":\"x\"}}\n")
            })
            .collect();
        let t = ResultsTable::parse(&rows, TableFormat::Jsonl).unwrap();
        let r = Reference::from_table(&t, "test").unwrap();
        assert_eq!(r.metrics.keys().collect::<Vec<_>>(), vec![h]);
        assert_eq!(r.percentile(h, 6.0), Some(50.0));
        let back = Reference::from_json(&serde_json::to_string(&r).unwrap()).unwrap();
        let (a, b) = (&back.metrics[h].q, &r.metrics[h].q);
        assert!(a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12));
        let e = Reference::embedded().unwrap();
        assert!(e.puzzles >= 100, "{}", e.puzzles);
        for m in [
            Metric::Hsolve,
            Metric::Nishio4,
            Metric::MeanFixed,
            Metric::ShortPct,
            Metric::WeightsScore,
            // The score's columns and serate's have percentiles.
            Metric::Score,
            Metric::SeEquivalent,
            Metric::Minutes,
            Metric::Serate,
            Metric::Fowler,
            Metric::TrialDepth,
            Metric::TrialRating,
        ] {
            assert!(
                e.metrics.contains_key(m.name()),
                "embedded reference lacks {m}"
            );
        }
        assert_eq!(e.relax_k, Some(45));
        // SE 1.2 (singles) is below most of the SE-rated sample, 9.0 above.
        assert!(e.percentile("se_equivalent", 1.2).unwrap() < 20.0);
        assert!(e.percentile("se_equivalent", 9.0).unwrap() > 90.0);
    }

    /// Quantiles of equal values stay equal (interpolating between them
    /// may round below), so a reference made from a table reads back; one
    /// relaxation k across the rows is kept, two are not.
    #[test]
    fn quantiles_of_a_table_ascend_and_read_back() {
        let se = 0.447_213_595_499_957_9_f64;
        let rows: String = (1..=7)
            .map(|i| {
                let (v, k) = if i < 6 { (se, 45) } else { (1.0, 45) };
                format!("{{\"line\":{i},\"harmony_cost_se\":{v},\"k\":{k}}}\n")
            })
            .collect();
        let t = ResultsTable::parse(&rows, TableFormat::Jsonl).unwrap();
        let r = Reference::from_table(&t, "test").unwrap();
        let q = &r.metrics["harmony_cost_se"].q;
        assert!(q.windows(2).all(|w| w[0] <= w[1]), "{q:?}");
        assert_eq!(q[0], se);
        assert_eq!(r.relax_k, Some(45));
        Reference::from_json(&serde_json::to_string(&r).unwrap()).unwrap();
        let mixed = rows.replacen("\"k\":45", "\"k\":30", 1);
        let t = ResultsTable::parse(&mixed, TableFormat::Jsonl).unwrap();
        assert_eq!(Reference::from_table(&t, "test").unwrap().relax_k, None);
    }
}
