//! `sudolab._native`: the PyO3 extension under the `sudolab` Python package.
//!
//! Each function calls one function of the `sudolab` library and hands its
//! result to Python as the library's own row, converted by `pythonize` from
//! the same `Serialize` types the CLI writes with `--format jsonl` (a dict
//! per row, nested fields as dicts and lists), so the Python package
//! (`python/sudolab/`) and the CLI can never drift apart: the same seeds give
//! the same numbers. Batch functions parse every puzzle first (a bad one
//! raises `ValueError` naming its position), then release the GIL and
//! analyse on rayon's pool, one task per puzzle, like the CLI's `analyze`,
//! `rate` and `score`.
//!
//! Defaults are the library's: a parameter left out (`None`) takes the value
//! of the options' `Default` ([`RelaxOptions`], [`RateOptions`],
//! [`ScoreOptions`], [`AnalyzeOptions`], [`GenerateOptions`]), the CLI's
//! defaults, stated there once.
//!
//! Errors: a puzzle the library refuses raises `ValueError` with the
//! library's message, naming the puzzle by its line: the `lines` given, else
//! its 1-based position in the batch (`line 1` for a single puzzle), as the
//! CLI names input lines; options are checked before any work by their
//! `check()` ([`sudolab::OptionError`]), the check the CLI runs, and
//! a refused value raises `ValueError` with the CLI's message. A Ctrl-C
//! during a native call raises `KeyboardInterrupt` within a fraction of a
//! second (signals are checked while the work runs, and the library's
//! cancel flag stops it inside a relaxation's count, Sudoku Explainer's
//! chains, between samples, puzzles and generated puzzles); an engine
//! [`Disagreement`] (always a bug) raises [`EngineDisagreement`] (a
//! `RuntimeError`) carrying the reproducible case, never a missing value.

mod analyze_parameters;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pythonize::pythonize;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use sudolab::{
    BatchError, Cancellable, ClassCuts, ClauseRow, Disagreement, Driver, Encoding, Engines,
    GenerateOptions, Input, JobError, KChoice, LabelFields, LabelSpec, Level, Lined, Method,
    Metric, MetricGroup, OptionError, Puzzle, RateOptions, RatedRow, RelaxError, RelaxOptions,
    ResultsTable, ScoreFitOptions, ScoreFitSpec, ScoreModel, ScoreOptions, ScoreRow, Source,
    Symmetry, TableFormat, analyze as analyze_one, parse_puzzle,
};

pyo3::create_exception!(
    sudolab,
    EngineDisagreement,
    pyo3::exceptions::PyRuntimeError,
    "Two engines gave different answers: a bug in sudolab, never a bad puzzle.\n\n\
     `args` is `(message, case)`; `case` holds everything needed to reproduce it: \
     `what` (the question with its parameters: removed edges, sample, seed), `puzzle` \
     (one line), `answers` (`[engine, answer]` pairs, the primary engine first) and \
     `line` (the input line in a batch, else `None`). The CLI exits 2 on the same case."
);

