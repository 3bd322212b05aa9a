//! The command-line layer: argument parsing, input reading, output writing.
//! Each subcommand file parses its arguments, calls one library function per
//! puzzle and hands the rows to the shared formatter; no computation here.

mod analyze;
mod app;
mod canon;
mod chart;
mod clauses;
mod decode;
mod encode;
mod engines;
mod eval;
mod generate;
mod lock;
mod order;
mod output;
pub(crate) mod paths;
mod progress;
mod rate;
pub(crate) mod record;
mod relax;
pub(crate) mod report;
mod resume;
mod score;
pub(crate) mod shard;
mod signals;
pub(crate) mod sink;
pub(crate) mod text;
mod values;

pub use app::main;

use crate::cli::paths::PathPlan;
use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Serialize;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use sudolab::{Alphabet, ParseErrorKind, Puzzle};
use sudolab::{BatchError, Driver, Input, JobError, Source};
use sudolab::{Format, write_atomic};

/// Exit codes: documented in the README and the user guide.
pub const EXIT_OK: u8 = 0;
pub const EXIT_ERROR: u8 = 1;
pub const EXIT_DISAGREE: u8 = 2;
pub const EXIT_PARTIAL: u8 = 3;
/// A run stopped by SIGINT that kept its finished rows (128 + SIGINT, as a
/// shell reports a program ended by Ctrl-C; SIGTERM gives 143, SIGHUP 129:
/// `signals::exit_code`).
pub const EXIT_INTERRUPTED: u8 = 130;
/// A command-line usage error (EX_USAGE of sysexits.h).
pub const EXIT_USAGE: u8 = 64;

/// Where and how a subcommand writes its result.
#[derive(Debug, Clone)]
pub struct OutputArgs {
    /// The format: `-f`, else JSON Lines for `-o FILE.jsonl`, else text.
    pub format: Format,
    /// The output file; `-` or none is stdout.
    pub output: Option<PathBuf>,
}

/// The flags behind [`OutputArgs`], as given.
#[derive(Debug, Args, Clone)]
struct OutputFlags {
    /// Output format [default: text, or jsonl for -o FILE.jsonl]
    #[arg(long, short = 'f', value_parser = crate::cli::values::parser::<Format>())]
    format: Option<Format>,
    /// Write the output to this file (atomically) instead of stdout; `-` is
    /// stdout.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
}

impl From<OutputFlags> for OutputArgs {
    /// Without `-f`, a `.jsonl` output file is JSON Lines (streamed and
    /// resumable), anything else text.
    fn from(flags: OutputFlags) -> OutputArgs {
        let jsonl_file = flags
            .output
            .as_deref()
            .is_some_and(|p| p.extension().is_some_and(|e| e == "jsonl"));
        let format = flags.format.unwrap_or(if jsonl_file {
            Format::Jsonl
        } else {
            Format::Text
        });
        OutputArgs {
            format,
            output: flags.output,
        }
    }
}

impl clap::FromArgMatches for OutputArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        OutputFlags::from_arg_matches(matches).map(Into::into)
    }
    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        let mut flags = OutputFlags {
            format: Some(self.format),
            output: self.output.clone(),
        };
        flags.update_from_arg_matches(matches)?;
        *self = flags.into();
        Ok(())
    }
}

impl Args for OutputArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        OutputFlags::augment_args(cmd)
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        OutputFlags::augment_args_for_update(cmd)
    }
}

impl OutputArgs {
    /// The output file, `None` for stdout (no `-o`, or `-o -`).
    pub fn file(&self) -> Option<&Path> {
        self.output.as_deref().filter(|p| !is_stdio(p))
    }

    /// Writes the whole output to the file (atomically) or stdout.
    pub fn write(&self, text: &str) -> Result<()> {
        match self.file() {
            Some(path) => write_atomic(path, text.as_bytes())
                .with_context(|| format!("cannot write {}", path.display())),
            None => write_stdout(text.as_bytes()),
        }
    }

    /// Renders rows in the chosen format (text by `text`) and writes them.
    pub fn emit<T: Serialize>(&self, rows: &[T], text: impl FnOnce(&[T]) -> String) -> Result<()> {
        let s = match self.format {
            Format::Text => text(rows),
            f => f.render(rows).context("cannot serialise the rows")?,
        };
        self.write(&s)
    }
}

pub(crate) use crate::cli::paths::is_stdio;

