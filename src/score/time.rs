//! The predicted solving time (`minutes`, `docs/methods.md` §6.5).
//!
//! Puzzle books and apps print an expected time beside a puzzle. The score
//! orders puzzles for sites and for people at once; the time model turns it
//! into minutes for one population of players: a median-regression (least
//! absolute deviations) line of the logarithm of their mean solving time on
//! the score alone, fitted on the human solving times the model names in
//! [`TimeModel::population`]. On the score alone, because a reader compares
//! the minutes of two puzzles as they compare their scores: a harder puzzle
//! never gets fewer minutes (effort terms beside the score ranked people's
//! times slightly better, and printed 32 minutes for an SE 10.9 puzzle and
//! 81 for an SE 9.0 one). Half of the fitting puzzles took longer than the
//! line and half less, and the logarithm of a time is off by the least in
//! the median: the line is the typical time, not a mean pulled up by the
//! slow tail. The band is the 25–75 % range of the fitting puzzles'
//! residuals: half of them took between `minutes_low` and `minutes_high`.
//!
//! The line is a model of *mean* times of players who completed a puzzle;
//! a single player's time varies far more.

use serde::{Deserialize, Serialize};

/// Expected solving time of a player population, from the score.
///
/// A model file whose time model has other fields (the effort terms of
/// earlier versions) is refused by name rather than read with them left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeModel {
    /// Who the times are of, and where they come from.
    pub population: String,
    /// Intercept of ln(seconds).
    pub intercept: f64,
    /// Weight of the score (0–10 scale), never negative: the minutes rise
    /// with the score.
    pub score_weight: f64,
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
    /// time is that of the hardest of them, a lower bound.
    pub extrapolated: bool,
}

impl TimeModel {
    /// The predicted ln(seconds) of a puzzle with this score.
    pub(crate) fn ln_seconds(&self, score: f64) -> f64 {
        self.intercept + self.score_weight * score
    }

    /// The predicted time in minutes, with the band. Above the largest
    /// score of the fitting puzzles the line is not drawn on: the time is
    /// that of the hardest timed puzzles, a lower bound, and says so
    /// (`extrapolated`). Two lines (the full and the fast score's) drawn on
    /// past their data printed 65 and 22 minutes for one puzzle.
    pub fn minutes(&self, score: f64) -> Minutes {
        let ln = self.ln_seconds(self.max_score.map_or(score, |m| score.min(m)));
        let minutes = |x: f64| x.exp() / 60.0;
        Minutes {
            expected: minutes(ln),
            low: minutes(ln + self.band.0),
            high: minutes(ln + self.band.1),
            extrapolated: self.max_score.is_some_and(|m| score > m),
        }
    }
}
