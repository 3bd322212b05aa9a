//! Streamed JSON Lines outputs and resuming them.
//!
//! A long run (`analyze`, `relax`) with `--format jsonl` writes each row as
//! soon as it is done, with the input `line` its puzzle came from. With
//! `--resume` the existing file is read back first by the library's results
//! reader ([`sudolab::analyze::results`]):
//!
//! * rows are keyed by input line (and `k` for sweeps), not by puzzle text,
//!   so a data set with the same puzzle twice keeps both rows;
//! * every row must carry the parameters of this run (the spec's `params`);
//!   a file written with other parameters is refused with a message naming
//!   the parameter, never silently mixed;
//! * a row whose line holds another puzzle than this input's line means the
//!   file belongs to another input: refused;
//! * the run record beside the file (`FILE.run.json`: command, every
//!   parameter that changes a row, the input's identity, the shard) must be
//!   this run's; a difference is refused with a message naming it (a sweep
//!   may grow: its k values must include the file's);
//! * a last line cut short by an interrupted run is dropped (and said so)
//!   before appending, so no record is corrupted; any other line that is not
//!   a JSON object is an error.
//!
//! This file opens the output and says what it found; the reading and
//! checking is library work.

use super::{Common, OutputArgs, is_stdio, open_input, write_stdout};
use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde_json::{Map, Value};
use std::io::Write;
use std::path::PathBuf;
pub use sudolab::analyze::results::{DoneRows, Lined, RowKey, RowSpec, RunRecord};
use sudolab::analyze::results::{ResultsError, ResultsFile, STDIN_INPUT, input_identity};
use sudolab::report::{Format, OutputStream, jsonl_line};

/// Where streamed rows go.
pub enum RowWriter {
    /// Written to a file (appended with `--resume`), flushed after every
    /// row; opened at the first row, so a bad input leaves an earlier file
    /// as it was (see [`OutputStream`]). A file that replaces an earlier
    /// one gets its run record (the second field) only once complete.
    File(OutputStream, Option<Box<(RunRecord, PathBuf)>>),
    /// Written to stdout as they come.
    Stdout,
}

impl RowWriter {
    /// Writes one row with its input line.
    pub fn write<T: Serialize>(&mut self, line: usize, row: &T) -> Result<()> {
        let mut text = jsonl_line(&Lined { line, row }).context("cannot serialise a row")?;
        text.push('\n');
        match self {
            RowWriter::File(f, _) => f
                .write_all(text.as_bytes())
                .and_then(|()| f.flush())
                .context("cannot write the output file"),
            RowWriter::Stdout => write_stdout(text.as_bytes()),
        }
    }

    /// Completes the output (a file that replaces an earlier one is renamed
    /// over it only now).
    pub fn finish(self) -> Result<()> {
        match self {
            RowWriter::File(f, pending) => {
                f.finish().context("cannot write the output file")?;
                if let Some(pending) = pending {
                    let (record, path) = *pending;
                    record.write(&path)?;
                }
                Ok(())
            }
            RowWriter::Stdout => Ok(()),
        }
    }
}

/// True when finished rows go straight to stdout as JSON Lines (`-f jsonl`
/// without `-o`), window by window: the same bytes as rendering them all at
/// the end.
pub fn to_stdout(out: &OutputArgs) -> bool {
    streams(out) && out.file().is_none()
}

/// The finished rows of a command that reads its input a window at a time:
/// written to stdout window by window when they stream ([`to_stdout`]), else
/// kept to be rendered at the end.
pub struct WindowRows<T> {
    streamed: bool,
    kept: Vec<T>,
}

impl<T: Serialize> WindowRows<T> {
    /// Rows for the output `out`.
    pub fn new(out: &OutputArgs) -> Self {
        WindowRows {
            streamed: to_stdout(out),
            kept: Vec::new(),
        }
    }

    /// Whether the rows went to stdout as they came.
    pub fn streamed(&self) -> bool {
        self.streamed
    }

    /// Hands on one window's rows (around the progress bar `pb`).
    pub fn push(&mut self, pb: &indicatif::ProgressBar, done: Vec<T>) -> Result<()> {
        if self.streamed {
            pb.suspend(|| write_rows(&done))
        } else {
            self.kept.extend(done);
            Ok(())
        }
    }

    /// The kept rows (none when they streamed).
    pub fn into_kept(self) -> Vec<T> {
        self.kept
    }
}

/// Writes rows to stdout as JSON Lines.
pub fn write_rows<T: Serialize>(rows: &[T]) -> Result<()> {
    let mut text = String::new();
    for row in rows {
        text.push_str(&jsonl_line(row).context("cannot serialise a row")?);
        text.push('\n');
    }
    write_stdout(text.as_bytes())
}

/// True when rows are streamed (`--format jsonl`).
pub fn streams(out: &OutputArgs) -> bool {
    out.format == Format::Jsonl
}

/// The identity of the input `common` names: a hash of the file's bytes,
/// `stdin` (which cannot be read twice) or the embedded examples.
pub fn input_of(common: &Common) -> Result<String> {
    match &common.input {
        None => Ok("embedded examples".into()),
        Some(path) if is_stdio(path) => Ok(STDIN_INPUT.into()),
        Some(path) => input_identity(open_input(path)?)
            .with_context(|| format!("cannot read {}", path.display())),
    }
}

