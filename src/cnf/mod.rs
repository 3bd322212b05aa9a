//! CNF encodings of Sudoku (Patti §4, after Lynce & Ouaknine 2006; `docs/methods.md` §1).
//!
//! All encodings share one variable numbering, so any model decodes to a
//! grid: `var(r, c, d) = (r-1)·N² + (c-1)·N + d` (1-based; 729 variables for
//! 9×9), and every DIMACS file declares `p cnf N³ M` even when an encoding
//! leaves variables unused.
//!
//! * [`Encoding::Max`], the *maximal* encoding: at-least-one (ALO) for every
//!   cell and every unit-digit pair (4·N² clauses of length N), pairwise
//!   at-most-one (AMO) for the same (4·N²·C(N,2) binary clauses), and one
//!   unit clause per given: 11988 + g clauses for 9×9.
//! * [`Encoding::Min`], the *minimal* (candidate-based) encoding: candidates
//!   are computed from the givens first; givens get no clauses; ALO and AMO
//!   range over candidates only. An ALO clause of length 0 means the puzzle is
//!   contradictory and is reported as an error, never emitted.
//! * [`Encoding::LoMin`], Lynce & Ouaknine's own "minimal" encoding: cell ALO
//!   plus row/column/box pairwise AMO over all N³ variables, plus givens:
//!   8829 + g clauses for 9×9.
//!
//! Every clause carries its [`ClauseKind`], from which the clause-length
//! histogram of the ALO clauses (Patti §7.1) is computed in `histogram`.
//!
//! [`write_dimacs`] writes the DIMACS text of an encoding straight into a
//! byte buffer, without building the [`Cnf`]: the encoders emit into a
//! `Sink` that is either a `Cnf` or a text writer copying each literal's
//! text from a table made once per order. The minimal encoding first
//! computes its candidates as bitmasks, per empty cell and per unit and
//! digit (`MinCandidates`); each nonzero mask is one ALO clause with its
//! pairwise AMO clauses, so the clause count of the `p cnf` header comes
//! from popcounts before any clause is written, straight after the header.
//! The maximal and `lo-min` encodings, whose clauses are the same for every
//! puzzle but the givens, copy that text from a template made once per
//! order. The bytes are those of [`Cnf::to_dimacs_bytes`] (a test compares
//! them).
//!
//! One file per part: `formula.rs` (the [`Cnf`] type and its DIMACS text),
//! `encoders.rs` (the three encodings), `stream.rs` ([`write_dimacs`]),
//! `dimacs.rs` (reading DIMACS and models) and `histogram.rs` (clause
//! lengths).

mod dimacs;
mod encoders;
mod formula;
mod histogram;
mod stream;

pub use dimacs::{DimacsError, ModelError};
pub use encoders::encode;
pub(crate) use encoders::encode_givens;
pub use formula::Cnf;
pub use histogram::{BadCuts, ClassCuts, ClauseCounts, ClauseRow, Histogram};
pub use histogram::{MeanDistribution, mean_distribution};

use crate::grid::Contradiction;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Which CNF encoding to build (default the minimal one, Patti's).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    /// The maximal encoding (Patti's "maximum encoding").
    Max,
    /// The candidate-based minimal encoding (Patti's "minimum encoding").
    #[default]
    Min,
    /// Lynce & Ouaknine's "minimal" encoding: cell ALO + unit AMO + givens.
    LoMin,
}

impl Encoding {
    /// Name as on the command line and in the DIMACS comment: `max`, `min`,
    /// `lo-min`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Max => "max",
            Encoding::Min => "min",
            Encoding::LoMin => "lo-min",
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Encoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "max" | "maximal" => Ok(Encoding::Max),
            "min" | "minimal" => Ok(Encoding::Min),
            "lo-min" => Ok(Encoding::LoMin),
            _ => Err(format!(
                "unknown encoding {s:?} (expected max, min or lo-min)"
            )),
        }
    }
}

/// What a clause expresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClauseKind {
    /// A cell holds at least one digit.
    CellAlo,
    /// A unit holds a digit at least once.
    UnitAlo,
    /// A cell holds at most one digit (binary).
    CellAmo,
    /// A unit holds a digit at most once (binary).
    UnitAmo,
    /// A given (unit clause).
    Given,
    /// A candidate a pencilmark grid removes from an empty cell (negative
    /// unit clause; the maximal and `lo-min` encodings only, the minimal one
    /// leaves its variable out).
    Removed,
}

impl ClauseKind {
    /// Whether the clause is an at-least-one clause (cell or unit ALO).
    pub(crate) fn is_alo(self) -> bool {
        matches!(self, ClauseKind::CellAlo | ClauseKind::UnitAlo)
    }
}

/// Why a puzzle has no encoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// The puzzle is contradictory on its face (`Puzzle::check`): the minimal
    /// encoding and the clause-length histogram refuse it.
    #[error("puzzle is contradictory: {0}")]
    Contradiction(#[from] Contradiction),
}

/// `var(r, c, d)` for a 0-based cell index and digit `d` in `1..=N`.
#[inline]
pub(crate) fn var(side: usize, cell: usize, digit: u8) -> i32 {
    (cell * side + digit as usize) as i32
}

/// Cell and digit of a variable (inverse of [`var`]); `None` out of range.
pub(crate) fn cell_digit(side: usize, var: usize) -> Option<(usize, u8)> {
    if var == 0 || var > side * side * side {
        return None;
    }
    let v = var - 1;
    Some((v / side, (v % side + 1) as u8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Puzzle, parse_puzzle};

    #[test]
    fn empty_grid_counts() {
        let p = Puzzle::empty(3);
        assert_eq!(encode(&p, Encoding::Max).unwrap().num_clauses(), 11988);
        assert_eq!(encode(&p, Encoding::LoMin).unwrap().num_clauses(), 8829);
        let min = encode(&p, Encoding::Min).unwrap();
        // Nothing given: the minimal encoding is the maximal one without givens.
        assert_eq!(min.num_clauses(), 11988);
        assert_eq!(
            encode(&Puzzle::empty(2), Encoding::Max)
                .unwrap()
                .num_clauses(),
            4 * 16 + 4 * 16 * 6
        );
    }

    #[test]
    fn variable_formula() {
        assert_eq!(var(9, 0, 1), 1);
        assert_eq!(var(9, 80, 9), 729);
        // r2c3d4 = (2-1)*81 + (3-1)*9 + 4
        assert_eq!(var(9, 9 + 2, 4), 81 + 18 + 4);
        for v in 1..=729 {
            let (c, d) = cell_digit(9, v).unwrap();
            assert_eq!(var(9, c, d) as usize, v);
        }
        assert_eq!(cell_digit(9, 730), None);
    }

    #[test]
    fn min_encoding_unit_alo_counts() {
        let p = parse_puzzle(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .unwrap();
        let cnf = encode(&p, Encoding::Min).unwrap();
        let g = p.givens();
        assert_eq!(cnf.count_kind(ClauseKind::CellAlo), 81 - g);
        assert_eq!(cnf.count_kind(ClauseKind::UnitAlo), 3 * (81 - g));
        assert_eq!(cnf.count_kind(ClauseKind::Given), 0);
        let max = encode(&p, Encoding::Max).unwrap();
        assert_eq!(max.num_clauses(), 11988 + g);
    }

    #[test]
    fn contradictory_puzzle_refused_by_min() {
        let mut p = Puzzle::empty(3);
        p.set(0, 1);
        p.set(1, 1);
        assert!(encode(&p, Encoding::Min).is_err());
        assert_eq!(encode(&p, Encoding::Max).unwrap().num_clauses(), 11990);
    }
}
