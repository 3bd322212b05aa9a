//! The order in which a puzzle's cells are filled, predicted two ways
//! (Pelánek, "Difficulty Rating of Sudoku Puzzles: An Overview and
//! Evaluation", §3.1 and Fig. 6). The SiSuS model predicts it as the mean step
//! at which each cell is filled over its randomized runs (§3.1; Fig. 6 plots
//! it against the mean order of human solvers, r = 0.84 / 0.94 / 0.86 on its
//! three puzzles). Constraint relaxation (§3.2) predicts it from fixedness:
//! a cell fixed in more relaxed samples is taken as filled earlier. Human
//! fill-order records are not among the shared data sets, so this compares
//! the two predictions with each other: both as average ranks over the
//! non-given cells (1 = filled first) and their Spearman correlation.
//! The same SiSuS runs give Fig. 7's curve: the mean number of possibilities
//! for the next step, step by step (§3.1, "dependency").

use crate::grid::Puzzle;
use crate::human::sisus::{SisusOptions, sisus};
use crate::relax::{RelaxError, RelaxOptions, relax};
use crate::stats::{average_ranks, spearman};
use serde::Serialize;

/// How both orders are computed.
#[derive(Debug, Clone, Default)]
pub struct FillOrderOptions {
    /// The SiSuS runs (paper: 30).
    pub sisus: SisusOptions,
    /// The relaxation whose per-cell fixedness ranks the cells (paper: k = 45).
    pub relax: RelaxOptions,
    /// Seed of the SiSuS runs.
    pub seed: u64,
}

/// Both predicted fill orders of one puzzle, cell by cell in row-major
/// order; `None` on the givens.
#[derive(Debug, Clone, Serialize)]
pub struct FillOrderRow {
    /// The puzzle as one line.
    pub puzzle: String,
    /// Its label, if the input gave one.
    pub label: Option<String>,
    /// SiSuS: mean step at which the cell is filled.
    pub model_step: Vec<Option<f64>>,
    /// SiSuS order as an average rank among the non-given cells (1 = first).
    pub model_rank: Vec<Option<f64>>,
    /// Fraction of relaxed samples in which the cell is fixed.
    pub fixedness: Vec<Option<f64>>,
    /// Fixedness order as an average rank (1 = the most often fixed cell).
    pub fixedness_rank: Vec<Option<f64>>,
    /// Spearman correlation of the two orders over the non-given cells
    /// (`None` when either is constant).
    pub spearman: Option<f64>,
    /// SiSuS: the mean number of possibilities for the next step at steps
    /// 1, 2, … (Pelánek Fig. 7; one step per empty cell).
    pub possibilities: Vec<f64>,
}

/// Why a fill order could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum FillOrderError {
    /// The relaxation refused the puzzle (not unique, contradictory, `k` too
    /// large) or its engines disagreed.
    #[error(transparent)]
    Relax(#[from] RelaxError),
    /// No SiSuS run finished.
    #[error("SiSuS: {0}")]
    Model(String),
}

/// Ranks of `values` among the cells where they are `Some`, `None` elsewhere.
fn ranks_where_present(values: &[Option<f64>]) -> Vec<Option<f64>> {
    let present: Vec<f64> = values.iter().flatten().copied().collect();
    let mut ranks = average_ranks(&present).into_iter();
    values
        .iter()
        .map(|v| v.and_then(|_| ranks.next()))
        .collect()
}

/// Both predicted fill orders of `puzzle` (one with a unique solution).
///
/// ```
/// use sudolab::{FillOrderOptions, fill_order, parse_puzzle};
/// let wiki = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// let p = parse_puzzle(wiki)?;
/// let mut opts = FillOrderOptions::default();
/// opts.relax.samples = 50;
/// opts.sisus.runs = 5;
/// let row = fill_order(&p, &opts)?;
/// // The 51 empty cells have a rank in both orders, the givens none.
/// assert_eq!(row.model_rank.iter().flatten().count(), 51);
/// assert_eq!(row.fixedness_rank.iter().flatten().count(), 51);
/// assert_eq!(row.model_rank[0], None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn fill_order(
    puzzle: &Puzzle,
    opts: &FillOrderOptions,
) -> Result<FillOrderRow, FillOrderError> {
    let (report, _) = relax(puzzle, &opts.relax)?;
    let engine = crate::engine::Engines::default().primary().implementation();
    let solution = engine.solve(puzzle).ok_or(RelaxError::NoSolution)?;
    let model = sisus(puzzle, &solution, &opts.sisus, opts.seed)
        .map_err(|e| FillOrderError::Model(e.to_string()))?;
    let fixedness: Vec<Option<f64>> = (report.summary.fixedness.iter().enumerate())
        .map(|(c, &f)| (!puzzle.is_given(c)).then_some(f))
        .collect();
    // The most often fixed cell is predicted first: rank the negated fixedness.
    let negated: Vec<Option<f64>> = fixedness.iter().map(|f| f.map(|x| -x)).collect();
    let fixedness_rank = ranks_where_present(&negated);
    let model_rank = ranks_where_present(&model.fill_order);
    let (a, b): (Vec<f64>, Vec<f64>) = model
        .fill_order
        .iter()
        .zip(&negated)
        .filter_map(|(m, f)| Some(((*m)?, (*f)?)))
        .unzip();
    Ok(FillOrderRow {
        puzzle: report.puzzle,
        label: report.label,
        model_step: model.fill_order,
        possibilities: model.possibilities,
        model_rank,
        fixedness,
        fixedness_rank,
        spearman: spearman(&a, &b).ok(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;

    #[test]
    fn ranks_skip_the_givens_and_average_ties() {
        let r = ranks_where_present(&[None, Some(3.0), Some(1.0), None, Some(1.0)]);
        assert_eq!(r, [None, Some(3.0), Some(1.5), None, Some(1.5)]);
    }

    #[test]
    fn both_orders_rank_every_empty_cell_once() {
        // The SiSuS model's example puzzle in lib.rs: 30 givens, 51 empty cells.
        let p = parse_puzzle(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        let opts = FillOrderOptions {
            relax: RelaxOptions {
                k: 45,
                samples: 50,
                ..RelaxOptions::default()
            },
            ..FillOrderOptions::default()
        };
        let row = fill_order(&p, &opts).unwrap();
        for ranks in [&row.model_rank, &row.fixedness_rank] {
            let present: Vec<f64> = ranks.iter().flatten().copied().collect();
            assert_eq!(present.len(), 51);
            // Average ranks of 51 cells sum to 51·52/2 whatever the ties.
            assert!((present.iter().sum::<f64>() - 1326.0).abs() < 1e-9);
        }
        for c in 0..81 {
            assert_eq!(row.model_step[c].is_none(), p.is_given(c));
            assert_eq!(row.fixedness[c].is_none(), p.is_given(c));
        }
        // Both predict the same kind of thing: the orders agree more than not.
        let rho = row.spearman.unwrap();
        assert!(rho > 0.0 && rho <= 1.0, "{rho}");
        // Seeded: the same options give the same row.
        let again = fill_order(&p, &opts).unwrap();
        assert_eq!(again.model_step, row.model_step);
        assert_eq!(again.fixedness, row.fixedness);
    }

    #[test]
    fn a_puzzle_with_two_solutions_is_refused() {
        let p = parse_puzzle(&".".repeat(81)).unwrap();
        assert!(matches!(
            fill_order(&p, &FillOrderOptions::default()),
            Err(FillOrderError::Relax(RelaxError::NotUnique))
        ));
    }
}
