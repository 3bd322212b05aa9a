//! Result types shared by the two engines: the SAT engine ([`crate::sat`],
//! varisat) and the Dancing Links engine ([`crate::dlx`]).
//!
//! Both engines answer the same questions — solve, count with a cap, decide
//! uniqueness, find the fixed cells of a relaxed instance — and return these
//! same types, so their answers can be compared field by field.

use crate::graph::RelaxedInstance;
use crate::grid::{Puzzle, Solution};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Which engine computes an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    Sat,
    Dlx,
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Engine::Sat => "sat",
            Engine::Dlx => "dlx",
        })
    }
}

impl FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "sat" => Ok(Engine::Sat),
            "dlx" => Ok(Engine::Dlx),
            _ => Err(format!("unknown engine {s:?} (expected sat or dlx)")),
        }
    }
}

/// A solution count, exact or cut off at a cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Count {
    /// Solutions found: the exact number, or the cap when `capped`.
    pub solutions: u64,
    /// True when counting stopped at the cap (there are at least `solutions`).
    pub capped: bool,
}

impl Count {
    /// Count from a number of solutions found while searching with `cap`
    /// (0 = no cap).
    pub fn from_found(found: u64, cap: u64) -> Count {
        Count {
            solutions: found,
            capped: cap > 0 && found >= cap,
        }
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.capped {
            write!(f, ">={}", self.solutions)
        } else {
            write!(f, "{}", self.solutions)
        }
    }
}

/// Uniqueness of a puzzle's solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Unique,
    Multiple,
    None,
}

impl Status {
    pub fn from_count(solutions: u64) -> Status {
        match solutions {
            0 => Status::None,
            1 => Status::Unique,
            _ => Status::Multiple,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::None => "none",
        })
    }
}

/// Everything one engine computes about a relaxed instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InstanceAnalysis {
    pub count: Count,
    /// Non-given cells whose value is the same in every solution, ascending
    /// (empty when there is no solution).
    pub fixed: Vec<usize>,
}

/// Which engines to run: one, or both with their answers compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineChoice {
    Sat,
    #[default]
    Dlx,
    Both,
}

impl FromStr for EngineChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "sat" => Ok(EngineChoice::Sat),
            "dlx" => Ok(EngineChoice::Dlx),
            "both" => Ok(EngineChoice::Both),
            _ => Err(format!(
                "unknown engine {s:?} (expected sat, dlx or both)"
            )),
        }
    }
}

impl fmt::Display for EngineChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EngineChoice::Sat => "sat",
            EngineChoice::Dlx => "dlx",
            EngineChoice::Both => "both",
        })
    }
}

/// The two engines gave different answers: always a bug, reported with
/// everything needed to reproduce it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("engines disagree on {what} for puzzle {puzzle}: sat says {sat}, dlx says {dlx}")]
pub struct Disagreement {
    pub what: String,
    pub puzzle: String,
    pub sat: String,
    pub dlx: String,
}

fn compare<T: PartialEq + fmt::Debug>(
    what: &str,
    puzzle: &Puzzle,
    sat: T,
    dlx: T,
) -> Result<T, Disagreement> {
    if sat == dlx {
        Ok(sat)
    } else {
        Err(Disagreement {
            what: what.to_string(),
            puzzle: puzzle.to_line(),
            sat: format!("{sat:?}"),
            dlx: format!("{dlx:?}"),
        })
    }
}

/// Counts the solutions of a puzzle up to `cap` (0 = no cap).
pub fn count(puzzle: &Puzzle, choice: EngineChoice, cap: u64) -> Result<Count, Disagreement> {
    match choice {
        EngineChoice::Sat => Ok(crate::sat::count(puzzle, cap)),
        EngineChoice::Dlx => Ok(crate::dlx::sudoku::count(puzzle, cap)),
        EngineChoice::Both => compare(
            "the solution count",
            puzzle,
            crate::sat::count(puzzle, cap),
            crate::dlx::sudoku::count(puzzle, cap),
        ),
    }
}

