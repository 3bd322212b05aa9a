//! Streamed JSON Lines outputs and resuming them: the command line's side
//! of [`crate::cli::sink`], which opens, checks and writes the file.
//! Here: the run record of a command's arguments, and what the opened file
//! held, said on stderr.

pub(super) use super::record::RunRecord;
use super::record::{STDIN_INPUT, input_identity};
use super::{Common, OutputArgs, is_stdio, open_input, signals, write_stdout};
use crate::cli::paths::PathPlan;
pub(super) use crate::cli::sink::RowWriter;
use crate::cli::sink::open_file;
use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde_json::{Map, Value};
use std::io::Write;
use std::path::PathBuf;
use sudolab::Format;
pub(super) use sudolab::{DoneRows, Lined, RowSpec};
use sudolab::{OutputStream, RowStream};

/// Standard output as a row stream: a stream closed from the start is an
/// error (see [`write_stdout`]).
struct Stdout;

impl std::io::Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        write_stdout(buf).map_err(std::io::Error::other)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The finished rows of a command that reads its input a window at a time,
/// written as each window is done, to stdout or to the output file (through
/// its temporary file, renamed over the target only by
/// [`WindowRows::finish`]), so memory does not grow with the input: JSON,
/// JSON Lines and CSV in the bytes [`Format::render`](sudolab::Format::render) gives for
/// all rows at once, text by the command's renderer window by window.
pub(super) struct WindowRows<'a, T> {
    to: RowsTo,
    text: Option<RenderText<'a, T>>,
    header: bool,
    rows: RowStream,
    windows: usize,
    /// The bytes of the window being written, kept from one window to the
    /// next so rows are serialised without an allocation each.
    buf: Vec<u8>,
}

/// A command's text renderer of rows.
type RenderText<'a, T> = &'a dyn Fn(&[T]) -> String;

/// Where the rows of a [`WindowRows`] go.
enum RowsTo {
    Stdout,
    File(OutputStream, PathBuf),
}

impl<'a, T: Serialize> WindowRows<'a, T> {
    /// Rows for the output `out`; text (`-f text`) is rendered by `render`
    /// window by window, so a reader sees rows as they come and one that
    /// goes away (`| head`) stops the run; a table's header (its first line,
    /// when `header`) is written once. Columns are as wide as the first
    /// window needs, wider for a later window that needs more.
    pub(super) fn new(out: &OutputArgs, header: bool, render: RenderText<'a, T>) -> Result<Self> {
        let to = match out.file() {
            Some(path) => RowsTo::File(
                OutputStream::new(path, false)
                    .with_context(|| format!("cannot write {}", path.display()))?,
                path.to_path_buf(),
            ),
            None => RowsTo::Stdout,
        };
        Ok(WindowRows {
            to,
            text: (out.format == Format::Text).then_some(render),
            header,
            rows: RowStream::new(out.format),
            windows: 0,
            buf: Vec::new(),
        })
    }

    /// Writes one window's rows.
    pub(super) fn push(&mut self, done: Vec<T>) -> Result<()> {
        self.windows += 1;
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        match self.text {
            Some(render) => {
                let text = render(&done);
                let text = match text.split_once('\n') {
                    Some((_, rest)) if self.header && self.windows > 1 => rest,
                    _ => &text,
                };
                buf.extend_from_slice(text.as_bytes());
            }
            None => (self.rows.write_rows(&done, &mut buf)).context("cannot serialise a row")?,
        }
        let written = self.write(&buf);
        self.buf = buf;
        written
    }

    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        match &mut self.to {
            RowsTo::Stdout => write_stdout(bytes),
            RowsTo::File(f, path) => f
                .write_all(bytes)
                .with_context(|| format!("cannot write {}", path.display())),
        }
    }

    /// Ends the output: JSON's closing bracket, a text file without rows
    /// gets what the renderer makes of none (a table's header), and the
    /// file is renamed over its target.
    pub(super) fn finish(mut self) -> Result<()> {
        let end = match self.text {
            Some(render) if self.windows == 0 && matches!(self.to, RowsTo::File(..)) => render(&[]),
            Some(_) => String::new(),
            None => self.rows.end(),
        };
        self.write(end.as_bytes())?;
        match self.to {
            RowsTo::Stdout => Ok(()),
            RowsTo::File(f, path) => f
                .finish()
                .with_context(|| format!("cannot write {}", path.display())),
        }
    }
}

/// `plan` with the side file of a streamed output (`-f jsonl -o FILE`):
/// its run record `FILE.run.json` (its lock `.FILE.lock` is declared with
/// every output, [`PathPlan::output`]).
pub(super) fn with_side_files(plan: PathPlan, out: &OutputArgs) -> PathPlan {
    match out.file().filter(|_| streams(out)) {
        Some(path) => plan.side_output("-o", "run record", &RunRecord::path_for(path), path),
        None => plan,
    }
}

/// True when rows are streamed (`--format jsonl`).
pub(super) fn streams(out: &OutputArgs) -> bool {
    out.format == Format::Jsonl
}

/// Lines of the input `common` names (the embedded examples: one per
/// puzzle), `None` for stdin, which cannot be read twice.
fn input_lines(common: &Common) -> Result<Option<u64>> {
    use std::io::Read;
    match &common.input {
        None => Ok(Some(sudolab::Puzzle::examples().len() as u64)),
        Some(path) if is_stdio(path) => Ok(None),
        Some(path) => {
            let mut reader = open_input(path)?;
            let (mut lines, mut last) = (0u64, b'\n');
            let mut buf = vec![0u8; 1 << 16];
            loop {
                let n = reader
                    .read(&mut buf)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                if n == 0 {
                    break;
                }
                lines += buf[..n].iter().filter(|&&b| b == b'\n').count() as u64;
                last = buf[n - 1];
            }
            Ok(Some(lines + u64::from(last != b'\n')))
        }
    }
}

