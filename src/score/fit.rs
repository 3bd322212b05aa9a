//! Fitting and validating the score (`docs/methods.md` §6.2–§6.4).
//!
//! **Fit.** Labelled sources grade on their own scales (a site's levels, a
//! rater's numbers), so the weights are fitted to *order* puzzles as each
//! source orders them: for every pair of puzzles of one source with
//! different labels, the logistic loss of the score difference
//! (`ln(1 + e^{−(s_harder − s_easier)})`), each source weighing the same
//! (at most `max_pairs` seeded pairs per source), with a small ridge
//! penalty; Newton's method on the standardised, transformed metrics.
//!
//! **Selection.** Backward elimination on leave-one-source-out Spearman:
//! while dropping a metric lowers the mean held-out Spearman over the
//! sources by less than [`KEEP_MARGIN`], the metric whose removal costs
//! least is dropped. A metric that does not help out of sample is therefore
//! left out.
//!
//! **Calibration.** The SE-equivalent is the isotonic (pool-adjacent-
//! violators) regression of SE's rating on the score; a source's level cuts
//! are, for each boundary between adjacent levels, the threshold with the
//! fewest puzzles on the wrong side, made ascending.
//!
//! **Validation.** [`leave_one_source_out`] refits everything — selection,
//! weights, calibration — without the held-out source, and reports its
//! Spearman and Goodman–Kruskal γ against the held-out labels beside every
//! single metric and SE's own rating on the same puzzles (bootstrap
//! intervals from [`crate::eval`]).

use super::{LinearScore, SeCalibration, SiteLevels, Term, Transform};
use crate::eval::fit::solve;
use crate::eval::stats::{self, quantile_sorted};
use crate::eval::{BootstrapOptions, EvalRow, LabelSpec, ResultsTable, evaluate_pairs};
use crate::graph::derive_seed;
use crate::seed::SeededRng;
use rand::Rng;
use rand::SeedableRng;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// One labelled puzzle of the fitting data.
#[derive(Debug, Clone, PartialEq)]
pub struct FitRow {
    /// The source (site or rater) whose label this is.
    pub source: String,
    /// The label as a number (a level rank or a rating); harder is higher.
    pub rank: f64,
    /// Sukaku Explainer's rating of the puzzle, when known.
    pub se: Option<f64>,
    /// The level's name, when the source has named levels.
    pub level: Option<String>,
    /// The hardest technique (column `hardest_technique`), if known.
    pub hardest: Option<String>,
    /// The metric values, in [`FitData::metrics`] order.
    pub values: Vec<Option<f64>>,
}

/// Labelled puzzles with their metric values.
#[derive(Debug, Clone, PartialEq)]
pub struct FitData {
    /// Metric names.
    pub metrics: Vec<String>,
    /// The puzzles.
    pub rows: Vec<FitRow>,
}

