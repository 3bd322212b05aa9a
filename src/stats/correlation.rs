//! Correlation coefficients of paired samples.
//!
//! * **Pearson r** — linear correlation, as Pelánek (Table 3) reports it.
//! * **Spearman ρ** — Pearson r of the ranks; tied values get the average of
//!   the ranks they span. Patti §8 uses it for website levels.
//! * **Kendall τ-b** — `(C − D) / √((n₀ − n₁)(n₀ − n₂))` where C and D count
//!   concordant and discordant pairs, n₀ = n(n−1)/2 and n₁, n₂ the pairs tied
//!   in x and in y, from the pair counts of `concordance.rs` (Knight 1966).
//! * **Goodman–Kruskal γ** — `(C − D) / (C + D)`, ignoring all tied pairs;
//!   Chang (hsolve, §3.3.1) reports γ = 0.82 on an 8 × 8 table of website
//!   level against metric octile. From the same pair counts as τ-b.

use super::concordance::pair_counts;
use super::{StatError, check_pairs};

/// Pearson's product-moment correlation.
pub fn pearson(x: &[f64], y: &[f64]) -> Result<f64, StatError> {
    check_pairs(x, y)?;
    let dx = standardised(x, "x")?;
    let dy = standardised(y, "y")?;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (&a, &b) in dx.iter().zip(&dy) {
        sxy += a * b;
        sxx += a * a;
        syy += b * b;
    }
    Ok((sxy / (sxx.sqrt() * syy.sqrt())).clamp(-1.0, 1.0))
}

/// The deviations of `v` from its mean, scaled into [−1, 1]: the values are
/// first divided by their largest magnitude, the deviations then by theirs,
/// so neither squares of 1e200 overflow nor squares of 1e-200 underflow to
/// zero (a side is constant only when its values are all equal).
fn standardised(v: &[f64], which: &'static str) -> Result<Vec<f64>, StatError> {
    if let Some(&first) = v.first()
        && v.iter().all(|&a| a == first)
    {
        return Err(StatError::Constant {
            which,
            value: first,
        });
    }
    let scale = v.iter().fold(0.0f64, |m, a| m.max(a.abs()));
    let unit: Vec<f64> = v.iter().map(|a| a / scale).collect();
    let mean = unit.iter().sum::<f64>() / unit.len() as f64;
    let dev: Vec<f64> = unit.iter().map(|a| a - mean).collect();
    let spread = dev.iter().fold(0.0f64, |m, d| m.max(d.abs()));
    if spread == 0.0 {
        return Err(StatError::Constant {
            which,
            value: mean * scale,
        });
    }
    Ok(dev.into_iter().map(|d| d / spread).collect())
}

/// 1-based ranks, ties sharing the average of the ranks they span.
pub(crate) fn average_ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut ranks = vec![0.0; v.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i + 1;
        while j < order.len() && v[order[j]] == v[order[i]] {
            j += 1;
        }
        // Positions i..j (0-based) hold ranks i+1..=j; their mean is (i+1+j)/2.
        let avg = (i + 1 + j) as f64 / 2.0;
        for &k in &order[i..j] {
            ranks[k] = avg;
        }
        i = j;
    }
    ranks
}

/// Spearman's rank correlation (Pearson r of average ranks).
pub fn spearman(x: &[f64], y: &[f64]) -> Result<f64, StatError> {
    check_pairs(x, y)?;
    pearson(&average_ranks(x), &average_ranks(y))
}

/// Kendall's τ-b, which corrects τ for ties on either side.
#[cfg(test)]
pub(crate) fn kendall_tau_b(x: &[f64], y: &[f64]) -> Result<f64, StatError> {
    check_pairs(x, y)?;
    Ok(pair_counts(x, y)?.tau_b())
}

/// Goodman–Kruskal γ of paired samples.
#[cfg(test)]
pub(crate) fn gk_gamma(x: &[f64], y: &[f64]) -> Result<f64, StatError> {
    check_pairs(x, y)?;
    pair_counts(x, y)?.gamma()
}

/// All four coefficients of paired samples, sharing one sort for τ-b and γ:
/// `[pearson, spearman, kendall_tau_b, gk_gamma]`.
pub(crate) fn correlations(x: &[f64], y: &[f64]) -> [Result<f64, StatError>; 4] {
    if let Err(e) = check_pairs(x, y) {
        return [Err(e.clone()), Err(e.clone()), Err(e.clone()), Err(e)];
    }
    let (tau, gamma) = match pair_counts(x, y) {
        Ok(c) => (Ok(c.tau_b()), c.gamma()),
        Err(e) => (Err(e.clone()), Err(e)),
    };
    [pearson(x, y), spearman(x, y), tau, gamma]
}
