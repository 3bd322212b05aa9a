//! Every statistic of the crate (`docs/methods.md` §4, §6): correlation
//! coefficients, bootstrap intervals, equal-count bins, contingency tables
//! and χ² for `eval`; means, medians and run summaries for `relax` and the
//! human models; least squares for `eval::combine` and the score's fit. It
//! sits low in the layering (above the engines, below everything that
//! computes statistics), so every module imports one definition of each
//! idea. One file per topic, all re-exported here:
//!
//! * `summary.rs` — mean, median, squared deviations and [`Summary`] (mean,
//!   median, sample standard deviation) of repeated runs.
//! * `regression.rs` — ordinary least squares with an intercept, Gaussian
//!   elimination with partial pivoting, prediction.
//! * `correlation.rs` — Pearson r (Pelánek, Table 3), Spearman ρ with
//!   average ranks for ties (Patti §8), Kendall τ-b and Goodman–Kruskal γ
//!   (Chang, hsolve §3.3.1) of paired samples.
//! * `concordance.rs` — concordant, discordant and tied pair counts in
//!   O(n log n) (Knight 1966), and γ of an ordered contingency table.
//! * `contingency.rs` — contingency tables and the χ² test of independence.
//! * `distributions.rs` — the χ² p-value: ln Γ and the regularized upper
//!   incomplete gamma function (Numerical Recipes §6.2).
//! * `interval.rs` — 95 % intervals of a mean (Student's t) and of a
//!   proportion (Wilson's score interval), for the relaxation summaries.
//! * `quantiles.rs` — quantiles and equal-count bins.
//! * `bootstrap.rs` — seeded percentile bootstrap intervals.
//! * `uncertainty.rs` — the standard error of a run mean, [`Estimate`] (a
//!   random metric: mean, sd, se and runs), the jackknife standard error, the normal distribution and the probability that a
//!   measured value lies in a range (a level's confidence).
//! * `paired_sample.rs` — the four coefficients of a reweighted sample
//!   sorted once, the fast path of [`bootstrap_correlations`].
//!
//! Every coefficient needs at least [`MIN_PAIRS`] pairs and two distinct
//! values on each side; otherwise a [`StatError`] says why, so no NaN ever
//! reaches a table. Inputs must be finite (the results table stores
//! non-finite numbers as missing).

mod bootstrap;
mod concordance;
mod contingency;
mod correlation;
mod distributions;
mod interval;
mod paired_sample;
mod quantiles;
mod regression;
mod summary;
mod uncertainty;

pub(crate) use bootstrap::bootstrap_correlations;
pub(crate) use bootstrap::bootstrap_intervals;
pub use bootstrap::{BootstrapOptions, Interval};
pub(crate) use concordance::gamma_from_table;
pub(crate) use contingency::{ChiSquare, chi_square, contingency_counts};
pub(crate) use correlation::{average_ranks, correlations};
pub use correlation::{pearson, spearman};
pub(crate) use interval::{mean_interval, wilson95};
pub(crate) use quantiles::{bin_of, equal_count_edges, quantile_sorted};
pub(crate) use regression::least_absolute_deviations;
pub(crate) use regression::solve;
pub(crate) use regression::{FitError, least_squares, predict};
pub(crate) use summary::Summary;
pub(crate) use summary::mean;
pub(crate) use summary::median_sorted;
pub use uncertainty::Estimate;
pub(crate) use uncertainty::{jackknife_se, probability_in};
#[cfg(test)]
pub(crate) use {
    concordance::pair_counts,
    correlation::{gk_gamma, kendall_tau_b},
    distributions::{chi2_sf, gamma_q, ln_gamma},
    interval::t95,
    paired_sample::PairedSample,
    uncertainty::normal_cdf,
};

use thiserror::Error;

/// Fewest pairs for which a coefficient is reported.
pub(crate) const MIN_PAIRS: usize = 3;

/// Why a statistic is undefined.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum StatError {
    /// The two samples are not paired.
    #[error("the two columns have different lengths ({x} and {y})")]
    LengthMismatch {
        /// Length of x.
        x: usize,
        /// Length of y.
        y: usize,
    },
    /// Fewer than `MIN_PAIRS` complete pairs.
    #[error("only {n} complete pairs; at least {min} are needed")]
    TooFew {
        /// Complete pairs available.
        n: usize,
        /// Pairs required.
        min: usize,
    },
    /// One side has a single distinct value, so the coefficient is undefined.
    #[error("{which} is constant (every value is {value})")]
    Constant {
        /// The constant side, `"x"` or `"y"`.
        which: &'static str,
        /// Its only value.
        value: f64,
    },
    /// No untied pair: γ's `C + D` is 0.
    #[error("every pair is tied in x or in y, so γ is undefined")]
    AllTied,
    /// Fewer than two non-empty rows or columns: χ² or γ is undefined.
    #[error("the contingency table needs at least two non-empty rows and columns")]
    DegenerateTable,
    /// Fewer values than bins.
    #[error("cannot make {bins} bins from {n} values")]
    TooFewForBins {
        /// Values to bin.
        n: usize,
        /// Bins requested.
        bins: usize,
    },
    /// Fewer than two bins requested.
    #[error("the number of bins must be at least 2, got {bins}")]
    BadBins {
        /// Bins requested.
        bins: usize,
    },
}

fn check_pairs(x: &[f64], y: &[f64]) -> Result<(), StatError> {
    if x.len() != y.len() {
        return Err(StatError::LengthMismatch {
            x: x.len(),
            y: y.len(),
        });
    }
    if x.len() < MIN_PAIRS {
        return Err(StatError::TooFew {
            n: x.len(),
            min: MIN_PAIRS,
        });
    }
    check_varies(x, "x")?;
    check_varies(y, "y")
}

fn check_varies(v: &[f64], which: &'static str) -> Result<(), StatError> {
    match v.first() {
        Some(&first) if v.iter().all(|&a| a == first) => Err(StatError::Constant {
            which,
            value: first,
        }),
        _ => Ok(()),
    }
}