/// The run record of `command` with `params` over the input and shard of
/// `common` (with the alphabet, which decides the puzzles read).
pub fn record(command: &str, mut params: Map<String, Value>, common: &Common) -> Result<RunRecord> {
    let alphabet = common
        .alphabet
        .and_then(|a| clap::ValueEnum::to_possible_value(&a))
        .map(|v| Value::from(v.get_name()))
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
pub fn open(
    out: &OutputArgs,
    resume: bool,
    spec: &RowSpec,
    record: &RunRecord,
) -> Result<(RowWriter, DoneRows)> {
    let file = out.file().filter(|_| streams(out));
    let Some(path) = file else {
        if resume {
            bail!("--resume needs -o FILE with --format jsonl");
        }
        return Ok((RowWriter::Stdout, DoneRows::default()));
    };
    if !resume || !path.exists() {
        let f = OutputStream::new(path, true)
            .with_context(|| format!("cannot write {}", path.display()))?;
        // A new file is written in place (so an interrupted run resumes): its
        // record goes beside it now. One that replaces an earlier file gets
        // its record when it is complete, so a failed run leaves both as
        // they were.
        // A device or FIFO (`-o /dev/stdout`) gets no record: it cannot be
        // resumed, and no file is made beside it.
        let pending = match std::fs::metadata(path) {
            Ok(m) if m.is_file() => Some(Box::new((record.clone(), path.to_path_buf()))),
            Ok(_) => None,
            Err(_) => {
                record.write(path)?;
                None
            }
        };
        return Ok((RowWriter::File(f, pending), DoneRows::default()));
    }
    let results = ResultsFile::read(path)?;
    let has_rows = results.rows(&RowSpec::default()).next().is_some();
    match RunRecord::read(path)? {
        Some(found) => {
            if let Some(difference) = found.difference(record, true) {
                return Err(ResultsError::OtherRun {
                    path: path.to_path_buf(),
                    difference: Box::new(difference),
                }
                .into());
            }
        }
        None if has_rows => {
            return Err(ResultsError::NoRecord {
                path: path.to_path_buf(),
            }
            .into());
        }
        None => {}
    }
    if results.torn_bytes() > 0 {
        results.drop_torn_line()?;
        note!(
            "sudolab: {}: dropped an incomplete last line ({} bytes, left by an interrupted run); its puzzle is computed again",
            path.display(),
            results.torn_bytes()
        );
    }
    let done = DoneRows::read(&results, spec)?;
    // A grown sweep: the record now names every k of the file.
    record.write(path)?;
    note!(
        "sudolab: {}: {} row(s) already done, appending the others",
        path.display(),
        done.len()
    );
    let f = OutputStream::append(path)
        .with_context(|| format!("cannot append to {}", path.display()))?;
    Ok((RowWriter::File(f, None), done))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::path::Path;

    /// The row spec of `relax --k 45 --samples 10 --seed 1 --cap 1000`.
    fn spec() -> RowSpec {
        RowSpec::relax(&sudolab::relax::RelaxOptions {
            k: 45,
            samples: 10,
            seed: 1,
            cap: 1000,
            ..Default::default()
        })
    }

    fn record() -> RunRecord {
        RunRecord {
            command: "relax".into(),
            params: json!({"k": 45, "samples": 10, "seed": 1})
                .as_object()
                .cloned()
                .unwrap(),
            input: "stdin".into(),
            shard: None,
        }
    }

    fn out(path: &Path) -> OutputArgs {
        OutputArgs {
            format: Format::Jsonl,
            output: Some(path.to_path_buf()),
        }
    }

    const ROW: &str = r#"{"line":3,"puzzle":"1.","k":45,"samples":10,"seed":1,"cap":1000}"#;

    #[test]
    fn resume_keys_by_line_and_drops_a_cut_off_record() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, format!("{ROW}\n{}", &ROW[..30])).unwrap();
        record().write(&path).unwrap();
        let (mut w, done) = open(&out(&path), true, &spec(), &record()).unwrap();
        // Which rows count as done is the library's test (analyze::results);
        // here: the kept row is found and the cut-off one is gone.
        assert_eq!(done.len(), 1);
        assert!(done.contains(&RowKey::new(3, &[45]), "1.").unwrap());
        w.write(4, &json!({"puzzle": "2."})).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{ROW}\n{{\"line\":4,\"puzzle\":\"2.\"}}\n"));
    }

    #[test]
    fn resume_refuses_other_parameters_and_foreign_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, ROW.replace("\"seed\":1", "\"seed\":2") + "\n").unwrap();
        record().write(&path).unwrap();
        let e = open(&out(&path), true, &spec(), &record())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("seed = 2, this run has 1"), "{e}");
        std::fs::write(&path, "not json\n").unwrap();
        record().write(&path).unwrap();
        let e = open(&out(&path), true, &spec(), &record())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("line 1: not a JSON record"), "{e}");
        let old = r#"{"puzzle":"1.","k":45,"samples":10,"seed":1,"cap":1000}"#;
        std::fs::write(&path, format!("{old}\n")).unwrap();
        record().write(&path).unwrap();
        let e = open(&out(&path), true, &spec(), &record())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("no `line`"), "{e}");
    }

    #[test]
    fn resume_needs_a_jsonl_file() {
        let stdout = OutputArgs {
            format: Format::Jsonl,
            output: None,
        };
        assert!(open(&stdout, true, &spec(), &record()).is_err());
        assert!(matches!(
            open(&stdout, false, &spec(), &record()).unwrap().0,
            RowWriter::Stdout
        ));
    }
}
