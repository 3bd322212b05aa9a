//! The time model's fit (`docs/methods.md` §6.5): ln of the population's
//! mean solving time median-regressed on the score and the standardised
//! effort terms, and the continuation past the timed puzzles, a median line
//! of ln time on SE's rating ([`crate::score::TimeModel`] applies both).

use super::FitData;
use crate::metrics::Metric;
use crate::score::TimeContinuation as Continuation;
use crate::score::time::BLEND_WIDTH;
use crate::score::{Term, TimeModel, Transform};
use crate::stats::{least_absolute_deviations, quantile_sorted};
use std::collections::BTreeMap;

/// One fitting puzzle of the time model.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TimedRow<'a> {
    /// The puzzle's score.
    pub score: f64,
    /// Its metric values by name.
    pub values: &'a BTreeMap<Metric, Option<f64>>,
    /// SE's rating of the puzzle, when known.
    pub se: Option<f64>,
    /// ln of the population's mean solving time in seconds.
    pub ln_seconds: f64,
}

/// The time model's ln(seconds) of fitting row `i` with this score (SE's
/// rating of the row standing for its SE-equivalent past the data).
pub(crate) fn predicted_ln_seconds(time: &TimeModel, data: &FitData, i: usize, score: f64) -> f64 {
    time.ln_seconds(score, &data.values_of(i), data.rows[i].se)
}

/// Why no time model could be fitted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TimeFitError {
    /// The regression failed (too few rows, a singular design).
    #[error("time model: {0}")]
    Fit(String),
}

/// The metrics of the time model's effort terms ([`effort_terms`]): the fit
/// reads them whether or not they are the score's candidates.
pub(crate) fn effort_metrics() -> Vec<Metric> {
    effort_terms().into_iter().map(|t| t.name).collect()
}

/// The effort terms of the time model, before fitting: the singles model's
/// hidden-single dependency (ln) and box reach, gated by the hidden reach as
/// in the score ([`super::weights::gate_of`]), the hidden reach itself, the
/// givens (ln), whether naked singles solve the puzzle, the SE ratings of
/// every step summed (`fowler`, ln) and the pencil marks the givens leave
/// (`candidates`, ln). Each was kept for lowering the Cloud Sudoku folds'
/// median |ln error| (`docs/score.md`, "People's time").
pub(crate) fn effort_terms() -> Vec<Term> {
    let term = |name: Metric, transform: Transform| Term {
        name,
        transform,
        gate: super::weights::gate_of(name),
        fill: 0.0,
        mean: 0.0,
        sd: 1.0,
        weight: 0.0,
    };
    vec![
        term(Metric::SinglesDependency, Transform::Log1p),
        term(Metric::SinglesBoxReach, Transform::Identity),
        term(Metric::SinglesHiddenReach, Transform::Identity),
        term(Metric::Givens, Transform::Log1p),
        term(Metric::SinglesNakedReach, Transform::Whole),
        term(Metric::Fowler, Transform::Log1p),
        term(Metric::Candidates, Transform::Log1p),
    ]
}

/// The effort terms of the time model of a score made of `score_metrics`:
/// every term but those that would make the score compute what it does not
/// already — `fowler` needs serate, which only a score that reads it (the
/// full score) runs, so the fast score stays fast.
pub(crate) fn effort_terms_for(score_metrics: &[Metric]) -> Vec<Term> {
    effort_terms()
        .into_iter()
        .filter(|t| t.name != Metric::Fowler || score_metrics.contains(&t.name))
        .collect()
}