/// Solves a puzzle; the solution is verified against the puzzle. With
/// `Both`, the two engines must agree on whether a solution exists and, for
/// a puzzle with a unique solution, on the solution itself.
pub fn solve(puzzle: &Puzzle, choice: EngineChoice) -> Result<Option<Solution>, Disagreement> {
    let verified = |s: Option<Solution>| s.filter(|s| s.solves(puzzle));
    match choice {
        EngineChoice::Sat => Ok(verified(crate::sat::solve_puzzle(puzzle))),
        EngineChoice::Dlx => Ok(verified(crate::dlx::sudoku::solve(puzzle))),
        EngineChoice::Both => {
            let sat = verified(crate::sat::solve_puzzle(puzzle));
            let dlx = verified(crate::dlx::sudoku::solve(puzzle));
            if sat.is_some() != dlx.is_some() {
                return compare("solvability", puzzle, sat.is_some(), dlx.is_some()).map(|_| None);
            }
            if sat != dlx && count(puzzle, EngineChoice::Both, 2)?.solutions == 1 {
                return compare("the unique solution", puzzle, sat, dlx);
            }
            Ok(sat)
        }
    }
}

/// Solution count and fixed cells of a relaxed instance.
pub fn analyse_relaxed(
    r: &RelaxedInstance,
    choice: EngineChoice,
    cap: u64,
) -> Result<InstanceAnalysis, Disagreement> {
    match choice {
        EngineChoice::Sat => Ok(crate::sat::analyse_relaxed(r, cap)),
        EngineChoice::Dlx => Ok(crate::dlx::relaxed::analyse(r, cap)),
        EngineChoice::Both => compare(
            &format!("the relaxed instance removing {:?}", r.removed()),
            r.puzzle(),
            crate::sat::analyse_relaxed(r, cap),
            crate::dlx::relaxed::analyse(r, cap),
        ),
    }
}

/// Result of `sudolab check`: is the puzzle valid and unique?
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckRow {
    pub puzzle: String,
    pub label: Option<String>,
    pub status: Status,
    /// Solutions found, counting up to 2.
    pub solutions: u64,
    /// Why the puzzle has no solution when it shows on its face.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Checks uniqueness (count up to 2).
pub fn check(puzzle: &Puzzle, choice: EngineChoice) -> Result<CheckRow, Disagreement> {
    let reason = puzzle.check().err().map(|c| c.to_string());
    let c = count(puzzle, choice, 2)?;
    let status = Status::from_count(c.solutions);
    Ok(CheckRow {
        puzzle: puzzle.to_line(),
        label: puzzle.label.clone(),
        status,
        solutions: c.solutions,
        reason: reason.or_else(|| {
            (status == Status::None).then(|| "no solution exists (found by search)".to_string())
        }),
    })
}

/// Result of `sudolab count`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CountRow {
    pub puzzle: String,
    pub label: Option<String>,
    pub solutions: u64,
    pub capped: bool,
}

pub fn count_row(puzzle: &Puzzle, choice: EngineChoice, cap: u64) -> Result<CountRow, Disagreement> {
    let c = count(puzzle, choice, cap)?;
    Ok(CountRow {
        puzzle: puzzle.to_line(),
        label: puzzle.label.clone(),
        solutions: c.solutions,
        capped: c.capped,
    })
}

/// Result of `sudolab solve`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolveRow {
    pub puzzle: String,
    pub label: Option<String>,
    pub solution: Option<String>,
}

pub fn solve_row(puzzle: &Puzzle, choice: EngineChoice) -> Result<SolveRow, Disagreement> {
    Ok(SolveRow {
        puzzle: puzzle.to_line(),
        label: puzzle.label.clone(),
        solution: solve(puzzle, choice)?.map(|s| s.to_line()),
    })
}

/// Result of `sudolab backbone` (and `count --remove-edges`): count and fixed
/// cells of a puzzle, relaxed or not.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BackboneRow {
    pub puzzle: String,
    pub label: Option<String>,
    /// Removed edges, `[a, b]` 0-based cell indices.
    pub removed: Vec<[usize; 2]>,
    pub solutions: u64,
    pub capped: bool,
    /// 0-based indices of the non-given fixed cells.
    pub fixed: Vec<usize>,
}

/// Analyses a puzzle with `removed` edges taken out of its graph.
pub fn backbone_row(
    puzzle: &Puzzle,
    removed: &[(usize, usize)],
    choice: EngineChoice,
    cap: u64,
) -> Result<Result<BackboneRow, Disagreement>, String> {
    let r = RelaxedInstance::new(puzzle, removed)?;
    Ok(analyse_relaxed(&r, choice, cap).map(|a| BackboneRow {
        puzzle: puzzle.to_line(),
        label: puzzle.label.clone(),
        removed: r.removed().iter().map(|&(a, b)| [a, b]).collect(),
        solutions: a.count.solutions,
        capped: a.count.capped,
        fixed: a.fixed,
    }))
}
