//! Universal classification (Patti, §8.2): map puzzles and whole label
//! groups (a website's levels) onto Universal Easy / Medium / Hard.
//!
//! Patti bins one metric at a time with an unsupervised, **equal-count**
//! univariate binning into three bins over the whole data set (§8.2.1), then
//! classifies each puzzle by its value and each website level by the mean
//! and by the median of its puzzles (§8.2.2). The bins here are computed from
//! the data given ([`ClassMethod::EqualCount`], any number of bins), or taken
//! from the paper's cut points ([`Preset`]):
//!
//! * `patti-nishio` — Nishio human cycles, higher is harder:
//!   Easy `[1.30, 3.48)`, Medium `[3.48, 6.52)`, Hard `[6.52, 98.14]`, i.e.
//!   a value equal to a cut point goes to the harder class.
//! * `patti-short` — percentage of short clauses, **more short clauses is
//!   easier**: Easy `[100 %, 22.6 %)`, Medium `[22.6 %, 17.6 %)`, Hard
//!   `[17.6 %, 0 %]`, i.e. Easy `> 22.6`, Medium `(17.6, 22.6]`, Hard `≤ 17.6`;
//!   again a value equal to a cut point goes to the harder class.
//!
//! Equal-count edges follow [`stats::equal_count_edges`]: on the difficulty
//! scale (the value, or its negation when lower is harder) each bin is
//! `(e_{j−1}, e_j]`, so **values tied at an edge all go to the easier bin**
//! and a heavily tied metric (e.g. most puzzles need 0 guesses) can leave a
//! bin empty rather than split equal values between classes.
//! Fixed cut points given by hand ([`ClassMethod::Fixed`]) follow the
//! paper's convention (ties to the harder class).
//!
//! Classes are named `easy`, `medium`, `hard` for three bins, `easy`, `hard`
//! for two, and `bin1`…`binK` (easiest first) otherwise.

use super::EvalError;
use super::label::{LabelSpec, Ordinal, label_texts};
use super::table::ResultsTable;
use crate::stats;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use std::str::FromStr;

pub(crate) use crate::metrics::Direction;

/// The paper's fixed cut points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Nishio human cycles: 3.48 / 6.52, higher is harder.
    PattiNishio,
    /// Short-clause percentage: 22.6 / 17.6, lower is harder.
    PattiShort,
}

impl Preset {
    /// Cut points as the paper states them, easiest class first.
    pub fn cut_points(self) -> Vec<f64> {
        match self {
            Preset::PattiNishio => vec![3.48, 6.52],
            Preset::PattiShort => vec![22.6, 17.6],
        }
    }

    /// Direction of the preset's metric.
    pub fn direction(self) -> Direction {
        match self {
            Preset::PattiNishio => Direction::HigherIsHarder,
            Preset::PattiShort => Direction::LowerIsHarder,
        }
    }

    /// Name as on the command line (`patti-nishio`, `patti-short`).
    pub fn name(self) -> &'static str {
        match self {
            Preset::PattiNishio => "patti-nishio",
            Preset::PattiShort => "patti-short",
        }
    }
}

impl FromStr for Preset {
    type Err = EvalError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "patti" | "patti-nishio" | "nishio" => Ok(Preset::PattiNishio),
            "patti-short" | "short" | "short-clauses" => Ok(Preset::PattiShort),
            other => Err(EvalError::Options(format!(
                "unknown preset {other:?}; known presets: patti-nishio (Nishio cycles 3.48/6.52), patti-short (short-clause % 22.6/17.6)"
            ))),
        }
    }
}

/// How the class boundaries are found.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClassMethod {
    /// Equal-count bins computed from the data.
    EqualCount {
        /// Number of classes (default 3).
        bins: usize,
    },
    /// The paper's cut points.
    Preset(Preset),
    /// Cut points given by hand, easiest class first.
    Fixed {
        /// Cut points in value terms, one fewer than the classes; a value equal
        /// to a cut point goes to the harder class.
        cut_points: Vec<f64>,
    },
}

/// Options of [`classify`].
#[derive(Debug, Clone, Serialize)]
pub struct ClassifyOptions {
    /// How the class boundaries are found (default: 3 equal-count bins).
    pub method: ClassMethod,
    /// Direction of the metric for `EqualCount` and `Fixed` (presets carry their own).
    pub direction: Direction,
    /// Column naming the puzzle in per-puzzle rows (default `puzzle`; absent → `null`).
    pub puzzle_column: String,
    /// Order of label groups; without it numeric labels sort by value and
    /// text labels keep their first appearance.
    pub ordinal: Option<Ordinal>,
}

