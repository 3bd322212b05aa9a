//! Puzzle generators: minimal unique puzzles by removal, Fletcher et al.'s
//! Algorithm 2, Xu & Xu's "No Brute-Force" generator, generation towards
//! metric targets, and the canonical form of a puzzle.
//!
//! * [`minimal`]: the core. A seeded random solution grid, then every given
//!   (or every symmetric orbit of givens) is tried once in seeded random
//!   order and removed when the puzzle stays unique; the result is minimal
//!   (no single given can be removed). A removal asks one question, "is
//!   there a solution that differs at the removed cell?": one bitset search
//!   with that cell forbidden its solution value
//!   ([`crate::bitset::sudoku::Solver::has_other_solution`]), not a count.
//! * [`fletcher`]: Fletcher, Johnson & Morrison, "A Sudoku Difficulty
//!   Metric", §"Generation Algorithm", Algorithm 2: random permutations on
//!   the diagonal boxes, the first 100 Dancing Links completions, one picked
//!   at random, cells removed in random order with a Dancing Links
//!   uniqueness check; scored by the oracle model (Table 1 levels Cinch …
//!   Crazy).
//! * [`xu`]: Xu & Xu, "No Brute-Force" model, §2.2 a–c: random givens added
//!   to an empty grid, each checked by naked and hidden singles only, until
//!   singles solve it (returned there for Easy); givens removed while the
//!   solution stays unique, regenerated when the technique engine (Table 1
//!   techniques, up to WXYZ-wing and forcing chains) cannot solve the result;
//!   rated by technique weights (Table 3), repeated until the requested level
//!   comes out.
//! * [`chang`]: Chang, Fan & Sun's standard generator as far as our copy of
//!   the paper describes it (§2.2: `k` levels are the `k` equal percentile
//!   intervals of hsolve difficulty over a sample of typical puzzles): minimal
//!   puzzles rated by hsolve until one falls in the requested quartile; the
//!   quartiles are measured on the QQWing-generated reference set.
//! * [`aim`]: `FIELD OP VALUE` targets on any metric of the registry, reached by
//!   generate-and-test plus a local search on the givens, always bounded by
//!   a number of tries and a time limit.
//! * `--dedup` keeps pairwise inequivalent puzzles by their canonical form
//!   ([`crate::grid::canon`]: the minimal lexicographic form of a 9×9 or 4×4
//!   puzzle under the 2·6⁸ grid symmetries and digit relabelling).
//!
//! Randomness: puzzle `i` of a run with seed `S` uses
//! [`derive_seed`]`(S, i)` and its attempt `a` uses `derive_seed` of that and
//! `a`, so the output is the same whatever the number of threads (rayon
//! runs puzzles in parallel). Only a time limit that cuts a search short
//! makes the result depend on the machine's speed. Decisions where the papers
//! are unclear are listed in `docs/generation.md`.

pub(crate) mod aim;
pub(crate) mod bounded;
pub(crate) mod chang;
pub(crate) mod fletcher;
pub(crate) mod minimal;
pub(crate) mod pseudo;
pub(crate) mod xu;
pub(crate) use aim::parse_target;
pub use aim::{Target, TargetError, TargetFields, TargetOp, TargetValue};
pub use aim::{known_fields, numeric_field, numeric_fields};

use crate::engine::Disagreement;
use crate::graph::derive_seed;
use crate::grid::{Puzzle, Solution};
use crate::limits::{self, OptionError};
use crate::metrics::Metric;
use crate::seed::SeededRng;
use rand::SeedableRng;
use rayon::prelude::*;
use serde::Serialize;
use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How puzzles are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Random solution grid, then minimal removal checked by the bitset search.
    Minimal,
    /// Fletcher et al. Algorithm 2 (Dancing Links), scored by the oracle model.
    Fletcher,
    /// Xu & Xu §2.2 (no brute force), rated by technique weights.
    Xu,
    /// Chang et al.'s pseudo-generator: mutants of a source puzzle with
    /// about its hsolve difficulty.
    Pseudo,
    /// Chang et al.'s standard generator: minimal puzzles rated by hsolve,
    /// retried until the requested quartile level (level1..level4) comes out.
    Chang,
}