/// True when standard output was closed when the program started (`>&-`):
/// the runtime then points it at `/dev/null`, where written results would
/// vanish without an error.
#[cfg(target_os = "linux")]
fn stdout_was_closed() -> bool {
    STDOUT_CLOSED_AT_START.load(std::sync::atomic::Ordering::Relaxed)
}

#[cfg(not(target_os = "linux"))]
fn stdout_was_closed() -> bool {
    false
}

#[cfg(target_os = "linux")]
static STDOUT_CLOSED_AT_START: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Runs before `main` (and before the Rust runtime reopens closed standard
/// streams on `/dev/null`): notes whether file descriptor 1 is open.
#[cfg(target_os = "linux")]
extern "C" fn note_closed_stdout() {
    let fds = Path::new("/proc/self/fd");
    let closed = fds.is_dir() && std::fs::symlink_metadata(fds.join("1")).is_err();
    STDOUT_CLOSED_AT_START.store(closed, std::sync::atomic::Ordering::Relaxed);
}

#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static NOTE_CLOSED_STDOUT: extern "C" fn() = note_closed_stdout;

/// Writes to stdout; a closed pipe surfaces as an `io::ErrorKind::BrokenPipe`
/// error, which `main` ends quietly. A standard output closed from the start
/// (`>&-`) is an error: the results would be lost.
pub fn write_stdout(bytes: &[u8]) -> Result<()> {
    if stdout_was_closed() {
        bail!(
            "standard output is closed: the results cannot be written (use -o FILE, or redirect to /dev/null to discard them)"
        );
    }
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .context("cannot write to standard output")
}

/// Arguments every puzzle-reading subcommand shares.
#[derive(Debug, Args, Clone)]
pub struct Common {
    /// Puzzle file (one puzzle per line, or grid blocks); `-` reads stdin.
    /// Without it the embedded example puzzles are used.
    pub input: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
    /// Skip bad input lines (reported on stderr, exit code 3) instead of stopping.
    #[arg(long)]
    pub keep_going: bool,
    /// Digits of the input: 1-g (1–9 then A–Z; 0 . _ blank) or 0-f (0–9
    /// then A–Z; . _ blank). Without it a 16×16 grid that looks like 0–F is
    /// refused rather than guessed.
    #[arg(long, value_parser = crate::cli::values::parser::<Alphabet>())]
    pub alphabet: Option<Alphabet>,
    /// Process only shard I of N (1 ≤ I ≤ N): the puzzles whose input line
    /// is I modulo N, so N jobs cover the input exactly once (merge their
    /// JSONL outputs with `sudolab merge`).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<shard::Shard>,
    /// Whether this command reads pencilmark grids (set by the command,
    /// not an option): every command does but `canon`, which refuses them
    /// (`docs/methods.md` §0.1).
    #[arg(skip = true)]
    pub pencilmarks: bool,
}

/// Puzzles read from the input, with their line numbers, and what was rejected.
pub struct Loaded {
    pub puzzles: Vec<(usize, Puzzle)>,
    /// Rejected input lines and refused puzzles.
    pub rejected: sudolab::Rejections,
    pub keep_going: bool,
}

impl Loaded {
    /// Records a puzzle refused by the command (e.g. contradictory); an
    /// error unless `--keep-going`.
    pub fn refuse(&mut self, line: usize, why: impl std::fmt::Display) -> Result<()> {
        let msg = format!("line {line}: {why}");
        if !self.keep_going {
            bail!("{msg}\n(use --keep-going to skip such puzzles)");
        }
        self.rejected.push(line, msg);
        Ok(())
    }

    /// Prints the summary of rejected lines (in input order) and returns the
    /// exit code.
    pub fn finish(&mut self) -> u8 {
        finish(&self.rejected)
    }
}

/// Prints the rejected lines of a batch (the first ones, in input order)
/// and returns the exit code: [`EXIT_PARTIAL`] when there are any.
pub fn finish(rejected: &sudolab::Rejections) -> u8 {
    if rejected.is_empty() {
        return EXIT_OK;
    }
    note!("sudolab: {} input line(s) rejected:", rejected.total());
    for (_, r) in rejected.first() {
        note!("  {r}");
    }
    if rejected.total() > rejected.first().len() {
        note!(
            "  ... and {} more",
            rejected.total() - rejected.first().len()
        );
    }
    EXIT_PARTIAL
}

/// Opens a puzzle input: a file, or stdin for `-`.
/// One puzzle given to `flag` (`generate --from`, `decode --puzzle`): a
/// puzzle line, or `-` or an existing file whose first puzzle is used; with
/// `only`, a file holding more than one puzzle is refused (which one is
/// meant cannot be guessed); unless `pencilmarks`, a pencilmark grid is
/// refused. Returns where it came from (for error messages) and the puzzle.
pub(super) fn read_one_puzzle(
    flag: &str,
    from: &str,
    only: bool,
    pencilmarks: bool,
) -> Result<(String, Puzzle)> {
    let path = Path::new(from);
    if !is_stdio(path) && !path.is_file() {
        let p = sudolab::parse_puzzle(from).map_err(|e| {
            anyhow::anyhow!("{flag} {from:?}: neither an existing file nor a puzzle line: {e}")
        })?;
        if p.has_pencilmarks() && !pencilmarks {
            bail!("{flag}: {}", sudolab::GIVENS_ONLY);
        }
        return Ok((format!("{from:?}"), p));
    }
    let name = if is_stdio(path) {
        "stdin".to_string()
    } else {
        path.display().to_string()
    };
    let mut reader = sudolab::PuzzleReader::new(open_input(path)?);
    let (line, p) = match reader.next() {
        Some(Ok(found)) => found,
        Some(Err(e)) => bail!("{flag} {name}: {e}"),
        None => bail!("{flag} {name}: no puzzle found"),
    };
    if p.has_pencilmarks() && !pencilmarks {
        bail!("{flag} {name} line {line}: {}", sudolab::GIVENS_ONLY);
    }
    match reader.next().filter(|_| only) {
        Some(Ok((next, _))) => bail!(
            "{flag} {name}: more than one puzzle (lines {line} and {next}); give a file with the one puzzle meant, or the puzzle line itself"
        ),
        Some(Err(e)) => bail!("{flag} {name}: after the puzzle of line {line}: {e}"),
        None => {}
    }
    Ok((format!("{name} line {line}"), p))
}

pub fn open_input(path: &Path) -> Result<Box<dyn std::io::BufRead>> {
    if is_stdio(path) {
        return Ok(Box::new(BufReader::new(std::io::stdin())));
    }
    if path.is_dir() {
        bail!("{}: is a directory, expected a puzzle file", path.display());
    }
    let f = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    Ok(Box::new(BufReader::new(f)))
}

impl Common {
    /// The paths of this command, for the one rule every command's paths
    /// go through ([`crate::cli::paths`]): the input file and `-o`. The
    /// command adds its other paths and checks the plan before any work.
    pub(crate) fn paths(&self) -> PathPlan {
        PathPlan::new()
            .input("INPUT", self.input.as_deref())
            .output("-o", self.out.file())
    }

    /// The batch input of this command: the input file (`-`: stdin) or the
    /// embedded examples, with the shard, alphabet and `--keep-going`.
    pub fn input(&self) -> Result<Input> {
        match &self.input {
            None => Ok(self.input_from(Source::Examples)),
            Some(path) => {
                let reader = open_input(path)?;
                self.text_input(reader, path)
            }
        }
    }

    /// [`Common::input`] from `path` already opened as `reader`.
    pub fn text_input(&self, reader: Box<dyn std::io::BufRead>, path: &Path) -> Result<Input> {
        Ok(self.input_from(Source::Text {
            reader,
            name: path.display().to_string(),
        }))
    }

    /// The batch input of `source` with the shard, alphabet and
    /// `--keep-going` of this command.
    pub fn input_from(&self, source: Source) -> Input {
        Input {
            source,
            alphabet: self.alphabet,
            shard: self.shard,
            keep_going: self.keep_going,
            pencilmarks: self.pencilmarks,
        }
    }
}

/// Reads every puzzle of `input` at once (for the commands that need them
/// all, and small inputs).
pub fn load_input(input: Input) -> Result<Loaded> {
    let keep_going = input.keep_going;
    let (puzzles, summary) = sudolab::read_whole_input(input).map_err(batch_error)?;
    Ok(Loaded {
        puzzles,
        rejected: summary.rejected,
        keep_going,
    })
}

/// Reads the puzzles of the input (or the embedded examples).
pub fn load(common: &Common) -> Result<Loaded> {
    load_input(common.input()?)
}

/// Runs a batch over `input` with `driver` (the library's batch driver):
/// `job` per puzzle, each window's rows to `sink`. A reader of standard
/// output that went away stops it (`sudolab rate | head -1`), as a closed
/// pipe does.
pub fn run_batch<R: Send>(
    input: Input,
    driver: Driver<'_>,
    job: impl Fn(usize, &Puzzle) -> Result<R, JobError> + Sync,
    sink: impl FnMut(Vec<(usize, R)>) -> Result<()>,
) -> Result<sudolab::BatchSummary> {
    run_batch_keyed(input, driver, &[], |line, p, _| job(line, p), sink)
}

/// [`run_batch`] for a job with one row per value of `keys` for each puzzle
/// ([`Driver::run_keyed`]): the job gets the values still to do.
fn run_batch_keyed<R: Send>(
    input: Input,
    driver: Driver<'_>,
    keys: &[u64],
    job: impl Fn(usize, &Puzzle, &[u64]) -> Result<R, JobError> + Sync,
    mut sink: impl FnMut(Vec<(usize, R)>) -> Result<()>,
) -> Result<sudolab::BatchSummary> {
    let stop = || signals::interrupted() || signals::stdout_reader_gone();
    driver
        .stop_when(&stop)
        .run_keyed(input, keys, job, |rows| sink(rows).map_err(Into::into))
        .map_err(batch_error)
}

/// Runs `job` over the input of `common` on every core and writes the rows
/// (text by `render`, whose first line is a header when `header`) window
/// by window to stdout or the output file; returns the exit code.
pub fn batch_rows<R: serde::Serialize + Send>(
    common: &Common,
    unit: &str,
    header: bool,
    render: impl Fn(&[R]) -> String,
    job: impl Fn(usize, &Puzzle) -> Result<R, JobError> + Sync,
) -> Result<u8> {
    let pb = progress::Bar::new(unit, || progress::input_total(common));
    let mut rows = resume::WindowRows::new(&common.out, header, &render)?;
    let summary = run_batch(common.input()?, Driver::new().progress(&pb), job, |done| {
        rows.push(done.into_iter().map(|(_, row)| row).collect())
    })?;
    drop(pb);
    rows.finish()?;
    Ok(finish(&summary.rejected))
}

/// The command line's words for a batch that stopped: hints for the bad
/// lines `--keep-going` would skip; a reader that went away is a closed
/// pipe, which ends the run quietly.
pub fn batch_error(e: BatchError) -> anyhow::Error {
    match e {
        BatchError::BadLine(p) => anyhow::anyhow!("{p}\n(use --keep-going to skip bad lines)"),
        BatchError::Refused { .. } => {
            anyhow::anyhow!("{e}\n(use --keep-going to skip such puzzles)")
        }
        BatchError::Input(p) if matches!(p.kind, ParseErrorKind::Io(_)) => {
            anyhow::anyhow!("cannot read the input: {p}")
        }
        BatchError::Stopped if signals::interrupted() => signals::Interrupted.into(),
        BatchError::Stopped => std::io::Error::from(std::io::ErrorKind::BrokenPipe).into(),
        BatchError::Job(b) | BatchError::Sink(b) => anyhow::Error::from_boxed(b),
        e => e.into(),
    }
}

/// `--dedup`: drops every puzzle equivalent (same canonical form) to one on
/// an earlier input line, and reports each on stderr with both line
/// numbers. With `--shard` the earlier lines of other shards count too (all
/// lines are read for their canonical forms), so shards drop exactly what the
/// unsharded run drops.
pub fn drop_equivalents(common: &Common, loaded: &mut Loaded) -> Result<()> {
    let all = match common.shard {
        None => None,
        Some(_) => {
            if common.input.as_deref().is_some_and(is_stdio) {
                bail!("--dedup with --shard reads the input twice: give a file, not stdin");
            }
            let whole = Common {
                shard: None,
                keep_going: true,
                ..common.clone()
            };
            Some(load(&whole)?.puzzles)
        }
    };
    let lines = all.as_ref().unwrap_or(&loaded.puzzles);
    let refs: Vec<&Puzzle> = lines.iter().map(|(_, p)| p).collect();
    let earlier = sudolab::earlier_equivalents(&refs)
        .map_err(|(i, e)| anyhow::anyhow!("--dedup: line {}: {e}", lines[i].0))?;
    let first_line: std::collections::HashMap<usize, usize> = lines
        .iter()
        .zip(&earlier)
        .filter_map(|((line, _), e)| e.map(|j| (*line, lines[j].0)))
        .collect();
    let before = loaded.puzzles.len();
    loaded
        .puzzles
        .retain(|(line, _)| match first_line.get(line) {
            Some(first) => {
                note!("sudolab: --dedup: line {line} skipped: equivalent to line {first}");
                false
            }
            None => true,
        });
    let skipped = before - loaded.puzzles.len();
    if skipped > 0 {
        note!("sudolab: --dedup: {skipped} puzzle(s) skipped as equivalent to an earlier line");
    }
    Ok(())
}

/// Reads a whole text input (file or `-`).
pub fn read_text(path: &Path) -> Result<String> {
    let mut s = String::new();
    open_input(path)?
        .read_to_string(&mut s)
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(s)
}

/// Reads a whole input (file or `-`) as bytes.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    let mut b = Vec::new();
    open_input(path)?
        .read_to_end(&mut b)
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(b)
}

