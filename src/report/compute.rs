//! The numbers of a report on puzzles or a data set, gathered in plain data:
//! every number a report page shows is computed here, so that the JSON of a
//! [`Report`] holds exactly what the page shows and a page can be drawn
//! again from that JSON without computing anything ([`Report`] derives
//! `Serialize` and `Deserialize`; `sudolab report` renders it as HTML).
//!
//! A [`PuzzleReport`] gathers, for one puzzle: the engines' cross-check
//! (every engine's solution count and the agreed solution), the ALO
//! clause-length histograms of the minimal and maximal encodings (Patti
//! §7.1, Table 1), a relaxation at one `k` with per-cell fixedness and its
//! verified samples (Pelánek §3.2), a `k` sweep with the fit `c·e^{k/λ}`
//! (Pelánek Fig. 8), every human-model rating with its percentile in a
//! [`Reference`] set, and the technique path of `rate --explain`.
//!
//! A data set (an `analyze` results table, or rows computed from puzzles by
//! [`analyze_puzzles`]) is described by a
//! [`DatasetReport`] ([`super::dataset`]). [`compute_report`] makes either kind of
//! [`Report`].

use super::dataset::{DatasetError, DatasetReport, dataset_report};
use crate::analyze::{AnalyzeOptions, MetricGroup, analyze};
use crate::answers::{Count, Status};
use crate::cnf::{ClassCuts, ClauseRow, Encoding};
use crate::engine::{Disagreement, Engine, Engines};
use crate::eval::Reference;
use crate::eval::{LabelSpec, Ordinal, ResultsTable, TableError, TableFormat};
use crate::grid::Puzzle;
use crate::human::{self, Explanation, Model, RateOptions};
use crate::limits::{self, OptionError};
use crate::metrics::Direction;
use crate::metrics::{Kind, Metric, MetricValue, Role, Source};
use crate::relax::{self, KChoice, RelaxError, RelaxOptions, RelaxReport, SweepReport};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// How much work a report does (modest defaults: a puzzle report takes
/// about a second in a release build).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportOptions {
    /// Relaxation for the fixedness heatmap (and the `analyze` rows of a
    /// data set): edges removed (default 45), or `auto`, each puzzle's
    /// onset; the relaxation's `k` records the one used.
    pub k: KChoice,
    /// Relaxation for the fixedness heatmap: samples (default 200).
    pub samples: usize,
    /// Values of `k` of the sweep (default 0, 10, …, 60).
    pub sweep: Vec<usize>,
    /// Samples per `k` of the sweep (default 100).
    pub sweep_samples: usize,
    /// Solution cap of every relaxed count (default 1000).
    pub cap: u64,
    /// Samples re-checked by the other engines in the heatmap relaxation
    /// (default 3; each costs a SAT and a Dancing Links count up to the cap).
    pub verify: usize,
    /// Runs of every randomised human model; `None` (the default) keeps
    /// each model's own default (SiSuS 30, oracle 100, hsolve 20, Nishio
    /// 50), so the report's ratings are those of `rate` and `analyze`.
    pub runs: Option<usize>,
    /// Seed of every randomised computation (default
    /// [`crate::seed::DEFAULT_SEED`]).
    pub seed: u64,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            k: KChoice::At(45),
            samples: 200,
            sweep: (0..=60).step_by(10).collect(),
            sweep_samples: 100,
            cap: 1000,
            verify: 3,
            runs: None,
            seed: crate::seed::DEFAULT_SEED,
        }
    }
}

impl ReportOptions {
    fn relax(&self, k: KChoice, samples: usize, engines: Engines, verify: usize) -> RelaxOptions {
        RelaxOptions {
            samples,
            precision: None,
            seed: self.seed,
            cap: self.cap,
            engines,
            verify,
            verify_by: Default::default(),
            ..RelaxOptions::default()
        }
        .with_k(k)
    }

    fn rate(&self) -> RateOptions {
        let mut o = RateOptions {
            seed: self.seed,
            ..RateOptions::default()
        };
        if let Some(runs) = self.runs {
            o.set_runs(runs);
        }
        o
    }

