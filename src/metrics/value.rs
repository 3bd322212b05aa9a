//! A metric's value, read off the typed results of the models that compute
//! it: [`ClauseCounts`] (Patti §7.1), [`RelaxSummary`] (Pelánek §3.2) and
//! [`Ratings`] (the human models). Each source answers for its own metrics
//! by a `match` on [`Metric`], so a renamed field is a compile error, not a
//! missing column at run time; the test below checks that every metric of
//! each source has an answer and that the structs serialise under the
//! registry's names, in its order.

use super::registry::{Metric, Source};
use crate::cnf::ClauseCounts;
use crate::human::Ratings;
use crate::relax::RelaxSummary;
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
    /// The value of one of the human models' metrics (`Source::Rate`);
    /// `None` for any other metric or where the model left it null.
    pub fn value(&self, m: Metric) -> Option<MetricValue> {
        let n = |x: Option<f64>| x.map(number);
        let b = |x: Option<bool>| x.map(MetricValue::Bool);
        match m {
            Metric::Givens => self.givens.map(|g| count(g as u64)),
            Metric::Candidates => self.candidates.map(|c| count(c as u64)),
            Metric::Backtracks => self.backtracks.map(count),
            Metric::SisusRefutationSum => n(self.sisus_refutation_sum),
            Metric::SisusRefutationSumSd => n(self.sisus_refutation_sum_sd),
            Metric::SisusRefutationSumSe => n(self.sisus_refutation_sum_se),
            Metric::SisusDependency => n(self.sisus_dependency),
            Metric::SisusDependencySd => n(self.sisus_dependency_sd),
            Metric::SisusDependencySe => n(self.sisus_dependency_se),
            Metric::SinglesDependency => n(self.singles_dependency),
            Metric::SinglesDependencySd => n(self.singles_dependency_sd),
            Metric::SinglesDependencySe => n(self.singles_dependency_se),
            Metric::SinglesBoxReach => n(self.singles_box_reach),
            Metric::SinglesHiddenReach => n(self.singles_hidden_reach),
            Metric::SinglesNakedReach => n(self.singles_naked_reach),
            Metric::OracleScore => n(self.oracle_score),
            Metric::OracleScoreSe => n(self.oracle_score_se),
            Metric::OracleLevel => self.oracle_level.map(|l| text(l.name())),
            Metric::OracleLevelConfidence => n(self.oracle_level_confidence),
            Metric::OracleVisits => n(self.oracle_visits),
            Metric::OracleVisitsSd => n(self.oracle_visits_sd),
            Metric::OracleVisitsSe => n(self.oracle_visits_se),
            Metric::Hsolve => n(self.hsolve),
            Metric::HsolveSd => n(self.hsolve_sd),
            Metric::HsolveSe => n(self.hsolve_se),
            Metric::HsolveMedian => n(self.hsolve_median),
            Metric::Nishio2 => n(self.nishio2),
            Metric::Nishio2Se => n(self.nishio2_se),
            Metric::Nishio3 => n(self.nishio3),
            Metric::Nishio3Se => n(self.nishio3_se),
            Metric::Nishio4 => n(self.nishio4),
            Metric::Nishio4Sd => n(self.nishio4_sd),
            Metric::Nishio4Se => n(self.nishio4_se),
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
            Metric::SaSteps => n(self.sa_steps),
            Metric::SaStepsSe => n(self.sa_steps_se),
            Metric::SaSolved => n(self.sa_solved),
            Metric::SaSolvedSe => n(self.sa_solved_se),
            Metric::HarmonyCost => n(self.harmony_cost),
            Metric::HarmonyCostSe => n(self.harmony_cost_se),
            Metric::HarmonySteps => n(self.harmony_steps),
            Metric::HarmonyStepsSe => n(self.harmony_steps_se),
            _ => None,
        }
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
        let rate_names: Vec<&str> = Metric::ALL
            .iter()
            .filter(|m| matches!(m.source(), Source::Rate(_)))
            .map(|m| m.name())
            .collect();
        let mut rate_keys = keys(v.rate.as_ref().unwrap());
        rate_keys.retain(|k| k != "status");
        assert_eq!(rate_keys, rate_names);
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
}