/// Runs `work` with the GIL released on another thread while this one
/// checks for signals every 50 ms: on a Ctrl-C (`KeyboardInterrupt`, or
/// whatever a Python signal handler raises) `stop` and the library's cancel
/// flag (`Cancellable::cancel_all`, polled inside the engines' long loops) are
/// raised, the work stops within moments, and the signal's exception is
/// returned.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let call = Cancellable::start();
    let mut interrupt: Option<PyErr> = None;
    let done = py.detach(|| {
        std::thread::scope(|s| {
            let handle = s.spawn(|| work(&stop));
            while !handle.is_finished() {
                std::thread::sleep(std::time::Duration::from_millis(50));
                if interrupt.is_none()
                    && let Err(e) = Python::attach(|py| py.check_signals())
                {
                    interrupt = Some(e);
                    stop.store(true, Ordering::Relaxed);
                    Cancellable::cancel_all();
                }
            }
            handle.join()
        })
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    // A Ctrl-C seen by another thread's call cancels this one too: its
    // result is partial.
    if call.cancelled() {
        return Err(interrupted());
    }
    done.map_err(|_| PyRuntimeError::new_err("a native worker thread panicked"))
}

/// The exception of a call stopped by a signal (`interruptible` returns
/// the signal's own exception first).
fn interrupted() -> PyErr {
    PyErr::new::<pyo3::exceptions::PyKeyboardInterrupt, _>("interrupted")
}

/// Runs `job` on `puzzles` (with their input `lines`) through the
/// library's batch driver, on every core, with Ctrl-C checked before every
/// puzzle; the rows come back in input order. Pencilmark grids are read
/// (`docs/methods.md` §0.1; the job says where it has no row for one). A
/// refused puzzle raises `ValueError` naming its line, a disagreement
/// `EngineDisagreement`.
fn run_batch<R: Send>(
    py: Python<'_>,
    puzzles: Vec<Puzzle>,
    lines: Vec<usize>,
    job: impl Fn(usize, &Puzzle) -> Result<R, JobError> + Sync + Send,
) -> PyResult<Vec<R>> {
    let parsed: Vec<(usize, Puzzle)> = lines.into_iter().zip(puzzles).collect();
    let done = interruptible(py, |stop| {
        let mut input = Input::of(Source::Parsed(parsed));
        input.pencilmarks = true;
        let stopped = || stop.load(Ordering::Relaxed);
        let mut rows = Vec::new();
        Driver::new()
            .stop_when(&stopped)
            .run(input, job, |done| {
                rows.extend(done.into_iter().map(|(_, row)| row));
                Ok(())
            })
            .map(|_| rows)
    })?;
    done.map_err(|e| match e {
        BatchError::Disagreement { line, source } => disagreement(&source, Some(line)),
        BatchError::Stopped => interrupted(),
        e => value_error(e),
    })
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A refused option: `ValueError` with the message the CLI prints.
fn option_error(e: OptionError) -> PyErr {
    value_error(e)
}

/// The reproducible case of a disagreement, as `EngineDisagreement.case`.
#[derive(Serialize)]
struct Case<'a> {
    what: &'a str,
    puzzle: &'a str,
    answers: Vec<Vec<String>>,
    line: Option<usize>,
}

/// `EngineDisagreement(message, case)`: `case` holds the question, the
/// puzzle, each engine's answer and the input line, enough to reproduce.
fn disagreement(d: &Disagreement, line: Option<usize>) -> PyErr {
    let message = match line {
        Some(line) => format!("ENGINE DISAGREEMENT (bug) at input line {line}: {d}"),
        None => format!("ENGINE DISAGREEMENT (bug): {d}"),
    };
    let case = Case {
        what: &d.what,
        puzzle: &d.puzzle,
        answers: d
            .answers
            .iter()
            .map(|(e, a)| vec![e.to_string(), a.clone()])
            .collect(),
        line,
    };
    Python::attach(|py| match pythonize(py, &case) {
        Ok(case) => EngineDisagreement::new_err((message, case.unbind())),
        Err(_) => EngineDisagreement::new_err((message,)),
    })
}

/// A row (or a list of rows) as Python objects: the dicts and lists of the
/// row's JSONL, without the JSON text.
fn to_py<'py, T: Serialize + ?Sized>(py: Python<'py>, row: &T) -> PyResult<Bound<'py, PyAny>> {
    pythonize(py, row).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

fn parse(text: &str) -> PyResult<Puzzle> {
    parse_puzzle(text).map_err(value_error)
}

/// [`parse`] for the functions that read givens alone: a pencilmark grid
/// raises `ValueError` (`sudolab::GIVENS_ONLY`).
fn parse_givens(text: &str) -> PyResult<Puzzle> {
    let p = parse(text)?;
    if p.has_pencilmarks() {
        return Err(PyValueError::new_err(sudolab::GIVENS_ONLY));
    }
    Ok(p)
}

/// Parses every puzzle of a batch, naming the line of a bad one (see the
/// module's error convention).
fn parse_all(puzzles: &[String], lines: &[usize]) -> PyResult<Vec<Puzzle>> {
    puzzles
        .iter()
        .zip(lines)
        .map(|(t, line)| {
            parse_puzzle(t).map_err(|e| PyValueError::new_err(format!("line {line}: {e}")))
        })
        .collect()
}

/// 1-based input lines of a batch: given, or the positions.
fn lines_of(lines: Option<Vec<usize>>, count: usize) -> PyResult<Vec<usize>> {
    match lines {
        Some(l) if l.len() != count => Err(PyValueError::new_err(format!(
            "{} lines for {count} puzzles",
            l.len()
        ))),
        Some(l) => Ok(l),
        None => Ok((1..=count).collect()),
    }
}

