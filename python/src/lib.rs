//! `sudolab._native`: the PyO3 extension under the `sudolab` Python package.
//!
//! Each function calls one function of the `sudolab` library and hands its
//! result to Python as the library's own serialised row (the JSON the CLI
//! writes with `--format jsonl`, built from the same `Serialize` types), so
//! the Python package (`python/sudolab/`) and the CLI can never drift apart:
//! the same seeds give the same numbers. Batch functions parse every puzzle
//! first (a bad one raises `ValueError` naming its position), then release
//! the GIL and analyse on rayon's pool, one task per puzzle, like the CLI's
//! `analyze`, `rate` and `score`.
//!
//! Errors: a puzzle the library refuses raises `ValueError` with the
//! library's message, naming the puzzle by its line: the `lines` given, else
//! its 1-based position in the batch (`line 1` for a single puzzle), as the
//! CLI names input lines; a count parameter above the CLI's ceiling
//! ([`sudolab::limits`]) raises `ValueError` naming the parameter. A Ctrl-C
//! during a native call raises `KeyboardInterrupt` within a fraction of a
//! second (signals are checked while the work runs, which stops between
//! samples or puzzles); an engine [`Disagreement`] (always a bug) raises
//! `sudolab.EngineDisagreement` (a `RuntimeError`) carrying the reproducible
//! case, never a missing value.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use sudolab::analyze::results::Lined;
use sudolab::analyze::{AnalyzeOptions, analyze as analyze_one, rate_row};
use sudolab::cnf::{self, ClassCuts, Encoding, clause_row};
use sudolab::engine::{Disagreement, Engines};
use sudolab::generate::{self, GenerateOptions, Level, Method, RunOptions, Symmetry};
use sudolab::grid::{Puzzle, canon::canonical, parse_puzzle};
use sudolab::human::RateOptions;
use sudolab::limits::{MAX_GENERATED, MAX_RUNS, MAX_SAMPLES};
use sudolab::metrics::parse_metric_groups;
use sudolab::relax::{self, RelaxError, RelaxOptions};
use sudolab::report::{jsonl_line, plot};
use sudolab::score::{self, ScoreError, ScoreModel, ScoreOptions, ScoreRow};

/// Refuses a count parameter above its ceiling, naming it as the CLI does.
fn at_most(name: &str, value: usize, max: usize) -> PyResult<()> {
    if value > max {
        return Err(PyValueError::new_err(format!(
            "{name}={value}: at most {max} (the ceiling of the CLI's --{name})"
        )));
    }
    Ok(())
}

/// Runs `work` with the GIL released on another thread while this one
/// checks for signals every 50 ms: on a Ctrl-C (`KeyboardInterrupt`, or
/// whatever a Python signal handler raises) `stop` is raised, the work
/// stops at its next check, and the signal's exception is returned.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
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
                }
            }
            handle.join()
        })
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    done.map_err(|_| PyRuntimeError::new_err("a native worker thread panicked"))
}

/// Why a batch stopped: the engines disagreed at an input line, or the
/// caller was interrupted.
enum Stopped {
    Disagreement(usize, Disagreement),
    Interrupted,
}

