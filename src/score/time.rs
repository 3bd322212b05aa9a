//! The predicted solving time (`minutes`, `docs/methods.md` §6.5).
//!
//! Puzzle books and apps print an expected time beside a puzzle. The time
//! model is a model of people's time of its own, for one population of
//! players, in two parts joined at the top of its data:
//!
//! - **Inside the timed puzzles' range**, a median-regression (least
//!   absolute deviations) fit of the logarithm of their mean solving time
//!   on the score and on standardised effort terms (`fit/time.rs`: the
//!   singles model's dependency and reaches, the givens, whether naked
//!   singles solve it, SE's ratings summed, the candidates), fitted on the
//!   human solving times the model names in [`TimeModel::population`].
//!   The effort terms separate the simple puzzles most people play, where
//!   the score alone ranks their times worse. Half of the fitting puzzles
//!   took longer than their prediction and half less, and the logarithm of
//!   a time is off by the least in the median: it is the typical time, not
//!   a mean pulled up by the slow tail.
//! - **Past the hardest timed puzzle** there are no times, and the effort
//!   terms, drawn on, once printed 32 minutes for an SE 10.9 puzzle and 81
//!   for an SE 9.0 one. There `minutes` is the median line of ln time on
//!   SE's rating ([`Continuation`]), floored at the hardest timed puzzle's
//!   rating: it grows with the SE-equivalent and never falls, and the row
//!   says it is extrapolated. Over the top score point of the data the
//!   prediction moves linearly from the effort model to that line, so the
//!   two join without a jump.
//!
//! The band is the 25–75 % range of the fitting puzzles' residuals: half of
//! them took between `minutes_low` and `minutes_high`. The model is one of
//! *mean* times of players who completed a puzzle; a single player's time
//! varies far more.

use super::Term;
use crate::metrics::Metric;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Expected solving time of a player population, from the score, the
/// effort terms and, past the timed puzzles, the SE-equivalent.
///
/// A model file whose time model lacks a field (the continuation past the
/// timed puzzles, or the effort terms, as earlier versions wrote it) or has
/// one this version does not read is refused by name rather than read with
/// it left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// Past the timed puzzles: the line `minutes` follows there.
    pub beyond: Continuation,
}

/// The time model past its data: a median line of ln(seconds) on SE's
/// rating of the timed puzzles, read at the SE-equivalent and never below
/// the hardest timed puzzle's rating, and where it takes over.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Continuation {
    /// The largest score among the fitting puzzles: above it `minutes` is
    /// the line's alone, and flagged extrapolated.
    pub max_score: f64,
    /// Where the hand-over starts: from this score to `max_score` the
    /// prediction moves linearly from the effort model to the line.
    pub blend_from: f64,
    /// The largest SE rating among the fitting puzzles: the line is read at
    /// this rating or above.
    pub max_se: f64,
    /// Intercept of the line, ln(seconds).
    pub intercept: f64,
    /// ln(seconds) per point of SE's rating, positive: past the data the
    /// minutes grow with the SE-equivalent.
    pub se_weight: f64,
}

/// How many score points below the largest fitting score the hand-over to
/// the continuation starts.
pub(crate) const BLEND_WIDTH: f64 = 1.0;

impl Continuation {
    /// The line's ln(seconds) at this SE-equivalent (at the largest fitting
    /// rating when it is lower or unknown).
    pub(crate) fn ln_seconds(&self, se_equivalent: Option<f64>) -> f64 {
        let se = se_equivalent.map_or(self.max_se, |s| s.max(self.max_se));
        self.intercept + self.se_weight * se
    }

    /// The share of the prediction the line takes at this score: 0 up to
    /// `blend_from`, rising linearly to 1 at `max_score` and beyond.
    pub(crate) fn share(&self, score: f64) -> f64 {
        if score >= self.max_score {
            1.0
        } else if score <= self.blend_from || self.max_score <= self.blend_from {
            0.0
        } else {
            (score - self.blend_from) / (self.max_score - self.blend_from)
        }
    }
}