impl Method {
    /// Every variant, in declaration order.
    pub const ALL: [Method; 5] = [
        Method::Minimal,
        Method::Fletcher,
        Method::Xu,
        Method::Pseudo,
        Method::Chang,
    ];
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::Minimal => "minimal",
            Method::Fletcher => "fletcher",
            Method::Xu => "xu",
            Method::Pseudo => "pseudo",
            Method::Chang => "chang",
        })
    }
}

/// Symmetry of the givens: cells are removed (and, for Xu, added) in orbits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Symmetry {
    /// No symmetry.
    #[default]
    None,
    /// Half-turn rotation about the centre.
    Rot180,
    /// Quarter-turn rotation about the centre.
    Rot90,
    /// Reflection in the main diagonal.
    Diagonal,
    /// Reflection in the vertical centre line.
    Mirror,
}

impl Symmetry {
    /// Every variant, in declaration order.
    pub const ALL: [Symmetry; 5] = [
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Diagonal,
        Symmetry::Mirror,
    ];
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Mirror => "mirror",
        })
    }
}

impl Symmetry {
    /// [`Symmetry::orbits`], computed once per symmetry for the sides of
    /// the generators' orders (4, 9, 16; other sides are computed anew).
    pub(crate) fn orbits_cached(self, side: usize) -> Cow<'static, [Vec<usize>]> {
        static TABLES: [[OnceLock<Vec<Vec<usize>>>; 3]; 5] =
            [const { [const { OnceLock::new() }; 3] }; 5];
        let order = match side {
            4 => 0,
            9 => 1,
            16 => 2,
            _ => return Cow::Owned(self.orbits(side)),
        };
        let table = &TABLES[self as usize][order];
        Cow::Borrowed(table.get_or_init(|| self.orbits(side)))
    }

    /// The orbits of the cells of a `side × side` grid, each ascending,
    /// ordered by their first cell.
    pub fn orbits(self, side: usize) -> Vec<Vec<usize>> {
        let last = side - 1;
        let mut seen = vec![false; side * side];
        let mut out = Vec::new();
        for cell in 0..side * side {
            if seen[cell] {
                continue;
            }
            let (r, c) = (cell / side, cell % side);
            let images: Vec<(usize, usize)> = match self {
                Symmetry::None => vec![(r, c)],
                Symmetry::Rot180 => vec![(r, c), (last - r, last - c)],
                Symmetry::Rot90 => vec![(r, c), (c, last - r), (last - r, last - c), (last - c, r)],
                Symmetry::Diagonal => vec![(r, c), (c, r)],
                Symmetry::Mirror => vec![(r, c), (r, last - c)],
            };
            let mut orbit: Vec<usize> = images.iter().map(|&(r, c)| r * side + c).collect();
            orbit.sort_unstable();
            orbit.dedup();
            for &o in &orbit {
                seen[o] = true;
            }
            out.push(orbit);
        }
        out
    }
}

/// A difficulty level of the oracle model (Fletcher), of the technique
/// weights (Xu; `challenging` exists in both) or an hsolve quartile (Chang).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Oracle level (Fletcher): singles suffice.
    Cinch,
    /// Oracle level (Fletcher).
    Confusing,
    /// Oracle level (Fletcher) or weights level (Xu).
    Challenging,
    /// Oracle level (Fletcher).
    Crazy,
    /// Weights level (Xu).
    Easy,
    /// Weights level (Xu).
    Intermediate,
    /// Weights level (Xu).
    Hard,
    /// Chang level 1: hsolve below the first quartile of the reference set
    /// (`chang::QUARTILES`).
    Level1,
    /// Chang level 2: hsolve from the first quartile to below the median.
    Level2,
    /// Chang level 3: hsolve from the median to below the third quartile.
    Level3,
    /// Chang level 4: hsolve at or above the third quartile.
    Level4,
}

impl Level {
    /// The targets (`FIELD OP VALUE` texts) this level asks for with
    /// `method`; `None` when the method does not define the level.
    fn targets(self, method: Method) -> Option<Vec<String>> {
        if method == Method::Chang {
            let (lo, hi) = chang::range(self)?;
            let mut out = Vec::new();
            if lo > 0.0 {
                out.push(format!("{}>={lo}", Metric::Hsolve));
            }
            if hi.is_finite() {
                out.push(format!("{}<{hi}", Metric::Hsolve));
            }
            return Some(out);
        }
        let field = match method {
            Method::Fletcher => Metric::OracleLevel,
            Method::Xu => Metric::WeightsLevel,
            Method::Minimal | Method::Pseudo | Method::Chang => return None,
        };
        let value = match (method, self) {
            (Method::Fletcher, Level::Cinch) => "Cinch",
            (Method::Fletcher, Level::Confusing) => "Confusing",
            (Method::Fletcher, Level::Challenging) => "Challenging",
            (Method::Fletcher, Level::Crazy) => "Crazy",
            (Method::Xu, Level::Easy) => "Easy",
            (Method::Xu, Level::Intermediate) => "Intermediate",
            (Method::Xu, Level::Hard) => "Hard",
            (Method::Xu, Level::Challenging) => "Challenging",
            _ => return None,
        };
        Some(vec![format!("{field}={value}")])
    }
}

