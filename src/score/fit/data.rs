//! The data of the score's fit (`docs/methods.md` §6.2): labelled puzzles
//! ([`FitRow`]) with their metric values, read from a results table by the
//! label fields that name each puzzle's source, its label as a number, SE's
//! rating and its level name ([`LabelFields`]).

use crate::eval::{LabelSpec, ResultsTable};
use crate::metrics::Metric;
use std::collections::BTreeSet;

/// One labelled puzzle of the fitting data.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FitRow {
    /// The source (site or rater) whose label this is.
    pub source: String,
    /// The label as a number (a level rank or a rating); harder is higher.
    pub rank: f64,
    /// Sukaku Explainer's rating of the puzzle, when known.
    pub se: Option<f64>,
    /// The level's name, when the source has named levels.
    pub level: Option<String>,
    /// The hardest technique (column `hardest_technique`), if known.
    pub hardest: Option<String>,
    /// The trial rating (column `trial_rating`), if known: it places the
    /// SE-equivalent of the hardest puzzles.
    pub trial: Option<f64>,
    /// The metric values, in [`FitData::metrics`] order.
    pub values: Vec<Option<f64>>,
}

/// Labelled puzzles with their metric values.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FitData {
    /// Metric names.
    pub metrics: Vec<Metric>,
    /// The puzzles.
    pub rows: Vec<FitRow>,
    /// `(trial rating, SE rating)` of anchor puzzles: they fit only the trial
    /// curve of the SE-equivalent ([`FitData::split_anchors`]).
    pub anchors: Vec<(f64, f64)>,
}

