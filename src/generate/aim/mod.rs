//! Targets on puzzle metrics and the search that reaches them.
//!
//! A target is `FIELD OP VALUE` with `OP` one of `= != < <= > >=`; several
//! targets are ANDed. `FIELD` is a metric of the registry
//! ([`crate::metrics::Metric`]) computed by a human model (e.g.
//! `oracle_level`, `weights_score`, `nishio4`, `hsolve`, `givens`), by the
//! relaxation (`mean_fixed`, `mean_solutions`, `median_solutions`,
//! `mean_extra`, `p_unique`, `capped`, at `k` edges over a number of
//! samples) or by the calibrated score (`score`, `score_level` on the
//! default four-level scale, `se_equivalent`). Levels compare by rank (`oracle_level>=Challenging`:
//! Cinch < Confusing < Challenging < Crazy; Easy < Intermediate < Hard <
//! Challenging for `weights_level`; Easy < Medium < Hard < Expert for
//! `score_level`); other text and booleans take `=` and `!=`.
//! Only the models a target names are run.
//!
//! [`distance()`] says how far a puzzle is from the targets: 0 when all hold,
//! else the sum over the missed ones of the gap scaled by `max(|value|, 1)`
//! (1 per missed text or boolean target, and [`MISSING`] when the model
//! could not rate the puzzle); a missed level is measured on the score
//! behind it in widths of a middle level (`level_gap`), or in rank steps
//! when there is none. With `GenerateOptions::minimal`, a candidate that is
//! not minimal is reduced to a minimal one, or refused at [`NOT_MINIMAL`].
//!
//! [`search()`] is generate-and-test plus a local search: every fourth
//! attempt (and the first) is a fresh puzzle of the method, the others
//! mutate the closest puzzle so far — move, add or remove a given (a whole
//! symmetric orbit) keeping the solution unique — and a mutant is accepted
//! when it is closer, or as close (a plateau move: a minimal puzzle loses a
//! given only after a move has made one redundant). When every missed target
//! says which way to go ([`need`]: a score too high, a level too hard, too
//! many givens), the change follows it: a given added to make the puzzle
//! easier, removed or moved to make it harder (only moved when the puzzle is
//! minimal). A move that loses uniqueness adds back a given that rules out
//! every other solution (found by enumerating up to `MOVE_SOLUTIONS`).
//!
//! A fresh minimal puzzle that is too hard is walked back: the puzzles on
//! the way from its solution grid to it (the grid without the first `k`
//! removed givens, each unique) are rated in a binary search for the step
//! where it becomes too hard, and the first one inside the targets is a hit
//! (most minimal puzzles that miss `weights_level=Hard` overshoot it, and a
//! fifth of those pass through it on the way). Such a puzzle is not minimal,
//! so there is no walk with `--minimal`; with a walk, every second attempt
//! is fresh. With targets that only bound the technique-weight score from
//! above, the rating stops once the score is past them
//! ([`super::bounded`]); such a miss is rated in full if it is returned.
//!
//! A target on a stochastic field (a human model's mean over random runs,
//! the oracle level, a relaxation mean) holds only with the asked
//! confidence (`AimOptions::confidence`, default 0.95) under the field's
//! standard error, on the candidate's rating and then on 8 re-ratings with
//! other seeds that the search has not selected on
//! ([`distance::holds_probability`], [`Evaluator`]; `docs/methods.md`
//! §3.10): a puzzle on the edge of a cut, or one whose rating came out
//! lucky, is not a hit, so re-rating a kept puzzle with any seed agrees.
//!
//! A level alone is pure generate-and-test, as both papers describe. The
//! search always ends: after `max_tries` attempts (fresh puzzles, mutations
//! and walked-back puzzles), at the time limit, or on reaching the targets;
//! it returns the closest puzzle.

//!
//! The parts: [`spec`] parses targets against the registry, [`mod@distance`]
//! measures misses and says which way to move, [`evaluator`] computes the
//! metrics of a candidate, [`mod@search`] runs the local search.

pub(crate) mod distance;
pub(crate) mod evaluator;
pub(crate) mod search;
pub(crate) mod spec;
pub(crate) mod values;

pub(crate) use evaluator::Evaluator;
pub(crate) use search::{mutate, search};
pub(crate) use spec::parse_target;
pub use spec::{Op as TargetOp, Target, TargetError, TargetValue};
pub use spec::{known_fields, numeric_field, numeric_fields};
pub use values::Values as TargetFields;
pub(crate) use values::Values;
