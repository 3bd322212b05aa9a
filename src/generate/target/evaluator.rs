//! The metrics of a candidate puzzle for the targets: only the human
//! models, relaxation and score the targets (and the method) need, with
//! the technique-weight rating cut short once an upper bound is decided
//! ([`crate::generate::bounded`]).

use super::distance::{distance, level_scale};
use super::spec::{Op, Target, TargetError, TargetValue, numeric_field};
use crate::engine::Disagreement;
use crate::generate::bounded::{Capped, oracle_row, weights_capped, weights_row};
use crate::generate::{Candidate, GenerateOptions, Method};
use crate::grid::{Geometry, Puzzle, Solution};
use crate::human::{Model, RateOptions, RateRow, rate};
use crate::metrics::{Metric, MetricValue, Source};
use crate::relax::{RelaxError, RelaxOptions, relax};
use crate::score::{ScoreError, ScoreOptions};
use serde::Serialize;
use serde::ser::SerializeMap;
use std::collections::{BTreeMap, BTreeSet};

/// The metrics of a candidate: its rating row, the target fields' values
/// and the distance to the targets.
pub type Rated = (Option<RateRow>, Values, f64);

/// The value of every target and tracked field.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Values {
    /// Each field's value (`None`: its model could not rate the puzzle).
    pub values: BTreeMap<Metric, Option<MetricValue>>,
    /// The pseudo-generator's metric and its value on the source puzzle
    /// (column `source_METRIC`).
    pub source: Option<(Metric, f64)>,
}

impl Values {
    /// A field's value (`None`: not measured, or no value).
    pub fn get(&self, m: Metric) -> Option<&MetricValue> {
        self.values.get(&m)?.as_ref()
    }

    /// A numeric field's value.
    pub fn number(&self, m: Metric) -> Option<f64> {
        self.get(m)?.as_f64()
    }

    /// A level or text field's value.
    pub fn text(&self, m: Metric) -> Option<&str> {
        self.get(m)?.as_text()
    }
}

