//! sudolab: why is a Sudoku hard?
//!
//! A puzzle is parsed into a [`Puzzle`] ([`parse_puzzle`], [`read_puzzles`]);
//! [`encode`] writes it as CNF for any SAT solver; three engines
//! ([`Engine::Sat`], [`Engine::Dlx`], [`Engine::Bitset`]) check, count and
//! solve it and check each other through [`Engines`]; [`relax`] removes
//! random edges of its Sudoku graph and measures how the solutions multiply
//! (Pelánek §3.2); [`rate`] rates it with models of human solving; [`Metric`]
//! names every metric; [`score`] is one calibrated difficulty score over
//! them; [`analyze`] makes the rows of a data set and [`Driver`] runs a
//! whole data set; [`evaluate`], [`classify`] and [`fit_linear`] compare
//! metrics with labels; [`generate`] makes puzzles and [`Puzzle::canonical`] gives
//! the canonical form; [`Format::render`] writes rows as JSON, JSON Lines or
//! CSV. Every name is at the crate root; the layers behind it and the data
//! flow are drawn in `docs/architecture.md`.
//!
//! Open a puzzle, check it with every engine, and encode it:
//!
//! ```
//! use sudolab::{Encoding, Engines, Status, encode, parse_puzzle};
//!
//! let p = parse_puzzle(
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
//! )?;
//! assert_eq!(p.givens(), 30);
//! // Every engine agrees that the solution is unique.
//! assert_eq!(Engines::all().status(&p)?, Status::Unique);
//! // The maximal encoding: 729 variables, 11988 clauses plus one per given.
//! let cnf = encode(&p, Encoding::Max)?;
//! assert_eq!((cnf.num_vars(), cnf.num_clauses()), (729, 11988 + 30));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Relax it, rate it with the human models, and score it:
//!
//! ```
//! use sudolab::{RateOptions, RelaxOptions, ScoreOptions, Technique, parse_puzzle, rate, relax, score};
//!
//! let p = parse_puzzle(
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
//! )?;
//! // Remove 45 random edges, 20 times: more solutions, fewer fixed cells.
//! let opts = RelaxOptions { k: 45, samples: 20, ..RelaxOptions::default() };
//! let (report, samples) = relax(&p, &opts)?;
//! assert_eq!(samples.len(), 20);
//! assert!(report.summary.mean_solutions >= 1.0);
//! assert!(report.summary.mean_fixed <= 51.0);
//! // Singles alone solve this one: its hardest technique is a naked single.
//! let row = rate(&p, &RateOptions::for_models("weights,baseline")?);
//! assert_eq!(row.ratings.weights.hardest_technique, Some(Technique::NakedSingle));
//! // One score, its level and its Sukaku Explainer equivalent.
//! let s = score(&p, ScoreOptions::shipped())?;
//! assert_eq!(s.score.score_level, "Easy");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]
#![warn(unreachable_pub)]

mod analyze;
mod answers;
mod batch;
mod berthier;
mod bitset;
mod cancel;
mod cnf;
// The shared data folder, for the unit tests; the integration tests, the
// benches and the examples include the same file (`#[path]`).
#[cfg(test)]
mod data;
mod dlx;
mod engine;
mod eval;
mod examples;
mod generate;
mod graph;
mod grid;
mod human;
mod limits;
mod metrics;
mod relax;
mod report;
mod sat;
mod score;
mod se;
mod seed;
mod stats;
mod util;

#[cfg(test)]
mod tests;

// Open a puzzle: parse it, read many, their geometry and canonical form.
pub use grid::canon::{CanonError, Transform, earlier_equivalents};
pub use grid::{
    Alphabet, Contradiction, GIVENS_ONLY, Geometry, ParseError, ParseErrorKind, Puzzle,
    PuzzleReader, Solution, UnitKind, parse_puzzle, read_puzzles,
};