    /// Refuses options that cannot give a report: samples outside
    /// `1..=`[`MAX_SAMPLES`](crate::RelaxOptions::MAX_SAMPLES), a `verify` above
    /// it, runs the human models refuse ([`RateOptions::check`]).
    ///
    /// ```
    /// use sudolab::ReportOptions;
    ///
    /// assert!(ReportOptions::default().check().is_ok());
    /// assert!(ReportOptions { samples: 0, ..ReportOptions::default() }.check().is_err());
    /// ```
    ///
    /// # Errors
    /// The first option out of its range.
    pub fn check(&self) -> Result<(), ReportError> {
        limits::check_samples("samples", self.samples)?;
        limits::check_samples("sweep samples", self.sweep_samples)?;
        limits::at_most("verify", self.verify, limits::MAX_SAMPLES)?;
        self.rate().check()?;
        Ok(())
    }
}

/// Why a report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Two engines disagreed (a bug, with a reproducible case).
    #[error("{0}")]
    Disagreement(#[from] Disagreement),
    /// A parameter is out of its range ([`ReportOptions::check`]).
    #[error(transparent)]
    Option(#[from] OptionError),
    /// The data-set section could not be made (an empty table, an
    /// unusable label).
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    /// The results table could not be read.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A result could not be serialised (a bug in a row type).
    #[error("cannot serialise a result: {0}")]
    Json(#[from] serde_json::Error),
}

/// A relaxation error: a disagreement is a bug and stops the report,
/// anything the puzzle causes becomes a note.
fn relax_note(e: RelaxError) -> Result<String, ReportError> {
    match e {
        RelaxError::Disagreement(d) => Err(ReportError::Disagreement(d)),
        other => Ok(other.to_string()),
    }
}

/// One engine's answer on the puzzle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineAnswer {
    /// The engine.
    pub engine: Engine,
    /// Unique, multiple or none.
    pub status: Status,
    /// Solutions found, counting up to 2.
    pub solutions: u64,
}

/// The engines' cross-check on one puzzle and on its relaxations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineCheck {
    /// Every engine's answer (`Engines::all()`).
    pub answers: Vec<EngineAnswer>,
    /// Whether all answers are equal (otherwise the report stops before).
    pub agree: bool,
    /// Relaxed samples of the heatmap relaxation re-analyzed by other engines.
    pub relax_verified: usize,
    /// The engines that re-analyzed them.
    pub relax_verified_by: Vec<Engine>,
}

/// One rating of one human model (or a structural metric), and where it
/// falls in the reference set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingEntry {
    /// The model (`sisus`, `oracle`, …) or metric group (`relax`, `clauses`).
    pub model: String,
    /// Field name, as in `rate` / `analyze` output.
    pub metric: String,
    /// The value, when numeric.
    pub value: Option<f64>,
    /// The value, when text (a level, a technique).
    pub text: Option<String>,
    /// Which way is harder.
    pub harder: Direction,
    /// Percentile of the value among the reference set (0–100).
    pub percentile: Option<f64>,
}

/// One step of the solving path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PathStep {
    /// 1-based step number.
    pub step: usize,
    /// Technique name.
    pub technique: String,
    /// What the step does.
    pub text: String,
}

/// Everything the report shows about one puzzle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PuzzleReport {
    /// The puzzle as one line.
    pub puzzle: String,
    /// The puzzle's label (input text after the grid, or example name).
    pub label: Option<String>,
    /// Side `N` of the grid.
    pub side: usize,
    /// Cell values, row-major, 0 for blank.
    pub cells: Vec<u8>,
    /// The unique solution, when the engines found one.
    pub solution: Option<Vec<u8>>,
    /// The engines' cross-check.
    pub engines: EngineCheck,
    /// Clause counts of the minimal and maximal encodings (empty for a
    /// contradictory puzzle).
    pub clauses: Vec<ClauseRow>,
    /// The relaxation at `k` with per-cell fixedness.
    pub relax: Option<RelaxReport>,
    /// The `k` sweep and its fit.
    pub sweep: Option<SweepReport>,
    /// Ratings of every model and the structural metrics, with percentiles.
    pub ratings: Vec<RatingEntry>,
    /// The simplest-first technique path.
    pub path: Vec<PathStep>,
    /// How the path ended (`solved`, `needs search: …`, `invalid: …`).
    pub path_status: String,
    /// Things that could not be computed, and why.
    pub notes: Vec<String>,
}