/// Parses one puzzle line (grid, then an optional label after whitespace):
/// `(line, label, side, cells)`, cells row-major with 0 for a blank.
#[pyfunction]
fn parse_line(text: &str) -> PyResult<(String, Option<String>, usize, Vec<u8>)> {
    let p = parse(text)?;
    Ok((p.to_line(), p.label.clone(), p.side(), p.cells().to_vec()))
}

/// The puzzle line of a grid given as row-major cell values (0 = blank).
#[pyfunction]
fn line_from_cells(cells: Vec<i64>) -> PyResult<String> {
    let order = (2..=5)
        .find(|&n: &usize| n.pow(4) == cells.len())
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "{} cells: expected 16, 81, 256 or 625 (a 4×4, 9×9, 16×16 or 25×25 grid)",
                cells.len()
            ))
        })?;
    let side = order * order;
    let values = cells
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            u8::try_from(v)
                .ok()
                .filter(|&v| usize::from(v) <= side)
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "cell {i} (row {}, column {}): value {v} is not 0 (blank) or 1–{side}",
                        i / side + 1,
                        i % side + 1
                    ))
                })
        })
        .collect::<PyResult<Vec<u8>>>()?;
    Puzzle::from_cells(order, values)
        .map(|p| p.to_line())
        .map_err(value_error)
}

/// An encoding by name, the library's default when `None`.
fn encoding_of(name: Option<&str>) -> PyResult<Encoding> {
    name.map_or(Ok(Encoding::default()), |e| e.parse().map_err(value_error))
}

/// DIMACS CNF text of a puzzle in `encoding` (min, max, lo-min, …), as
/// `sudolab encode` writes it.
#[pyfunction]
#[pyo3(signature = (puzzle, encoding=None))]
fn encode(puzzle: &str, encoding: Option<&str>) -> PyResult<String> {
    let p = parse(puzzle)?;
    let encoding = encoding_of(encoding)?;
    let mut text = Vec::new();
    sudolab::Cnf::append_dimacs(&p, encoding, &mut text).map_err(value_error)?;
    String::from_utf8(text).map_err(value_error)
}

/// The clause-length histogram row of `sudolab clauses` (a dict).
#[pyfunction]
#[pyo3(signature = (puzzle, encoding=None, cuts=None))]
fn clauses<'py>(
    py: Python<'py>,
    puzzle: &str,
    encoding: Option<&str>,
    cuts: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let p = parse(puzzle)?;
    let encoding = encoding_of(encoding)?;
    let cuts = match cuts {
        Some(c) => ClassCuts::parse(c).map_err(value_error)?,
        None => ClassCuts::patti(p.side()),
    };
    to_py(py, &ClauseRow::of(&p, encoding, cuts).map_err(value_error)?)
}

/// A `k` as Python gives it: a number of edges (an int, checked by the
/// Python layer) or the string `"auto"` (each puzzle's onset), read as
/// the command line reads `--k`.
fn k_choice(k: &Bound<'_, PyAny>) -> PyResult<KChoice> {
    if let Ok(text) = k.extract::<String>() {
        return text.parse().map_err(|e| value_error(format!("k {e}")));
    }
    k.extract::<usize>().map(KChoice::At).map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "k must be a number of edges or \"auto\", not {k}"
        ))
    })
}

/// The relaxation options of the given parameters, the library's defaults
/// for the others, checked as the CLI checks them.
#[allow(clippy::too_many_arguments)]
fn relax_options(
    k: Option<KChoice>,
    samples: Option<usize>,
    seed: Option<u64>,
    cap: Option<u64>,
    engine: Option<&str>,
    verify: Option<usize>,
    precision: Option<f64>,
    all_samples: bool,
) -> PyResult<RelaxOptions> {
    let d = RelaxOptions::default();
    let engines: Engines = match engine {
        Some(e) => e.parse().map_err(value_error)?,
        None => d.engines.clone(),
    };
    let samples = samples.unwrap_or(d.samples);
    let k = k.unwrap_or(d.k_choice());
    let opts = RelaxOptions {
        samples,
        precision,
        stop_at_saturation: !all_samples,
        seed: seed.unwrap_or(d.seed),
        cap: cap.unwrap_or(d.cap),
        verify: RelaxOptions::verify_for(&engines, samples, verify),
        engines,
        ..d
    }
    .with_k(k);
    opts.check().map_err(option_error)?;
    Ok(opts)
}

