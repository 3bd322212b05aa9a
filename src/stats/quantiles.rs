//! Order statistics: quantiles of a sorted sample (used by the bootstrap's
//! percentile intervals) and equal-count bins, the metric bins of Chang's
//! contingency table (hsolve §3.3.1) and of Patti's universal
//! classification (§8.2.1).

use super::StatError;

/// Quantile `q` of ascending `sorted` (linear interpolation between order
/// statistics, "type 7").
pub(crate) fn quantile_sorted(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let h = (sorted.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    let t = h - lo as f64;
    if t == 0.0 {
        return Some(sorted[lo]);
    }
    let (a, b) = (sorted[lo], sorted[hi]);
    // `a + t·(b − a)` rises with `t` and is `a` for two equal values, so
    // quantiles of ascending `q` ascend (a fitted model's percentiles are
    // checked for it); weighted where `b − a` overflows (values near
    // ±f64::MAX). Rounding cannot take it out of `[a, b]`.
    let span = b - a;
    let q = if span.is_finite() {
        a + t * span
    } else {
        a * (1.0 - t) + b * t
    };
    Some(q.max(a.min(b)).min(a.max(b)))
}

/// Edges of `bins` equal-count bins of `values` (any order, finite).
///
/// With the values sorted, edge `j` (1 ≤ j < bins) is the largest value of
/// the `j`-th chunk of ⌈j·n/bins⌉ values. A value belongs to the first bin
/// whose edge it does not exceed ([`bin_of`]): bins are `(e_{j−1}, e_j]`,
/// so **values tied at an edge all go to the lower bin**. Ties can
/// therefore leave a bin larger than n/bins, or empty when edges coincide.
pub(crate) fn equal_count_edges(values: &[f64], bins: usize) -> Result<Vec<f64>, StatError> {
    if bins < 2 {
        return Err(StatError::BadBins { bins });
    }
    if values.len() < bins {
        return Err(StatError::TooFewForBins {
            n: values.len(),
            bins,
        });
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    Ok((1..bins)
        .map(|j| sorted[(j * n).div_ceil(bins) - 1])
        .collect())
}

/// 0-based bin of `value` for ascending `edges`: the number of edges that
/// are strictly below it.
pub(crate) fn bin_of(value: f64, edges: &[f64]) -> usize {
    edges.partition_point(|&e| e < value)
}