pub(crate) const MAX_SAMPLES: usize = sudolab::RelaxOptions::MAX_SAMPLES;
pub(crate) const MAX_RUNS: usize = sudolab::RateOptions::MAX_RUNS;
/// Ceiling of `eval`/`fit --bootstrap` (resamples held per statistic).
pub(crate) const MAX_BOOTSTRAP: usize = 1_000_000;
/// Ceiling of the bootstrap's work: resamples × rows, the pairs drawn per
/// statistic (`eval --bootstrap` on a large table), so a ceiling-sized flag
/// on a million rows is refused rather than run for hours.
pub(crate) const MAX_BOOTSTRAP_PAIRS: usize = 2_000_000_000;

/// Refuses a count flag above its documented ceiling, before any work, in
/// the words of the options' own checks ([`sudolab::OptionError`]: the
/// flag named without its dashes). Options structs check their fields with
/// their `check()`; this is for the flags of commands without one.
pub fn at_most(flag: &str, value: usize, max: usize) -> Result<()> {
    if value > max {
        return Err(sudolab::OptionError::AboveCeiling {
            name: flag.trim_start_matches('-').to_string(),
            value,
            max,
        }
        .into());
    }
    Ok(())
}

/// Refuses a `--bootstrap` whose work (resamples × rows) passes
/// `MAX_BOOTSTRAP_PAIRS`, naming both numbers and the largest value that
/// fits.
pub fn bootstrap_fits(replicates: usize, rows: usize) -> Result<()> {
    let pairs = replicates.saturating_mul(rows);
    if pairs > MAX_BOOTSTRAP_PAIRS {
        bail!(
            "--bootstrap {replicates} on {rows} rows: {pairs} resampled pairs per statistic, at most {MAX_BOOTSTRAP_PAIRS} (use --bootstrap {} or less, or 0 for none)",
            MAX_BOOTSTRAP_PAIRS / rows.max(1)
        );
    }
    Ok(())
}