impl Level {
    /// Every level, in declaration order.
    pub const ALL: [Level; 11] = [
        Level::Cinch,
        Level::Confusing,
        Level::Challenging,
        Level::Crazy,
        Level::Easy,
        Level::Intermediate,
        Level::Hard,
        Level::Level1,
        Level::Level2,
        Level::Level3,
        Level::Level4,
    ];
}

/// Why `level` does not apply to `method`, with the calls that give it:
/// the methods that define it, and the score's level of the same name.
fn level_message(level: Level, method: Method) -> String {
    let takers: Vec<String> = [Method::Fletcher, Method::Xu, Method::Chang]
        .into_iter()
        .filter(|&m| level.targets(m).is_some())
        .map(|m| format!("--method {m} --level {level}"))
        .collect();
    let name = level.to_string();
    let mut ways = takers;
    if crate::score::scale_names(4)
        .iter()
        .any(|n| n.eq_ignore_ascii_case(&name))
    {
        let mut score_name = name.clone();
        score_name[..1].make_ascii_uppercase();
        ways.push(format!(
            "--target 'score_level={score_name}' for the difficulty score's level"
        ));
    }
    format!(
        "level {level} does not apply to method {method}; use {} (fletcher takes cinch, confusing, challenging, crazy; xu takes easy, intermediate, hard, challenging; chang takes level1, level2, level3, level4; minimal and pseudo take none: use --target)",
        ways.join(", or ")
    )
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Cinch => "cinch",
            Level::Confusing => "confusing",
            Level::Challenging => "challenging",
            Level::Crazy => "crazy",
            Level::Easy => "easy",
            Level::Intermediate => "intermediate",
            Level::Hard => "hard",
            Level::Level1 => "level1",
            Level::Level2 => "level2",
            Level::Level3 => "level3",
            Level::Level4 => "level4",
        })
    }
}

/// A generation request that cannot be run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GenerateError {
    /// The engines disagreed while a candidate was rated (a bug, with the case).
    #[error("{0}")]
    Disagreement(#[from] Disagreement),
    /// The call was cancelled ([`crate::Cancellable::cancel_all`]) before every puzzle was made.
    #[error("cancelled")]
    Cancelled,
    /// The requested order (box side) is not 2, 3 or 4.
    #[error("order {0} is not supported by the generators (expected 2, 3 or 4)")]
    Order(usize),
    /// A count out of its range ([`GenerateOptions::check`]).
    #[error(transparent)]
    Option(#[from] OptionError),
    /// A level the method does not define (e.g. `easy` with Fletcher's
    /// oracle levels).
    #[error("{}", level_message(*.level, *.method))]
    Level {
        /// The level asked for.
        level: Level,
        /// The method it was asked of.
        method: Method,
    },
    /// A level was asked for at an order other than 3 (the papers' levels
    /// are calibrated on 9×9 puzzles); holds the order.
    #[error("levels are calibrated on 9×9 puzzles only (order 3), not order {0}")]
    LevelOrder(usize),
    /// Fletcher's generator with `fletcher.completions` = 0 (the paper's `N`).
    #[error("Fletcher's generator needs at least 1 completion to pick from")]
    ZeroCompletions,
    /// Method pseudo without a source puzzle.
    #[error("method pseudo needs a source puzzle to mutate")]
    NoSource,
    /// The source puzzle cannot be used; holds the puzzle line and why.
    #[error("source puzzle {0}")]
    Source(String),
    /// A source puzzle was given to a method other than pseudo.
    #[error("a source puzzle is only used by method pseudo, not {0}")]
    SourceUnused(Method),
    /// Method pseudo with a symmetry other than `none`.
    #[error("method pseudo keeps the source's layout: symmetry must be none, not {0}")]
    PseudoSymmetry(Symmetry),
    /// The pseudo tolerance (`pseudo.tolerance`) is negative, infinite or NaN.
    #[error("tolerance must be a finite number >= 0, not {0}")]
    Tolerance(f64),
    /// The target confidence (`aim.confidence`) is not in [0.5, 1).
    #[error("confidence must be at least 0.5 and below 1 (or 0 for the point values), not {0}")]
    Confidence(f64),
    /// `run.dedup` at an order without a canonical form (16×16); holds the order.
    #[error(
        "--dedup needs the canonical form, which exists for orders 2 and 3 (4×4, 9×9), not order {0}"
    )]
    DedupOrder(usize),
    /// A target that cannot be parsed or evaluated.
    #[error(transparent)]
    Target(#[from] TargetError),
}

