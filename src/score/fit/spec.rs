//! The fit as one call: [`fit_score`] reads a results table by a
//! [`ScoreFitSpec`] (which label fields say what, the candidate metrics,
//! the modeller's choices), checks every choice against the data, and
//! selects, fits, calibrates and validates the full and the fast score
//! (`docs/methods.md` §6.2–§6.4). `sudolab fit --score` and Python's
//! `fit_score` are its two faces.

use super::{
    FitData, LabelFields, ScoreFitError, ScoreFitOptions, ScoreFitReport, WEIGHT_RANGE, fit_model,
    source_weight_ok,
};
use crate::eval::ResultsTable;
use crate::metrics::{Metric, join};

/// What [`fit_score`] fits and how.
#[derive(Debug, Clone)]
pub struct ScoreFitSpec {
    /// Which label fields give each puzzle's source, its label as a number,
    /// SE's rating and its level name.
    pub fields: LabelFields,
    /// The candidate metrics of the full score, each one the score computes
    /// (every such metric when empty).
    pub metrics: Vec<Metric>,
    /// The fast score's candidates, among `metrics` (`None`: those of
    /// `metrics` that are not costly).
    pub fast_metrics: Option<Vec<Metric>>,
    /// A source whose rows only anchor the SE-equivalent's trial curve
    /// (their SE label beside their trial rating).
    pub se_anchor: Option<String>,
    /// Sources that are fitted on but never held out in the validation.
    pub train_only: Vec<String>,
    /// The fit's options: seed, bootstrap, the timed source and its weight
    /// and margin, other sources' weights, the metrics kept by choice (among
    /// `metrics`).
    pub options: ScoreFitOptions,
}

impl ScoreFitSpec {
    /// The metrics the score computes, and so the candidates it can use.
    pub fn candidate_metrics() -> Vec<Metric> {
        crate::score::features::candidates()
    }

    /// A spec with these label fields, every candidate metric and the
    /// default options.
    pub fn new(fields: LabelFields) -> ScoreFitSpec {
        ScoreFitSpec {
            fields,
            metrics: Vec::new(),
            fast_metrics: None,
            se_anchor: None,
            train_only: Vec::new(),
            options: ScoreFitOptions::default(),
        }
    }
}

/// An option of the spec that the data or the score cannot take.
fn bad(option: &'static str, value: impl ToString, reason: impl Into<String>) -> ScoreFitError {
    ScoreFitError::Option {
        option,
        value: value.to_string(),
        reason: reason.into(),
    }
}

/// The candidate metrics, the fast score's (as positions among them) and
/// the kept ones, each checked against what it must be among.
fn metric_choices(spec: &ScoreFitSpec) -> Result<(Vec<Metric>, Vec<usize>), ScoreFitError> {
    let known = ScoreFitSpec::candidate_metrics();
    let metrics = if spec.metrics.is_empty() {
        known.clone()
    } else {
        spec.metrics.clone()
    };
    if let Some(m) = metrics.iter().find(|m| !known.contains(m)) {
        return Err(bad(
            "metrics",
            m,
            format!(
                "the score can only use the metrics it computes: {}",
                join(&known, ", ")
            ),
        ));
    }
    let among = |option: &'static str, chosen: &[Metric]| match chosen
        .iter()
        .find(|m| !metrics.contains(m))
    {
        Some(m) => Err(bad(option, m, "not among the metrics")),
        None => Ok(()),
    };
    let fast_metrics: Vec<Metric> = match &spec.fast_metrics {
        None => metrics.iter().copied().filter(|m| !m.costly()).collect(),
        Some(chosen) => {
            among("fast_metrics", chosen)?;
            chosen.clone()
        }
    };
    among("keep", &spec.options.keep)?;
    let fast = fast_metrics
        .iter()
        .filter_map(|f| metrics.iter().position(|m| m == f))
        .collect();
    Ok((metrics, fast))
}

