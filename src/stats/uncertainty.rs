//! How sure a stochastic metric is: the standard error of a value averaged
//! over random runs, the [`Estimate`] a random metric is reported as, and
//! the probability that the value behind it lies in a range (a level, a
//! target), under the normal approximation.
//!
//! A model that averages `n` independent runs (SiSuS, the oracle's trials,
//! hsolve, Nishio's random starts, annealing, harmony search) reports a mean
//! whose sampling error is `sd/√n` ([`Summary::se`]), all three in one
//! [`Estimate`] (`docs/methods.md` §3.10). The oracle score is
//! a smooth function of three run means (`docs/methods.md` §3.2), so its
//! standard error is the delete-one jackknife's (Quenouille 1956; Efron &
//! Stein, "The jackknife estimate of variance", Ann. Stat. 1981):
//! `√((n−1)/n · Σ (θ₍ᵢ₎ − θ̄₍·₎)²)` over the estimates `θ₍ᵢ₎` with run `i`
//! left out ([`jackknife_se`]). By the central limit theorem the metric is
//! then close to normal around its infinite-run value with that standard
//! deviation, and [`probability_in`] is the probability that the value lies
//! in `[lo, hi)`: what a level's confidence (`oracle_level_confidence`) and
//! `generate --target … --confidence` read (`docs/methods.md` §3.10).

use super::Summary;
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};

impl Summary {
    /// Standard error of the mean, `sd/√n`; `None` for a single run, whose
    /// spread is not measured.
    pub(crate) fn se(&self) -> Option<f64> {
        (self.n >= 2).then(|| self.sd / (self.n as f64).sqrt())
    }
}

/// A random metric: the mean of a model's independent runs with how sure
/// it is, as a rating reports it (`docs/methods.md` §3.10).
///
/// In a row a random metric `X` is up to three columns: `X` (the mean),
/// `X_sd` and `X_se`, those of the three the metric registry lists
/// ([`crate::Metric::standard_error`] names the `_se` column).
///
/// ```
/// use sudolab::Estimate;
///
/// let e = Estimate::of(&[1.0, 2.0, 3.0, 10.0]).unwrap();
/// assert_eq!((e.mean, e.n), (4.0, 4));
/// assert_eq!(e.se, Some(e.sd / 2.0));
/// assert_eq!(Estimate::of(&[5.0]).unwrap().se, None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    /// Arithmetic mean of the runs.
    pub mean: f64,
    /// Sample standard deviation of the runs (`n − 1` denominator; 0 for
    /// one run).
    pub sd: f64,
    /// Standard error of the mean, `sd/√n`; `None` for a single run, whose
    /// spread is not measured.
    pub se: Option<f64>,
    /// Number of runs.
    pub n: usize,
}

impl Estimate {
    /// The estimate of the values of independent runs; `None` for no run.
    pub fn of(runs: &[f64]) -> Option<Estimate> {
        Summary::of(runs).map(Summary::estimate)
    }
}

impl Summary {
    /// The estimate these runs give: their mean, sd, se and count.
    pub(crate) fn estimate(self) -> Estimate {
        Estimate {
            mean: self.mean,
            sd: self.sd,
            se: self.se(),
            n: self.n,
        }
    }
}

/// Delete-one jackknife standard error of an estimate over `n` runs:
/// `leave_out(i)` is the estimate with run `i` left out. `None` for fewer
/// than two runs.
pub(crate) fn jackknife_se(n: usize, leave_out: impl Fn(usize) -> f64) -> Option<f64> {
    if n < 2 {
        return None;
    }
    let thetas: Vec<f64> = (0..n).map(leave_out).collect();
    let mean = thetas.iter().sum::<f64>() / n as f64;
    let ss = thetas.iter().map(|t| (t - mean).powi(2)).sum::<f64>();
    Some(((n - 1) as f64 / n as f64 * ss).sqrt())
}

