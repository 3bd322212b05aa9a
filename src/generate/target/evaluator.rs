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
use crate::metrics::{self, Source};
use crate::relax::{RelaxError, RelaxOptions, relax};
use crate::score::{ScoreError, ScoreOptions};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The metrics of a candidate: its rating row, the target fields' values
/// and the distance to the targets.
pub type Rated = (Option<RateRow>, Values, f64);

/// The value of every target and tracked field, by name.
pub type Values = BTreeMap<String, Value>;

/// The source of a target field (`None` for a name outside the registry).
fn source_of(field: &str) -> Option<Source> {
    metrics::registry::find(field).map(|m| m.source)
}

/// The model that computes a rating field (`None` for the givens, read off
/// the puzzle, and for the relaxation and score fields).
fn model_of(field: &str) -> Option<Model> {
    match source_of(field)? {
        Source::Rate(m) if field != metrics::registry::GIVENS => Some(m),
        _ => None,
    }
}

/// Rates candidates for the targets and the method's own score.
#[derive(Debug, Clone)]
pub struct Evaluator {
    pub(super) targets: Vec<Target>,
    /// Fields measured besides the targets' (the pseudo-generator's metric).
    tracked: Vec<String>,
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
        let this = match (t.field.as_str(), &t.value) {
            (metrics::registry::GIVENS, _) => None,
            ("weights_score", TargetValue::Number(v)) => match t.op {
                Op::Le | Op::Eq => Some(v.floor()),
                Op::Lt => Some(v.ceil() - 1.0),
                _ => None,
            }
            // Saturating: a negative bound caps at 0.
            .map(|c| c as u32),
            ("weights_level", TargetValue::Level(want)) => {
                let scale = level_scale("weights_level")?;
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
            numeric_field(&opts.pseudo.metric)?;
            vec![opts.pseudo.metric.clone()]
        } else {
            Vec::new()
        };
        let fields: Vec<&str> = targets
            .iter()
            .map(|t| t.field.as_str())
            .chain(tracked.iter().map(String::as_str))
            .collect();
        let mut models: BTreeSet<Model> = fields.iter().filter_map(|f| model_of(f)).collect();
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
        let relax = if fields.iter().any(|f| source_of(f) == Some(Source::Relax)) {
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
        let score = fields.iter().any(|f| source_of(f) == Some(Source::Score));
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
        let row_value = row
            .as_ref()
            .and_then(|r| serde_json::to_value(r).ok())
            .unwrap_or(Value::Null);
        // A puzzle the relaxation or the score refuses has no value (its
        // distance is MISSING); a disagreement is a bug and travels up.
        let report_value = match self.relax.as_ref().map(|o| relax(p, o)) {
            Some(Ok((r, _))) => serde_json::to_value(r).unwrap_or(Value::Null),
            Some(Err(RelaxError::Disagreement(d))) => return Err(d),
            Some(Err(_)) | None => Value::Null,
        };
        let score_value = match self
            .score
            .then(|| crate::score::score(p, ScoreOptions::shipped()))
        {
            Some(Ok(s)) => serde_json::to_value(s.score).unwrap_or(Value::Null),
            Some(Err(ScoreError::Disagreement(d))) => return Err(d),
            Some(Err(_)) | None => Value::Null,
        };
        let mut metrics = BTreeMap::new();
        let fields = self.targets.iter().map(|t| &t.field).chain(&self.tracked);
        for field in fields {
            let from = match source_of(field) {
                _ if field == metrics::registry::GIVENS => {
                    metrics.insert(field.clone(), Value::from(p.givens()));
                    continue;
                }
                Some(Source::Relax) => &report_value,
                Some(Source::Score) => &score_value,
                _ => &row_value,
            };
            let v = from.get(field).cloned().unwrap_or(Value::Null);
            metrics.insert(field.clone(), v);
        }
        // The scores behind level targets measure their misses.
        let mut with_scores = metrics.clone();
        for t in &self.targets {
            if let Some(l) = level_scale(&t.field)
                && let Some(v) = row_value.get(l.field).or(score_value.get(l.field))
            {
                with_scores.insert(l.field.to_string(), v.clone());
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
            Method::Fletcher => (r.ratings.oracle_level.clone(), r.ratings.oracle_score),
            Method::Xu => (
                r.ratings.weights_level.clone(),
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
