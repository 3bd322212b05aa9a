//! The weights of the score (`docs/methods.md` §6.2): each metric is
//! transformed and standardised over the training rows, and the weights
//! minimise the logistic loss of the score difference over seeded pairs of
//! puzzles of one source with different labels (each source weighing the
//! same unless the options give it a weight, as they do the timed source;
//! small ridge penalty), by Newton's method whose steps
//! [`crate::stats::solve`] computes.

use super::{FitData, FitRow, ScoreFitOptions};
use crate::graph::derive_seed;
use crate::metrics::Metric;
use crate::score::{LinearScore, Term, Transform};
use crate::seed::SeededRng;
use crate::stats::solve;
use rand::Rng;
use rand::SeedableRng;
use std::collections::BTreeMap;

/// The transform the fit uses for a metric: `ln(1 + x)` for the effort
/// counts and sums, whether naked singles solve the puzzle for their
/// reach (QQWing's simplest level, faster for people too), the value
/// itself for other means, shares and scores.
pub(crate) fn transform_for(m: Metric) -> Transform {
    match m {
        Metric::WeightsScore
        | Metric::Hsolve
        | Metric::SisusRefutationSum
        | Metric::Nishio2
        | Metric::Nishio4
        | Metric::Nishio4Heuristic
        | Metric::Backtracks
        | Metric::OracleVisits
        | Metric::MeanSolutions
        | Metric::SinglesDependency => Transform::Log1p,
        Metric::SinglesNakedReach => Transform::Whole,
        _ => Transform::Identity,
    }
}

/// The gate of a candidate metric (`docs/methods.md` §6.1): the singles
/// model's dependency and box reach count the moves of a puzzle hidden
/// singles solve, so their terms are multiplied by `singles_hidden_reach`
/// and fall silent on harder puzzles.
pub(crate) fn gate_of(m: Metric) -> Option<Metric> {
    match m {
        Metric::SinglesDependency | Metric::SinglesBoxReach => Some(Metric::SinglesHiddenReach),
        _ => None,
    }
}

/// The value of a term's gate in a row (`None`: no gate, or not in the data).
fn gate_value(data: &FitData, gate: Option<usize>, i: usize) -> Option<f64> {
    gate.and_then(|g| data.rows[i].values[g])
}

/// The index of a metric's gate among the data's metrics.
pub(super) fn gate_index(data: &FitData, m: usize) -> Option<usize> {
    let gate = gate_of(data.metrics[m])?;
    data.metrics.iter().position(|&n| n == gate)
}

/// The standardisation of one metric over the training rows.
pub(super) fn standardise(data: &FitData, m: usize, train: &[usize]) -> Term {
    let name = data.metrics[m];
    let transform = transform_for(name);
    let gate = gate_index(data, m);
    let present: Vec<f64> = train
        .iter()
        .filter_map(|&i| data.rows[i].values[m])
        .filter(|x| x.is_finite())
        .map(|x| transform.apply(x))
        .collect();
    let fill = present.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let fill = if fill.is_finite() { fill } else { 0.0 };
    let mut term = Term {
        name,
        transform,
        gate: gate.map(|g| data.metrics[g]),
        fill,
        mean: 0.0,
        sd: 1.0,
        weight: 0.0,
    };
    let all: Vec<f64> = train
        .iter()
        .map(|&i| term.transformed(data.rows[i].values[m], gate_value(data, gate, i)))
        .collect();
    let n = all.len().max(1) as f64;
    term.mean = all.iter().sum::<f64>() / n;
    let var = all.iter().map(|x| (x - term.mean).powi(2)).sum::<f64>() / n;
    term.sd = if var > 0.0 { var.sqrt() } else { 1.0 };
    term
}

/// Seeded pairs `(easier, harder)` of one source's training rows.
pub(super) fn source_pairs(
    data: &FitData,
    idx: &[usize],
    max: usize,
    margin: f64,
    seed: u64,
) -> Vec<(usize, usize)> {
    let mut all = Vec::new();
    for (a, &i) in idx.iter().enumerate() {
        for &j in &idx[a + 1..] {
            let (ri, rj) = (data.rows[i].rank, data.rows[j].rank);
            if ri + margin < rj {
                all.push((i, j));
            } else if rj + margin < ri {
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
pub(super) fn fit_weights(
    data: &FitData,
    metrics: &[usize],
    train: &[usize],
    opts: &ScoreFitOptions,
) -> Vec<Term> {
    let mut terms: Vec<Term> = metrics
        .iter()
        .map(|&m| standardise(data, m, train))
        .collect();
    let gates: Vec<Option<usize>> = metrics.iter().map(|&m| gate_index(data, m)).collect();
    let z = |i: usize| -> Vec<f64> {
        terms
            .iter()
            .zip(metrics)
            .zip(&gates)
            .map(|((t, &m), &g)| t.z_with(data.rows[i].values[m], gate_value(data, g, i)))
            .collect()
    };
    let mut by_source: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &i in train {
        by_source.entry(&data.rows[i].source).or_default().push(i);
    }
    // Differences z_harder − z_easier with the weight of their pair.
    let mut diffs: Vec<(Vec<f64>, f64)> = Vec::new();
    let total: f64 = by_source.keys().map(|s| opts.source_weight(s)).sum();
    for (s, (name, idx)) in by_source.iter().enumerate() {
        let pairs = source_pairs(
            data,
            idx,
            opts.max_pairs,
            opts.margin(name),
            derive_seed(opts.seed, s as u64),
        );
        if pairs.is_empty() {
            continue;
        }
        let w = opts.source_weight(name) / (pairs.len() as f64 * total.max(f64::MIN_POSITIVE));
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

/// Raw weighted sum of one row: `terms[j]` weighs metric `metrics[j]`.
pub(super) fn raw_sum(data: &FitData, terms: &[Term], metrics: &[usize], row: &FitRow) -> f64 {
    terms
        .iter()
        .zip(metrics)
        .map(|(t, &m)| {
            let gate = gate_index(data, m).and_then(|g| row.values[g]);
            t.weight * t.z_with(row.values[m], gate)
        })
        .sum()
}

/// Score of every row under a fitted score (a metric the data lacks counts
/// as undefined, as in [`LinearScore::score`]).
pub(crate) fn scores(data: &FitData, s: &LinearScore) -> Vec<f64> {
    let position = |name: Metric| data.metrics.iter().position(|&m| m == name);
    let index: Vec<(Option<usize>, Option<usize>)> = s
        .terms
        .iter()
        .map(|t| (position(t.name), t.gate.and_then(position)))
        .collect();
    data.rows
        .iter()
        .map(|r| {
            let value = |i: Option<usize>| i.and_then(|i| r.values[i]);
            let raw: f64 = s
                .terms
                .iter()
                .zip(&index)
                .map(|(t, &(i, g))| t.weight * t.z_with(value(i), value(g)))
                .sum();
            s.scaled(raw)
        })
        .collect()
}
