//! Every metric of a puzzle in one typed row: the clause-length distribution
//! of the minimal encoding (Patti §7.1), the relaxation summary (Pelánek
//! §3.2) and the human-model ratings (the raters of [`crate::human`]), as
//! `sudolab analyze` streams them for a whole data set.
//!
//! A row holds the puzzle, its label, the parameters it was computed with
//! (so a results file says how it was made, and a resumed run can refuse to
//! mix parameters) and one flattened block of fields per metric group, under
//! the same names `clauses`, `relax` and `rate` use. A group that cannot be
//! computed for this puzzle (a contradictory puzzle, one with several
//! solutions) leaves its fields out and says why in `errors`; an engine
//! disagreement is never filed in a row: it is returned as an error.

pub mod puzzle_report;
pub mod reference;

use crate::cnf::{ClassCuts, ClauseCounts, Encoding, clause_row};
use crate::engine::Disagreement;
use crate::grid::Puzzle;
use crate::human::{self, Model, RateError, RateOptions, Ratings};
use crate::relax::{self, RelaxError, RelaxOptions, RelaxSummary};
use crate::score::{self, Score, ScoreError, ScoreOptions};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A group of metrics `analyze` can compute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetricGroup {
    /// Clause-length distribution of the minimal encoding.
    Clauses,
    /// Relaxation summary at one `k`.
    Relax,
    /// Ratings of these human models.
    Rate(BTreeSet<Model>),
    /// The difficulty score of the shipped model ([`crate::score`]).
    Score,
}

impl fmt::Display for MetricGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MetricGroup::Clauses => f.write_str("clauses"),
            MetricGroup::Relax => f.write_str("relax"),
            MetricGroup::Score => f.write_str("score"),
            MetricGroup::Rate(models) if models.len() == Model::ALL.len() => {
                f.write_str("rate-all")
            }
            MetricGroup::Rate(models) => {
                let names: Vec<&str> = models.iter().map(|m| m.name()).collect();
                write!(f, "rate:{}", names.join(","))
            }
        }
    }
}

/// A metric list that could not be parsed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MetricsError {
    /// A name that is no metric group.
    #[error(
        "unknown metric group {0:?} (expected clauses, relax, rate-all, rate:MODELS (e.g. rate:nishio,weights) or score)"
    )]
    Unknown(String),
    /// A `rate:` group with an unknown model.
    #[error(transparent)]
    Model(#[from] RateError),
    /// Nothing to compute.
    #[error("no metric group given")]
    Empty,
}

/// Parses `clauses,relax,rate-all` or `rate:nishio,weights,clauses`: the
/// models of `rate:` run up to the next group name. A group named twice is
/// computed once.
pub fn parse_metric_groups(list: &str) -> Result<Vec<MetricGroup>, MetricsError> {
    const GROUPS: [&str; 5] = ["clauses", "relax", "rate-all", "rate", "score"];
    let mut out: Vec<MetricGroup> = Vec::new();
    let mut items = list
        .split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .peekable();
    while let Some(item) = items.next() {
        let group = match item {
            "clauses" => MetricGroup::Clauses,
            "relax" => MetricGroup::Relax,
            "score" => MetricGroup::Score,
            "rate-all" | "rate" => MetricGroup::Rate(Model::ALL.into_iter().collect()),
            x if x.starts_with("rate:") => {
                let mut models = vec![x.trim_start_matches("rate:").to_string()];
                while let Some(next) =
                    items.next_if(|n| !GROUPS.contains(n) && !n.starts_with("rate:"))
                {
                    models.push(next.to_string());
                }
                MetricGroup::Rate(human::parse_models(&models.join(","))?)
            }
            other => return Err(MetricsError::Unknown(other.to_string())),
        };
        if !out.contains(&group) {
            out.push(group);
        }
    }
    if out.is_empty() {
        return Err(MetricsError::Empty);
    }
    Ok(out)
}

