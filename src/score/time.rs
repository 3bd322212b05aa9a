//! The predicted solving time (`minutes`, `docs/methods.md` §6.5).
//!
//! Puzzle books and apps print an expected time beside a puzzle. The score
//! orders puzzles for sites and for people at once; the time model turns it
//! into minutes for one population of players: a median-regression (least
//! absolute deviations) line of the logarithm of their mean solving time on
//! the score and on the effort terms of the singles model (which separate
//! the simple puzzles most people play), fitted on the human solving times
//! the model names in [`TimeModel::population`]. Half of the fitting
//! puzzles took longer than their line and half less, and the logarithm
//! of a time is off by the least in the median: the line is the typical
//! time, not a mean pulled up by the slow tail. The band is the 25–75 %
//! range of the fitting puzzles' residuals: half of them took between
//! `minutes_low` and `minutes_high`.
//!
//! The line is a model of *mean* times of players who completed a puzzle;
//! a single player's time varies far more.

use super::{Term, Transform};
use crate::metrics::Metric;
use crate::stats::least_absolute_deviations;
use crate::stats::quantile_sorted;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Expected solving time of a player population, from the score and metrics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimeModel {
    /// Who the times are of, and where they come from.
    pub population: String,
    /// Intercept of ln(seconds).
    pub intercept: f64,
    /// Weight of the score (0–10 scale).
    pub score_weight: f64,
    /// Standardised effort terms with their weights (on ln seconds).
    pub terms: Vec<Term>,
    /// 25th and 75th percentiles of the residuals ln(time) − prediction over
    /// the fitting puzzles.
    pub band: (f64, f64),
    /// The largest score among the fitting puzzles: above it `minutes` is an
    /// extrapolation (absent in a model fitted before it was recorded, which
    /// then never flags).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_score: Option<f64>,
}

/// A predicted solving time with its band, in minutes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Minutes {
    /// The predicted time: the median-regression line, the typical mean time
    /// of the population on puzzles like this one.
    pub expected: f64,
    /// The 25 % end of the band.
    pub low: f64,
    /// The 75 % end of the band.
    pub high: f64,
    /// The score is above every puzzle the time model was fitted on: the
    /// time is an extrapolation outside its population.
    pub extrapolated: bool,
}

impl TimeModel {
    /// The predicted ln(seconds) of a puzzle with this score and these metrics.
    pub(crate) fn ln_seconds(&self, score: f64, values: &BTreeMap<Metric, Option<f64>>) -> f64 {
        self.intercept
            + self.score_weight * score
            + self
                .terms
                .iter()
                .map(|t| t.contribution(values))
                .sum::<f64>()
    }

    /// The predicted time in minutes, with the band.
    pub fn minutes(&self, score: f64, values: &BTreeMap<Metric, Option<f64>>) -> Minutes {
        let ln = self.ln_seconds(score, values);
        let minutes = |x: f64| x.exp() / 60.0;
        Minutes {
            expected: minutes(ln),
            low: minutes(ln + self.band.0),
            high: minutes(ln + self.band.1),
            extrapolated: self.max_score.is_some_and(|m| score > m),
        }
    }

    /// The metrics the time model reads besides the score.
    pub(crate) fn metrics(&self) -> impl Iterator<Item = Metric> + '_ {
        self.terms.iter().flat_map(Term::metrics)
    }
}

/// The metrics of the time model's effort terms ([`effort_terms`]): the fit
/// reads them whether or not they are the score's candidates.
pub(crate) fn effort_metrics() -> Vec<Metric> {
    effort_terms().into_iter().map(|t| t.name).collect()
}

/// The effort terms of the time model, before fitting: the singles model's
/// hidden-single dependency (ln) and box reach, gated by the hidden reach as
/// in the score (`features::gate_of`), the hidden reach itself, the givens
/// (ln), whether naked singles solve the puzzle, the SE ratings of every
/// step summed (`fowler`, ln) and the pencil marks the givens leave
/// (`candidates`, ln). Each was kept for lowering the Cloud Sudoku folds'
/// median |ln error| (`docs/score.md`, "People's time").
pub(crate) fn effort_terms() -> Vec<Term> {
    let term = |name: Metric, transform: Transform| Term {
        name,
        transform,
        gate: super::features::gate_of(name),
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

/// One fitting puzzle of the time model.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TimedRow<'a> {
    /// The puzzle's score.
    pub score: f64,
    /// Its metric values by name.
    pub values: &'a BTreeMap<Metric, Option<f64>>,
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

/// Fits the time model on timed puzzles: the terms (name, transform, gate)
/// are standardised over the rows, then ln(seconds) is median-regressed on
/// the score and the standardised terms.
pub(crate) fn fit_time(
    rows: &[TimedRow<'_>],
    terms: &[Term],
    population: &str,
) -> Result<TimeModel, TimeFitError> {
    let mut terms: Vec<Term> = terms.to_vec();
    for t in &mut terms {
        let raw: Vec<Option<f64>> = rows
            .iter()
            .map(|r| r.values.get(&t.name).copied().flatten())
            .collect();
        let defined: Vec<f64> = raw
            .iter()
            .flatten()
            .map(|&x| t.transform.apply(x))
            .collect();
        t.fill = defined.iter().copied().fold(f64::NEG_INFINITY, f64::max);
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
        max_score: rows.iter().map(|r| r.score).reduce(f64::max),
    };
    let mut residuals: Vec<f64> = rows
        .iter()
        .map(|r| r.ln_seconds - model.ln_seconds(r.score, r.values))
        .collect();
    residuals.sort_by(f64::total_cmp);
    model.band = (
        quantile_sorted(&residuals, 0.25).unwrap_or(0.0),
        quantile_sorted(&residuals, 0.75).unwrap_or(0.0),
    );
    Ok(model)
}