impl Default for ClassifyOptions {
    fn default() -> Self {
        ClassifyOptions {
            method: ClassMethod::EqualCount { bins: 3 },
            direction: Direction::HigherIsHarder,
            puzzle_column: "puzzle".to_string(),
            ordinal: None,
        }
    }
}

/// Class names for `k` classes, easiest first.
pub(crate) fn class_names(k: usize) -> Vec<String> {
    match k {
        2 => vec!["easy".into(), "hard".into()],
        3 => vec!["easy".into(), "medium".into(), "hard".into()],
        _ => (1..=k).map(|i| format!("bin{i}")).collect(),
    }
}

/// Class boundaries on the difficulty scale `key = ±value` (ascending).
#[derive(Debug, Clone)]
struct Cuts {
    key_edges: Vec<f64>,
    direction: Direction,
    /// A key equal to an edge goes to the harder class.
    ties_harder: bool,
}

impl Cuts {
    fn key(&self, v: f64) -> f64 {
        match self.direction {
            Direction::HigherIsHarder => v,
            Direction::LowerIsHarder => -v,
        }
    }

    fn class_index(&self, v: f64) -> usize {
        let k = self.key(v);
        if self.ties_harder {
            self.key_edges.partition_point(|&e| e <= k)
        } else {
            self.key_edges.partition_point(|&e| e < k)
        }
    }

    fn value_edges(&self) -> Vec<f64> {
        self.key_edges.iter().map(|&e| self.key(e)).collect()
    }

    /// The interval of class `j` in value terms.
    fn range(&self, j: usize, name: &str) -> ClassRange {
        let lo_key = if j == 0 {
            None
        } else {
            Some(self.key_edges[j - 1])
        };
        let hi_key = self.key_edges.get(j).copied();
        // On the key scale: ties_harder → [lo, hi), else (lo, hi].
        let (lo_incl, hi_incl) = (self.ties_harder, !self.ties_harder);
        let (lower, upper, lower_inclusive, upper_inclusive) = match self.direction {
            Direction::HigherIsHarder => (lo_key, hi_key, lo_incl, hi_incl),
            Direction::LowerIsHarder => (hi_key.map(|k| -k), lo_key.map(|k| -k), hi_incl, lo_incl),
        };
        let lower_inclusive = lower_inclusive && lower.is_some();
        let upper_inclusive = upper_inclusive && upper.is_some();
        let text = format!(
            "{}{}, {}{}",
            if lower_inclusive { "[" } else { "(" },
            lower.map_or("-inf".to_string(), crate::util::rounded_number),
            upper.map_or("inf".to_string(), crate::util::rounded_number),
            if upper_inclusive { "]" } else { ")" },
        );
        ClassRange {
            class: name.to_string(),
            lower,
            upper,
            lower_inclusive,
            upper_inclusive,
            text,
        }
    }
}

/// The values a class covers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassRange {
    /// Class name (`easy`, `medium`, `hard`, or `binK`).
    pub class: String,
    /// Lower end in value terms; `None` when unbounded.
    pub lower: Option<f64>,
    /// Upper end in value terms; `None` when unbounded.
    pub upper: Option<f64>,
    /// Whether a value equal to `lower` belongs to the class.
    pub lower_inclusive: bool,
    /// Whether a value equal to `upper` belongs to the class.
    pub upper_inclusive: bool,
    /// The interval as text, e.g. `[3.48, 6.52)`.
    pub text: String,
}

/// How many puzzles fell into a class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassCount {
    /// Class name.
    pub class: String,
    /// Puzzles in the class.
    pub n: usize,
}

/// The classifier and its outcome over the data set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassifySummary {
    /// The metric (column) classified.
    pub metric: String,
    /// `equal-count`, `patti-nishio`, `patti-short` or `fixed`.
    pub method: String,
    /// Direction the classes were made in.
    pub direction: Direction,
    /// Number of classes.
    pub bins: usize,
    /// Cut points in value terms, from easy towards hard.
    pub edges: Vec<f64>,
    /// Interval of each class, easiest first.
    pub ranges: Vec<ClassRange>,
    /// Puzzles per class, easiest first.
    pub counts: Vec<ClassCount>,
    /// Puzzles classified, and rows without a metric value.
    pub n: usize,
    /// Rows without a value of the metric (left unclassified).
    pub n_missing: usize,
    /// Smallest metric value; `None` when no row has one.
    pub min: Option<f64>,
    /// Largest metric value; `None` when no row has one.
    pub max: Option<f64>,
}

