//! The documented ceilings of the count parameters, one definition for the
//! command line and the Python package: a request above a ceiling is refused
//! before any work, so no setting of a flag, a model file or a keyword
//! argument can ask for unbounded memory or time.
//!
//! Every options struct checks itself (`RelaxOptions::check`,
//! `RateOptions::check`, `ScoreOptions::check`, `AnalyzeOptions::check`,
//! `GenerateOptions::check`) against these ceilings and its other limits
//! (at least one sample, a scale of 2 to 10 levels), and refuses with an
//! [`OptionError`]: the command line and the Python package call the same
//! check and print the same message.

/// Ceiling of every samples parameter (`relax`, `analyze`, `report
/// --samples` and `--sweep-samples`, `generate`'s `--samples`, a score
/// model's `params.samples`, Python's `samples=`): each sample keeps its
/// removed edges and fixed cells until the summary, about 1 KB on a 9×9
/// grid at k = 45, so this is about 100 MB.
pub(crate) const MAX_SAMPLES: usize = 100_000;
/// Ceiling of `rate --runs` and `report --runs` (runs of a randomised
/// human model per puzzle).
pub(crate) const MAX_RUNS: usize = 10_000;
/// Ceiling of `generate -n` (puzzles held until written).
pub(crate) const MAX_GENERATED: usize = 1_000_000;

/// Why an options struct was refused by its `check()` (`RelaxOptions`,
/// `RateOptions`, `ScoreOptions`, `AnalyzeOptions`, `GenerateOptions`, a
/// score model's `params`): the parameter, its value and the limit, in one
/// wording the command line and the Python package print alike, the
/// parameter named without `--` or `=` (`samples 1000000000: at most 100000
/// (the documented ceiling of samples)`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OptionError {
    /// A count above its documented ceiling (the constants of this module).
    #[error("{name} {value}: at most {max} (the documented ceiling of {name})")]
    AboveCeiling {
        /// The parameter (`samples`, `runs`, `count`, `params.samples`).
        name: String,
        /// The value asked for.
        value: usize,
        /// Its ceiling.
        max: usize,
    },
    /// A count below its least meaningful value (no sample, no run).
    #[error("{name} {value}: at least {min}")]
    BelowMinimum {
        /// The parameter.
        name: String,
        /// The value asked for.
        value: usize,
        /// The least value.
        min: usize,
    },
    /// A value outside its range (the levels of a score scale).
    #[error("{name} {value}: expected {min} to {max}")]
    OutOfRange {
        /// The parameter.
        name: String,
        /// The value asked for.
        value: usize,
        /// The least value.
        min: usize,
        /// The greatest value.
        max: usize,
    },
    /// A model parameter that is NaN or infinite.
    #[error("{name} = {value} is not a finite number")]
    NotFinite {
        /// The parameter (`oracle parameter alpha`).
        name: String,
        /// The value given.
        value: f64,
    },
    /// A number that must be positive and finite (a precision in cells).
    #[error("{name} {value}: expected a positive number of cells, e.g. 1")]
    NotPositive {
        /// The parameter (`precision`).
        name: String,
        /// The value given.
        value: f64,
    },
    /// More edges to remove than the Sudoku graph of the puzzles has.
    #[error("{name} {value}: exceeds the {edges} edges of the {side}×{side} Sudoku graph")]
    TooManyEdges {
        /// The parameter (`k`, `params.k`).
        name: String,
        /// The value asked for.
        value: usize,
        /// The graph's edges.
        edges: usize,
        /// The grid's side (9 for 9×9).
        side: usize,
    },
}

impl OptionError {
    /// The same error with its parameter named inside `field` (`samples`
    /// of a model's `params` is `params.samples`).
    pub fn within(mut self, field: &str) -> OptionError {
        let name = match &mut self {
            OptionError::AboveCeiling { name, .. }
            | OptionError::BelowMinimum { name, .. }
            | OptionError::OutOfRange { name, .. }
            | OptionError::NotFinite { name, .. }
            | OptionError::NotPositive { name, .. }
            | OptionError::TooManyEdges { name, .. } => name,
        };
        *name = format!("{field}.{name}");
        self
    }
}

/// Refuses `value` of parameter `name` above its ceiling `max`.
pub(crate) fn at_most(name: &str, value: usize, max: usize) -> Result<(), OptionError> {
    if value > max {
        return Err(OptionError::AboveCeiling {
            name: name.to_string(),
            value,
            max,
        });
    }
    Ok(())
}

/// Refuses `value` of parameter `name` below `min`.
pub(crate) fn at_least(name: &str, value: usize, min: usize) -> Result<(), OptionError> {
    if value < min {
        return Err(OptionError::BelowMinimum {
            name: name.to_string(),
            value,
            min,
        });
    }
    Ok(())
}

/// Refuses a samples parameter outside `1..=`[`MAX_SAMPLES`].
pub(crate) fn check_samples(name: &str, samples: usize) -> Result<(), OptionError> {
    at_least(name, samples, 1)?;
    at_most(name, samples, MAX_SAMPLES)
}

/// Refuses a `k` (edges removed per relaxation) beyond the edges of the
/// Sudoku graph of order `order` (3 for 9×9): each of its side² cells sees
/// the others of its row and column (2·(side − 1)) and of its box outside
/// them ((order − 1)²), so the graph has side²·(3·side − 2·order − 1)/2
/// edges (810 for 9×9).
pub(crate) fn check_k(name: &str, k: usize, order: usize) -> Result<(), OptionError> {
    let side = order * order;
    let edges = side * side * (3 * side).saturating_sub(2 * order + 1) / 2;
    if k > edges {
        return Err(OptionError::TooManyEdges {
            name: name.to_string(),
            value: k,
            edges,
            side,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_parameter_in_one_wording() {
        assert_eq!(
            check_samples("samples", 1_000_000_000)
                .unwrap_err()
                .to_string(),
            "samples 1000000000: at most 100000 (the documented ceiling of samples)"
        );
        assert_eq!(
            check_samples("samples", 0).unwrap_err().to_string(),
            "samples 0: at least 1"
        );
        assert_eq!(check_samples("samples", MAX_SAMPLES), Ok(()));
        assert_eq!(
            check_samples("samples", 0)
                .unwrap_err()
                .within("params")
                .to_string(),
            "params.samples 0: at least 1"
        );
        assert_eq!(
            check_k("k", 811, 3).unwrap_err().to_string(),
            "k 811: exceeds the 810 edges of the 9×9 Sudoku graph"
        );
        assert_eq!(check_k("k", 810, 3), Ok(()));
        // The graphs of the other orders, as `Geometry` builds them.
        for order in 2..=5 {
            let edges = crate::grid::Geometry::of(order).edges().len();
            assert_eq!(check_k("k", edges, order), Ok(()), "order {order}");
            assert!(check_k("k", edges + 1, order).is_err(), "order {order}");
        }
    }
}
