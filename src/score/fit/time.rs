//! The time model's fit (`docs/methods.md` §6.5): ln of the population's
//! mean solving time median-regressed on the score
//! ([`crate::score::TimeModel`] applies it).

use crate::score::TimeModel;
use crate::stats::{least_absolute_deviations, quantile_sorted};

/// One fitting puzzle of the time model.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TimedRow {
    /// The puzzle's score.
    pub score: f64,
    /// ln of the population's mean solving time in seconds.
    pub ln_seconds: f64,
}

/// Why no time model could be fitted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum TimeFitError {
    /// The regression failed (too few rows, a singular design).
    #[error("time model: {0}")]
    Fit(String),
}

/// Fits the time model on timed puzzles: ln(seconds) median-regressed on
/// the score. A line that would fall with the score (possible only on data
/// where time does not rise with difficulty) is refused.
pub(crate) fn fit_time(rows: &[TimedRow], population: &str) -> Result<TimeModel, TimeFitError> {
    let x: Vec<Vec<f64>> = rows.iter().map(|r| vec![r.score]).collect();
    let y: Vec<f64> = rows.iter().map(|r| r.ln_seconds).collect();
    let coef = least_absolute_deviations(&x, &y).map_err(|e| TimeFitError::Fit(e.to_string()))?;
    if coef[1] < 0.0 {
        return Err(TimeFitError::Fit(format!(
            "the times fall as the score rises (slope {:.4} ln s per point)",
            coef[1]
        )));
    }
    let mut model = TimeModel {
        population: population.to_string(),
        intercept: coef[0],
        score_weight: coef[1],
        band: (0.0, 0.0),
        max_score: rows.iter().map(|r| r.score).reduce(f64::max),
    };
    let mut residuals: Vec<f64> = rows
        .iter()
        .map(|r| r.ln_seconds - model.ln_seconds(r.score))
        .collect();
    residuals.sort_by(f64::total_cmp);
    model.band = (
        quantile_sorted(&residuals, 0.25).unwrap_or(0.0),
        quantile_sorted(&residuals, 0.75).unwrap_or(0.0),
    );
    Ok(model)
}