/// The identity of the input `common` names: a hash of the file's bytes,
/// `stdin` (which cannot be read twice) or the embedded examples.
pub(super) fn input_of(common: &Common) -> Result<String> {
    match &common.input {
        None => Ok("embedded examples".into()),
        Some(path) if is_stdio(path) => Ok(STDIN_INPUT.into()),
        Some(path) => input_identity(open_input(path)?)
            .with_context(|| format!("cannot read {}", path.display())),
    }
}

/// The run record of `command` with `params` over the input and shard of
/// `common` (with the alphabet, which decides the puzzles read).
pub(super) fn record(
    command: &str,
    mut params: Map<String, Value>,
    common: &Common,
) -> Result<RunRecord> {
    let alphabet = common
        .alphabet
        .and_then(super::values::name)
        .map(Value::from)
        .unwrap_or_default();
    params.insert("alphabet".into(), alphabet);
    Ok(RunRecord {
        command: command.into(),
        params,
        input: input_of(common)?,
        shard: common.shard.map(|s| s.to_string()),
    })
}

/// Opens the stream of a `--format jsonl` run: a new file (its run record
/// `record` written beside it), stdout, or with `resume` the existing file
/// after checking its record against `record` and reading what it holds (a
/// cut-off last line is dropped, and said so).
pub(super) fn open(
    out: &OutputArgs,
    resume: bool,
    spec: &RowSpec,
    record: &RunRecord,
    input_lines: Option<u64>,
) -> Result<(RowWriter, DoneRows)> {
    let file = out.file().filter(|_| streams(out));
    let Some(path) = file else {
        if resume {
            bail!("--resume needs -o FILE with --format jsonl");
        }
        return Ok((RowWriter::Stream(Box::new(Stdout)), DoneRows::default()));
    };
    let resumed = resume && path.exists();
    let opened = open_file(path, resume, spec, record, input_lines)?;
    if opened.dropped_bytes > 0 {
        note!(
            "sudolab: {}: dropped an incomplete last line ({} bytes, left by an interrupted run); its puzzle is computed again",
            path.display(),
            opened.dropped_bytes
        );
    }
    let mut writer = opened.writer;
    if resumed {
        // Said once the kept rows' puzzles are found to be this input's
        // (with the first new row, or at the end).
        writer.say_with_first_row(format!(
            "sudolab: {}: {} row(s) already done, appending the others",
            path.display(),
            opened.done.len()
        ));
    }
    Ok((writer, opened.done))
}

/// While the returned guard lives, a signal stops the batch instead of
/// ending the program, when `writer` is a file: its finished rows are then
/// kept ([`interrupted`]), also when they replace an earlier file.
pub(super) fn keep_rows_on_signal(writer: Option<&RowWriter>) -> Option<signals::KeepRows> {
    writer
        .filter(|w| w.is_file())
        .map(|_| signals::KeepRows::new())
}

/// Ends a streamed run that a signal stopped (`result` is the batch's
/// error, returned as it is otherwise): the file is completed, stderr says
/// how many rows it keeps (`before` were there already, `now` were written
/// by this run), where the earlier file it replaced is kept, and that
/// `--resume` continues, and the exit code is 128 + the signal's number
/// ([`signals::exit_code`]).
pub(super) fn interrupted(
    e: anyhow::Error,
    writer: Option<RowWriter>,
    out: &OutputArgs,
    before: usize,
    now: usize,
) -> Result<u8> {
    let (Some(writer), Some(path)) = (writer, out.file()) else {
        return Err(e);
    };
    if !signals::is_interrupted(&e) {
        return Err(e);
    }
    let kept = writer.finish_interrupted()?;
    let earlier = match kept {
        Some(kept) => format!("; the file it held before is kept as {}", kept.display()),
        None => String::new(),
    };
    note!(
        "sudolab: interrupted: {} keeps {} finished row(s) ({now} from this run){earlier}; run the same command with --resume to continue",
        path.display(),
        before + now
    );
    Ok(signals::exit_code())
}

/// The row stream of `command` with `params` (the command's parameters
/// struct, which serialises to its run record's `params`) over the input of
/// `common` when its output streams (`-f jsonl`), with the rows a resumed
/// file holds; `None` (and no rows) otherwise, where `--resume` is refused.
pub(super) fn open_rows(
    command: &str,
    params: &impl Serialize,
    common: &Common,
    resume: bool,
    spec: &RowSpec,
) -> Result<(Option<RowWriter>, DoneRows)> {
    if streams(&common.out) {
        if let Some(path) = common.out.file() {
            super::lock::take(path)?;
        }
        let params = match serde_json::to_value(params)? {
            Value::Object(params) => params,
            other => bail!("the run parameters serialise to {other}, not an object"),
        };
        let record = record(command, params, common)?;
        let lines = if resume { input_lines(common)? } else { None };
        let (w, done) = open(&common.out, resume, spec, &record, lines)?;
        Ok((Some(w), done))
    } else if resume {
        bail!("--resume needs -o FILE with --format jsonl");
    } else {
        Ok((None, DoneRows::default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::record::tests::{relax_spec, stdin_record};

    #[test]
    fn resume_needs_a_jsonl_file() {
        let stdout = OutputArgs {
            format: Format::Jsonl,
            output: None,
        };
        assert!(open(&stdout, true, &relax_spec(), &stdin_record(), None).is_err());
        assert!(matches!(
            open(&stdout, false, &relax_spec(), &stdin_record(), None)
                .unwrap()
                .0,
            RowWriter::Stream(_)
        ));
    }
}
