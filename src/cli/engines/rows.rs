//! The rows of `sudolab check`, `count`, `solve` and `backbone`: one
//! puzzle's answer from the engines ([`sudolab::Engines`], whose
//! answers are compared and any difference is a [`Disagreement`]), as plain
//! data every output format serialises. The engine layer answers questions;
//! this module assembles those answers into the rows the subcommands print.
//! A backbone row holds the cells fixed in every solution of a puzzle,
//! relaxed or not (the fixed cells of the constraint relaxation, Pelánek
//! §3.2; `docs/methods.md` §2).

use super::removed::RemovedEdges;
use serde::Serialize;
use sudolab::RelaxOptions;
use sudolab::Status;
use sudolab::derive_seed;
use sudolab::{Disagreement, Engines};
use sudolab::{EdgeError, RelaxedInstance};
use sudolab::{Puzzle, Solution};

/// Result of `sudolab check`: is the puzzle valid and unique?
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct CheckRow {
    /// The puzzle, as one line.
    pub puzzle: String,
    /// The input line's label, if any.
    pub label: Option<String>,
    /// Unique, multiple or none.
    pub status: Status,
    /// Solutions found, counting up to 2.
    pub solutions: u64,
    /// Why the puzzle has no solution when it shows on its face.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl CheckRow {
    /// Checks uniqueness (count up to 2).
    pub(crate) fn new(puzzle: &Puzzle, engines: &Engines) -> Result<CheckRow, Disagreement> {
        let c = engines.count(puzzle, 2)?;
        let status = Status::from_count(c.solutions);
        // A contradiction on the puzzle's face means no solution, so it is
        // looked for only then.
        let reason = (status == Status::None).then(|| match puzzle.check() {
            Err(c) => c.to_string(),
            Ok(()) => "no solution exists (found by search)".to_string(),
        });
        Ok(CheckRow {
            puzzle: puzzle.to_line(),
            label: puzzle.label.clone(),
            status,
            solutions: c.solutions,
            reason,
        })
    }
}

/// Above this many solutions an exact count (`cap` 0) is announced as long:
/// a puzzle with billions of solutions takes hours to count.
pub(crate) const LARGE_COUNT: u64 = 1_000_000;

/// Result of `sudolab count`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct CountRow {
    /// The puzzle, as one line.
    pub puzzle: String,
    /// The input line's label, if any.
    pub label: Option<String>,
    /// Solutions found (the cap when `capped`).
    pub solutions: u64,
    /// True when counting stopped at the cap (or saturated).
    pub capped: bool,
    /// True when the count passed 2^64 − 1 and stopped there (`solutions`
    /// is then a lower bound, not a count); absent otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub saturated: bool,
}

impl CountRow {
    /// Counts up to `cap` (0 = no cap).
    pub(crate) fn new(
        puzzle: &Puzzle,
        engines: &Engines,
        cap: u64,
    ) -> Result<CountRow, Disagreement> {
        let c = engines.count(puzzle, cap)?;
        Ok(CountRow {
            puzzle: puzzle.to_line(),
            label: puzzle.label.clone(),
            solutions: c.solutions,
            capped: c.capped || c.saturated(),
            saturated: c.saturated(),
        })
    }

    /// Whether counting with `cap` is an exact count past [`LARGE_COUNT`]
    /// solutions (asked with a count capped there, so it answers quickly).
    pub(crate) fn is_long(
        puzzle: &Puzzle,
        engines: &Engines,
        cap: u64,
    ) -> Result<bool, Disagreement> {
        Ok(cap == 0 && engines.count(puzzle, LARGE_COUNT)?.capped)
    }
}

/// Result of `sudolab solve`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct SolveRow {
    /// The puzzle, as one line.
    pub puzzle: String,
    /// The input line's label, if any.
    pub label: Option<String>,
    /// A solution as one line, or none.
    pub solution: Option<String>,
    /// Unique, multiple (the solution is one of several) or none.
    pub status: Status,
}

impl SolveRow {
    /// Solves one puzzle and says whether the solution is unique.
    pub(crate) fn new(puzzle: &Puzzle, engines: &Engines) -> Result<SolveRow, Disagreement> {
        Ok(SolveRow {
            puzzle: puzzle.to_line(),
            label: puzzle.label.clone(),
            solution: engines.solve(puzzle)?.map(|s| s.to_line()),
            status: engines.status(puzzle)?,
        })
    }

