//! A metric's value, read off the typed results of the models that compute
//! it: [`ClauseCounts`] (Patti §7.1), [`RelaxSummary`] (Pelánek §3.2) and
//! [`Ratings`] (the human models). Each source answers for its own metrics
//! by a `match` on [`Metric`], so a renamed field is a compile error, not a
//! missing column at run time. A random metric of the human models is one
//! [`Estimate`], and its `_sd` and `_se` columns are read off it
//! ([`Metric::statistic`]); [`Ratings`] serialises through these values,
//! under the registry's names and in its order. The tests below check that
//! every metric of each source has an answer and that the other structs
//! serialise under the registry's names, in its order.

use super::registry::{Metric, Source, Statistic};
use crate::cnf::ClauseCounts;
use crate::human::Ratings;
use crate::relax::RelaxSummary;
use crate::stats::Estimate;
use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};

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

fn count(n: impl Into<u64>) -> MetricValue {
    MetricValue::Count(n.into())
}

fn number(x: f64) -> MetricValue {
    MetricValue::Number(x)
}

fn text(s: &str) -> MetricValue {
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

impl Ratings {
    /// The random metrics of the human models with their estimates: the
    /// one place a random metric's columns (the metric, its `_sd` and
    /// `_se`) meet its field.
    fn estimates(&self) -> [(Metric, Option<Estimate>); 12] {
        [
            (Metric::SisusRefutationSum, self.sisus_refutation_sum),
            (Metric::SisusDependency, self.sisus_dependency),
            (Metric::SinglesDependency, self.singles_dependency),
            (Metric::OracleVisits, self.oracle_visits),
            (Metric::Hsolve, self.hsolve),
            (Metric::Nishio2, self.nishio2),
            (Metric::Nishio3, self.nishio3),
            (Metric::Nishio4, self.nishio4),
            (Metric::SaSteps, self.sa_steps),
            (Metric::SaSolved, self.sa_solved),
            (Metric::HarmonyCost, self.harmony_cost),
            (Metric::HarmonySteps, self.harmony_steps),
        ]
    }

    /// The value of one of the human models' metrics (`Source::Rate`);
    /// `None` for any other metric or where the model left it null.
    pub fn value(&self, m: Metric) -> Option<MetricValue> {
        let (of, statistic) = m.statistic();
        if let Some((_, estimate)) = self.estimates().into_iter().find(|(x, _)| *x == of) {
            let e = estimate?;
            return Some(number(match statistic {
                Statistic::Mean => e.mean,
                Statistic::Sd => e.sd,
                Statistic::Se => e.se?,
            }));
        }
        let n = |x: Option<f64>| x.map(number);
        let b = |x: Option<bool>| x.map(MetricValue::Bool);
        match m {
            Metric::Givens => self.givens.map(|g| count(g as u64)),
            Metric::Candidates => self.candidates.map(|c| count(c as u64)),
            Metric::Backtracks => self.backtracks.map(count),
            Metric::SinglesBoxReach => n(self.singles_box_reach),
            Metric::SinglesHiddenReach => n(self.singles_hidden_reach),
            Metric::SinglesNakedReach => n(self.singles_naked_reach),
            Metric::OracleScore => n(self.oracle_score),
            Metric::OracleScoreSe => n(self.oracle_score_se),
            Metric::OracleLevel => self.oracle_level.map(|l| text(l.name())),
            Metric::OracleLevelConfidence => n(self.oracle_level_confidence),
            Metric::HsolveMedian => n(self.hsolve_median),
            Metric::Nishio4Median => n(self.nishio4_median),
            Metric::Nishio4Heuristic => n(self.nishio4_heuristic),
            Metric::SolvedBy2 => b(self.solved_by_2),
            Metric::SolvedBy3 => b(self.solved_by_3),
            Metric::SolvedBy4 => b(self.solved_by_4),
            Metric::WeightsScore => self.weights_score.map(count),
            Metric::WeightsLevel => self.weights_level.map(|l| text(l.name())),
            Metric::HardestTechnique => self.hardest_technique.map(|t| text(t.name())),
            Metric::HardestWeight => self.hardest_weight.map(count),
            Metric::BasicReach => n(self.basic_reach),
            Metric::Serate => n(self.serate),
            Metric::SerateUses => self.serate_uses.as_deref().map(text),
            Metric::SerateEp => n(self.serate_ep),
            Metric::SerateEd => n(self.serate_ed),
            Metric::Fowler => n(self.fowler),
            Metric::TrialDepth => self.trial_depth.map(count),
            Metric::TrialSteps => self.trial_steps.map(count),
            Metric::TrialRating => n(self.trial_rating),
            Metric::TrialEliminations => self.trial_eliminations.map(count),
            Metric::WRating => self.w_rating.map(count),
            Metric::BRating => self.b_rating.map(count),
            Metric::Bxb => self.bxb.map(count),
            Metric::Bxbb => self.bxbb.map(count),
            Metric::BerthierStatus => self.berthier_status.as_deref().map(text),
            _ => None,
        }
    }
}

/// The columns of [`Ratings`] are the registry's metrics of the human
/// models, in its order, each with its [`Ratings::value`] (null where there
/// is none), then `status`: a row holds every column the registry names,
/// under its name, by construction.
impl Serialize for Ratings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let columns: Vec<Metric> = Metric::ALL
            .iter()
            .copied()
            .filter(|m| matches!(m.source(), Source::Rate(_)))
            .collect();
        let mut row = serializer.serialize_struct("Ratings", columns.len() + 1)?;
        for m in columns {
            row.serialize_field(m.name(), &self.value(m))?;
        }
        row.serialize_field("status", &self.status)?;
        row.end()
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
    use crate::human::Model;
    use crate::metrics::{MetricGroup, MetricOptions, compute};
    use crate::relax::RelaxOptions;

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
            hsolve: Estimate::of(&[1.0, 2.0, 3.0, 10.0]),
            nishio2: Estimate::of(&[4.0]),
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
