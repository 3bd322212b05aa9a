//! Selection of the score's metrics (`docs/methods.md` §6.2): backward
//! elimination on leave-one-source-out Spearman. While dropping a metric
//! lowers the mean held-out Spearman over the sources by less than
//! [`KEEP_MARGIN`], the metric whose removal costs least is dropped, so a
//! metric that does not help out of sample is left out.

use super::weights::{fit_weights, raw_sum};
use super::{FitData, ScoreFitOptions};
use crate::stats;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeSet;

/// Mean over sources of the Spearman of the score with the label, each
/// source held out in turn (weights refitted without it).
pub(super) fn loso_mean_spearman(
    data: &FitData,
    metrics: &[usize],
    train: &[usize],
    opts: &ScoreFitOptions,
) -> f64 {
    let sources: BTreeSet<&str> = train
        .iter()
        .map(|&i| data.rows[i].source.as_str())
        .collect();
    let values: Vec<f64> = sources
        .par_iter()
        .filter_map(|held| {
            let inner: Vec<usize> = train
                .iter()
                .copied()
                .filter(|&i| data.rows[i].source != *held)
                .collect();
            let test: Vec<usize> = train
                .iter()
                .copied()
                .filter(|&i| data.rows[i].source == *held)
                .collect();
            let terms = fit_weights(data, metrics, &inner, opts);
            let x: Vec<f64> = test
                .iter()
                .map(|&i| raw_sum(&terms, metrics, &data.rows[i]))
                .collect();
            let y: Vec<f64> = test.iter().map(|&i| data.rows[i].rank).collect();
            stats::spearman(&x, &y).ok()
        })
        .collect();
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

/// A metric stays in the score only if leaving it out lowers the mean
/// held-out Spearman by at least this much.
pub const KEEP_MARGIN: f64 = 0.001;

/// One step of the backward elimination.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SelectionStep {
    /// Metrics in the model at this step.
    pub metrics: Vec<String>,
    /// Mean leave-one-source-out Spearman with them.
    pub mean_spearman: f64,
    /// The metric dropped next (none at the last step).
    pub dropped: Option<String>,
}

/// Backward elimination among `candidates` on the training rows: returns the
/// metrics kept and the steps.
pub fn select_metrics(
    data: &FitData,
    candidates: &[usize],
    train: &[usize],
    opts: &ScoreFitOptions,
) -> (Vec<usize>, Vec<SelectionStep>) {
    let mut kept = candidates.to_vec();
    let mut steps = Vec::new();
    let mut current = loso_mean_spearman(data, &kept, train, opts);
    loop {
        let mut best: Option<(usize, f64)> = None;
        if kept.len() > 1 {
            for pos in 0..kept.len() {
                let mut fewer = kept.clone();
                fewer.remove(pos);
                let v = loso_mean_spearman(data, &fewer, train, opts);
                if v > current - KEEP_MARGIN && best.is_none_or(|b| v > b.1) {
                    best = Some((pos, v));
                }
            }
        }
        steps.push(SelectionStep {
            metrics: kept.iter().map(|&m| data.metrics[m].clone()).collect(),
            mean_spearman: current,
            dropped: best.map(|b| data.metrics[kept[b.0]].clone()),
        });
        match best {
            Some((pos, v)) => {
                kept.remove(pos);
                current = v;
            }
            None => return (kept, steps),
        }
    }
}
