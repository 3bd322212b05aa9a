//! Clause-length distribution of the at-least-one clauses (Patti §7.1).
//!
//! Only ALO clauses count: AMO clauses are all binary. For the minimal
//! encoding a short ALO clause is a cell with few candidates or a digit with
//! few places in a unit, which is what makes a puzzle easy for people. The
//! classes are Patti's: short = 1–2, medium = 3–5, long = 6–9 literals. Her
//! bounds are lost from the text of §7.1, but these are the ones that
//! reproduce every value of her Table 1 on the released sites (within 0.5
//! points, `tests/patti_clauses.rs`) and her short-clause cut points
//! 22.6 / 17.6; 1–3 / 4–6 / 7–9 does not. Other orders scale them
//! (`⌈2N/9⌉`, `⌈5N/9⌉`); the cut points are configurable. For the maximal
//! encoding the histogram is trivially all length N plus the givens' unit
//! clauses, offered for completeness.

use super::{Cnf, Encoding};
use serde::Serialize;

/// Upper bounds of the short and medium classes (inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClassCuts {
    /// Longest short clause (default `⌈2N/9⌉`, 2 for 9×9: [`ClassCuts::patti`]).
    pub short_max: usize,
    /// Longest medium clause (default `⌈5N/9⌉`, 5 for 9×9); longer ones are long.
    pub medium_max: usize,
}

impl ClassCuts {
    /// Patti's classes, 1–2 / 3–5 / 6–9 for 9×9, scaled to `1..=side` for
    /// other orders (1 / 2–3 / 4 for 4×4, 1–4 / 5–9 / 10–16 for 16×16).
    pub fn patti(side: usize) -> ClassCuts {
        ClassCuts {
            short_max: (2 * side).div_ceil(9),
            medium_max: (5 * side).div_ceil(9),
        }
    }

    /// Parses `A,B` (short = 1..=A, medium = A+1..=B).
    pub fn parse(s: &str) -> Result<ClassCuts, BadCuts> {
        let bad = || BadCuts(s.to_string());
        let (a, b) = s.split_once(',').ok_or_else(bad)?;
        let short_max: usize = a.trim().parse().map_err(|_| bad())?;
        let medium_max: usize = b.trim().parse().map_err(|_| bad())?;
        if short_max == 0 || medium_max < short_max {
            return Err(bad());
        }
        Ok(ClassCuts {
            short_max,
            medium_max,
        })
    }
}

/// Cut points that are not two numbers `1 <= A <= B`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cut points {0:?}: expected two numbers A,B with 1 <= A <= B, e.g. 3,6")]
pub struct BadCuts(pub String);

/// Histogram of ALO clause lengths of one encoded puzzle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Histogram {
    /// `counts[i]` = number of ALO clauses of length `i + 1`, for `1..=N`.
    pub counts: Vec<u64>,
    /// Counted clauses, the sum of `counts`.
    pub total: u64,
    /// Percentage of the counted clauses in the short class (0 when there are none).
    pub short_pct: f64,
    /// Percentage in the medium class.
    pub medium_pct: f64,
    /// Percentage in the long class.
    pub long_pct: f64,
}

impl Histogram {
    /// Histogram of the ALO clauses (plus, for the maximal encoding, the
    /// givens' unit clauses) of `cnf`.
    pub fn of(cnf: &Cnf, encoding: Encoding, side: usize, cuts: ClassCuts) -> Histogram {
        let mut counts = vec![0u64; side];
        for (kind, clause) in cnf.iter() {
            let counted =
                kind.is_alo() || (encoding == Encoding::Max && kind == super::ClauseKind::Given);
            if counted && !clause.is_empty() && clause.len() <= side {
                counts[clause.len() - 1] += 1;
            }
        }
        Histogram::from_counts(counts, cuts)
    }