/// What to compute for every puzzle.
#[derive(Debug, Clone)]
pub struct AnalyzeOptions {
    /// The metric groups, in output order.
    pub groups: Vec<MetricGroup>,
    /// Relaxation parameters (for [`MetricGroup::Relax`]).
    pub relax: RelaxOptions,
    /// Seed of the human models (their runs use [`RateOptions`]' defaults).
    pub rate_seed: u64,
    /// Keep the per-cell fixedness map (N² numbers) in relax metrics.
    pub fixedness: bool,
    /// The caller skips input puzzles equivalent to an earlier one (recorded
    /// in the parameters only: it decides which rows exist, not their values).
    pub dedup: bool,
}

/// The parameters a row was computed with: a resumed run must use the same.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnalyzeParams {
    /// The metric groups, as `--metrics` names them.
    pub metrics: String,
    /// Seed of every randomized metric.
    pub seed: u64,
    /// Relaxation: edges removed (null without the relax group).
    pub k: Option<usize>,
    /// Relaxation: samples per puzzle.
    pub samples: Option<usize>,
    /// Relaxation: solution cap.
    pub cap: Option<u64>,
    /// Relaxation: the fixedness map is included.
    pub fixedness: bool,
    /// Puzzles equivalent to an earlier input line were skipped.
    pub dedup: bool,
}

impl AnalyzeOptions {
    /// The parameters every row of this run carries.
    pub fn params(&self) -> AnalyzeParams {
        let relax = self.groups.contains(&MetricGroup::Relax);
        let names: Vec<String> = self.groups.iter().map(|g| g.to_string()).collect();
        AnalyzeParams {
            metrics: names.join(","),
            seed: self.relax.seed,
            k: relax.then_some(self.relax.k),
            samples: relax.then_some(self.relax.samples),
            cap: relax.then_some(self.relax.cap),
            fixedness: relax && self.fixedness,
            dedup: self.dedup,
        }
    }

    /// Checks the parameters before any puzzle is read.
    pub fn check(&self) -> Result<(), RelaxError> {
        if self.groups.contains(&MetricGroup::Relax) && self.relax.samples == 0 {
            return Err(RelaxError::NoSamples);
        }
        Ok(())
    }
}

/// Every requested metric of one puzzle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnalysisRow {
    /// The puzzle as one line (stable output column).
    pub puzzle: String,
    /// The puzzle's label from the input line, if any.
    pub label: Option<String>,
    /// How the metrics were computed.
    pub params: AnalyzeParams,
    /// Clause counts and ALO length distribution of the minimal encoding,
    /// flattened; `None` when not requested or the puzzle is refused.
    #[serde(flatten)]
    pub clauses: Option<ClauseCounts>,
    /// Relaxation summary at the requested `k`, flattened; `None` when not
    /// requested or the puzzle cannot be relaxed.
    #[serde(flatten)]
    pub relax: Option<RelaxSummary>,
    /// Human-model ratings, flattened (the `rate` columns); `None` when no model
    /// is requested.
    #[serde(flatten)]
    pub rate: Option<Ratings>,
    /// Difficulty score, its level and SE-equivalent (shipped model, default
    /// options), flattened; `None` when not requested or the puzzle has none.
    #[serde(flatten)]
    pub score: Option<Score>,
    /// Metric group → why it could not be computed for this puzzle.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub errors: BTreeMap<String, String>,
}