/// The model (or metric group) that computes a metric, from the registry.
fn model_of(metric: Metric) -> &'static str {
    match metric.source() {
        Source::Rate(m) => m.name(),
        Source::Clauses => "clauses",
        Source::Relax => "relax",
        Source::Score => "score",
    }
}

/// One value of a report's ratings table: its metric, number and text.
type Field = (Metric, Option<f64>, Option<String>);

/// The one-number metrics of a source (spreads `_sd`, standard errors,
/// confidences and `skip` left out), with their values: numbers and flags as numbers, levels and
/// techniques as text, `None` where the model gave no value. The
/// relaxation's `saturated` appears only when a count saturated.
fn scalar_fields(
    source: impl Fn(Source) -> bool,
    value: impl Fn(Metric) -> Option<MetricValue>,
    skip: &[Metric],
) -> Vec<Field> {
    Metric::ALL
        .iter()
        .copied()
        .filter(|m| source(m.source()) && m.kind() != Kind::List)
        .filter(|m| !skip.contains(m) && !m.name().ends_with("_sd"))
        .filter(|m| m.role() != Role::Uncertainty)
        .filter_map(|m| match value(m) {
            None if m == Metric::Saturated => None,
            Some(MetricValue::Bool(b)) => Some((m, Some(f64::from(u8::from(b))), None)),
            Some(MetricValue::Text(s)) => Some((m, None, Some(s))),
            Some(v) => Some((m, v.as_f64(), None)),
            None => Some((m, None, None)),
        })
        .collect()
}

/// Computes the whole report of one puzzle.
///
/// ```
/// use sudolab::{Reference, ReportOptions, parse_puzzle, puzzle_report};
///
/// let p = parse_puzzle(
///     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
/// )?;
/// let opts = ReportOptions { samples: 5, sweep: vec![0, 40], sweep_samples: 5, ..ReportOptions::default() };
/// let r = puzzle_report(&p, &opts, &Reference::embedded()?)?;
/// assert!(r.engines.agree);
/// assert_eq!(r.path_status, "solved by the techniques alone");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// An engine disagreement (a bug) or unusable options; what the puzzle
/// causes (several solutions, a contradiction) becomes a note.
pub fn puzzle_report(
    puzzle: &Puzzle,
    opts: &ReportOptions,
    reference: &Reference,
) -> Result<PuzzleReport, ReportError> {
    opts.check()?;
    let mut notes = Vec::new();
    let (answers, agree) = engine_answers(puzzle);
    let solution = Engines::all().solve(puzzle)?;
    let solution = solution
        .filter(|_| answers.first().is_some_and(|a| a.status == Status::Unique))
        .map(|s| s.cells().to_vec());

    let clauses = clause_rows(puzzle, &mut notes);

    let heat_opts = opts.relax(opts.k, opts.samples, Engines::all(), opts.verify);
    let relax = match relax::relax(puzzle, &heat_opts)
        .and_then(|(mut r, _)| r.name_onset(puzzle, &heat_opts).map(|()| r))
    {
        Ok(r) => Some(r),
        Err(e) => {
            notes.push(format!("relaxation: {}", relax_note(e)?));
            None
        }
    };
    let sweep_opts = opts.relax(KChoice::At(0), opts.sweep_samples, Engines::default(), 0);
    let sweep = match relax::sweep(puzzle, &opts.sweep, &sweep_opts) {
        Ok(s) => Some(s),
        Err(e) => {
            notes.push(format!("sweep: {}", relax_note(e)?));
            None
        }
    };

    let ratings = rating_entries(
        puzzle,
        opts,
        reference,
        relax.as_ref(),
        &clauses,
        &mut notes,
    )?;

    let (path, path_status) = solving_path(puzzle);

    Ok(PuzzleReport {
        puzzle: puzzle.to_line(),
        label: puzzle.label.clone(),
        side: puzzle.side(),
        cells: puzzle.cells().to_vec(),
        solution,
        engines: EngineCheck {
            answers,
            agree,
            relax_verified: relax.as_ref().map_or(0, |r| r.verified),
            relax_verified_by: relax
                .as_ref()
                .map_or_else(Vec::new, |r| r.verified_by.clone()),
        },
        clauses,
        relax,
        sweep,
        ratings,
        path,
        path_status,
        notes,
    })
}

