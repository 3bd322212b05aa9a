//! The metrics of a candidate puzzle for the targets: only the human
//! models, relaxation and score the targets (and the method) need, with
//! the technique-weight rating cut short once an upper bound is decided
//! ([`crate::generate::bounded`]), and the standard errors of the
//! stochastic ones. A candidate that meets every target with the asked
//! confidence is re-rated [`CONFIRMATIONS`] times with other seeds, and is
//! a hit only when a fresh rating would meet the targets with that
//! confidence too (`docs/methods.md` §3.10).

use super::distance::{distance, level_scale, target_confidence};
use super::spec::{Op, Target, TargetError, TargetValue, numeric_field};
use super::values::Values;
use crate::engine::Disagreement;
use crate::generate::bounded::{Capped, oracle_row, weights_capped, weights_row};
use crate::generate::{Candidate, GenerateOptions, Method};
use crate::grid::{Geometry, Puzzle, Solution};
use crate::human::{Model, RateOptions, RateRow, rate};
use crate::metrics::{Metric, MetricValue, Source};
use crate::relax::{RelaxError, RelaxOptions, SampleResult, relax};
use crate::score::{ScoreError, ScoreOptions};
use crate::stats::Summary;
use std::collections::{BTreeMap, BTreeSet};

/// The metrics of a candidate: its rating row, the target fields' values
/// and the distance to the targets.
pub(crate) type Rated = (Option<RateRow>, Values, f64);

/// Re-ratings of a hit with other seeds that confirm its stochastic targets
/// ([`Evaluator`]'s `confirm`).
pub(crate) const CONFIRMATIONS: usize = 8;

/// Mixed into the seeds of the confirmations.
const CONFIRMATION_TAG: u64 = 0x434f_4e46;