/// Refuses, before any work, a `k` (edges removed) larger than the
/// Sudoku graph of a puzzle to be relaxed, in the library's words
/// ([`sudolab::RelaxOptions::check_k`], as the Python package): `flag` is the
/// parameter (`--k`, or `--sweep`, which the message names first), the
/// error names the first input line of that order.
pub fn check_k_fits(flag: &str, ks: &[usize], puzzles: &[(usize, Puzzle)]) -> Result<()> {
    let Some(&k) = ks.iter().max() else {
        return Ok(());
    };
    let mut seen = std::collections::BTreeSet::new();
    for (line, p) in puzzles {
        if seen.insert(p.order())
            && let Err(e) = sudolab::RelaxOptions::check_k("k", k, p.order())
        {
            // The flag's value is at fault; the line only says whose grid.
            match flag.trim_start_matches('-') {
                "k" => bail!("{e} (the grid of the puzzle on input line {line})"),
                other => bail!("{other}: {e} (the grid of the puzzle on input line {line})"),
            }
        }
    }
    Ok(())
}

/// The names of `metrics` joined by `sep`.
pub(crate) fn join_metrics(metrics: &[sudolab::Metric], sep: &str) -> String {
    metrics
        .iter()
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(sep)
}

/// Parses `A:B:STEP` (inclusive) into the list of `k`.
pub(crate) fn parse_sweep(s: &str) -> Result<Vec<usize>, sudolab::RelaxError> {
    let parts: Vec<&str> = s.split(':').collect();
    let nums: Result<Vec<usize>, _> = parts.iter().map(|p| p.trim().parse::<usize>()).collect();
    match nums.as_deref() {
        Ok([a, b, step]) if *step > 0 && a <= b => Ok((*a..=*b).step_by(*step).collect()),
        Ok([a, b]) if a <= b => Ok((*a..=*b).collect()),
        _ => Err(sudolab::RelaxError::BadSweep(s.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_parsing() {
        assert_eq!(parse_sweep("0:60:5").unwrap().len(), 13);
        assert_eq!(parse_sweep("3:5").unwrap(), vec![3, 4, 5]);
        assert!(parse_sweep("5:3:1").is_err());
        assert!(parse_sweep("0:10:0").is_err());
    }
}