/// Every engine's answer (counted to 2) and whether they all agree.
fn engine_answers(puzzle: &Puzzle) -> (Vec<EngineAnswer>, bool) {
    let answers: Vec<EngineAnswer> = Engine::ALL
        .iter()
        .map(|&engine| {
            let Count { solutions, .. } = engine.implementation().count(puzzle, 2);
            EngineAnswer {
                engine,
                status: Status::from_count(solutions),
                solutions,
            }
        })
        .collect();
    let agree = answers
        .windows(2)
        .all(|w| (w[0].status, w[0].solutions) == (w[1].status, w[1].solutions));
    (answers, agree)
}

/// The clause rows of the minimal and the maximal encoding; what stops
/// them becomes a note.
fn clause_rows(puzzle: &Puzzle, notes: &mut Vec<String>) -> Vec<ClauseRow> {
    let mut clauses = Vec::new();
    for enc in [Encoding::Min, Encoding::Max] {
        match ClauseRow::of(puzzle, enc, ClassCuts::patti(puzzle.side())) {
            Ok(row) => clauses.push(row),
            Err(e) => {
                notes.push(format!("clauses ({}): {e}", enc.name()));
                break;
            }
        }
    }
    clauses
}

/// The ratings of the human models, the score and (placed where the
/// reference is comparable) the relaxation and the clauses, with their
/// reference percentiles; a model's status becomes a note.
fn rating_entries(
    puzzle: &Puzzle,
    opts: &ReportOptions,
    reference: &Reference,
    relax: Option<&RelaxReport>,
    clauses: &[ClauseRow],
    notes: &mut Vec<String>,
) -> Result<Vec<RatingEntry>, ReportError> {
    let rated = human::rate(puzzle, &opts.rate());
    for (model, why) in &rated.ratings.status() {
        notes.push(format!("{model}: {why}"));
    }
    let mut ratings = Vec::new();
    // `placed`: the values are comparable with the reference's.
    let mut push = |fields: Vec<Field>, placed: bool| {
        for (metric, value, text) in fields {
            ratings.push(RatingEntry {
                model: model_of(metric).to_string(),
                percentile: value
                    .filter(|_| placed)
                    .and_then(|v| reference.percentile(metric.name(), v)),
                harder: metric.direction(),
                metric: metric.name().to_string(),
                value,
                text,
            });
        }
    };
    push(
        scalar_fields(
            |s| matches!(s, Source::Rate(_)),
            |m| rated.ratings.value(m),
            &[],
        ),
        true,
    );
    // The score with its SE-equivalent, minutes and extrapolation flags
    // (`docs/score.md`, "The top of the scale").
    match crate::score::score(puzzle, crate::score::ScoreOptions::shipped()) {
        Ok(s) => push(
            scalar_fields(|src| src == Source::Score, |m| s.score.value(m), &[]),
            true,
        ),
        Err(crate::score::ScoreError::Disagreement(d)) => return Err(d.into()),
        Err(e) => notes.push(format!("score: {e}")),
    }
    if let Some(r) = relax {
        let comparable = reference.relax_k == Some(r.summary.k);
        if !comparable {
            notes.push(match reference.relax_k {
                Some(k) => format!(
                    "relaxation percentiles left out: the reference relaxed at k = {k}, this puzzle at k = {}",
                    r.summary.k
                ),
                None => "relaxation percentiles left out: the reference has no relaxation at one k".to_string(),
            });
        }
        push(
            scalar_fields(
                |s| s == Source::Relax,
                |m| r.summary.value(m),
                &[
                    Metric::K,
                    Metric::Samples,
                    Metric::Cap,
                    Metric::Capped,
                    Metric::MedianSolutions,
                    // Shown with the heatmap, not as ratings.
                    Metric::PUniqueLow,
                    Metric::PUniqueHigh,
                    Metric::MeanFixedSe,
                    Metric::MeanFixedLow,
                    Metric::MeanFixedHigh,
                    Metric::PNothing,
                    Metric::SawNothing,
                    Metric::RelaxationOnsetK,
                ],
            ),
            comparable,
        );
    }
    if let Some(c) = clauses.first() {
        push(
            scalar_fields(
                |s| s == Source::Clauses,
                |m| c.counts.value(m),
                &[Metric::Variables],
            ),
            true,
        );
    }
    Ok(ratings)
}

