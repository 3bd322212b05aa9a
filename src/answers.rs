//! The questions every engine answers ([`SudokuEngine`]: solve, count with a
//! cap, analyze a relaxed instance) and the types of the answers: a solution
//! count (exact or capped), the uniqueness status of a puzzle, and the count
//! plus fixed cells of a relaxed instance.
//!
//! A leaf module: the engines ([`crate::sat`], [`crate::dlx`],
//! [`crate::bitset`]) implement the trait and return these types, and
//! [`crate::engine`] compares them, so no engine imports another or the
//! comparison layer.

use crate::graph::RelaxedInstance;
use crate::grid::{Puzzle, Solution};
use serde::Serialize;
use std::fmt;
use std::ops::ControlFlow;

/// A solution count, exact or cut off at a cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Count {
    /// Solutions found: the exact number, or the cap when `capped`.
    pub solutions: u64,
    /// True when counting stopped at the cap (there are at least `solutions`).
    pub capped: bool,
}

impl Count {
    /// True when the count passed 2^64 − 1: engines saturate there, so the
    /// number is a lower bound, never an exact count.
    pub fn saturated(&self) -> bool {
        self.solutions == u64::MAX
    }

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Exactly one solution.
    Unique,
    /// Two or more solutions.
    Multiple,
    /// No solution.
    None,
}

impl Status {
    /// The status of a puzzle with `solutions` solutions (counted up to 2 or more).
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
    /// Proper colourings, capped.
    pub count: Count,
    /// Non-given cells whose value is the same in every solution, ascending
    /// (empty when there is no solution).
    pub fixed: Vec<usize>,
}

/// The questions every engine answers. Each engine ([`Engine::Sat`](crate::Engine::Sat),
/// [`Engine::Dlx`](crate::Engine::Dlx), [`Engine::Bitset`](crate::Engine::Bitset); [`Engine::implementation`](crate::Engine::implementation) is its
/// implementation) implements it on its own;
/// [`Engines`](crate::engine::Engines) runs several and compares their answers.
pub trait SudokuEngine: Sync {
    /// One solution of `p`, verified against it, if any.
    fn solve(&self, p: &Puzzle) -> Option<Solution>;
    /// Number of solutions of `p`, up to `cap` (0 = no cap); a contradictory
    /// puzzle has 0.
    fn count(&self, p: &Puzzle, cap: u64) -> Count;
    /// Count (capped at `cap`, 0 = no cap) and fixed non-given cells of a
    /// relaxed instance; with no solution, count 0 and no fixed cell.
    fn analyze_relaxed(&self, r: &RelaxedInstance, cap: u64) -> InstanceAnalysis;
}

/// One more solution found: counts it into `found` and says whether to stop,
/// which is once `found` reaches `cap` (0 = no cap). The stop rule of every
/// capped count of the engines.
#[inline]
pub(crate) fn tally(found: &mut u64, cap: u64) -> ControlFlow<()> {
    *found += 1;
    if cap > 0 && *found >= cap {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}