/// Standardises each term over the rows: its fill (the largest transformed
/// value), mean and standard deviation.
fn standardise(rows: &[TimedRow<'_>], terms: &mut [Term]) {
    for t in terms {
        let raw: Vec<Option<f64>> = rows
            .iter()
            .map(|r| r.values.get(&t.name).copied().flatten())
            .collect();
        t.fill = raw
            .iter()
            .flatten()
            .map(|&x| t.transform.apply(x))
            .fold(f64::NEG_INFINITY, f64::max);
        if !t.fill.is_finite() {
            t.fill = 0.0;
        }
        let gate = |r: &TimedRow<'_>| t.gate.and_then(|g| r.values.get(&g).copied().flatten());
        let xs: Vec<f64> = rows
            .iter()
            .zip(&raw)
            .map(|(r, &v)| t.transformed(v, gate(r)))
            .collect();
        let n = xs.len().max(1) as f64;
        t.mean = xs.iter().sum::<f64>() / n;
        let var = xs.iter().map(|x| (x - t.mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        t.sd = if var > 0.0 { var.sqrt() } else { 1.0 };
        t.weight = 1.0;
    }
}

/// The continuation past the timed puzzles: the median line of ln time on
/// SE's rating of the rows that have one, refused when it does not rise.
fn fit_continuation(rows: &[TimedRow<'_>]) -> Result<Continuation, TimeFitError> {
    let (x, y): (Vec<Vec<f64>>, Vec<f64>) = rows
        .iter()
        .filter_map(|r| Some((vec![r.se?], r.ln_seconds)))
        .unzip();
    let coef = least_absolute_deviations(&x, &y).map_err(|e| TimeFitError::Fit(e.to_string()))?;
    if coef[1] <= 0.0 {
        return Err(TimeFitError::Fit(format!(
            "the times do not rise with SE's rating (slope {:.4} ln s per point), so nothing continues them past the data",
            coef[1]
        )));
    }
    let max_score = rows
        .iter()
        .map(|r| r.score)
        .fold(f64::NEG_INFINITY, f64::max);
    Ok(Continuation {
        max_score,
        blend_from: max_score - BLEND_WIDTH,
        max_se: x.iter().map(|v| v[0]).fold(f64::NEG_INFINITY, f64::max),
        intercept: coef[0],
        se_weight: coef[1],
    })
}

/// Fits the time model on timed puzzles: the terms (name, transform, gate)
/// are standardised over the rows, then ln(seconds) is median-regressed on
/// the score and the standardised terms; the continuation past the rows is
/// fitted beside it, and the band is the residuals' quartiles of the whole
/// prediction (the hand-over included).
pub(crate) fn fit_time(
    rows: &[TimedRow<'_>],
    terms: &[Term],
    population: &str,
) -> Result<TimeModel, TimeFitError> {
    let mut terms: Vec<Term> = terms.to_vec();
    standardise(rows, &mut terms);
    let x: Vec<Vec<f64>> = rows
        .iter()
        .map(|r| {
            std::iter::once(r.score)
                .chain(terms.iter().map(|t| t.z(r.values)))
                .collect()
        })
        .collect();
    let y: Vec<f64> = rows.iter().map(|r| r.ln_seconds).collect();
    let coef = least_absolute_deviations(&x, &y).map_err(|e| TimeFitError::Fit(e.to_string()))?;
    for (t, &w) in terms.iter_mut().zip(&coef[2..]) {
        t.weight = w;
    }
    let mut model = TimeModel {
        population: population.to_string(),
        intercept: coef[0],
        score_weight: coef[1],
        terms,
        band: (0.0, 0.0),
        beyond: fit_continuation(rows)?,
    };
    let mut residuals: Vec<f64> = rows
        .iter()
        .map(|r| r.ln_seconds - model.ln_seconds(r.score, r.values, r.se))
        .collect();
    residuals.sort_by(f64::total_cmp);
    model.band = (
        quantile_sorted(&residuals, 0.25).unwrap_or(0.0),
        quantile_sorted(&residuals, 0.75).unwrap_or(0.0),
    );
    Ok(model)
}

/// A puzzle with a population's mean solving time, for
/// [`cross_validate_time`].
#[derive(Debug, Clone, PartialEq)]
pub struct TimedPuzzle {
    /// The puzzle's score (a fixed score's: the time model is fitted on it).
    pub score: f64,
    /// Its metric values by name (`Scored::metrics`).
    pub values: BTreeMap<Metric, Option<f64>>,
    /// SE's rating of the puzzle, when known.
    pub se: Option<f64>,
    /// The mean solving time in seconds.
    pub seconds: f64,
}

/// The time model's k-fold cross-validation against a fixed score.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct TimeCrossValidation {
    /// Puzzles with a positive time.
    pub n: usize,
    /// Spearman of the score with ln time (no fold: the score is given).
    pub score_spearman: f64,
    /// Spearman of the held-out predicted time with ln time.
    pub minutes_spearman: f64,
    /// Median |ln time − held-out prediction|.
    pub median_abs_ln_error: f64,
}

/// Cross-validates the time model (`docs/methods.md` §6.5) on timed puzzles
/// whose score is fixed: `folds` seeded folds, each predicted by a time
/// model with the effort terms of a score made of `score_metrics`, fitted
/// on the others. The score's own Spearman beside it says what the effort
/// terms add to the score (`minutes` once was a function of the score and
/// ranked the times exactly as it does).
///
/// ```
/// use sudolab::{Metric, TimedPuzzle, cross_validate_time};
///
/// // Times that follow the givens and SE's rating, hardly the score; every
/// // effort metric of a score without serate is given.
/// let puzzles: Vec<TimedPuzzle> = (0..60)
///     .map(|i| {
///         let givens = f64::from(22 + i % 13);
///         let values = [
///             (Metric::SinglesDependency, Some(f64::from(5 + i % 11))),
///             (Metric::SinglesBoxReach, Some(f64::from(i % 3) / 2.0)),
///             (Metric::SinglesHiddenReach, Some(0.5 + f64::from(i % 5) / 10.0)),
///             (Metric::Givens, Some(givens)),
///             (Metric::SinglesNakedReach, Some(if i % 4 == 0 { 1.0 } else { 0.3 })),
///             (Metric::Candidates, Some(f64::from(150 + (7 * i) % 50))),
///         ];
///         TimedPuzzle {
///             score: f64::from(i % 7),
///             values: values.into(),
///             se: Some(1.2 + 0.5 * f64::from(i % 6)),
///             seconds: 900.0 - 20.0 * (givens - 22.0) + 10.0 * f64::from(i % 6),
///         }
///     })
///     .collect();
/// let cv = cross_validate_time(&puzzles, &[], 5, 1).unwrap();
/// assert!(cv.minutes_spearman > cv.score_spearman + 0.5, "{cv:?}");
/// ```
pub fn cross_validate_time(
    puzzles: &[TimedPuzzle],
    score_metrics: &[Metric],
    folds: usize,
    seed: u64,
) -> Result<TimeCrossValidation, TimeFitError> {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let timed: Vec<&TimedPuzzle> = puzzles.iter().filter(|p| p.seconds > 0.0).collect();
    let ln: Vec<f64> = timed.iter().map(|p| p.seconds.ln()).collect();
    let mut order: Vec<usize> = (0..timed.len()).collect();
    order.shuffle(&mut crate::seed::SeededRng::seed_from_u64(seed));
    let k = folds.clamp(2, timed.len().max(2));
    let terms = effort_terms_for(score_metrics);
    let row = |i: usize| TimedRow {
        score: timed[i].score,
        values: &timed[i].values,
        se: timed[i].se,
        ln_seconds: ln[i],
    };
    let mut predicted = vec![0.0; timed.len()];
    for f in 0..k {
        let test: Vec<usize> = order.iter().skip(f).step_by(k).copied().collect();
        let train: Vec<TimedRow<'_>> = order
            .iter()
            .enumerate()
            .filter(|(j, _)| j % k != f)
            .map(|(_, &i)| row(i))
            .collect();
        let model = fit_time(&train, &terms, "")?;
        for i in test {
            predicted[i] = model.ln_seconds(timed[i].score, &timed[i].values, timed[i].se);
        }
    }
    let rho =
        |x: &[f64]| crate::stats::spearman(x, &ln).map_err(|e| TimeFitError::Fit(e.to_string()));
    let scores: Vec<f64> = timed.iter().map(|p| p.score).collect();
    let mut errors: Vec<f64> = predicted
        .iter()
        .zip(&ln)
        .map(|(p, y)| (y - p).abs())
        .collect();
    errors.sort_by(f64::total_cmp);
    Ok(TimeCrossValidation {
        n: timed.len(),
        score_spearman: rho(&scores)?,
        minutes_spearman: rho(&predicted)?,
        median_abs_ln_error: crate::stats::median_sorted(&errors).unwrap_or(f64::NAN),
    })
}