/// The solving path of the techniques alone, and how it ended.
fn solving_path(puzzle: &Puzzle) -> (Vec<PathStep>, String) {
    let explanation: Explanation = Explanation::of(puzzle);
    let path_status = match &explanation.status {
        human::ExplainStatus::Solved => "solved by the techniques alone".to_string(),
        human::ExplainStatus::NeedsSearch => {
            "the techniques get stuck: the rest needs search".to_string()
        }
        human::ExplainStatus::Invalid(why) => format!("not explained: {why}"),
        human::ExplainStatus::Stopped(why) => format!("the techniques stopped: {why}"),
    };
    let path = explanation
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| PathStep {
            step: i + 1,
            technique: s.technique.to_string(),
            text: s.text.clone(),
        })
        .collect();
    (path, path_status)
}

/// `work` on every puzzle, in input order, calling `on_done` after each.
/// The puzzles go in waves of one per thread: a puzzle's own work runs in
/// parallel (its relaxation samples), and over one parallel iterator of all
/// puzzles a thread waiting inside one puzzle takes up the next, so every
/// puzzle would finish near the end and a progress bar would stand at 0
/// until then.
fn each_in_waves<T: Send>(
    puzzles: &[Puzzle],
    work: impl Fn(&Puzzle) -> T + Sync,
    on_done: impl Fn() + Sync,
) -> Vec<T> {
    let wave = rayon::current_num_threads().max(1);
    let mut out = Vec::with_capacity(puzzles.len());
    for chunk in puzzles.chunks(wave) {
        out.extend(
            chunk
                .par_iter()
                .map(|p| {
                    let r = work(p);
                    on_done();
                    r
                })
                .collect::<Vec<T>>(),
        );
    }
    out
}

/// `analyze` rows (clauses, relax at `opts.k` with `opts.samples`, every
/// human model with default runs) for puzzles, as a results table;
/// `on_done` is called after each puzzle (for a progress bar).
///
/// ```
/// use sudolab::{Puzzle, ReportOptions, analyze_puzzles};
///
/// let puzzles = &Puzzle::examples()[..2];
/// let opts = ReportOptions { samples: 5, runs: Some(2), ..ReportOptions::default() };
/// let table = analyze_puzzles(puzzles, &opts, || {})?;
/// assert_eq!(table.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// An engine disagreement (a bug), unusable options.
pub fn analyze_puzzles(
    puzzles: &[Puzzle],
    opts: &ReportOptions,
    on_done: impl Fn() + Sync,
) -> Result<ResultsTable, ReportError> {
    opts.check()?;
    let aopts = AnalyzeOptions {
        groups: vec![
            MetricGroup::Clauses,
            MetricGroup::Relax,
            MetricGroup::Rate(Model::DEFAULT.into_iter().collect()),
        ],
        relax: opts.relax(opts.k, opts.samples, Engines::default(), 1),
        rate_seed: opts.seed,
        fixedness: false,
        dedup: false,
        serate_budget: crate::human::RateOptions::SERATE_BUDGET,
    };
    let rows = each_in_waves(puzzles, |p| analyze(p, &aopts), on_done);
    let mut jsonl = String::new();
    for row in rows {
        jsonl.push_str(&serde_json::to_string(&row?)?);
        jsonl.push('\n');
    }
    Ok(ResultsTable::parse(&jsonl, TableFormat::Jsonl)?)
}

/// A whole report: puzzle sections, or a data-set section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Page title.
    pub title: String,
    /// Where the percentiles come from.
    pub reference: String,
    /// One section per puzzle.
    pub puzzles: Vec<PuzzleReport>,
    /// The data-set section.
    pub dataset: Option<DatasetReport>,
    /// The options the numbers were computed with.
    pub options: ReportOptions,
}

/// What a report describes.
#[derive(Debug, Clone)]
pub enum ReportSubject {
    /// One section per puzzle ([`puzzle_report`]).
    Puzzles(Vec<Puzzle>),
    /// The puzzles' `analyze` rows ([`analyze_puzzles`]) described as a data set.
    PuzzlesAsDataset(Vec<Puzzle>),
    /// An `analyze` results table described as a data set.
    Rows(ResultsTable),
}