/// The standard error of a relaxation mean over its samples: `mean_fixed`,
/// `mean_solutions`, `mean_extra` (counts up to the cap) and `p_unique` (a
/// share); `None` for the other fields and for fewer than two samples.
pub(crate) fn relax_se(m: Metric, samples: &[SampleResult]) -> Option<f64> {
    let per_sample: Vec<f64> = match m {
        Metric::MeanFixed => samples.iter().map(|s| s.fixed.len() as f64).collect(),
        Metric::MeanSolutions | Metric::MeanExtra => {
            samples.iter().map(|s| s.solutions as f64).collect()
        }
        Metric::PUnique => samples
            .iter()
            .map(|s| f64::from(u8::from(s.solutions == 1 && !s.capped)))
            .collect(),
        _ => return None,
    };
    Summary::of(&per_sample)?.se()
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
pub(crate) struct Evaluator {
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
    /// The confidence each stochastic target must hold with
    /// ([`crate::generate::AimOptions::confidence`]).
    confidence: Option<f64>,
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
    pub(crate) fn new(
        opts: &GenerateOptions,
        targets: &[Target],
    ) -> Result<Evaluator, TargetError> {
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
            confidence: opts.aim.confidence,
        })
    }

    /// The rating row (when a model is needed), the value of every target
    /// field and tracked field, and the distance to the targets.
    ///
    /// # Errors
    /// An engine disagreement in the relaxation or the score (a bug).
    pub(crate) fn evaluate(&self, p: &Puzzle) -> Result<Rated, Disagreement> {
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
    pub(crate) fn screen(
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
        let (row, mut metrics, with_scores, exact) = self.measure(p, known, None)?;
        let mut d = distance(&self.targets, &with_scores);
        metrics.se = with_scores.se.clone();
        metrics.scores = with_scores
            .values
            .iter()
            .filter(|(m, _)| !metrics.values.contains_key(m))
            .filter_map(|(m, v)| Some((*m, v.as_ref()?.as_f64()?)))
            .collect();
        metrics.target_confidence = target_confidence(&self.targets, &with_scores);
        if let Some(c) = self.confidence.filter(|_| d == 0.0)
            && metrics.target_confidence.is_some()
        {
            let p_fresh = self.confirm(p, known, &with_scores)?;
            metrics.target_confidence = Some(p_fresh);
            if p_fresh < c {
                d = c - p_fresh;
            }
        }
        Ok((row, metrics, d, exact))
    }

    /// The probability that a fresh rating with another seed meets every
    /// stochastic target (the least of them): the candidate is re-rated
    /// [`CONFIRMATIONS`] times with seeds derived from the default ones, so
    /// that the estimate is free of the search's selection (the search
    /// keeps the first candidate whose default rating passes, which favours
    /// ratings that came out lucky). A fresh rating is normal around the
    /// confirmations' mean `μ̂` with variance `se² + se²/R`, `se` being one
    /// rating's standard error (their mean) and `R` the confirmations.
    fn confirm(
        &self,
        p: &Puzzle,
        known: Option<&Solution>,
        first: &Values,
    ) -> Result<f64, Disagreement> {
        let fields: Vec<Metric> = first.se.keys().copied().collect();
        let mut runs: BTreeMap<Metric, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
        for r in 1..=CONFIRMATIONS {
            let (_, _, v, _) = self.measure(p, known, Some(r as u64))?;
            for &f in &fields {
                if let (Some(x), Some(&e)) = (v.number(f), v.se.get(&f)) {
                    let (xs, es) = runs.entry(f).or_default();
                    xs.push(x);
                    es.push(e * e);
                }
            }
        }
        let mut pooled = Values {
            confidence: self.confidence,
            ..Values::default()
        };
        for (f, (xs, variances)) in runs {
            let Some(spread) = Summary::of(&xs) else {
                continue;
            };
            let n = xs.len() as f64;
            // One rating's variance: the mean of the reported ones, or the
            // confirmations' own spread when that is larger (a skewed
            // metric's standard error varies with its value).
            let var = (variances.iter().sum::<f64>() / n).max(spread.sd * spread.sd);
            pooled
                .values
                .insert(f, Some(MetricValue::Number(spread.mean)));
            pooled.se.insert(f, (var * (1.0 + 1.0 / n)).sqrt());
        }
        // Level targets read the score behind them; their own value is not
        // needed to judge the probability.
        Ok(target_confidence(&self.targets, &pooled).unwrap_or(0.0))
    }

    /// The rating row, the target and tracked fields' values, and those
    /// values with the scores behind level targets and the standard errors
    /// of the stochastic fields; with `confirmation` `r`, the ratings and
    /// relaxation use seeds derived from theirs and `r` instead.
    #[allow(clippy::type_complexity)]
    fn measure(
        &self,
        p: &Puzzle,
        known: Option<&Solution>,
        confirmation: Option<u64>,
    ) -> Result<(Option<RateRow>, Values, Values, bool), Disagreement> {
        let reseed = |seed: u64| match confirmation {
            Some(r) => crate::seed::derive_seed(seed ^ CONFIRMATION_TAG, r),
            None => seed,
        };
        let rate_opts = self.rate.as_ref().map(|o| RateOptions {
            seed: reseed(o.seed),
            ..o.clone()
        });
        let relax_opts = self.relax.as_ref().map(|o| RelaxOptions {
            seed: reseed(o.seed),
            ..o.clone()
        });
        let mut exact = true;
        let only = |m: Model| {
            self.rate
                .as_ref()
                .is_some_and(|r| r.models.len() == 1 && r.models.contains(&m))
        };
        let row = rate_opts.as_ref().map(|o| match (self.weights_cap, known) {
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
        let (summary, samples) = match relax_opts.as_ref().map(|o| relax(p, o)) {
            Some(Ok((r, samples))) => (Some(r.summary), samples),
            Some(Err(RelaxError::Disagreement(d))) => return Err(d),
            Some(Err(_)) | None => (None, Vec::new()),
        };
        let score = match (self.score && confirmation.is_none())
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
        // The standard error of a stochastic field: the registry's column
        // for it, else (the relaxation's means) from the samples.
        let se = |m: Metric| match m.standard_error() {
            Some(e) => value(e)?.as_f64(),
            None if m.source() == Source::Relax => relax_se(m, &samples),
            None => None,
        };
        let metrics = Values {
            values: fields.map(|f| (f, value(f))).collect(),
            confidence: self.confidence,
            ..Values::default()
        };
        // The scores behind level targets measure their misses.
        let mut with_scores = metrics.clone();
        for t in &self.targets {
            let behind = level_scale(t.field).map(|l| l.field);
            if let Some(l) = behind {
                with_scores.values.insert(l, value(l));
            }
            for f in [Some(t.field), behind].into_iter().flatten() {
                if let Some(e) = se(f) {
                    with_scores.se.insert(f, e);
                }
            }
        }
        Ok((row, metrics, with_scores, exact))
    }

    /// The method's level and score from a rating row: the oracle model's
    /// for Fletcher, the technique weights' for Xu.
    pub(crate) fn method_rating(&self, row: &Option<RateRow>) -> (Option<String>, Option<f64>) {
        let Some(r) = row else {
            return (None, None);
        };
        match self.method {
            Method::Fletcher => (
                r.ratings.oracle.level.map(|l| l.name().to_string()),
                r.ratings.oracle.score,
            ),
            Method::Xu => (
                r.ratings.weights.level.map(|l| l.name().to_string()),
                r.ratings.weights.score.map(f64::from),
            ),
            Method::Pseudo => (None, r.ratings.hsolve.difficulty.map(|h| h.mean)),
            Method::Chang => (
                r.ratings
                    .hsolve
                    .difficulty
                    .map(|h| crate::generate::chang::level_of(h.mean).to_string()),
                r.ratings.hsolve.difficulty.map(|h| h.mean),
            ),
            Method::Minimal => (None, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_caps_come_from_upper_bounds_only() {
        let cap = |texts: &[&str]| weights_cap(&Target::parse_all(texts).unwrap());
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