/// What to generate: the kind of puzzle (`method`, `order`, `symmetry`,
/// `minimal`) at the top, then the run's budget ([`RunOptions`]), what the
/// puzzles must reach ([`AimOptions`]) and the parameters of the methods
/// that have some ([`FletcherOptions`], [`PseudoOptions`]).
#[derive(Debug, Clone, PartialEq)]
pub struct GenerateOptions {
    /// The generator (default [`Method::Minimal`]).
    pub method: Method,
    /// Box side: 2 (4×4), 3 (9×9) or 4 (16×16) (default 3).
    pub order: usize,
    /// Symmetry of the givens (default none).
    pub symmetry: Symmetry,
    /// Every puzzle returned is minimal (each given needed for uniqueness):
    /// candidates that are not (symmetric puzzles, Xu's, local-search
    /// mutants, pseudo mutants) are refused like a missed target (default
    /// false; the `minimal` and `fletcher` methods without symmetry always
    /// make minimal puzzles).
    pub minimal: bool,
    /// How many puzzles, from which seed, within which budget.
    pub run: RunOptions,
    /// The level and targets the puzzles must reach.
    pub aim: AimOptions,
    /// Parameters of Fletcher's generator.
    pub fletcher: FletcherOptions,
    /// Parameters of the pseudo-generator.
    pub pseudo: PseudoOptions,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            method: Method::Minimal,
            order: 3,
            symmetry: Symmetry::None,
            minimal: false,
            run: RunOptions::default(),
            aim: AimOptions::default(),
            fletcher: FletcherOptions::default(),
            pseudo: PseudoOptions::default(),
        }
    }
}

impl GenerateOptions {
    /// Ceiling of `run.count` (`generate -n`, Python's `count=`): the
    /// puzzles are held until written.
    pub const MAX_GENERATED: usize = crate::limits::MAX_GENERATED;

    /// Refuses counts no run takes: `run.count` outside
    /// `1..=`[`MAX_GENERATED`](GenerateOptions::MAX_GENERATED) (named
    /// `count`), no attempt (`max tries`), relaxation samples for targets
    /// above [`MAX_SAMPLES`](crate::RelaxOptions::MAX_SAMPLES) (`samples`).
    /// `validate` checks the rest of a request.
    pub fn check(&self) -> Result<(), OptionError> {
        limits::at_least("count", self.run.count, 1)?;
        limits::at_most("count", self.run.count, limits::MAX_GENERATED)?;
        limits::at_least("max tries", self.run.max_tries, 1)?;
        limits::at_most("samples", self.aim.relax_samples, limits::MAX_SAMPLES)
    }
}

/// The size, budget and reproducibility of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOptions {
    /// Puzzles to generate (default 1).
    pub count: usize,
    /// Run seed: puzzle `i` uses `derive_seed(seed, i)` (default 0).
    pub seed: u64,
    /// Attempts (fresh puzzles plus local-search mutations) per puzzle when a
    /// level or target is asked for; with `dedup`, indices dropped before the
    /// run stops; pseudo: mutants tried in all (default 1000).
    pub max_tries: usize,
    /// Wall-clock limit of the whole run; a puzzle still searching then
    /// returns its closest attempt (default none).
    pub time_limit: Option<Duration>,
    /// Keep only pairwise inequivalent puzzles (under [`Puzzle::canonical`]): indices
    /// are generated in order and an index whose puzzle is equivalent to an
    /// earlier kept one is dropped, until `count` puzzles are kept or
    /// `max_tries` indices have been dropped (default false).
    pub dedup: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            count: 1,
            seed: 0,
            max_tries: 1000,
            time_limit: None,
            dedup: false,
        }
    }
}

