//! The human models' rows read by [`Metric`]: each row of
//! [`crate::human::Ratings`] answers for its own model's metrics (`Source::Rate`),
//! a `match` per row, so a renamed field is a compile error, not a missing
//! column at run time. A random metric is one [`Estimate`], and its `_sd`
//! and `_se` columns are read off it ([`Metric::statistic`]). `Ratings`
//! serialises through these values, under the registry's names and in its
//! order, then its `status` (`Ratings::status`, the models' typed reasons
//! rendered).

use super::registry::{Metric, Source, Statistic};
use super::value::{MetricValue, count, number, text};
use crate::human::{
    AnnealingRow, BaselineRow, BerthierRow, FowlerRow, HarmonyRow, HsolveRow, Model, NishioRow,
    OracleRow, Ratings, SerateRow, SinglesRow, SisusRow, TrialRow, WeightsRow,
};
use crate::stats::Estimate;
use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};

/// The column `statistic` of a random metric's estimate: its mean, `_sd`
/// or `_se` (`docs/methods.md` §3.10); `None` when the estimate is.
fn of_estimate(e: Option<Estimate>, statistic: Statistic) -> Option<MetricValue> {
    let e = e?;
    Some(number(match statistic {
        Statistic::Mean => e.mean,
        Statistic::Sd => e.sd,
        Statistic::Se => e.se?,
    }))
}

impl Ratings {
    /// The value of one of the human models' metrics (`Source::Rate`),
    /// answered by its model's row; `None` for any other metric or where
    /// the model left it null.
    pub fn value(&self, m: Metric) -> Option<MetricValue> {
        let Source::Rate(model) = m.source() else {
            return None;
        };
        match model {
            Model::Sisus => self.sisus.value(m),
            Model::Oracle => self.oracle.value(m),
            Model::Hsolve => self.hsolve.value(m),
            Model::Nishio => self.nishio.value(m),
            Model::Weights => self.weights.value(m),
            Model::Baseline => self.baseline.value(m),
            Model::Singles => self.singles.value(m),
            Model::Serate => self.serate.value(m),
            Model::Fowler => self.fowler.value(m),
            Model::Trial => self.trial.value(m),
            Model::Annealing => self.annealing.value(m),
            Model::Harmony => self.harmony.value(m),
            Model::Berthier => self.berthier.value(m),
        }
    }
}

/// The columns of [`Ratings`] are the registry's metrics of the human
/// models, in its order, each with its [`Ratings::value`] (null where there
/// is none), then `status` ([`Ratings::status`]): a row holds every column
/// the registry names, under its name, by construction.
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
        row.serialize_field("status", &self.status())?;
        row.end()
    }
}

impl AnnealingRow {
    /// The value of one of its metrics; `None` for another metric or a null one.
    pub(crate) fn value(&self, m: Metric) -> Option<MetricValue> {
        match m.statistic() {
            (Metric::SaSteps, statistic) => of_estimate(self.steps, statistic),
            (Metric::SaSolved, statistic) => of_estimate(self.solved, statistic),
            _ => None,
        }
    }
}

impl BaselineRow {
    /// The value of one of its metrics; `None` for another metric or a null one.
    pub(crate) fn value(&self, m: Metric) -> Option<MetricValue> {
        match m {
            Metric::Givens => self.givens.map(|g| count(g as u64)),
            Metric::Candidates => self.candidates.map(|c| count(c as u64)),
            Metric::Backtracks => self.backtracks.map(count),
            _ => None,
        }
    }
}

impl BerthierRow {
    /// The value of one of its metrics; `None` for another metric or a null one.
    pub(crate) fn value(&self, m: Metric) -> Option<MetricValue> {
        let r = self.ratings.as_ref()?;
        match m {
            Metric::WRating => r.w.value().map(count),
            Metric::BRating => r.b.value().map(count),
            Metric::Bxb => r.bxb.value().map(count),
            Metric::Bxbb => r.bxbb.value().map(count),
            Metric::BerthierStatus => Some(text(&r.status_line())),
            _ => None,
        }
    }
}

impl HarmonyRow {
    /// The value of one of its metrics; `None` for another metric or a null one.
    pub(crate) fn value(&self, m: Metric) -> Option<MetricValue> {
        match m.statistic() {
            (Metric::HarmonyCost, statistic) => of_estimate(self.cost, statistic),
            (Metric::HarmonySteps, statistic) => of_estimate(self.steps, statistic),
            _ => None,
        }
    }
}