// Encode: CNF and DIMACS, and the clause-length histogram.
pub use cnf::{
    BadCuts, ClassCuts, ClauseCounts, ClauseKind, ClauseRow, Cnf, DimacsError, EncodeError,
    Encoding, Histogram, MeanDistribution, ModelError as SolverModelError, encode,
    mean_distribution,
};

// Check, count, solve: the engines and their answers.
pub use answers::{Count, InstanceAnalysis, Status, SudokuEngine};
pub use engine::{Disagreement, Engine, Engines, UnknownEngine};
pub use graph::{EdgeError, RelaxedInstance};
pub use seed::derive_seed;

// Relax: constraint relaxation (Pelánek §3.2).
pub use relax::{
    BadK, ExpFit, KChoice, PaperFit, RelaxError, RelaxOptions, RelaxReport, RelaxSummary,
    SampleResult, SweepReport, Verification, relax, relax_until, sweep, sweep_each,
};

// Rate: the models of human solving.
pub use human::hsolve::HsolveOptions;
pub use human::nishio::{NishioOptions, NishioOrder};
pub use human::oracle::{OracleLevel, OracleOptions};
pub use human::singles::SinglesOptions;
pub use human::sisus::SisusOptions;
pub use human::weights::WeightLevel;
pub use human::{
    AnnealingOptions, CellDigit, ExplainStatus, ExplainStep, Explanation, HarmonyOptions, Model,
    RateError, RateOptions, RateRow, Ratings, ScanUnit, SeExplainStep, SeExplanation, Technique,
    rate,
};
pub use se::links::ChainBranch;
// Rate: each model's row of `Ratings` and why its metrics are null.
pub use human::{
    AnnealingRow, BaselineNull, BaselineRow, BerthierRow, FowlerRow, HarmonyRow, HsolveNull,
    HsolveRow, NishioCount, NishioFailure, NishioNull, NishioRow, OracleNull, OracleRow,
    PuzzleFault, SerateRow, SerateUnfinished, SinglesRow, SisusNull, SisusRow, TrialDepthError,
    TrialRow, WeightsNull, WeightsRow,
};
pub use stats::Estimate;

// Metrics: the registry and a puzzle's metric values.
pub use metrics::{
    Direction, Metric, MetricGroup, MetricInfo, MetricKind, MetricRole, MetricSource, MetricValue,
    MetricValues, MetricsError, UnknownMetric,
};

// Score: one calibrated difficulty score.
pub use score::{
    FeatureParams, LinearScore, Minutes, ModelError as ScoreModelError, Score, ScoreError,
    ScoreModel, ScoreOptions, ScoreRow, ScoreTerm, ScoreTransform, Scored, SeBy, SeCalibration,
    SiteLevels, TimeContinuation, TimeModel, TrialCalibration, scale_names as score_level_names,
    score,
};
// The score's fit: selection, weights, calibration and validation.
pub use score::fit::{
    BandRows as ScoreFitBand, Difference as SpearmanDifference, HeldOut as ScoreFitHeldOut,
    LabelFields, MinutesCheck, ScoreFitError, ScoreFitOptions, ScoreFitReport, ScoreFitSpec,
    SelectionStep, TimeCrossValidation, TimeFitError, TimedPuzzle,
    WEIGHT_RANGE as SOURCE_WEIGHT_RANGE, cross_validate_time, fit_score, source_weight_ok,
};

// Berthier's ratings: T&E depth, W, B, BxB and BxBB.
pub use berthier::{
    BerthierColumns, BerthierError, BerthierExplanation, BerthierOptions, BerthierRatings,
    Budget as BerthierBudget, Rating as BerthierRating, rate_batch as rate_berthier_batch,
    rate_berthier,
};

// Analyze: the rows of a data set.
pub use analyze::{
    AnalysisRow, AnalyzeOptions, AnalyzeParams, FillOrderError, FillOrderOptions, FillOrderRow,
    RatedRow, analyze, fill_order,
};

