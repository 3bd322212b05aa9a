//! Location and spread of one sample: the mean, the median of sorted
//! values, the sum of squared deviations both variances divide, and
//! [`Summary`] (mean, median and sample standard deviation) of repeated
//! randomized runs — the form in which the human models (`human`) report
//! their runs (Pelánek §3.3, SiSuS; hsolve §3.2).
//!
//! One definition each, so two modules never disagree on what "the mean"
//! or "the median" of a set of runs is.

use serde::Serialize;

/// Arithmetic mean of `xs`; `None` when empty.
pub(crate) fn mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let n = xs.len() as f64;
    let sum = xs.iter().sum::<f64>();
    // A sum of values near ±f64::MAX overflows where their mean does not.
    Some(if sum.is_finite() {
        sum / n
    } else {
        xs.iter().map(|x| x / n).sum()
    })
}

/// `Σ (x − mean)²`: divided by `n` it is the population variance, by
/// `n − 1` the sample variance.
pub(crate) fn sum_squared_deviations(xs: &[f64], mean: f64) -> f64 {
    xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>()
}

/// Median of ascending values (mean of the two middle ones for an even
/// count); `None` when empty.
pub(crate) fn median_sorted(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// Mean, median and sample standard deviation of a set of runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub(crate) struct Summary {
    /// Arithmetic mean of the runs.
    pub mean: f64,
    /// Median of the runs (mean of the two middle values for an even count).
    pub median: f64,
    /// Sample standard deviation (`n − 1` denominator; 0 for one run).
    pub sd: f64,
    /// Number of runs summarised.
    pub n: usize,
}

impl Summary {
    /// Summary of `xs`; `None` when empty.
    pub(crate) fn of(xs: &[f64]) -> Option<Summary> {
        let mean = mean(xs)?;
        let n = xs.len();
        let mut s = xs.to_vec();
        s.sort_by(|a, b| a.total_cmp(b));
        let median = median_sorted(&s)?;
        let sd = if n > 1 {
            (sum_squared_deviations(xs, mean) / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        Some(Summary {
            mean,
            median,
            sd,
            n,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median_sorted(&[]), None);
        assert_eq!(median_sorted(&[1.0, 2.0, 10.0]), Some(2.0));
        assert_eq!(median_sorted(&[1.0, 2.0, 3.0, 10.0]), Some(2.5));
    }

    #[test]
    fn summary_values() {
        let s = Summary::of(&[1.0, 2.0, 3.0, 10.0]).unwrap();
        assert_eq!(s.mean, 4.0);
        assert_eq!(s.median, 2.5);
        assert!((s.sd - 4.0826).abs() < 1e-3);
        assert_eq!(Summary::of(&[5.0]).unwrap().sd, 0.0);
        assert!(Summary::of(&[]).is_none());
        assert_eq!(mean(&[]), None);
        assert_eq!(sum_squared_deviations(&[1.0, 3.0], 2.0), 2.0);
    }
}