/// One puzzle's class. Field names are stable output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PuzzleClass {
    /// Puzzle from the puzzle column (default `puzzle`); null when the table has
    /// no such column.
    pub puzzle: Option<String>,
    /// Label text of the row; null without a label or when the row has none.
    pub label: Option<String>,
    /// The metric (column) classified.
    pub metric: String,
    /// The row's metric value; null when missing.
    pub value: Option<f64>,
    /// Class of the value; null when the value is missing.
    pub class: Option<String>,
}

/// One label group's classification by mean and median.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupClass {
    /// Label text shared by the group's puzzles.
    pub group: String,
    /// Puzzles in the group with a metric value.
    pub n: usize,
    /// Mean of the group's metric values.
    pub mean: f64,
    /// Median of the group's metric values.
    pub median: f64,
    /// Class the mean falls into.
    pub class_of_mean: String,
    /// Class the median falls into.
    pub class_of_median: String,
    /// Share of the group's puzzles in each class, in class order.
    pub shares: Vec<(String, f64)>,
}

impl Serialize for GroupClass {
    /// Flat fields, shares as `share_easy`, `share_medium`, … in class order.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(6 + self.shares.len()))?;
        m.serialize_entry("group", &self.group)?;
        m.serialize_entry("n", &self.n)?;
        m.serialize_entry("mean", &self.mean)?;
        m.serialize_entry("median", &self.median)?;
        m.serialize_entry("class_of_mean", &self.class_of_mean)?;
        m.serialize_entry("class_of_median", &self.class_of_median)?;
        for (class, share) in &self.shares {
            m.serialize_entry(&format!("share_{class}"), share)?;
        }
        m.end()
    }
}

/// Everything [`classify`] finds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassifyReport {
    /// The classifier (method, cut points, ranges) and the class counts.
    pub summary: ClassifySummary,
    /// One row per table row, in table order.
    pub puzzles: Vec<PuzzleClass>,
    /// One row per label group, in `--ordinal` order, numeric order, or order of
    /// first appearance; empty without a label.
    pub groups: Vec<GroupClass>,
}

/// Classify every puzzle of `table` by `metric`, and every label group by
/// its mean and median.
pub fn classify(
    table: &ResultsTable,
    metric: &str,
    label: Option<&LabelSpec>,
    opts: &ClassifyOptions,
) -> Result<ClassifyReport, EvalError> {
    if let Some((line, text)) = table.first_non_numeric(metric) {
        return Err(EvalError::Metric {
            metric: metric.to_string(),
            reason: format!("not a numeric column (line {line} has {text:?})"),
        });
    }
    let values = table.numeric(metric)?;
    let present: Vec<f64> = values.iter().flatten().copied().collect();
    if present.is_empty() {
        return Err(EvalError::Metric {
            metric: metric.to_string(),
            reason: "no row has a value".to_string(),
        });
    }
    let stat_err = |source| EvalError::Stat {
        metric: metric.to_string(),
        source,
    };
    let (cuts, method) = match &opts.method {
        ClassMethod::EqualCount { bins } => {
            let direction = opts.direction;
            let keys: Vec<f64> = present
                .iter()
                .map(|&v| match direction {
                    Direction::HigherIsHarder => v,
                    Direction::LowerIsHarder => -v,
                })
                .collect();
            let key_edges = stats::equal_count_edges(&keys, *bins).map_err(stat_err)?;
            let cuts = Cuts {
                key_edges,
                direction,
                ties_harder: false,
            };
            (cuts, "equal-count".to_string())
        }
        ClassMethod::Preset(p) => (
            fixed_cuts(&p.cut_points(), p.direction()).map_err(stat_err)?,
            p.name().to_string(),
        ),
        ClassMethod::Fixed { cut_points } => (
            fixed_cuts(cut_points, opts.direction).map_err(stat_err)?,
            "fixed".to_string(),
        ),
    };
    let bins = cuts.key_edges.len() + 1;
    let names = class_names(bins);

    let labels = match label {
        Some(spec) => label_texts(table, spec)?,
        None => vec![None; table.len()],
    };
    let puzzles_col = table.text(&opts.puzzle_column).ok();
    let mut counts = vec![0usize; bins];
    let mut puzzles = Vec::with_capacity(table.len());
    for (i, v) in values.iter().enumerate() {
        let class = v.map(|v| cuts.class_index(v));
        if let Some(c) = class {
            counts[c] += 1;
        }
        puzzles.push(PuzzleClass {
            puzzle: puzzles_col.as_ref().and_then(|p| p[i].clone()),
            label: labels[i].clone(),
            metric: metric.to_string(),
            value: *v,
            class: class.map(|c| names[c].clone()),
        });
    }

    let groups = if label.is_some() {
        group_classes(&labels, &values, &cuts, &names, opts.ordinal.as_ref())
    } else {
        Vec::new()
    };

    let min = present.iter().copied().reduce(f64::min);
    let max = present.iter().copied().reduce(f64::max);
    let summary = ClassifySummary {
        metric: metric.to_string(),
        method,
        direction: cuts.direction,
        bins,
        edges: cuts.value_edges(),
        ranges: names
            .iter()
            .enumerate()
            .map(|(j, n)| cuts.range(j, n))
            .collect(),
        counts: names
            .iter()
            .zip(&counts)
            .map(|(c, &n)| ClassCount {
                class: c.clone(),
                n,
            })
            .collect(),
        n: present.len(),
        n_missing: values.len() - present.len(),
        min,
        max,
    };
    Ok(ClassifyReport {
        summary,
        puzzles,
        groups,
    })
}