/// Computes every requested metric of a puzzle.
///
/// # Errors
/// Only an engine disagreement (a bug, with a reproducible case); anything
/// the puzzle itself causes is recorded in the row's `errors`.
pub fn analyze(puzzle: &Puzzle, opts: &AnalyzeOptions) -> Result<AnalysisRow, Disagreement> {
    let mut row = AnalysisRow {
        puzzle: puzzle.to_line(),
        label: puzzle.label.clone(),
        params: opts.params(),
        clauses: None,
        relax: None,
        rate: None,
        score: None,
        errors: BTreeMap::new(),
    };
    for group in &opts.groups {
        match group {
            MetricGroup::Clauses => {
                match clause_row(puzzle, Encoding::Min, ClassCuts::patti(puzzle.side())) {
                    Ok(r) => row.clauses = Some(r.counts),
                    Err(e) => {
                        row.errors.insert(group.to_string(), e.to_string());
                    }
                }
            }
            MetricGroup::Relax => match relax::relax(puzzle, &opts.relax) {
                Ok((report, _)) => {
                    let mut summary = report.summary;
                    if !opts.fixedness {
                        summary.fixedness.clear();
                    }
                    row.relax = Some(summary);
                }
                Err(RelaxError::Disagreement(d)) => return Err(d),
                Err(e) => {
                    row.errors.insert(group.to_string(), e.to_string());
                }
            },
            MetricGroup::Rate(models) => {
                let rate_opts = RateOptions {
                    models: models.clone(),
                    seed: opts.rate_seed,
                    ..RateOptions::default()
                };
                row.rate = Some(human::rate(puzzle, &rate_opts).ratings);
            }
            MetricGroup::Score => match score::score(puzzle, ScoreOptions::shipped()) {
                Ok(s) => row.score = Some(s.score),
                Err(ScoreError::Disagreement(d)) => return Err(d),
                Err(e) => {
                    row.errors.insert(group.to_string(), e.to_string());
                }
            },
        }
    }
    Ok(row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_parse_with_model_lists() {
        let g = parse_metric_groups("rate:nishio,weights,clauses,relax,clauses").unwrap();
        assert_eq!(
            g,
            vec![
                MetricGroup::Rate([Model::Nishio, Model::Weights].into_iter().collect()),
                MetricGroup::Clauses,
                MetricGroup::Relax,
            ]
        );
        assert_eq!(g[0].to_string(), "rate:nishio,weights");
        assert_eq!(
            parse_metric_groups("rate-all").unwrap()[0].to_string(),
            "rate-all"
        );
        assert_eq!(
            parse_metric_groups("clauses,speed"),
            Err(MetricsError::Unknown("speed".into()))
        );
        assert!(matches!(
            parse_metric_groups("rate:nope"),
            Err(MetricsError::Model(_))
        ));
        assert_eq!(parse_metric_groups(" , "), Err(MetricsError::Empty));
    }

    #[test]
    fn row_flattens_each_group_and_names_errors() {
        let opts = AnalyzeOptions {
            groups: parse_metric_groups("clauses,relax,rate:baseline").unwrap(),
            relax: RelaxOptions {
                samples: 4,
                ..RelaxOptions::default()
            },
            rate_seed: 1,
            fixedness: false,
            dedup: false,
        };
        let p = crate::grid::parse_puzzle(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        let row = analyze(&p, &opts).unwrap();
        let v = serde_json::to_value(&row).unwrap();
        // 30 givens: 51 empty cells, so 51 cell ALO clauses and 51 per unit kind.
        let alo: u64 = row.clauses.as_ref().unwrap().alo_lengths.iter().sum();
        assert_eq!(alo, 4 * 51);
        assert_eq!(v["variables"], 729);
        assert_eq!(v["samples"], 4);
        assert_eq!(v["givens"], 30);
        assert!(v.get("fixedness").is_none());
        assert!(v.get("errors").is_none());
        assert_eq!(v["params"]["metrics"], "clauses,relax,rate:baseline");
        assert_eq!(v["params"]["k"], 45);

        // Two 5s in the first row: every group says why it has no value.
        let bad = crate::grid::parse_puzzle(
            "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        let row = analyze(&bad, &opts).unwrap();
        assert!(row.clauses.is_none() && row.relax.is_none());
        assert_eq!(
            row.errors.keys().collect::<Vec<_>>(),
            vec!["clauses", "relax"]
        );
        let rate = row.rate.unwrap();
        assert!(rate.status["puzzle"].contains("contradiction"));
    }
}