/// Why fitting data could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ScoreFitError {
    /// A label field or column is missing.
    #[error(transparent)]
    Label(#[from] crate::eval::LabelError),
    /// A metric column is missing.
    #[error(transparent)]
    Table(#[from] crate::eval::TableError),
    /// Too little data.
    #[error("{0}")]
    TooFew(String),
}

/// Which label fields say what.
#[derive(Debug, Clone)]
pub struct LabelFields {
    /// The source of each puzzle (`label:1`).
    pub source: LabelSpec,
    /// The label as a number (`label:2`).
    pub rank: LabelSpec,
    /// SE's rating (`label:3`), if any.
    pub se: Option<LabelSpec>,
    /// The level name (`label:4`), if any; `-` means none.
    pub level: Option<LabelSpec>,
}

impl FitData {
    /// Reads the rows of a results table that have a source, a numeric label
    /// and at least one metric value.
    pub fn from_table(
        table: &ResultsTable,
        metrics: &[String],
        fields: &LabelFields,
    ) -> Result<FitData, ScoreFitError> {
        let text = |spec: &LabelSpec| crate::eval::label::label_texts(table, spec);
        let number = |spec: &LabelSpec| -> Result<Vec<Option<f64>>, ScoreFitError> {
            Ok(spec
                .values(table)?
                .into_iter()
                .map(|v| v.and_then(|v| v.as_f64()))
                .collect())
        };
        let sources = text(&fields.source)?;
        let ranks = number(&fields.rank)?;
        let se = match &fields.se {
            Some(s) => number(s)?,
            None => vec![None; table.len()],
        };
        let levels = match &fields.level {
            Some(s) => text(s)?,
            None => vec![None; table.len()],
        };
        let hardest = if table.has_column("hardest_technique") {
            table.text("hardest_technique")?
        } else {
            vec![None; table.len()]
        };
        let columns: Vec<Vec<Option<f64>>> = metrics
            .iter()
            .map(|m| table.numeric(m))
            .collect::<Result<_, _>>()?;
        let mut rows = Vec::new();
        for i in 0..table.len() {
            let (Some(source), Some(rank)) = (&sources[i], ranks[i]) else {
                continue;
            };
            let values: Vec<Option<f64>> = columns.iter().map(|c| c[i]).collect();
            if values.iter().all(Option::is_none) {
                continue;
            }
            rows.push(FitRow {
                source: source.clone(),
                rank,
                se: se[i],
                level: levels[i].clone().filter(|l| l != "-"),
                hardest: hardest[i].clone(),
                values,
            });
        }
        if rows.is_empty() {
            return Err(ScoreFitError::TooFew(
                "no row has a source, a numeric label and a metric value".into(),
            ));
        }
        Ok(FitData {
            metrics: metrics.to_vec(),
            rows,
        })
    }

    /// The sources, sorted.
    pub fn sources(&self) -> Vec<String> {
        let set: BTreeSet<&String> = self.rows.iter().map(|r| &r.source).collect();
        set.into_iter().cloned().collect()
    }
}

/// Options of the fit.
#[derive(Debug, Clone, Serialize)]
pub struct ScoreFitOptions {
    /// Seed of the pair sampling and of the bootstrap.
    pub seed: u64,
    /// Pairs used per source at most (seeded sample).
    pub max_pairs: usize,
    /// Ridge penalty on the weights.
    pub ridge: f64,
    /// Bootstrap of the validation's correlations.
    pub bootstrap: BootstrapOptions,
}

impl Default for ScoreFitOptions {
    fn default() -> Self {
        ScoreFitOptions {
            seed: 1,
            max_pairs: 4000,
            ridge: 1e-3,
            bootstrap: BootstrapOptions::default(),
        }
    }
}

/// The standardisation of one metric over the training rows.
fn standardise(data: &FitData, m: usize, train: &[usize]) -> Term {
    let name = &data.metrics[m];
    let transform = Transform::for_metric(name);
    let present: Vec<f64> = train
        .iter()
        .filter_map(|&i| data.rows[i].values[m])
        .filter(|x| x.is_finite())
        .map(|x| transform.apply(x))
        .collect();
    let fill = present.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let fill = if fill.is_finite() { fill } else { 0.0 };
    let all: Vec<f64> = train
        .iter()
        .map(|&i| match data.rows[i].values[m] {
            Some(x) if x.is_finite() => transform.apply(x),
            _ => fill,
        })
        .collect();
    let n = all.len().max(1) as f64;
    let mean = all.iter().sum::<f64>() / n;
    let var = all.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    Term {
        name: name.clone(),
        transform,
        fill,
        mean,
        sd: if var > 0.0 { var.sqrt() } else { 1.0 },
        weight: 0.0,
    }
}

/// Seeded pairs `(easier, harder)` of one source's training rows.
fn source_pairs(data: &FitData, idx: &[usize], max: usize, seed: u64) -> Vec<(usize, usize)> {
    let mut all = Vec::new();
    for (a, &i) in idx.iter().enumerate() {
        for &j in &idx[a + 1..] {
            let (ri, rj) = (data.rows[i].rank, data.rows[j].rank);
            if ri < rj {
                all.push((i, j));
            } else if rj < ri {
                all.push((j, i));
            }
        }
    }
    if all.len() <= max {
        return all;
    }
    let mut rng = SeededRng::seed_from_u64(seed);
    // Partial Fisher–Yates: the first `max` of a seeded shuffle.
    for k in 0..max {
        let r = rng.gen_range(k..all.len());
        all.swap(k, r);
    }
    all.truncate(max);
    all
}

/// Fits the weights of the given metrics on the training rows.
fn fit_weights(
    data: &FitData,
    metrics: &[usize],
    train: &[usize],
    opts: &ScoreFitOptions,
) -> Vec<Term> {
    let mut terms: Vec<Term> = metrics
        .iter()
        .map(|&m| standardise(data, m, train))
        .collect();
    let z = |i: usize| -> Vec<f64> {
        terms
            .iter()
            .zip(metrics)
            .map(|(t, &m)| t.z(data.rows[i].values[m]))
            .collect()
    };
    let mut by_source: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &i in train {
        by_source.entry(&data.rows[i].source).or_default().push(i);
    }
    // Differences z_harder − z_easier with the weight of their pair.
    let mut diffs: Vec<(Vec<f64>, f64)> = Vec::new();
    let nonempty = by_source.len().max(1) as f64;
    for (s, (_, idx)) in by_source.iter().enumerate() {
        let pairs = source_pairs(data, idx, opts.max_pairs, derive_seed(opts.seed, s as u64));
        if pairs.is_empty() {
            continue;
        }
        let w = 1.0 / (pairs.len() as f64 * nonempty);
        for (e, h) in pairs {
            let (ze, zh) = (z(e), z(h));
            diffs.push((zh.iter().zip(&ze).map(|(a, b)| a - b).collect(), w));
        }
    }
    let p = metrics.len();
    let mut w = vec![0.0; p];
    for _ in 0..50 {
        let mut grad: Vec<f64> = w.iter().map(|x| 2.0 * opts.ridge * x).collect();
        let mut hess = vec![vec![0.0; p]; p];
        for (i, row) in hess.iter_mut().enumerate() {
            row[i] = 2.0 * opts.ridge;
        }
        for (d, pw) in &diffs {
            let m: f64 = d.iter().zip(&w).map(|(a, b)| a * b).sum();
            let s = 1.0 / (1.0 + m.exp()); // σ(−m)
            for a in 0..p {
                grad[a] -= pw * s * d[a];
                let h = pw * s * (1.0 - s) * d[a];
                for b in 0..p {
                    hess[a][b] += h * d[b];
                }
            }
        }
        let Ok(step) = solve(hess, grad) else { break };
        let size: f64 = step.iter().map(|x| x.abs()).sum();
        for (x, s) in w.iter_mut().zip(&step) {
            *x -= s;
        }
        if size < 1e-10 {
            break;
        }
    }
    for (t, x) in terms.iter_mut().zip(w) {
        t.weight = x;
    }
    terms
}

/// Isotonic regression (pool adjacent violators) of `y` on `x`: ascending
/// `(mean x, mean y)` of the pooled blocks, at most `max_knots` of them.
pub fn isotonic_knots(points: &[(f64, f64)], max_knots: usize) -> Vec<(f64, f64)> {
    let mut pts = points.to_vec();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Equal scores are one observation of their mean rating: (x, sum y, count).
    let mut ties: Vec<(f64, f64, f64)> = Vec::new();
    for (x, y) in pts {
        match ties.last_mut() {
            Some(t) if t.0 == x => {
                t.1 += y;
                t.2 += 1.0;
            }
            _ => ties.push((x, y, 1.0)),
        }
    }
    // Blocks of (sum x, sum y, count).
    let mut blocks: Vec<(f64, f64, f64)> = Vec::new();
    for (x, sum_y, n) in ties {
        blocks.push((x * n, sum_y, n));
        while blocks.len() >= 2 {
            let (b, a) = (blocks[blocks.len() - 1], blocks[blocks.len() - 2]);
            if a.1 / a.2 <= b.1 / b.2 {
                break;
            }
            blocks.pop();
            let last = blocks.len() - 1;
            blocks[last] = (a.0 + b.0, a.1 + b.1, a.2 + b.2);
        }
    }
    let mut knots: Vec<(f64, f64)> = blocks.iter().map(|b| (b.0 / b.2, b.1 / b.2)).collect();
    // A pooled mean can round below the one before it.
    for i in 1..knots.len() {
        knots[i].0 = knots[i].0.max(knots[i - 1].0);
    }
    if knots.len() <= max_knots || max_knots < 2 {
        return knots;
    }
    (0..max_knots)
        .map(|k| knots[k * (knots.len() - 1) / (max_knots - 1)])
        .collect()
}

/// The SE-equivalent of the training rows with an SE rating: per hardest
/// technique with at least 20 such rows the isotonic curve, with 3 to 19 one
/// knot at the medians, rarer ones left to the curve of every row.
fn se_calibration(data: &FitData, train: &[usize], s_of: &BTreeMap<usize, f64>) -> SeCalibration {
    let mut groups: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    let mut pooled = Vec::new();
    for &i in train {
        let r = &data.rows[i];
        if let Some(se) = r.se {
            let key = r
                .hardest
                .clone()
                .unwrap_or_else(|| SeCalibration::BEYOND.to_string());
            groups.entry(key).or_default().push((s_of[&i], se));
            pooled.push((s_of[&i], se));
        }
    }
    let median = |v: Vec<f64>| -> f64 {
        let mut v = v;
        v.sort_by(f64::total_cmp);
        quantile_sorted(&v, 0.5).unwrap_or(0.0)
    };
    let by_technique = groups
        .into_iter()
        .filter(|(_, pts)| pts.len() >= 3)
        .map(|(k, pts)| {
            let knots = if pts.len() >= 20 {
                isotonic_knots(&pts, 32)
            } else {
                vec![(
                    median(pts.iter().map(|p| p.0).collect()),
                    median(pts.iter().map(|p| p.1).collect()),
                )]
            };
            (k, knots)
        })
        .collect();
    SeCalibration {
        by_technique,
        pooled: isotonic_knots(&pooled, 64),
    }
}

/// Level cuts of one source: per boundary the threshold with the fewest
/// puzzles on the wrong side, then made ascending.
fn level_cuts(scored: &[(f64, f64)]) -> Vec<f64> {
    let ranks: BTreeSet<u64> = scored.iter().map(|p| p.1.to_bits()).collect();
    let mut ranks: Vec<f64> = ranks.into_iter().map(f64::from_bits).collect();
    ranks.sort_by(f64::total_cmp);
    let mut sorted: Vec<f64> = scored.iter().map(|p| p.0).collect();
    sorted.sort_by(f64::total_cmp);
    let mut cuts = Vec::new();
    for b in ranks.windows(2) {
        let lower = b[0];
        let mut best = (usize::MAX, 0.0);
        let mut candidates: Vec<f64> = sorted.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect();
        candidates.push(sorted[0] - 1.0);
        for t in candidates {
            let wrong = scored
                .iter()
                .filter(|(s, r)| (*r <= lower) == (*s >= t))
                .count();
            if wrong < best.0 {
                best = (wrong, t);
            }
        }
        cuts.push(best.1);
    }
    for i in 1..cuts.len() {
        cuts[i] = cuts[i].max(cuts[i - 1]);
    }
    cuts
}

/// Fits one score on the training rows with these metrics: weights, 0–10
/// scaling, reference percentiles, SE curve and per-source level cuts.
pub fn fit_score(
    data: &FitData,
    metrics: &[usize],
    train: &[usize],
    opts: &ScoreFitOptions,
) -> LinearScore {
    let terms = fit_weights(data, metrics, train, opts);
    let raw_of: Vec<f64> = train
        .iter()
        .map(|&i| raw_sum(&terms, metrics, &data.rows[i]))
        .collect();
    let mut raws = raw_of.clone();
    raws.sort_by(f64::total_cmp);
    let low = quantile_sorted(&raws, 0.01).unwrap_or(0.0);
    let mut high = quantile_sorted(&raws, 0.99).unwrap_or(1.0);
    if high <= low {
        high = low + 1.0;
    }
    let mut score = LinearScore {
        terms,
        low,
        high,
        reference: Vec::new(),
        se: SeCalibration::default(),
        sites: BTreeMap::new(),
    };
    let scaled: Vec<f64> = raws.iter().map(|&r| score.scaled(r)).collect();
    score.reference = (0..=100)
        .map(|p| quantile_sorted(&scaled, p as f64 / 100.0).unwrap_or(0.0))
        .collect();
    // Score of each training row, keyed by row index.
    let s_of: BTreeMap<usize, f64> = train
        .iter()
        .zip(&raw_of)
        .map(|(&i, &r)| (i, score.scaled(r)))
        .collect();
    score.se = se_calibration(data, train, &s_of);
    let mut by_source: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &i in train {
        if data.rows[i].level.is_some() {
            by_source.entry(&data.rows[i].source).or_default().push(i);
        }
    }
    for (source, idx) in by_source {
        // Level name of each rank: the most common name given to it.
        let mut names: BTreeMap<u64, BTreeMap<&str, usize>> = BTreeMap::new();
        for &i in &idx {
            let r = &data.rows[i];
            if let Some(l) = &r.level {
                *names
                    .entry(r.rank.to_bits())
                    .or_default()
                    .entry(l)
                    .or_default() += 1;
            }
        }
        if names.len() < 2 || names.len() > 12 {
            continue;
        }
        let mut ranked: Vec<(f64, String)> = names
            .iter()
            .map(|(bits, counts)| {
                let name = counts.iter().max_by_key(|c| c.1).map(|c| c.0.to_string());
                (f64::from_bits(*bits), name.unwrap_or_default())
            })
            .collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        let scored: Vec<(f64, f64)> = idx.iter().map(|&i| (s_of[&i], data.rows[i].rank)).collect();
        score.sites.insert(
            source.to_string(),
            SiteLevels {
                levels: ranked.into_iter().map(|r| r.1).collect(),
                cuts: level_cuts(&scored),
            },
        );
    }
    score
}

/// Raw weighted sum of one row: `terms[j]` weighs metric `metrics[j]`.
fn raw_sum(terms: &[Term], metrics: &[usize], row: &FitRow) -> f64 {
    terms
        .iter()
        .zip(metrics)
        .map(|(t, &m)| t.contribution(row.values[m]))
        .sum()
}

/// Score of every row under a fitted score (a metric the data lacks counts
/// as undefined, as in [`LinearScore::score`]).
pub fn scores(data: &FitData, s: &LinearScore) -> Vec<f64> {
    let index: Vec<Option<usize>> = s
        .terms
        .iter()
        .map(|t| data.metrics.iter().position(|m| *m == t.name))
        .collect();
    data.rows
        .iter()
        .map(|r| {
            let raw: f64 = s
                .terms
                .iter()
                .zip(&index)
                .map(|(t, i)| t.contribution(i.and_then(|i| r.values[i])))
                .sum();
            s.scaled(raw)
        })
        .collect()
}

/// Mean over sources of the Spearman of the score with the label, each
/// source held out in turn (weights refitted without it).
fn loso_mean_spearman(
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

/// The validation of one held-out source.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeldOut {
    /// The source.
    pub source: String,
    /// Puzzles of the source.
    pub n: usize,
    /// Metrics the selection kept without this source (full score).
    pub kept: Vec<String>,
    /// Metrics the selection kept for the fast score.
    pub kept_fast: Vec<String>,
    /// Correlations with the label: `score`, `score_fast`, every single
    /// metric, and `se` (SE's rating) where known.
    pub rows: Vec<EvalRow>,
    /// Puzzles of the source with an SE rating.
    pub n_se: usize,
    /// Share of those whose SE-equivalent is within ±1.0 of SE's rating.
    pub se_within_1: Option<f64>,
    /// Mean absolute difference of SE-equivalent and SE's rating.
    pub se_mean_abs: Option<f64>,
    /// Spearman of the score minus Spearman of SE's rating, with the label,
    /// on the puzzles SE rated, with its paired bootstrap interval.
    pub vs_se: Option<Difference>,
}

/// A difference of two statistics on the same puzzles with its paired
/// percentile-bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Difference {
    /// The difference on the sample.
    pub value: f64,
    /// Lower end of the interval (null when the bootstrap is off).
    pub lo: Option<f64>,
    /// Upper end of the interval.
    pub hi: Option<f64>,
}

