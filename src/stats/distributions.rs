//! The χ² distribution's survival function, for the p-value of the χ² test
//! (Pearson's test of independence on Chang's contingency table, hsolve
//! §3.3.1): P(X ≥ x) = Q(df/2, x/2), the regularized upper incomplete gamma
//! function. The numerics are `statrs`'s (`ChiSquared::sf`, `gamma_ur` and
//! `ln_gamma`, after Cephes and Lanczos); this module keeps the names the
//! statistics use and their behaviour at the edges (a non-positive x has
//! p = 1; an invalid degree of freedom is NaN, never a panic).

use statrs::distribution::{ChiSquared, ContinuousCDF};

/// Survival function of the χ² distribution: P(X ≥ x) with `df` degrees;
/// 1 for x ≤ 0, NaN when `df` is not a positive number.
pub(crate) fn chi2_sf(x: f64, df: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    match ChiSquared::new(df) {
        Ok(chi2) => chi2.sf(x),
        Err(_) => f64::NAN,
    }
}

/// ln Γ(x) for x > 0 (Lanczos' approximation as `statrs` computes it).
#[cfg(test)]
pub(crate) fn ln_gamma(x: f64) -> f64 {
    statrs::function::gamma::ln_gamma(x)
}

/// Regularized upper incomplete gamma Q(a, x) = Γ(a, x) / Γ(a) for a > 0:
/// 1 for x ≤ 0, 0 for x = ∞, NaN for an invalid `a`.
#[cfg(test)]
pub(crate) fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    if x == f64::INFINITY && a > 0.0 {
        return 0.0;
    }
    statrs::function::gamma::checked_gamma_ur(a, x).unwrap_or(f64::NAN)
}
