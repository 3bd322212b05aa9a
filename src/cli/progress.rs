//! The one progress bar of the command line: on stderr, and only when stderr
//! is a terminal, so pipes, files and CI logs never see it.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// A bar over `len` items named `unit` (e.g. "puzzles"), hidden unless
/// stderr is a terminal.
pub(super) fn bar(len: u64, unit: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit}  {{elapsed}} (eta {{eta}}) {{msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        pb.set_style(style);
    }
    // The elapsed time moves during one long item too (a 25×25 puzzle).
    pb.enable_steady_tick(std::time::Duration::from_millis(500));
    pb
}

/// A spinner with the elapsed time for one long step named `what`
/// (e.g. the bootstrap of `eval`), hidden unless stderr is a terminal.
pub(super) fn spinner(what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new_spinner();
    let template = format!("{{spinner}} {what}  {{elapsed}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        pb.set_style(style);
    }
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    pb
}

/// A bar as the batch driver's progress display. Its total is the input's
/// count when the input was counted first (a file, not a shard of it), so
/// the ETA is true from the start; else it grows as the input is read.
pub(super) struct Bar(pub ProgressBar, bool);

impl Bar {
    /// A bar counting `unit`s over `total()` of them when known, hidden
    /// unless stderr is a terminal. The total is asked for only when the
    /// bar shows: counting reads the whole input once more (a 49,000-line
    /// file costs `check` several per cent), for a bar no one sees.
    pub(super) fn new(unit: &str, total: impl FnOnce() -> Option<u64>) -> Self {
        let total = std::io::stderr().is_terminal().then(total).flatten();
        Bar(bar(total.unwrap_or(0), unit), total.is_some())
    }

    /// `n` more items to do, when the total was not counted first.
    pub(super) fn add_length(&self, n: u64) {
        if !self.1 {
            self.0.inc_length(n);
        }
    }
}

/// The puzzle lines of the input file of `common` (blank and `#` lines
/// aside), counted before a batch so its bar has a true total; `None` for
/// standard input or a shard (which takes every Nth line).
pub(super) fn input_total(common: &super::Common) -> Option<u64> {
    use std::io::BufRead;
    if common.shard.is_some() {
        return None;
    }
    let path = common.input.as_ref().filter(|p| p.as_os_str() != "-")?;
    let file = std::fs::File::open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut n = 0;
    for line in std::io::BufReader::new(file).split(b'\n') {
        let line = line.ok()?;
        let text = line.trim_ascii();
        if !text.is_empty() && !text.starts_with(b"#") {
            n += 1;
        }
    }
    Some(n)
}

impl sudolab::Progress for Bar {
    fn queued(&self, n: u64) {
        self.add_length(n);
    }
    fn skipped(&self, n: u64) {
        // Done in an earlier run (--resume): out of the counted total.
        if self.1 {
            let left = self.0.length().unwrap_or(0).saturating_sub(n);
            self.0.set_length(left);
        }
    }
    fn finished(&self, n: u64) {
        self.0.inc(n);
    }
    fn pause(&self, f: &mut dyn FnMut()) {
        self.0.suspend(f);
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        common: super::super::Common,
    }

    /// A file's puzzle lines are counted first (blank and `#` lines aside),
    /// so the bar's total and ETA are true from the start; standard input
    /// and a shard are not counted.
    #[test]
    fn the_total_is_the_input_files_puzzle_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.txt");
        std::fs::write(&path, "# two puzzles\n\n1.......2\n  \n3.......4\n").unwrap();
        let file = path.to_str().unwrap();
        let total = |args: &[&str]| input_total(&Cli::parse_from(args).common);
        assert_eq!(total(&["x", file]), Some(2));
        assert_eq!(total(&["x", "-"]), None);
        assert_eq!(total(&["x", file, "--shard", "1/2"]), None);
    }

    /// The input is counted for a bar that shows (stderr a terminal) and
    /// only then: a hidden bar's total would cost a second read of the
    /// whole input for nothing.
    #[test]
    fn a_hidden_bar_does_not_count_the_input() {
        let counted = std::cell::Cell::new(false);
        let bar = Bar::new("puzzles", || {
            counted.set(true);
            Some(3)
        });
        let shows = std::io::stderr().is_terminal();
        assert_eq!(counted.get(), shows);
        assert_eq!(bar.1, shows);
    }
}