/// What the puzzles must reach: a level and targets, all ANDed, and how
/// relaxation targets are measured.
#[derive(Debug, Clone, PartialEq)]
pub struct AimOptions {
    /// Oracle level (Fletcher), weights level (Xu) or hsolve quartile level
    /// (Chang) to retry for (default none).
    pub level: Option<Level>,
    /// Targets all puzzles must meet (ANDed; default none).
    pub targets: Vec<Target>,
    /// Edges removed per relaxation for relaxation targets (`mean_fixed`…;
    /// default 45).
    pub relax_k: usize,
    /// Relaxations per puzzle for relaxation targets (default 100).
    pub relax_samples: usize,
    /// A target on a stochastic metric (a human model's mean over random
    /// runs, a relaxation mean, the oracle level) holds only when it holds
    /// with this probability under the metric's standard error (default
    /// 0.95, one-sided for a bound: `value − 1.645·se` past the cut for
    /// `>=`); `None` judges the point values alone, as the papers'
    /// generate-and-test does (`docs/generation.md`).
    pub confidence: Option<f64>,
}

/// The confidence targets on stochastic metrics hold with by default.
const DEFAULT_CONFIDENCE: f64 = 0.95;

impl AimOptions {
    /// The confidence targets on stochastic metrics hold with by default
    /// ([`AimOptions::confidence`]).
    pub const DEFAULT_CONFIDENCE: f64 = DEFAULT_CONFIDENCE;
}

impl Default for AimOptions {
    fn default() -> Self {
        AimOptions {
            level: None,
            targets: Vec::new(),
            relax_k: 45,
            relax_samples: 100,
            confidence: Some(DEFAULT_CONFIDENCE),
        }
    }
}

/// Parameters of Fletcher's generator ([`Method::Fletcher`]).
#[derive(Debug, Clone, PartialEq)]
pub struct FletcherOptions {
    /// Dancing Links completions to pick the solution grid from (the
    /// paper's `N`; default 100).
    pub completions: usize,
}

impl Default for FletcherOptions {
    fn default() -> Self {
        FletcherOptions { completions: 100 }
    }
}

/// Parameters of the pseudo-generator ([`Method::Pseudo`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PseudoOptions {
    /// The puzzle to mutate (its order must be the run's `order`; default
    /// none, which method pseudo refuses).
    pub source: Option<Puzzle>,
    /// The numeric field (a rating, relaxation or `givens` field, as for
    /// targets) whose value a mutant must keep near the source's (default
    /// `hsolve`, as in Chang et al.).
    pub metric: Metric,
    /// Largest relative difference of `metric` from the source's kept
    /// (default 0.2).
    pub tolerance: f64,
}

impl Default for PseudoOptions {
    fn default() -> Self {
        PseudoOptions {
            source: None,
            metric: Metric::Hsolve,
            tolerance: 0.2,
        }
    }
}

/// One generated puzzle (stable field names: JSON/CSV columns).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Generated {
    /// The puzzle as one line (row-major, `.` for an empty cell).
    pub puzzle: String,
    /// The generator that made it.
    pub method: Method,
    /// The run's seed; with `index` it reproduces this puzzle.
    pub seed: u64,
    /// Position in the run, from 0 (pseudo: the rank of this kept mutant).
    pub index: usize,
    /// Number of given cells.
    pub givens: usize,
    /// No single given can be removed without losing uniqueness.
    pub minimal: bool,
    /// Symmetry of the givens the run asked for.
    pub symmetry: Symmetry,
    /// Puzzles generated or mutated for this one.
    pub attempts: usize,
    /// Wall-clock milliseconds spent on this puzzle (pseudo: since the run
    /// started, when this mutant was kept).
    pub millis: f64,
    /// The level and every target are met (always true without any).
    pub reached: bool,
    /// Distance to the targets (0 when reached; see `aim::distance()`).
    pub distance: f64,
    /// Accepted local-search mutations per mutation tried (`None` without
    /// mutations).
    pub acceptance: Option<f64>,
    /// The method's own level: oracle level (Fletcher), weights level (Xu)
    /// or hsolve quartile level (Chang: `level1`..`level4`).
    pub method_level: Option<String>,
    /// The method's own score: oracle score (Fletcher), weights score (Xu),
    /// hsolve difficulty (Chang) or the pseudo-generator's metric. (The
    /// calibrated `score` is a target field like any other.)
    pub method_score: Option<f64>,
    /// The value of every target field, by field name.
    #[serde(flatten)]
    pub metrics: aim::Values,
}