/// The fitting data of `table` under `spec`, with every choice of the spec
/// checked against it.
fn fit_data(
    table: &ResultsTable,
    spec: &ScoreFitSpec,
    metrics: &[Metric],
) -> Result<FitData, ScoreFitError> {
    let opts = &spec.options;
    if !source_weight_ok(opts.timed_weight) {
        return Err(bad(
            "timed_weight",
            opts.timed_weight,
            format!(
                "must be a number from {} to {}",
                WEIGHT_RANGE.0, WEIGHT_RANGE.1
            ),
        ));
    }
    if !(opts.time_margin.is_finite() && opts.time_margin >= 0.0) {
        return Err(bad(
            "time_margin",
            opts.time_margin,
            "must be a number, 0 or more",
        ));
    }
    for (name, &w) in &opts.source_weights {
        if !source_weight_ok(w) {
            return Err(bad(
                "source_weights",
                format!("{name}={w}"),
                format!(
                    "the weight must be a number from {} to {}",
                    WEIGHT_RANGE.0, WEIGHT_RANGE.1
                ),
            ));
        }
    }
    let columns = FitData::columns(metrics, opts.timed.is_some());
    let mut data = FitData::from_table(table, &columns, &spec.fields, spec.se_anchor.as_deref())?;
    if let Some(anchor) = &spec.se_anchor
        && data.anchors.is_empty()
    {
        return Err(bad(
            "se_anchor",
            anchor,
            format!(
                "no row of this source has both a trial rating ({}) and an SE label",
                Metric::TrialRating.name()
            ),
        ));
    }
    if let Some(timed) = &opts.timed {
        if !data.sources().contains(timed) {
            return Err(bad("timed", timed, "no row has this source"));
        }
        data = data.with_timed(timed);
        let spread = data.timed_spread(timed);
        if spread <= opts.time_margin {
            return Err(bad(
                "time_margin",
                opts.time_margin,
                format!(
                    "no two puzzles of {timed} differ by more than that in ln time (the largest difference is {spread:.3}), so the times would make no pair"
                ),
            ));
        }
    }
    for name in opts.source_weights.keys() {
        if opts.timed.as_ref() == Some(name) {
            return Err(bad(
                "source_weights",
                name,
                "the timed source's weight is the timed weight",
            ));
        }
        if !data.sources().contains(name) {
            return Err(bad("source_weights", name, "no row has this source"));
        }
    }
    Ok(data)
}

/// Fits the difficulty score on a results table (`docs/methods.md`
/// §6.2–§6.4): reads the labelled rows the spec's label fields name,
/// selects the metrics of the full and the fast score by backward
/// elimination, fits their weights, the SE-equivalent curve and each
/// source's level cuts (and the time model on a timed source), and
/// validates both scores by leaving out each source not in `train_only`.
/// The report's `model` is what `sudolab score --model` reads.
///
/// ```
/// use sudolab::{LabelFields, LabelSpec, Metric, ResultsTable, ScoreFitSpec, TableFormat, fit_score};
///
/// // Two sources ordering 40 puzzles each by a difficulty that `givens`
/// // follows inversely; the label is "SOURCE RANK SE".
/// let mut csv = String::from("label,givens,hardest_weight\n");
/// for (source, i) in ["a", "b"].iter().flat_map(|s| (0..40).map(move |i| (s, i))) {
///     let h = (i % 4) as f64 + (i as f64 * 0.37).fract();
///     csv += &format!("{source} {} {:.1},{},{}\n", i % 4 + 1, 1.5 + h, 36.0 - 3.0 * h, (1.0 + 4.0 * h).round());
/// }
/// let table = ResultsTable::parse(&csv, TableFormat::Delimited(','))?;
/// let mut spec = ScoreFitSpec::new(LabelFields {
///     source: LabelSpec::parse("label:1")?,
///     rank: LabelSpec::parse("label:2")?,
///     se: Some(LabelSpec::parse("label:3")?),
///     level: None,
/// });
/// spec.metrics = vec![Metric::Givens, Metric::HardestWeight];
/// spec.options.bootstrap.replicates = 0;
/// let report = fit_score(&table, &spec)?;
/// assert_eq!(report.validation.len(), 2); // each source held out once
/// assert!(report.model.check().is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn fit_score(
    table: &ResultsTable,
    spec: &ScoreFitSpec,
) -> Result<ScoreFitReport, ScoreFitError> {
    let (metrics, fast) = metric_choices(spec)?;
    let data = fit_data(table, spec, &metrics)?;
    let held_out: Vec<String> = data
        .sources()
        .into_iter()
        .filter(|s| !spec.train_only.contains(s))
        .collect();
    let about = format!(
        "sudolab difficulty score, fitted by `sudolab fit --score` on {} puzzles of {} \
         (docs/score.sh; validation in docs/score.md){}",
        data.rows.len(),
        data.sources().join(", "),
        spec.options.choices()
    );
    let all: Vec<usize> = (0..metrics.len()).collect();
    Ok(fit_model(
        &data,
        &all,
        &fast,
        &held_out,
        &spec.options,
        about,
    ))
}