/// Why fitting data could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ScoreFitError {
    /// A label field or column is missing.
    #[error(transparent)]
    Label(#[from] crate::eval::LabelError),
    /// A metric column is missing.
    #[error(transparent)]
    Table(#[from] crate::eval::TableError),
    /// Too little data.
    #[error("{0}")]
    TooFew(String),
    /// An option the data or the score cannot take: `option` is the field
    /// of [`super::ScoreFitSpec`] or [`super::ScoreFitOptions`] it names.
    #[error("{option} {value}: {reason}")]
    Option {
        /// The option's field name, e.g. `timed_weight`.
        option: &'static str,
        /// The value given.
        value: String,
        /// Why it cannot be taken.
        reason: String,
    },
}

/// Which label fields say what.
#[derive(Debug, Clone)]
pub struct LabelFields {
    /// The source of each puzzle (`label:1`).
    pub source: LabelSpec,
    /// The label as a number (`label:2`).
    pub rank: LabelSpec,
    /// SE's rating (`label:3`), if any.
    pub se: Option<LabelSpec>,
    /// The level name (`label:4`), if any; `-` means none.
    pub level: Option<LabelSpec>,
}

impl FitData {
    /// The metric values of row `i` keyed by name.
    pub(crate) fn values_of(&self, i: usize) -> std::collections::BTreeMap<Metric, Option<f64>> {
        self.metrics
            .iter()
            .copied()
            .zip(self.rows[i].values.iter().copied())
            .collect()
    }

    /// The columns a score fit reads: the candidates first (the fit's
    /// metric indices are their positions), then, with a timed source, the
    /// time model's effort terms that are not candidates (it reads them
    /// whether or not the score may).
    pub(crate) fn columns(candidates: &[Metric], timed: bool) -> Vec<Metric> {
        let mut columns = candidates.to_vec();
        if timed {
            for m in super::effort_metrics() {
                if !columns.contains(&m) {
                    columns.push(m);
                }
            }
        }
        columns
    }

    /// Turns the labels of `source`, solving times in seconds, into ln
    /// seconds (the scale the time model and the pair margin use); rows
    /// without a positive time are dropped.
    pub(crate) fn with_timed(mut self, source: &str) -> FitData {
        self.rows.retain(|r| r.source != source || r.rank > 0.0);
        for r in &mut self.rows {
            if r.source == source {
                r.rank = r.rank.ln();
                r.level = None;
            }
        }
        self
    }

    /// The largest difference between two labels of `source` (after
    /// [`FitData::with_timed`]: in ln time); 0 with fewer than two rows.
    pub(crate) fn timed_spread(&self, source: &str) -> f64 {
        let labels = self
            .rows
            .iter()
            .filter(|r| r.source == source)
            .map(|r| r.rank);
        let (lo, hi) = labels.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
        if hi >= lo { hi - lo } else { 0.0 }
    }

    /// Takes the rows of `source` out of the fit: they become anchors of
    /// the SE-equivalent's trial curve only (their SE label, e.g. a lower
    /// bound known for a list of puzzles, beside their trial rating) and
    /// change nothing else. Rows without both values are dropped.
    pub(crate) fn split_anchors(mut self, source: &str) -> FitData {
        let (anchors, rows): (Vec<FitRow>, Vec<FitRow>) =
            self.rows.into_iter().partition(|r| r.source == source);
        self.rows = rows;
        self.anchors
            .extend(anchors.iter().filter_map(|r| Some((r.trial?, r.se?))));
        self
    }

    /// Reads the rows of a results table that have a source, a numeric label
    /// and at least one metric value; the rows of `anchor`, if given, become
    /// anchors ([`FitData::split_anchors`]) whatever their metric values (an
    /// anchor needs only its trial rating and its SE label).
    pub(crate) fn from_table(
        table: &ResultsTable,
        metrics: &[Metric],
        fields: &LabelFields,
        anchor: Option<&str>,
    ) -> Result<FitData, ScoreFitError> {
        let text = |spec: &LabelSpec| crate::eval::label::label_texts(table, spec);
        let number = |spec: &LabelSpec| -> Result<Vec<Option<f64>>, ScoreFitError> {
            Ok(spec
                .values(table)?
                .into_iter()
                .map(|v| v.and_then(|v| v.as_f64()))
                .collect())
        };
        let sources = text(&fields.source)?;
        let ranks = number(&fields.rank)?;
        let se = match &fields.se {
            Some(s) => number(s)?,
            None => vec![None; table.len()],
        };
        let levels = match &fields.level {
            Some(s) => text(s)?,
            None => vec![None; table.len()],
        };
        let hardest = if table.has_column("hardest_technique") {
            table.text("hardest_technique")?
        } else {
            vec![None; table.len()]
        };
        let trial = if table.has_column(Metric::TrialRating.name()) {
            table.numeric(Metric::TrialRating.name())?
        } else {
            vec![None; table.len()]
        };
        let columns: Vec<Vec<Option<f64>>> = metrics
            .iter()
            .map(|m| table.numeric(m.name()))
            .collect::<Result<_, _>>()?;
        let mut rows = Vec::new();
        for i in 0..table.len() {
            let (Some(source), Some(rank)) = (&sources[i], ranks[i]) else {
                continue;
            };
            let values: Vec<Option<f64>> = columns.iter().map(|c| c[i]).collect();
            if values.iter().all(Option::is_none) && anchor != Some(source.as_str()) {
                continue;
            }
            rows.push(FitRow {
                source: source.clone(),
                rank,
                se: se[i],
                level: levels[i].clone().filter(|l| l != "-"),
                hardest: hardest[i].clone(),
                trial: trial[i],
                values,
            });
        }
        if rows.is_empty() {
            return Err(ScoreFitError::TooFew(
                "no row has a source, a numeric label and a metric value".into(),
            ));
        }
        let data = FitData {
            metrics: metrics.to_vec(),
            rows,
            anchors: Vec::new(),
        };
        Ok(match anchor {
            Some(source) => data.split_anchors(source),
            None => data,
        })
    }

    /// The sources, sorted.
    pub(crate) fn sources(&self) -> Vec<String> {
        let set: BTreeSet<&String> = self.rows.iter().map(|r| &r.source).collect();
        set.into_iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::TableFormat;

    /// An anchor needs only its trial rating and its SE label: the forum's
    /// hardest puzzles have no value for most metrics (serate and the
    /// singles models give up on them), and a fit on such metrics still
    /// draws the trial curve through them.
    #[test]
    fn anchor_rows_need_no_metric_value() {
        let table = ResultsTable::parse(
            "label,hsolve,trial_rating\n\
             site 1 - -,2.5,1.0\n\
             site 2 - -,3.5,1.5\n\
             forum 11 11.0 -,,2.6\n\
             forum 11 11.2 -,,\n\
             other 3 - -,,1.2\n",
            TableFormat::Delimited(','),
        )
        .unwrap();
        let fields = LabelFields {
            source: LabelSpec::parse("label:1").unwrap(),
            rank: LabelSpec::parse("label:2").unwrap(),
            se: Some(LabelSpec::parse("label:3").unwrap()),
            level: None,
        };
        let data = FitData::from_table(&table, &[Metric::Hsolve], &fields, Some("forum")).unwrap();
        assert_eq!(data.anchors, vec![(2.6, 11.0)]);
        assert_eq!(data.sources(), vec!["site".to_string()]);
        let plain = FitData::from_table(&table, &[Metric::Hsolve], &fields, None).unwrap();
        assert!(plain.anchors.is_empty());
        assert_eq!(
            plain.rows.len(),
            2,
            "rows without a metric value are dropped"
        );
    }
}
