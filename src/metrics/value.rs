//! A metric's value, read off the typed results of the models that compute
//! it: [`ClauseCounts`] (Patti §7.1), [`RelaxSummary`] (Pelánek §3.2) and
//! [`Ratings`] (the human models, each answering for its own metrics in its
//! own file under `crate::human`). Each source answers for its own metrics
//! by a `match` on [`Metric`], so a renamed field is a compile error, not a
//! missing column at run time. A random metric of the human models is one
//! [`Estimate`], and its `_sd` and `_se` columns are read off it
//! ([`Metric::statistic`]); [`Ratings`] serialises through these values,
//! under the registry's names and in its order. The tests below check that
//! every metric of each source has an answer and that the other structs
//! serialise under the registry's names, in its order.

use super::registry::{Metric, Source};
use crate::cnf::ClauseCounts;
#[cfg(doc)]
use crate::human::Ratings;
use crate::relax::RelaxSummary;
#[cfg(doc)]
use crate::stats::Estimate;
use serde::Serialize;

/// One metric's value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum MetricValue {
    /// A count (serialised as an integer).
    Count(u64),
    /// A number (a mean, a share, a score).
    Number(f64),
    /// `true` or `false`.
    Bool(bool),
    /// A name: a level or a technique.
    Text(String),
    /// A list of counts (the ALO clause-length histogram).
    List(Vec<u64>),
}

impl MetricValue {
    /// The value as a number: counts and numbers; `None` for the rest.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            MetricValue::Count(n) => Some(*n as f64),
            MetricValue::Number(x) => Some(*x),
            MetricValue::Bool(_) | MetricValue::Text(_) | MetricValue::List(_) => None,
        }
    }

    /// The value as a name (levels, techniques).
    pub fn as_text(&self) -> Option<&str> {
        match self {
            MetricValue::Text(s) => Some(s),
            _ => None,
        }
    }
}

/// A count as a metric value.
pub(crate) fn count(n: impl Into<u64>) -> MetricValue {
    MetricValue::Count(n.into())
}

/// A number as a metric value.
pub(crate) fn number(x: f64) -> MetricValue {
    MetricValue::Number(x)
}

/// A name (a level, a technique) as a metric value.
pub(crate) fn text(s: &str) -> MetricValue {
    MetricValue::Text(s.to_string())
}

impl ClauseCounts {
    /// The value of one of the clause metrics (`Source::Clauses`);
    /// `None` for any other metric.
    pub fn value(&self, m: Metric) -> Option<MetricValue> {
        Some(match m {
            Metric::Variables => count(self.variables as u64),
            Metric::Clauses => count(self.clauses as u64),
            Metric::AloLengths => MetricValue::List(self.alo_lengths.clone()),
            Metric::ShortPct => number(self.short_pct),
            Metric::MediumPct => number(self.medium_pct),
            Metric::LongPct => number(self.long_pct),
            _ => return None,
        })
    }
}

impl RelaxSummary {
    /// The value of one of the relaxation metrics (`Source::Relax`);
    /// `None` for any other metric.
    pub fn value(&self, m: Metric) -> Option<MetricValue> {
        Some(match m {
            Metric::K => count(self.k as u64),
            Metric::Samples => count(self.samples as u64),
            Metric::Cap => count(self.cap),
            Metric::MeanSolutions => number(self.mean_solutions),
            Metric::MedianSolutions => number(self.median_solutions),
            Metric::MeanExtra => number(self.mean_extra),
            Metric::PUnique => number(self.p_unique),
            Metric::PUniqueLow => number(self.p_unique_low),
            Metric::PUniqueHigh => number(self.p_unique_high),
            Metric::MeanFixed => number(self.mean_fixed),
            Metric::MeanFixedSe => number(self.mean_fixed_se?),
            Metric::MeanFixedLow => number(self.mean_fixed_low?),
            Metric::MeanFixedHigh => number(self.mean_fixed_high?),
            Metric::Capped => count(self.capped as u64),
            // Absent when no count saturated, as in the rows.
            Metric::Saturated if self.saturated == 0 => return None,
            Metric::Saturated => count(self.saturated as u64),
            Metric::PNothing => number(self.p_nothing),
            Metric::SawNothing => MetricValue::Bool(self.saw_nothing),
            Metric::RelaxationOnsetK => count(self.relaxation_onset_k? as u64),
            _ => return None,
        })
    }
}