/// A unique puzzle with its solution, as the methods produce it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The puzzle (givens only).
    pub puzzle: Puzzle,
    /// Its unique solution.
    pub solution: Solution,
}

/// Checks a request before any work.
pub(crate) fn validate(opts: &GenerateOptions) -> Result<(), GenerateError> {
    if !(2..=4).contains(&opts.order) {
        return Err(GenerateError::Order(opts.order));
    }
    opts.check()?;
    match (&opts.pseudo.source, opts.method) {
        (None, Method::Pseudo) => return Err(GenerateError::NoSource),
        (Some(p), Method::Pseudo) if p.order() != opts.order => {
            return Err(GenerateError::Source(format!(
                "{}: order {} but order {} was asked for",
                p.to_line(),
                p.order(),
                opts.order
            )));
        }
        (Some(_), m) if m != Method::Pseudo => return Err(GenerateError::SourceUnused(m)),
        _ => {}
    }
    if opts.method == Method::Pseudo && opts.symmetry != Symmetry::None {
        return Err(GenerateError::PseudoSymmetry(opts.symmetry));
    }
    if !(opts.pseudo.tolerance.is_finite() && opts.pseudo.tolerance >= 0.0) {
        return Err(GenerateError::Tolerance(opts.pseudo.tolerance));
    }
    if let Some(c) = opts.aim.confidence.filter(|c| !(0.5..1.0).contains(c)) {
        return Err(GenerateError::Confidence(c));
    }
    if opts.run.dedup && opts.order > 3 {
        return Err(GenerateError::DedupOrder(opts.order));
    }
    if opts.method == Method::Fletcher && opts.fletcher.completions == 0 {
        return Err(GenerateError::ZeroCompletions);
    }
    if let Some(level) = opts.aim.level {
        if level.targets(opts.method).is_none() {
            return Err(GenerateError::Level {
                level,
                method: opts.method,
            });
        }
        if opts.order != 3 {
            return Err(GenerateError::LevelOrder(opts.order));
        }
    }
    Ok(())
}

/// Generates `opts.run.count` puzzles, in parallel, in index order (for the
/// pseudo-generator, up to `opts.run.count`: fewer when its tries run out).
///
/// With `opts.run.dedup` the rows are the first `opts.run.count` indices whose
/// puzzle is not equivalent to an earlier index's, so a row's `index` may
/// skip the dropped ones; the result depends on the seed only, not on the
/// thread count (indices are generated in batches and judged in index
/// order). After `opts.run.max_tries` dropped indices, or at the time limit,
/// fewer rows are returned.
///
/// ```
/// use sudolab::{Engines, GenerateOptions, RunOptions, Status, generate, parse_puzzle};
///
/// let opts = GenerateOptions {
///     run: RunOptions { count: 2, seed: 1, ..RunOptions::default() },
///     ..GenerateOptions::default()
/// };
/// let rows = generate(&opts)?;
/// assert_eq!(rows.len(), 2);
/// for row in &rows {
///     let p = parse_puzzle(&row.puzzle)?;
///     assert_eq!(Engines::all().status(&p)?, Status::Unique);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn generate(opts: &GenerateOptions) -> Result<Vec<Generated>, GenerateError> {
    generate_each(opts, || {})
}

