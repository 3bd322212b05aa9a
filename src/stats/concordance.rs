//! Concordant, discordant and tied pair counts of paired samples, the basis
//! of Kendall τ-b and Goodman–Kruskal γ.
//!
//! Computed in O(n log n) with Knight's algorithm (Knight 1966): sort by
//! (x, y), count the inversions of y with a merge sort. γ (Chang, hsolve
//! §3.3.1) also comes from a contingency table whose rows and columns are
//! both ordered ([`gamma_from_table`]).

use super::StatError;
use serde::Serialize;

/// Pair counts of two paired samples (Knight's algorithm, O(n log n)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct PairCounts {
    /// Number of pairs of observations (sample size).
    pub n: u64,
    /// All pairs, n(n−1)/2.
    pub pairs: u64,
    /// Pairs tied in x (including those tied in both).
    pub tied_x: u64,
    /// Pairs tied in y (including those tied in both).
    pub tied_y: u64,
    /// Pairs tied in both.
    pub tied_xy: u64,
    /// Pairs ordered the same way in x and y (`C`).
    pub concordant: u64,
    /// Pairs ordered oppositely in x and y (`D`).
    pub discordant: u64,
}

fn tie_pairs_sorted(v: &[f64]) -> u64 {
    let mut total = 0u64;
    let mut i = 0;
    while i < v.len() {
        let mut j = i + 1;
        while j < v.len() && v[j] == v[i] {
            j += 1;
        }
        let t = (j - i) as u64;
        total += t * (t - 1) / 2;
        i = j;
    }
    total
}

/// Sort `v` ascending and return the number of inversions it had.
fn merge_sort_inversions(v: &mut [f64]) -> u64 {
    let n = v.len();
    let mut buf = vec![0.0; n];
    let mut swaps = 0u64;
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                if v[j] < v[i] {
                    buf[k] = v[j];
                    swaps += (mid - i) as u64;
                    j += 1;
                } else {
                    buf[k] = v[i];
                    i += 1;
                }
                k += 1;
            }
            buf[k..k + (mid - i)].copy_from_slice(&v[i..mid]);
            k += mid - i;
            buf[k..k + (end - j)].copy_from_slice(&v[j..end]);
            start = end;
        }
        v.copy_from_slice(&buf);
        width *= 2;
    }
    swaps
}

/// Concordant, discordant and tied pair counts.
pub(crate) fn pair_counts(x: &[f64], y: &[f64]) -> Result<PairCounts, StatError> {
    if x.len() != y.len() {
        return Err(StatError::LengthMismatch {
            x: x.len(),
            y: y.len(),
        });
    }
    let n = x.len();
    let mut pairs: Vec<(f64, f64)> = x.iter().copied().zip(y.iter().copied()).collect();
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let xs: Vec<f64> = pairs.iter().map(|p| p.0).collect();
    let tied_x = tie_pairs_sorted(&xs);
    let mut tied_xy = 0u64;
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && pairs[j] == pairs[i] {
            j += 1;
        }
        let t = (j - i) as u64;
        tied_xy += t * (t - 1) / 2;
        i = j;
    }
    let mut ys: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let discordant = merge_sort_inversions(&mut ys);
    let tied_y = tie_pairs_sorted(&ys);
    let total = (n as u64) * (n as u64).saturating_sub(1) / 2;
    let untied = total + tied_xy - tied_x - tied_y;
    Ok(PairCounts {
        n: n as u64,
        pairs: total,
        tied_x,
        tied_y,
        tied_xy,
        concordant: untied - discordant,
        discordant,
    })
}

impl PairCounts {
    /// Kendall's τ-b from the counts; the caller has checked that neither
    /// side is constant.
    pub(crate) fn tau_b(&self) -> f64 {
        let s = self.concordant as f64 - self.discordant as f64;
        let dx = (self.pairs - self.tied_x) as f64;
        let dy = (self.pairs - self.tied_y) as f64;
        if dx <= 0.0 || dy <= 0.0 {
            return 0.0;
        }
        (s / (dx.sqrt() * dy.sqrt())).clamp(-1.0, 1.0)
    }

    /// Goodman–Kruskal γ from the counts.
    pub(crate) fn gamma(&self) -> Result<f64, StatError> {
        gamma_from_counts(self.concordant, self.discordant)
    }
}

fn gamma_from_counts(concordant: u64, discordant: u64) -> Result<f64, StatError> {
    let untied = concordant + discordant;
    if untied == 0 {
        return Err(StatError::AllTied);
    }
    Ok((concordant as f64 - discordant as f64) / untied as f64)
}

/// Goodman–Kruskal γ of a contingency table whose rows and columns are both
/// ordered (row `i` below row `i+1`, column `j` below column `j+1`).
pub(crate) fn gamma_from_table(table: &[Vec<u64>]) -> Result<f64, StatError> {
    let r = table.len();
    let c = table.iter().map(Vec::len).max().unwrap_or(0);
    let cell = |i: usize, j: usize| table[i].get(j).copied().unwrap_or(0);
    // below[i][j]: sum of cells (i', j') with i' > i and j' > j;
    // below_left[i][j]: sum with i' > i and j' < j.
    let mut concordant = 0u64;
    let mut discordant = 0u64;
    // Column sums of all rows below the current one, accumulated bottom-up.
    let mut below_cols = vec![0u64; c];
    for i in (0..r).rev() {
        let mut prefix = vec![0u64; c + 1];
        for j in 0..c {
            prefix[j + 1] = prefix[j] + below_cols[j];
        }
        let total = prefix[c];
        for j in 0..c {
            let n = cell(i, j);
            if n == 0 {
                continue;
            }
            concordant += n * (total - prefix[j + 1]);
            discordant += n * prefix[j];
        }
        for (j, b) in below_cols.iter_mut().enumerate() {
            *b += cell(i, j);
        }
    }
    gamma_from_counts(concordant, discordant)
}
