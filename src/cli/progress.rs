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

/// A bar as the batch driver's progress display.
pub(super) struct Bar(pub ProgressBar);

impl Bar {
    /// A bar counting `unit`s, hidden unless stderr is a terminal.
    pub(super) fn new(unit: &str) -> Self {
        Bar(bar(0, unit))
    }
}

impl sudolab::Progress for Bar {
    fn queued(&self, n: u64) {
        self.0.inc_length(n);
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