// Generate: puzzles by removal, by Fletcher's and Xu's algorithms, or to targets.
pub use generate::{
    AimOptions, Candidate, FletcherOptions, GenerateError, GenerateOptions, Generated, Level,
    Method, PseudoOptions, RunOptions, Symmetry, Target, TargetError, TargetFields, TargetOp,
    TargetValue, generate, generate_each, known_fields as target_fields,
    numeric_field as numeric_target_field, numeric_fields as numeric_target_fields,
};

// Eval: statistics of result columns against labels; where a rating falls
// in a reference set.
pub use eval::{
    ClassCount, ClassMethod, ClassRange, ClassifyOptions, ClassifyReport, ClassifySummary,
    Coefficient, ContingencyReport, EvalError, EvalOptions, EvalReport, EvalRow, FitOptions,
    FitReport, GroupClass, LabelError, LabelSpec, MetricQuantiles, Ordinal, Preset, PuzzleClass,
    Reference, ReferenceError, ResultsTable, TableError, TableFormat, TableValue, classify,
    evaluate, fit_linear,
};
pub use stats::{BootstrapOptions, Interval, StatError, pearson, spearman};

// Report: the numbers of a report on puzzles or a data set.
pub use report::{
    CorrelationMatrix, DatasetError, DatasetReport, EngineAnswer, EngineCheck, MetricClasses,
    MetricDistribution, PathStep, PuzzleReport, RatingEntry, Report, ReportError, ReportOptions,
    ReportRequest, ReportSubject, SaturationShare, ScatterSeries, analyze_puzzles, compute_report,
    dataset_report, puzzle_report,
};

// Report: output formats, SVG charts.
pub use report::plot::{
    PlotError, clause_histogram as clause_histogram_svg, fixedness_grid as fixedness_svg,
    histogram as histogram_svg, percentile_bars as percentile_bars_svg, scatter as scatter_svg,
    sweep_chart as sweep_svg,
};
pub use report::{Format, RenderError, RowStream, jsonl_line};
// Output files: written whole or not at all (atomic writes), temporary files
// removed on a signal.
pub use report::{
    KeptRows, OutputStream, OutputTarget, earlier_name, folder_of, forget_temporary,
    keep_unfinished_rows, new_temp_beside, orphaned_temporaries, refuse_write_protected,
    remove_temporaries, temp_beside, track_temporary, write_atomic,
};

// Batch: one loop over a data set.
pub use batch::results::{
    DoneRows, Lined, RecordDifference, ResultRow, ResultsError, ResultsFile, RowKey, RowSpec,
    record_path,
};
pub use batch::{
    BatchError, Driver, Input, JobError, NoProgress, Progress, Rejections, Shard, Source,
    Summary as BatchSummary, read_all as read_whole_input,
};

// Cancelling a long call (the Python package's Ctrl-C).
pub use cancel::Cancellable;

// Seeds, limits, numbers as the results print them.
pub use limits::OptionError;
pub use seed::{DEFAULT_SEED, SeededRng};
pub use util::{readable_number, rounded_number};

/// Whether this CPU runs what the build was compiled for, else why not: on
/// x86-64 the build uses the POPCNT instruction (`.cargo/config.toml`).
/// `is_x86_feature_detected!` answers from the build flags when a feature is
/// on at compile time, so this asks CPUID (leaf 1, ECX bit 23). The command
/// line and the Python module call it before anything else.
pub fn cpu_check() -> Result<(), String> {
    #[cfg(all(target_arch = "x86_64", target_feature = "popcnt"))]
    {
        #[allow(unused_unsafe)]
        let ecx = unsafe { std::arch::x86_64::__cpuid(1) }.ecx;
        if ecx >> 23 & 1 == 0 {
            return Err(
                "this build of sudolab uses the POPCNT instruction, which this CPU \
                 lacks; rebuild it with RUSTFLAGS=\"-C target-feature=-popcnt\""
                    .to_string(),
            );
        }
    }
    Ok(())
}