/// One relaxation (Pelánek §3.2) as `sudolab relax` computes it: the report
/// row (a dict, without `line`) and, when asked, every sample (a list of
/// dicts). Parameters left out take the library's defaults.
#[pyfunction]
#[pyo3(signature = (puzzle, k=None, samples=None, seed=None, cap=None, engine=None, verify=None, with_samples=false, precision=None, all_samples=false))]
#[allow(clippy::too_many_arguments)]
fn relax_report<'py>(
    py: Python<'py>,
    puzzle: &str,
    k: Option<&Bound<'py, PyAny>>,
    samples: Option<usize>,
    seed: Option<u64>,
    cap: Option<u64>,
    engine: Option<&str>,
    verify: Option<usize>,
    with_samples: bool,
    precision: Option<f64>,
    all_samples: bool,
) -> PyResult<(Bound<'py, PyAny>, Option<Bound<'py, PyAny>>)> {
    let p = parse(puzzle).map_err(|e| PyValueError::new_err(format!("line 1: {e}")))?;
    let k = k.map(k_choice).transpose()?;
    let opts = relax_options(
        k,
        samples,
        seed,
        cap,
        engine,
        verify,
        precision,
        all_samples,
    )?;
    let (report, drawn) = interruptible(py, |stop| {
        sudolab::relax_until(&p, &opts, stop)
            .and_then(|(mut report, drawn)| report.name_onset(&p, &opts).map(|()| (report, drawn)))
    })?
    .map_err(|e| match e {
        RelaxError::Disagreement(d) => disagreement(&d, None),
        RelaxError::Interrupted => interrupted(),
        e => value_error(format!("line 1: {e}")),
    })?;
    let samples = if with_samples {
        // Through `serde_json::Value`: a removed edge `[a, b]` stays a
        // list, as `--emit-samples` writes it (pythonize makes arrays
        // tuples).
        let value = serde_json::to_value(&drawn).map_err(value_error)?;
        Some(to_py(py, &value)?)
    } else {
        None
    };
    Ok((to_py(py, &report)?, samples))
}

/// `sudolab rate` rows (dicts) for a batch, on every core. Parameters left
/// out take the library's defaults (`RateOptions`).
#[pyfunction]
#[pyo3(signature = (puzzles, models=None, seed=None, runs=None, with_score=true, serate_budget=None))]
fn rate<'py>(
    py: Python<'py>,
    puzzles: Vec<String>,
    models: Option<&str>,
    seed: Option<u64>,
    runs: Option<usize>,
    with_score: bool,
    serate_budget: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let lines = lines_of(None, puzzles.len())?;
    let mut opts = match models {
        Some(m) => RateOptions::for_models(m).map_err(value_error)?,
        None => RateOptions::default(),
    };
    if let Some(seed) = seed {
        opts.seed = seed;
    }
    if let Some(r) = runs {
        opts.set_runs(r);
    }
    if let Some(b) = serate_budget {
        opts.serate_budget = b;
    }
    opts.check().map_err(option_error)?;
    let parsed = parse_all(&puzzles, &lines)?;
    // Every model reads pencilmark grids (those defined on givens say so in
    // the row's status); the score reads givens.
    let rows = run_batch(py, parsed, lines, |_, p| {
        Ok(RatedRow::of(p, &opts, with_score && !p.has_pencilmarks())?)
    })?;
    to_py(py, &rows)
}

/// A `score` row, or with `keep_going` the row of a puzzle that has none:
/// its line, its text and why (as `score --keep-going` reports a skipped
/// line on stderr).
#[derive(Serialize)]
#[serde(untagged)]
enum ScoreOrError {
    Scored(ScoreRow),
    Refused {
        line: usize,
        puzzle: String,
        error: String,
    },
}

