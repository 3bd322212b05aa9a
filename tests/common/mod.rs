#![allow(dead_code)]
//! Helpers shared by the integration tests.

use sudolab::{Puzzle, read_puzzles};

pub fn fixture(name: &str) -> Vec<Puzzle> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_puzzles(&text)
        .into_iter()
        .map(|r| r.expect("fixture parses").1)
        .collect()
}

/// Whether this run must have every external dependency: `CI` is set (as
/// `.ci/run` runs the tests, after installing them).
pub fn required() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// Skips a test part that needs something absent: a visible note on a
/// developer's machine, a failure when [`required`].
pub fn skip(what: &str, how: &str) {
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
pub fn shared_data_path(rel: &str) -> Option<std::path::PathBuf> {
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
pub fn shared_data(rel: &str) -> Option<String> {
    let path = shared_data_path(rel)?;
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// Whether an external program is on `PATH`; when not, [`skip`] with the
/// command that installs it.
pub fn external_tool(name: &str) -> bool {
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

/// The shared data folder: one definition for the library's tests, the
/// integration tests, the benches and the examples.
#[path = "../../src/data.rs"]
mod data;
pub(crate) use data::data_dir;

/// Deterministic xorshift64 generator for tests (Marsaglia's, as the
/// crate's own).
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Runs the `sudolab` binary in `dir` with `args` and `stdin`; returns the
/// exit code, stdout and stderr.
pub fn sudolab_in(dir: &std::path::Path, args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The command may exit before reading its input (a usage error).
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// [`sudolab_in`] the current folder, with text input.
pub fn sudolab(args: &[&str], stdin: &str) -> (i32, String, String) {
    sudolab_in(std::path::Path::new("."), args, stdin.as_bytes())
}
