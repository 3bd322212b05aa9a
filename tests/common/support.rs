//! The helpers every test needs, one copy: the integration tests include
//! it from `tests/common/mod.rs`, the tests of the library's internals from
//! `src/tests/common.rs` (each parent brings `Puzzle`, `read_puzzles` and
//! `data_dir` into scope from its side of the crate boundary).

use super::{Puzzle, data_dir, read_puzzles};

/// The puzzles of `tests/fixtures/NAME`.
pub(crate) fn fixture(name: &str) -> Vec<Puzzle> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_puzzles(&text)
        .into_iter()
        .map(|r| r.expect("fixture parses").1)
        .collect()
}

/// Whether this run must have every external dependency: `CI` is set (as
/// `.ci/run` runs the tests, after installing them).
pub(crate) fn required() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// Whether the heavy variants run (`SUDOLAB_FULL_TESTS=1`): the full data
/// sets, every embedded puzzle at the default budgets and the large random
/// cross-checks, where the default run checks the same property on a
/// seeded sample it names.
pub(crate) fn full() -> bool {
    std::env::var_os("SUDOLAB_FULL_TESTS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// `full` when the heavy variants run, else `sampled`.
pub(crate) fn full_or<T>(full_size: T, sampled: T) -> T {
    if full() { full_size } else { sampled }
}

/// Skips a test part that needs something absent: a visible note on a
/// developer's machine, a failure when [`required`].
pub(crate) fn skip(what: &str, how: &str) {
    if required() {
        panic!("{what} is missing and CI is set: {how}");
    }
    // Straight to the stderr handle: the test harness captures `eprintln!`
    // of passing tests, and this note must be seen.
    let note = format!("note: skipping, {what} is missing ({how})\n");
    let _ = std::io::Write::write_all(&mut std::io::stderr(), note.as_bytes());
}

/// Path of a file of `../shared/data` (next to the repository, or under
/// `SUDOLAB_DATA`), or `None` after [`skip`] when it is absent.
pub(crate) fn shared_data_path(rel: &str) -> Option<std::path::PathBuf> {
    let path = data_dir().join(rel);
    if path.exists() {
        Some(path)
    } else {
        skip(
            &path.display().to_string(),
            "the shared data sets sit beside the repository as ../shared/data",
        );
        None
    }
}

/// A file of `../shared/data`, or `None` (see [`shared_data_path`]).
pub(crate) fn shared_data(rel: &str) -> Option<String> {
    let path = shared_data_path(rel)?;
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// Whether an external program is on `PATH`; when not, [`skip`] with the
/// command that installs it.
pub(crate) fn external_tool(name: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(name).is_file()));
    if !found {
        skip(
            name,
            &format!("apt-get install {name}; .ci/run installs it"),
        );
    }
    found
}