/// Cut points given easiest first, checked to be finite and monotone in the
/// metric's direction.
fn fixed_cuts(cut_points: &[f64], direction: Direction) -> Result<Cuts, stats::StatError> {
    if cut_points.is_empty() {
        return Err(stats::StatError::BadBins { bins: 1 });
    }
    let cuts = Cuts {
        key_edges: Vec::new(),
        direction,
        ties_harder: true,
    };
    let key_edges: Vec<f64> = cut_points.iter().map(|&c| cuts.key(c)).collect();
    if key_edges.iter().any(|k| !k.is_finite()) || key_edges.windows(2).any(|w| w[0] >= w[1]) {
        return Err(stats::StatError::BadBins {
            bins: cut_points.len() + 1,
        });
    }
    Ok(Cuts { key_edges, ..cuts })
}

fn group_classes(
    labels: &[Option<String>],
    values: &[Option<f64>],
    cuts: &Cuts,
    names: &[String],
    ordinal: Option<&Ordinal>,
) -> Vec<GroupClass> {
    let mut order: Vec<String> = Vec::new();
    let mut members: Vec<Vec<f64>> = Vec::new();
    for (l, v) in labels.iter().zip(values) {
        let (Some(l), Some(v)) = (l, v) else {
            continue;
        };
        let g = match order.iter().position(|o| o == l) {
            Some(g) => g,
            None => {
                order.push(l.clone());
                members.push(Vec::new());
                order.len() - 1
            }
        };
        members[g].push(*v);
    }
    let mut groups: Vec<(String, Vec<f64>)> = order.into_iter().zip(members).collect();
    if let Some(ord) = ordinal {
        groups.sort_by_key(|(name, _)| ord.rank(name).unwrap_or(usize::MAX));
    } else if groups
        .iter()
        .all(|(name, _)| name.trim().parse::<f64>().is_ok())
    {
        groups.sort_by(|a, b| {
            let x: f64 = a.0.trim().parse().unwrap_or(0.0);
            let y: f64 = b.0.trim().parse().unwrap_or(0.0);
            x.total_cmp(&y)
        });
    }
    groups
        .into_iter()
        .map(|(group, mut vals)| {
            vals.sort_by(f64::total_cmp);
            let n = vals.len();
            let mean = stats::mean(&vals).unwrap_or(f64::NAN);
            let median = stats::median_sorted(&vals).unwrap_or(f64::NAN);
            let mut per_class = vec![0usize; names.len()];
            for &v in &vals {
                per_class[cuts.class_index(v)] += 1;
            }
            GroupClass {
                group,
                n,
                mean,
                median,
                class_of_mean: names[cuts.class_index(mean)].clone(),
                class_of_median: names[cuts.class_index(median)].clone(),
                shares: names
                    .iter()
                    .zip(&per_class)
                    .map(|(c, &k)| (c.clone(), k as f64 / n as f64))
                    .collect(),
            }
        })
        .collect()
}