impl HsolveRow {
    /// The value of one of its metrics; `None` for another metric or a null one.
    pub(crate) fn value(&self, m: Metric) -> Option<MetricValue> {
        let (of, statistic) = m.statistic();
        match of {
            Metric::Hsolve => of_estimate(self.difficulty, statistic),
            Metric::HsolveMedian => self.median.map(number),
            _ => None,
        }
    }
}

impl NishioRow {
    /// The value of one of its metrics; `None` for another metric or a null one.
    pub(crate) fn value(&self, m: Metric) -> Option<MetricValue> {
        let b = |x: Option<bool>| x.map(MetricValue::Bool);
        match m.statistic() {
            (Metric::Nishio2, statistic) => of_estimate(self.nishio2, statistic),
            (Metric::Nishio3, statistic) => of_estimate(self.nishio3, statistic),
            (Metric::Nishio4, statistic) => of_estimate(self.nishio4, statistic),
            (Metric::Nishio4Median, _) => self.nishio4_median.map(number),
            (Metric::Nishio4Heuristic, _) => self.nishio4_heuristic.map(number),
            (Metric::SolvedBy2, _) => b(self.solved_by_2),
            (Metric::SolvedBy3, _) => b(self.solved_by_3),
            (Metric::SolvedBy4, _) => b(self.solved_by_4),
            _ => None,
        }
    }
}

impl OracleRow {
    /// The value of one of its metrics; `None` for another metric or a null one.
    pub(crate) fn value(&self, m: Metric) -> Option<MetricValue> {
        if let (Metric::OracleVisits, statistic) = m.statistic() {
            return of_estimate(self.visits, statistic);
        }
        match m {
            Metric::OracleScore => self.score.map(number),
            Metric::OracleScoreSe => self.score_se.map(number),
            Metric::OracleLevel => self.level.map(|l| text(l.name())),
            Metric::OracleLevelConfidence => self.level_confidence.map(number),
            _ => None,
        }
    }
}

impl SerateRow {
    /// The value of one of its metrics; `None` for another metric or a null one.
    pub(crate) fn value(&self, m: Metric) -> Option<MetricValue> {
        match m {
            Metric::Serate => self.er.map(number),
            Metric::SerateUses => self.uses.as_deref().map(text),
            Metric::SerateEp => self.ep.map(number),
            Metric::SerateEd => self.ed.map(number),
            _ => None,
        }
    }
}

impl FowlerRow {
    /// The value of one of its metrics; `None` for another metric or a null one.
    pub(crate) fn value(&self, m: Metric) -> Option<MetricValue> {
        match m {
            Metric::Fowler => self.rating.map(number),
            _ => None,
        }
    }
}

impl SinglesRow {
    /// The value of one of its metrics; `None` for another metric or a null one.
    pub(crate) fn value(&self, m: Metric) -> Option<MetricValue> {
        match m.statistic() {
            (Metric::SinglesDependency, statistic) => of_estimate(self.dependency, statistic),
            (Metric::SinglesBoxReach, _) => self.box_reach.map(number),
            (Metric::SinglesHiddenReach, _) => self.hidden_reach.map(number),
            (Metric::SinglesNakedReach, _) => self.naked_reach.map(number),
            _ => None,
        }
    }
}

impl SisusRow {
    /// The value of one of its metrics; `None` for another metric or a null one.
    pub(crate) fn value(&self, m: Metric) -> Option<MetricValue> {
        match m.statistic() {
            (Metric::SisusRefutationSum, statistic) => of_estimate(self.refutation_sum, statistic),
            (Metric::SisusDependency, statistic) => of_estimate(self.dependency, statistic),
            _ => None,
        }
    }
}

impl TrialRow {
    /// The value of one of its metrics; `None` for another metric or a null one.
    pub(crate) fn value(&self, m: Metric) -> Option<MetricValue> {
        match m {
            Metric::TrialDepth => self.depth.map(count),
            Metric::TrialSteps => self.steps.map(count),
            Metric::TrialRating => self.rating.map(number),
            Metric::TrialEliminations => self.eliminations.map(count),
            _ => None,
        }
    }
}

impl WeightsRow {
    /// The value of one of its metrics; `None` for another metric or a null one.
    pub(crate) fn value(&self, m: Metric) -> Option<MetricValue> {
        match m {
            Metric::WeightsScore => self.score.map(count),
            Metric::WeightsLevel => self.level.map(|l| text(l.name())),
            Metric::HardestTechnique => self.hardest_technique.map(|t| text(t.name())),
            Metric::HardestWeight => self.hardest_weight.map(count),
            Metric::BasicReach => self.basic_reach.map(number),
            _ => None,
        }
    }
}
