//! The documented ceilings of the count parameters, one definition for the
//! command line and the Python package: a request above a ceiling is refused
//! before any work, so no setting of a flag, a model file or a keyword
//! argument can ask for unbounded memory or time.

/// Ceiling of every samples parameter (`relax`, `analyze`, `report
/// --samples` and `--sweep-samples`, `generate`'s `--samples`, a score
/// model's `params.samples`, Python's `samples=`): each sample keeps its
/// removed edges and fixed cells until the summary, about 1 KB on a 9×9
/// grid at k = 45, so this is about 100 MB.
pub const MAX_SAMPLES: usize = 100_000;
/// Ceiling of `rate --runs` and `report --runs` (runs of a randomised
/// human model per puzzle).
pub const MAX_RUNS: usize = 10_000;
/// Ceiling of `generate -n` (puzzles held until written).
pub const MAX_GENERATED: usize = 1_000_000;
/// Ceiling of `eval`/`fit --bootstrap` (resamples held per statistic).
pub const MAX_BOOTSTRAP: usize = 1_000_000;
/// Ceiling of the bootstrap's work: resamples × rows, the pairs drawn per
/// statistic (`eval --bootstrap` on a large table), so a ceiling-sized flag
/// on a million rows is refused rather than run for hours.
pub const MAX_BOOTSTRAP_PAIRS: usize = 2_000_000_000;
