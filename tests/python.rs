//! The Python package (`python/`, PyO3 + maturin) builds, imports and passes
//! its pytest suite: relax, rate, score and analyze equal this CLI's JSONL on
//! 200 puzzles of `../shared/data`, and `sudolab.dask` gives the same rows on
//! a LocalCluster of 2 processes, also when a worker is killed mid-run.
//!
//! The interpreter is `SUDOLAB_PYTHON`, else the venv `.ci/run` makes under
//! the target directory (`target/pyenv`), else `python3`; it needs maturin,
//! pytest, numpy, pandas, dask[distributed] and pyarrow. Without them the test
//! skips with a note, and with `CI` set it fails. The extension is built by
//! `maturin develop --release` into the same target directory as this crate,
//! so it reuses the release build of the library.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

const MODULES: &str = "maturin, pytest, numpy, pandas, dask, distributed, pyarrow";

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

/// How to provide the interpreter: the venv under this run's target
/// directory (`CARGO_TARGET_DIR` honoured), or `SUDOLAB_PYTHON`. The test
/// harness still lists a skipped test as `ok`: this note says it was not.
fn how_to_get_python() -> String {
    let venv = target_dir().join("pyenv");
    let v = venv.display();
    format!(
        "the Python suite did NOT run; set SUDOLAB_PYTHON to an interpreter that has them, or \
         python3 -m venv {v} && {v}/bin/pip install maturin pytest numpy pandas \
         'dask[distributed]' pyarrow (.ci/run does this)"
    )
}

/// An interpreter that imports every module of [`MODULES`].
fn python() -> Option<PathBuf> {
    let venv = target_dir().join("pyenv").join("bin").join("python");
    let candidates = std::env::var_os("SUDOLAB_PYTHON")
        .map(PathBuf::from)
        .into_iter()
        .chain([venv, PathBuf::from("python3")]);
    for python in candidates {
        let ok = Command::new(&python)
            .args(["-c", &format!("import {MODULES}")])
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(python);
        }
    }
    common::skip(&format!("a Python 3 with {MODULES}"), &how_to_get_python());
    None
}

#[test]
fn the_skip_note_names_the_target_directory_and_sudolab_python() {
    let how = how_to_get_python();
    assert!(how.contains("SUDOLAB_PYTHON"), "{how}");
    assert!(
        how.contains(&target_dir().join("pyenv").display().to_string()),
        "{how}"
    );
}

#[test]
fn python_package_passes_its_pytest_suite() {
    let Some(python) = python() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin_dir = python.parent().map(Path::to_path_buf).unwrap_or_default();
    let path = std::env::join_paths(
        std::iter::once(bin_dir.clone()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .expect("PATH joins");
    // `maturin develop` installs into the active virtualenv: the one holding
    // this interpreter (a bare python3 with the modules gets a pip install).
    let venv = bin_dir.parent().map(Path::to_path_buf).unwrap_or_default();
    let build = if venv.join("pyvenv.cfg").exists() {
        Command::new(&python)
            .args(["-m", "maturin", "develop", "--release", "--quiet"])
            .current_dir(root.join("python"))
            .env("VIRTUAL_ENV", &venv)
            .env("CARGO_TARGET_DIR", target_dir())
            .env("PATH", &path)
            .status()
    } else {
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-build-isolation",
                "./python",
            ])
            .current_dir(root)
            .env("CARGO_TARGET_DIR", target_dir())
            .env("PATH", &path)
            .status()
    };
    assert!(
        build.expect("maturin runs").success(),
        "building the Python package failed"
    );
    let out = Command::new(&python)
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "python/tests",
        ])
        .current_dir(root)
        .env("SUDOLAB_BIN", env!("CARGO_BIN_EXE_sudolab"))
        .env("PATH", &path)
        .output()
        .expect("pytest runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Exit 5 is "no tests ran": a failure here, as is any other non-zero exit.
    assert!(
        out.status.success(),
        "pytest exited {:?}:\n{stdout}\n{stderr}",
        out.status.code()
    );
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(
        summary.contains(" passed") && !summary.contains("failed"),
        "pytest summary: {summary}"
    );
    if common::required() {
        assert!(
            !summary.contains("skipped"),
            "pytest skipped tests with CI set: {summary}"
        );
    }
    let note = format!("python: {summary}\n");
    let _ = std::io::Write::write_all(&mut std::io::stderr(), note.as_bytes());
}