/// Spearman(a, label) − Spearman(b, label) with a paired bootstrap interval
/// (each resample draws puzzles, keeping their three values together).
pub fn spearman_difference(
    a: &[f64],
    b: &[f64],
    label: &[f64],
    boot: &BootstrapOptions,
) -> Option<Difference> {
    let diff = |idx: &[f64]| -> Option<f64> {
        let pick = |v: &[f64]| -> Vec<f64> { idx.iter().map(|&i| v[i as usize]).collect() };
        let y = pick(label);
        Some(stats::spearman(&pick(a), &y).ok()? - stats::spearman(&pick(b), &y).ok()?)
    };
    let idx: Vec<f64> = (0..a.len()).map(|i| i as f64).collect();
    let value = diff(&idx)?;
    let ci = stats::bootstrap_intervals(&idx, label, boot, 1, |xs, _| vec![diff(xs)]);
    let interval = ci.first().copied().flatten();
    Some(Difference {
        value,
        lo: interval.map(|i| i.lo),
        hi: interval.map(|i| i.hi),
    })
}

/// Fits selection, weights and calibration without the held-out source and
/// scores it; `fast` lists the candidates of the fast score.
pub fn validate_source(
    data: &FitData,
    held: &str,
    candidates: &[usize],
    fast: &[usize],
    opts: &ScoreFitOptions,
) -> HeldOut {
    let train: Vec<usize> = (0..data.rows.len())
        .filter(|&i| data.rows[i].source != held)
        .collect();
    let test: Vec<usize> = (0..data.rows.len())
        .filter(|&i| data.rows[i].source == held)
        .collect();
    let (kept, _) = select_metrics(data, candidates, &train, opts);
    let (kept_fast, _) = select_metrics(data, fast, &train, opts);
    let full = fit_score(data, &kept, &train, opts);
    let quick = fit_score(data, &kept_fast, &train, opts);
    let all_full = scores(data, &full);
    let all_fast = scores(data, &quick);
    let y: Vec<f64> = test.iter().map(|&i| data.rows[i].rank).collect();
    let mut rows = Vec::new();
    let pick = |v: &[f64]| -> Vec<f64> { test.iter().map(|&i| v[i]).collect() };
    rows.push(evaluate_pairs(
        "score",
        &pick(&all_full),
        &y,
        &opts.bootstrap,
    ));
    rows.push(evaluate_pairs(
        "score_fast",
        &pick(&all_fast),
        &y,
        &opts.bootstrap,
    ));
    let mut column = |name: &str, get: &dyn Fn(&FitRow) -> Option<f64>| {
        let (x, yy): (Vec<f64>, Vec<f64>) = test
            .iter()
            .filter_map(|&i| get(&data.rows[i]).map(|x| (x, data.rows[i].rank)))
            .unzip();
        rows.push(evaluate_pairs(name, &x, &yy, &opts.bootstrap));
    };
    for (m, name) in data.metrics.iter().enumerate() {
        column(name, &|r: &FitRow| r.values[m]);
    }
    column("se", &|r: &FitRow| r.se);
    let diffs: Vec<f64> = test
        .iter()
        .filter_map(|&i| {
            let se = data.rows[i].se?;
            Some((full.se_equivalent(all_full[i], data.rows[i].hardest.as_deref())? - se).abs())
        })
        .collect();
    let n_se = diffs.len();
    let rated: Vec<usize> = test
        .iter()
        .copied()
        .filter(|&i| data.rows[i].se.is_some())
        .collect();
    let vs_se = spearman_difference(
        &rated.iter().map(|&i| all_full[i]).collect::<Vec<_>>(),
        &rated
            .iter()
            .filter_map(|&i| data.rows[i].se)
            .collect::<Vec<_>>(),
        &rated.iter().map(|&i| data.rows[i].rank).collect::<Vec<_>>(),
        &opts.bootstrap,
    );
    HeldOut {
        source: held.to_string(),
        n: test.len(),
        kept: kept.iter().map(|&m| data.metrics[m].clone()).collect(),
        kept_fast: kept_fast.iter().map(|&m| data.metrics[m].clone()).collect(),
        rows,
        n_se,
        se_within_1: (n_se > 0)
            .then(|| diffs.iter().filter(|&&d| d <= 1.0).count() as f64 / n_se as f64),
        se_mean_abs: (n_se > 0).then(|| diffs.iter().sum::<f64>() / n_se as f64),
        vs_se,
    }
}