impl super::MetricValues {
    /// The value of a metric of the computed groups; `None` for a group not
    /// computed, a null value, and the score's metrics (computed above this
    /// layer, [`crate::score::Score::value`]).
    pub fn get(&self, m: Metric) -> Option<MetricValue> {
        match m.source() {
            Source::Clauses => self.clauses.as_ref()?.value(m),
            Source::Relax => self.relax.as_ref()?.value(m),
            Source::Rate(_) => self.rate.as_ref()?.value(m),
            Source::Score => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;
    use crate::human::{HsolveRow, Model, NishioRow, Ratings};
    use crate::metrics::{MetricGroup, MetricOptions, compute};
    use crate::relax::RelaxOptions;
    use crate::stats::Estimate;

    const P: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    /// The keys of a struct's JSON object, in order.
    fn keys(v: &impl Serialize) -> Vec<String> {
        let json = serde_json::to_value(v).unwrap();
        json.as_object().unwrap().keys().cloned().collect()
    }

    #[test]
    fn every_metric_of_a_source_is_read_off_its_struct_under_its_name() {
        let p = parse_puzzle(P).unwrap();
        let opts = MetricOptions {
            groups: vec![
                MetricGroup::Clauses,
                MetricGroup::Relax,
                MetricGroup::Rate(Model::ALL.into_iter().collect()),
            ],
            relax: RelaxOptions {
                samples: 5,
                ..RelaxOptions::default()
            },
            rate_seed: 1,
            fixedness: false,
            backtrack_cap: crate::human::RateOptions::default().backtrack_cap,
            sisus_dependency: true,
            serate_budget: 0,
        };
        let v = compute(&p, &opts).unwrap();
        // The struct fields are the registry's columns, in its order.
        let relax_keys = keys(v.relax.as_ref().unwrap());
        let relax_names: Vec<&str> = Metric::ALL
            .iter()
            .filter(|m| m.source() == Source::Relax && **m != Metric::Saturated)
            .map(|m| m.name())
            .collect();
        assert_eq!(relax_keys, relax_names);
        let clause_keys = keys(v.clauses.as_ref().unwrap());
        let clause_names: Vec<&str> = Metric::ALL
            .iter()
            .filter(|m| m.source() == Source::Clauses && **m != Metric::MeanLengthPct)
            .map(|m| m.name())
            .collect();
        assert_eq!(clause_keys, clause_names);
        // Every metric with a value in the JSON has the same typed value.
        for &m in Metric::ALL {
            let json = match m.source() {
                Source::Clauses => serde_json::to_value(&v.clauses),
                Source::Relax => serde_json::to_value(&v.relax),
                Source::Rate(_) => serde_json::to_value(&v.rate),
                Source::Score => continue,
            }
            .unwrap();
            let field = json.get(m.name()).cloned().unwrap_or_default();
            let typed = v.get(m).map(|t| serde_json::to_value(t).unwrap());
            assert_eq!(typed.unwrap_or_default(), field, "{m}");
        }
        assert_eq!(v.get(Metric::Givens), Some(MetricValue::Count(30)));
        assert_eq!(v.get(Metric::Score), None);
    }

    /// A random metric is its estimate's mean, sd and se, the columns the
    /// registry lists, under their names and in its order; a null estimate
    /// nulls them all, a single run its standard error.
    #[test]
    fn a_random_metric_is_read_off_its_estimate() {
        let ratings = Ratings {
            hsolve: HsolveRow {
                difficulty: Estimate::of(&[1.0, 2.0, 3.0, 10.0]),
                ..HsolveRow::default()
            },
            nishio: NishioRow {
                nishio2: Estimate::of(&[4.0]),
                ..NishioRow::default()
            },
            ..Ratings::default()
        };
        let sd = (50.0f64 / 3.0).sqrt();
        let value = |m| ratings.value(m).and_then(|v| v.as_f64());
        assert_eq!(value(Metric::Hsolve), Some(4.0));
        assert_eq!(value(Metric::HsolveSd), Some(sd));
        assert_eq!(value(Metric::HsolveSe), Some(sd / 2.0));
        assert_eq!(value(Metric::Nishio2), Some(4.0));
        assert_eq!(value(Metric::Nishio2Se), None);
        assert_eq!(value(Metric::SaSteps), None);
        let json = serde_json::to_value(&ratings).unwrap();
        assert_eq!(json["hsolve_sd"], sd);
        assert_eq!(json["nishio2"], 4.0);
        assert_eq!(json["nishio2_se"], serde_json::Value::Null);
        assert_eq!(json.get("nishio2_sd"), None);
        let text = serde_json::to_string(&ratings).unwrap();
        assert!(
            text.starts_with(
                r#"{"givens":null,"candidates":null,"backtracks":null,"sisus_refutation_sum":null,"sisus_refutation_sum_sd":null,"sisus_refutation_sum_se":null,"#
            ),
            "{text}"
        );
        assert!(
            text.contains(r#""hsolve":4.0,"hsolve_sd":4.08248290463863,"hsolve_se":2.041241452319315,"hsolve_median":null,"nishio2":4.0,"nishio2_se":null,"nishio3":null,"#),
            "{text}"
        );
        assert!(
            text.ends_with(r#""harmony_steps_se":null,"status":{}}"#),
            "{text}"
        );
        let rate_columns = Metric::ALL
            .iter()
            .filter(|m| matches!(m.source(), Source::Rate(_)))
            .count();
        assert_eq!(keys(&ratings).len(), rate_columns + 1);
    }
}