/// `sudolab fit --score` on a results table (JSONL or CSV text, as the CLI
/// reads a results file): the report as a dict, its `model` the model file
/// `sudolab score --model` reads. Label fields are `label:N` or column
/// names, as the CLI's flags take them; metric names are the CLI's. A
/// choice the data cannot take raises `ValueError` naming the parameter.
#[pyfunction]
#[pyo3(signature = (results, source, label, se=None, level=None, metrics=None, fast_metrics=None, keep=None, se_anchor=None, train_only=None, timed=None, timed_weight=None, time_margin=None, source_weights=None, population=None, seed=None, bootstrap=None))]
#[allow(clippy::too_many_arguments)]
fn fit_score<'py>(
    py: Python<'py>,
    results: &str,
    source: &str,
    label: &str,
    se: Option<&str>,
    level: Option<&str>,
    metrics: Option<Vec<String>>,
    fast_metrics: Option<Vec<String>>,
    keep: Option<Vec<String>>,
    se_anchor: Option<String>,
    train_only: Option<Vec<String>>,
    timed: Option<String>,
    timed_weight: Option<f64>,
    time_margin: Option<f64>,
    source_weights: Option<std::collections::BTreeMap<String, f64>>,
    population: Option<String>,
    seed: Option<u64>,
    bootstrap: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let spec_of = |text: &str| LabelSpec::parse(text).map_err(value_error);
    let metric_list = |names: Vec<String>| -> PyResult<Vec<Metric>> {
        names
            .iter()
            .map(|n| n.parse::<Metric>().map_err(value_error))
            .collect()
    };
    let d = ScoreFitOptions::default();
    let seed = seed.unwrap_or(d.seed);
    let spec = ScoreFitSpec {
        fields: LabelFields {
            source: spec_of(source)?,
            rank: spec_of(label)?,
            se: se.map(spec_of).transpose()?,
            level: level.map(spec_of).transpose()?,
        },
        metrics: metric_list(metrics.unwrap_or_default())?,
        fast_metrics: fast_metrics.map(metric_list).transpose()?,
        se_anchor,
        train_only: train_only.unwrap_or_default(),
        options: ScoreFitOptions {
            seed,
            bootstrap: sudolab::BootstrapOptions {
                replicates: bootstrap.unwrap_or(d.bootstrap.replicates),
                seed,
                ..d.bootstrap
            },
            timed,
            timed_weight: timed_weight.unwrap_or(d.timed_weight),
            time_margin: time_margin.unwrap_or(d.time_margin),
            source_weights: source_weights.unwrap_or_default(),
            population: population.unwrap_or_default(),
            keep: metric_list(keep.unwrap_or_default())?,
            ..d
        },
    };
    let table =
        ResultsTable::parse(results, TableFormat::detect(None, results)).map_err(value_error)?;
    let report = interruptible(py, |_| sudolab::fit_score(&table, &spec))?.map_err(value_error)?;
    to_py(py, &report)
}

/// `sudolab score` rows (dicts) for a batch, on every core; a puzzle
/// without a score (or that does not parse) raises `ValueError` naming its
/// line, or with `keep_going` gives a row with `line`, `puzzle` and
/// `error` in its place (an engine disagreement always raises). Parameters
/// left out take the library's defaults (`ScoreOptions`, the shipped
/// model's seed).
#[pyfunction]
#[pyo3(signature = (puzzles, lines=None, fast=None, scale=None, seed=None, all_metrics=None, serate_budget=None, keep_going=false))]
#[allow(clippy::too_many_arguments)]
fn score_rows<'py>(
    py: Python<'py>,
    puzzles: Vec<String>,
    lines: Option<Vec<usize>>,
    fast: Option<bool>,
    scale: Option<usize>,
    seed: Option<u64>,
    all_metrics: Option<bool>,
    serate_budget: Option<u64>,
    keep_going: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let d = ScoreOptions::default();
    let mut model = ScoreModel::shipped().clone();
    if let Some(seed) = seed {
        model.params.seed = seed;
    }
    let opts = ScoreOptions {
        model,
        fast: fast.unwrap_or(d.fast),
        scale: scale.unwrap_or(d.scale),
        all_metrics: all_metrics.unwrap_or(d.all_metrics),
        serate_budget: serate_budget.unwrap_or(d.serate_budget),
        // As `sudolab score`: Berthier's ratings with rate's budget.
        berthier_budget: ScoreOptions::BERTHIER_BUDGET,
    };
    opts.check().map_err(option_error)?;
    let lines = lines_of(lines, puzzles.len())?;
    if !keep_going {
        let parsed = parse_all(&puzzles, &lines)?;
        let rows = run_batch(py, parsed, lines, |line, p| {
            // A pencilmark grid has no score: `ValueError` naming its line.
            let scored = sudolab::score(p, &opts).map_err(|e| match e {
                e @ sudolab::ScoreError::Pencilmarks => JobError::refused(e),
                e => e.into(),
            })?;
            Ok(ScoreRow::new(line, p, scored, None, opts.all_metrics))
        })?;
        return to_py(py, &rows);
    }
    // The puzzles that parse are scored; the others keep their place.
    let mut rows: Vec<Option<ScoreOrError>> = Vec::with_capacity(puzzles.len());
    let (mut parsed, mut parsed_lines) = (Vec::new(), Vec::new());
    for (text, &line) in puzzles.iter().zip(&lines) {
        match parse_puzzle(text) {
            Ok(p) => {
                parsed.push(p);
                parsed_lines.push(line);
                rows.push(None);
            }
            Err(e) => rows.push(Some(ScoreOrError::Refused {
                line,
                puzzle: text.clone(),
                error: e.to_string(),
            })),
        }
    }
    // A pencilmark grid gets its row with the score's reason, as any
    // puzzle without a score does.
    let scored = run_batch(py, parsed, parsed_lines, |line, p| {
        Ok(match sudolab::score(p, &opts) {
            Ok(s) => ScoreOrError::Scored(ScoreRow::new(line, p, s, None, opts.all_metrics)),
            Err(sudolab::ScoreError::Disagreement(d)) => return Err(d.into()),
            Err(e) => ScoreOrError::Refused {
                line,
                puzzle: p.to_line(),
                error: e.to_string(),
            },
        })
    })?;
    let mut scored = scored.into_iter();
    let rows: Vec<ScoreOrError> = rows
        .into_iter()
        .filter_map(|r| r.or_else(|| scored.next()))
        .collect();
    to_py(py, &rows)
}

