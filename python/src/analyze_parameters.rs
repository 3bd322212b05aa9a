//! The parameters of `sudolab analyze` as Python takes them, declared once.
//!
//! [`ANALYZE_PARAMETERS`] is the one table of the keyword parameters that
//! `sudolab.analyze`, `analyze_batch`, `analyze_options` and `sudolab.dask`
//! take: each parameter's name, the Python type of its value, what it means,
//! how a given value sets the library's [`AnalyzeOptions`] and how the
//! checked options give it back. The native `analyze` and `analyze_options`
//! read their `**options` through it (an unknown name raises `TypeError`
//! naming it and the known ones), the module exports it as
//! `ANALYZE_PARAMETERS` (name, type, the CLI's default, doc), the Python
//! wrappers build their signatures and docs from that at import time, and
//! `python/gen_stubs.py` writes the stubs' parameter lines from it (a test
//! fails when the committed stubs differ). A parameter added here reaches
//! every Python entry point; the command line's flags stay clap's.

use crate::{k_choice, option_error, to_py, value_error};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sudolab::{AnalyzeOptions, MetricGroup, RelaxOptions};

/// One keyword parameter of `analyze`.
pub(crate) struct AnalyzeParameter {
    /// The keyword, as the command line's flag names it (`--samples`).
    pub name: &'static str,
    /// The Python type of its value once checked (what `analyze_options`
    /// returns for it); a caller may also give `None`, the CLI's default.
    pub value_type: &'static str,
    /// What it means, for the Python docs and stubs.
    pub doc: &'static str,
    /// Sets the options from a value given for `name` (never `None`).
    apply: fn(&mut AnalyzeOptions, &str, &Bound<'_, PyAny>) -> PyResult<()>,
    /// The value in checked options.
    value: for<'py> fn(Python<'py>, &AnalyzeOptions) -> PyResult<Bound<'py, PyAny>>,
}

/// `value` as a `T`, or a `TypeError` naming the parameter.
fn extract<'py, T: FromPyObject<'py>>(name: &str, value: &Bound<'py, PyAny>) -> PyResult<T> {
    T::extract_bound(value)
        .map_err(|e| PyTypeError::new_err(format!("{name}: {}", e.value(value.py()))))
}

/// The analyze parameters, in the order the signatures list them.
pub(crate) const ANALYZE_PARAMETERS: [AnalyzeParameter; 7] = [
    AnalyzeParameter {
        name: "metrics",
        value_type: "str",
        doc: "Metric groups, comma list: clauses, relax, rate-all (every model), rate:MODELS \
              (e.g. rate:nishio,weights; the models of rate()) or score (the difficulty score, \
              its level, SE-equivalent and predicted minutes).",
        apply: |o, name, v| {
            o.groups =
                MetricGroup::parse_list(&extract::<String>(name, v)?).map_err(value_error)?;
            Ok(())
        },
        value: |py, o| to_py(py, &o.metrics()),
    },
    AnalyzeParameter {
        name: "k",
        value_type: "Union[int, str]",
        doc: "Relaxation: edges removed, or \"auto\": each puzzle's onset (where P(unique) \
              falls through one half over 100 samples), recorded in the row's k and \
              relaxation_onset_k.",
        apply: |o, _, v| {
            o.relax = o.relax.clone().with_k(k_choice(v)?);
            Ok(())
        },
        value: |py, o| to_py(py, &o.relax.k_choice()),
    },
    AnalyzeParameter {
        name: "samples",
        value_type: "int",
        doc: "Relaxation: samples per puzzle (at most MAX_SAMPLES); with precision, the most \
              that are drawn.",
        apply: |o, name, v| {
            o.relax.samples = extract(name, v)?;
            Ok(())
        },
        value: |py, o| to_py(py, &o.relax.samples),
    },
    AnalyzeParameter {
        name: "seed",
        value_type: "int",
        doc: "Seed of every randomized metric (the relaxation's samples and the human models).",
        apply: |o, name, v| {
            o.relax.seed = extract(name, v)?;
            o.rate_seed = o.relax.seed;
            Ok(())
        },
        value: |py, o| to_py(py, &o.relax.seed),
    },
    AnalyzeParameter {
        name: "cap",
        value_type: "int",
        doc: "Relaxation: solution cap.",
        apply: |o, name, v| {
            o.relax.cap = extract(name, v)?;
            Ok(())
        },
        value: |py, o| to_py(py, &o.relax.cap),
    },
    AnalyzeParameter {
        name: "fixedness",
        value_type: "bool",
        doc: "Include the per-cell fixedness map in relax metrics.",
        apply: |o, name, v| {
            o.fixedness = extract(name, v)?;
            Ok(())
        },
        value: |py, o| to_py(py, &o.fixedness),
    },
    AnalyzeParameter {
        name: "precision",
        value_type: "Optional[float]",
        doc: "Relaxation: draw samples until the 95 % interval of mean_fixed is within ± this \
              many cells (at least 30, at most samples); each row reports the samples it used.",
        apply: |o, name, v| {
            o.relax.precision = Some(extract(name, v)?);
            Ok(())
        },
        value: |py, o| to_py(py, &o.relax.precision),
    },
];

/// The analyze options of the given keyword parameters (`None` or left out:
/// the library's default, `AnalyzeOptions`, the CLI's), checked as the CLI
/// checks them. An unknown keyword raises `TypeError` naming it and the
/// known ones.
pub(crate) fn analyze_options_of(given: Option<&Bound<'_, PyDict>>) -> PyResult<AnalyzeOptions> {
    let mut opts = AnalyzeOptions::default();
    for (key, value) in given.into_iter().flat_map(|d| d.iter()) {
        let name: String = key.extract()?;
        let parameter = ANALYZE_PARAMETERS
            .iter()
            .find(|p| p.name == name)
            .ok_or_else(|| {
                let known: Vec<&str> = ANALYZE_PARAMETERS.iter().map(|p| p.name).collect();
                PyTypeError::new_err(format!(
                    "unknown analyze parameter '{name}': expected one of {}",
                    known.join(", ")
                ))
            })?;
        if !value.is_none() {
            (parameter.apply)(&mut opts, &name, &value)?;
        }
    }
    // As `sudolab analyze`: one sample in 500 cross-checked, at least one.
    opts.relax.verify = RelaxOptions::default_verify(opts.relax.samples);
    opts.check().map_err(option_error)?;
    Ok(opts)
}

/// Every parameter's value in `opts`, by name: what `analyze_options`
/// returns.
pub(crate) fn values<'py>(py: Python<'py>, opts: &AnalyzeOptions) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for p in &ANALYZE_PARAMETERS {
        out.set_item(p.name, (p.value)(py, opts)?)?;
    }
    Ok(out)
}

/// The table for Python (`_native.ANALYZE_PARAMETERS`): a dict per
/// parameter with its `name`, `type`, `default` (the CLI's, from
/// [`AnalyzeOptions::default`]) and `doc`.
pub(crate) fn table<'py>(py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let defaults = analyze_options_of(None)?;
    ANALYZE_PARAMETERS
        .iter()
        .map(|p| {
            let entry = PyDict::new(py);
            entry.set_item("name", p.name)?;
            entry.set_item("type", p.value_type)?;
            entry.set_item("default", (p.value)(py, &defaults)?)?;
            entry.set_item("doc", p.doc)?;
            Ok(entry)
        })
        .collect()
}
