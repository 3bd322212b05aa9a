//! Result types shared by the two engines: the SAT engine ([`crate::sat`],
//! varisat) and the Dancing Links engine ([`crate::dlx`]).
//!
//! Both engines answer the same questions — solve, count with a cap, decide
//! uniqueness, find the fixed cells of a relaxed instance — and return these
//! same types, so their answers can be compared field by field.

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