/// The parameters of `sudolab analyze` (`**options`, the names of
/// [`ANALYZE_PARAMETERS`](analyze_parameters::ANALYZE_PARAMETERS)),
/// checked as the CLI checks them before any work
/// (`AnalyzeOptions::check`) and completed with the defaults: a dict of
/// every parameter to pass to `analyze`. Raises `ValueError` for a value
/// the CLI refuses, with its message, and `TypeError` for an unknown name.
#[pyfunction]
#[pyo3(signature = (**options))]
fn analyze_options<'py>(
    py: Python<'py>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = analyze_parameters::analyze_options_of(options)?;
    analyze_parameters::values(py, &opts)
}

/// `sudolab analyze` rows (dicts) for a batch (with their input `lines`),
/// on every core, with the CLI's defaults and meaning for every parameter
/// (`**options`, as [`analyze_options`] takes them).
#[pyfunction]
#[pyo3(signature = (puzzles, lines=None, **options))]
fn analyze<'py>(
    py: Python<'py>,
    puzzles: Vec<String>,
    lines: Option<Vec<usize>>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let opts = analyze_parameters::analyze_options_of(options)?;
    let lines = lines_of(lines, puzzles.len())?;
    let parsed = parse_all(&puzzles, &lines)?;
    // As the CLI and `relax` do: a k beyond the graph is the caller's
    // mistake, refused before any work, not an `errors` column per row.
    if opts.groups.contains(&MetricGroup::Relax) && !opts.relax.auto_k {
        for (p, line) in parsed.iter().zip(&lines) {
            RelaxOptions::check_k("k", opts.relax.k, p.order()).map_err(|e| {
                PyValueError::new_err(format!("{e} (the grid of the puzzle on input line {line})"))
            })?;
        }
    }
    let rows = run_batch(py, parsed, lines, |line, p| {
        Ok(Lined {
            line,
            row: analyze_one(p, &opts)?,
        })
    })?;
    to_py(py, &rows)
}

/// The variant of `all` named `s` (any case), as the command line names it.
fn enum_arg<T: Copy + std::fmt::Display>(all: &[T], what: &str, s: &str) -> PyResult<T> {
    all.iter()
        .copied()
        .find(|v| v.to_string().eq_ignore_ascii_case(s))
        .ok_or_else(|| {
            let names: Vec<String> = all.iter().map(|v| v.to_string()).collect();
            PyValueError::new_err(format!(
                "{what} {s:?}: expected one of {}",
                names.join(", ")
            ))
        })
}