/// [`generate`], calling `on_done` as each puzzle's search ends (for a
/// progress bar: a search towards a rare target may take many seconds
/// per puzzle).
///
/// # Errors
/// As [`generate`].
pub fn generate_each(
    opts: &GenerateOptions,
    on_done: impl Fn() + Sync,
) -> Result<Vec<Generated>, GenerateError> {
    validate(opts)?;
    let mut targets = opts.aim.targets.clone();
    for text in opts
        .aim
        .level
        .and_then(|l| l.targets(opts.method))
        .into_iter()
        .flatten()
    {
        targets.push(parse_target(&text)?);
    }
    let evaluator = aim::Evaluator::new(opts, &targets)?;
    let deadline = opts.run.time_limit.map(|t| Instant::now() + t);
    if opts.method == Method::Pseudo {
        return pseudo::pseudo(opts, &evaluator, deadline);
    }
    let batch = |range: std::ops::Range<usize>| -> Result<Vec<Generated>, GenerateError> {
        range
            .into_par_iter()
            .map(|i| {
                if crate::cancel::cancelled() {
                    return Err(GenerateError::Cancelled);
                }
                let row = generate_one(opts, &evaluator, i, deadline);
                on_done();
                Ok(row?)
            })
            .collect()
    };
    if !opts.run.dedup {
        return batch(0..opts.run.count);
    }
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<Generated> = Vec::with_capacity(opts.run.count);
    let (mut next, mut dropped) = (0, 0);
    while out.len() < opts.run.count && dropped < opts.run.max_tries {
        if next > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        // A little slack beyond what is missing, so a duplicate rarely
        // costs another round; the batch size does not change the result.
        let missing = opts.run.count - out.len();
        let end = next + missing + missing / 8 + 1;
        let rows = batch(next..end)?;
        let forms: Vec<Option<String>> = rows
            .par_iter()
            .map(|r| {
                crate::grid::parse_puzzle(&r.puzzle)
                    .ok()
                    .and_then(|p| p.canonical().ok())
                    .map(|c| c.to_line())
            })
            .collect();
        for (row, form) in rows.into_iter().zip(forms) {
            if out.len() == opts.run.count || dropped == opts.run.max_tries {
                break;
            }
            // Validation refuses orders without a canonical form, so `None`
            // cannot happen; such a row would be kept.
            if form.is_none_or(|f| seen.insert(f)) {
                out.push(row);
            } else {
                dropped += 1;
            }
        }
        next = end;
    }
    Ok(out)
}

/// One puzzle of a run: a single attempt without targets, else the search.
fn generate_one(
    opts: &GenerateOptions,
    evaluator: &aim::Evaluator,
    index: usize,
    deadline: Option<Instant>,
) -> Result<Generated, Disagreement> {
    let start = Instant::now();
    let seed = derive_seed(opts.run.seed, index as u64);
    let found = aim::search(opts, evaluator, seed, deadline)?;
    let c = &found.candidate;
    let minimal = found.minimal_known || minimal::is_minimal(&c.puzzle, &c.solution);
    let (level, score) = evaluator.method_rating(&found.row);
    Ok(Generated {
        puzzle: c.puzzle.to_line(),
        method: opts.method,
        seed: opts.run.seed,
        index,
        givens: c.puzzle.givens(),
        minimal,
        symmetry: opts.symmetry,
        attempts: found.attempts,
        millis: start.elapsed().as_secs_f64() * 1e3,
        reached: found.distance == 0.0,
        distance: found.distance,
        acceptance: (found.mutations > 0).then(|| found.accepted as f64 / found.mutations as f64),
        method_level: level,
        method_score: score,
        metrics: found.metrics,
    })
}

impl GenerateOptions {
    /// One fresh puzzle of `self.method` (of `self.order`, with
    /// `self.symmetry`) from an attempt seed, without targets, rating or
    /// deduplication: the step [`generate`] repeats. The flag says whether
    /// the method guarantees minimality (every given tried once, uniqueness
    /// being the removal test).
    ///
    /// ```
    /// use sudolab::{Engines, GenerateOptions, Status};
    ///
    /// let (candidate, minimal) = GenerateOptions::default().make_one(7);
    /// assert!(minimal);
    /// assert_eq!(Engines::all().status(&candidate.puzzle)?, Status::Unique);
    /// # Ok::<(), sudolab::Disagreement>(())
    /// ```
    pub fn make_one(&self, seed: u64) -> (Candidate, bool) {
        let (c, minimal, _) = make_traced(self, seed);
        (c, minimal)
    }
}