    /// Histogram of given length counts (`counts[i]` for length `i + 1`), with
    /// the class percentages under `cuts`.
    pub(crate) fn from_counts(counts: Vec<u64>, cuts: ClassCuts) -> Histogram {
        let total: u64 = counts.iter().sum();
        let sum = |lo: usize, hi: usize| -> u64 {
            counts
                .iter()
                .enumerate()
                .filter(|(i, _)| (lo..=hi).contains(&(i + 1)))
                .map(|(_, &c)| c)
                .sum()
        };
        let pct = |c: u64| {
            if total == 0 {
                0.0
            } else {
                100.0 * c as f64 / total as f64
            }
        };
        let short = sum(1, cuts.short_max);
        let medium = sum(cuts.short_max + 1, cuts.medium_max);
        let long = total - short - medium;
        Histogram {
            short_pct: pct(short),
            medium_pct: pct(medium),
            long_pct: pct(long),
            counts,
            total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::encode;
    use crate::grid::Puzzle;

    #[test]
    fn classes_sum_to_100() {
        let h = Histogram::from_counts(vec![1, 1, 1, 1, 1, 1, 1, 1, 2], ClassCuts::patti(9));
        assert_eq!(h.total, 10);
        assert!((h.short_pct - 20.0).abs() < 1e-9);
        assert!((h.medium_pct - 30.0).abs() < 1e-9);
        assert!((h.long_pct - 50.0).abs() < 1e-9);
    }

    #[test]
    fn empty_grid_is_all_long() {
        let p = Puzzle::empty(3);
        let cnf = encode(&p, Encoding::Min).unwrap();
        let h = Histogram::of(&cnf, Encoding::Min, 9, ClassCuts::patti(9));
        assert_eq!(h.counts[8], 324);
        assert_eq!(h.total, 324);
        assert_eq!(h.long_pct, 100.0);
        let cuts = |side| {
            let c = ClassCuts::patti(side);
            (c.short_max, c.medium_max)
        };
        assert_eq!(cuts(9), (2, 5));
        assert_eq!(cuts(4), (1, 3));
        assert_eq!(cuts(16), (4, 9));
        assert_eq!(cuts(25), (6, 14));
        assert!(ClassCuts::parse("6,3").is_err());
        assert_eq!(ClassCuts::parse("2, 5").unwrap().medium_max, 5);
    }
}

/// Result of `sudolab clauses` for one puzzle (stable field names).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct ClauseRow {
    /// The puzzle as one line (stable output column).
    pub puzzle: String,
    /// The puzzle's label from the input line, if any.
    pub label: Option<String>,
    /// Encoding the counts are of (`min`, `max`, `lo-min`).
    pub encoding: Encoding,
    /// Sizes and ALO length distribution, flattened into the row.
    #[serde(flatten)]
    pub counts: ClauseCounts,
}

/// Size of an encoding and the length distribution of its ALO clauses.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct ClauseCounts {
    /// Variables declared (N³).
    pub variables: usize,
    /// Clauses of the encoding, all kinds.
    pub clauses: usize,
    /// `alo_lengths[i]` = ALO clauses of length `i + 1`.
    pub alo_lengths: Vec<u64>,
    /// Share of ALO clauses in the short class (percent).
    pub short_pct: f64,
    /// Share of ALO clauses in the medium class (percent).
    pub medium_pct: f64,
    /// Share of ALO clauses in the long class (percent).
    pub long_pct: f64,
}

impl ClauseRow {
    /// Encodes a puzzle and computes its clause-length distribution.
    ///
    /// # Errors
    /// A contradictory puzzle is refused whatever the encoding: its histogram
    /// would describe a formula with no solution.
    pub fn of(
        puzzle: &crate::grid::Puzzle,
        encoding: Encoding,
        cuts: ClassCuts,
    ) -> Result<ClauseRow, super::EncodeError> {
        puzzle.check()?;
        let cnf = super::encode(puzzle, encoding)?;
        let h = Histogram::of(&cnf, encoding, puzzle.side(), cuts);
        Ok(ClauseRow {
            puzzle: puzzle.to_line(),
            label: puzzle.label.clone(),
            encoding,
            counts: ClauseCounts {
                variables: cnf.num_vars(),
                clauses: cnf.num_clauses(),
                alo_lengths: h.counts,
                short_pct: h.short_pct,
                medium_pct: h.medium_pct,
                long_pct: h.long_pct,
            },
        })
    }
}

/// Mean clause-length distribution over several puzzles: the mean of the
/// per-puzzle percentages (the shape of Patti's per-site Table 1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeanDistribution {
    /// Number of puzzles averaged.
    pub puzzles: usize,
    /// Mean percentage of ALO clauses of each length `1..=N`.
    pub mean_length_pct: Vec<f64>,
    /// Mean over the puzzles of the short-class percentage.
    pub short_pct: f64,
    /// Mean over the puzzles of the medium-class percentage.
    pub medium_pct: f64,
    /// Mean over the puzzles of the long-class percentage.
    pub long_pct: f64,
}

/// Mean of the rows' distributions; `None` for no rows.
///
/// ```
/// use sudolab::{ClassCuts, ClauseRow, Encoding, Puzzle, mean_distribution};
///
/// let rows: Vec<ClauseRow> = Puzzle::examples()[..2]
///     .iter()
///     .map(|p| ClauseRow::of(p, Encoding::Min, ClassCuts::patti(p.side())))
///     .collect::<Result<_, _>>()?;
/// let mean = mean_distribution(&rows).expect("two rows");
/// assert_eq!(mean.puzzles, 2);
/// assert!((mean.mean_length_pct.iter().sum::<f64>() - 100.0).abs() < 1e-9);
/// assert!(mean_distribution(&[]).is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn mean_distribution(rows: &[ClauseRow]) -> Option<MeanDistribution> {
    let first = rows.first()?;
    let n = rows.len() as f64;
    let side = first.counts.alo_lengths.len();
    let mut mean = vec![0.0; side];
    for r in rows.iter().map(|r| &r.counts) {
        let total: u64 = r.alo_lengths.iter().sum();
        for (i, &c) in r.alo_lengths.iter().enumerate().take(side) {
            if total > 0 {
                mean[i] += 100.0 * c as f64 / total as f64 / n;
            }
        }
    }
    Some(MeanDistribution {
        puzzles: rows.len(),
        mean_length_pct: mean,
        short_pct: rows.iter().map(|r| r.counts.short_pct).sum::<f64>() / n,
        medium_pct: rows.iter().map(|r| r.counts.medium_pct).sum::<f64>() / n,
        long_pct: rows.iter().map(|r| r.counts.long_pct).sum::<f64>() / n,
    })
}
