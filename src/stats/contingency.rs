//! Contingency tables and Pearson's χ² test of independence: Chang's table
//! of label level against equal-count metric bin (hsolve §3.3.1), with the
//! p-value from the χ² distribution of `distributions.rs`.

use super::StatError;
use super::distributions::chi2_sf;
use serde::Serialize;

/// χ² test of independence.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub(crate) struct ChiSquare {
    /// Pearson's χ² statistic, Σ (observed − expected)² / expected.
    pub chi2: f64,
    /// (rows − 1)(columns − 1), counting only non-empty rows and columns.
    pub df: usize,
    /// Upper-tail p-value of `chi2` with `df` degrees of freedom.
    pub p_value: f64,
}

/// Pearson's χ² of a contingency table; empty rows and columns are dropped.
pub(crate) fn chi_square(table: &[Vec<u64>]) -> Result<ChiSquare, StatError> {
    let c = table.iter().map(Vec::len).max().unwrap_or(0);
    let cell = |i: usize, j: usize| table[i].get(j).copied().unwrap_or(0);
    let row_tot: Vec<u64> = (0..table.len())
        .map(|i| (0..c).map(|j| cell(i, j)).sum())
        .collect();
    let col_tot: Vec<u64> = (0..c)
        .map(|j| (0..table.len()).map(|i| cell(i, j)).sum())
        .collect();
    let rows: Vec<usize> = (0..table.len()).filter(|&i| row_tot[i] > 0).collect();
    let cols: Vec<usize> = (0..c).filter(|&j| col_tot[j] > 0).collect();
    if rows.len() < 2 || cols.len() < 2 {
        return Err(StatError::DegenerateTable);
    }
    let total: f64 = row_tot.iter().sum::<u64>() as f64;
    let mut chi2 = 0.0;
    for &i in &rows {
        for &j in &cols {
            let expected = row_tot[i] as f64 * col_tot[j] as f64 / total;
            let d = cell(i, j) as f64 - expected;
            chi2 += d * d / expected;
        }
    }
    let df = (rows.len() - 1) * (cols.len() - 1);
    Ok(ChiSquare {
        chi2,
        df,
        p_value: chi2_sf(chi2, df as f64),
    })
}

/// Counts of (row, column) index pairs in an `rows × cols` table.
pub(crate) fn contingency_counts(
    row_index: &[usize],
    col_index: &[usize],
    rows: usize,
    cols: usize,
) -> Vec<Vec<u64>> {
    let mut table = vec![vec![0u64; cols]; rows];
    for (&i, &j) in row_index.iter().zip(col_index) {
        if i < rows && j < cols {
            table[i][j] += 1;
        }
    }
    table
}