/// A predicted solving time with its band, in minutes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Minutes {
    /// The predicted time: the typical mean time of the population on
    /// puzzles like this one.
    pub expected: f64,
    /// The 25 % end of the band.
    pub low: f64,
    /// The 75 % end of the band.
    pub high: f64,
    /// The score is above every puzzle the time model was fitted on: the
    /// time is the continuation's, which grows with the SE-equivalent.
    pub extrapolated: bool,
}

impl TimeModel {
    /// The effort model's ln(seconds) of a puzzle with this score and these
    /// metrics (what the model predicts inside its data).
    pub(crate) fn effort_ln_seconds(
        &self,
        score: f64,
        values: &BTreeMap<Metric, Option<f64>>,
    ) -> f64 {
        self.intercept
            + self.score_weight * score
            + self
                .terms
                .iter()
                .map(|t| t.contribution(values))
                .sum::<f64>()
    }

    /// The predicted ln(seconds): the effort model's, handing over to the
    /// continuation over the top score point of the data.
    pub(crate) fn ln_seconds(
        &self,
        score: f64,
        values: &BTreeMap<Metric, Option<f64>>,
        se_equivalent: Option<f64>,
    ) -> f64 {
        let share = self.beyond.share(score);
        let line = || self.beyond.ln_seconds(se_equivalent);
        if share >= 1.0 {
            line()
        } else if share <= 0.0 {
            self.effort_ln_seconds(score, values)
        } else {
            (1.0 - share) * self.effort_ln_seconds(score, values) + share * line()
        }
    }

    /// The predicted time in minutes, with the band.
    pub fn minutes(
        &self,
        score: f64,
        values: &BTreeMap<Metric, Option<f64>>,
        se_equivalent: Option<f64>,
    ) -> Minutes {
        let ln = self.ln_seconds(score, values, se_equivalent);
        let minutes = |x: f64| x.exp() / 60.0;
        Minutes {
            expected: minutes(ln),
            low: minutes(ln + self.band.0),
            high: minutes(ln + self.band.1),
            extrapolated: score > self.beyond.max_score,
        }
    }

    /// Refuses a time model no minutes can be computed with: a number that
    /// is not finite, a band upside down, a term with a zero spread, or a
    /// continuation that falls with SE's rating or hands over backwards.
    pub(crate) fn check(&self) -> Result<(), String> {
        let b = &self.beyond;
        let numbers = [self.intercept, self.score_weight, self.band.0, self.band.1]
            .into_iter()
            .chain([
                b.max_score,
                b.blend_from,
                b.max_se,
                b.intercept,
                b.se_weight,
            ])
            .chain(
                self.terms
                    .iter()
                    .flat_map(|t| [t.fill, t.mean, t.sd, t.weight]),
            );
        if !numbers.into_iter().all(f64::is_finite) || self.band.0 > self.band.1 {
            return Err("a number is not finite, or the band is upside down".into());
        }
        if let Some(t) = self.terms.iter().find(|t| t.sd <= 0.0) {
            return Err(format!("term {} has sd {} (not above 0)", t.name, t.sd));
        }
        if b.se_weight <= 0.0 {
            return Err(format!(
                "the continuation's SE weight {} is not positive (minutes past the data would not grow)",
                b.se_weight
            ));
        }
        if b.blend_from > b.max_score {
            return Err(format!(
                "the hand-over starts at score {} above the largest fitting score {}",
                b.blend_from, b.max_score
            ));
        }
        Ok(())
    }

    /// The metrics the time model reads besides the score.
    pub(crate) fn metrics(&self) -> impl Iterator<Item = Metric> + '_ {
        self.terms.iter().flat_map(Term::metrics)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A time model with one effort term (`givens`, ln) that makes a puzzle
    /// with fewer givens slower, handing over between scores 7 and 8 to the
    /// line 5 + 0.25·SE read from SE 8.
    fn model() -> TimeModel {
        TimeModel {
            population: "test".into(),
            intercept: 5.0,
            score_weight: 0.2,
            terms: vec![Term {
                name: Metric::Givens,
                transform: super::super::Transform::Log1p,
                gate: None,
                fill: 0.0,
                mean: 3.4,
                sd: 0.1,
                weight: -0.3,
            }],
            band: (-0.1, 0.2),
            beyond: Continuation {
                max_score: 8.0,
                blend_from: 7.0,
                max_se: 8.0,
                intercept: 5.0,
                se_weight: 0.25,
            },
        }
    }

