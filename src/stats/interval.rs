//! 95 % confidence intervals of the two sampled relaxation statistics
//! (`docs/methods.md` §2.5): the mean of a sample by Student's t (the
//! standard error `s/√n` with `n − 1` degrees of freedom, quantile from
//! `statrs`), and a proportion by Wilson's score interval (Wilson 1927),
//! which stays inside [0, 1] and is not degenerate at 0 or n successes,
//! where the plain normal interval has zero width.

use statrs::distribution::{ContinuousCDF, StudentsT};

/// The normal quantile of a two-sided 95 % interval.
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

/// The mean of a sample with its standard error and 95 % t interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct MeanInterval {
    /// The sample mean.
    pub mean: f64,
    /// Standard error `s/√n` (`s` the sample standard deviation).
    pub se: f64,
    /// `mean − t·se`, `t` the 97.5 % quantile of Student's t with `n − 1`
    /// degrees of freedom.
    pub low: f64,
    /// `mean + t·se`.
    pub high: f64,
}

impl MeanInterval {
    /// Half the width of the interval.
    pub(crate) fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// The 97.5 % quantile of Student's t with `df` degrees of freedom (the
/// normal one when `df` is not a positive finite number of degrees).
pub(crate) fn t95(df: f64) -> f64 {
    match StudentsT::new(0.0, 1.0, df) {
        Ok(t) if df.is_finite() => t.inverse_cdf(0.975),
        _ => Z95,
    }
}

/// The mean of `xs` (summed in the order given) with its standard error and
/// 95 % t interval; `None` with fewer than two values, where a spread is
/// undefined.
pub(crate) fn mean_interval(xs: &[f64]) -> Option<MeanInterval> {
    let n = xs.len();
    if n < 2 {
        return None;
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    let ss: f64 = xs.iter().map(|x| (x - mean).powi(2)).sum();
    let se = (ss / (n - 1) as f64).sqrt() / (n as f64).sqrt();
    let h = t95((n - 1) as f64) * se;
    Some(MeanInterval {
        mean,
        se,
        low: mean - h,
        high: mean + h,
    })
}

/// Wilson's 95 % score interval of a proportion of `successes` in `n`
/// trials; `None` when `n` is 0. The interval always contains the observed
/// proportion: at 0 (or all) successes its lower (upper) end is exactly 0
/// (1), where the formula's rounding would leave 1e-19 (1 − 1e-16).
pub(crate) fn wilson95(successes: usize, n: usize) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let all = successes >= n;
    let (n, p) = (n as f64, successes.min(n) as f64 / n as f64);
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let low = if successes == 0 {
        0.0
    } else {
        (centre - half).clamp(0.0, p)
    };
    let high = if all {
        1.0
    } else {
        (centre + half).clamp(p, 1.0)
    };
    Some((low, high))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_match_the_tables() {
        assert!((t95(1.0) - 12.706).abs() < 1e-3);
        assert!((t95(29.0) - 2.045).abs() < 1e-3);
        assert!((t95(1e6) - Z95).abs() < 5e-4, "{}", t95(1e6));
        assert!((t95(999.0) - 1.9623).abs() < 5e-4, "{}", t95(999.0));
    }

    #[test]
    fn mean_interval_of_a_small_sample() {
        // 1..=5: mean 3, s = √2.5, se = √0.5, t(4) = 2.776.
        let m = mean_interval(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!(m.mean, 3.0);
        assert!((m.se - 0.5f64.sqrt()).abs() < 1e-12);
        assert!((m.half_width() - 2.776 * 0.5f64.sqrt()).abs() < 1e-3);
        assert!(mean_interval(&[1.0]).is_none());
        let flat = mean_interval(&[0.0; 30]).unwrap();
        assert_eq!((flat.se, flat.low, flat.high), (0.0, 0.0, 0.0));
    }

    #[test]
    fn wilson_interval_matches_the_formula_and_its_edges() {
        // 50 of 100: 0.5 ± 0.0962.
        let (lo, hi) = wilson95(50, 100).unwrap();
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        // 0 of 30: [0, 0.1135].
        let (lo, hi) = wilson95(0, 30).unwrap();
        assert_eq!(lo, 0.0);
        assert!((hi - 0.1135).abs() < 1e-4, "{hi}");
        assert!(wilson95(0, 0).is_none());
    }

    #[test]
    fn wilson_interval_contains_the_proportion_at_the_edges() {
        for n in [1, 2, 7, 100, 1000, 12345] {
            assert_eq!(wilson95(0, n).unwrap().0, 0.0, "0 of {n}");
            assert_eq!(wilson95(n, n).unwrap().1, 1.0, "{n} of {n}");
            for k in [0, 1, n / 2, n - 1, n] {
                let (lo, hi) = wilson95(k, n).unwrap();
                let p = k as f64 / n as f64;
                assert!(lo <= p && p <= hi, "{k} of {n}: [{lo}, {hi}] misses {p}");
            }
        }
    }
}