/// Φ(x), the standard normal distribution function.
pub(crate) fn normal_cdf(x: f64) -> f64 {
    if x == f64::INFINITY {
        return 1.0;
    }
    if x == f64::NEG_INFINITY {
        return 0.0;
    }
    standard().cdf(x)
}

/// Φ⁻¹(p), the standard normal quantile, for `p` in (0, 1): 1.645 at 0.95.
/// −∞ at 0 and ∞ at 1; NaN outside [0, 1].
#[cfg(test)]
pub(crate) fn normal_quantile(p: f64) -> f64 {
    match p {
        _ if !(0.0..=1.0).contains(&p) => f64::NAN,
        0.0 => f64::NEG_INFINITY,
        1.0 => f64::INFINITY,
        _ => standard().inverse_cdf(p),
    }
}

fn standard() -> Normal {
    Normal::standard()
}

/// The probability that a value measured as `value` with standard error
/// `se` lies in `[lo, hi)` (either end may be infinite), under the normal
/// approximation. With `se` 0 (a deterministic value) it is 1 or 0.
pub(crate) fn probability_in(value: f64, se: f64, lo: f64, hi: f64) -> f64 {
    if se <= 0.0 || !se.is_finite() {
        return f64::from(u8::from(lo <= value && value < hi));
    }
    let p = normal_cdf((hi - value) / se) - normal_cdf((lo - value) / se);
    p.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn se_of_a_mean_is_sd_over_root_n() {
        let s = Summary::of(&[1.0, 2.0, 3.0, 10.0]).unwrap();
        assert!((s.se().unwrap() - s.sd / 2.0).abs() < 1e-12);
        assert_eq!(Summary::of(&[5.0]).unwrap().se(), None);
    }

    #[test]
    fn an_estimate_holds_the_mean_sd_and_se_of_its_runs() {
        // sd = √(Σ(x − 4)²/3) = √(50/3), se = sd/√4.
        let e = Estimate::of(&[1.0, 2.0, 3.0, 10.0]).unwrap();
        assert_eq!(e.mean, 4.0);
        assert!((e.sd - (50.0f64 / 3.0).sqrt()).abs() < 1e-12, "{}", e.sd);
        assert!((e.se.unwrap() - (50.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-12);
        assert_eq!(e.n, 4);
        let one = Estimate::of(&[5.0]).unwrap();
        assert_eq!((one.mean, one.sd, one.se, one.n), (5.0, 0.0, None, 1));
        assert_eq!(Estimate::of(&[]), None);
    }

    /// The jackknife of a plain mean is exactly `sd/√n`.
    #[test]
    fn jackknife_of_the_mean_is_the_classical_se() {
        let xs = [1.0, 4.0, 2.0, 8.0, 5.0];
        let sum: f64 = xs.iter().sum();
        let n = xs.len();
        let se = jackknife_se(n, |i| (sum - xs[i]) / (n - 1) as f64).unwrap();
        let classical = Summary::of(&xs).unwrap().se().unwrap();
        assert!((se - classical).abs() < 1e-12, "{se} {classical}");
        assert_eq!(jackknife_se(1, |_| 0.0), None);
    }

    #[test]
    fn normal_values() {
        assert!((normal_cdf(1.959_964) - 0.975).abs() < 1e-6);
        assert!((normal_quantile(0.95) - 1.644_854).abs() < 1e-6);
        assert_eq!(normal_quantile(1.0), f64::INFINITY);
        assert!(normal_quantile(1.5).is_nan());
        // One standard error inside a one-sided cut: Φ(1) ≈ 0.8413.
        assert!((probability_in(0.7, 0.1, 0.6, f64::INFINITY) - 0.841_345).abs() < 1e-5);
        // A band: Φ(1) − Φ(−1) ≈ 0.6827.
        assert!((probability_in(0.7, 0.1, 0.6, 0.8) - 0.682_689).abs() < 1e-5);
        assert_eq!(probability_in(0.7, 0.0, 0.6, 0.8), 1.0);
        assert_eq!(probability_in(0.8, 0.0, 0.6, 0.8), 0.0);
    }
}
