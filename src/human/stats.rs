//! Summaries of repeated randomized runs and the per-run seeds.
//!
//! Every randomized model runs `runs` independent simulations. Run `i` of a
//! model draws from its own generator seeded with [`run_seed`]`(seed, model,
//! i)`, a SplitMix64 mix of the three, so a run's result depends only on the
//! user's seed and its index: the same numbers come out whatever the order or
//! the thread that executes the runs.

use crate::seed::SeededRng;
use rand::SeedableRng;
use serde::Serialize;

/// Mean, median and sample standard deviation of a set of runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Summary {
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
    pub fn of(xs: &[f64]) -> Option<Summary> {
        if xs.is_empty() {
            return None;
        }
        let n = xs.len();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let mut s = xs.to_vec();
        s.sort_by(|a, b| a.total_cmp(b));
        let median = crate::util::median_sorted(&s)?;
        let sd = if n > 1 {
            (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
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

/// Seed of run `run` of model `model` (any fixed tag) under user seed `seed`.
pub fn run_seed(seed: u64, model: u64, run: u64) -> u64 {
    use crate::seed::splitmix64;
    splitmix64(splitmix64(splitmix64(seed) ^ model) ^ run)
}

/// The generator of one run.
pub fn run_rng(seed: u64, model: u64, run: u64) -> SeededRng {
    SeededRng::seed_from_u64(run_seed(seed, model, run))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_values() {
        let s = Summary::of(&[1.0, 2.0, 3.0, 10.0]).unwrap();
        assert_eq!(s.mean, 4.0);
        assert_eq!(s.median, 2.5);
        assert!((s.sd - 4.0826).abs() < 1e-3);
        assert_eq!(Summary::of(&[5.0]).unwrap().sd, 0.0);
        assert!(Summary::of(&[]).is_none());
    }

    #[test]
    fn seeds_differ_by_run_and_model() {
        assert_ne!(run_seed(1, 2, 3), run_seed(1, 2, 4));
        assert_ne!(run_seed(1, 2, 3), run_seed(1, 3, 3));
        assert_eq!(run_seed(7, 1, 0), run_seed(7, 1, 0));
    }
}