/// `sudolab generate` rows (dicts): `count` puzzles from `seed`. Parameters
/// left out take the library's defaults (`GenerateOptions`).
#[pyfunction]
#[pyo3(signature = (method=None, count=None, seed=None, order=None, symmetry=None, minimal=None, max_tries=None, level=None))]
#[allow(clippy::too_many_arguments)]
fn generate_rows<'py>(
    py: Python<'py>,
    method: Option<&str>,
    count: Option<usize>,
    seed: Option<u64>,
    order: Option<usize>,
    symmetry: Option<&str>,
    minimal: Option<bool>,
    max_tries: Option<usize>,
    level: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut opts = GenerateOptions::default();
    if let Some(m) = method {
        opts.method = enum_arg(&Method::ALL, "method", m)?;
    }
    if let Some(s) = symmetry {
        opts.symmetry = enum_arg(&Symmetry::ALL, "symmetry", s)?;
    }
    opts.order = order.unwrap_or(opts.order);
    opts.minimal = minimal.unwrap_or(opts.minimal);
    opts.run.count = count.unwrap_or(opts.run.count);
    opts.run.seed = seed.unwrap_or(opts.run.seed);
    opts.run.max_tries = max_tries.unwrap_or(opts.run.max_tries);
    opts.aim.level = level
        .map(|l| enum_arg(&Level::ALL, "level", l))
        .transpose()?;
    opts.check().map_err(option_error)?;
    let rows = interruptible(py, |_| sudolab::generate(&opts))?.map_err(value_error)?;
    to_py(py, &rows)
}

/// The canonical form (`sudolab canon`) of a 4×4 or 9×9 puzzle.
#[pyfunction]
fn canon(puzzle: &str) -> PyResult<String> {
    let p = parse_givens(puzzle)?;
    p.canonical().map(|c| c.to_line()).map_err(value_error)
}

/// The HTML report's fixedness heatmap (SVG) of a puzzle, with its solution
/// digits when the engines find a unique one.
#[pyfunction]
fn fixedness_svg(puzzle: &str, fixedness: Vec<f64>) -> PyResult<String> {
    let p = parse(puzzle)?;
    if fixedness.len() != p.cells().len() {
        return Err(PyValueError::new_err(format!(
            "{} fixedness values for {} cells",
            fixedness.len(),
            p.cells().len()
        )));
    }
    let engines = Engines::all();
    let unique = engines.status(&p).map_err(|d| disagreement(&d, None))? == sudolab::Status::Unique;
    let solution = if unique {
        engines.solve(&p).map_err(|d| disagreement(&d, None))?
    } else {
        None
    };
    sudolab::fixedness_svg(
        p.side(),
        p.cells(),
        solution.as_ref().map(|s| s.cells()),
        &fixedness,
    )
    .map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// The HTML report's clause-length histogram (SVG): one series per
/// `(name, ALO clause counts by length)`.
#[pyfunction]
fn clause_histogram_svg(series: Vec<(String, Vec<u64>)>) -> PyResult<String> {
    sudolab::clause_histogram_svg(&series).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    sudolab::cpu_check().map_err(pyo3::exceptions::PyImportError::new_err)?;
    // The CLI's ceilings, one definition (`RelaxOptions::MAX_SAMPLES` and the others), for callers
    // that size their requests; the options' `check()` enforces them.
    m.add("MAX_SAMPLES", RelaxOptions::MAX_SAMPLES)?;
    m.add("MAX_RUNS", RateOptions::MAX_RUNS)?;
    m.add("MAX_GENERATED", GenerateOptions::MAX_GENERATED)?;
    m.add(
        "EngineDisagreement",
        m.py().get_type::<EngineDisagreement>(),
    )?;
    // The default rating seed of every command, so Python's defaults are
    // the CLI's.
    m.add("DEFAULT_SEED", sudolab::DEFAULT_SEED)?;
    m.add_function(wrap_pyfunction!(parse_line, m)?)?;
    m.add_function(wrap_pyfunction!(line_from_cells, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(clauses, m)?)?;
    m.add_function(wrap_pyfunction!(relax_report, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(score_rows, m)?)?;
    m.add_function(wrap_pyfunction!(fit_score, m)?)?;
    // The analyze parameters, for the Python wrappers' signatures and the
    // stubs (`python/gen_stubs.py`).
    m.add("ANALYZE_PARAMETERS", analyze_parameters::table(m.py())?)?;
    m.add_function(wrap_pyfunction!(analyze_options, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(generate_rows, m)?)?;
    m.add_function(wrap_pyfunction!(canon, m)?)?;
    m.add_function(wrap_pyfunction!(fixedness_svg, m)?)?;
    m.add_function(wrap_pyfunction!(clause_histogram_svg, m)?)?;
    Ok(())
}
