//! Ordinary least squares with an intercept, the fitting primitive under
//! Pelánek's linear combinations of metrics (`eval::combine`, "Evaluation
//! and Discussion", Table 3) and the Newton steps of the score's
//! pairwise-ranking fit (`score::fit`, `docs/methods.md` §6.2).
//!
//! [`least_squares`] solves the normal equations of the centred data,
//! [`least_absolute_deviations`] (median regression, the time model of
//! `docs/methods.md` §6.5) reweights them until the absolute residuals stop
//! falling,
//! [`solve`] is Gaussian elimination with partial pivoting (a pivot below
//! 1e-10 of the largest diagonal entry counts as zero, so a constant or
//! linearly dependent predictor is a [`FitError::Singular`], not a
//! meaningless coefficient), and [`predict`] evaluates a fitted model.

/// Why a least-squares problem has no unique solution.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum FitError {
    /// Fewer rows than parameters (weights plus intercept).
    #[error("{rows} rows cannot determine {params} parameters")]
    TooFewRows {
        /// Rows given.
        rows: usize,
        /// Parameters to fit, `p + 1`.
        params: usize,
    },
    /// No pivot at a predictor: the normal equations have no unique solution.
    #[error(
        "the design is singular at predictor {index} (0-based): it is constant or a linear combination of the others"
    )]
    Singular {
        /// 0-based index of the predictor without pivot.
        index: usize,
    },
    /// A row whose predictor count differs from the first row's.
    #[error("row {row} has {found} predictors, expected {expected}")]
    Ragged {
        /// 0-based index of the row.
        row: usize,
        /// Predictors in that row.
        found: usize,
        /// Predictors in the first row.
        expected: usize,
    },
}

/// Least squares with an intercept: `y ≈ b₀ + Σ bⱼ·x[i][j]`. Returns
/// `[b₀, b₁, …, b_p]`.
pub(crate) fn least_squares(x: &[Vec<f64>], y: &[f64]) -> Result<Vec<f64>, FitError> {
    weighted_least_squares(x, y, &vec![1.0; x.len().min(y.len())])
}

// Used by the command line (the time model's fit) and the tests.
/// Least absolute deviations with an intercept (median regression): the
/// `[b₀, b₁, …, b_p]` minimising `Σ |yᵢ − b₀ − Σ bⱼ·x[i][j]|`, by
/// iteratively reweighted least squares from the least-squares line
/// (weights `1/max(|residual|, 1e-9)`), until the sum of absolute residuals
/// stops falling (at most 200 rounds). The median of the residuals of the
/// fit is 0 up to the iteration's precision, so half of the rows lie above
/// the line — the estimator of a median, where least squares estimates a
/// mean and follows the long tail of solving times.
pub(crate) fn least_absolute_deviations(x: &[Vec<f64>], y: &[f64]) -> Result<Vec<f64>, FitError> {
    let n = x.len().min(y.len());
    let loss = |b: &[f64]| -> f64 {
        x[..n]
            .iter()
            .zip(&y[..n])
            .map(|(row, &yi)| (yi - predict(b, row)).abs())
            .sum()
    };
    let mut best = least_squares(x, y)?;
    let mut best_loss = loss(&best);
    for _ in 0..200 {
        let w: Vec<f64> = x[..n]
            .iter()
            .zip(&y[..n])
            .map(|(row, &yi)| 1.0 / (yi - predict(&best, row)).abs().max(1e-9))
            .collect();
        let Ok(next) = weighted_least_squares(x, y, &w) else {
            break;
        };
        let next_loss = loss(&next);
        if next_loss >= best_loss * (1.0 - 1e-12) {
            if next_loss < best_loss {
                best = next;
            }
            break;
        }
        best = next;
        best_loss = next_loss;
    }
    Ok(best)
}

/// Weighted least squares with an intercept: the coefficients minimising
/// `Σ wᵢ·(yᵢ − b₀ − Σ bⱼ·x[i][j])²` (weights ≥ 0, not all 0).
fn weighted_least_squares(x: &[Vec<f64>], y: &[f64], w: &[f64]) -> Result<Vec<f64>, FitError> {
    let n = x.len().min(y.len()).min(w.len());
    let p = x.first().map_or(0, Vec::len);
    if let Some((row, r)) = x.iter().enumerate().find(|(_, r)| r.len() != p) {
        return Err(FitError::Ragged {
            row,
            found: r.len(),
            expected: p,
        });
    }
    if n < p + 1 || n == 0 {
        return Err(FitError::TooFewRows {
            rows: n,
            params: p + 1,
        });
    }
    let wf: f64 = w[..n].iter().sum();
    if wf.is_nan() || wf <= 0.0 {
        return Err(FitError::TooFewRows {
            rows: 0,
            params: p + 1,
        });
    }
    let mx: Vec<f64> = (0..p)
        .map(|j| x[..n].iter().zip(w).map(|(r, wi)| wi * r[j]).sum::<f64>() / wf)
        .collect();
    let my = y[..n].iter().zip(w).map(|(yi, wi)| wi * yi).sum::<f64>() / wf;
    // Normal equations of the (weighted) centred data: A b = c, A = XᵀWX,
    // c = XᵀWy.
    let mut a = vec![vec![0.0; p]; p];
    let mut c = vec![0.0; p];
    for ((row, &yi), &wi) in x[..n].iter().zip(&y[..n]).zip(w) {
        let d: Vec<f64> = row.iter().zip(&mx).map(|(v, m)| v - m).collect();
        for ((a_row, c_j), &dj) in a.iter_mut().zip(c.iter_mut()).zip(&d) {
            *c_j += wi * dj * (yi - my);
            for (a_jk, &dk) in a_row.iter_mut().zip(&d) {
                *a_jk += wi * dj * dk;
            }
        }
    }
    let slopes = solve(a, c)?;
    let intercept = my - slopes.iter().zip(&mx).map(|(b, m)| b * m).sum::<f64>();
    let mut coef = Vec::with_capacity(p + 1);
    coef.push(intercept);
    coef.extend(slopes);
    Ok(coef)
}

/// Solve `a·x = b` by Gaussian elimination with partial pivoting. A pivot
/// below 1e-10 of the largest diagonal entry counts as zero (singular).
pub(crate) fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Result<Vec<f64>, FitError> {
    let p = b.len();
    let scale = (0..p).map(|i| a[i][i].abs()).fold(0.0, f64::max);
    let tol = scale * 1e-10;
    for col in 0..p {
        let pivot = (col..p)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        if a[pivot][col].abs() <= tol || scale == 0.0 {
            return Err(FitError::Singular { index: col });
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (upper, lower) = a.split_at_mut(col + 1);
        let pivot_row = &upper[col];
        for (r, row) in lower.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            if f == 0.0 {
                continue;
            }
            for (v, &pv) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *v -= f * pv;
            }
            b[col + 1 + r] -= f * b[col];
        }
    }
    let mut x = vec![0.0; p];
    for r in (0..p).rev() {
        let s: f64 = (r + 1..p).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Ok(x)
}

/// Prediction of a fitted model for one row of predictors.
pub(crate) fn predict(coef: &[f64], row: &[f64]) -> f64 {
    coef.first().copied().unwrap_or(0.0)
        + coef
            .iter()
            .skip(1)
            .zip(row)
            .map(|(b, v)| b * v)
            .sum::<f64>()
}
