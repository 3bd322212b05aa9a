#![allow(dead_code)]
//! Helpers shared by the integration tests.

use sudolab::{Puzzle, read_puzzles};

mod support;
pub(crate) use support::*;

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

/// Starts `sudolab args` in `dir` with no input and its standard output
/// discarded; its standard error is piped, for the test to read.
pub fn spawn_in(dir: &std::path::Path, args: &[&str]) -> std::process::Child {
    use std::process::{Command, Stdio};
    Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Polls every 5 ms until `ready()` holds while `child` runs; panics when
/// the child ends first, naming what was awaited.
pub fn wait_until(child: &mut std::process::Child, what: &str, mut ready: impl FnMut() -> bool) {
    while !ready() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("finished before {what}: {status}");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Sends SIGINT to `child` (our own, spawned by [`spawn_in`]) and waits for
/// it: its exit status and everything it wrote on standard error.
#[cfg(unix)]
pub fn interrupt_for_stderr(child: std::process::Child) -> (std::process::ExitStatus, String) {
    signal(&child, libc::SIGINT);
    wait_for_stderr(child)
}

/// The `line` numbers of a JSON Lines file, in file order (none for a
/// missing file).
pub fn lines_of(path: &std::path::Path) -> Vec<u64> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| {
            let row: serde_json::Value = serde_json::from_str(l).unwrap();
            row["line"].as_u64().unwrap()
        })
        .collect()
}

/// The names of the files in `d`, sorted.
pub fn files_in(d: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Starts `sudolab args` in `dir` fed `text` on a standard input that
/// stays open (returned): the run waits for more input after it, until
/// the handle is dropped. Standard output is discarded, standard error
/// piped.
pub fn spawn_fed(
    dir: &std::path::Path,
    args: &[&str],
    text: &str,
) -> (std::process::Child, std::process::ChildStdin) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(text.as_bytes()).unwrap();
    stdin.flush().unwrap();
    (child, stdin)
}

/// Sends `sig` to `child` (our own).
#[cfg(unix)]
pub fn signal(child: &std::process::Child, sig: i32) {
    // SAFETY: signals our own child process.
    unsafe { libc::kill(child.id() as libc::pid_t, sig) };
}

/// Waits for `child`: its exit status and everything it wrote on
/// standard error.
pub fn wait_for_stderr(mut child: std::process::Child) -> (std::process::ExitStatus, String) {
    use std::io::Read;
    let mut err = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        stderr.read_to_string(&mut err).unwrap();
    }
    (child.wait().unwrap(), err)
}

/// A hang guard, not a timing: kills `child` (our own) after two minutes,
/// so a test waiting on a run that never gets there fails instead of
/// hanging.
#[cfg(unix)]
pub fn kill_if_hung(child: &std::process::Child) {
    let pid = child.id() as libc::pid_t;
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(120));
        // SAFETY: signals our own child process (gone by then if it ended).
        unsafe { libc::kill(pid, libc::SIGKILL) };
    });
}