    fn givens(n: f64) -> BTreeMap<Metric, Option<f64>> {
        [(Metric::Givens, Some(n))].into()
    }

    #[test]
    fn inside_the_data_the_effort_terms_speak_and_past_it_the_se_line() {
        let m = model();
        // Below the hand-over, two puzzles of one score differ by their
        // givens (the effort model, not a function of the score).
        let (few, many) = (
            m.minutes(3.0, &givens(22.0), Some(2.0)),
            m.minutes(3.0, &givens(36.0), Some(2.0)),
        );
        assert!(few.expected > many.expected * 1.5, "{few:?} {many:?}");
        assert!(!few.extrapolated);
        let effort = (5.0 + 0.6 - 0.3 * ((23.0f64).ln() - 3.4) / 0.1).exp() / 60.0;
        assert!((few.expected - effort).abs() < 1e-9, "{few:?} {effort}");
        // Past the largest score the givens no longer matter: the line
        // alone, floored at SE 8, rising with the SE-equivalent.
        let past = |se: Option<f64>, n: f64| m.minutes(9.0, &givens(n), se);
        assert_eq!(past(Some(10.0), 22.0), past(Some(10.0), 36.0));
        assert!(past(Some(10.0), 22.0).extrapolated);
        let line = |se: f64| (5.0 + 0.25 * se).exp() / 60.0;
        assert!((past(Some(10.0), 30.0).expected - line(10.0)).abs() < 1e-9);
        assert_eq!(
            past(Some(5.0), 30.0).expected,
            past(Some(8.0), 30.0).expected
        );
        assert_eq!(past(None, 30.0).expected, past(Some(8.0), 30.0).expected);
        assert!(
            (past(Some(10.0), 30.0).high / past(Some(10.0), 30.0).expected - 0.2f64.exp()).abs()
                < 1e-9
        );
    }

    /// The extrapolated minutes never fall as the SE-equivalent rises, and
    /// grow with it; a continuation drawn on the score instead (or the
    /// effort terms drawn on) fails this check.
    #[test]
    fn the_extrapolated_minutes_rise_with_the_se_equivalent() {
        let m = model();
        let mut last = 0.0;
        for i in 0..=40 {
            let se = 8.0 + 0.1 * f64::from(i);
            // Scores and givens that fall as SE rises do not pull it down.
            let t = m.minutes(
                12.0 - 0.05 * f64::from(i),
                &givens(30.0 - 0.2 * f64::from(i)),
                Some(se),
            );
            assert!(t.extrapolated);
            assert!(t.expected > last, "SE {se}: {} after {last}", t.expected);
            last = t.expected;
        }
    }

    /// Over the hand-over the prediction moves continuously from the effort
    /// model to the line: no jump where the data end.
    #[test]
    fn the_hand_over_is_continuous() {
        let m = model();
        let values = givens(24.0);
        let at = |s: f64| m.ln_seconds(s, &values, Some(9.0));
        assert_eq!(at(7.0), m.effort_ln_seconds(7.0, &values));
        assert_eq!(at(8.0), m.beyond.ln_seconds(Some(9.0)));
        for i in 0..=400 {
            let s = 6.5 + f64::from(i) * 0.005;
            assert!((at(s + 0.005) - at(s)).abs() < 0.01, "jump at score {s}");
        }
        let half = 0.5 * m.effort_ln_seconds(7.5, &values) + 0.5 * m.beyond.ln_seconds(Some(9.0));
        assert!((at(7.5) - half).abs() < 1e-12);
    }

    #[test]
    fn a_time_model_that_would_not_grow_past_its_data_is_refused() {
        let mut m = model();
        assert_eq!(m.check(), Ok(()));
        m.beyond.se_weight = -0.1;
        assert!(m.check().unwrap_err().contains("SE weight -0.1"));
        let mut m = model();
        m.beyond.blend_from = 9.0;
        assert!(m.check().unwrap_err().contains("hand-over"));
        let mut m = model();
        m.terms[0].sd = 0.0;
        assert!(m.check().unwrap_err().contains("givens"));
    }
}