/// Every field by its column name, alphabetically (`source_METRIC` among
/// them), as the generated rows print them.
impl Serialize for Values {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let source = self
            .source
            .map(|(m, v)| (format!("source_{m}"), Some(MetricValue::Number(v))));
        let mut entries: Vec<(String, Option<MetricValue>)> = self
            .values
            .iter()
            .map(|(m, v)| (m.name().to_string(), v.clone()))
            .chain(source)
            .collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut map = s.serialize_map(Some(entries.len()))?;
        for (k, v) in &entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The model that computes a rating field (`None` for the givens, read off
/// the puzzle, and for the relaxation and score fields).
fn model_of(field: Metric) -> Option<Model> {
    match field.source() {
        Source::Rate(m) if field != Metric::Givens => Some(m),
        _ => None,
    }
}

/// Rates candidates for the targets and the method's own score.
#[derive(Debug, Clone)]
pub struct Evaluator {
    pub(super) targets: Vec<Target>,
    /// Fields measured besides the targets' (the pseudo-generator's metric).
    tracked: Vec<Metric>,
    method: Method,
    rate: Option<RateOptions>,
    relax: Option<RelaxOptions>,
    /// A field needs the calibrated score.
    score: bool,
    /// The largest technique-weight score the targets accept, when the
    /// weights model alone decides them: the rating may stop above it
    /// ([`crate::generate::bounded`]).
    weights_cap: Option<u32>,
}

/// The largest `weights_score` every target accepts, when the targets name
/// only `weights_score`, `weights_level` and `givens` and at least one of
/// them bounds the score from above; `None` otherwise.
fn weights_cap(targets: &[Target]) -> Option<u32> {
    let mut cap: Option<u32> = None;
    for t in targets {
        let this = match (t.field, &t.value) {
            (Metric::Givens, _) => None,
            (Metric::WeightsScore, TargetValue::Number(v)) => match t.op {
                Op::Le | Op::Eq => Some(v.floor()),
                Op::Lt => Some(v.ceil() - 1.0),
                _ => None,
            }
            // Saturating: a negative bound caps at 0.
            .map(|c| c as u32),
            (Metric::WeightsLevel, TargetValue::Level(want)) => {
                let scale = level_scale(Metric::WeightsLevel)?;
                let accepted = (0..4usize).filter(|&r| match t.op {
                    Op::Eq => r == *want,
                    Op::Ne => r != *want,
                    Op::Lt => r < *want,
                    Op::Le => r <= *want,
                    Op::Gt => r > *want,
                    Op::Ge => r >= *want,
                });
                match accepted.max() {
                    Some(r) if r < 3 => Some(scale.ranges[r].1 as u32),
                    _ => None,
                }
            }
            _ => return None,
        };
        if let Some(c) = this {
            cap = Some(cap.map_or(c, |old: u32| old.min(c)));
        }
    }
    cap
}

impl Evaluator {
    /// The models and relaxation the targets and the method need.
    pub fn new(opts: &GenerateOptions, targets: &[Target]) -> Result<Evaluator, TargetError> {
        let tracked = if opts.method == Method::Pseudo {
            numeric_field(opts.pseudo.metric.name())?;
            vec![opts.pseudo.metric]
        } else {
            Vec::new()
        };
        let fields: Vec<Metric> = targets
            .iter()
            .map(|t| t.field)
            .chain(tracked.iter().copied())
            .collect();
        let mut models: BTreeSet<Model> = fields.iter().filter_map(|&f| model_of(f)).collect();
        match opts.method {
            Method::Fletcher => models.insert(Model::Oracle),
            Method::Xu => models.insert(Model::Weights),
            Method::Chang => models.insert(Model::Hsolve),
            Method::Pseudo | Method::Minimal => false,
        };
        let rate = (!models.is_empty()).then(|| RateOptions {
            models,
            ..RateOptions::default()
        });
        let relax = if fields.iter().any(|f| f.source() == Source::Relax) {
            let edges = Geometry::of(opts.order).edges().len();
            if opts.aim.relax_k == 0 || opts.aim.relax_k > edges || opts.aim.relax_samples == 0 {
                return Err(TargetError::Relax {
                    k: opts.aim.relax_k,
                    samples: opts.aim.relax_samples,
                    edges,
                });
            }
            Some(RelaxOptions {
                k: opts.aim.relax_k,
                samples: opts.aim.relax_samples,
                verify: 0,
                ..RelaxOptions::default()
            })
        } else {
            None
        };
        let score = fields.iter().any(|f| f.source() == Source::Score);
        if score && opts.order != 3 {
            return Err(TargetError::ScoreOrder(opts.order));
        }
        let weights_only = rate
            .as_ref()
            .is_some_and(|r| r.models.len() == 1 && r.models.contains(&Model::Weights));
        let weights_cap = (weights_only && tracked.is_empty() && opts.order == 3)
            .then(|| weights_cap(targets))
            .flatten();
        Ok(Evaluator {
            targets: targets.to_vec(),
            tracked,
            method: opts.method,
            rate,
            relax,
            score,
            weights_cap,
        })
    }

    /// The rating row (when a model is needed), the value of every target
    /// field and tracked field, and the distance to the targets.
    ///
    /// # Errors
    /// An engine disagreement in the relaxation or the score (a bug).
    pub fn evaluate(&self, p: &Puzzle) -> Result<Rated, Disagreement> {
        let (row, metrics, d, _) = self.rate_and_measure(p, None)?;
        Ok((row, metrics, d))
    }

    /// [`Evaluator::evaluate`] for the search, whose candidates are unique
    /// puzzles: the rating may stop once the targets are decided to be
    /// missed ([`crate::generate::bounded`]). The flag says whether the row is the
    /// full one; a cut row holds lower bounds, and its distance, a lower
    /// bound of the true one, is above 0.
    ///
    /// The oracle model alone rates the candidate from its known solution,
    /// without the rater's uniqueness search (the row is the same).
    ///
    /// # Errors
    /// An engine disagreement in the relaxation or the score (a bug).
    pub fn screen(
        &self,
        c: &Candidate,
    ) -> Result<(Option<RateRow>, Values, f64, bool), Disagreement> {
        self.rate_and_measure(&c.puzzle, Some(&c.solution))
    }

    fn rate_and_measure(
        &self,
        p: &Puzzle,
        known: Option<&Solution>,
    ) -> Result<(Option<RateRow>, Values, f64, bool), Disagreement> {
        let mut exact = true;
        let only = |m: Model| {
            self.rate
                .as_ref()
                .is_some_and(|r| r.models.len() == 1 && r.models.contains(&m))
        };
        let row = self.rate.as_ref().map(|o| match (self.weights_cap, known) {
            (_, Some(solution)) if only(Model::Oracle) => {
                oracle_row(p, solution, &o.oracle, o.seed)
            }
            (Some(cap), Some(_)) => match weights_capped(p, cap) {
                Capped::Score(s, hardest) => weights_row(p, s, hardest),
                Capped::Above(bound) => {
                    exact = false;
                    weights_row(p, bound, None)
                }
                Capped::Stuck => rate(p, o),
            },
            _ => rate(p, o),
        });
        // A puzzle the relaxation or the score refuses has no value (its
        // distance is MISSING); a disagreement is a bug and travels up.
        let summary = match self.relax.as_ref().map(|o| relax(p, o)) {
            Some(Ok((r, _))) => Some(r.summary),
            Some(Err(RelaxError::Disagreement(d))) => return Err(d),
            Some(Err(_)) | None => None,
        };
        let score = match self
            .score
            .then(|| crate::score::score(p, ScoreOptions::shipped()))
        {
            Some(Ok(s)) => Some(s.score),
            Some(Err(ScoreError::Disagreement(d))) => return Err(d),
            Some(Err(_)) | None => None,
        };
        let value = |m: Metric| match m.source() {
            _ if m == Metric::Givens => Some(MetricValue::Count(p.givens() as u64)),
            Source::Relax => summary.as_ref()?.value(m),
            Source::Score => score.as_ref()?.value(m),
            Source::Rate(_) | Source::Clauses => row.as_ref()?.ratings.value(m),
        };
        let fields = self
            .targets
            .iter()
            .map(|t| t.field)
            .chain(self.tracked.iter().copied());
        let metrics = Values {
            values: fields.map(|f| (f, value(f))).collect(),
            source: None,
        };
        // The scores behind level targets measure their misses.
        let mut with_scores = metrics.clone();
        for t in &self.targets {
            if let Some(l) = level_scale(t.field) {
                with_scores.values.insert(l.field, value(l.field));
            }
        }
        let d = distance(&self.targets, &with_scores);
        Ok((row, metrics, d, exact))
    }

    /// The method's level and score from a rating row: the oracle model's
    /// for Fletcher, the technique weights' for Xu.
    pub(crate) fn method_rating(&self, row: &Option<RateRow>) -> (Option<String>, Option<f64>) {
        let Some(r) = row else {
            return (None, None);
        };
        match self.method {
            Method::Fletcher => (
                r.ratings.oracle_level.map(|l| l.name().to_string()),
                r.ratings.oracle_score,
            ),
            Method::Xu => (
                r.ratings.weights_level.map(|l| l.name().to_string()),
                r.ratings.weights_score.map(f64::from),
            ),
            Method::Pseudo => (None, r.ratings.hsolve),
            Method::Chang => (
                r.ratings
                    .hsolve
                    .map(|h| crate::generate::chang::level_of(h).to_string()),
                r.ratings.hsolve,
            ),
            Method::Minimal => (None, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::target::spec::parse_targets;

    #[test]
    fn weights_caps_come_from_upper_bounds_only() {
        let cap = |texts: &[&str]| weights_cap(&parse_targets(texts).unwrap());
        assert_eq!(cap(&["weights_level=Hard"]), Some(98));
        assert_eq!(cap(&["weights_level<=Intermediate"]), Some(86));
        assert_eq!(cap(&["weights_level<Intermediate"]), Some(72));
        assert_eq!(cap(&["weights_level!=Challenging"]), Some(98));
        assert_eq!(cap(&["weights_level>=Hard"]), None);
        assert_eq!(cap(&["weights_level!=Easy"]), None);
        assert_eq!(cap(&["weights_score<90.5"]), Some(90));
        assert_eq!(cap(&["weights_score<90"]), Some(89));
        assert_eq!(cap(&["weights_score<=90.5"]), Some(90));
        assert_eq!(cap(&["weights_score>=80"]), None);
        assert_eq!(
            cap(&["weights_score<=95", "weights_level=Hard", "givens<=25"]),
            Some(95)
        );
        // Another field needs its own model or the whole path.
        assert_eq!(cap(&["weights_level=Hard", "hardest_weight<=10"]), None);
        assert_eq!(cap(&["weights_level=Hard", "oracle_score>=0.5"]), None);
    }
}