/// [`GenerateOptions::make_one`] with the removal sequence of the minimal-puzzle methods
/// ([`minimal::minimal_puzzle_traced`]; empty for the other methods).
pub(crate) fn make_traced(opts: &GenerateOptions, seed: u64) -> (Candidate, bool, Vec<usize>) {
    let mut rng = SeededRng::seed_from_u64(seed);
    match opts.method {
        Method::Minimal | Method::Chang => {
            let (c, removed) = minimal::minimal_puzzle_traced(opts.order, opts.symmetry, &mut rng);
            (c, opts.symmetry == Symmetry::None, removed)
        }
        Method::Fletcher => (
            fletcher::fletcher_puzzle(
                opts.order,
                opts.symmetry,
                opts.fletcher.completions,
                &mut rng,
            ),
            opts.symmetry == Symmetry::None,
            Vec::new(),
        ),
        Method::Xu => (
            xu::xu_puzzle(
                opts.order,
                opts.symmetry,
                opts.aim.level == Some(Level::Easy),
                &mut rng,
            ),
            opts.aim.level != Some(Level::Easy) && opts.symmetry == Symmetry::None,
            Vec::new(),
        ),
        Method::Pseudo => {
            let source = opts.pseudo.source.as_ref().and_then(|p| {
                let solution = crate::bitset::sudoku::solve(p)?;
                Some(Candidate {
                    puzzle: p.clone(),
                    solution,
                })
            });
            match source.and_then(|s| pseudo::mutant(&s, opts, seed).or(Some(s))) {
                Some(c) => (c, false, Vec::new()),
                // No usable source (validation refuses it): a fresh minimal puzzle.
                None => (
                    minimal::minimal_puzzle(opts.order, Symmetry::None, &mut rng),
                    true,
                    Vec::new(),
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn orbits_partition_the_grid() {
        for sym in [
            Symmetry::None,
            Symmetry::Rot180,
            Symmetry::Rot90,
            Symmetry::Diagonal,
            Symmetry::Mirror,
        ] {
            for side in [4, 9, 16] {
                let orbits = sym.orbits(side);
                let mut all: Vec<usize> = orbits.iter().flatten().copied().collect();
                all.sort_unstable();
                assert_eq!(all, (0..side * side).collect::<Vec<_>>(), "{sym} {side}");
            }
        }
        // 9×9: rot180 pairs every cell but the centre; rot90 has 20 orbits of
        // 4 plus the centre; the diagonal fixes its 9 cells; the mirror its
        // middle column.
        assert_eq!(Symmetry::Rot180.orbits(9).len(), 41);
        assert_eq!(Symmetry::Rot90.orbits(9).len(), 21);
        assert_eq!(Symmetry::Diagonal.orbits(9).len(), 45);
        assert_eq!(Symmetry::Mirror.orbits(9).len(), 45);
        assert_eq!(Symmetry::Rot180.orbits(9)[0], vec![0, 80]);
        assert_eq!(Symmetry::Rot90.orbits(9)[0], vec![0, 8, 72, 80]);
    }

    #[test]
    fn default_options_are_the_documented_ones() {
        let o = GenerateOptions::default();
        assert_eq!(
            (o.method, o.order, o.symmetry, o.minimal),
            (Method::Minimal, 3, Symmetry::None, false)
        );
        assert_eq!(
            (
                o.run.count,
                o.run.seed,
                o.run.max_tries,
                o.run.time_limit,
                o.run.dedup
            ),
            (1, 0, 1000, None, false)
        );
        assert_eq!(o.aim.level, None);
        assert!(o.aim.targets.is_empty());
        assert_eq!((o.aim.relax_k, o.aim.relax_samples), (45, 100));
        assert_eq!(o.fletcher.completions, 100);
        assert_eq!(
            (o.pseudo.source, o.pseudo.metric, o.pseudo.tolerance),
            (None, Metric::Hsolve, 0.2)
        );
    }

    #[test]
    fn bad_requests_are_errors() {
        let base = GenerateOptions::default();
        let order6 = GenerateOptions {
            order: 6,
            ..base.clone()
        };
        assert_eq!(validate(&order6), Err(GenerateError::Order(6)));
        let none = GenerateOptions {
            run: RunOptions {
                count: 0,
                ..RunOptions::default()
            },
            ..base.clone()
        };
        assert_eq!(
            validate(&none),
            Err(GenerateError::Option(OptionError::BelowMinimum {
                name: "count".into(),
                value: 0,
                min: 1
            }))
        );
        let wrong = GenerateOptions {
            method: Method::Fletcher,
            aim: AimOptions {
                level: Some(Level::Easy),
                ..AimOptions::default()
            },
            ..base.clone()
        };
        assert!(matches!(validate(&wrong), Err(GenerateError::Level { .. })));
        let order2 = GenerateOptions {
            method: Method::Xu,
            aim: AimOptions {
                level: Some(Level::Easy),
                ..AimOptions::default()
            },
            order: 2,
            ..base
        };
        assert_eq!(validate(&order2), Err(GenerateError::LevelOrder(2)));
    }
}