    /// The row of a solution found elsewhere (a SAT solver's model), with
    /// the engines' word on whether it is the only one.
    pub(crate) fn of_solution(
        puzzle: &Puzzle,
        solution: &Solution,
        engines: &Engines,
    ) -> Result<SolveRow, Disagreement> {
        Ok(SolveRow {
            puzzle: puzzle.to_line(),
            label: puzzle.label.clone(),
            solution: Some(solution.to_line()),
            status: engines.status(puzzle)?,
        })
    }
}

/// Result of `sudolab backbone` (and `count --remove-edges`): count and fixed
/// cells of a puzzle, relaxed or not.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct BackboneRow {
    /// The puzzle, as one line.
    pub puzzle: String,
    /// The input line's label, if any.
    pub label: Option<String>,
    /// Removed edges, `[a, b]` 0-based cell indices.
    pub removed: Vec<[usize; 2]>,
    /// Solutions found (the cap when `capped`).
    pub solutions: u64,
    /// True when counting stopped at the cap (or saturated).
    pub capped: bool,
    /// True when the count passed 2^64 − 1 and stopped there; absent
    /// otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub saturated: bool,
    /// 0-based indices of the non-given fixed cells.
    pub fixed: Vec<usize>,
}

/// Why a backbone could not be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum BackboneError {
    /// The removed edges are not edges of this puzzle's graph.
    #[error(transparent)]
    Edges(#[from] EdgeError),
    /// The removed edges are a sample drawn for another puzzle (holds it).
    #[error("the removed edges were sampled for another puzzle ({0})")]
    SampledForAnother(String),
    /// The engines disagreed (a bug).
    #[error(transparent)]
    Disagreement(#[from] Disagreement),
}

impl BackboneRow {
    /// Analyzes a puzzle with the edges of `removed` taken out of its graph;
    /// refused when they come from a sample drawn for another puzzle.
    pub(crate) fn of_removed(
        puzzle: &Puzzle,
        removed: &RemovedEdges,
        engines: &Engines,
        cap: u64,
    ) -> Result<BackboneRow, BackboneError> {
        if let Some(sampled) = removed.puzzle.as_ref().filter(|s| **s != puzzle.to_line()) {
            return Err(BackboneError::SampledForAnother(sampled.clone()));
        }
        BackboneRow::new(puzzle, &removed.edges, engines, cap)
    }

    /// Whether analysing with `cap` is an exact count past [`LARGE_COUNT`]
    /// solutions (asked with a count capped there, so it answers quickly).
    pub(crate) fn is_long(
        puzzle: &Puzzle,
        removed: &[(usize, usize)],
        engines: &Engines,
        cap: u64,
    ) -> Result<bool, BackboneError> {
        if cap != 0 {
            return Ok(false);
        }
        let r = RelaxedInstance::new(puzzle, removed)?;
        Ok(Engines::one(engines.primary())
            .analyze_relaxed(&r, LARGE_COUNT)?
            .count
            .capped)
    }

    /// Analyzes a puzzle with `removed` edges taken out of its graph.
    pub(crate) fn new(
        puzzle: &Puzzle,
        removed: &[(usize, usize)],
        engines: &Engines,
        cap: u64,
    ) -> Result<BackboneRow, BackboneError> {
        let r = RelaxedInstance::new(puzzle, removed)?;
        let a = engines.analyze_relaxed(&r, cap)?;
        Ok(BackboneRow {
            puzzle: puzzle.to_line(),
            label: puzzle.label.clone(),
            removed: r.removed().iter().map(|&(a, b)| [a, b]).collect(),
            solutions: a.count.solutions,
            capped: a.count.capped || a.count.saturated(),
            saturated: a.count.saturated(),
            fixed: a.fixed,
        })
    }
}

/// Whether the samples of `opts` are exact counts (`cap` 0) past
/// [`LARGE_COUNT`] solutions, judged on the
/// first sample (analysed with a count capped there, so it answers
/// quickly): such a run may take very long.
pub(crate) fn relax_is_long(puzzle: &Puzzle, opts: &RelaxOptions) -> Result<bool, Disagreement> {
    let edges = puzzle.geometry().edges().len();
    if opts.cap != 0 || opts.samples == 0 || opts.k > edges {
        return Ok(false);
    }
    let mut removed = RelaxedInstance::shuffled_edges(puzzle.order(), derive_seed(opts.seed, 0));
    removed.truncate(opts.k);
    removed.sort_unstable();
    let r = RelaxedInstance::new(puzzle, &removed)
        .unwrap_or_else(|e| unreachable!("sampled edges are graph edges: {e}"));
    let a = Engines::one(opts.engines.primary()).analyze_relaxed(&r, LARGE_COUNT)?;
    Ok(a.count.capped)
}
