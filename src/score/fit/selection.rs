//! Selection of the score's metrics (`docs/methods.md` §6.2): backward
//! elimination on leave-one-source-out Spearman (the timed source, the human
//! solving times, by k-fold cross-validation instead). While dropping a metric
//! lowers the mean held-out Spearman over the sources by less than
//! [`KEEP_MARGIN`], the metric whose removal costs least is dropped, so a
//! metric that does not help out of sample is left out (except those
//! `ScoreFitOptions::keep` names).

use super::weights::{fit_weights, raw_sum};
use super::{FitData, ScoreFitOptions, time_scale};
use crate::metrics::Metric;
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
            // Each fold's rows scored by weights fitted without them, pooled.
            let mut x = Vec::new();
            let mut y = Vec::new();
            for fold in opts.test_folds(data, held, train) {
                let inner = without(train, &fold, data.rows.len());
                let terms = fit_weights(data, metrics, &inner, opts);
                let raw = |i: usize| raw_sum(data, &terms, metrics, &data.rows[i]);
                // Folds of the timed source are pooled on the ln-time scale.
                let (a, b) = if opts.timed.as_deref() == Some(*held) {
                    time_scale(data, raw, &inner, opts).unwrap_or((0.0, 1.0))
                } else {
                    (0.0, 1.0)
                };
                x.extend(fold.iter().map(|&i| a + b * raw(i)));
                y.extend(fold.iter().map(|&i| data.rows[i].rank));
            }
            stats::spearman(&x, &y).ok()
        })
        .collect();
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

/// The rows of `train` outside `fold` (row indices below `n`).
pub(super) fn without(train: &[usize], fold: &[usize], n: usize) -> Vec<usize> {
    let mut out_of_fold = vec![true; n];
    for &i in fold {
        out_of_fold[i] = false;
    }
    train.iter().copied().filter(|&i| out_of_fold[i]).collect()
}

/// A metric stays in the score only if leaving it out lowers the mean
/// held-out Spearman by at least this much.
pub(crate) const KEEP_MARGIN: f64 = 0.001;

/// One step of the backward elimination.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SelectionStep {
    /// Metrics in the model at this step.
    pub metrics: Vec<Metric>,
    /// Mean leave-one-source-out Spearman with them.
    pub mean_spearman: f64,
    /// The metric dropped next (none at the last step).
    pub dropped: Option<Metric>,
}

/// Backward elimination among `candidates` on the training rows: returns the
/// metrics kept and the steps.
pub(crate) fn select_metrics(
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
                if opts.keep.contains(&data.metrics[kept[pos]]) {
                    continue;
                }
                let mut fewer = kept.clone();
                fewer.remove(pos);
                let v = loso_mean_spearman(data, &fewer, train, opts);
                if v > current - KEEP_MARGIN && best.is_none_or(|b| v > b.1) {
                    best = Some((pos, v));
                }
            }
        }
        steps.push(SelectionStep {
            metrics: kept.iter().map(|&m| data.metrics[m]).collect(),
            mean_spearman: current,
            dropped: best.map(|b| data.metrics[kept[b.0]]),
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