fn stopped_error(s: Stopped) -> PyErr {
    match s {
        Stopped::Disagreement(line, d) => disagreement(&d, Some(line)),
        // `interruptible` returns the signal's own exception first.
        Stopped::Interrupted => {
            PyErr::new::<pyo3::exceptions::PyKeyboardInterrupt, _>("interrupted")
        }
    }
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `sudolab.EngineDisagreement(message, case)`: `case` holds the question,
/// the puzzle, each engine's answer and the input line, enough to reproduce.
fn disagreement(d: &Disagreement, line: Option<usize>) -> PyErr {
    let message = match line {
        Some(line) => format!("ENGINE DISAGREEMENT (bug) at input line {line}: {d}"),
        None => format!("ENGINE DISAGREEMENT (bug): {d}"),
    };
    let case = serde_json::json!({
        "what": d.what,
        "puzzle": d.puzzle,
        "answers": d.answers.iter().map(|(e, a)| (e.to_string(), a.clone())).collect::<Vec<_>>(),
        "line": line,
    });
    Python::attach(|py| {
        let raised = py
            .import("sudolab")
            .and_then(|m| m.getattr("EngineDisagreement"))
            .and_then(|cls| cls.call1((message.clone(), case.to_string())));
        match raised {
            Ok(exc) => PyErr::from_value(exc),
            Err(_) => PyRuntimeError::new_err(message),
        }
    })
}

fn json<T: Serialize>(row: &T) -> PyResult<String> {
    jsonl_line(row).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

fn parse(text: &str) -> PyResult<Puzzle> {
    parse_puzzle(text).map_err(value_error)
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

/// DIMACS CNF text of a puzzle in `encoding` (min, max, lo-min, …), as
/// `sudolab encode` writes it.
#[pyfunction]
fn encode(puzzle: &str, encoding: &str) -> PyResult<String> {
    let p = parse(puzzle)?;
    let encoding: Encoding = encoding.parse().map_err(value_error)?;
    let mut text = Vec::new();
    cnf::write_dimacs(&p, encoding, &mut text).map_err(value_error)?;
    String::from_utf8(text).map_err(value_error)
}

/// The clause-length histogram row of `sudolab clauses` (JSON).
#[pyfunction]
#[pyo3(signature = (puzzle, encoding, cuts=None))]
fn clauses(puzzle: &str, encoding: &str, cuts: Option<&str>) -> PyResult<String> {
    let p = parse(puzzle)?;
    let encoding: Encoding = encoding.parse().map_err(value_error)?;
    let cuts = match cuts {
        Some(c) => ClassCuts::parse(c).map_err(value_error)?,
        None => ClassCuts::patti(p.side()),
    };
    json(&clause_row(&p, encoding, cuts).map_err(value_error)?)
}

/// One relaxation (Pelánek §3.2) as `sudolab relax` computes it: the JSON
/// report row (line 1) and, when asked, every sample as a JSON list.
#[pyfunction]
#[pyo3(signature = (puzzle, k, samples, seed, cap, engine, verify=None, with_samples=false))]
#[allow(clippy::too_many_arguments)]
fn relax_report(
    py: Python<'_>,
    puzzle: &str,
    k: usize,
    samples: usize,
    seed: u64,
    cap: u64,
    engine: &str,
    verify: Option<usize>,
    with_samples: bool,
) -> PyResult<(String, Option<String>)> {
    let p = parse(puzzle).map_err(|e| PyValueError::new_err(format!("line 1: {e}")))?;
    let engines: Engines = engine.parse().map_err(value_error)?;
    if samples == 0 {
        return Err(value_error(RelaxError::NoSamples));
    }
    at_most("samples", samples, MAX_SAMPLES)?;
    let opts = RelaxOptions {
        k,
        samples,
        seed,
        cap,
        verify: RelaxOptions::verify_for(&engines, samples, verify),
        engines,
        verify_by: Default::default(),
    };
    let (report, drawn) =
        interruptible(py, |stop| relax::relax_until(&p, &opts, stop))?.map_err(|e| match e {
            RelaxError::Disagreement(d) => disagreement(&d, None),
            RelaxError::Interrupted => stopped_error(Stopped::Interrupted),
            e => value_error(format!("line 1: {e}")),
        })?;
    let samples_json = if with_samples {
        Some(serde_json::to_string(&drawn).map_err(value_error)?)
    } else {
        None
    };
    Ok((
        json(&Lined {
            line: 1,
            row: &report,
        })?,
        samples_json,
    ))
}

/// `sudolab rate` rows (JSON) for a batch, on every core.
#[pyfunction]
#[pyo3(signature = (puzzles, models, seed, runs=None, with_score=true))]
fn rate(
    py: Python<'_>,
    puzzles: Vec<String>,
    models: &str,
    seed: u64,
    runs: Option<usize>,
    with_score: bool,
) -> PyResult<Vec<String>> {
    let lines = lines_of(None, puzzles.len())?;
    let parsed = parse_all(&puzzles, &lines)?;
    let mut opts = RateOptions::for_models(models).map_err(value_error)?;
    opts.seed = seed;
    if let Some(r) = runs {
        at_most("runs", r, MAX_RUNS)?;
        opts.set_runs(r);
    }
    opts.check().map_err(value_error)?;
    let rows = interruptible(py, |stop| {
        parsed
            .par_iter()
            .zip(lines.par_iter())
            .map(|(p, &line)| {
                if stop.load(Ordering::Relaxed) {
                    return Err(Stopped::Interrupted);
                }
                rate_row(p, &opts, with_score).map_err(|d| Stopped::Disagreement(line, d))
            })
            .collect::<Result<Vec<_>, _>>()
    })?;
    let rows = rows.map_err(stopped_error)?;
    rows.iter().map(json).collect()
}

/// `sudolab score` rows (JSON) for a batch, on every core; a puzzle without
/// a score raises `ValueError` naming its line.
#[pyfunction]
#[pyo3(signature = (puzzles, lines=None, fast=false, scale=4, seed=None, all_metrics=false))]
fn score_rows(
    py: Python<'_>,
    puzzles: Vec<String>,
    lines: Option<Vec<usize>>,
    fast: bool,
    scale: usize,
    seed: Option<u64>,
    all_metrics: bool,
) -> PyResult<Vec<String>> {
    if !(2..=10).contains(&scale) {
        return Err(PyValueError::new_err(format!(
            "scale {scale}: expected 2 to 10 levels"
        )));
    }
    let lines = lines_of(lines, puzzles.len())?;
    let parsed = parse_all(&puzzles, &lines)?;
    let mut model = ScoreModel::shipped().clone();
    if let Some(seed) = seed {
        model.params.seed = seed;
    }
    let opts = ScoreOptions {
        model,
        fast,
        scale,
        all_metrics,
    };
    let results: Vec<_> = interruptible(py, |stop| {
        parsed
            .par_iter()
            .map(|p| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                Some(score::score(p, &opts))
            })
            .collect()
    })?;
    let Some(results) = results.into_iter().collect::<Option<Vec<_>>>() else {
        return Err(stopped_error(Stopped::Interrupted));
    };
    let mut out = Vec::with_capacity(results.len());
    for ((p, line), r) in parsed.iter().zip(lines).zip(results) {
        match r {
            Ok(s) => out.push(json(&ScoreRow {
                line,
                puzzle: p.to_line(),
                label: p.label.clone(),
                calibrated_level: None,
                score: s.score,
                hardest_technique: s.hardest_technique,
                metrics: if all_metrics {
                    s.metrics
                } else {
                    Default::default()
                },
            })?),
            Err(ScoreError::Disagreement(d)) => return Err(disagreement(&d, Some(line))),
            Err(e) => return Err(PyValueError::new_err(format!("line {line}: {e}"))),
        }
    }
    Ok(out)
}

/// `sudolab analyze` JSONL rows for a batch (with their input `lines`), on
/// every core, with the CLI's defaults and meaning for every parameter.
#[pyfunction]
#[pyo3(signature = (puzzles, lines=None, metrics="clauses,relax,score", k=45, samples=200, seed=sudolab::seed::DEFAULT_SEED, cap=1000, fixedness=false))]
#[allow(clippy::too_many_arguments)]
fn analyze(
    py: Python<'_>,
    puzzles: Vec<String>,
    lines: Option<Vec<usize>>,
    metrics: &str,
    k: usize,
    samples: usize,
    seed: u64,
    cap: u64,
    fixedness: bool,
) -> PyResult<Vec<String>> {
    let opts = AnalyzeOptions {
        groups: parse_metric_groups(metrics).map_err(value_error)?,
        relax: RelaxOptions {
            k,
            samples,
            seed,
            cap,
            engines: Engines::default(),
            verify: relax::default_verify(samples),
            verify_by: Default::default(),
        },
        rate_seed: seed,
        fixedness,
        dedup: false,
    };
    opts.check()
        .map_err(|e| PyValueError::new_err(format!("samples: {e}")))?;
    at_most("samples", samples, MAX_SAMPLES)?;
    let lines = lines_of(lines, puzzles.len())?;
    let parsed = parse_all(&puzzles, &lines)?;
    // As the CLI and `relax` do: a k beyond the graph is the caller's
    // mistake, refused before any work, not an `errors` column per row.
    if opts.groups.contains(&sudolab::metrics::MetricGroup::Relax) {
        for (p, line) in parsed.iter().zip(&lines) {
            let edges = p.geometry().edges().len();
            if k > edges {
                return Err(PyValueError::new_err(format!(
                    "k={k}: exceeds the {edges} edges of the {side}×{side} Sudoku graph (line {line})",
                    side = p.side()
                )));
            }
        }
    }
    let rows = interruptible(py, |stop| {
        parsed
            .par_iter()
            .zip(lines.par_iter())
            .map(|(p, &line)| {
                if stop.load(Ordering::Relaxed) {
                    return Err(Stopped::Interrupted);
                }
                analyze_one(p, &opts)
                    .map(|row| Lined { line, row })
                    .map_err(|d| Stopped::Disagreement(line, d))
            })
            .collect::<Result<Vec<_>, _>>()
    })?;
    let rows = rows.map_err(stopped_error)?;
    rows.iter().map(json).collect()
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

/// `sudolab generate` rows (JSON): `count` puzzles from `seed`.
#[pyfunction]
#[pyo3(signature = (method="minimal", count=1, seed=0, order=3, symmetry="none", minimal=false, max_tries=1000, level=None))]
#[allow(clippy::too_many_arguments)]
fn generate_rows(
    py: Python<'_>,
    method: &str,
    count: usize,
    seed: u64,
    order: usize,
    symmetry: &str,
    minimal: bool,
    max_tries: usize,
    level: Option<&str>,
) -> PyResult<Vec<String>> {
    at_most("count", count, MAX_GENERATED)?;
    let mut opts = GenerateOptions {
        method: enum_arg(&Method::ALL, "method", method)?,
        symmetry: enum_arg(&Symmetry::ALL, "symmetry", symmetry)?,
        order,
        minimal,
        ..GenerateOptions::default()
    };
    opts.run = RunOptions {
        count,
        seed,
        max_tries,
        ..opts.run.clone()
    };
    opts.aim.level = level
        .map(|l| enum_arg(&Level::ALL, "level", l))
        .transpose()?;
    let rows = py
        .detach(|| generate::generate(&opts))
        .map_err(value_error)?;
    rows.iter().map(json).collect()
}

/// The canonical form (`sudolab canon`) of a 4×4 or 9×9 puzzle.
#[pyfunction]
fn canon(puzzle: &str) -> PyResult<String> {
    let p = parse(puzzle)?;
    canonical(&p).map(|c| c.to_line()).map_err(value_error)
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
    plot::fixedness_grid(
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
    plot::clause_histogram(&series).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    sudolab::cpu_check().map_err(pyo3::exceptions::PyImportError::new_err)?;
    // The CLI's ceilings, one definition: the Python layer checks its
    // arguments against them before calling in.
    m.add("MAX_SAMPLES", MAX_SAMPLES)?;
    m.add("MAX_RUNS", MAX_RUNS)?;
    m.add("MAX_GENERATED", MAX_GENERATED)?;
    // The default rating seed of every command, so Python's defaults are
    // the CLI's.
    m.add("DEFAULT_SEED", sudolab::seed::DEFAULT_SEED)?;
    m.add_function(wrap_pyfunction!(parse_line, m)?)?;
    m.add_function(wrap_pyfunction!(line_from_cells, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(clauses, m)?)?;
    m.add_function(wrap_pyfunction!(relax_report, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(score_rows, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(generate_rows, m)?)?;
    m.add_function(wrap_pyfunction!(canon, m)?)?;
    m.add_function(wrap_pyfunction!(fixedness_svg, m)?)?;
    m.add_function(wrap_pyfunction!(clause_histogram_svg, m)?)?;
    Ok(())
}
