//! Percentile bootstrap intervals of statistics of paired samples: resample
//! the pairs with replacement B times; replicate `b` draws from `SeededRng`
//! seeded with a mix of the seed and `b`, so the result does not depend on
//! the number of threads. [`bootstrap_correlations`] draws the same
//! resamples but evaluates each as multiplicities over a sample sorted once
//! ([`PairedSample`]), several times faster than re-sorting each
//! resample.

use super::paired_sample::PairedSample;
use super::quantiles::quantile_sorted;
use crate::seed::SeededRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::Serialize;

/// A percentile interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

/// How to bootstrap.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BootstrapOptions {
    /// Number of resamples B (0 turns the bootstrap off).
    pub replicates: usize,
    /// Seed of the replicates' generators (default 1).
    pub seed: u64,
    /// Coverage of the interval, e.g. 0.95.
    pub confidence: f64,
}

impl Default for BootstrapOptions {
    fn default() -> Self {
        BootstrapOptions {
            replicates: 1000,
            seed: 1,
            confidence: 0.95,
        }
    }
}

fn replicate_rng(seed: u64, b: usize) -> SeededRng {
    use crate::seed::splitmix64;
    SeededRng::seed_from_u64(splitmix64(splitmix64(seed) ^ splitmix64(b as u64)))
}

/// Per-statistic percentile intervals of replicate values.
fn percentile_intervals(
    replicates: &[Vec<Option<f64>>],
    k: usize,
    opts: &BootstrapOptions,
) -> Vec<Option<Interval>> {
    let alpha = (1.0 - opts.confidence.clamp(0.0, 1.0)) / 2.0;
    (0..k)
        .map(|i| {
            let mut vals: Vec<f64> = replicates
                .iter()
                .filter_map(|r| r.get(i).copied().flatten())
                .filter(|v| v.is_finite())
                .collect();
            if vals.len() * 2 < opts.replicates {
                return None;
            }
            vals.sort_by(f64::total_cmp);
            Some(Interval {
                lo: quantile_sorted(&vals, alpha)?,
                hi: quantile_sorted(&vals, 1.0 - alpha)?,
            })
        })
        .collect()
}

// Used by the command line (the score fit's validation) and the tests.
/// Percentile bootstrap intervals of several statistics of paired samples.
///
/// `stat` maps one resample to `k` values (`None` where undefined on that
/// resample). Interval `i` is `None` when fewer than half of the resamples
/// gave statistic `i` a value, or when the bootstrap is off.
pub(crate) fn bootstrap_intervals<F>(
    x: &[f64],
    y: &[f64],
    opts: &BootstrapOptions,
    k: usize,
    stat: F,
) -> Vec<Option<Interval>>
where
    F: Fn(&[f64], &[f64]) -> Vec<Option<f64>> + Sync,
{
    let n = x.len().min(y.len());
    if opts.replicates == 0 || n == 0 {
        return vec![None; k];
    }
    let replicates: Vec<Vec<Option<f64>>> = (0..opts.replicates)
        .into_par_iter()
        .map(|b| {
            let mut rng = replicate_rng(opts.seed, b);
            let mut xs = Vec::with_capacity(n);
            let mut ys = Vec::with_capacity(n);
            for _ in 0..n {
                let i = rng.gen_range(0..n);
                xs.push(x[i]);
                ys.push(y[i]);
            }
            stat(&xs, &ys)
        })
        .collect();
    percentile_intervals(&replicates, k, opts)
}

/// Bootstrap intervals of `[pearson, spearman, kendall_tau_b, gk_gamma]`.
///
/// Draws exactly the resamples of [`bootstrap_intervals`] with the same
/// seed, but evaluates each as multiplicities over the original sample
/// ([`PairedSample::weighted`]), which needs no sorting per replicate.
pub(crate) fn bootstrap_correlations(
    x: &[f64],
    y: &[f64],
    opts: &BootstrapOptions,
) -> Vec<Option<Interval>> {
    let n = x.len().min(y.len());
    if opts.replicates == 0 || n == 0 {
        return vec![None; 4];
    }
    let sample = PairedSample::new(&x[..n], &y[..n]);
    let replicates: Vec<Vec<Option<f64>>> = (0..opts.replicates)
        .into_par_iter()
        .map(|b| {
            let mut rng = replicate_rng(opts.seed, b);
            let mut w = vec![0u32; n];
            for _ in 0..n {
                w[sample.position[rng.gen_range(0..n)]] += 1;
            }
            sample.weighted_sorted(&w).to_vec()
        })
        .collect();
    percentile_intervals(&replicates, 4, opts)
}
