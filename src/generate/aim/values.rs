//! The values of a generated candidate's target and tracked fields, with
//! their standard errors and the scores behind level targets: what the
//! evaluator measures and the distance to the targets reads.

use crate::metrics::{Metric, MetricValue};
use serde::Serialize;
use serde::ser::SerializeMap;
use std::collections::BTreeMap;

/// The value of every target and tracked field.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Values {
    /// Each field's value (`None`: its model could not rate the puzzle).
    pub values: BTreeMap<Metric, Option<MetricValue>>,
    /// The pseudo-generator's metric and its value on the source puzzle
    /// (column `source_METRIC`).
    pub source: Option<(Metric, f64)>,
    /// The standard error of each stochastic field (a target field, or the
    /// score behind a level target) over its model's runs or the
    /// relaxation's samples (columns `FIELD_se`); a deterministic field has
    /// none.
    pub se: BTreeMap<Metric, f64>,
    /// The confidence every target must hold with, under the fields'
    /// standard errors (`None`: on the point values alone;
    /// `distance::holds_probability`).
    pub confidence: Option<f64>,
    /// The scores behind level targets (`oracle_score` for `oracle_level`),
    /// which say how near a level's cut a puzzle is; not printed.
    pub scores: BTreeMap<Metric, f64>,
    /// How sure the least sure target with a standard error is: the
    /// probability that it holds (column `target_confidence`; `None` when
    /// no target field is stochastic).
    pub target_confidence: Option<f64>,
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

    /// A numeric field's value, or the score behind a level target.
    pub fn number_or_score(&self, m: Metric) -> Option<f64> {
        self.number(m).or_else(|| self.scores.get(&m).copied())
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
        let se = self
            .se
            .iter()
            .map(|(m, se)| (format!("{m}_se"), Some(MetricValue::Number(*se))));
        let confidence = self.target_confidence.map(|p| {
            (
                "target_confidence".to_string(),
                Some(MetricValue::Number(p)),
            )
        });
        let mut entries: Vec<(String, Option<MetricValue>)> = self
            .values
            .iter()
            .map(|(m, v)| (m.name().to_string(), v.clone()))
            .chain(source)
            .chain(se)
            .chain(confidence)
            .collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut map = s.serialize_map(Some(entries.len()))?;
        for (k, v) in &entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}