/// Leave-one-source-out validation over every source in `held_out`.
pub fn leave_one_source_out(
    data: &FitData,
    held_out: &[String],
    candidates: &[usize],
    fast: &[usize],
    opts: &ScoreFitOptions,
) -> Vec<HeldOut> {
    held_out
        .iter()
        .map(|s| validate_source(data, s, candidates, fast, opts))
        .collect()
}

/// Everything `sudolab fit --score` produces.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScoreFitReport {
    /// Sources of the fitting data and their puzzle counts.
    pub sources: BTreeMap<String, usize>,
    /// Backward elimination of the full score on every source.
    pub selection: Vec<SelectionStep>,
    /// Backward elimination of the fast score on every source.
    pub selection_fast: Vec<SelectionStep>,
    /// Leave-one-source-out validation of each held-out source.
    pub validation: Vec<HeldOut>,
    /// The model fitted on every source.
    pub model: super::ScoreModel,
}

/// Selects, fits and calibrates the full and the fast score on every row,
/// and validates them by leaving out each source of `held_out` in turn.
pub fn fit_model(
    data: &FitData,
    candidates: &[usize],
    fast: &[usize],
    held_out: &[String],
    opts: &ScoreFitOptions,
    about: String,
) -> ScoreFitReport {
    let all: Vec<usize> = (0..data.rows.len()).collect();
    let (kept, selection) = select_metrics(data, candidates, &all, opts);
    let (kept_fast, selection_fast) = select_metrics(data, fast, &all, opts);
    let model = super::ScoreModel {
        about,
        params: super::FeatureParams::default(),
        full: fit_score(data, &kept, &all, opts),
        fast: fit_score(data, &kept_fast, &all, opts),
    };
    let mut sources = BTreeMap::new();
    for r in &data.rows {
        *sources.entry(r.source.clone()).or_insert(0) += 1;
    }
    ScoreFitReport {
        sources,
        selection,
        selection_fast,
        validation: leave_one_source_out(data, held_out, candidates, fast, opts),
        model,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two sources that order puzzles by the same hidden difficulty `h`
    /// on different scales; metric `a` follows `h`, `b` is noise.
    fn synthetic() -> FitData {
        let mut rng = SeededRng::seed_from_u64(3);
        let mut rows = Vec::new();
        for (s, scale) in [("x", 1.0), ("y", 10.0), ("z", 3.0)] {
            for _ in 0..120 {
                let h: f64 = rng.gen_range(0.0..4.0);
                let a = h + rng.gen_range(-0.3..0.3);
                let b: f64 = rng.gen_range(0.0..4.0);
                rows.push(FitRow {
                    source: s.into(),
                    rank: (h.floor() + 1.0) * scale,
                    se: Some(1.0 + 2.0 * h),
                    level: Some(format!("L{}", h.floor() as u32 + 1)),
                    hardest: None,
                    values: vec![Some(a), Some(b)],
                });
            }
        }
        FitData {
            metrics: vec!["a".into(), "b".into()],
            rows,
        }
    }

    #[test]
    fn the_fit_weights_the_informative_metric_and_selection_drops_noise() {
        let data = synthetic();
        let all: Vec<usize> = (0..data.rows.len()).collect();
        let opts = ScoreFitOptions::default();
        let s = fit_score(&data, &[0, 1], &all, &opts);
        assert!(
            s.terms[0].weight > 5.0 * s.terms[1].weight.abs(),
            "{:?}",
            s.terms
        );
        let (kept, steps) = select_metrics(&data, &[0, 1], &all, &opts);
        assert_eq!(kept, vec![0], "{steps:?}");
        // Four levels per source, so three ascending cuts each.
        for site in s.sites.values() {
            assert_eq!(site.levels, ["L1", "L2", "L3", "L4"]);
            assert_eq!(site.cuts.len(), 3);
        }
        // The SE curve is monotone and close to 1 + 2h.
        assert!(s.se.pooled.windows(2).all(|w| w[1].1 >= w[0].1));
        assert_eq!(
            s.se.by_technique.keys().collect::<Vec<_>>(),
            [SeCalibration::BEYOND]
        );
        let held = validate_source(&data, "y", &[0, 1], &[1], &opts);
        assert_eq!(held.kept, ["a"]);
        let score_rho = held.rows[0].spearman.unwrap();
        assert!(score_rho > 0.9, "{score_rho}");
        assert!(held.se_within_1.unwrap() > 0.8);
    }

    #[test]
    fn isotonic_pools_violators_and_ties() {
        let k = isotonic_knots(&[(1.0, 1.0), (2.0, 3.0), (3.0, 2.0), (4.0, 5.0)], 64);
        assert_eq!(k, vec![(1.0, 1.0), (2.5, 2.5), (4.0, 5.0)]);
        // Equal scores pool first, whatever their order.
        let k = isotonic_knots(&[(1.0, 4.0), (1.0, 2.0), (2.0, 3.5)], 64);
        assert_eq!(k, vec![(1.0, 3.0), (2.0, 3.5)]);
    }

    #[test]
    fn level_cuts_separate_clean_levels() {
        let pts = [(1.0, 1.0), (2.0, 1.0), (5.0, 2.0), (6.0, 2.0), (9.0, 3.0)];
        assert_eq!(level_cuts(&pts), vec![3.5, 7.5]);
    }
}