/// Everything a [`Report`] is computed from.
#[derive(Debug, Clone)]
pub struct ReportRequest<'a> {
    /// Page title.
    pub title: String,
    /// Where the puzzles or rows come from (a file name), as the data-set
    /// section names it.
    pub source: String,
    /// The puzzles or rows.
    pub subject: ReportSubject,
    /// Data set: the label column.
    pub label: Option<&'a LabelSpec>,
    /// Data set: the order of text labels, easiest first.
    pub ordinal: Option<&'a Ordinal>,
    /// The percentiles of the puzzle sections come from here.
    pub reference: &'a Reference,
    /// How the page names the reference.
    pub reference_name: String,
    /// How much work the puzzle sections (and the rows computed from
    /// puzzles) do.
    pub options: ReportOptions,
}

/// Computes a whole report: a section per puzzle, or a data-set section.
/// `on_done` is called after each puzzle (for a progress bar).
///
/// # Errors
/// An engine disagreement (a bug), unusable options, an empty table or an
/// unusable label; the first failing puzzle's error, in input order.
///
/// ```
/// use sudolab::{Reference, ReportOptions, ReportRequest, ReportSubject, ResultsTable, TableFormat, compute_report};
///
/// let rows = "{\"line\":1,\"a\":1}\n{\"line\":2,\"a\":2}\n{\"line\":3,\"a\":4}\n";
/// let reference = Reference::embedded()?;
/// let request = ReportRequest {
///     title: "three rows".into(),
///     source: "rows.jsonl".into(),
///     subject: ReportSubject::Rows(ResultsTable::parse(rows, TableFormat::Jsonl)?),
///     label: None,
///     ordinal: None,
///     reference: &reference,
///     reference_name: "the embedded reference".into(),
///     options: ReportOptions::default(),
/// };
/// let report = compute_report(request, || {})?;
/// let dataset = report.dataset.expect("a data-set section");
/// assert_eq!((dataset.rows, dataset.metrics[0].metric.as_str()), (3, "a"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compute_report(
    request: ReportRequest<'_>,
    on_done: impl Fn() + Sync,
) -> Result<Report, ReportError> {
    let ReportRequest {
        title,
        source,
        subject,
        label,
        ordinal,
        reference,
        reference_name,
        options,
    } = request;
    let mut report = Report {
        title,
        reference: reference_name,
        puzzles: Vec::new(),
        dataset: None,
        options,
    };
    let opts = &report.options;
    match subject {
        ReportSubject::Rows(table) => {
            report.dataset = Some(dataset_report(&table, &source, label, ordinal)?);
        }
        ReportSubject::PuzzlesAsDataset(puzzles) => {
            let table = analyze_puzzles(&puzzles, opts, on_done)?;
            report.dataset = Some(dataset_report(&table, &source, label, ordinal)?);
        }
        ReportSubject::Puzzles(puzzles) => {
            let sections = each_in_waves(&puzzles, |p| puzzle_report(p, opts, reference), on_done);
            for section in sections {
                report.puzzles.push(section?);
            }
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The report's progress bar moves while the puzzles are
    /// computed, not all at once at the end: when a wave starts, every
    /// puzzle of the waves before it has called `on_done`.
    #[test]
    fn progress_advances_wave_by_wave() {
        let puzzles = crate::grid::Puzzle::examples();
        assert!(puzzles.len() >= 6, "{}", puzzles.len());
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let done = AtomicUsize::new(0);
        let seen: Vec<usize> = pool.install(|| {
            each_in_waves(
                &puzzles,
                |_| done.load(Ordering::SeqCst),
                || {
                    done.fetch_add(1, Ordering::SeqCst);
                },
            )
        });
        assert_eq!(done.load(Ordering::SeqCst), puzzles.len());
        for (i, &before) in seen.iter().enumerate() {
            assert!(
                before >= i / 2 * 2,
                "puzzle {i} started after {before} done"
            );
        }
        assert!(seen[puzzles.len() - 1] >= puzzles.len() - 2, "{seen:?}");
    }
}
