//! Metrics: what sudolab measures of a puzzle, named once and computed in
//! groups.
//!
//! [`registry`] declares every metric column (its meaning, unit, direction,
//! the group that computes it, whether it is a parameter); [`compute`] runs
//! the groups a caller asks for on one puzzle: the clause-length
//! distribution of the minimal encoding (Patti §7.1, `docs/methods.md` §1),
//! the relaxation summary at one `k` (Pelánek §3.2, §2) and the human-model
//! ratings ([`crate::human`], §3). This is the ground the layers above stand
//! on: the score is a model over these values, `analyze` assembles them into
//! rows, the generators search over them and the report renders them.

mod rate_rows;
pub(crate) mod registry;
mod value;

pub(crate) use registry::direction_of;
pub(crate) use registry::join;
pub use registry::{
    Direction, Kind as MetricKind, Metric, MetricInfo, Role as MetricRole, Source as MetricSource,
    UnknownMetric,
};
pub(crate) use registry::{Kind, Role, Source, is_parameter_column};
pub use value::MetricValue;

use crate::cnf::{ClassCuts, ClauseCounts, ClauseRow, Encoding};
use crate::engine::Disagreement;
use crate::grid::Puzzle;
use crate::human::{self, Model, RateError, RateOptions, Ratings};
use crate::relax::{self, RelaxError, RelaxOptions, RelaxSummary};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A group of metrics, as `analyze --metrics` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetricGroup {
    /// Clause-length distribution of the minimal encoding.
    Clauses,
    /// Relaxation summary at one `k`.
    Relax,
    /// Ratings of these human models.
    Rate(BTreeSet<Model>),
    /// The difficulty score of the shipped model ([`crate::score`]; computed
    /// by `analyze`, which stands above the score).
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

/// The group names `--metrics` accepts, for help texts and errors.
pub(crate) const GROUP_HELP: &str =
    "clauses, relax, rate-all, rate:MODELS (e.g. rate:nishio,weights) or score";

/// A metric list that could not be parsed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MetricsError {
    /// A name that is no metric group.
    #[error("unknown metric group {0:?} (expected {GROUP_HELP})")]
    Unknown(String),
    /// A `rate:` group with an unknown model.
    #[error(transparent)]
    Model(#[from] RateError),
    /// Nothing to compute.
    #[error("no metric group given")]
    Empty,
}

impl MetricGroup {
    /// Parses `clauses,relax,rate-all` or `rate:nishio,weights,clauses`: the
    /// models of `rate:` run up to the next group name. A group named twice is
    /// computed once.
    pub fn parse_list(list: &str) -> Result<Vec<MetricGroup>, MetricsError> {
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
                    MetricGroup::Rate(Model::parse_list(&models.join(","))?)
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
}

/// What to compute for one puzzle.
#[derive(Debug, Clone)]
pub(crate) struct MetricOptions {
    /// The groups ([`MetricGroup::Score`] is left to the caller).
    pub groups: Vec<MetricGroup>,
    /// Relaxation parameters (for [`MetricGroup::Relax`]).
    pub relax: RelaxOptions,
    /// Seed of the human models (their runs use [`RateOptions`]' defaults).
    pub rate_seed: u64,
    /// Keep the per-cell fixedness map (N² numbers) in the relaxation summary.
    pub fixedness: bool,
    /// Compute SiSuS's dependency. Without it, SiSuS stops after one run on
    /// a puzzle singles solve (its refutation sum is 0 in every run) and
    /// `sisus_dependency` may be null; callers that read only the
    /// refutation sum (the score) save the other runs.
    pub sisus_dependency: bool,
    /// Backtracks after which the plain depth-first search of the baseline
    /// gives up (`backtracks` is then null).
    pub backtrack_cap: u64,
    /// Work units of serate's nesting levels 3–5
    /// ([`RateOptions::serate_budget`]).
    pub serate_budget: u64,
}

/// The values of the requested groups for one puzzle.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MetricValues {
    /// Clause counts and ALO length distribution of the minimal encoding.
    pub clauses: Option<ClauseCounts>,
    /// Relaxation summary at the requested `k`.
    pub relax: Option<RelaxSummary>,
    /// With a relaxation precision: whether its samples reached it.
    pub precision_reached: Option<bool>,
    /// Human-model ratings.
    pub rate: Option<Ratings>,
    /// Metric group → why it could not be computed for this puzzle.
    pub errors: BTreeMap<String, String>,
}

/// Computes the requested metric groups of a puzzle.
///
/// # Errors
/// Only an engine disagreement (a bug, with a reproducible case); anything
/// the puzzle itself causes (a contradiction, several solutions) is recorded
/// in [`MetricValues::errors`] (and in the ratings' `status`).
pub(crate) fn compute(puzzle: &Puzzle, opts: &MetricOptions) -> Result<MetricValues, Disagreement> {
    let mut out = MetricValues::default();
    for group in &opts.groups {
        match group {
            MetricGroup::Clauses => {
                match ClauseRow::of(puzzle, Encoding::Min, ClassCuts::patti(puzzle.side())) {
                    Ok(r) => out.clauses = Some(r.counts),
                    Err(e) => {
                        out.errors.insert(group.to_string(), e.to_string());
                    }
                }
            }
            MetricGroup::Relax => match relax::relax(puzzle, &opts.relax) {
                Ok((report, _)) => {
                    let mut summary = report.summary;
                    if !opts.fixedness {
                        summary.fixedness.clear();
                    }
                    out.relax = Some(summary);
                    out.precision_reached = report.precision_reached;
                }
                Err(RelaxError::Disagreement(d)) => return Err(d),
                Err(e) => {
                    out.errors.insert(group.to_string(), e.to_string());
                }
            },
            MetricGroup::Rate(models) => {
                let mut rate_opts = RateOptions {
                    models: models.clone(),
                    seed: opts.rate_seed,
                    backtrack_cap: opts.backtrack_cap,
                    serate_budget: opts.serate_budget,
                    ..RateOptions::default()
                };
                rate_opts.sisus.dependency = opts.sisus_dependency;
                out.rate = Some(human::rate(puzzle, &rate_opts).ratings);
            }
            MetricGroup::Score => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_parse_with_model_lists() {
        let g = MetricGroup::parse_list("rate:nishio,weights,clauses,relax,clauses").unwrap();
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
            MetricGroup::parse_list("rate-all").unwrap()[0].to_string(),
            "rate-all"
        );
        assert_eq!(
            MetricGroup::parse_list("clauses,speed"),
            Err(MetricsError::Unknown("speed".into()))
        );
        assert!(matches!(
            MetricGroup::parse_list("rate:nope"),
            Err(MetricsError::Model(_))
        ));
        assert_eq!(MetricGroup::parse_list(" , "), Err(MetricsError::Empty));
    }
}
